//! A breaker replaced inside `Shared::with` (a configuration reload) while one of its half-open
//! trials is out: that trial's result then reaches the replacement. Run the same way (the same
//! settings, the same calls), the replacement reaches a half-open of the same generation, and
//! had its permits been numbered from 1 as the old one's were, its own trial would carry the old
//! trial's id too: the old result was taken for the new trial's. Natively each breaker numbers
//! its permits from a base of its own (in wasm from 1: see `breaker::Permit::id`). A clone goes on
//! with its original's numbers: a replacement cloned from one template as the replaced breaker was
//! is not told apart (the docs of `Shared::with` say so).
#![cfg(all(feature = "sync", not(target_arch = "wasm32")))]

use std::time::Duration;

use breaker::shared::{Locked, ManualClock, Shared};
use breaker::{
    Breaker, Decision, Ignored, Outcome, Permit, PermitKind, Recorded, Rejection,
    SlidingWindowType, State, Statistical, StatisticalSettings, Window, WindowSettings,
};

const FAIL: Outcome = Outcome::ServerError;

fn admitted<B: Breaker>(shared: &Shared<B>) -> Permit {
    match shared.permit() {
        Locked::Done(Decision::Admit(p)) => p,
        other => panic!("not admitted: {other:?}"),
    }
}

/// Fail calls a second apart until the breaker opens, wait out the open state, and let in the
/// first trial: its permit.
fn first_trial<B: Breaker>(shared: &Shared<B>, clock: &ManualClock, wait: Duration) -> Permit {
    for _ in 0..1000 {
        let p = admitted(shared);
        let _ = shared.record(&p, FAIL);
        if shared.state() == State::Open {
            clock.advance(wait);
            let trial = admitted(shared);
            assert_eq!(
                (shared.state(), trial.kind),
                (State::HalfOpen, PermitKind::Trial)
            );
            return trial;
        }
        clock.advance(Duration::from_secs(1));
    }
    panic!("never opened");
}

#[test]
fn a_replaced_window_breakers_probe_does_not_free_the_replacements_slot() {
    let settings = WindowSettings {
        sliding_window_type: SlidingWindowType::CountBased,
        sliding_window_size: 2,
        minimum_number_of_calls: 2,
        permitted_number_of_calls_in_half_open_state: 1,
        wait_duration_in_open_state: 1.0,
        ..WindowSettings::default()
    };
    let clock = ManualClock::new(0.0);
    let shared = Shared::new(Window::new(settings.clone()).unwrap()).with_clock(clock.clock());
    let old = first_trial(&shared, &clock, Duration::from_secs(1));
    shared.with(|b| *b = Window::new(settings).unwrap());
    let new = first_trial(&shared, &clock, Duration::from_secs(1));
    assert_eq!(old.generation, new.generation);
    assert_ne!(
        old.id, new.id,
        "the replacement numbers its permits from its own base"
    );
    let slots = || shared.with(|b| (b.probes_in_flight(), b.probes_available()));
    assert_eq!(slots(), (1, 0));
    // The old probe's call ends neutral (its guard dropped): the new probe is still out, and its
    // slot still taken.
    let neutral = Outcome::InputRejected;
    assert_eq!(
        shared.record(&old, neutral),
        Locked::Done(Recorded::Ignored(Ignored::Neutral))
    );
    assert_eq!(slots(), (1, 0));
    assert_eq!(
        shared.permit(),
        Locked::Done(Decision::Reject(Rejection::HalfOpenBusy))
    );
    // The new probe's own result frees it.
    assert_eq!(
        shared.record(&new, neutral),
        Locked::Done(Recorded::Ignored(Ignored::Neutral))
    );
    assert_eq!(slots(), (0, 1));
}

#[test]
fn a_replaced_statistical_breakers_trial_is_not_taken_for_the_replacements() {
    let settings = StatisticalSettings {
        expected_calls_per_minute: 60.0,
        ..StatisticalSettings::default()
    };
    let wait = Duration::from_secs_f64(settings.first_wait);
    let clock = ManualClock::new(0.0);
    let shared = Shared::new(Statistical::new(settings.clone()).unwrap()).with_clock(clock.clock());
    let old = first_trial(&shared, &clock, wait);
    shared.with(|b| *b = Statistical::new(settings).unwrap());
    let new = first_trial(&shared, &clock, wait);
    assert_eq!(old.generation, new.generation);
    assert_ne!(
        old.id, new.id,
        "the replacement numbers its permits from its own base"
    );
    // The old trial's failure is not the new trial's answer: lost, as any trial result the
    // breaker is not waiting for.
    assert_eq!(
        shared.record(&old, FAIL),
        Locked::Done(Recorded::Ignored(Ignored::Lost))
    );
    assert_eq!(
        shared.with(|b| (b.trial_score(), b.trial_in_flight())),
        (0.0, true)
    );
    // The new trial's failure is.
    assert_eq!(shared.record(&new, FAIL), Locked::Done(Recorded::Counted));
    let w_fail = (0.20f64 / 0.05).ln();
    let score = shared.with(|b| b.trial_score());
    assert!((score - w_fail).abs() < 1e-12, "{score}");
}
