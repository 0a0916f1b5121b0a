//! The crate README's lists against the code: every JSON key a report prints is documented, the
//! flags table names exactly the flags `breaker analyze --help` lists, and the figures it shows
//! as examples are the default report's. A change to either side fails here until the README
//! says the same.

use std::collections::BTreeSet;

use analysis::cli::{run, USAGE};
use serde_json::Value;

const README: &str = include_str!("../README.md");

fn json(s: &str) -> Value {
    let args: Vec<String> = format!("{s} --format json")
        .split_whitespace()
        .map(String::from)
        .collect();
    let out = run(&args).unwrap_or_else(|e| panic!("{s}: {e}"));
    serde_json::from_str(&out).unwrap()
}

/// The keys in `v` (below figures, only the figure itself), with the key that holds each.
fn keys(v: &Value, parent: &str, out: &mut BTreeSet<(String, String)>) {
    match v {
        Value::Object(m) if m.contains_key("kind") => {}
        Value::Object(m) => {
            for (k, x) in m {
                out.insert((parent.to_string(), k.clone()));
                keys(x, k, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, parent, out)),
        _ => {}
    }
}

/// Whether the README documents `key` (held by `parent`): as `key`, `parent.key`,
/// `points[].key`, a ways key (`"key": figure`), a top-level `"key"` or the parent of a
/// documented `key.child`.
fn documented(parent: &str, key: &str) -> bool {
    [
        format!("`{key}`"),
        format!("`{parent}.{key}`"),
        format!("`points[].{key}`"),
        format!("\"{key}\": figure"),
        format!("`{key}.",),
    ]
    .iter()
    .any(|s| README.contains(s.as_str()))
        || (parent.is_empty() && README.contains(&format!("`\"{key}\"`")))
}

#[test]
fn every_json_key_is_documented() {
    let runs = [
        "false-alarms",
        "false-alarms --simulate 20 --line-calls 1e3",
        "false-alarms --sweep 1e2:1e4:3",
        "open-delay",
        "trials",
        "trials --simulate 20",
        "window",
        "window --window 10 --min-calls 5",
        "window --sweep 1%:5%:3",
        "drift",
        "drift --sweep 5%:20%:3",
    ];
    let mut missing = vec![];
    for r in runs {
        let mut found = BTreeSet::new();
        keys(&json(r), "", &mut found);
        for (parent, key) in found {
            if !documented(&parent, &key) {
                missing.push(format!("{r}: {parent}.{key}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys the README does not name: {missing:?}"
    );
}

/// `--flag` names in `text`.
fn flags(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("--") {
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

#[test]
fn the_flags_table_names_the_flags() {
    let table: String = README
        .lines()
        .filter(|l| l.starts_with("| `--"))
        .map(|l| l.split('|').nth(1).unwrap())
        .collect::<Vec<_>>()
        .join(" ");
    let usage = USAGE
        .lines()
        .filter(|l| l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(flags(&table), flags(&usage));
}

/// The four example figures are those of the command the README names, rounded to a tenth.
/// (The simulated one, 4.61e7 of n 1000 beside the defaults' other three, could not be made:
/// the defaults' 4.7e7 calls a run are past what `--simulate` takes.)
#[test]
fn the_example_figures_are_the_commands() {
    assert!(README.contains(
        "`breaker analyze false-alarms --line-calls 1e4 --simulate 2000 --format json`, rounded:"
    ));
    let fa = json("false-alarms --line-calls 1e4 --simulate 2000");
    let calls = &fa["points"][0]["calls"];
    let r = |v: &Value| format!("{:.1}", v.as_f64().unwrap());
    let sim = &calls["simulated"];
    let ci = sim["ci95"].as_array().unwrap();
    let shown = [
        format!(
            r#"{{"value": {}, "kind": "{}"}}"#,
            r(&calls["exact"]["value"]),
            calls["exact"]["kind"].as_str().unwrap()
        ),
        format!(
            r#"{{"value": {}, "kind": "{}"}}"#,
            calls["bound"]["value"].as_f64().unwrap().round(),
            calls["bound"]["kind"].as_str().unwrap()
        ),
        format!(
            r#"{{"value": {}, "kind": "{}"}}"#,
            r(&calls["approximation"]["value"]),
            calls["approximation"]["kind"].as_str().unwrap()
        ),
        format!(
            r#"{{"value": {}, "kind": "{}", "ci95": [{}, {}], "n": {}}}"#,
            r(&sim["value"]),
            sim["kind"].as_str().unwrap(),
            r(&ci[0]),
            r(&ci[1]),
            sim["n"]
        ),
    ];
    for s in &shown {
        assert!(README.contains(s.as_str()), "{s}");
    }
    // The Brook-Evans chain's figure is an approximation even where it is exact in theory.
    let integer = json("false-alarms --fine 10% --broken 90% --line-calls 1e4");
    assert_eq!(
        integer["points"][0]["calls"]["markov_chain"]["kind"],
        "approximation"
    );
    // An infinite run length is `null`, as the README's example command shows.
    let never = json("false-alarms --true-rate 1e-300");
    assert!(never["points"][0]["calls"]["exact"]["value"].is_null());
    assert!(README.contains("`breaker analyze false-alarms --true-rate 1e-300`"));
    assert!(
        analysis::cusum::arl_exact(breaker::score::Weights::new(0.05, 0.2), 5.0, 0.0)
            .arl
            .is_infinite()
    );
}
