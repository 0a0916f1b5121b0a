//! The half-open test: Wald's SPRT on a fresh score without floor, open again at `>= A`, close
//! at `<= B` (`breaker::trial::WaldLines`).
//!
//! * [`exact`]: the (n, k) dynamic program from 0 ([`crate::dp`]): OC = P(close), ASN = expected
//!   trials, with the truncation remainders as error estimates.
//! * [`wald`]: Wald's approximations (no overshoot): with `t = h(p)` Wald's exponent
//!   (`E[e^{t w}] = 1`), `OC = (e^{tA} - 1) / (e^{tA} - e^{tB})` (`A / (A - B)` at zero drift) and
//!   `ASN = (OC B + (1 - OC) A) / drift` (`-A B / E[w^2]` at zero drift).
//! * [`wald_parametric`]: the same curve by Wald's `h` parametrization:
//!   `p(h) = (1 - e^{h w_ok}) / (e^{h w_fail} - e^{h w_ok})`.
//! * [`simulate`]: Monte Carlo.
//! * [`half_open_time_limited`]: the breaker's half-open, which also ends at a time limit (then
//!   it closes if the trial score is below 0), approximately: trials as a Poisson stream, so the
//!   number tried by the limit is 1 (the call that starts half-open) plus a Poisson count with
//!   mean `factor x trials to close` ([`time_limited`] mixes over a Poisson count alone).
//!
//! Lost trials are not modelled: every trial returns a result. Only [`time_limited`] and
//! [`half_open_time_limited`] model the time limit; the others are Wald's test run to its end.

use crate::dp;
use crate::figure::Figure;
use crate::mc::Rng;
use crate::num::{self, is_rate, is_test, wald_exponent, Stats};
use breaker::score::Weights;
use breaker::trial::WaldLines;

/// Exact OC and ASN.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactSprt {
    /// Probability that the test closes (reaches `<= B` before `>= A`).
    pub close_probability: f64,
    /// Expected trials until it decides.
    pub expected_trials: f64,
    /// Bound on the close probability the truncation left out.
    pub close_error: f64,
    /// Bound (estimate near zero drift) on the expected trials the truncation left out.
    pub trials_error: f64,
    /// Steps carried.
    pub iterations: u64,
    /// Whether the dynamic program met its tolerance (false: its work cap stopped it).
    pub converged: bool,
    /// Work done: band cells the dynamic program visited.
    pub cells: u64,
}

impl ExactSprt {
    /// Whether the chance to close deserves the label exact: the program converged, or the
    /// error is at most [`crate::cusum::EXACT_MAX_RELATIVE_ERROR`] of the smaller of the chance
    /// and its complement.
    pub fn close_is_exact(&self) -> bool {
        let c = self.close_probability;
        self.converged
            || (self.close_error.is_finite()
                && self.close_error <= crate::cusum::EXACT_MAX_RELATIVE_ERROR * c.min(1.0 - c))
    }

    /// Whether the expected trials deserve the label exact (as [`Self::close_is_exact`]).
    pub fn trials_is_exact(&self) -> bool {
        self.converged
            || (self.trials_error.is_finite()
                && self.trials_error
                    <= crate::cusum::EXACT_MAX_RELATIVE_ERROR * self.expected_trials.abs())
    }
}

/// Exact OC and ASN at failure rate `p` (0 <= p <= 1). Panics unless `B < 0 < A`,
/// `0 <= p <= 1` and the weights make a test ([`crate::num::is_test`]). The dynamic
/// program's work is capped at [`dp::MAX_CELLS`]; see [`exact_capped`].
pub fn exact(w: Weights, lines: WaldLines, p: f64) -> ExactSprt {
    exact_capped(w, lines, p, dp::MAX_CELLS)
}

