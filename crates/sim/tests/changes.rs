//! `Changes`, caller 0's state changes in brief (what the page's verdict judges), against a
//! recount from the events done another way, over presets, seeds and several callers; and the
//! figures of the default preset as the page shows them.

use breaker::State;
use sim::{BreakerKind, Changes, Event, RunResult};

/// The same summary, counted by positions: re-trips are caller 0's closed -> open changes after
/// the index of its first close (at a later time), the last change is the last of its list.
fn recount(events: &[Event]) -> (bool, u64, Option<(f64, State)>) {
    let mine: Vec<&Event> = events.iter().filter(|e| e.caller == 0).collect();
    let opened = mine.iter().any(|e| e.to == State::Open);
    let retrips = match mine.iter().position(|e| e.to == State::Closed) {
        Some(i) => mine[i + 1..]
            .iter()
            .filter(|e| e.from == State::Closed && e.to == State::Open && e.t_s > mine[i].t_s)
            .count() as u64,
        None => 0,
    };
    (opened, retrips, mine.last().map(|e| (e.t_s, e.to)))
}

fn check(r: &RunResult, what: &str) -> [u64; 2] {
    BreakerKind::ALL.map(|kind| {
        let b = r.breakers.get(kind);
        let c: &Changes = &b.changes;
        let (opened, retrips, last) = recount(&b.events);
        assert_eq!(c.opened, opened, "{what} {kind:?}: opened");
        assert_eq!(c.retrips, retrips, "{what} {kind:?}: re-trips");
        assert_eq!(
            c.last_s.map(|t| (t, c.last_to)),
            last,
            "{what} {kind:?}: last change"
        );
        if last.is_none() {
            assert_eq!(c.last_to, State::Closed, "{what} {kind:?}: never changed");
        }
        c.retrips
    })
}

#[test]
fn changes_agree_with_a_recount_of_the_events() {
    let mut retrips_seen = 0;
    let mut other_callers_seen = false;
    for p in sim::presets() {
        if p.name == "busy-service" {
            continue; // a month: covered by the page's tests; the others are enough here
        }
        for seed in 1..=4 {
            for callers in [1, 3] {
                let mut sc = sim::preset(p.name).unwrap();
                sc.seed = seed;
                sc.callers.count = callers;
                let r = sim::run(&sc, 60).unwrap();
                let n = check(&r, &format!("{} seed {seed}, {callers} callers", p.name));
                retrips_seen += n[0] + n[1];
                other_callers_seen |= BreakerKind::ALL
                    .iter()
                    .any(|&k| r.breakers.get(k).events.iter().any(|e| e.caller != 0));
            }
        }
    }
    // The check has teeth: re-trips happened, and other callers' changes were there to leave out.
    assert!(retrips_seen > 10, "{retrips_seen} re-trips");
    assert!(other_callers_seen);
}

/// recovery-warmup, seed 1, as the page's verdict shows it: both breakers opened; the window
/// re-tripped once after its first close, the statistical breaker did not; both end closed.
#[test]
fn recovery_warmup_changes() {
    let r = sim::run(&sim::preset("recovery-warmup").unwrap(), 600).unwrap();
    let s = &r.breakers.statistical.changes;
    let w = &r.breakers.window.changes;
    assert!(s.opened && w.opened);
    assert_eq!((s.retrips, w.retrips), (0, 1));
    assert_eq!((s.last_to, w.last_to), (State::Closed, State::Closed));
    // The last change is the last event of caller 0 (one caller here).
    assert_eq!(
        s.last_s,
        Some(r.breakers.statistical.events.last().unwrap().t_s)
    );
}

/// `Sim::summary` and `Sim::trace_hash` (what the page asks for, without copying the events) are
/// `Sim::result`'s metrics, totals and changes and `sim::trace_hash` of it, part way and at the end.
#[test]
fn summary_and_trace_hash_are_the_results() {
    for name in ["recovery-warmup", "late-results", "bad-day"] {
        let mut sc = sim::preset(name).unwrap();
        sc.callers.count = 2;
        let mut s = sim::Sim::new(&sc).unwrap();
        let mut stops = 0;
        loop {
            let done = s.advance(40);
            let r = s.result();
            for kind in BreakerKind::ALL {
                let b = r.breakers.get(kind);
                let (m, t, c) = s.summary(kind);
                assert_eq!(
                    (&m, &t, &c),
                    (&b.metrics, &b.totals, &b.changes),
                    "{name} {kind:?}"
                );
            }
            assert_eq!(s.trace_hash(), sim::trace_hash(&r), "{name}");
            stops += 1;
            if done {
                break;
            }
        }
        assert!(stops > 3, "{name}: {stops}");
    }
}
