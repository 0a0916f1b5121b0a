//! The textbook (count-window) breaker at a steady failure rate.
//!
//! Rule (resilience4j): after every recorded outcome, once the window holds at least
//! `min(minimum_calls, window)` outcomes, trip when `failures / outcomes in window >= threshold`
//! (as `f64`). After a trip the breaker opens; when it closes again the window starts empty.
//!
//! * [`back_to_back_trips_per_day`]: windows evaluated back to back (disjoint blocks of `window`
//!   calls, each trips with the binomial tail `P(Bin(window, p) >= k)`): exact for that model.
//! * [`calls_to_trip_exact`]: the window sliding one call at a time, exactly, by a Markov chain
//!   on the last `window` outcomes as a bitmask (up to [`MAX_EXACT`] calls): the distribution is
//!   carried call by call, and once the chance of a trip per call has settled to its
//!   quasi-stationary value the geometric remainder is added in closed form. A total outage
//!   (every call failing) from a full window is summed in closed form, for any window.
//! * [`simulate_trips_per_day`], [`simulate_calls_to_trip`]: Monte Carlo for any window.
//!
//! Trips per day from the sliding model are `calls per day / E[calls from empty to a trip]`:
//! time spent open is not subtracted (a trip at baseline is rare, so it hardly matters).

use crate::figure::Figure;
use crate::mc::Rng;
use crate::num::{binomial_upper_tail, is_rate, poisson_ci95_overdispersed, Stats};

/// Largest window the exact sliding chain takes (2^18 states: 11-39 ms natively for the bench's
/// figures, measured 2026-12-02; 20 would take four times that, over the page's 100 ms budget).
pub const MAX_EXACT: u32 = 18;

/// A count window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CountWindow {
    /// `slidingWindowSize` (calls).
    pub size: u32,
    /// `failureRateThreshold` as a fraction (0 < t <= 1).
    pub threshold: f64,
    /// `minimumNumberOfCalls` (capped at the size, as resilience4j does).
    pub minimum_calls: u32,
}

impl CountWindow {
    /// A window whose minimum equals its size (resilience4j's defaults are 100 and 100).
    pub fn new(size: u32, threshold: f64) -> Self {
        CountWindow {
            size,
            threshold,
            minimum_calls: size,
        }
    }

    /// The minimum in force: `min(minimum_calls, size)`, at least 1.
    pub fn effective_minimum(&self) -> u32 {
        self.minimum_calls.min(self.size).max(1)
    }

    /// Failures among `calls` recorded outcomes that trip: smallest `k` with `k / calls >= t`.
    pub fn failures_to_trip(&self, calls: u32) -> u64 {
        failures_to_trip(calls, self.threshold)
    }
}

/// Smallest `k` in `0..=n` with `k as f64 / n as f64 >= t` (`n + 1` if none: a `u64`, so that
/// it is one past even a window of `u32::MAX` calls).
pub fn failures_to_trip(n: u32, t: f64) -> u64 {
    let guess = libm::floor(t * n as f64).max(0.0) as u32;
    let start = guess.saturating_sub(2);
    (start..=n)
        .find(|&k| k as f64 / n as f64 >= t)
        .map_or(u64::from(n) + 1, u64::from)
}

/// Chance that a full window of `size` calls at failure rate `p` is at or over the threshold:
/// the binomial tail `P(Bin(size, p) >= k)`, exact. Where that is above 0 but under the
/// smallest normal double, [`f64::MIN_POSITIVE`] (2.2e-308), it is given as a bound, at most
/// that: a double holds it as 0 or with few digits left (a window of 1,000 calls at 5% against
/// a 50% threshold trips with chance 6.3e-363, which read "0, exact"). Requires `size >= 1` and
/// `0 <= p <= 1` (else NaN or a number that means nothing).
pub fn trip_probability(w: &CountWindow, p: f64) -> Figure {
    let k = w.failures_to_trip(w.size);
    let tail = binomial_upper_tail(w.size as u64, p, k);
    // Above 0 exactly when a failure is possible and `k` failures fit in the window.
    if tail < f64::MIN_POSITIVE && p > 0.0 && k <= u64::from(w.size) {
        Figure::bound(f64::MIN_POSITIVE)
    } else {
        Figure::exact(tail)
    }
}

