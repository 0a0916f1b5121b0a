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
//! One dependency's breaker, driven from one thread (a service with many threads or tasks wraps
//! it in
#![cfg_attr(feature = "sync", doc = "[`shared::Shared`],")]
#![cfg_attr(not(feature = "sync"), doc = "`shared::Shared` (the `sync` feature),")]
//! which reads the clock and takes a lock for each step; the steps are these). Ask before each
//! call, make it only if admitted, and report what happened with the permit: a success, a
//! failure, and a timeout as [`Outcome::Timeout`] when your client's timeout fires (a hang
//! that is never reported never counts). A result that comes back after the statistical breaker
//! changed state carries an old generation and moves nothing (the window breaker counts it in
//! its current window, as resilience4j does).
//!
//! ```
//! use breaker::{
//!     Breaker, Decision, Ignored, Outcome, Reason, Recorded, Rejection, State, Statistical,
//!     StatisticalSettings,
//! };
//!
//! let settings = StatisticalSettings {
//!     fine_rate: 0.05,   // p0: a failure rate we can live with
//!     broken_rate: 0.20, // p1: a failure rate worth skipping
//!     ..Default::default()
//! };
//! let mut b = Statistical::new(settings)?; // a bad setting names its field
//!
//! // A call that succeeds: ask at its start, report at its end (times in seconds).
//! let Decision::Admit(permit) = b.permit(0.0) else { unreachable!("a new breaker admits") };
//! assert_eq!(b.record(&permit, Outcome::Success, 0.05), Recorded::Counted);
//!
//! // A slow call goes out; its answer will come back late.
//! let slow = b.permit(1.0).permit().expect("closed admits");
//!
//! // Then the dependency breaks: 503s, and calls that hang until the client gives up after
//! // 20 ms (report those as timeouts). Each counts, until the breaker opens.
//! let mut now = 1.0;
//! while b.state() == State::Closed {
//!     now += 0.1;
//!     let permit = b.permit(now).permit().expect("closed admits");
//!     let outcome = if permit.id % 2 == 0 {
//!         Outcome::from_http_status(503)
//!     } else {
//!         Outcome::Timeout // the client's own timeout fired
//!     };
//!     now += 0.02;
//!     b.record(&permit, outcome, now);
//! }
//! // What changed, and why (for logs and alerts):
//! let opened = b.transitions()[0];
//! assert_eq!((opened.from, opened.to), (State::Closed, State::Open));
//! assert!(matches!(opened.reason, Reason::ScoreReachedLine { .. }));
//! println!("{} -> {}: {}", opened.from, opened.to, opened.reason);
//!
//! // Open: calls go to the fallback at once, until the wait is over.
//! let Decision::Reject(Rejection::Open { until }) = b.permit(now) else { panic!("open") };
//! assert_eq!(until, opened.at + 60.0); // `first_wait`, 1 min by default
//!
//! // The slow call's success arrives now. It was let in before the breaker opened (generation
//! // 0; the breaker is in 1): it moves nothing, so it cannot close the breaker.
//! assert_eq!(
//!     b.record(&slow, Outcome::Success, now),
//!     Recorded::Ignored(Ignored::Stale { permit: 0, current: 1 })
//! );
//!
//! // After the wait, one trial call at a time; successes close the breaker again.
//! now = until;
//! while b.state() != State::Closed {
//!     let trial = b.permit(now).permit().expect("one trial at a time, answered in turn");
//!     now += 0.05;
//!     assert_eq!(b.record(&trial, Outcome::Success, now), Recorded::Counted);
//! }
//! # Ok::<(), breaker::SettingsError>(())
//! ```
//!
//! Features, both on by default: `serde` (`Serialize`/`Deserialize` for the settings, states,
//! outcomes, reasons, transitions and observations; settings also read durations such as `"5s"`
//! and rates such as `"5%"`, with the parsers of [`units`], which need no feature) and `sync` (the thread-safe `shared::Shared` wrapper, on
//! `parking_lot`). With `default-features = false` the crate depends on `libm` alone. Settings
//! written as JSON read back equal only with `serde_json`'s `float_roundtrip` feature on (without
//! it some numbers read one unit in the last place off); serde's own errors (a value that is not
//! a number or a rate at all) give no field name unless read through `serde_path_to_error`.
//!
//! The statistical breaker's parts have modules of their own, each with its formula and where
//! it comes from: [`score`], [`line`](mod@line), [`traffic`], [`trial`], [`backoff`], [`generation`]. They
//! are public to be read, and for the analysis and the playground built on them. They are
//! building blocks, not a second way to make a breaker: they do not check their inputs as
//! [`Statistical::new`] does, and may change in a minor version. A service uses [`Statistical`]
//! or [`Window`] (behind `shared::Shared` across threads, with the `sync` feature).
#![forbid(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

