//! `cargo xtask bench`: measures and prints every figure of issue 8; never asserts.
//!
//! A bench run is a list of named steps; each adds rows (a figure, its unit, its target) to one
//! table. A step that fails prints why and the others go on. The table is printed at the end and
//! written as JSON to `target/bench/bench.json` (for comparing commits); docs/benchmarks.md says
//! how to read it.
//!
//! Steps: the simulator natively beside the bare loop (`cargo bench -p sim --bench throughput`),
//! peak memory of the busy-service month (`breaker run`), the analysis figures
//! (`cargo bench -p analysis --bench figures`), the page's sizes (`cargo xtask dist`), and the
//! bench page (`www/bench.html`) in headless Chromium and Firefox: the same runs in wasm through
//! the page's worker, the page's timings, and the analysis figures in wasm (the bench's own site,
//! `dist::bench_site`: the page beside the figures' list compiled to wasm, `crates/figures`).
//!
//! The `instructions` step counts instructions per call under callgrind (valgrind): exact for
//! the build measured, so two commits compare without the machine's noise.
//!
//! `cargo xtask bench [--runs N] [--quick] [--steps a,b]`: `--runs` native and browser runs per
//! figure (default 5 natively, 3 in browsers); `--quick` one run each; `--steps` only those steps.
//! Each run's JSON is also kept as `target/bench/history/<time>-<commit>.json`.
//! `cargo xtask bench --compare OLD.json [NEW.json]` measures nothing: it prints the figures of
//! two such files side by side (NEW defaults to `target/bench/bench.json`).

use crate::util::{self, cargo, fail, run, run_tee, strip_ansi, Res};
use crate::{dist, serve, setup};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// How a figure compares with its target.
#[derive(Clone, Copy)]
enum Bound {
    AtMost(f64),
    Below(f64),
}

/// One measured figure.
pub struct Row {
    step: &'static str,
    name: String,
    value: Option<f64>,
    unit: &'static str,
    /// Median's spread or how it was measured.
    note: String,
    target: Option<Bound>,
}

impl Row {
    fn new(
        step: &'static str,
        name: impl Into<String>,
        value: Option<f64>,
        unit: &'static str,
    ) -> Row {
        Row {
            step,
            name: name.into(),
            value,
            unit,
            note: String::new(),
            target: None,
        }
    }
    fn target(mut self, b: Bound) -> Row {
        self.target = Some(b);
        self
    }
    fn note(mut self, n: impl Into<String>) -> Row {
        self.note = n.into();
        self
    }
    fn meets(&self) -> Option<bool> {
        let v = self.value?;
        Some(match self.target? {
            Bound::AtMost(t) => v <= t,
            Bound::Below(t) => v < t,
        })
    }
    fn target_text(&self) -> String {
        let u = self.unit;
        match self.target {
            None => "-".into(),
            Some(Bound::AtMost(t)) => format!("<= {} {u}", num(t)),
            Some(Bound::Below(t)) => format!("< {} {u}", num(t)),
        }
    }
}

/// A figure for the table: millions with two decimals, whole from 1000 up, else two decimals
/// without trailing zeros ("149.86", "404", "3.62"). Values of 100 to 999 were whole, and the
/// wasm's 149.864 kB read "150 kB <= 150 kB".
fn num(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if a >= 1000.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// What the steps share: options, and figures one step measures that another compares with.
#[derive(Default)]
struct Ctx {
    runs: Option<usize>,
    /// Native full-run calls/s by preset (median), for the wasm/native ratios.
    native: BTreeMap<String, f64>,
    /// Raw outputs, kept in the JSON.
    raw: BTreeMap<String, Value>,
    dist_ok: bool,
    /// The analysis figures natively, by name: (median ms, value), for the browsers' ratios and
    /// the values' check.
    figures: BTreeMap<String, (f64, f64)>,
    /// The bench's site (`dist::bench_site`: the page and the figures' wasm), once built; `None`
    /// inside when it could not be built.
    site: Option<Option<PathBuf>>,
    /// The 1-minute load average when the bench started (`/proc/loadavg`).
    load_at_start: Option<f64>,
    /// The throughput bench's binary, once cargo has said where it is (`native_once`).
    throughput: Option<PathBuf>,
}

/// The 1-minute load average, where `/proc/loadavg` exists.
fn load_average() -> Option<f64> {
    fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What the figures were measured on, for reading two runs side by side: the processor, its
/// cores, the memory, the load average at the start and the end (a busy machine reads slow), the
/// Rust and node versions (the browsers' own are in their steps' `userAgent`).
fn machine(ctx: &Ctx) -> Value {
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo.lines().find_map(|l| {
        l.strip_prefix("model name")?
            .split_once(':')
            .map(|(_, v)| v.trim().to_string())
    });
    let mem_gib = fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let kib: f64 = m
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some((kib / 1024.0 / 1024.0 * 10.0).round() / 10.0)
    });
    json!({
        "cpu": cpu,
        "cores": std::thread::available_parallelism().map(|n| n.get()).ok(),
        "memory_gib": mem_gib,
        "load_at_start": ctx.load_at_start,
        "load_at_end": load_average(),
        "rustc": util::output("rustc", ["-V"]),
        "node": util::output("node", ["--version"]),
    })
}

type StepFn = fn(&mut Ctx) -> Res<Vec<Row>>;

struct Step {
    name: &'static str,
    run: StepFn,
}

const STEPS: &[Step] = &[
    Step {
        name: "native",
        run: native_sim,
    },
    Step {
        name: "memory",
        run: memory,
    },
    Step {
        name: "instructions",
        run: instructions,
    },
    Step {
        name: "analysis",
        run: analysis,
    },
    Step {
        name: "sizes",
        run: sizes,
    },
    Step {
        name: "chromium",
        run: chromium,
    },
    Step {
        name: "firefox",
        run: firefox,
    },
];

/// The presets whose throughput is measured (issue 8).
const PRESETS: &[&str] = &["quiet-service", "busy-service", "recovery-warmup"];

