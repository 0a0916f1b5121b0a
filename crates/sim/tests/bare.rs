//! The bare loop the bench measures a full run against: it must play the full run's calls (the
//! same arrivals, the same drawn outcomes) and score them with one CUSUM against a fixed line,
//! or the ratio the bench prints compares unlike work.

use breaker::Class;
use sim::Sim;

/// A CUSUM kept here over the outcomes the stepping simulator reports as drawn, call by call,
/// against the line at the nominal traffic: (calls, alarms, final score, neutral calls).
fn cusum_of_the_draws(s: &sim::Scenario) -> (u64, u64, f64, u64) {
    let st = &s.statistical;
    let (p0, p1) = (st.fine_rate, st.broken_rate);
    // Wald's weights, written out: ln(p1/p0) per failure, ln((1-p1)/(1-p0)) per success; the
    // line is ln(rate x period), floored.
    let (fail, ok) = ((p1 / p0).ln(), ((1.0 - p1) / (1.0 - p0)).ln());
    let d = st.derived();
    assert!((d.weights.fail - fail).abs() <= 1e-15 * fail.abs());
    assert!((d.weights.ok - ok).abs() <= 1e-15 * ok.abs());
    let line = d.line(s.traffic.calls_per_minute / 60.0, st.false_alarm_period);
    let n = s.traffic.calls_per_minute / 60.0 * st.false_alarm_period;
    assert_eq!(line, n.ln().max(d.line_floor));

    let mut sim = Sim::new(s).unwrap();
    let (mut calls, mut alarms, mut score, mut neutral) = (0u64, 0u64, 0.0f64, 0u64);
    while sim.step_call() {
        let c = sim.snapshot().last_call.unwrap();
        calls += 1;
        assert_eq!(c.index, calls);
        let w = match c.drawn.class() {
            Class::Failure => d.weights.fail,
            Class::Success => d.weights.ok,
            Class::Neutral => {
                neutral += 1;
                continue;
            }
        };
        score = (score + w).max(0.0);
        if score >= line {
            alarms += 1;
            score = 0.0;
        }
    }
    (calls, alarms, score, neutral)
}

fn same_as_the_bare_loop(s: &sim::Scenario, why: &str) -> (u64, u64, u64) {
    let (calls, alarms, score, neutral) = cusum_of_the_draws(s);
    let b = sim::bare::bare_loop(s);
    assert_eq!(b.calls, calls, "{why}");
    assert_eq!(b.alarms, alarms, "{why}");
    assert_eq!(b.score.to_bits(), score.to_bits(), "{why}");
    (calls, alarms, neutral)
}

/// Each preset's first four hours (its arrivals, phases and outcomes), over three seeds.
#[test]
fn the_bare_loop_scores_each_presets_draws() {
    for p in sim::presets() {
        for seed in [1u64, 2, 9] {
            let mut s = sim::preset(p.name).unwrap();
            s.seed = seed;
            s.duration = s.duration.min(4.0 * 3600.0);
            let why = format!("{} seed {seed}", p.name);
            let (calls, _, _) = same_as_the_bare_loop(&s, &why);
            assert!(calls > 100, "{why}: {calls} calls");
        }
    }
}

/// Where every draw counts: the dependency fails every call in odd minutes and none in even
/// ones (so a call given the phase of a moment earlier or later would draw otherwise), 30% of
/// calls are the caller's bad input (neutral: they move no score), and the score reaches the
/// line in each failing minute.
#[test]
fn the_bare_loop_scores_flipping_phases_and_neutral_calls() {
    let phases: Vec<String> = (0..120)
        .map(|i| {
            format!(
                r#"{{ "start": {}, "failure_rate": {}, "input_error_rate": 0.3 }}"#,
                60 * i,
                i % 2
            )
        })
        .collect();
    for seed in [1u64, 2, 3] {
        let s: sim::Scenario = serde_json::from_str(&format!(
            r#"{{ "duration": "2h", "seed": {seed},
                  "traffic": {{ "calls_per_minute": 600 }},
                  "dependency": [{}] }}"#,
            phases.join(",")
        ))
        .unwrap();
        let why = format!("seed {seed}");
        let (calls, alarms, neutral) = same_as_the_bare_loop(&s, &why);
        assert!(calls > 60_000, "{why}: {calls} calls");
        assert!(alarms >= 60, "{why}: {alarms} alarms");
        assert!(neutral > calls / 5, "{why}: {neutral} neutral of {calls}");
    }
}