pub mod backoff;
pub mod error;
// Public only for the workspace's simulator, command line and wasm layer, which read numbers and
// quote text exactly as the settings do (and keep the page's wasm small); not part of the API.
#[doc(hidden)]
pub mod float_parse;
pub mod generation;
pub mod line;
pub mod outcome;
// Public only for the workspace's other crates, which quote user text in their messages the same
// way; not part of the API.
#[doc(hidden)]
pub mod quote;
pub mod score;
#[cfg(feature = "sync")]
pub mod shared;
pub mod statistical;
pub mod traffic;
pub mod trial;
pub mod units;
pub mod window;

mod ids;
mod latest;
mod types;

pub use error::SettingsError;
pub use outcome::{Class, Outcome, ParseOutcomeError};
pub use statistical::{Derived, Statistical, StatisticalSettings};
pub use types::{
    Decision, Ignored, Observation, Permit, PermitKind, Reason, Recorded, Rejection, State,
    Transition,
};
pub use window::{AfterHalfOpenWait, SlidingWindowType, Window, WindowSettings};

/// What the simulator, the wasm layer and a service drive: ask, call, report.
///
/// Transitions happen only inside these methods, at the `now` they are given, except that a
/// time rule applied late is dated at its deadline, as a scheduler or a poll there would have
/// ([`Window`]'s automatic transition and half-open maximum, [`Statistical`]'s half-open time
/// limit), and that [`Window`] dates a change never before its last one (a result timed before
/// another thread's change and recorded after it is dated at that change). The
/// transitions caused by the most recent `permit`, `permit_last_option`, `record` or `poll` are
/// available from [`Breaker::transitions`] until the next such call (so nothing accumulates in a
/// long-lived breaker).
///
/// `now` must come from a monotonic clock (never a wall clock, which jumps when it is set). A
/// time that is not finite is read as the latest finite one, but a finite time far ahead is
/// taken at face value: the breaker's times stay there until the clock catches up (a time
/// window records later results into that future second and stops sliding until the clock
/// reaches it; a wait timed from it ends only after it). So one bad reading such as `1e300`, if
/// it opens the breaker (a [`Window`] dates every later change at it too), keeps it open for
/// good, every later call rejected: refuse readings far ahead of the last one in your clock.
///
/// `Debug` is a supertrait, so that a breaker chosen at run time (`Box<dyn Breaker + Send>`),
/// and a `Shared` or a service struct holding one, can derive or print it.
///
/// The trait is open: a breaker of your own can implement it and go into `shared::Shared`. A
/// method added to it in a minor version will have a default body, so such an implementation
/// keeps building.
pub trait Breaker: core::fmt::Debug {
    /// Ask to make a call at `now`. The call counts as traffic whether or not it is admitted.
    fn permit(&mut self, now: f64) -> Decision;

    /// Admit a call that has no other option left (the last target), whatever the state. Where
    /// [`Breaker::permit`] would admit it (closed, or a free half-open slot) this is that permit,
    /// and its result counts as any other (so a last target still trips its breaker); where
    /// `permit` would reject it (open, half-open busy) it is tried anyway with a
    /// [`PermitKind::LastOption`] permit, and its result moves nothing (the breaker had ruled
    /// the call out, so it is no evidence either way). Ask with this
    /// *instead of* [`Breaker::permit`], not after one was refused: like `permit`, it counts the
    /// call as traffic (the statistical breaker's line), so asking both would count it twice.
    #[must_use = "report the call's outcome with the permit"]
    fn permit_last_option(&mut self, now: f64) -> Permit;

