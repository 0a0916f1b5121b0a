//! The scenario JSON: defaults, units, unknown keys, `--set` paths and validation messages.

use sim::Scenario;

include!("support/leaves.rs");

#[test]
fn defaults_fill_what_a_file_does_not_name() {
    let s = Scenario::from_json(r#"{"seed": 9, "window": {"sliding_window_size": 20}}"#).unwrap();
    assert_eq!(s.seed, 9);
    assert_eq!(s.window.sliding_window_size, 20);
    assert_eq!(s.window.minimum_number_of_calls, 100);
    assert_eq!(s.duration, 3600.0);
    // Round trip: what the page serializes reads back the same.
    let back: Scenario = serde_json::from_value(s.to_value()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn units_in_durations_and_rates() {
    let s = Scenario::from_json(
        r#"{"duration": "30d", "dependency": [{"failure_rate": "5%", "latency": "200ms"}],
            "callers": {"call_timeout": "1m"}, "statistical": {"false_alarm_period": "1h"}}"#,
    )
    .unwrap();
    assert_eq!(s.duration, 2_592_000.0);
    assert_eq!(s.dependency[0].failure_rate, 0.05);
    assert_eq!(s.dependency[0].latency, 0.2);
    assert_eq!(s.callers.call_timeout, 60.0);
    assert_eq!(s.statistical.false_alarm_period, 3600.0);
}

#[test]
fn unknown_keys_are_errors() {
    let e = Scenario::from_json(r#"{"window": {"sliding_window_sise": 20}}"#).unwrap_err();
    assert!(e.contains("unknown field `sliding_window_sise`"), "{e}");
    let e = Scenario::from_json(r#"{"traffik": {}}"#).unwrap_err();
    assert!(e.contains("unknown field `traffik`"), "{e}");
}

/// A key with a dot in it (a `--set` path written as a JSON key) is an unknown field under its
/// own name. Its path was split at the dot, and a value the field there would refuse was blamed
/// on that field: `{"statistical.fine_rate": "abc"}` read as `statistical.fine_rate = "abc" is
/// invalid: "abc" is not a rate`, as if the key were right.
#[test]
fn a_dotted_key_is_an_unknown_field_under_its_own_name() {
    for (json, key) in [
        (
            r#"{"statistical.fine_rate": "abc"}"#,
            "statistical.fine_rate",
        ),
        (
            r#"{"statistical.fine_rate": "5%"}"#,
            "statistical.fine_rate",
        ),
        (r#"{"statistical": {"fine_rate.x": 1}}"#, "fine_rate.x"),
        (r#"{"window": {"x.y": 2}}"#, "x.y"),
        (
            r#"{"dependency": [{}, {"start": 10, "burst.enter": 0.5}]}"#,
            "burst.enter",
        ),
    ] {
        let e = Scenario::from_json(json).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "scenario is invalid: unknown field `{key}`, expected one of"
            )),
            "{json}: {e}"
        );
    }
}

#[test]
fn set_edits_a_dotted_path() {
    let s = sim::preset("recovery-warmup").unwrap();
    let t = s
        .with_sets([
            "window.permitted_number_of_calls_in_half_open_state=4",
            "statistical.fine_rate=2%",
            "dependency.2.capacity=3",
            "callers.call_timeout=200ms",
            "traffic.arrivals=poisson",
            "dependency.1.failure=503",
        ])
        .unwrap();
    assert_eq!(t.window.permitted_number_of_calls_in_half_open_state, 4);
    assert_eq!(t.statistical.fine_rate, 0.02);
    assert_eq!(t.dependency[2].capacity, 3.0);
    assert_eq!(t.callers.call_timeout, 0.2);
    assert_eq!(t.traffic.arrivals, sim::Arrivals::Poisson);
    assert_eq!(t.dependency[1].failure, breaker::Outcome::Overload);
}

/// An object given for an object edits the keys it names and keeps the others, as a dotted edit
/// does: it reset the rest to the defaults (`traffic={"calls_per_minute":5}` on busy-service
/// dropped its daily swing). A list replaces the whole list, and an object inside a list is
/// written whole with it.
#[test]
fn an_object_edits_only_its_keys_a_list_replaces() {
    let s = sim::preset("busy-service").unwrap();
    assert!(s.traffic.daily_swing > 0.0);
    let object = s.with_sets([r#"traffic={"calls_per_minute":5}"#]).unwrap();
    let dotted = s.with_sets(["traffic.calls_per_minute=5"]).unwrap();
    assert_eq!(object, dotted);
    assert_eq!(object.traffic.daily_swing, s.traffic.daily_swing);
    // Nested: the statistical breaker's backoff keeps what is not named.
    let nested = s
        .with_sets([r#"statistical={"fine_rate":"2%","broken_rate":0.5}"#])
        .unwrap();
    assert_eq!(
        nested,
        s.with_sets(["statistical.fine_rate=2%", "statistical.broken_rate=0.5"])
            .unwrap()
    );
    // A list replaces: one phase where recovery-warmup has four, its other fields defaults.
    let r = sim::preset("recovery-warmup").unwrap();
    assert_eq!(r.dependency.len(), 4);
    let one = r
        .with_sets([r#"dependency=[{"start":0,"failure_rate":0.25}]"#])
        .unwrap();
    assert_eq!(one.dependency.len(), 1);
    assert_eq!(one.dependency[0].failure_rate, 0.25);
    assert_eq!(
        one.dependency[0].latency,
        Scenario::default().dependency[0].latency
    );
}

/// A key given twice in one object is refused with its path, as a scenario file refuses it;
/// `--set` took the last silently.
#[test]
fn a_key_twice_in_an_edit_is_refused() {
    let s = Scenario::default();
    let set = |e: &str| s.with_sets([e]).unwrap_err();
    assert_eq!(
        set(r#"traffic={"calls_per_minute":5,"calls_per_minute":7}"#),
        "--set traffic: traffic.calls_per_minute is given twice (column 40 of the value): \
         each setting once"
    );
    assert_eq!(
        set(r#"dependency=[{"start":0},{"start":10,"start":2}]"#),
        "--set dependency: dependency.1.start is given twice (column 32 of the value): each \
         setting once"
    );
    // The same key in two objects is not twice.
    assert!(s
        .with_sets([r#"dependency=[{"start":0},{"start":10}]"#])
        .is_ok());
    // As a file says it.
    assert_eq!(
        Scenario::read_json(r#"{"traffic": {"calls_per_minute": 5, "calls_per_minute": 7}}"#)
            .unwrap_err(),
        "traffic.calls_per_minute is given twice (line 1 column 54): each setting once"
    );
}

/// A long value is echoed in part, with its length, wherever an edit's message shows it: a
/// 100,000-digit number was printed whole.
#[test]
fn a_long_value_is_echoed_in_part() {
    let s = Scenario::default();
    let digits = "1".repeat(100_000);
    let first = "1".repeat(60);
    // Out of range (a float past its range): the edit's text as written, cut.
    assert_eq!(
        s.with_sets([format!("traffic.calls_per_minute={digits}").as_str()])
            .unwrap_err(),
        format!(
            "traffic.calls_per_minute = {first}… (100000 bytes) is invalid: allowed a number 1e-6 <= x <= 1e7"
        )
    );
    // Unreadable: the edit and the reader's quote of it, both cut.
    assert_eq!(
        s.with_sets([format!("duration={digits}x").as_str()])
            .unwrap_err(),
        format!(
            "duration = {first}… (100001 bytes) is invalid: unknown duration unit \"x\" in \
             \"{first}…\" (100001 bytes): allowed ms, s, m, h, d, w, 0 < x <= 1e9 seconds"
        )
    );
    // No `=` at all.
    assert_eq!(
        s.with_sets([digits.as_str()]).unwrap_err(),
        format!(
            "--set \"{first}…\" (100000 bytes): expected key=value, e.g. \
             window.sliding_window_size=20"
        )
    );
    // In a file, and in a trace's time and latency, and a status number.
    assert_eq!(
        Scenario::from_json(&format!(
            r#"{{"traffic": {{"calls_per_minute": {digits}}}}}"#
        ))
        .unwrap_err(),
        format!(
            "traffic.calls_per_minute = {first}… (100000 bytes) is invalid: allowed 1e-6 <= x <= 1e7"
        )
    );
    // A string in a file is echoed as JSON writes it up to 80 bytes (a control character as
    // `\u0007`), and quoted in part, as the reason quotes it, past that.
    let said = |text: String| Scenario::read_json(&text).unwrap_err();
    for (len, shown) in [
        (2, r#""\u0007y""#.to_string()),
        (80, format!(r#""\u0007{}""#, "y".repeat(79))),
        (81, format!(r#""\u{{7}}{}…" (81 bytes)"#, "y".repeat(59))),
    ] {
        let value = format!("\u{7}{}", "y".repeat(len - 1));
        let text = format!(r#"{{"statistical": {{"fine_rate": {value:?}}}}}"#);
        let text = text.replace("\\u{7}", "\\u0007");
        let quoted = breaker::quote::Quoted(&value);
        assert_eq!(
            said(text),
            format!(
                "statistical.fine_rate = {shown} is invalid: {quoted} is not a rate: use 0.05 or \
                 5%, 0 < x < 1"
            ),
            "{len}"
        );
    }
    for (row, field, said) in [
        (
            format!("{digits},ok,0\n"),
            "time_s",
            "is invalid: allowed 0 <= x <= 1e9 seconds",
        ),
        (
            format!("0,ok,-1.{digits}\n"),
            "latency_s",
            "is invalid: allowed x >= 0",
        ),
        (format!("0,{digits},0\n"), "outcome", "HTTP status"),
    ] {
        let e = sim::scan_trace(row.as_bytes()).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains(said), "{e}");
        assert!(e.contains("… (100") && e.len() < 300, "{e}");
    }
    // A list or an object (a run's result opened as a scenario): its entries up to 80 bytes
    // of text, then `...` (it was quoted whole on the page, 27,419 characters of it).
    let events: Vec<String> = (0..1000).map(|i| format!(r#"{{"t_s":{i}}}"#)).collect();
    let e = Scenario::from_json(&format!(
        r#"{{"breakers": {{"events": [{}], "n": 1}}}}"#,
        events.join(",")
    ))
    .unwrap_err();
    let quoted =
        r#"{"events":[{"t_s":0},{"t_s":1},{"t_s":2},{"t_s":3},{"t_s":4},{"t_s":5},{"t_s":6},{..."#;
    assert!(
        e.starts_with(&format!(
            "breakers = {quoted} is invalid: unknown field `breakers`, expected one of"
        )),
        "{e}"
    );
    // A long key, as a long string (the page quoted it so, the command line whole).
    let key = "k".repeat(100);
    let e = Scenario::from_json(&format!(r#"{{"breakers": {{"{key}": 1}}}}"#)).unwrap_err();
    assert!(
        e.starts_with(&format!(
            "breakers = {{\"{}…\" (100 bytes):1}} is invalid: unknown field `breakers`",
            &key[..60]
        )),
        "{e}"
    );
    // A long string, as the reason quotes it (it was cut at 80 characters with `...`).
    assert_eq!(
        Scenario::from_json(&format!(
            r#"{{"statistical": {{"fine_rate": "{digits}x"}}}}"#
        ))
        .unwrap_err(),
        format!(
            "statistical.fine_rate = \"{first}…\" (100001 bytes) is invalid: \"{first}…\" \
             (100001 bytes) is not a rate: use 0.05 or 5%, 0 < x < 1"
        )
    );
    // Up to 80 bytes, whole.
    let at = "1".repeat(80);
    assert!(s
        .with_sets([format!("traffic.calls_per_minute={at}").as_str()])
        .unwrap_err()
        .starts_with(&format!("traffic.calls_per_minute = {at} is invalid")));
}

/// Every refusal of a value a rate or a duration cannot read gives the field's range, whatever
/// the reason it gives (not a number, not finite, an unknown unit), in an edit and in a file
/// alike; before, "not finite" and "unknown unit" came without it. An object or a list written
/// whole by `--set` names the leaf in it at fault, as a file does (it named the edit's path).
#[test]
fn refusals_of_unreadable_values_give_the_range_and_the_leaf() {
    let s = Scenario::default();
    let set = |e: &str| s.with_sets([e]).unwrap_err();
    assert_eq!(
        set("traffic.daily_swing=NaN"),
        r#"traffic.daily_swing = NaN is invalid: "NaN" is not a finite rate, 0 <= x < 1"#
    );
    assert_eq!(
        set("duration=1e309"),
        r#"duration = 1e309 is invalid: "1e309" is not a finite duration, 0 < x <= 1e9 seconds"#
    );
    assert_eq!(
        set("duration=1e"),
        r#"duration = 1e is invalid: unknown duration unit "e" in "1e": allowed ms, s, m, h, d, w, 0 < x <= 1e9 seconds"#
    );
    assert_eq!(
        Scenario::read_json(r#"{"traffic": {"daily_swing": "NaN"}}"#).unwrap_err(),
        r#"traffic.daily_swing = "NaN" is invalid: "NaN" is not a finite rate, 0 <= x < 1"#
    );
    assert_eq!(
        set(r#"statistical={"fine_rate":"x"}"#),
        r#"statistical.fine_rate = "x" is invalid: "x" is not a rate: use 0.05 or 5%, 0 < x < 1"#
    );
    assert_eq!(
        set(r#"dependency=[{"start":0},{"start":"x"}]"#),
        r#"dependency.1.start = "x" is invalid: "x" is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d), the previous phase's start (0) < x <= 1e9 seconds"#
    );
    assert!(set(r#"statistical={"bogus":1}"#)
        .starts_with("statistical.bogus = 1 is invalid: unknown field `bogus`"));
}

#[test]
fn set_errors_name_the_key() {
    let s = Scenario::default();
    let e = s.with_sets(["window.nope=1"]).unwrap_err();
    assert!(
        e.starts_with("--set window.nope: unknown key \"window.nope\": allowed "),
        "{e}"
    );
    let e = s.with_sets(["dependency.5.latency=1"]).unwrap_err();
    assert!(e.contains("has 1 entry, indexed 0 <= i < 1, got 5"), "{e}");
    let e = s
        .with_sets(["window.sliding_window_size=many"])
        .unwrap_err();
    assert_eq!(
        e,
        "window.sliding_window_size = many is invalid: allowed a whole number 1 <= x <= 1000000 \
         calls (COUNT_BASED)"
    );
    // An error that is not a type mismatch keeps the deserializer's words, naming the edit.
    let e = s
        .with_sets(["window.sliding_window_type=sometimes"])
        .unwrap_err();
    assert!(
        e.starts_with("--set window.sliding_window_type=sometimes: unknown variant"),
        "{e}"
    );
    let e = s.with_sets(["seed"]).unwrap_err();
    assert!(e.contains("expected key=value"), "{e}");
    // Text a rate or a duration cannot read: in the scenario file's words, with the range.
    let e = s.with_sets(["statistical.fine_rate=abc"]).unwrap_err();
    assert_eq!(
        e,
        "statistical.fine_rate = abc is invalid: \"abc\" is not a rate: use 0.05 or 5%, 0 < x < 1"
    );
    let e = s.with_sets(["callers.call_timeout=soon"]).unwrap_err();
    assert_eq!(
        e,
        "callers.call_timeout = soon is invalid: \"soon\" is not a duration: use seconds or a \
         unit (200ms, 5s, 1m, 1h, 30d), 0 < x <= 1e9 seconds"
    );
}

#[test]
fn validation_names_the_full_dotted_field() {
    let s = Scenario::default();
    let e = s.with_sets(["statistical.broken_rate=0.01"]).unwrap_err();
    assert_eq!(
        e,
        "statistical.broken_rate = 0.01 is invalid: allowed fine_rate (0.05) < x < 1"
    );
    let e = s.with_sets(["dependency.0.failure_rate=2"]).unwrap_err();
    assert_eq!(
        e,
        "dependency.0.failure_rate = 2 is invalid: allowed 0 <= x <= 1 (0% to 100%)"
    );
    // A field an edit wrote is quoted as written, not as it reads (200 reads as `success`);
    // the last of two edits of one field is the one quoted.
    let e = s
        .with_sets(["dependency.0.failure=timeout", "dependency.0.failure=200"])
        .unwrap_err();
    assert!(
        e.starts_with("dependency.0.failure = 200 is invalid: allowed a failure or neutral"),
        "{e}"
    );
    assert!(e.ends_with("one below 400 reads as success)"), "{e}");
    // A value that is no outcome at all gets the field's range too, not a trace row's: 600 read
    // "HTTP status 600 is out of range: allowed 100 <= x <= 599", a range 200 is in.
    for v in ["600", "0", "teapot"] {
        let e = s
            .with_sets([format!("dependency.0.failure={v}").as_str()])
            .unwrap_err();
        assert_eq!(
            e,
            format!(
                "--set dependency.0.failure={v}: unknown outcome \"{v}\": allowed a failure or neutral outcome (timeout, \
                 refused, server_error, overload, service_rate_limited, auth_rejected, \
                 input_rejected, user_rate_limited, fail, or an HTTP status from 400 to 599; one \
                 below 400 reads as success)"
            )
        );
    }
    // A field no edit wrote is quoted as it reads.
    let e = s
        .with_sets(["statistical.fine_rate=0.5", "statistical.fine_rate=60%"])
        .unwrap_err();
    assert_eq!(
        e,
        "statistical.broken_rate = 0.2 is invalid: allowed fine_rate (0.6) < x < 1"
    );
    let e = s.with_sets(["window.sliding_window_size=0"]).unwrap_err();
    assert!(
        e.starts_with("window.sliding_window_size = 0 is invalid"),
        "{e}"
    );
    let e = s.with_sets(["traffic.calls_per_minute=0"]).unwrap_err();
    assert!(
        e.starts_with("traffic.calls_per_minute = 0 is invalid"),
        "{e}"
    );
    let e = s.with_sets(["callers.count=0"]).unwrap_err();
    assert!(e.starts_with("callers.count = 0 is invalid"), "{e}");
    let mut two = Scenario::default();
    two.dependency.push(sim::Phase::default());
    assert_eq!(
        two.validate().unwrap_err().to_string(),
        "dependency.1.start = 0 is invalid: allowed the previous phase's start (0) < x <= 1e9 \
         seconds"
    );
    // The previous start as the value is written (it was printed with about 300 zeros).
    two.dependency[1].start = 1e-300;
    two.dependency.push(sim::Phase {
        start: 1e-301,
        ..Default::default()
    });
    assert_eq!(
        two.validate().unwrap_err().to_string(),
        "dependency.2.start = 1e-301 is invalid: allowed the previous phase's start (1e-300) < x \
         <= 1e9 seconds"
    );
}

/// A burst goes on into the next phase and ends there at that phase's `burst.leave`: a later
/// phase with `leave` 0, bursts or none of its own, would keep one for good (every call of the
/// phase failing, as a run showed). Refused from the first phase with bursts on; before it a
/// `leave` of 0 is harmless and taken.
#[test]
fn a_burst_must_be_able_to_end_in_every_phase_it_can_reach() {
    let mut s = Scenario {
        dependency: vec![sim::Phase::default(); 3],
        ..Scenario::default()
    };
    for (i, p) in s.dependency.iter_mut().enumerate() {
        p.start = 100.0 * i as f64;
        p.burst.leave = 0.0;
    }
    s.validate().unwrap();
    s.dependency[1].burst.enter = 0.5;
    s.dependency[1].burst.leave = 0.1;
    let refusal = |i| {
        format!(
            "dependency.{i}.burst.leave = 0 is invalid: allowed 0 < x <= 1 from a phase with \
             burst.enter > 0 on (a burst must be able to end)"
        )
    };
    assert_eq!(s.validate().unwrap_err().to_string(), refusal(2));
    s.dependency[2].burst.leave = 0.5;
    s.validate().unwrap();
    s.dependency[1].burst.leave = 0.0;
    assert_eq!(s.validate().unwrap_err().to_string(), refusal(1));
}

/// A number a count's type refuses (negative, fractional, too large) is named with the field's
/// own range, as a number out of range is: serde alone said only "expected u32".
#[test]
fn counts_name_their_range_for_numbers_their_type_refuses() {
    let s = Scenario::default();
    let cases = [
        ("callers.count=-3", "callers.count = -3 is invalid: allowed a whole number 1 <= x <= 1000"),
        ("callers.count=1e12", "callers.count = 1e12 is invalid: allowed a whole number 1 <= x <= 1000"),
        (
            "window.minimum_number_of_calls=2.5",
            "window.minimum_number_of_calls = 2.5 is invalid: allowed a whole number 1 <= x <= 1000000",
        ),
        (
            "window.random_seed=-1",
            "window.random_seed = -1 is invalid: allowed a whole number 0 <= x <= 18446744073709551615",
        ),
        (
            "dependency.0.one_in=-1",
            "dependency.0.one_in = -1 is invalid: allowed a whole number 0 <= x <= 4294967295",
        ),
    ];
    for (set, want) in cases {
        assert_eq!(s.with_sets([set]).unwrap_err(), want);
    }
    // In range but spelt as a float: the message says so, not that the value is out of range.
    assert_eq!(
        s.with_sets(["callers.count=1e2"]).unwrap_err(),
        "callers.count = 1e2 is invalid: a count is written as a whole number, without a \
         fraction or exponent (100, not 1e2)"
    );
    // Worked out from the digits as written, not from the double they read as: 2^53 + 1 is not
    // offered as 2^53, 5.0000000000000001 is not whole, and u64::MAX (2^64 as a double) is.
    for (set, want) in [
        (
            "seed=9007199254740993.0",
            "seed = 9007199254740993.0 is invalid: a count is written as a whole number, without \
             a fraction or exponent (9007199254740993, not 9007199254740993.0)",
        ),
        (
            "seed=1.8446744073709551615e19",
            "seed = 1.8446744073709551615e19 is invalid: a count is written as a whole number, \
             without a fraction or exponent (18446744073709551615, not \
             1.8446744073709551615e19)",
        ),
        (
            "seed=5.0000000000000001",
            "seed = 5.0000000000000001 is invalid: allowed a whole number 0 <= x <= \
             18446744073709551615",
        ),
        (
            "seed=1e-400",
            "seed = 1e-400 is invalid: allowed a whole number 0 <= x <= 18446744073709551615",
        ),
        (
            "callers.count=1000.00000000000001",
            "callers.count = 1000.00000000000001 is invalid: allowed a whole number 1 <= x <= 1000",
        ),
    ] {
        assert_eq!(s.with_sets([set]).unwrap_err(), want, "{set}");
    }
    // A long edit is shown cut, and its digits still read whole.
    let long = format!("7.{}", "0".repeat(100));
    assert_eq!(
        s.with_sets([format!("seed={long}").as_str()]).unwrap_err(),
        format!(
            "seed = 7.{}… (102 bytes) is invalid: a count is written as a whole number, \
             without a fraction or exponent (7, not 7.{}… (102 bytes))",
            "0".repeat(58),
            "0".repeat(58)
        )
    );
    // A file's number is read as a double and shown as the double's text: the whole number is
    // the double's (2^60 here), not the digits of its shortest text (1152921504606847000).
    assert_eq!(
        Scenario::read_json(r#"{"seed": 1152921504606846976.0}"#).unwrap_err(),
        "seed = 1.152921504606847e+18 is invalid: a count is written as a whole number, without \
         a fraction or exponent (1152921504606846976, not 1.152921504606847e+18)"
    );
    // Not a number: the same range.
    assert_eq!(
        s.with_sets([r#"callers.count="abc""#]).unwrap_err(),
        r#"callers.count = "abc" is invalid: allowed a whole number 1 <= x <= 1000"#
    );
    // Shapes: an object where a list belongs is named as the field, and duplicate keys are
    // refused, as before (the file is read typed first).
    let e = Scenario::read_json(r#"{"dependency": {"0": {"start": 0}}}"#).unwrap_err();
    assert_eq!(
        e,
        r#"dependency = {"0":{"start":0}} is invalid: allowed a list of objects"#
    );
    let e = Scenario::read_json(r#"{"seed": 1, "seed": 7}"#).unwrap_err();
    assert_eq!(
        e,
        "seed is given twice (line 1 column 18): each setting once"
    );
    // A key given twice below the top is named by its path: serde named the key alone
    // ("duplicate field `failure_rate`"), which any phase may hold.
    let e = Scenario::read_json(
        r#"{"dependency": [{"start": 0},
  {"start": 5, "failure_rate": 0.5, "failure_rate": 0.2}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        e,
        "dependency.1.failure_rate is given twice (line 2 column 50): each setting once"
    );
    let e =
        Scenario::read_json(r#"{"window": {"sliding_window_size": 9, "sliding_window_size": 9}}"#)
            .unwrap_err();
    assert_eq!(
        e,
        "window.sliding_window_size is given twice (line 1 column 59): each setting once"
    );
    // The same in a scenario file.
    let e = Scenario::read_json(r#"{"window": {"sliding_window_size": -4}}"#).unwrap_err();
    assert_eq!(
        e,
        "window.sliding_window_size = -4 is invalid: allowed a whole number 1 <= x <= 1000000 \
         calls (COUNT_BASED)"
    );
    // A time-based window's size is seconds, whichever key comes first, refused by its range
    // or by its kind.
    for json in [
        r#"{"window": {"sliding_window_type": "time_based", "sliding_window_size": 0}}"#,
        r#"{"window": {"sliding_window_size": 0, "sliding_window_type": "time_based"}}"#,
    ] {
        assert_eq!(
            Scenario::from_json(json).unwrap_err(),
            "window.sliding_window_size = 0 is invalid: allowed 1 <= x <= 1000000 seconds \
             (TIME_BASED)"
        );
    }
    for json in [
        r#"{"window": {"sliding_window_type": "time_based", "sliding_window_size": "ten"}}"#,
        r#"{"window": {"sliding_window_size": -4, "sliding_window_type": "time_based"}}"#,
    ] {
        let e = Scenario::read_json(json).unwrap_err();
        assert!(
            e.ends_with(
                "is invalid: allowed a whole number 1 <= x <= 1000000 seconds (TIME_BASED)"
            ),
            "{e}"
        );
    }
}

/// A value of the wrong kind is named with what the field takes (serde alone named the Rust
/// type: "invalid type: string "fast", expected f64"); the page's wasm says the same words.
#[test]
fn type_mismatches_say_what_is_allowed() {
    for (text, want) in [
        (
            r#"{"callers": {"count": {"a": 1}}}"#,
            r#"callers.count = {"a":1} is invalid: allowed a whole number 1 <= x <= 1000"#,
        ),
        (
            r#"{"callers": {"count": null}}"#,
            "callers.count = null is invalid: allowed a whole number 1 <= x <= 1000",
        ),
        (
            r#"{"seed": 1.5}"#,
            "seed = 1.5 is invalid: allowed a whole number 0 <= x <= 18446744073709551615",
        ),
        (
            r#"{"traffic": {"calls_per_minute": "fast"}}"#,
            r#"traffic.calls_per_minute = "fast" is invalid: allowed a number 1e-6 <= x <= 1e7"#,
        ),
        (
            r#"{"traffic": {"daily_swing": true}}"#,
            r#"traffic.daily_swing = true is invalid: allowed a fraction or a percentage (0.05 or "5%"), 0 <= x < 1"#,
        ),
        (
            r#"{"callers": {"call_timeout": [1]}}"#,
            "callers.call_timeout = [1] is invalid: allowed a number of seconds or a string with a \
             unit (200ms, 5s, 1m, 1h, 30d), 0 < x <= 1e9 seconds",
        ),
        // A later phase's range is found with its own start in place (it sorts after latency).
        (
            r#"{"dependency": [{"start": 0}, {"start": 10, "latency": []}]}"#,
            "dependency.1.latency = [] is invalid: allowed a number of seconds or a string with a \
             unit (200ms, 5s, 1m, 1h, 30d), 0 <= x <= 1e9 seconds",
        ),
        (
            r#"{"callers": {"shared_state": "yes"}}"#,
            r#"callers.shared_state = "yes" is invalid: allowed true or false"#,
        ),
        (r#"{"name": 5}"#, "name = 5 is invalid: allowed a string"),
        (
            r#"{"traffic": true}"#,
            "traffic = true is invalid: allowed an object of settings",
        ),
        (
            r#"{"traffic": {"arrivals": 3}}"#,
            "traffic.arrivals = 3 is invalid: allowed `poisson` or `even`",
        ),
        (
            r#"{"dependency": [{"failure": true}]}"#,
            // The outcome reader also takes `success` (and `ok`), which validation refuses
            // for a failure: the reader's refusal names only what validation takes.
            "dependency.0.failure = true is invalid: allowed a failure or neutral outcome \
             (timeout, refused, server_error, overload, service_rate_limited, auth_rejected, \
             input_rejected, user_rate_limited, fail, or an HTTP status from 400 to 599; one \
             below 400 reads as success)",
        ),
        // Another invalid field does not hide the range, nor pass an out-of-range count as
        // only misspelt (review: these said `0 <= x <= 4294967295`, "write 5000", no range).
        (
            r#"{"callers": {"count": -3}, "duration": -5}"#,
            "callers.count = -3 is invalid: allowed a whole number 1 <= x <= 1000",
        ),
        (
            r#"{"callers": {"count": 5000.0}, "duration": -5}"#,
            "callers.count = 5000.0 is invalid: allowed a whole number 1 <= x <= 1000",
        ),
        (
            r#"{"traffic": {"calls_per_minute": "fast"}, "duration": -5}"#,
            r#"traffic.calls_per_minute = "fast" is invalid: allowed a number 1e-6 <= x <= 1e7"#,
        ),
        (
            r#"{"dependency": [{"start": 0}, {"start": 10, "latency": [], "failure_rate": 2}]}"#,
            "dependency.1.latency = [] is invalid: allowed a number of seconds or a string with a \
             unit (200ms, 5s, 1m, 1h, 30d), 0 <= x <= 1e9 seconds",
        ),
        // 2^64 is one past the largest seed (`u64::MAX as f64` rounds up to it).
        (
            r#"{"seed": 18446744073709551616}"#,
            "seed = 1.8446744073709552e+19 is invalid: allowed a whole number 0 <= x <= \
             18446744073709551615",
        ),
        // A string a duration or a rate cannot read: the forms it takes, then its range.
        (
            r#"{"dependency": [{"latency": "quick"}]}"#,
            r#"dependency.0.latency = "quick" is invalid: "quick" is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d), 0 <= x <= 1e9 seconds"#,
        ),
        (
            r#"{"statistical": {"fine_rate": "abc"}}"#,
            r#"statistical.fine_rate = "abc" is invalid: "abc" is not a rate: use 0.05 or 5%, 0 < x < 1"#,
        ),
        // Its own range where it depends on another field (it said a rate's general 0 < x < 1),
        // at the lower end or the upper, for a text or a value of the wrong type.
        (
            r#"{"statistical": {"fine_rate": 0.02, "broken_rate": "abc"}}"#,
            r#"statistical.broken_rate = "abc" is invalid: "abc" is not a rate: use 0.05 or 5%, fine_rate (0.02) < x < 1"#,
        ),
        (
            r#"{"statistical": {"fine_rate": 0.02, "broken_rate": []}}"#,
            r#"statistical.broken_rate = [] is invalid: allowed a fraction or a percentage (0.05 or "5%"), fine_rate (0.02) < x < 1"#,
        ),
        (
            r#"{"statistical": {"trial_wrongly_opens": 0.7, "trial_wrongly_closes": "abc"}}"#,
            r#"statistical.trial_wrongly_closes = "abc" is invalid: "abc" is not a rate: use 0.05 or 5%, 0 < x < 1 - trial_wrongly_opens (trial_wrongly_opens = 0.7)"#,
        ),
    ] {
        assert_eq!(Scenario::read_json(text).unwrap_err(), want, "{text}");
    }
}

#[test]
fn outages_are_runs_of_outage_phases() {
    let s = sim::preset("recovery-warmup").unwrap();
    assert_eq!(s.outages(), vec![(8.0, 30.0)]);
    assert_eq!(s.condition_at(35.0), sim::Condition::Degraded);
}

#[test]
fn json_errors_name_the_dotted_field() {
    for (text, start) in [
        (
            r#"{"traffic": {"calls_per_minute": "fast"}}"#,
            r#"traffic.calls_per_minute = "fast" is invalid: "#,
        ),
        (
            r#"{"dependency": [{"start": 0}, {"start": "8s", "latency": "quick"}]}"#,
            r#"dependency.1.latency = "quick" is invalid: "#,
        ),
        (r#"{"seed": 1.5}"#, "seed = 1.5 is invalid: "),
        (
            r#"{"statistical": {"fine_rate": "5%%"}}"#,
            r#"statistical.fine_rate = "5%%" is invalid: "#,
        ),
        (
            r#"{"window": {"sliding_window_sise": 20}}"#,
            "window.sliding_window_sise = 20 is invalid: unknown field `sliding_window_sise`",
        ),
        (r#"{"trace": 5}"#, "trace = 5 is invalid: "),
    ] {
        let e = Scenario::read_json(text).unwrap_err();
        assert!(e.starts_with(start), "{text}: {e}");
        assert_eq!(Scenario::from_json(text).unwrap_err(), e);
    }
    // Malformed JSON keeps serde_json's line and column.
    let e = Scenario::read_json("{\n  \"seed\": }").unwrap_err();
    assert!(e.contains("line 2"), "{e}");
}

/// A number past a 64-bit float's range was refused as serde_json's "number out of range at
/// line 1 column 18", naming no field. It is now named as written, with what the field allows.
#[test]
fn numbers_past_a_float_name_their_field_and_range() {
    for (text, message) in [
        (r#"{"duration": 1e309}"#, "duration = 1e309 is invalid: allowed 0 < x <= 1e9 seconds"),
        (
            r#"{"traffic": {"calls_per_minute": -1e309}}"#,
            "traffic.calls_per_minute = -1e309 is invalid: allowed 1e-6 <= x <= 1e7",
        ),
        (
            "{\"seed\": 1,\n \"dependency\": [{\"start\": 0}, {\"start\": 1E+999, \"condition\": \"outage\"}]}",
            "dependency.1.start = 1E+999 is invalid: allowed the previous phase's start (0) < x <= 1e9 seconds",
        ),
        // Columns count bytes: a name of several-byte characters before the number.
        (
            r#"{"name": "é—x", "statistical": {"expected_calls_per_minute": 2e400}}"#,
            "statistical.expected_calls_per_minute = 2e400 is invalid: allowed 0 <= x <= 1e9",
        ),
        (
            r#"{"seed": 1e400}"#,
            "seed = 1e400 is invalid: allowed a whole number 0 <= x <= 18446744073709551615",
        ),
        (
            r#"{"sede": 1e400}"#,
            "sede = 1e400 is invalid: unknown field `sede`, expected one of `name`, `seed`, \
             `duration`, `traffic`, `dependency`, `callers`, `statistical`, `window`, `trace`",
        ),
        // An exponent past i32 (serde_json stops one digit in): the whole number, and its range.
        (
            r#"{"duration": 1e99999999999}"#,
            "duration = 1e99999999999 is invalid: allowed 0 < x <= 1e9 seconds",
        ),
        // At the start of a line, after CRLF, in a list, after a key with escapes and a string
        // holding a quote and a backslash.
        (
            "{\"name\": \"a \\\" \\\\ b\",\r\n\"dependency\": [{\"start\": 0}, {\"st\\u0061rt\":\r\n-1e400}]}",
            "dependency.1.start = -1e400 is invalid: allowed the previous phase's start (0) < x <= 1e9 seconds",
        ),
        // A range that depends on another field: its own, at either end.
        (
            r#"{"statistical": {"fine_rate": 0.02, "broken_rate": 1e400}}"#,
            "statistical.broken_rate = 1e400 is invalid: allowed fine_rate (0.02) < x < 1",
        ),
        // Two: the first is named, without what it allows (the text is read once more, not once
        // per such number).
        (
            r#"{"duration": 1e309, "seed": 1e400}"#,
            "duration = 1e309 is invalid: a number past the largest a 64-bit float holds (about 1.8e308)",
        ),
    ] {
        assert_eq!(Scenario::read_json(text).unwrap_err(), message, "{text}");
        assert_eq!(Scenario::from_json(text).unwrap_err(), message, "{text}");
    }
    // Past a float in its digits, with a fraction, below the first line: the whole number, to
    // its last digit (the line's start found a byte early or late cut it short by two).
    let text = format!("{{\"seed\": 1,\n\"duration\": 1{}.5}}", "0".repeat(400));
    assert_eq!(
        Scenario::read_json(&text).unwrap_err(),
        format!(
            "duration = 1{}… (403 bytes) is invalid: allowed 0 < x <= 1e9 seconds",
            "0".repeat(59)
        )
    );
    // Not an object: serde_json's message, with the line and column.
    assert_eq!(
        Scenario::read_json("[1e400]").unwrap_err(),
        "number out of range at line 1 column 6"
    );
    // Many of them read in one pass more, not one per number (a deep recursion before).
    let many = format!(
        r#"{{"dependency": [{}]}}"#,
        vec![r#"{"start": 1e999}"#; 20_000].join(",")
    );
    assert_eq!(
        Scenario::read_json(&many).unwrap_err(),
        "dependency.0.start = 1e999 is invalid: a number past the largest a 64-bit float holds (about 1.8e308)"
    );
}

#[test]
fn a_scenario_is_an_object() {
    // Serde would read a list as the fields in order (name, seed, duration, ...); the page
    // refuses anything but an object, and so does the file reader.
    for text in [
        "[]",
        r#"["x", 3, 100]"#,
        "5",
        "null",
        r#""recovery-warmup""#,
    ] {
        let e = Scenario::read_json(text).unwrap_err();
        assert!(
            e.starts_with("scenario = ")
                && e.ends_with("is invalid: allowed an object of settings"),
            "{text}: {e}"
        );
    }
    // No range checks here: validation comes after `--set`.
    let s = Scenario::read_json(r#"{"duration": -1}"#).unwrap();
    assert_eq!(s.duration, -1.0);
    assert!(Scenario::from_json(r#"{"duration": -1}"#).is_err());
}

/// The same inside: serde's derived structs read a list as their fields in order, so
/// `{"traffic": [60]}` was taken as 60 calls per minute. Every settings struct is read from an
/// object only.
#[test]
fn settings_inside_are_objects_too() {
    for (text, path) in [
        (r#"{"traffic": [60]}"#, "traffic = [60]"),
        (r#"{"callers": [3]}"#, "callers = [3]"),
        (
            r#"{"statistical": [0.05, 0.2]}"#,
            "statistical = [0.05,0.2]",
        ),
        (
            r#"{"window": ["count_based", 20]}"#,
            r#"window = ["count_based",20]"#,
        ),
        (r#"{"dependency": [[0, 0.1]]}"#, "dependency = [[0,0.1]]"),
        (
            r#"{"dependency": [{"start": 0, "burst": [0.1, 0.5]}]}"#,
            "dependency.0.burst = [0.1,0.5]",
        ),
    ] {
        let e = Scenario::read_json(text).unwrap_err();
        let allowed = if path.starts_with("dependency =") {
            "a list of objects"
        } else {
            "an object of settings"
        };
        assert_eq!(e, format!("{path} is invalid: allowed {allowed}"), "{text}");
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert!(serde_json::from_value::<Scenario>(v).is_err(), "{text}");
    }
    // Objects read as before, and a scenario goes to JSON and back unchanged.
    let s =
        Scenario::read_json(r#"{"traffic": {"calls_per_minute": 60}, "callers": {"count": 3}}"#)
            .unwrap();
    assert_eq!((s.traffic.calls_per_minute, s.callers.count), (60.0, 3));
    let p = sim::preset("recovery-warmup").unwrap();
    let back: Scenario = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
    assert_eq!(back, p);
}

/// An error in a long scenario is found by bisection, not by reading the scenario again after
/// each of its values (review: 10,000 phases took over 15 minutes to explain). Counted in
/// readings, not timed: `sim::allowed::locate` is what both the CLI and the page use.
#[test]
fn an_error_among_many_values_takes_few_readings() {
    use std::cell::Cell;
    let n = 20_000;
    let paths: Vec<String> = (0..n).map(|i| format!("dependency.{i}.latency")).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    for bad in [0, 1, n / 2, n - 1] {
        let readings = Cell::new(0);
        let (i, ctx, e) = sim::allowed::locate(
            &refs,
            |set: &[usize]| set.to_vec(),
            |set: &Vec<usize>| {
                readings.set(readings.get() + 1);
                if set.contains(&bad) {
                    Err("bad".to_string())
                } else {
                    Ok(Ok(()))
                }
            },
        )
        .unwrap();
        assert_eq!((i, e.as_str()), (bad, "bad"));
        assert_eq!(ctx.len(), n - 1, "every other value is kept");
        assert!(readings.get() <= 40, "{} readings", readings.get());
    }
}

/// A number's text reads as the nearest double, as the page's JSON.parse reads it (serde_json's
/// `float_roundtrip`): serde_json's default parser read 1.4323598286685562e-242 one unit in the
/// last place low, so that scenario, saved from the page, ran another run natively.
#[test]
fn numbers_read_as_the_nearest_double() {
    for text in [
        "1.4323598286685562e-242",
        "2.2250738585072014e-308",
        "5e-324",
        "0.30000000000000004",
        "1.7976931348623157e308",
        "9007199254740993.5",
        "123456789.123456789e-20",
    ] {
        let s = sim::Scenario::read_json(&format!(
            r#"{{"window": {{"failure_rate_threshold": {text}}}}}"#
        ))
        .unwrap();
        let want: f64 = text.parse().unwrap();
        assert_eq!(
            s.window.failure_rate_threshold.to_bits(),
            want.to_bits(),
            "{text}"
        );
    }
}

/// Settings each valid alone whose run would not end or would not fit in memory are refused up
/// front, naming the rate with the most it can be here: 1e7 calls/min for 1e9 s (1.7e14 calls,
/// which ran for months) and every call hanging for a 1e9 s timeout (in flight at once, which
/// ran out of memory in seconds). At the limit the run is taken; a trace sets its own size.
#[test]
fn a_run_too_long_or_too_wide_is_refused_naming_the_rate() {
    let tail =
        "with this duration, latencies, call timeout and lock timeout (a run of at most 1e9 \
                calls, 1e6 in flight at once)";
    let long = r#"{"duration": 1e9, "traffic": {"calls_per_minute": 1e7}}"#;
    assert_eq!(
        Scenario::from_json(long).unwrap_err(),
        format!("traffic.calls_per_minute = 10000000 is invalid: allowed 1e-6 <= x <= 60 {tail}")
    );
    let at_limit = Scenario::from_json(r#"{"duration": 1e9, "traffic": {"calls_per_minute": 60}}"#);
    assert_eq!(at_limit.map(|s| s.traffic.calls_per_minute), Ok(60.0));
    let hung = r#"{"duration": 3600, "traffic": {"calls_per_minute": 1e7},
                   "dependency": [{"hang_rate": 1}], "callers": {"call_timeout": 1e9}}"#;
    // 1e6 in flight over a mean hold of 3600 s (the run, shorter than the timeout): 16666 a min.
    assert_eq!(
        Scenario::from_json(hung).unwrap_err(),
        format!(
            "traffic.calls_per_minute = 10000000 is invalid: allowed 1e-6 <= x <= 16666 {tail}"
        )
    );
    // A daily swing raises the peak: at 50%, two thirds of that.
    let swung = hung.replace(
        r#""calls_per_minute": 1e7"#,
        r#""calls_per_minute": 1e7, "daily_swing": 0.5"#,
    );
    assert!(Scenario::from_json(&swung)
        .unwrap_err()
        .contains("allowed 1e-6 <= x <= 11111 with"));
    // Failures that time out wait as hangs do: a 10% timeout rate, a 1000 s timeout, plus the
    // latencies (50 ms each): 1e6 / (100.1 s / 60) = 599400 calls/min.
    let timeouts = r#"{"traffic": {"calls_per_minute": 1e7},
        "dependency": [{"failure_rate": 0.1, "failure": "timeout"}],
        "callers": {"call_timeout": 1000}}"#;
    assert!(Scenario::from_json(timeouts)
        .unwrap_err()
        .contains("allowed 1e-6 <= x <= 599400 with"));
    // Each latency counts (1 + 2 + 4 + 8 s held: 1e6 / (15 s / 60)); a call failing one in 4,
    // by timing out after 30 s, is held 7.5 s on average; in a burst, at the burst's rate.
    let most = |phase: &str| {
        let j = format!(
            r#"{{"duration": 60, "traffic": {{"calls_per_minute": 1e7}},
                "dependency": [{{{phase}}}]}}"#
        );
        let e = Scenario::from_json(&j).unwrap_err();
        let rest = e.split_once("<= x <= ").unwrap_or_else(|| panic!("{e}")).1;
        rest.split(' ').next().unwrap().to_string()
    };
    let no_latency = r#""latency": 0, "latency_jitter": 0, "failure_latency": 0,
        "failure_latency_jitter": 0"#;
    let latencies = r#""latency": 1, "latency_jitter": 2, "failure_latency": 4,
        "failure_latency_jitter": 8, "failure_rate": 0"#;
    assert_eq!(most(latencies), "4000000");
    let one_in = format!(r#"{no_latency}, "failure": "timeout", "failure_rate": 0.1, "one_in": 4"#);
    assert_eq!(most(&one_in), "8000000");
    let burst = format!(
        r#"{no_latency}, "failure": "timeout", "failure_rate": 0.1,
        "burst": {{"enter": 0.01, "leave": 0.1, "failure_rate": 0.5}}"#
    );
    assert_eq!(most(&burst), "4000000");
    // The same settings with a trace: its calls are the run.
    let mut traced = Scenario::read_json(long).unwrap();
    traced.trace = Some("0,ok,0\n".into());
    assert_eq!(traced.validate(), Ok(()));
    // Every preset is well inside.
    for p in sim::presets() {
        assert_eq!(p.scenario().validate(), Ok(()), "{}", p.name);
    }
}

/// Traffic takes at least `MIN_CALLS_PER_MINUTE` (1e-6 calls/min). Any positive rate was
/// taken: at 1e-305 the analysis' times overflowed to "inf" years for 1793 calls, and a rate
/// such as 1e-320 is subnormal (it read back as 1.008e-320).
#[test]
fn traffic_has_a_floor() {
    assert_eq!(sim::MIN_CALLS_PER_MINUTE, 1e-6);
    let at = |cpm: f64| {
        let mut s = Scenario::default();
        s.traffic.calls_per_minute = cpm;
        s.validate().map_err(|e| e.to_string())
    };
    assert_eq!(at(1e-6), Ok(()));
    for cpm in [9.999999e-7, 1e-305, 1e-320, 0.0] {
        assert_eq!(
            at(cpm),
            Err(format!(
                "traffic.calls_per_minute = {} is invalid: allowed 1e-6 <= x <= 1e7",
                breaker::error::Num(cpm)
            ))
        );
    }
    // A run of the longest duration at the floor: valid, and (most likely) no call at all.
    let mut s = Scenario {
        duration: sim::MAX_DURATION_S,
        ..Scenario::default()
    };
    s.traffic.calls_per_minute = 1e-6;
    assert_eq!(s.validate(), Ok(()));
}

/// With shared state each change waiting for a side's lock holds a queue entry, and at most
/// `lock_timeout / lock_hold` wait at once. A lock held 1 s a change with a 1e9 s timeout let
/// every call of 1e7 a minute wait (942 MB for one minute, out of memory for ten): past half the
/// in-flight cap, each call's two changes count as held for the lock timeout (at most the run).
#[test]
fn calls_waiting_for_a_shared_lock_count_as_in_flight() {
    let json = |timeout: &str, hold: &str, shared: bool| {
        format!(
            r#"{{"duration": 600, "traffic": {{"calls_per_minute": 1e7}}, "callers":
                {{"shared_state": {shared}, "lock_timeout": {timeout}, "lock_hold": {hold}}}}}"#
        )
    };
    // 1e6 in flight over 2 x 600 s of lock wait plus the default phase's mean hold (0.12 s:
    // its latencies, and timeouts): 1e6 / (1200.12 / 60).
    assert_eq!(
        Scenario::from_json(&json("1e9", "1", true)).unwrap_err(),
        "traffic.calls_per_minute = 10000000 is invalid: allowed 1e-6 <= x <= 49995 with this \
         duration, latencies, call timeout and lock timeout (a run of at most 1e9 calls, 1e6 in \
         flight at once)"
    );
    // At most 2 s / 5 ms = 400 changes wait at once (the defaults), or 1e9 / 1e4 = 1e5: no
    // limit from the lock. No lock without shared state, and none held with a hold of 0.
    assert!(Scenario::from_json(&json("2", "0.005", true)).is_ok());
    assert!(Scenario::from_json(&json("1e9", "1e4", true)).is_ok());
    // Exactly half the cap waiting (500 s / 1 ms = 5e5) is not past it: no limit yet.
    assert!(Scenario::from_json(&json("500", "0.001", true)).is_ok());
    assert!(Scenario::from_json(&json("500.001", "0.001", true)).is_err());
    assert!(Scenario::from_json(&json("1e9", "1", false)).is_ok());
    assert!(Scenario::from_json(&json("1e9", "0", true)).is_ok());
    // Just past half the cap: 1e9 / 1999 = 500250 changes may wait.
    assert!(Scenario::from_json(&json("1e9", "1999", true)).is_err());
}

/// The window breaker's clock alone, with automatic transitions and a half-open time limit
/// ending in open, goes open -> half-open -> open with no call at all: 1 ms each way for a month
/// was 2.6e9 events (out of memory natively and in the page). At most 2^18 such rounds in a run,
/// over every caller's copy (two changes each, half the 2^20 a run keeps: at 1e6 rounds the
/// least limit allowed was cut short at about half its run); the message gives the least limit
/// that fits, and at it the run is taken. A limit of 0 (off), or ending half-open in closed, needs calls to go round.
#[test]
fn a_window_breaker_going_round_on_its_clock_alone_is_refused() {
    let json = |limit: &str, extra: &str| {
        format!(
            r#"{{"duration": "30d", {extra} "window": {{"wait_duration_in_open_state": 0.001,
                "automatic_transition_from_open_to_half_open_enabled": true,
                "max_wait_duration_in_half_open_state": {limit}}}}}"#
        )
    };
    let tail = "with automatic transitions, this run's length, callers and open wait (at most \
                262144 half-open rounds a run ended by the clock alone, two state changes each: \
                half the 2^20 a run keeps)";
    // 2592000 s / 262144 rounds - 0.001 s open = 9.8867 s, said to three digits, rounded up.
    assert_eq!(
        Scenario::from_json(&json("0.001", "")).unwrap_err(),
        format!(
            "window.max_wait_duration_in_half_open_state = 0.001 is invalid: allowed 0 (off) or \
             9.89 <= x <= 1e9 seconds {tail}"
        )
    );
    assert!(Scenario::from_json(&json("9.89", "")).is_ok());
    assert!(Scenario::from_json(&json("9.8867", "")).is_ok());
    // The least itself, to the last bit, is taken.
    let least = 2_592_000.0 / 262_144.0 - 0.001;
    assert!(Scenario::from_json(&json(&format!("{least:?}"), "")).is_ok());
    assert!(Scenario::from_json(&json("9.8866", "")).is_err());
    assert!(Scenario::from_json(&json("0", "")).is_ok());
    // Ten callers, each with its own copy: ten times the rounds.
    assert!(
        Scenario::from_json(&json("3", r#""callers": {"count": 10},"#))
            .unwrap_err()
            .contains("allowed 0 (off) or 98.9 <= x")
    );
    let shared = r#""callers": {"count": 10, "shared_state": true},"#;
    assert!(Scenario::from_json(&json("3", shared)).is_err());
    assert!(Scenario::from_json(&json("9.89", shared)).is_ok());
    let closes = r#"1e-3, "transition_to_state_after_wait_duration": "closed""#;
    assert!(Scenario::from_json(&json(closes, "")).is_ok());
    // Least limits of 1000 s and more, to three digits too (python's decimal, rounding up):
    // 1e9 s / 262144 - 0.001 = 3814.696..., and with 1000 callers 3814697.26... (the least then
    // past the largest limit allowed: only 0 is taken).
    let longest = |callers: &str| {
        let j = json("3", &format!(r#""callers": {{"count": {callers}}},"#));
        Scenario::from_json(&j.replacen(r#""30d""#, "1e9", 1)).unwrap_err()
    };
    assert!(
        longest("1").contains("allowed 0 (off) or 3820 <= x"),
        "{}",
        longest("1")
    );
    assert!(
        longest("1000").contains("allowed 0 (off) or 3820000 <= x"),
        "{}",
        longest("1000")
    );
    // A randomized open wait counts at its shortest, 5 s x (1 - 0.5): 9.8877 - 2.5 = 7.3877.
    let randomized = json("3", "").replacen(
        r#""wait_duration_in_open_state": 0.001"#,
        r#""wait_duration_in_open_state": 5, "wait_randomization_factor": 0.5"#,
        1,
    );
    let e = Scenario::from_json(&randomized).unwrap_err();
    assert!(e.contains("allowed 0 (off) or 7.39 <= x"), "{e}");
}

/// The same limit for a trace's replay, over the trace's span (its first call to its last),
/// not the duration: two calls 1e5 s apart with 1 ms waits each way went round 5e7 times between them
/// (out of memory, natively and in the page), the duration being 1 s. Checked where the run is
/// made, by `Sim::new` (a trace in the scenario) and `replay` (streamed) alike.
#[test]
fn a_trace_far_apart_is_refused_for_the_window_clock_alone_over_its_span() {
    let mut sc = Scenario::read_json(
        r#"{"duration": 1, "window": {"wait_duration_in_open_state": 0.001,
            "sliding_window_size": 1, "transition_to_state_after_wait_duration": "open",
            "automatic_transition_from_open_to_half_open_enabled": true,
            "max_wait_duration_in_half_open_state": 0.001}}"#,
    )
    .unwrap();
    assert_eq!(sc.validate(), Ok(()), "1 s alone is fine");
    let trace = "0,fail,0\n1e5,ok,0\n";
    // 1e5 s / 262144 rounds - 0.001 s open = 0.3805 s.
    let want = "window.max_wait_duration_in_half_open_state = 0.001 is invalid: allowed 0 (off) \
                or 0.381 <= x <= 1e9 seconds with automatic transitions, this run's length, callers \
                and open wait (at most 262144 half-open rounds a run ended by the clock alone, two \
                state changes each: half the 2^20 a run keeps)";
    let span = sim::scan_trace(trace.as_bytes()).unwrap();
    let streamed = sim::replay(&sc, trace.as_bytes(), &span, 10)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(streamed.to_string(), want);
    sc.trace = Some(trace.into());
    assert_eq!(
        sim::Sim::new(&sc).map(|_| ()).unwrap_err().to_string(),
        want
    );
    // The least it states is taken.
    sc.window.max_wait_duration_in_half_open_state = 0.381;
    assert!(sim::Sim::new(&sc).is_ok());
    sc.window.max_wait_duration_in_half_open_state = 0.001;
    // A trace 200 s long fits (200 / 2^18 - 0.001 < 0: any limit), also starting late: the
    // clock can go round only after a call opened the breaker.
    for late in ["0,fail,0\n200,ok,0\n", "5e8,fail,0\n500000200,ok,0\n"] {
        sc.trace = Some(late.into());
        assert!(sim::Sim::new(&sc).is_ok(), "{late}");
        let span = sim::scan_trace(late.as_bytes()).unwrap();
        sc.trace = None;
        assert!(
            sim::replay(&sc, late.as_bytes(), &span, 10).is_ok(),
            "{late}"
        );
    }
}

/// A value refused as read is taken the other way where the field takes that: a whole number
/// written with a sign or leading zeros (not JSON, so read as text: `--set seed=05` was refused
/// with a range 05 meets, while `--seed 05` was taken), and digits where a field takes text.
/// What neither reading fits is refused as before, quoted as written.
#[test]
fn an_edit_is_read_the_other_way_where_the_field_takes_that() {
    let s = Scenario::default();
    let ok = |e: &str| s.with_sets([e]).unwrap_or_else(|m| panic!("{e}: {m}"));
    assert_eq!(ok("seed=05").seed, 5);
    assert_eq!(ok("seed=+7").seed, 7);
    assert_eq!(ok("seed=0").seed, 0);
    assert_eq!(ok("seed=000").seed, 0);
    assert_eq!(ok("seed=018446744073709551615").seed, u64::MAX);
    assert_eq!(
        ok("window.sliding_window_size=050")
            .window
            .sliding_window_size,
        50
    );
    assert_eq!(ok("callers.count=+3").callers.count, 3);
    assert_eq!(
        ok("statistical.fine_rate=00.02").statistical.fine_rate,
        0.02
    );
    assert_eq!(ok("name=7").name, "7");
    // The words JSON reads too: "name = true is invalid: allowed a string" before.
    assert_eq!(ok("name=true").name, "true");
    assert_eq!(ok("name=null").name, "null");
    assert_eq!(ok("dependency.0.label=false").dependency[0].label, "false");
    assert_eq!(ok("name=007").name, "007");
    assert_eq!(ok("dependency.0.label=1.50").dependency[0].label, "1.50");
    // Neither reading fits: refused as before, the value as written.
    let no = |e: &str| s.with_sets([e]).unwrap_err();
    assert_eq!(
        no("callers.count=+0"),
        "callers.count = +0 is invalid: allowed 1 <= x <= 1000"
    );
    assert_eq!(
        no("seed=-05"),
        "seed = -05 is invalid: allowed a whole number 0 <= x <= 18446744073709551615"
    );
    assert_eq!(
        no("seed=-"),
        "seed = - is invalid: allowed a whole number 0 <= x <= 18446744073709551615"
    );
    assert_eq!(
        no("seed=+-5"),
        "seed = +-5 is invalid: allowed a whole number 0 <= x <= 18446744073709551615"
    );
    assert_eq!(no("name=[1]"), "name = [1] is invalid: allowed a string");
}

/// The least half-open limit the refusal states gets its whole run: the clock's rounds fill at
/// most half the changes a run keeps. (At 1e6 rounds allowed, two changes each, an hour at the
/// stated least of 0.0026 s was cut short at 1897 s, about half.)
#[test]
fn the_least_half_open_limit_stated_runs_to_the_end() {
    let mut s = sim::preset("recovery-warmup").unwrap();
    s.duration = 3600.0;
    s.window.automatic_transition_from_open_to_half_open_enabled = true;
    s.window.wait_duration_in_open_state = 0.001;
    s.window.max_wait_duration_in_half_open_state = 0.001;
    let e = s.validate().unwrap_err().to_string();
    // 3600 / 2^18 - 0.001 = 0.012733, up to three digits.
    assert!(
        e.contains("allowed 0 (off) or 0.0128 <= x <= 1e9 seconds"),
        "{e}"
    );
    s.window.max_wait_duration_in_half_open_state = 0.0128;
    let r = sim::run(&s, 10).unwrap();
    assert_eq!((r.cut_at_s, r.end_s), (None, 3600.0));
    let changes = r.breakers.window.events.len();
    // The clock went round all run: 3600 s / 14.8 ms a round, two changes each.
    assert!(changes > 480_000 && changes < sim::MAX_EVENTS, "{changes}");
}

/// One end of a stated range: the number as written, and whether it is allowed.
type End<'a> = (&'a str, bool);

/// The range a refusal states, `LO <= x < HI` and the like: each end's number (the value in
/// parentheses for one set by another field, `fine_rate (0.1) < x`) and whether it is allowed.
/// `None` for an end given by a formula (`x < 1 - trial_wrongly_opens`) or a message with none.
fn stated_range(msg: &str) -> Option<(Option<End<'_>>, Option<End<'_>>)> {
    let (left, right) = msg.split_once(" x ")?;
    let op = |t: &str| match t {
        "<=" => Some(true),
        "<" => Some(false),
        _ => None,
    };
    let lo = left.rsplit_once(' ').and_then(|(before, t)| {
        let inclusive = op(t)?;
        // The token before the operator, or the parenthesized value it ends with.
        let t = match before.strip_suffix(')') {
            Some(b) => b.rsplit_once('(')?.1,
            None => before.rsplit(' ').next()?,
        };
        Some((t, inclusive))
    });
    let mut words = right.split(' ');
    let inclusive = op(words.next()?)?;
    let hi = words.next().map(|t| (t.trim_end_matches(','), inclusive));
    let hi = if words.next() == Some("-") { None } else { hi };
    Some((lo, hi))
}

/// What a refusal says is allowed is what is checked. Every number setting of every preset,
/// given a word, states its range (the first phase's start aside: it is 0); and for every
/// setting that states one, the value just past each end (the end itself where it is excluded;
/// the next double, or the next whole number for a count, where it is included) is refused,
/// naming the setting. (Mutation testing found a check that did nothing,
/// `dependency.N.capacity`'s, with no test to notice: the range is worked out by validating, so
/// it went unstated too.)
#[test]
fn every_stated_range_is_the_range_checked() {
    let mut ends = 0;
    for p in sim::presets() {
        let s = p.scenario();
        let (v, mut paths) = (s.to_value(), Vec::new());
        leaves(&v, "", &mut paths);
        for path in paths.iter().filter(|p| *p != "trace") {
            let at = v.pointer(&format!("/{}", path.replace('.', "/")));
            let number = at.is_some_and(serde_json::Value::is_number);
            let Err(msg) = s.with_sets([format!("{path}=zzz").as_str()]) else {
                assert!(!number, "{}: {path}=zzz taken", p.name);
                continue; // a label, a name: any text is taken
            };
            // The message is this setting's (a name from a list quotes the edit).
            assert!(
                msg.starts_with(&format!("{path} = zzz is invalid: "))
                    || msg.starts_with(&format!("--set {path}=zzz: ")),
                "{msg}"
            );
            let range = stated_range(&msg);
            if number && path != "dependency.0.start" {
                assert!(
                    matches!(range, Some((Some(_), Some(_))))
                        || path == "statistical.trial_wrongly_closes",
                    "{}: {path} states no range: {msg}",
                    p.name
                );
            }
            let Some((lo, hi)) = range else {
                continue;
            };
            let whole = msg.contains("a whole number");
            for (end, up) in [(lo, false), (hi, true)] {
                let Some((end, inclusive)) = end else {
                    continue;
                };
                // Every end is a number (a mis-parsed one, refused as junk, would pass).
                let number = end.parse::<f64>();
                assert!(number.is_ok(), "{}: {path}: end {end:?} of {msg:?}", p.name);
                let v = match (inclusive, whole, up) {
                    (false, _, _) => end.to_string(),
                    // Counts as integers (the seed's end is u64::MAX, past a double's 2^53).
                    (true, true, true) => (end.parse::<i128>().unwrap() + 1).to_string(),
                    (true, true, false) => (end.parse::<i128>().unwrap() - 1).to_string(),
                    (true, false, true) => format!("{:e}", number.unwrap().next_up()),
                    (true, false, false) => format!("{:e}", number.unwrap().next_down()),
                };
                let e = s
                    .with_sets([format!("{path}={v}").as_str()])
                    .expect_err(&format!("{}: {path}={v} taken, past {msg:?}", p.name));
                assert!(
                    e.starts_with(&format!("{path} = {v} is invalid: ")),
                    "{}: {path}={v}: {e}",
                    p.name
                );
                ends += 1;
            }
        }
    }
    assert!(ends > 300, "{ends} ends");
}
