//! The window breaker: failure rate (and slow-call rate) over a sliding window, with
//! resilience4j 2.x semantics. Each setting names its `CircuitBreakerConfig` counterpart.

use std::collections::VecDeque;
use std::fmt;

use crate::error::{self, SettingsError};
use crate::generation::Generation;
use crate::latest::Latest;
use crate::outcome::{Class, Outcome};
use crate::types::*;
use crate::Breaker;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// `slidingWindowType`. Read as `count_based` / `time_based`, or as resilience4j spells them
/// (`COUNT_BASED` / `TIME_BASED`); written in the first form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum SlidingWindowType {
    /// `COUNT_BASED`: the last `sliding_window_size` calls.
    #[cfg_attr(feature = "serde", serde(alias = "COUNT_BASED"))]
    CountBased,
    /// `TIME_BASED`: the calls of the last `sliding_window_size` seconds, in buckets of whole
    /// seconds of `now` (resilience4j: epoch seconds): the window is the current second and the
    /// `sliding_window_size - 1` before it, so a result counts for between `size - 1` and `size`
    /// seconds.
    #[cfg_attr(feature = "serde", serde(alias = "TIME_BASED"))]
    TimeBased,
}

/// Where a stuck half-open goes when `max_wait_duration_in_half_open_state` runs out
/// (`transitionToStateAfterWaitDuration`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum AfterHalfOpenWait {
    /// `OPEN` (resilience4j's default).
    #[cfg_attr(feature = "serde", serde(alias = "OPEN"))]
    Open,
    /// `CLOSED`.
    #[cfg_attr(feature = "serde", serde(alias = "CLOSED"))]
    Closed,
}

/// Settings of the window breaker; names are resilience4j's `CircuitBreakerConfig` in snake_case,
/// but for the open wait's `max_wait_duration_in_open_state`, `wait_interval_multiplier` and
/// `wait_randomization_factor` (its `IntervalFunction`'s `maxInterval`, `multiplier` and
/// `randomizationFactor`) and `random_seed` (this crate's own).
/// Durations in seconds, rates as fractions (resilience4j takes percentages: 50.0 here is 0.5).
///
/// Build them with `..Default::default()` after the fields you set (as in the crate's
/// examples): a setting added in a minor version comes with a default that keeps the breaker's
/// behaviour, and a struct literal that names every field would stop compiling. (The struct is
/// not `#[non_exhaustive]` because that would forbid this form too.)
///
/// With `serde`, an unknown field is refused (a misspelt setting is an error, not a default),
/// but not inside a struct that holds these with `#[serde(flatten)]`: serde hands a flattened
/// struct only its own keys, so a typo passes silently. Nest them under a key instead.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(remote = "Self", default, deny_unknown_fields)
)]
pub struct WindowSettings {
    /// `slidingWindowType`. Default count based.
    pub sliding_window_type: SlidingWindowType,
    /// `slidingWindowSize`: calls (count based) or seconds (time based). Default 100.
    pub sliding_window_size: u32,
    /// `minimumNumberOfCalls`: no rate is computed below this. Default 100. For a count window it
    /// is capped at the window size, as resilience4j does (silently there; reported here by
    /// [`WindowSettings::effective_minimum_number_of_calls`]). Half-open uses
    /// `min(minimum_number_of_calls, permitted_number_of_calls_in_half_open_state)`, from this
    /// setting as given, as resilience4j does with a config built by `minimumNumberOfCalls(..)`
    /// (Spring Boot's properties do). A config built by `slidingWindow(size, min, COUNT_BASED)`
    /// stores the minimum already capped at the window size, so there half-open uses
    /// `min(min, size, permitted)`: to match it, give the capped value here.
    pub minimum_number_of_calls: u32,
    /// `failureRateThreshold`: open when the failure rate is >= this. Default 50%.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::rate")
    )]
    pub failure_rate_threshold: f64,
    /// `slowCallRateThreshold`: open when the slow-call rate is >= this. Default 100%.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::rate")
    )]
    pub slow_call_rate_threshold: f64,
    /// `slowCallDurationThreshold`: a call is slow when it takes strictly longer. Default 60 s;
    /// at least 1 ns (1e-9), as resilience4j requires.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub slow_call_duration_threshold: f64,
    /// `waitDurationInOpenState` (the initial interval of the wait function). Default 60 s.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub wait_duration_in_open_state: f64,
    /// The multiplier of `IntervalFunction.ofExponentialBackoff` used as
    /// `waitIntervalFunctionInOpenState`: wait = initial x multiplier^(attempt-1). 1 = constant.
    /// 1 <= x <= 1000 (resilience4j checks no range: below 1 its waits shrink, which no breaker
    /// here models). Default 1.
    pub wait_interval_multiplier: f64,
    /// The cap of the exponential wait (`maxInterval` of the interval function); 0 = no cap.
    /// Must not be below `wait_duration_in_open_state` (resilience4j accepts that and waits the
    /// cap every time: give that cap as the wait here). Default 0.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub max_wait_duration_in_open_state: f64,
    /// The `randomizationFactor` of a randomized wait: drawn uniformly within +-factor of the
    /// computed wait (0 = off), from a deterministic generator seeded by `random_seed`. Below 1
    /// (resilience4j also takes 1, whose waits can be 0). Default 0.
    pub wait_randomization_factor: f64,
    /// Seed of the randomized wait's generator (not a resilience4j setting; keeps runs
    /// repeatable). Default 0. In a service, give each instance its own (say, a hash of the host
    /// name and process id): replicas with one seed draw the same waits and probe in step, which
    /// the randomized wait is there to prevent (resilience4j draws from a shared random source).
    pub random_seed: u64,
    /// `permittedNumberOfCallsInHalfOpenState`. Default 10.
    pub permitted_number_of_calls_in_half_open_state: u32,
    /// `maxWaitDurationInHalfOpenState`: 0 = no limit, half-open lasts until the results of
    /// `min(minimum_number_of_calls, permitted)` calls are in (forever if probes never answer).
    /// Default 0. At most 1e9 s (about 32 years), like every other duration here. (resilience4j
    /// reads it in whole milliseconds: under 1 ms is off there.)
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub max_wait_duration_in_half_open_state: f64,
    /// `transitionToStateAfterWaitDuration`: where half-open goes when its max wait runs out.
    /// Default open.
    pub transition_to_state_after_wait_duration: AfterHalfOpenWait,
    /// `automaticTransitionFromOpenToHalfOpenEnabled`: move to half-open when the wait ends rather
    /// than on the first call after it. Default false.
    pub automatic_transition_from_open_to_half_open_enabled: bool,
}

#[cfg(feature = "serde")]
crate::object_only_serde!(WindowSettings);

impl Default for WindowSettings {
    fn default() -> Self {
        WindowSettings {
            sliding_window_type: SlidingWindowType::CountBased,
            sliding_window_size: 100,
            minimum_number_of_calls: 100,
            failure_rate_threshold: 0.5,
            slow_call_rate_threshold: 1.0,
            slow_call_duration_threshold: 60.0,
            wait_duration_in_open_state: 60.0,
            wait_interval_multiplier: 1.0,
            max_wait_duration_in_open_state: 0.0,
            wait_randomization_factor: 0.0,
            random_seed: 0,
            permitted_number_of_calls_in_half_open_state: 10,
            max_wait_duration_in_half_open_state: 0.0,
            transition_to_state_after_wait_duration: AfterHalfOpenWait::Open,
            automatic_transition_from_open_to_half_open_enabled: false,
        }
    }
}

