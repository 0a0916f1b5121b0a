//! Sweeps (the page's curves) are monotone where the math says they must be.

use analysis::report::{self, Statistical};
use analysis::window::{self, CountWindow, Start};
use analysis::{cusum, sprt};
use breaker::score::Weights;
use breaker::trial::WaldLines;

fn settings(fine: f64, broken: f64) -> Statistical {
    Statistical {
        fine,
        broken,
        a: 0.01,
        b: 0.05,
        calls_per_second: 1.0,
    }
}

fn increasing(xs: &[f64]) -> bool {
    xs.windows(2).all(|w| w[1] > w[0])
}

fn decreasing(xs: &[f64]) -> bool {
    xs.windows(2).all(|w| w[1] < w[0])
}

#[test]
fn run_length_increases_with_the_line() {
    for &(p0, p1) in &[(0.05, 0.2), (0.001, 0.005), (0.1, 0.3)] {
        let s = settings(p0, p1);
        for &p in &[p0, p1] {
            let ns = report::sweep_values(1e2, 1e9, 15, true);
            let arl: Vec<f64> = ns
                .iter()
                .map(|&n| cusum::arl_exact(s.weights(), n.ln(), p).arl)
                .collect();
            assert!(increasing(&arl), "p0={p0} p1={p1} p={p}: {arl:?}");
        }
    }
}

#[test]
fn run_length_decreases_with_the_true_rate() {
    for &(p0, p1) in &[(0.05, 0.2), (0.002, 0.01), (0.1, 0.2)] {
        let s = settings(p0, p1);
        let line = 1e6f64.ln();
        let rates = report::sweep_values(p0 / 5.0, (3.0 * p1).min(0.99), 25, true);
        let points: Vec<_> = rates
            .iter()
            .map(|&p| report::run_length(&s, line, p, None))
            .collect();
        let exact: Vec<f64> = points
            .iter()
            .map(|r| r.calls.exact.unwrap().value)
            .collect();
        assert!(decreasing(&exact), "p0={p0}: {exact:?}");
        let wald: Vec<f64> = points
            .iter()
            .map(|r| r.calls.approximation.unwrap().value)
            .collect();
        assert!(decreasing(&wald), "Wald p0={p0}: {wald:?}");
        // Time follows calls at a fixed traffic.
        for r in &points {
            assert_eq!(r.seconds.exact.unwrap().value, r.calls.exact.unwrap().value);
            assert_eq!(r.calls.bound.is_some(), r.true_rate <= p0);
        }
    }
}

#[test]
fn chance_to_close_decreases_and_wald_tracks_it() {
    for &(p0, p1) in &[(0.05, 0.2), (0.001, 0.002), (0.01, 0.1)] {
        let w = Weights::new(p0, p1);
        let lines = WaldLines::new(0.01, 0.05);
        let rates = report::sweep_values(p0 / 10.0, (3.0 * p1).min(0.99), 25, true);
        let oc: Vec<f64> = rates
            .iter()
            .map(|&p| sprt::exact(w, lines, p).close_probability)
            .collect();
        assert!(decreasing(&oc), "p0={p0}: {oc:?}");
        let wald: Vec<f64> = rates
            .iter()
            .map(|&p| sprt::wald(w, lines, p).close_probability)
            .collect();
        assert!(decreasing(&wald), "Wald p0={p0}: {wald:?}");
        // Wald's design targets: OC(p0) ~ 1 - a and OC(p1) ~ b; exact values stay near them.
        let at = |p: f64| sprt::exact(w, lines, p).close_probability;
        assert!((at(p0) - 0.99).abs() < 0.01, "OC(p0) = {}", at(p0));
        assert!((at(p1) - 0.05).abs() < 0.01, "OC(p1) = {}", at(p1));
        // Wald's parametric curve and the direct one are the same curve.
        for h in [-2.0, -1.0, -0.3, 0.4, 1.0, 2.5] {
            let p = sprt::wald_rate_of_h(w, h);
            let a = sprt::wald_parametric(w, lines, h);
            let b = sprt::wald(w, lines, p);
            assert!(
                (a.close_probability - b.close_probability).abs() < 1e-9,
                "h={h}"
            );
        }
        // ASN peaks near the zero-drift rate.
        let asn = |p: f64| sprt::exact(w, lines, p).expected_trials;
        let z = w.zero_drift_rate();
        assert!(asn(z) > asn(p0 / 10.0) && asn(z) > asn((3.0 * p1).min(0.99)));
    }
}

#[test]
fn drift_increases_and_crosses_zero_at_the_zero_drift_rate() {
    let s = settings(0.05, 0.2);
    let rates = report::sweep_values(0.001, 0.9, 40, false);
    let d: Vec<f64> = rates
        .iter()
        .map(|&p| report::drift(&s, p).nats_per_call.value)
        .collect();
    assert!(increasing(&d));
    let z = s.weights().zero_drift_rate();
    assert!(z > 0.05 && z < 0.2);
    assert!(report::drift(&s, z).nats_per_call.value.abs() < 1e-15);
    assert!(report::drift(&s, 0.05).nats_per_call.value < 0.0);
    assert!(report::drift(&s, 0.2).nats_per_call.value > 0.0);
}

#[test]
fn window_trips_increase_with_the_baseline() {
    let rates = report::sweep_values(0.005, 0.4, 20, false);
    for &(n, t) in &[(100u32, 0.5), (20, 0.5), (10, 0.2)] {
        let w = CountWindow::new(n, t);
        let per_window: Vec<f64> = rates
            .iter()
            .map(|&p| window::trip_probability(&w, p).value)
            .collect();
        assert!(increasing(&per_window), "n={n}: {per_window:?}");
    }
    let w = CountWindow::new(12, 0.5);
    let sliding: Vec<f64> = rates
        .iter()
        .map(|&p| {
            window::sliding_trips_per_day_exact(&w, p, 1.0)
                .unwrap()
                .0
                .value
        })
        .collect();
    assert!(increasing(&sliding), "{sliding:?}");
    // Sliding evaluates after every call, so it trips at least as often as disjoint windows.
    for (&p, &s) in rates.iter().zip(&sliding) {
        assert!(
            s >= window::back_to_back_trips_per_day(&w, p, 1.0).value,
            "p={p}"
        );
    }
}

#[test]
fn window_calls_to_open_decrease_with_the_outage_rate() {
    let w = CountWindow::new(16, 0.5);
    let rates = report::sweep_values(0.2, 1.0, 17, false);
    let calls: Vec<f64> = rates
        .iter()
        .map(|&p| {
            window::calls_to_trip_exact(&w, p, Start::Full { baseline: 0.05 })
                .unwrap()
                .calls
        })
        .collect();
    assert!(decreasing(&calls), "{calls:?}");
    // Every call failing from a window with j failures: at least k - j calls (more when failures
    // leave the window as failures enter; window.rs checks the exact figure by walking each start).
    assert!(calls.last().unwrap() >= &1.0 && calls.last().unwrap() <= &8.0);
}
