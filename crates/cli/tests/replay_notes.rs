//! What `breaker run --trace` says of the trace beside the run: its span, latencies that reach
//! the call timeout (milliseconds written bare are read as seconds), and that a scenario with
//! no outage phase cannot tell a false opening from a true one.

mod support;

use support::{refusal, success as breaker};

fn temp(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("breaker-cli-replay");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// 40 calls, 0.5 s apart, every fourth failing, latencies 41..80 in the unit given.
fn trace(unit: &str) -> String {
    let mut t = String::from("time_s,outcome,latency_s\n");
    for i in 0..40 {
        let outcome = if i % 4 == 3 { "503" } else { "200" };
        t.push_str(&format!("{},{outcome},{}{unit}\n", i as f64 * 0.5, 41 + i));
    }
    t
}

const NO_OUTAGE: &str = "no phase marks an outage while the trace lasts (the dependency is \
    fine throughout): every opening counts as false, and time_to_open_s and time_to_close_s have \
    nothing to measure; give the trace's outages as phases in a --scenario file \
    (\"dependency\": [{\"start\": ..., \"condition\": \"outage\"}, ...])";

const IN_FLIGHT: &str = "the run ends at the trace's last call: 40 of the statistical \
    breaker's 40 admitted calls and 40 of the window breaker's 40 had no result by then: no \
    breaker heard them (in_flight_at_end counts them; metrics that count a call as it is \
    admitted, such as calls_waited_on_failure, do too)";

#[test]
fn bare_milliseconds_are_said_to_reach_the_call_timeout() {
    let bare = temp("bare.csv", &trace(""));
    let out = String::from_utf8(breaker(&["run", "--trace", &bare]).stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1],
        format!(
            "replayed {bare}: 40 calls from 0 s to 19.5 s (the seed draws nothing in a replay)"
        )
    );
    // 41..80 s against the default call timeout of 30 s: all 40.
    assert_eq!(
        lines[2],
        "40 of 40 calls not recorded as timeouts took the call timeout (30 s) or longer and are \
         replayed as timeouts; bare latencies are seconds: if these are milliseconds, give them a \
         unit (120ms)"
    );
    assert_eq!(lines[3], NO_OUTAGE);
    // The run ends at the last call, 19.5 s, before any result (each at the 30 s timeout).
    assert_eq!(lines[4], IN_FLIGHT);
    assert!(
        lines[5].contains("(the same scenario and trace give the same run)"),
        "{}",
        lines[5]
    );
    // With --format json the hint and the note go to stderr; stdout stays JSON.
    let o = breaker(&["run", "--trace", &bare, "--format", "json"]);
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!(
            "breaker: warning: {}\nbreaker: warning: {NO_OUTAGE}\n",
            lines[2]
        )
    );
    serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();

    // Half at the timeout still gets the hint; under half is counted with none (hung calls are
    // what timeouts are for).
    let o = breaker(&["run", "--trace", &bare, "--set", "callers.call_timeout=61s"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        out.lines().nth(2).unwrap(),
        "20 of 40 calls not recorded as timeouts took the call timeout (61 s) or longer and are \
         replayed as timeouts; bare latencies are seconds: if these are milliseconds, give them a \
         unit (120ms)"
    );
    let o = breaker(&[
        "run",
        "--trace",
        &bare,
        "--set",
        "callers.call_timeout=62s",
        "--format",
        "json",
    ]);
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!("breaker: warning: {NO_OUTAGE}\n"),
        "under half: no hint, the note only"
    );
    let out = String::from_utf8(
        breaker(&["run", "--trace", &bare, "--set", "callers.call_timeout=62s"]).stdout,
    )
    .unwrap();
    assert_eq!(
        out.lines().nth(2).unwrap(),
        "19 of 40 calls not recorded as timeouts took the call timeout (62 s) or longer and are \
         replayed as timeouts"
    );

    // In milliseconds, none: no line about it.
    let ms = temp("ms.csv", &trace("ms"));
    let out = String::from_utf8(breaker(&["run", "--trace", &ms]).stdout).unwrap();
    assert!(!out.contains("took the call timeout"), "{out}");
    assert_eq!(out.lines().nth(2).unwrap(), NO_OUTAGE);
}