pub fn bench(flags: &[&str]) -> Res<()> {
    let mut ctx = Ctx::default();
    let mut only: Option<Vec<&'static str>> = None;
    let mut it = flags.iter();
    while let Some(f) = it.next() {
        match *f {
            "--quick" => ctx.runs = Some(1),
            "--runs" => {
                ctx.runs = Some(
                    it.next()
                        .and_then(|v| v.parse().ok())
                        .filter(|&n: &usize| n >= 1)
                        .ok_or("--runs needs a whole number >= 1")?,
                )
            }
            "--steps" => only = Some(pick_steps(it.next().copied().unwrap_or(""))?),
            "--compare" => {
                let rest: Vec<&str> = it.copied().collect();
                return match rest.as_slice() {
                    [old] => compare(
                        Path::new(old),
                        &util::target_dir()?.join("bench/bench.json"),
                    ),
                    [old, new] => compare(Path::new(old), Path::new(new)),
                    _ => fail("--compare takes OLD.json [NEW.json] and nothing after them"),
                };
            }
            _ => return fail(format!("unexpected option for `bench`: {f}")),
        }
    }
    // The wasm/native ratios need the native figures, and the browsers a fresh dist.
    if let Some(o) = only.as_mut() {
        let needs = |o: &[&str], a: &str| o.contains(&a);
        if (needs(o, "chromium") || needs(o, "firefox")) && !needs(o, "sizes") {
            println!("(--steps: the browser steps need `sizes` (it builds www/dist): added)");
            o.push("sizes");
        }
        if (needs(o, "chromium") || needs(o, "firefox")) && !needs(o, "native") {
            println!("(--steps: without `native` the wasm/native ratios are n/a)");
        }
    }
    let start = Instant::now();
    ctx.load_at_start = load_average();
    let mut rows = Vec::new();
    let mut failed = Vec::new();
    for step in STEPS {
        if only.as_ref().is_some_and(|o| !o.contains(&step.name)) {
            continue;
        }
        println!("\n== bench step: {}", step.name);
        let t = Instant::now();
        match (step.run)(&mut ctx) {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => {
                println!("error: {e}");
                failed.push(step.name);
            }
        }
        println!(
            "(step {} took {:.1} s)",
            step.name,
            t.elapsed().as_secs_f64()
        );
    }
    print_table(&rows);
    let path = write_json(&rows, &ctx, &failed)?;
    println!("json: {}", path.display());
    if !failed.is_empty() {
        println!(
            "steps that failed (their figures are missing): {}",
            failed.join(", ")
        );
    }
    println!("bench time: {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn print_table(rows: &[Row]) {
    println!("\n== bench results (median of runs; ratios from the same run)");
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.step.to_string(),
                r.name.clone(),
                r.value
                    .map(|v| format!("{} {}", num(v), r.unit))
                    .unwrap_or_else(|| "n/a".into()),
                r.target_text(),
                match r.meets() {
                    Some(true) => "ok".into(),
                    Some(false) => "MISSED".into(),
                    None => "".into(),
                },
                r.note.clone(),
            ]
        })
        .collect();
    let head = ["step", "figure", "value", "target", "", "note"].map(String::from);
    print_aligned(&head, &cells, [false, false, true, false, false, false]);
}

/// Print `head` and `rows` as columns: each as wide as its widest cell, right-aligned where
/// `right` says so (the last column is not padded).
fn print_aligned(head: &[String; 6], rows: &[[String; 6]], right: [bool; 6]) {
    let mut w = head.clone().map(|h| h.chars().count());
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    for r in std::iter::once(head).chain(rows) {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            let pad = " ".repeat(w[i] - c.chars().count());
            if i == 5 {
                line.push_str(c);
            } else if right[i] {
                line.push_str(&format!("{pad}{c}  "));
            } else {
                line.push_str(&format!("{c}{pad}  "));
            }
        }
        println!("{}", line.trim_end());
    }
}

fn write_json(rows: &[Row], ctx: &Ctx, failed: &[&str]) -> Res<PathBuf> {
    let dir = util::target_dir()?.join("bench");
    fs::create_dir_all(&dir)?;
    let commit = util::output(
        "git",
        ["-C", &util::root().to_string_lossy(), "rev-parse", "HEAD"],
    );
    let dirty = util::output(
        "git",
        [
            "-C",
            &util::root().to_string_lossy(),
            "status",
            "--porcelain",
        ],
    )
    .map(|s| !s.is_empty());
    let figures: Vec<Value> = rows
        .iter()
        .map(|r| {
            let (op, t) = match r.target {
                None => (Value::Null, Value::Null),
                Some(Bound::AtMost(t)) => ("<=".into(), t.into()),
                Some(Bound::Below(t)) => ("<".into(), t.into()),
            };
            json!({
                "step": r.step, "name": r.name, "value": r.value, "unit": r.unit,
                "target_op": op, "target": t, "meets": r.meets(), "note": r.note,
            })
        })
        .collect();
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let doc = json!({
        "commit": commit, "dirty": dirty, "unix_time": secs, "machine": machine(ctx),
        "failed_steps": failed, "figures": figures, "raw": ctx.raw,
    });
    let text = serde_json::to_string_pretty(&doc)?;
    let path = dir.join("bench.json");
    fs::write(&path, &text)?;
    // Kept for later comparisons (`--compare`): one file per run, named by time and commit.
    let history = dir.join("history");
    fs::create_dir_all(&history)?;
    let short = commit.as_deref().map_or("nogit", |c| &c[..c.len().min(10)]);
    let kept = history.join(format!(
        "{secs}-{short}{}.json",
        if dirty == Some(true) { "-dirty" } else { "" }
    ));
    fs::write(&kept, &text)?;
    println!("kept: {}", kept.display());
    Ok(path)
}

/// The steps named in `--steps a,b` (checked against [`STEPS`]).
fn pick_steps(list: &str) -> Res<Vec<&'static str>> {
    let names: Vec<&str> = STEPS.iter().map(|s| s.name).collect();
    let mut out = Vec::new();
    for w in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match STEPS.iter().find(|s| s.name == w) {
            Some(s) => out.push(s.name),
            None => {
                return fail(format!(
                    "--steps: no step `{w}` (steps: {})",
                    names.join(", ")
                ))
            }
        }
    }
    if out.is_empty() {
        return fail(format!(
            "--steps needs a comma-separated list of: {}",
            names.join(", ")
        ));
    }
    Ok(out)
}

// ---- comparing two runs ----

/// Figures measured exactly (counted, not timed): any change is a real one.
const EXACT_STEPS: &[&str] = &["instructions", "sizes"];

/// How a figure moved between two runs.
#[derive(Debug, PartialEq)]
enum Moved {
    Same,
    Better,
    Worse,
    /// Less than the larger spread the two runs recorded for it.
    WithinSpread(f64),
    /// Timed, but no spread recorded (one run, or a ratio of two figures): a direction only.
    Unsure {
        better: bool,
    },
}

/// The spread a note records (`spread 12%`), if any.
fn note_spread(note: &str) -> Option<f64> {
    let i = note.find("spread ")?;
    let rest = &note[i + 7..];
    rest[..rest.find('%')?].trim().parse().ok()
}

/// Calls per second are better higher; times, sizes, ratios, frames and instructions lower.
fn higher_is_better(unit: &str) -> bool {
    unit == "calls/s"
}

fn moved(step: &str, unit: &str, old: f64, new: f64, spread: Option<f64>) -> Moved {
    if old == new {
        return Moved::Same;
    }
    let better = (new > old) == higher_is_better(unit);
    if EXACT_STEPS.contains(&step) {
        return if better { Moved::Better } else { Moved::Worse };
    }
    match spread {
        Some(s) if ((new - old) / old * 100.0).abs() <= s => Moved::WithinSpread(s),
        Some(_) => {
            if better {
                Moved::Better
            } else {
                Moved::Worse
            }
        }
        None => Moved::Unsure { better },
    }
}

/// `v`, measured in `from`, in `to`; `None` when the two cannot be compared. Sizes were in
/// "KB" of 1024 bytes up to session 9, in kB of 1000 bytes since.
fn in_unit(v: f64, from: &str, to: &str) -> Option<f64> {
    match (from, to) {
        _ if from == to => Some(v),
        ("KB", "kB") => Some(v * 1.024),
        _ => None,
    }
}

