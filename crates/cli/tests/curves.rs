//! `breaker analyze curves`: the page's analysis charts for a scenario, from the command line.

mod support;

use serde_json::Value;
use support::{refusal, stdout};

fn json(args: &[&str]) -> Value {
    let mut all = vec!["analyze", "curves"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    serde_json::from_str(&stdout(&all)).unwrap()
}

fn curve<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["curves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no curve {id}"))
}

fn line<'a>(c: &'a Value, label: &str) -> &'a Value {
    c["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["label"] == label)
        .unwrap_or_else(|| panic!("no line {label} in {}", c["id"]))
}

/// Callers that do not share state each have a breaker that sees its share of the calls (round
/// robin); the false-alarm curve marks the user's line at that traffic: N = rate x period.
#[test]
fn the_curves_are_at_one_breakers_share_of_the_traffic() {
    let period = 30.0 * 86_400.0; // busy-service's false-alarm period (the default)
    for (sets, cpm) in [
        (&[][..], 600.0),
        (&["--set", "callers.count=3"][..], 200.0),
        (
            &[
                "--set",
                "callers.count=3",
                "--set",
                "callers.shared_state=true",
            ][..],
            600.0,
        ),
        (&["--set", "callers.count=4"][..], 150.0),
    ] {
        let mut args = vec!["--preset", "busy-service"];
        args.extend_from_slice(sets);
        let v = json(&args);
        assert_eq!(v["calls_per_minute_per_breaker"], cpm, "{sets:?}");
        let mark = &curve(&v, "false_alarms")["mark"];
        assert_eq!(mark["kind"], "exact");
        let x = mark["x"][0].as_f64().unwrap();
        let want = cpm / 60.0 * period;
        assert!((x - want).abs() <= 1e-6 * want, "{sets:?}: {x} vs {want}");
        // The window curve's note names the same traffic.
        let note = curve(&v, "window_trips")["note"].as_str().unwrap();
        assert!(note.contains(&format!(", {cpm} calls/min;")), "{note}");
    }
}