    /// Report the outcome of an admitted call at `now` (it took from `permit.issued_at` to `now`;
    /// the window breaker calls it slow when `now > issued_at + slow_call_duration_threshold`).
    ///
    /// Report each permit once, to the breaker that issued it: neither breaker remembers which closed-state permits it has
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
///
/// Taking the permit out and dropping it is as much a mistake (a probe lost in half-open holds
/// it there):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use breaker::{Breaker, Window, WindowSettings};
/// let mut b = Window::new(WindowSettings::default()).unwrap();
/// b.permit(0.0).permit();
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

```compile_fail
#![deny(unused_must_use)]
use breaker::shared::{Clock, Shared};
use breaker::{Statistical, StatisticalSettings};
let shared = Shared::new(Statistical::new(StatisticalSettings::default()).unwrap());
shared.with_clock(Clock::new()); // the wrapper with the clock, dropped
```
"#
)]
#[cfg(doctest)]
pub struct MustUseDoctests;

/// Types that may grow in a minor version are `#[non_exhaustive]`: outside this crate a `match`
/// on them needs a `_` arm, and the structs cannot be built by a literal (these must fail to
/// build).
///
/// ```compile_fail
/// use breaker::Reason;
/// fn name(r: Reason) -> &'static str {
///     match r {
///         Reason::ScoreReachedLine { .. } => "line",
///         Reason::WaitElapsed { .. } => "wait",
///         Reason::TrialReachedUpper { .. } => "upper",
///         Reason::TrialReachedLower { .. } => "lower",
///         Reason::HalfOpenTimeLimit { .. } => "limit",
///         Reason::FailureRate { .. } => "failures",
///         Reason::SlowCallRate { .. } => "slow",
///         Reason::ProbesPassed { .. } => "probes",
///         Reason::MaxWaitInHalfOpen { .. } => "max wait",
///     }
/// }
/// ```
///
/// ```compile_fail
/// use breaker::{Permit, PermitKind};
/// let p = Permit { generation: 0, id: 1, issued_at: 0.0, kind: PermitKind::Normal };
/// ```
///
/// ```compile_fail
/// use breaker::{Ignored, Recorded};
/// fn counted(r: Recorded) -> u8 {
///     match r {
///         Recorded::Counted => 1,
///         Recorded::Ignored(Ignored::Stale { .. }) => 0,
///         Recorded::Ignored(Ignored::Neutral) => 0,
///         Recorded::Ignored(Ignored::LastOption) => 0,
///         Recorded::Ignored(Ignored::Lost) => 0,
///         Recorded::Ignored(Ignored::NoEffect) => 0,
///     }
/// }
/// ```
///
/// The settings stay buildable with `..Default::default()` (this one builds):
///
/// ```
/// let s = breaker::StatisticalSettings { fine_rate: 0.02, ..Default::default() };
/// let w = breaker::WindowSettings { sliding_window_size: 50, ..Default::default() };
/// # let _ = (s, w);
/// ```
#[cfg(doctest)]
pub struct NonExhaustiveDoctests;

/// The README's Rust examples, compiled and run as doc tests so they stay true (its one example
/// is the `Shared` wrapper's, so only with `sync`).
#[cfg(all(doctest, feature = "sync"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// `Serialize` and `Deserialize` for a settings struct whose derives carry
/// `#[serde(remote = "Self")]` (so they are inherent functions): serialized as derived, read from
/// an object only ([`units::serde_units::ObjectOnly`]). Needs `serde` among the caller's
/// dependencies.
// Exported only for the workspace's simulator, whose scenario structs are read the same way; not
// part of the API.
#[cfg(feature = "serde")]
#[doc(hidden)]
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
