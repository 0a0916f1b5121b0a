//! The (n, k) dynamic program: a walk that adds `w_fail` with probability `p` and `w_ok`
//! otherwise, from `start`, absorbed at `<= lower` or `>= upper`.
//!
//! After `n` steps with `k` failures the position is `start + k w_fail + (n-k) w_ok`, whatever
//! the order, so the probability mass of the walk not yet absorbed lives on a band of `k` values
//! for each `n` (width `(upper - lower) / (w_fail - w_ok) + 1`). The program carries that band
//! forward one step at a time (two in one pass over the band where it can: the same numbers),
//! moving mass that crosses a line into the absorbed totals. It is exact for real
//! (irrational-ratio) weights; the only approximation is where it stops.
//!
//! Truncation: the program stops when what is still in the band can change no total by more than
//! [`TOLERANCE`] relative (or is below the smallest normal double). What is left is bounded:
//! * chance to end at `upper` from position `s`: at most `e^{-t (upper - s)}` when Wald's exponent
//!   `t > 0` (negative drift; `e^{t S}` is a martingale), else at most 1;
//! * chance to end at `lower`: at most `e^{t (s - lower)}` when `t < 0`, else at most 1;
//! * expected further steps: `D / |drift|` with `D = upper - lower + w_fail - w_ok` by Wald's
//!   identity (rigorous); where the drift is too small for that to be useful (`|drift| D < var`),
//!   the smaller of it and the diffusion estimate `D^2 / var` (the exact expected time at zero
//!   drift is at most that; near it, an estimate, not a bound).
//!
//! Those remainders are returned, so callers turn them into error estimates.

use crate::num::{wald_exponent, weight_variance};
use breaker::score::{reach, Weights};

/// Relative tolerance at which the program stops.
pub const TOLERANCE: f64 = 1e-10;

/// Work cap (band cells visited) so that a pathological input cannot hang a page: about 0.3 s
/// natively, 1.5 s in a browser. When it is reached, the returned remainders say how much is missing.
pub const MAX_CELLS: u64 = 1_000_000_000;

/// What one step costs beyond its cells, in cells: the absorption checks and the loop's own work
/// take about as long as this many cells of the (vectorized) band update. A narrow band (tiny or
/// nearly equal rates: 2 to 10 cells) is then capped in time as a wide one is; counting the
/// cells alone let 1e8 steps through (4.5 s for p0 = 1e-8, p1 = 1e-7, 9 s for a half-open test
/// at p0 = 1e-9).
pub const STEP_CELLS: u64 = 32;

/// What the program found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Absorption {
    /// Probability absorbed at `>= upper` (accumulated).
    pub upper: f64,
    /// Probability absorbed at `<= lower` (accumulated).
    pub lower: f64,
    /// Expected number of steps to absorption (accumulated: `sum_n P(not absorbed after n)`).
    pub steps: f64,
    /// Bound on the probability still to reach `upper` when the program stopped.
    pub tail_upper: f64,
    /// Bound on the probability still to reach `lower`.
    pub tail_lower: f64,
    /// Bound (or diffusion estimate near zero drift) on the expected steps still to come.
    pub tail_steps: f64,
    /// Steps carried.
    pub iterations: u64,
    /// Whether the tolerance was met (false: the work cap stopped it).
    pub converged: bool,
    /// Band cells visited: the work done, the unit of [`MAX_CELLS`].
    pub cells: u64,
}

/// Run the program (see the module docs) with the work cap [`MAX_CELLS`]. Requires
/// `lower < start < upper`, `0 <= p <= 1`, `w.fail > 0 > w.ok`.
pub fn absorb(w: Weights, p: f64, start: f64, lower: f64, upper: f64) -> Absorption {
    absorb_capped(w, p, start, lower, upper, MAX_CELLS)
}

