//! Integer weight ratios (+1/-1, +2/-1, +3/-2): gambler's ruin and linear systems solved here,
//! independently of the crate, must match the exact methods to 1e-9 relative.
#![allow(clippy::needless_range_loop)]

use analysis::{cusum, sprt};
use breaker::score::Weights;
use breaker::trial::WaldLines;

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

/// Dense Gaussian elimination with partial pivoting: solve `m x = rhs`.
fn solve(mut m: Vec<Vec<f64>>, mut rhs: Vec<f64>) -> Vec<f64> {
    let n = rhs.len();
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| m[i][col].abs().partial_cmp(&m[j][col].abs()).unwrap())
            .unwrap();
        m.swap(col, piv);
        rhs.swap(col, piv);
        for row in col + 1..n {
            let f = m[row][col] / m[col][col];
            if f != 0.0 {
                for c in col..n {
                    m[row][c] -= f * m[col][c];
                }
                rhs[row] -= f * rhs[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| m[row][c] * x[c]).sum();
        x[row] = (rhs[row] - s) / m[row][row];
    }
    x
}

/// Dense elimination in f64 loses about `log10(ARL)` digits (the system's condition number grows
/// like the ARL), so linear-system comparisons keep ARL below this; larger ARLs are checked
/// against the gambler's-ruin closed form instead.
const LINEAR_SYSTEM_MAX_ARL: f64 = 1e5;

/// CUSUM with integer steps `+up` / `-down`, alarm at `>= h` (integer): ARL from 0 by solving
/// `x_m = 1 + p x_{m+up} + q x_{max(m-down,0)}`, `x_j = 0` for `j >= h`.
fn cusum_linear_system(up: usize, down: usize, h: usize, p: f64) -> f64 {
    let q = 1.0 - p;
    let mut m = vec![vec![0.0; h]; h];
    for s in 0..h {
        m[s][s] += 1.0;
        if s + up < h {
            m[s][s + up] -= p;
        }
        m[s][s.saturating_sub(down)] -= q;
    }
    solve(m, vec![1.0; h])[0]
}

/// SPRT with integer steps: positions `lo+1 ..= hi-1` alive (absorbed at `<= lo`, `>= hi`), from 0.
/// Returns (P(absorbed low), expected steps).
fn sprt_linear_system(up: i64, down: i64, lo: i64, hi: i64, p: f64) -> (f64, f64) {
    let q = 1.0 - p;
    let states: Vec<i64> = (lo + 1..hi).collect();
    let n = states.len();
    let idx = |s: i64| (s - lo - 1) as usize;
    let mut m = vec![vec![0.0; n]; n];
    let mut rhs_oc = vec![0.0; n];
    for &s in &states {
        let i = idx(s);
        m[i][i] += 1.0;
        let (u, d) = (s + up, s - down);
        if u < hi {
            m[i][idx(u)] -= p;
        }
        if d > lo {
            m[i][idx(d)] -= q;
        } else {
            rhs_oc[i] += q;
        }
    }
    let oc = solve(m.clone(), rhs_oc)[idx(0)];
    let asn = solve(m, vec![1.0; n])[idx(0)];
    (oc, asn)
}

fn w(fail: f64, ok: f64) -> Weights {
    Weights { fail, ok }
}

#[test]
fn cusum_plus1_minus1_matches_linear_system() {
    let mut checked = 0;
    for &h in &[3usize, 5, 8, 12] {
        for &p in &[0.05, 0.2, 0.35, 0.5, 0.6, 0.9] {
            let want = cusum_linear_system(1, 1, h, p);
            if want > LINEAR_SYSTEM_MAX_ARL {
                continue;
            }
            checked += 1;
            let got = cusum::arl_exact(w(1.0, -1.0), h as f64, p);
            assert!(
                rel(got.arl, want) < 1e-9,
                "h={h} p={p}: {} vs {want}",
                got.arl
            );
            assert!(
                got.error <= 1e-9 * want,
                "error estimate {} too large",
                got.error
            );
            // A line between grid points alarms at the next integer.
            let got = cusum::arl_exact(w(1.0, -1.0), h as f64 - 0.5, p);
            assert!(
                rel(got.arl, want) < 1e-9,
                "h={h}-0.5 p={p}: {} vs {want}",
                got.arl
            );
        }
    }
    assert!(checked >= 15, "only {checked} cases");
}

