//! The scenario: what the page's settings serialize to and what `breaker run --scenario` reads.
//!
//! Every struct denies unknown fields and fills missing ones with defaults, so a scenario file
//! names only what differs. Durations accept seconds (`5`) or a string with a unit (`"200ms"`,
//! `"5s"`, `"1m"`, `"1h"`, `"30d"`, `"1w"`); rates accept a fraction (`0.05`) or a percentage
//! (`"5%"`).

use crate::allowed::{after, explain, locate, Reading, Trial};

/// The longest run, in seconds (about 31.7 years): a scenario's `duration`, and the latest time
/// a recorded trace's call may have.
pub const MAX_DURATION_S: f64 = 1e9;

/// The least traffic, in calls per minute (a call about every two years): a run of at most
/// [`MAX_DURATION_S`] expects at most 16.7 calls at it, and below about 1e-300 the analysis'
/// times overflow a double (at 1e-305 calls/min, 1793 calls between false alarms read "inf"
/// years). `traffic.calls_per_minute` takes at least this; the analysis takes the traffic one
/// breaker sees, this split among up to 1,000 callers or a trace's own, from 1e-12.
pub const MIN_CALLS_PER_MINUTE: f64 = 1e-6;

/// The most calls a generated run may expect (the mean rate times the duration): about a minute
/// natively (`busy-service`'s 26 million take 2 s), a few in the page. Each setting allowed
/// alone, 1e7 calls/min for 1e9 s would be 1.7e14 calls, months of computing, with its events
/// piling up in memory: refused up front instead ([`Scenario::validate`]).
pub const MAX_CALLS: f64 = 1e9;

/// The most calls a generated run may expect in flight at once: by Little's law, the peak rate
/// (with the daily swing) times the longest mean time a phase's calls take (latencies, and the
/// call timeout for hangs and `timeout` failures; at most the timeout and the run). Each call in
/// flight holds a queue entry per breaker (about 100 bytes, and the page's checkpoints hold
/// copies): 1e7 calls/min hanging for a 1e9 s timeout ran out of memory within seconds.
pub const MAX_IN_FLIGHT: f64 = 1e6;

/// The most half-open rounds the window breaker's clock alone may make in a run (all callers'
/// copies): with automatic transitions and a half-open time limit ending in open, it goes open
/// -> half-open -> open with no call at all, every `wait_duration_in_open_state` +
/// `max_wait_duration_in_half_open_state` (1 ms each: a thousand events a second of run, and a
/// month of them ran the page's wasm out of memory). 2^18: two state changes a round, half the
/// [`MAX_EVENTS`](crate::MAX_EVENTS) a run keeps, so a run at the least limit this allows is not
/// cut short by its clock's changes (at 1e6 rounds, 2e6 changes, it was cut at about half).
pub const MAX_TIMED_ROUNDS: f64 = (crate::MAX_EVENTS / 4) as f64;
use breaker::quote::{Clipped, Quoted};
use breaker::units::serde_units;
use breaker::{Outcome, SettingsError, StatisticalSettings, WindowSettings};
use serde::{Deserialize, Deserializer, Serialize};

/// A whole run: traffic, the dependency's phases, the callers, both breakers' settings, how long,
/// the seed, and optionally a recorded trace that replaces the generated traffic and dependency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Scenario {
    /// A label for people (presets put their name here). Not used by the run.
    pub name: String,
    /// The seed of every random number in the run. Default 1.
    pub seed: u64,
    /// How long the run lasts, seconds (arrivals and results after this are not simulated).
    /// Default 1 h. A trace replay ends at the trace's last call instead.
    #[serde(deserialize_with = "serde_units::duration")]
    pub duration: f64,
    /// Calls arriving.
    pub traffic: Traffic,
    /// The dependency, as phases over time (at least one; the first starts at 0).
    pub dependency: Vec<Phase>,
    /// The callers and the call timeout.
    pub callers: Callers,
    /// The statistical breaker.
    pub statistical: StatisticalSettings,
    /// The window breaker (resilience4j names in snake_case).
    pub window: WindowSettings,
    /// A recorded trace, as CSV text (see the crate README): replaces `traffic` and the
    /// dependency's outcomes (phases still say when the dependency was fine, for the metrics).
    pub trace: Option<String>,
}

breaker::object_only_serde!(Scenario);

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: String::new(),
            seed: 1,
            duration: 3600.0,
            traffic: Traffic::default(),
            dependency: vec![Phase::default()],
            callers: Callers::default(),
            statistical: StatisticalSettings::default(),
            window: WindowSettings::default(),
            trace: None,
        }
    }
}

/// How arrivals are spaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// A Poisson stream (exponential gaps); with a daily swing, a non-homogeneous one, drawn by
    /// thinning (Lewis and Shedler 1979: candidates at the highest rate, each kept with chance
    /// rate / highest).
    Poisson,
    /// Evenly spaced: the n-th call at `n / rate`; with a daily swing, when the integral of the
    /// rate from 0 reaches n (so the mean rate stays `calls_per_minute`).
    Even,
}

/// Calls arriving.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Traffic {
    /// Mean calls per minute. Default 60.
    pub calls_per_minute: f64,
    /// Daily swing: the rate is `calls_per_minute x (1 - swing x cos(2 pi t / 1 d))`, lowest at
    /// t = 0 (midnight) and highest at noon. 0 <= swing < 1. Default 0.
    #[serde(deserialize_with = "serde_units::rate")]
    pub daily_swing: f64,
    /// `poisson` (default) or `even`.
    pub arrivals: Arrivals,
}

breaker::object_only_serde!(Traffic);

impl Default for Traffic {
    fn default() -> Self {
        Traffic {
            calls_per_minute: 60.0,
            daily_swing: 0.0,
            arrivals: Arrivals::Poisson,
        }
    }
}

/// Whether the dependency is fine in a phase; the metrics use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Working as usual: an opening here is a false alarm.
    Fine,
    /// Partly working (recovering, warming up): neither a false alarm nor an outage.
    Degraded,
    /// Broken: `time_to_open_s` counts from the start of a run of outage phases,
    /// `time_to_close_s` from its end.
    Outage,
}

