//! Timing of every analysis figure of the bench's list (`figures::all`, the list the bench page
//! also times in the browsers). Prints each figure's median time, its value to the last digit
//! (shortest text that reads back as the same double), its kind and the runs' spread; asserts
//! nothing.
//!
//! `cargo bench -p analysis --bench figures`. The bar (issues 4 and 8): each single figure
//! except simulations in at most 100 ms for lines up to ln(1e9).

use std::hint::black_box;
use std::time::Instant;

/// Runs per figure; the median is printed.
const RUNS: usize = 5;

fn main() {
    let mut worst: (f64, String) = (0.0, String::new());
    for f in figures::all() {
        let mut times = Vec::with_capacity(RUNS);
        let mut v = 0.0;
        for _ in 0..RUNS {
            let t = Instant::now();
            v = black_box(f.run());
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let ms = times[RUNS / 2];
        // The spread, (max - min) / median of the runs, read by `cargo xtask bench --compare`.
        let spread = if ms > 0.0 {
            (times[RUNS - 1] - times[0]) / ms * 100.0
        } else {
            0.0
        };
        println!(
            "{:<72} {ms:>9.3} ms   value {v:e}   {}   spread {spread:.0}%",
            f.name, f.kind
        );
        if ms > worst.0 {
            worst = (ms, f.name);
        }
    }
    println!("slowest: {:.3} ms  {}", worst.0, worst.1);
}
