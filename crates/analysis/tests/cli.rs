//! `breaker analyze`: every command in text and JSON, labeled figures, sweeps, and one-line
//! errors naming the flag.

use analysis::cli::run;
use serde_json::Value;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn json(s: &str) -> Value {
    let out = run(&args(&format!("{s} --format json"))).unwrap_or_else(|e| panic!("{s}: {e}"));
    serde_json::from_str(&out).unwrap()
}

/// Every object with a "kind" is a figure: a number (or null for infinity) and a known kind;
/// simulated ones carry ci95 and n, the others neither.
fn check_figures(v: &Value, count: &mut usize) {
    match v {
        Value::Object(m) => {
            if let Some(kind) = m.get("kind") {
                *count += 1;
                let kind = kind.as_str().unwrap();
                assert!(
                    ["exact", "bound", "approximation", "simulated"].contains(&kind),
                    "{kind}"
                );
                assert!(m["value"].is_number() || m["value"].is_null());
                let sim = kind == "simulated";
                assert_eq!(m.contains_key("ci95"), sim, "{v}");
                assert_eq!(m.contains_key("n"), sim, "{v}");
                if sim {
                    assert_eq!(m["ci95"].as_array().unwrap().len(), 2);
                    assert!(m["n"].as_u64().unwrap() > 0);
                }
            } else {
                m.values().for_each(|x| check_figures(x, count));
            }
        }
        Value::Array(a) => a.iter().for_each(|x| check_figures(x, count)),
        _ => {}
    }
}

#[test]
fn every_command_answers_in_text_and_json() {
    for cmd in [
        "false-alarms",
        "open-delay",
        "trials",
        "window --window 12",
        "drift",
    ] {
        let text = run(&args(cmd)).unwrap();
        assert!(text.lines().count() >= 3, "{cmd}: {text}");
        let v = json(cmd);
        let mut n = 0;
        check_figures(&v, &mut n);
        assert!(n >= 3, "{cmd}: {n} figures");
        assert_eq!(v["command"], cmd.split(' ').next().unwrap(), "{cmd}");
        // Text is the default, and can be asked for by name.
        assert_eq!(
            run(&args(&format!("{cmd} --format text"))),
            Ok(text),
            "{cmd}"
        );
    }
}

#[test]
fn a_simulation_too_long_to_run_is_skipped_at_once_and_says_why() {
    // 2000 runs of ~1.9e7 calls (the exact run length at ln 1e6) pass the 2e10-call cap: the
    // figure is left out, with the reason, instead of simulating until the cap runs out.
    let v = json("false-alarms --line-calls 1e6 --simulate 2000");
    let p = &v["points"][0];
    assert!(p["calls"].get("simulated").is_none());
    let exact = p["calls"]["exact"]["value"].as_f64().unwrap();
    assert!(exact * 2000.0 > analysis::report::SIMULATION_MAX_CALLS as f64);
    let note = p["simulation_note"].as_str().unwrap();
    assert!(
        note.starts_with("not simulated: 2000 runs") && note.contains("2e10"),
        "{note}"
    );
    let text = run(&args("false-alarms --line-calls 1e6 --simulate 2000")).unwrap();
    assert!(
        text.contains("(not simulated: 2000 runs of about 1.901e7 calls each"),
        "{text}"
    );
    // Fewer runs fit: simulated, no note.
    let v = json("false-alarms --line-calls 1e6 --simulate 20 --seed 2");
    let p = &v["points"][0];
    assert_eq!(p["calls"]["simulated"]["n"], 20);
    assert!(p.get("simulation_note").is_none());
    // Without --simulate, no note either.
    assert!(json("false-alarms --line-calls 1e6")["points"][0]
        .get("simulation_note")
        .is_none());
}

#[test]
fn false_alarms_reports_bound_exact_chain_approximation_and_simulation() {
    let v = json("false-alarms --line-calls 1000 --simulate 300 --seed 3");
    let p = &v["points"][0];
    assert_eq!(p["calls"]["bound"]["kind"], "bound");
    assert!((p["calls"]["bound"]["value"].as_f64().unwrap() - 1000.0).abs() < 1e-6);
    assert_eq!(p["calls"]["exact"]["kind"], "exact");
    assert_eq!(p["calls"]["markov_chain"]["kind"], "approximation");
    assert_eq!(p["calls"]["approximation"]["kind"], "approximation");
    assert_eq!(p["calls"]["simulated"]["kind"], "simulated");
    assert_eq!(p["calls"]["simulated"]["n"], 300);
    let exact = p["calls"]["exact"]["value"].as_f64().unwrap();
    assert!(exact >= 1000.0);
    // 60 calls a minute by default: seconds = calls.
    assert_eq!(p["seconds"]["exact"]["value"].as_f64().unwrap(), exact);
    assert!(p["exact_error"].as_f64().unwrap() < 1e-6 * exact);
    // Same seed, same numbers.
    assert_eq!(
        v,
        json("false-alarms --line-calls 1000 --simulate 300 --seed 3")
    );
}

/// Seconds are calls over the traffic: each way's value, of the same kind, and a simulated
/// figure's interval too, its run count kept (a quarter at 4 calls a second: exact in binary).
#[test]
fn seconds_are_calls_over_the_traffic_interval_included() {
    let v = json("false-alarms --line-calls 1000 --simulate 300 --seed 3 --rps 4");
    let p = &v["points"][0];
    for way in [
        "bound",
        "exact",
        "markov_chain",
        "approximation",
        "simulated",
    ] {
        let (c, s) = (&p["calls"][way], &p["seconds"][way]);
        assert_eq!(s["kind"], c["kind"], "{way}");
        let c = c["value"].as_f64().unwrap();
        assert_eq!(s["value"].as_f64().unwrap(), c / 4.0, "{way}");
    }
    let ci = |x: &Value| [x[0].as_f64().unwrap(), x[1].as_f64().unwrap()];
    let c = ci(&p["calls"]["simulated"]["ci95"]);
    assert!(0.0 < c[0] && c[0] < c[1], "{c:?}");
    assert_eq!(
        ci(&p["seconds"]["simulated"]["ci95"]),
        [c[0] / 4.0, c[1] / 4.0]
    );
    assert_eq!(p["seconds"]["simulated"]["n"], 300);
}

#[test]
fn line_comes_from_traffic_and_period() {
    let v = json("false-alarms --calls-per-minute 10 --period 1d");
    let p = &v["points"][0];
    assert!((p["line_calls"].as_f64().unwrap() - 14_400.0).abs() < 1e-6);
    let v = json("false-alarms --rps 2 --period 30d");
    assert!((v["points"][0]["line_calls"].as_f64().unwrap() - 5_184_000.0).abs() < 1e-3);
    // Time scales with traffic.
    let s = v["points"][0]["seconds"]["exact"]["value"]
        .as_f64()
        .unwrap();
    let c = v["points"][0]["calls"]["exact"]["value"].as_f64().unwrap();
    assert!((s - c / 2.0).abs() < 1e-9 * c);
    // The line never sinks below Wald's A (the breaker's floor).
    let v = json("false-alarms --line-calls 2");
    assert!(
        (v["points"][0]["line"].as_f64().unwrap() - v["settings"]["upper"].as_f64().unwrap()).abs()
            < 1e-12
    );
}

