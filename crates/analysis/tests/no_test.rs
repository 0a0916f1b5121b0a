//! Weights, rates and lines that make no test, given to the figures' public functions directly
//! (the page and `breaker analyze` validate first; a Rust caller need not). Each figure refuses
//! them, with `None` or a panic its docs name, and never hangs or answers with a number that
//! means nothing. Every case here did one of those (found by an audit of the public API),
//! except an infinite failure weight in the two simulations, refused with the rest.

use analysis::window::{self, CountWindow, Start};
use analysis::{cusum, num, sprt};
use breaker::score::Weights;
use breaker::trial::WaldLines;

/// Fine above broken: the signs flip.
fn inverted() -> Weights {
    Weights::new(0.2, 0.05)
}

/// Equal rates: both weights 0.
fn equal() -> Weights {
    Weights::new(0.1, 0.1)
}

/// A fine rate of 0: an infinite failure weight.
fn infinite_fail() -> Weights {
    Weights::new(0.0, 0.2)
}

/// A broken rate of 1: an infinite success weight.
fn infinite_ok() -> Weights {
    Weights::new(0.05, 1.0)
}

#[test]
fn only_finite_weights_of_opposite_signs_make_a_test() {
    assert!(num::is_test(Weights::new(0.05, 0.2)));
    for w in [inverted(), equal(), infinite_fail(), infinite_ok()] {
        assert!(!num::is_test(w), "{w:?}");
    }
    assert!(infinite_fail().fail.is_infinite() && infinite_ok().ok.is_infinite());
    for p in [0.0, 0.5, 1.0] {
        assert!(num::is_rate(p));
    }
    for p in [-1e-300, 1.0 + f64::EPSILON, f64::NAN, f64::INFINITY] {
        assert!(!num::is_rate(p), "{p}");
    }
}

/// The half-open test's Monte Carlo hung on weights the wrong way round or equal (its search for
/// the exact closing step never ends when a success does not lower the score) and on an
/// infinite opening line (never reached), its draw cap consulted in neither loop; with an
/// infinite success weight (NaN scores) it closed every time, where the first trial decides
/// (a failure opens at once, a success closes) and the chance is 0.9. (An infinite failure
/// weight it got right, opening at any failure; it is refused with the rest, as the exact
/// programs cannot take it.)
#[test]
fn the_half_open_simulation_refuses_what_would_hang_it() {
    let l = WaldLines::new(0.05, 0.05);
    for w in [inverted(), equal(), infinite_fail(), infinite_ok()] {
        assert_eq!(
            sprt::simulate_capped(w, l, 0.1, 10, 1, 1_000_000),
            (None, 0),
            "{w:?}"
        );
    }
    // a = 0: A = ln(0.95 / 0) is infinite.
    let open_never = WaldLines::new(0.0, 0.05);
    assert!(open_never.upper.is_infinite());
    assert_eq!(
        sprt::simulate(Weights::new(0.05, 0.2), open_never, 0.2, 10, 1),
        None
    );
    for p in [-0.5, 1.5, f64::NAN] {
        assert_eq!(
            sprt::simulate(Weights::new(0.05, 0.2), l, p, 10, 1),
            None,
            "{p}"
        );
    }
}

/// The CUSUM's Monte Carlo never alarmed with weights the wrong way round or equal (a failure
/// does not raise the score) or an infinite success weight (every success resets it), so it ran
/// until a caller's call cap: none given, forever. (An infinite failure weight alarms at every
/// failure, which it got right, 1 / p; refused with the rest, as the exact program cannot take
/// it.)
#[test]
fn the_run_length_simulation_refuses_what_would_hang_it() {
    for w in [inverted(), equal(), infinite_fail(), infinite_ok()] {
        assert_eq!(
            cusum::simulate(w, 5.0, 0.1, 100, 1, u64::MAX),
            None,
            "{w:?}"
        );
    }
    let w = Weights::new(0.05, 0.2);
    for (line, p) in [
        (5.0, 1.5),
        (5.0, f64::NAN),
        (f64::INFINITY, 0.1),
        (0.0, 0.1),
        // No failures never alarm: no figure (simulated, it does not end).
        (5.0, 0.0),
    ] {
        assert_eq!(
            cusum::simulate(w, line, p, 100, 1, u64::MAX),
            None,
            "{line} {p}"
        );
    }
}

