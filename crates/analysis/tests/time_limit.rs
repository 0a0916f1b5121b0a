//! Half-open with its time limit (`sprt::time_limited`) against an independent computation and
//! its limits: with no time the test opens (a score of 0 is not below 0); with much time it is
//! Wald's test run to its end.

use analysis::sprt;
use breaker::score::Weights;
use breaker::trial::WaldLines;

const CELLS: u64 = 100_000_000;

/// The defaults (p0 5%, p1 20%, a 1%, b 5%; 18 trials to close, factor 3): the chance to close
/// from an independent program (Python: a dictionary over (failures, successes) for each
/// truncation n, mixed with scipy's Poisson(54) pmf, written for a review of the walkthrough).
#[test]
fn matches_an_independent_computation_at_the_defaults() {
    let w = Weights::new(0.05, 0.2);
    let l = WaldLines::new(0.01, 0.05);
    for (p, want) in [
        (0.05, 0.967_916_544_837_016_3),
        (0.2, 0.065_350_959_197_592_75),
        (0.1, 0.648_380_387_929_131_4),
    ] {
        let t = sprt::time_limited(w, l, p, 54.0, CELLS).expect("fits");
        assert!(
            (t.close_probability - want).abs() < 1e-12,
            "p {p}: {} vs {want}",
            t.close_probability
        );
        assert!(t.ends_at_limit > 0.0 && t.ends_at_limit < 1.0);
    }
}

/// With a long limit it is Wald's test run to its end; with none, half-open opens.
#[test]
fn the_limits_of_the_limit() {
    let w = Weights::new(0.05, 0.2);
    let l = WaldLines::new(0.01, 0.05);
    for p in [0.01, 0.05, 0.11, 0.2, 0.5] {
        let e = sprt::exact(w, l, p);
        let t = sprt::time_limited(w, l, p, 3000.0, CELLS).expect("fits");
        assert!(
            (t.close_probability - e.close_probability).abs() < 1e-9,
            "p {p}: {} vs {}",
            t.close_probability,
            e.close_probability
        );
        assert!(t.ends_at_limit < 1e-9, "p {p}: {}", t.ends_at_limit);
        let none = sprt::time_limited(w, l, p, 0.0, CELLS).expect("fits");
        assert_eq!((none.close_probability, none.ends_at_limit), (0.0, 1.0));
    }
    // Past the cap of cells: not computed.
    assert!(sprt::time_limited(w, l, 0.05, 1e6, CELLS).is_none());
}

/// Against the breaker's own rule, simulated: trials of chance p, Poisson(mean) of them by the
/// limit, close at <= B, open at >= A, else close if the score is below 0.
#[test]
fn matches_a_simulation() {
    let (w, l) = (Weights::new(0.02, 0.1), WaldLines::new(0.05, 0.1));
    let mut seed = 0x853c_49e6_748f_ea9b_u64;
    let mut u = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mean, p, runs) = (20.0, 0.06, 200_000);
    let mut closed = 0u32;
    for _ in 0..runs {
        // Poisson(mean) by counting exponential gaps within `mean`.
        let (mut n, mut t) = (0u32, -u().ln());
        while t < mean {
            n += 1;
            t -= u().ln();
        }
        let mut s = 0.0;
        let mut decided = None;
        for _ in 0..n {
            s += if u() < p { w.fail } else { w.ok };
            if s >= l.upper {
                decided = Some(false);
                break;
            }
            if s <= l.lower {
                decided = Some(true);
                break;
            }
        }
        if decided.unwrap_or(s < 0.0) {
            closed += 1;
        }
    }
    let sim = f64::from(closed) / f64::from(runs);
    let se = (sim * (1.0 - sim) / f64::from(runs)).sqrt();
    let t = sprt::time_limited(w, l, p, mean, CELLS).expect("fits");
    assert!(
        (t.close_probability - sim).abs() < 4.0 * se,
        "{} vs simulated {sim} +- {se}",
        t.close_probability
    );
}
