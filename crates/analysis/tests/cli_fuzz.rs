//! Any arguments a user can give `breaker analyze` (the page's walkthrough calls the same
//! function through the wasm `analyze`): a report, or one line naming what is wrong, never a
//! panic (debug build: integer overflow panics too), and never a figure whose kind is left out.
//!
//! Each case is a command and up to five flags, each with a value drawn to sit on and past the
//! ranges' ends, in unit forms, or not a number. Work is capped in deterministic units (see
//! `budget.rs`), so each case must end within 60 s: a case that does not ends the binary with
//! the arguments that hung, rather than hanging the suite.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use proptest::prelude::*;

const COMMANDS: &[&str] = &[
    "false-alarms",
    "open-delay",
    "trials",
    "window",
    "drift",
    "",
    "nope",
];

/// Every flag of the usage text, and two that are not flags.
const FLAGS: &[&str] = &[
    "--fine",
    "--broken",
    "--a",
    "--b",
    "--line-calls",
    "--calls-per-minute",
    "--rps",
    "--period",
    "--true-rate",
    "--window",
    "--threshold",
    "--min-calls",
    "--baseline",
    "--half-open-time-factor",
    "--simulate",
    "--seed",
    "--sweep",
    "--format",
    "--bogus",
    "-x",
];

/// Values on and past the ends of every range, in every form a flag reads.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "0.5",
    "0.05",
    "0.2",
    "0.9999999",
    "1.0000001",
    "1e-300",
    "5e-324",
    "1e300",
    "1e400",
    "-0",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "",
    " ",
    "5%",
    "100%",
    "0%",
    "101%",
    "1e-9%",
    "30d",
    "1h",
    "0s",
    "-1s",
    "1e9s",
    "1e12d",
    "2",
    "3",
    "100",
    "1000",
    "1e6",
    "1e7",
    "2e7",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "1.5",
    "json",
    "text",
    "csv",
    "1:10:5",
    "1e2:1e9:8:log",
    "0:1:3:lin",
    "0.01:0.5:0",
    "0.01:0.5:100000",
    "5:1:3",
    "1:1:1",
    "nan:1:3",
    "0.01:0.5:3:cubic",
    "0.01:0.5",
    "::",
    "é",
    "--fine",
];

fn args() -> impl Strategy<Value = Vec<String>> {
    let flag = (0..FLAGS.len(), 0..VALUES.len());
    (
        0..COMMANDS.len(),
        proptest::collection::vec(flag, 0..=5),
        proptest::bool::ANY,
    )
        .prop_map(|(c, flags, last_bare)| {
            let mut v = Vec::new();
            if !COMMANDS[c].is_empty() {
                v.push(COMMANDS[c].to_string());
            }
            for (i, (f, x)) in flags.iter().enumerate() {
                v.push(FLAGS[*f].to_string());
                // Now and then the last flag comes without its value.
                if !(last_bare && i + 1 == flags.len()) {
                    v.push(VALUES[*x].to_string());
                }
            }
            v
        })
}

/// `analysis::cli::run(args)` on a thread of its own, within 60 s.
fn run_within(args: &[String]) -> Result<Result<String, String>, String> {
    let (tx, rx) = mpsc::channel();
    let owned = args.to_vec();
    let h = thread::spawn(move || {
        let _ = tx.send(analysis::cli::run(&owned));
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(r) => {
            h.join().expect("joined");
            Ok(r)
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(format!("panicked on {args:?}")),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            eprintln!("breaker analyze {} did not end within 60 s", args.join(" "));
            std::process::exit(1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_arguments_give_a_report_or_one_line_naming_the_problem(args in args()) {
        match run_within(&args) {
            Err(panic) => prop_assert!(false, "{}", panic),
            Ok(Ok(out)) => {
                prop_assert!(!out.trim().is_empty(), "empty report for {:?}", args);
                // JSON reports: every figure says its kind (the page labels each number by it).
                if out.trim_start().starts_with('{') {
                    let v: serde_json::Value = serde_json::from_str(&out)
                        .map_err(|e| TestCaseError::fail(format!("{args:?}: not JSON: {e}")))?;
                    let mut bad = Vec::new();
                    unlabelled(&v, "", &mut bad);
                    prop_assert!(bad.is_empty(), "{:?}: figures without a kind: {:?}", args, bad);
                }
            }
            Ok(Err(msg)) => {
                prop_assert!(!msg.contains('\n'), "{:?}: more than one line: {}", args, msg);
                prop_assert!(msg.starts_with("analyze") || msg.contains("--"),
                    "{:?}: the message names no flag or command: {}", args, msg);
            }
        }
    }
}

/// Paths of objects that look like figures (a `value`) but carry no `kind`.
fn unlabelled(v: &serde_json::Value, path: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            if m.contains_key("value") && !m.contains_key("kind") {
                out.push(path.to_string());
            }
            for (k, x) in m {
                unlabelled(x, &format!("{path}.{k}"), out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                unlabelled(x, &format!("{path}.{i}"), out);
            }
        }
        _ => {}
    }
}
