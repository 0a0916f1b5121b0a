//! The wasm API in a real browser: `wasm-pack test --headless --chrome crates/wasm`
//! (or `--firefox`). Settings round trip, validation errors that name the field, and determinism:
//! every preset's trace hash in wasm equals the native one (both pinned in `sim::GOLDEN_TRACE_HASHES`).
#![cfg(target_arch = "wasm32")]

use breaker_wasm::{analysis, default_scenario, normalize_scenario, presets, Playground};
use js_sys::{Float64Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON parses")
}

fn json_of(v: &JsValue) -> serde_json::Value {
    let text: String = JSON::stringify(v).expect("stringify").into();
    serde_json::from_str(&text).expect("JSON from JS")
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn error_message(r: Result<Playground, JsError>) -> String {
    let e = match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => JsValue::from(e),
    };
    assert!(e.is_instance_of::<js_sys::Error>(), "a JS Error");
    get(&e, "message").as_string().expect("message")
}

fn preset_list() -> Vec<(String, serde_json::Value)> {
    let list = json_of(&presets().expect("presets"));
    list.as_array()
        .expect("a list")
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["scenario"].clone(),
            )
        })
        .collect()
}

#[wasm_bindgen_test]
fn settings_round_trip() {
    for (name, scenario) in preset_list() {
        let text = scenario.to_string();
        let back = json_of(&normalize_scenario(js(&text)).expect("a preset is valid"));
        assert_eq!(back, scenario, "preset {name} round trips");
        let pg = Playground::new(js(&text)).expect("builds");
        assert_eq!(json_of(&pg.scenario().unwrap()), scenario, "{name}");
    }
    // Missing fields take their defaults; units as people write them are read.
    let filled = json_of(
        &normalize_scenario(js(
            r#"{"seed": 7, "duration": "2m", "statistical": {"fine_rate": "2%"}}"#,
        ))
        .unwrap(),
    );
    assert_eq!(filled["seed"], 7);
    assert_eq!(filled["duration"], 120.0);
    assert_eq!(filled["statistical"]["fine_rate"], 0.02);
    assert_eq!(filled["statistical"]["broken_rate"], 0.2);
    assert_eq!(filled["window"]["sliding_window_size"], 100);
}

#[wasm_bindgen_test]
fn validation_errors_name_the_field_and_range() {
    let m = error_message(Playground::new(js(
        r#"{"statistical": {"fine_rate": 0.05, "broken_rate": 0.01}}"#,
    )));
    assert!(
        m.starts_with("statistical.broken_rate = 0.01 is invalid"),
        "{m}"
    );
    assert!(m.contains("allowed fine_rate (0.05) < x < 1"), "{m}");

    let m = error_message(Playground::new(js(
        r#"{"dependency": [{"start": 0}, {"start": 10, "failure_rate": 2}]}"#,
    )));
    assert!(
        m.starts_with("dependency.1.failure_rate = 2 is invalid"),
        "{m}"
    );
    assert!(m.contains("allowed"), "{m}");

    let m = error_message(Playground::new(js(
        r#"{"window": {"sliding_window_size": 0}}"#,
    )));
    assert!(
        m.starts_with("window.sliding_window_size = 0 is invalid"),
        "{m}"
    );
    assert!(m.contains("1 <= x <= 1000000"), "{m}");

    // Type errors and unknown keys name the field too.
    let m = error_message(Playground::new(js(
        r#"{"statistical": {"fine_rate": "lots"}}"#,
    )));
    assert!(
        m.starts_with("statistical.fine_rate = \"lots\" is invalid"),
        "{m}"
    );
    let m = error_message(Playground::new(js(r#"{"traffic": {"calls_per_hour": 5}}"#)));
    assert!(
        m.starts_with("traffic.calls_per_hour = 5 is invalid"),
        "{m}"
    );
    assert!(m.contains("unknown field"), "{m}");
    let m = error_message(Playground::new(js("[1, 2]")));
    assert!(m.contains("an object of settings"), "{m}");
}

/// A dependency's capacity up to its allowed 1e9 calls/s runs in the page's 32-bit wasm. Before,
/// the simulator reserved room for that many successes up front, and at 3e8 (2.4 GB) the wasm
/// panicked with "capacity overflow".
#[wasm_bindgen_test]
fn the_largest_capacity_runs() {
    let mut pg = Playground::new(js(
        r#"{"duration": 60, "dependency": [{"start": 0, "capacity": 1e9}]}"#,
    ))
    .expect("builds");
    while !pg.finished() {
        pg.advance(100_000.0);
    }
    let m = json_of(&pg.metrics().unwrap());
    assert!(m.to_string().contains("calls"), "{m}");
}

/// JSON text of a native value as the browser reads it: `serde_json` prints every number as its
/// shortest round-trip text, so `JSON.stringify(JSON.parse(..))` of it is bit-exact and in
/// `serde_json`'s (sorted) key order.
fn native_text(v: &serde_json::Value) -> String {
    JSON::stringify(&js(&v.to_string())).unwrap().into()
}

// The values the native settings fuzz test types (`VALUES`).
include!("../../sim/tests/support/typed_values.rs");

/// Each leaf of `v` as a dotted path (`dependency.1.burst.enter`).
fn leaves(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| leaves(x, &join(k), out)),
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, &join(&i.to_string()), out);
            }
        }
        _ => out.push(prefix.to_string()),
    }
}

