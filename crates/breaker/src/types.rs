//! The vocabulary both breakers speak: states, permits, decisions, transitions and observations.

use core::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A breaker's state.
///
/// Exhaustive on purpose: these three states are the model both breakers implement, and a
/// `match` on them (a dashboard, a metric) should hear from the compiler if that ever changes.
/// (resilience4j's `DISABLED` and `FORCED_OPEN` are the caller's decision, made before asking.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum State {
    /// Calls go through; results are counted.
    Closed,
    /// Calls are rejected (sent to the fallback) until the wait is over.
    Open,
    /// A few trial calls go through to decide whether to close or open again.
    HalfOpen,
}

impl State {
    /// `closed`, `open` or `half_open`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Closed => "closed",
            State::Open => "open",
            State::HalfOpen => "half_open",
        }
    }

    /// A small integer for charts: closed 0, half-open 1, open 2.
    pub fn code(self) -> u8 {
        match self {
            State::Closed => 0,
            State::HalfOpen => 1,
            State::Open => 2,
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a call was admitted, which decides how its result is counted.
///
/// Non-exhaustive: a new way of admitting a call may be added in a minor version, so a `match`
/// needs a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum PermitKind {
    /// A call admitted while closed.
    Normal,
    /// A half-open trial (statistical) or probe (window).
    Trial,
    /// A call tried although the breaker rejects calls (open, or half-open with no free slot),
    /// because it had no other option ([`crate::Breaker::permit_last_option`]); its result moves
    /// nothing.
    LastOption,
}

impl PermitKind {
    /// `normal`, `trial` or `last_option` (the names serde writes).
    pub fn as_str(self) -> &'static str {
        match self {
            PermitKind::Normal => "normal",
            PermitKind::Trial => "trial",
            PermitKind::LastOption => "last_option",
        }
    }
}

impl fmt::Display for PermitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The ticket an admitted call carries back with its result.
///
/// Non-exhaustive: read its fields, but get one from a breaker (or, to rebuild one kept in
/// another form, [`Permit::new`]) rather than with a struct literal, so that a field can be
/// added in a minor version.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Permit {
    /// The generation the call was let in with. [`Statistical`](crate::Statistical) counts its
    /// result only in that generation; [`Window`](crate::Window) counts it in the window current
    /// when it arrives, as resilience4j does.
    pub generation: u64,
    /// A sequence number, unique within one breaker (2^40 permits) and, natively, among any
    /// 2^24 (16.7 million) breakers a process makes one after another: each numbers its permits
    /// from a base of its own (the bases come round after that), so a replaced breaker's permit
    /// is not taken for one of its replacement's. A clone goes on with its original's numbers
    /// (so that a copy kept of a breaker's state can take its permits' results). In wasm each
    /// breaker numbers from 1.
    pub id: u64,
    /// When the call was admitted (seconds).
    pub issued_at: f64,
    /// What kind of admission this was.
    pub kind: PermitKind,
}

/// Why a call was not admitted.
///
/// Non-exhaustive: a new reason to reject may be added in a minor version, so a `match` needs a
/// `_` arm.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Rejection {
    /// Open: the wait lasts until `until` (seconds).
    Open {
        /// When the wait ends.
        until: f64,
    },
    /// Half-open and the trial slots are taken.
    HalfOpenBusy,
}

impl Rejection {
    /// How long from `now` until the breaker lets a call through again, for a `Retry-After`
    /// header or a client's backoff: the rest of an open wait (zero once it has run out: the
    /// next call is a trial), `None` while half-open's trial slots are taken (that waits on a
    /// trial's answer, not the clock), and `None` for a `now` that is not finite (a broken
    /// clock: the wait cannot be told). `now` is on the breaker's clock, as every method's is
    /// (a `Shared`'s `clock().now()`).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use breaker::Rejection;
    /// let r = Rejection::Open { until: 60.0 };
    /// assert_eq!(r.retry_after(45.5), Some(Duration::from_millis(14_500)));
    /// assert_eq!(r.retry_after(61.0), Some(Duration::ZERO));
    /// assert_eq!(Rejection::HalfOpenBusy.retry_after(45.5), None);
    /// assert_eq!(r.retry_after(f64::NAN), None);
    /// assert_eq!(r.retry_after(f64::NEG_INFINITY), None);
    /// ```
    pub fn retry_after(&self, now: f64) -> Option<core::time::Duration> {
        match *self {
            Rejection::Open { until } if now.is_finite() => Some(
                core::time::Duration::try_from_secs_f64((until - now).max(0.0))
                    .unwrap_or(core::time::Duration::MAX),
            ),
            Rejection::Open { .. } | Rejection::HalfOpenBusy => None,
        }
    }
}