/// Traffic has a floor (1e-12 calls/min, 1e-13 calls/s): any positive rate was taken, and at
/// 1e-305 calls/min the exact time between false alarms read "inf" years, beside an error of
/// 3.1e291 years. At the floor every time is finite and still the calls over the rate. The
/// floor is the least traffic one breaker can see (the page asks at 5e-7 calls/min for 1e-6
/// split between two callers), and so is the ceiling, 1e12.
#[test]
fn traffic_has_a_floor_where_times_stay_finite() {
    for (a, e) in [
        (
            "false-alarms --calls-per-minute 1e-305",
            "--calls-per-minute: \"1e-305\" is not allowed: 1e-12 <= calls per minute <= 1e12",
        ),
        (
            "false-alarms --calls-per-minute 9.99e-13",
            "--calls-per-minute: \"9.99e-13\" is not allowed: 1e-12 <= calls per minute <= 1e12",
        ),
        (
            "false-alarms --rps 9.9e-14",
            "--rps: \"9.9e-14\" is not allowed: 1e-13 <= calls per second <= 1e10",
        ),
        (
            "false-alarms --rps 1.01e10",
            "--rps: \"1.01e10\" is not allowed: 1e-13 <= calls per second <= 1e10",
        ),
    ] {
        assert_eq!(run(&args(a)).unwrap_err(), e);
    }
    for (cpm, secs_per_call) in [(1e-12, 6e13), (5e-7, 1.2e8), (1e12, 6e-11)] {
        let v = json(&format!("open-delay --calls-per-minute {cpm}"));
        let p = &v["points"][0];
        let c = p["calls"]["exact"]["value"].as_f64().unwrap();
        let s = p["seconds"]["exact"]["value"].as_f64().unwrap();
        assert!(
            s.is_finite() && (s - c * secs_per_call).abs() <= 1e-12 * s,
            "{cpm}: {c} calls, {s} s"
        );
    }
    assert_eq!(
        run(&args("false-alarms --calls-per-minute 1.01e12")).unwrap_err(),
        "--calls-per-minute: \"1.01e12\" is not allowed: 1e-12 <= calls per minute <= 1e12"
    );
    // --rps's ends are the same traffic as --calls-per-minute at 60 times them.
    for (rps, cpm) in [("1e-13", "6e-12"), ("1e10", "6e11")] {
        let secs = |a: &str| {
            json(&format!("open-delay {a}"))["points"][0]["seconds"]["exact"]["value"]
                .as_f64()
                .unwrap()
        };
        let (r, c) = (
            secs(&format!("--rps {rps}")),
            secs(&format!("--calls-per-minute {cpm}")),
        );
        assert!(
            r.is_finite() && (r - c).abs() <= 1e-12 * c,
            "{rps}: {r} s, {c} s"
        );
    }
}

/// `--line-calls` takes every N the settings make: 1e12 calls/min over a 1e12 s period is
/// 1.7e22 calls. It refused anything past 1e15, even the 1.7e17 that `false-alarms` itself
/// reports at the scenario's largest traffic and period, and so did `--sweep`.
#[test]
fn line_calls_take_every_line_the_settings_make() {
    let v = json("false-alarms --calls-per-minute 1e12 --period 1e12");
    let n = v["points"][0]["line_calls"].as_f64().unwrap();
    assert!(n > 1.6e22 && n <= 1e23, "{n}");
    for a in [
        "false-alarms --line-calls 1.6666666666666667e17".to_string(),
        format!("false-alarms --line-calls {n}"),
        "false-alarms --sweep 1e15:1e23:3".to_string(),
    ] {
        let v = json(&a);
        for p in v["points"].as_array().unwrap() {
            let exact = p["calls"]["exact"]["value"].as_f64().unwrap();
            let bound = p["calls"]["bound"]["value"].as_f64().unwrap();
            assert!(
                exact.is_finite() && exact >= bound,
                "{a}: {exact} against {bound}"
            );
        }
    }
    assert_eq!(
        run(&args("false-alarms --line-calls 1.01e23")).unwrap_err(),
        "--line-calls: \"1.01e23\" is not allowed: 1 < N <= 1e23"
    );
    assert_eq!(
        run(&args("false-alarms --sweep 10:1.01e23:3")).unwrap_err(),
        "--sweep: 10:1.01e23:3 is not allowed: line calls N with 1 < N <= 1e23"
    );
}

#[test]
fn rates_accept_fractions_and_percentages() {
    assert_eq!(
        json("open-delay --fine 0.02 --broken 0.1 --true-rate 0.3"),
        json("open-delay --fine 2% --broken 10% --true-rate 30%")
    );
}

#[test]
fn sweeps_give_one_point_per_step() {
    let v = json("open-delay --sweep 5%:50%:7");
    assert_eq!(v["sweep"], "true_rate");
    assert_eq!(v["points"].as_array().unwrap().len(), 7);
    let calls: Vec<f64> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["calls"]["exact"]["value"].as_f64().unwrap())
        .collect();
    assert!(calls.windows(2).all(|w| w[1] < w[0]));
    let v = json("false-alarms --sweep 1e2:1e8:4");
    assert_eq!(v["sweep"], "line_calls");
    let ns: Vec<f64> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["line_calls"].as_f64().unwrap())
        .collect();
    assert_eq!(ns.len(), 4);
    assert!((ns[1] / 1e4 - 1.0).abs() < 1e-9, "log spacing: {ns:?}");
    let v = json("window --window 10 --sweep 1%:20%:5");
    assert_eq!(v["points"].as_array().unwrap().len(), 5);
    let v = json("trials --sweep 1%:40%:6:log");
    assert_eq!(v["points"].as_array().unwrap().len(), 6);
    let v = json("drift --sweep 0:100%:11");
    assert_eq!(v["points"].as_array().unwrap().len(), 11);
}

/// A count in the JSON is a whole number below 2^53 (JS's safe integers, all the page's
/// converter takes as an integer) and a float from 2^53 on.
#[test]
fn a_count_past_what_js_holds_is_written_as_a_float() {
    let write = |n: u64| {
        let mut out = Vec::new();
        analysis::report::whole_number(&n, &mut serde_json::Serializer::new(&mut out)).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(write(18), "18");
    assert_eq!(write((1 << 53) - 1), "9007199254740991");
    assert_eq!(write(1 << 53), "9007199254740992.0");
    assert_eq!(write(u64::MAX), "1.8446744073709552e+19");
}

#[test]
fn trials_default_to_fine_indifference_and_broken() {
    let v = json("trials --simulate 200");
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 3);
    assert_eq!(v["trials_to_close"], 18);
    assert_eq!(v["trials_to_open"], 4);
    for p in pts {
        assert_eq!(p["close_probability"]["exact"]["kind"], "exact");
        assert_eq!(
            p["close_probability"]["approximation"]["kind"],
            "approximation"
        );
        assert_eq!(p["expected_trials"]["simulated"]["kind"], "simulated");
    }
}

#[test]
fn window_reports_exact_up_to_18_and_simulates_beyond() {
    let v = json("window --window 12 --threshold 25% --baseline 5% --true-rate 50% --rps 5");
    assert_eq!(v["failures_to_trip"], 3);
    assert_eq!(v["time_to_fill"]["value"], 2.4);
    let p = &v["points"][0];
    assert_eq!(p["trips_per_day_sliding"]["exact"]["kind"], "exact");
    assert!(p["trips_per_day_sliding"].get("simulated").is_none());
    assert_eq!(v["outage"]["calls_to_open"]["exact"]["kind"], "exact");
    let v = json("window --window 40 --threshold 20% --baseline 5% --true-rate 50%");
    let p = &v["points"][0];
    assert!(p["trips_per_day_sliding"].get("exact").is_none());
    assert_eq!(p["trips_per_day_sliding"]["simulated"]["kind"], "simulated");
    assert_eq!(
        v["outage"]["calls_to_open"]["simulated"]["kind"],
        "simulated"
    );
}