/// Clustered failures: a two-state (Gilbert-Elliott) model. Before each call the dependency
/// moves from calm to burst with probability `enter`, and back with probability `leave`; in a
/// burst a call fails with probability `failure_rate` instead of the phase's. Mean burst length
/// `1 / leave` calls. The state carries over between phases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Burst {
    /// Chance per call of a burst starting (0 = no bursts). Default 0.
    #[serde(deserialize_with = "serde_units::rate")]
    pub enter: f64,
    /// Chance per call of a burst ending. Default 10%. A burst goes on into the next phase and
    /// ends there at that phase's `leave`: above 0 from the first phase with bursts on.
    #[serde(deserialize_with = "serde_units::rate")]
    pub leave: f64,
    /// Failure probability inside a burst. Default 100%.
    #[serde(deserialize_with = "serde_units::rate")]
    pub failure_rate: f64,
}

breaker::object_only_serde!(Burst);

impl Default for Burst {
    fn default() -> Self {
        Burst {
            enter: 0.0,
            leave: 0.1,
            failure_rate: 1.0,
        }
    }
}

/// One phase of the dependency, in force from `start` until the next phase's start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Phase {
    /// When the phase starts (seconds from the start of the run).
    #[serde(deserialize_with = "serde_units::duration")]
    pub start: f64,
    /// A label for people.
    pub label: String,
    /// `fine` (default), `degraded` or `outage`: for the metrics only.
    pub condition: Condition,
    /// Chance that a call fails (random). Default 1%.
    #[serde(deserialize_with = "serde_units::rate")]
    pub failure_rate: f64,
    /// Deterministic failures: when k > 0, a call fails if and only if its sequence number in the
    /// run (1-based, over all calls) is a multiple of k; replaces `failure_rate` and `burst`.
    /// Default 0 (off).
    pub one_in: u32,
    /// Clustered failures.
    pub burst: Burst,
    /// The outcome a failure carries: `timeout`, `refused`, `server_error` (default),
    /// `overload`, `service_rate_limited`, `auth_rejected`, the neutral `input_rejected` and
    /// `user_rate_limited`, or an HTTP status from 400 to 599 (`503`).
    #[serde(deserialize_with = "de_outcome")]
    pub failure: Outcome,
    /// Chance that a call hangs: it completes at the call timeout as a timeout. Default 0.
    #[serde(deserialize_with = "serde_units::rate")]
    pub hang_rate: f64,
    /// Chance that a call is rejected for its own input (`input_rejected`, a 4xx that must not
    /// count against the service). Drawn before anything else. Default 0.
    #[serde(deserialize_with = "serde_units::rate")]
    pub input_error_rate: f64,
    /// Latency of an answered call: fixed part. Default 50 ms.
    #[serde(deserialize_with = "serde_units::duration")]
    pub latency: f64,
    /// Latency of an answered call: mean of an exponential part added to `latency`. Default 0.
    #[serde(deserialize_with = "serde_units::duration")]
    pub latency_jitter: f64,
    /// Latency of a failure: fixed part. Default 50 ms.
    #[serde(deserialize_with = "serde_units::duration")]
    pub failure_latency: f64,
    /// Latency of a failure: mean of an exponential part. Default 0.
    #[serde(deserialize_with = "serde_units::duration")]
    pub failure_latency_jitter: f64,
    /// Capacity in calls per second, 0 = unlimited (counted in whole calls: a fraction acts as
    /// the next whole number, 0.5 as 1). A call that would succeed fails as
    /// `overload` (at `failure_latency`; as a `timeout` at the call timeout if that comes first)
    /// when `capacity` or more calls already succeeded in the
    /// second up to it, `(t - 1 s, t]` (a success at the same instant came first and counts);
    /// shed calls use no capacity. Each breaker's copy of
    /// the dependency keeps its own count (a breaker that holds calls back lightens its load).
    pub capacity: f64,
}

breaker::object_only_serde!(Phase);

impl Default for Phase {
    fn default() -> Self {
        Phase {
            start: 0.0,
            label: String::new(),
            condition: Condition::Fine,
            failure_rate: 0.01,
            one_in: 0,
            burst: Burst::default(),
            failure: Outcome::ServerError,
            hang_rate: 0.0,
            input_error_rate: 0.0,
            latency: 0.05,
            latency_jitter: 0.0,
            failure_latency: 0.05,
            failure_latency_jitter: 0.0,
            capacity: 0.0,
        }
    }
}

/// The callers: how many caller instances, and whether they share one breaker state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Callers {
    /// Caller instances; calls go to them in turn (call n, counted from 1, to caller
    /// (n - 1) mod count). Default 1.
    pub count: u32,
    /// One breaker state shared by all callers, changed under a lock (true), or one breaker per
    /// caller (false, default).
    pub shared_state: bool,
    /// Shared state: how long each change holds the lock (a round trip to the store). Changes
    /// queue for the lock in order. Default 5 ms.
    ///
    /// A change is made when it is asked for, stamped with the time it has the lock: its event
    /// gives that time, but snapshots, the series' state band and [`crate::Sim::next_event`]'s
    /// stop see it from when it was asked. Under a busy lock (changes asked for faster than one
    /// per `lock_hold`) they run up to `lock_timeout` ahead of the clock, and a change that has
    /// the lock after the run's end is made, its event past the end.
    #[serde(deserialize_with = "serde_units::duration")]
    pub lock_hold: f64,
    /// Shared state: a change that would wait longer than this for the lock is dropped and
    /// counted in `dropped_updates` (a dropped permit request admits the call uncounted, as a
    /// last option). Default 2 s.
    #[serde(deserialize_with = "serde_units::duration")]
    pub lock_timeout: f64,
    /// The callers' call timeout: a call with no answer by then completes as a timeout.
    /// Default 30 s.
    #[serde(deserialize_with = "serde_units::duration")]
    pub call_timeout: f64,
}

breaker::object_only_serde!(Callers);