/// The cells of the comparison table, one row per figure of `new` (then figures only `old` has).
fn compare_rows(old: &Value, new: &Value) -> Vec<[String; 6]> {
    let figures = |v: &Value| v["figures"].as_array().cloned().unwrap_or_default();
    let key = |f: &Value| {
        (
            f["step"].as_str().unwrap_or("").to_string(),
            f["name"].as_str().unwrap_or("").to_string(),
        )
    };
    let (olds, news) = (figures(old), figures(new));
    let status = |f: &Value| match f["meets"].as_bool() {
        Some(true) => "ok",
        Some(false) => "MISSED",
        None => "",
    };
    let value = |f: &Value| {
        f["value"].as_f64().map_or("n/a".to_string(), |v| {
            format!("{} {}", num(v), f["unit"].as_str().unwrap_or(""))
        })
    };
    let mut rows = Vec::new();
    for n in &news {
        let k = key(n);
        let o = olds.iter().find(|o| key(o) == k);
        let unit = n["unit"].as_str().unwrap_or("");
        let old_value =
            o.and_then(|o| in_unit(o["value"].as_f64()?, o["unit"].as_str().unwrap_or(""), unit));
        let (change, how) = match (old_value, n["value"].as_f64()) {
            // From 0 (a count of differing values, a longest task): no percentage, but a verdict
            // (it said nothing at all, where a regression matters most).
            (Some(a), Some(b)) if a == 0.0 => {
                let how = match moved(&k.0, unit, a, b, Some(0.0)) {
                    Moved::Same => "same",
                    Moved::Better => "better",
                    _ => "worse",
                };
                (
                    if b == 0.0 {
                        String::new()
                    } else {
                        "from 0".to_string()
                    },
                    how.to_string(),
                )
            }
            (Some(a), Some(b)) => {
                let spread = [o.map(|o| &o["note"]), Some(&n["note"])]
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().and_then(note_spread))
                    .reduce(f64::max);
                let how = match moved(&k.0, unit, a, b, spread) {
                    Moved::Same => "same".to_string(),
                    Moved::Better => "better".to_string(),
                    Moved::Worse => "worse".to_string(),
                    Moved::WithinSpread(s) => format!("within spread ({s:.0}%)"),
                    Moved::Unsure { better } => {
                        format!("{}?", if better { "better" } else { "worse" })
                    }
                };
                (format!("{:+.1}%", (b / a - 1.0) * 100.0), how)
            }
            (None, _) if o.is_none() => (String::new(), "new figure".to_string()),
            (None, _) if o.is_some_and(|o| o["value"].is_number()) => {
                (String::new(), "unit changed".to_string())
            }
            _ => (String::new(), String::new()),
        };
        let met = match o.map(status) {
            Some(a) if a != status(n) => format!("{a} -> {}", status(n)),
            _ => status(n).to_string(),
        };
        rows.push([
            format!("{} / {}", k.0, k.1),
            o.map(value).unwrap_or_default(),
            value(n),
            change,
            how,
            met,
        ]);
    }
    for o in &olds {
        if !news.iter().any(|n| key(n) == key(o)) {
            let k = key(o);
            rows.push([
                format!("{} / {}", k.0, k.1),
                value(o),
                String::new(),
                String::new(),
                "not in the new run".into(),
                status(o).to_string(),
            ]);
        }
    }
    rows
}

/// `--compare`: the figures of two bench JSON files side by side.
fn compare(old: &Path, new: &Path) -> Res<()> {
    let read = |p: &Path| -> Res<Value> {
        let text = fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a bench JSON file ({e})", p.display()).into())
    };
    let (a, b) = (read(old)?, read(new)?);
    let id = |v: &Value| {
        format!(
            "commit {}{}",
            v["commit"].as_str().map_or("?", |c| &c[..c.len().min(10)]),
            if v["dirty"] == true { " (dirty)" } else { "" }
        )
    };
    println!("old: {} ({})", old.display(), id(&a));
    println!("new: {} ({})", new.display(), id(&b));
    // Runs from before session 33 say nothing of their machine.
    let on = |v: &Value| {
        let m = &v["machine"];
        m["cpu"]
            .as_str()
            .map(|c| format!("{c}, {} cores", m["cores"].as_u64().unwrap_or(0)))
    };
    let load = |v: &Value| {
        let m = &v["machine"];
        match (m["load_at_start"].as_f64(), m["load_at_end"].as_f64()) {
            (Some(a), Some(b)) => format!("load {a:.1} -> {b:.1}"),
            _ => "load ?".into(),
        }
    };
    match (on(&a), on(&b)) {
        (Some(x), Some(y)) if x != y => println!(
            "note: different machines ({x}; {y}): the timed figures compare the machines too, \
             the counted ones (instructions, sizes) only the code"
        ),
        (Some(x), Some(_)) => println!("machine: {x}; old {}, new {}", load(&a), load(&b)),
        _ => println!("machine: not recorded in at least one run (before session 33)"),
    }
    let head = ["figure", "old", "new", "change", "", "target"].map(String::from);
    let rows = compare_rows(&a, &b);
    print_aligned(&head, &rows, [false, true, true, true, false, false]);
    println!(
        "\nbetter/worse: beyond the larger spread either run recorded, or a counted figure \
         ({}); `?`: a timed figure with no spread recorded (one run, or a ratio), a direction \
         only.",
        EXACT_STEPS.join(", ")
    );
    Ok(())
}

/// The last `bench-json ` line of a tool's output, parsed.
fn bench_json(text: &str) -> Res<Value> {
    let line = strip_ansi(text)
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("bench-json ").map(str::to_string))
        .ok_or("no `bench-json` line in the output")?;
    Ok(serde_json::from_str(&line)?)
}

fn f(v: &Value, path: &[&str]) -> Option<f64> {
    let mut v = v;
    for k in path {
        v = v.get(k)?;
    }
    v.as_f64()
}

fn spread(v: &Value) -> String {
    match (f(v, &["median"]), f(v, &["min"]), f(v, &["max"])) {
        // One run (min = max) gives no spread: `--compare` then says `?`, not a sure change.
        (Some(m), Some(lo), Some(hi)) if m != 0.0 && hi > lo => {
            format!("spread {:.0}%", (hi - lo) / m * 100.0)
        }
        _ => String::new(),
    }
}

// ---- steps ----

/// Simulator throughput beside the bare loop, natively.
fn native_sim(ctx: &mut Ctx) -> Res<Vec<Row>> {
    let runs = ctx.runs.unwrap_or(5).to_string();
    let mut c = cargo();
    c.args([
        "bench",
        "-p",
        "sim",
        "--bench",
        "throughput",
        "--",
        "--runs",
        &runs,
    ])
    .args(["--presets", &PRESETS.join(",")])
    .current_dir(util::root());
    let (status, text) = run_tee(&mut c)?;
    if !status.success() {
        return fail("the sim throughput bench failed");
    }
    let v = bench_json(&text)?;
    let mut rows = Vec::new();
    for p in v.as_array().into_iter().flatten() {
        let name = p["preset"].as_str().unwrap_or("?").to_string();
        let calls = p["calls"].as_u64().unwrap_or(0);
        if let Some(m) = f(p, &["full", "median"]) {
            ctx.native.insert(name.clone(), m);
        }
        rows.push(
            Row::new(
                "native",
                format!("{name}: full run"),
                f(p, &["full", "median"]),
                "calls/s",
            )
            .note(format!("{calls} calls, {}", spread(&p["full"]))),
        );
        rows.push(
            Row::new(
                "native",
                format!("{name}: bare loop"),
                f(p, &["bare", "median"]),
                "calls/s",
            )
            .note(spread(&p["bare"])),
        );
        rows.push(
            Row::new(
                "native",
                format!("{name}: bare/full"),
                f(p, &["ratio", "median"]),
                "x",
            )
            .target(Bound::AtMost(2.0))
            .note(format!(
                "time of a call, full over bare; {}",
                spread(&p["ratio"])
            )),
        );
    }
    ctx.raw.insert("native".into(), v);
    Ok(rows)
}

