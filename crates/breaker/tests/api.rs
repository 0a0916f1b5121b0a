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
    // A breaker's default is the breaker of the default settings, closed.
    let (s, w) = (Statistical::default(), Window::default());
    assert_eq!(s.settings(), &StatisticalSettings::default());
    assert_eq!(w.settings(), &WindowSettings::default());
    assert_eq!((s.state(), w.state()), (State::Closed, State::Closed));
    fn display<T: Display>() {}
    display::<Reason>();
    display::<State>();
    display::<Outcome>();
    display::<PermitKind>();
    display::<Ignored>();
    display::<Recorded>();
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
    // Open it: failures until the score reaches the cold line (two at the defaults; a limit,
    // so that a breaker that never opens fails here instead of looping for good).
    let mut now = 0.0;
    for _ in 0..100 {
        if b.state() != State::Closed {
            break;
        }
        let p = b.permit(now).permit().unwrap();
        b.record(&p, Outcome::Timeout, now);
        now += 0.001;
    }
    assert_eq!(b.state(), State::Open, "100 failures in a row open it");
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
        format!(
            "circuit open until {:.3} s on the breaker's clock",
            opened + 60.0
        )
    );
    // `?` into the usual boxed error.
    let boxed: Box<dyn Error + Send + Sync> = r.into();
    assert_eq!(
        boxed.to_string(),
        format!(
            "circuit open until {:.3} s on the breaker's clock",
            opened + 60.0
        )
    );
    assert_eq!(
        Rejection::HalfOpenBusy.to_string(),
        "circuit half-open with every trial slot taken"
    );
}

/// A transition is one line for a service's log: states, the time on the breaker's clock, the
/// generation and the reason with its numbers.
#[test]
fn a_transition_says_what_changed_when_and_why() {
    let mut b = Window::new(WindowSettings {
        sliding_window_size: 4,
        minimum_number_of_calls: 4,
        ..Default::default()
    })
    .unwrap();
    for i in 0..4 {
        let now = 2.5 + f64::from(i) * 0.25;
        let p = b.permit(now).permit().unwrap();
        b.record(&p, Outcome::Refused, now);
    }
    assert_eq!(b.state(), State::Open);
    assert_eq!(
        b.transitions()[0].to_string(),
        "closed -> open at 3.250 s (generation 1): failure rate 100.0% of 4 calls reached \
         threshold 50.0%"
    );
}

/// A clock read far ahead is taken at face value, and its times print as the reason's numbers
/// do: `{:.3}` wrote 1e300 with 301 digits and three zeros.
#[test]
fn times_far_ahead_print_short() {
    let mut b = Window::new(WindowSettings {
        sliding_window_size: 2,
        minimum_number_of_calls: 2,
        ..Default::default()
    })
    .unwrap();
    for now in [1e300, 1e300] {
        let p = b.permit(now).permit().unwrap();
        b.record(&p, Outcome::Refused, now);
    }
    assert_eq!(
        b.transitions()[0].to_string(),
        "closed -> open at 1e300 s (generation 1): failure rate 100.0% of 2 calls reached \
         threshold 50.0%"
    );
    // (The wait ends at once there: 1e300 + 60 is 1e300.) Below 1e15 s, milliseconds as
    // before; from there, Num's digits.
    for (at, s) in [
        (1e300, "1e300"),
        (999_999_999_999_999.9, "999999999999999.875"),
        (1e15, "1000000000000000"),
        (-1e20, "-1e20"),
    ] {
        assert_eq!(
            Rejection::Open { until: at }.to_string(),
            format!("circuit open until {s} s on the breaker's clock")
        );
    }
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
    assert_eq!(Recorded::Counted.to_string(), "counted");
    assert_eq!(
        Recorded::Ignored(stale).to_string(),
        "ignored: late result of generation 1 (now 2)"
    );
    assert_eq!(PermitKind::Normal.to_string(), "normal");
    assert_eq!(PermitKind::Trial.to_string(), "trial");
    assert_eq!(PermitKind::LastOption.to_string(), "last_option");
}