#[test]
fn bad_flags_give_one_line_naming_the_flag() {
    let cases = [
        ("false-alarms --fine 2", "--fine"),
        ("false-alarms --fine 30% --broken 20%", "--broken"),
        ("trials --a 60% --b 50%", "--b"),
        ("window --window 0", "--window"),
        ("window --window 2.5", "--window"),
        ("window --threshold 120%", "--threshold"),
        ("open-delay --sweep 1:2", "--sweep"),
        ("open-delay --sweep 1%:2%:1", "--sweep"),
        ("open-delay --sweep 1%:200%:5", "--sweep"),
        ("false-alarms --sweep 0.5:100:4", "--sweep"),
        ("drift --format xml", "--format"),
        ("drift --bogus 1", "--bogus"),
        ("drift --true-rate", "--true-rate"),
        ("drift --true-rate five", "--true-rate"),
        ("false-alarms --period 5parsecs", "--period"),
        ("false-alarms --line-calls 1", "--line-calls"),
        ("false-alarms --simulate 0", "--simulate"),
        ("false-alarms --rps 1 --calls-per-minute 60", "--rps"),
        ("open-delay --true-rate 5% --sweep 1%:5%:3", "--true-rate"),
        ("nonsense", "nonsense"),
        ("", "missing command"),
    ];
    for (a, flag) in cases {
        let e = run(&args(a)).expect_err(a);
        assert_eq!(e.lines().count(), 1, "{a}: {e}");
        assert!(e.contains(flag), "{a}: {e}");
    }
    assert!(run(&args("--help"))
        .unwrap()
        .contains("usage: breaker analyze"));
}

/// `--help` / `-h` after a command is a request for the usage, not a flag missing its value.
#[test]
fn help_after_a_command_prints_the_usage() {
    for a in [
        "help",
        "-h",
        "trials --help",
        "false-alarms -h",
        "window --window 12 --help",
    ] {
        let out = run(&args(a)).unwrap_or_else(|e| panic!("{a}: {e}"));
        assert!(out.starts_with("usage: breaker analyze"), "{a}: {out}");
        assert!(
            analysis::cli::report(&args(a)).is_err(),
            "{a}: help has no report"
        );
    }
}

/// A rate whose range excludes 1 is refused at 1 by its own flag (not accepted, and not blamed
/// on another flag), and an out-of-range period names its whole range.
#[test]
fn rates_at_one_and_long_periods_are_refused_by_their_own_flag() {
    for (a, flag, allowed) in [
        ("trials --a 1", "--a:", "0 < a < 1 - b"),
        ("trials --b 100%", "--b:", "0 < b < 1 - a"),
        ("window --baseline 1", "--baseline:", "0 < baseline < 1"),
        ("false-alarms --fine 1", "--fine:", "0 < fine < 1 (e.g. 5%)"),
        (
            "false-alarms --period 100000000000000",
            "--period:",
            "1e-3 <= period <= 1e12 s",
        ),
        // The settings' false_alarm_period ends (0.0005 s ran).
        (
            "false-alarms --period 0.0005",
            "--period:",
            "1e-3 <= period <= 1e12 s",
        ),
        (
            "false-alarms --period 0.000999",
            "--period:",
            "1e-3 <= period <= 1e12 s",
        ),
    ] {
        let e = run(&args(a)).expect_err(a);
        assert!(e.starts_with(flag) && e.contains(allowed), "{a}: {e}");
    }
    // 100% stays allowed where the help says so.
    run(&args("open-delay --true-rate 1")).unwrap();
    run(&args("window --window 12 --threshold 100%")).unwrap();
}

/// The pair's bound gives `a` as given: `1 - a` in f64 (0.30000000000000004 for a = 0.7) is not
/// the bound `a + b < 1` checks, and the refused b = 0.3 sat below it.
#[test]
fn b_refused_by_the_pair_gives_a_as_given() {
    let e = run(&args("trials --a 0.7 --b 0.3")).expect_err("a + b = 1");
    assert_eq!(e, "--b: 0.3 is not allowed: 0 < b < 1 - a (a = 0.7)");
}

/// The drift figures say that they are exact in text too, as every number must.
#[test]
fn drift_in_text_says_it_is_exact() {
    let text = run(&args("drift")).unwrap();
    let header = text
        .lines()
        .find(|l| l.trim_start().starts_with("true rate"))
        .unwrap();
    assert!(
        header.contains("nats/call (exact)") && header.contains("points/call (exact)"),
        "{text}"
    );
    for cmd in ["false-alarms", "open-delay"] {
        let text = run(&args(cmd)).unwrap();
        assert!(text.contains(" nats/call (exact)"), "{cmd}: {text}");
    }
}

/// The window's sliding-trips simulation stops at its cap instead of leaving the figure out; the
/// help says so, and `n` gives the calls simulated.
#[test]
fn window_trips_simulation_cap_is_documented_and_reported() {
    let v = json("window --window 30 --simulate 5000");
    let n = v["points"][0]["trips_per_day_sliding"]["simulated"]["n"]
        .as_u64()
        .unwrap();
    assert_eq!(n, analysis::report::WINDOW_SIMULATION_MAX_CALLS);
    assert!(analysis::cli::USAGE.contains("most 2e7 in all"));
}

/// Rates so close that a success weighs nothing in f64 are refused on `--broken`, with the
/// breaker's own rule, instead of an internal error or "0 successes in a row close".
#[test]
fn rates_where_a_success_weighs_nothing_are_refused() {
    for cmd in ["false-alarms", "trials", "drift"] {
        let e = run(&args(&format!(
            "{cmd} --fine 0.3 --broken 0.30000000000000004"
        )))
        .unwrap_err();
        assert!(
            e.starts_with("--broken: 0.30000000000000004 is not allowed:")
                && e.contains("a success must weigh something"),
            "{cmd}: {e}"
        );
    }
}

/// Subnormal rates are refused naming their flag, as the breaker refuses them: a fine rate of
/// 5e-324 stopped false-alarms and open-delay with an internal error, drift gave w_ok = 0 and
/// a zero-drift rate of 0%, and a = b = 5e-324 made Wald's A infinite.
#[test]
fn subnormal_rates_are_refused_naming_their_flag() {
    for (cmd, flags, flag) in [
        (
            "false-alarms",
            "--fine 5e-324 --broken 1e-300",
            "--fine: 5e-324",
        ),
        (
            "open-delay",
            "--fine 1e-320 --broken 1e-310",
            "--fine: 1e-320",
        ),
        ("drift", "--fine 1e-320 --broken 1e-310", "--fine: 1e-320"),
        ("trials", "--a 5e-324 --b 5e-324", "--a: 5e-324"),
        ("false-alarms", "--b 1e-310", "--b: 1e-310"),
    ] {
        let e = run(&args(&format!("{cmd} {flags}"))).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "{flag} is not allowed: 0 < x < 1, at least 2.2250738585072014e-308"
            )),
            "{cmd} {flags}: {e}"
        );
    }
}

/// A Brook-Evans chain that says nothing (an error not finite or not below its value, or a
/// value below Lorden's proven bound) is left out: with rates 0.1% apart only coarse
/// convergents fit, and it gave 2.269e10 (+-inf) beside a bound of 1e15, or 8.24e7 (+-3.2e95)
/// beside 1e9. At the defaults it stays, within its error of the exact value.
#[test]
fn a_chain_figure_that_says_nothing_is_left_out() {
    for line_calls in ["1e15", "1e9", "1e2"] {
        let v = json(&format!(
            "false-alarms --fine 0.05 --broken 0.05005 --line-calls {line_calls}"
        ));
        let pt = &v["points"][0];
        assert!(pt["calls"]["markov_chain"].is_null(), "{line_calls}: {pt}");
        assert!(pt["markov_chain_error"].is_null(), "{line_calls}: {pt}");
        assert!(pt["calls"]["bound"]["value"].as_f64().is_some());
    }
    let v = json("false-alarms");
    let pt = &v["points"][0];
    let (chain, err, exact) = (
        pt["calls"]["markov_chain"]["value"].as_f64().unwrap(),
        pt["markov_chain_error"].as_f64().unwrap(),
        pt["calls"]["exact"]["value"].as_f64().unwrap(),
    );
    assert!((chain - exact).abs() <= err && err < chain, "{pt}");
}

