//! The closed-state line: `ln N`, N = calls expected in the false-alarm period.
//!
//! Under the fine rate the likelihood ratio is a nonnegative martingale with mean 1, so by
//! Ville's inequality a round starting at score 0 reaches `ln N` with probability at most `1/N`;
//! Lorden (1971) turns that into at least `N` calls between false alarms on average for the CUSUM.
//!
//! Floor rule: the line is never below Wald's single-round line `A = ln((1-b)/a)` (the same
//! evidence the half-open test needs to open again), nor below one failure and one point,
//! `w_fail + |w_ok|`, so a cold meter with little traffic cannot open on the first failure, even
//! where one failure outweighs `A` (p1/p0 large against (1-b)/a: 0.5% and 50% with a = 10%).
//! Where a point is too small for the sum to hold it (p0 = 1e-300, p1 = 1e-15: `w_fail + |w_ok|`
//! is `w_fail` in a double), the floor is the next double above `w_fail`.

use crate::score::Weights;
use crate::trial::WaldLines;

/// The line's floor: `max(A, w_fail + |w_ok|)`, and above `w_fail` (see the module docs).
pub fn floor(weights: Weights, wald: WaldLines) -> f64 {
    let one_and_a_point = weights.fail - weights.ok;
    let above_one = if one_and_a_point > weights.fail {
        one_and_a_point
    } else {
        // The next double up (`f64::next_up` needs Rust 1.86); `w_fail` is finite and > 0.
        f64::from_bits(weights.fail.to_bits() + 1)
    };
    wald.upper.max(above_one)
}

/// `max(ln(rate * period), floor)`; `floor` when the expected count is below `e^floor`.
pub fn line(rate_per_s: f64, period_s: f64, floor: f64) -> f64 {
    let n = rate_per_s * period_s;
    if n > 1.0 {
        libm::log(n).max(floor)
    } else {
        floor
    }
}