impl Default for Callers {
    fn default() -> Self {
        Callers {
            count: 1,
            shared_state: false,
            lock_hold: 0.005,
            lock_timeout: 2.0,
            call_timeout: 30.0,
        }
    }
}

/// What a phase's `failure` takes: its refusals say this, whether the value does not read as an
/// outcome (`600` read "allowed 100 <= x <= 599", a trace row's range, which 200 is in) or reads
/// as a success.
const FAILURE: &str = "a failure or neutral outcome (timeout, refused, server_error, overload, \
                       service_rate_limited, auth_rejected, input_rejected, user_rate_limited, \
                       fail, or an HTTP status from 400 to 599; one below 400 reads as success)";

/// An outcome given as a status number or a name. Read through `serde_units::NumOrStr` (not an
/// untagged enum, see there): what an untagged `Num(u64)` or `Str(String)` accepted; anything
/// else is told what is allowed.
fn de_outcome<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
    use serde_units::NumOrStr;
    let text = match NumOrStr::deserialize(d)? {
        NumOrStr::U64(n) => n.to_string(),
        NumOrStr::Str(s) => s,
        NumOrStr::I64(_) | NumOrStr::F64(_) | NumOrStr::Other => {
            return Err(serde_units::no_match(FAILURE))
        }
    };
    // Worded as `Outcome::parse` words it, which `allowed::explain` reads the names from.
    text.parse::<Outcome>().map_err(|_| {
        serde::de::Error::custom(format_args!(
            "unknown outcome {}: allowed {FAILURE}",
            breaker::quote::Quoted(&text)
        ))
    })
}