/// [`absorb`] with a work cap of `max_cells` band cells instead of [`MAX_CELLS`]. The cap is
/// checked every step, so the work done passes it by at most one band width.
pub fn absorb_capped(
    w: Weights,
    p: f64,
    start: f64,
    lower: f64,
    upper: f64,
    max_cells: u64,
) -> Absorption {
    debug_assert!(lower < start && start < upper);
    debug_assert!(crate::num::is_test(w));
    // Absorbed at or past a line, a tie to rounding included, as the breaker compares
    // (`breaker::score::reach`): two failures of ln 3 reach A = ln 9.
    let (lower, upper) = (reach(lower, &w), reach(upper, &w));
    let (f, o) = (w.fail, w.ok);
    let q = 1.0 - p;
    let theta = wald_exponent(w, p);
    let mu = w.drift(p);
    let var = weight_variance(w, p);
    let span = upper - lower + f - o;
    let steps_left = {
        let drift_bound = if mu != 0.0 {
            span / mu.abs()
        } else {
            f64::INFINITY
        };
        // Exact bound at zero drift (optional stopping of (S - s)^2 - n var): an estimate nearby.
        // The smaller is the drift bound exactly when |drift| D >= var (the module docs' rule).
        let diffusion = if var > 0.0 {
            span * span / var
        } else {
            f64::INFINITY
        };
        drift_bound.min(diffusion)
    };

    // Position after n steps with k failures. The counts convert as signed integers, the same
    // values (they stay far below 2^63) in one instruction where unsigned takes several (wasm on
    // x86 has no unsigned 64-bit conversion).
    let pos = |n: u64, k: u64| start + k as i64 as f64 * f + (n - k) as i64 as f64 * o;

    // The band: `cur[off..off + len]`, its cell `j` holding the mass at `k = klo + j` failures
    // after `n` steps. A step writes the next band into `next` from its start and the two are
    // swapped; cells absorbed at the bottom are left behind by `off`, so no cell is moved.
    let mut cur = vec![1.0];
    let mut next = Vec::new();
    let (mut off, mut len) = (0usize, 1usize);
    let mut klo: u64 = 0;
    let mut n: u64 = 0;
    let (mut up, mut low, mut steps) = (0.0f64, 0.0f64, 0.0f64);
    let mut alive = 1.0f64;
    let mut cells: u64 = 0;
    let mut converged;
    const CHECK: u64 = 32;
    let tails = |cur: &[f64], n: u64, klo: u64| {
        let (mut tu, mut tl, mut mass) = (0.0, 0.0, 0.0);
        for (j, &m) in cur.iter().enumerate() {
            let s = pos(n, klo + j as u64);
            mass += m;
            tu += m * match theta {
                Some(t) if t > 0.0 => libm::exp(-t * (upper - s)).min(1.0),
                _ => 1.0,
            };
            tl += m * match theta {
                Some(t) if t < 0.0 => libm::exp(t * (s - lower)).min(1.0),
                _ => 1.0,
            };
        }
        (tu, tl, mass * steps_left)
    };
    let (tail_upper, tail_lower, tail_steps) = loop {
        if len + 2 > next.len() {
            // Room for two steps (a step adds at most one cell); `cur` grows on the next swap.
            next = vec![0.0; 2 * len + 64];
        }
        let band = cur.get(off..off + len).unwrap_or_default();
        // Two steps in one pass (the first one's band is never stored) when the first needs
        // none of the work done after a step: no check (n + 1 is not a multiple of CHECK), no
        // re-sum, no stop, no cap; else one step. In one step at most one cell crosses each
        // line: at the top only the new cell (k = klo + len), the others having moved down by
        // |w_ok| from inside; at the bottom only the lowest, its neighbour now standing where it
        // stood plus w_fail. This holds in floating point too: `pos` rounds monotonically in n
        // and in k. So the first step's crossings are settled first and those cells set to 0,
        // and left out of the band after the pass. One step is the same pass with a second step
        // that moves nothing (q, p = 1, 0: x * 1 + 0 * y = x). Every other operation is the
        // one-step program's, in its order: the same numbers to the bit.
        // Reads and slices that cannot miss (the band is never empty here, `next` has room)
        // take no panic path: `get` and a default, fewer wasm bytes than indexing.
        let edge = |cell: Option<&f64>| cell.copied().unwrap_or_default();
        let (mut bottom, mut new_top) = (q * edge(band.first()), p * edge(band.last()));
        let (mut u, mut l, mut absorbed) = (0.0, 0.0, 0.0);
        let crossed_top = pos(n + 1, klo + len as u64) >= upper;
        if crossed_top {
            (u, absorbed, new_top) = (new_top, new_top, 0.0);
        }
        let crossed_bottom = pos(n + 1, klo) <= lower;
        if crossed_bottom {
            (l, absorbed, bottom) = (bottom, absorbed + bottom, 0.0);
        }
        let kept = len + 1 - crossed_top as usize - crossed_bottom as usize;
        steps += alive;
        up += u;
        low += l;
        let pair = (n + 1) % CHECK != 0
            && absorbed <= 0.5 * alive
            && kept > 0
            && alive - absorbed >= f64::MIN_POSITIVE
            && cells + len as u64 + STEP_CELLS <= max_cells;
        let (q2, p2, step) = if pair {
            // The first step's bookkeeping, as after a step below.
            alive -= absorbed;
            absorbed = 0.0;
            cells += len as u64 + STEP_CELLS;
            n += 1;
            steps += alive;
            (q, p, kept)
        } else {
            (1.0, 0.0, len)
        };
        // The (second) step, from the first's band computed on the fly (`prev`: its cell j - 1).
        let out = next.get_mut(..len + 2).unwrap_or_default();
        if let [first, inner @ .., below_top, past_top] = out {
            *first = q2 * bottom;
            let mut prev = bottom;
            for (x, w) in inner.iter_mut().zip(band.windows(2)) {
                let m = q * w[1] + p * w[0];
                *x = q2 * m + p2 * prev;
                prev = m;
            }
            *below_top = q2 * new_top + p2 * prev;
            *past_top = p2 * new_top;
        }
        let at = |j: usize| out.get(j).copied().unwrap_or_default();
        n += 1;
        cells += step as u64 + STEP_CELLS;
        // The band is now out[c..end], the first step's crossed cells (zeros) left out; then
        // the second step's crossings, one check at each end as above.
        let mut c = crossed_bottom as usize;
        let mut end = len + 1 + pair as usize - crossed_top as usize;
        if pair {
            if pos(n, klo + end as u64 - 1) >= upper {
                end -= 1;
                up += at(end);
                absorbed += at(end);
            }
            if c < end && pos(n, klo + c as u64) <= lower {
                low += at(c);
                absorbed += at(c);
                c += 1;
            }
        }
        klo += c as u64;
        std::mem::swap(&mut cur, &mut next);
        (off, len) = (c, end - c);
        // Mass moves, it is not created: alive falls by what is absorbed (re-summed exactly now
        // and then, so rounding cannot drift), keeping the sum out of the pass. The re-sum's
        // pass also reads a subnormal mass as 0 ([`flush`]).
        alive = if n % 256 == 0 || absorbed > 0.5 * alive {
            let band = cur.get_mut(off..off + len).unwrap_or_default();
            // From -0.0, as `Iterator::sum` starts (the sum of an empty band, to the bit).
            band.iter_mut().fold(-0.0, |sum, m| {
                *m = flush(*m);
                sum + *m
            })
        } else {
            alive - absorbed
        };
        let band = cur.get(off..off + len).unwrap_or_default();
        let stop = len == 0 || alive < f64::MIN_POSITIVE;
        // The step remainder is cheap (mass x constant): only then look at the others.
        let check = n % CHECK == 0 && alive * steps_left <= TOLERANCE * steps;
        if stop || check || cells > max_cells {
            // The remainders, computed once whichever way the program ends.
            let (tu, tl, ts) = if len == 0 {
                (0.0, 0.0, 0.0)
            } else {
                tails(band, n, klo)
            };
            let ok_u = tu <= TOLERANCE * up || tu < f64::MIN_POSITIVE;
            let ok_l = tl <= TOLERANCE * low || tl < f64::MIN_POSITIVE;
            converged = stop || (check && ok_u && ok_l);
            if converged || cells > max_cells {
                break (tu, tl, ts);
            }
        }
    };
    Absorption {
        upper: up,
        lower: low,
        steps,
        tail_upper,
        tail_lower,
        tail_steps,
        iterations: n,
        converged,
        cells,
    }
}

/// A mass under the least normal double, read as 0 (every 256 steps, in the pass that re-sums
/// the band): the band's far cells decay through the subnormals, where each product costs the
/// processor some hundred cycles (its microcode, natively and in wasm), and a program run to its
/// cap took 14 s instead of 0.3 s (p0 = 30%, p1 = 30.001%). What is dropped is under 2.2e-308 a
/// cell, far under any figure's error.
#[inline(always)]
fn flush(m: f64) -> f64 {
    if m >= f64::MIN_POSITIVE {
        m
    } else {
        0.0
    }
}
