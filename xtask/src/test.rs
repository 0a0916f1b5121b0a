//! `cargo xtask test`: every test suite, each with a one-line summary.
//!
//! Suites, in order (each is skipped with a reason when its inputs do not exist yet):
//! 1. `fmt`     — `cargo fmt --all -- --check`
//! 2. `clippy`  — `cargo clippy --workspace --all-targets -- -D warnings`
//! 3. `cargo test` — `cargo test --workspace --no-fail-fast` (unit, integration and doc tests)
//! 4. `breaker features` — for `--no-default-features`, then with `--features serde`, then
//!    `--features sync` (default features are in `cargo test`): `cargo clippy -p breaker
//!    --all-targets -- -D warnings`, `cargo doc -p breaker` with `RUSTDOCFLAGS="-D warnings"`,
//!    and `cargo test -p breaker` of the tests a feature can change (lib, doc, `statistical`,
//!    `shared`, `serde_units`); all run even when one fails
//! 5. `doc` — `cargo doc --no-deps --workspace` with `RUSTDOCFLAGS="-D warnings"`
//! 6. `wasm <crate> <browser>` — `wasm-pack test --headless --chrome|--firefox` for
//!    `crates/wasm` and `crates/breaker`, each when it has `tests/*.rs` and a
//!    `wasm-bindgen-test` dev-dependency
//! 7. `dist` and `e2e` — when `tests/e2e/package.json` exists: build `www/dist/`, serve it
//!    in-process on a free port and run `npm test` in `tests/e2e` with `PLAYGROUND_URL`. The
//!    built page's sizes (wasm and page, gzip) are said beside issue 8's targets, in the
//!    summary too; a size past its target is a figure to make good, not a failed test.
//!
//! Counts: for test runners, the individual tests their output reports (`test result:` lines
//! from libtest and wasm-bindgen-test; `N passed`/`# pass N`/`N passing` from JS runners).
//! `fmt`, `clippy`, `doc` and `dist` count as one check when they pass, and as the number of
//! diagnostics (files to reformat, lint or rustdoc errors) when they fail. A runner that fails
//! without reporting a failed test (a build error) counts one failure; a test runner that exits 0
//! without reporting a passed test fails its suite.

use crate::setup::{self, Scope};
use crate::util::{self, cargo, fail, run_tee, strip_ansi, Res};
use crate::{dist, serve};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

#[derive(Default)]
pub struct Opts {
    /// Only the native suites (fmt, clippy, cargo test, breaker features, doc).
    pub native: bool,
    /// Run the whole thing in a fresh clone of the repository.
    pub clean_clone: bool,
}

enum Status {
    Passed,
    Failed,
    Skipped(String),
}

struct Outcome {
    name: String,
    status: Status,
    passed: u64,
    failed: u64,
    /// Tests the runner reported as skipped or ignored (shown, not counted as passed).
    skipped: u64,
    secs: f64,
}

#[derive(Clone, Copy)]
enum Count {
    /// One check; its diagnostics on failure (files to reformat; lint or rustdoc errors).
    Fmt,
    Lints,
    /// libtest-style `test result:` lines.
    Libtest,
    /// JS test runners.
    Js,
}

