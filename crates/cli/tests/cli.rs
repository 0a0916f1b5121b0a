//! The `breaker` binary: output shapes and error paths (one line on stderr, status 2).

use std::process::{Command, Output};

fn breaker(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("runs")
}

/// A successful run's standard output, read as JSON.
fn json_of(args: &[&str]) -> serde_json::Value {
    let out = breaker(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// A bad-input run: status 2, exactly one line on stderr starting with `breaker: `, no panic.
fn fails(args: &[&str]) -> String {
    let out = breaker(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("breaker: "), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    err
}

/// A file for a test, in cargo's folder for integration tests' files (`target/tmp`), not the
/// system's temporary folder, which these files filled run after run.
fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("breaker-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn presets_lists_every_preset_with_its_story() {
    let out = breaker(&["presets"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for p in sim::presets() {
        assert!(
            text.contains(p.name) && text.contains(p.story),
            "{}",
            p.name
        );
    }
}

#[test]
fn json_output_has_the_documented_keys() {
    let v = json_of(&[
        "run",
        "--preset",
        "recovery-warmup",
        "--format",
        "json",
        "--buckets",
        "12",
    ]);
    for kind in ["statistical", "window"] {
        let b = &v["breakers"][kind];
        let m = b["metrics"].as_object().unwrap();
        let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "calls_rejected",
                "calls_waited_on_failure",
                "dropped_updates",
                "failed_while_unhealthy",
                "false_openings",
                "good_calls_to_fallback",
                "late_results_ignored",
                "late_results_in_half_open",
                "openings",
                "time_to_close_s",
                "time_to_open_s"
            ]
        );
        let events = b["events"].as_array().unwrap();
        assert!(!events.is_empty());
        for e in events {
            assert!(e["t_s"].is_f64());
            assert!(e["from"].is_string() && e["to"].is_string());
            assert!(e["generation"].is_u64());
            assert!(e["reason"].is_string());
        }
        assert_eq!(b["series"]["state_max"].as_array().unwrap().len(), 12);
    }
    assert_eq!(v["breakers"]["window"]["events"][0]["from"], "closed");
    assert_eq!(v["breakers"]["window"]["events"][0]["to"], "open");
    assert_eq!(v["breakers"]["window"]["events"][0]["t_s"], 9.6);
    // The same run as the library's.
    let r = sim::run(&sim::preset("recovery-warmup").unwrap(), 12).unwrap();
    assert_eq!(v["calls"], r.calls);
    assert_eq!(
        v["breakers"]["statistical"]["metrics"]["openings"],
        r.breakers.statistical.metrics.openings
    );
}

#[test]
fn seed_and_set_change_the_run() {
    let a = breaker(&["run", "--preset", "late-results", "--format", "json"]);
    let b = breaker(&[
        "run",
        "--preset",
        "late-results",
        "--format",
        "json",
        "--seed",
        "7",
    ]);
    let c = breaker(&[
        "run",
        "--preset",
        "recovery-warmup",
        "--format",
        "json",
        "--set",
        "window.permitted_number_of_calls_in_half_open_state=4",
        "--set",
        "window.wait_duration_in_open_state=2s",
    ]);
    assert!(a.status.success() && b.status.success() && c.status.success());
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_slice(&a.stdout).unwrap(),
        serde_json::from_slice(&b.stdout).unwrap(),
    );
    assert_eq!(b["seed"], 7);
    assert_ne!(a["calls"], b["calls"]);
    let c: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
    let reason = c["breakers"]["window"]["events"][1]["reason"]
        .as_str()
        .unwrap();
    assert_eq!(reason, "wait of 2 s over");
}

#[test]
fn csv_is_the_series() {
    let out = breaker(&[
        "run",
        "--preset",
        "recovery-warmup",
        "--format",
        "csv",
        "--buckets",
        "6",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7);
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(header[0], "t0_s");
    assert!(header.contains(&"statistical_level_max") && header.contains(&"window_fallback"));
    assert!(lines[1..]
        .iter()
        .all(|l| l.split(',').count() == header.len()));
    assert!(lines[1].starts_with("0,10,"));
}

/// `breaker run` of recovery-warmup in `format` with `buckets` buckets.
fn warmup<'a>(format: &'a str, buckets: &'a str) -> [&'a str; 7] {
    let preset = "recovery-warmup";
    [
        "run",
        "--preset",
        preset,
        "--format",
        format,
        "--buckets",
        buckets,
    ]
}

/// A row's `t1_s` is the next row's `t0_s`, to the bit, and the last is the JSON series' `t1_s`:
/// `t0 + bucket_s` missed both by an ulp (3.6 against 3.5999999999999996) in 26 of 99 rows, and a
/// pandas join of the two outputs missed with them.
#[test]
fn csv_rows_meet_and_end_where_the_json_series_does() {
    // `1e1` is ten buckets, as `analyze` reads `--simulate 1e3`.
    for (buckets, rows_expected) in [("99", 99), ("100", 100), ("7", 7), ("1e1", 10)] {
        let args = |format| warmup(format, buckets);
        let csv = String::from_utf8(breaker(&args("csv")).stdout).unwrap();
        let v = json_of(&args("json"));
        let series = &v["breakers"]["statistical"]["series"];
        let rows: Vec<(f64, f64)> = csv
            .lines()
            .skip(1)
            .map(|l| {
                let mut f = l.split(',').map(|x| x.parse::<f64>().unwrap());
                (f.next().unwrap(), f.next().unwrap())
            })
            .collect();
        assert_eq!(rows.len(), rows_expected, "{buckets}");
        assert_eq!(rows[0].0, series["t0_s"].as_f64().unwrap());
        for w in rows.windows(2) {
            assert_eq!(w[0].1.to_bits(), w[1].0.to_bits(), "{buckets}: {w:?}");
        }
        assert_eq!(rows.last().unwrap().1, series["t1_s"].as_f64().unwrap());
    }
}

/// Each cell is the JSON series' value, column by column, to the bit: empty where the JSON has
/// null (a value that does not apply in the bucket).
#[test]
fn csv_cells_are_the_json_series() {
    let args = |format| warmup(format, "6");
    let csv = String::from_utf8(breaker(&args("csv")).stdout).unwrap();
    let v = json_of(&args("json"));
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6);
    let (mut numbers, mut empty) = (0, 0);
    for (c, name) in header.iter().enumerate().skip(2) {
        let (side, column) = name.split_once('_').unwrap();
        let values = v["breakers"][side]["series"][column].as_array().unwrap();
        for (row, value) in rows.iter().zip(values) {
            match value.as_f64() {
                Some(x) => {
                    assert_eq!(
                        row[c].parse::<f64>().map(f64::to_bits),
                        Ok(x.to_bits()),
                        "{name}"
                    );
                    numbers += 1;
                }
                None => {
                    assert_eq!((row[c], value), ("", &serde_json::Value::Null), "{name}");
                    empty += 1;
                }
            }
        }
    }
    assert_eq!(numbers + empty, 36 * 6);
    assert!(numbers > 150 && empty > 10, "{numbers} {empty}");
}

#[test]
fn scenario_and_trace_files() {
    let scenario = temp(
        "s.json",
        r#"{"duration": "2m", "traffic": {"calls_per_minute": 120, "arrivals": "even"},
            "window": {"sliding_window_size": 10, "minimum_number_of_calls": 10}}"#,
    );
    let v = json_of(&[
        "run",
        "--scenario",
        scenario.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(v["calls"], 240);

    let mut trace = String::from("time_s,outcome,latency_s\n");
    for i in 1..=400 {
        let o = if (100..200).contains(&i) {
            "503"
        } else {
            "200"
        };
        trace.push_str(&format!("{},{o},0.01\n", i as f64 * 0.5));
    }
    let trace = temp("t.csv", &trace);
    let v = json_of(&[
        "run",
        "--scenario",
        scenario.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(v["calls"], 400);
    assert_eq!(v["end_s"], 200.0);
    assert!(
        v["breakers"]["window"]["metrics"]["openings"]
            .as_u64()
            .unwrap()
            >= 1
    );
}

#[test]
fn bad_input_is_one_line_and_status_two() {
    let e = fails(&["run", "--preset", "nope"]);
    assert!(e.contains("unknown preset \"nope\""), "{e}");
    for (seed, says) in [
        (
            "-1",
            "--seed \"-1\": expected a whole number 0 <= x <= 18446744073709551615",
        ),
        (
            "2.5",
            "--seed \"2.5\": expected a whole number 0 <= x <= 18446744073709551615",
        ),
        (
            "18446744073709551616",
            "--seed \"18446744073709551616\": expected a whole number 0 <= x <= \
             18446744073709551615",
        ),
        (
            "1e3",
            "--seed \"1e3\": a seed is written as a whole number, without a fraction or \
             exponent (1000, not 1e3)",
        ),
        (
            "7.0",
            "--seed \"7.0\": a seed is written as a whole number, without a fraction or \
             exponent (7, not 7.0)",
        ),
    ] {
        let e = fails(&["run", "--preset", "recovery-warmup", "--seed", seed]);
        assert_eq!(e.trim_end(), format!("breaker: {says}"));
    }
    let e = fails(&[
        "run",
        "--preset",
        "late-results",
        "--set",
        "statistical.broken_rate=0.01",
    ]);
    assert_eq!(
        e.trim_end(),
        "breaker: statistical.broken_rate = 0.01 is invalid: allowed fine_rate (0.05) < x < 1"
    );
    let e = fails(&[
        "run",
        "--preset",
        "recovery-warmup",
        "--set",
        "window.nope=3",
    ]);
    assert!(e.contains("unknown key \"window.nope\""), "{e}");
    let e = fails(&["run", "--preset", "recovery-warmup", "--format", "xml"]);
    assert!(e.contains("--format"), "{e}");
    for (b, says) in [
        ("0", "--buckets 0: allowed 1 <= x <= 100000"),
        ("1e6", "--buckets 1e6: allowed 1 <= x <= 100000"),
        ("1e300", "--buckets 1e300: allowed 1 <= x <= 100000"),
        (
            "2.5",
            "--buckets \"2.5\": expected a whole number 1 <= x <= 100000",
        ),
        (
            "inf",
            "--buckets \"inf\": expected a whole number 1 <= x <= 100000",
        ),
        (
            "ten",
            "--buckets \"ten\": expected a whole number 1 <= x <= 100000",
        ),
    ] {
        let e = fails(&["run", "--preset", "recovery-warmup", "--buckets", b]);
        assert_eq!(e.trim_end(), format!("breaker: {says}"));
    }
    fails(&["run", "--preset"]);
    fails(&["run", "--bogus"]);
    fails(&["run", "stray"]);
    fails(&["run"]);
    fails(&["frobnicate"]);
    fails(&[]);
    let e = fails(&["run", "--scenario", "/nonexistent/s.json"]);
    assert!(e.contains("/nonexistent/s.json"), "{e}");
    let bad = temp("bad.json", r#"{"window": {"sliding_window_sise": 5}}"#);
    let e = fails(&["run", "--scenario", bad.to_str().unwrap()]);
    assert!(e.contains("unknown field `sliding_window_sise`"), "{e}");
    let typo = temp("typo.json", r#"{"traffic": {"calls_per_minute": "fast"}}"#);
    let e = fails(&["run", "--scenario", typo.to_str().unwrap()]);
    assert!(
        e.contains(": traffic.calls_per_minute = \"fast\" is invalid: "),
        "{e}"
    );
    // A range error the file has on its own names the file; one a --set made does not, and a
    // --set can mend the file (review: the file's own range errors did not name it).
    let range = temp("range.json", r#"{"statistical": {"fine_rate": 0.5}}"#);
    let range = range.to_str().unwrap();
    let e = fails(&["run", "--scenario", range]);
    assert_eq!(
        e.trim_end(),
        format!(
            "breaker: --scenario {range}: statistical.broken_rate = 0.2 is invalid: allowed \
             fine_rate (0.5) < x < 1"
        )
    );
    let e = fails(&[
        "run",
        "--scenario",
        range,
        "--set",
        "window.sliding_window_size=0",
    ]);
    assert!(
        e.starts_with(&format!(
            "breaker: --scenario {range}: statistical.broken_rate"
        )),
        "{e}"
    );
    let e = fails(&[
        "run",
        "--scenario",
        range,
        "--set",
        "statistical.broken_rate=0.4",
    ]);
    assert_eq!(
        e.trim_end(),
        "breaker: statistical.broken_rate = 0.4 is invalid: allowed fine_rate (0.5) < x < 1"
    );
    let mended = breaker(&[
        "run",
        "--scenario",
        range,
        "--set",
        "statistical.broken_rate=0.9",
        "--set",
        "duration=60",
    ]);
    let mended = String::from_utf8(mended.stdout).unwrap();
    assert!(mended.starts_with("scenario: seed 1,"), "{mended}");
    let list = temp("list.json", r#"["x", 3, 100]"#);
    let e = fails(&["run", "--scenario", list.to_str().unwrap()]);
    assert!(e.contains("allowed an object of settings"), "{e}");
    let malformed = temp("malformed.json", "{ not json");
    fails(&["run", "--scenario", malformed.to_str().unwrap()]);
    let trace = temp("bad.csv", "time_s,outcome,latency_s\n1,ok,0.1\n2,ok,fast\n");
    let e = fails(&["run", "--trace", trace.to_str().unwrap()]);
    assert!(e.contains("trace line 3, field latency_s"), "{e}");
    fails(&["run", "--trace", "/nonexistent/t.csv"]);
}

#[test]
fn analyze_dispatches_to_the_analysis_crate() {
    let out = breaker(&["analyze", "--help"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty());
    fails(&["analyze", "--no-such-flag-anywhere"]);
}

/// `--help` / `-h` after a command prints the usage (status 0), as `breaker --help` does.
#[test]
fn help_after_a_command_prints_the_usage() {
    for args in [
        &["--help"][..],
        &["run", "--help"],
        &["run", "-h"],
        &["run", "--preset", "recovery-warmup", "--help"],
        // Help wins over what else is wrong on the line, as in `breaker analyze`.
        &["run", "--preset", "a", "--preset", "b", "--help"],
        &["run", "--bogus", "-h"],
        &["presets", "--help"],
        &["presets", "-h"],
    ] {
        let out = breaker(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.starts_with("usage: breaker presets"),
            "{args:?}: {text}"
        );
        assert!(text.contains("--set key=value"), "{args:?}: {text}");
    }
}

/// `breaker <args>` with `input` on its standard input.
fn breaker_fed(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread: a command that refuses before reading would leave a large input
    // blocked in a full pipe.
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// A trace that can be read only once (`--trace -`, a pipe: `--trace /dev/stdin`,
/// `--trace <(...)`) replays the same calls as the same trace in a file, not an empty run.
#[cfg(unix)]
#[test]
fn a_trace_from_a_pipe_replays_like_a_file() {
    let mut trace = String::from("time_s,outcome,latency_s\n");
    for i in 1..=300 {
        let o = if (100..160).contains(&i) { "503" } else { "ok" };
        trace.push_str(&format!("{},{o},0.01\n", i as f64 * 0.5));
    }
    let file = temp("pipe.csv", &trace);
    let from_file = breaker(&["run", "--trace", file.to_str().unwrap(), "--format", "json"]);
    assert!(from_file.status.success());
    let a: serde_json::Value = serde_json::from_slice(&from_file.stdout).unwrap();
    for path in ["/dev/stdin", "-"] {
        let from_pipe = breaker_fed(&["run", "--trace", path, "--format", "json"], &trace);
        assert!(
            from_pipe.status.success(),
            "{path}: {}",
            String::from_utf8_lossy(&from_pipe.stderr)
        );
        let b: serde_json::Value = serde_json::from_slice(&from_pipe.stdout).unwrap();
        assert_eq!(b["calls"], 300, "{path}");
        assert_eq!(a, b, "{path}");
    }
}

/// `--scenario -` reads the scenario from standard input: the same run as from the file, with
/// `--set` applied on top; a refusal names standard input's `-`; `-` cannot feed both.
#[test]
fn a_scenario_from_standard_input_runs_like_a_file() {
    let scenario = r#"{ "name": "from stdin", "duration": "10m", "seed": 7,
        "dependency": [ { "start": 0, "failure_rate": "2%" },
                        { "start": "5m", "condition": "outage", "failure_rate": "90%" } ] }"#;
    let file = temp("stdin-scenario.json", scenario);
    let args = |path| {
        [
            "run",
            "--scenario",
            path,
            "--set",
            "seed=9",
            "--format",
            "json",
        ]
    };
    let a = json_of(&args(file.to_str().unwrap()));
    let out = breaker_fed(&args("-"), scenario);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let b: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(b["name"], "from stdin");
    assert_eq!(b["seed"], 9);
    assert_eq!(a, b);

    let out = breaker_fed(&["run", "--scenario", "-"], r#"{ "duration": "-1s" }"#);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--scenario -: ") && err.contains("duration"),
        "{err}"
    );

    let out = breaker_fed(&["run", "--scenario", "-", "--trace", "-"], scenario);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "breaker: --scenario - and --trace - cannot both read standard input"
    );
}

/// The text output says what its numbers are (the project's rule): simulated, on one run.
#[test]
fn text_output_says_its_numbers_are_simulated() {
    let out = breaker(&["run", "--preset", "recovery-warmup"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0]
            .starts_with("recovery-warmup: seed 1, 300 calls over 60 s, trace 06f0736797fcfc5e"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("simulated below: every count")
            && lines[1].contains("exact: the window's thresholds")
            && lines[1].contains("nats"),
        "{text}"
    );
}

/// The text says where the run leaves each breaker and how long it kept calls out (open or
/// half-open), against the JSON events: each spell from a change away from closed to the next
/// change to closed, or to the run's end. With callers of their own, caller 0's breaker.
#[test]
fn text_output_says_the_state_at_the_end_and_the_time_not_closed() {
    for (args, note) in [
        (&["--preset", "recovery-warmup"][..], false),
        (&["--preset", "bad-day", "--set", "callers.count=3"], true),
        (
            &["--preset", "recovery-warmup", "--set", "duration=20s"],
            false,
        ),
        // Callers of their own whose breakers never change (the outage starts at 10 s): said
        // all the same, of the scenario, not of the events.
        (
            &[
                "--preset",
                "recovery-warmup",
                "--set",
                "callers.count=4",
                "--set",
                "duration=5s",
            ],
            true,
        ),
        // Shared state: one breaker, no note.
        (
            &[
                "--preset",
                "bad-day",
                "--set",
                "callers.count=3",
                "--set",
                "callers.shared_state=true",
            ],
            false,
        ),
    ] {
        let mut run = vec!["run"];
        run.extend_from_slice(args);
        let text = String::from_utf8(breaker(&run).stdout).unwrap();
        run.extend_from_slice(&["--format", "json"]);
        let v = json_of(&run);
        let end = v["end_s"].as_f64().unwrap();
        let row = |name: &str| -> Vec<String> {
            let line = text
                .lines()
                .find(|l| l.split_whitespace().next() == Some(name))
                .unwrap_or_else(|| panic!("no {name} row: {text}"));
            line.split_whitespace().skip(1).map(String::from).collect()
        };
        let (mut states, mut outs) = (Vec::new(), Vec::new());
        for kind in ["statistical", "window"] {
            let mut out = 0.0;
            let mut away: Option<f64> = None;
            let mut last = "closed".to_string();
            for e in v["breakers"][kind]["events"].as_array().unwrap() {
                if e["caller"] != 0 {
                    continue;
                }
                let t = e["t_s"].as_f64().unwrap();
                match (e["from"].as_str().unwrap(), e["to"].as_str().unwrap()) {
                    ("closed", _) => away = Some(t),
                    (_, "closed") => out += t - away.take().unwrap(),
                    _ => {}
                }
                last = e["to"].as_str().unwrap().to_string();
            }
            if let Some(t) = away {
                out += end - t;
            }
            states.push(last);
            outs.push(format!("{out:.2}"));
        }
        assert_eq!(row("state_at_end"), states, "{args:?}");
        assert_eq!(row("time_not_closed_s"), outs, "{args:?}");
        assert_eq!(text.contains("caller 0's breaker"), note, "{args:?}");
    }
}

/// Counts in the text output agree with their nouns: one call, one probe, two calls (the
/// header, and the window breaker's reasons as the event lines print them).
#[test]
fn text_output_says_one_call_not_one_calls() {
    let lines = |scenario: &str| -> Vec<String> {
        let file = temp("counts.json", scenario);
        let out = breaker(&["run", "--scenario", file.to_str().unwrap()]);
        assert!(out.status.success(), "{scenario}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let one =
        lines(r#"{"duration": 0.3, "traffic": {"calls_per_minute": 200, "arrivals": "even"}}"#);
    assert_eq!(
        one[0],
        "scenario: seed 1, 1 call over 0.3 s, trace e3b0c44298fc1c14"
    );
    let two =
        lines(r#"{"duration": 0.6, "traffic": {"calls_per_minute": 200, "arrivals": "even"}}"#);
    assert_eq!(
        two[0],
        "scenario: seed 1, 2 calls over 0.6 s, trace e3b0c44298fc1c14"
    );
    // A window of one call that fails for 2 s: it opens on one call and closes on one probe.
    let window = lines(
        r#"{"duration": 4, "traffic": {"calls_per_minute": 60, "arrivals": "even"},
            "dependency": [{"start": 0, "failure_rate": 1}, {"start": 2, "failure_rate": 0}],
            "window": {"sliding_window_size": 1, "minimum_number_of_calls": 1,
                       "permitted_number_of_calls_in_half_open_state": 1,
                       "wait_duration_in_open_state": 1}}"#,
    );
    let at = window
        .iter()
        .position(|l| l.starts_with("window events: "))
        .expect("the window's events");
    assert_eq!(
        window[at + 1..at + 4],
        [
            "         1.050 s     closed -> open      gen 1    failure rate 100.0% of 1 call reached threshold 50.0%",
            "         3.000 s       open -> half_open gen 2    wait of 1 s over",
            "         3.050 s  half_open -> closed    gen 3    1 half-open result: failure rate 0.0%, slow-call rate 0.0%, below thresholds",
        ]
    );
}

/// A duration written with an exponent, as tools print small and large numbers: a trace's
/// latency (`5e-05`), `analyze --period 1e6`, a scenario's `"duration": "1e3"`.
#[test]
fn durations_with_an_exponent_are_read() {
    let trace = temp("exp.csv", "0.5,ok,5e-05\n1,503,1.2e-1\n1.5,ok,1e0\n");
    let v = json_of(&[
        "run",
        "--trace",
        trace.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(v["calls"], 3);
    let scenario = temp(
        "exp.json",
        r#"{"duration": "1.2e2", "traffic": {"arrivals": "even"}}"#,
    );
    let v = json_of(&[
        "run",
        "--scenario",
        scenario.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(v["end_s"], 120.0);
    let v = json_of(&[
        "analyze",
        "false-alarms",
        "--period",
        "6.048e5",
        "--format",
        "json",
    ]);
    let n = v["points"][0]["line_calls"].as_f64().unwrap();
    assert!((n - 604_800.0).abs() < 1e-6, "{n}");
}

/// The header's run length stays short for any valid duration (`{}` would print 1e-300 with
/// 300 zeros).
#[test]
fn the_header_prints_tiny_and_huge_lengths_with_an_exponent() {
    for (set, want) in [
        ("duration=1e-300", " calls over 1e-300 s, trace "),
        ("duration=0.5", " calls over 0.5 s, trace "),
    ] {
        let out = breaker(&["run", "--preset", "late-results", "--set", set]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let first = text.lines().next().unwrap();
        assert!(first.contains(want) && first.len() < 100, "{first}");
    }
    let trace = temp("far.csv", "1e9,ok,0.1\n");
    let out = breaker(&["run", "--trace", trace.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("scenario: seed 1, 1 call over 1000000000 s,"),
        "{text}"
    );
    // Past the longest run a trace's time is refused, as a duration is (1e308 made a run of
    // 1.16e303 days).
    let trace = temp("too-far.csv", "1e16,ok,0.1\n");
    let err = fails(&["run", "--trace", trace.to_str().unwrap()]);
    assert!(
        err.contains("time_s: 1e16 is invalid: allowed 0 <= x <= 1e9 seconds"),
        "{err}"
    );
}

/// A long run shows its progress on stderr when stderr is a terminal (here a pseudo-terminal
/// made by util-linux's `script`), clears it at the end, and writes the same stdout as without
/// a terminal, where stderr stays empty.
#[test]
fn progress_on_a_terminal_only() {
    let bin = env!("CARGO_BIN_EXE_breaker");
    // 10 days of busy-service: 8.6M calls, so progress is looked at twice (every 2^22 calls).
    let args = [
        "run",
        "--preset",
        "busy-service",
        "--set",
        "duration=10d",
        "--format",
        "text",
    ];
    let plain = breaker(&args);
    assert!(plain.status.success());
    assert!(plain.stderr.is_empty(), "no terminal, no progress");

    let out = temp("progress-stdout.txt", "");
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let command = format!(
        "{} {} > {}",
        quote(bin),
        args.join(" "),
        quote(out.to_str().unwrap())
    );
    let term = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        // From the first look on, so the test does not depend on the machine's speed.
        .env("BREAKER_PROGRESS_AFTER", "0")
        .output()
        .expect("util-linux `script` runs (Debian: bsdutils)");
    assert!(term.status.success(), "{term:?}");
    let screen = String::from_utf8_lossy(&term.stdout);
    assert!(
        screen.contains("\r\x1b[Kbreaker run: ") && screen.contains("% of the run's time, "),
        "{screen:?}"
    );
    assert!(
        screen.ends_with("\r\x1b[K"),
        "cleared at the end: {screen:?}"
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        plain.stdout,
        "stdout untouched"
    );
}

/// A `BREAKER_PROGRESS_AFTER` that is not a number of seconds >= 0 is refused, naming it, with
/// or without a terminal (it was ignored for the 1 s default, unsaid); a good one changes nothing
/// without a terminal.
#[test]
fn a_bad_progress_delay_is_refused_naming_it() {
    let run = |v: &str| {
        Command::new(env!("CARGO_BIN_EXE_breaker"))
            .args(["run", "--preset", "recovery-warmup"])
            .env("BREAKER_PROGRESS_AFTER", v)
            .output()
            .unwrap()
    };
    for bad in ["abc", "-1", "NaN", "inf", ""] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("breaker: BREAKER_PROGRESS_AFTER = {bad:?} is invalid: allowed a number of seconds 0 <= x (unset: 1)\n"),
        );
        assert!(out.stdout.is_empty());
    }
    for good in ["0", "2.5", " 3 "] {
        let out = run(good);
        assert!(out.status.success(), "{good:?}: {out:?}");
        assert_eq!(
            out.stdout,
            breaker(&["run", "--preset", "recovery-warmup"]).stdout
        );
    }
}

/// README's command-line examples run as written: every `cargo run --release -p breaker-cli --`
/// line of its shell blocks (a trailing `\` continues a line) exits 0 with output, so the README
/// cannot drift from the flags the binary takes.
#[test]
fn readme_commands_run_as_written() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    let prefix = "cargo run --release -p breaker-cli -- ";
    let mut commands: Vec<String> = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<String> = None;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let text = match pending.take() {
            Some(head) => format!("{head} {}", line.trim()),
            None if line.starts_with(prefix) => line[prefix.len()..].to_string(),
            None => continue,
        };
        match text.strip_suffix('\\') {
            Some(head) => pending = Some(head.trim_end().to_string()),
            None => commands.push(text),
        }
    }
    assert_eq!(commands.len(), 6, "{commands:#?}");
    for c in &commands {
        // No quoting in these examples: plain words.
        assert!(!c.contains(['"', '\'', '$', '|']), "{c}");
        let args: Vec<&str> = c.split_whitespace().collect();
        let out = breaker(&args);
        assert!(
            out.status.success(),
            "README: breaker {c}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "README: breaker {c}: no output");
    }
}

/// `analyze`'s bad input reads as one `breaker: analyze: ...` line: an unknown flag is named as
/// unknown even when last (it was read as a known flag missing its value), and the prefix is
/// not doubled ("breaker: breaker analyze: ...").
#[test]
fn analyze_names_an_unknown_flag_once_prefixed() {
    for args in [
        &["analyze", "trials", "--bogus"][..],
        &["analyze", "trials", "--bogus", "3"],
        &["analyze", "trials", "--bogus=3"],
    ] {
        assert_eq!(
            fails(args),
            "breaker: analyze: unknown flag --bogus (see breaker analyze --help)\n",
            "{args:?}"
        );
    }
    assert_eq!(
        fails(&["analyze", "trials", "--fine"]),
        "breaker: --fine: missing value\n"
    );
    assert!(fails(&["analyze", "nope"]).starts_with("breaker: analyze: unknown command"));
}

/// A breaker that changes state about once a call (1 ms waits through a month-long outage):
/// the run stops once a breaker's log holds `sim::MAX_EVENTS` changes, and says so, in the text
/// itself and on stderr for the other formats, whose output goes on as a run of that length.
#[test]
fn a_run_cut_short_says_so() {
    let path = temp(
        "flapping.json",
        r#"{ "duration": "30d", "seed": 1,
  "traffic": { "calls_per_minute": 600 },
  "dependency": [ { "start": 0, "label": "down", "condition": "outage", "failure_rate": 1 } ],
  "statistical": { "first_wait": "1ms", "wait_cap": "1ms" },
  "window": { "wait_duration_in_open_state": "1ms", "sliding_window_size": 2,
              "minimum_number_of_calls": 1,
              "permitted_number_of_calls_in_half_open_state": 1 } }"#,
    );
    let path = path.to_str().unwrap();
    let out = breaker(&["run", "--scenario", path]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().take(2).collect();
    let end = lines[0]
        .split(" calls over ")
        .nth(1)
        .and_then(|r| r.split(" s,").next())
        .expect("the header gives the run's end");
    assert_eq!(
        lines[1],
        format!(
            "cut short at {end} s: a breaker changed state {} times, the most a run keeps; \
             longer waits let a run go further",
            sim::MAX_EVENTS
        )
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = breaker(&["run", "--scenario", path, "--format", "csv"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("breaker: warning: {}\n", lines[1])
    );
    // A run that goes to its end says nothing of the kind.
    let out = breaker(&["run", "--preset", "recovery-warmup"]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("cut short"));
    assert!(out.stderr.is_empty());
}

/// A newline (or tab) a user typed into a flag is shown escaped, on the one line: the message
/// used to stop at it, so `--set $'a\nb=1'` said only "breaker: --set a".
#[test]
fn control_characters_in_input_are_escaped_not_cut() {
    let err = fails(&["run", "--preset", "quiet-service", "--set", "a\nb=1"]);
    assert_eq!(
        err,
        "breaker: --set a\\nb: unknown key \"a\\nb\": allowed callers, dependency, duration, \
         name, seed, statistical, trace, traffic, window\n"
    );
    let err = fails(&["run", "--preset", "x\ty"]);
    assert!(
        err.starts_with("breaker: unknown preset \"x\\ty\": allowed "),
        "{err}"
    );
}

/// `breaker --version` (and `-V`) names the crate's version, as a script or a bug report wants.
#[test]
fn version_is_the_crates() {
    for flag in ["--version", "-V"] {
        let out = breaker(&[flag]);
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("breaker {}\n", env!("CARGO_PKG_VERSION"))
        );
        // Anything after it is refused, as after `presets`: `--version extra` exited 0.
        assert_eq!(
            fails(&[flag, "--json"]),
            format!("breaker: {flag} takes no arguments, got \"--json\"\n")
        );
    }
}

/// Input that never ends a line, or never ends (`/dev/zero`), is refused within bounded memory:
/// `--scenario /dev/zero` read on until the machine's memory was gone (15 GB in 12 s), and a
/// trace was read into memory one line at a time however long the line.
#[cfg(unix)]
#[test]
fn endless_input_is_refused_not_read_whole() {
    assert_eq!(
        fails(&["run", "--scenario", "/dev/zero"]),
        "breaker: --scenario /dev/zero: longer than 256 MiB, more than any scenario holds (give \
         a long trace with --trace FILE.csv, which is read as it goes)\n"
    );
    let too_long = "a line longer than 1 MiB, where a trace's lines are rows of \
                    time_s,outcome,latency_s";
    assert_eq!(
        fails(&["run", "--trace", "/dev/zero"]),
        format!("breaker: --trace /dev/zero: {too_long}\n")
    );
    // A regular file, streamed: the line it fails at, as soon as it passes the limit.
    let long = temp(
        "long-line.csv",
        &format!("0,ok,0.1\n1,ok,0.1\n{}\n", "9".repeat(2 << 20)),
    );
    let long = long.to_str().unwrap();
    assert_eq!(
        fails(&["run", "--trace", long]),
        format!("breaker: {long}: trace line 3: cannot read: {too_long}\n")
    );
    // Standard input, held in memory: the same.
    let out = breaker_fed(
        &["run", "--trace", "-"],
        &format!("0,ok,0.1\n{}", "9".repeat((1 << 20) + 1)),
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("breaker: --trace - (standard input): {too_long}\n")
    );
    // At the limit, a line is read and refused for what it holds; its end, \n or \r\n, is
    // not counted.
    // (After a first line of 8,191 bytes, the long line's \r is the last byte of a read
    // buffer of 8 KiB, its \n the first of the next: it was counted, and the line refused.)
    let first = format!("#{}\r\n", "x".repeat(8188));
    for end in ["\n", "\r\n"] {
        let line = format!("{first}{}{end}", "9".repeat(1 << 20));
        let at = temp("at-limit.csv", &line);
        let err = fails(&["run", "--trace", at.to_str().unwrap()]);
        assert!(
            err.contains("trace line 2: expected 3 fields"),
            "{end:?}: {err}"
        );
        let piped = breaker_fed(&["run", "--trace", "-"], &line);
        let err = String::from_utf8(piped.stderr).unwrap();
        assert!(
            err.contains("trace line 2: expected 3 fields"),
            "{end:?}: {err}"
        );
    }
    // A \r inside a line is a byte of it, also as the last byte of a read buffer: after a first
    // line of 8,192 bytes, the \r of "9..9\r9" (2^20 + 1 bytes) ends a buffer, and the 9 after
    // it takes the line one byte past the limit, in the buffer where the line ends. One 9
    // fewer, the line is at the limit, and read.
    let first = format!("#{}\r\n", "x".repeat(8189));
    for (nines, refused) in [((1 << 20) - 1, true), ((1 << 20) - 2, false)] {
        let text = format!("{first}{}\r9\n0,ok,0.1\n", "9".repeat(nines));
        let at = temp("cr-at-limit.csv", &text);
        let at = at.to_str().unwrap();
        let err = fails(&["run", "--trace", at]);
        let want = if refused {
            format!("breaker: {at}: trace line 2: cannot read: {too_long}\n")
        } else {
            format!("breaker: {at}: trace line 2: expected 3 fields")
        };
        assert!(err.starts_with(&want), "{nines}: {err}");
    }
    // A line that passes the limit is the one named, also where it ends in the bytes that take
    // it past: a comment line of 2^20 + 1 bytes was read whole, and the row after it named.
    let text = format!("0,ok,0.1\n#{}\n1,ok,0.1\n", "9".repeat(1 << 20));
    let at = temp("comment-past-limit.csv", &text);
    let at = at.to_str().unwrap();
    assert_eq!(
        fails(&["run", "--trace", at]),
        format!("breaker: {at}: trace line 2: cannot read: {too_long}\n")
    );
}

/// A word that is not a flag is refused by name.
#[test]
fn run_takes_options_only() {
    assert_eq!(
        fails(&["run", "--preset", "quiet-service", "foo"]),
        "breaker: unexpected argument \"foo\": run takes options only (breaker --help)\n"
    );
}

/// A scenario's name is printed with its control characters escaped: an escape sequence in a
/// scenario file could move the terminal's cursor, rewrite lines or set its clipboard.
#[test]
fn a_name_is_printed_with_its_control_characters_escaped() {
    let file = temp(
        "escapes.json",
        r#"{"name": "x\u001b[31mRED\u001b]52;c;ZWNobw==\u0007 \r\u202egpj é", "duration": 60}"#,
    );
    let out = breaker(&["run", "--scenario", file.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(r"x\u{1b}[31mRED\u{1b}]52;c;ZWNobw==\u{7} \r\u{202e}gpj é: seed 1, "),
        "{first}"
    );
    assert!(!text.contains('\u{1b}') && !text.contains('\r') && !text.contains('\u{7}'));
}

/// The text lists a breaker's first 40 events and says how many more the JSON has: bursty
/// failures cut at 33,360 s has 40 of each (none more), at 33,400 s 42.
#[test]
fn the_text_lists_forty_events_and_counts_the_rest() {
    for (duration, n) in [("33360", 40), ("33400", 42)] {
        let args = ["run", "--preset", "bursty-failures", "--set"];
        let set = format!("duration={duration}");
        let out = breaker(&[&args[..], &[set.as_str()]].concat());
        let text = String::from_utf8(out.stdout).unwrap();
        let v = json_of(&[&args[..], &[set.as_str(), "--format", "json"]].concat());
        for side in ["statistical", "window"] {
            assert_eq!(v["breakers"][side]["events"].as_array().unwrap().len(), n);
            let header = format!("{side} events: {n}\n");
            let listed = &text[text.find(&header).unwrap() + header.len()..];
            let lines: Vec<&str> = listed.lines().take_while(|l| l.starts_with("  ")).collect();
            let more = format!("  ... {} more (use --format json)", n - 40);
            match n - 40 {
                0 => assert_eq!(lines.len(), 40, "{side} {duration}"),
                _ => assert_eq!((lines.len(), lines[40]), (41, more.as_str())),
            }
        }
    }
}

/// The times to open and close are given to two decimals, "-" where the run has none: the
/// JSON's figures, rounded.
#[test]
fn the_text_gives_the_times_to_open_and_close() {
    // As printed, in full: bursty failures has no outage phase to measure from.
    for (preset, printed) in [
        (
            "bad-day",
            ["time_to_open_s 18.07 27.51", "time_to_close_s 293.96 46.68"],
        ),
        (
            "bursty-failures",
            ["time_to_open_s - -", "time_to_close_s - -"],
        ),
    ] {
        let text = String::from_utf8(breaker(&["run", "--preset", preset]).stdout).unwrap();
        let v = json_of(&["run", "--preset", preset, "--format", "json"]);
        for key in ["time_to_open_s", "time_to_close_s"] {
            let shown = |side: &str| {
                let x = &v["breakers"][side]["metrics"][key];
                x.as_f64().map_or("-".to_string(), |x| format!("{x:.2}"))
            };
            let want = format!(
                "{key:<26} {:>14} {:>14}",
                shown("statistical"),
                shown("window")
            );
            assert!(
                text.lines().any(|l| l == want),
                "{preset}: {want:?}\n{text}"
            );
        }
        let rows: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with("time_to_"))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(rows, printed, "{preset}");
    }
}
