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
    pub fn new(p0: f64, p1: f64) -> Self {
        Weights {
            fail: libm::log(p1 / p0),
            ok: libm::log((1.0 - p1) / (1.0 - p0)),
        }
    }

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
