//! `serde_units` reads numbers and strings as the `#[serde(untagged)]` enums it replaced did:
//! same values, same messages (and, through `serde_json`, the same positions) for everything
//! else, except that a value neither a number nor a string is told what the field takes.
#![cfg(feature = "serde")]

use breaker::units::serde_units::{self, NumOrStr};
use serde::Deserialize;

/// What `serde_units` used before: serde's untagged enums (both named `NumOrStr`, which their
/// message names).
mod float {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    #[allow(dead_code)]
    pub enum NumOrStr {
        Num(f64),
        Str(String),
    }
}

mod whole {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    #[allow(dead_code)]
    pub enum NumOrStr {
        Num(u64),
        Str(String),
    }
}

#[derive(Deserialize)]
struct Old {
    #[allow(dead_code)]
    v: float::NumOrStr,
}

#[derive(Deserialize)]
struct OldWhole {
    #[allow(dead_code)]
    v: whole::NumOrStr,
}

#[derive(Deserialize)]
struct New {
    #[serde(deserialize_with = "serde_units::rate")]
    #[allow(dead_code)]
    v: f64,
}

#[derive(Deserialize)]
struct NewWhole {
    #[serde(deserialize_with = "whole")]
    #[allow(dead_code)]
    v: (),
}

/// What `sim`'s outcome field accepts: a whole number or a string.
fn whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    match NumOrStr::deserialize(d)? {
        NumOrStr::U64(_) | NumOrStr::Str(_) => Ok(()),
        NumOrStr::I64(_) | NumOrStr::F64(_) | NumOrStr::Other => Err(serde_units::no_match(WHOLE)),
    }
}

const WHOLE: &str = "a whole number or a string";

/// The untagged enums' message for a value of neither kind.
const UNTAGGED: &str = "data did not match any variant of untagged enum NumOrStr";

/// The old message with the untagged enum's words replaced by `allowed <what>`.
fn now(old: Result<(), String>, what: &str) -> Result<(), String> {
    old.map_err(|e| e.replace(UNTAGGED, &format!("allowed {what}")))
}

const VALUES: &[&str] = &[
    "0",
    "7",
    "-0",
    "-3",
    "0.5",
    "-2.5",
    "1e300",
    "18446744073709551615",
    "\"5%\"",
    "\"\"",
    "true",
    "false",
    "null",
    "[]",
    "[1, 2]",
    "{}",
    "{\"a\": [1, {\"b\": 2}]}",
    // Invalid inside an array or object: the untagged enum parsed every nested value, so its
    // error (and position) is the nested one.
    "[1e400]",
    "[\"\\ud800\"]",
    "{\"a\": 1e400}",
    "{\"\\ud800\": 1}",
    "[[2], {\"b\": [1e999]}]",
];

fn outcome<T>(r: Result<T, serde_json::Error>) -> Result<(), String> {
    r.map(|_| ()).map_err(|e| e.to_string())
}

#[test]
fn same_as_the_untagged_enums_from_text() {
    for v in VALUES {
        let text = format!("{{\"v\": {v} }}");
        let old = outcome(serde_json::from_str::<Old>(&text));
        let new = outcome(serde_json::from_str::<New>(&text));
        // A string goes on to `parse_rate`, which the untagged enum did not do.
        if !v.starts_with('"') {
            assert_eq!(now(old, serde_units::RATE), new, "{text}");
        }
        let old = outcome(serde_json::from_str::<OldWhole>(&text));
        let new = outcome(serde_json::from_str::<NewWhole>(&text));
        assert_eq!(now(old, WHOLE), new, "{text}");
    }
}

