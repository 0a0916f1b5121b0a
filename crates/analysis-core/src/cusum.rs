//! The closed statistical breaker: Page's CUSUM `S = max(0, S + w)`, alarm at `S >= line`.
//!
//! Run length = calls from a score of 0 up to and including the call that reaches the line.
//! Under the fine rate it is the number of calls between false alarms; under an outage rate it
//! is the number of calls to open, counted from a score of 0: where a breaker stands after a
//! close or a run of successes. An outage that follows a stretch at the fine rate finds the
//! score above 0 part of the time (a failure takes `w_fail / |w_ok|` successes to wear off), so
//! a running breaker opens a little sooner on average: about 2% at the defaults (100.5 calls
//! against 102.8 from 0, by a simulation of 10^6 outages started from the score's long-run
//! distribution at p0; crates/cli/tests/sim_meets_analysis.rs checks the direction, its 3000
//! outages cannot tell 1% from 2%).
//!
//! Methods:
//! * [`arl_exact`]: renewal over excursions with the (n, k) dynamic program ([`crate::dp`]).
//!   From 0 a success keeps the score at 0; a failure starts an excursion at `w_fail` that ends
//!   at 0 (reset) or at the line (alarm). With `q` = P(alarm in an excursion) and `L` = expected
//!   further calls in one, `ARL = (1 + p L) / (p q)`.
//! * [`arl_markov_chain`]: Brook and Evans (1972): a Markov chain on a grid of step `w_fail / a`
//!   with a failure `+a` and a success `-b` grid steps, `a/b` a continued-fraction convergent of
//!   `w_fail / |w_ok|`, solved exactly by elimination from the line down. Its error estimate is
//!   the difference between the two finest convergents that fit the work budget (or between
//!   the finest and its neighbour `(a +- 1)/b` across the true ratio when only one fits).
//! * [`lorden_bound`]: Ville's inequality: a one-sided test started at score 0 (before its first
//!   result, so not an excursion, which starts one failure up) reaches `ln N` with probability at
//!   most `1/N` at any rate `<= p0`; the CUSUM stops at the first of such tests started at every
//!   call, so its average run length is at least `N` (Lorden 1971). A bound on the mean: single
//!   run lengths can be much shorter.
//! * [`arl_wald`]: Wald's approximation, without overshoot (Siegmund 1985 corrects it by moving
//!   the line out by the mean overshoot past it and the mean undershoot below the floor at 0;
//!   not done here),
//!   `(e^{t h} - 1 - t h) / (-t mu)`, `t` Wald's exponent, `mu` the drift; `h^2 / var` at zero drift.
//! * [`simulate`]: Monte Carlo (seeded PCG; jumps over runs of successes with geometric draws).

use crate::dp;
use crate::figure::Figure;
use crate::mc::Rng;
use crate::num::{is_rate, is_test, wald_exponent, weight_variance, Stats};
use breaker::score::{reach, Weights};

/// The exact run length and its pieces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactArl {
    /// Average run length (calls), from a score of 0.
    pub arl: f64,
    /// Absolute error estimate: the truncated remainders of the dynamic program plus rounding.
    pub error: f64,
    /// Probability that an excursion (a failure at score 0) ends at the line.
    pub alarm_per_excursion: f64,
    /// Expected calls in an excursion after its first failure.
    pub excursion_calls: f64,
    /// Steps the dynamic program carried.
    pub iterations: u64,
    /// Whether the truncation tolerance was met.
    pub converged: bool,
    /// Work done: band cells the dynamic program visited.
    pub cells: u64,
}

/// Largest relative error estimate a figure may carry and still be labeled exact when the
/// dynamic program stopped at its work cap before meeting its tolerance (it prints 4 digits).
pub const EXACT_MAX_RELATIVE_ERROR: f64 = 1e-6;

impl ExactArl {
    /// Whether the number deserves the label exact: the dynamic program met its tolerance, or
    /// its error estimate is finite and at most [`EXACT_MAX_RELATIVE_ERROR`] of the value.
    pub fn is_exact(&self) -> bool {
        self.converged
            || (self.error.is_finite() && self.error <= EXACT_MAX_RELATIVE_ERROR * self.arl.abs())
    }

    /// As a labeled figure: `None` when it is not exact (see [`Self::is_exact`]); the number and
    /// its error estimate are still in [`Self::arl`] and [`Self::error`].
    pub fn figure(&self) -> Option<Figure> {
        self.is_exact().then(|| Figure::exact(self.arl))
    }
}

