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

/// The mixture recounted: for each number of trials `N` by the limit, the chance to have closed
/// at `<= B`, or to be undecided with a score below 0, weighted by Poisson(mean) (its pmf by the
/// recurrence `pmf(n) = pmf(n-1) mean / n`, in logarithms so a large mean does not underflow), up to `mean + 12 sqrt(mean) + 40` trials, over
/// every failure count (the whole triangle, no band). The cells are the program's: for each
/// trial count, its step's cost, and when some count is still undecided, the undecided counts
/// reachable from the start plus one (the next trial's new top count).
fn recount(w: Weights, l: WaldLines, p: f64, mean: f64) -> (f64, f64, u64) {
    // Decided at or past a line as the breaker compares: a tie to rounding reaches it.
    let l = l.reached(&w);
    let n_max = (mean + 12.0 * mean.sqrt() + 40.0).ceil() as usize;
    // undecided[k]: no line reached after n trials, k of them failed; reach[k]: some path
    // gets there without reaching a line (whatever its chance).
    let mut undecided = vec![1.0f64];
    let mut reach = vec![true];
    let (mut closed, mut close, mut at_limit, mut weight) = (0.0, 0.0, 0.0, 0.0);
    let mut cells = 0u64;
    let mut log_pmf = -mean;
    for n in 0..=n_max {
        if n > 0 {
            log_pmf += (mean / n as f64).ln();
            let mut next = vec![0.0; n + 1];
            for (k, &m) in undecided.iter().enumerate() {
                next[k] += m * (1.0 - p);
                next[k + 1] += m * p;
            }
            let mut next_reach = vec![false; n + 1];
            for (k, m) in next.iter_mut().enumerate() {
                let s = k as f64 * w.fail + (n - k) as f64 * w.ok;
                if s <= l.lower {
                    closed += *m;
                }
                if s <= l.lower || s >= l.upper {
                    *m = 0.0;
                } else {
                    next_reach[k] = (k < n && reach[k]) || (k > 0 && reach[k - 1]);
                }
            }
            undecided = next;
            reach = next_reach;
        }
        let below: f64 = undecided
            .iter()
            .enumerate()
            .filter(|&(k, _)| k as f64 * w.fail + (n - k) as f64 * w.ok < 0.0)
            .map(|(_, m)| m)
            .sum();
        let pmf = log_pmf.exp();
        close += pmf * (closed + below);
        at_limit += pmf * undecided.iter().sum::<f64>();
        weight += pmf;
        let alive = reach.iter().filter(|&&r| r).count() as u64;
        cells += sprt::TIME_LIMITED_STEP_CELLS + if alive > 0 { alive + 1 } else { 0 };
    }
    (close / weight, at_limit / weight, cells)
}