/// For logs, and so that a rejection can be returned as an error (`?` into `Box<dyn Error>` or
/// `anyhow`): `circuit open until 60.000 s on the breaker's clock`, `circuit half-open with
/// every trial slot taken`. The time is the `now` the breaker is given (a `Shared` breaker's,
/// with the `sync` feature: seconds since its clock's first reading), not the time of day: for
/// the wait left, see [`Rejection::retry_after`].
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rejection::Open { until } => {
                write!(
                    f,
                    "circuit open until {} s on the breaker's clock",
                    Secs(until)
                )
            }
            Rejection::HalfOpenBusy => f.write_str("circuit half-open with every trial slot taken"),
        }
    }
}

impl std::error::Error for Rejection {}

/// The answer to [`crate::Breaker::permit`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use = "make the call only if admitted, and report its outcome with the permit"]
pub enum Decision {
    /// Make the call; report its outcome with this permit.
    Admit(Permit),
    /// Do not make the call; use the fallback.
    Reject(Rejection),
}

impl Permit {
    /// A permit from its parts: for code that keeps permits in another form and rebuilds them
    /// (a simulator's compact record of calls in flight). A breaker takes a permit it did not
    /// issue at its word, so give back only what a breaker issued.
    #[inline]
    pub const fn new(generation: u64, id: u64, issued_at: f64, kind: PermitKind) -> Self {
        Permit {
            generation,
            id,
            issued_at,
            kind,
        }
    }
}

impl Decision {
    /// The permit, if admitted.
    #[must_use = "a permit's outcome must be reported (a lost probe holds half-open)"]
    pub fn permit(self) -> Option<Permit> {
        match self {
            Decision::Admit(p) => Some(p),
            Decision::Reject(_) => None,
        }
    }
}

/// Why a reported result moved nothing.
///
/// Non-exhaustive: a new reason may be added in a minor version, so a `match` needs a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ignored {
    /// The call was let in under an earlier generation (a late result).
    Stale {
        /// The permit's generation.
        permit: u64,
        /// The breaker's generation when the result arrived.
        current: u64,
    },
    /// The outcome does not say the service is failing (input error, the user's own rate limit).
    Neutral,
    /// A last-option call tried while the breaker rejected calls: moves nothing.
    LastOption,
    /// A trial whose result came after the call timeout (its slot had already been freed), or
    /// that was already reported.
    Lost,
    /// The result arrived while open: the window breaker records it into the window that opened
    /// it, where it decides nothing (resilience4j). (The statistical breaker says
    /// [`Ignored::Stale`] instead: every call it admitted before opening is of an earlier
    /// generation.)
    NoEffect,
}

/// For logs: `late result of generation 1 (now 2)`, `neutral outcome`, `last-option call`,
/// `trial lost or already reported`, `arrived while open`.
impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ignored::Stale { permit, current } => {
                write!(f, "late result of generation {permit} (now {current})")
            }
            Ignored::Neutral => f.write_str("neutral outcome"),
            Ignored::LastOption => f.write_str("last-option call"),
            Ignored::Lost => f.write_str("trial lost or already reported"),
            Ignored::NoEffect => f.write_str("arrived while open"),
        }
    }
}

/// The answer to [`crate::Breaker::record`]: counted or not (why not is [`Ignored`], which may
/// grow; this stays two-way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Recorded {
    /// The result was counted.
    Counted,
    /// The result moved nothing, and why.
    Ignored(Ignored),
}