pub fn test(opts: &Opts) -> Res<()> {
    if opts.clean_clone {
        return clean_clone(opts);
    }
    let start = Instant::now();
    setup::setup(if opts.native {
        Scope::Native
    } else {
        Scope::Full
    })?;
    let root = util::root();
    let mut results: Vec<Outcome> = Vec::new();

    let mut c = cargo();
    c.args(["fmt", "--all", "--", "--check"]).current_dir(&root);
    results.push(suite("fmt", Count::Fmt, &mut c));

    let mut c = cargo();
    c.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])
    .current_dir(&root);
    results.push(suite("clippy", Count::Lints, &mut c));

    let mut c = cargo();
    c.args(["test", "--workspace", "--no-fail-fast"])
        .current_dir(&root);
    results.push(suite("cargo test", Count::Libtest, &mut c));

    // The library for native users under each feature set (default features are tested above):
    // every target must build and pass clippy; the tests that a feature can change run (the
    // library's own, the doc tests, and the files that use serde or `Shared`). The feature-blind
    // suites (`window`, `statistical_props`: 20 s each time) ran above.
    let mut cmds: Vec<Command> = Vec::new();
    for features in [&[][..], &["--features", "serde"], &["--features", "sync"]] {
        let mut c = cargo();
        c.args(["clippy", "-p", "breaker", "--no-default-features"])
            .args(features)
            .args(["--all-targets", "--", "-D", "warnings"])
            .current_dir(&root);
        cmds.push(c);
        let mut c = cargo();
        c.args(["doc", "--no-deps", "-p", "breaker", "--no-default-features"])
            .args(features)
            .env("RUSTDOCFLAGS", "-D warnings")
            .current_dir(&root);
        cmds.push(c);
        // (Cargo runs doc tests apart from other targets.)
        let targets: [&[&str]; 2] = [
            &[
                "--lib",
                "--test",
                "statistical",
                "--test",
                "shared",
                "--test",
                "serde_units",
            ],
            &["--doc"],
        ];
        for targets in targets {
            let mut c = cargo();
            c.args(["test", "-p", "breaker", "--no-default-features"])
                .args(features)
                .args(targets)
                .current_dir(&root);
            cmds.push(c);
        }
    }
    results.push(suite_all(
        "breaker features",
        Count::Libtest,
        &mut cmds,
        None,
    ));

    results.push(package_suite(&root));

    let mut c = cargo();
    c.args(["doc", "--no-deps", "--workspace"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(&root);
    results.push(suite("doc", Count::Lints, &mut c));

    // What the summary says besides the suites (the page's sizes against issue 8's targets).
    let mut notes = Vec::new();
    if !opts.native {
        wasm_suites(&root, &mut results);
        e2e_suites(&root, &mut results, &mut notes);
    }

    finish(&results, &notes, start)
}

/// The breaker crate as crates.io would get it: `cargo package`, which builds it from its
/// packaged files alone, then its doc tests with every feature (the README's example among
/// them) in a copy unpacked outside the workspace; its other tests are the workspace's, run
/// above. A file read from outside the crate (the README was, by `../../../README.md`) builds
/// in the workspace only.
fn package_suite(root: &Path) -> Outcome {
    let tmp = match util::PrivateTmp::new("package") {
        Ok(t) => t,
        Err(e) => {
            println!("\n== suite package\nerror: no temporary folder: {e}");
            return Outcome {
                name: "package".into(),
                status: Status::Failed,
                passed: 0,
                failed: 1,
                skipped: 0,
                secs: 0.0,
            };
        }
    };
    let target = util::target_dir().unwrap_or_else(|_| root.join("target"));
    let krate = target
        .join("package")
        .join(format!("breaker-{}.crate", env!("CARGO_PKG_VERSION")));
    let unpacked = tmp
        .path()
        .join(format!("breaker-{}", env!("CARGO_PKG_VERSION")));
    let mut package = cargo();
    package
        .args(["package", "-p", "breaker", "--allow-dirty"])
        .current_dir(root);
    let mut unpack = Command::new("tar");
    unpack.arg("xzf").arg(&krate).arg("-C").arg(tmp.path());
    let mut test = cargo();
    test.args(["test", "--all-features", "--doc"])
        .current_dir(&unpacked)
        .env("CARGO_TARGET_DIR", target.join("package").join("target"));
    let o = suite_all(
        "package",
        Count::Libtest,
        &mut [package, unpack, test],
        None,
    );
    drop(tmp);
    o
}

fn suite(name: &str, count: Count, cmd: &mut Command) -> Outcome {
    suite_in(name, count, cmd, None)
}

/// A suite; with `browser`, every "Running headless tests in X" line of
/// wasm-bindgen-test-runner must name that browser (it picks the driver from
/// the environment, so a stray GECKODRIVER would silently run Firefox).
fn suite_in(name: &str, count: Count, cmd: &mut Command, browser: Option<&str>) -> Outcome {
    suite_all(name, count, std::slice::from_mut(cmd), browser)
}

/// A suite of several commands, run in order (all of them, even after one fails), their
/// outputs counted together; it passes when every command succeeds.
fn suite_all(name: &str, count: Count, cmds: &mut [Command], browser: Option<&str>) -> Outcome {
    println!("\n== suite {name}");
    let t = Instant::now();
    let (mut ok, mut text) = (true, String::new());
    // Counted command by command: a command that fails without reporting a failure (a build
    // error, a clippy run beside a failing doc run) counts as one of its own.
    let (mut passed, mut failed) = (0, 0);
    for cmd in cmds {
        let (cmd_ok, out) = match run_tee(cmd) {
            Ok((status, out)) => (status.success(), out),
            Err(e) => (false, e.to_string()),
        };
        ok &= cmd_ok;
        let out = strip_ansi(&out);
        let (p, f) = counts(count, cmd_ok, &out);
        passed += p;
        failed += if !cmd_ok && f == 0 { 1 } else { f };
        text.push_str(&out);
        text.push('\n');
    }
    if let Some(b) = browser {
        let wrong: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("Running headless tests in ") && !l.contains(b))
            .collect();
        if !wrong.is_empty() {
            println!("error: expected {b}, but the runner said: {}", wrong[0]);
            ok = false;
        }
    }
    let skipped = skipped_count(count, &text);
    if ok && passed == 0 && matches!(count, Count::Libtest | Count::Js) {
        // No test file found, every test skipped, or output we cannot read: not a pass.
        println!("error: {name} exited 0 but reported no passed test");
        ok = false;
    }
    if !ok && failed == 0 {
        failed = 1;
    }
    if ok && passed == 0 && failed == 0 && matches!(count, Count::Fmt | Count::Lints) {
        passed = 1;
    }
    let o = Outcome {
        name: name.to_string(),
        status: if ok { Status::Passed } else { Status::Failed },
        passed,
        failed,
        skipped,
        secs: t.elapsed().as_secs_f64(),
    };
    println!("{}", line(&o));
    o
}

