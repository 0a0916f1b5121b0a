//! Drift: the expected score change per call, `p w_fail + (1-p) w_ok`, and the rate where it is
//! zero, `|w_ok| / (w_fail + |w_ok|)`. Below that rate the score sinks back to 0 between
//! failures; above it the score climbs to the line. The zero-drift rate lies strictly between p0
//! and p1: the indifference zone, where neither "fine" nor "broken" is favoured.

use crate::figure::Figure;
use breaker::score::Weights;

/// Drift per call (nats) at failure rate `p`: exact.
pub fn drift(w: Weights, p: f64) -> Figure {
    Figure::exact(w.drift(p))
}

/// The failure rate with zero drift: exact.
pub fn zero_drift_rate(w: Weights) -> Figure {
    Figure::exact(w.zero_drift_rate())
}
