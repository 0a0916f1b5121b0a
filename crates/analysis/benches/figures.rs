//! Timing of every exact figure (prints medians; asserts nothing).
//!
//! `cargo bench -p analysis --bench figures`. The bar (issue 4): each single figure except
//! simulations in under 100 ms natively for lines up to ln(1e9).

use analysis::{cusum, sprt, window};
use breaker::score::Weights;
use breaker::trial::WaldLines;
use std::hint::black_box;
use std::time::Instant;

fn median_ms(runs: usize, mut f: impl FnMut() -> f64) -> (f64, f64) {
    let mut times = Vec::with_capacity(runs);
    let mut v = 0.0;
    for _ in 0..runs {
        let t = Instant::now();
        v = black_box(f());
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (times[runs / 2], v)
}

fn main() {
    let runs = 5;
    let mut worst: (f64, String) = (0.0, String::new());
    let mut report = |name: String, (ms, v): (f64, f64)| {
        println!("{name:<72} {ms:>9.3} ms   value {v:.6e}");
        if ms > worst.0 {
            worst = (ms, name);
        }
    };
    let settings: &[(f64, f64)] = &[
        (0.05, 0.20),
        (0.001, 0.002),
        (0.001, 0.01),
        (0.1, 0.2),
        (0.1, 1.0 - 1e-9),
    ];
    for &(p0, p1) in settings {
        let w = Weights::new(p0, p1);
        let pz = w.zero_drift_rate();
        for e in [2, 3, 4, 5, 6, 7, 8, 9] {
            let line = (10f64).powi(e).ln();
            for (label, p) in [
                ("p0", p0),
                ("p*", pz),
                ("p1", p1),
                ("p0/10", p0 / 10.0),
                ("2p1", (2.0 * p1).min(0.999)),
            ] {
                report(
                    format!("cusum exact   p0={p0} p1={p1} line=ln1e{e} p={label}"),
                    median_ms(runs, || cusum::arl_exact(w, line, p).arl),
                );
            }
            for (label, p) in [("p0", p0), ("p1", p1)] {
                report(
                    format!("cusum chain   p0={p0} p1={p1} line=ln1e{e} p={label}"),
                    median_ms(runs, || {
                        cusum::arl_markov_chain(w, line, p).map_or(f64::NAN, |c| c.arl)
                    }),
                );
            }
        }
        let lines = WaldLines::new(0.01, 0.05);
        for (label, p) in [("p0", p0), ("p*", pz), ("p1", p1)] {
            report(
                format!("sprt exact    p0={p0} p1={p1} a=1% b=5% p={label}"),
                median_ms(runs, || sprt::exact(w, lines, p).close_probability),
            );
        }
    }
    for n in [10u32, 16, 18] {
        let w = window::CountWindow::new(n, 0.5);
        report(
            format!("window trips/day exact n={n} t=50% baseline=5%"),
            median_ms(runs, || {
                window::sliding_trips_per_day_exact(&w, 0.05, 10.0)
                    .unwrap()
                    .0
                    .value
            }),
        );
        report(
            format!("window calls to open exact n={n} t=50% outage=40% from full at 5%"),
            median_ms(runs, || {
                window::calls_to_trip_exact(&w, 0.4, window::Start::Full { baseline: 0.05 })
                    .unwrap()
                    .calls
            }),
        );
    }
    report(
        "window back-to-back n=100 t=50% baseline=5%".into(),
        median_ms(runs, || {
            window::back_to_back_trips_per_day(&window::CountWindow::new(100, 0.5), 0.05, 10.0)
                .value
        }),
    );
    println!("slowest: {:.3} ms  {}", worst.0, worst.1);
}
