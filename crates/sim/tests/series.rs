//! The chart's series on hand-worked traces: each bucket holds exactly the values the breaker
//! showed in it (the invariants only check that a deciding value is inside its bucket's range, so
//! a value added to a bucket that never showed it went unseen).

use sim::{Scenario, Series};

/// A 20 s run in 1 s buckets, the window breaker over the last 2 calls (from 2 calls) opening at
/// 60%, playing `trace` (which ends with a call at 20 s: a trace's run ends at its last call).
fn window_run(trace: &str) -> Series {
    let mut s = Scenario {
        duration: 20.0,
        ..Scenario::default()
    };
    s.window.sliding_window_size = 2;
    s.window.minimum_number_of_calls = 2;
    s.window.failure_rate_threshold = 0.6;
    s.window.wait_duration_in_open_state = 5.0;
    s.callers.call_timeout = 60.0;
    s.trace = Some(trace.into());
    let r = sim::run(&s, 20).unwrap();
    let se = r.breakers.window.series;
    assert_eq!((se.t0_s, se.bucket_s, se.len()), (0.0, 1.0, 20));
    se
}

/// Worked by hand: 0.5 s ok, 1.5 s fail, 2.5 s ok, 3.5 s fail, answered at once. From the
/// second call the last two hold one failure in two: the failure rate is 0.5 at every event of
/// buckets 1 to 3, so each holds 0.5 and only 0.5 (the window breaker leaves no other level to
/// add to a bucket). 4.5 s fails too: 2 of 2 reach 60% and it opens, from closed; the rate that
/// opened it (1.0) is the bucket's level, with the 0.5 before it, and the bucket has no trial
/// value (it was never half-open: the opening's rate is not a probes' rate).
#[test]
fn the_window_levels_are_its_failure_rates_and_an_opening_from_closed_no_trial() {
    let se = window_run("0.5,ok,0\n1.5,fail,0\n2.5,ok,0\n3.5,fail,0\n4.5,fail,0\n20,ok,0\n");
    for i in 1..=3 {
        assert_eq!((se.level_min[i], se.level_max[i]), (0.5, 0.5), "bucket {i}");
        assert!(
            se.trial_min[i].is_nan() && se.trial_max[i].is_nan(),
            "bucket {i}"
        );
    }
    assert_eq!((se.level_min[4], se.level_max[4]), (0.5, 1.0));
    assert_eq!(
        (se.state_min[4], se.state_max[4]),
        (0.0, 2.0),
        "closed, then open"
    );
    assert!(
        se.trial_min[4].is_nan() && se.trial_max[4].is_nan(),
        "the opening from closed: trial {}..{}",
        se.trial_min[4],
        se.trial_max[4]
    );
}
