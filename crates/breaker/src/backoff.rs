//! Capped exponential backoff for the open-state wait.
//!
//! The first opening waits `first`; each time the trials find the service still broken the wait
//! is multiplied by `factor`, capped at `cap`; a close resets it to `first`.

/// The wait sequence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    first: f64,
    cap: f64,
    factor: f64,
    current: f64,
}

impl Backoff {
    /// A backoff starting at `first`, multiplied by `factor`, capped at `cap` (seconds).
    /// Unchecked, as the settings' validation gives them (`first > 0`, `factor >= 1`, `cap >=
    /// first`, all finite): a factor of 0 makes every wait after the first 0, a negative `first`
    /// a negative wait.
    pub fn new(first: f64, cap: f64, factor: f64) -> Self {
        Backoff {
            first,
            cap,
            factor,
            current: first.min(cap),
        }
    }

    /// The wait in force (or the next one, when closed).
    pub fn current(&self) -> f64 {
        self.current
    }

    /// Opening from closed: the first wait.
    pub fn start(&mut self) -> f64 {
        self.current = self.first.min(self.cap);
        self.current
    }

    /// Opening again after failed trials: the wait grows, up to the cap.
    pub fn grow(&mut self) -> f64 {
        self.current = (self.current * self.factor).min(self.cap);
        self.current
    }

    /// After a close: the next wait is the first.
    pub fn reset(&mut self) {
        self.current = self.first.min(self.cap);
    }
}