impl WindowSettings {
    /// Check every field; the error names the field, its value and the allowed range.
    ///
    /// # Errors
    ///
    /// A [`SettingsError`] for the first field out of its range, or in conflict with another
    /// (such as a `max_wait_duration_in_open_state` below `wait_duration_in_open_state`), naming
    /// it, its value and what is allowed.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let n = |field: &str, v: u32, lo: u32, hi: u32| {
            if v >= lo && v <= hi {
                Ok(())
            } else {
                Err(SettingsError::new(field, v, format!("{lo} <= x <= {hi}")))
            }
        };
        // The size is calls or seconds by the window's type: the range says which.
        if !(1..=1_000_000).contains(&self.sliding_window_size) {
            let unit = match self.sliding_window_type {
                SlidingWindowType::CountBased => "calls (COUNT_BASED)",
                SlidingWindowType::TimeBased => "seconds (TIME_BASED)",
            };
            return Err(SettingsError::new(
                "sliding_window_size",
                self.sliding_window_size,
                format!("1 <= x <= 1000000 {unit}"),
            ));
        }
        n(
            "minimum_number_of_calls",
            self.minimum_number_of_calls,
            1,
            1_000_000,
        )?;
        let rate = |field: &str, v: f64| {
            if v.is_finite() && v > 0.0 && v <= 1.0 {
                Ok(())
            } else {
                Err(SettingsError::new(
                    field,
                    crate::error::Num(v),
                    "0 < x <= 1 (0% < x <= 100%)",
                ))
            }
        };
        rate("failure_rate_threshold", self.failure_rate_threshold)?;
        rate("slow_call_rate_threshold", self.slow_call_rate_threshold)?;
        // At least 1 ns, as resilience4j's builder requires (0 made every call slow).
        error::seconds(
            "slow_call_duration_threshold",
            self.slow_call_duration_threshold,
            1e-9,
            1e9,
        )?;
        error::seconds(
            "wait_duration_in_open_state",
            self.wait_duration_in_open_state,
            1e-3,
            1e9,
        )?;
        error::within(
            "wait_interval_multiplier",
            self.wait_interval_multiplier,
            1.0,
            1000.0,
        )?;
        error::seconds(
            "max_wait_duration_in_open_state",
            self.max_wait_duration_in_open_state,
            0.0,
            1e9,
        )?;
        if self.max_wait_duration_in_open_state != 0.0
            && self.max_wait_duration_in_open_state < self.wait_duration_in_open_state
        {
            return Err(SettingsError::new(
                "max_wait_duration_in_open_state",
                crate::error::Num(self.max_wait_duration_in_open_state),
                format!(
                    "0 (no cap), or wait_duration_in_open_state ({}) <= x <= 1e9 seconds",
                    self.wait_duration_in_open_state
                ),
            ));
        }
        if !(self.wait_randomization_factor.is_finite()
            && self.wait_randomization_factor >= 0.0
            && self.wait_randomization_factor < 1.0)
        {
            return Err(SettingsError::new(
                "wait_randomization_factor",
                crate::error::Num(self.wait_randomization_factor),
                "0 <= x < 1",
            ));
        }
        n(
            "permitted_number_of_calls_in_half_open_state",
            self.permitted_number_of_calls_in_half_open_state,
            1,
            1_000_000,
        )?;
        error::seconds(
            "max_wait_duration_in_half_open_state",
            self.max_wait_duration_in_half_open_state,
            0.0,
            1e9,
        )?;
        Ok(())
    }

    /// The minimum number of calls in force: capped at the window size for a count window
    /// (resilience4j does this silently).
    pub fn effective_minimum_number_of_calls(&self) -> u32 {
        match self.sliding_window_type {
            SlidingWindowType::CountBased => {
                self.minimum_number_of_calls.min(self.sliding_window_size)
            }
            SlidingWindowType::TimeBased => self.minimum_number_of_calls,
        }
    }
}

/// A count window of the last `size` outcomes (resilience4j `FixedSizeSlidingWindowMetrics`) or a
/// time window of epoch-second buckets covering the last `size` seconds (`SlidingTimeWindowMetrics`).
#[derive(Clone)]
enum Ring {
    /// Each entry: bit 0 failed, bit 1 slow. Filled up to `size` entries in order, then each
    /// new entry overwrites the oldest, at `oldest`.
    Count {
        size: usize,
        ring: Vec<u8>,
        oldest: usize,
    },
    /// Non-empty buckets in ascending second order; `since`: the second the window began (a
    /// close's), which an earlier time records into, as resilience4j's window begun then does.
    Time {
        size: i64,
        buckets: VecDeque<(i64, Tally)>,
        since: i64,
    },
}

/// Sizes, not entries: a window of a million calls in a log line (a `Shared`'s or a `Window`'s
/// `Debug`) would be megabytes. The totals are [`Metrics`]'.
impl fmt::Debug for Ring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ring::Count { size, ring, oldest } => f
                .debug_struct("Count")
                .field("size", size)
                .field("held", &ring.len())
                .field("oldest", oldest)
                .finish(),
            Ring::Time { size, buckets, .. } => f
                .debug_struct("Time")
                .field("size", size)
                .field("buckets", &buckets.len())
                .finish(),
        }
    }
}

/// Calls, failures and slow calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    calls: u64,
    failed: u64,
    slow: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.calls = self.calls.saturating_add(other.calls);
        self.failed = self.failed.saturating_add(other.failed);
        self.slow = self.slow.saturating_add(other.slow);
    }

    fn sub(&mut self, other: Tally) {
        self.calls = self.calls.saturating_sub(other.calls);
        self.failed = self.failed.saturating_sub(other.failed);
        self.slow = self.slow.saturating_sub(other.slow);
    }

    fn one(failed: bool, slow: bool) -> Tally {
        Tally {
            calls: 1,
            failed: failed as u64,
            slow: slow as u64,
        }
    }
}

/// What the thresholds say about a window (resilience4j `CircuitBreakerMetrics.Result`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Check {
    /// Fewer calls than the minimum: no rate is computed.
    BelowMinimum,
    /// Both rates below their thresholds.
    Below { failure: f64, slow: f64, calls: u32 },
    /// A threshold was reached; the reason carries the numbers (failure rate checked first).
    Above(Reason),
}

/// One window with its own minimum number of calls (resilience4j `CircuitBreakerMetrics`).
#[derive(Debug, Clone)]
struct Metrics {
    ring: Ring,
    /// Sum over everything held in `ring` (time window: before expiry at a later `now`).
    total: Tally,
    /// At least 1 (validated, and kept so here), so `calls < minimum` also covers an empty window.
    minimum: u64,
}

/// The second a time is bucketed in: `floor(now)`, saturating for huge or infinite times.
fn second_of(now: f64) -> i64 {
    libm::floor(now) as i64
}

impl Metrics {
    fn count(size: u32, minimum: u32) -> Metrics {
        Metrics {
            ring: Ring::Count {
                size: size.max(1) as usize,
                ring: Vec::new(),
                oldest: 0,
            },
            total: Tally::default(),
            minimum: u64::from(minimum.min(size).max(1)),
        }
    }

    fn time(size: u32, minimum: u32, since: f64) -> Metrics {
        Metrics {
            ring: Ring::Time {
                size: i64::from(size.max(1)),
                buckets: VecDeque::new(),
                since: second_of(since),
            },
            total: Tally::default(),
            minimum: u64::from(minimum.max(1)),
        }
    }

