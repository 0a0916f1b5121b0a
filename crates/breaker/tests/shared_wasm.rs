//! `Shared` where there is no system clock (`wasm32-unknown-unknown`, in headless browsers through
//! `wasm-pack test`; natively too): given its own clock, it never reads the system's. It used to
//! read it when made, so `Shared::new` threw "unreachable" in a browser before `with_clock`
//! could replace that clock. (The threaded tests in `shared.rs` run natively only.)
#![cfg(feature = "sync")]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use breaker::shared::{Clock, Locked, ManualClock, Shared};
use breaker::{Decision, Outcome, State, Window, WindowSettings};

#[test]
fn shared_runs_on_its_own_clock_without_the_systems() {
    let settings = WindowSettings {
        sliding_window_size: 2,
        minimum_number_of_calls: 2,
        ..WindowSettings::default()
    };
    let clock = ManualClock::new(0.0);
    let breaker = Shared::new(Window::new(settings.clone()).unwrap()).with_clock(clock.clock());
    for _ in 0..2 {
        let guard = breaker.admit().unwrap();
        clock.advance(std::time::Duration::from_millis(500));
        guard.finish(Outcome::ServerError);
    }
    assert_eq!(breaker.state(), State::Open);
    assert!(matches!(
        breaker.permit(),
        Locked::Done(Decision::Reject(_))
    ));
    // A clock of one's own (a runtime's, or the page's `performance.now()`).
    let t = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = t.clone();
    let breaker =
        Shared::new(Window::new(settings).unwrap()).with_clock(Clock::from_fn(move || {
            seen.load(std::sync::atomic::Ordering::Relaxed) as f64
        }));
    t.store(61, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(breaker.clock().now(), 61.0);
    assert_eq!(breaker.call(|| ((), Outcome::Success)), Ok(()));
}