/// Exact average run length of the CUSUM with weights `w`, line `line` (nats, > 0), failure
/// rate `p` (0 <= p <= 1). Infinite when `p = 0` (or when the alarm probability underflows).
/// The dynamic program's work is capped at [`dp::MAX_CELLS`]; see [`arl_exact_capped`]. Panics
/// unless `line > 0`, `0 <= p <= 1` and the weights make a test ([`crate::num::is_test`]).
pub fn arl_exact(w: Weights, line: f64, p: f64) -> ExactArl {
    arl_exact_capped(w, line, p, dp::MAX_CELLS)
}

/// [`arl_exact`] with the dynamic program's work capped at `max_cells` band cells. When the cap
/// stops it, `converged` is false and `error` says how much is missing: the larger distance to
/// the run lengths the remainders allow, `(1 + p L) / (p (q + tail_upper))` and
/// `(1 + p (L + tail_steps)) / (p q)`, plus rounding (infinite while `q = 0`).
pub fn arl_exact_capped(w: Weights, line: f64, p: f64, max_cells: u64) -> ExactArl {
    assert!(
        line > 0.0 && is_test(w) && is_rate(p),
        "need line > 0, w_fail > 0 > w_ok (finite), 0 <= p <= 1"
    );
    if p <= 0.0 {
        return ExactArl {
            arl: f64::INFINITY,
            error: 0.0,
            alarm_per_excursion: 0.0,
            excursion_calls: 0.0,
            iterations: 0,
            converged: true,
            cells: 0,
        };
    }
    if w.fail >= reach(line, &w) {
        // Every failure at 0 alarms (a tie to rounding included, as the breaker compares):
        // geometric run length.
        return ExactArl {
            arl: 1.0 / p,
            error: 0.0,
            alarm_per_excursion: 1.0,
            excursion_calls: 0.0,
            iterations: 0,
            converged: true,
            cells: 0,
        };
    }
    let a = dp::absorb_capped(w, p, w.fail, 0.0, line, max_cells);
    let qa = a.upper;
    let l = a.steps;
    let arl = (1.0 + p * l) / (p * qa);
    // The totals are sums so far: the true alarm chance is in [qa, qa + tail_upper] and the
    // true excursion length in [l, l + tail_steps], and the run length falls as the first grows
    // and rises with the second. (Infinite while nothing has reached the line: qa = 0.)
    let hi = (1.0 + p * (l + a.tail_steps)) / (p * qa);
    let lo = (1.0 + p * l) / (p * (qa + a.tail_upper));
    // Rounding: each step's cells carry a few ulps of relative error, compounding step on step
    // (not as a random walk: taken as sqrt(steps), the error said 435 calls where a
    // computation in quad precision was 441 away, at p0 = 30%, p1 = 31%, line ln 1e9).
    let rounding = arl * 4.0 * f64::EPSILON * (a.iterations as f64).max(1.0);
    let error = (hi - arl).max(arl - lo) + rounding;
    ExactArl {
        arl,
        error: if error.is_nan() { f64::INFINITY } else { error },
        alarm_per_excursion: qa,
        excursion_calls: l,
        iterations: a.iterations,
        converged: a.converged,
        cells: a.cells,
    }
}

/// The Brook-Evans Markov chain result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainArl {
    /// Average run length (calls) of the grid chain at the finest convergent used.
    pub arl: f64,
    /// Error estimate: `|ARL(finest) - ARL(next finest)|` (or, when only one convergent fits the
    /// budget, the gap to its neighbour `(a +- 1)/b` across the true ratio); rounding only when
    /// the weight ratio is exactly the convergent (e.g. integer weights), unless the line the
    /// breaker compares with (`reach(line)`) is within 1e-9 of a grid point while the line is
    /// not within half the tie of one: then the gap to the grid with the alarm a step the other
    /// way (f64 rounding decides whether the score reaches it); `None` if neither exists.
    pub error: Option<f64>,
    /// The convergent `a/b` (failure `+a`, success `-b` grid steps).
    pub ratio: (u64, u64),
    /// Grid states below the line.
    pub states: u64,
    /// Work done: `states x a x b` multiply-adds over the grids solved (the unit of
    /// [`CHAIN_BUDGET`]).
    pub work: f64,
}

impl ChainArl {
    /// As a labeled figure: an approximation (a discretized chain) whose error is [`Self::error`].
    pub fn figure(&self) -> Figure {
        Figure::approximation(self.arl)
    }
}

/// Work budget of the grid elimination (`states x a x b` multiply-adds), about 30 ms natively.
pub const CHAIN_BUDGET: f64 = 3e7;