/// `dependency.{i}.{name}`, spelled out only for an error (validation runs at every run's start).
struct PhaseField(usize, &'static str);

impl From<PhaseField> for String {
    fn from(f: PhaseField) -> String {
        format!("dependency.{}.{}", f.0, f.1)
    }
}

fn check(field: impl Into<String>, v: f64, ok: bool, allowed: &str) -> Result<(), SettingsError> {
    if ok && v.is_finite() {
        Ok(())
    } else {
        Err(SettingsError::new(field, breaker::error::Num(v), allowed))
    }
}

fn unit(field: impl Into<String>, v: f64) -> Result<(), SettingsError> {
    check(
        field,
        v,
        (0.0..=1.0).contains(&v),
        "0 <= x <= 1 (0% to 100%)",
    )
}

fn non_neg(field: impl Into<String>, v: f64) -> Result<(), SettingsError> {
    check(field, v, (0.0..=1e9).contains(&v), "0 <= x <= 1e9")
}

/// A duration: [`non_neg`], in seconds.
fn non_neg_secs(field: impl Into<String>, v: f64) -> Result<(), SettingsError> {
    check(field, v, (0.0..=1e9).contains(&v), "0 <= x <= 1e9 seconds")
}

/// `x > 0` rounded up to three significant digits: a least allowed value said as a user types it
/// that still suffices (0.09911 -> 0.0992, 2.591 -> 2.6, 25.99 -> 26). Rounding up to a whole
/// number said "1 <= x" where 0.1 was taken.
fn up3(x: f64) -> f64 {
    let (mut up, mut down) = (1.0, 1.0);
    while x * up < 100.0 {
        up *= 10.0;
    }
    while x / down >= 1000.0 {
        down *= 10.0;
    }
    // Powers of ten multiplied up from 1 are exact; dividing by one rounds once.
    let r = (x * up / down).ceil() * down / up;
    if r.is_finite() && r >= x {
        r
    } else {
        x
    }
}

impl Scenario {
    /// The traffic one breaker copy sees, in calls per minute: all of it with shared state (one
    /// copy), else one caller's share (calls go to the callers in turn). The traffic is the
    /// generated one's, or a replayed trace's own: its calls over the run, which ends at its last
    /// call ([`Scenario::trace_calls_per_minute`]). The analysis curves are computed at this
    /// traffic (`breaker analyze curves`, and the page's, through the wasm's `derived`).
    pub fn calls_per_minute_per_breaker(&self) -> f64 {
        let share = if self.callers.shared_state {
            1
        } else {
            self.callers.count.max(1)
        };
        self.trace_calls_per_minute()
            .unwrap_or(self.traffic.calls_per_minute)
            / f64::from(share)
    }

    /// A replayed trace's traffic, in calls per minute: its calls over its run (from 0 to its
    /// last call), `records / last_s x 60`. `None` without a trace, or for one that does not
    /// read or whose calls all come at 0 (its run has no length).
    pub fn trace_calls_per_minute(&self) -> Option<f64> {
        let span = crate::trace::scan_trace(self.trace.as_deref()?.as_bytes()).ok()?;
        (span.last_s > 0.0).then(|| span.records as f64 / span.last_s * 60.0)
    }

    /// Check every field. The error names the full dotted path as `--set` takes it, e.g.
    /// `statistical.broken_rate = 0.01 is invalid: allowed fine_rate (0.05) < x < 1` or
    /// `dependency.1.failure_rate = 2 is invalid: allowed 0 <= x <= 1 (0% to 100%)`.
    ///
    /// A trace's span is known once it is read: its run is checked over it when made.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let span = if self.trace.is_some() {
            0.0
        } else {
            self.duration
        };
        self.validate_over(span)
    }

    /// [`Scenario::validate`] for a run whose calls cover `span` seconds: the duration, or a
    /// trace's first call to its last (the run is made with this, [`crate::Sim::new`] and
    /// [`crate::replay`]).
    pub(crate) fn validate_over(&self, span: f64) -> Result<(), SettingsError> {
        check(
            "duration",
            self.duration,
            self.duration > 0.0 && self.duration <= MAX_DURATION_S,
            "0 < x <= 1e9 seconds",
        )?;
        let t = &self.traffic;
        check(
            "traffic.calls_per_minute",
            t.calls_per_minute,
            t.calls_per_minute >= MIN_CALLS_PER_MINUTE && t.calls_per_minute <= 1e7,
            "1e-6 <= x <= 1e7",
        )?;
        check(
            "traffic.daily_swing",
            t.daily_swing,
            (0.0..1.0).contains(&t.daily_swing),
            "0 <= x < 1",
        )?;
        if self.dependency.is_empty() {
            return Err(SettingsError::new("dependency", "[]", "at least one phase"));
        }
        let mut prev = f64::NEG_INFINITY;
        // A burst goes on into the next phase, and ends there at that phase's `leave`.
        let mut bursts = false;
        for (i, p) in self.dependency.iter().enumerate() {
            let f = |name: &'static str| PhaseField(i, name);
            if i == 0 {
                check(
                    f("start"),
                    p.start,
                    p.start == 0.0,
                    "0 (the first phase starts the run)",
                )?;
            } else if !(p.start > prev && p.start <= 1e9) {
                return Err(SettingsError::new(
                    f("start"),
                    breaker::error::Num(p.start),
                    format!(
                        "the previous phase's start ({}) < x <= 1e9 seconds",
                        breaker::error::Num(prev)
                    ),
                ));
            }
            prev = p.start;
            unit(f("failure_rate"), p.failure_rate)?;
            unit(f("burst.enter"), p.burst.enter)?;
            unit(f("burst.leave"), p.burst.leave)?;
            bursts |= p.burst.enter > 0.0;
            if bursts && p.burst.leave == 0.0 {
                return Err(SettingsError::new(
                    f("burst.leave"),
                    0,
                    "0 < x <= 1 from a phase with burst.enter > 0 on (a burst must be able to end)",
                ));
            }
            unit(f("burst.failure_rate"), p.burst.failure_rate)?;
            if p.failure == Outcome::Success {
                return Err(SettingsError::new(f("failure"), p.failure, FAILURE));
            }
            unit(f("hang_rate"), p.hang_rate)?;
            unit(f("input_error_rate"), p.input_error_rate)?;
            non_neg_secs(f("latency"), p.latency)?;
            non_neg_secs(f("latency_jitter"), p.latency_jitter)?;
            non_neg_secs(f("failure_latency"), p.failure_latency)?;
            non_neg_secs(f("failure_latency_jitter"), p.failure_latency_jitter)?;
            non_neg(f("capacity"), p.capacity)?;
        }
        let c = &self.callers;
        if !(1..=1000).contains(&c.count) {
            return Err(SettingsError::new(
                "callers.count",
                c.count,
                "1 <= x <= 1000",
            ));
        }
        non_neg_secs("callers.lock_hold", c.lock_hold)?;
        check(
            "callers.lock_timeout",
            c.lock_timeout,
            c.lock_timeout > 0.0 && c.lock_timeout <= 1e9,
            "0 < x <= 1e9 seconds",
        )?;
        check(
            "callers.call_timeout",
            c.call_timeout,
            c.call_timeout > 0.0 && c.call_timeout <= 1e9,
            "0 < x <= 1e9 seconds",
        )?;
        self.statistical
            .validate()
            .map_err(|e| e.within("statistical"))?;
        self.window.validate().map_err(|e| e.within("window"))?;
        self.check_size(span)
    }

    /// A run's size, checked last (it depends on the other fields, each valid). Over `span`
    /// seconds, the window breaker's rounds with no call (automatic transitions, a half-open
    /// maximum that reopens): at most [`MAX_TIMED_ROUNDS`], also for a trace, whose calls far
    /// apart leave the clock alone between them. A generated run: at most [`MAX_CALLS`] calls and
    /// [`MAX_IN_FLIGHT`] in flight, expected. The rate is the field named, as the factor of
    /// both. A trace replaces the traffic and sets its own number of calls.
    fn check_size(&self, span: f64) -> Result<(), SettingsError> {
        let w = &self.window;
        if w.automatic_transition_from_open_to_half_open_enabled
            && w.transition_to_state_after_wait_duration == breaker::AfterHalfOpenWait::Open
        {
            let copies = if self.callers.shared_state {
                1.0
            } else {
                f64::from(self.callers.count)
            };
            let open = w.wait_duration_in_open_state * (1.0 - w.wait_randomization_factor);
            let least = (copies * span / MAX_TIMED_ROUNDS - open).max(0.0);
            let limit = w.max_wait_duration_in_half_open_state;
            if limit > 0.0 && limit < least {
                return Err(SettingsError::new(
                    "window.max_wait_duration_in_half_open_state",
                    breaker::error::Num(limit),
                    format!(
                        "0 (off) or {} <= x <= 1e9 seconds with automatic transitions, this \
                         run's length, callers and open wait (at most 262144 half-open rounds \
                         a run ended by the clock alone, two state changes each: half the 2^20 \
                         a run keeps)",
                        breaker::error::Num(up3(least))
                    ),
                ));
            }
        }
        if self.trace.is_some() {
            return Ok(());
        }
        let timeout = self.callers.call_timeout;
        let mut held: f64 = 0.0;
        for p in &self.dependency {
            let fails = if p.one_in > 0 {
                1.0 / f64::from(p.one_in)
            } else if p.burst.enter > 0.0 {
                p.failure_rate.max(p.burst.failure_rate)
            } else {
                p.failure_rate
            };
            let waits = p.hang_rate
                + if p.failure == Outcome::Timeout {
                    fails
                } else {
                    0.0
                };
            let mean = p.latency
                + p.latency_jitter
                + p.failure_latency
                + p.failure_latency_jitter
                + waits * timeout;
            held = held.max(mean.min(timeout));
        }
        // Shared state: every change waiting for a side's lock holds a queue entry. At most
        // `lock_timeout / lock_hold` wait at once; past half the cap, count each call's two
        // changes (permit and result) as held for up to the lock timeout as well.
        let c = &self.callers;
        let many = c.lock_hold > 0.0 && c.lock_timeout > c.lock_hold * (MAX_IN_FLIGHT / 2.0);
        let lock_wait = if c.shared_state && many {
            2.0 * c.lock_timeout.min(self.duration)
        } else {
            0.0
        };
        let per_cpm =
            (1.0 + self.traffic.daily_swing) / 60.0 * (held.min(self.duration) + lock_wait);
        let most = (MAX_CALLS * 60.0 / self.duration).min(MAX_IN_FLIGHT / per_cpm);
        let most = if most >= 1.0 { most.floor() } else { most };
        let cpm = self.traffic.calls_per_minute;
        check(
            "traffic.calls_per_minute",
            cpm,
            cpm <= most,
            &format!(
                "1e-6 <= x <= {} with this duration, latencies, call timeout and lock timeout (a run of \
                 at most 1e9 calls, 1e6 in flight at once)",
                breaker::error::Num(most)
            ),
        )
    }

    /// Read a scenario from JSON text (unknown keys are an error), then validate it.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s = Scenario::read_json(text)?;
        s.validate().map_err(|e| e.to_string())?;
        Ok(s)
    }

    /// Read a scenario from JSON text without checking ranges ([`Scenario::validate`] does):
    /// `breaker run --scenario` reads the file with this, applies `--set`, then validates.
    ///
    /// The text must be a JSON object (the page refuses anything else the same way). An error in
    /// a value names its dotted field as `--set` takes it, as the page's does:
    /// `traffic.calls_per_minute = "fast" is invalid: allowed a number 1e-6 <= x <= 1e7` (a value of a
    /// type the field does not take says what is allowed, see [`crate::allowed::explain`]).
    /// Malformed JSON gives serde_json's message with its line and column; a number past a
    /// 64-bit float's range (`1e309`) is named by its field: `duration = 1e309 is invalid:
    /// allowed 0 < x <= 1e9 seconds`.
    pub fn read_json(text: &str) -> Result<Scenario, String> {
        Scenario::read_json_naming(text, true)
    }

    /// [`Scenario::read_json`]; `name_out_of_range`: a number past a 64-bit float's range is
    /// named by its field (see [`out_of_range`], which reads the text again with this `false`:
    /// one more reading, not one per such number).
    fn read_json_naming(text: &str, name_out_of_range: bool) -> Result<Scenario, String> {
        use serde_json::Value;
        // Typed first: it refuses duplicate keys and holds no copy of the text's values.
        let first = match serde_json::from_str::<Scenario>(text) {
            Ok(s) if text.trim_start().starts_with('{') => return Ok(s),
            Ok(_) => None,
            Err(e) => Some(e),
        };
        // Only for the message: which field, or that it is not an object.
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                let named = name_out_of_range.then(|| out_of_range(text, &e)).flatten();
                return Err(named.unwrap_or_else(|| e.to_string()));
            }
        };
        if !v.is_object() {
            return Err(format!(
                "scenario = {} is invalid: allowed an object of settings",
                short_json(&v)
            ));
        }
        if let Some(m) = first.as_ref().and_then(|e| duplicate(text, e)) {
            return Err(m);
        }
        let e = first.map_or_else(|| "not an object".to_string(), |e| e.to_string());
        Err(blame(&v).unwrap_or_else(|| format!("scenario is invalid: {e}")))
    }

    /// The scenario as a JSON value (all fields, defaults included).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a scenario always serializes")
    }

    /// Apply `--set` edits (`a.b.c=value`) in order and validate the result. See [`set_path`].
    pub fn with_sets<'a>(
        &self,
        sets: impl IntoIterator<Item = &'a str>,
    ) -> Result<Scenario, String> {
        let mut v = self.to_value();
        // (path, the value as written) of each edit, for the range check's message.
        let mut written: Vec<(String, String)> = Vec::new();
        for s in sets {
            let (path, value) = s.split_once('=').ok_or_else(|| {
                format!(
                    "--set {}: expected key=value, e.g. window.sliding_window_size=20",
                    Quoted(s)
                )
            })?;
            set_path(&mut v, path.trim(), value)?;
            // Deserialize after each edit so that the error names the edit that broke it.
            let mut read = Scenario::deserialize(&v).map(drop);
            // A value refused as read may be meant the other way: a number JSON does not take
            // (`05`, `+5`) read as text where a count is, or digits read as a number where a
            // field takes text (`name=7`). The other reading is kept if the field takes it.
            if read.is_err() {
                if let Some(other) = other_reading(value.trim()) {
                    let mut w = v.clone();
                    set_path(&mut w, path.trim(), &other)?;
                    if Scenario::deserialize(&w).is_ok() {
                        (v, read) = (w, Ok(()));
                    }
                }
            }
            read.map_err(|e| {
                let given = serde_json::from_str(value).unwrap_or(serde_json::Value::Null);
                // An object or a list written whole: the leaf in it to blame, as in a file.
                if given.is_object() || given.is_array() {
                    if let Some(m) = blame(&v) {
                        return m;
                    }
                }
                // Cut as quoted text is (a 100,000-digit value was echoed whole).
                let (path, shown) = (path.trim(), Clipped(value.trim()).to_string());
                // The whole number the edit's digits spell, exactly (`shown` may be cut).
                let whole = given
                    .is_number()
                    .then(|| breaker::float_parse::parse_whole(value.trim()))
                    .flatten();
                explain_at(&v, path, whole, &shown, &e.to_string())
                    .map(|why| format!("{path} = {shown} is invalid: {why}"))
                    .unwrap_or_else(|| format!("--set {}: {e}", Clipped(s)))
            })?;
            written.push((path.trim().to_string(), Clipped(value.trim()).to_string()));
        }
        let out: Scenario = serde_json::from_value(v).map_err(|e| format!("--set: {e}"))?;
        out.validate().map_err(|mut e| {
            // A field an edit wrote is quoted as the edit wrote it (`failure = 200`, not the
            // `success` that 200 reads as).
            if let Some((_, raw)) = written.iter().rev().find(|(p, _)| *p == e.field) {
                e.value = raw.clone();
            }
            e.to_string()
        })?;
        Ok(out)
    }

    /// The condition of the dependency at `t`. For a validated scenario (see
    /// [`Scenario::validate`]: at least one phase, the first at 0, starts in order); with no
    /// phase it panics.
    pub fn condition_at(&self, t: f64) -> Condition {
        self.dependency[phase_index(&self.dependency, t)].condition
    }

    /// The outages: maximal runs of consecutive `outage` phases, as `[start, end)` intervals
    /// (the last may end at `f64::INFINITY`). For a validated scenario: with phases out of order
    /// the intervals mean nothing.
    pub fn outages(&self) -> Vec<(f64, f64)> {
        let mut out: Vec<(f64, f64)> = Vec::new();
        let mut open: Option<f64> = None;
        for p in &self.dependency {
            match (p.condition == Condition::Outage, open) {
                (true, None) => open = Some(p.start),
                (false, Some(s)) => {
                    out.push((s, p.start));
                    open = None;
                }
                _ => {}
            }
        }
        if let Some(s) = open {
            out.push((s, f64::INFINITY));
        }
        out
    }
}

