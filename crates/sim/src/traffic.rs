//! Generated arrivals: a rate with an optional daily swing, Poisson or evenly spaced.

use crate::engine::{Arrival, Source};
use crate::rng::Stream;
use crate::scenario::{Arrivals, Scenario};
use crate::trace::TraceError;

const DAY: f64 = 86_400.0;
/// Slices of a day for the thinning envelope: 96 of 15 minutes. Their bounds fall on the rate's
/// turning points (0 and DAY/2), so on each slice the rate is monotone.
const SLICES: usize = 96;
const SLICE: f64 = DAY / SLICES as f64;

#[derive(Debug, Clone)]
pub(crate) struct Generator {
    rng: Stream,
    /// Mean rate, calls/s.
    base: f64,
    swing: f64,
    kind: Arrivals,
    n: u64,
    t: f64,
    /// The run's end (s): drawing stops past it.
    end: f64,
    /// Per slice of the day, `(low, high)`: bounds of the rate on that slice (empty without a
    /// swing).
    envelope: Vec<(f64, f64)>,
    /// The slice the last arrival fell in: its end, `low`, `high` and `1 / high` (kept so a
    /// call does not pay a division and a remainder to find it again).
    slice: Slice,
}

#[derive(Debug, Clone, Copy)]
struct Slice {
    end: f64,
    low: f64,
    high: f64,
    inv_high: f64,
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
            end: s.duration,
            envelope: Vec::new(),
            slice: Slice {
                end: 0.0,
                low: 0.0,
                high: 0.0,
                inv_high: 0.0,
            },
        }
        .with_envelope()
    }

    /// The thinning envelope: on slice `k` the rate lies between its values at the slice's ends
    /// (it is monotone there), widened by `1e-9 x base` to cover rounding in the computed rate
    /// (whose absolute error is a few ulps of `base`).
    fn with_envelope(mut self) -> Self {
        if self.swing > 0.0 {
            let margin = self.base * 1e-9;
            self.envelope = (0..SLICES)
                .map(|k| {
                    let a = self.rate(k as f64 * SLICE);
                    let b = self.rate((k + 1) as f64 * SLICE);
                    ((a.min(b) - margin).max(0.0), a.max(b) + margin)
                })
                .collect();
        }
        self
    }

    /// Make the slice holding `t` the current one.
    fn enter_slice(&mut self, t: f64) {
        let k = (t / SLICE) as u64;
        let (low, high) = self.envelope[(k % SLICES as u64) as usize];
        self.slice = Slice {
            end: (k + 1) as f64 * SLICE,
            low,
            high,
            inv_high: 1.0 / high,
        };
    }

    /// When evenly spaced call `n` comes under a swing: where the expected count, the integral
    /// of the rate `base x (t - swing x day / 2 pi x sin(2 pi t / day))`, reaches `n` (without a
    /// swing, `n / base`). So a day holds `base x day` calls whatever the rate; spacing each call
    /// `1 / rate(t)` after the last took the rate at one instant for the whole gap, which a
    /// gap of hours makes wrong (a week at 0.1 calls/min and a 99% swing had 38% too few calls).
    ///
    /// Newton's method on `g(t) = t - a sin(w t)` (`a = swing x day / 2 pi`, `w = 2 pi / day`,
    /// `g' = 1 - swing cos(w t) >= 1 - swing > 0`), kept inside the bracket
    /// `[n / base - a, n / base + a]` (as `|g(t) - t| <= a`), bisecting when a step leaves it.
    fn even_time(&self, n: f64) -> f64 {
        self.even_root(n).0
    }

    /// [`Generator::even_time`] and the passes its search made (each evaluates the sine once;
    /// the tests count them).
    #[inline(always)]
    fn even_root(&self, n: f64) -> (f64, u32) {
        const W: f64 = 2.0 * core::f64::consts::PI / DAY;
        let target = n / self.base;
        if !target.is_finite() {
            return (target, 0); // a rate so low the first call never comes (past any run's end)
        }
        let a = self.swing / W;
        let (mut lo, mut hi) = (target - a, target + a);
        // From the gap at the last call's rate: one or two steps when calls are dense.
        let mut t = (self.t + 1.0 / self.rate(self.t)).clamp(lo.max(self.t), hi);
        let mut passes = 0;
        for _ in 0..100 {
            passes += 1;
            let f = t - a * libm::sin(W * t) - target;
            if f == 0.0 {
                break;
            }
            if f < 0.0 {
                lo = t;
            } else {
                hi = t;
            }
            let d = 1.0 - self.swing * libm::cos(W * t);
            let newton = t - f / d;
            let inside = newton > lo && newton < hi;
            // Converged when Newton's step is down to rounding (the next would be smaller
            // still): `t` is the root to within it, or the step's end if that is new. Judged
            // on Newton's step, not on where a bisection would go: a step of under half an ulp
            // rounds back onto `t`, now a bound of the bracket, and bisecting there threw the
            // converged value away for up to 50 passes (2% of calls at 600/min, swing 0.3).
            if (newton - t).abs() <= 4.0 * f64::EPSILON * t.abs().max(1.0) {
                if inside {
                    t = newton;
                }
                break;
            }
            let done = hi - lo <= f64::EPSILON * t.abs();
            t = if inside { newton } else { lo + 0.5 * (hi - lo) };
            if done {
                break;
            }
        }
        (t.max(self.t), passes)
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
            (Arrivals::Even, true) => self.even_time(self.n as f64),
            (Arrivals::Poisson, false) => self.t + self.rng.exponential() / self.base,
            (Arrivals::Poisson, true) => {
                // Thinning (Lewis and Shedler 1979) under a piecewise-constant envelope: on each
                // 15-minute slice candidates come at the slice's highest rate `high` and are
                // kept with probability rate(t) / high. A candidate past the slice's end is
                // dropped and drawing restarts at the end under the next slice's rate, which the
                // exponential's memorylessness allows. About 1.01 candidates per call (a single
                // peak-rate envelope needs 1 + swing), and a draw at or under the slice's lowest
                // rate is kept without computing the cosine.
                let mut t = self.t;
                loop {
                    if t >= self.slice.end {
                        self.enter_slice(t);
                    }
                    let Slice {
                        end,
                        low,
                        high,
                        inv_high,
                    } = self.slice;
                    let next = t + self.rng.exponential() * inv_high;
                    if next >= end {
                        // Past the run's end no arrival counts: stop here rather than walk
                        // slice by slice through a rate too low to give one (1e-13 calls/min
                        // would take ~1e13 slices).
                        if end > self.end {
                            break next;
                        }
                        t = end;
                        continue;
                    }
                    t = next;
                    let u = self.rng.uniform() * high;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn generator(json: &str) -> Generator {
        Generator::new(&Scenario::from_json(json).expect("valid scenario"))
    }

    /// The thinning envelope holds the rate on each slice, `low <= rate(t) <= high` for every
    /// `t` in it, ends included (thinning needs it: a candidate is kept outright when `u <= low`,
    /// and kept with probability `rate / high` only if `rate <= high`), and only just: within
    /// `2e-9 x base` of the rate's least and greatest values there, taken at the slice's ends
    /// from the formula `base x (1 - swing x cos(2 pi t / day))` (the rate is monotone on a
    /// slice).
    #[test]
    fn the_envelope_bounds_the_rate_on_each_slice() {
        for (cpm, swing) in [
            (60.0, 0.5),
            (600.0, 0.3),
            (1.0, 0.99),
            (1e-6, 0.7),
            (6e6, 0.999_999_999),
        ] {
            let g = generator(&format!(
                r#"{{ "traffic": {{ "calls_per_minute": {cpm}, "daily_swing": {swing} }} }}"#
            ));
            let base = cpm / 60.0;
            let formula =
                |t: f64| base * (1.0 - swing * (2.0 * core::f64::consts::PI * t / DAY).cos());
            assert_eq!(g.envelope.len(), 96);
            for (k, &(low, high)) in g.envelope.iter().enumerate() {
                let (a, b) = (k as f64 * 900.0, (k + 1) as f64 * 900.0);
                for j in 0..=900 {
                    let t = a + j as f64;
                    let r = g.rate(t);
                    assert!(
                        low <= r && r <= high,
                        "{cpm}/min, swing {swing}, slice {k}, t {t}: rate {r} outside [{low}, {high}]"
                    );
                }
                let (least, most) = (formula(a).min(formula(b)), formula(a).max(formula(b)));
                let slack = 2e-9 * base;
                assert!(
                    low <= least && (low >= least - slack || low == 0.0),
                    "{cpm}/min, swing {swing}, slice {k}: low {low}, least rate {least}"
                );
                assert!(
                    most <= high && high <= most + slack,
                    "{cpm}/min, swing {swing}, slice {k}: high {high}, greatest rate {most}"
                );
            }
        }
    }

    /// A candidate on its slice's end is dropped and drawing restarts there (under the next
    /// slice's rate), also when that end is the run's: the arrival is then the one drawn from
    /// the end, past it, never the untested candidate exactly on it (the engine counts a call at
    /// the run's end). The last arrival is set up so that the next exponential gap lands exactly
    /// on the one-hour run's end.
    #[test]
    fn a_candidate_on_the_run_end_is_dropped_like_one_on_a_slice_end() {
        let mut g = generator(
            r#"{ "duration": 3600, "traffic": { "calls_per_minute": 60, "daily_swing": 0.5 } }"#,
        );
        assert_eq!(g.end, 3600.0);
        // The last slice of the run: [2700, 3600).
        g.enter_slice(3000.0);
        assert_eq!(g.slice.end, 3600.0);
        let gap = g.rng.clone().exponential() * g.slice.inv_high;
        assert!(gap < 3600.0 - 2700.0, "gap {gap}");
        // The last arrival just before the end, so that it plus the gap is the end exactly.
        let mut t = 3600.0 - gap;
        for step in 0.. {
            assert!(step < 100, "no last arrival {gap} before the end");
            if t + gap == 3600.0 {
                break;
            }
            t = f64::from_bits(if t + gap < 3600.0 {
                t.to_bits() + 1
            } else {
                t.to_bits() - 1
            });
        }
        g.t = t;
        // What drawing restarted at the end gives: the same generator at the end, its stream
        // past the gap's draw.
        let mut restarted = g.clone();
        restarted.rng.exponential();
        restarted.t = 3600.0;
        let want = restarted.next_arrival().unwrap().unwrap().t;
        assert!(want > 3600.0, "{want}");
        let got = g.next_arrival().unwrap().unwrap().t;
        assert_eq!(got.to_bits(), want.to_bits(), "{got} vs {want}");
    }

    /// Calls a minute, swing and calls drawn for the tests of evenly spaced calls under a swing.
    const EVEN_SWINGS: [(f64, f64, u64); 5] = [
        (600.0, 0.3, 900_000),
        (1.0, 0.99, 3000),
        (0.01, 0.9, 60),
        (60.0, 0.5, 100_000),
        (6e6, 1e-5, 100_000),
    ];

    /// Evenly spaced calls at `cpm` a minute under a daily `swing`, for as long as a run may be
    /// at this rate (at most `MAX_CALLS` calls).
    fn even_under_a_swing(cpm: f64, swing: f64) -> Generator {
        let duration = (crate::scenario::MAX_CALLS * 60.0 / cpm).min(1e9);
        generator(&format!(
            r#"{{ "duration": {duration}, "traffic": {{ "calls_per_minute": {cpm},
                  "daily_swing": {swing}, "arrivals": "even" }} }}"#
        ))
    }

    /// Evenly spaced calls under a swing: call `n` comes where the expected count reaches `n`,
    /// at the root of `t - a sin(w t) = n / base` (`w = 2 pi / day`, `a = swing / w`), found
    /// here by bisection down to adjacent floats. Newton's method in the generator gets within
    /// rounding of it: `8 eps (t + |a sin(w t)| + n / base)`, the rounding in that function's
    /// terms, over its slope `1 - swing cos(w t)`. Over a day or more of calls, so every phase
    /// of the swing is met, and with a swing so slight (1e-5) that `a` is under a second, at a
    /// rate high enough that the first calls come within microseconds (there a step of `4 eps`
    /// seconds counts as converged: bisection steps alone would stop many ulps from the root).
    #[test]
    fn even_arrivals_under_a_swing_come_at_the_root() {
        const W: f64 = 2.0 * core::f64::consts::PI / DAY;
        for (cpm, swing, calls) in EVEN_SWINGS {
            let mut g = even_under_a_swing(cpm, swing);
            let base = cpm / 60.0;
            let a = swing / W;
            for n in 1..=calls {
                let target = n as f64 / base;
                let (mut lo, mut hi) = (target - a, target + a);
                let root = loop {
                    let mid = lo + 0.5 * (hi - lo);
                    if mid <= lo || mid >= hi {
                        break mid;
                    }
                    if mid - a * (W * mid).sin() < target {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                };
                let t = g.next_arrival().unwrap().unwrap().t;
                let (sin, cos) = (W * root).sin_cos();
                let tol =
                    8.0 * f64::EPSILON * (root + a * sin.abs() + target) / (1.0 - swing * cos);
                assert!(
                    (t - root).abs() <= tol,
                    "{cpm}/min, swing {swing}, call {n}: at {t}, the root is {root} (+- {tol:e})"
                );
            }
        }
    }

    /// The search for an evenly spaced call starts from the gap at the last call's rate, so a
    /// call takes one or two passes (sines evaluated) when calls are dense (a second apart or
    /// less here) and at most 8 when they are minutes or hours apart, over every call of these
    /// runs. A step of Newton's down to rounding ends it: judged on where a bisection would go
    /// instead, it threw the converged value away and took up to 50 passes, on 2% of the calls
    /// at 600/min under a swing of 0.3 (53 at 1/min under 0.99). Each call's time is the one
    /// the generator gives.
    #[test]
    fn even_arrivals_under_a_swing_take_few_passes() {
        for (cpm, swing, calls) in EVEN_SWINGS {
            let mut g = even_under_a_swing(cpm, swing);
            let (mut most, mut total) = (0, 0u64);
            for n in 1..=calls {
                let (t, passes) = g.even_root(n as f64);
                assert!(
                    passes >= 1,
                    "{cpm}/min, swing {swing}, call {n}: no sine evaluated"
                );
                most = most.max(passes);
                total += u64::from(passes);
                let got = g.next_arrival().unwrap().unwrap().t;
                assert_eq!(
                    t.to_bits(),
                    got.to_bits(),
                    "{cpm}/min, swing {swing}, call {n}"
                );
            }
            let bound = if cpm >= 60.0 { 2 } else { 8 };
            assert!(
                most <= bound,
                "{cpm}/min, swing {swing}: up to {most} passes a call ({total} over {calls} calls)"
            );
        }
    }
}
