//! `cargo xtask bench`: measures and prints; never asserts.
//!
//! A bench run is a list of named steps; each returns rows for the final
//! table. Today there is one step (`cargo bench --workspace`, natively); the
//! benchmarks work (issue 8) adds steps: simulator throughput beside the bare
//! loop, the same runs in headless browsers, page timings, analysis timings,
//! sizes, memory.

use crate::util::{self, cargo, fail, run_tee, strip_ansi, Res};
use std::time::Instant;

/// One measured figure.
pub struct Row {
    pub step: &'static str,
    pub name: String,
    pub value: String,
}

struct Step {
    name: &'static str,
    run: fn(&'static str) -> Res<Vec<Row>>,
}

const STEPS: &[Step] = &[Step {
    name: "native cargo bench",
    run: native_cargo_bench,
}];

pub fn bench() -> Res<()> {
    let start = Instant::now();
    let mut rows = Vec::new();
    let mut failed = Vec::new();
    for step in STEPS {
        println!("== bench step: {}", step.name);
        match (step.run)(step.name) {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => {
                println!("error: {e}");
                failed.push(step.name);
            }
        }
    }
    println!("\n== bench results");
    if rows.is_empty() {
        println!("(no benchmark figures reported yet)");
    } else {
        let w0 = rows.iter().map(|r| r.step.len()).max().unwrap_or(4).max(4);
        let w1 = rows.iter().map(|r| r.name.len()).max().unwrap_or(9).max(9);
        println!("{:<w0$}  {:<w1$}  figure", "step", "benchmark");
        for r in &rows {
            println!("{:<w0$}  {:<w1$}  {}", r.step, r.name, r.value);
        }
    }
    println!("bench time: {:.1} s", start.elapsed().as_secs_f64());
    if failed.is_empty() {
        Ok(())
    } else {
        fail(format!("bench steps failed: {}", failed.join(", ")))
    }
}

fn native_cargo_bench(step: &'static str) -> Res<Vec<Row>> {
    let mut c = cargo();
    c.args(["bench", "--workspace"]).current_dir(util::root());
    let (status, text) = run_tee(&mut c)?;
    if !status.success() {
        return fail("`cargo bench --workspace` failed");
    }
    Ok(parse_bench(step, &strip_ansi(&text)))
}

/// Figures from libtest (`test x ... bench: 1,234 ns/iter (+/- 5)`) and
/// criterion (`name  time: [lo mid hi]`, the name possibly on the line before).
fn parse_bench(step: &'static str, text: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut last_name = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("test ") {
            if let Some((name, fig)) = rest.split_once(" ... bench:") {
                rows.push(Row {
                    step,
                    name: name.trim().to_string(),
                    value: fig.trim().to_string(),
                });
                continue;
            }
        }
        if let Some(i) = t.find("time:") {
            let name = t[..i].trim();
            let name = if name.is_empty() {
                last_name.clone()
            } else {
                name.to_string()
            };
            rows.push(Row {
                step,
                name,
                value: t[i + 5..].trim().to_string(),
            });
            continue;
        }
        if !t.is_empty() && !line.starts_with(' ') && !t.contains(':') {
            last_name = t.to_string();
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_libtest_and_criterion() {
        let text = "test sim::busy ... bench:       1,234 ns/iter (+/- 56)\n\
                    quiet-service\n                        time:   [1.0 ms 1.1 ms 1.2 ms]\n\
                    cusum/update            time:   [2.0 ns 2.1 ns 2.2 ns]\n";
        let rows = parse_bench("s", text);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].name, "sim::busy");
        assert_eq!(rows[1].name, "quiet-service");
        assert_eq!(rows[2].name, "cusum/update");
        assert_eq!(rows[2].value, "[2.0 ns 2.1 ns 2.2 ns]");
    }
}