/// For logs: `counted`, or `ignored: ` and the [`Ignored`] reason (`ignored: neutral outcome`).
impl fmt::Display for Recorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recorded::Counted => f.write_str("counted"),
            Recorded::Ignored(why) => write!(f, "ignored: {why}"),
        }
    }
}

/// Why a transition happened, with the numbers behind it.
///
/// With `serde` it is tagged by a `kind` field (`{"kind": "wait_elapsed", "wait": 60.0}`), which
/// only a self-describing format can read back (JSON, YAML, TOML, MessagePack; not bincode or
/// postcard, which can write it): so too a [`Transition`], which holds one. Settings,
/// [`Observation`]s, states and outcomes read back from either kind.
///
/// Non-exhaustive: a breaker rule added in a minor version brings its own reason, so a `match`
/// needs a `_` arm (its [`Display`](fmt::Display) text covers every reason, for logs).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
pub enum Reason {
    /// Closed -> open: the CUSUM score reached the line (nats).
    ScoreReachedLine {
        /// Score after the result (nats).
        score: f64,
        /// The line at that moment (nats).
        line: f64,
    },
    /// Open -> half-open: the wait (seconds) was over when a call arrived.
    WaitElapsed {
        /// The wait that ended (seconds).
        wait: f64,
    },
    /// Half-open -> open: the trial score reached Wald's upper line A.
    TrialReachedUpper {
        /// Trial score (nats).
        trial: f64,
        /// A = ln((1-b)/a).
        upper: f64,
    },
    /// Half-open -> closed: the trial score reached Wald's lower line B.
    TrialReachedLower {
        /// Trial score (nats).
        trial: f64,
        /// B = ln(b/(1-a)).
        lower: f64,
    },
    /// Half-open -> closed or open: the half-open time limit ran out.
    HalfOpenTimeLimit {
        /// Trial score when the limit ran out (nats); closes if below 0.
        trial: f64,
        /// The limit (seconds).
        limit: f64,
    },
    /// Window: failure rate reached its threshold.
    FailureRate {
        /// Failure rate in the window (0..1).
        rate: f64,
        /// `failure_rate_threshold`.
        threshold: f64,
        /// Calls in the window.
        calls: u32,
    },
    /// Window: slow-call rate reached its threshold.
    SlowCallRate {
        /// Slow-call rate in the window (0..1).
        rate: f64,
        /// `slow_call_rate_threshold`.
        threshold: f64,
        /// Calls in the window.
        calls: u32,
    },
    /// Window half-open -> closed: the rates of the results recorded in half-open were below
    /// the thresholds. Those are the probes' and, as resilience4j counts them, any late result
    /// of a call let in while closed that arrived in half-open.
    ProbesPassed {
        /// Failure rate of the results recorded in half-open.
        failure_rate: f64,
        /// Slow-call rate of the results recorded in half-open.
        slow_rate: f64,
        /// Results recorded in half-open.
        calls: u32,
    },
    /// Window: `max_wait_duration_in_half_open_state` ran out.
    MaxWaitInHalfOpen {
        /// The limit (seconds).
        waited: f64,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::ScoreReachedLine { score, line } => {
                write!(f, "score {score:.2} reached line {line:.2}")
            }
            Reason::WaitElapsed { wait } => write!(f, "wait of {} s over", fmt_num(wait)),
            Reason::TrialReachedUpper { trial, upper } => {
                write!(f, "trial score {trial:.2} reached upper line {upper:.2}")
            }
            Reason::TrialReachedLower { trial, lower } => {
                write!(f, "trial score {trial:.2} reached lower line {lower:.2}")
            }
            Reason::HalfOpenTimeLimit { trial, limit } => write!(
                f,
                "half-open limit of {} s ran out with trial score {trial:.2} ({} 0)",
                fmt_num(limit),
                if trial < 0.0 { "<" } else { ">=" }
            ),
            Reason::FailureRate {
                rate,
                threshold,
                calls,
            } => write!(
                f,
                "failure rate {:.1}% of {calls} {} reached threshold {:.1}%",
                rate * 100.0,
                if calls == 1 { "call" } else { "calls" },
                threshold * 100.0
            ),
            Reason::SlowCallRate {
                rate,
                threshold,
                calls,
            } => write!(
                f,
                "slow-call rate {:.1}% of {calls} {} reached threshold {:.1}%",
                rate * 100.0,
                if calls == 1 { "call" } else { "calls" },
                threshold * 100.0
            ),
            Reason::ProbesPassed {
                failure_rate,
                slow_rate,
                calls,
            } => write!(
                f,
                "{calls} half-open {}: failure rate {:.1}%, slow-call rate {:.1}%, below thresholds",
                if calls == 1 { "result" } else { "results" },
                failure_rate * 100.0,
                slow_rate * 100.0
            ),
            Reason::MaxWaitInHalfOpen { waited } => {
                write!(f, "max wait in half-open of {} s ran out", fmt_num(waited))
            }
        }
    }
}

