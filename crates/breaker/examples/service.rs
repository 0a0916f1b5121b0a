//! A native multi-threaded service guarding a flaky dependency with one shared breaker.
//!
//! Four worker threads ask a fake price service for a price. It answers in about a millisecond
//! and fails 1 call in 50, until it goes down between 0.6 s and 1.2 s of the run: then every
//! call hangs until the client's 20 ms timeout. Each worker asks the breaker first (shared under
//! a lock with a 2 s bound), makes the call if admitted, reports the outcome, and answers from
//! its last known price (the fallback) when the breaker rejects the call or the call fails. The
//! breaker opens early in the outage, so most calls get the fallback at once instead of after
//! the timeout; it tests with one trial at a time, backing off while the trials fail, and
//! closes once the service is back. Every state change is printed as it happens, with its
//! reason, by the listener.
//!
//! Run: `cargo run -p breaker --example service`

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use breaker::shared::{Clock, Shared};
use breaker::{Outcome, Statistical, StatisticalSettings};

/// The client's timeout for one call.
const CLIENT_TIMEOUT: Duration = Duration::from_millis(20);

/// The dependency: a blocking call with a client timeout, as an HTTP client makes it. Down
/// (hanging) between 0.6 s and 1.2 s of the run; otherwise 1 call in 50 is a 500.
fn fetch_price(call: u64, clock: &Clock) -> Result<u64, Outcome> {
    if (0.6..1.2).contains(&clock.now()) {
        thread::sleep(CLIENT_TIMEOUT);
        return Err(Outcome::Timeout);
    }
    thread::sleep(Duration::from_millis(1));
    if call % 50 == 0 {
        Err(Outcome::from_http_status(500))
    } else {
        Ok(100 + call % 7)
    }
}

/// Counters for the summary.
#[derive(Default)]
struct Counts {
    calls: AtomicU64,
    answered: AtomicU64,
    rejected: AtomicU64,
    failed: AtomicU64,
    timed_out: AtomicU64,
}

/// A price: from the service when the breaker admits the call and it succeeds, else the last
/// known one. The same shape works in async code: `admit`, `.await` the call, `finish`; a future
/// dropped at the `.await` reports a neutral result through its guard.
fn price(breaker: &Shared<Statistical>, call: u64, last: &mut u64, counts: &Counts) -> u64 {
    // Rejected: open, or half-open with its trial in flight (or the lock held for 2 s while it
    // was last seen open or half-open). No call, no wait. (If the lock was held for 2 s while it
    // was last seen closed, the guard holds no permit: the call goes ahead with nothing to
    // report.)
    let Ok(guard) = breaker.admit() else {
        counts.rejected.fetch_add(1, Ordering::Relaxed);
        return *last;
    };
    let result = fetch_price(call, &breaker.clock());
    // Dropped only if the lock is held for 2 s: one lost result does less harm.
    let _ = guard.finish(match result {
        Ok(_) => Outcome::Success,
        Err(outcome) => outcome,
    });
    match result {
        Ok(price) => {
            counts.answered.fetch_add(1, Ordering::Relaxed);
            *last = price;
            price
        }
        Err(outcome) => {
            counts.failed.fetch_add(1, Ordering::Relaxed);
            if outcome == Outcome::Timeout {
                counts.timed_out.fetch_add(1, Ordering::Relaxed);
            }
            *last
        }
    }
}

fn main() {
    // Short waits and a short false-alarm period so the whole story fits in two seconds.
    let settings = StatisticalSettings {
        first_wait: 0.1,
        wait_cap: 0.4,
        false_alarm_period: 3600.0,
        traffic_time_constant: 1.0,
        expected_calls_per_minute: 120_000.0,
        // A trial not answered within this is lost (its slot frees for the next call).
        call_timeout: 0.05,
        // Half-open lasts at most this x 18 trials-to-close / rate. Trials go one at a time, so
        // 18 of them take at least 18 call latencies; at thousands of calls a second the
        // default 3 would end half-open before Wald's test could decide.
        half_open_time_factor: 30.0,
        ..Default::default()
    };
    // Every state change, with its reason, at the breaker's time (`t.at`, seconds since
    // `Shared::new`): the listener runs under the lock, so keep it short, and do not let it
    // panic (`println!` would, on a broken pipe: `service | head -1`).
    let breaker = Arc::new(
        Shared::new(Statistical::new(settings).expect("valid settings")).on_transition(|t| {
            let line = format!("{:>6.3}  {} -> {}: {}", t.at, t.from, t.to, t.reason);
            let _ = writeln!(std::io::stdout(), "{line}");
        }),
    );
    let clock = breaker.clock();
    let counts = Arc::new(Counts::default());

    // Output to a closed pipe (`| head -1`) is dropped, not a panic.
    let _ = writeln!(std::io::stdout(), "{:>6}  state change", "t (s)");
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (breaker, counts, clock) = (breaker.clone(), counts.clone(), clock.clone());
            thread::spawn(move || {
                let mut last = 100;
                while clock.now() < 2.0 {
                    let call = counts.calls.fetch_add(1, Ordering::Relaxed);
                    price(&breaker, call, &mut last, &counts);
                    thread::sleep(Duration::from_micros(500));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let _ = writeln!(
        std::io::stdout(),
        "{} calls: {} answered by the service, {} failed ({} after waiting for the {} ms \
         timeout), {} rejected at once by the breaker; final state {}",
        n(&counts.calls),
        n(&counts.answered),
        n(&counts.failed),
        n(&counts.timed_out),
        CLIENT_TIMEOUT.as_millis(),
        n(&counts.rejected),
        breaker.state()
    );
}