    /// The current second for expiry: a clock that went back records into the latest bucket,
    /// or the window's first second, as resilience4j does (its window never moves backwards, and
    /// begins at its creation: a result read a moment before a close went a second back, and
    /// left the window a second early).
    fn current_second(buckets: &VecDeque<(i64, Tally)>, since: i64, now: f64) -> i64 {
        let s = second_of(now).max(since);
        match buckets.back() {
            Some(&(latest, _)) if latest > s => latest,
            _ => s,
        }
    }

    /// The window at `now` without changing it.
    #[inline]
    fn snapshot(&self, now: f64) -> Tally {
        match &self.ring {
            Ring::Count { .. } => self.total,
            Ring::Time {
                size,
                buckets,
                since,
            } => Self::time_snapshot(self.total, *size, buckets, *since, now),
        }
    }

    /// [`Metrics::snapshot`] of a time window (out of line: keeps the inlined count window's
    /// path, the series sampling's, small).
    #[inline(never)]
    fn time_snapshot(
        total: Tally,
        size: i64,
        buckets: &VecDeque<(i64, Tally)>,
        since: i64,
        now: f64,
    ) -> Tally {
        let oldest_kept = Self::current_second(buckets, since, now).saturating_sub(size - 1);
        let mut t = total;
        for &(sec, tally) in buckets.iter() {
            if sec >= oldest_kept {
                break;
            }
            t.sub(tally);
        }
        t
    }

    /// Record one outcome at `now` and return the window after it.
    #[inline]
    fn record(&mut self, failed: bool, slow: bool, now: f64) -> Tally {
        match &mut self.ring {
            Ring::Count { size, ring, oldest } => {
                // The totals count the ring's entries (at most `size`, 1e6), so plain additions
                // and subtractions give what saturating ones would, with fewer instructions.
                let bits = failed as u8 | (slow as u8) << 1;
                self.total.failed += u64::from(failed);
                self.total.slow += u64::from(slow);
                if ring.len() < *size {
                    ring.push(bits);
                    self.total.calls += 1;
                } else {
                    // The oldest entry leaves the window as the new one comes in.
                    let old = std::mem::replace(&mut ring[*oldest], bits);
                    *oldest = if *oldest + 1 == *size { 0 } else { *oldest + 1 };
                    self.total.failed -= u64::from(old & 1);
                    self.total.slow -= u64::from(old >> 1);
                }
            }
            Ring::Time {
                size,
                buckets,
                since,
            } => Self::record_time(
                &mut self.total,
                *size,
                buckets,
                *since,
                Tally::one(failed, slow),
                now,
            ),
        }
        self.total
    }

    /// [`Metrics::record`] for a time window (out of line: keeps the count window's path small).
    #[inline(never)]
    fn record_time(
        total: &mut Tally,
        size: i64,
        buckets: &mut VecDeque<(i64, Tally)>,
        since: i64,
        one: Tally,
        now: f64,
    ) {
        let cur = Self::current_second(buckets, since, now);
        let oldest_kept = cur.saturating_sub(size - 1);
        while let Some(&(sec, tally)) = buckets.front() {
            if sec >= oldest_kept {
                break;
            }
            total.sub(tally);
            buckets.pop_front();
        }
        match buckets.back_mut() {
            Some((sec, tally)) if *sec == cur => tally.add(one),
            _ => buckets.push_back((cur, one)),
        }
        total.add(one);
    }

    /// Whether [`Metrics::check`] of the window as recorded would say `Above`: the same
    /// comparisons, without building the numbers of a `Below` that the closed state throws away.
    /// A zero count's rate is 0, below either threshold (validated `> 0`): no division.
    #[inline]
    fn reached(&self, s: &WindowSettings) -> bool {
        let t = &self.total;
        if t.calls < self.minimum {
            return false;
        }
        (t.failed != 0 && ratio(t.failed, t.calls) >= s.failure_rate_threshold)
            || (t.slow != 0 && ratio(t.slow, t.calls) >= s.slow_call_rate_threshold)
    }

    /// resilience4j `checkIfThresholdsExceeded`: below the minimum nothing is decided; otherwise
    /// failure rate `>=` its threshold, then slow-call rate `>=` its threshold.
    fn check(&self, t: Tally, s: &WindowSettings) -> Check {
        if t.calls == 0 || t.calls < self.minimum {
            return Check::BelowMinimum;
        }
        let failure = ratio(t.failed, t.calls);
        let slow = ratio(t.slow, t.calls);
        let calls = u32::try_from(t.calls).unwrap_or(u32::MAX);
        if failure >= s.failure_rate_threshold {
            Check::Above(Reason::FailureRate {
                rate: failure,
                threshold: s.failure_rate_threshold,
                calls,
            })
        } else if slow >= s.slow_call_rate_threshold {
            Check::Above(Reason::SlowCallRate {
                rate: slow,
                threshold: s.slow_call_rate_threshold,
                calls,
            })
        } else {
            Check::Below {
                failure,
                slow,
                calls,
            }
        }
    }

    /// `(failure rate, slow-call rate)`, `NaN` below the minimum.
    #[inline]
    fn rates(&self, now: f64) -> (f64, f64) {
        // Per window kind: a count window's totals are then read in place, not merged with the
        // time window's snapshot through a copy on the stack.
        match &self.ring {
            Ring::Count { .. } => self.rates_of(&self.total),
            Ring::Time {
                size,
                buckets,
                since,
            } => self.rates_of(&Self::time_snapshot(
                self.total, *size, buckets, *since, now,
            )),
        }
    }

    #[inline]
    fn rates_of(&self, t: &Tally) -> (f64, f64) {
        if t.calls < self.minimum {
            return (f64::NAN, f64::NAN);
        }
        (ratio(t.failed, t.calls), ratio(t.slow, t.calls))
    }
}

/// `part / calls` (`calls > 0`): 0 without a division when `part` is 0 (`0.0 / n` is `+0.0`), as
/// it mostly is for failures and slow calls in a healthy window.
#[inline]
fn ratio(part: u64, calls: u64) -> f64 {
    if part == 0 {
        0.0
    } else {
        to_f64(part) / to_f64(calls)
    }
}

/// `n as f64`, converted as an `i64` when it fits (always, for a count): one instruction where
/// `u64` takes seven on x86-64. The rest goes out of line, or the compiler merges both back.
#[inline]
fn to_f64(n: u64) -> f64 {
    match i64::try_from(n) {
        Ok(i) => i as f64,
        Err(_) => huge_to_f64(n),
    }
}

#[cold]
#[inline(never)]
fn huge_to_f64(n: u64) -> f64 {
    n as f64
}

/// splitmix64 (Steele, Lea, Flood 2014): a tiny deterministic generator for the randomized wait.
#[derive(Debug, Clone, Copy)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` from the top 53 bits.
    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Uncapped waits saturate here (about 31,700 years) so every time stays finite.
const WAIT_CEILING: f64 = 1e12;

/// Time rules applied in one call at most this many times (a long-idle breaker with automatic
/// transitions and a half-open maximum catches up over several calls instead of looping).
const MAX_CATCH_UP: usize = 64;

