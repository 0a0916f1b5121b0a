//! The half-open test's figures pinned one by one: Wald's OC and ASN against his formulas
//! written out here (with `expm1`, accurate at any exponent), his parametrization against its
//! defining equation, the exact figures' choice of which probability carries the error, the
//! exact labels at their thresholds, and the simulation against a plain trial-by-trial recount
//! on the same seeded stream.

use analysis::cusum::EXACT_MAX_RELATIVE_ERROR;
use analysis::mc::Rng;
use analysis::{dp, sprt, Kind};
use breaker::score::{reach, Weights};
use breaker::trial::WaldLines;

fn rel(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        ((a - b) / b).abs()
    }
}

fn lines(upper: f64, lower: f64) -> WaldLines {
    WaldLines { upper, lower }
}

/// Wald's OC for exponent `h` (nonzero): `(e^{hA} - 1) / (e^{hA} - e^{hB})`.
fn wald_oc(h: f64, a: f64, b: f64) -> f64 {
    let (x, y) = ((h * a).exp_m1(), (h * b).exp_m1());
    x / (x - y)
}

/// Wald's ASN: `(OC B + (1 - OC) A) / drift`.
fn wald_asn(w: Weights, p: f64, oc: f64, a: f64, b: f64) -> f64 {
    (oc * b + (1.0 - oc) * a) / (p * w.fail + (1.0 - p) * w.ok)
}

/// `E[e^{h w}] - 1` at rate `p`: zero at Wald's exponent.
fn mgf_minus_1(w: Weights, p: f64, h: f64) -> f64 {
    p * (h * w.fail).exp_m1() + (1.0 - p) * (h * w.ok).exp_m1()
}

