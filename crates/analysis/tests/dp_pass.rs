//! The dynamic program's pass of two steps (`dp::absorb_capped`) against the same program one
//! step at a time (the band carried, as before the pass was fused; subnormal masses read as 0
//! where the band is re-summed, as since the flush), compared to the bit: every
//! field of the result, over random weights, rates, starts, lines and work caps. The pass
//! settles the first step's crossings at the band's two ends and leaves those cells out, and
//! falls back to one step where a step needs a check, a re-sum, a stop or the cap; any slip in
//! that shows here as a different bit, a different step count or a different cell count.

use analysis::dp::{self, Absorption};
use analysis::num::wald_exponent;
use breaker::score::{reach, Weights};

/// The program one step at a time (as at commit d719b21), its constants taken from `dp`.
fn one_step_at_a_time(
    w: Weights,
    p: f64,
    start: f64,
    lower: f64,
    upper: f64,
    max_cells: u64,
) -> Absorption {
    // The lines as the breaker compares (a tie to rounding reaches them), as `dp` takes them.
    let (lower, upper) = (reach(lower, &w), reach(upper, &w));
    let (f, o) = (w.fail, w.ok);
    let q = 1.0 - p;
    let theta = wald_exponent(w, p);
    let mu = w.drift(p);
    let var = p * (1.0 - p) * (f - o) * (f - o);
    let span = upper - lower + f - o;
    let drift_bound = if mu != 0.0 {
        span / mu.abs()
    } else {
        f64::INFINITY
    };
    let diffusion = if var > 0.0 {
        span * span / var
    } else {
        f64::INFINITY
    };
    let steps_left = drift_bound.min(diffusion);
    let pos = |n: u64, k: u64| start + k as f64 * f + (n - k) as f64 * o;
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
    let mut cur: Vec<f64> = vec![1.0];
    let mut next: Vec<f64> = Vec::new();
    let (mut klo, mut n, mut cells) = (0u64, 0u64, 0u64);
    let (mut up, mut low, mut steps, mut alive) = (0.0f64, 0.0f64, 0.0f64, 1.0f64);
    let converged;
    loop {
        steps += alive;
        let len = cur.len();
        next.resize(len + 1, 0.0);
        next[0] = q * cur[0];
        next[len] = p * cur[len - 1];
        for j in 1..len {
            next[j] = q * cur[j] + p * cur[j - 1];
        }
        let mut absorbed = 0.0;
        n += 1;
        cells += len as u64 + dp::STEP_CELLS;
        while let Some(&m) = next.last() {
            if pos(n, klo + next.len() as u64 - 1) < upper {
                break;
            }
            up += m;
            absorbed += m;
            next.pop();
        }
        let mut c = 0;
        while c < next.len() && pos(n, klo + c as u64) <= lower {
            low += next[c];
            absorbed += next[c];
            c += 1;
        }
        next.drain(..c);
        klo += c as u64;
        std::mem::swap(&mut cur, &mut next);
        alive = if n % 256 == 0 || absorbed > 0.5 * alive {
            // Subnormal masses read as 0 where the band is re-summed.
            for m in cur.iter_mut() {
                if *m < f64::MIN_POSITIVE {
                    *m = 0.0;
                }
            }
            cur.iter().sum()
        } else {
            alive - absorbed
        };
        if cur.is_empty() || alive < f64::MIN_POSITIVE {
            converged = true;
            break;
        }
        if n % 32 == 0 && alive * steps_left <= dp::TOLERANCE * steps {
            let (tu, tl, _) = tails(&cur, n, klo);
            if (tu <= dp::TOLERANCE * up || tu < f64::MIN_POSITIVE)
                && (tl <= dp::TOLERANCE * low || tl < f64::MIN_POSITIVE)
            {
                converged = true;
                break;
            }
        }
        if cells > max_cells {
            converged = false;
            break;
        }
    }
    let (tail_upper, tail_lower, tail_steps) = if cur.is_empty() {
        (0.0, 0.0, 0.0)
    } else {
        tails(&cur, n, klo)
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

/// Bitwise equality of every field (`==` would let -0.0 and 0.0 pass).
fn same_bits(a: &Absorption, b: &Absorption) -> bool {
    let bits = |x: &Absorption| {
        [
            x.upper,
            x.lower,
            x.steps,
            x.tail_upper,
            x.tail_lower,
            x.tail_steps,
        ]
        .map(f64::to_bits)
    };
    bits(a) == bits(b)
        && (a.iterations, a.converged, a.cells) == (b.iterations, b.converged, b.cells)
}

#[test]
fn the_pass_of_two_steps_is_one_step_at_a_time_to_the_bit() {
    // xorshift64: the settings need only be many and varied.
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut r = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut compared, mut capped, mut odd) = (0, 0, 0);
    for i in 0..2000 {
        let p0 = 10f64.powf(-4.0 * r() - 0.3);
        let p1 = (p0 * (1.0 + 20.0 * r())).min(0.999);
        let w = Weights::new(p0, p1);
        // The excursion's shape, the half-open test's, and a start just above a line.
        let (start, lower, upper) = match i % 3 {
            0 => (w.fail, 0.0, 1.0 + 12.0 * r()),
            1 => (0.0, -1.0 - 4.0 * r(), 1.0 + 5.0 * r()),
            _ => (0.3 * r(), -0.01 * r() - 1e-9, 0.5 + 3.0 * r()),
        };
        if !(lower < start && start < upper) {
            continue;
        }
        let p = [p0, p1, w.zero_drift_rate(), r(), 0.0, 1.0][i % 6];
        let cap = if i % 4 == 0 {
            (r() * 2e5) as u64
        } else {
            dp::MAX_CELLS
        };
        let want = one_step_at_a_time(w, p, start, lower, upper, cap);
        let got = dp::absorb_capped(w, p, start, lower, upper, cap);
        assert!(
            same_bits(&got, &want),
            "w {w:?} p {p} start {start} ({lower}, {upper}) cap {cap}:\n{got:?}\n{want:?}"
        );
        compared += 1;
        capped += usize::from(!want.converged);
        odd += usize::from(want.iterations % 2 == 1);
    }
    // The draws reach the cases the pass treats apart: stopped by the cap, and ended after an
    // odd number of steps (a single step last).
    assert!(
        compared > 1800 && capped > 100 && odd > 300,
        "{compared} {capped} {odd}"
    );
}