fn skipped(name: &str, why: impl Into<String>) -> Outcome {
    let o = Outcome {
        name: name.to_string(),
        status: Status::Skipped(why.into()),
        passed: 0,
        failed: 0,
        skipped: 0,
        secs: 0.0,
    };
    println!("\n{}", line(&o));
    o
}

fn line(o: &Outcome) -> String {
    match &o.status {
        Status::Skipped(why) => format!("suite {:<24} skipped: {why}", o.name),
        s => format!(
            "suite {:<24} {:<6} {:>5} passed {:>4} failed {:>7.1} s{}",
            o.name,
            if matches!(s, Status::Passed) {
                "ok"
            } else {
                "FAILED"
            },
            o.passed,
            o.failed,
            o.secs,
            if o.skipped > 0 {
                format!(" ({} skipped)", o.skipped)
            } else {
                String::new()
            }
        ),
    }
}

fn finish(results: &[Outcome], notes: &[String], start: Instant) -> Res<()> {
    println!("\n== summary");
    for o in results {
        println!("{}", line(o));
    }
    for n in notes {
        println!("{n}");
    }
    let passed: u64 = results.iter().map(|o| o.passed).sum();
    let failed: u64 = results.iter().map(|o| o.failed).sum();
    let bad: Vec<&str> = results
        .iter()
        .filter(|o| matches!(o.status, Status::Failed))
        .map(|o| o.name.as_str())
        .collect();
    // A suite skipped whole (no browser test crate, no e2e package) exits 0 with the rest:
    // counted on the last line too, so a green run with suites missing does not read whole.
    let skipped: Vec<&str> = results
        .iter()
        .filter(|o| matches!(o.status, Status::Skipped(_)))
        .map(|o| o.name.as_str())
        .collect();
    if skipped.is_empty() {
        println!("test summary: {passed} passed, {failed} failed");
    } else {
        println!(
            "test summary: {passed} passed, {failed} failed, {} skipped ({})",
            if skipped.len() == 1 {
                "1 suite".to_string()
            } else {
                format!("{} suites", skipped.len())
            },
            skipped.join(", ")
        );
    }
    println!("total time: {:.1} s", start.elapsed().as_secs_f64());
    if bad.is_empty() {
        Ok(())
    } else {
        fail(format!("failed suites: {}", bad.join(", ")))
    }
}

