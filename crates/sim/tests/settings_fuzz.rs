//! Any settings a user can type, through `--set` (the page and the command line edit the same
//! scenario JSON): either refused with a message naming a field and what is allowed, or run
//! without a panic (debug build: integer overflow panics too) and with the run's counts and
//! events consistent, through the page's operations (advance, seek back, next event, step back).
//!
//! Each case edits one to three leaf settings of a preset with values chosen to sit on and past
//! the ranges' ends, and of the wrong type. Runs are cut at a few thousand calls (a setting may
//! ask for 1e7 calls a minute for 30 years), and each case must end within 60 s (a loop that
//! never reaches the next call fails instead of hanging the suite).

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::Value;
use sim::{presets, BreakerKind, Scenario, Sim};

include!("support/typed_values.rs");
include!("support/leaves.rs");

/// Changes of a numeric setting's own value, so that many cases stay valid and run: `x * f`.
const SCALES: &[f64] = &[0.0, 1e-3, 0.1, 0.5, 0.9, 1.1, 2.0, 10.0, 1e3, 1e6];

/// The text for pick `v` at `path` of `base`: one of [`VALUES`], or the value there scaled by
/// one of [`SCALES`] (a non-number scaled is `VALUES[0]`).
fn value_text(base: &Value, path: &str, v: usize) -> String {
    if let Some(fixed) = VALUES.get(v) {
        return fixed.to_string();
    }
    let f = SCALES[(v - VALUES.len()) % SCALES.len()];
    let at = path
        .split('.')
        .try_fold(base, |x, k| match x {
            Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => x.get(k),
        })
        .and_then(Value::as_f64);
    match at {
        // Whole numbers stay whole (a count refuses a fraction, which a fixed value tests).
        Some(x) if x.fract() == 0.0 && (x * f).fract() != 0.0 => format!("{}", (x * f).round()),
        Some(x) => format!("{}", x * f),
        None => VALUES[0].to_string(),
    }
}

/// Each preset's scenario (no trace: a replayed trace's own errors have tests of their own) and
/// its leaf paths.
fn bases() -> Vec<(Scenario, Vec<String>)> {
    presets()
        .iter()
        .map(|p| {
            let s = p.scenario();
            let mut paths = Vec::new();
            leaves(&s.to_value(), "", &mut paths);
            paths.retain(|p| p != "trace");
            (s, paths)
        })
        .collect()
}

/// What a case found wrong, if anything.
fn check(base: &Scenario, edits: &[String]) -> Result<(), String> {
    let s = match base.with_sets(edits.iter().map(String::as_str)) {
        Ok(s) => s,
        Err(msg) => return refused_well(base, edits, &msg),
    };
    let mut sim = match Sim::new(&s) {
        Ok(sim) => sim,
        Err(e) => return Err(format!("valid settings refused by Sim::new: {e}")),
    };
    sim.set_checkpoints(500, 8);
    let done = sim.advance(3_000);
    let now = sim.now_s();
    if !(now >= 0.0 && now <= s.duration) {
        return Err(format!("time {now} outside [0, {}]", s.duration));
    }
    consistent(&sim, "after advance")?;
    if !done && sim.calls() != 3_000 {
        return Err(format!(
            "advance(3000) stopped after {} calls, not done",
            sim.calls()
        ));
    }
    let calls = sim.calls();
    sim.seek(now / 2.0);
    if sim.now_s() > now / 2.0 + 1e-9 || sim.calls() > calls {
        return Err(format!(
            "seek({}) stood at {} after {} calls",
            now / 2.0,
            sim.now_s(),
            sim.calls()
        ));
    }
    let _ = sim.next_event_by(now);
    sim.step_back();
    let _ = sim.step_call();
    consistent(&sim, "after seeking back and stepping")?;
    let _ = sim.snapshot();
    Ok(())
}