/// Every output against the recount, over rates, lines and limits.
#[test]
fn matches_a_recount() {
    let mut checked = 0;
    for (w, l) in [
        (Weights::new(0.05, 0.2), WaldLines::new(0.01, 0.05)),
        (Weights::new(0.02, 0.1), WaldLines::new(0.05, 0.1)),
        (
            Weights {
                fail: 1.0,
                ok: -1.0,
            },
            WaldLines {
                upper: 3.0,
                lower: -2.0,
            },
        ),
        // Lines the breaker compares at 3 and -2 exactly (`reach`): the scores on them are
        // decided, the top one opened.
        (
            Weights {
                fail: 1.0,
                ok: -1.0,
            },
            WaldLines {
                upper: 3.000_000_000_003,
                lower: -2.000_000_000_002,
            },
        ),
    ] {
        for p in [0.0, 0.03, 0.1, 0.5, 1.0] {
            for mean in [0.5, 4.0, 54.0, 300.0] {
                let t = sprt::time_limited(w, l, p, mean, CELLS).expect("fits");
                let (close, at_limit, cells) = recount(w, l, p, mean);
                assert!(
                    (t.close_probability - close).abs() < 1e-12,
                    "{w:?} p {p} mean {mean}: {} vs {close}",
                    t.close_probability
                );
                assert!(
                    (t.ends_at_limit - at_limit).abs() < 1e-12,
                    "{w:?} p {p} mean {mean}: {} vs {at_limit}",
                    t.ends_at_limit
                );
                assert_eq!(t.cells, cells, "{w:?} p {p} mean {mean}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 80);
}

/// Not computed: a mean that is no count, or more cells than allowed: (n_max + 1) x (width + 1
/// + the step's cost), width the most failure counts undecided at once.
#[test]
fn what_it_refuses() {
    let (w, l) = (Weights::new(0.05, 0.2), WaldLines::new(0.01, 0.05));
    for bad in [-1.0, -1e-300, f64::NAN, f64::INFINITY] {
        assert!(sprt::time_limited(w, l, 0.1, bad, CELLS).is_none(), "{bad}");
        assert_eq!(sprt::time_limited_cells(w, l, 0, bad), None);
    }
    // At the defaults A - B = ln 95 - ln(5/99) = 7.540 and w_fail - w_ok = ln 4 - ln(80/95) =
    // 1.558: 4.84, so at most 5 counts undecided at once; a step costs 5 + 1 + 256 cells.
    // Mean 100: n_max = 100 + 120 + 40 = 260, 261 x 262 = 68382 cells allowed at that cap.
    assert_eq!(sprt::time_limited_cells(w, l, 0, 100.0), Some(68_382));
    assert_eq!(sprt::time_limited_cells(w, l, 1, 100.0), Some(68_644));
    assert!(sprt::time_limited(w, l, 0.1, 100.0, 68_382).is_some());
    assert!(sprt::time_limited(w, l, 0.1, 100.0, 68_381).is_none());
    // Mean 0: n_max = 40, 41 x 262.
    assert!(sprt::time_limited(w, l, 0.1, 0.0, 10_742).is_some());
    assert!(sprt::time_limited(w, l, 0.1, 0.0, 10_741).is_none());
    // A mean past u64's range is refused, not wrapped (it overflowed: NaNs in release), even
    // under no cap at all (its cells read u64::MAX, which that cap let through: a loop over
    // 0..=u64::MAX).
    assert_eq!(sprt::time_limited_cells(w, l, 1, 1e25), None);
    assert!(sprt::half_open_time_limited(w, l, 0.1, 1.9e19, CELLS).is_none());
    assert!(sprt::time_limited(w, l, 0.1, 1e30, u64::MAX).is_none());
    // A failure rate that is no rate.
    for p in [-0.5, 1.5, f64::NAN] {
        assert!(
            sprt::half_open_time_limited(w, l, p, 10.0, CELLS).is_none(),
            "{p}"
        );
    }
    // What it visits is within what it may.
    for p in [0.0, 0.05, 0.3, 1.0] {
        let t = sprt::time_limited(w, l, p, 100.0, CELLS).expect("fits");
        assert!(t.cells <= 68_382, "p {p}: {}", t.cells);
    }
}

/// Where every count is decided within two trials (a = b = 45%: A = ln(11/9) = 0.2 and B =
/// -0.2, so one failure opens and two successes close), the band empties and the program goes
/// on with the Poisson weights alone: the recount's cells count no band then.
#[test]
fn a_band_that_empties() {
    let (w, l) = (Weights::new(0.05, 0.2), WaldLines::new(0.45, 0.45));
    for p in [0.0, 0.05, 0.2, 0.9] {
        for mean in [0.0, 3.0, 40.0] {
            let t = sprt::time_limited(w, l, p, mean, CELLS).expect("fits");
            let (close, at_limit, cells) = recount(w, l, p, mean);
            assert!(
                (t.close_probability - close).abs() < 1e-12,
                "p {p} mean {mean}"
            );
            assert!(
                (t.ends_at_limit - at_limit).abs() < 1e-12,
                "p {p} mean {mean}"
            );
            assert_eq!(t.cells, cells, "p {p} mean {mean}");
        }
    }
}

/// Only the undecided band moves, so a long limit costs a step per trial, not a triangle: at
/// 0.1% vs 0.2% (2982 trials to close, Poisson(8946) by the limit, 10,122 trial counts) the
/// program fits 3 million cells where the whole triangle is 51 million, and it gives the
/// recount's numbers.
#[test]
fn a_long_limit_is_a_band_not_a_triangle() {
    let (w, l) = (Weights::new(0.001, 0.002), WaldLines::new(0.01, 0.05));
    let mean = 3.0 * 2982.0;
    // A - B = 7.540, w_fail - w_ok = ln 2 + ln(999/998) = 0.6942: 10.86, so 11 counts at once.
    assert_eq!(
        sprt::time_limited_cells(w, l, 0, mean),
        Some(10_122 * (11 + 1 + 256))
    );
    for p in [0.001, 0.002] {
        let t = sprt::time_limited(w, l, p, mean, 3_000_000).expect("fits");
        let (close, at_limit, cells) = recount(w, l, p, mean);
        assert!(
            (t.close_probability - close).abs() < 1e-10,
            "p {p}: {} vs {close}",
            t.close_probability
        );
        assert!(
            (t.ends_at_limit - at_limit).abs() < 1e-10,
            "p {p}: {} vs {at_limit}",
            t.ends_at_limit
        );
        assert_eq!(t.cells, cells, "p {p}");
    }
}

/// The breaker's half-open (`sprt::half_open_time_limited`): the call that starts it is the
/// first trial, then Poisson(54) by the limit at the defaults. Against the independent program
/// of the first test, mixed over 1 + Poisson(54) (which gives its values over Poisson(54)).
#[test]
fn the_breakers_half_open_counts_its_first_trial() {
    let w = Weights::new(0.05, 0.2);
    let l = WaldLines::new(0.01, 0.05);
    for (p, close, at_limit) in [
        (0.05, 0.969_124_350_192_431_3, 0.112_745_510_781_684_82),
        (0.2, 0.064_420_232_430_924_86, 0.153_943_299_283_527_5),
    ] {
        let t = sprt::half_open_time_limited(w, l, p, 54.0, CELLS).expect("fits");
        assert!(
            (t.close_probability - close).abs() < 1e-12,
            "p {p}: {}",
            t.close_probability
        );
        assert!(
            (t.ends_at_limit - at_limit).abs() < 1e-12,
            "p {p}: {}",
            t.ends_at_limit
        );
    }
}

/// Away from the defaults (a = b = 1e-6: 40 trials to close; 0.1% vs 1% with a = 1e-4,
/// b = 1e-3: 764), the breaker's half-open against the independent 40-digit program of
/// `tests/sprt.rs`'s references, mixed over 1 + Poisson(3 x trials to close).
#[test]
fn the_breakers_half_open_matches_high_precision_references() {
    // (fine, broken, a, b, true rate, trials to close, close, ends at the limit)
    let cases = [
        (
            0.01,
            0.3,
            1e-6,
            1e-6,
            0.01,
            40.0,
            0.999_999_609_054_018_3,
            4.900650112231361e-05,
        ),
        (
            0.001,
            0.01,
            1e-4,
            1e-3,
            0.0055,
            764.0,
            0.167_348_425_963_775_67,
            0.364_570_572_006_578_16,
        ),
    ];
    for (p0, p1, a, b, p, to_close, close, at_limit) in cases {
        let t = sprt::half_open_time_limited(
            Weights::new(p0, p1),
            WaldLines::new(a, b),
            p,
            3.0 * to_close,
            CELLS,
        )
        .expect("fits");
        assert!(
            (t.close_probability - close).abs() < 1e-11,
            "{p0} vs {p1}, p {p}: {} vs {close}",
            t.close_probability
        );
        assert!(
            (t.ends_at_limit - at_limit).abs() < 1e-11,
            "{p0} vs {p1}, p {p}: {} vs {at_limit}",
            t.ends_at_limit
        );
    }
}

/// Weights the other way round (fine above broken) or lines not around 0 make no test: `None`,
/// where they used to give a number (a chance to close of 0.9996 for fine 20%, broken 5%).
#[test]
fn no_test_no_answer() {
    let l = WaldLines::new(0.01, 0.05);
    let inverted = Weights::new(0.2, 0.05);
    assert!(inverted.fail < 0.0 && inverted.ok > 0.0);
    assert_eq!(sprt::time_limited(inverted, l, 0.1, 10.0, CELLS), None);
    assert_eq!(
        sprt::half_open_time_limited(inverted, l, 0.1, 10.0, CELLS),
        None
    );
    assert_eq!(sprt::time_limited_cells(inverted, l, 1, 10.0), None);
    let w = Weights::new(0.05, 0.2);
    for lines in [
        WaldLines {
            upper: 1.0,
            lower: 0.5,
        },
        WaldLines {
            upper: -0.5,
            lower: -1.0,
        },
        WaldLines {
            upper: 0.0,
            lower: -1.0,
        },
    ] {
        assert_eq!(
            sprt::time_limited(w, lines, 0.1, 10.0, CELLS),
            None,
            "{lines:?}"
        );
    }
    // The same settings the right way round answer.
    assert!(sprt::half_open_time_limited(w, l, 0.1, 10.0, CELLS).is_some());
}

/// A chance is at most 1: summed over 140k cells, the undecided mass rounded past the Poisson
/// weight it is divided by, and the chance to end at the limit read 1.0000000000000087 (the
/// command line printed 1.0000000000039952 for `analyze trials --fine 19.99% --broken 20%
/// --true-rate 20%`).
#[test]
fn chances_stay_within_one() {
    let (p0, p1) = (0.0519052980220625, 0.05198802301972432);
    let lines = WaldLines {
        upper: 2.738068543033209,
        lower: -2.1572490478640662,
    };
    let r = sprt::half_open_time_limited(
        Weights::new(p0, p1),
        lines,
        0.05194559564502482,
        146.6152651917078,
        2_000_000,
    )
    .unwrap();
    assert_eq!(r.cells, 141_783);
    assert!(
        r.ends_at_limit <= 1.0 && r.ends_at_limit > 1.0 - 1e-12,
        "{r:?}"
    );
    assert!((0.0..=1.0).contains(&r.close_probability), "{r:?}");
}
