//! Circuit breakers with no clock of their own.
//!
//! Two breakers share one interface, [`Breaker`]:
//!
//! * [`Statistical`]: a sequential probability ratio test (Wald 1945) kept running as Page's
//!   CUSUM (Page 1954). Each counted result adds its log-likelihood ratio to a score with a floor
//!   at 0; the breaker opens when the score reaches a line `ln N` set by traffic, so that false
//!   alarms stay rarer than one per `N` calls on average (Ville's inequality; Lorden 1971).
//!   Half-open runs Wald's two-sided test on one trial at a time; the open wait backs off
//!   exponentially; generations drop late results.
//! * [`Window`]: the classic failure-rate-in-a-window breaker with resilience4j 2.x semantics,
//!   every decision parameter named after its `CircuitBreakerConfig` counterpart.
//!
//! Every method takes `now`, the current time in seconds (`f64`) on any monotonic clock the caller
//! chooses (monotonic: a finite time far ahead is taken at face value, see [`Breaker`]): a fake
//! clock in a simulator, `performance.now() / 1000` in a browser, or `Instant::elapsed` in a
//! service
#![cfg_attr(feature = "sync", doc = "(see [`shared::Clock`]).")]
#![cfg_attr(
    not(feature = "sync"),
    doc = "(see `shared::Clock`, with the `sync` feature)."
)]
//!
//! ```
//! use breaker::{Breaker, Decision, Outcome, Statistical, StatisticalSettings};
//!
//! let mut b = Statistical::new(StatisticalSettings::default()).unwrap();
//! if let Decision::Admit(permit) = b.permit(0.0) {
//!     // ... make the call ...
//!     b.record(&permit, Outcome::Success, 0.05);
//! }
//! assert_eq!(b.state(), breaker::State::Closed);
//! ```
//!
//! Features, both on by default: `serde` (`Serialize`/`Deserialize` for the settings, states,
//! outcomes, reasons, transitions and observations; settings also read durations such as `"5s"`
//! and rates such as `"5%"`) and `sync` (the thread-safe `shared::Shared` wrapper, on
//! `parking_lot`). With `default-features = false` the crate depends on `libm` alone.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod backoff;
pub mod error;
pub mod float_parse;
pub mod generation;
pub mod line;
pub mod outcome;
pub mod quote;
pub mod score;
#[cfg(feature = "sync")]
pub mod shared;
pub mod statistical;
pub mod traffic;
pub mod trial;
pub mod units;
pub mod window;

mod latest;
mod types;

pub use error::SettingsError;
pub use outcome::{Class, Outcome};
pub use statistical::{Derived, Statistical, StatisticalSettings};
pub use types::{
    Decision, Ignored, Observation, Permit, PermitKind, Reason, Recorded, Rejection, State,
    Transition,
};
pub use window::{AfterHalfOpenWait, SlidingWindowType, Window, WindowSettings};

/// What the simulator, the wasm layer and a service drive: ask, call, report.
///
/// Transitions happen only inside these methods, at the `now` they are given (except that
/// [`Window`] dates a time rule applied late at its deadline, as a scheduler would have). The
/// transitions caused by the most recent `permit`, `permit_last_option`, `record` or `poll` are
/// available from [`Breaker::transitions`] until the next such call (so nothing accumulates in a
/// long-lived breaker).
///
/// `now` must come from a monotonic clock (never a wall clock, which jumps when it is set). A
/// time that is not finite is read as the latest finite one, but a finite time far ahead is
/// taken at face value: the breaker's times stay there until the clock catches up (a time
/// window records later results into that future second and stops sliding until the clock
/// reaches it; a wait timed from it ends only after it).
pub trait Breaker {
    /// Ask to make a call at `now`. The call counts as traffic whether or not it is admitted.
    fn permit(&mut self, now: f64) -> Decision;

    /// Admit a call that has no other option left (the last target): it is tried even while the
    /// breaker is open, and its result moves nothing. Ask with this *instead of*
    /// [`Breaker::permit`], not after one was refused: like `permit`, it counts the call as
    /// traffic (the statistical breaker's line), so asking both would count the call twice.
    #[must_use = "report the call's outcome with the permit"]
    fn permit_last_option(&mut self, now: f64) -> Permit;