/// Continued-fraction convergents `a/b` of `x` (a >= 1), finest last; `exact` when the expansion
/// ended (x is the last one to double precision).
fn convergents(x: f64, max_den: u64) -> (Vec<(u64, u64)>, bool) {
    let (mut h1, mut h2) = (1u64, 0u64);
    let (mut k1, mut k2) = (0u64, 1u64);
    let mut r = x;
    let mut out = Vec::new();
    for _ in 0..40 {
        let ai = libm::floor(r);
        if !(ai.is_finite()) || ai > 1e12 {
            return (out, false);
        }
        let ai = ai as u64;
        let h = ai.saturating_mul(h1).saturating_add(h2);
        let k = ai.saturating_mul(k1).saturating_add(k2);
        if k > max_den {
            return (out, false);
        }
        if h >= 1 {
            out.push((h, k));
        }
        let frac = r - ai as f64;
        // Stop when the convergent matches x to rounding: the ratio is rational (e.g. 2/1).
        if frac <= 1e-12 * r.max(1.0) || (h as f64 / k as f64 - x).abs() <= 4.0 * f64::EPSILON * x {
            return (out, true);
        }
        r = 1.0 / frac;
        (h2, h1) = (h1, h);
        (k2, k1) = (k1, k);
    }
    (out, false)
}

/// The grid for convergent `a/b`, of step `w_fail / a` (a failure is `a` steps exactly, a success
/// `b`, about `|w_ok|`): the number of grid states below the line as the breaker compares with it
/// (`score >= reach(line)`: a line a little above a grid point, within the tie, is reached
/// there), and that line in steps. A line that whole failures reach exactly (N = (p1/p0)^k) is
/// so on the grid too: with a step fitting both weights in least squares, two failures of ln 10
/// fell short of a line of ln 100, and the chain gave 932.9 calls for the exact 369.7.
fn grid(w: Weights, line: f64, a: u64) -> (u64, f64) {
    let line = reach(line, &w);
    let unit = w.fail / a as f64;
    let mut h = libm::ceil(line / unit);
    if (h - 1.0) * unit >= line {
        h -= 1.0;
    }
    (h.max(1.0) as u64, line / unit)
}

/// ARL from 0 of the grid CUSUM: states `0..h`, failure `+a`, success `-b` (floor at 0), alarm
/// at `>= h`. Elimination from the top: each `x_j` above the current front is kept as
/// `c + sum_i d_i x_{m-i} `, with `e` the chance of the alarm first; all terms stay nonnegative
/// (a probabilistic, cancellation-free elimination in the spirit of Grassmann-Taksar-Heyman).
pub(crate) fn grid_arl(p: f64, a: usize, b: usize, h: usize) -> f64 {
    let q = 1.0 - p;
    // Ring of representations of x_j, slot j % a, stored column-wise so the substitution below
    // runs over contiguous slices (it vectorizes).
    let mut cs = vec![0.0f64; a];
    let mut es = vec![0.0f64; a];
    let mut ds = vec![vec![0.0f64; a]; b];
    let mut d0 = vec![0.0f64; a];
    let mut nd = vec![0.0f64; b];
    let (mut nc, mut ne) = (0.0, 0.0);
    for m in (0..h).rev() {
        // The representation of x_{m+a} (slot m % a), or the line.
        let top = m + a;
        let slot = m % a;
        let (c, e, rest) = if top >= h {
            (0.0, 1.0, 0.0)
        } else {
            let rest: f64 = ds[1..].iter().map(|d| d[slot]).sum();
            (cs[slot], es[slot], rest)
        };
        let den = q + p * (e + rest);
        // New representation of x_m in the basis (x_{m-1}, ..., x_{m-b}).
        nc = (1.0 + p * c) / den;
        ne = p * e / den;
        for i in 1..b {
            nd[i - 1] = if top >= h { 0.0 } else { p * ds[i][slot] / den };
        }
        nd[b - 1] = q / den;
        // Substitute x_m into the stored x_j, j in m+1 ..= min(m+a-1, h-1): slots from
        // (m+1) % a, wrapping once at most.
        let jmax = (m + a - 1).min(h.saturating_sub(1));
        if jmax > m {
            let count = jmax - m;
            let start = (m + 1) % a;
            let first = count.min(a - start);
            for (lo, len) in [(start, first), (0, count - first)] {
                if len == 0 {
                    continue;
                }
                let r = lo..lo + len;
                d0[r.clone()].copy_from_slice(&ds[0][r.clone()]);
                for (cj, &dj) in cs[r.clone()].iter_mut().zip(&d0[r.clone()]) {
                    *cj += dj * nc;
                }
                for (ej, &dj) in es[r.clone()].iter_mut().zip(&d0[r.clone()]) {
                    *ej += dj * ne;
                }
                for i in 0..b {
                    let k = nd[i];
                    if i + 1 < b {
                        let (left, right) = ds.split_at_mut(i + 1);
                        for ((x, &nxt), &dj) in left[i][r.clone()]
                            .iter_mut()
                            .zip(&right[0][r.clone()])
                            .zip(&d0[r.clone()])
                        {
                            *x = nxt + dj * k;
                        }
                    } else {
                        for (x, &dj) in ds[i][r.clone()].iter_mut().zip(&d0[r.clone()]) {
                            *x = dj * k;
                        }
                    }
                }
            }
        }
        cs[slot] = nc;
        es[slot] = ne;
        for i in 0..b {
            ds[i][slot] = nd[i];
        }
    }
    // x_0 = c + (sum d) x_0 with every basis symbol an alias of x_0 (the floor): x_0 = c / e.
    if ne > 0.0 {
        nc / ne
    } else {
        f64::INFINITY
    }
}

