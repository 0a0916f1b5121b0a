//! Traffic meter: an exponentially damped call count.
//!
//! Each call adds 1; the count decays by a factor `e` per time constant `tau`, so
//! `count(t) = count(t0) * exp(-(t - t0)/tau)`, and `rate = count / tau` (the steady state of a
//! Poisson stream of rate `r` is `count = r tau`). Two numbers: the count and when it was updated.

/// The damped count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Traffic {
    tau: f64,
    count: f64,
    updated: f64,
}

impl Traffic {
    /// A meter with time constant `tau` seconds, starting as if `initial_rate` calls/s had been
    /// flowing (count = `initial_rate * tau`) at time `start`.
    pub fn new(tau: f64, initial_rate: f64, start: f64) -> Self {
        Traffic {
            tau,
            count: initial_rate * tau,
            updated: start,
        }
    }

    fn decayed(&self, now: f64) -> f64 {
        let dt = now - self.updated;
        if dt <= 0.0 {
            self.count
        } else {
            self.count * libm::exp(-dt / self.tau)
        }
    }

    /// Count one call at `now`. A `now` earlier than the last update counts without decay.
    pub fn tick(&mut self, now: f64) {
        self.count = self.decayed(now) + 1.0;
        if now > self.updated {
            self.updated = now;
        }
    }

    /// Calls per second at `now`.
    pub fn rate(&self, now: f64) -> f64 {
        self.decayed(now) / self.tau
    }

    /// The damped count at `now`.
    pub fn count(&self, now: f64) -> f64 {
        self.decayed(now)
    }
}