/// A refusal names a field of the scenario (the edited one, or one it is checked against) and
/// what is allowed, in the forms `path = value is invalid: ...` or `--set EDIT: ...` (quoting
/// one of the edits).
fn refused_well(base: &Scenario, edits: &[String], msg: &str) -> Result<(), String> {
    if let Some(rest) = msg.strip_prefix("--set ") {
        return match edits.iter().find(|e| rest.starts_with(&format!("{e}: "))) {
            Some(e) if rest.len() > e.len() + 12 => Ok(()),
            _ => Err(format!(
                "a --set message quoting no edit, or saying nothing: {msg:?}"
            )),
        };
    }
    let Some((path, rest)) = msg.split_once(" = ") else {
        return Err(format!("message names no field: {msg:?}"));
    };
    // What is allowed: a range (`allowed 0 <= x <= 1`) or the form wanted (`a count is
    // written as a whole number ...`).
    match rest.split_once(" is invalid: ") {
        Some((_, why)) if why.len() >= 10 => {}
        _ => return Err(format!("message says nothing of what is allowed: {msg:?}")),
    }
    let mut known = Vec::new();
    leaves(&base.to_value(), "", &mut known);
    // A field the edit made (an unknown key is refused by its parent's message) or a list.
    let first = path.split('.').next().unwrap_or("");
    if known
        .iter()
        .any(|k| k == path || k.starts_with(&format!("{path}.")))
        || ["dependency", "statistical", "window", "traffic", "callers"].contains(&first)
    {
        Ok(())
    } else {
        Err(format!("message names {path:?}, not a field: {msg:?}"))
    }
}

/// The counts and events of both breakers agree with each other and with the clock.
fn consistent(sim: &Sim, when: &str) -> Result<(), String> {
    let r = sim.result();
    for kind in BreakerKind::ALL {
        let b = r.breakers.get(kind);
        let t = &b.totals;
        let name = kind.as_str();
        if t.calls != sim.calls() {
            return Err(format!(
                "{when}: {name} saw {} calls of {}",
                t.calls,
                sim.calls()
            ));
        }
        if t.admitted + t.to_fallback != t.calls {
            return Err(format!(
                "{when}: {name}: admitted {} + fallback {} != calls {}",
                t.admitted, t.to_fallback, t.calls
            ));
        }
        if t.answered + t.failed > t.admitted
            || t.trials > t.admitted
            || t.results_counted + t.results_neutral > t.answered + t.failed
        {
            return Err(format!("{when}: {name}: totals out of order: {t:?}"));
        }
        let mut last = f64::NEG_INFINITY;
        for e in &b.events {
            if !(e.t_s >= last && e.t_s <= sim.now_s() + 1e-9) {
                return Err(format!(
                    "{when}: {name}: event at {} after {last}, now {}",
                    e.t_s,
                    sim.now_s()
                ));
            }
            last = e.t_s;
        }
    }
    Ok(())
}

/// One to three edits: a leaf (an index into however many the preset has) and a value pick
/// (three scaled values for each fixed one, so that many cases run).
fn edits() -> impl Strategy<Value = Vec<(prop::sample::Index, usize)>> {
    prop::collection::vec((any::<prop::sample::Index>(), 0..4 * VALUES.len()), 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_typed_setting_is_refused_by_name_or_runs_without_a_panic(
        preset in 0..presets().len(),
        picks in edits(),
    ) {
        let (base, paths) = bases().swap_remove(preset);
        let value = base.to_value();
        let sets: Vec<String> = picks
            .iter()
            .map(|(p, v)| {
                let (path, v) = (p.get(&paths), *v);
                format!("{path}={}", value_text(&value, path, v))
            })
            .collect();
        let (tx, rx) = mpsc::channel();
        let job = sets.clone();
        thread::spawn(move || {
            let out = std::panic::catch_unwind(|| check(&base, &job))
                .unwrap_or_else(|p| Err(format!("panicked: {}", p
                    .downcast_ref::<String>().cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default())));
            let _ = tx.send(out);
        });
        // A case that never ends would leave its thread spinning, and shrinking would try more
        // like it, each waiting its minute: the binary stops at the first, saying which.
        let Ok(out) = rx.recv_timeout(Duration::from_secs(60)) else {
            eprintln!("no answer within 60 s: --set {}", sets.join(" --set "));
            std::process::exit(101);
        };
        prop_assert!(out.is_ok(), "{}: --set {}", out.unwrap_err(), sets.join(" --set "));
    }
}