/// The chain put inverted weights on a grid of negative step and answered 10.0 with an error
/// estimate of 1e-12.
#[test]
fn the_chain_refuses_weights_and_rates_that_make_no_test() {
    for w in [inverted(), equal(), infinite_fail(), infinite_ok()] {
        assert!(cusum::arl_markov_chain(w, 5.0, 0.1).is_none(), "{w:?}");
    }
    let w = Weights::new(0.05, 0.2);
    // No failures (p = 0) never alarm: no chain, as documented, rather than its infinity.
    for p in [1.5, f64::NAN, -0.1, 0.0] {
        assert!(cusum::arl_markov_chain(w, 5.0, p).is_none(), "{p}");
    }
    // A line of 0 (or below) is no line: no chain, not a grid of one state.
    for line in [0.0, -1.0, f64::NAN] {
        assert!(cusum::arl_markov_chain(w, line, 0.1).is_none(), "{line}");
    }
    assert!(cusum::arl_markov_chain(w, 5.0, 0.1).is_some());
}

/// With an infinite weight the positions of the exact program are NaN (0 x inf) and mass was
/// dropped unseen: a chance to close of 0 where it is 0.229 (0.9^14), converged.
#[test]
fn the_time_limited_test_refuses_infinite_weights() {
    let l = WaldLines::new(0.05, 0.05);
    for w in [infinite_fail(), infinite_ok()] {
        assert_eq!(
            sprt::half_open_time_limited(w, l, 0.1, 10.0, 1 << 40),
            None,
            "{w:?}"
        );
    }
}

#[test]
#[should_panic(expected = "w_fail > 0 > w_ok (finite)")]
fn the_exact_test_refuses_an_infinite_weight() {
    // It answered 0.0 (converged) where the chance to close is 0.229.
    sprt::exact(infinite_fail(), WaldLines::new(0.05, 0.05), 0.1);
}

#[test]
#[should_panic(expected = "w_fail > 0 > w_ok (finite)")]
fn the_exact_run_length_refuses_an_infinite_weight() {
    // It answered infinity, marked exact, where the run length is (1 + p) / p^2 = 110.
    cusum::arl_exact(infinite_ok(), 5.0, 0.1);
}

#[test]
#[should_panic(expected = "0 <= p <= 1")]
fn the_exact_run_length_refuses_a_rate_above_1() {
    // It answered with a chance to alarm per excursion of 3.375, marked converged.
    cusum::arl_exact(Weights::new(0.05, 0.2), 5.0, 1.5);
}

#[test]
#[should_panic(expected = "0 <= p <= 1")]
fn the_exact_test_refuses_a_negative_rate() {
    sprt::exact(Weights::new(0.05, 0.2), WaldLines::new(0.05, 0.05), -0.5);
}

/// A threshold above 1 (a percentage given where resilience4j's fraction goes) never trips,
/// nor does a rate of 0: the exact chain carried the window through 2^18 states for 6.7 s to say
/// so. It answers once the window has turned over with nothing tripped: the filling calls and
/// one window's worth. A rate that is no rate ran as long and answered NaN.
#[test]
fn the_window_chain_answers_soon_when_nothing_can_trip() {
    for (threshold, p) in [(50.0, 0.4), (f64::NAN, 0.4), (0.5, 0.0)] {
        let never = CountWindow::new(18, threshold);
        for (start, carried) in [(Start::Empty, 36), (Start::Full { baseline: 0.05 }, 18)] {
            let e = window::calls_to_trip_exact(&never, p, start).expect("answers");
            assert_eq!(
                (e.calls, e.error, e.iterations),
                (f64::INFINITY, 0.0, carried),
                "{threshold} {p} {start:?}"
            );
        }
    }
    // A window of failures only, where no count trips: it stays untripped (where one does, it
    // trips by itself, 0 calls).
    for (threshold, want) in [(50.0, (f64::INFINITY, 18)), (0.5, (0.0, 0))] {
        let w = CountWindow::new(18, threshold);
        let e = window::calls_to_trip_exact(&w, 0.4, Start::Full { baseline: 1.0 }).unwrap();
        assert_eq!((e.calls, e.error, e.iterations), (want.0, 0.0, want.1));
    }
    let w = CountWindow::new(18, 0.5);
    for p in [f64::NAN, -0.1, 1.5] {
        assert!(
            window::calls_to_trip_exact(&w, p, Start::Empty).is_none(),
            "{p}"
        );
    }
    for baseline in [f64::NAN, 2.0] {
        assert!(window::calls_to_trip_exact(&w, 0.4, Start::Full { baseline }).is_none());
    }
    // A window of no calls has no chain (nor a total outage's sum), whatever the rates.
    let empty = CountWindow::new(0, 0.5);
    for (p, start) in [(0.4, Start::Empty), (1.0, Start::Full { baseline: 0.05 })] {
        assert!(
            window::calls_to_trip_exact(&empty, p, start).is_none(),
            "{start:?}"
        );
    }
    // A threshold of exactly 1 trips (on a window of failures only).
    let e = window::calls_to_trip_exact(&CountWindow::new(4, 1.0), 0.5, Start::Empty).unwrap();
    assert!(e.calls.is_finite() && e.calls > 4.0, "{e:?}");
}