/// The window breaker, with resilience4j 2.x `CircuitBreakerStateMachine` semantics.
///
/// * CLOSED records every non-neutral result in the window (`failed`, and `slow` when
///   `now > permit.issued_at + slow_call_duration_threshold`, so a call answered at its start
///   plus a latency equal to the threshold is not slow) and, once the window holds the
///   minimum number of calls, opens when `failed/calls >= failure_rate_threshold`
///   ([`Reason::FailureRate`]) or else `slow/calls >= slow_call_rate_threshold`
///   ([`Reason::SlowCallRate`]): where both pass at once the reason is the failure rate's
///   alone (resilience4j publishes an event for each). Every entry to CLOSED starts a fresh
///   window, its first second the close's (an earlier time records into it).
/// * OPEN rejects calls until `opened_at + wait`; the first permit at `now >= opened_at + wait`
///   moves to HALF_OPEN and becomes probe 1 (or [`Breaker::poll`] moves it at that time when
///   `automatic_transition_from_open_to_half_open_enabled`). Results arriving while OPEN are
///   recorded into the window that opened it but trigger nothing: they return
///   `Recorded::Ignored(Ignored::NoEffect)`.
/// * wait = `wait_duration_in_open_state x wait_interval_multiplier^(attempt-1)`, capped at
///   `max_wait_duration_in_open_state` when nonzero (`IntervalFunction.ofExponentialBackoff`);
///   randomized: uniform in `wait x [1-f, 1+f)`, then capped (`ofExponentialRandomBackoff`).
///   attempt = 1 on CLOSED -> OPEN, +1 on each HALF_OPEN -> OPEN, 0 again on CLOSED.
/// * HALF_OPEN has a fresh count window of `permitted_number_of_calls_in_half_open_state` with a
///   minimum of `min(minimum_number_of_calls, permitted)`, admits at most `permitted` probes
///   (then [`Rejection::HalfOpenBusy`]) and, after each result once the minimum is in, opens
///   again (attempt + 1, wait timed from that result) or closes ([`Reason::ProbesPassed`]).
///   Results of calls admitted while CLOSED that arrive now **are counted in the half-open
///   window**, as resilience4j does; the permit's generation is not used to drop them. So is
///   a result that arrives after a close, from a call let in before the opening: it counts in
///   the new closed window.
/// * `max_wait_duration_in_half_open_state` (0 = off) ends a stuck HALF_OPEN, going to
///   `transition_to_state_after_wait_duration` ([`Reason::MaxWaitInHalfOpen`]).
///
/// What counts is [`Outcome::class`], not settings: a failure is what resilience4j's
/// `recordExceptions` / `recordException` would record, a neutral outcome what `ignoreExceptions`
/// would ignore (a probe's frees its half-open slot, as `releasePermission` does), a success a
/// success. resilience4j's defaults record every exception and ignore none, so there a 4xx or a
/// user's own rate limit thrown as an exception is a failure unless ignored; and there an
/// exception that matches no `recordExceptions` entry counts as a success, which has no
/// counterpart here.
/// `recordResultPredicate` and `transitionOnResult`, `initialState` and the DISABLED,
/// METRICS_ONLY and FORCED_* states are not modelled.
///
/// Where this differs from resilience4j, deliberately:
/// * the wait is over at `now >= opened_at + wait` (resilience4j: `isAfter`, strictly, at
///   millisecond resolution);
/// * rates are `f64` fractions (resilience4j: `float` percentages) and waits are exact seconds
///   (resilience4j truncates each multiplication to whole milliseconds);
/// * a neutral result returns a half-open slot only if it is the result of one of the current
///   half-open's own probes, not yet answered (resilience4j increments the counter for any ignored
///   result, so a late neutral result could raise the slots above `permitted`);
/// * time rules (automatic OPEN -> HALF_OPEN, the half-open maximum) take effect at their
///   deadline even when applied lazily by a later call, as resilience4j's scheduler would: the
///   transition's `at` is the deadline and the next wait is timed from it;
/// * a time that is not finite (`NaN`, an infinity) is read as the latest finite time given
///   before it (0 at first);
/// * one call applies at most 64 time-rule transitions (a bound on its work): a breaker given no
///   call or poll through more than 32 automatic OPEN -> HALF_OPEN -> OPEN rounds (automatic
///   transition on, a half-open maximum that reopens) decides the call at hand from where that
///   catch-up stopped, so an OPEN whose wait is over goes HALF_OPEN at the call's time, where
///   resilience4j's scheduler could have it open. Polling at [`Breaker::next_deadline`], as the
///   simulator does, never meets this.
#[derive(Debug, Clone)]
pub struct Window {
    settings: WindowSettings,
    state: State,
    generation: Generation,
    /// CLOSED: the sliding window; HALF_OPEN: the probes' window; OPEN: the window that opened it.
    metrics: Metrics,
    attempt: u32,
    wait: f64,
    opened_at: f64,
    open_until: f64,
    half_open_since: f64,
    half_open_until: f64,
    /// Half-open slots left (resilience4j `permittedNumberOfCalls`).
    slots: u32,
    /// The current half-open's probes whose result has not arrived.
    probes: Probes,
    rng: SplitMix64,
    last_now: Latest,
    next_id: u64,
    transitions: Vec<Transition>,
    /// Results of calls let in before the half-open they were recorded in ([`Window::late_in_half_open`]).
    late_in_half_open: u64,
    /// When the last transition was dated (`-inf` before any): none is dated earlier.
    changed_at: f64,
}

/// The current half-open's probes, in the order they were let in, each marked once its result
/// arrives. Ids only grow, so an id's place is a binary search. Answered entries are dropped
/// once they are more than half of the list (a neutral result frees its slot, so a half-open can
/// let in any number of probes over time): the list holds at most `2 x in flight + 16` entries,
/// in flight at most `permitted` (10^6). Offsets from the first probe's id keep the order even
/// if the id counter wraps.
#[derive(Debug, Clone, Default)]
struct Probes {
    first: u64,
    /// (id - first, answered)
    issued: Vec<(u64, bool)>,
    in_flight: u32,
}

impl Probes {
    fn insert(&mut self, id: u64) {
        if self.issued.is_empty() {
            self.first = id;
        }
        let offset = id.wrapping_sub(self.first);
        debug_assert!(self.issued.last().is_none_or(|&(last, _)| last < offset));
        self.issued.push((offset, false));
        self.in_flight += 1;
    }

    /// Marks the probe `id` answered; whether it was one of these probes, not answered before.
    fn remove(&mut self, id: u64) -> bool {
        let offset = id.wrapping_sub(self.first);
        match self.issued.binary_search_by_key(&offset, |&(o, _)| o) {
            Ok(i) if !self.issued[i].1 => {
                self.issued[i].1 = true;
                self.in_flight -= 1;
                if self.issued.len() > 2 * self.in_flight as usize + 16 {
                    // Amortized O(1): at least half the entries go.
                    self.issued.retain(|&(_, answered)| !answered);
                }
                true
            }
            _ => false,
        }
    }

    fn clear(&mut self) {
        self.issued.clear();
        self.in_flight = 0;
    }
}

/// `Window::new(WindowSettings::default())`, which the default settings pass.
impl Default for Window {
    fn default() -> Self {
        Self::new(WindowSettings::default()).expect("the default settings are valid")
    }
}

impl Window {
    /// A closed window breaker. Invalid settings give an error naming the field.
    ///
    /// # Errors
    ///
    /// A [`SettingsError`] from [`WindowSettings::validate`].
    pub fn new(settings: WindowSettings) -> Result<Self, SettingsError> {
        settings.validate()?;
        let metrics = Self::closed_metrics(&settings, f64::NEG_INFINITY);
        let mut w = Window {
            state: State::Closed,
            generation: Generation::default(),
            metrics,
            attempt: 0,
            wait: 0.0,
            opened_at: f64::NAN,
            open_until: f64::NAN,
            half_open_since: f64::NAN,
            half_open_until: f64::INFINITY,
            slots: 0,
            probes: Probes::default(),
            rng: SplitMix64(settings.random_seed),
            last_now: Latest::starting_at(0.0),
            next_id: crate::ids::base(),
            transitions: Vec::with_capacity(2),
            late_in_half_open: 0,
            changed_at: f64::NEG_INFINITY,
            settings,
        };
        w.wait = w.wait_for_attempt(1);
        Ok(w)
    }