/// The number that precedes `word` in `line` ("5 passed;" -> 5).
fn num_before(line: &str, word: &str) -> Option<u64> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    toks.windows(2).find_map(|w| {
        let next = w[1].trim_matches(|c: char| !c.is_alphanumeric());
        (next == word).then(|| {
            w[0].trim_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })?
    })
}

/// The number that follows `prefix` at the start of `line` ("# pass 5" -> 5).
fn num_after(line: &str, prefix: &str) -> Option<u64> {
    line.strip_prefix(prefix)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Tests reported as skipped: libtest's `N ignored`, node:test's `# skipped N` / `ℹ skipped N`,
/// Playwright's `N skipped`, mocha's `N pending`.
fn skipped_count(count: Count, text: &str) -> u64 {
    let lines = text.lines().map(str::trim);
    match count {
        Count::Fmt | Count::Lints => 0,
        Count::Libtest => lines
            .filter(|l| l.starts_with("test result:"))
            .filter_map(|l| num_before(l, "ignored"))
            .sum(),
        Count::Js => lines
            .filter_map(|l| {
                num_after(l, "# skipped ")
                    .or_else(|| num_after(l, "ℹ skipped "))
                    .or_else(|| {
                        let mut w = l.split_whitespace();
                        let n = w.next()?.parse().ok()?;
                        matches!(w.next(), Some("skipped" | "pending")).then_some(n)
                    })
            })
            .sum(),
    }
}

fn counts(count: Count, ok: bool, text: &str) -> (u64, u64) {
    let lines = text.lines().map(str::trim);
    match count {
        Count::Fmt => {
            let files: std::collections::BTreeSet<&str> = lines
                .filter_map(|l| l.strip_prefix("Diff in "))
                .map(|r| r.split(':').next().unwrap_or(r))
                .collect();
            if ok {
                (1, 0)
            } else {
                (0, files.len() as u64)
            }
        }
        Count::Lints => {
            let n = lines
                .filter(|l| {
                    (l.starts_with("error:") || l.starts_with("error["))
                        && !l.starts_with("error: could not compile")
                        && !l.starts_with("error: could not document")
                        && !l.starts_with("error: aborting")
                })
                .count() as u64;
            if ok {
                (1, 0)
            } else {
                (0, n)
            }
        }
        Count::Libtest => {
            let (mut p, mut f, mut reported) = (0, 0, 0);
            let mut targets_failed: u64 = 0;
            for l in lines {
                if l.starts_with("test result:") {
                    let failed = num_before(l, "failed").unwrap_or(0);
                    p += num_before(l, "passed").unwrap_or(0);
                    f += failed;
                    reported += u64::from(failed > 0);
                } else if l.starts_with("error: test failed")
                    || l.starts_with("error: doctest failed")
                {
                    targets_failed += 1;
                }
            }
            // A test binary that died mid-run (an abort, an exit from a hang guard) fails its
            // target with no "test result" line: one failure each, also beside another target's
            // failures (it was counted only when nothing else failed).
            (p, f + targets_failed.saturating_sub(reported))
        }
        Count::Js => {
            let (mut p, mut f) = (0, 0);
            for l in lines {
                if let Some(n) = num_after(l, "# pass ").or_else(|| num_after(l, "ℹ pass ")) {
                    p += n;
                } else if let Some(n) = num_after(l, "# fail ").or_else(|| num_after(l, "ℹ fail "))
                {
                    f += n;
                } else if let Some(n) =
                    num_after(l, "# cancelled ").or_else(|| num_after(l, "ℹ cancelled "))
                {
                    // A suite whose browser did not start: its tests never ran.
                    f += n;
                } else if l.starts_with("test result:") || l.starts_with("Tests:") {
                    p += num_before(l, "passed").unwrap_or(0);
                    f += num_before(l, "failed").unwrap_or(0);
                } else if let Some(first) = l.split_whitespace().next() {
                    // Playwright "5 passed (3s)", mocha "5 passing (3s)".
                    if first.parse::<u64>().is_ok() {
                        let word = l.split_whitespace().nth(1).unwrap_or("");
                        let n: u64 = first.parse().unwrap_or(0);
                        match word {
                            "passed" | "passing" | "flaky" => p += n,
                            "failed" | "failing" => f += n,
                            _ => {}
                        }
                    }
                }
            }
            (p, f)
        }
    }
}

fn has_rs_tests(dir: &Path) -> bool {
    fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "rs"))
        })
        .unwrap_or(false)
}

