//! Any scenario file a user can load (`breaker run --scenario`, the page's `scenario` attribute):
//! a preset's JSON with random leaves deleted, replaced by values of any type (on and past the
//! ranges' ends, huge, tiny, unicode, long), objects and lists swapped, phases repeated, written
//! compact or pretty, with CRLF line ends and a byte order mark (skipped, as the command line
//! does). Each either reads and runs (a few thousand calls) without a panic, or is refused in one
//! line naming a dotted field and what is allowed (or, for text that is not JSON, the line and
//! column). A scenario that reads, written out and read again, is the same scenario.

use proptest::prelude::*;
use serde_json::Value;
use sim::{presets, Scenario, Sim};

include!("support/typed_values.rs");

/// Extra values: unicode, invisible characters, a long string, nesting.
const ODD: &[&str] = &[
    "\"\u{fe0f}\u{200b}5%\"",
    "\"５s\"",
    "\"1e309\"",
    "\"-0s\"",
    "\"NaN\"",
    "\"Infinity\"",
    "[[[[[[[[1]]]]]]]]",
    "{\"burst\": {\"enter\": 1}}",
    "[{}, {}, {}]",
];

/// Every node's path below `v` (object keys and list indices).
fn nodes(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                at.push(k.clone());
                nodes(x, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                nodes(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |x, k| match x {
        Value::Object(m) => m.get_mut(k),
        Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
        _ => None,
    })
}

/// Apply mutation `kind` with pick `pick` at node `path` (not the root, which is kept an
/// object: a file of another type is refused by its own test).
fn mutate(v: &mut Value, path: &[String], kind: u8, pick: usize) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let Some(p) = node_mut(v, parent) else {
        return;
    };
    let text = match kind {
        0 => None,
        1 => Some(VALUES[pick % VALUES.len()].to_string()),
        2 => Some(ODD[pick % ODD.len()].to_string()),
        3 => Some(format!("\"{}\"", "x".repeat(10_000 + pick))),
        _ => {
            // Repeat the phases (each start pushed later, so that some stay valid).
            if let Some(Value::Array(a)) = v.get_mut("dependency") {
                let first = a.first().cloned().unwrap_or(Value::Null);
                for i in 0..(pick % 64) {
                    let mut ph = first.clone();
                    if let Value::Object(m) = &mut ph {
                        m.insert("start".into(), Value::from(1e5 + i as f64));
                    }
                    a.push(ph);
                }
            }
            return;
        }
    };
    match (p, text) {
        (Value::Object(m), None) => {
            m.remove(last);
        }
        (Value::Array(a), None) => {
            if let Ok(i) = last.parse::<usize>() {
                if i < a.len() {
                    a.remove(i);
                }
            }
        }
        (p, Some(t)) => {
            if let (Some(x), Ok(new)) = (
                node_mut(p, std::slice::from_ref(last)),
                serde_json::from_str(&t),
            ) {
                *x = new;
            }
        }
        _ => {}
    }
}

fn check(text: &str) -> Result<(), String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let s = match Scenario::read_json(text) {
        Ok(s) => s,
        Err(e) => return named(&e),
    };
    if let Err(e) = s.validate() {
        return named(&e.to_string());
    }
    let again = Scenario::read_json(&serde_json::to_string(&s).map_err(|e| e.to_string())?)
        .map_err(|e| format!("a valid scenario written out does not read back: {e}"))?;
    if again != s {
        return Err("a valid scenario written out reads back as another".into());
    }
    // The trace text is read when the run starts: its refusal names the trace's line.
    let mut sim = match Sim::new(&s) {
        Ok(sim) => sim,
        Err(e) if e.to_string().starts_with("trace line ") => return Ok(()),
        Err(e) => return Err(format!("valid settings refused by Sim::new: {e}")),
    };
    sim.advance(2_000);
    let _ = sim.result();
    Ok(())
}

/// A refusal in one line: `path = value is invalid: ...` (a dotted field), or JSON's own with
/// its line and column.
fn named(msg: &str) -> Result<(), String> {
    if msg.contains('\n') {
        return Err(format!("a message of more than one line: {msg:?}"));
    }
    if msg.contains(" at line ") && msg.contains(" column ") {
        return Ok(());
    }
    match msg.split_once(" = ") {
        Some((path, rest))
            if !path.is_empty()
                && !path.contains(' ')
                && rest.contains(" is invalid: ")
                && rest.len() > 20 =>
        {
            Ok(())
        }
        _ => Err(format!("a refusal that names no field: {msg:?}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_scenario_file_reads_and_runs_or_is_refused_by_name(
        preset in 0..presets().len(),
        muts in prop::collection::vec((any::<prop::sample::Index>(), 0u8..5, 0usize..1000), 1..4),
        pretty in any::<bool>(),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let mut v = presets()[preset].scenario().to_value();
        for (at, kind, pick) in muts {
            let mut all = Vec::new();
            nodes(&v, &mut Vec::new(), &mut all);
            let path = at.get(&all).clone();
            mutate(&mut v, &path, kind, pick);
        }
        let mut text = if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            serde_json::to_string(&v).unwrap()
        };
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        if bom {
            text.insert(0, '\u{feff}');
        }
        let out = std::panic::catch_unwind(|| check(&text))
            .unwrap_or_else(|_| Err("panicked".into()));
        prop_assert!(out.is_ok(), "{}: {}", out.unwrap_err(), text.chars().take(2000).collect::<String>());
    }
}