/// [`exact`] with the dynamic program's work capped at `max_cells` band cells.
pub fn exact_capped(w: Weights, lines: WaldLines, p: f64, max_cells: u64) -> ExactSprt {
    // Weights the other way round (fine above broken) would run the program to its cap for
    // a number that means nothing.
    assert!(
        lines.lower < 0.0 && lines.upper > 0.0 && is_test(w) && is_rate(p),
        "need B < 0 < A, w_fail > 0 > w_ok (finite), 0 <= p <= 1"
    );
    let a = dp::absorb_capped(w, p, 0.0, lines.lower, lines.upper, max_cells);
    // The smaller of the two probabilities carries a relative error bound; the other is its
    // complement (so an OC near 1 keeps its last digits and stays monotone).
    // Each error: the remainder where the program stopped, plus rounding, a few ulps of
    // relative error a step, compounding step on step (without it, 9.6e-13 against a distance
    // of 1.0e-12 from a computation in quad precision at p0 = 30%, p1 = 31%).
    let ulps = 4.0 * f64::EPSILON * a.iterations as f64;
    let (close, close_error) = if a.upper < a.lower {
        (1.0 - a.upper, a.tail_upper + a.upper * ulps)
    } else {
        (a.lower, a.tail_lower + a.lower * ulps)
    };
    ExactSprt {
        close_probability: close,
        expected_trials: a.steps,
        close_error,
        trials_error: a.tail_steps + a.steps * ulps,
        iterations: a.iterations,
        converged: a.converged,
        cells: a.cells,
    }
}

/// Half-open with its time limit ([`time_limited`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeLimited {
    /// Chance that half-open closes: at `<= B`, or at the limit with the trial score below 0.
    pub close_probability: f64,
    /// Chance that it ends at the limit (neither line reached by then).
    pub ends_at_limit: f64,
    /// Cells (trial counts x failure counts) the program visited.
    pub cells: u64,
}

/// Wald's test from 0 (open at `>= A`, close at `<= B`), stopped after `N` trials if neither
/// line is reached, and then closed if the trial score is below 0, else opened, with `N`
/// Poisson with mean `mean_trials`. The (n, k) program over trials and failures, mixed over
/// `N`: the undecided mass lives on a band of failure counts, as in [`dp`], so a step costs the
/// band's width, not `n`. `None` when it could visit more than `max_cells` cells
/// ([`time_limited_cells`]), or when the weights, `p` or the lines make no test
/// ([`crate::num::is_test`], `0 <= p <= 1`, finite `B < 0 < A`). The breaker's half-open is
/// [`half_open_time_limited`], whose first trial is certain.
pub fn time_limited(
    w: Weights,
    lines: WaldLines,
    p: f64,
    mean_trials: f64,
    max_cells: u64,
) -> Option<TimeLimited> {
    time_limited_after(w, lines, p, 0, mean_trials, max_cells)
}

/// Half-open as the breaker runs it, approximately: [`time_limited`] with `N = 1 + M`, `M`
/// Poisson with mean `mean_after_first`. The move to half-open is lazy: the call that starts
/// it is the first trial, at the start of the limit; then calls arrive as a Poisson stream of
/// rate `r` and the limit is `factor x trials to close / r`, so with answers much faster than
/// `1/r` (and no trial lost) the trials tried after the first by the limit number about
/// Poisson(`factor x trials to close`). (Mixing over that Poisson count alone, as this did
/// first, left the first trial out: at the defaults and p1 it put the chance to end at the
/// limit at 0.161 where the simulator's breaker ends there 0.154 of the time.)
pub fn half_open_time_limited(
    w: Weights,
    lines: WaldLines,
    p: f64,
    mean_after_first: f64,
    max_cells: u64,
) -> Option<TimeLimited> {
    time_limited_after(w, lines, p, 1, mean_after_first, max_cells)
}

/// What one trial count of the time-limited program costs beyond its band, in cells: the
/// Poisson weight (Stirling's error and the deviance, with an `exp`) and the step's own work.
pub const TIME_LIMITED_STEP_CELLS: u64 = 256;

