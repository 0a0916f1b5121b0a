//! A breaker that changes state about once a call (waits of a millisecond through a month-long
//! outage): the run is cut short once a breaker's log holds `sim::MAX_EVENTS` changes, in
//! bounded memory, the same way however it is computed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

use sim::{Event, RunResult, Scenario, Sim, MAX_EVENTS};

/// Counts live heap bytes and the peak, so the test can measure what a run holds.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now =
                LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed) + layout.size() as isize;
            PEAK.fetch_max(now.max(0) as usize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// 30 days at 600 calls/min, down throughout, every wait 1 ms: both breakers reopen on almost
/// every call (the window on its single probe, the statistical one on its trial), about 43
/// million changes of the window's if the run went on.
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

#[test]
fn a_breaker_changing_state_every_call_cuts_the_run_short_in_bounded_memory() {
    let s = flapping("30d");
    let before = LIVE.load(Ordering::Relaxed).max(0) as usize;
    PEAK.store(before, Ordering::Relaxed);
    let r = sim::run(&s, 100).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;

    let cut = r.cut_at_s.expect("the run is cut short");
    assert_eq!(r.end_s, cut);
    // Within the first day: about 1.1 million changes of the window's a day.
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
        let i = ((cut - se.t0_s) / se.bucket_s) as usize;
        assert!(se.answered[i] + se.failed[i] > 0.0);
        assert!(se.failed[i + 1..].iter().all(|x| x.is_nan()));
        assert!(se.level_max[i + 1..].iter().all(|x| x.is_nan()));
    }
    // Held: the logs (48 bytes a change, at most about 2 x 2^20 of them) and their copies in
    // the result. The 30 days in full would be some 43 million changes, 2 GB of them.
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
}

#[test]
fn a_cut_run_is_the_same_stepped_in_chunks_and_after_seeking_back() {
    let s = flapping("30d");
    let whole = sim::run(&s, 100).unwrap();
    let cut = whole.cut_at_s.unwrap();

    // In chunks of calls, as the page's worker computes it.
    let mut chunked = Sim::new(&s).unwrap().collecting(100, 0.0, s.duration);
    while !chunked.advance(100_000) {}
    assert_eq!(chunked.cut_at_s(), Some(cut));
    assert_eq!(chunked.end_s(), cut);
    let r = chunked.result();
    assert_eq!(sim::trace_hash(&r), sim::trace_hash(&whole));
    assert_eq!(r.calls, whole.calls);

    // Played with checkpoints, then back to the middle and on to the end: the same cut.
    let mut sim = Sim::new(&s).unwrap();
    sim.set_checkpoints(50_000, 64);
    sim.seek(cut + 10.0);
    assert_eq!(sim.cut_at_s(), Some(cut));
    assert!(sim.is_done());
    let calls = sim.calls();
    sim.seek(cut / 2.0);
    assert_eq!(sim.cut_at_s(), None);
    assert!(sim.now_s() <= cut / 2.0);
    sim.seek(s.duration);
    assert_eq!(sim.cut_at_s(), Some(cut));
    assert_eq!(sim.calls(), calls);
    assert_eq!(sim.trace_hash(), sim::trace_hash(&whole));
}
