//! The help texts say what the flags do.

mod support;

use support::stdout;

/// `--true-rate`'s default as each command takes it: `trials` and `drift` show three points
/// (fine, the zero-drift rate, broken); the help said "broken otherwise".
#[test]
fn analyze_help_gives_each_commands_default_true_rate() {
    let help = stdout(&["analyze", "--help"]);
    let at = help
        .find("--true-rate RATE")
        .expect("--true-rate documented");
    let next = help[at + 1..]
        .find("\n  --")
        .map_or(help.len(), |n| at + 1 + n);
    let line = help[at..next]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (command, rates) in [
        ("false-alarms", vec![0.05]),
        ("open-delay", vec![0.2]),
        ("trials", vec![0.05, 0.11033, 0.2]),
        ("drift", vec![0.05, 0.11033, 0.2]),
    ] {
        let v: serde_json::Value =
            serde_json::from_str(&stdout(&["analyze", command, "--format", "json"])).unwrap();
        let got: Vec<f64> = v["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["true_rate"].as_f64().unwrap())
            .collect();
        assert_eq!(got.len(), rates.len(), "{command}: {got:?}");
        for (g, r) in got.iter().zip(&rates) {
            assert!((g - r).abs() < 1e-4, "{command}: {got:?}");
        }
    }
    assert!(
        line.contains("fine for false-alarms")
            && line.contains("broken for open-delay and window")
            && line.contains("fine, the zero-drift rate and broken for trials and drift"),
        "{line}"
    );
}

/// `--trace` goes with `--preset` or `--scenario` (their settings replay it); the usage line
/// showed the three as alternatives.
#[test]
fn run_help_says_a_trace_goes_with_a_preset() {
    // In cargo's folder for integration tests' files, not the system's (left there run after run).
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("breaker-cli-help");
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("t.csv");
    std::fs::write(&trace, "1,ok,0.1\n2,503,0.1\n").unwrap();
    let out = stdout(&[
        "run",
        "--preset",
        "late-results",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(out.starts_with("late-results: seed 1, 2 calls"), "{out}");
    let help = stdout(&["--help"]);
    assert!(
        help.contains("breaker run [--preset NAME | --scenario FILE.json] [--trace FILE.csv]"),
        "{help}"
    );
    assert!(
        help.contains("needs a preset, a scenario or a trace"),
        "{help}"
    );
}