/// Trips per day with windows back to back at `rps` calls per second: windows a day times
/// [`trip_probability`], and of its kind (a bound, at most, where that is). A product under
/// the smallest normal double (fewer windows a day than one) is the bound "at most
/// [`f64::MIN_POSITIVE`]" too: a subnormal keeps few digits, and it rounds a bound down
/// (2.2e-308 x 1.44e-15 windows a day, at 1e-12 calls/min, read 2.964e-323 below a true
/// 3.096e-323). Requires `size >= 1` and `0 <= p <= 1`, as [`trip_probability`].
pub fn back_to_back_trips_per_day(w: &CountWindow, p: f64, rps: f64) -> Figure {
    let windows_per_day = rps * 86_400.0 / w.size as f64;
    let chance = trip_probability(w, p);
    let per_day = chance.scaled(windows_per_day);
    if per_day.value < f64::MIN_POSITIVE && chance.value > 0.0 {
        Figure::bound(f64::MIN_POSITIVE)
    } else {
        per_day
    }
}

/// Time to fill the window at `rps` calls per second (seconds): `size / rps`, exact for calls
/// evenly spaced (the n-th at `n / rps`, as the simulator's) and the mean for Poisson calls.
pub fn time_to_fill(w: &CountWindow, rps: f64) -> Figure {
    Figure::exact(w.size as f64 / rps)
}

/// Time to the first evaluation (seconds): `min(minimum_calls, size) / rps`.
pub fn time_to_first_evaluation(w: &CountWindow, rps: f64) -> Figure {
    Figure::exact(w.effective_minimum() as f64 / rps)
}

/// Where the window starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Start {
    /// Empty (after a close).
    Empty,
    /// Full of outcomes at this baseline failure rate (independent), given that it did not trip:
    /// a healthy breaker when an outage begins.
    Full {
        /// Baseline failure rate of the outcomes in the window.
        baseline: f64,
    },
}

/// Exact expected calls to a trip and its error estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactTrip {
    /// Expected calls until the window trips (including the tripping call).
    pub calls: f64,
    /// Error estimate: of the chain's geometric remainder and its sum's rounding; for a total
    /// outage's closed form, a bound on the rounding alone (4k ulps, loose: 1e-15 measured).
    pub error: f64,
    /// Calls carried explicitly before the remainder was summed in closed form; for a total
    /// outage, the terms of its sum (`k`).
    pub iterations: u64,
}

/// Calls to trip in a total outage (every call fails) from a full window of `n` calls at the
/// baseline `b` that has not tripped (fewer than `k` failures), in closed form for any `n`:
/// after `j` calls the window holds `j` failures and the newest `n - j` baseline outcomes, and
/// `j + F` never falls as the window slides, so `P(T > j) = P(Bin(n - j, b) <= k - 1 - j) /
/// P(Bin(n, b) <= k - 1)` and `E[T] = sum over j < k`. With `A_c = P(Bin(n - k + 1 + c) <= c)`,
/// `A_{c+1} = A_c + (1 - b) P(Bin(n - k + 1 + c) = c + 1)`: the sum over the last term is
/// carried as ratios to it, which neither overflow nor underflow (`A_0 = (1 - b)^(n - k + 1)`
/// may be far below a double's range).
fn total_outage(n: u32, k: u64, b: f64) -> ExactTrip {
    let k = k.min(u64::from(n)) as u32;
    // No failure needed (a threshold of 0), or a baseline window that trips by itself.
    if k == 0 || b >= 1.0 {
        return ExactTrip {
            calls: 0.0,
            error: 0.0,
            iterations: 0,
        };
    }
    // sum / A_c and (1 - b) P(Bin(m - 1) = c) / A_c, from c = 0: (1 - b) q^(m - 1) / q^m = 1.
    let (mut sum, mut pmf) = (1.0, 1.0);
    for (c, m) in (1..k).zip(n - k + 1..) {
        // (1 - b) P(Bin(m) = c) / A_{c-1}, then A_c / A_{c-1}.
        let next = pmf * f64::from(m) * b / f64::from(c);
        let grew = 1.0 + next;
        sum = sum / grew + 1.0;
        pmf = next / grew;
    }
    ExactTrip {
        calls: sum,
        // A few roundings of half an ulp a step, none growing through the division: 4k ulps.
        error: sum * 4.0 * f64::from(k) * f64::EPSILON,
        iterations: u64::from(k),
    }
}