/// A percentage threshold means the same as its fraction: resilience4j trips a window of 20 at
/// 7 failures with `failureRateThreshold = 35` (7 * 100f / 20 = 35f >= 35f), and so does
/// `--threshold 0.35`. `35%` used to be read as 35 * 0.01 = 0.35000000000000003, one ulp above
/// 0.35, so 7/20 fell short and the window needed 8 failures (likewise 57% of 100 needed 58,
/// 70% of 10 needed 8): every figure of the window report was for the wrong breaker. Checked
/// for every whole percentage against windows 1..=200 by integer arithmetic
/// (smallest k with 100 k >= pct n).
#[test]
fn percentage_threshold_trips_at_the_same_count_as_its_fraction() {
    for (n, pct, want) in [(20, 35, 7), (100, 57, 57), (10, 70, 7), (100, 41, 41)] {
        let v = json(&format!("window --window {n} --threshold {pct}%"));
        assert_eq!(v["failures_to_trip"], want, "window {n} at {pct}%");
        let f = json(&format!("window --window {n} --threshold 0.{pct}"));
        assert_eq!(v["failures_to_trip"], f["failures_to_trip"]);
        assert_eq!(
            v["points"][0]["trip_probability_per_window"],
            f["points"][0]["trip_probability_per_window"]
        );
    }
    for pct in 1..=100u32 {
        for n in 1..=200u32 {
            let want = (1..=n).find(|&k| 100 * k >= pct * n).unwrap();
            let t = breaker::units::parse_rate(&format!("{pct}%")).unwrap();
            assert_eq!(
                analysis::window::failures_to_trip(n, t),
                u64::from(want),
                "window {n} at {pct}%"
            );
        }
    }
}

/// The window figures are for a count window, and the text says so and which time window they
/// stand for at the traffic (about window / rate seconds, an approximation), as the page's window
/// curve marks a time window at about rate x seconds calls; the usage tells a time-based user what
/// to pass. They used to say "window 60 calls" only, and `--window` read like any window's size.
#[test]
fn window_text_says_count_based_and_the_time_window_it_stands_for() {
    let text = run(&args("window --window 60 --calls-per-minute 120")).unwrap();
    let head: Vec<&str> = text.lines().take(2).collect();
    assert!(
        head[0].starts_with("window breaker: count-based window of 60 calls, "),
        "{text}"
    );
    assert_eq!(
        head[1],
        "a time-based window of T s holds about 2.000 x T calls at this traffic: this stands for \
         one of about 30.00 s (an approximation: the calls in T s vary, and its minimum calls is \
         not capped at them)"
    );
    let usage = run(&args("help")).unwrap();
    assert!(
        usage.contains(
            "--window N              window breaker: slidingWindowSize of a COUNT_BASED window, in\n                          calls (default 100); a TIME_BASED window of T s at R calls/s holds\n                          about R x T calls: pass that (an approximation)"
        ),
        "{usage}"
    );
}

/// Counts in the text agree with their nouns: "1 success in a row closes", "a window of 1
/// call", "1 run", and the plural for any other count.
#[test]
fn text_says_one_call_not_one_calls() {
    let line = |s: &str, i: usize| -> String {
        run(&args(s))
            .unwrap_or_else(|e| panic!("{s}: {e}"))
            .lines()
            .nth(i)
            .unwrap()
            .to_string()
    };
    assert_eq!(
        line(
            "trials --fine 1% --broken 90% --a 30% --b 30% --true-rate 50%",
            2
        ),
        "a 30.00%  b 30.00%  open again at A = 0.8473 nats, close at B = -0.8473 nats; \
         1 success in a row closes, 1 failure in a row opens"
    );
    assert_eq!(
        line("trials --true-rate 50%", 2),
        "a 1.000%  b 5.000%  open again at A = 4.554 nats, close at B = -2.986 nats; \
         18 successes in a row close, 4 failures in a row open"
    );
    assert_eq!(
        line("window --window 1 --threshold 50%", 0),
        "window breaker: count-based window of 1 call, threshold 50.00%, minimum calls 1 \
         (1 failure in a full window trips), traffic 1.000 calls/s"
    );
    assert_eq!(
        line("window --window 4 --threshold 50%", 0),
        "window breaker: count-based window of 4 calls, threshold 50.00%, minimum calls 4 \
         (2 failures in a full window trip), traffic 1.000 calls/s"
    );
    // A minimum above the window is capped, and said so (resilience4j caps it silently).
    assert_eq!(
        line("window --window 10 --min-calls 50", 0),
        "window breaker: count-based window of 10 calls, threshold 50.00%, minimum calls 10 \
         (50 given, capped at the window size as resilience4j caps it; 5 failures in a full \
         window trip), traffic 1.000 calls/s"
    );
    let capped = json("window --window 10 --min-calls 50");
    assert_eq!(
        (&capped["minimum_calls"], &capped["minimum_calls_given"]),
        (&serde_json::json!(10), &serde_json::json!(50))
    );
    let last = |s: &str| run(&args(s)).unwrap().lines().last().unwrap().to_string();
    assert_eq!(
        last("false-alarms --line-calls 1e15 --simulate 1"),
        "  (not simulated: 1 run of about 1.875e16 calls would pass the 2e10 simulated calls \
         allowed; ask for a lower line)"
    );
    assert_eq!(
        last("false-alarms --line-calls 1e15 --simulate 2"),
        "  (not simulated: 2 runs of about 1.875e16 calls each would pass the 2e10 simulated \
         calls allowed; ask for fewer runs or a lower line)"
    );
}

/// One run gives no interval: the JSON's ends are null and the text says so instead of
/// "[-inf, inf]". (That the interval is Student's is the `num` module's own test.)
#[test]
fn one_simulated_run_has_no_interval() {
    let one = json("open-delay --simulate 1");
    let g = &one["points"][0]["calls"]["simulated"];
    assert_eq!(g["n"], 1);
    assert!(g["ci95"][0].is_null() && g["ci95"][1].is_null(), "{g}");
    let text = run(&args("open-delay --simulate 1")).unwrap();
    assert!(!text.contains("inf"), "{text}");
    assert!(text.contains("n=1 (no interval from one run)"), "{text}");
    let two = run(&args("open-delay --simulate 2")).unwrap();
    assert!(two.contains("] n=2") && !two.contains("inf"), "{two}");
}

/// `trials` gives half-open's chances with the breaker's time limit beside Wald's test run to its
/// end, for the factor asked (default 3, the breaker's), and names the flag when it is refused.
#[test]
fn trials_report_the_time_limit() {
    let v = json("trials --true-rate 0.2");
    let l = &v["points"][0]["time_limit"];
    assert_eq!(l["factor"], 3.0);
    // The call that starts half-open, then 3 x 18 on average by the limit.
    assert_eq!(l["mean_trials"], 55.0);
    assert_eq!(l["close_probability"]["kind"], "approximation");
    // The independent program of tests/time_limit.rs, mixed over 1 + Poisson(54) (it gives the
    // old 6.535% over Poisson(54) alone): 6.442% at p1 against Wald's 4.584%.
    let c = l["close_probability"]["value"].as_f64().unwrap();
    assert!((c - 0.064_420_232_430_924_86).abs() < 1e-12, "{c}");
    let v = json("trials --true-rate 0.2 --half-open-time-factor 100");
    let c = v["points"][0]["time_limit"]["close_probability"]["value"]
        .as_f64()
        .unwrap();
    let exact = v["points"][0]["close_probability"]["exact"]["value"]
        .as_f64()
        .unwrap();
    assert!(
        (c - exact).abs() < 1e-9,
        "a long limit is Wald's test run to its end: {c} vs {exact}"
    );
    let text = run(&args("trials --true-rate 0.2")).unwrap();
    assert!(text.contains("with the time limit (3 x 18 trials to close / the traffic: 54.00 s at 60 calls/min, about 1 + 54 = 55 trials tried): chance to close 0.06442 approx."), "{text}");
    // The traffic sets the limit's time, not its chances: `--calls-per-minute` was read by
    // `trials` and changed only the JSON's echo, so it looked ignored (a scripting review).
    let text = run(&args("trials --true-rate 0.2 --calls-per-minute 30")).unwrap();
    assert!(text.contains("with the time limit (3 x 18 trials to close / the traffic: 108.0 s at 30 calls/min, about 1 + 54 = 55 trials tried): chance to close 0.06442 approx."), "{text}");
    let e = run(&args("trials --half-open-time-factor 0")).unwrap_err();
    assert_eq!(
        e,
        "--half-open-time-factor: \"0\" is not allowed: 1e-3 <= factor <= 1e6 (e.g. 3)"
    );
}

