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

#[test]
fn the_example_figures_are_the_defaults() {
    let fa = json("false-alarms");
    let calls = &fa["points"][0]["calls"];
    let sig = |v: &Value| format!("{:.3e}", v.as_f64().unwrap());
    assert_eq!(calls["exact"]["kind"], "exact");
    assert_eq!(sig(&calls["exact"]["value"]), "4.746e7");
    assert_eq!(calls["bound"]["kind"], "bound");
    assert_eq!(calls["bound"]["value"].as_f64().unwrap().round(), 2592000.0);
    assert_eq!(calls["approximation"]["kind"], "approximation");
    assert_eq!(sig(&calls["approximation"]["value"]), "2.759e7");
    for shown in [
        r#"{"value": 4.746e7, "kind": "exact"}"#,
        r#"{"value": 2592000, "kind": "bound"}"#,
        r#"{"value": 2.759e7, "kind": "approximation"}"#,
    ] {
        assert!(README.contains(shown), "{shown}");
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
