//! Generated arrivals: a rate with an optional daily swing, Poisson or evenly spaced.

use crate::engine::{Arrival, Source};
use crate::rng::Stream;
use crate::scenario::{Arrivals, Scenario};
use crate::trace::TraceError;

const DAY: f64 = 86_400.0;

#[derive(Debug, Clone)]
pub(crate) struct Generator {
    rng: Stream,
    /// Mean rate, calls/s.
    base: f64,
    swing: f64,
    kind: Arrivals,
    n: u64,
    t: f64,
}

impl Generator {
    pub(crate) fn new(s: &Scenario) -> Self {
        Generator {
            rng: Stream::new(s.seed, 1),
            base: s.traffic.calls_per_minute / 60.0,
            swing: s.traffic.daily_swing,
            kind: s.traffic.arrivals,
            n: 0,
            t: 0.0,
        }
    }

    /// The rate at `t`: `base x (1 - swing x cos(2 pi t / day))`.
    fn rate(&self, t: f64) -> f64 {
        self.base * (1.0 - self.swing * libm::cos(2.0 * core::f64::consts::PI * t / DAY))
    }
}

impl Source for Generator {
    fn next_arrival(&mut self) -> Result<Option<Arrival>, TraceError> {
        self.n += 1;
        self.t = match (self.kind, self.swing > 0.0) {
            // n / rate exactly (no accumulated rounding): the n-th call at n / rate.
            (Arrivals::Even, false) => self.n as f64 / self.base,
            (Arrivals::Even, true) => self.t + 1.0 / self.rate(self.t),
            (Arrivals::Poisson, false) => self.t + self.rng.exponential() / self.base,
            (Arrivals::Poisson, true) => {
                // Thinning (Lewis and Shedler 1979) under the peak rate.
                let peak = self.base * (1.0 + self.swing);
                // The rate is never below `low` (cos <= 1 and rounding is monotone, so
                // `rate(t) >= base x (1 - swing)` holds for the computed values too): a draw at
                // or under it is accepted without computing the cosine, with the same result.
                let low = self.base * (1.0 - self.swing);
                let mut t = self.t;
                loop {
                    t += self.rng.exponential() / peak;
                    let u = self.rng.uniform() * peak;
                    if u <= low || u <= self.rate(t) {
                        break t;
                    }
                }
            }
        };
        Ok(Some(Arrival {
            t: self.t,
            given: None,
        }))
    }
}
