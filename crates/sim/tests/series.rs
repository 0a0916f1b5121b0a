//! The chart's series on hand-worked traces: each bucket holds exactly the values the breaker
//! showed in it (the invariants only check that a deciding value is inside its bucket's range, so
//! a value added to a bucket that never showed it went unseen).

use sim::{Scenario, Series};

/// A 20 s run in 1 s buckets, the window breaker over the last 2 calls opening at 60% (from
/// `minimum` calls, capped at the 2 of the window while closed), waiting 5 s open, then
/// permitting `probes` probes, playing `trace` (which ends with a call at 20 s: a trace's run
/// ends at its last call).
fn window_run(trace: &str, probes: u32, minimum: u32) -> Series {
    let mut s = Scenario {
        duration: 20.0,
        ..Scenario::default()
    };
    s.window.sliding_window_size = 2;
    s.window.minimum_number_of_calls = minimum;
    s.window.failure_rate_threshold = 0.6;
    s.window.wait_duration_in_open_state = 5.0;
    s.window.permitted_number_of_calls_in_half_open_state = probes;
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
    let se = window_run(
        "0.5,ok,0\n1.5,fail,0\n2.5,ok,0\n3.5,fail,0\n4.5,fail,0\n20,ok,0\n",
        1,
        2,
    );
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

/// Worked by hand: 0.5 s and 1.5 s fail, so it opens at 1.5 s (rate 1) until 6.5 s. The call at
/// 10.2 s is the first of 3 probes, judged at 3 results (half-open from its request); its
/// failure makes the probes' failure rate 1/1, the success at 10.4 s 1/2, and the success at
/// 10.6 s 1/3, judged below 60%: closed. Bucket 10's trial holds each of those rates and only
/// those: 1/3 (the one that closed it) to 1. Its level is the rate 1 it was open on: none in
/// half-open below 3 results, none in the window the close starts empty.
#[test]
fn the_half_open_trial_is_the_probes_failure_rate_at_each_result() {
    let se = window_run(
        "0.5,fail,0\n1.5,fail,0\n10.2,fail,0\n10.4,ok,0\n10.6,ok,0\n20,ok,0\n",
        3,
        3,
    );
    assert_eq!((se.state_min[10], se.state_max[10]), (0.0, 2.0));
    assert_eq!((se.trial_min[10], se.trial_max[10]), (1.0 / 3.0, 1.0));
    assert_eq!((se.level_min[10], se.level_max[10]), (1.0, 1.0));
    // Open before and closed after: no trial value.
    for i in [9, 11] {
        assert!(
            se.trial_min[i].is_nan() && se.trial_max[i].is_nan(),
            "bucket {i}"
        );
    }
}

/// A time window's rate drops as its seconds pass, so a call that changes nothing else is still
/// sampled: a 2 s window (the current whole second and the one before) from 2 calls, never
/// opening, in 2 s buckets over 40 s. Worked by hand: 1.2 s ok, 1.4 s fail, 2.5 s ok, 2.6 s ok,
/// answered at once, then 3.5 s answered only at 13.5 s. In bucket 1 ([2 s, 4 s)): at the call at
/// 2.5 s, seconds 1 and 2 hold 1 failure in 2 (0.5); its answer makes it 1 in 3; 2.6 s's, 1 in
/// 4; and at 3.5 s, seconds 2 and 3 hold the two successes only: 0. The call at 3.5 s makes
/// the bucket's low end 0, its permit the only event there.
#[test]
fn a_time_window_is_sampled_at_a_permit_as_its_seconds_pass() {
    let mut s = Scenario {
        duration: 40.0,
        ..Scenario::default()
    };
    s.window.sliding_window_type = breaker::SlidingWindowType::TimeBased;
    s.window.sliding_window_size = 2;
    s.window.minimum_number_of_calls = 2;
    s.window.failure_rate_threshold = 0.6;
    s.callers.call_timeout = 60.0;
    s.trace = Some("1.2,ok,0\n1.4,fail,0\n2.5,ok,0\n2.6,ok,0\n3.5,ok,10\n40,ok,0\n".into());
    let r = sim::run(&s, 20).unwrap();
    let w = &r.breakers.window;
    assert!(w.events.is_empty());
    let se = &w.series;
    assert_eq!(
        (se.bucket_s, se.level_min[1], se.level_max[1]),
        (2.0, 0.0, 0.5)
    );
}