/// A time on the breaker's clock in a log line: milliseconds (`60.000`) below 1e15 s, else as
/// [`crate::error::Num`] prints it (a clock read far ahead, `1e300`, took 300 digits).
struct Secs(f64);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.abs() < 1e15 {
            write!(f, "{:.3}", self.0)
        } else {
            crate::error::Num(self.0).fmt(f)
        }
    }
}

/// Seconds in a reason: whole as they are, else two decimals, and below 0.1 to three
/// significant digits as Rust writes the rounded number shortest (a 1 ms wait, the least
/// allowed, reads "0.001", where two decimals gave "0.00"; 2.25 ms backed off from it,
/// "0.00225", not 0.0022500000000000003).
/// Past what a breaker gives (below 1e-9 or from 1e15, in a hand-made reason) with an exponent,
/// as [`Num`](crate::error::Num) writes it: the rounding's scale overflowed to `NaN` below
/// about 1e-306, and 1e300 took 300 digits.
fn fmt_num(v: f64) -> String {
    let a = v.abs();
    if v == v.trunc() && a < 1e15 {
        format!("{}", v as i64)
    } else if !(1e-9..1e15).contains(&a) {
        crate::error::Num(v).to_string()
    } else if a < 0.1 {
        let scale = libm::pow(10.0, 2.0 - libm::floor(libm::log10(a)));
        crate::error::Num(libm::round(v * scale) / scale).to_string()
    } else {
        format!("{v:.2}")
    }
}

/// A state change.
///
/// Non-exhaustive: read its fields; breakers make it (a field may be added in a minor version).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Transition {
    /// When (seconds): never before the breaker's previous transition, even when a `now` read
    /// before another thread's change is recorded after it.
    pub at: f64,
    /// State before.
    pub from: State,
    /// State after.
    pub to: State,
    /// The new generation.
    pub generation: u64,
    /// Why, with numbers.
    pub reason: Reason,
}

/// One line for a log: `closed -> open at 5.073 s (generation 1): score 14.33 reached line
/// 13.75`, the time on the breaker's clock and the reason's numbers as [`Reason`] gives them.
impl fmt::Display for Transition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} -> {} at {} s (generation {}): {}",
            self.from,
            self.to,
            Secs(self.at),
            self.generation,
            self.reason
        )
    }
}