/// The most cells [`time_limited`] (`first` = 0) or [`half_open_time_limited`] (`first` = 1)
/// can visit, the figure its work cap is compared with: `(n_max + 1) (width + 1 + S)`, with
/// `n_max = first + ceil(mean + 12 sqrt(mean) + 40)` the trial counts carried (the Poisson
/// weight past them is below 1e-16), `width` the most failure counts undecided at once
/// (`floor((A - B) / (w_fail - w_ok)) + 1`) and `S` = [`TIME_LIMITED_STEP_CELLS`]. `None`
/// for a mean that is no count or whose cells pass u64's range, or for weights or lines that
/// make no test (not `w_fail > 0 > w_ok` with both finite, not finite `B < 0 < A`):
/// [`time_limited`] is then `None` too.
pub fn time_limited_cells(
    w: Weights,
    lines: WaldLines,
    first: u64,
    mean_trials: f64,
) -> Option<u64> {
    time_limited_extent(w, lines, first, mean_trials).map(|(_, cells)| cells)
}

/// The last trial count carried and [`time_limited_cells`].
fn time_limited_extent(w: Weights, lines: WaldLines, first: u64, mean: f64) -> Option<(u64, u64)> {
    // Weights the other way round (fine above broken) or lines not around 0 make no test.
    if !(mean >= 0.0 && mean.is_finite() && is_test(w) && around_zero(lines)) {
        return None;
    }
    // A mean past u64's range saturates, and so the cells pass u64's range below.
    let n_max = ((mean + 12.0 * mean.sqrt() + 40.0).ceil() as u64).saturating_add(first);
    let width = ((lines.upper - lines.lower) / (w.fail - w.ok)).floor() + 1.0;
    // In doubles: exact below 2^53; past u64's range (a count no cap can stand for) `None`.
    let cells = (n_max as f64 + 1.0) * (width + 1.0 + TIME_LIMITED_STEP_CELLS as f64);
    (cells < u64::MAX as f64).then_some((n_max, cells as u64))
}

/// Whether Wald's lines make a test: `-inf < B < 0 < A < inf`.
fn around_zero(l: WaldLines) -> bool {
    l.lower < 0.0 && l.upper > 0.0 && l.lower > f64::NEG_INFINITY && l.upper < f64::INFINITY
}

/// [`time_limited`] with `N = first + Poisson(mean_trials)`.
fn time_limited_after(
    w: Weights,
    lines: WaldLines,
    p: f64,
    first: u64,
    mean_trials: f64,
    max_cells: u64,
) -> Option<TimeLimited> {
    let lambda = mean_trials;
    // Trials past `n_max` have Poisson probability below 1e-16 in all.
    let (n_max, most) = time_limited_extent(w, lines, first, lambda)?;
    if most > max_cells || !is_rate(p) {
        return None;
    }
    let pmf = |n: u64| -> f64 {
        let Some(n) = n.checked_sub(first) else {
            return 0.0;
        };
        if lambda == 0.0 {
            return if n == 0 { 1.0 } else { 0.0 };
        }
        if n == 0 {
            return libm::exp(-lambda);
        }
        // Loader's saddle point (2000; R's `dpois`): Stirling's error and the deviance.
        let n = n as f64;
        libm::exp(-num::stirling_error(n) - num::deviance(n, lambda))
            / libm::sqrt(2.0 * core::f64::consts::PI * n)
    };
    let score = |n: u64, k: u64| k as f64 * w.fail + (n - k) as f64 * w.ok;
    // Decided at or past a line, a tie to rounding included, as the breaker compares.
    let lines = lines.reached(&w);
    // `cont[j]`: still undecided after `n` trials with `klo + j` failures; every other count
    // is decided (its score at or past a line), so the band is all that moves.
    let (mut cont, mut klo) = (vec![1.0f64], 0u64);
    let (mut closed, mut close, mut at_limit, mut weight, mut cells) = (0.0, 0.0, 0.0, 0.0, 0u64);
    for n in 0..=n_max {
        // Stopped by the limit after `n` trials.
        let q = pmf(n);
        let (mut below, mut undecided) = (0.0, 0.0);
        // By index: in the page's wasm that is 190 bytes smaller than `iter().enumerate()`.
        #[allow(clippy::needless_range_loop)]
        for j in 0..cont.len() {
            if score(n, klo + j as u64) < 0.0 {
                below += cont[j];
            }
            undecided += cont[j];
        }
        close += q * (closed + below);
        at_limit += q * undecided;
        weight += q;
        cells += TIME_LIMITED_STEP_CELLS;
        // Trial n + 1: count k gets k's mass times 1 - p and k - 1's times p (added as the
        // whole triangle adds them, so the sums are the same to the bit); a count at or past
        // a line is decided there: open at the top (dropped), closed at the bottom. The
        // undecided counts stay contiguous (the score rises with k).
        let len = cont.len();
        let counts = len + usize::from(len > 0);
        let mut next = vec![0.0; counts];
        let (mut closed_counts, mut live) = (0, 0);
        for j in 0..counts {
            let lo = if j > 0 { cont[j - 1] * p } else { 0.0 };
            let m = lo + if j < len { cont[j] * (1.0 - p) } else { 0.0 };
            let s = score(n + 1, klo + j as u64);
            if s <= lines.lower {
                closed += m;
                closed_counts += 1;
            } else if s < lines.upper {
                next[live] = m;
                live += 1;
            }
        }
        next.truncate(live);
        cells += counts as u64;
        klo += closed_counts;
        cont = next;
    }
    // The Poisson weight past `n_max` (below 1e-16) is left out; the sum is renormalized. A
    // chance at most 1: the undecided mass, summed over many trials, can round past the weight
    // by a few units in the last place (1 + 8.7e-15 read as a chance to end at the limit).
    Some(TimeLimited {
        close_probability: (close / weight).min(1.0),
        ends_at_limit: (at_limit / weight).min(1.0),
        cells,
    })
}