/// The text's "about N trials tried" is an average of a Poisson count: it is printed to the
/// report's four digits at most, not with a double's rounding noise (1 + 0.3 x 18 =
/// 6.3999999999999995 in f64 was printed in full).
#[test]
fn time_limit_text_prints_the_mean_trials_to_four_digits() {
    let text = run(&args("trials --true-rate 0.2 --half-open-time-factor 0.3")).unwrap();
    assert!(!text.contains("6.3999999"), "{text}");
    assert!(
        text.contains("(0.3 x 18 trials to close / the traffic: 5.400 s at 60 calls/min, about 1 + 5.4 = 6.4 trials tried)"),
        "{text}"
    );
}

/// Numbers have about four significant digits, also where rounding carries to the next power of
/// ten: a sweep's 0.09999999999999998 read "10.000%" beside "50.00%", and 9.99999 "10.000".
#[test]
fn numbers_keep_four_digits_where_rounding_carries() {
    use analysis::cli::{num, pct};
    for (x, want) in [
        (9.99999, "10.00"),
        (9.9994, "9.999"),
        (0.0999999, "0.1000"),
        (99.99999, "100.0"),
        (999.99, "1000"),
        (1.0, "1.000"),
        (-9.99999, "-10.00"),
        (0.001, "0.001000"),
    ] {
        assert_eq!(num(x), want, "{x}");
    }
    assert_eq!(pct(0.09999999999999998), "10.00%");
    assert_eq!(pct(0.009999999999999995), "1.000%");
    // Below a hundredth of a percent, three digits in exponent form; 0 as it is.
    assert_eq!(pct(0.0), "0%");
    assert_eq!(pct(1e-4), "0.01000%");
    assert_eq!(pct(9.9e-5), "9.90e-3%");
    assert_eq!(pct(-1e-7), "-1.00e-5%");
    // `short` trims a fraction's zeros, and nothing in exponent form.
    use analysis::cli::short;
    for (x, want) in [
        (3.0, "3"),
        (5.4, "5.4"),
        (0.018, "0.018"),
        (1e10, "1.000e10"),
    ] {
        assert_eq!(short(x), want, "{x}");
    }
    let text = run(&args("open-delay --sweep 0.01:1:3:log")).unwrap();
    assert!(
        text.contains("true rate 1.000%") && text.contains("true rate 10.00%"),
        "{text}"
    );
    assert!(
        !text.contains("10.000%") && !text.contains("1.0000%"),
        "{text}"
    );
}

/// A rate below 1 never reads 100%, and rates that differ never read the same: `--fine 0.999999
/// --broken 0.9999999` printed "fine 100.0%  broken 100.0%" (a fine rate the settings refuse),
/// and `drift --fine 0.049999 --broken 0.05` "indifference zone 5.000% .. 5.000%".
#[test]
fn rates_that_differ_read_differently_and_none_below_1_reads_100() {
    use analysis::cli::pcts;
    assert_eq!(pcts([0.999999]), ["99.9999%"]);
    assert_eq!(pcts([0.05]), ["5.000%"]);
    assert_eq!(pcts([0.049999, 0.05]), ["4.9999%", "5.0000%"]);
    assert_eq!(pcts([0.05, 0.2]), ["5.000%", "20.00%"]);
    assert_eq!(pcts([0.0, 0.05]), ["0%", "5.000%"]);
    // Apart only past 15 decimals: each rate's shortest form, 0 as "0%".
    let next = f64::from_bits(0.01f64.to_bits() + 1);
    assert_eq!(pcts([0.01, next, 0.0]), ["1%", "1.0000000000000002%", "0%"]);
    let has = |cmd: &str, lines: &[&str]| {
        let text = run(&args(cmd)).unwrap();
        for line in lines {
            assert!(text.contains(line), "{cmd}: {line:?} in {text}");
        }
    };
    has(
        "false-alarms --fine 0.999999 --broken 0.9999999",
        &["fine 99.99990%  broken 99.99999%", "true rate 99.99990%"],
    );
    has(
        "drift --fine 0.049999 --broken 0.05",
        &[
            "fine 4.99990%  broken 5.00000%",
            "zero drift at 4.99995% (exact), inside the indifference zone 4.99990% .. 5.00000%",
        ],
    );
    // Every rate of one report alike: the true rates under the header too (p0 read "true rate
    // 5.000%" under "fine 4.9999%"), a and b, a window's baselines and outage.
    has(
        "trials --fine 0.049999 --broken 0.05",
        &[
            "true rate 4.99990%",
            "true rate 4.99995%",
            "true rate 5.00000%",
            "a 1.00000%  b 5.00000%",
        ],
    );
    has("trials --a 0.049999 --b 0.05", &["a 4.9999%  b 5.0000%"]);
    has(
        "window --baseline 0.049999 --true-rate 0.05",
        &[
            "\nbaseline 4.9999%\n",
            "outage at 5.0000% (from a full window at 4.9999%)",
        ],
    );
    has(
        "false-alarms",
        &["fine 5.000%  broken 20.00%", "true rate 5.000%"],
    );
    // Rates no 15 decimals tell apart: each in its shortest form, with an exponent (17 decimals
    // read all three as 0.00000000000000000%).
    has(
        "drift --sweep 1e-20:1.00001e-20:3:lin",
        &["9.999999999999999e-19%", "1.000005e-18%", "1.00001e-18%"],
    );
    // The chain left out, said as the exact figure's cap is: past its work limit here; at p1
    // 5.01% its grid within the limit says nothing (an error not below its value).
    for cmd in [
        "false-alarms --fine 0.999999 --broken 0.9999999",
        "false-alarms --broken 0.0501",
    ] {
        has(cmd, &["(no markov chain figure: past its work limit, or the finest grid within it too coarse to say anything: an error not below its value, or a value below the bound)"]);
    }
    // Wald's figures far from the exact ones (one step past a line), said: 0.049 expected
    // trials where every test takes one, 1446 calls against 126,423, a chance 300x too high.
    let far = "the exact figure: it leaves out the overshoot past the line, large where one step is a large part of it)";
    has(
        "trials --fine 0.001 --broken 0.999 --a 0.3 --b 0.3",
        &[
            &format!("expected trials: exact 1.000 (+-8.882e-16) | wald approximation 0.04917 (under half {far}"),
            &format!("chance to close: exact 0.001000 (+-8.882e-19) | wald approximation 0.3000 (over twice {far}"),
            "chance to close: exact 0.9990 (+-8.882e-19) | wald approximation 0.7000 (its complement over twice the exact one's: it leaves out the overshoot past the line, large where one step is a large part of it)\n",
            "chance to close: exact 0.5000 (+-4.441e-16) | wald approximation 0.5000\n",
        ],
    );
    has(
        "false-alarms --fine 0.001 --broken 0.5 --line-calls 1e2",
        &[&format!("| wald approximation 1446 (under half {far}")],
    );
    // A chance far on either side of one half, by itself or by its complement: 0.1784 against
    // 0.5714 (complements 1.92 apart) went unsaid.
    has(
        "trials --fine 0.001 --broken 0.999 --a 0.45 --b 0.01 --true-rate 0.42857142857142855",
        &["chance to close: exact 0.5714 (+-3.806e-16) | wald approximation 0.1784 (under half the exact figure: it leaves out the overshoot past the line, large where one step is a large part of it)\n"],
    );
    // Not against an exact figure that overflowed (its "inf" is not a value).
    has(
        "false-alarms --true-rate 5e-29",
        &["| exact inf | wald approximation 3.775e300\n"],
    );
    // Within a factor of two: nothing said (the README's example: 106339 against 180469).
    assert!(!run(&args("false-alarms --line-calls 1e4"))
        .unwrap()
        .contains("the exact figure: it leaves out"));
    assert!(!run(&args("false-alarms"))
        .unwrap()
        .contains("no markov chain"));
}