/// The message for a number past what a 64-bit float holds (`1e309`: serde_json's "number out
/// of range at line 1 column 18" named no field): the field as `--set` takes it, the number as
/// written, and what the field allows. The field is found by putting a marker text where the
/// number was; what it allows, by reading the text with the largest float of the number's sign
/// there (a field that takes even that says the float's limit). `None` for any other error.
fn out_of_range(text: &str, e: &serde_json::Error) -> Option<String> {
    if !e.to_string().starts_with("number out of range") {
        return None;
    }
    // The error is at the number's last character: line and column (1-based, in bytes).
    let line_start = if e.line() <= 1 {
        0
    } else {
        text.match_indices('\n').nth(e.line() - 2)?.0 + 1
    };
    let end = line_start + e.column();
    if !text.is_char_boundary(end) {
        return None;
    }
    // An exponent past i32 is reported one digit in: the rest of its digits are the number's.
    let end = end + text[end..].bytes().take_while(u8::is_ascii_digit).count();
    let is_num = |c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E');
    let start = text[..end]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_num(c))
        .last()?
        .0;
    let token = &text[start..end];
    let path = path_at(&text[..start])?;
    if path.is_empty() {
        return None; // the scenario is no object: serde_json's message, where the number is
    }
    // What the field allows, from readings with a number in range in its place, as
    // `allowed::explain` tries them: the smallest positive normal number (a lower end that
    // depends on another field), the largest below 1 (an upper end that does), then the largest
    // float of the number's sign. The first refusal at this field says it.
    let largest = if token.starts_with('-') {
        "-1.7976931348623157e308"
    } else {
        "1.7976931348623157e308"
    };
    let at_field = format!("{path} = ");
    let why = ["2.2250738585072014e-308", "0.9999999999999999", largest]
        .iter()
        .find_map(|x| {
            let probe = format!("{}{x}{}", &text[..start], &text[end..]);
            let m = Scenario::read_json_naming(&probe, false)
                .and_then(|s| s.validate().map_err(|e| e.to_string()))
                .err()?;
            after(m.strip_prefix(&at_field)?, " is invalid: ").map(str::to_string)
        })
        .unwrap_or_else(|| "a number past the largest a 64-bit float holds (about 1.8e308)".into());
    Some(format!("{path} = {} is invalid: {why}", Clipped(token)))
}