/// Wald's approximations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaldSprt {
    /// Wald's OC: probability to close.
    pub close_probability: f64,
    /// Wald's ASN: expected trials.
    pub expected_trials: f64,
    /// Wald's exponent `h(p)` used.
    pub h: f64,
}

/// Wald's OC from the exponent `h`.
fn oc_of_h(h: f64, a: f64, b: f64) -> f64 {
    if h.abs() * (a - b) < 1e-9 {
        a / (a - b)
    } else if h > 0.0 {
        // (1 - e^{-hA}) / (1 - e^{h(B-A)})
        libm::expm1(-h * a) / libm::expm1(h * (b - a))
    } else {
        // e^{-hB} (e^{hA} - 1) / (e^{h(A-B)} - 1)
        libm::exp(-h * b) * libm::expm1(h * a) / libm::expm1(h * (a - b))
    }
}

fn asn_of(w: Weights, p: f64, h: f64, oc: f64, a: f64, b: f64) -> f64 {
    let mu = w.drift(p);
    if h.abs() * (a - b) < 1e-6 || mu == 0.0 {
        let m2 = p * w.fail * w.fail + (1.0 - p) * w.ok * w.ok;
        -a * b / m2
    } else {
        (oc * b + (1.0 - oc) * a) / mu
    }
}

/// Wald's approximations at failure rate `p`. Requires `0 <= p <= 1`, weights that make a test
/// ([`crate::num::is_test`]) and `B < 0 < A`: otherwise a number that means nothing.
pub fn wald(w: Weights, lines: WaldLines, p: f64) -> WaldSprt {
    let (a, b) = (lines.upper, lines.lower);
    match wald_exponent(w, p) {
        None if p <= 0.0 => WaldSprt {
            close_probability: 1.0,
            expected_trials: b / w.ok,
            h: f64::INFINITY,
        },
        None => WaldSprt {
            close_probability: 0.0,
            expected_trials: a / w.fail,
            h: f64::NEG_INFINITY,
        },
        Some(h) => {
            let oc = oc_of_h(h, a, b);
            WaldSprt {
                close_probability: oc,
                expected_trials: asn_of(w, p, h, oc, a, b),
                h,
            }
        }
    }
}