#[test]
fn wald_oc_and_asn_follow_his_formulas() {
    let ws = [
        Weights::new(0.05, 0.2),
        Weights::new(0.001, 0.01),
        Weights {
            fail: 2.5,
            ok: -0.7,
        },
    ];
    let ls = [
        WaldLines::new(0.01, 0.05),
        lines(4.6, -2.9),
        lines(60.0, -40.0),
    ];
    let mut checked = 0;
    for w in ws {
        for l in ls {
            let (a, b) = (l.upper, l.lower);
            let z = w.zero_drift_rate();
            for p in [
                z * 0.01,
                z * 0.3,
                z * 0.9,
                z * (1.0 - 1e-4),
                z * (1.0 + 1e-4),
                z * 1.5,
                (z * 4.0).min(0.95),
            ] {
                let got = sprt::wald(w, l, p);
                let h = got.h;
                // The exponent is the root of E[e^{h w}] = 1 with the sign opposite the drift.
                assert!(mgf_minus_1(w, p, h).abs() < 1e-12 * (h * w.fail).abs().max(1e-300));
                assert_eq!(h > 0.0, w.drift(p) < 0.0, "{w:?} {p}");
                if (h * (a - b)).abs() < 1e-6 {
                    continue; // the zero-drift forms: see below.
                }
                let oc = wald_oc(h, a, b);
                assert!(
                    rel(got.close_probability, oc) < 1e-12,
                    "{w:?} {l:?} p {p}: OC {} vs {oc}",
                    got.close_probability
                );
                let asn = wald_asn(w, p, oc, a, b);
                assert!(
                    rel(got.expected_trials, asn) < 1e-9,
                    "{w:?} {l:?} p {p}: ASN {} vs {asn}",
                    got.expected_trials
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 50, "{checked}");
}

#[test]
fn wald_oc_near_zero_exponent() {
    // Far lines (A - B = 100) make a small exponent matter: at h = 1e-8 the OC moves from
    // A / (A - B) by about h B / 2 relative (2e-7), which the formula must keep.
    let (a, b) = (60.0, -40.0);
    let w = Weights::new(0.05, 0.2);
    for h in [
        3e-11, -3e-11, 1e-8, -1e-8, 3e-7, -3e-7, 0.05, -0.05, 1.0, -1.0,
    ] {
        let got = sprt::wald_parametric(w, lines(a, b), h);
        let oc = wald_oc(h, a, b);
        assert!(
            rel(got.close_probability, oc) < 1e-12,
            "h {h}: {} vs {oc}",
            got.close_probability
        );
        // (At h = 3e-11 the formula still applies: h (A - B) = 3e-9 is past its 1e-9.)
        assert!(rel(got.close_probability, 0.6) > 1e-10, "h {h}");
    }
    // At h = 0 exactly (and within 1e-9 / (A - B)): A / (A - B).
    for h in [0.0, 1e-12, -1e-12] {
        let got = sprt::wald_parametric(w, lines(a, b), h);
        assert!(rel(got.close_probability, 0.6) < 1e-10, "h {h}");
    }
    // Large exponents: no overflow, the limits 1 (h >> 0, falling walk) and 0.
    let got = sprt::wald_parametric(w, lines(a, b), 30.0);
    assert_eq!(got.close_probability, 1.0);
    let got = sprt::wald_parametric(w, lines(a, b), -30.0);
    assert!(got.close_probability >= 0.0 && got.close_probability < 1e-300);
    let got = sprt::wald_parametric(w, lines(a, b), 5.0);
    assert!(rel(got.close_probability, wald_oc(5.0, a, b)) < 1e-12);
}

/// The failure rate of an exponent far below 0, where both of the formula's exponentials
/// overflow (it was inf / inf, NaN, from about h = -4,130 at these weights: 709.8 / 0.1719),
/// tends to 1 (a broken service: the walk climbs at every call), and far above 0 to 0; where the
/// formula is finite it is kept as it was.
#[test]
fn the_rate_of_an_exponent_far_from_0() {
    let w = Weights::new(0.05, 0.2);
    for h in [-5e3, -1e5, -1e300, f64::NEG_INFINITY] {
        let p = sprt::wald_rate_of_h(w, h);
        assert_eq!(p, 1.0, "h {h}");
        let got = sprt::wald_parametric(w, lines(4.6, -2.9), h);
        assert!(got.expected_trials.is_finite(), "h {h}: {got:?}");
        assert!(
            got.close_probability >= 0.0 && got.close_probability < 1e-300,
            "h {h}"
        );
    }
    for h in [5e3, 1e5, 1e300] {
        assert_eq!(sprt::wald_rate_of_h(w, h), 0.0, "h {h}");
    }
    // Nearer 0 the rate is the formula's own, and never rises with h (p1 at -1, p0 at 1).
    let formula = |h: f64| -(h * w.ok).exp_m1() / ((h * w.fail).exp() - (h * w.ok).exp());
    let mut last = 1.0;
    for h in [-4000.0, -100.0, -1.0, -0.01, 0.01, 1.0, 100.0, 4000.0] {
        let p = sprt::wald_rate_of_h(w, h);
        assert!(p <= last, "h {h}: {p} after {last}");
        assert!((p - formula(h)).abs() <= 1e-15 * p.max(1e-300), "h {h}");
        last = p;
    }
}

#[test]
fn wald_asn_at_zero_drift_is_minus_a_b_over_the_second_moment() {
    // -A B / E[w^2] at (and within an exponent of 1e-6 / (A - B) of) zero drift.
    for w in [
        Weights {
            fail: 2.5,
            ok: -0.7,
        },
        Weights::new(0.05, 0.2),
        Weights {
            fail: 1.0,
            ok: -1.0,
        },
    ] {
        for l in [lines(4.6, -2.9), lines(3.0, -7.0)] {
            let (a, b) = (l.upper, l.lower);
            // Exactly zero drift (p = 1/2 on +1/-1), or the exponent below the threshold.
            let z = w.zero_drift_rate();
            for p in [z, z * (1.0 + 1e-9), z * (1.0 - 1e-9)] {
                let got = sprt::wald(w, l, p);
                assert!(got.h.abs() * (a - b) < 1e-6, "{w:?} {p}: h {}", got.h);
                let m2 = p * w.fail * w.fail + (1.0 - p) * w.ok * w.ok;
                let want = -a * b / m2;
                assert!(
                    rel(got.expected_trials, want) < 1e-12,
                    "{w:?} {l:?} {p}: {} vs {want}",
                    got.expected_trials
                );
                assert!(rel(got.close_probability, a / (a - b)) < 1e-8);
            }
        }
    }
    // Just past the threshold (h (A - B) = 3.75e-6 at h = 5e-7) the drift form applies; the
    // zero-drift form would be off by about h (A + B) / 3 relative there (3e-7), and the drift
    // form's cancellation costs about 1e-16 / (h (A - B)) (3e-11).
    let w = Weights::new(0.05, 0.2);
    let (a, b) = (4.6, -2.9);
    for h in [5e-7, -5e-7, 2e-6, -2e-6] {
        let got = sprt::wald_parametric(w, lines(a, b), h);
        let p = sprt::wald_rate_of_h(w, h);
        let want = wald_asn(w, p, wald_oc(h, a, b), a, b);
        assert!(
            rel(got.expected_trials, want) < 1e-8,
            "h {h}: {} vs {want}",
            got.expected_trials
        );
        let m2 = p * w.fail * w.fail + (1.0 - p) * w.ok * w.ok;
        assert!(rel(got.expected_trials, -a * b / m2) > 5e-8, "h {h}");
    }
    // Just past the threshold the drift form takes over, and agrees with the limit to first order.
    let w = Weights {
        fail: 2.5,
        ok: -0.7,
    };
    let (a, b) = (4.6, -2.9);
    let z = w.zero_drift_rate();
    let p = z * (1.0 + 1e-5);
    let got = sprt::wald(w, lines(a, b), p);
    assert!(got.h.abs() * (a - b) > 1e-6);
    let want = wald_asn(w, p, wald_oc(got.h, a, b), a, b);
    assert!(rel(got.expected_trials, want) < 1e-9);
    let m2 = p * w.fail * w.fail + (1.0 - p) * w.ok * w.ok;
    assert!(rel(got.expected_trials, -a * b / m2) < 1e-3);
}

#[test]
fn wald_at_the_ends() {
    // p = 0: every trial succeeds, closing after B / w_ok trials (no overshoot); p = 1 opens
    // after A / w_fail.
    let w = Weights::new(0.05, 0.2);
    let l = lines(4.6, -2.9);
    let got = sprt::wald(w, l, 0.0);
    assert_eq!(
        (got.close_probability, got.expected_trials, got.h),
        (1.0, -2.9 / w.ok, f64::INFINITY)
    );
    let got = sprt::wald(w, l, 1.0);
    assert_eq!(
        (got.close_probability, got.expected_trials, got.h),
        (0.0, 4.6 / w.fail, f64::NEG_INFINITY)
    );
}

#[test]
fn wald_parametrization_solves_the_exponent_equation() {
    for (p0, p1) in [(0.05, 0.2), (0.001, 0.01), (0.1, 0.9)] {
        let w = Weights::new(p0, p1);
        // The likelihood-ratio weights: exponent 1 at p0 and -1 at p1.
        assert!(rel(sprt::wald_rate_of_h(w, 1.0), p0) < 1e-12, "{p0}");
        assert!(rel(sprt::wald_rate_of_h(w, -1.0), p1) < 1e-12, "{p1}");
        assert_eq!(sprt::wald_rate_of_h(w, 0.0), w.zero_drift_rate());
        let l = WaldLines::new(0.01, 0.05);
        for h in [-3.0, -1.0, -0.2, -1e-3, 1e-3, 0.2, 1.0, 3.0] {
            let p = sprt::wald_rate_of_h(w, h);
            assert!(p > 0.0 && p < 1.0);
            assert!(mgf_minus_1(w, p, h).abs() < 1e-12, "{p0} h {h}");
            // Wald's curve at that rate, with the exponent it was drawn from.
            let got = sprt::wald_parametric(w, l, h);
            assert_eq!(got.h, h);
            let oc = wald_oc(h, l.upper, l.lower);
            assert!(rel(got.close_probability, oc) < 1e-12);
            let asn = wald_asn(w, p, oc, l.upper, l.lower);
            assert!(
                rel(got.expected_trials, asn) < 1e-9,
                "{p0} h {h}: {} vs {asn}",
                got.expected_trials
            );
        }
        // At h = 0: the zero-drift rate and its ASN.
        let got = sprt::wald_parametric(w, l, 0.0);
        let z = w.zero_drift_rate();
        let m2 = z * w.fail * w.fail + (1.0 - z) * w.ok * w.ok;
        assert!(rel(got.expected_trials, -l.upper * l.lower / m2) < 1e-12);
    }
}

fn exact_sprt(close: f64, close_error: f64, trials: f64, trials_error: f64) -> sprt::ExactSprt {
    sprt::ExactSprt {
        close_probability: close,
        expected_trials: trials,
        close_error,
        trials_error,
        iterations: 100,
        converged: false,
        cells: 1000,
    }
}

#[test]
fn exact_labels_hold_at_their_thresholds() {
    let e = EXACT_MAX_RELATIVE_ERROR;
    // The error is measured against the smaller of the chance and its complement.
    for (c, smaller) in [
        (0.25, 0.25),
        (0.75, 0.25),
        (0.5, 0.5),
        (1e-6, 1e-6),
        (0.999, 0.001),
    ] {
        let at = e * smaller;
        let x = exact_sprt(c, at, 10.0, 0.0);
        assert!(x.close_is_exact(), "{c}");
        let x = exact_sprt(c, at * (1.0 + 1e-9), 10.0, 0.0);
        assert!(!x.close_is_exact(), "{c}");
        assert!(sprt::ExactSprt {
            converged: true,
            ..x
        }
        .close_is_exact());
    }
    for bad in [f64::INFINITY, f64::NAN] {
        assert!(!exact_sprt(0.5, bad, 10.0, 0.0).close_is_exact());
        assert!(!exact_sprt(0.5, 0.0, 10.0, bad).trials_is_exact());
    }
    // Expected trials: relative to the value itself.
    for t in [1.0, 37.5, 1e6] {
        assert!(exact_sprt(0.5, 0.0, t, e * t).trials_is_exact());
        let x = exact_sprt(0.5, 0.0, t, e * t * (1.0 + 1e-9));
        assert!(!x.trials_is_exact(), "{t}");
        assert!(sprt::ExactSprt {
            converged: true,
            ..x
        }
        .trials_is_exact());
    }
    // A converged program is exact whatever its remainders say.
    let x = sprt::ExactSprt {
        converged: true,
        ..exact_sprt(0.5, 1.0, 10.0, 100.0)
    };
    assert!(x.close_is_exact() && x.trials_is_exact());
}

#[test]
fn exact_keeps_the_digits_of_the_smaller_chance() {
    // +1/-1 between integer lines is gambler's ruin: P(open) = (1 - r^i) / (1 - r^N), r = q/p,
    // from i = -B of N = A - B. The smaller chance is carried with its own error bound and the
    // larger is its complement, so a chance to open of 1e-9 keeps its digits in 1 - OC.
    let w = Weights {
        fail: 1.0,
        ok: -1.0,
    };
    let mut checked = 0;
    for (a, b) in [(12.0, -2.0), (2.0, -12.0), (5.0, -5.0)] {
        for p in [0.02, 0.1, 0.3, 0.7, 0.9, 0.98] {
            let (i, n) = (-b, a - b);
            let r: f64 = (1.0 - p) / p;
            let open = (1.0 - r.powf(i)) / (1.0 - r.powf(n));
            let close = (r.powf(i) - r.powf(n)) / (1.0 - r.powf(n));
            let got = sprt::exact(w, lines(a, b), p);
            let full = dp::absorb(w, p, 0.0, b, a);
            // Rounding: 4 eps a step, relative, compounding over the steps.
            let ulps = 4.0 * f64::EPSILON * full.iterations as f64;
            let err = if open < close {
                // The chance to close is the complement of the chance to open, which keeps
                // its digits (the sum of what closed is off in the 14th).
                assert_eq!(got.close_probability, 1.0 - full.upper);
                assert!(rel(full.upper, open) < 1e-8, "A {a} B {b} p {p}");
                full.tail_upper + full.upper * ulps
            } else {
                assert!(
                    rel(got.close_probability, close) < 1e-8,
                    "A {a} B {b} p {p}: {} vs {close}",
                    got.close_probability
                );
                full.tail_lower + full.lower * ulps
            };
            // The error is the smaller chance's own remainder and rounding, relative to it.
            assert_eq!(got.close_error, err, "A {a} B {b} p {p}");
            assert!(got.close_error <= 1e-9 * open.min(close));
            // Expected trials: the program's sum, with the remainder plus a rounding allowance of
            // 4 eps a step, relative.
            assert_eq!(got.expected_trials, full.steps);
            let rounding = full.steps * ulps;
            assert!(rel(got.trials_error, full.tail_steps + rounding) < 1e-12);
            assert!(got.trials_error > rounding && got.trials_error > full.tail_steps);
            assert_eq!(
                (got.iterations, got.converged, got.cells),
                (full.iterations, full.converged, full.cells)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 18);
}

/// The simulation recounted: each failure's position found by trying the successes before it
/// one by one, from the same geometric draws.
fn simulate_recount(
    w: Weights,
    l: WaldLines,
    p: f64,
    runs: u64,
    seed: u64,
    max_draws: u64,
) -> (Option<(u64, Vec<u64>)>, u64) {
    // Decided at or past a line, a tie to rounding included, as the breaker compares.
    let (upper, lower) = (reach(l.upper, &w), reach(l.lower, &w));
    let mut rng = Rng::new(seed);
    let (mut draws, mut closes, mut lengths) = (0u64, 0u64, Vec::new());
    for _ in 0..runs {
        let (mut s, mut trials) = (0.0f64, 0u64);
        loop {
            if draws >= max_draws {
                return (None, draws);
            }
            draws += 1;
            let g = if p > 0.0 {
                rng.geometric(p)
            } else {
                u64::MAX / 4
            };
            // Successes 1..=g: closed at the first that reaches B.
            if let Some(j) = (1..=g)
                .take(1 << 20)
                .find(|&j| s + j as f64 * w.ok <= lower)
            {
                trials += j;
                closes += 1;
                break;
            }
            s += g as f64 * w.ok;
            trials += g + 1;
            s += w.fail;
            if s >= upper {
                break;
            }
        }
        lengths.push(trials);
    }
    (Some((closes, lengths)), draws)
}

/// Wilson's score interval for `k` of `n`, at z = 1.96, clipped to [0, 1].
fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let ph = k / n;
    let centre = ph + z * z / (2.0 * n);
    let spread = z * (ph * (1.0 - ph) / n + z * z / (4.0 * n * n)).sqrt();
    let den = 1.0 + z * z / n;
    (
        ((centre - spread) / den).max(0.0),
        ((centre + spread) / den).min(1.0),
    )
}

#[test]
fn simulation_matches_a_recount_trial_by_trial() {
    let cases = [
        (Weights::new(0.05, 0.2), WaldLines::new(0.01, 0.05)),
        (Weights::new(0.05, 0.2), lines(1.0, -0.5)),
        (Weights::new(0.001, 0.01), WaldLines::new(0.01, 0.05)),
        (
            Weights {
                fail: 1.0,
                ok: -1.0,
            },
            lines(3.0, -2.0),
        ),
        // A rounding tie: (0 - B) / 1.16 is 3 exactly, but 3 x -1.16 is a hair above B: a tie
        // to rounding reaches the line, so from 0 three successes close (they took four, and
        // the program's exact crossing step must find the three).
        (
            Weights {
                fail: 1.0,
                ok: -1.16,
            },
            lines(3.0, -3.48),
        ),
    ];
    let mut checked = 0;
    for (ci, (w, l)) in cases.into_iter().enumerate() {
        let z = w.zero_drift_rate();
        for p in [0.0, z * 0.3, z, (z * 2.0).min(1.0), 1.0] {
            for runs in [1u64, 2, 250] {
                let seed = 1000 + ci as u64;
                let (got, draws) = sprt::simulate_capped(w, l, p, runs, seed, u64::MAX);
                let (want, want_draws) = simulate_recount(w, l, p, runs, seed, u64::MAX);
                let what = format!("{w:?} {l:?} p {p} runs {runs}");
                assert_eq!(draws, want_draws, "{what}");
                let (oc, asn) = got.unwrap();
                let (closes, lengths) = want.unwrap();
                assert_eq!(oc.kind, Kind::Simulated);
                assert_eq!(oc.n, Some(runs));
                assert_eq!(oc.value, closes as f64 / runs as f64, "{what}");
                let (lo, hi) = oc.ci95.unwrap();
                let (wl, wh) = wilson(closes, runs);
                assert!((lo - wl).abs() < 1e-12 && (hi - wh).abs() < 1e-12, "{what}");
                assert_eq!(asn.n, Some(runs));
                let mean = lengths.iter().sum::<u64>() as f64 / runs as f64;
                assert!(
                    rel(asn.value, mean) < 1e-12,
                    "{what}: {} vs {mean}",
                    asn.value
                );
                let (lo, hi) = asn.ci95.unwrap();
                if runs >= 2 {
                    // Mean +- t s / sqrt(n), t between 1.96 and 12.71; the lower end at
                    // least 0 (trials are counts).
                    let nf = runs as f64;
                    let var = lengths
                        .iter()
                        .map(|&x| (x as f64 - mean).powi(2))
                        .sum::<f64>()
                        / (nf - 1.0);
                    let se = (var / nf).sqrt();
                    let t = if se > 0.0 { (hi - asn.value) / se } else { 2.0 };
                    let want_lo = (asn.value - t * se).max(0.0);
                    assert!(
                        (lo - want_lo).abs() <= 1e-9 * hi.abs(),
                        "{what}: {lo} vs {want_lo}"
                    );
                    assert!(t > 1.96 && t < 12.71, "{what}: t {t}");
                    if runs == 250 && se > 0.0 {
                        assert!((t - 1.9695).abs() < 1e-3, "{what}: t {t}");
                    }
                } else {
                    assert_eq!((lo, hi), (f64::NEG_INFINITY, f64::INFINITY));
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 75);
}

#[test]
fn simulation_ends_are_deterministic() {
    // p = 0: one draw per run, closing after the first trial count at or below B; p = 1: one
    // draw per trial, opening at the first at or above A.
    let w = Weights::new(0.05, 0.2);
    let l = WaldLines::new(0.01, 0.05);
    let to_close = (1u64..).find(|&j| j as f64 * w.ok <= l.lower).unwrap();
    let to_open = (1u64..).find(|&j| j as f64 * w.fail >= l.upper).unwrap();
    let (got, draws) = sprt::simulate_capped(w, l, 0.0, 40, 1, u64::MAX);
    let (oc, asn) = got.unwrap();
    assert_eq!((oc.value, asn.value, draws), (1.0, to_close as f64, 40));
    // Every run the same: no interval (none is made from no spread; at a rate near 0 rather
    // than at 0, [18, 18] would claim a certainty the runs cannot show).
    assert_eq!(asn.ci95, Some((f64::NEG_INFINITY, f64::INFINITY)));
    let (got, draws) = sprt::simulate_capped(w, l, 1.0, 40, 1, u64::MAX);
    let (oc, asn) = got.unwrap();
    assert_eq!(
        (oc.value, asn.value, draws),
        (0.0, to_open as f64, 40 * to_open)
    );
    // All 40 the same way: Wilson's interval from 0 (or to 1), of width z^2 / (n + z^2).
    let width = 1.96f64.powi(2) / (40.0 + 1.96f64.powi(2));
    let (lo, hi) = oc.ci95.unwrap();
    assert!(lo == 0.0 && (hi - width).abs() < 1e-15, "{hi} vs {width}");
    // No runs: nothing, and no draws.
    assert_eq!(sprt::simulate_capped(w, l, 0.1, 0, 1, u64::MAX), (None, 0));
    assert!(sprt::simulate(w, l, 0.1, 0, 1).is_none());
    // `simulate` is the uncapped `simulate_capped`.
    assert_eq!(
        sprt::simulate(w, l, 0.1, 30, 4),
        sprt::simulate_capped(w, l, 0.1, 30, 4, u64::MAX).0
    );
}

#[test]
fn simulation_cap_counts_draws() {
    let w = Weights::new(0.05, 0.2);
    let l = WaldLines::new(0.01, 0.05);
    let (_, all) = sprt::simulate_capped(w, l, 0.15, 50, 8, u64::MAX);
    assert_eq!(all, simulate_recount(w, l, 0.15, 50, 8, u64::MAX).1);
    // A cap of exactly the draws needed is enough; one fewer stops it with all of them made.
    assert!(sprt::simulate_capped(w, l, 0.15, 50, 8, all).0.is_some());
    assert_eq!(
        sprt::simulate_capped(w, l, 0.15, 50, 8, all - 1),
        (None, all - 1)
    );
    assert_eq!(sprt::simulate_capped(w, l, 0.15, 50, 8, 0), (None, 0));
}

#[test]
#[should_panic(expected = "need B < 0 < A")]
fn exact_refuses_a_close_line_at_0() {
    sprt::exact(Weights::new(0.05, 0.2), lines(4.6, 0.0), 0.1);
}

#[test]
#[should_panic(expected = "need B < 0 < A")]
fn exact_refuses_an_open_line_at_0() {
    sprt::exact(Weights::new(0.05, 0.2), lines(0.0, -2.9), 0.1);
}

#[test]
#[should_panic(expected = "need B < 0 < A")]
fn exact_refuses_lines_on_one_side() {
    sprt::exact(Weights::new(0.05, 0.2), lines(4.6, 1.0), 0.1);
}

/// Weights the other way round (fine above broken) ran the program to its work cap (1e9 cells,
/// 0.2 s) and returned a chance to close of 0 that meant nothing.
#[test]
#[should_panic(expected = "w_fail > 0 > w_ok")]
fn exact_refuses_weights_the_other_way_round() {
    sprt::exact(Weights::new(0.2, 0.05), lines(4.6, -2.9), 0.1);
}

/// Exact OC and ASN at irrational weight ratios and small error rates against references from
/// an independent 40-digit program (mpmath): the (trials, failures) mass carried until less than
/// 1e-40 is undecided, open at `>= A`, close at `<= B`, with the weights of the same f64 rates.
#[test]
fn exact_matches_high_precision_references() {
    // (fine, broken, a, b, true rate, OC, ASN)
    let cases = [
        (
            0.05,
            0.2,
            0.01,
            0.05,
            0.110_291_596_130_600_7,
            0.622_015_937_555_366_8,
            65.172_882_968_711_06,
        ),
        (
            0.01,
            0.3,
            1e-6,
            1e-6,
            0.01,
            0.999_999_637_586_037_5,
            44.942_328_801_397_885,
        ),
        (
            0.001,
            0.01,
            1e-4,
            1e-3,
            0.0055,
            0.109_461_839_902_360_89,
            2_229.316_238_900_363_3,
        ),
        (
            0.0001,
            0.5,
            0.001,
            0.001,
            0.5,
            0.000_976_980_140_365_128_3,
            2.246_305_911_203_622,
        ),
    ];
    for (p0, p1, a, b, p, oc, asn) in cases {
        let e = sprt::exact(Weights::new(p0, p1), WaldLines::new(a, b), p);
        assert!(
            rel(e.close_probability, oc) < 1e-9,
            "{p0} vs {p1}, a {a}, b {b}, p {p}: OC {} vs {oc}",
            e.close_probability
        );
        assert!(
            rel(e.expected_trials, asn) < 1e-9,
            "{p0} vs {p1}, a {a}, b {b}, p {p}: ASN {} vs {asn}",
            e.expected_trials
        );
    }
}

/// A tie that is exact in real numbers reaches Wald's line, in the exact program as in the
/// breaker: at p0 = 10%, p1 = 30%, a = b = 10%, `A = ln 9 = 2 w_fail` (w_fail = ln 3), and two
/// failures open. In f64 they summed to one unit below `A`, and the program asked for three:
/// a chance to close at p0 of 0.9344 where the test's is 0.9295. The expected values come from
/// a program in exact integers (3^k 7^m against 9^(m+1) and 9^m / 9: the lines are ln 9 and
/// ln(1/9), the weights ln 3 and ln(7/9)) with 40-digit mass, run to 1e-35 left.
#[test]
fn a_tie_to_rounding_reaches_the_line_in_the_exact_program() {
    let w = Weights::new(0.1, 0.3);
    let l = WaldLines::new(0.1, 0.1);
    assert!(2.0 * w.fail < l.upper, "the rounding this test is about");
    for (p, close, trials) in [
        (0.1, 0.929_530_083_852_614, 16.951_793_035_283_516),
        (0.3, 0.092_304_997_772_489_85, 13.967_735_831_255_813),
    ] {
        let e = sprt::exact(w, l, p);
        assert!(
            rel(e.close_probability, close) < 1e-10,
            "{p}: {}",
            e.close_probability
        );
        assert!(
            rel(e.expected_trials, trials) < 1e-10,
            "{p}: {}",
            e.expected_trials
        );
        // The simulation decides ties as the breaker does: within its interval.
        let (oc, asn) = sprt::simulate(w, l, p, 20_000, 7).expect("runs");
        let (lo, hi) = oc.ci95.expect("an interval");
        assert!(
            lo <= close && close <= hi,
            "{p}: close {close} outside [{lo}, {hi}]"
        );
        let (lo, hi) = asn.ci95.expect("an interval");
        assert!(
            lo <= trials && trials <= hi,
            "{p}: trials {trials} outside [{lo}, {hi}]"
        );
    }
}