/// A seed is any u64, read as one (a float holds 2^53 exactly); a whole number spelt as a float
/// is refused for the spelling, as `breaker run --seed` refuses it, and the message says so.
#[test]
fn a_seed_is_a_whole_number_as_written() {
    let seeded = |seed: &str| run(&args(&format!("false-alarms --simulate 20 --seed {seed}")));
    assert!(seeded("18446744073709551615").is_ok());
    assert!(seeded("+5").is_ok());
    for (seed, says) in [
        ("-1", "\"-1\" is not allowed: an integer from 0 to 2^64-1"),
        ("2.5", "\"2.5\" is not allowed: an integer from 0 to 2^64-1"),
        (
            "18446744073709551616",
            "\"18446744073709551616\" is not allowed: an integer from 0 to 2^64-1",
        ),
        (
            "1e3",
            "\"1e3\" is not allowed: a seed is written as a whole number, without a fraction \
             or exponent (1000, not 1e3)",
        ),
        (
            "7.0",
            "\"7.0\" is not allowed: a seed is written as a whole number, without a fraction \
             or exponent (7, not 7.0)",
        ),
    ] {
        assert_eq!(seeded(seed).unwrap_err(), format!("--seed: {says}"));
    }
    // Worked out from the digits, not through a double.
    let whole = |n: &str, as_written: &str| {
        format!(
            "a seed is written as a whole number, without a fraction or exponent ({n}, not \
             {as_written})"
        )
    };
    for (seed, why) in [
        (
            "9007199254740993.0",
            Some(whole("9007199254740993", "9007199254740993.0")),
        ),
        (
            "18446744073709551615.0",
            Some(whole("18446744073709551615", "18446744073709551615.0")),
        ),
        (
            "1.8446744073709551615e19",
            Some(whole("18446744073709551615", "1.8446744073709551615e19")),
        ),
        ("+100e-2", Some(whole("1", "+100e-2"))),
        ("0.000e7", Some(whole("0", "0.000e7"))),
        ("1.8446744073709551616e19", None),
        ("5.0000000000000001", None),
        ("1e-400", None),
        ("1e999999999999", None),
        ("-0", None),
        ("-1e3", None),
        ("1e", None),
        (".", None),
        ("0x10", None),
    ] {
        assert_eq!(analysis::cli::seed_spelling(seed), why, "{seed}");
    }
}

/// A seed is read only where something is drawn: `false-alarms --seed 3` printed the exact
/// figures as if no seed were given, unsaid, where a flag a command does not read is refused.
#[test]
fn a_seed_without_a_simulation_is_refused() {
    for cmd in ["false-alarms", "open-delay", "trials", "window --window 18"] {
        let e = run(&args(&format!("{cmd} --seed 3"))).unwrap_err();
        assert!(
            e.starts_with("--seed: nothing here is simulated without --simulate N"),
            "{cmd}: {e}"
        );
        // With --simulate it draws, and the seed is taken.
        run(&args(&format!("{cmd} --seed 3 --simulate 20"))).unwrap();
    }
    assert_eq!(
        run(&args("window --window 18 --seed 3")).unwrap_err(),
        "--seed: nothing here is simulated without --simulate N (a window of up to 18 calls \
         is exact); give both or neither"
    );
    // A window beyond the exact chain is simulated anyway: the seed changes its figures.
    let a = json("window --window 19 --baseline 30% --seed 3");
    let b = json("window --window 19 --baseline 30% --seed 4");
    let sim = |v: &Value| v["points"][0]["trips_per_day_sliding"]["simulated"]["value"].clone();
    assert!(sim(&a).as_f64().unwrap() > 0.0);
    assert_ne!(sim(&a), sim(&b));
    assert_eq!(json("window --window 19 --baseline 30% --seed 3"), a);
    // At 18 calls, the chain's last size, it is exact only.
    let at18 = json("window --window 18 --baseline 30%");
    let sliding = &at18["points"][0]["trips_per_day_sliding"];
    assert!(
        sliding["exact"]["value"].as_f64().unwrap() > 0.0,
        "{sliding}"
    );
    assert!(sliding.get("simulated").is_none(), "{sliding}");
}

/// `--period` only sets N (calls per minute × period): beside `--line-calls`, or a
/// false-alarms sweep over N, it was read and then changed nothing, unsaid.
#[test]
fn a_period_that_sets_nothing_is_refused() {
    for (a, e) in [
        (
            "false-alarms --period 1d --line-calls 1e4",
            "--period: --line-calls already sets N",
        ),
        (
            "open-delay --line-calls 1e4 --period 1d",
            "--period: --line-calls already sets N",
        ),
        (
            "false-alarms --period 1d --sweep 1e2:1e6:5",
            "--period: a false-alarms --sweep already varies N",
        ),
    ] {
        let got = run(&args(a)).unwrap_err();
        assert!(got.starts_with(e), "{a}: {got}");
    }
    // Where it sets N it is read: a day at 10 calls/min is N = 14400.
    let v = json("false-alarms --calls-per-minute 10 --period 1d");
    let n = v["points"][0]["line_calls"].as_f64().unwrap();
    assert!((n - 14400.0).abs() < 1e-9, "{n}");
    // open-delay's sweep varies the true rate, so its period still sets N.
    json("open-delay --period 1d --sweep 0.2:0.5:3");
}

/// Drift is defined at a true rate of 0, and its sweep took 0 while `--true-rate 0` was refused;
/// the commands that need failures still refuse it.
#[test]
fn drift_takes_a_true_rate_of_0_as_its_sweep_does() {
    let one = json("drift --true-rate 0");
    let swept = json("drift --sweep 0:100%:11");
    assert_eq!(one["points"][0], swept["points"][0]);
    assert_eq!(one["points"][0]["true_rate"], 0.0);
    assert_eq!(json("drift --true-rate -0")["points"], one["points"]);
    for cmd in ["false-alarms", "open-delay", "trials", "window"] {
        assert_eq!(
            run(&args(&format!("{cmd} --true-rate 0"))).unwrap_err(),
            "--true-rate: \"0\" is not allowed: 0 < true rate <= 1 (e.g. 20%; drift takes 0)",
            "{cmd}"
        );
    }
    assert_eq!(
        run(&args("drift --true-rate -1%")).unwrap_err(),
        "--true-rate: \"-1%\" is not allowed: 0 < true rate <= 1 (e.g. 20%; drift takes 0)"
    );
}

/// An error that is not finite is left out of the text, as JSON leaves it null: "exact inf
/// (+-inf)" beside a figure past a double's range said nothing the value did not.
#[test]
fn an_error_that_is_not_finite_is_not_printed() {
    let text = run(&args("false-alarms --true-rate 1e-300")).unwrap();
    assert!(text.contains("| exact inf |"), "{text}");
    assert!(!text.contains("+-inf"), "{text}");
    let v = json("false-alarms --true-rate 1e-300");
    assert!(v["points"][0]["exact_error"].is_null());
    // A finite error is still given.
    assert!(run(&args("false-alarms"))
        .unwrap()
        .contains("exact 4.746e7 (+-"));
}

/// The window's two times in its text each say their kind (the first evaluation's had none; its
/// JSON says exact): at 1 call/s, a window of 100 fills in 100 s, and minimum calls of 100 are
/// met then too.
#[test]
fn the_windows_times_say_their_kind() {
    let text = run(&args(
        "window --window 100 --min-calls 100 --calls-per-minute 60",
    ))
    .unwrap();
    assert!(
        text.contains(
            "time to fill the window: 100.0 s; to the first evaluation: 100.0 s (both exact as calls over the traffic: for calls evenly spaced, the n-th at n / rate as the simulator's, and the mean for Poisson calls)\n"
        ),
        "{text}"
    );
    let v = json("window --window 100 --min-calls 100 --calls-per-minute 60");
    assert_eq!(v["time_to_first_evaluation"]["kind"], "exact");
    assert_eq!(v["time_to_fill"]["kind"], "exact");
}