#[test]
fn same_as_the_untagged_enums_from_values() {
    for v in VALUES {
        // (The values invalid as JSON text have no `Value`.)
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&format!("{{\"v\": {v} }}"))
        else {
            continue;
        };
        let old = outcome(serde_json::from_value::<Old>(value.clone()));
        let new = outcome(serde_json::from_value::<New>(value.clone()));
        if !v.starts_with('"') {
            assert_eq!(now(old, serde_units::RATE), new, "{value}");
        }
        let old = outcome(serde_json::from_value::<OldWhole>(value.clone()));
        let new = outcome(serde_json::from_value::<NewWhole>(value));
        assert_eq!(now(old, WHOLE), new, "{v}");
    }
}

#[test]
fn numbers_and_strings() {
    let read = |t: &str| serde_json::from_str::<NumOrStr>(t).unwrap();
    assert_eq!(read("5"), NumOrStr::U64(5));
    assert_eq!(read("-5"), NumOrStr::I64(-5));
    assert_eq!(read("0.25"), NumOrStr::F64(0.25));
    assert_eq!(read("\"5s\""), NumOrStr::Str("5s".into()));
    assert_eq!(read("[true, {}]"), NumOrStr::Other);
    let new = |t: &str| serde_json::from_str::<New>(t).map(|n| n.v).unwrap();
    assert_eq!(new("{\"v\": \"5%\"}"), 0.05);
    assert_eq!(new("{\"v\": 3}"), 3.0);
    assert_eq!(new("{\"v\": -3}"), -3.0);
    let err = |t: &str| serde_json::from_str::<New>(t).err().unwrap().to_string();
    assert_eq!(
        err("{\"v\": [0.1]}"),
        "allowed a fraction or a percentage (0.05 or \"5%\") at line 1 column 12"
    );
    assert_eq!(
        err("{\"v\": null}"),
        "allowed a fraction or a percentage (0.05 or \"5%\") at line 1 column 11"
    );
}

/// Settings structs are read from an object only (`ObjectOnly`): serde's derive would take a
/// list as the fields in order, so `[0.05, 0.2]` would be a fine and a broken rate.
#[test]
fn settings_are_read_from_objects_only() {
    use breaker::{StatisticalSettings, WindowSettings};
    let e = serde_json::from_str::<StatisticalSettings>("[0.05, 0.2]")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "invalid type: sequence, expected struct StatisticalSettings at line 1 column 1"
    );
    let v = serde_json::json!(["count_based", 20]);
    let e = serde_json::from_value::<WindowSettings>(v)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "invalid type: sequence, expected struct WindowSettings");
    // Objects as before, and both go to JSON and back.
    let s: StatisticalSettings = serde_json::from_str(r#"{"fine_rate": "2%"}"#).unwrap();
    assert_eq!(s.fine_rate, 0.02);
    let back: StatisticalSettings =
        serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back, s);
    let w = WindowSettings::default();
    let back: WindowSettings = serde_json::from_value(serde_json::to_value(&w).unwrap()).unwrap();
    assert_eq!(back, w);
}

