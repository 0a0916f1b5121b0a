//! A native multi-threaded service guarding a flaky dependency with one shared breaker.
//!
//! Four worker threads call a fake dependency that fails 2% of the time, then goes down for a
//! while, then recovers. The breaker (shared under a lock with a 2 s bound) opens during the
//! outage, sends calls to the fallback, tests with one trial at a time, and closes again.
//!
//! Run: `cargo run -p breaker --example service`

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use breaker::shared::Shared;
use breaker::{Breaker, Outcome, Statistical, StatisticalSettings};

/// The dependency: healthy with 1 failure in 50, down between 0.6 s and 1.2 s of the run.
fn dependency(call: u64, elapsed: f64) -> Outcome {
    if (0.6..1.2).contains(&elapsed) {
        Outcome::Refused
    } else if call % 50 == 0 {
        Outcome::ServerError
    } else {
        Outcome::Success
    }
}

fn main() {
    // Short waits and a short false-alarm period so the whole story fits in two seconds.
    let settings = StatisticalSettings {
        first_wait: 0.1,
        wait_cap: 0.4,
        false_alarm_period: 3600.0,
        traffic_time_constant: 1.0,
        expected_calls_per_minute: 60_000.0,
        call_timeout: 0.05,
        ..Default::default()
    };
    let breaker = Arc::new(Shared::new(
        Statistical::new(settings).expect("valid settings"),
    ));
    let calls = Arc::new(AtomicU64::new(0));
    let fallbacks = Arc::new(AtomicU64::new(0));
    let clock = breaker.clock();

    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (breaker, calls, fallbacks) = (breaker.clone(), calls.clone(), fallbacks.clone());
            thread::spawn(move || {
                while clock.now() < 2.0 {
                    let n = calls.fetch_add(1, Ordering::Relaxed);
                    let answered = breaker.call(|| {
                        let outcome = dependency(n, clock.now());
                        (outcome == Outcome::Success, outcome)
                    });
                    if answered.is_none() {
                        fallbacks.fetch_add(1, Ordering::Relaxed);
                    }
                    thread::sleep(Duration::from_micros(500));
                }
            })
        })
        .collect();

    let mut last = breaker.state();
    println!("{:>6}  state", "t (s)");
    while clock.now() < 2.0 {
        let (state, score, line) = breaker.with(|b| {
            let now = clock.now();
            (b.state(), b.score(), b.line(now))
        });
        if state != last {
            println!(
                "{:>6.3}  {last} -> {state} (score {score:.2}, line {line:.2})",
                clock.now()
            );
            last = state;
        }
        thread::sleep(Duration::from_millis(2));
    }
    for w in workers {
        w.join().expect("worker");
    }
    println!(
        "{} calls, {} sent to the fallback, final state {}",
        calls.load(Ordering::Relaxed),
        fallbacks.load(Ordering::Relaxed),
        breaker.state()
    );
}
