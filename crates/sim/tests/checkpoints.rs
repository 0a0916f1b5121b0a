//! What a run's checkpoints hold, measured by the allocator rather than by the engine's own
//! account of it (`Engine::held_bytes`, which decides when to thin them): with many calls in
//! flight, or a long time window, the checkpoints stay near `sim::MAX_CHECKPOINT_BYTES`. One
//! test: the live bytes counted are the process's.

use sim::{Scenario, Sim, MAX_CHECKPOINT_BYTES};

include!("support/counting.rs");

fn live() -> usize {
    LIVE.load(Ordering::Relaxed).max(0) as usize
}

/// Ten minutes at 1e5 calls/min with a minute of latency jitter: about 50,000 calls in flight,
/// 100,000 results and deadlines queued.
fn calls_in_flight() -> Scenario {
    let mut sc = sim::preset("busy-service").unwrap();
    sc.duration = 600.0;
    sc.traffic.calls_per_minute = 1e5;
    sc.dependency[0].latency_jitter = 60.0;
    sc.callers.call_timeout = 1e4;
    sc
}

/// A time window of 1e6 s over 4e5 s of a call a second: 8 MB of buckets in each copy of the
/// window breaker.
fn long_time_window() -> Scenario {
    let mut sc = sim::preset("quiet-service").unwrap();
    sc.duration = 4e5;
    sc.traffic.calls_per_minute = 60.0;
    sc.traffic.daily_swing = 0.0;
    sc.window.sliding_window_type = breaker::SlidingWindowType::TimeBased;
    sc.window.sliding_window_size = 1_000_000;
    sc
}

/// The most live heap of a simulation played to its end in chunks, measured after each chunk.
fn most_live(sc: &Scenario, chunk: u64, checkpoints: bool) -> (usize, Sim) {
    let before = live();
    let mut sim = Sim::new(sc).unwrap();
    if !checkpoints {
        sim.set_checkpoints(u64::MAX / 4, 2);
    }
    let mut most = 0;
    while !sim.advance(chunk) {
        most = most.max(live().saturating_sub(before));
    }
    (most, sim)
}

/// The checkpoints add at most [`MAX_CHECKPOINT_BYTES`] to the live heap, and 2 MB for their
/// fixed parts and their own events: the run with them holds at most that beyond the same run
/// without them (one at the start only). And they come near the cap, so it is what bounds them.
/// Measured: 96.4 MB (calls in flight, 11 checkpoints kept) and 99.7 MB (the window, 25) beyond
/// 14.7 and 8.4 MB without. With the cap not counting the queue, or the window's buckets, they
/// held 374 and 195 MB; while it counted 48 bytes for an entry out of order (56), 112 MB.
#[test]
fn checkpoints_stay_within_the_cap_as_measured() {
    for (what, sc, chunk) in [
        ("calls in flight", calls_in_flight(), 1 << 16),
        ("a long time window", long_time_window(), 1 << 14),
    ] {
        let (alone, bare) = most_live(&sc, chunk, false);
        drop(bare);
        let (most, sim) = most_live(&sc, chunk, true);
        let held = most.saturating_sub(alone);
        eprintln!(
            "{what}: {most} bytes live at most, {alone} without checkpoints; {} kept",
            sim.checkpoint_count()
        );
        assert!(
            held <= MAX_CHECKPOINT_BYTES + (2 << 20),
            "{what}: the checkpoints hold {held} bytes ({most} live, {alone} without them)"
        );
        assert!(
            held > MAX_CHECKPOINT_BYTES / 2,
            "{what}: the checkpoints hold {held} bytes ({most} live, {alone} without them)"
        );
    }
}