/// A scenario with an outage phase judges the openings: no such note.
#[test]
fn a_scenario_with_an_outage_phase_has_no_note() {
    let ms = temp("ms2.csv", &trace("ms"));
    let out =
        String::from_utf8(breaker(&["run", "--preset", "recovery-warmup", "--trace", &ms]).stdout)
            .unwrap();
    assert!(!out.contains("no phase marks an outage"), "{out}");
    assert!(out.lines().nth(1).unwrap().starts_with("replayed "));
    // A generated run says nothing of a trace, and names the seed.
    let out = String::from_utf8(breaker(&["run", "--preset", "recovery-warmup"]).stdout).unwrap();
    assert!(
        !out.contains("replayed") && !out.contains("no phase marks"),
        "{out}"
    );
    assert!(out.contains("(the same scenario and seed give the same run)"));
}

/// A refused time or header says how to mend a file exported from logs: a Unix time is rebased
/// on the earliest call, a clock time given in seconds, rows from several hosts' logs sorted, a
/// header named as the replay reads it, a file whose lines end in a carriage return alone
/// converted first.
#[test]
fn a_refused_trace_says_how_to_mend_it() {
    for (name, text, said) in [
        (
            "unix.csv",
            "1764720000.133,200,41ms\n",
            "trace line 1, field time_s: 1764720000.133 is invalid: allowed 0 <= x <= 1e9 \
             seconds (the longest run); times are seconds from the run's start: for Unix times, \
             subtract the earliest call's time from each",
        ),
        (
            "ended.csv",
            "-0.003,200,41ms\n",
            "trace line 1, field time_s: -0.003 is invalid: allowed 0 <= x <= 1e9 seconds (the \
             longest run); times are seconds from the run's start, none before it: subtract the \
             earliest call's time from each, not the first row's (a log stamped as each request \
             ends has earlier starts further down)",
        ),
        (
            "iso.csv",
            "2025-12-03T00:00:00.132Z,200,41ms\n",
            "trace line 1, field time_s: \"2025-12-03T00:00:00.132Z\" is not a number of \
             seconds; times are seconds from the run's start (0.20), not dates or clock times: \
             convert each to seconds after the earliest call",
        ),
        (
            "named.csv",
            "timestamp,status,duration_ms\n1,200,41\n",
            "trace line 1, field time_s: \"timestamp\" is not a number of seconds; a header, if \
             any, must be time_s,outcome,latency_s; times are seconds from the run's start (0.20), \
             and latencies seconds unless they carry a unit (120ms)",
        ),
        (
            "ms.csv",
            "time_s,status,duration_ms\n1,200,41\n",
            "trace line 1: a header must be time_s,outcome,latency_s, got \
             \"time_s,status,duration_ms\"; times and latencies in seconds, or latencies with a \
             unit (120ms)",
        ),
        (
            "merged.csv",
            "5019.542,200,41ms\n0.087,200,41ms\n",
            "trace line 2, field time_s: 0.087 is earlier than the line before (5019.542): times \
             must not decrease; sort the rows by time, keeping equal times in order: LC_ALL=C \
             sort -s -t, -k1,1g (a header stays first; with no header, remove a byte order mark \
             at the file's start first, or its line stays first: sed '1s/^\\xEF\\xBB\\xBF//')",
        ),
        (
            "unix-ms.csv",
            "1764720000133,200,41ms\n",
            "trace line 1, field time_s: 1764720000133 is invalid: allowed 0 <= x <= 1e9 seconds \
             (the longest run); times are seconds from the run's start: for Unix times in \
             milliseconds, subtract the earliest call's time from each and divide by 1000",
        ),
        // Microseconds and nanoseconds were told to divide by 1000 too, which left them 1000
        // and a million times too large.
        (
            "unix-us.csv",
            "1764720000133000,200,41ms\n",
            "trace line 1, field time_s: 1764720000133000 is invalid: allowed 0 <= x <= 1e9 \
             seconds (the longest run); times are seconds from the run's start: for Unix times in \
             microseconds, subtract the earliest call's time from each and divide by 1e6",
        ),
        (
            "unix-ns.csv",
            "1764720000133000000,200,41ms\n",
            "trace line 1, field time_s: 1764720000133000000 is invalid: allowed 0 <= x <= 1e9 \
             seconds (the longest run); times are seconds from the run's start: for Unix times in \
             nanoseconds, subtract the earliest call's time from each and divide by 1e9",
        ),
        (
            "far.csv",
            "1e300,200,41ms\n",
            "trace line 1, field time_s: 1e300 is invalid: allowed 0 <= x <= 1e9 seconds (the \
             longest run)",
        ),
        (
            "quoted.csv",
            "\"time_s\",\"outcome\",\"latency_s\"\n1,200,41ms\n",
            "trace line 1, field time_s: \"\\\"time_s\\\"\" is not a number of seconds; fields \
             are not quoted: remove the quotes",
        ),
        (
            "clock.csv",
            "12:00:01,200,41ms\n",
            "trace line 1, field time_s: \"12:00:01\" is not a number of seconds; times are \
             seconds from the run's start (0.20), not dates or clock times: convert each to \
             seconds after the earliest call",
        ),
        // A syslog time starts with a word, as a header does; a date alone had no hint.
        (
            "syslog.csv",
            "May 1 12:00:00,200,41ms\n",
            "trace line 1, field time_s: \"May 1 12:00:00\" is not a number of seconds; times \
             are seconds from the run's start (0.20), not dates or clock times: convert each to \
             seconds after the earliest call",
        ),
        (
            "date.csv",
            "2024-05-01,200,41ms\n",
            "trace line 1, field time_s: \"2024-05-01\" is not a number of seconds; times are \
             seconds from the run's start (0.20), not dates or clock times: convert each to \
             seconds after the earliest call",
        ),
        // Lines ended by a carriage return alone, with a header or without.
        (
            "mac.csv",
            "time_s,outcome,latency_s\r0.1,200,41ms\r",
            "trace line 1: a header must be time_s,outcome,latency_s, got \
             \"time_s,outcome,latency_s\\r0.1,200,41ms\"; a carriage return (\\r) inside a line: \
             a file whose lines end in \\r alone (a classic Mac export) reads as one line; convert \
             its line ends first, e.g. tr '\\r' '\\n' < in.csv > out.csv",
        ),
        (
            "mac-bare.csv",
            "0.1,200,41ms\r0.2,503,41ms\r",
            "trace line 1: expected 3 fields time_s,outcome,latency_s, got more in \
             \"0.1,200,41ms\\r0.2,503,41ms\"; a carriage return (\\r) inside a line: a file whose \
             lines end in \\r alone (a classic Mac export) reads as one line; convert its line \
             ends first, e.g. tr '\\r' '\\n' < in.csv > out.csv",
        ),
        // A backslash and an r are not a carriage return.
        (
            "backslash.csv",
            "0.1,C:\\run,41ms\n",
            "trace line 1, field outcome: unknown outcome \"C:\\\\run\": allowed success, timeout, \
             refused, server_error, overload, service_rate_limited, auth_rejected, \
             input_rejected, user_rate_limited, ok, fail, or an HTTP status",
        ),
        // No hint where none is known: a time with a unit, an empty time.
        (
            "unit.csv",
            "0.2s,200,41ms\n",
            "trace line 1, field time_s: \"0.2s\" is not a number of seconds",
        ),
        (
            "empty.csv",
            ",200,41ms\n",
            "trace line 1, field time_s: \"\" is not a number of seconds",
        ),
        // Not finite is out of range with no hint (below 0 has one: ended.csv above).
        (
            "inf.csv",
            "inf,200,41ms\n",
            "trace line 1, field time_s: inf is invalid: allowed 0 <= x <= 1e9 seconds (the \
             longest run)",
        ),
    ] {
        let path = temp(name, text);
        assert_eq!(
            refusal(&["run", "--trace", &path]),
            format!("breaker: {path}: {said}\n"),
            "{name}"
        );
    }
}

