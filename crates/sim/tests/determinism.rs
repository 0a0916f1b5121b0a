//! Same scenario and seed: the same run, bit for bit; another seed: another run. Stepping,
//! scrubbing and chunked runs agree with a straight run.

use breaker::State;
use sim::{BreakerKind, Scenario, Sim};

fn small() -> Scenario {
    // bad-day's incidents, shortened to the first 10 hours (the 09:00 outage included).
    sim::preset("bad-day")
        .unwrap()
        .with_sets(["duration=10h"])
        .unwrap()
}

fn json(r: &sim::RunResult) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn same_seed_same_run_bit_for_bit() {
    let a = sim::run(&small(), 50).unwrap();
    let b = sim::run(&small(), 50).unwrap();
    assert_eq!(json(&a), json(&b));
    assert_eq!(sim::trace_hash(&a), sim::trace_hash(&b));
    assert!(!a.breakers.statistical.events.is_empty());
}

#[test]
fn another_seed_another_run() {
    let a = sim::run(&small(), 50).unwrap();
    let b = sim::run(&small().with_sets(["seed=2"]).unwrap(), 50).unwrap();
    assert_ne!(sim::trace_hash(&a), sim::trace_hash(&b));
    assert_ne!(a.calls, b.calls);
}

#[test]
fn chunked_advance_equals_one_run() {
    let s = small();
    let whole = sim::run(&s, 40).unwrap();
    let sim0 = Sim::new(&s).unwrap();
    let mut c = sim0.collecting(40, 0.0, sim0.end_s());
    let mut chunks = 0;
    let mut last_progress = 0.0;
    while !c.advance(1000) {
        chunks += 1;
        assert!(c.progress() >= last_progress);
        last_progress = c.progress();
    }
    assert!(chunks > 10);
    assert_eq!(c.progress(), 1.0);
    assert_eq!(json(&c.result()), json(&whole));
}

/// The CLI's progress display plays the run in chunks through `run_to_end_reporting`: the
/// result is the one run's, and the reports come every `every` calls, in order.
#[test]
fn reporting_run_equals_one_run() {
    let s = small();
    let whole = sim::run(&s, 40).unwrap();
    let sim0 = Sim::new(&s).unwrap();
    let mut seen: Vec<(u64, f64)> = Vec::new();
    let r = sim0.run_to_end_reporting(40, 1000, |c| seen.push((c.calls(), c.progress())));
    assert_eq!(json(&r), json(&whole));
    assert_eq!(
        seen.len() as u64,
        (whole.calls - 1) / 1000,
        "{} calls",
        whole.calls
    );
    for (i, &(calls, progress)) in seen.iter().enumerate() {
        assert_eq!(calls, 1000 * (i as u64 + 1));
        assert!(0.0 < progress && progress < 1.0, "{progress}");
    }
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    // Every 0 is taken as every 1, not as a loop that never advances.
    let r0 = Sim::new(&s).unwrap().run_to_end_reporting(40, 0, |_| {});
    assert_eq!(json(&r0), json(&whole));
}

#[test]
fn stepping_and_seeking_agree_with_a_straight_run() {
    let s = small();
    let mut a = Sim::new(&s).unwrap();
    a.set_checkpoints(100, 8);
    // Forward by calls and events, then to a time.
    for _ in 0..500 {
        assert!(a.step_call());
    }
    let ev = a.next_event().expect("bad-day has transitions");
    assert!(ev.t_s <= a.now_s());
    a.run_until(9.5 * 3600.0);
    let at_end = serde_json::to_string(&a.snapshot()).unwrap();
    let result_end = json(&a.result());
    assert!(a.checkpoint_count() <= 9);
    // Back and forth.
    a.seek(1000.0);
    assert_eq!(a.now_s(), 1000.0);
    let mut b = Sim::new(&s).unwrap();
    b.run_until(1000.0);
    assert_eq!(
        serde_json::to_string(&a.snapshot()).unwrap(),
        serde_json::to_string(&b.snapshot()).unwrap()
    );
    a.seek(9.5 * 3600.0);
    assert_eq!(serde_json::to_string(&a.snapshot()).unwrap(), at_end);
    assert_eq!(json(&a.result()), result_end);
    // Restart goes back to 0.
    a.restart();
    assert_eq!(a.calls(), 0);
}

/// `next_event` stops at the calls that change a state, in time order: each event it gives is
/// one of the run's, none earlier than the one before, and every event of the run comes at the
/// time of one it gave (one call can change both breakers: it gives the first).
#[test]
fn next_event_walks_the_transitions_in_order() {
    let s = sim::preset("recovery-warmup").unwrap();
    let whole = sim::run(&s, 10).unwrap();
    let mut all: Vec<sim::Event> = BreakerKind::ALL
        .iter()
        .flat_map(|&k| whole.breakers.get(k).events.clone())
        .collect();
    all.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    let mut sim = Sim::new(&s).unwrap();
    let mut seen = 0;
    let mut times = Vec::new();
    while let Some(e) = sim.next_event() {
        assert!(all.iter().any(|x| x == &e));
        assert!(
            times.last().is_none_or(|&t| e.t_s >= t),
            "{} after {times:?}",
            e.t_s
        );
        times.push(e.t_s);
        seen += 1;
    }
    assert!(
        all.iter().all(|x| times.contains(&x.t_s)),
        "an event at no stop"
    );
    // Several events can come from one call (both breakers), so next_event may return fewer
    // than all; none is missed from `events()`.
    assert!(seen > 0 && seen <= all.len());
    assert_eq!(
        sim.events(BreakerKind::Window).len() + sim.events(BreakerKind::Statistical).len(),
        all.len()
    );
    assert!(sim.is_done());
}