#[test]
fn cusum_plus1_minus1_matches_gamblers_ruin_closed_form() {
    // With +1/-1, an excursion starts at 1 and ends at 0 or h: gambler's ruin from 1.
    // q_alarm = (1 - r) / (1 - r^h) with r = q/p; excursion length from 1:
    // E = 1/(q-p) - h/(q-p) * q_alarm; ARL = (1 + p E) / (p q_alarm).
    for &h in &[4u32, 7, 10] {
        for &p in &[0.1, 0.3, 0.45, 0.55, 0.8] {
            let q: f64 = 1.0 - p;
            let r: f64 = q / p;
            let hf = h as f64;
            let qa = (1.0 - r) / (1.0 - r.powi(h as i32));
            let e = 1.0 / (q - p) - hf / (q - p) * qa;
            let want = (1.0 + p * e) / (p * qa);
            let got = cusum::arl_exact(w(1.0, -1.0), hf, p);
            assert!(
                rel(got.arl, want) < 1e-9,
                "h={h} p={p}: {} vs {want}",
                got.arl
            );
            assert!(rel(got.alarm_per_excursion, qa) < 1e-9);
        }
        // Zero drift: q_alarm = 1/h, E = h - 1.
        let hf = h as f64;
        let want = (1.0 + 0.5 * (hf - 1.0)) / (0.5 / hf);
        let got = cusum::arl_exact(w(1.0, -1.0), hf, 0.5);
        assert!(
            rel(got.arl, want) < 1e-9,
            "h={h} p=0.5: {} vs {want}",
            got.arl
        );
    }
}

#[test]
fn cusum_plus2_minus1_and_plus3_minus2_match_linear_system() {
    let mut checked = 0;
    for &(up, down) in &[(2usize, 1usize), (3, 2), (1, 3)] {
        for &h in &[5usize, 9, 14] {
            for &p in &[0.05, 0.2, 1.0 / 3.0, 0.5, 0.7] {
                let want = cusum_linear_system(up, down, h, p);
                if want > LINEAR_SYSTEM_MAX_ARL {
                    continue;
                }
                checked += 1;
                let got = cusum::arl_exact(w(up as f64, -(down as f64)), h as f64, p);
                assert!(
                    rel(got.arl, want) < 1e-9,
                    "+{up}/-{down} h={h} p={p}: {} vs {want}",
                    got.arl
                );
            }
        }
    }
    assert!(checked >= 25, "only {checked} cases");
}

#[test]
fn brook_evans_chain_is_exact_for_integer_ratios() {
    let mut checked = 0;
    for &(up, down) in &[(1usize, 1usize), (2, 1), (3, 2)] {
        for &h in &[5usize, 11] {
            for &p in &[0.1, 0.3, 0.6] {
                let want = cusum_linear_system(up, down, h, p);
                if want > LINEAR_SYSTEM_MAX_ARL {
                    continue;
                }
                checked += 1;
                // Scale the weights: the chain must find the integer ratio and an exact grid.
                // The line half a step below h: the same alarms, and not on a grid point, where
                // f64 rounding would decide (the chain's estimate then covers both sides: see
                // the tie test in cusum_exact.rs).
                let scale = 0.37;
                let got = cusum::arl_markov_chain(
                    w(up as f64 * scale, -(down as f64) * scale),
                    (h as f64 - 0.5) * scale,
                    p,
                )
                .expect("chain fits");
                assert!(
                    rel(got.arl, want) < 1e-9,
                    "+{up}/-{down} h={h} p={p}: {} vs {want}",
                    got.arl
                );
                assert!(got.error.unwrap() < 1e-9 * want);
            }
        }
    }
    assert!(checked >= 10, "only {checked} cases");
    // Large run lengths against the closed form (+1/-1): see the gambler's-ruin test.
    for &(h, p) in &[(10u32, 0.1f64), (8, 0.05), (12, 0.3)] {
        let r: f64 = (1.0 - p) / p;
        let qa = (1.0 - r) / (1.0 - r.powi(h as i32));
        let e = 1.0 / (1.0 - 2.0 * p) - h as f64 / (1.0 - 2.0 * p) * qa;
        let want = (1.0 + p * e) / (p * qa);
        let got = cusum::arl_markov_chain(w(0.3, -0.3), h as f64 * 0.3, p).unwrap();
        assert!(
            rel(got.arl, want) < 1e-9,
            "h={h} p={p}: {} vs {want}",
            got.arl
        );
    }
}