    /// The settings.
    pub fn settings(&self) -> &WindowSettings {
        &self.settings
    }

    /// Results so far of calls let in before the half-open they came back in (while closed, or
    /// in an earlier half-open), recorded in its window with the probes' results, as
    /// resilience4j records them: they can decide the verdict on the probes. Neutral results
    /// are not counted. A known pain of window breakers; generations drop such results.
    pub fn late_in_half_open(&self) -> u64 {
        self.late_in_half_open
    }

    /// A closed window begun at `since` (`-inf` for a new breaker: no time yet).
    fn closed_metrics(s: &WindowSettings, since: f64) -> Metrics {
        match s.sliding_window_type {
            SlidingWindowType::CountBased => {
                Metrics::count(s.sliding_window_size, s.minimum_number_of_calls)
            }
            SlidingWindowType::TimeBased => {
                Metrics::time(s.sliding_window_size, s.minimum_number_of_calls, since)
            }
        }
    }

    /// The open-state wait for `attempt` (1 = first opening), before randomization:
    /// `wait_duration_in_open_state x wait_interval_multiplier^(attempt-1)`, capped at
    /// `max_wait_duration_in_open_state` when nonzero (resilience4j `ofExponentialBackoff`).
    pub fn wait_for_attempt(&self, attempt: u32) -> f64 {
        let s = &self.settings;
        let k = f64::from(attempt.max(1) - 1);
        let w = s.wait_duration_in_open_state * libm::pow(s.wait_interval_multiplier, k);
        Self::cap(s, w)
    }

    fn cap(s: &WindowSettings, w: f64) -> f64 {
        let w = if w.is_nan() { WAIT_CEILING } else { w };
        if s.max_wait_duration_in_open_state > 0.0 {
            w.min(s.max_wait_duration_in_open_state)
        } else {
            w.min(WAIT_CEILING)
        }
    }

    /// Draw the wait for `attempt`: randomized within +-factor (then capped) when configured.
    fn draw_wait(&mut self, attempt: u32) -> f64 {
        let s = &self.settings;
        let f = s.wait_randomization_factor;
        if f <= 0.0 {
            return self.wait_for_attempt(attempt);
        }
        let k = f64::from(attempt.max(1) - 1);
        let base = (s.wait_duration_in_open_state * libm::pow(s.wait_interval_multiplier, k))
            .min(WAIT_CEILING);
        let (lo, hi) = (base - f * base, base + f * base);
        let w = lo + self.rng.next_f64() * (hi - lo);
        Self::cap(&self.settings, w)
    }

    /// The attempt number of the current or last opening (resilience4j `attempts`): 1 after
    /// CLOSED -> OPEN, +1 per HALF_OPEN -> OPEN, 0 while CLOSED.
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// The open-state wait in force (open, half-open: as drawn, randomized when
    /// `wait_randomization_factor` > 0) or, while closed, the next one before randomization
    /// ([`Window::wait_for_attempt`]`(1)`), seconds. With a randomization factor `f`, the wait
    /// the next opening draws differs: uniform in `wait x [1-f, 1+f)`, then capped.
    pub fn wait(&self) -> f64 {
        self.wait
    }

    /// When the breaker last opened (`NaN` before the first opening).
    pub fn opened_at(&self) -> f64 {
        self.opened_at
    }

    /// When the current (or last) open wait ends: `opened_at + wait` (`NaN` before any opening).
    pub fn open_until(&self) -> f64 {
        self.open_until
    }

    /// When half-open last began (`NaN` before the first half-open).
    pub fn half_open_since(&self) -> f64 {
        self.half_open_since
    }

    /// When `max_wait_duration_in_half_open_state` ends the current half-open (infinite if off
    /// or not half-open).
    pub fn half_open_until(&self) -> f64 {
        if self.state == State::HalfOpen {
            self.half_open_until
        } else {
            f64::INFINITY
        }
    }

    /// Half-open slots still free (0 outside half-open).
    pub fn probes_available(&self) -> u32 {
        if self.state == State::HalfOpen {
            self.slots
        } else {
            0
        }
    }

    /// Probes of the current half-open whose result has not arrived (0 outside half-open).
    pub fn probes_in_flight(&self) -> u32 {
        self.probes.in_flight
    }

    /// Bytes the window's outcomes take on the heap, as a clone holds them: a byte a call of a
    /// count window (up to its size), 32 a second with calls of a time window (up to its size:
    /// a time window of 1e6 s holds up to 32 MB). For a caller that keeps copies.
    pub fn window_bytes(&self) -> usize {
        match &self.metrics.ring {
            Ring::Count { ring, .. } => ring.len(),
            Ring::Time { buckets, .. } => buckets.len() * std::mem::size_of::<(i64, Tally)>(),
        }
    }

    /// The minimum number of calls in force for the current window: the (capped) setting while
    /// closed, `min(minimum_number_of_calls, permitted)` in half-open, and while open that of the
    /// window that opened it (the probes' after a half-open that reopened).
    pub fn minimum_in_force(&self) -> u32 {
        u32::try_from(self.metrics.minimum).unwrap_or(u32::MAX)
    }

    /// Results in the current window at `now` (time windows drop seconds older than the window).
    #[inline]
    pub fn calls_in_window(&self, now: f64) -> u32 {
        u32::try_from(self.metrics.snapshot(self.last_now.read(now)).calls).unwrap_or(u32::MAX)
    }

    /// Failed results in the current window at `now`.
    #[inline]
    pub fn failed_calls_in_window(&self, now: f64) -> u32 {
        u32::try_from(self.metrics.snapshot(self.last_now.read(now)).failed).unwrap_or(u32::MAX)
    }

    /// Slow results in the current window at `now`.
    pub fn slow_calls_in_window(&self, now: f64) -> u32 {
        u32::try_from(self.metrics.snapshot(self.last_now.read(now)).slow).unwrap_or(u32::MAX)
    }

    /// `failed / calls` in the current window at `now`; `NaN` below the minimum number of calls
    /// (resilience4j `getFailureRate` returns -1 there).
    #[inline]
    pub fn failure_rate(&self, now: f64) -> f64 {
        self.metrics.rates(self.last_now.read(now)).0
    }

    /// `slow / calls` in the current window at `now`; `NaN` below the minimum number of calls.
    pub fn slow_call_rate(&self, now: f64) -> f64 {
        self.metrics.rates(self.last_now.read(now)).1
    }

    fn id(&mut self) -> u64 {
        self.next_id = self.next_id.wrapping_add(1);
        self.next_id
    }

    fn permit_of(&mut self, kind: PermitKind, now: f64) -> Permit {
        Permit {
            generation: self.generation.get(),
            id: self.id(),
            issued_at: now,
            kind,
        }
    }