/// Average run length by the Brook-Evans chain (see the module docs). `None` when `p = 0` or the
/// grid for even the first convergent exceeds [`CHAIN_BUDGET`] by more than 10x, and when the
/// weights, `p` or the line make no test ([`crate::num::is_test`], `0 < p <= 1`, `line > 0`).
pub fn arl_markov_chain(w: Weights, line: f64, p: f64) -> Option<ChainArl> {
    arl_markov_chain_capped(w, line, p, f64::INFINITY)
}

/// [`arl_markov_chain`], or `None` when the grids it would solve (the finest convergent and the
/// one behind its error estimate) take more than `max_work` multiply-adds in all. The choice of
/// grids does not depend on `max_work`: within it, the result is [`arl_markov_chain`]'s.
pub fn arl_markov_chain_capped(w: Weights, line: f64, p: f64, max_work: f64) -> Option<ChainArl> {
    if !(is_test(w) && is_rate(p) && p > 0.0 && line > 0.0) {
        return None;
    }
    let ratio = w.fail / -w.ok;
    let (conv, exact) = convergents(ratio, 1_000_000);
    let cost = |&(a, b): &(u64, u64)| {
        let (h, _) = grid(w, line, a);
        h as f64 * a as f64 * b as f64
    };
    let fit: Vec<(u64, u64)> = conv
        .iter()
        .copied()
        .filter(|c| cost(c) <= CHAIN_BUDGET)
        .collect();
    let finest = match fit.last() {
        Some(&c) => c,
        None => {
            let &c = conv.first()?;
            if cost(&c) > 10.0 * CHAIN_BUDGET {
                return None;
            }
            c
        }
    };
    let run = |(a, b): (u64, u64)| {
        let (h, _) = grid(w, line, a);
        (grid_arl(p, a as usize, b as usize, h as usize), h)
    };
    let is_last = conv.last() == Some(&finest);
    // The next-coarser convergent, or, when none fits, the neighbour (a +- 1)/b on the other
    // side of the true ratio: either differs from the ratio more than a/b does.
    let other = if exact && is_last {
        None
    } else {
        let (a, b) = finest;
        if fit.len() >= 2 {
            Some(fit[fit.len() - 2])
        } else if (a as f64 / b as f64) < ratio {
            Some((a + 1, b))
        } else if a > 1 {
            Some((a - 1, b))
        } else {
            None
        }
    };
    // The ratio is rational to rounding, but the line may sit near a grid point. Within half
    // the breaker's tie of one (`breaker::score::TIE`) the score reaches it there, as the grid
    // does (fine 0.01%, broken 99.99%: |w_ok| exceeds w_fail by 1e-13, and two failures reach a
    // line of w_fail + |w_ok|). Else, where the line the breaker compares with (`reach`) is
    // within 1e-9 of a grid point, the real score's alarm can turn on digits the grid does not
    // hold (the rounding a long climb of the f64 score gathers: a generous margin for a line a
    // few steps up), and the error is the gap to the grid with the alarm one step the other way.
    let (h, mt) = grid(w, line, finest.0);
    let m = line * finest.0 as f64 / w.fail;
    let tie_other = (exact
        && is_last
        && (m - libm::round(m)).abs() >= 0.5 * breaker::score::TIE * m
        && (mt - libm::round(mt)).abs() <= 1e-9 * mt.max(1.0))
    .then(|| {
        if h as f64 > libm::round(mt) {
            h - 1
        } else {
            h + 1
        }
        .max(1)
    });
    // The grids solved: the finest, and the one behind the error (the next coarser, the
    // neighbour, or the finest with the alarm a step the other way).
    let work =
        cost(&finest) * (1 + tie_other.is_some() as u8) as f64 + other.as_ref().map_or(0.0, cost);
    if work > max_work {
        return None;
    }
    let (arl, states) = run(finest);
    let rounding = arl * 1e-13;
    let error = if exact && is_last {
        Some(match tie_other {
            Some(h) => {
                let alt = grid_arl(p, finest.0 as usize, finest.1 as usize, h as usize);
                (arl - alt).abs() + rounding
            }
            None => rounding,
        })
    } else {
        other.map(|o| (arl - run(o).0).abs() + rounding)
    };
    Some(ChainArl {
        arl,
        error,
        ratio: finest,
        states,
        work,
    })
}