/// Calls recorded as timeouts are timeouts already: they are not counted as reaching the call
/// timeout, and an outage of them gives no hint about milliseconds.
#[test]
fn recorded_timeouts_are_not_counted() {
    let mut t = String::from("time_s,outcome,latency_s\n");
    for i in 0..100 {
        if (20..80).contains(&i) {
            t.push_str(&format!("{i},timeout,30\n"));
        } else {
            t.push_str(&format!("{i},200,120ms\n"));
        }
    }
    let path = temp("outage.csv", &t);
    let out = String::from_utf8(breaker(&["run", "--trace", &path]).stdout).unwrap();
    assert!(!out.contains("took the call timeout"), "{out}");
    // With the outage marked as a phase, a JSON run warns of nothing.
    let o = breaker(&[
        "run",
        "--trace",
        &path,
        "--set",
        "dependency.0.condition=outage",
        "--format",
        "json",
    ]);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A phase that is not fine counts only if it starts while the trace lasts: normal-week's
/// outage is on its third day, past a trace of 20 s.
#[test]
fn a_phase_after_the_trace_judges_nothing() {
    let ms = temp("short.csv", &trace("ms"));
    let out =
        String::from_utf8(breaker(&["run", "--preset", "normal-week", "--trace", &ms]).stdout)
            .unwrap();
    assert!(out.contains(NO_OUTAGE), "{out}");
}

/// A trace inside the scenario file (what the page's "Download scenario" saves for a trace run)
/// gets what `--trace` gets: the span, the timeout hint, the outage note, the refusal's hint, and
/// the header saying the trace, not the seed, decides the run. The run itself is the same.
#[test]
fn a_trace_in_the_scenario_file_gets_the_same_notes() {
    let text = trace("");
    let csv = temp("own.csv", &text);
    let json = serde_json::json!({ "trace": text }).to_string();
    let file = temp("own.json", &json);
    let by_file = String::from_utf8(breaker(&["run", "--trace", &csv]).stdout).unwrap();
    let inside = String::from_utf8(breaker(&["run", "--scenario", &file]).stdout).unwrap();
    let (a, b): (Vec<&str>, Vec<&str>) = (by_file.lines().collect(), inside.lines().collect());
    assert_eq!(
        b[1],
        format!(
            "replayed the trace in {file}: 40 calls from 0 s to 19.5 s (the seed draws nothing in \
             a replay)"
        )
    );
    assert_eq!(a[0], b[0], "the same run, by its hash");
    assert_eq!(a[2], b[2], "the timeout hint");
    assert_eq!(
        b[3],
        NO_OUTAGE.replace("in a --scenario file", "in the scenario"),
    );
    assert_eq!((a[4], b[4]), (IN_FLIGHT, IN_FLIGHT));
    assert!(b[5].contains("(the same scenario and trace give the same run)"));
    assert_eq!(a[6..], b[6..], "the metrics");
    // JSON: the same run on stdout, the notes on stderr.
    let o = breaker(&["run", "--scenario", &file, "--format", "json"]);
    let by_json = breaker(&["run", "--trace", &csv, "--format", "json"]);
    assert_eq!(o.stdout, by_json.stdout);
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!("breaker: warning: {}\nbreaker: warning: {}\n", b[2], b[3])
    );
    // A refusal names the scenario file and says how to mend the trace.
    let bad = temp("own-bad.json", r#"{ "trace": "5,ok,1\n4,ok,1\n" }"#);
    assert_eq!(
        refusal(&["run", "--scenario", &bad]),
        format!(
            "breaker: --scenario {bad}: trace line 2, field time_s: 4 is earlier than the line \
             before (5): times must not decrease; sort the rows by time, keeping equal times in \
             order: LC_ALL=C sort -s -t, -k1,1g (a header stays first; with no header, remove a \
             byte order mark at the file's start first, or its line stays first: sed \
             '1s/^\\xEF\\xBB\\xBF//')\n"
        )
    );
    // A trace given by `--set` is named so, not as the scenario file's.
    let plain = temp("plain.json", "{}");
    let o = breaker(&["run", "--scenario", &plain, "--set", "trace=5,ok,1"]).stdout;
    assert_eq!(
        String::from_utf8(o).unwrap().lines().nth(1).unwrap(),
        "replayed the trace given by --set: 1 call from 5 s to 5 s (the seed draws nothing in a \
         replay)"
    );
    // `--trace` replaces the scenario's own trace.
    let o =
        String::from_utf8(breaker(&["run", "--scenario", &bad, "--trace", &csv]).stdout).unwrap();
    assert_eq!(o.lines().nth(1).unwrap(), a[1]);
}

/// A `--trace` replay is checked over the trace's span, as a trace in the scenario is, not over
/// the duration it ignores: with a 1 ms open wait and automatic transitions, a half-open maximum
/// of 1 ms fits a trace of 19.5 s (at most 2^18 half-open rounds: the least is span / 2^18
/// minus the wait) but not the default hour (0.0128 s), and was refused for it.
#[test]
fn a_trace_is_checked_over_its_own_span() {
    let csv = temp("span.csv", &trace("ms"));
    let sets = [
        "window.automatic_transition_from_open_to_half_open_enabled=true",
        "window.wait_duration_in_open_state=0.001",
        "window.max_wait_duration_in_half_open_state=0.001",
    ];
    let mut args = vec!["run", "--trace", &csv, "--format", "json"];
    for s in &sets {
        args.extend(["--set", s]);
    }
    let by_file = breaker(&args);
    // The same trace inside the scenario ran before as now.
    let json = serde_json::json!({ "trace": trace("ms") }).to_string();
    let file = temp("span.json", &json);
    let mut args = vec!["run", "--scenario", &file, "--format", "json"];
    for s in &sets {
        args.extend(["--set", s]);
    }
    assert_eq!(by_file.stdout, breaker(&args).stdout);
    // Over generated traffic the hour's check still holds.
    let mut args = vec!["run", "--preset", "normal-week", "--set", "duration=3600"];
    for s in &sets {
        args.extend(["--set", s]);
    }
    let e = refusal(&args);
    assert!(
        e.contains("window.max_wait_duration_in_half_open_state = 0.001 is invalid"),
        "{e}"
    );
}

/// What a replay is judged by: a preset's phases (recovery-warmup: an outage from 8 s to 30 s, a
/// capacity of 2 calls/s from 30 s to 40 s) judged a trace pasted on its page, and shed its
/// recorded successes, unsaid. Said now; nothing said where no phase is anything but fine with
/// no capacity, or where every result is in by the end.
#[test]
fn a_replay_says_which_phases_judge_it_and_which_results_never_came() {
    let calls: String = (1..600)
        .map(|i| format!("{:.1},200,0.05\n", f64::from(i) * 0.1))
        .collect();
    let path = temp("judged.csv", &calls);
    let preset = String::from_utf8(
        breaker(&["run", "--preset", "recovery-warmup", "--trace", &path]).stdout,
    )
    .unwrap();
    let lines: Vec<&str> = preset.lines().collect();
    assert_eq!(
        lines[2],
        "this replay is judged by the scenario's phases (a trace records no health of its own): \
         the dependency counts as outage from 8 s to 30 s, degraded from 30 s to 40 s, not fine \
         (no opening there is a false alarm; the times to open and close are measured from its \
         outages); a capacity of 2 calls/s from 30 s to 40 s sheds the \
         calls over it as overloads, recorded successes too; where they are not the trace's own \
         outages, set them so, with capacity 0"
    );
    assert!(lines[3].starts_with("simulated below: "), "{}", lines[3]);
    // The default scenario: one fine phase, no capacity; every 50 ms answer in but the last.
    let plain = String::from_utf8(breaker(&["run", "--trace", &path]).stdout).unwrap();
    assert!(
        !plain.contains("judged by") && !plain.contains("had no result"),
        "{plain}"
    );
    // Every call at one instant: none answered by the end, and said.
    let instant = temp("instant.csv", &"100,503,5\n".repeat(1000));
    let out = String::from_utf8(breaker(&["run", "--trace", &instant]).stdout).unwrap();
    assert!(
        out.contains(
            "the run ends at the trace's last call: 1000 of the statistical breaker's 1000 \
             admitted calls and 1000 of the window breaker's 1000 had no result by then: no \
             breaker heard them (in_flight_at_end counts them; metrics that count a call as it \
             is admitted, such as calls_waited_on_failure, do too)"
        ),
        "{out}"
    );
    // A spreadsheet's export in a locale with decimal commas: semicolons between the fields.
    let hint = "fields are separated by commas and decimals written with a point (0.05), where \
                a spreadsheet in a locale with decimal commas writes semicolons: export with \
                commas, or convert, e.g. sed 's/,/./g; s/;/,/g' in.csv > out.csv\n";
    for (text, said) in [
        (
            "0,0;503;0,05\n",
            "trace line 1, field outcome: unknown outcome \"0;503;0\": allowed success, timeout, \
             refused, server_error, overload, service_rate_limited, auth_rejected, \
             input_rejected, user_rate_limited, ok, fail, or an HTTP status",
        ),
        (
            "time_s;outcome;latency_s\n0;503;0.05\n",
            "trace line 1: expected 3 fields time_s,outcome,latency_s, got \
             \"time_s;outcome;latency_s\"",
        ),
    ] {
        let path = temp("semicolons.csv", text);
        assert_eq!(
            refusal(&["run", "--trace", &path]),
            format!("breaker: {path}: {said}; {hint}")
        );
    }
    // A UTF-16 export says how to convert it.
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend("1.0,200,0.1\n".encode_utf16().flat_map(u16::to_le_bytes));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("breaker-cli-replay");
    let wide = dir.join("utf16.csv");
    std::fs::write(&wide, utf16).unwrap();
    let wide = wide.to_str().unwrap();
    assert_eq!(
        refusal(&["run", "--trace", wide]),
        format!(
            "breaker: {wide}: trace line 1: cannot read: stream did not contain valid UTF-8; the \
             file is not UTF-8 (a UTF-16 or Latin-1 export?): convert it first, e.g. iconv -f \
             UTF-16 -t UTF-8 in.csv > out.csv (-f LATIN1 for Latin-1)\n"
        )
    );
}

/// The calls left in flight at the end are said when they are a tenth or more of either
/// breaker's admitted calls: 4 of 40 is, 3 of 40 is not, and one breaker's share is enough
/// when the other, open, admitted fewer and has none left.
#[test]
fn calls_in_flight_at_the_end_are_said_from_a_tenth_of_either_breakers() {
    // 40 calls 0.5 s apart, fast (0.1 s; failures 0.01 s), the last `slow` taking 100 s.
    let trace = |failing: std::ops::Range<usize>, slow: usize| {
        let mut t = String::from("time_s,outcome,latency_s\n");
        for i in 0..40 {
            let (outcome, latency) = match (failing.contains(&i), i >= 40 - slow) {
                (_, true) => ("200", 100.0),
                (true, false) => ("503", 0.01),
                (false, false) => ("200", 0.1),
            };
            t.push_str(&format!("{},{outcome},{latency}\n", i as f64 * 0.5));
        }
        t
    };
    let said = |file: &str, text: &str, sets: &[&str]| {
        let path = temp(file, text);
        let mut args = vec!["run", "--trace", &path];
        for s in sets {
            args.extend(["--set", s]);
        }
        let out = String::from_utf8(breaker(&args).stdout).unwrap();
        out.lines()
            .find(|l| l.starts_with("the run ends at the trace's last call: "))
            .map(|l| {
                l.trim_start_matches("the run ends at the trace's last call: ")
                    .split(" had no result")
                    .next()
                    .unwrap()
                    .to_string()
            })
    };
    let both = |s: &str, sa: &str, w: &str, wa: &str| {
        Some(format!(
            "{s} of the statistical breaker's {sa} admitted calls and {w} of the window \
             breaker's {wa}"
        ))
    };
    assert_eq!(
        said("ten.csv", &trace(0..0, 4), &[]),
        both("4", "40", "4", "40")
    );
    assert_eq!(said("under.csv", &trace(0..0, 3), &[]), None);
    // Eight fast failures open the statistical breaker (the window of 100 calls never fills):
    // the window's 4 of 40 are said.
    let failing = trace(10..18, 4);
    assert_eq!(said("stat.csv", &failing, &[]), both("0", "17", "4", "40"));
    // A window of 5 opens, and a statistical breaker told 40% is fine and 50% broken does
    // not: its 4 of 40 are said.
    let sets = [
        "window.sliding_window_size=5",
        "window.minimum_number_of_calls=5",
        "statistical.fine_rate=0.4",
        "statistical.broken_rate=0.5",
    ];
    assert_eq!(
        said("window.csv", &failing, &sets),
        both("4", "40", "0", "13")
    );
}

/// An outage phase alone judges a replay too (no capacity anywhere), and a phase that the next
/// one ends at or after the trace's end runs "on": the replay never sees that end.
#[test]
fn an_outage_phase_alone_is_said_and_runs_on_past_the_trace() {
    let calls: String = (0..40)
        .map(|i| format!("{},200,0.05\n", f64::from(i) * 0.5))
        .collect();
    let path = temp("outage-only.csv", &calls);
    let judged = |next: &str| {
        let phases = format!(
            "dependency=[{{\"start\":0,\"condition\":\"fine\"}},{{\"start\":5,\"condition\":\
             \"outage\"}},{{\"start\":{next},\"condition\":\"fine\"}}]"
        );
        let out = breaker(&["run", "--trace", &path, "--set", &phases]).stdout;
        let out = String::from_utf8(out).unwrap();
        let line = out.lines().nth(2).unwrap().to_string();
        let how = line
            .strip_prefix(
                "this replay is judged by the scenario's phases (a trace records no health of \
                 its own): the dependency counts as outage ",
            )
            .unwrap_or_else(|| panic!("{out}"));
        how.split(", not fine").next().unwrap().to_string()
    };
    // The trace ends at 19.5 s.
    assert_eq!(judged("12"), "from 5 s to 12 s");
    assert_eq!(judged("19.5"), "from 5 s on");
    assert_eq!(judged("30"), "from 5 s on");
}