/// The dotted path (`dependency.2.start`) of the value that starts where `prefix` (valid JSON
/// up to a value) ends; `None` if that value is not inside an object at the top.
fn path_at(prefix: &str) -> Option<String> {
    enum Level {
        Object(Option<String>),
        List(usize),
    }
    let mut stack: Vec<Level> = Vec::new();
    let bytes = prefix.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let from = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                // A key: the string in an object where no key is read yet.
                if let Some(Level::Object(key @ None)) = stack.last_mut() {
                    *key = Some(serde_json::from_str(prefix.get(from..=i)?).ok()?);
                }
            }
            b'{' => stack.push(Level::Object(None)),
            b'[' => stack.push(Level::List(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Level::Object(key)) => *key = None,
                Some(Level::List(n)) => *n += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    if !matches!(stack.first(), Some(Level::Object(_))) {
        return None;
    }
    let segs: Option<Vec<String>> = stack
        .iter()
        .map(|l| match l {
            Level::Object(k) => k.clone(),
            Level::List(n) => Some(n.to_string()),
        })
        .collect();
    Some(segs?.join("."))
}

/// `v` as compact JSON for an error message: a list or an object stops with `...` before its
/// next entry once the text is past 80 bytes (`{"a":[1,2,...`), a string past 80 bytes is
/// quoted in part (`"1111…" (100000 bytes)`). The page's wasm quotes a value
/// by the same rule (`crates/wasm/src/convert.rs`), so both doors give the same message.
fn short_json(v: &serde_json::Value) -> String {
    /// Whether it stopped (the `...` written).
    fn write(v: &serde_json::Value, out: &mut String) -> bool {
        let entries: Vec<(Option<&String>, &serde_json::Value)> = match v {
            serde_json::Value::Array(a) => a.iter().map(|x| (None, x)).collect(),
            serde_json::Value::Object(m) => m.iter().map(|(k, x)| (Some(k), x)).collect(),
            // Longer than `quote::LONG` bytes, quoted in part as the reason after it quotes it,
            // `"1111…" (100000 bytes)`.
            serde_json::Value::String(t) if t.len() > breaker::quote::LONG => {
                out.push_str(&breaker::quote::Quoted(t).to_string());
                return false;
            }
            leaf => {
                out.push_str(&leaf.to_string());
                return false;
            }
        };
        let (open, close) = if v.is_array() { ('[', ']') } else { ('{', '}') };
        out.push(open);
        for (i, (k, x)) in entries.into_iter().enumerate() {
            if out.len() > 80 {
                out.push_str("...");
                return true;
            }
            if i > 0 {
                out.push(',');
            }
            if let Some(k) = k {
                // A key as a string is quoted (the page's wasm writes both alike).
                write(&serde_json::Value::from(k.as_str()), out);
                out.push(':');
            }
            if write(x, out) {
                return true;
            }
        }
        out.push(close);
        false
    }
    let mut out = String::new();
    write(v, &mut out);
    out
}

