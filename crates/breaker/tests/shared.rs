//! The thread-safe wrapper: many threads, one state, a bounded lock wait.
#![cfg(all(feature = "sync", not(target_arch = "wasm32")))]

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use breaker::shared::{Locked, Shared};
use breaker::{Breaker, Decision, Outcome, State, Statistical, StatisticalSettings};

#[test]
fn threads_share_one_state() {
    let s = StatisticalSettings {
        expected_calls_per_minute: 6000.0,
        ..Default::default()
    };
    let shared = Arc::new(Shared::new(Statistical::new(s).unwrap()));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let shared = shared.clone();
            thread::spawn(move || {
                for _ in 0..50 {
                    shared.call(|| ((), Outcome::Refused));
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    // 200 refusals far exceed the line (~ln(100 * 30 days) = 19.4 nats = 14 failures).
    assert_eq!(shared.state(), State::Open);
    assert_eq!(shared.with(|b| b.generation()), 1);
}

#[test]
fn a_change_that_cannot_take_the_lock_in_time_is_dropped() {
    let shared = Arc::new(Shared::with_lock_timeout(
        Statistical::new(StatisticalSettings::default()).unwrap(),
        Duration::from_millis(20),
    ));
    let permit = match shared.permit() {
        Locked::Done(Decision::Admit(p)) => p,
        other => panic!("{other:?}"),
    };
    let holder = {
        let shared = shared.clone();
        thread::spawn(move || shared.with(|_| thread::sleep(Duration::from_millis(300))))
    };
    thread::sleep(Duration::from_millis(50));
    assert_eq!(shared.record(&permit, Outcome::Timeout), Locked::Dropped);
    holder.join().unwrap();
    assert_eq!(
        shared.with(|b| b.score()),
        0.0,
        "the dropped failure moved nothing"
    );
}

/// A permit is issued when the breaker admits the call, after the wait for the lock: before,
/// `issued_at` was read before the wait, so a call that waited on the lock looked that much
/// longer (slow, to the window breaker) and a half-open trial that much closer to being lost.
#[test]
fn a_permit_is_issued_after_the_wait_for_the_lock() {
    let shared = Arc::new(Shared::new(
        Statistical::new(StatisticalSettings::default()).unwrap(),
    ));
    let (locked, release) = (
        Arc::new(std::sync::Barrier::new(2)),
        Duration::from_millis(300),
    );
    let holder = {
        let (shared, locked) = (shared.clone(), locked.clone());
        thread::spawn(move || {
            shared.with(|_| {
                locked.wait();
                thread::sleep(release);
            })
        })
    };
    // Read before the barrier: the holder's 300 ms start after it, so however late this thread
    // runs, the permit is issued at least 0.3 s after `asked`.
    let asked = shared.clock().now();
    locked.wait();
    let permit = match shared.permit() {
        Locked::Done(Decision::Admit(p)) => p,
        other => panic!("{other:?}"),
    };
    holder.join().unwrap();
    assert!(
        permit.issued_at >= asked + 0.29,
        "asked at {asked}, issued at {}",
        permit.issued_at
    );
}