/// Exact expected calls until the sliding window trips at failure rate `p`, from `start`.
/// `None` when the window is larger than [`MAX_EXACT`] (unless `p` is 1 from a full window: a
/// total outage, in closed form for any size) or empty, or `p` (or the baseline) is
/// not a rate. Infinite, with no error, when nothing trips (a threshold above 1, or `p` of 0): said
/// once the window has turned over with nothing tripped.
pub fn calls_to_trip_exact(w: &CountWindow, p: f64, start: Start) -> Option<ExactTrip> {
    let n = w.size;
    let baseline_ok = match start {
        Start::Full { baseline } => is_rate(baseline),
        Start::Empty => true,
    };
    if n == 0 || !is_rate(p) || !baseline_ok {
        return None;
    }
    if let (1.0, Start::Full { baseline }) = (p, start) {
        if w.threshold <= 1.0 {
            return Some(total_outage(n, w.failures_to_trip(n), baseline));
        }
    }
    if n > MAX_EXACT {
        return None;
    }
    Some(chain(w, p, start))
}

/// [`calls_to_trip_exact`] by the chain on bitmasks (`1 <= size <= MAX_EXACT`, rates checked).
fn chain(w: &CountWindow, p: f64, start: Start) -> ExactTrip {
    let n = w.size;
    let q = 1.0 - p;
    let m = w.effective_minimum();
    let full: usize = (1usize << n) - 1;
    let k_full = w.failures_to_trip(n);
    let mut total = 0.0f64; // sum of P(T > t)
    let mut alive;
    let mut dist: Vec<f64>;
    let mut t: u64 = 0;
    let mut init_ulps = 0.0;
    match start {
        Start::Empty => {
            // Fill phase: masks of length c.
            dist = vec![1.0];
            alive = 1.0;
            for c in 0..n {
                total += alive;
                let len = 1usize << (c + 1);
                let mut next = vec![0.0f64; len];
                for (mask, &v) in dist.iter().enumerate() {
                    if v != 0.0 {
                        next[mask << 1] += q * v;
                        next[(mask << 1) | 1] += p * v;
                    }
                }
                t += 1;
                let calls = c + 1;
                if calls >= m {
                    let k = w.failures_to_trip(calls);
                    for (mask, v) in next.iter_mut().enumerate() {
                        if u64::from((mask as u32).count_ones()) >= k {
                            *v = 0.0;
                        }
                    }
                }
                dist = next;
                alive = dist.iter().sum();
                if alive == 0.0 {
                    return ExactTrip {
                        calls: total,
                        error: 0.0,
                        iterations: t,
                    };
                }
            }
        }
        Start::Full { baseline } => {
            dist = vec![0.0f64; full + 1];
            let (lb, lq) = (libm::log(baseline), libm::log1p(-baseline));
            // Each start's log has at most `3 n max(|ln b|, |ln(1 - b)|)` ulps of rounding, which
            // its `exp` carries as relative error (plus its own), and the normalization doubles.
            // (A baseline of 0 has no `ln b` in any start it keeps.)
            let widest = lq.abs().max(if baseline > 0.0 { -lb } else { 0.0 });
            init_ulps = 3.0 * f64::from(n) * widest + 2.0;
            for (mask, v) in dist.iter_mut().enumerate() {
                let ones = (mask as u32).count_ones();
                if u64::from(ones) < k_full {
                    let lv = if ones > 0 { ones as f64 * lb } else { 0.0 }
                        + if ones < n {
                            (n - ones) as f64 * lq
                        } else {
                            0.0
                        };
                    *v = libm::exp(lv);
                }
            }
            let s: f64 = dist.iter().sum();
            if s <= 0.0 {
                // The baseline window trips by itself.
                return ExactTrip {
                    calls: 0.0,
                    error: 0.0,
                    iterations: 0,
                };
            }
            for v in dist.iter_mut() {
                *v /= s;
            }
            alive = 1.0;
        }
    }
    // Full-window phase. Popcounts from a table (wasm and baseline x86-64 have no fast popcnt
    // in every build).
    let mut ones = vec![0u8; full + 1];
    for s in 1..ones.len() {
        ones[s] = ones[s >> 1] + (s & 1) as u8;
    }
    let k_full_u8 = k_full.min(255) as u8;
    let mut next = vec![0.0f64; full + 1];
    let mut last_rate = f64::NAN;
    let mut settled = 0;
    let max_steps = 400 * n as u64 + 20_000;
    let mut steps = 0u64;
    loop {
        total += alive;
        // Gather: state s came from (s >> 1) with its oldest bit 0 or 1; its newest bit is s & 1.
        // By pairs: states 2j and 2j + 1 both come from j and j + top (one sum for both, and no
        // index arithmetic or bounds checks), in the same order of s as one state at a time.
        let top = 1usize << (n - 1);
        let mut tripped = 0.0;
        let mut new_alive = 0.0;
        let (older0, older1) = dist.split_at(top);
        for (((v, c), &a), &b) in next
            .chunks_exact_mut(2)
            .zip(ones.chunks_exact(2))
            .zip(older0)
            .zip(older1)
        {
            let mass = a + b;
            for (v, &c, x) in v
                .iter_mut()
                .zip(c)
                .zip([q * mass, p * mass])
                .map(|((v, c), x)| (v, c, x))
            {
                // Without a branch: adding 0.0 leaves a sum as it is, so these are the same
                // sums as taking x into one or the other.
                let kept = if c >= k_full_u8 { 0.0 } else { x };
                *v = kept;
                new_alive += kept;
                tripped += x - kept;
            }
        }
        std::mem::swap(&mut dist, &mut next);
        t += 1;
        steps += 1;
        let rate = tripped / alive;
        alive = new_alive;
        // Once the window has turned over, every step trips some of what is alive (0 < p), so
        // none means the trip's mass is below what a double holds (window 18 at a baseline of
        // 1e-40): calls to trip past f64's range, infinite. (It ran all `max_steps`, 13 s, and
        // gave an error of inf / inf.)
        if tripped == 0.0 && steps >= u64::from(n) {
            return ExactTrip {
                calls: f64::INFINITY,
                error: 0.0,
                iterations: t,
            };
        }
        // Rounding, in units of `f64::EPSILON` of the total, for sums of positive terms, each
        // rounding by at most half a unit a term (Higham, *Accuracy and Stability of Numerical
        // Algorithms*, 2002, §4.2): 2 a step (a state's mass rounds twice, the total once), the
        // sums over the states (a step's and the start's: 2^n terms each) and the start's logs.
        // (Measured, the figure is off by far less: 5e-13 of it at 18 calls, where a flat 1e-14
        // had been allowed and fell short.)
        let ulps = 2.0 * t as f64 + (full + 1) as f64 + init_ulps;
        let rounding = total * ulps * f64::EPSILON;
        if alive <= total * 1e-17 || alive < f64::MIN_POSITIVE {
            // Whatever is left adds at most alive / rate.
            let rem = if rate > 0.0 { alive / rate } else { 0.0 };
            return ExactTrip {
                calls: total + rem,
                error: rem + rounding,
                iterations: t,
            };
        }
        if rate > 0.0 && (rate - last_rate).abs() <= 1e-11 * rate {
            settled += 1;
        } else {
            settled = 0;
        }
        last_rate = rate;
        if settled >= 3 || steps >= max_steps {
            let rem = if rate > 0.0 {
                alive / rate
            } else {
                f64::INFINITY
            };
            let drift = if settled >= 3 { 1e-9 } else { 1.0 };
            return ExactTrip {
                calls: total + rem,
                error: rem * drift + rounding,
                iterations: t,
            };
        }
    }
}