/// Place the leaves of `given` (a scenario object that does not deserialize) over the default
/// scenario, and name the first that breaks it: `path = value is invalid: why`. Leaves are the
/// values below objects and below lists of objects (the dependency's phases, which start from
/// the default phase); `None` if no single leaf is to blame. The leaf, and the other leaves to
/// explain it among, come from [`locate`]: a few dozen readings however many phases.
fn blame(given: &serde_json::Value) -> Option<String> {
    let mut leaves = Vec::new();
    let phase = serde_json::to_value(Phase::default()).ok()?;
    let base = Scenario::default().to_value();
    collect_leaves(given, String::new(), Some(&base), &phase, &mut leaves);
    let paths: Vec<&str> = leaves.iter().map(|(p, _)| p.as_str()).collect();
    let build = |set: &[usize]| {
        let mut v = base.clone();
        for &i in set {
            let (path, leaf) = &leaves[i];
            place(&mut v, &path.split('.').collect::<Vec<_>>(), leaf, &phase);
        }
        v
    };
    let (bad, cur, e) = locate(&paths, build, read_value)?;
    let (path, leaf) = &leaves[bad];
    let shown = short_json(leaf);
    // A file's number is read as a double (or a u64) and shown as its own text.
    let whole = leaf
        .as_u64()
        .or_else(|| leaf.as_f64().and_then(crate::allowed::whole_number));
    let why = explain_at(&cur, path, whole, &shown, &e).unwrap_or(e);
    Some(format!("{path} = {shown} is invalid: {why}"))
}

/// A key given twice in one object of a scenario's text, named by its dotted path as `--set`
/// takes it: `statistical.fine_rate is given twice (line 1 column 44): each setting once`.
/// serde names only the key (`duplicate field \`fine_rate\``), which may be any phase's;
/// `serde_path_to_error` reads the text again for the object it is in. `None` for any other
/// error.
fn duplicate(text: &str, e: &serde_json::Error) -> Option<String> {
    use serde_path_to_error::Segment;
    let m = e.to_string();
    let key = m
        .strip_prefix("duplicate field `")?
        .split('`')
        .next()?
        .to_string();
    let de = &mut serde_json::Deserializer::from_str(text);
    let err = serde_path_to_error::deserialize::<_, Scenario>(de).err()?;
    let mut path: Vec<String> = err
        .path()
        .iter()
        .filter_map(|s| match s {
            Segment::Seq { index } => Some(index.to_string()),
            Segment::Map { key } => Some(key.clone()),
            Segment::Enum { variant } => Some(variant.clone()),
            Segment::Unknown => None,
        })
        .collect();
    path.push(key);
    Some(format!(
        "{} is given twice (line {} column {}): each setting once",
        path.join("."),
        e.line(),
        e.column()
    ))
}

/// Read and validate a scenario given as JSON (for [`locate`] and [`explain`]).
fn read_value(v: &serde_json::Value) -> Reading {
    let s = Scenario::deserialize(v).map_err(|e| e.to_string())?;
    Ok(s.validate())
}

/// [`explain`] for the value shown as `shown` (the whole number it is, `whole`) at `path` in
/// `scenario` (the settings as JSON; each trial is placed at `path`), which the settings refused
/// with `error`: `allowed <what the field takes>`. `None` when `error` is not a type mismatch or no
/// trial finds what the field takes.
fn explain_at(
    scenario: &serde_json::Value,
    path: &str,
    whole: Option<u64>,
    shown: &str,
    error: &str,
) -> Option<String> {
    use serde_json::Value;
    let segs: Vec<&str> = path.split('.').collect();
    let phase = serde_json::to_value(Phase::default()).ok()?;
    let probe = |t: Trial| -> Reading {
        let trial = match t {
            Trial::Whole(n) => Value::from(n),
            Trial::Number(x) => Value::from(x),
            Trial::Text(s) => Value::from(s),
            Trial::Flag => Value::Bool(true),
            Trial::Object => Value::Object(serde_json::Map::new()),
            Trial::List => Value::Array(vec![Value::Object(serde_json::Map::new())]),
        };
        let mut v = scenario.clone();
        place(&mut v, &segs, &trial, &phase);
        read_value(&v)
    };
    explain(path, shown, whole, error, u64::MAX, probe)
}

/// The leaves of `v` with their dotted paths. A node is gone into only where the default
/// scenario (`shape`, the same path in it; `item` for list entries) has an object or a list of
/// objects: a list given where an object belongs is one leaf, named as the field it replaces.
fn collect_leaves<'a>(
    v: &'a serde_json::Value,
    prefix: String,
    shape: Option<&serde_json::Value>,
    item: &serde_json::Value,
    out: &mut Vec<(String, &'a serde_json::Value)>,
) {
    use serde_json::Value;
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match (v, shape) {
        (Value::Object(m), Some(Value::Object(sm))) if !m.is_empty() => {
            // A key with a dot in it is no field, and its dotted path would name another (a
            // JSON key "statistical.fine_rate" was blamed as statistical.fine_rate): left to
            // serde's "unknown field", with its own name.
            for (k, x) in m.iter().filter(|(k, _)| !k.contains('.')) {
                collect_leaves(x, join(k), sm.get(k), item, out);
            }
        }
        (Value::Array(a), Some(Value::Array(_)))
            if !a.is_empty() && a.iter().all(Value::is_object) =>
        {
            for (i, x) in a.iter().enumerate() {
                collect_leaves(x, join(&i.to_string()), Some(item), item, out);
            }
        }
        _ => out.push((prefix, v)),
    }
}