/// Wald's curve by his parametrization: for exponent `h` (nonzero), the failure rate
/// `p(h) = (1 - e^{h w_ok}) / (e^{h w_fail} - e^{h w_ok})` and OC and ASN there.
pub fn wald_parametric(w: Weights, lines: WaldLines, h: f64) -> WaldSprt {
    let (a, b) = (lines.upper, lines.lower);
    let p = wald_rate_of_h(w, h);
    let oc = oc_of_h(h, a, b);
    WaldSprt {
        close_probability: oc,
        expected_trials: asn_of(w, p, h, oc, a, b),
        h,
    }
}

/// The failure rate of [`wald_parametric`] for exponent `h`.
pub fn wald_rate_of_h(w: Weights, h: f64) -> f64 {
    if h == 0.0 {
        return w.zero_drift_rate();
    }
    let p = -libm::expm1(h * w.ok) / (libm::exp(h * w.fail) - libm::exp(h * w.ok));
    if p.is_finite() {
        p
    } else {
        // Far below 0 both exponentials overflow (inf / inf, NaN): the same ratio over
        // e^{h w_ok}, `expm1(-h w_ok) / expm1(h (w_fail - w_ok))`, which tends to 1 there.
        libm::expm1(-h * w.ok) / libm::expm1(h * (w.fail - w.ok))
    }
}

/// Monte Carlo OC and ASN from `runs` half-open rounds, seeded: (close probability with a Wilson
/// 95% interval, expected trials with a Student-t 95% interval). `None` when the weights, `p` or
/// the lines make no test ([`crate::num::is_test`], `0 <= p <= 1`, finite `B < 0 < A`).
pub fn simulate(
    w: Weights,
    lines: WaldLines,
    p: f64,
    runs: u64,
    seed: u64,
) -> Option<(Figure, Figure)> {
    simulate_capped(w, lines, p, runs, seed, u64::MAX).0
}

/// [`simulate`] with its work capped at `max_draws` geometric draws (one per failure
/// simulated): `None` when the cap runs out. Returns the figures and the draws made.
pub fn simulate_capped(
    w: Weights,
    lines: WaldLines,
    p: f64,
    runs: u64,
    seed: u64,
    max_draws: u64,
) -> (Option<(Figure, Figure)>, u64) {
    if runs == 0 || !(is_test(w) && is_rate(p) && around_zero(lines)) {
        return (None, 0);
    }
    let mut draws: u64 = 0;
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let mut closes = 0u64;
    let step = -w.ok;
    // Decided at or past a line, a tie to rounding included, as the breaker compares.
    let lines = lines.reached(&w);
    for _ in 0..runs {
        let mut s = 0.0f64;
        let mut trials: u64 = 0;
        let closed = loop {
            if draws >= max_draws {
                return (None, draws);
            }
            draws += 1;
            let g = if p > 0.0 {
                rng.geometric(p)
            } else {
                u64::MAX / 4
            };
            let to_close = libm::ceil((s - lines.lower) / step).max(1.0);
            if g as f64 + 1.0 >= to_close {
                // The division can round either way at a tie: find the exact crossing step by
                // step from one before (the first j with s + j w_ok <= B), and close only if it
                // comes within the g successes (else the failure comes first).
                let mut j = (to_close as u64).saturating_sub(1);
                let mut t = s + j as f64 * w.ok;
                while t > lines.lower {
                    j += 1;
                    t = s + j as f64 * w.ok;
                }
                if j <= g {
                    trials += j;
                    break true;
                }
            }
            s += g as f64 * w.ok;
            trials += g + 1;
            s += w.fail;
            if s >= lines.upper {
                break false;
            }
        };
        if closed {
            closes += 1;
        }
        stats.push(trials as f64);
    }
    let (mean, ci) = stats.mean_ci95();
    let n = runs as f64;
    let ph = closes as f64 / n;
    let z = 1.96f64;
    let den = 1.0 + z * z / n;
    let centre = (ph + z * z / (2.0 * n)) / den;
    let half = z * libm::sqrt(ph * (1.0 - ph) / n + z * z / (4.0 * n * n)) / den;
    (
        Some((
            Figure::simulated(
                ph,
                ((centre - half).max(0.0), (centre + half).min(1.0)),
                runs,
            ),
            Figure::simulated(mean, ci, stats.n()),
        )),
        draws,
    )
}