#[test]
fn checkpoints_stay_bounded() {
    let mut s = small();
    s.duration = 5.0 * 3600.0;
    let mut sim = Sim::new(&s).unwrap();
    sim.set_checkpoints(10, 16);
    sim.advance(u64::MAX);
    assert!(sim.calls() > 20_000);
    assert!(sim.checkpoint_count() <= 17, "{}", sim.checkpoint_count());
}

/// `next_event` visits every instant at which either breaker changes, once each and in order
/// (worked out from the two full event logs), returning its breaker's first change there. When
/// one call half-opens both breakers (both half-open on the first call after their waits; the
/// window breaker has no automatic transition in these presets), it returns the statistical
/// breaker's change: bursty-failures has several such calls.
#[test]
fn next_event_visits_each_change_instant_once_statistical_first() {
    let mut both_half_open = 0;
    for name in ["recovery-warmup", "bursty-failures"] {
        let s = sim::preset(name).unwrap();
        assert!(!s.window.automatic_transition_from_open_to_half_open_enabled);
        let mut full = Sim::new(&s).unwrap();
        full.advance(u64::MAX);
        let stat: Vec<_> = full
            .events(BreakerKind::Statistical)
            .iter()
            .copied()
            .collect();
        let win: Vec<_> = full.events(BreakerKind::Window).iter().copied().collect();
        let mut instants: Vec<f64> = stat.iter().chain(&win).map(|e| e.t_s).collect();
        instants.sort_by(f64::total_cmp);
        instants.dedup();
        let mut stepped = Sim::new(&s).unwrap();
        let found: Vec<_> = std::iter::from_fn(|| stepped.next_event()).collect();
        let times: Vec<f64> = found.iter().map(|e| e.t_s).collect();
        assert_eq!(times, instants, "{name}");
        for (e, &t) in found.iter().zip(&instants) {
            let first = |log: &[sim::Event]| log.iter().find(|e| e.t_s == t).copied();
            let (s_first, w_first) = (first(&stat), first(&win));
            let half_opens = |e: Option<sim::Event>| {
                e.is_some_and(|e| (e.from, e.to) == (State::Open, State::HalfOpen))
            };
            if half_opens(s_first) && half_opens(w_first) {
                both_half_open += 1;
                assert_eq!(Some(*e), s_first, "{name} at {t}");
            } else {
                assert!(Some(*e) == s_first || Some(*e) == w_first, "{name} at {t}");
            }
        }
    }
    assert!(
        both_half_open >= 3,
        "{both_half_open} calls half-opened both breakers"
    );
}

/// `next_event_by(limit)` finds the same events as `next_event` up to `limit`, and with none
/// left by then stops the clock at `limit` in the state a seek there gives, computing nothing
/// past it (the page passes the time a cancelled run reached).
#[test]
fn next_event_by_stops_at_its_limit() {
    let s = sim::preset("recovery-warmup").unwrap();
    let mut plain = Sim::new(&s).unwrap();
    let mut events = Vec::new();
    while let Some(e) = plain.next_event() {
        events.push(e);
    }
    assert!(events.len() >= 3, "{} events", events.len());
    // Halfway between the second and the third event found.
    let limit = (events[1].t_s + events[2].t_s) / 2.0;
    let mut by = Sim::new(&s).unwrap();
    assert_eq!(by.next_event_by(limit), Some(events[0]));
    assert_eq!(by.next_event_by(limit), Some(events[1]));
    let calls_before = by.calls();
    assert_eq!(by.next_event_by(limit), None);
    assert_eq!(by.now_s(), limit);
    assert!(by.calls() >= calls_before);
    let mut sought = Sim::new(&s).unwrap();
    sought.seek(limit);
    assert_eq!(by.calls(), sought.calls());
    assert_eq!(
        serde_json::to_string(&by.snapshot()).unwrap(),
        serde_json::to_string(&sought.snapshot()).unwrap()
    );
    // Asked again at the limit: nothing moves.
    assert_eq!(by.next_event_by(limit), None);
    assert_eq!(by.calls(), sought.calls());
    // An event exactly at the limit is found; an unbounded call goes on to the next one.
    let mut at = Sim::new(&s).unwrap();
    assert_eq!(at.next_event_by(events[0].t_s), Some(events[0]));
    assert_eq!(at.next_event_by(f64::INFINITY), Some(events[1]));
}
