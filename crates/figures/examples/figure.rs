//! Runs the figures whose names contain the given text, `RUNS` times each (default 5), and
//! prints each run's time: for profiling one figure (`perf record`, callgrind).
//!
//! `cargo run --release -p figures --example figure -- "line=ln1e9 p=p*"`

use std::time::Instant;

fn main() {
    let want: String = std::env::args().nth(1).unwrap_or_default();
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    for f in figures::all().iter().filter(|f| f.name.contains(&want)) {
        for _ in 0..runs {
            let t = Instant::now();
            let v = f.run();
            println!(
                "{:<72} {:>9.3} ms   value {v:e}",
                f.name,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