/// A value that does not read says the range too, as one out of range does (`--fine NaN` said
/// only that it is not a finite rate).
#[test]
fn a_value_that_does_not_read_says_the_range() {
    for (a, said) in [
        ("false-alarms --fine NaN", "--fine: \"NaN\" is not a finite rate; allowed 0 < fine < 1 (e.g. 5%)"),
        ("trials --b abc", "--b: \"abc\" is not a rate: use 0.05 or 5%; allowed 0 < b < 1 - a (e.g. 5%)"),
        (
            "false-alarms --period soon",
            "--period: \"soon\" is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d); \
             allowed 1e-3 <= period <= 1e12 s (e.g. 30d)",
        ),
    ] {
        assert_eq!(run(&args(a)).unwrap_err(), said, "{a}");
    }
}

/// A simulated time's interval is written in its figure's unit, and each end is the JSON's
/// value in that unit: at 50% the mean (2.024 min) and the upper end were in minutes, the
/// lower end (118.3 s) in seconds.
#[test]
fn a_time_and_its_interval_share_one_unit() {
    let cmd = "window --true-rate 0.5";
    let text = run(&args(cmd)).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("time to open:"))
        .unwrap();
    let sim = &json(cmd)["outage"]["seconds_to_open"]["simulated"];
    let (v, lo, hi) = (
        sim["value"].as_f64().unwrap(),
        sim["ci95"][0].as_f64().unwrap(),
        sim["ci95"][1].as_f64().unwrap(),
    );
    assert!(lo < 120.0 && v > 120.0, "the ends straddle 2 min: {lo} {v}");
    let min = |s: f64| format!("{:.3} min", s / 60.0);
    let n = sim["n"].as_u64().unwrap();
    assert_eq!(
        line.trim(),
        format!(
            "time to open: simulated {} [{}, {}] n={n}",
            min(v),
            min(lo),
            min(hi)
        )
    );
}

/// The window breaker's time to open is its calls to open at the traffic given: a window of 10
/// calls exact (the chain, no interval), one of 100 simulated, both ends of its interval too.
#[test]
fn the_windows_time_to_open_is_its_calls_at_the_traffic() {
    for window in ["10", "100"] {
        for rps in [1.0, 4.0, 0.25] {
            let cmd = format!("window --window {window} --true-rate 0.5 --rps {rps}");
            let v = json(&cmd);
            let (calls, secs) = (
                &v["outage"]["calls_to_open"],
                &v["outage"]["seconds_to_open"],
            );
            let way = if window == "10" { "exact" } else { "simulated" };
            let c = calls[way]["value"].as_f64().unwrap();
            assert!(c > 1.0, "{cmd}: {calls}");
            assert_eq!(secs[way]["value"].as_f64(), Some(c / rps), "{cmd}");
            let ends = (&calls[way]["ci95"], &secs[way]["ci95"]);
            if way == "exact" {
                assert!(ends.0.is_null() && ends.1.is_null(), "{cmd}");
                continue;
            }
            for end in [0, 1] {
                let c = ends.0[end].as_f64().unwrap();
                assert_eq!(ends.1[end].as_f64(), Some(c / rps), "{cmd}");
            }
        }
    }
}

/// A line asked below the breaker's floor gets the floor, and the text says so: `--period 1s`
/// at 60 calls/min asks for ln 1 and printed ln(95) with nothing said (a scripting review).
#[test]
fn a_line_at_the_floor_says_so() {
    let floor = "  (the line is the breaker's floor, max(A, w_fail + |w_ok|): no line is lower, so a smaller N asked for gives this one)\n";
    for cmd in ["false-alarms --period 1s", "open-delay --line-calls 2"] {
        let text = run(&args(cmd)).unwrap();
        assert!(
            text.contains("line 4.554 nats = ln(95.00) = 26.50 points  drift "),
            "{text}"
        );
        assert_eq!(text.matches(floor).count(), 1, "{cmd}: {text}");
        // A is the floor here (w_fail + |w_ok| = 1.558 < A = 4.554).
        let v = json(cmd);
        assert_eq!(v["points"][0]["line"], v["settings"]["line_floor"]);
        assert_eq!(v["settings"]["line_floor"], v["settings"]["upper"]);
    }
    let text = run(&args("false-alarms --line-calls 96")).unwrap();
    assert!(!text.contains("floor"), "{text}");
}

/// A rate above 0 never reads 0%: `--b 1e-9` beside a true rate of 0.999999 printed
/// "b 0.0000%" (the decimals were chosen for the true rate against 100% only).
#[test]
fn a_rate_above_0_never_reads_0_percent() {
    let text = run(&args("trials --b 1e-9 --true-rate 0.999999")).unwrap();
    assert!(
        text.contains("  b 0.0000001%  open again at A = "),
        "{text}"
    );
    assert!(!text.contains(" 0.0000%"), "{text}");
}

/// A simulated mean whose runs all agree has no interval (none to make from no spread): 1,000
/// runs of 11 calls to open at 0.999999 gave "[11.00, 11.00]", a certainty, where the exact
/// figure is 11.000011.
#[test]
fn a_mean_of_equal_runs_has_no_interval() {
    let args_ = "open-delay --simulate 1000 --true-rate 0.999999";
    let v = json(args_);
    let sim = &v["points"][0]["calls"]["simulated"];
    assert_eq!(sim["value"], 11.0);
    assert_eq!(sim["ci95"], serde_json::json!([null, null]));
    assert_eq!(sim["n"], 1000);
    let exact = v["points"][0]["calls"]["exact"]["value"].as_f64().unwrap();
    assert!(exact > 11.0 && exact < 11.0001, "{exact}");
    let text = run(&args(args_)).unwrap();
    assert!(
        text.contains(
            "| simulated 11.00 n=1000 (every run gave this: no spread for an interval)\n"
        ),
        "{text}"
    );
}

/// Which flags each command reads, as the usage says of each: every flag given to every
/// command alone is taken or refused as one the command does not use, `reads` says the same,
/// and a flag the command reads is refused when given twice, in either spelling. (Nothing in
/// this crate checked the table: a mutant that let `drift` take `--rps`, or took a flag twice,
/// passed here.)
#[test]
fn each_command_reads_exactly_its_flags_each_once() {
    let common = "fine broken true-rate sweep format";
    let table = [
        (
            "false-alarms",
            "a b line-calls calls-per-minute rps period simulate seed",
        ),
        (
            "open-delay",
            "a b line-calls calls-per-minute rps period simulate seed",
        ),
        (
            "trials",
            "a b calls-per-minute rps half-open-time-factor simulate seed",
        ),
        (
            "window",
            "window threshold min-calls baseline calls-per-minute rps simulate seed",
        ),
        ("drift", ""),
    ];
    let every: Vec<&str> = analysis::cli::USAGE
        .lines()
        .filter_map(|l| l.strip_prefix("  --"))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(every.len(), 18);
    let value = |flag: &str| match flag {
        "line-calls" | "window" | "min-calls" | "simulate" | "seed" => "10",
        "period" => "1d",
        "half-open-time-factor" | "calls-per-minute" | "rps" => "2",
        "sweep" => "0.01:0.02:2",
        "format" => "json",
        _ => "1%",
    };
    for (cmd, own) in table {
        let reads: Vec<&str> = common.split(' ').chain(own.split_whitespace()).collect();
        for flag in &every {
            let read = reads.contains(flag);
            assert_eq!(
                analysis::cli::reads(cmd, flag),
                Some(read),
                "{cmd} --{flag}"
            );
            let v = value(flag);
            // A flag after it that no command has: reading goes on past a flag it takes.
            let once = run(&args(&format!("{cmd} --{flag} {v} --zz 1")));
            let refusal = if read {
                "analyze: unknown flag --zz (see breaker analyze --help)".to_string()
            } else {
                format!("--{flag}: {cmd} does not use it (see breaker analyze {cmd} --help)")
            };
            assert_eq!(once, Err(refusal), "{cmd} --{flag}");
            if !read {
                continue;
            }
            for twice in [
                format!("{cmd} --{flag} {v} --{flag} {v}"),
                format!("{cmd} --{flag}={v} --{flag} {v}"),
                format!("{cmd} --{flag} {v} --{flag}={v}"),
            ] {
                assert_eq!(
                    run(&args(&twice)),
                    Err(format!("--{flag}: given twice")),
                    "{twice}"
                );
            }
        }
        assert_eq!(analysis::cli::reads(cmd, "nope"), Some(false));
    }
    assert_eq!(analysis::cli::reads("curves", "fine"), None);
    assert_eq!(analysis::cli::reads("", "fine"), None);
}