/// Peak resident memory of the busy-service month, from `breaker run`.
fn memory(ctx: &mut Ctx) -> Res<Vec<Row>> {
    run(cargo()
        .args(["build", "--release", "-p", "breaker-cli"])
        .current_dir(util::root()))?;
    let bin = util::target_dir()?.join("release/breaker");
    let out = util::target_dir()?.join("bench/busy-service.json");
    fs::create_dir_all(out.parent().expect("has a parent"))?;
    // 600 buckets, as the page asks for (the command line's default is 100).
    let args = [
        "run",
        "--preset",
        "busy-service",
        "--format",
        "json",
        "--buckets",
        "600",
    ];
    let t = Instant::now();
    let (kb, how) = if Path::new("/usr/bin/time").is_file() {
        let o = Command::new("/usr/bin/time")
            .arg("-v")
            .arg(&bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out)?)
            .output()?;
        if !o.status.success() {
            return fail(format!(
                "breaker run failed: {}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        let text = String::from_utf8_lossy(&o.stderr).to_string();
        let kb = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
            .and_then(|v| v.trim().parse::<f64>().ok());
        (kb, "/usr/bin/time -v: maximum resident set size")
    } else {
        // No GNU time: poll VmHWM (the kernel's peak) until the process ends.
        let mut child = Command::new(&bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out)?)
            .spawn()?;
        let status = format!("/proc/{}/status", child.id());
        let mut kb = None;
        loop {
            if let Ok(s) = fs::read_to_string(&status) {
                if let Some(v) = s
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
                {
                    kb = Some(v);
                }
            }
            if let Some(done) = child.try_wait()? {
                // A run that failed gives no figure (as the GNU time branch refuses one).
                if !done.success() {
                    return fail(format!("breaker run failed: {done}"));
                }
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        (kb, "VmHWM polled every 5 ms (may miss a last peak)")
    };
    let secs = t.elapsed().as_secs_f64();
    ctx.raw.insert(
        "memory".into(),
        json!({"peak_rss_kb": kb, "wall_s": secs, "how": how}),
    );
    Ok(vec![
        Row::new(
            "memory",
            "busy-service month: peak RSS",
            // VmHWM and ru_maxrss are KiB; the target is in MB (10^6 bytes), as the sizes' kB
            // are 1000 bytes (it read MiB, labeled MB).
            kb.map(|k| k * 1024.0 / 1e6),
            "MB",
        )
        .target(Bound::AtMost(64.0))
        .note(format!(
            "`breaker run --preset busy-service --format json --buckets 600` (one simulation, no \
             checkpoints: the page also keeps a copy to step and up to 256 checkpoints); {how}"
        )),
        Row::new(
            "memory",
            "busy-service month: CLI wall time",
            Some(secs),
            "s",
        )
        .note("the same process (run + JSON output)"),
    ])
}

/// One native full run of each preset (the throughput bench, `--runs 1`), calls/s by preset;
/// empty unless the native step ran in this bench (so its binary is built and wanted).
fn native_once(ctx: &mut Ctx) -> BTreeMap<String, f64> {
    if ctx.native.is_empty() {
        return BTreeMap::new();
    }
    if ctx.throughput.is_none() {
        ctx.throughput = throughput_exe().ok();
    }
    let Some(exe) = ctx.throughput.clone() else {
        return BTreeMap::new();
    };
    let out = Command::new(exe)
        .args(["--runs", "1", "--presets", &PRESETS.join(",")])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let Ok(out) = out else {
        return BTreeMap::new();
    };
    let Ok(v) = bench_json(&String::from_utf8_lossy(&out.stdout)) else {
        return BTreeMap::new();
    };
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            Some((
                p["preset"].as_str()?.to_string(),
                f(p, &["full", "median"])?,
            ))
        })
        .collect()
}

fn throughput_exe() -> Res<PathBuf> {
    let out = cargo()
        .args([
            "bench",
            "-p",
            "sim",
            "--bench",
            "throughput",
            "--no-run",
            "--message-format=json",
        ])
        .current_dir(util::root())
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()?;
    if !out.status.success() {
        return fail("could not build the sim throughput bench");
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["reason"] == "compiler-artifact" && v["target"]["name"] == "throughput")
        .find_map(|v| v["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo did not say where the throughput bench is".into())
}

/// `(instructions, calls)` of one `--once` play of busy-service's first `hours` under callgrind.
fn callgrind(valgrind: &Path, exe: &Path, what: &str, hours: u32) -> Res<(u64, u64)> {
    let dir = util::target_dir()?.join("bench");
    fs::create_dir_all(&dir)?;
    let out_file = dir.join(format!("callgrind-{what}-{hours}h.out"));
    let mut c = Command::new(valgrind);
    c.arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(exe)
        .args(["--once", what, "--presets", "busy-service", "--hours"])
        .arg(hours.to_string());
    println!("$ {}", util::show(&c));
    let o = c.stdin(Stdio::null()).output()?;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    if !o.status.success() {
        return fail(format!("callgrind failed ({}): {stderr}", o.status));
    }
    let calls = stdout
        .lines()
        .find_map(|l| l.strip_prefix("once-calls "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or("no `once-calls` line from the throughput bench")?;
    let instr = stderr
        .lines()
        .find_map(|l| {
            l.split_once("Collected :")
                .map(|(_, v)| v.trim().to_string())
        })
        .and_then(|v| v.parse().ok())
        .ok_or("no `Collected :` line from callgrind")?;
    println!("{what}, {hours} h: {calls} calls, {instr} instructions");
    Ok((instr, calls))
}

/// Instructions per call, natively, under callgrind: busy-service's full run (as the bench's
/// full run: 600 buckets of series) and its bare loop. Each is the difference between the first
/// 24 hours and the first 12 over the difference in calls, so start-up, the output and the
/// series' finishing cancel out. Exact counts for the build measured (not times): two commits
/// compare on them without the machine's noise. Callgrind runs about 50x slower than native,
/// on about 1.3M calls a play: the step takes about 10 s (8 s on 2026-12-05).
fn instructions(ctx: &mut Ctx) -> Res<Vec<Row>> {
    let valgrind = setup::valgrind()?;
    let exe = throughput_exe()?;
    let mut per_call = BTreeMap::new();
    let mut raw = serde_json::Map::new();
    for what in ["full", "bare"] {
        let (i1, c1) = callgrind(&valgrind, &exe, what, 12)?;
        let (i2, c2) = callgrind(&valgrind, &exe, what, 24)?;
        if c2 <= c1 || i2 < i1 {
            return fail(format!(
                "{what}: 24 h gave {c2} calls and {i2} instructions, 12 h {c1} and {i1}"
            ));
        }
        let v = (i2 - i1) as f64 / (c2 - c1) as f64;
        per_call.insert(what, v);
        raw.insert(
            what.into(),
            json!({"12h": {"instructions": i1, "calls": c1},
                   "24h": {"instructions": i2, "calls": c2}, "per_call": v}),
        );
    }
    ctx.raw.insert("instructions".into(), Value::Object(raw));
    let (full, bare) = (per_call["full"], per_call["bare"]);
    let how = "callgrind, hours 12-24 of busy-service: exact for this build";
    Ok(vec![
        Row::new(
            "instructions",
            "busy-service: full run",
            Some(full),
            "instr/call",
        )
        .note(how),
        Row::new(
            "instructions",
            "busy-service: bare loop",
            Some(bare),
            "instr/call",
        )
        .note(how),
        Row::new(
            "instructions",
            "busy-service: full/bare",
            Some(full / bare),
            "x",
        )
        .note("instructions, not time: the timed bare/full above is the figure with a target"),
    ])
}

/// Time per analysis figure natively (`cargo bench -p analysis --bench figures`): the slowest
/// exact figure by line (ln 1e2 .. ln 1e9), then the slowest figure of all kinds.
fn analysis(ctx: &mut Ctx) -> Res<Vec<Row>> {
    let mut c = cargo();
    c.args(["bench", "-p", "analysis", "--bench", "figures"])
        .current_dir(util::root());
    let (status, text) = run_tee(&mut c)?;
    if !status.success() {
        return fail("the analysis figures bench failed");
    }
    let figures = parse_figures(&strip_ansi(&text));
    if figures.is_empty() {
        return fail("no figures in the analysis bench output");
    }
    let mut rows: Vec<Row> = slowest_exact_by_line(&figures)
        .into_iter()
        .map(|(e, f)| {
            Row::new(
                "analysis",
                format!("slowest exact figure, line ln 1e{e}"),
                Some(f.ms),
                "ms",
            )
            .target(Bound::AtMost(100.0))
            .note(format!(
                "{}{}",
                f.name
                    .split_whitespace()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" "),
                f.spread_note()
            ))
        })
        .collect();
    let slowest = slowest_figure(&figures, false).expect("not empty");
    rows.push(
        Row::new(
            "analysis",
            "slowest figure of all (CUSUM, SPRT, its time limit, window)",
            Some(slowest.ms),
            "ms",
        )
        .target(Bound::AtMost(100.0))
        .note(format!(
            "{} ({}){}",
            slowest.name,
            slowest.kind,
            slowest.spread_note()
        )),
    );
    ctx.figures = figures
        .iter()
        .map(|f| (f.name.clone(), (f.ms, f.value)))
        .collect();
    ctx.raw.insert(
        "analysis".into(),
        Value::Array(
            figures
                .iter()
                .map(|f| json!({"figure": f.name, "kind": f.kind, "ms": f.ms, "value": f.value}))
                .collect(),
        ),
    );
    Ok(rows)
}

/// An analysis figure as a bench timed it, natively (a line of the figures bench) or in a
/// browser (an entry of the bench page's `results.figures`): its name, kind, median ms, value
/// and the runs' spread (%).
struct TimedFigure {
    name: String,
    kind: String,
    ms: f64,
    value: f64,
    spread: Option<f64>,
}

impl TimedFigure {
    /// "; spread N%" for a note (read back by `--compare`), or nothing.
    fn spread_note(&self) -> String {
        self.spread
            .map_or(String::new(), |s| format!("; spread {s:.0}%"))
    }
}

/// The slowest of `figures` (of the exact ones only, with `exact_only`).
fn slowest_figure(figures: &[TimedFigure], exact_only: bool) -> Option<&TimedFigure> {
    figures
        .iter()
        .filter(|f| !exact_only || f.kind == "exact")
        .fold(None, |a, b| match a {
            Some(a) if a.ms >= b.ms => Some(a),
            _ => Some(b),
        })
}

/// The figures bench's lines: `<name>   12.345 ms   value <v>   <kind>   spread 7%` (the value
/// to the last digit, `NaN` when the figure was not computed; the spread from session 33 on).
fn parse_figures(text: &str) -> Vec<TimedFigure> {
    let mut out = Vec::new();
    for l in text.lines() {
        let Some((left, right)) = l.split_once(" ms   value ") else {
            continue;
        };
        let Some((name, ms)) = left.trim_end().rsplit_once(' ') else {
            continue;
        };
        let mut right = right.split_whitespace();
        let (Ok(ms), Some(Ok(value)), Some(kind)) = (
            ms.trim().parse::<f64>(),
            right.next().map(str::parse::<f64>),
            right.next(),
        ) else {
            continue;
        };
        let spread = match (right.next(), right.next()) {
            (Some("spread"), Some(v)) => v.trim_end_matches('%').parse().ok(),
            _ => None,
        };
        out.push(TimedFigure {
            name: name.trim().to_string(),
            ms,
            value,
            kind: kind.to_string(),
            spread,
        });
    }
    out
}

/// The slowest exact figure for each line `ln 1eE` named in the figures: E -> the figure.
fn slowest_exact_by_line(figures: &[TimedFigure]) -> BTreeMap<u32, &TimedFigure> {
    let mut by_line: BTreeMap<u32, &TimedFigure> = BTreeMap::new();
    for f in figures.iter().filter(|f| f.kind == "exact") {
        let Some(i) = f.name.find("line=ln1e") else {
            continue;
        };
        let e: u32 = f.name[i + 9..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap_or(0);
        let slot = by_line.entry(e).or_insert(f);
        if f.ms > slot.ms {
            *slot = f;
        }
    }
    by_line
}

/// The analysis figures as one browser computed them (`results.figures` of the bench page),
/// beside the native ones: the slowest exact figure and the slowest of all (issue 8's 100 ms,
/// where the page computes them), the wasm/native ratio of the figures that take 1 ms or more
/// natively, and how many values differ from the native ones.
fn browser_figures(ctx: &Ctx, step: &'static str, r: &Value) -> Vec<Row> {
    let Some(list) = r["figures"]["list"].as_array() else {
        return vec![
            Row::new(step, "analysis in wasm: slowest exact figure", None, "ms")
                .target(Bound::AtMost(100.0))
                .note("not measured: the figures' wasm was not built (see the warning above)"),
        ];
    };
    let figs: Vec<TimedFigure> = list
        .iter()
        .filter_map(|v| {
            Some(TimedFigure {
                name: v["name"].as_str()?.to_string(),
                kind: v["kind"].as_str()?.to_string(),
                ms: v["ms"].as_f64()?,
                // Text (see bench.js): "NaN", "Infinity" or a number's shortest digits.
                value: v["value"].as_str().map_or(f64::NAN, |t| {
                    t.replace("Infinity", "inf").parse().unwrap_or(f64::NAN)
                }),
                spread: v["spread"].as_f64().map(|s| s * 100.0),
            })
        })
        .collect();
    let native_note = |name: &str| {
        ctx.figures.get(name).map_or(
            "natively: not measured in this run".to_string(),
            |(ms, _)| format!("natively {ms:.1} ms"),
        )
    };
    let mut rows = Vec::new();
    for (exact_only, label) in [
        (true, "analysis in wasm: slowest exact figure"),
        (false, "analysis in wasm: slowest figure of all"),
    ] {
        let s = slowest_figure(&figs, exact_only);
        rows.push(
            Row::new(step, label, s.map(|f| f.ms), "ms")
                .target(Bound::AtMost(100.0))
                .note(s.map_or(String::new(), |f| {
                    format!(
                        "{} ({}); {}; the bench's own wasm of the figures (crates/figures, the \
                         page's profile) in a worker, median of 5{}",
                        f.name,
                        f.kind,
                        native_note(&f.name),
                        f.spread_note()
                    )
                })),
        );
    }
    let mut ratios: Vec<f64> = figs
        .iter()
        .filter_map(|f| {
            let (ms, _) = ctx.figures.get(&f.name)?;
            (*ms >= 1.0).then(|| f.ms / ms)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let median = median_of(&ratios);
    rows.push(
        Row::new(
            step,
            "analysis wasm/native, median of the figures",
            median,
            "x",
        )
        .note(format!(
            "over the {} figures of 1 ms or more natively (this bench run); from {} to {}",
            ratios.len(),
            ratios.first().map_or("?".into(), |v| format!("{v:.2}x")),
            ratios.last().map_or("?".into(), |v| format!("{v:.2}x"))
        )),
    );
    if !ctx.figures.is_empty() {
        // Figures on both sides only (the lists are the same, so normally all of them).
        let both: Vec<(&str, f64, f64)> = figs
            .iter()
            .filter_map(|f| {
                ctx.figures
                    .get(&f.name)
                    .map(|(_, v)| (f.name.as_str(), *v, f.value))
            })
            .collect();
        let differ: Vec<&str> = both
            .iter()
            .filter(|(_, v, w)| !(v.to_bits() == w.to_bits() || (v.is_nan() && w.is_nan())))
            .map(|f| f.0)
            .collect();
        rows.push(
            Row::new(
                step,
                "analysis values that differ from native",
                Some(differ.len() as f64),
                "figures",
            )
            .note(match differ.first() {
                None => format!(
                    "all {} on both sides compared to the bit (of {} in the browser)",
                    both.len(),
                    figs.len()
                ),
                Some(first) => format!("of {} on both sides; the first: {first}", both.len()),
            }),
        );
    }
    rows
}

/// The files of dist that are not the page: the bench, and the npm package's license texts
/// (which no page loads; left out so that the figure compares with the runs before they
/// shipped).
fn not_the_page(rel: &Path) -> bool {
    rel == Path::new("bench.html")
        || rel == Path::new("src/bench.js")
        || rel == Path::new("pkg/LICENSE-MIT")
        || rel == Path::new("pkg/LICENSE-APACHE")
}

/// The wasm's and the page's sizes in a built `www/dist` (see [`sizes`]).
pub(crate) struct PageSizes {
    pub wasm_raw: u64,
    pub wasm_gz: u64,
    /// The page's files: the bench's and the license texts left out ([`not_the_page`]).
    pub files: usize,
    pub raw: u64,
    pub gz: u64,
    /// Each file's raw and gzip bytes, by its path in `www/dist`.
    pub each: BTreeMap<String, serde_json::Value>,
}

/// Issue 8's targets for [`PageSizes`], gzip bytes: "150 KB" and "300 KB" read as kB (1000
/// bytes), the stricter reading (as KiB they would allow 2.4% more).
pub(crate) const WASM_GZ_TARGET: u64 = 150_000;
pub(crate) const PAGE_GZ_TARGET: u64 = 300_000;

/// The sizes of the page built in `out` (`www/dist`), each file gzipped at the best level.
pub(crate) fn page_sizes(out: &Path) -> Res<PageSizes> {
    let wasm = fs::read(out.join("pkg/breaker_wasm_bg.wasm"))?;
    let wasm_gz = dist::gzip_len(&wasm)?;
    let mut files = Vec::new();
    crate::dist::walk(out, &mut files)?;
    let mut sizes = PageSizes {
        wasm_raw: wasm.len() as u64,
        wasm_gz,
        files: 0,
        raw: 0,
        gz: 0,
        each: BTreeMap::new(),
    };
    for p in &files {
        let rel = p.strip_prefix(out).unwrap_or(p);
        if not_the_page(rel) {
            continue;
        }
        let b = fs::read(p)?;
        let g = dist::gzip_len(&b)?;
        sizes.raw += b.len() as u64;
        sizes.gz += g;
        sizes.files += 1;
        sizes.each.insert(
            rel.display().to_string(),
            json!({"raw": b.len(), "gzip": g}),
        );
    }
    Ok(sizes)
}

/// `cargo xtask dist`, then the wasm's and the page's gzip sizes.
fn sizes(ctx: &mut Ctx) -> Res<Vec<Row>> {
    setup::setup(setup::Scope::Build)?;
    dist::dist()?;
    ctx.dist_ok = true;
    let PageSizes {
        wasm_raw,
        wasm_gz,
        files: n,
        raw,
        gz,
        each,
    } = page_sizes(&dist::dist_dir())?;
    ctx.raw.insert("sizes".into(), json!(each));
    Ok(vec![
        // The notes give the exact bytes.
        Row::new("sizes", "wasm, gzip", Some(wasm_gz as f64 / 1000.0), "kB")
            .target(Bound::AtMost(WASM_GZ_TARGET as f64 / 1000.0))
            .note(format!(
                "{wasm_gz} bytes = {:.2} KiB, gzip at the best level (9); {wasm_raw} bytes raw",
                wasm_gz as f64 / 1024.0,
            )),
        Row::new("sizes", "whole page, gzip", Some(gz as f64 / 1000.0), "kB")
            .target(Bound::AtMost(PAGE_GZ_TARGET as f64 / 1000.0))
            .note(format!(
                "{n} files of www/dist (bench and license files left out; the walkthrough, the docs example and \
                 the embed files in: more than index.html alone loads), each gzipped at the best \
                 level (9): {gz} bytes; {raw} bytes raw"
            )),
    ])
}

fn chromium(ctx: &mut Ctx) -> Res<Vec<Row>> {
    browser(ctx, "chromium")
}

fn firefox(ctx: &mut Ctx) -> Res<Vec<Row>> {
    browser(ctx, "firefox")
}

/// The WebDriver script: open the bench page headless, wait for `window.__bench`, print it.
const DRIVER: &str = r#"
import { launch } from '__BROWSERS__';
const [name, url, minutes] = process.argv.slice(2);
const driver = await launch(name);
try {
  await driver.get(url);
  const deadline = Date.now() + Number(minutes) * 60000;
  let res = null;
  while (Date.now() < deadline) {
    res = await driver.executeScript('return window.__bench || null');
    if (res && res.done) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const text = await driver.executeScript("const o = document.getElementById('out'); return o ? o.textContent : ''");
  console.log(text);
  if (!res || !res.done) throw new Error('the bench page did not finish in time');
  console.log('bench-json ' + JSON.stringify(res));
} finally {
  await driver.quit();
}
"#;

fn browser(ctx: &mut Ctx, name: &'static str) -> Res<Vec<Row>> {
    if !ctx.dist_ok {
        return fail("no fresh www/dist (the sizes step failed)");
    }
    let have = match name {
        "chromium" => setup::chromium().is_some() && setup::chromedriver().is_some(),
        _ => setup::firefox().is_some() && setup::geckodriver().is_some(),
    };
    if !have {
        return fail(format!(
            "{name} or its driver is not installed (`cargo xtask setup`)"
        ));
    }
    let e2e = util::root().join("tests/e2e");
    if !e2e.join("node_modules/selenium-webdriver").is_dir() {
        setup::npm_ci(&e2e)?;
    }
    let dir = util::target_dir()?.join("bench");
    fs::create_dir_all(&dir)?;
    let script = dir.join("driver.mjs");
    let browsers = e2e.join("browsers.mjs");
    fs::write(
        &script,
        DRIVER.replace("__BROWSERS__", &format!("file://{}", browsers.display())),
    )?;
    if ctx.site.is_none() {
        ctx.site = Some(match dist::bench_site() {
            Ok(site) => Some(site),
            Err(e) => {
                println!("warning: the analysis figures' wasm could not be built ({e}); the browsers time the page only");
                None
            }
        });
    }
    let site = ctx.site.clone().flatten();
    let listener = serve::bind(8790)?;
    let addr = serve::spawn(listener, site.clone().unwrap_or_else(dist::dist_dir))?;
    let runs = ctx.runs.unwrap_or(3);
    let url = format!(
        "http://{addr}/bench.html?runs={runs}&presets={}&figures={}",
        PRESETS.join(","),
        u8::from(site.is_some())
    );
    let mut c = Command::new("node");
    c.arg(&script).args([name, &url, "15"]);
    let tmp = crate::test::private_tmp(&mut c, &format!("bench-{name}"));
    // The native run again just before and just after this browser's (one run each), so that
    // the wasm/native ratio sets the browser against native speed at the same time of day: a
    // busy minute during the native step read as a wasm/native ratio met (session 32, 33).
    let before = native_once(ctx);
    let (status, text) = run_tee(&mut c)?;
    let after = native_once(ctx);
    drop(tmp);
    if !status.success() {
        return fail(format!("the {name} bench page failed"));
    }
    let v = bench_json(&text)?;
    // The page catches its own errors and reports them here (every figure would read n/a).
    if let Some(e) = v["error"].as_str() {
        return fail(format!("the {name} bench page failed: {e}"));
    }
    let r = &v["results"];
    let step: &'static str = name;
    let mut rows = Vec::new();
    let mut bracket = serde_json::Map::new();
    for p in PRESETS {
        let w = &r["worker"][p];
        let calls = w["calls"].as_u64().unwrap_or(0);
        let wm = f(w, &["calls_per_s", "median"]);
        let raw = f(&r["raw"][p], &["calls_per_s", "median"]);
        let (b, a) = (before.get(*p).copied(), after.get(*p).copied());
        bracket.insert(p.to_string(), json!({"before": b, "after": a}));
        // The native figure of the ratios: the mean of the runs around this browser's, or the
        // native step's median where they could not be taken.
        let (native, native_note) = match (b, a) {
            (Some(b), Some(a)) => (
                Some((a + b) / 2.0),
                format!(
                    "native {} calls/s, the mean of one run just before this browser's ({}) and one \
                     just after ({}); the native step read {}",
                    num((a + b) / 2.0),
                    num(b),
                    num(a),
                    ctx.native.get(*p).map_or("n/a".into(), |v| num(*v))
                ),
            ),
            _ => (
                ctx.native.get(*p).copied(),
                "native: the native step's median (no run around this browser's)".into(),
            ),
        };
        rows.push(
            Row::new(step, format!("{p}: worker path"), wm, "calls/s").note(format!(
                "{calls} calls; one Engine rerun, as the page sends on an input change; {}",
                spread(&w["calls_per_s"])
            )),
        );
        rows.push(
            Row::new(
                step,
                format!("{p}: wasm/native (worker path)"),
                wm.zip(native).map(|(w, n)| n / w),
                "x",
            )
            .target(Bound::AtMost(1.3))
            .note(format!("native calls/s over wasm calls/s; {native_note}")),
        );
        rows.push(
            Row::new(
                step,
                format!("{p}: wasm/native (one advance)"),
                raw.zip(native).map(|(w, n)| n / w),
                "x",
            )
            .note(format!(
                "raw wasm in a worker, no chunking: {} calls/s",
                raw.map(num).unwrap_or_default()
            )),
        );
    }
    for p in PRESETS {
        let c = &r["curves"][p];
        rows.push(
            Row::new(
                step,
                format!("{p}: analysis panel's curves"),
                f(c, &["median"]),
                "ms",
            )
            .note(format!(
                "one `analysis` request through the page's worker, as opening the Analysis \
                     panel sends (its five charts, within their work budget); {}",
                spread(c)
            )),
        );
    }
    let busy = f(&r["worker"]["busy-service"], &["one_run_ms", "median"]);
    let busy_target = if name == "chromium" {
        Some(Bound::AtMost(1500.0))
    } else {
        None
    };
    let mut row = Row::new(step, "busy-service month in the worker", busy, "ms")
        .note("one Engine rerun, as the page sends on an input change");
    row.target = busy_target;
    rows.push(row);
    let page = &r["page"];
    rows.push(
        Row::new(
            step,
            "input change -> run drawn",
            f(page, &["input_to_drawn_ms", "median"]),
            "ms",
        )
        .note(format!(
            "default scenario ({}): seed changed, until the chart and panels are drawn (onRun); {}",
            page["default_scenario"].as_str().unwrap_or("?"),
            spread(&page["input_to_drawn_ms"])
        )),
    );
    rows.push(
        Row::new(
            step,
            "input change -> redrawn chart",
            f(page, &["input_to_chart_ms", "median"]),
            "ms",
        )
        .note(format!(
            "... until the next animation frame after onRun; the clock starts in a frame (an input at \
             a frame's start, the best case), so about one frame ({} ms here) is the least it can \
             read; {}",
            f(page, &["frame_ms"]).map_or("?".into(), |v| format!("{v:.1}")),
            spread(&page["input_to_chart_ms"])
        )),
    );
    rows.push(
        Row::new(
            step,
            "input change -> redrawn chart, frames",
            f(page, &["input_to_chart_frames", "median"]),
            "frames",
        )
        .target(Bound::AtMost(1.0))
        .note("issue 8's one frame: each repeat's time over the idle frame interval, rounded up (a tenth of a frame spared for timer jitter); the median"),
    );
    rows.push(
        Row::new(
            step,
            "busy-service month on the page",
            f(page, &["busy_page_ms"]),
            "ms",
        )
        .note("preset picked -> run, events, metrics, series, redrawn chart"),
    );
    let lt = f(page, &["longest_task_ms"]);
    let mut row = Row::new(step, "longest main-thread task meanwhile", lt, "ms");
    row = if lt.is_some() {
        row.target(Bound::Below(50.0))
            .note("PerformanceObserver longtask (tasks >= 50 ms; 0 = none)")
    } else {
        row.note("longtask not supported in this browser; see the tick gap")
    };
    rows.push(row);
    rows.push(
        Row::new(
            step,
            "longest gap between main-thread ticks",
            f(page, &["longest_tick_gap_ms"]),
            "ms",
        )
        .note("setTimeout(0) ping loop during the busy month (includes timer clamping)"),
    );
    rows.extend(browser_figures(ctx, step, r));
    let mut v = v;
    v["native_around"] = Value::Object(bracket);
    ctx.raw.insert(name.into(), v);
    Ok(rows)
}

/// The median of sorted `v`: the middle one, or the mean of the two middle ones (the upper one
/// was taken: 1.4626x for 1.4013x).
fn median_of(v: &[f64]) -> Option<f64> {
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_table_numbers() {
        assert_eq!(median_of(&[]), None);
        assert_eq!(median_of(&[1.0, 2.0, 3.0]), Some(2.0));
        assert_eq!(median_of(&[1.0, 2.0, 3.0, 4.0]), Some(2.5));
        assert_eq!(num(149.864), "149.86");
        assert_eq!(num(404.0), "404");
        assert_eq!(num(3.62), "3.62");
        assert_eq!(num(1276.4), "1276");
        assert_eq!(num(2.5e7), "25.00M");
    }

    /// A figure that was 0 (values that differ from native, the longest task) and is not now
    /// is judged, not passed over in silence.
    #[test]
    fn a_figure_from_zero_is_judged() {
        let run = |v: f64| {
            json!({"figures": [
                {"step": "chromium", "name": "longest main-thread task meanwhile", "value": v,
                 "unit": "ms", "meets": true, "note": ""},
            ]})
        };
        let rows = compare_rows(&run(0.0), &run(45.0));
        assert_eq!(
            (rows[0][3].as_str(), rows[0][4].as_str()),
            ("from 0", "worse")
        );
        let rows = compare_rows(&run(0.0), &run(0.0));
        assert_eq!((rows[0][3].as_str(), rows[0][4].as_str()), ("", "same"));
    }

    #[test]
    fn reads_the_last_bench_json_line() {
        let text = "x\nbench-json [1]\nnoise\n\u{1b}[0mbench-json {\"a\": 2}\n";
        assert_eq!(bench_json(text).unwrap()["a"], 2);
        assert!(bench_json("nothing").is_err());
    }

    #[test]
    fn reads_the_figures_bench() {
        let text = "\
cusum exact   p0=0.05 p1=0.2 line=ln1e2 p=p0                       0.004 ms   value 1.8175725284404766e3   exact   spread 12%
cusum chain   p0=0.05 p1=0.2 line=ln1e2 p=p0                       9.000 ms   value NaN   approximation
cusum exact   p0=0.1 p1=0.2 line=ln1e2 p=p*                        2.500 ms   value inf   exact
window calls to open exact n=18 t=50% outage=40% from full at 5%  41.700 ms   value 3.732853852151863e1   exact
slowest: 41.700 ms  window calls to open exact n=18
";
        let f = parse_figures(text);
        assert_eq!(f.len(), 4);
        assert_eq!(f[0].name, "cusum exact   p0=0.05 p1=0.2 line=ln1e2 p=p0");
        assert_eq!(
            (f[0].ms, f[0].value.to_bits()),
            (0.004, 1817.5725284404766f64.to_bits())
        );
        assert!(f[1].value.is_nan() && f[1].kind == "approximation");
        assert_eq!(f[2].value, f64::INFINITY);
        assert_eq!((f[0].spread, f[1].spread), (Some(12.0), None));
        // By line, exact figures only: the chain's 9 ms is not the line's slowest exact figure.
        let by = slowest_exact_by_line(&f);
        assert_eq!(by.len(), 1);
        assert_eq!(
            (by[&2].ms, by[&2].name.clone()),
            (
                2.5,
                "cusum exact   p0=0.1 p1=0.2 line=ln1e2 p=p*".to_string()
            )
        );
    }

    #[test]
    fn reads_a_notes_spread() {
        assert_eq!(note_spread("123 calls, spread 16%"), Some(16.0));
        assert_eq!(note_spread("time of a call; spread 3.5%"), Some(3.5));
        assert_eq!(note_spread("one run"), None);
    }

    #[test]
    fn judges_a_move_by_direction_and_spread() {
        // Faster calls/s is better; a larger time is worse.
        assert_eq!(
            moved("native", "calls/s", 10.0, 12.0, Some(5.0)),
            Moved::Better
        );
        assert_eq!(
            moved("native", "calls/s", 10.0, 10.4, Some(5.0)),
            Moved::WithinSpread(5.0)
        );
        assert_eq!(
            moved("chromium", "ms", 100.0, 120.0, Some(10.0)),
            Moved::Worse
        );
        assert_eq!(
            moved("chromium", "ms", 100.0, 90.0, None),
            Moved::Unsure { better: true }
        );
        // Counted figures: any change counts, whatever the spread.
        assert_eq!(moved("sizes", "KB", 150.0, 150.1, Some(50.0)), Moved::Worse);
        assert_eq!(
            moved("instructions", "instr/call", 1311.0, 1200.0, None),
            Moved::Better
        );
        assert_eq!(moved("instructions", "x", 4.0, 4.0, None), Moved::Same);
    }

    #[test]
    fn compares_two_runs_figure_by_figure() {
        let old = json!({"figures": [
            {"step": "native", "name": "a: full run", "value": 10.0e6, "unit": "calls/s",
             "meets": null, "note": "spread 4%"},
            {"step": "native", "name": "a: bare/full", "value": 2.5, "unit": "x",
             "meets": false, "note": ""},
            {"step": "sizes", "name": "gone", "value": 1.0, "unit": "KB", "meets": true, "note": ""},
        ]});
        let new = json!({"figures": [
            {"step": "native", "name": "a: bare/full", "value": 1.9, "unit": "x",
             "meets": true, "note": ""},
            {"step": "native", "name": "a: full run", "value": 10.2e6, "unit": "calls/s",
             "meets": null, "note": "spread 1%"},
            {"step": "instructions", "name": "added", "value": 7.0, "unit": "x",
             "meets": null, "note": ""},
        ]});
        let rows = compare_rows(&old, &new);
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[0][0], "native / a: bare/full");
        assert_eq!(rows[0][3], "-24.0%");
        assert_eq!(rows[0][4], "better?");
        assert_eq!(rows[0][5], "MISSED -> ok");
        assert_eq!(rows[1][3], "+2.0%");
        assert_eq!(rows[1][4], "within spread (4%)");
        assert_eq!(rows[2][4], "new figure");
        assert_eq!(rows[3][0], "sizes / gone");
        assert_eq!(rows[3][4], "not in the new run");
    }

    /// Sizes recorded in KB of 1024 bytes (up to session 9) compare with kB of 1000: 149.958
    /// KB is 153,557 bytes, and 153.96 kB is 403 bytes more (+0.26%), not +2.7%.
    #[test]
    fn compares_sizes_across_the_change_of_unit() {
        let old = json!({"figures": [
            {"step": "sizes", "name": "wasm, gzip", "value": 149.958, "unit": "KB", "meets": true, "note": ""},
            {"step": "sizes", "name": "other", "value": 1.0, "unit": "MB", "meets": null, "note": ""},
        ]});
        let new = json!({"figures": [
            {"step": "sizes", "name": "wasm, gzip", "value": 153.96, "unit": "kB", "meets": false, "note": ""},
            {"step": "sizes", "name": "other", "value": 1.0, "unit": "kB", "meets": null, "note": ""},
        ]});
        let rows = compare_rows(&old, &new);
        assert_eq!(rows[0][3], "+0.3%");
        assert_eq!(rows[1][3], "");
        assert_eq!(rows[1][4], "unit changed");
    }

    #[test]
    fn picks_named_steps_only() {
        assert_eq!(
            pick_steps("native, instructions").unwrap(),
            ["native", "instructions"]
        );
        let e = pick_steps("native,chrome").unwrap_err().to_string();
        assert!(
            e.contains("no step `chrome`") && e.contains("chromium"),
            "{e}"
        );
        assert!(pick_steps("").is_err());
    }

    #[test]
    fn targets_compare() {
        let r = Row::new("s", "n", Some(2.0), "x").target(Bound::AtMost(2.0));
        assert_eq!(r.meets(), Some(true));
        let r = Row::new("s", "n", Some(50.0), "ms").target(Bound::Below(50.0));
        assert_eq!(r.meets(), Some(false));
        assert_eq!(Row::new("s", "n", None, "ms").meets(), None);
    }
}
