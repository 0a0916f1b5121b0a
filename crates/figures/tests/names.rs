//! Each figure computes what its name says: the bench prints the name beside the time and the
//! value, and the browsers' figures are matched to the native ones by it. The name is read back
//! here into settings of the test's own (each one it gives read), the figure recomputed from them
//! through the analysis' functions, and the two values compared to the bit, and the kinds. (The
//! list's test only asked for values finite and not negative: a figure computed at the wrong rate,
//! with a setting left at its default, or as 0, passed.)

use analysis_core::{cusum, dp, sprt, window};
use breaker::trial::WaldLines;
use breaker::StatisticalSettings;
use std::collections::HashMap;

/// The name's `key=value` words, and the words before them (`cusum`, `exact`).
fn parse(name: &str) -> (Vec<&str>, HashMap<&str, &str>) {
    let (mut words, mut pairs) = (Vec::new(), HashMap::new());
    for w in name.split_whitespace() {
        match w.split_once('=') {
            Some((k, v)) => assert!(pairs.insert(k, v).is_none(), "{name}: {k} twice"),
            None => words.push(w),
        }
    }
    (words, pairs)
}

fn num(pairs: &HashMap<&str, &str>, key: &str) -> f64 {
    let v = pairs[key];
    match v.strip_suffix('%') {
        Some(pct) => pct.parse::<f64>().unwrap() / 100.0,
        None => v.parse().unwrap(),
    }
}

/// `ln1eE` as the line ln 10^E.
fn line(pairs: &HashMap<&str, &str>) -> f64 {
    let e: i32 = pairs["line"].strip_prefix("ln1e").unwrap().parse().unwrap();
    10f64.powi(e).ln()
}

/// The value the name describes, computed from the name alone, and the kind it must have.
fn recompute(name: &str) -> (f64, &'static str) {
    let (words, mut pairs) = parse(name);
    let out = recompute_from(name, &words, &pairs);
    // Every setting the name gives is one the figure was recomputed from: none is shown and
    // left out.
    for key in [
        "p0", "p1", "a", "b", "p", "line", "factor", "n", "t", "baseline", "outage",
    ] {
        pairs.remove(key);
    }
    assert!(pairs.is_empty(), "{name}: {pairs:?} not read");
    out
}

fn recompute_from(name: &str, words: &[&str], pairs: &HashMap<&str, &str>) -> (f64, &'static str) {
    if words[0] == "window" {
        let w = window::CountWindow::new(pairs["n"].parse().unwrap(), num(pairs, "t"));
        // The trips a day are at 10 calls a second (the names leave the traffic out).
        let value = match words[1..] {
            ["trips/day", "exact"] => {
                window::sliding_trips_per_day_exact(&w, num(pairs, "baseline"), 10.0)
                    .unwrap()
                    .0
                    .value
            }
            ["calls", "to", "open", "exact", "from", "full", "at", "5%"] => {
                let start = window::Start::Full { baseline: 0.05 };
                window::calls_to_trip_exact(&w, num(pairs, "outage"), start)
                    .unwrap()
                    .calls
            }
            ["back-to-back"] => {
                window::back_to_back_trips_per_day(&w, num(pairs, "baseline"), 10.0).value
            }
            _ => panic!("{name}: unknown window figure"),
        };
        return (value, "exact");
    }
    let (p0, p1) = (num(pairs, "p0"), num(pairs, "p1"));
    // Wald's errors where the name gives them, else the defaults the list also uses (the
    // CUSUM's figures depend on the rates only).
    let (a, b) = match (pairs.get("a"), pairs.get("b")) {
        (Some(_), Some(_)) => (num(pairs, "a"), num(pairs, "b")),
        (None, None) => (0.01, 0.05),
        _ => panic!("{name}: one of Wald's errors without the other"),
    };
    let d = StatisticalSettings {
        fine_rate: p0,
        broken_rate: p1,
        trial_wrongly_opens: a,
        trial_wrongly_closes: b,
        ..Default::default()
    }
    .derived();
    let p = match pairs["p"] {
        "p0" => p0,
        "p1" => p1,
        "p*" => d.zero_drift_rate,
        "p0/10" => p0 / 10.0,
        // Kept under 1 as the list keeps it: 0.999 for the broken rate of almost 1 (below p1
        // there).
        "2p1" => (2.0 * p1).min(0.999),
        other => panic!("{name}: unknown rate {other}"),
    };
    let w = d.weights;
    match words {
        ["cusum", "exact"] => (cusum::arl_exact(w, line(pairs), p).arl, "exact"),
        ["cusum", "chain"] => {
            let chain = cusum::arl_markov_chain(w, line(pairs), p).unwrap();
            (chain.arl, "approximation")
        }
        ["sprt", "exact"] => {
            let test = sprt::exact(w, WaldLines::new(a, b), p);
            (test.close_probability, "exact")
        }
        ["sprt", "timed"] => {
            let mean = num(pairs, "factor") * d.trials_to_close as f64;
            let timed =
                sprt::half_open_time_limited(w, WaldLines::new(a, b), p, mean, dp::MAX_CELLS);
            (timed.unwrap().close_probability, "approximation")
        }
        _ => panic!("{name}: unknown figure"),
    }
}

#[test]
fn each_figure_computes_what_its_name_says() {
    for f in figures::all() {
        let (want, kind) = recompute(&f.name);
        let got = f.run();
        assert_eq!(got.to_bits(), want.to_bits(), "{}: {got} != {want}", f.name);
        assert_eq!(f.kind, kind, "{}", f.name);
    }
}
