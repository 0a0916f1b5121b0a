//! The traits a service expects of the public types: thread safety (checked at compile time),
//! errors that work with `?`, and `Display` text for logs.

use std::collections::HashSet;
use std::error::Error;
use std::fmt::{Debug, Display};
use std::hash::Hash;

use breaker::{
    Breaker, Class, Decision, Ignored, Observation, Outcome, ParseOutcomeError, Permit, PermitKind,
    Reason, Recorded, Rejection, SettingsError, State, Statistical, StatisticalSettings,
    Transition, Window, WindowSettings,
};

fn send_sync<T: Send + Sync>() {}
fn error<T: Error + Send + Sync + 'static>() {}
fn small_enum<T: Debug + Copy + Eq + Hash>() {}

/// Breakers, their answers and their errors cross threads and tasks; errors go into
/// `Box<dyn Error + Send + Sync>` (and so `anyhow`). A missing impl fails the build here.
#[test]
fn the_public_types_have_the_traits_a_service_needs() {
    send_sync::<Statistical>();
    send_sync::<Window>();
    send_sync::<Box<dyn Breaker + Send + Sync>>();
    send_sync::<StatisticalSettings>();
    send_sync::<WindowSettings>();
    send_sync::<Decision>();
    send_sync::<Permit>();
    send_sync::<Transition>();
    send_sync::<Observation>();
    error::<SettingsError>();
    error::<Rejection>();
    error::<ParseOutcomeError>();
    small_enum::<State>();
    small_enum::<PermitKind>();
    small_enum::<Outcome>();
    small_enum::<Class>();
    small_enum::<Ignored>();
    small_enum::<Recorded>();
    small_enum::<breaker::SlidingWindowType>();
    small_enum::<breaker::AfterHalfOpenWait>();
    fn default_debug_clone<T: Default + Debug + Clone + PartialEq>() {}
    default_debug_clone::<StatisticalSettings>();
    default_debug_clone::<WindowSettings>();
    fn display<T: Display>() {}
    display::<Reason>();
    display::<State>();
    display::<Outcome>();
    display::<PermitKind>();
    display::<Ignored>();
    let set: HashSet<Ignored> = [Ignored::Neutral, Ignored::Neutral, Ignored::Lost].into();
    assert_eq!(set.len(), 2);
}

#[cfg(feature = "sync")]
#[test]
fn the_shared_wrapper_and_its_guards_cross_threads() {
    use breaker::shared::{Clock, Guard, Locked, ManualClock, OwnedGuard, Shared};
    send_sync::<Shared<Statistical>>();
    send_sync::<Shared<Window>>();
    send_sync::<Shared<Box<dyn Breaker + Send>>>();
    send_sync::<Guard<'static, Statistical>>();
    send_sync::<OwnedGuard<Window>>();
    send_sync::<Clock>();
    send_sync::<ManualClock>();
    small_enum::<Locked<Recorded>>();
    assert_eq!(ManualClock::default().now(), 0.0);
}

#[test]
fn a_rejection_is_an_error_with_a_message() {
    let mut b = Statistical::new(StatisticalSettings::default()).unwrap();
    // Open it: failures until the score reaches the cold line.
    let mut now = 0.0;
    while b.state() == State::Closed {
        let p = b.permit(now).permit().unwrap();
        b.record(&p, Outcome::Timeout, now);
        now += 0.001;
    }
    let opened = b.transitions()[0].at;
    let r = match b.permit(now) {
        Decision::Reject(r) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        r,
        Rejection::Open {
            until: opened + 60.0
        }
    );
    assert_eq!(
        r.to_string(),
        format!("circuit open until {:.3} s", opened + 60.0)
    );
    // `?` into the usual boxed error.
    let boxed: Box<dyn Error + Send + Sync> = r.into();
    assert_eq!(
        boxed.to_string(),
        format!("circuit open until {:.3} s", opened + 60.0)
    );
    assert_eq!(
        Rejection::HalfOpenBusy.to_string(),
        "circuit half-open with every trial slot taken"
    );
}

#[test]
fn ignored_results_and_permit_kinds_say_what_they_are() {
    let stale = Ignored::Stale {
        permit: 1,
        current: 2,
    };
    assert_eq!(stale.to_string(), "late result of generation 1 (now 2)");
    assert_eq!(Ignored::Neutral.to_string(), "neutral outcome");
    assert_eq!(Ignored::LastOption.to_string(), "last-option call");
    assert_eq!(Ignored::Lost.to_string(), "trial lost or already reported");
    assert_eq!(Ignored::NoEffect.to_string(), "arrived while open");
    assert_eq!(PermitKind::Normal.to_string(), "normal");
    assert_eq!(PermitKind::Trial.to_string(), "trial");
    assert_eq!(PermitKind::LastOption.to_string(), "last_option");
}

#[test]
fn an_unknown_outcome_is_an_error_with_the_same_message() {
    let e: ParseOutcomeError = "teapot".parse::<Outcome>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown outcome \"teapot\": allowed success, timeout, refused, server_error, overload, \
         service_rate_limited, auth_rejected, input_rejected, user_rate_limited, ok, fail, or an \
         HTTP status"
    );
    let boxed: Box<dyn Error + Send + Sync> = "700".parse::<Outcome>().unwrap_err().into();
    assert_eq!(
        boxed.to_string(),
        "HTTP status 700 is out of range: allowed 100..=599"
    );
}

/// `Permit::new` rebuilds the permit a breaker issued, field for field.
#[test]
fn a_permit_rebuilt_from_its_parts_is_the_same_permit() {
    let mut b = Window::new(WindowSettings::default()).unwrap();
    let p = b.permit(3.5).permit().unwrap();
    let q = Permit::new(p.generation, p.id, p.issued_at, p.kind);
    assert_eq!(q, p);
    assert_eq!(b.record(&q, Outcome::Success, 4.0), Recorded::Counted);
    assert_eq!(b.calls_in_window(4.0), 1);
}