/// Put `leaf` at `segs` inside `cur`, making objects (and list entries, from `item`) on the way.
fn place(
    cur: &mut serde_json::Value,
    segs: &[&str],
    leaf: &serde_json::Value,
    item: &serde_json::Value,
) {
    use serde_json::Value;
    let Some((seg, rest)) = segs.split_first() else {
        *cur = leaf.clone();
        return;
    };
    if let (Value::Array(a), Ok(i)) = (&mut *cur, seg.parse::<usize>()) {
        while a.len() <= i {
            a.push(item.clone());
        }
        place(&mut a[i], rest, leaf, item);
        return;
    }
    if !cur.is_object() {
        *cur = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(m) = cur {
        place(
            m.entry(seg.to_string()).or_insert(Value::Null),
            rest,
            leaf,
            item,
        );
    }
}

/// The index of the phase in force at `t` (the last whose start is <= t; the first before it).
pub(crate) fn phase_index(phases: &[Phase], t: f64) -> usize {
    // Phases are few: a reverse scan is cheapest (the bare loop looks up every call). Past a
    // few, a binary search (the starts are increasing, validated): a scan cost a run of P phases
    // O(P^2) as it crossed them (10^5 phases: 30 s).
    if phases.len() <= 16 {
        phases.iter().rposition(|p| p.start <= t).unwrap_or(0)
    } else {
        many_phases_index(phases, t)
    }
}

#[cold]
#[inline(never)]
fn many_phases_index(phases: &[Phase], t: f64) -> usize {
    phases.partition_point(|p| p.start <= t).saturating_sub(1)
}

/// A `--set` value's other reading, as [`set_path`] takes it: a JSON number, `true`, `false` or
/// `null` as text (quoted), or a decimal JSON does not take for its sign or leading zeros (`+5`,
/// `05`, `-007.5`) as the number it writes. `None` for anything else (a list or an object).
fn other_reading(raw: &str) -> Option<String> {
    use serde_json::Value;
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Number(_) | Value::Bool(_) | Value::Null) => {
            return Some(Value::String(raw.into()).to_string())
        }
        Ok(_) => return None,
        Err(_) => {}
    }
    let (sign, rest) = match raw.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", raw.strip_prefix('+').unwrap_or(raw)),
    };
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let digits = rest.trim_start_matches('0');
    let lead = if digits.starts_with(|c: char| c.is_ascii_digit()) {
        ""
    } else {
        "0"
    };
    let number = format!("{sign}{lead}{digits}");
    serde_json::from_str::<serde_json::Number>(&number)
        .is_ok()
        .then_some(number)
}

/// Set the value at a dotted `path` inside a JSON value: `window.sliding_window_size`,
/// `dependency.1.failure_rate` (a number indexes an array). Every key must already exist (a
/// serialized scenario holds all of them), so a misspelt key is an error naming it. `raw` is read
/// as JSON when it parses (numbers, `true`, `null`, `"quoted"`, arrays, objects) and as a string
/// otherwise (`5%`, `200ms`, `even`, `server_error`). An object given where an object is edits
/// the keys it names and keeps the others, as a JSON Merge Patch (RFC 7386) does (without its
/// `null` deleting a key); anything else, a list included, replaces what is there. A key given
/// twice in one object is refused, as in a scenario file.
pub fn set_path(root: &mut serde_json::Value, path: &str, raw: &str) -> Result<(), String> {
    use serde_json::Value;
    if path.is_empty() {
        return Err("--set: empty key".into());
    }
    let mut cur = root;
    let mut walked = String::new();
    for seg in path.split('.') {
        let here = if walked.is_empty() {
            seg.to_string()
        } else {
            format!("{walked}.{seg}")
        };
        cur = match cur {
            Value::Object(map) => {
                let keys: Vec<&str> = map.keys().map(|k| k.as_str()).collect();
                let known = keys.join(", ");
                match map.get_mut(seg) {
                    Some(v) => v,
                    None => {
                        return Err(format!(
                            "--set {path}: unknown key {here:?}: allowed {known}"
                        ))
                    }
                }
            }
            Value::Array(items) => {
                let len = items.len();
                let i: usize = seg.parse().map_err(|_| {
                    format!("--set {path}: {walked} is a list: use an index 0 <= i < {len}, got {seg:?}")
                })?;
                items.get_mut(i).ok_or_else(|| {
                    format!(
                        "--set {path}: {walked} has {len} {}, indexed 0 <= i < {len}, got {i}",
                        if len == 1 { "entry" } else { "entries" }
                    )
                })?
            }
            _ => return Err(format!("--set {path}: {walked} is not an object")),
        };
        walked = here;
    }
    let raw = raw.trim();
    let value = match serde_json::from_str::<Value>(raw) {
        Ok(v) => {
            if v.is_object() || v.is_array() {
                let de = &mut serde_json::Deserializer::from_str(raw);
                if let Err(e) = serde::de::DeserializeSeed::deserialize(Once(path), de) {
                    // The error's text is the key's path, then serde_json's " at line l column c".
                    let m = e.to_string();
                    let key = m.rsplit_once(" at line ").map_or(m.as_str(), |(k, _)| k);
                    return Err(format!(
                        "--set {path}: {key} is given twice (column {} of the value): each \
                         setting once",
                        e.column()
                    ));
                }
            }
            v
        }
        Err(_) => Value::String(raw.to_string()),
    };
    merge(cur, value);
    Ok(())
}

/// `value` written over `cur`: an object into an object key by key (recursively), anything
/// else in its place.
fn merge(cur: &mut serde_json::Value, value: serde_json::Value) {
    use serde_json::Value;
    match (cur, value) {
        (Value::Object(to), Value::Object(from)) => {
            for (k, v) in from {
                match to.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        to.insert(k, v);
                    }
                }
            }
        }
        (cur, value) => *cur = value,
    }
}

/// Reads a JSON value and fails at the first key given twice in one object, with the key's
/// dotted path under the one it holds (`serde_json::Value` keeps the last silently).
struct Once<'a>(&'a str);

impl<'de> serde::de::DeserializeSeed<'de> for Once<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Once<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        while items
            .next_element_seed(Once(&format!("{}.{i}", self.0)))?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let at = format!("{}.{key}", self.0);
            if !seen.insert(key) {
                return Err(serde::de::Error::custom(at));
            }
            map.next_value_seed(Once(&at))?;
        }
        Ok(())
    }
}