#[test]
fn sprt_plus1_minus1_matches_gamblers_ruin() {
    // Close at <= B = -2, open at >= A = 3: from 0 that is gambler's ruin from i = 2 of N = 5.
    for &(a, b) in &[(3.0, -2.0), (2.5, -1.5), (6.0, -4.0)] {
        let lines = WaldLines { upper: a, lower: b };
        // Integer positions: absorbed low at floor(B) ... i.e. at -ceil(-B); high at ceil(A).
        let lo: f64 = -(-b).ceil();
        let hi: f64 = a.ceil();
        let (i, n): (f64, f64) = (-lo, hi - lo);
        for &p in &[0.05, 0.3, 0.5, 0.62, 0.9] {
            let q: f64 = 1.0 - p;
            let (oc, asn) = if p == 0.5 {
                (1.0 - i / n, i * (n - i))
            } else {
                let r: f64 = q / p;
                let up = (1.0 - r.powf(i)) / (1.0 - r.powf(n));
                (1.0 - up, i / (q - p) - n / (q - p) * up)
            };
            let got = sprt::exact(w(1.0, -1.0), lines, p);
            assert!(
                rel(got.close_probability, oc) < 1e-9,
                "A={a} B={b} p={p}: OC {} vs {oc}",
                got.close_probability
            );
            assert!(
                rel(got.expected_trials, asn) < 1e-9,
                "A={a} B={b} p={p}: ASN {} vs {asn}",
                got.expected_trials
            );
        }
    }
}

#[test]
fn sprt_plus2_minus1_matches_linear_system() {
    for &(up, down) in &[(2i64, 1i64), (3, 2), (1, 4)] {
        for &(a, b) in &[(4i64, -3i64), (7, -5)] {
            for &p in &[0.05, 0.25, 1.0 / 3.0, 0.5, 0.8] {
                // Absorbed low at <= b and high at >= a: alive b+1 ..= a-1.
                let (oc, asn2) = sprt_linear_system(up, down, b, a, p);
                let lines = WaldLines {
                    upper: a as f64,
                    lower: b as f64,
                };
                let got = sprt::exact(w(up as f64, -(down as f64)), lines, p);
                assert!(
                    rel(got.close_probability, oc) < 1e-9,
                    "+{up}/-{down} A={a} B={b} p={p}: {} vs {oc}",
                    got.close_probability
                );
                assert!(
                    rel(got.expected_trials, asn2) < 1e-9,
                    "ASN {} vs {asn2}",
                    got.expected_trials
                );
            }
        }
    }
}

#[test]
fn wald_is_exact_without_overshoot() {
    // With +1/-1 and integer lines there is no overshoot, so Wald's formulas are exact.
    let lines = WaldLines {
        upper: 4.0,
        lower: -3.0,
    };
    for &p in &[0.1, 0.3, 0.45, 0.5, 0.55, 0.8] {
        let e = sprt::exact(w(1.0, -1.0), lines, p);
        let a = sprt::wald(w(1.0, -1.0), lines, p);
        assert!(
            rel(a.close_probability, e.close_probability) < 1e-9,
            "p={p}"
        );
        assert!(rel(a.expected_trials, e.expected_trials) < 1e-9, "p={p}");
    }
}
