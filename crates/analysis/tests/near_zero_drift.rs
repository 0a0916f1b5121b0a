//! Wald's approximations a hair away from the zero-drift rate.
//!
//! Reference values: Wald's formulas evaluated in 60-digit arithmetic (mpmath) with the same f64
//! weights, lines and true rate the crate uses, the exponent `t` solved from
//! `p e^{t w_fail} + (1-p) e^{t w_ok} = 1` by Newton's method on
//! `(p expm1(t w_fail) + (1-p) expm1(t w_ok)) / t` to 1e-70. The crate's exponent used to come
//! from bisecting `ln E[e^{t w}]`, whose absolute rounding (~1e-16) hides the root when it is
//! near 0: t was off by ~1e-6, so the approximate run length was off by up to 10% (at 3e-8 of
//! the zero-drift rate), or by 1e7 times at the rate itself for 30% vs 31% at ln 1e9.
//!
//! Tolerance 1e-7 relative: double arithmetic near zero drift loses about
//! `eps p w_fail / |drift|` (< 1e-8 for these points) in the drift and the exponent.

use analysis::{cusum, sprt};
use breaker::score::Weights;
use breaker::trial::WaldLines;

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn wald_run_length_near_zero_drift_matches_high_precision() {
    // (fine, broken, line calls, offset from the zero-drift rate, reference)
    let cases = [
        (0.3, 0.31, 1e6, 3e-8, 404_546.509_047_865_2),
        (0.05, 0.2, 1e6, 1e-7, 801.176_006_197_395_6),
        (0.001, 0.002, 1e6, -1e-7, 274_952.100_330_892_8),
        (0.3, 0.31, 1e9, 0.0, 910_237.320_719_959_3),
    ];
    for (p0, p1, n, off, want) in cases {
        let w = Weights::new(p0, p1);
        let p = w.zero_drift_rate() * (1.0 + off);
        let got = cusum::arl_wald(w, libm::log(n), p).value;
        assert!(
            rel(got, want) < 1e-7,
            "{p0} vs {p1}, ln {n:e}, p = {p}: Wald's run length {got}, want {want}"
        );
    }
}

#[test]
fn wald_asn_near_zero_drift_matches_high_precision() {
    // (fine, broken, offset, reference OC, reference ASN); a = 1%, b = 5%.
    let cases = [
        (
            0.05,
            0.2,
            1e-6,
            0.603_996_491_963_478_8,
            57.071_491_315_534_057,
        ),
        (
            0.001,
            0.002,
            1e-6,
            0.603_995_191_123_832_6,
            19_586.082_588_418_826,
        ),
        (
            0.1,
            0.9,
            1e-6,
            0.603_996_972_064_239_4,
            2.816_281_313_019_507_6,
        ),
    ];
    let lines = WaldLines::new(0.01, 0.05);
    for (p0, p1, off, oc, asn) in cases {
        let w = Weights::new(p0, p1);
        let p = w.zero_drift_rate() * (1.0 + off);
        let got = sprt::wald(w, lines, p);
        assert!(
            rel(got.close_probability, oc) < 1e-7,
            "{p0} vs {p1}, p = {p}: Wald's OC {}, want {oc}",
            got.close_probability
        );
        assert!(
            rel(got.expected_trials, asn) < 1e-7,
            "{p0} vs {p1}, p = {p}: Wald's ASN {}, want {asn}",
            got.expected_trials
        );
    }
}