/// The numbers a chart shows. Fields that do not apply to a breaker or state are `NaN`.
///
/// With `serde`: JSON has no `NaN`, so `serde_json` writes a `NaN` (or infinite) field as `null`;
/// a `null` field reads back as `NaN`, so an observation written as JSON reads back.
///
/// `PartialEq` compares the fields as `f64` does, so an observation with a `NaN` field (every
/// one has some) is not equal to itself: compare the fields that apply, or their bits.
///
/// Non-exhaustive: read its fields; breakers make it (a number may be added in a minor
/// version).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Observation {
    /// Current state.
    pub state: State,
    /// Current generation.
    pub generation: u64,
    /// Statistical: the closed CUSUM score (nats), `NaN` while open or half-open, where it does
    /// not apply (it is held unused and restarts from 0 at the next close). Window: failure rate
    /// in the current window (0..1), `NaN` until the minimum number of calls is reached.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub level: f64,
    /// Statistical: the line (nats). Window: `failure_rate_threshold`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub threshold: f64,
    /// Statistical: the trial score in half-open (nats). Window: the failure rate of the
    /// half-open window (its probes, and late results from before that it counts, as
    /// resilience4j does).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub trial: f64,
    /// Statistical: Wald's upper line A. Window: `NaN`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub trial_upper: f64,
    /// Statistical: Wald's lower line B. Window: `NaN`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub trial_lower: f64,
    /// The open-state wait in force (open/half-open) or the next one (closed), seconds.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub wait: f64,
    /// Statistical: the traffic estimate (calls/s). Window: slow-call rate in the window.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub rate: f64,
    /// Results counted in the current window (window), or the calls expected in one false-alarm
    /// period, `N = rate x false_alarm_period`, whose `ln N` sets the line (statistical).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "nan_if_null"))]
    pub count: f64,
}

/// An `f64` that may be `null` (how `serde_json` writes `NaN` and the infinities): `null` is `NaN`.
#[cfg(feature = "serde")]
fn nan_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    if d.is_human_readable() {
        return Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN));
    }
    // Any other format is asked for the f64 the field is written as (NaN as the number it is):
    // one that is not self-describing (postcard) reads it, and a self-describing one gives what
    // it holds, a nil too.
    struct NanIfNull;
    impl serde::de::Visitor<'_> for NanIfNull {
        type Value = f64;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number or null")
        }
        fn visit_f64<E>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }
        fn visit_i64<E>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_u64<E>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_unit<E>(self) -> Result<f64, E> {
            Ok(f64::NAN)
        }
        fn visit_none<E>(self) -> Result<f64, E> {
            Ok(f64::NAN)
        }
    }
    d.deserialize_f64(NanIfNull)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seconds in a reason keep a small value's digits: the least wait allowed, 1 ms, reads
    /// "wait of 0.001 s over" (it read "wait of 0.00 s over").
    #[test]
    fn reasons_give_small_times_their_digits() {
        let wait = |wait| Reason::WaitElapsed { wait }.to_string();
        assert_eq!(wait(60.0), "wait of 60 s over");
        assert_eq!(wait(61.234), "wait of 61.23 s over");
        assert_eq!(wait(0.5), "wait of 0.50 s over");
        assert_eq!(wait(0.25), "wait of 0.25 s over");
        assert_eq!(wait(0.1), "wait of 0.10 s over");
        assert_eq!(wait(0.001), "wait of 0.001 s over");
        assert_eq!(wait(0.0015), "wait of 0.0015 s over");
        assert_eq!(wait(0.05), "wait of 0.05 s over");
        assert_eq!(wait(0.012345), "wait of 0.0123 s over");
        assert_eq!(wait(0.0022500000000000003), "wait of 0.00225 s over");
        assert_eq!(wait(0.06354947304919034), "wait of 0.0635 s over");
        assert_eq!(wait(1.234e-5), "wait of 0.0000123 s over");
        // Hand-made reasons past what a breaker gives: a tiny time's scale overflowed (NaN), a
        // huge one took 300 digits.
        assert_eq!(wait(1e-307), "wait of 1e-307 s over");
        assert_eq!(wait(5e-324), "wait of 5e-324 s over");
        assert_eq!(wait(1.5e-10), "wait of 1.5e-10 s over");
        assert_eq!(wait(1e300), "wait of 1e300 s over");
        assert_eq!(wait(f64::NAN), "wait of NaN s over");
        assert_eq!(wait(f64::INFINITY), "wait of inf s over");
        let limit = Reason::HalfOpenTimeLimit {
            trial: -1.0,
            limit: 0.003,
        };
        assert_eq!(
            limit.to_string(),
            "half-open limit of 0.003 s ran out with trial score -1.00 (< 0)"
        );
        let max = Reason::MaxWaitInHalfOpen { waited: 0.001 };
        assert_eq!(max.to_string(), "max wait in half-open of 0.001 s ran out");
    }
}