/// A state's name and its chart code (closed 0, half-open 1, open 2: the series' `state` and
/// the page's state band read these).
#[test]
fn states_say_their_names_and_codes() {
    let all = [State::Closed, State::HalfOpen, State::Open];
    let named: Vec<_> = all.iter().map(|s| (s.to_string(), s.code())).collect();
    assert_eq!(
        named,
        [
            ("closed".to_string(), 0),
            ("half_open".to_string(), 1),
            ("open".to_string(), 2)
        ]
    );
    assert!(all.iter().all(|s| s.as_str() == s.to_string()));
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
        "HTTP status 700 is out of range: allowed 100 <= x <= 599"
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

/// Times a broken or misused clock gives.
const ODD_TIMES: [f64; 12] = [
    0.0,
    -0.0,
    -1.0,
    1e-310,
    1.5,
    1e9,
    1e300,
    -1e300,
    f64::MAX,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// No public method panics on any number: times out of order, not finite or huge; permits
/// another breaker issued or made up; the building blocks given numbers their breakers never
/// give them. (A breaker's decisions on such input are tested beside each breaker.)
#[test]
fn no_public_method_panics_on_odd_numbers() {
    use breaker::backoff::Backoff;
    use breaker::score::Weights;
    use breaker::traffic::Traffic;
    use breaker::trial::WaldLines;

    let foreign = [
        Permit::new(0, 0, 0.0, PermitKind::Normal),
        Permit::new(u64::MAX, u64::MAX, f64::NAN, PermitKind::Trial),
        Permit::new(1, 1, f64::INFINITY, PermitKind::Trial),
        Permit::new(2, u64::MAX, -1e300, PermitKind::LastOption),
    ];
    let window_settings = [
        WindowSettings::default(),
        WindowSettings {
            sliding_window_type: breaker::SlidingWindowType::TimeBased,
            sliding_window_size: 1,
            minimum_number_of_calls: 1,
            permitted_number_of_calls_in_half_open_state: 1,
            max_wait_duration_in_half_open_state: 1.0,
            automatic_transition_from_open_to_half_open_enabled: true,
            wait_interval_multiplier: 1000.0,
            wait_randomization_factor: 0.9,
            ..Default::default()
        },
    ];
    let mut breakers: Vec<Box<dyn Breaker>> = vec![
        Box::new(Statistical::new(StatisticalSettings::default()).unwrap()),
        Box::new(Statistical::starting_at(StatisticalSettings::default(), f64::NAN).unwrap()),
    ];
    for s in window_settings {
        breakers.push(Box::new(Window::new(s).unwrap()));
    }
    for b in &mut breakers {
        let mut issued = Vec::new();
        for (i, &now) in ODD_TIMES.iter().cycle().take(400).enumerate() {
            let outcome = Outcome::ALL[i % Outcome::ALL.len()];
            match i % 5 {
                0 | 1 => {
                    if let Decision::Admit(p) = b.permit(now) {
                        issued.push(p);
                    }
                }
                2 => {
                    let p = issued.pop().unwrap_or(foreign[i % foreign.len()]);
                    let _ = b.record(&p, outcome, now);
                    let _ = b.record(&p, outcome, now); // twice
                }
                3 => {
                    let _ = b.record(&foreign[i % foreign.len()], outcome, now);
                    issued.push(b.permit_last_option(now));
                }
                _ => b.poll(now),
            }
            let _ = (
                b.next_deadline(),
                b.state(),
                b.generation(),
                b.transitions(),
            );
            let _ = b.observe(now);
        }
    }
    for &x in &ODD_TIMES {
        let w = Window::new(WindowSettings::default()).unwrap();
        let _ = (
            w.wait_for_attempt(u32::MAX),
            w.failure_rate(x),
            w.calls_in_window(x),
        );
        let s = Statistical::new(StatisticalSettings::default()).unwrap();
        let _ = (s.line(x), s.rate(x), s.derived().line(x, x));
        let mut backoff = Backoff::new(x, x, x);
        let _ = (backoff.start(), backoff.grow(), backoff.current());
        let mut traffic = Traffic::new(x, x, x);
        traffic.tick(x);
        let _ = (traffic.rate(x), traffic.count(x));
        let weights = Weights::new(x, x);
        let _ = (
            weights.drift(x),
            weights.zero_drift_rate(),
            weights.to_points(x),
        );
        let wald = WaldLines::new(x, x);
        let _ = (
            breaker::line::floor(weights, wald),
            breaker::line::line(x, x, x),
        );
        // Unchecked settings: `derived` does not validate (documented), but must not panic.
        let odd = StatisticalSettings {
            fine_rate: x,
            broken_rate: x,
            trial_wrongly_opens: x,
            trial_wrongly_closes: x,
            ..Default::default()
        };
        assert!(
            odd.validate().is_err(),
            "broken_rate must be above fine_rate"
        );
        let _ = odd.derived();
    }
    for status in [0, 99, 600, u16::MAX] {
        assert_eq!(Outcome::from_http_status(status), Outcome::ServerError);
    }
}

#[cfg(feature = "sync")]
#[test]
fn clocks_and_lock_timeouts_do_not_panic_at_their_extremes() {
    use breaker::shared::{Locked, ManualClock, Shared};
    use std::time::Duration;
    for start in ODD_TIMES {
        let clock = ManualClock::new(start);
        assert!(clock.now() >= 0.0 && clock.now().is_finite(), "{start}");
        clock.advance(Duration::MAX);
        clock.advance(Duration::MAX);
        assert_eq!(clock.now(), u64::MAX as f64 / 1e9);
    }
    let clock = ManualClock::new(0.0);
    let shared = Shared::with_lock_timeout(
        Window::new(WindowSettings::default()).unwrap(),
        Duration::MAX,
    )
    .with_clock(clock.clock());
    clock.advance(Duration::MAX);
    let Locked::Done(Decision::Admit(p)) = shared.permit() else {
        panic!("closed admits")
    };
    assert_eq!(
        shared.record(&p, Outcome::Timeout),
        Locked::Done(Recorded::Counted)
    );
}

/// `retry_after` is never negative and never panics: a wait that ran out is zero, a time past a
/// `Duration`'s range is its most, a NaN end (refused elsewhere) zero, and a `now` that is not
/// finite (a broken clock) `None` (it was zero for NaN and `Duration::MAX` for -inf).
#[test]
fn retry_after_is_a_duration_for_any_times() {
    use breaker::Rejection;
    use std::time::Duration;
    let open = |until| Rejection::Open { until };
    assert_eq!(
        open(10.0).retry_after(9.75),
        Some(Duration::from_millis(250))
    );
    assert_eq!(open(10.0).retry_after(10.0), Some(Duration::ZERO));
    assert_eq!(open(10.0).retry_after(1e9), Some(Duration::ZERO));
    assert_eq!(open(f64::INFINITY).retry_after(0.0), Some(Duration::MAX));
    assert_eq!(open(1e300).retry_after(0.0), Some(Duration::MAX));
    assert_eq!(open(f64::NAN).retry_after(0.0), Some(Duration::ZERO));
    assert_eq!(open(10.0).retry_after(f64::NAN), None);
    assert_eq!(open(10.0).retry_after(f64::NEG_INFINITY), None);
    assert_eq!(open(10.0).retry_after(f64::INFINITY), None);
    assert_eq!(Rejection::HalfOpenBusy.retry_after(0.0), None);
}

/// A boxed breaker answers as the breaker inside it, time rules included: its next deadline,
/// and a poll at that deadline moving it to half-open.
#[test]
fn a_boxed_breaker_is_the_breaker_inside() {
    let settings = WindowSettings {
        sliding_window_size: 2,
        minimum_number_of_calls: 2,
        wait_duration_in_open_state: 5.0,
        automatic_transition_from_open_to_half_open_enabled: true,
        ..Default::default()
    };
    let mut plain = Window::new(settings.clone()).unwrap();
    let mut boxed: Box<dyn Breaker> = Box::new(Window::new(settings).unwrap());
    assert_eq!(boxed.next_deadline(), None);
    // (Each breaker numbers its own permits.)
    for now in [1.0, 2.0] {
        let (p, q) = (plain.permit(now).permit(), boxed.permit(now).permit());
        assert_eq!(p.map(|p| p.kind), q.map(|q| q.kind));
        assert_eq!(
            plain.record(&p.unwrap(), Outcome::Refused, now),
            boxed.record(&q.unwrap(), Outcome::Refused, now)
        );
    }
    assert_eq!(boxed.state(), State::Open);
    assert_eq!(boxed.next_deadline(), Some(7.0));
    assert_eq!(boxed.next_deadline(), plain.next_deadline());
    plain.poll(7.0);
    boxed.poll(7.0);
    assert_eq!(boxed.state(), State::HalfOpen);
    assert_eq!(boxed.transitions(), plain.transitions());
    assert_eq!(boxed.generation(), 2);
    assert_eq!(boxed.permit_last_option(8.0).kind, PermitKind::Trial);
    assert_eq!(plain.permit_last_option(8.0).kind, PermitKind::Trial);
}
