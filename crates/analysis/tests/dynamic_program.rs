//! The (n, k) dynamic program (`dp::absorb_capped`) against a plain recount written here: the
//! whole distribution over failure counts carried one step at a time (no band bookkeeping, no
//! running mass), with the stopping rule, the remainder bounds and the work count of the module
//! docs. Every output is compared (counts exactly, sums to 1e-12), over drifts of both signs, zero
//! and near-zero drift, `p` = 0 and 1, starts off 0 and work caps that stop it early. And the
//! remainders are what they claim: what the program still had to absorb is within them.

use analysis::dp::{self, Absorption};
use analysis::num::wald_exponent;
use breaker::score::{reach, Weights};

/// The module docs' program, recounted.
fn recount(w: Weights, p: f64, start: f64, lower: f64, upper: f64, max_cells: u64) -> Absorption {
    // Absorbed at or past a line, a tie to rounding included (`breaker::score::reach`): the
    // module docs' lines as the breaker compares with them.
    let (lower, upper) = (reach(lower, &w), reach(upper, &w));
    let (f, o, q) = (w.fail, w.ok, 1.0 - p);
    let pos = |n: u64, k: u64| start + k as f64 * f + (n - k) as f64 * o;
    let mu = p * f + q * o;
    let var = p * q * (f - o) * (f - o);
    let span = upper - lower + f - o;
    // Further steps: Wald's identity, or the zero-drift optional-stopping bound where the drift
    // is too small for Wald's to be useful.
    let drift_bound = if mu == 0.0 {
        f64::INFINITY
    } else {
        span / mu.abs()
    };
    let steps_left = if mu.abs() * span >= var {
        drift_bound
    } else {
        drift_bound.min(span * span / var)
    };
    let theta = wald_exponent(w, p);
    // Bounds on what the mass still alive at (n, k) can add to each total.
    let tails = |mass: &[f64], n: u64| {
        let (mut tu, mut tl, mut total) = (0.0, 0.0, 0.0);
        for (k, &m) in mass.iter().enumerate() {
            let s = pos(n, k as u64);
            total += m;
            tu += m * match theta {
                Some(t) if t > 0.0 => (-t * (upper - s)).exp().min(1.0),
                _ => 1.0,
            };
            tl += m * match theta {
                Some(t) if t < 0.0 => (t * (s - lower)).exp().min(1.0),
                _ => 1.0,
            };
        }
        (tu, tl, total * steps_left)
    };
    // mass[k] after n steps: not yet absorbed with k failures; alive[k]: (n, k) reachable and
    // strictly between the lines.
    let mut mass = vec![1.0f64];
    let mut alive = vec![true];
    let (mut up, mut low, mut steps, mut cells) = (0.0f64, 0.0f64, 0.0f64, 0u64);
    let mut n = 0u64;
    let converged = loop {
        steps += mass.iter().sum::<f64>();
        cells += alive.iter().filter(|&&a| a).count() as u64 + dp::STEP_CELLS;
        n += 1;
        let mut next = vec![0.0; n as usize + 1];
        let mut next_alive = vec![false; n as usize + 1];
        for k in 0..=n as usize {
            let from_ok = k < alive.len() && alive[k];
            let from_fail = k >= 1 && alive[k - 1];
            if !(from_ok || from_fail) {
                continue;
            }
            let m = if from_ok { q * mass[k] } else { 0.0 }
                + if from_fail { p * mass[k - 1] } else { 0.0 };
            let s = pos(n, k as u64);
            if s >= upper {
                up += m;
            } else if s <= lower {
                low += m;
            } else {
                next[k] = m;
                next_alive[k] = true;
            }
        }
        mass = next;
        alive = next_alive;
        let left: f64 = mass.iter().sum();
        if !alive.contains(&true) || left < f64::MIN_POSITIVE {
            break true;
        }
        // Every 32 steps: stop when the remainders are within the tolerance of their totals.
        if n % 32 == 0 && left * steps_left <= dp::TOLERANCE * steps {
            let (tu, tl, _) = tails(&mass, n);
            if (tu <= dp::TOLERANCE * up || tu < f64::MIN_POSITIVE)
                && (tl <= dp::TOLERANCE * low || tl < f64::MIN_POSITIVE)
            {
                break true;
            }
        }
        if cells > max_cells {
            break false;
        }
    };
    let (tail_upper, tail_lower, tail_steps) = if alive.contains(&true) {
        tails(&mass, n)
    } else {
        (0.0, 0.0, 0.0)
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

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

fn check(w: Weights, p: f64, start: f64, lower: f64, upper: f64, max_cells: u64) -> Absorption {
    let want = recount(w, p, start, lower, upper, max_cells);
    // Where the recount converged, a cap at its work changes nothing (the cap is checked after
    // the stopping rule), and a program that would not stop fails here at once.
    let cap = if want.converged {
        want.cells
    } else {
        max_cells
    };
    let got = dp::absorb_capped(w, p, start, lower, upper, cap);
    let what = format!("w {w:?} p {p} start {start} ({lower}, {upper}) cap {max_cells}");
    assert_eq!(
        (got.iterations, got.cells, got.converged),
        (want.iterations, want.cells, want.converged),
        "{what}"
    );
    for (name, g, r) in [
        ("upper", got.upper, want.upper),
        ("lower", got.lower, want.lower),
        ("steps", got.steps, want.steps),
        ("tail_upper", got.tail_upper, want.tail_upper),
        ("tail_lower", got.tail_lower, want.tail_lower),
        ("tail_steps", got.tail_steps, want.tail_steps),
    ] {
        assert!(close(g, r), "{what}: {name} {g} vs {r}");
    }
    got
}

/// Settings: (weights, start, lower, upper, rates).
fn settings() -> Vec<(Weights, f64, f64, f64, Vec<f64>)> {
    let real = Weights::new(0.05, 0.2);
    let unit = Weights {
        fail: 1.0,
        ok: -1.0,
    };
    let skew = Weights {
        fail: 2.5,
        ok: -0.7,
    };
    vec![
        // The half-open test's shape: from 0 between B < 0 < A.
        (
            real,
            0.0,
            -2.9,
            4.6,
            vec![0.0, 0.01, 0.05, real.zero_drift_rate(), 0.2, 0.6, 1.0],
        ),
        // The CUSUM excursion's shape: from w_fail, absorbed at 0 or the line.
        (real, real.fail, 0.0, 6.9, vec![0.02, 0.1, 0.3]),
        // Integer steps: exact hits of both lines; zero drift exactly at 1/2.
        (unit, 0.0, -3.0, 4.0, vec![0.1, 0.5, 0.9]),
        (unit, 1.0, -2.0, 2.5, vec![0.3, 0.5, 0.7]),
        // Strong drift away from a far line: the walks still alive late sit near that line, so
        // its remainder is the last to fall within the tolerance of its (small) total.
        (unit, 0.0, -20.0, 3.0, vec![0.9]),
        (unit, 0.0, -3.0, 20.0, vec![0.1]),
        // A line out of reach: nothing absorbed there (the mass underflows on the way), and
        // its remainder below the smallest normal double is what lets the program stop.
        (unit, 0.0, -3.0, 160.0, vec![0.01]),
        (unit, 0.0, -160.0, 3.0, vec![0.99]),
        // Lines closer than one unit (span 0.37 < 1): at p = 0.4 the drift (0.01) lies between
        // var x span and var / span, where only the comparison |drift| span >= var picks the
        // smaller (diffusion) estimate of the steps still to come.
        (
            Weights {
                fail: 0.1,
                ok: -0.05,
            },
            0.0,
            -0.1,
            0.12,
            vec![0.4],
        ),
        // Near zero drift: the diffusion estimate caps the steps still to come.
        (
            skew,
            0.3,
            -8.0,
            9.0,
            vec![
                skew.zero_drift_rate() * 0.999,
                skew.zero_drift_rate() * 1.001,
                0.4,
            ],
        ),
    ]
}

#[test]
fn matches_a_recount_to_convergence() {
    for (w, start, lower, upper, rates) in settings() {
        for p in rates {
            let a = check(w, p, start, lower, upper, dp::MAX_CELLS);
            assert!(a.converged, "{w:?} {p}");
            assert_eq!(dp::absorb(w, p, start, lower, upper), a);
            if upper - lower > 100.0 {
                // The far line: nothing reached it, and only its remainder's underflow stopped it.
                let (far, tail) = if upper > 100.0 {
                    (a.upper, a.tail_upper)
                } else {
                    (a.lower, a.tail_lower)
                };
                assert!(
                    far == 0.0 && tail > 0.0 && tail < f64::MIN_POSITIVE,
                    "{a:?}"
                );
            }
            // Mass is moved, not made: what was absorbed plus what is left is everything.
            assert!((a.upper + a.lower - 1.0).abs() < 1e-9 + a.tail_upper.max(a.tail_lower));
        }
    }
}

#[test]
fn matches_a_recount_when_the_cap_stops_it() {
    let mut stopped = 0;
    for (w, start, lower, upper, rates) in settings() {
        for p in rates {
            let full = recount(w, p, start, lower, upper, dp::MAX_CELLS);
            assert!(full.converged);
            for cap in [0, 1, 2, 40, 41, 300, 2_000, full.cells / 2] {
                let a = check(w, p, start, lower, upper, cap);
                if a.converged {
                    continue;
                }
                stopped += 1;
                // The cap is passed by at most one band width (the band: cells this step).
                assert!(a.cells > cap);
                // What was still to come lies within the remainders returned.
                let slack = |x: f64| 1e-12 * x + 1e-300;
                assert!(full.upper - a.upper <= a.tail_upper + slack(full.upper));
                assert!(full.lower - a.lower <= a.tail_lower + slack(full.lower));
                let mu = w.drift(p).abs();
                let var = p * (1.0 - p) * (w.fail - w.ok).powi(2);
                if mu * (upper - lower + w.fail - w.ok) >= var {
                    // Wald's identity: rigorous.
                    assert!(full.steps - a.steps <= a.tail_steps + slack(full.steps));
                }
            }
        }
    }
    assert!(stopped >= 60, "only {stopped} stopped by the cap");
}

#[test]
fn the_cap_is_checked_after_each_step_and_only_passed() {
    // With the cap exactly at the work done after some step, the program takes one more step.
    let w = Weights::new(0.05, 0.2);
    let full = recount(w, 0.05, 0.0, -2.9, 4.6, dp::MAX_CELLS);
    let at = recount(w, 0.05, 0.0, -2.9, 4.6, 500);
    for cap in [at.cells, at.cells - 1, at.cells + 1] {
        let a = check(w, 0.05, 0.0, -2.9, 4.6, cap);
        assert!(!a.converged && a.iterations < full.iterations);
    }
    assert_eq!(
        dp::absorb_capped(w, 0.05, 0.0, -2.9, 4.6, at.cells).iterations,
        at.iterations + 1
    );
}