/// Whether `v` holds a whole number past 2^53 - 1 (which JS does not hold exactly).
fn past_2_53(v: &serde_json::Value) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    match v {
        serde_json::Value::Number(n) => n
            .as_f64()
            .is_some_and(|x| x.fract() == 0.0 && x.abs() > MAX),
        serde_json::Value::Array(a) => a.iter().any(past_2_53),
        serde_json::Value::Object(m) => m.values().any(past_2_53),
        _ => false,
    }
}

/// Settings edited at random (the values of `sim/tests/settings_fuzz.rs`: on and past the
/// ranges' ends, of the wrong type, in unit forms) are read by the page as by the command line:
/// `Playground::new` on the JS object accepts exactly what `Scenario::from_json` and
/// `Sim::new` accept on the same JSON as the browser prints it, and refuses with the same
/// message (a u64's range ends at 2^53 - 1 in JS). Deterministic: a fixed xorshift picks the
/// presets, fields and values.
#[wasm_bindgen_test]
fn random_edits_are_read_as_the_cli_reads_them() {
    let presets = preset_list();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut pick = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let (mut accepted, mut refused) = (0, 0);
    let mut mismatches = Vec::new();
    for case in 0..600 {
        let (name, base) = &presets[pick(presets.len())];
        let mut v = base.clone();
        let mut paths = Vec::new();
        leaves(&v, "", &mut paths);
        for _ in 0..1 + pick(3) {
            let path = &paths[pick(paths.len())];
            let value: serde_json::Value =
                serde_json::from_str(VALUES[pick(VALUES.len())]).expect("a JSON value");
            let slot = path
                .split('.')
                .try_fold(&mut v, |at, k| match at {
                    serde_json::Value::Array(a) => {
                        k.parse::<usize>().ok().and_then(|i| a.get_mut(i))
                    }
                    other => other.get_mut(k),
                })
                .expect("a leaf of the preset");
            *slot = value;
        }
        let obj = js(&v.to_string());
        let as_js: String = JSON::stringify(&obj).unwrap().into();
        let native = sim::Scenario::from_json(&as_js)
            .and_then(|s| sim::Sim::new(&s).map(|_| ()).map_err(|e| e.to_string()))
            .map_err(|e| e.replace("18446744073709551615", "9007199254740991"));
        let page = Playground::new(obj).map(|_| ()).map_err(|e| {
            get(&JsValue::from(e), "message")
                .as_string()
                .expect("message")
        });
        if page.is_ok() {
            accepted += 1;
        } else {
            refused += 1;
        }
        // A whole number past 2^53 - 1 is a float to the page (JS does not hold it exactly,
        // so no count takes it) and an integer to the command line: where it is refused, the
        // two may say different things of what is allowed, but both name the field and value.
        let inexact = past_2_53(&serde_json::from_str(&as_js).expect("JSON"));
        let same = if inexact {
            let head = |r: &Result<(), String>| {
                r.as_ref()
                    .err()
                    .and_then(|m| m.split_once(" is invalid: "))
                    .map(|(h, _)| h.to_string())
            };
            // A whole-number setting's range ends there on the page (`seed`).
            let js_range = page
                .as_ref()
                .is_err_and(|m| m.ends_with("allowed a whole number 0 <= x <= 9007199254740991"));
            js_range || (page.is_ok() == native.is_ok() && head(&page) == head(&native))
        } else {
            page == native
        };
        if !same {
            mismatches.push(format!(
                "case {case}: {name}: page {page:?}, CLI {native:?}"
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of 600 differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    // Both kinds of answer were compared, many times each (49 accepted since a slow-call
    // duration of 0 is refused; 50 before).
    assert!(
        accepted >= 40 && refused >= 300,
        "{accepted} accepted, {refused} refused"
    );
}

/// A long list or object in a refused scenario (a run's result opened as one) is quoted as the
/// command line quotes it: its entries up to 80 bytes of text, then `...`; a long string, in
/// part with its length. The page quoted them whole (27,419 characters for a run of
/// recovery-warmup).
#[wasm_bindgen_test]
fn a_long_value_is_quoted_in_part_as_natively() {
    let events: Vec<String> = (0..1000)
        .map(|i| format!(r#"{{"t_s":{i},"to":"open","x":-{i}.5}}"#))
        .collect();
    for text in [
        format!(
            r#"{{"breakers": {{"events": [{}], "n": 1}}}}"#,
            events.join(",")
        ),
        format!(r#"{{"duration": [{}]}}"#, events.join(",")),
        format!("[{}]", events.join(",")),
        r#"{"statistical": {"fine_rate": [1, -2, 3.5, "four", null, true, [], {}]}}"#.to_string(),
        format!(r#"{{"callers": {{"count": "{}"}}}}"#, "a".repeat(100_000)),
        format!(
            r#"{{"statistical": {{"fine_rate": "{}"}}}}"#,
            "é\\\"\\\\".repeat(30)
        ),
        format!(r#"{{"breakers": [{{"name": "{}"}}]}}"#, "x".repeat(81)),
        format!(r#"{{"breakers": {{"{}": 1}}}}"#, "k".repeat(100)),
    ] {
        let native = sim::Scenario::from_json(&text).unwrap_err();
        let page = Playground::new(js(&text)).err().expect("refused");
        let page = get(&JsValue::from(page), "message").as_string().unwrap();
        assert_eq!(page, native);
        assert!(page.len() < 400, "{page}");
    }
}

#[wasm_bindgen_test]
fn presets_and_defaults_read_as_natively() {
    // The wasm reads the presets' JSON with the browser's JSON.parse, natively serde_json reads
    // it (`sim::Preset::scenario`): the same numbers to the last bit, keys in the same order.
    let list = presets().unwrap();
    let list: &js_sys::Array = list.unchecked_ref();
    assert_eq!(list.length() as usize, sim::presets().len());
    for (i, p) in sim::presets().iter().enumerate() {
        let got: String = JSON::stringify(&get(&list.get(i as u32), "scenario"))
            .unwrap()
            .into();
        assert_eq!(
            got,
            native_text(&p.scenario().to_value()),
            "preset {}",
            p.name
        );
    }
    let got: String = JSON::stringify(&default_scenario().unwrap())
        .unwrap()
        .into();
    assert_eq!(got, native_text(&sim::Scenario::default().to_value()));
}

#[wasm_bindgen_test]
fn type_errors_read_as_the_cli_reads_them() {
    // The wasm reads settings from JS values itself; its messages are the CLI's for the same
    // JSON (`sim::Scenario::read_json`): serde_json's words where they say what is allowed, and
    // `allowed ...` (`sim::allowed::explain`) for a value of a type the field does not take.
    for (given, path, leaf) in [
        (
            r#"{"statistical": {"fine_rate": "lots"}}"#,
            "statistical.fine_rate",
            "\"lots\"",
        ),
        (
            r#"{"traffic": {"calls_per_hour": 5}}"#,
            "traffic.calls_per_hour",
            "5",
        ),
        (r#"{"seed": 1.5}"#, "seed", "1.5"),
        (r#"{"seed": -3}"#, "seed", "-3"),
        (
            r#"{"traffic": {"arrivals": "sometimes"}}"#,
            "traffic.arrivals",
            "\"sometimes\"",
        ),
        (r#"{"traffic": {"arrivals": 3}}"#, "traffic.arrivals", "3"),
        (r#"{"traffic": null}"#, "traffic", "null"),
        (
            r#"{"dependency": [{"start": 0, "condition": true}]}"#,
            "dependency.0.condition",
            "true",
        ),
        (
            r#"{"window": {"sliding_window_size": [1, 2]}}"#,
            "window.sliding_window_size",
            "[1,2]",
        ),
        // Every kind given to a struct, a list, a number, a string, a boolean and an optional
        // string, including strings that need escaping.
        (
            r#"{"statistical": "fa\"st\n\u00e9"}"#,
            "statistical",
            r#""fa\"st\né""#,
        ),
        (r#"{"callers": 3}"#, "callers", "3"),
        (r#"{"traffic": true}"#, "traffic", "true"),
        (
            r#"{"statistical": [0.01, "x"]}"#,
            "statistical",
            r#"[0.01,"x"]"#,
        ),
        (r#"{"dependency": 7}"#, "dependency", "7"),
        (r#"{"dependency": "all"}"#, "dependency", r#""all""#),
        (
            r#"{"window": {"sliding_window_size": 2.5}}"#,
            "window.sliding_window_size",
            "2.5",
        ),
        (
            r#"{"window": {"sliding_window_size": "10"}}"#,
            "window.sliding_window_size",
            r#""10""#,
        ),
        // Halfway between two shortest texts: the even one, as serde_json and JS write it
        // (Rust's `Display` gives ...5.3).
        (
            r#"{"window": {"sliding_window_size": 1709292416539055.25}}"#,
            "window.sliding_window_size",
            "1709292416539055.2",
        ),
        (
            r#"{"name": 125163056381840.125}"#,
            "name",
            "125163056381840.12",
        ),
        (r#"{"callers": {"count": -1}}"#, "callers.count", "-1"),
        (r#"{"name": 5}"#, "name", "5"),
        (r#"{"name": ["a"]}"#, "name", r#"["a"]"#),
        (r#"{"trace": false}"#, "trace", "false"),
        (r#"{"duration": {}}"#, "duration", "{}"),
        (
            r#"{"callers": {"shared_state": "yes"}}"#,
            "callers.shared_state",
            r#""yes""#,
        ),
        (
            r#"{"callers": {"shared_state": 1}}"#,
            "callers.shared_state",
            "1",
        ),
        (
            r#"{"dependency": [{"start": 0, "failure": null}]}"#,
            "dependency.0.failure",
            "null",
        ),
        (
            r#"{"dependency": [{"start": 0, "failure": [503]}]}"#,
            "dependency.0.failure",
            "[503]",
        ),
        // Another invalid field (a negative duration) does not hide the range.
        (
            r#"{"callers": {"count": -3}, "duration": -5}"#,
            "callers.count",
            "-3",
        ),
        (
            r#"{"traffic": {"calls_per_minute": "fast"}, "duration": -5}"#,
            "traffic.calls_per_minute",
            "\"fast\"",
        ),
    ] {
        // A JS number gives whole numbers exactly up to 2^53 - 1 only, so that is the largest
        // seed the page can give (JSON text can give any u64).
        let native = sim::Scenario::read_json(given)
            .unwrap_err()
            .replace("18446744073709551615", "9007199254740991");
        let m = error_message(Playground::new(js(given)));
        assert_eq!(m, native, "{given}");
        assert!(
            m.starts_with(&format!("{path} = {leaf} is invalid: ")),
            "{m}"
        );
    }
}

fn analysis_error(statistical: &str, window: &str, options: &str) -> String {
    let e = match analysis(js(statistical), js(window), js(options)) {
        Ok(_) => panic!("expected an error"),
        Err(e) => JsValue::from(e),
    };
    get(&e, "message").as_string().expect("message")
}

/// A value of a type the field does not take is named with what the field allows, in the CLI's
/// words: a count with its range from validation.
#[wasm_bindgen_test]
fn wrong_kinds_say_what_is_allowed() {
    for (given, want) in [
        (
            js(r#"{"callers": {"count": -3}}"#),
            "callers.count = -3 is invalid: allowed a whole number 1 <= x <= 1000",
        ),
        (
            js(r#"{"callers": {"count": 2.5}}"#),
            "callers.count = 2.5 is invalid: allowed a whole number 1 <= x <= 1000",
        ),
        (
            js(r#"{"window": {"sliding_window_size": 1e12}}"#),
            "window.sliding_window_size = 1000000000000 is invalid: allowed a whole number \
             1 <= x <= 1000000 calls (COUNT_BASED)",
        ),
        (
            js(r#"{"window": {"random_seed": -1}}"#),
            "window.random_seed = -1 is invalid: allowed a whole number 0 <= x <= 9007199254740991",
        ),
        // Whole, but beyond what a JS number holds exactly (read as a float): the range a JS
        // number can give, not the CLI's hint to write it without the exponent (in JS,
        // 100000000000000000 is the same number), and the value as the browser's JSON text
        // writes it and the command line shows that text (before, `1e+17`).
        (
            js(r#"{"seed": 1e17}"#),
            "seed = 100000000000000000 is invalid: allowed a whole number 0 <= x <= \
             9007199254740991",
        ),
        (
            js(r#"{"callers": {"count": "abc"}}"#),
            r#"callers.count = "abc" is invalid: allowed a whole number 1 <= x <= 1000"#,
        ),
        (
            js(r#"{"callers": {"count": {"a": 1}}}"#),
            r#"callers.count = {"a":1} is invalid: allowed a whole number 1 <= x <= 1000"#,
        ),
        (
            js(r#"{"traffic": {"calls_per_minute": "fast"}}"#),
            r#"traffic.calls_per_minute = "fast" is invalid: allowed a number 1e-6 <= x <= 1e7"#,
        ),
        (
            js(r#"{"traffic": {"calls_per_minute": {"per": "hour"}}}"#),
            r#"traffic.calls_per_minute = {"per":"hour"} is invalid: allowed a number 1e-6 <= x <= 1e7"#,
        ),
        (
            js(r#"{"dependency": [{"start": 0}, {"start": 10, "latency": []}]}"#),
            "dependency.1.latency = [] is invalid: allowed a number of seconds or a string with a \
             unit (200ms, 5s, 1m, 1h, 30d), 0 <= x <= 1e9 seconds",
        ),
        (
            js(r#"{"traffic": {"arrivals": 3}}"#),
            "traffic.arrivals = 3 is invalid: allowed `poisson` or `even`",
        ),
    ] {
        assert_eq!(error_message(Playground::new(given)), want);
    }
    // NaN (and Infinity, undefined) read as null, as JSON.stringify writes them.
    let o = js(r#"{"callers": {}}"#);
    Reflect::set(
        &get(&o, "callers"),
        &"count".into(),
        &JsValue::from_f64(f64::NAN),
    )
    .unwrap();
    assert_eq!(
        error_message(Playground::new(o)),
        "callers.count = null is invalid: allowed a whole number 1 <= x <= 1000"
    );
    // A key whose value is undefined is left out, as JSON.stringify leaves it out: its field
    // takes its default (it was refused as "seed = null", where the JSON is `{}`).
    let o = js(r#"{"seed": 5, "traffic": {}, "dependency": [{"start": 0}], "x": 1}"#);
    for (on, key) in [
        (o.clone(), "seed"),
        (get(&o, "traffic"), "calls_per_minute"),
        (get(&get(&o, "dependency"), "0"), "label"),
        (o.clone(), "name"),
        (o.clone(), "x"),
    ] {
        Reflect::set(&on, &key.into(), &JsValue::UNDEFINED).unwrap();
    }
    assert_eq!(
        json_of(&normalize_scenario(o).expect("undefined keys are absent")),
        json_of(&normalize_scenario(js(r#"{"dependency": [{"start": 0}]}"#)).unwrap())
    );
    // A key with a lone surrogate is refused as the unknown field it is: its text (with U+FFFD)
    // looked its value up under another key, found undefined, and dropped it (seed 1 ran).
    for (given, want) in [
        (
            r#"{"seed\ud800": 5}"#,
            "seed\u{FFFD} = 5 is invalid: unknown field `seed\u{FFFD}`",
        ),
        (
            r#"{"window": {"sliding_window_size\udc00": 7}}"#,
            "window.sliding_window_size\u{FFFD} = 7 is invalid: unknown field",
        ),
    ] {
        let m = error_message(Playground::new(js(given)));
        assert!(m.starts_with(want), "{given}: {m}");
    }
    let opts = js_sys::Object::new();
    Reflect::set(&opts, &"calls_per_minute".into(), &JsValue::UNDEFINED).unwrap();
    let st = get(&default_scenario().unwrap(), "statistical");
    let win = get(&default_scenario().unwrap(), "window");
    assert_eq!(
        json_of(&analysis(st.clone(), win.clone(), opts.into()).expect("the default traffic")),
        json_of(&analysis(st, win, js("{}")).unwrap())
    );
    // A whole number is a whole number however it was written: 1e2 === 100.0 === 100 in JS
    // (the CLI's hint about the spelling cannot apply), and -0 is 0.
    for (given, path, want) in [
        (r#"{"callers": {"count": 1e2}}"#, "/callers/count", 100u64),
        (r#"{"callers": {"count": 100.0}}"#, "/callers/count", 100),
        (r#"{"seed": 9007199254740991}"#, "/seed", 9007199254740991),
        (
            r#"{"window": {"random_seed": -0}}"#,
            "/window/random_seed",
            0,
        ),
    ] {
        let s = json_of(&normalize_scenario(js(given)).expect("a whole number in range"));
        assert_eq!(s.pointer(path), Some(&want.into()), "{given}");
    }
}

/// The breaker settings and the analysis options passed alone (the page's curves) are named
/// and explained the same way, under their own name.
#[wasm_bindgen_test]
fn settings_passed_alone_say_what_is_allowed() {
    for (st, win, opts, want) in [
        (
            "{}",
            r#"{"sliding_window_size": -4}"#,
            "null",
            "window.sliding_window_size = -4 is invalid: allowed a whole number 1 <= x <= 1000000 \
         calls (COUNT_BASED)",
        ),
        (
            "{}",
            r#"{"minimum_number_of_calls": 2.5}"#,
            "null",
            "window.minimum_number_of_calls = 2.5 is invalid: allowed a whole number \
             1 <= x <= 1000000",
        ),
        (
            "{}",
            r#"{"permitted_number_of_calls_in_half_open_state": "ten"}"#,
            "null",
            r#"window.permitted_number_of_calls_in_half_open_state = "ten" is invalid: allowed a whole number 1 <= x <= 1000000"#,
        ),
        (
            "{}",
            r#"{"random_seed": -1}"#,
            "null",
            "window.random_seed = -1 is invalid: allowed a whole number 0 <= x <= 9007199254740991",
        ),
        (
            r#"{"fine_rate": true}"#,
            "{}",
            "null",
            r#"statistical.fine_rate = true is invalid: allowed a fraction or a percentage (0.05 or "5%"), 0 < x < 1"#,
        ),
        (
            r#"{"backoff_factor": "x"}"#,
            "{}",
            "null",
            r#"statistical.backoff_factor = "x" is invalid: allowed a number 1 <= x <= 1000"#,
        ),
        (
            r#"{"fine_rate": 0.5, "broken_rate": 0.1}"#,
            "{}",
            "null",
            "statistical.broken_rate = 0.1 is invalid: allowed fine_rate (0.5) < x < 1",
        ),
        (
            "{}",
            "{}",
            r#"{"calls_per_minute": "x"}"#,
            r#"options.calls_per_minute = "x" is invalid: allowed a number 1e-12 <= x <= 1e12"#,
        ),
        // The traffic's range, as the scenario's takes it: the curves were drawn for any number
        // ("-216000 calls per false-alarm period", "inf nats").
        (
            "{}",
            "{}",
            r#"{"calls_per_minute": -5}"#,
            "options.calls_per_minute = -5 is invalid: allowed 1e-12 <= x <= 1e12",
        ),
        (
            "{}",
            "{}",
            r#"{"calls_per_minute": 0}"#,
            "options.calls_per_minute = 0 is invalid: allowed 1e-12 <= x <= 1e12",
        ),
        (
            "{}",
            "{}",
            r#"{"calls_per_minute": 1e308}"#,
            "options.calls_per_minute = 1e308 is invalid: allowed 1e-12 <= x <= 1e12",
        ),
        // Far below the floor, where the times once overflowed to "inf" years.
        (
            "{}",
            "{}",
            r#"{"calls_per_minute": 1e-305}"#,
            "options.calls_per_minute = 1e-305 is invalid: allowed 1e-12 <= x <= 1e12",
        ),
        (
            "{}",
            "5",
            "null",
            "window = 5 is invalid: allowed an object of settings",
        ),
    ] {
        assert_eq!(analysis_error(st, win, opts), want, "{st} {win} {opts}");
    }
    assert!(analysis(js("{}"), js("{}"), js(r#"{"calls_per_minute": 60}"#)).is_ok());
    assert!(analysis(js("{}"), js("{}"), js(r#"{"calls_per_minute": 1e7}"#)).is_ok());
    // The traffic one breaker sees, which the command line's curves take: 1e-6 calls/min
    // split between two callers, and a replayed trace's 1.2e8 (both were refused).
    assert!(analysis(js("{}"), js("{}"), js(r#"{"calls_per_minute": 5e-7}"#)).is_ok());
    assert!(analysis(js("{}"), js("{}"), js(r#"{"calls_per_minute": 1.2e8}"#)).is_ok());
}

/// `{"a": {"a": ... leaf}}`, `levels` objects deep.
fn nest(levels: usize, leaf: JsValue) -> JsValue {
    (0..levels).fold(leaf, |inner, _| {
        let o = js_sys::Object::new();
        Reflect::set(&o, &"a".into(), &inner).unwrap();
        o.into()
    })
}

/// A copy of the default scenario with `value` set at `path` (dotted, objects only).
fn default_with(path: &str, value: &JsValue) -> JsValue {
    let sc = default_scenario().unwrap();
    let keys: Vec<&str> = path.split('.').collect();
    let (last, up) = keys.split_last().unwrap();
    let parent = up.iter().fold(sc.clone(), |o, k| get(&o, k));
    Reflect::set(&parent, &JsValue::from_str(last), value).unwrap();
    sc
}

fn any_error<T>(r: Result<T, JsError>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => get(&JsValue::from(e), "message")
            .as_string()
            .expect("message"),
    }
}

const TOO_DEEP: &str = "is invalid: nested too deep: at most 127 levels of objects and lists";

/// Settings nested deeper than the 127 levels JSON reads, or holding themselves (`s.name = s`),
/// are refused naming the field, as the command line refuses such a file ("recursion limit
/// exceeded"). Before, the reader and the messages recursed into them: the stack overflowed in
/// the wasm (a JS RangeError or a trap, no panic), which left the wasm's stack pointer behind,
/// and after two or three such calls every call of the module failed, `defaultScenario()` too
/// ("memory access out of bounds"). The boundary is the command line's: 127 levels in all read.
#[wasm_bindgen_test]
fn settings_nested_too_deep_or_holding_themselves_are_refused_naming_the_field() {
    // 125 objects at callers.count: 127 levels with the scenario and callers, read as JSON is.
    let m = any_error(normalize_scenario(default_with(
        "callers.count",
        &nest(125, JsValue::from_f64(1.0)),
    )));
    assert!(
        m.starts_with(r#"callers.count = {"a":{"a":"#) && m.contains("allowed a whole number"),
        "{m}"
    );
    let m = any_error(normalize_scenario(default_with(
        "callers.count",
        &nest(126, JsValue::from_f64(1.0)),
    )));
    assert!(
        m.starts_with(&format!("callers.count = {{…}} {TOO_DEEP}")),
        "{m}"
    );

    let deep = nest(100_000, JsValue::from_f64(1.0));
    let selfish = js_sys::Object::new();
    Reflect::set(&selfish, &"o".into(), &selfish).unwrap();
    let list = js_sys::Array::new();
    list.push(&list);
    for _ in 0..5 {
        for (path, value, field) in [
            ("name", &deep, "name = {…}"),
            (
                "statistical.fine_rate",
                &deep,
                "statistical.fine_rate = {…}",
            ),
            ("duration", &selfish.clone().into(), "duration = {…}"),
            ("callers.count", &list.clone().into(), "callers.count = […]"),
            ("dependency", &list.clone().into(), "dependency = […]"),
            (
                "traffic.nope",
                &selfish.clone().into(),
                "traffic.nope = {…}",
            ),
        ] {
            let m = any_error(normalize_scenario(default_with(path, value)));
            assert!(m.starts_with(&format!("{field} {TOO_DEEP}")), "{path}: {m}");
            let m = any_error(Playground::new(default_with(path, value)));
            assert!(m.starts_with(&format!("{field} {TOO_DEEP}")), "{path}: {m}");
        }
        // The scenario holding itself, as a field and as a list entry; a list holding itself.
        let sc = default_scenario().unwrap();
        Reflect::set(&sc, &"name".into(), &sc).unwrap();
        let m = any_error(normalize_scenario(sc.clone()));
        assert!(m.starts_with(&format!("name = {{…}} {TOO_DEEP}")), "{m}");
        let phases = get(&sc, "dependency");
        Reflect::set(&get(&phases, "0"), &"label".into(), &sc).unwrap();
        Reflect::set(&sc, &"name".into(), &"x".into()).unwrap();
        let m = any_error(normalize_scenario(sc));
        assert!(
            m.starts_with(&format!("dependency.0.label = {{…}} {TOO_DEEP}")),
            "{m}"
        );
        let m = any_error(normalize_scenario(list.clone().into()));
        assert!(m.starts_with(&format!("scenario = […] {TOO_DEEP}")), "{m}");
        // The curves' settings and options.
        let m = any_error(analysis(
            get(
                &default_with("statistical.fine_rate", &selfish.clone().into()),
                "statistical",
            ),
            get(&default_scenario().unwrap(), "window"),
            JsValue::UNDEFINED,
        ));
        assert!(
            m.starts_with(&format!("statistical.fine_rate = {{…}} {TOO_DEEP}")),
            "{m}"
        );
        let m = any_error(analysis(
            get(&default_scenario().unwrap(), "statistical"),
            get(&default_scenario().unwrap(), "window"),
            nest(200, JsValue::from_f64(60.0)),
        ));
        assert!(
            m.starts_with(&format!("options.a = {{…}} {TOO_DEEP}")),
            "{m}"
        );
    }
    // The module is whole: a preset runs to its pinned hash.
    hashes_as_natively("recovery-warmup");
}

/// Run preset `name` in wasm, in chunks as the worker does, and compare its trace hash with the
/// pinned native one.
fn hashes_as_natively(name: &str) {
    let want = sim::GOLDEN_TRACE_HASHES
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no golden hash for {name}"))
        .1;
    let (_, scenario) = preset_list()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no preset {name}"));
    let mut pg = Playground::new(js(&scenario.to_string())).unwrap();
    while pg.advance(99_991.0) < 1.0 {}
    assert!(pg.finished());
    assert_eq!(
        pg.trace_hash(),
        want,
        "preset {name}: wasm trace hash = native"
    );
}

#[wasm_bindgen_test]
fn every_preset_has_a_golden_hash() {
    let names: Vec<String> = preset_list().into_iter().map(|(n, _)| n).collect();
    let pinned: Vec<&str> = sim::GOLDEN_TRACE_HASHES.iter().map(|g| g.0).collect();
    assert_eq!(names, pinned);
}

// One test per preset, so each has the whole test timeout (busy-service is 26 million calls).
#[wasm_bindgen_test]
fn hash_recovery_warmup() {
    hashes_as_natively("recovery-warmup");
}
#[wasm_bindgen_test]
fn hash_normal_week() {
    hashes_as_natively("normal-week");
}
#[wasm_bindgen_test]
fn hash_bad_day() {
    hashes_as_natively("bad-day");
}
#[wasm_bindgen_test]
fn hash_quiet_service() {
    hashes_as_natively("quiet-service");
}
#[wasm_bindgen_test]
fn hash_busy_service() {
    hashes_as_natively("busy-service");
}
#[wasm_bindgen_test]
fn hash_bursty_failures() {
    hashes_as_natively("bursty-failures");
}
#[wasm_bindgen_test]
fn hash_late_results() {
    hashes_as_natively("late-results");
}

#[wasm_bindgen_test]
fn stepping_seeking_and_series() {
    let (_, scenario) = preset_list().into_iter().next().unwrap();
    let mut pg = Playground::new(js(&scenario.to_string())).unwrap();
    let end = json_of(&pg.info().unwrap())["duration"].as_f64().unwrap();
    while pg.advance(10_000.0) < 1.0 {}
    assert_eq!(pg.reached(), end);

    let s1 = json_of(&pg.step_call().unwrap());
    assert_eq!(s1["calls"], 1);
    let s2 = json_of(&pg.step_call().unwrap());
    assert_eq!(s2["calls"], 2);
    assert!(s2["t_s"].as_f64() >= s1["t_s"].as_f64());

    let ev = json_of(&pg.next_event(None).unwrap());
    let t_event = ev["event"]["t_s"]
        .as_f64()
        .expect("the preset has a state change");
    assert_eq!(ev["snapshot"]["t_s"].as_f64().unwrap(), t_event);

    // Looking no further than a time before the next change: no event, the cursor stops there
    // (what the page asks after a cancelled run), in the state a seek there gives.
    let from = json_of(&pg.seek(0.0).unwrap());
    assert_eq!(from["calls"], 0);
    let short = t_event / 2.0;
    let none = json_of(&pg.next_event(Some(short)).unwrap());
    assert!(none["event"].is_null(), "{none:?}");
    assert_eq!(none["snapshot"]["t_s"].as_f64(), Some(short));
    assert_eq!(none["snapshot"], json_of(&pg.seek(short).unwrap()));
    let again = json_of(&pg.next_event(Some(t_event)).unwrap());
    assert_eq!(again["event"]["t_s"].as_f64(), Some(t_event));

    // Back to the start and forward again: the same state.
    let at = json_of(&pg.seek(t_event).unwrap());
    json_of(&pg.seek(0.0).unwrap());
    assert_eq!(json_of(&pg.seek(t_event).unwrap()), at);

    let series = pg.series(0.0, end, 50.0).unwrap();
    let level: Float64Array = get(&series, "s_level_max").dyn_into().unwrap();
    assert_eq!(level.length(), 50);
    assert_eq!(get(&series, "bucket").as_f64().unwrap(), end / 50.0);
    let zoom = pg.series(end / 4.0, end / 2.0, 40.0).unwrap();
    assert_eq!(get(&zoom, "t0").as_f64().unwrap(), end / 4.0);
    assert_eq!(get(&zoom, "t1").as_f64().unwrap(), end / 2.0);
    let answered: Float64Array = get(&zoom, "w_answered").dyn_into().unwrap();
    assert_eq!(answered.length(), 40);
    // Cut to the run: half past the end keeps the part within; nothing left of the range, or a
    // range too short for its buckets, is the whole run (past the end gave [5000, 5001]).
    let half = pg.series(end / 2.0, end * 2.0, 10.0).unwrap();
    assert_eq!(get(&half, "t0").as_f64().unwrap(), end / 2.0);
    assert_eq!(get(&half, "t1").as_f64().unwrap(), end);
    let nan = pg.series(f64::NAN, 1.0, 10.0).unwrap();
    assert_eq!(get(&nan, "t0").as_f64().unwrap(), 0.0);
    assert_eq!(get(&nan, "t1").as_f64().unwrap(), 1.0);
    for (t0, t1) in [
        (end + 1.0, end + 2.0),
        (-10.0, -5.0),
        (0.0, 5e-324),
        (f64::NAN, f64::NAN),
    ] {
        let s = pg.series(t0, t1, 3.0).unwrap();
        assert_eq!(get(&s, "t0").as_f64().unwrap(), 0.0, "{t0} {t1}");
        assert_eq!(get(&s, "t1").as_f64().unwrap(), end, "{t0} {t1}");
        assert_eq!(get(&s, "bucket").as_f64().unwrap(), end / 3.0, "{t0} {t1}");
    }

    let events = json_of(&pg.events(None).unwrap());
    assert!(events["total"].as_u64().unwrap() >= 1);
    let m = json_of(&pg.metrics().unwrap());
    assert!(m["complete"].as_bool().unwrap());
    assert!(m["statistical"]["totals"]["calls"].as_u64().unwrap() > 0);
    let d = json_of(&pg.derived().unwrap());
    assert!(d["w_fail"].as_f64().unwrap() > 0.0);
    assert!(d["w_ok"].as_f64().unwrap() < 0.0);
}

/// Finding the field to blame never writes through a `__proto__` key to `Object.prototype`
/// (a shared link can carry one) and never writes into the caller's objects.
#[wasm_bindgen_test]
fn blame_writes_neither_prototypes_nor_the_callers_objects() {
    let given = js(r#"{"dependency": [{"start": 0, "__proto__": {"view": [0, 1]}}]}"#);
    let m = error_message(Playground::new(given));
    assert!(
        m.starts_with("dependency.0.__proto__") && m.contains("unknown field `__proto__`"),
        "{m}"
    );
    assert!(Reflect::get(&js("{}"), &"view".into())
        .unwrap()
        .is_undefined());

    let given = js(r#"{"traffic": {}, "traffic.calls_per_minute": "x"}"#);
    let before: String = JSON::stringify(&given).unwrap().into();
    assert!(Playground::new(given.clone()).is_err());
    let after: String = JSON::stringify(&given).unwrap().into();
    assert_eq!(after, before);
}

/// The README's example lists each result's keys: they are the keys the results have (for the
/// README's own example, the first preset).
#[wasm_bindgen_test]
fn the_readme_lists_the_result_keys() {
    const README: &str = include_str!("../README.md");
    // The keys of the first `{...}` in the README's comment after `call` (nested ones left out).
    let listed = |call: &str| -> Vec<String> {
        let at = README
            .find(call)
            .unwrap_or_else(|| panic!("README: {call}"));
        let text = &README[at..];
        let comment = text.find("//").unwrap();
        let open = comment + text[comment..].find('{').unwrap() + 1;
        let (mut depth, mut keys, mut word) = (0, vec![], String::new());
        for c in text[open..].chars() {
            if depth == 0 && (c.is_ascii_alphanumeric() || c == '_') {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                keys.push(std::mem::take(&mut word));
            }
            match c {
                '{' | '[' => depth += 1,
                '}' | ']' if depth > 0 => depth -= 1,
                '}' => break,
                _ => {}
            }
        }
        // `window: {...}` and `outages: [[start, end|null]]` say shapes, not keys.
        keys.retain(|k| k != "end" && k != "null");
        keys.sort();
        keys.dedup();
        keys
    };
    let keys = |v: &JsValue| -> Vec<String> {
        let mut k: Vec<String> = json_of(v).as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let (_, scenario) = preset_list().into_iter().next().unwrap();
    let mut pg = Playground::new(js(&scenario.to_string())).unwrap();
    while pg.advance(10_000.0) < 1.0 {}
    assert_eq!(keys(&pg.seek(12.5).unwrap()), listed("pg.seek(12.5)"));
    assert_eq!(keys(&pg.next_event(None).unwrap()), ["event", "snapshot"]);
    assert_eq!(keys(&pg.metrics().unwrap()), listed("pg.metrics()"));
    assert_eq!(keys(&pg.derived().unwrap()), listed("pg.derived()"));
    assert_eq!(keys(&pg.events(None).unwrap()), listed("pg.events(5000)"));
    let s = json_of(&pg.series(0.0, 60.0, 600.0).unwrap());
    for k in ["bucket", "t0", "t1", "s_level_min", "w_late_ignored"] {
        assert!(s.get(k).is_some(), "series.{k}");
    }
    let info = keys(&pg.info().unwrap());
    assert_eq!(info, ["duration", "name", "seed"]);
    assert!(README.contains("`{name, seed, duration}`"));
}