/// The test files in `dir` written with `wasm_bindgen_test` but not configured to run in a
/// browser (`wasm_bindgen_test_configure!(run_in_browser)`): wasm-pack runs browser tests only,
/// and its runner skips such a file with exit 0 and no result line, which a suite's total of
/// passes would not show.
fn not_in_browser(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter(|p| {
            let text = fs::read_to_string(p).unwrap_or_default();
            text.contains("wasm_bindgen_test") && !text.contains("run_in_browser")
        })
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    out.sort();
    out
}

fn wasm_suites(root: &Path, results: &mut Vec<Outcome>) {
    let crates = [
        ("breaker-wasm", "crates/wasm"),
        ("breaker", "crates/breaker"),
    ];
    for (krate, dir) in crates {
        let manifest = fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap_or_default();
        let gate = if !has_rs_tests(&root.join(dir).join("tests")) {
            Some(format!("{dir}/tests/*.rs does not exist yet"))
        } else if !manifest.contains("wasm-bindgen-test") {
            Some(format!(
                "{dir}/Cargo.toml has no wasm-bindgen-test dev-dependency \
                 (add it under [target.'cfg(target_arch = \"wasm32\")'.dev-dependencies])"
            ))
        } else {
            None
        };
        let unconfigured = not_in_browser(&root.join(dir).join("tests"));
        for browser in ["chrome", "firefox"] {
            let name = format!("wasm {krate} {browser}");
            if let Some(why) = &gate {
                results.push(skipped(&name, why.clone()));
                continue;
            }
            if !unconfigured.is_empty() {
                println!(
                    "error: {dir}/tests: {} use wasm_bindgen_test without \
                     wasm_bindgen_test_configure!(run_in_browser): the runner would skip them",
                    unconfigured.join(", ")
                );
                results.push(Outcome {
                    name,
                    status: Status::Failed,
                    passed: 0,
                    failed: unconfigured.len() as u64,
                    skipped: 0,
                    secs: 0.0,
                });
                continue;
            }
            let mut c = wasm_pack_test(browser);
            c.arg(dir).current_dir(root);
            // Kept builds go to the temporary folder: it is then the system's, and kept.
            let tmp = if std::env::var_os("WASM_BINDGEN_KEEP_TEST_BUILD").is_some() {
                None
            } else {
                private_tmp(&mut c, &format!("wasm-{browser}"))
            };
            let shown = if browser == "chrome" {
                "Chrome"
            } else {
                "Firefox"
            };
            results.push(suite_in(&name, Count::Libtest, &mut c, Some(shown)));
            drop(tmp);
        }
    }
}

/// `wasm-pack test --headless --<browser>` with the driver from setup, so
/// wasm-pack never downloads one. Only that browser's driver variable is set:
/// wasm-bindgen-test-runner takes the first of GECKODRIVER, SAFARIDRIVER,
/// CHROMEDRIVER, MSEDGEDRIVER (and their `_REMOTE` forms) that it finds.
fn wasm_pack_test(browser: &str) -> Command {
    let mut c = Command::new("wasm-pack");
    c.args(["test", "--headless", &format!("--{browser}")]);
    // wasm-bindgen-test-runner serves the tests for a person's browser (and waits) when
    // NO_HEADLESS is set: never here.
    c.env_remove("NO_HEADLESS");
    for d in [
        "GECKODRIVER",
        "SAFARIDRIVER",
        "CHROMEDRIVER",
        "MSEDGEDRIVER",
    ] {
        c.env_remove(d).env_remove(format!("{d}_REMOTE"));
    }
    let (flag, var, path) = if browser == "chrome" {
        ("--chromedriver", "CHROMEDRIVER", setup::chromedriver())
    } else {
        ("--geckodriver", "GECKODRIVER", setup::geckodriver())
    };
    if let Some(p) = path {
        c.arg(flag).arg(&p).env(var, &p);
    }
    if std::env::var_os("WASM_BINDGEN_TEST_TIMEOUT").is_none() {
        // Property tests in a browser take longer than the default 20 s.
        c.env("WASM_BINDGEN_TEST_TIMEOUT", "300");
    }
    c
}

