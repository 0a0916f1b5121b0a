//! The half-open test: Wald's SPRT with two lines and no floor (Wald 1945).
//!
//! The trial score starts at 0 and adds the same weights as the closed score. It opens again at
//! `A = ln((1-b)/a)` and closes at `B = ln(b/(1-a))`, where `a` is the chance that the test keeps
//! out a recovered service and `b` the chance it lets a broken one back (Wald's approximations).

use crate::score::{reach, Weights};

/// Wald's two lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaldLines {
    /// `A = ln((1-b)/a)`: open again at or above.
    pub upper: f64,
    /// `B = ln(b/(1-a))`: close at or below.
    pub lower: f64,
}

impl WaldLines {
    /// Lines for error rates `a` (wrongly opens) and `b` (wrongly closes). Unchecked here:
    /// `0 < a`, `0 < b`, `a + b < 1` give `B < 0 < A` (the breaker's settings validate them).
    pub fn new(a: f64, b: f64) -> Self {
        WaldLines {
            upper: libm::log((1.0 - b) / a),
            lower: libm::log(b / (1.0 - a)),
        }
    }

    /// The lines as a trial score with weights `w` is compared with them, each through
    /// [`reach`]: a tie to rounding reaches a line.
    pub fn reached(&self, w: &Weights) -> WaldLines {
        WaldLines {
            upper: reach(self.upper, w),
            lower: reach(self.lower, w),
        }
    }
}

/// Where a trial result leaves the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Keep testing.
    Continue,
    /// The score reached the upper line.
    Open,
    /// The score reached the lower line.
    Close,
}

/// The trial score, with at most one trial in flight.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Trial {
    score: f64,
    /// The in-flight trial: its permit id and the time after which it is lost.
    in_flight: Option<(u64, f64)>,
}

impl Trial {
    /// The trial score (nats).
    pub fn score(&self) -> f64 {
        self.score
    }

    /// A new round: score 0, no trial in flight.
    pub fn reset(&mut self) {
        *self = Trial::default();
    }

    /// The in-flight trial's permit id and its loss time.
    pub fn in_flight(&self) -> Option<(u64, f64)> {
        self.in_flight
    }

    /// Free the slot if the trial in flight is lost at `now` (its timeout has passed).
    /// Returns whether a trial was lost.
    pub fn expire(&mut self, now: f64) -> bool {
        match self.in_flight {
            Some((_, lost_at)) if now >= lost_at => {
                self.in_flight = None;
                true
            }
            _ => false,
        }
    }

    /// Take the slot for trial `id`, lost at `lost_at`. Returns false if the slot is taken.
    pub fn start(&mut self, id: u64, lost_at: f64) -> bool {
        if self.in_flight.is_some() {
            return false;
        }
        self.in_flight = Some((id, lost_at));
        true
    }

    /// Whether `id` is the trial in flight.
    pub fn holds(&self, id: u64) -> bool {
        matches!(self.in_flight, Some((i, _)) if i == id)
    }

    /// Free the slot without moving the score (a neutral outcome).
    pub fn release(&mut self) {
        self.in_flight = None;
    }

    /// Count a trial result: free the slot, add `w`, and compare with the lines: open at or
    /// above `lines.upper`, close at or below `lines.lower`. The breaker passes Wald's lines
    /// through [`score::reach`](crate::score::reach), so that a tie to rounding reaches them.
    pub fn add(&mut self, w: f64, lines: &WaldLines) -> Verdict {
        self.in_flight = None;
        self.score += w;
        if self.score >= lines.upper {
            Verdict::Open
        } else if self.score <= lines.lower {
            Verdict::Close
        } else {
            Verdict::Continue
        }
    }
}
