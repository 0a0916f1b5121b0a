//! Generations against late results.
//!
//! Every state change increments the generation; each permit carries the generation it was let
//! in with, and its result counts only if the breaker is still in that generation. So a failure
//! from a call let in while closed cannot count against the half-open trials. (The statistical
//! breaker's rule; the window breaker keeps resilience4j's, counting a result in whatever
//! window is current when it arrives.)

/// A generation counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Generation(u64);

impl Generation {
    /// The current value.
    pub fn get(self) -> u64 {
        self.0
    }

    /// Move to the next generation and return it.
    pub fn bump(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }

    /// Whether a permit of generation `g` is current.
    pub fn is_current(self, g: u64) -> bool {
        self.0 == g
    }
}