/// Ville/Lorden: on average at least `e^line` calls between alarms (a bound on the average run
/// length, not on each run) at any true rate `<= p0` (the rate that makes the likelihood ratio a
/// fair bet). `None` above p0, where no such bound holds.
pub fn lorden_bound(line: f64, p: f64, p0: f64) -> Option<Figure> {
    (p <= p0).then(|| Figure::bound(libm::exp(line)))
}

/// Wald's approximation of the run length, ignoring the overshoot over the line (Siegmund's
/// correction, which moves the line by the overshoot and the undershoot below 0, is not made).
/// Requires `0 <= p <= 1`, `line > 0` and weights that make a test ([`crate::num::is_test`]):
/// otherwise a number that means nothing.
pub fn arl_wald(w: Weights, line: f64, p: f64) -> Figure {
    let mu = w.drift(p);
    let value = match wald_exponent(w, p) {
        None => {
            if p <= 0.0 {
                f64::INFINITY
            } else {
                line / w.fail // p = 1: one failure after another.
            }
        }
        Some(t) => {
            let th = t * line;
            if th.abs() < 1e-6 {
                line * line / weight_variance(w, p)
            } else {
                (libm::expm1(th) - th) / (-t * mu)
            }
        }
    };
    Figure::approximation(value)
}

/// Monte Carlo run length: `runs` runs from 0, seeded. `max_calls` caps the calls simulated in
/// all runs together; when it runs out the figure is `None` (censored runs would bias the mean),
/// as it is when the weights, `p` or the line make no test (`0 < p <= 1`, a finite `line > 0`).
/// Runs of successes are skipped with geometric draws, so the work is per failure, not per call.
pub fn simulate(
    w: Weights,
    line: f64,
    p: f64,
    runs: u64,
    seed: u64,
    max_calls: u64,
) -> Option<Figure> {
    simulate_capped(w, line, p, runs, seed, max_calls, u64::MAX).0
}

/// [`simulate`] with a second cap, `max_draws`: the work, one geometric draw per failure
/// simulated (at a failure rate near 20% a cap on calls alone lets billions of draws through).
/// Returns the figure (`None` when either cap runs out) and the draws made.
pub fn simulate_capped(
    w: Weights,
    line: f64,
    p: f64,
    runs: u64,
    seed: u64,
    max_calls: u64,
    max_draws: u64,
) -> (Option<Figure>, u64) {
    if runs == 0 || !(is_test(w) && is_rate(p) && p > 0.0 && line > 0.0 && line < f64::INFINITY) {
        return (None, 0);
    }
    // An alarm at or past the line, a tie to rounding included, as the breaker compares.
    let line = reach(line, &w);
    let mut draws: u64 = 0;
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let step = -w.ok;
    let mut spent: u64 = 0;
    for _ in 0..runs {
        let mut s = 0.0f64;
        let mut calls: u64 = 0;
        loop {
            if draws >= max_draws {
                return (None, draws);
            }
            draws += 1;
            let g = rng.geometric(p);
            if s > 0.0 {
                let to_zero = libm::ceil(s / step);
                if g as f64 >= to_zero {
                    s = 0.0;
                } else {
                    s += g as f64 * w.ok;
                    if s < 0.0 {
                        s = 0.0;
                    }
                }
            }
            calls = calls.saturating_add(g).saturating_add(1);
            s += w.fail;
            if s >= line {
                break;
            }
            if spent.saturating_add(calls) > max_calls {
                return (None, draws);
            }
        }
        spent += calls;
        stats.push(calls as f64);
    }
    let (mean, ci) = stats.mean_ci95();
    (Some(Figure::simulated(mean, ci, stats.n())), draws)
}
