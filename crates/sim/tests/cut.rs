//! A breaker that changes state about once a call (waits of a millisecond through a month-long
//! outage): the run is cut short once a breaker's log holds `sim::MAX_EVENTS` changes, in
//! bounded memory, the same way however it is computed. One test: the peak of memory measured
//! is the process's, and the run takes seconds (about 800,000 calls to the cut).

use sim::{Event, RunResult, Scenario, Sim, MAX_EVENTS};

include!("support/counting.rs");

/// `duration` at 600 calls/min, down throughout, every wait 1 ms: both breakers reopen on almost
/// every call (the window on its single probe, the statistical one on its trial), about 1.1
/// million changes of the window's and 0.3 million of the statistical one's a day, and the
/// window's log is full before the first day is over.
fn flapping(duration: &str) -> Scenario {
    Scenario::read_json(&format!(
        r#"{{ "duration": "{duration}", "seed": 1,
  "traffic": {{ "calls_per_minute": 600 }},
  "dependency": [ {{ "start": 0, "label": "down", "condition": "outage", "failure_rate": 1 }} ],
  "statistical": {{ "first_wait": "1ms", "wait_cap": "1ms" }},
  "window": {{ "wait_duration_in_open_state": "1ms", "sliding_window_size": 2,
              "minimum_number_of_calls": 1,
              "permitted_number_of_calls_in_half_open_state": 1 }} }}"#
    ))
    .expect("a valid scenario")
}

fn events(r: &RunResult) -> [&Vec<Event>; 2] {
    [&r.breakers.statistical.events, &r.breakers.window.events]
}

/// The cut, the memory it holds, a run ending before it, and the same cut computed in chunks,
/// after seeks back and forth, and by the page's cursor on the full run's checkpoints.
#[test]
fn a_breaker_changing_state_every_call_cuts_the_run_short() {
    // 30 days: without the cap, some 43 million changes of both, 2 GB of events.
    let s = flapping("30d");
    let before = LIVE.load(Ordering::Relaxed).max(0) as usize;
    PEAK.store(before, Ordering::Relaxed);
    let r = sim::run(&s, 100).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;

    let cut = r.cut_at_s.expect("the run is cut short");
    assert_eq!(r.end_s, cut);
    // Within the first day.
    assert!(cut > 3600.0 && cut < 86_400.0, "cut at {cut} s");
    let lens = events(&r).map(Vec::len);
    // The cut comes at the first call after a log reached the cap: the changes of the results
    // and deadlines due before that call come first.
    let most = *lens.iter().max().unwrap();
    assert!(
        (MAX_EVENTS..MAX_EVENTS + 64).contains(&most),
        "logs {lens:?}"
    );
    for log in events(&r) {
        assert!(log.iter().all(|e| e.t_s <= cut));
    }
    // Nothing after the cut is computed: every count there is NaN (as for a cancelled run),
    // and the bucket holding the cut has calls.
    for b in [&r.breakers.statistical, &r.breakers.window] {
        let se = &b.series;
        assert_eq!(se.t1_s, s.duration);
        let i = ((cut - se.t0_s) / se.bucket_s) as usize;
        assert!(se.answered[i] + se.failed[i] > 0.0);
        assert!(se.failed[i + 1..].iter().all(|x| x.is_nan()));
        assert!(se.level_max[i + 1..].iter().all(|x| x.is_nan()));
    }
    // Held: the logs (48 bytes a change, at most about 2 x 2^20 of them) and their copies in
    // the result.
    assert!(peak < 256 << 20, "peaked at {peak} bytes");

    // A run that ends a second before the cut is not cut, and its changes are the cut run's
    // up to then (the same draws: the duration does not move them).
    let mut short = s.clone();
    short.duration = cut - 1.0;
    let q = sim::run(&short, 100).unwrap();
    assert_eq!(q.cut_at_s, None);
    assert_eq!(q.end_s, cut - 1.0);
    for (a, b) in events(&q).into_iter().zip(events(&r)) {
        assert!(a.len() < MAX_EVENTS);
        let upto: Vec<&Event> = b.iter().filter(|e| e.t_s <= cut - 1.0).collect();
        assert_eq!(a.iter().collect::<Vec<_>>(), upto);
    }

    // As the page computes it: a collecting copy in chunks of calls, keeping checkpoints.
    let mut cursor = Sim::new(&s).unwrap();
    let mut full = cursor
        .collecting(100, 0.0, s.duration)
        .with_checkpoints(50_000, 64);
    while !full.advance(100_000) {}
    assert_eq!(full.cut_at_s(), Some(cut));
    // The clock is at the run's end, the cut, as an uncut run's is at the scenario's end: not
    // left at the last event processed before the call that is not made.
    assert_eq!(full.now_s(), cut);
    assert_eq!(full.snapshot().t_s, cut);
    // The scenario's end; the run's is the cut.
    assert_eq!(full.end_s(), s.duration);
    assert_eq!(full.progress(), 1.0);
    let fr = full.result();
    assert_eq!(fr.end_s, cut);
    assert_eq!(events(&fr), events(&r));
    assert_eq!(fr.calls, r.calls);

    // The cursor takes those checkpoints (the cut leaves the run's settings as they were, the
    // same run), and seeks back and forth: the same cut.
    assert!(cursor.adopt_checkpoints(&full));
    cursor.seek(cut + 10.0);
    assert_eq!(cursor.cut_at_s(), Some(cut));
    assert!(cursor.is_done());
    cursor.seek(cut / 2.0);
    assert_eq!(cursor.cut_at_s(), None);
    assert!(cursor.now_s() <= cut / 2.0);
    cursor.seek(s.duration);
    assert_eq!(cursor.cut_at_s(), Some(cut));
    assert_eq!(cursor.calls(), r.calls);
    assert_eq!(events(&cursor.result()), events(&r));
    // The clock left just before the call that is not made (by a seek, as "Next event" up to a
    // time does): the cut is still that call's time, not the clock's.
    for t in [cut - 0.05, cut - cut * f64::EPSILON] {
        cursor.seek(t);
        assert_eq!(cursor.cut_at_s(), None, "before the cut at {t}");
        assert!(cursor.now_s() <= t);
        cursor.seek(s.duration);
        assert_eq!(cursor.cut_at_s(), Some(cut), "on from {t}");
        let c = cursor.result();
        assert_eq!(c.end_s, cut);
        assert_eq!(events(&c), events(&r));
    }
}
