//! `analyze(args)` in a real browser (`wasm-pack test --headless --chrome crates/wasm`): the
//! walkthrough's numbers are the native command line's numbers, for the same arguments.
#![cfg(target_arch = "wasm32")]

use breaker_wasm::{analyze, analyze_text};
use js_sys::{Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn json_of(v: &JsValue) -> serde_json::Value {
    let text: String = JSON::stringify(v).expect("stringify").into();
    serde_json::from_str(&text).expect("JSON from JS")
}

#[wasm_bindgen_test]
fn analyze_returns_the_command_lines_json() {
    for a in [
        args(&[
            "false-alarms",
            "--fine",
            "0.05",
            "--broken",
            "0.2",
            "--line-calls",
            "1000",
            "--simulate",
            "50",
        ]),
        args(&[
            "open-delay",
            "--fine",
            "0.02",
            "--broken",
            "0.1",
            "--calls-per-minute",
            "600",
        ]),
        args(&["trials", "--a", "0.01", "--b", "0.05"]),
        args(&["drift", "--true-rate", "0.11"]),
        args(&[
            "window",
            "--window",
            "10",
            "--threshold",
            "0.5",
            "--baseline",
            "0.05",
        ]),
    ] {
        // Bit for bit: both sides go through the browser's (correctly rounded) JSON.parse.
        let got: String = JSON::stringify(&analyze(a.clone()).expect("valid arguments"))
            .unwrap()
            .into();
        let text = analyze_text(&a).expect("valid arguments");
        let want: String = JSON::stringify(&JSON::parse(&text).unwrap())
            .unwrap()
            .into();
        assert_eq!(got, want, "{a:?}");
        assert!(text.contains("\"kind\""), "every number carries its kind");
    }
    // The default settings' numbers, as the analysis README and design give them.
    let r = json_of(&analyze(args(&["false-alarms"])).unwrap());
    let w_fail = r["settings"]["w_fail"].as_f64().unwrap();
    assert!((w_fail - 4f64.ln()).abs() < 1e-12);
    let p = &r["points"][0];
    assert_eq!(p["calls"]["bound"]["kind"], "bound");
    assert_eq!(p["calls"]["exact"]["kind"], "exact");
    assert!(
        p["calls"]["exact"]["value"].as_f64().unwrap()
            > p["calls"]["bound"]["value"].as_f64().unwrap()
    );
}

#[wasm_bindgen_test]
fn analyze_errors_name_the_flag() {
    let e = match analyze(args(&["false-alarms", "--broken", "0.01"])) {
        Ok(_) => panic!("expected an error"),
        Err(e) => JsValue::from(e),
    };
    assert!(e.is_instance_of::<js_sys::Error>());
    let msg = Reflect::get(&e, &JsValue::from_str("message"))
        .unwrap()
        .as_string()
        .unwrap();
    assert!(msg.contains("--broken"), "{msg}");
}
