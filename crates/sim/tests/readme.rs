//! The crate README's claims that a test can pin cheaply: the default scenario JSON (values and
//! the full set of keys), the settings table's keys, the presets' list, the trace example, the
//! error messages it quotes and the keys of a run's result. A change to any of them fails here
//! until the README says the same.

use std::collections::BTreeSet;

use serde_json::Value;
use sim::Scenario;

const README: &str = include_str!("../README.md");

/// The README's section that starts with the heading `## {title}`, up to the next `## `.
fn section(title: &str) -> &'static str {
    let head = format!("\n## {title}\n");
    let start = README
        .find(&head)
        .unwrap_or_else(|| panic!("no section {title}"))
        + head.len();
    let rest = &README[start..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

/// The first fenced block of `lang` in `text`.
fn block(text: &str, lang: &str) -> &'static str {
    let fence = format!("```{lang}\n");
    let text: &'static str = Box::leak(text.to_string().into_boxed_str());
    let start = text.find(&fence).expect("a fenced block") + fence.len();
    &text[start..start + text[start..].find("```").expect("its end")]
}

/// The dotted paths of every key in `v` (list entries as `[]`).
fn paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.insert(p.clone());
                paths(x, &p, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                paths(x, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_scenario_json_is_the_default_with_every_key() {
    let text = block(section("Scenario JSON"), "json");
    let read = Scenario::read_json(text).expect("the README's scenario reads");
    assert_eq!(
        read,
        Scenario::default(),
        "the README's values are the defaults"
    );
    let written: Value = serde_json::from_str(text).unwrap();
    let (mut a, mut b) = (BTreeSet::new(), BTreeSet::new());
    paths(&written, "", &mut a);
    paths(&Scenario::default().to_value(), "", &mut b);
    assert_eq!(
        a, b,
        "the README's scenario names every key, and only those"
    );
}

#[test]
fn the_settings_table_names_every_key() {
    let text = section("Scenario JSON");
    let text = &text[..text.find("### Ranges").unwrap_or(text.len())];
    // First-column names of the table's rows: `a`, `.b`, `dependency[i].c`, several per row.
    let mut named = BTreeSet::new();
    for row in text.lines().filter(|l| l.starts_with("| `")) {
        let first = row.split('|').nth(1).unwrap();
        for name in first.split('`').skip(1).step_by(2) {
            let name = name
                .trim_start_matches("dependency[i]")
                .trim_start_matches('.');
            named.insert(name.to_string());
        }
    }
    let v = Scenario::default().to_value();
    let mut want = BTreeSet::new();
    for (k, x) in v.as_object().unwrap() {
        match (k.as_str(), x) {
            // The breakers' settings are documented with the breaker crate.
            ("statistical" | "window", _) => {
                want.insert(k.clone());
            }
            ("dependency", Value::Array(a)) => {
                for f in a[0].as_object().unwrap().keys() {
                    want.insert(f.clone());
                }
            }
            (_, Value::Object(m)) => {
                for f in m.keys() {
                    want.insert(format!("{k}.{f}"));
                }
            }
            _ => {
                want.insert(k.clone());
            }
        }
    }
    // `dependency[i].start` is the row that introduces the phases.
    named.remove("dependency[i].start");
    named.insert("start".into());
    assert_eq!(named, want, "the table's rows and the scenario's keys");
}

#[test]
fn the_presets_table_lists_the_presets_in_order() {
    let listed: Vec<&str> = section("Presets")
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split('`').nth(1).unwrap())
        .collect();
    let have: Vec<&str> = sim::presets().iter().map(|p| p.name).collect();
    assert_eq!(listed, have);
}

#[test]
fn the_trace_example_reads_as_shown() {
    let text = block(section("Trace CSV"), "text");
    let mut r = sim::TraceReader::new(text.as_bytes());
    let mut got = vec![];
    while let Some(rec) = r.next_record().unwrap() {
        got.push((rec.time_s, rec.outcome.as_str(), rec.latency_s));
    }
    assert_eq!(
        got,
        [
            (0.2, "success", 0.05),
            (0.4, "overload", 0.12),
            (0.6, "timeout", 30.0)
        ]
    );
    // The error the README quotes, on the README's example with a bad outcome on line 3.
    let bad = text.replace("0.20,success", "0.20,teapot");
    let mut r = sim::TraceReader::new(bad.as_bytes());
    let e = r.next_record().unwrap_err().to_string();
    assert!(
        e.starts_with(
            "trace line 3, field outcome: unknown outcome \"teapot\": allowed success, timeout, "
        ),
        "{e}"
    );
}

#[test]
fn the_quoted_errors_are_the_errors() {
    let e = Scenario::read_json(r#"{"traffic": {"calls_per_minute": "fast"}}"#).unwrap_err();
    assert_eq!(
        e,
        r#"traffic.calls_per_minute = "fast" is invalid: allowed a number 1e-6 <= x <= 1e7"#
    );
    let e = Scenario::read_json(r#"{"callers": {"count": -3}}"#).unwrap_err();
    assert_eq!(
        e,
        "callers.count = -3 is invalid: allowed a whole number 1 <= x <= 1000"
    );
    let s = Scenario::default();
    let e = s.with_sets(["statistical.broken_rate=0.01"]).unwrap_err();
    assert_eq!(
        e,
        "statistical.broken_rate = 0.01 is invalid: allowed fine_rate (0.05) < x < 1"
    );
    let mut two = s.to_value();
    let phase = two["dependency"][0].clone();
    two["dependency"].as_array_mut().unwrap().push(phase);
    two["dependency"][1]["start"] = 60.into();
    two["dependency"][1]["failure_rate"] = 2.into();
    let e = serde_json::from_value::<Scenario>(two)
        .unwrap()
        .validate()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "dependency.1.failure_rate = 2 is invalid: allowed 0 <= x <= 1 (0% to 100%)"
    );
}

#[test]
fn a_run_returns_the_keys_the_readme_lists() {
    let r = sim::run(&sim::preset("recovery-warmup").unwrap(), 10).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    // (Sorted: serde_json's maps keep no order here.)
    let keys = |v: &Value| -> BTreeSet<String> { v.as_object().unwrap().keys().cloned().collect() };
    let set = |k: &[&str]| -> BTreeSet<String> { k.iter().map(|s| s.to_string()).collect() };
    let returns = section("What a run returns");
    let mentioned = |k: &str| returns.contains(&format!("`{k}`")) || returns.contains(k);
    assert_eq!(
        keys(&v),
        set(&["name", "seed", "end_s", "calls", "breakers"]),
        "RunResult's keys"
    );
    assert_eq!(keys(&v["breakers"]), set(&["statistical", "window"]));
    for b in ["statistical", "window"] {
        let b = &v["breakers"][b];
        assert_eq!(
            keys(b),
            set(&["metrics", "totals", "changes", "events", "series"])
        );
        for part in ["metrics", "totals", "changes"] {
            for k in keys(&b[part]) {
                assert!(
                    returns.contains(&format!("`{k}`")),
                    "{part}.{k} is not in the README"
                );
            }
        }
        let event = &b["events"][0];
        assert_eq!(
            keys(event),
            set(&[
                "t_s",
                "breaker",
                "caller",
                "from",
                "to",
                "generation",
                "reason",
                "detail"
            ])
        );
        for k in keys(&b["series"]) {
            // `level_min/max` names both `level_min` and `level_max`.
            let stem = k.trim_end_matches("_min").trim_end_matches("_max");
            assert!(
                mentioned(&format!("`{k}`")) || mentioned(&format!("`{stem}_min/max`")),
                "series.{k} is not in the README"
            );
        }
    }
    // The event example: the statistical breaker's first opening in this preset.
    let e = &v["breakers"]["statistical"]["events"][0];
    assert_eq!(e["reason"], "score 16.64 reached line 16.38");
    assert!(returns.contains("(`score 16.64 reached line 16.38`)"));
    assert_eq!(e["detail"]["kind"], "score_reached_line");
}

#[test]
fn the_ranges_table_is_what_validation_allows() {
    let text = section("Scenario JSON");
    let table = &text[text.find("### Ranges").expect("a Ranges table")..];
    let rows: Vec<(String, String)> = table
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let key = cells[0].trim_start_matches("| `").trim_end_matches('`');
            let allowed = cells[1].trim_end_matches(" |").replace("\\|", "|");
            (key.replace(".i.", ".0."), allowed)
        })
        .collect();
    // Every setting but the free-text ones has a row.
    let mut want = BTreeSet::new();
    paths(&Scenario::default().to_value(), "", &mut want);
    let want: BTreeSet<String> = want.iter().map(|p| p.replace("[]", ".0")).collect();
    let leaves: BTreeSet<String> = want
        .iter()
        .filter(|p| !want.iter().any(|q| q.starts_with(&format!("{p}."))))
        .filter(|p| !["name", "trace", "dependency.0.label"].contains(&p.as_str()))
        .cloned()
        .collect();
    let keys: BTreeSet<String> = rows.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys, leaves, "the Ranges table's keys");
    let base = Scenario::default();
    for (key, allowed) in &rows {
        let e = base.with_sets([format!("{key}=-1").as_str()]).unwrap_err();
        let head = format!("{key} = -1 is invalid: allowed ");
        let said = e
            .strip_prefix(&head)
            .unwrap_or_else(|| panic!("{key}: {e}"));
        // The message quotes the other setting's value; the table names the setting.
        let said = said.replace("first_wait (60)", "first_wait");
        // The outcome message lists the names the README lists above the table.
        let said = match said.split_once(" (timeout, ") {
            Some((start, _)) if key.ends_with(".failure") => start.to_string(),
            _ => said,
        };
        assert!(
            allowed.starts_with(&said),
            "{key}: README {allowed:?}, code {said:?}"
        );
    }
}