    fn go(&mut self, to: State, at: f64, reason: Reason) {
        // Never before the last change: a result read before another thread's change and
        // recorded after it (a `Shared` breaker reads the time before taking its lock) dated
        // half-open's end 0.1 s before its start, and timed the new open wait from then.
        let at = if at < self.changed_at {
            self.changed_at
        } else {
            at
        };
        self.changed_at = at;
        let from = self.state;
        self.state = to;
        let generation = self.generation.bump();
        self.probes.clear();
        match to {
            State::Closed => {
                self.metrics = Self::closed_metrics(&self.settings, at);
                self.attempt = 0;
                self.wait = self.wait_for_attempt(1);
                self.slots = 0;
            }
            State::Open => {
                // The open state keeps the window that opened it (resilience4j passes
                // `currentState.getMetrics()` to `OpenState`).
                self.attempt = self.attempt.saturating_add(1);
                self.wait = self.draw_wait(self.attempt);
                self.opened_at = at;
                self.open_until = at + self.wait;
                self.slots = 0;
            }
            State::HalfOpen => {
                let permitted = self.settings.permitted_number_of_calls_in_half_open_state;
                self.metrics = Metrics::count(permitted, self.settings.minimum_number_of_calls);
                self.slots = permitted;
                self.half_open_since = at;
                let max = self.settings.max_wait_duration_in_half_open_state;
                self.half_open_until = if max > 0.0 { at + max } else { f64::INFINITY };
            }
        }
        self.transitions.push(Transition {
            at,
            from,
            to,
            generation,
            reason,
        });
    }

    /// Time rules: the automatic OPEN -> HALF_OPEN and the half-open maximum, each at its deadline.
    fn advance(&mut self, now: f64) {
        for _ in 0..MAX_CATCH_UP {
            match self.state {
                State::Open
                    if self
                        .settings
                        .automatic_transition_from_open_to_half_open_enabled
                        && now >= self.open_until =>
                {
                    let at = self.open_until;
                    self.go(State::HalfOpen, at, Reason::WaitElapsed { wait: self.wait });
                }
                State::HalfOpen if now >= self.half_open_until => {
                    let at = self.half_open_until;
                    let to = match self.settings.transition_to_state_after_wait_duration {
                        AfterHalfOpenWait::Open => State::Open,
                        AfterHalfOpenWait::Closed => State::Closed,
                    };
                    let waited = self.settings.max_wait_duration_in_half_open_state;
                    self.go(to, at, Reason::MaxWaitInHalfOpen { waited });
                }
                _ => break,
            }
        }
    }

    /// [`Breaker::permit`] outside the closed state: time rules first.
    fn permit_not_closed(&mut self, now: f64) -> Decision {
        self.advance(now);
        if self.state == State::Open {
            if now < self.open_until {
                return Decision::Reject(Rejection::Open {
                    until: self.open_until,
                });
            }
            self.go(
                State::HalfOpen,
                now,
                Reason::WaitElapsed { wait: self.wait },
            );
        }
        match self.state {
            State::HalfOpen => {
                if self.slots == 0 {
                    return Decision::Reject(Rejection::HalfOpenBusy);
                }
                self.slots -= 1;
                let permit = self.permit_of(PermitKind::Trial, now);
                self.probes.insert(permit.id);
                Decision::Admit(permit)
            }
            _ => Decision::Admit(self.permit_of(PermitKind::Normal, now)),
        }
    }

    /// Whether a call answered at `now` was slow: past its start plus the threshold, a deadline
    /// (as resilience4j's `duration > threshold` on whole nanoseconds). Not `now - issued_at >
    /// threshold`: that duration rounds, so a call answered at its start plus a latency equal
    /// to the threshold (`(0.1 + 0.2) - 0.1` is above 0.2) read as slow at some starts only.
    #[inline]
    fn slow(&self, permit: &Permit, now: f64) -> bool {
        now > permit.issued_at + self.settings.slow_call_duration_threshold
    }

    /// Marks `permit`'s probe answered; whether it was one of the current half-open's probes, not
    /// answered before. Only a trial permit of the current generation can be: the id alone may
    /// be a permit of another breaker's (one replaced inside `Shared::with` while its calls were
    /// out), taken at its word, and a closed call's result would free a probe's slot that is
    /// still taken. Natively no other breaker's permit carries one of this one's ids
    /// (`ids.rs`); in wasm, where every breaker numbers from 1, a replaced breaker's probe
    /// can carry the same generation, id and kind as one of this one's (see `Shared::with`).
    fn answers_probe(&mut self, permit: &Permit) -> bool {
        permit.kind == PermitKind::Trial
            && permit.generation == self.generation.get()
            && self.probes.remove(permit.id)
    }

    /// [`Breaker::record`] in any state (used outside the closed state's common case).
    #[inline(never)]
    fn record_any(&mut self, permit: &Permit, outcome: Outcome, now: f64) -> Recorded {
        self.transitions.clear();
        let now = self.last_now.take(now);
        self.advance(now);
        if permit.kind == PermitKind::LastOption {
            return Recorded::Ignored(Ignored::LastOption);
        }
        let failed = match outcome.class() {
            Class::Neutral => {
                // resilience4j `releasePermission`: an ignored result frees its half-open slot.
                if self.state == State::HalfOpen && self.answers_probe(permit) {
                    self.slots = self.slots.saturating_add(1);
                }
                return Recorded::Ignored(Ignored::Neutral);
            }
            Class::Failure => true,
            Class::Success => false,
        };
        let slow = self.slow(permit, now);
        if self.probes.in_flight > 0 {
            self.answers_probe(permit);
        }
        let tally = self.metrics.record(failed, slow, now);
        match self.state {
            State::Open => Recorded::Ignored(Ignored::NoEffect),
            State::Closed => {
                if let Check::Above(reason) = self.metrics.check(tally, &self.settings) {
                    self.go(State::Open, now, reason);
                }
                Recorded::Counted
            }
            State::HalfOpen => {
                if permit.generation != self.generation.get() {
                    self.late_in_half_open += 1;
                }
                match self.metrics.check(tally, &self.settings) {
                    Check::BelowMinimum => {}
                    Check::Above(reason) => self.go(State::Open, now, reason),
                    Check::Below {
                        failure,
                        slow,
                        calls,
                    } => self.go(
                        State::Closed,
                        now,
                        Reason::ProbesPassed {
                            failure_rate: failure,
                            slow_rate: slow,
                            calls,
                        },
                    ),
                }
                Recorded::Counted
            }
        }
    }

    /// CLOSED -> OPEN once [`Metrics::reached`] says a threshold is reached (rare: out of line).
    #[cold]
    #[inline(never)]
    fn open_from_closed(&mut self, now: f64) {
        if let Check::Above(reason) = self.metrics.check(self.metrics.total, &self.settings) {
            self.go(State::Open, now, reason);
        }
    }
}

impl Breaker for Window {
    #[inline]
    fn permit(&mut self, now: f64) -> Decision {
        self.transitions.clear();
        let now = self.last_now.take(now);
        if self.state == State::Closed {
            // No time rule applies while closed (`advance` does nothing): the common case,
            // kept small enough to inline.
            return Decision::Admit(self.permit_of(PermitKind::Normal, now));
        }
        self.permit_not_closed(now)
    }

    fn permit_last_option(&mut self, now: f64) -> Permit {
        match self.permit(now) {
            Decision::Admit(permit) => permit,
            // `permit` took `now` already: taking it again reads the same time.
            Decision::Reject(_) => {
                let now = self.last_now.take(now);
                self.permit_of(PermitKind::LastOption, now)
            }
        }
    }