/// Exact spurious trips per day for a sliding window (up to [`MAX_EXACT`]) at baseline `p` and
/// `rps` calls per second, restarting empty after each trip.
pub fn sliding_trips_per_day_exact(w: &CountWindow, p: f64, rps: f64) -> Option<(Figure, f64)> {
    let e = calls_to_trip_exact(w, p, Start::Empty)?;
    let per_day = rps * 86_400.0 / e.calls;
    let rel = if e.calls > 0.0 {
        e.error / e.calls
    } else {
        0.0
    };
    Some((Figure::exact(per_day), per_day * rel))
}

/// A simulated sliding window.
struct Sim {
    ring: Vec<bool>,
    head: usize,
    len: u32,
    failures: u32,
}

impl Sim {
    fn new(n: u32) -> Self {
        Sim {
            ring: vec![false; n as usize],
            head: 0,
            len: 0,
            failures: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.failures = 0;
        self.head = 0;
    }

    /// Record an outcome; true if the window trips.
    fn record(&mut self, w: &CountWindow, failed: bool) -> bool {
        let n = self.ring.len();
        if self.len as usize == n {
            if self.ring[self.head] {
                self.failures -= 1;
            }
        } else {
            self.len += 1;
        }
        self.ring[self.head] = failed;
        if failed {
            self.failures += 1;
        }
        self.head = (self.head + 1) % n;
        self.len >= w.effective_minimum() && self.failures as f64 / self.len as f64 >= w.threshold
    }
}

/// Monte Carlo trips per day: `calls` calls at rate `p` from an empty window, restarting empty
/// after each trip. The 95% interval is Garwood's Poisson interval for the trip count, widened for
/// clumped trips: the trips are a renewal process, whose count has about `CV^2` times a Poisson
/// count's variance (`CV` the coefficient of variation of the calls between trips). When the
/// completed cycles give `phi = CV^2 > 1` (a minimum below the window: a short window trips
/// easily right after a restart), the interval is `phi` times Garwood's for the count `/ phi`
/// (rounded outwards); otherwise Garwood's as is (conservative when trips come more evenly).
pub fn simulate_trips_per_day(
    w: &CountWindow,
    p: f64,
    rps: f64,
    calls: u64,
    seed: u64,
) -> Option<Figure> {
    if calls == 0 || w.size == 0 {
        return None;
    }
    let mut rng = Rng::new(seed);
    let mut sim = Sim::new(w.size);
    let mut trips = 0u64;
    let mut cycle = 0u64;
    let mut cycles = Stats::default();
    for _ in 0..calls {
        cycle += 1;
        if sim.record(w, rng.bernoulli(p)) {
            trips += 1;
            cycles.push(cycle as f64);
            cycle = 0;
            sim.clear();
        }
    }
    let scale = rps * 86_400.0 / calls as f64;
    let (lo, hi) = poisson_ci95_overdispersed(trips, cycles.squared_cv());
    Some(Figure::simulated(
        trips as f64 * scale,
        (lo * scale, hi * scale),
        calls,
    ))
}

/// Monte Carlo calls to a trip at rate `p` from `start`: `runs` runs, at most `max_calls` calls in
/// all, counting the calls drawn to fill a starting window (`None` if that runs out: censored
/// runs would bias the mean; or if a full window at the baseline trips 1000 times running, or
/// if one window is more than `max_calls`: filling it would pass the cap).
pub fn simulate_calls_to_trip(
    w: &CountWindow,
    p: f64,
    start: Start,
    runs: u64,
    seed: u64,
    max_calls: u64,
) -> Option<Figure> {
    // A window past the cap is not allocated (u32::MAX calls took 4.3 GB and 42 s to refuse).
    if runs == 0 || w.size == 0 || u64::from(w.size) > max_calls {
        return None;
    }
    let mut rng = Rng::new(seed);
    let mut sim = Sim::new(w.size);
    let mut stats = Stats::default();
    let mut spent = 0u64;
    let k_full = w.failures_to_trip(w.size);
    for _ in 0..runs {
        sim.clear();
        if let Start::Full { baseline } = start {
            // A full window at the baseline, redrawn until it is below the threshold.
            let mut tries = 0;
            loop {
                sim.clear();
                let mut f = 0;
                for _ in 0..w.size {
                    let b = rng.bernoulli(baseline);
                    f += b as u32;
                    let i = sim.head;
                    sim.ring[i] = b;
                    sim.head = (i + 1) % w.size as usize;
                }
                sim.len = w.size;
                sim.failures = f;
                // Filling counts against the cap: a window of 1e6 calls redrawn 1000 times was
                // 1e9 draws (2 s) before the cap was ever looked at.
                spent = spent.saturating_add(u64::from(w.size));
                if spent >= max_calls {
                    return None;
                }
                if u64::from(f) < k_full {
                    break;
                }
                tries += 1;
                if tries >= 1000 {
                    return None;
                }
            }
        }
        let mut calls = 0u64;
        loop {
            calls += 1;
            if sim.record(w, rng.bernoulli(p)) {
                break;
            }
            if spent + calls >= max_calls {
                return None;
            }
        }
        spent += calls;
        stats.push(calls as f64);
    }
    let (mean, ci) = stats.mean_ci95();
    Some(Figure::simulated(mean, ci, stats.n()))
}