fn e2e_suites(root: &Path, results: &mut Vec<Outcome>, notes: &mut Vec<String>) {
    let e2e = root.join("tests/e2e");
    if !e2e.join("package.json").is_file() {
        results.push(skipped("dist", "tests/e2e/package.json does not exist yet"));
        results.push(skipped("e2e", "tests/e2e/package.json does not exist yet"));
        return;
    }
    println!("\n== suite dist");
    let t = Instant::now();
    let built = dist::dist();
    let o = Outcome {
        name: "dist".into(),
        status: if built.is_ok() {
            Status::Passed
        } else {
            Status::Failed
        },
        passed: built.is_ok() as u64,
        failed: built.is_err() as u64,
        skipped: 0,
        secs: t.elapsed().as_secs_f64(),
    };
    if let Err(e) = &built {
        println!("error: {e}");
    }
    println!("{}", line(&o));
    results.push(o);
    // The sizes as `cargo xtask bench --steps sizes` gives them, against issue 8's targets:
    // said, not checked (a figure to make good, as the bench's are). Session 60's seed hint
    // took the wasm past 150 kB unnoticed, measured only before it.
    if built.is_ok() {
        let note = match crate::bench::page_sizes(&dist::dist_dir()) {
            Ok(z) => {
                let said = |n: u64, target: u64| {
                    let met = if n <= target { "met" } else { "MISSED" };
                    format!("{n} B gzip, target <= {target}: {met}")
                };
                format!(
                    "sizes: wasm {}; page {} (cargo xtask bench --steps sizes)",
                    said(z.wasm_gz, crate::bench::WASM_GZ_TARGET),
                    said(z.gz, crate::bench::PAGE_GZ_TARGET)
                )
            }
            Err(e) => format!("sizes: not measured: {e}"),
        };
        println!("{note}");
        notes.push(note);
    }
    if built.is_err() {
        results.push(skipped("e2e", "dist failed"));
        return;
    }
    let addr = match serve::bind(0).and_then(|l| serve::spawn(l, dist::dist_dir())) {
        Ok(a) => a,
        Err(e) => {
            println!("error: cannot start the static server: {e}");
            results.push(Outcome {
                name: "e2e".into(),
                status: Status::Failed,
                passed: 0,
                failed: 1,
                skipped: 0,
                secs: 0.0,
            });
            return;
        }
    };
    let url = format!("http://{addr}/");
    println!("serving www/dist at {url}");
    let mut c = Command::new("npm");
    c.arg("test").current_dir(&e2e).env("PLAYGROUND_URL", &url);
    // The tests check the page against the simulator's command line: build it once (the dev
    // profile `cargo test` already built, so usually a no-op) and hand its path over.
    match breaker_cli(root) {
        Ok(bin) => {
            c.env("BREAKER_BIN", bin);
        }
        Err(e) => {
            // Not a BREAKER_BIN from the caller's shell, which may be another build's.
            c.env_remove("BREAKER_BIN");
            println!("warning: cannot build the breaker CLI ({e}); the tests will `cargo run` it")
        }
    }
    for (var, path) in [
        ("CHROMIUM_PATH", setup::chromium()),
        ("CHROMEDRIVER", setup::chromedriver()),
        ("FIREFOX_PATH", setup::firefox()),
        ("GECKODRIVER", setup::geckodriver()),
    ] {
        if let Some(p) = path {
            c.env(var, p);
        }
    }
    c.env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    // Every test in both browsers: a leftover E2E_BROWSERS=firefox would drop Chromium silently.
    if let Some(v) = std::env::var_os("E2E_BROWSERS") {
        println!(
            "note: ignoring E2E_BROWSERS={}: the tests run in every browser",
            v.to_string_lossy()
        );
        c.env_remove("E2E_BROWSERS");
    }
    let tmp = private_tmp(&mut c, "e2e");
    results.push(suite("e2e", Count::Js, &mut c));
    drop(tmp);
}