    #[inline]
    fn record(&mut self, permit: &Permit, outcome: Outcome, now: f64) -> Recorded {
        if self.state != State::Closed || permit.kind == PermitKind::LastOption {
            return self.record_any(permit, outcome, now);
        }
        // Closed, the common case, kept small: no time rule applies (`advance` does nothing) and
        // there are no probes (every transition clears them; only half-open adds any).
        debug_assert_eq!(self.probes.in_flight, 0);
        self.transitions.clear();
        let now = self.last_now.take(now);
        let failed = match outcome.class() {
            Class::Neutral => return Recorded::Ignored(Ignored::Neutral),
            Class::Failure => true,
            Class::Success => false,
        };
        let slow = self.slow(permit, now);
        self.metrics.record(failed, slow, now);
        if self.metrics.reached(&self.settings) {
            self.open_from_closed(now);
        }
        Recorded::Counted
    }

    fn poll(&mut self, now: f64) {
        self.transitions.clear();
        let now = self.last_now.take(now);
        self.advance(now);
    }

    fn next_deadline(&self) -> Option<f64> {
        let d = match self.state {
            State::Open
                if self
                    .settings
                    .automatic_transition_from_open_to_half_open_enabled =>
            {
                self.open_until
            }
            State::HalfOpen => self.half_open_until,
            _ => return None,
        };
        d.is_finite().then_some(d)
    }

    fn state(&self) -> State {
        self.state
    }

    fn generation(&self) -> u64 {
        self.generation.get()
    }

    /// `level`: failure rate of the current window (`NaN` below the minimum); `threshold`:
    /// `failure_rate_threshold`; `trial`: the failure rate of the half-open window so far, the
    /// probes' and any late result counted there from before (`NaN`
    /// before the first result and outside half-open); `trial_upper`/`trial_lower`: `NaN`;
    /// `wait`: [`Window::wait`]; `rate`: slow-call rate of the current window (`NaN` below the
    /// minimum); `count`: results in the current window. While open, "the current window" is the
    /// one that opened the breaker.
    fn observe(&self, now: f64) -> Observation {
        let now = self.last_now.read(now);
        let (level, slow) = self.metrics.rates(now);
        let t = self.metrics.snapshot(now);
        let trial = if self.state == State::HalfOpen && t.calls > 0 {
            t.failed as f64 / t.calls as f64
        } else {
            f64::NAN
        };
        Observation {
            state: self.state,
            generation: self.generation.get(),
            level,
            threshold: self.settings.failure_rate_threshold,
            trial,
            trial_upper: f64::NAN,
            trial_lower: f64::NAN,
            wait: self.wait,
            rate: slow,
            count: t.calls as f64,
        }
    }

