//! Log-likelihood-ratio weights and the closed-state CUSUM score.
//!
//! Each counted result multiplies the likelihood ratio "broken vs fine" by `p1/p0` (failure) or
//! `(1-p1)/(1-p0)` (success); logs turn the product into a sum (Wald 1945). The score with a
//! floor at 0, `S = max(0, S + w)`, is Page's CUSUM (Page 1954).

/// The log-likelihood ratio a failure and a success add, in nats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// `w_fail = ln(p1/p0)`, > 0.
    pub fail: f64,
    /// `w_ok = ln((1-p1)/(1-p0))`, < 0.
    pub ok: f64,
}

impl Weights {
    /// Weights for fine rate `p0` and broken rate `p1` (0 < p0 < p1 < 1, unchecked here).
    ///
    /// A ratio within [`Weights::NEAR_ONE`] of 1 (rates close together, or both tiny for
    /// `w_ok`) goes through `log1p` of its distance from 1: the ratio itself rounds away the
    /// digits that distance holds (p0 = 1e-9, p1 = 1.001e-9 gave w_ok 2e-5 off and a drift at
    /// p0 4% off; p0 = 1 - 2^-52 a drift of the wrong sign). Elsewhere `ln` of the ratio, as
    /// always, so runs of ordinary settings are the same bit for bit.
    pub fn new(p0: f64, p1: f64) -> Self {
        Weights {
            fail: ln_ratio(p1 / p0, (p1 - p0) / p0),
            ok: ln_ratio((1.0 - p1) / (1.0 - p0), (p0 - p1) / (1.0 - p0)),
        }
    }

    /// How near 1 a ratio of the rates must be for [`Weights::new`] to take `log1p`.
    pub const NEAR_ONE: f64 = 1e-4;

    /// One point: `|w_ok|`, so a success is -1 point. Points exist for display only.
    pub fn point(&self) -> f64 {
        -self.ok
    }

    /// A value in nats expressed in points.
    pub fn to_points(&self, nats: f64) -> f64 {
        nats / self.point()
    }

    /// The weight of a result: `fail` for a failure, `ok` for a success.
    pub fn of(&self, failed: bool) -> f64 {
        if failed {
            self.fail
        } else {
            self.ok
        }
    }

    /// Expected score change per call at true failure rate `p`: `p w_fail + (1-p) w_ok`.
    pub fn drift(&self, p: f64) -> f64 {
        p * self.fail + (1.0 - p) * self.ok
    }

    /// The failure rate where the drift is zero: `-w_ok / (w_fail - w_ok)`; between p0 and p1.
    pub fn zero_drift_rate(&self) -> f64 {
        -self.ok / (self.fail - self.ok)
    }
}

/// How near a line, relative to the line, a score counts as on it: `1e-12`, about 4500 units in
/// the last place. A score and Wald's lines are sums and logs in floating point, so a tie that
/// is exact in real numbers can fall either way: with `w_fail = ln 3` and `A = ln 9` (p1/p0 = 3,
/// a = b = 10%) two failures summed to one unit below `A`, and the trial asked for a third
/// failure where Wald's rule ("at or above") opens at two.
pub const TIE: f64 = 1e-12;

/// The value at which a score with weights `w` counts as on `line`: the line moved toward 0 by
/// [`TIE`] of it, but by at most a quarter of the smaller weight, so that no step the score can
/// take is swallowed (a success of 1e-12 nats against a floor of `w_fail + |w_ok|` made one failure
/// reach it). A score reaches a line above 0 at `score >= reach(line, w)`, and one below 0 at
/// `score <= reach(line, w)`. The breaker, its derived counts and the analysis' exact programs
/// all compare so.
#[inline]
pub fn reach(line: f64, w: &Weights) -> f64 {
    let slack = (line * TIE).abs().min(0.25 * w.fail.min(-w.ok));
    if line > 0.0 {
        line - slack
    } else {
        line + slack
    }
}

/// Page's CUSUM: `S = max(0, S + w)`, starting at 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Score {
    value: f64,
}

impl Score {
    /// The score in nats.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Add a weight with the floor at 0; returns the new score.
    pub fn add(&mut self, w: f64) -> f64 {
        // A comparison, not `f64::max`: in wasm that is a call to `fmax` (NaN rules), and this
        // runs once per call. The score and weights are finite, so the result is the same.
        let v = self.value + w;
        self.value = if v > 0.0 { v } else { 0.0 };
        self.value
    }

    /// Back to 0.
    pub fn reset(&mut self) {
        self.value = 0.0;
    }
}

/// `ln(ratio)`, where `ratio = 1 + x`: by `log1p(x)` when `x` is within [`Weights::NEAR_ONE`]
/// of 0.
fn ln_ratio(ratio: f64, x: f64) -> f64 {
    if x.abs() < Weights::NEAR_ONE {
        libm::log1p(x)
    } else {
        libm::log(ratio)
    }
}