    /// Report the outcome of an admitted call at `now` (its duration is `now - permit.issued_at`).
    ///
    /// Report each permit once: neither breaker remembers which closed-state permits it has
    /// heard from, so a second report of one counts again (a statistical trial counts once;
    /// a window probe, as in resilience4j, again).
    fn record(&mut self, permit: &Permit, outcome: Outcome, now: f64) -> Recorded;

    /// Let time-driven rules act at `now` (lost trials, time limits, automatic transitions).
    /// Calling it is optional: the same rules are applied lazily on the next permit or record.
    fn poll(&mut self, now: f64);

    /// The earliest time at which [`Breaker::poll`] would change something, if any.
    fn next_deadline(&self) -> Option<f64>;

    /// The current state.
    fn state(&self) -> State;

    /// The generation: incremented by every state change.
    fn generation(&self) -> u64;

    /// The numbers a chart shows, at `now`.
    fn observe(&self, now: f64) -> Observation;

    /// The transitions caused by the most recent mutating call, in order: usually none, at most
    /// two for [`Statistical`]. [`Window`] with automatic transitions and a half-open maximum,
    /// called after a long pause, reports every deadline it catches up on (at most 64 per call),
    /// then the call's own.
    fn transitions(&self) -> &[Transition];
}

/// A boxed breaker is a breaker, so that one chosen at run time (from configuration, say) can be
/// driven or shared as `Box<dyn Breaker + Send>`.
impl<B: Breaker + ?Sized> Breaker for Box<B> {
    fn permit(&mut self, now: f64) -> Decision {
        (**self).permit(now)
    }

    fn permit_last_option(&mut self, now: f64) -> Permit {
        (**self).permit_last_option(now)
    }

    fn record(&mut self, permit: &Permit, outcome: Outcome, now: f64) -> Recorded {
        (**self).record(permit, outcome, now)
    }

    fn poll(&mut self, now: f64) {
        (**self).poll(now)
    }

    fn next_deadline(&self) -> Option<f64> {
        (**self).next_deadline()
    }

    fn state(&self) -> State {
        (**self).state()
    }

    fn generation(&self) -> u64 {
        (**self).generation()
    }

    fn observe(&self, now: f64) -> Observation {
        (**self).observe(now)
    }

    fn transitions(&self) -> &[Transition] {
        (**self).transitions()
    }
}

/// A permit asked for and then dropped is a call made without the breaker's answer: the compiler
/// says so (these must fail to build).
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use breaker::{Breaker, Statistical, StatisticalSettings};
/// let mut b = Statistical::new(StatisticalSettings::default()).unwrap();
/// b.permit(0.0); // admitted or rejected? nobody looked
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use breaker::{Breaker, Window, WindowSettings};
/// let mut b = Window::new(WindowSettings::default()).unwrap();
/// b.permit_last_option(0.0);
/// ```
#[cfg_attr(
    feature = "sync",
    doc = r#"
```compile_fail
#![deny(unused_must_use)]
use breaker::shared::Shared;
use breaker::{Statistical, StatisticalSettings};
let shared = Shared::new(Statistical::new(StatisticalSettings::default()).unwrap());
shared.permit();
```
"#
)]
#[cfg(doctest)]
pub struct MustUseDoctests;

/// The README's Rust examples, compiled and run as doc tests so they stay true (its one example
/// is the `Shared` wrapper's, so only with `sync`).
#[cfg(all(doctest, feature = "sync"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// `Serialize` and `Deserialize` for a settings struct whose derives carry
/// `#[serde(remote = "Self")]` (so they are inherent functions): serialized as derived, read from
/// an object only ([`units::serde_units::ObjectOnly`]). Needs `serde` among the caller's
/// dependencies.
#[cfg(feature = "serde")]
#[macro_export]
macro_rules! object_only_serde {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$t>::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$t>::deserialize($crate::units::serde_units::ObjectOnly(d))
            }
        }
    };
}