/// Half-open's lines for the rates and errors given: with p0 = 2%, p1 = 10%,
/// a = 10%, b = 5%, Wald's B = ln(b/(1-a)) over w_ok = ln((1-p1)/(1-p0)) is 33.9 successes, so
/// 34 close; A = ln((1-b)/a) over w_fail = ln(p1/p0) is 1.40 failures, so 2 open. (The default
/// p0 of 5% would give 54 and 4; the default a of 1%, 36 and 3. This b is the default: a b
/// given is read in `text_says_one_call_not_one_calls`.)
#[test]
fn trials_counts_use_the_rates_and_errors_given() {
    let (p0, p1, a, b) = (0.02f64, 0.10f64, 0.10f64, 0.05f64);
    let close = ((b / (1.0 - a)).ln() / ((1.0 - p1) / (1.0 - p0)).ln()).ceil();
    let open = (((1.0 - b) / a).ln() / (p1 / p0).ln()).ceil();
    assert_eq!((close, open), (34.0, 2.0));
    let v = json("trials --fine 2% --broken 10% --a 10% --b 5%");
    assert_eq!(v["trials_to_close"], 34);
    assert_eq!(v["trials_to_open"], 2);
}

/// The broken rate must be above the fine one: equal is refused, as below is.
#[test]
fn a_broken_rate_equal_to_the_fine_one_is_refused() {
    for cmd in ["false-alarms", "open-delay", "trials", "window", "drift"] {
        assert_eq!(
            run(&args(&format!("{cmd} --fine 10% --broken 10%"))),
            Err("--broken: 0.1 is not allowed: fine (0.1) < broken < 1".into()),
            "{cmd}"
        );
    }
}

/// Each sweep's range, at its ends: rates in (0, 1] (drift from 0 on a linear sweep), line
/// calls N in (1, 1e23], baselines in (0, 1); either end out refuses the sweep.
#[test]
fn sweeps_are_refused_past_either_end_of_their_range() {
    for (a, ok) in [
        ("open-delay --sweep 0:0.5:2", false),
        ("open-delay --sweep 0.5:0:2", false),
        ("open-delay --sweep 0.5:1.5:2", false),
        ("open-delay --sweep 1.5:0.5:2", false),
        ("trials --sweep 0:0.5:2", false),
        ("trials --sweep 0.5:1.0000001:2", false),
        ("drift --sweep 0:1:3", true),
        ("drift --sweep 1:0:3", true),
        ("drift --sweep 0:0.5:3:log", false),
        ("drift --sweep 0.5:0:3:log", false),
        ("drift --sweep 0:1.5:3", false),
        ("drift --sweep 1.5:0:3", false),
        ("false-alarms --sweep 1:100:2", false),
        ("false-alarms --sweep 100:1:2", false),
        ("false-alarms --sweep 1.5:100:2", true),
        ("false-alarms --sweep 1e23:100:2", true),
        ("false-alarms --sweep 100:1.1e23:2", false),
        ("false-alarms --sweep 1.1e23:100:2", false),
        ("window --window 10 --sweep 0:0.5:2", false),
        ("window --window 10 --sweep 0.5:0:2", false),
        ("window --window 10 --sweep 1:0.5:2", false),
        ("window --window 10 --sweep 0.5:1:2", false),
        ("window --window 10 --sweep 0.01:0.99:2", true),
    ] {
        let r = run(&args(a));
        match r {
            Ok(_) => assert!(ok, "{a}: accepted"),
            Err(e) => {
                assert!(!ok, "{a}: {e}");
                let range = a.rsplit(' ').next().unwrap();
                assert!(
                    e.starts_with(&format!("--sweep: {range} is not allowed: ")),
                    "{a}: {e}"
                );
            }
        }
    }
}

/// A bound reads `>=`, and times in the unit their size takes: at the defaults, 549.3 days
/// between false alarms (4.746e7 calls at one a second) is under two years, so in days.
#[test]
fn times_read_in_their_unit_and_bounds_as_at_least() {
    let text = run(&args("false-alarms")).unwrap();
    assert!(
        text.contains("\n  time: bound >= 30.00 d | exact 549.3 d (+-"),
        "{text}"
    );
    assert!(text.contains("calls between false alarms: bound >= 2.592e6 | exact 4.746e7"));
    // At 2 calls/s the same calls take half the time (47,461,385.5 calls: 274.66 days), and
    // their errors, given in calls, too; a window's 117 calls to open at 4 calls/s, 29.25 s.
    use analysis::cli::num;
    let a = "false-alarms --line-calls 2.592e6 --rps 2";
    let (text, p) = (run(&args(a)).unwrap(), json(a)["points"][0].clone());
    let days = |calls: &Value| num(calls.as_f64().unwrap() / 2.0 / 86_400.0);
    let want = format!(
        "time: bound >= 15.00 d | exact 274.7 d (+-{} d) | markov chain approximation 274.7 d \
         (+-{} d)",
        days(&p["exact_error"]),
        days(&p["markov_chain_error"])
    );
    assert!(text.contains(&want), "{want} in {text}");
    let a = "window --window 10 --rps 4";
    let (text, o) = (run(&args(a)).unwrap(), json(a)["outage"].clone());
    let e = o["calls_error"].as_f64().unwrap();
    let want = format!("time to open: exact 29.25 s (+-{} s)", num(e / 4.0));
    assert!(
        text.contains("calls to open: exact 117.0 (+-") && text.contains(&want),
        "{text}"
    );
    // Past two years, in years.
    let text = run(&args("false-alarms --period 1461d")).unwrap();
    assert!(
        text.contains("\n  time: bound >= 4.000 years | exact "),
        "{text}"
    );
}

/// Wald's figure is far from the exact one strictly under half or over twice it; a chance is
/// also judged by its complement, and only a chance, and only where both are below 1.
#[test]
fn wald_far_is_strict_and_judges_complements_of_chances_only() {
    use analysis::cli::wald_far;
    assert_eq!(wald_far(1.0, 0.5, false), None);
    assert_eq!(wald_far(1.0, 2.0, false), None);
    assert_eq!(wald_far(1.0, 0.4999, false), Some((false, "under half")));
    assert_eq!(wald_far(1.0, 2.0001, false), Some((false, "over twice")));
    assert_eq!(wald_far(0.999, 0.7, true), Some((true, "over twice")));
    assert_eq!(wald_far(0.7, 0.999, true), Some((true, "under half")));
    assert_eq!(wald_far(0.999, 0.7, false), None);
    // An exact chance of 1 has no complement to divide by (0.3 against 0), and Wald's 1 none
    // to compare (0 against 0.3).
    assert_eq!(wald_far(1.0, 0.7, true), None);
    assert_eq!(wald_far(0.7, 1.0, true), None);
    assert_eq!(wald_far(f64::INFINITY, 1.0, false), None);
    assert_eq!(wald_far(0.0, 0.0, true), None);
    assert_eq!(wald_far(0.0, 0.1, false), Some((false, "over twice")));
}