/// A replayed trace's curves are at the trace's own traffic, its calls over its run (which ends
/// at its last call), one breaker's share: they were at `traffic.calls_per_minute`, 60 by
/// default, which a replay does not use (a 10 calls/s trace's lines and trips were drawn for 1).
#[test]
fn a_trace_s_curves_are_at_its_own_traffic() {
    let dir = std::env::temp_dir().join(format!("breaker-curves-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 1000 calls at 10 a second, the last at 100 s: 600 calls/min.
    let rows: String = (1..=1000)
        .map(|i| format!("{},ok,0.05\n", i as f64 / 10.0))
        .collect();
    let file = dir.join("trace.json");
    std::fs::write(&file, serde_json::json!({ "trace": rows }).to_string()).unwrap();
    let path = file.to_str().unwrap();
    for (sets, cpm) in [(&[][..], 600.0), (&["--set", "callers.count=3"][..], 200.0)] {
        let mut args = vec!["--scenario", path];
        args.extend_from_slice(sets);
        let v = json(&args);
        assert_eq!(v["calls_per_minute_per_breaker"], cpm, "{sets:?}");
        let mut text_args = vec!["analyze", "curves", "--scenario", path];
        text_args.extend_from_slice(sets);
        let text = stdout(&text_args);
        assert!(
            text.starts_with(&format!(
                "curves (the page's analysis charts) at {cpm} calls/min, the traffic one breaker \
                 sees (the replayed trace's: its calls over its run)\n"
            )),
            "{text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each curve's points are the figures `breaker analyze` gives for the same point on its own:
/// calls to open at the user's line, and half-open's chance to close at p0.
#[test]
fn the_curves_agree_with_the_single_figures() {
    let v = json(&["--set", "traffic.calls_per_minute=120"]);
    // The default scenario: 120 calls/min, a 30 d period, N = 2 x 2,592,000 calls.
    let open = curve(&v, "open_delay");
    let exact = line(open, "exact");
    // The first point, (p0 + p1) / 2 = 12.5%, where the calls to open move with the line.
    let rate = format!("{:?}", exact["x"][0].as_f64().unwrap());
    let single: Value = serde_json::from_str(&stdout(&[
        "analyze",
        "open-delay",
        "--true-rate",
        &rate,
        "--calls-per-minute",
        "120",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(
        exact["y"][0], single["points"][0]["calls"]["exact"]["value"],
        "calls to open at {rate}"
    );
    let oc = curve(&v, "trials_oc");
    let exact = line(oc, "exact");
    // The point nearest p1 = 20%, asked for at its exact value.
    let xs = exact["x"].as_array().unwrap();
    let at = (0..xs.len())
        .min_by(|&i, &j| {
            let d = |k: usize| (xs[k].as_f64().unwrap() - 0.2).abs();
            d(i).total_cmp(&d(j))
        })
        .unwrap();
    let rate = format!("{:?}", xs[at].as_f64().unwrap());
    let single: Value = serde_json::from_str(&stdout(&[
        "analyze",
        "trials",
        "--true-rate",
        &rate,
        "--format",
        "json",
    ]))
    .unwrap();
    let p = &single["points"][0];
    let want = p["close_probability"]["exact"]["value"].as_f64().unwrap();
    let got = exact["y"][at].as_f64().unwrap();
    assert_eq!(got, want, "OC at {rate}");
    assert!(
        (got - 0.0458).abs() < 1e-4,
        "about b = 5% at p1 (exact: 4.58%): {got}"
    );
}

/// The text gives every chart: its title, note, the user's mark, a legend naming each line's
/// kind, and a row per point (n/a where a way does not apply).
#[test]
fn the_text_gives_every_chart_with_its_kinds() {
    let t = stdout(&["analyze", "curves", "--preset", "busy-service"]);
    assert!(t.starts_with(
        "curves (the page's analysis charts) at 600 calls/min, the traffic one breaker sees\n"
    ));
    for title in [
        "\n1. Calls between false alarms vs the line\n",
        "\n2. Calls to open vs the true failure rate\n",
        "\n3. Half-open: chance to close (OC)\n",
        "\n4. Half-open: expected trials (ASN)\n",
        "\n5. Window breaker: spurious trips per day vs window size\n",
    ] {
        assert!(t.contains(title), "{title:?}");
    }
    assert!(t.contains(
        "statistical: fine_rate 0.05, broken_rate 0.2, trial_wrongly_opens 0.01, \
         trial_wrongly_closes 0.05, false_alarm_period 30.00 d\n"
    ));
    assert!(t.contains(
        "   x: line as N = e^line (calls)\n      your line at the nominal traffic at x = 2.592e7 \
         (exact)\n   y: calls per false alarm\n"
    ));
    assert!(t.contains("      your window at x = 100 (exact)\n"));
    assert!(t.contains("      y1: Lorden/Ville bound\n      y2: exact\n"));
    assert!(t.contains("      y3: Brook-Evans chain, approx.\n"));
    assert!(t.contains("      y5: simulated, 200 runs each [95% interval]\n"));
    assert!(t.contains("      y3: sliding window, simulated, 200,000 calls each [95% interval]\n"));
    // The false-alarm chart's first row: x = 95 (e^A), the bound equal to it, a simulated
    // point with its interval; its last, past what is simulated: n/a.
    let fa = &t[t.find("\n1. ").unwrap()..t.find("\n2. ").unwrap()];
    let rows: Vec<&str> = fa.lines().filter(|l| l.starts_with("  ")).collect();
    let first = rows
        .iter()
        .find(|l| l.trim_start().starts_with("95 "))
        .unwrap();
    assert!(first.contains("  95  ") && first.contains('['), "{first}");
    assert!(
        rows.last().unwrap().ends_with(" n/a"),
        "{}",
        rows.last().unwrap()
    );
}

/// Each chart's note is wrapped at 94 characters, broken only at spaces, each line as full as
/// the next word allows; the words are the JSON note's, in order, then the text's own remarks.
#[test]
fn the_notes_are_wrapped_whole_words_to_94_characters() {
    let mut lines_seen = 0;
    let mut added = Vec::new();
    for preset in [
        "busy-service",
        "quiet-service",
        "recovery-warmup",
        "bursty-failures",
    ] {
        let text = stdout(&["analyze", "curves", "--preset", preset]);
        let v = json(&["--preset", preset]);
        let charts: Vec<&str> = text.split("\n\n").skip(1).collect();
        assert_eq!(charts.len(), 5, "{preset}");
        for (chart, c) in charts.iter().zip(v["curves"].as_array().unwrap()) {
            let lines: Vec<&str> = chart
                .lines()
                .skip(1)
                .take_while(|l| !l.starts_with("   x: "))
                .map(|l| l.strip_prefix("   ").unwrap_or_else(|| panic!("{l:?}")))
                .collect();
            assert!(lines.len() >= 2, "{preset}: {chart}");
            for (i, l) in lines.iter().enumerate() {
                assert!(
                    !l.is_empty() && !l.starts_with(' ') && !l.ends_with(' '),
                    "{l:?}"
                );
                assert!(l.chars().count() <= 94, "{preset}: {l:?}");
                if let Some(next) = lines.get(i + 1) {
                    let word = next.split(' ').next().unwrap();
                    let joined = l.chars().count() + 1 + word.chars().count();
                    assert!(joined > 94, "{preset}: {l:?} could take {word:?}");
                }
            }
            lines_seen += lines.len();
            let note: Vec<&str> = c["note"].as_str().unwrap().split_whitespace().collect();
            let words: Vec<&str> = lines.iter().flat_map(|l| l.split(' ')).collect();
            assert_eq!(words[..note.len()], note[..], "{preset}");
            if words.len() > note.len() {
                let id = c["id"].as_str().unwrap().to_string();
                added.push((preset, id, words[note.len()..].join(" ")));
            }
        }
    }
    assert!(lines_seen > 40, "{lines_seen}");
    // What the text adds: only where Wald's line is far from the exact one (no approximation
    // here lies below the bound).
    let wald = |id: &str, k: usize, n: usize| {
        let how = if id == "trials_oc" {
            " (a chance, or its complement)"
        } else {
            ""
        };
        format!(
            "Wald's approximation is under half or over twice the exact figure{how} at {k} of \
             {n} points: it leaves out the overshoot past the line, large where one step is a \
             large part of it."
        )
    };
    let expected: Vec<_> = [
        ("busy-service", "trials_oc", 1, 15),
        ("quiet-service", "trials_oc", 1, 15),
        ("recovery-warmup", "false_alarms", 7, 9),
        ("recovery-warmup", "trials_oc", 3, 15),
        ("bursty-failures", "trials_oc", 1, 15),
    ]
    .map(|(preset, id, k, n)| (preset, id.to_string(), wald(id, k, n)))
    .into();
    assert_eq!(added, expected);
}

#[test]
fn bad_input_names_the_flag_or_field() {
    for (args, said) in [
        (
            &["analyze", "curves", "--format", "xml"][..],
            "breaker: --format \"xml\": allowed text, json\n",
        ),
        (
            &["analyze", "curves", "--set", "statistical.fine_rate=2"],
            "breaker: statistical.fine_rate = 2 is invalid: allowed 0 < x < 1\n",
        ),
        (
            &["analyze", "curves", "extra"],
            "breaker: unexpected argument \"extra\": curves takes options only (breaker analyze curves --help)\n",
        ),
        (
            &["analyze", "curves", "--preset", "busy-service", "--scenario", "x.json"],
            "breaker: use --preset or --scenario, not both\n",
        ),
    ] {
        assert_eq!(refusal(args), said, "{args:?}");
    }
    assert!(refusal(&["analyze", "curves", "--preset", "nope"]).contains("nope"));
    assert!(refusal(&["analyze", "curves", "--bogus"]).contains("--bogus"));
    assert!(stdout(&["analyze", "curves", "--help"]).starts_with("usage: breaker analyze curves"));
    // Help wins over what else is wrong on the line.
    for args in [
        &[
            "analyze", "curves", "--preset", "a", "--preset", "b", "--help",
        ][..],
        &["analyze", "curves", "--bogus", "-h"],
    ] {
        assert!(
            stdout(args).starts_with("usage: breaker analyze curves"),
            "{args:?}"
        );
    }
    assert!(stdout(&["analyze", "--help"]).contains("\n  curves "));
}

/// Rates are printed as set: 0.19999 and 0.2 as a rounded percent both read 20.00%.
#[test]
fn the_header_gives_the_rates_as_set() {
    let t = stdout(&[
        "analyze",
        "curves",
        "--set",
        "statistical.fine_rate=0.19999",
        "--set",
        "statistical.broken_rate=0.2",
        "--set",
        "window.sliding_window_type=time_based",
        "--set",
        "window.sliding_window_size=60",
    ]);
    assert!(
        t.contains("statistical: fine_rate 0.19999, broken_rate 0.2, "),
        "{t}"
    );
    assert!(
        t.contains("\nwindow: time-based, 60 s, failure_rate_threshold 0.5, "),
        "{t}"
    );
    // The default 60 calls/min: a 60 s window holds about 60 calls, an approximation.
    assert!(t.contains("      your window at x = 60 (approx.)\n"), "{t}");
}

/// Where Wald's approximation lies below the proven bound (p0 = 0.001%, p1 = 99%: one failure
/// carries the score 2.5 points of a 3.5-point line, and its overshoot is large), the note says
/// so, with the number of points; the chain, above the bound, is not named. At the defaults it
/// lies above the bound, and the note says nothing of it.
#[test]
fn the_note_says_where_an_approximation_lies_below_the_bound() {
    let fa = |sets: &[&str]| {
        let mut args = vec!["analyze", "curves"];
        for s in sets {
            args.extend_from_slice(&["--set", s]);
        }
        let t = stdout(&args);
        t[t.find("\n1. ").unwrap()..t.find("\n2. ").unwrap()].replace("\n   ", " ")
    };
    let extreme = fa(&[
        "statistical.fine_rate=0.00001",
        "statistical.broken_rate=0.99",
    ]);
    assert!(
        extreme.contains(
            "Wald's approximation lies below the bound at 9 of 9 points: it leaves out how far \
             the last failure carries the score past the line, which is large where one \
             failure's step is a large part of the line."
        ),
        "{extreme}"
    );
    assert!(!extreme.contains("chain, approx. lies below"), "{extreme}");
    // Its rows bear it out: each Wald value (the last column) under the bound (the first).
    let v = json(&[
        "--set",
        "statistical.fine_rate=0.00001",
        "--set",
        "statistical.broken_rate=0.99",
    ]);
    let c = curve(&v, "false_alarms");
    let (b, w) = (
        line(c, "Lorden/Ville bound"),
        line(c, "Wald's approximation"),
    );
    for i in 0..9 {
        assert!(w["y"][i].as_f64().unwrap() < b["y"][i].as_f64().unwrap());
    }
    assert!(!fa(&[]).contains("lies below the bound"));
}

/// A Wald line under half or over twice the exact one is said, with its points, counted from
/// the rows themselves (0.049 expected trials where every test takes one was drawn unsaid);
/// the chance to close by its complement too. Points below the bound are said
/// apart, not again.
#[test]
fn the_note_says_where_wald_is_far_from_the_exact_figure() {
    let sets = [
        "statistical.fine_rate=0.001",
        "statistical.broken_rate=0.999",
        "statistical.trial_wrongly_opens=0.3",
        "statistical.trial_wrongly_closes=0.3",
    ];
    let mut args = vec!["analyze", "curves"];
    for s in &sets {
        args.extend_from_slice(&["--set", s]);
    }
    let t = stdout(&args).replace("\n   ", " ");
    let mut jargs = Vec::new();
    for s in &sets {
        jargs.extend_from_slice(&["--set", *s]);
    }
    let v = json(&jargs);
    for (id, chance) in [
        ("trials_asn", false),
        ("trials_oc", true),
        ("open_delay", false),
    ] {
        let c = curve(&v, id);
        let (e, w) = (line(c, "exact"), line(c, "Wald's approximation"));
        let n = w["y"].as_array().unwrap().len();
        let far = (0..n)
            .filter(|&i| {
                let (e, a) = (e["y"][i].as_f64().unwrap(), w["y"][i].as_f64().unwrap());
                if a == e {
                    return false;
                }
                let far = |r: f64| !(0.5..=2.0).contains(&r);
                far(a / e) || (chance && e < 1.0 && a < 1.0 && far((1.0 - a) / (1.0 - e)))
            })
            .count();
        assert!(far > 0, "{id}: the case tests something");
        let how = if chance {
            " (a chance, or its complement)"
        } else {
            ""
        };
        let said = format!(
            "Wald's approximation is under half or over twice the exact figure{how} at {far} of {n} points: it leaves out the overshoot past the line, large where one step is a large part of it."
        );
        assert!(t.contains(&said), "{id}: {said} in {t}");
    }
    // The false-alarm chart's Wald points all lie below the bound at p0 = 0.001%, p1 = 99%:
    // said so, and not again as far from the exact figure.
    let mut args = vec!["analyze", "curves"];
    for s in [
        "statistical.fine_rate=0.00001",
        "statistical.broken_rate=0.99",
    ] {
        args.extend_from_slice(&["--set", s]);
    }
    let t = stdout(&args).replace("\n   ", " ");
    let first = &t[t.find("\n1. ").unwrap()..t.find("\n2. ").unwrap()];
    assert!(
        first.contains("lies below the bound at 9 of 9 points"),
        "{first}"
    );
    assert!(!first.contains("under half or over twice"), "{first}");
}

/// A scenario whose trace does not read is refused, as `breaker run` refuses it, naming the
/// line and field; the curves were drawn at the scenario's own traffic, unsaid. A trace whose
/// calls all come at 0 s has no rate of its own: the scenario's traffic, and the text says so.
#[test]
fn a_trace_that_does_not_read_is_refused_and_one_of_no_length_said() {
    let dir = std::env::temp_dir().join(format!("breaker-curves-bad-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"trace": "0,bogus,1"}"#).unwrap();
    let bad = bad.to_str().unwrap();
    let curves = refusal(&["analyze", "curves", "--scenario", bad]);
    let run = refusal(&["run", "--scenario", bad]);
    assert!(
        curves.starts_with(&format!(
            "breaker: --scenario {bad}: trace line 1, field outcome: "
        )),
        "{curves}"
    );
    assert_eq!(curves, run);
    assert!(refusal(&["analyze", "curves", "--set", "trace=0,bogus,1"])
        .starts_with("breaker: --set trace: trace line 1, field outcome: "));
    // Named and hinted as run names and hints it: a --set trace over a scenario's, Unix times.
    let plain = dir.join("plain.json");
    std::fs::write(&plain, r#"{"name": "x"}"#).unwrap();
    let ms = dir.join("ms.json");
    std::fs::write(&ms, r#"{"trace": "1764720000133,ok,1"}"#).unwrap();
    for args in [
        vec![
            "--scenario",
            plain.to_str().unwrap(),
            "--set",
            "trace=0,bogus,1",
        ],
        vec!["--scenario", ms.to_str().unwrap()],
    ] {
        let curves = refusal(&[&["analyze", "curves"][..], &args].concat());
        assert_eq!(curves, refusal(&[&["run"][..], &args].concat()), "{args:?}");
    }
    assert!(
        refusal(&["analyze", "curves", "--scenario", ms.to_str().unwrap()])
            .contains("for Unix times in milliseconds")
    );
    let flat = dir.join("flat.json");
    std::fs::write(&flat, r#"{"trace": "0,ok,1\n0,ok,1\n"}"#).unwrap();
    let text = stdout(&["analyze", "curves", "--scenario", flat.to_str().unwrap()]);
    assert!(
        text.starts_with(
            "curves (the page's analysis charts) at 60 calls/min, the traffic one breaker sees \
             (the scenario's traffic: the replayed trace's calls all come at 0 s, a run of no \
             length)\n"
        ),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A trace's traffic past what the curves take (1e12 calls/min to one breaker, the page's
/// analysis options' range) is refused with it: three calls in 1e-10 s were drawn at
/// 1.8e12 calls/min, and in 1e-320 s at "inf" with rows of inf, where the page refuses them.
/// Just inside, at 1.8e11, they are drawn.
#[test]
fn a_trace_faster_than_the_curves_take_is_refused() {
    for (last, cpm) in [("1e-10", "1.800e12"), ("1e-320", "inf")] {
        let set = format!("trace=0,ok,0\n0,ok,0\n{last},ok,0");
        assert_eq!(
            refusal(&["analyze", "curves", "--set", &set]),
            format!(
                "breaker: --set trace: the trace's calls come at {cpm} calls/min to one breaker \
                 (its calls over its run), past what the curves take: 1e-12 <= calls per minute \
                 <= 1e12\n"
            )
        );
    }
    assert!(stdout(&[
        "analyze",
        "curves",
        "--set",
        "trace=0,ok,0\n0,ok,0\n1e-9,ok,0"
    ])
    .starts_with("curves (the page's analysis charts) at 1.800e11 calls/min"));
}

/// The back-to-back line's 0s are underflows, said in the text with where they start: at p0
/// 0.001% a window of 180 calls trips with chance about 1e-397 (the analysis gives a bound), and
/// the line read 0, "exact", with nothing said. The JSON keeps the page's numbers.
#[test]
fn the_window_chart_says_where_its_exact_line_reads_0() {
    let args = [
        "--set",
        "statistical.fine_rate=0.00001",
        "--set",
        "statistical.broken_rate=0.9999",
    ];
    let v = json(&args);
    let l = line(
        curve(&v, "window_trips"),
        "windows back to back (binomial tail)",
    );
    let first = l["x"]
        .as_array()
        .unwrap()
        .iter()
        .zip(l["y"].as_array().unwrap())
        .find(|(_, y)| y.as_f64() == Some(0.0))
        .map(|(x, _)| x.as_f64().unwrap())
        .unwrap();
    assert_eq!(first, 180.0);
    let t = stdout(&[&["analyze", "curves"][..], &args].concat());
    let flat = t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            " Windows back to back read 0 from 180 calls: there the chance that a window trips, or \
             the trips a day, is under 2.2e-308, too small for a double (breaker analyze window \
             gives a bound)."
        ),
        "{t}"
    );
    assert!(!stdout(&["analyze", "curves"]).contains("read 0"));
}