/// `ObjectOnly` still asks the format for a struct: serde's `flatten` hands a flattened struct
/// only the keys it declares that way (asked for a map, each would see the other's keys as
/// unknown, and `deny_unknown_fields` would refuse them).
#[test]
fn flattened_settings_read_as_before() {
    use breaker::{StatisticalSettings, WindowSettings};
    #[derive(serde::Deserialize)]
    struct Both {
        #[serde(flatten)]
        st: StatisticalSettings,
        #[serde(flatten)]
        win: WindowSettings,
    }
    let b: Both = serde_json::from_str(r#"{"fine_rate": 0.02, "sliding_window_size": 20}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((b.st.fine_rate, b.win.sliding_window_size), (0.02, 20));
}

/// What the settings' rustdoc warns of: flattened, a misspelt setting passes silently (serde
/// hands the flattened struct only its own keys, so `deny_unknown_fields` never sees the typo);
/// nested, it is refused by name.
#[test]
fn a_typo_passes_flattened_and_is_refused_nested() {
    use breaker::WindowSettings;
    #[derive(serde::Deserialize)]
    struct Flat {
        #[serde(flatten)]
        #[allow(dead_code)]
        window: WindowSettings,
    }
    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Nested {
        #[allow(dead_code)]
        window: WindowSettings,
    }
    let flat: Result<Flat, _> = serde_json::from_str(r#"{"sliding_window_sise": 20}"#);
    assert!(flat.is_ok(), "the typo went unnoticed");
    let e = serde_json::from_str::<Nested>(r#"{"window": {"sliding_window_sise": 20}}"#)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("unknown field `sliding_window_sise`, expected one of"),
        "{e}"
    );
}

/// The parsers are public, for a service's own configuration: a typed error, usable as any
/// `std::error::Error`, whose message quotes the text and says what is allowed.
#[test]
fn the_parsers_give_a_typed_error_that_says_what_is_allowed() {
    use breaker::units::{parse_duration, parse_rate, ParseUnitError};
    fn boxed(e: ParseUnitError) -> Box<dyn std::error::Error + Send + Sync> {
        Box::new(e)
    }
    assert_eq!(parse_duration(" 1.5 min "), Ok(90.0));
    assert_eq!(parse_duration("5sec"), Ok(5.0), "sec is s, as documented");
    assert_eq!(parse_duration("2 m"), Ok(120.0));
    assert_eq!(parse_duration("-2s"), Ok(-2.0), "the range is the caller's");
    assert_eq!(parse_rate("150%"), Ok(1.5), "the range is the caller's");
    for (got, want) in [
        (
            parse_duration("soon"),
            "\"soon\" is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d)",
        ),
        (
            parse_duration("3 fortnights"),
            "unknown duration unit \"fortnights\" in \"3 fortnights\": allowed ms, s, m, h, d, w",
        ),
        (parse_rate("five"), "\"five\" is not a rate: use 0.05 or 5%"),
        (parse_rate("1e999%"), "\"1e999%\" is not a finite rate"),
    ] {
        assert_eq!(boxed(got.unwrap_err()).to_string(), want);
    }
}

/// A window's type is read as the settings write it or as resilience4j spells it, and written
/// in the first form; any other spelling is refused, naming the four it reads.
#[test]
fn a_window_type_is_read_in_resilience4js_spelling_too() {
    use breaker::SlidingWindowType::{CountBased, TimeBased};
    for (text, want) in [
        ("\"count_based\"", CountBased),
        ("\"COUNT_BASED\"", CountBased),
        ("\"time_based\"", TimeBased),
        ("\"TIME_BASED\"", TimeBased),
    ] {
        let got: breaker::SlidingWindowType = serde_json::from_str(text).expect(text);
        assert_eq!(got, want, "{text}");
    }
    assert_eq!(serde_json::to_string(&TimeBased).unwrap(), "\"time_based\"");
    let e = serde_json::from_str::<breaker::SlidingWindowType>("\"Time_Based\"").unwrap_err();
    assert!(
        e.to_string()
            .contains("expected one of `COUNT_BASED`, `count_based`, `TIME_BASED`, `time_based`"),
        "{e}"
    );
}

/// Where a stuck half-open goes is read in resilience4j's spelling too, as the window's type is:
/// `"CLOSED"` (a Spring property's value) was refused with "expected `open` or `closed`".
#[test]
fn after_half_open_wait_is_read_in_resilience4js_spelling_too() {
    use breaker::AfterHalfOpenWait::{Closed, Open};
    for (text, want) in [
        ("\"open\"", Open),
        ("\"OPEN\"", Open),
        ("\"closed\"", Closed),
        ("\"CLOSED\"", Closed),
    ] {
        let got: breaker::AfterHalfOpenWait = serde_json::from_str(text).expect(text);
        assert_eq!(got, want, "{text}");
    }
    assert_eq!(serde_json::to_string(&Closed).unwrap(), "\"closed\"");
    assert!(serde_json::from_str::<breaker::AfterHalfOpenWait>("\"Closed\"").is_err());
}
