//! Independent methods agree: the (n, k) dynamic program against the Brook-Evans chain, exact
//! against Monte Carlo at 14 parameter points over the ranges a user will try (fine 0.1%..10%,
//! broken 2x..10x fine, lines ln 1e2..ln 1e6), and Ville/Lorden's bound never above the exact
//! run length at or below the fine rate.

use analysis::{cusum, sprt};
use breaker::score::Weights;
use breaker::trial::WaldLines;
use proptest::prelude::*;

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn dynamic_program_and_brook_evans_chain_agree() {
    let mut checked = 0;
    for &(p0, k) in &[
        (0.001, 2.0),
        (0.001, 10.0),
        (0.01, 3.0),
        (0.05, 4.0),
        (0.1, 2.0),
        (0.1, 9.0),
    ] {
        let p1 = p0 * k;
        let w = Weights::new(p0, p1);
        for &n in &[1e2f64, 1e5, 1e9] {
            let line = n.ln();
            for &p in &[p0 / 2.0, p0, w.zero_drift_rate(), (2.0 * p1).min(0.95)] {
                let e = cusum::arl_exact(w, line, p);
                let c = cusum::arl_markov_chain(w, line, p).expect("chain fits the budget");
                let err = c.error.unwrap_or_else(|| {
                    panic!("one convergent only: p0={p0} k={k} N={n:e} p={p} {c:?}")
                });
                // Agree within the chain's own error estimate (with a little slack: the estimate
                // is the gap to the next-coarser grid), and the estimate is itself small.
                assert!(
                    (e.arl - c.arl).abs() <= 2.0 * err + 1e-9 * e.arl,
                    "p0={p0} p1={p1} N={n:e} p={p}: dp {} chain {} (+-{err})",
                    e.arl,
                    c.arl
                );
                // The grid is coarse when |w_ok| is tiny (fine 0.1%, broken 2x: ratio 692.1 and
                // only 692/1 fits the work budget), still within 10%; fine for the defaults.
                assert!(
                    err <= 0.1 * e.arl,
                    "chain error estimate {err} too coarse at p0={p0} p1={p1} N={n:e} p={p}"
                );
                if (p0, k) == (0.05, 4.0) {
                    assert!(err <= 5e-3 * e.arl, "default settings: chain error {err}");
                }
                assert!(
                    e.error <= 1e-6 * e.arl,
                    "dp error estimate {} too large",
                    e.error
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 72);
}

/// (fine, broken, N of the line ln N, true rate) spread over the ranges the page offers. True
/// rates are chosen so that a run takes at most a few thousand failures (the simulation skips
/// runs of successes), which keeps the debug-build test fast.
const POINTS: [(f64, f64, f64, f64); 14] = [
    (0.001, 0.002, 1e2, 0.001),
    (0.001, 0.01, 1e6, 0.01),
    (0.001, 0.005, 1e6, 0.01),
    (0.002, 0.02, 1e2, 0.002),
    (0.005, 0.025, 1e3, 0.005),
    (0.01, 0.02, 1e4, 0.02),
    (0.01, 0.1, 1e5, 0.0391), // near the zero-drift rate 3.9%
    (0.02, 0.08, 1e5, 0.1),
    (0.03, 0.06, 1e3, 0.0433), // zero-drift rate
    (0.05, 0.2, 1e2, 0.05),
    (0.05, 0.1, 1e6, 0.2),
    (0.05, 0.5, 1e4, 0.5),
    (0.1, 0.2, 1e3, 0.1),
    (0.1, 0.9, 1e6, 0.3),
];

#[test]
fn exact_run_length_lies_in_the_simulation_interval() {
    let runs = 600;
    let mut outside_95 = Vec::new();
    for (i, &(p0, p1, n, p)) in POINTS.iter().enumerate() {
        let w = Weights::new(p0, p1);
        let line = n.ln();
        let e = cusum::arl_exact(w, line, p);
        let s = cusum::simulate(w, line, p, runs, 1000 + i as u64, u64::MAX)
            .expect("simulation finishes");
        assert_eq!(s.n, Some(runs));
        let (lo, hi) = s.ci95.unwrap();
        // The 99.9% interval must hold at every point...
        let half = (hi - lo) / 2.0 * 3.29 / 1.96;
        assert!(
            (e.arl - s.value).abs() <= half,
            "point {i} (p0={p0} p1={p1} N={n:e} p={p}): exact {} vs simulated {} [{lo}, {hi}]",
            e.arl,
            s.value
        );
        if !s.ci_contains(e.arl) {
            outside_95.push(i);
        }
    }
    // ...and the 95% interval at nearly all of them (P(more than 3 of 14 outside) < 0.5%).
    assert!(
        outside_95.len() <= 3,
        "outside the 95% interval at points {outside_95:?}"
    );
}

#[test]
fn exact_oc_and_asn_lie_in_the_simulation_interval() {
    let lines = WaldLines::new(0.01, 0.05);
    let mut outside_95 = 0;
    let mut checked = 0;
    for (i, &(p0, p1, _, p)) in POINTS.iter().enumerate() {
        let w = Weights::new(p0, p1);
        for (j, &q) in [p0, p, p1].iter().enumerate() {
            let e = sprt::exact(w, lines, q);
            let (oc, asn) = sprt::simulate(w, lines, q, 400, 77 + (3 * i + j) as u64).unwrap();
            for (f, x) in [(oc, e.close_probability), (asn, e.expected_trials)] {
                let (lo, hi) = f.ci95.unwrap();
                let half = (hi - lo) / 2.0 * 3.29 / 1.96;
                assert!(
                    (x - f.value).abs() <= half + 1e-12,
                    "p0={p0} p1={p1} p={q}: exact {x} vs {f:?}"
                );
                if !f.ci_contains(x) {
                    outside_95 += 1;
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 84);
    assert!(
        outside_95 <= 10,
        "{outside_95} of 84 outside the 95% interval"
    );
}

#[test]
fn lorden_bound_never_exceeds_the_exact_run_length_at_or_below_fine() {
    for &(p0, k) in &[
        (0.001, 2.0),
        (0.005, 10.0),
        (0.05, 4.0),
        (0.1, 2.0),
        (0.1, 9.5),
    ] {
        let w = Weights::new(p0, p0 * k);
        for e in 2..=9 {
            let line = 10f64.powi(e).ln();
            for &f in &[1.0, 0.9, 0.5, 0.1] {
                let p = p0 * f;
                let b = cusum::lorden_bound(line, p, p0).expect("bound applies at or below p0");
                let x = cusum::arl_exact(w, line, p);
                assert!(
                    b.value <= x.arl - x.error,
                    "p0={p0} k={k} ln1e{e} p={p}: bound {} > exact {}",
                    b.value,
                    x.arl
                );
            }
        }
        assert!(cusum::lorden_bound(2.0, p0 * 1.01, p0).is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bound_below_exact_for_random_settings(
        lp0 in -6.9f64..-2.3,   // fine 0.1%..10%
        k in 1.5f64..10.0,      // broken 1.5x..10x fine
        ln_n in 2.0f64..21.0,   // line ln 7 .. ln 1.3e9
        f in 0.05f64..=1.0,     // true rate as a fraction of fine
    ) {
        let p0 = lp0.exp();
        let w = Weights::new(p0, p0 * k);
        let x = cusum::arl_exact(w, ln_n, p0 * f);
        prop_assert!(ln_n.exp() <= x.arl + x.error, "bound {} exact {}", ln_n.exp(), x.arl);
    }

    #[test]
    fn dynamic_program_matches_chain_for_random_settings(
        lp0 in -6.9f64..-2.3,
        k in 2.0f64..10.0,
        ln_n in 4.6f64..13.9,   // ln 1e2 .. ln 1e6
        pf in 0.3f64..3.0,      // true rate as a fraction of fine
    ) {
        let p0 = lp0.exp();
        let w = Weights::new(p0, p0 * k);
        let p = (p0 * pf).min(0.99);
        let e = cusum::arl_exact(w, ln_n, p);
        let c = cusum::arl_markov_chain(w, ln_n, p).unwrap();
        let err = c.error.unwrap_or(0.05 * e.arl);
        prop_assert!(rel(e.arl, c.arl) <= 2.0 * err / e.arl + 1e-9, "dp {} chain {} +- {}", e.arl, c.arl, err);
    }
}

/// A line that whole failures reach exactly (N = (p1/p0)^m, a round ratio and a round N) is
/// reached on the chain's grid by as many failures. With a grid step fitting both weights in
/// least squares, two failures of ln 10 fell short of a line of ln 100: at p0 = 5%, p1 = 50% the
/// chain gave 932.9 calls (+-563.2) for the exact 369.7, the exact value at the very edge of its
/// error, and 27% off at N = 1e4.
#[test]
fn a_line_whole_failures_reach_is_reached_on_the_chain_grid_too() {
    let mut worst: f64 = 0.0;
    for &k in &[2.0f64, 4.0, 10.0, 50.0] {
        for &p0 in &[0.001, 0.01, 0.05] {
            let p1 = p0 * k;
            if p1 >= 1.0 {
                continue;
            }
            let w = Weights::new(p0, p1);
            for m in 2..=6 {
                let line = (k.powi(m)).ln();
                if line < w.fail + (-w.ok) {
                    continue;
                }
                for &p in &[p0, p1, 1.0] {
                    let e = cusum::arl_exact(w, line, p);
                    let Some(c) = cusum::arl_markov_chain(w, line, p) else {
                        continue;
                    };
                    let r = rel(e.arl, c.arl);
                    worst = worst.max(r);
                    assert!(
                        r < 1e-2 && (e.arl - c.arl).abs() <= c.error.unwrap_or(0.0) + 1e-9 * e.arl,
                        "p0={p0} p1={p1} N={k}^{m} p={p}: exact {} chain {} {c:?}",
                        e.arl,
                        c.arl
                    );
                }
            }
        }
    }
    eprintln!("worst relative gap {worst:e}");
}
