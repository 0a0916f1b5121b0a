//! Simulator throughput beside the bare loop (issue 8). Prints; asserts nothing.
//!
//! `cargo bench -p sim --bench throughput [-- --runs N --presets a,b,c]`
//!
//! For each preset: the full run as the page computes it (`sim::run` with 600 buckets of series:
//! both breakers, calls in flight, events, metrics, series) and the bare loop
//! (`sim::bare::bare_loop`: the same arrivals and dependency draws and one CUSUM update per
//! call, nothing else), alternated run by run so both see the same machine. A run of a short
//! preset repeats it until at least 0.2 s has passed. Figures: calls per second, median over the
//! runs, and the spread (max - min) / median. The last line, `bench-json {...}`, is what
//! `cargo xtask bench` reads.
//!
//! `-- --once full|bare --presets NAME [--hours H]` plays one preset once (cut to its first `H`
//! hours) and prints `once-calls N`, untimed: `cargo xtask bench` runs it under callgrind to
//! count instructions per call, a figure without the machine's noise.

use std::hint::black_box;
use std::time::Instant;

const DEFAULT_PRESETS: &[&str] = &["quiet-service", "busy-service", "recovery-warmup"];

struct Figure {
    median: f64,
    min: f64,
    max: f64,
}

fn figure(mut xs: Vec<f64>) -> Figure {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let median = if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    };
    Figure {
        median,
        min: xs[0],
        max: xs[n - 1],
    }
}

/// Calls per second of `f` (which returns the calls it played), repeated to at least `min_s`.
fn rate(min_s: f64, mut f: impl FnMut() -> u64) -> f64 {
    let t = Instant::now();
    let mut calls = 0u64;
    loop {
        calls += black_box(f());
        let dt = t.elapsed().as_secs_f64();
        if dt >= min_s {
            return calls as f64 / dt;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 5usize;
    let mut names: Vec<String> = DEFAULT_PRESETS.iter().map(|s| s.to_string()).collect();
    let mut once: Option<String> = None;
    let mut hours: Option<f64> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--once" => once = it.next().cloned(),
            "--hours" => hours = it.next().and_then(|v| v.parse().ok()),
            "--runs" => {
                runs = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(runs)
                    .max(1)
            }
            "--presets" => {
                if let Some(v) = it.next() {
                    names = v.split(',').map(str::to_string).collect();
                }
            }
            _ => {} // `--bench` and filters from cargo
        }
    }
    if let Some(what) = once {
        play_once(&what, &names, hours);
        return;
    }
    let mut json = Vec::new();
    println!(
        "{:<16} {:>11} {:>14} {:>8} {:>14} {:>8} {:>7}",
        "preset", "calls", "full calls/s", "spread", "bare calls/s", "spread", "ratio"
    );
    for name in &names {
        let Some(s) = sim::preset(name) else {
            eprintln!("unknown preset {name}");
            continue;
        };
        let calls = sim::bare::bare_loop(&s).calls;
        let (mut full, mut bare, mut ratios) = (vec![], vec![], vec![]);
        for _ in 0..runs {
            let f = rate(0.2, || sim::run(&s, 600).map(|r| r.calls).unwrap_or(0));
            let b = rate(0.2, || sim::bare::bare_loop(&s).calls);
            full.push(f);
            bare.push(b);
            ratios.push(b / f);
        }
        let (f, b, r) = (figure(full), figure(bare), figure(ratios));
        let spread = |x: &Figure| (x.max - x.min) / x.median * 100.0;
        println!(
            "{:<16} {:>11} {:>14.0} {:>7.1}% {:>14.0} {:>7.1}% {:>6.2}x",
            name,
            calls,
            f.median,
            spread(&f),
            b.median,
            spread(&b),
            r.median
        );
        json.push(format!(
            "{{\"preset\":\"{name}\",\"calls\":{calls},\"runs\":{runs},\
             \"full\":{{\"median\":{:.1},\"min\":{:.1},\"max\":{:.1}}},\
             \"bare\":{{\"median\":{:.1},\"min\":{:.1},\"max\":{:.1}}},\
             \"ratio\":{{\"median\":{:.4},\"min\":{:.4},\"max\":{:.4}}}}}",
            f.median, f.min, f.max, b.median, b.min, b.max, r.median, r.min, r.max
        ));
    }
    println!("bench-json [{}]", json.join(","));
}

/// `--once`: one untimed play of the first preset, for counting instructions under callgrind.
fn play_once(what: &str, names: &[String], hours: Option<f64>) {
    let name = names.first().map(String::as_str).unwrap_or("busy-service");
    let Some(mut s) = sim::preset(name) else {
        eprintln!("unknown preset {name}");
        std::process::exit(2);
    };
    if let Some(h) = hours {
        s.duration = s.duration.min(h * 3600.0);
    }
    let calls = match what {
        "full" => sim::run(&s, 600).map(|r| r.calls).unwrap_or(0),
        "bare" => sim::bare::bare_loop(&s).calls,
        _ => {
            eprintln!("--once takes full or bare, not {what}");
            std::process::exit(2);
        }
    };
    println!("once-calls {}", black_box(calls));
}