/// A [`util::PrivateTmp`] given to `cmd` (it starts browsers, which leave folders behind in
/// their temporary folder); without one, a warning and the system's temporary folder.
pub(crate) fn private_tmp(cmd: &mut Command, name: &str) -> Option<util::PrivateTmp> {
    match util::PrivateTmp::new(name) {
        Ok(t) => {
            t.give(cmd);
            Some(t)
        }
        Err(e) => {
            println!("warning: no private temporary folder ({e}): the browsers' leftovers stay in the system's");
            None
        }
    }
}

/// `cargo build -p breaker-cli` (dev profile) and the path of the `breaker` binary.
fn breaker_cli(root: &Path) -> Res<std::path::PathBuf> {
    let mut c = cargo();
    c.args(["build", "-q", "-p", "breaker-cli"])
        .current_dir(root);
    util::run(&mut c)?;
    let bin = util::target_dir()?
        .join("debug")
        .join(format!("breaker{}", std::env::consts::EXE_SUFFIX));
    if bin.is_file() {
        Ok(bin)
    } else {
        fail(format!("{} is missing after the build", bin.display()))
    }
}

/// Clones the committed state into a temporary folder and runs the tests there
/// with its own, empty target folder (only `~/.cargo` is shared).
fn clean_clone(opts: &Opts) -> Res<()> {
    let start = Instant::now();
    let root = util::root();
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let dir = std::env::temp_dir().join(format!(
        "breaker-clean-clone-{stamp}-{}",
        std::process::id()
    ));
    if let Some(dirty) = util::output(
        "git",
        ["-C", root.to_str().unwrap_or("."), "status", "--porcelain"],
    ) {
        let n = dirty.lines().count();
        if n > 0 {
            println!("note: {n} uncommitted paths in the working tree are not in the clone");
        }
    }
    let mut c = Command::new("git");
    c.args(["clone", "--quiet"]).arg(&root).arg(&dir);
    util::run(&mut c)?;
    let mut c = cargo();
    c.args(["xtask", "test"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("CARGO_BUILD_TARGET_DIR");
    if opts.native {
        c.arg("--native");
    }
    let (status, text) = run_tee(&mut c)?;
    let summary = strip_ansi(&text)
        .lines()
        .rev()
        .find(|l| l.starts_with("test summary:"))
        .map(str::to_string)
        .unwrap_or_else(|| "test summary: 0 passed, 1 failed".into());
    println!("\n== clean clone ({})", dir.display());
    let result = if status.success() {
        let _ = fs::remove_dir_all(&dir);
        println!("clean clone: ok (removed {})", dir.display());
        Ok(())
    } else {
        println!(
            "clean clone: FAILED (kept {} for inspection)",
            dir.display()
        );
        fail("the clean-clone test run failed")
    };
    println!("{summary}");
    println!("total time: {:.1} s", start.elapsed().as_secs_f64());
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_counts() {
        let out = "running 3 tests\ntest result: ok. 3 passed; 0 failed; 0 ignored\n\
                   test result: FAILED. 4 passed; 2 failed; 1 ignored; 0 measured\n";
        assert_eq!(counts(Count::Libtest, false, out), (7, 2));
        // A target that failed with its result line, and one that died (an abort) without:
        // two failures (the dead one was counted only when nothing else failed).
        let out = "test result: FAILED. 1 passed; 1 failed; 0 ignored\n\
                   error: test failed, to rerun pass `--test a`\n\
                   error: test failed, to rerun pass `--test b`\n\
                   Caused by: process didn't exit successfully (signal: 6, SIGABRT)\n";
        assert_eq!(counts(Count::Libtest, false, out), (1, 2));
        // A doctest binary that did not build: one.
        assert_eq!(
            counts(
                Count::Libtest,
                false,
                "error: doctest failed, to rerun pass `-p x --doc`\n"
            ),
            (0, 1)
        );
    }

    #[test]
    fn js_counts() {
        assert_eq!(counts(Count::Js, true, "  12 passed (4.1s)\n"), (12, 0));
        assert_eq!(
            counts(
                Count::Js,
                false,
                "  1 failed\n  [chromium] x\n  9 passed (3s)"
            ),
            (9, 1)
        );
        assert_eq!(
            counts(Count::Js, true, "# tests 5\n# pass 5\n# fail 0\n"),
            (5, 0)
        );
        assert_eq!(counts(Count::Js, true, "ℹ pass 3\nℹ fail 1\n"), (3, 1));
        // A describe whose `before` failed (no browser): cancelled, a failure.
        assert_eq!(
            counts(Count::Js, false, "# pass 0\n# fail 0\n# cancelled 1\n"),
            (0, 1)
        );
        assert_eq!(
            counts(Count::Js, false, "ℹ pass 4\nℹ cancelled 2\n"),
            (4, 2)
        );
        assert_eq!(
            counts(Count::Js, false, "  2 passing (1s)\n  1 failing\n"),
            (2, 1)
        );
    }

    #[test]
    fn skipped_counts() {
        let node = "ℹ tests 55\nℹ pass 53\nℹ fail 0\nℹ skipped 2\n";
        assert_eq!(skipped_count(Count::Js, node), 2);
        assert_eq!(counts(Count::Js, true, node), (53, 0));
        assert_eq!(skipped_count(Count::Js, "# skipped 1\n  3 skipped\n"), 4);
        let lib = "test result: ok. 3 passed; 0 failed; 2 ignored; 0 measured\n";
        assert_eq!(skipped_count(Count::Libtest, lib), 2);
        assert_eq!(skipped_count(Count::Fmt, lib), 0);
    }

    #[test]
    fn fmt_clippy_and_doc_counts() {
        let fmt = "Diff in /a/x.rs:3:\nDiff in /a/x.rs:9:\nDiff in /a/y.rs:1:\n";
        assert_eq!(counts(Count::Fmt, false, fmt), (0, 2));
        assert_eq!(counts(Count::Fmt, true, ""), (1, 0));
        let clippy =
            "error: unused variable\nerror[E0308]: mismatched\nerror: could not compile `x`\n";
        assert_eq!(counts(Count::Lints, false, clippy), (0, 2));
        let doc =
            "error: `report` is both a function and a module\nerror: could not document `x`\n";
        assert_eq!(counts(Count::Lints, false, doc), (0, 1));
    }

    /// A wasm test file the runner would skip (no run_in_browser) is found; the crates' own
    /// files all run in a browser.
    #[test]
    fn a_wasm_test_file_not_configured_for_a_browser_is_found() {
        let dir = std::env::temp_dir().join(format!("xtask-wasm-tests-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("a.rs"),
            "use wasm_bindgen_test::*;\nwasm_bindgen_test_configure!(run_in_browser);\n",
        )
        .unwrap();
        fs::write(
            dir.join("b.rs"),
            "#[wasm_bindgen_test::wasm_bindgen_test]\nfn t() {}\n",
        )
        .unwrap();
        fs::write(dir.join("c.rs"), "#[test]\nfn t() {}\n").unwrap();
        assert_eq!(not_in_browser(&dir), ["b.rs"]);
        fs::remove_dir_all(&dir).unwrap();
        for krate in ["crates/wasm/tests", "crates/breaker/tests"] {
            assert_eq!(
                not_in_browser(&util::root().join(krate)),
                Vec::<String>::new(),
                "{krate}"
            );
        }
    }

    #[test]
    fn a_runner_that_runs_nothing_fails() {
        // node --test with no test file, or every test skipped: exit 0, nothing passed.
        let mut c = Command::new("sh");
        c.args(["-c", "echo '# tests 0'; echo '# skipped 2'"]);
        let o = suite_in("none", Count::Js, &mut c, None);
        assert!(matches!(o.status, Status::Failed));
        assert_eq!((o.passed, o.failed, o.skipped), (0, 1, 2));
    }

    #[test]
    fn several_commands_count_together() {
        // Their output goes to the test's stdout uncaptured: nothing libtest-like in it, or the
        // `cargo test` suite would count it.
        let mut cmds: Vec<Command> = ["echo '# pass 2'", "exit 1"]
            .into_iter()
            .map(|script| {
                let mut c = Command::new("sh");
                c.args(["-c", script]);
                c
            })
            .collect();
        let o = suite_all("two", Count::Js, &mut cmds, None);
        assert!(matches!(o.status, Status::Failed));
        assert_eq!((o.passed, o.failed), (2, 1));
    }
}