    fn transitions(&self) -> &[Transition] {
        &self.transitions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Metrics::reached`] is the closed path's shortcut for [`Metrics::check`]: it says `true`
    /// exactly when `check` of the window says `Above`, below the minimum, at the thresholds'
    /// edges and with failures or slow calls under their thresholds too. (A `reached` that said
    /// `true` more often would only cost time, as `check` decides: mutation testing let it by.)
    #[test]
    fn reached_says_exactly_what_check_says() {
        let mut rng = SplitMix64(3);
        let rates = [1e-9, 0.1, 0.25, 0.3, 0.5, 0.7, 1.0];
        let mut above = 0;
        for _ in 0..20_000 {
            let size = 1 + (rng.next_u64() % 12) as u32;
            let minimum = 1 + (rng.next_u64() % 12) as u32;
            let s = WindowSettings {
                failure_rate_threshold: rates[(rng.next_u64() % 7) as usize],
                slow_call_rate_threshold: rates[(rng.next_u64() % 7) as usize],
                ..WindowSettings::default()
            };
            let mut m = Metrics::count(size, minimum);
            for _ in 0..rng.next_u64() % 20 {
                let r = rng.next_u64();
                m.record(r & 3 == 0, r & 12 == 0, 0.0);
                let check = matches!(m.check(m.total, &s), Check::Above(_));
                above += usize::from(check);
                assert_eq!(m.reached(&s), check, "{m:?} {s:?}");
            }
        }
        assert!(above > 1_000, "{above}");
    }

    /// The conversion through `i64` gives `n as f64` exactly, rounding included, at every edge.
    #[test]
    fn counts_convert_as_u64_does() {
        let edges = [
            0,
            1,
            (1 << 53) + 1,
            (1 << 62) + 3,
            i64::MAX as u64,
            1 << 63,
            (1 << 63) + (1 << 11) + 1,
            u64::MAX,
        ];
        for n in edges {
            assert_eq!(to_f64(n).to_bits(), (n as f64).to_bits(), "{n}");
        }
    }

    /// The randomized wait's generator is splitmix64 as published (Vigna's `splitmix64.c`): a
    /// seed's waits are what makes a run repeatable, so they must not drift with a refactor.
    /// `next_f64` is the top 53 bits over 2^53.
    #[test]
    fn splitmix64_gives_the_published_outputs() {
        let mut g = SplitMix64(0);
        let first: [u64; 3] = std::array::from_fn(|_| g.next_u64());
        assert_eq!(
            first,
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
        let mut g = SplitMix64(1_234_567);
        let first: [u64; 5] = std::array::from_fn(|_| g.next_u64());
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
        let mut g = SplitMix64(1_234_567);
        assert_eq!(
            g.next_f64(),
            (6_457_827_717_110_365_317_u64 >> 11) as f64 / 9_007_199_254_740_992.0
        );
    }

    /// Each opening draws the generator's next `u` in [0, 1) and waits
    /// `base x (1 - f + 2 f u)`, then capped: `base` the attempt's exponential wait. Exact to
    /// rounding, first opening and every reopening, capped ones too.
    #[test]
    fn a_randomized_wait_is_the_next_draw_scaled_into_the_factor() {
        let s = WindowSettings {
            sliding_window_size: 1,
            minimum_number_of_calls: 1,
            permitted_number_of_calls_in_half_open_state: 1,
            wait_duration_in_open_state: 4.0,
            wait_interval_multiplier: 2.0,
            max_wait_duration_in_open_state: 20.0,
            wait_randomization_factor: 0.25,
            random_seed: 99,
            ..WindowSettings::default()
        };
        let mut b = Window::new(s).unwrap();
        let mut g = SplitMix64(99);
        let mut t = 0.0;
        let mut capped = 0;
        for attempt in 1..=6 {
            let p = match b.permit(t) {
                Decision::Admit(p) => p,
                d => panic!("{d:?} at {t}"),
            };
            b.record(&p, Outcome::ServerError, t);
            assert_eq!((b.state, b.attempt), (State::Open, attempt));
            let base = 4.0 * libm::pow(2.0, f64::from(attempt - 1));
            let u = g.next_f64();
            let expected = (base * (0.75 + 0.5 * u)).min(20.0);
            capped += usize::from(expected == 20.0);
            assert!(
                (b.wait() - expected).abs() <= 1e-12 * base,
                "attempt {attempt}: {} vs {expected} (u {u})",
                b.wait()
            );
            assert_eq!(b.open_until(), t + b.wait());
            t = b.open_until();
        }
        assert!(capped >= 2, "{capped}");
    }

    /// [`Probes`] answers as the ordered set it replaces: random half-opens of growing ids
    /// (starting near `u64::MAX`, so some wrap), answered in random order, some twice, with ids
    /// from earlier half-opens and never-issued ids mixed in; every `remove` and the count agree
    /// with a `BTreeSet` model. And the list never holds more than the documented
    /// `2 x in flight + 16` entries.
    #[test]
    fn probes_match_an_ordered_set() {
        use std::collections::BTreeSet;
        let mut rng = SplitMix64(11);
        let mut probes = Probes::default();
        let mut model = BTreeSet::new();
        let mut next = u64::MAX - 5_000;
        let mut earlier = Vec::new();
        let mut checked = 0;
        for _ in 0..400 {
            probes.clear();
            model.clear();
            let n = 1 + rng.next_u64() % 40;
            let mut ids = Vec::new();
            for _ in 0..n {
                next = next.wrapping_add(1 + rng.next_u64() % 3);
                probes.insert(next);
                model.insert(next);
                ids.push(next);
            }
            for _ in 0..2 * n {
                let id = match rng.next_u64() % 4 {
                    0 if !earlier.is_empty() => {
                        earlier[(rng.next_u64() % earlier.len() as u64) as usize]
                    }
                    1 => next.wrapping_add(1 + rng.next_u64() % 5),
                    _ => ids[(rng.next_u64() % n) as usize],
                };
                assert_eq!(probes.remove(id), model.remove(&id), "id {id}");
                assert_eq!(probes.in_flight as usize, model.len());
                assert!(
                    probes.issued.len() <= 2 * probes.in_flight as usize + 16,
                    "{} entries for {} in flight",
                    probes.issued.len(),
                    probes.in_flight
                );
                checked += 1;
            }
            earlier.extend(ids);
        }
        assert!(checked > 10_000);

        // One long half-open where every probe is answered (a neutral result frees its slot):
        // the list stays short however many probes pass through it.
        probes.clear();
        let mut longest = 0;
        for k in 0..1_000_000u64 {
            probes.insert(k);
            if k >= 5 {
                assert!(probes.remove(k - 5));
            }
            longest = longest.max(probes.issued.len());
        }
        assert_eq!(probes.in_flight, 5);
        assert!(longest <= 2 * 6 + 17, "{longest}");
        for k in 1_000_000 - 5..1_000_000 {
            assert!(probes.remove(k) && !probes.remove(k));
        }
        assert_eq!(probes.in_flight, 0);

        // 17 probes, all answered: the 17th answer leaves 17 entries for none in flight, more
        // than 2 x 0 + 16, so the list empties then (and not before: 17 <= 2 x 1 + 16).
        probes.clear();
        for k in 0..17 {
            probes.insert(k);
        }
        for k in 0..16 {
            assert!(probes.remove(k));
        }
        assert_eq!((probes.issued.len(), probes.in_flight), (17, 1));
        assert!(probes.remove(16));
        assert_eq!((probes.issued.len(), probes.in_flight), (0, 0));

        // At exactly the bound the list stays: 18 probes, 17 answered leave 18 entries for one
        // in flight, 18 = 2 x 1 + 16 (the bound is "at most"); the 18th answer empties it.
        for k in 100..118 {
            probes.insert(k);
        }
        for k in 100..117 {
            assert!(probes.remove(k));
        }
        assert_eq!((probes.issued.len(), probes.in_flight), (18, 1));
        assert!(probes.remove(117));
        assert_eq!((probes.issued.len(), probes.in_flight), (0, 0));
    }

    /// [`Breaker::record`]'s closed-state shortcut gives what the general path
    /// ([`Window::record_any`]) gives, in every state it meets: two copies driven by the same
    /// random calls (late and neutral results, last-option permits, `NaN` times, both window
    /// kinds, slow calls) stay identical, their results, transitions and observations too.
    #[test]
    fn the_closed_shortcut_records_as_the_general_path() {
        let mut rng = SplitMix64(7);
        for case in 0..200 {
            let mut s = WindowSettings {
                sliding_window_type: if case % 2 == 0 {
                    SlidingWindowType::CountBased
                } else {
                    SlidingWindowType::TimeBased
                },
                sliding_window_size: 1 + (rng.next_u64() % 12) as u32,
                minimum_number_of_calls: 1 + (rng.next_u64() % 8) as u32,
                failure_rate_threshold: [0.2, 0.5, 1.0][case % 3],
                slow_call_rate_threshold: [0.3, 1.0][case % 2],
                slow_call_duration_threshold: 0.5,
                wait_duration_in_open_state: 2.0,
                permitted_number_of_calls_in_half_open_state: 1 + (rng.next_u64() % 4) as u32,
                max_wait_duration_in_half_open_state: [0.0, 3.0][case % 2],
                ..WindowSettings::default()
            };
            if case % 4 == 1 {
                s.transition_to_state_after_wait_duration = AfterHalfOpenWait::Closed;
                s.automatic_transition_from_open_to_half_open_enabled = true;
            }
            let mut fast = Window::new(s).unwrap();
            let mut general = fast.clone();
            let mut held: Vec<Permit> = Vec::new();
            let mut now = 0.0;
            // Every third case moves the clock in steps of 0.25 s, so a call can take exactly
            // the slow-call threshold (0.5 s): "slower than" must stay strict.
            let grid = case % 3 == 2;
            for _ in 0..400 {
                now += if grid {
                    0.25 * (rng.next_u64() % 3) as f64
                } else {
                    rng.next_f64() * 0.4
                };
                let t = if rng.next_u64() % 50 == 0 {
                    f64::NAN
                } else {
                    now
                };
                match rng.next_u64() % 8 {
                    0..=2 => {
                        let (a, b) = (fast.permit(t), general.permit(t));
                        assert_eq!(format!("{a:?}"), format!("{b:?}"));
                        if let Decision::Admit(p) = a {
                            held.push(p);
                        }
                    }
                    3 => {
                        let (a, b) = (fast.permit_last_option(t), general.permit_last_option(t));
                        assert_eq!(format!("{a:?}"), format!("{b:?}"));
                        held.push(a);
                    }
                    4 => {
                        fast.poll(t);
                        general.poll(t);
                    }
                    _ if !held.is_empty() => {
                        let p = held.swap_remove((rng.next_u64() % held.len() as u64) as usize);
                        let o = Outcome::ALL[(rng.next_u64() % Outcome::ALL.len() as u64) as usize];
                        let a = fast.record(&p, o, t);
                        let b = general.record_any(&p, o, t);
                        assert_eq!(a, b, "case {case}");
                    }
                    _ => {}
                }
                assert_eq!(
                    format!("{:?}", fast.transitions()),
                    format!("{:?}", general.transitions())
                );
                assert_eq!(format!("{fast:?}"), format!("{general:?}"), "case {case}");
                // The windows' entries too (their `Debug` gives sizes only).
                assert_eq!(fast.metrics.total, general.metrics.total, "case {case}");
                match (&fast.metrics.ring, &general.metrics.ring) {
                    (
                        Ring::Count {
                            ring: a, oldest: x, ..
                        },
                        Ring::Count {
                            ring: b, oldest: y, ..
                        },
                    ) => assert_eq!((a, x), (b, y), "case {case}"),
                    (Ring::Time { buckets: a, .. }, Ring::Time { buckets: b, .. }) => {
                        assert_eq!(a, b, "case {case}")
                    }
                    _ => panic!("case {case}: windows of two kinds"),
                }
                // Both share the window code, so check it against a recount too: a count
                // window's totals are the sums of its ring's entries.
                if let Ring::Count { ring, .. } = &fast.metrics.ring {
                    let count = |bit: u8| ring.iter().filter(|&&b| b & bit != 0).count() as u64;
                    let t = fast.metrics.total;
                    assert_eq!(
                        (t.calls, t.failed, t.slow),
                        (ring.len() as u64, count(1), count(2)),
                        "case {case}"
                    );
                }
                assert_eq!(
                    format!("{:?}", fast.observe(now)),
                    format!("{:?}", general.observe(now))
                );
            }
        }
    }
}
