//! The statistical breaker: SPRT kept running as a CUSUM while closed, Wald's test in half-open.
//!
//! Closed: `score = max(0, score + w)` per counted result; open when `score >= line` (a tie to
//! rounding included: [`crate::score::reach`]), where
//! `line = max(ln N, floor)`, `floor = max(A, w_fail + |w_ok|)`, and `N` is the number of calls expected in the false-alarm period at the
//! current traffic (see [`crate::line`]). Open: reject for a capped exponential wait; the first
//! call asked for at or after its end ([`Breaker::permit`] or [`Breaker::permit_last_option`])
//! becomes the first trial (lazy: a poll leaves the breaker open). Half-open: one trial at a time on a fresh
//! score without floor, open again at `A`, close at `B`; a trial not answered within the call
//! timeout is lost; half-open lasts at most `half_open_time_factor x trials-to-close / rate`, then
//! closes if the trial score is below 0 and opens again otherwise. That change is dated at the
//! limit's end also when the next call or result applies it (nothing need poll): its
//! transition's `at` is the deadline and a new wait is timed from there, as a poll at
//! [`Breaker::next_deadline`] would have it.
//!
//! The score counts calls and keeps its evidence through a quiet spell, while the line follows
//! the traffic down: a score built before a quiet night (a burst of failures that fell just short
//! of the day's line) can reach the night's lower line at the next counted result, a success
//! included, since the line is compared after every counted result: no call in the quiet
//! spell said the service had recovered.
//!
//! A result that moves nothing says why ([`Ignored`]); where more than one reason applies, the
//! first of these: a last-option permit (given while calls were rejected) is
//! [`Ignored::LastOption`], whatever its generation; a
//! permit of an earlier generation is [`Ignored::Stale`]; a neutral outcome is
//! [`Ignored::Neutral`] (it frees the trial slot if its permit holds it), also for a trial already
//! lost or reported; a trial whose slot is no longer its own is [`Ignored::Lost`].
//!
//! A `now` that is not finite (`NaN`, an infinity: a broken clock) is read as the latest finite
//! `now` given before it (at first: 0, or the time given to [`Statistical::starting_at`]), as
//! the window breaker does: one bad reading must not poison the traffic meter, end an open wait
//! or start a trial that is never lost.

use crate::backoff::Backoff;
use crate::error::{self, SettingsError};
use crate::generation::Generation;
use crate::latest::Latest;
use crate::line;
use crate::outcome::{Class, Outcome};
use crate::score::{reach, Score, Weights};
use crate::traffic::Traffic;
use crate::trial::{Trial, Verdict, WaldLines};
use crate::types::*;
use crate::Breaker;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Settings of the statistical breaker. Durations are in seconds; rates are fractions.
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
pub struct StatisticalSettings {
    /// p0, the fine failure rate: a rate we can live with. Default 5%.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::rate")
    )]
    pub fine_rate: f64,
    /// p1, the broken failure rate: a rate worth skipping; > p0. Default 20%.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::rate")
    )]
    pub broken_rate: f64,
    /// The false-alarm target: on average at most one false alarm per this period while the
    /// service fails at p0 at steady traffic (Lorden's bound on the mean time to a false alarm,
    /// not a promise for every period). Default 30 days.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub false_alarm_period: f64,
    /// a: the chance the half-open test keeps out a recovered service, as Wald's approximation
    /// sets the lines from it (the exact chance at given rates: `breaker analyze trials`).
    /// Default 1%.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::rate")
    )]
    pub trial_wrongly_opens: f64,
    /// b: the chance the half-open test lets a broken service back, as Wald's approximation sets
    /// the lines from it (exact: `breaker analyze trials`). Default 5%.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::rate")
    )]
    pub trial_wrongly_closes: f64,
    /// tau, the traffic meter's time constant. Default 1 h.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub traffic_time_constant: f64,
    /// The first open-state wait. Default 1 min.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub first_wait: f64,
    /// The cap on the open-state wait. Default 10 min.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub wait_cap: f64,
    /// The wait multiplier after failed trials. Default 2.
    pub backoff_factor: f64,
    /// Half-open lasts at most this many times (trials to close from 0) / current rate: the
    /// rate when half-open begins, counting the call that begins it. Default 3.
    ///
    /// The limit counts calls, not their latency, and trials go one at a time: once a trial's
    /// answer takes longer than about `(half_open_time_factor - 1) / rate` (20 ms at 100 calls/s
    /// with the default), the limit comes before the trials that close from 0 can, and half-open
    /// often ends at it, closing if the trial score is below 0 (one success is enough): a
    /// still-broken service is let back more often than `trial_wrongly_closes`, and far more
    /// often as the latency grows. Once a trial takes longer than the whole limit, no trial is
    /// answered within it: every half-open ends at the limit with the trial score at 0 and opens
    /// again, and the breaker never closes while the rate holds, even for a recovered service
    /// (the calls it rejects count as traffic, so the rate does hold): with the defaults at 100
    /// calls/s the limit is 0.54 s, and a service answering in 0.6 s is kept out for good. Set
    /// it so that the limit exceeds trials to close × (the trial's latency + 1 / rate), that is
    /// above `1 + latency × rate`, with `rate` every call asked for, rejected ones included (6
    /// for 50 ms at 100 calls/s; the README's example takes 30 for 2.5 s at 10 calls/s); the
    /// page's derived numbers show both and warn. A trial's result recorded at the limit's time
    /// exactly comes after it: half-open has ended, and the result is stale.
    pub half_open_time_factor: f64,
    /// A trial not answered within this time is lost: its slot goes to the next call and the
    /// score does not move (a caller that died mid-trial cannot hold half-open). A result
    /// reported at this time exactly still counts, if it is the first thing the breaker hears at
    /// that instant: the slot is free from this time on (it is the trial's
    /// [`Breaker::next_deadline`]), so a call asked for, or a poll, at the same time before the
    /// result frees it, and the result is then lost. Set it a little above the call's own timeout
    /// (the example uses 50 ms for a 20 ms client timeout): a timeout is reported a moment after
    /// it fires, and must arrive in time to count as the failure it is; otherwise a hanging
    /// service's trials are lost, not failed, and only its answered trials move the score.
    /// (The simulator reports a hung call at exactly its `callers.call_timeout`, so a trial's
    /// timeout counts there when this is equal to it, as in its presets but `late-results`,
    /// which sets 10 s here against the callers' 60 s: its hung trials are lost, not failed.)
    /// Default 30 s.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub call_timeout: f64,
    /// Traffic assumed at start, calls per minute (0 = a cold meter). Default 0.
    pub expected_calls_per_minute: f64,
}

#[cfg(feature = "serde")]
crate::object_only_serde!(StatisticalSettings);

impl Default for StatisticalSettings {
    fn default() -> Self {
        StatisticalSettings {
            fine_rate: 0.05,
            broken_rate: 0.20,
            false_alarm_period: 30.0 * 86_400.0,
            trial_wrongly_opens: 0.01,
            trial_wrongly_closes: 0.05,
            traffic_time_constant: 3600.0,
            first_wait: 60.0,
            wait_cap: 600.0,
            backoff_factor: 2.0,
            half_open_time_factor: 3.0,
            call_timeout: 30.0,
            expected_calls_per_minute: 0.0,
        }
    }
}

impl StatisticalSettings {
    /// Check every field; the error names the field, its value and the allowed range.
    ///
    /// # Errors
    ///
    /// A [`SettingsError`] for the first field out of its range, or in conflict with another
    /// (such as `broken_rate` not above `fine_rate`), naming it, its value and what is allowed.
    pub fn validate(&self) -> Result<(), SettingsError> {
        error::open_unit("fine_rate", self.fine_rate)?;
        error::open_unit("broken_rate", self.broken_rate)?;
        if self.broken_rate <= self.fine_rate {
            return Err(SettingsError::new(
                "broken_rate",
                error::Num(self.broken_rate),
                format!("fine_rate ({}) < x < 1", error::Num(self.fine_rate)),
            ));
        }
        // Otherwise a success weighs ln(1) = 0: no trial score could go below 0 to close.
        if 1.0 - self.broken_rate >= 1.0 - self.fine_rate {
            return Err(SettingsError::new(
                "broken_rate",
                error::Num(self.broken_rate),
                format!(
                    "fine_rate ({}) < x < 1 with 1 - x < 1 - fine_rate in f64 (a success must weigh something)",
                    error::Num(self.fine_rate)
                ),
            ));
        }
        error::seconds("false_alarm_period", self.false_alarm_period, 1e-3, 1e12)?;
        error::open_unit("trial_wrongly_opens", self.trial_wrongly_opens)?;
        error::open_unit("trial_wrongly_closes", self.trial_wrongly_closes)?;
        if self.trial_wrongly_opens + self.trial_wrongly_closes >= 1.0 {
            return Err(SettingsError::new(
                "trial_wrongly_closes",
                error::Num(self.trial_wrongly_closes),
                // The other field's value as given: `1 - a` worked out in `f64` is not the
                // bound `a + b < 1` checks (0.7 gave 0.30000000000000004, which 0.3 is below).
                format!(
                    "0 < x < 1 - trial_wrongly_opens (trial_wrongly_opens = {})",
                    error::Num(self.trial_wrongly_opens)
                ),
            ));
        }
        error::seconds(
            "traffic_time_constant",
            self.traffic_time_constant,
            1e-3,
            1e9,
        )?;
        error::seconds("first_wait", self.first_wait, 1e-3, 1e9)?;
        if !(self.wait_cap.is_finite() && self.wait_cap >= self.first_wait && self.wait_cap <= 1e9)
        {
            return Err(SettingsError::new(
                "wait_cap",
                error::Num(self.wait_cap),
                format!("first_wait ({}) <= x <= 1e9 seconds", self.first_wait),
            ));
        }
        error::within("backoff_factor", self.backoff_factor, 1.0, 1000.0)?;
        error::within(
            "half_open_time_factor",
            self.half_open_time_factor,
            1e-3,
            1e6,
        )?;
        error::seconds("call_timeout", self.call_timeout, 1e-3, 1e9)?;
        error::within(
            "expected_calls_per_minute",
            self.expected_calls_per_minute,
            0.0,
            1e9,
        )?;
        Ok(())
    }

    /// The numbers derived from these settings (unchecked: call [`Self::validate`] first).
    pub fn derived(&self) -> Derived {
        let weights = Weights::new(self.fine_rate, self.broken_rate);
        let wald = WaldLines::new(self.trial_wrongly_opens, self.trial_wrongly_closes);
        let compared = wald.reached(&weights);
        Derived {
            weights,
            point: weights.point(),
            upper: wald.upper,
            lower: wald.lower,
            trials_to_close: libm::ceil(compared.lower / weights.ok) as u64,
            trials_to_open: libm::ceil(compared.upper / weights.fail) as u64,
            zero_drift_rate: weights.zero_drift_rate(),
            line_floor: line::floor(weights, wald),
        }
    }
}

/// Numbers derived from the settings, for display and teaching.
///
/// Non-exhaustive: read its fields; [`StatisticalSettings::derived`] makes it (a number may be
/// added in a minor version).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Derived {
    /// `w_fail = ln(p1/p0)` and `w_ok = ln((1-p1)/(1-p0))`.
    pub weights: Weights,
    /// One point = `|w_ok|` nats (display only).
    pub point: f64,
    /// Wald's upper line `A = ln((1-b)/a)`: half-open opens again at or above.
    pub upper: f64,
    /// Wald's lower line `B = ln(b/(1-a))`: half-open closes at or below.
    pub lower: f64,
    /// Successes in a row that close from a trial score of 0: `ceil(B / w_ok)` (a tie to
    /// rounding counted as reaching `B`: [`score::reach`](crate::score::reach)).
    pub trials_to_close: u64,
    /// Failures in a row that open again from 0: `ceil(A / w_fail)` (a tie to rounding counted
    /// as reaching `A`).
    pub trials_to_open: u64,
    /// The failure rate where the expected score change is zero: `-w_ok / (w_fail - w_ok)`.
    pub zero_drift_rate: f64,
    /// The closed line's floor for cold starts: `max(A, w_fail + |w_ok|)` ([`line::floor`]).
    pub line_floor: f64,
}

impl Derived {
    /// The closed line at `rate` calls/s for a false-alarm period of `period` seconds:
    /// `max(ln(rate x period), line_floor)` nats (Lorden 1971: a line of `ln N` keeps, on average,
    /// at least `N` calls between false alarms).
    pub fn line(&self, rate: f64, period: f64) -> f64 {
        line::line(rate, period, self.line_floor)
    }
}

/// The statistical breaker.
#[derive(Debug, Clone)]
pub struct Statistical {
    settings: StatisticalSettings,
    derived: Derived,
    /// `reach(line_floor)`: a closed score below it cannot reach the line (kept, not computed
    /// per result: the check runs on every counted result).
    floor_reach: f64,
    state: State,
    generation: Generation,
    score: Score,
    traffic: Traffic,
    trial: Trial,
    backoff: Backoff,
    open_until: f64,
    half_open_until: f64,
    half_open_limit: f64,
    /// When the last transition was dated (`-inf` before any): none is dated before it.
    changed_at: f64,
    next_id: u64,
    /// The latest finite `now` given (the start, at first): what a non-finite `now` is read as.
    last_now: Latest,
    transitions: Vec<Transition>,
}

/// `Statistical::new(StatisticalSettings::default())`, which the default settings pass.
impl Default for Statistical {
    fn default() -> Self {
        Self::new(StatisticalSettings::default()).expect("the default settings are valid")
    }
}

impl Statistical {
    /// A closed breaker whose traffic meter starts at the first call asked for (the `now` of
    /// the first [`Breaker::permit`] or [`Breaker::permit_last_option`]; read as 0 if not
    /// finite): the traffic assumed by `expected_calls_per_minute` holds from the first call,
    /// whatever the clock's zero (seconds since the process started, since the epoch, ...).
    /// Invalid settings give an error naming the field.
    ///
    /// # Errors
    ///
    /// A [`SettingsError`] from [`StatisticalSettings::validate`].
    pub fn new(settings: StatisticalSettings) -> Result<Self, SettingsError> {
        Self::build(settings, 0.0, f64::NAN)
    }

    /// A closed breaker whose traffic meter starts at `now` (read as 0 if not finite): the
    /// assumed traffic decays from then until the first call, as if no call had come. (The
    /// simulator starts its breakers at time 0, before its first call.)
    ///
    /// # Errors
    ///
    /// A [`SettingsError`] from [`StatisticalSettings::validate`].
    pub fn starting_at(settings: StatisticalSettings, now: f64) -> Result<Self, SettingsError> {
        let now = Latest::starting_at(now).read(now);
        Self::build(settings, now, now)
    }

    /// A breaker whose non-finite times read as `start` until a finite one is given, and whose
    /// meter starts at `meter_start` (`NaN`: at the first call).
    fn build(
        settings: StatisticalSettings,
        start: f64,
        meter_start: f64,
    ) -> Result<Self, SettingsError> {
        settings.validate()?;
        let last_now = Latest::starting_at(start);
        let derived = settings.derived();
        Ok(Statistical {
            traffic: Traffic::new(
                settings.traffic_time_constant,
                settings.expected_calls_per_minute / 60.0,
                meter_start,
            ),
            backoff: Backoff::new(
                settings.first_wait,
                settings.wait_cap,
                settings.backoff_factor,
            ),
            floor_reach: reach(derived.line_floor, &derived.weights),
            derived,
            settings,
            state: State::Closed,
            generation: Generation::default(),
            score: Score::default(),
            trial: Trial::default(),
            open_until: f64::NEG_INFINITY,
            half_open_until: f64::INFINITY,
            half_open_limit: f64::INFINITY,
            changed_at: f64::NEG_INFINITY,
            next_id: crate::ids::base(),
            last_now,
            transitions: Vec::with_capacity(2),
        })
    }

    /// The settings.
    pub fn settings(&self) -> &StatisticalSettings {
        &self.settings
    }

    /// The derived numbers.
    pub fn derived(&self) -> &Derived {
        &self.derived
    }

    /// The closed CUSUM score (nats). Open and half-open hold it as it was when the breaker
    /// opened, unused (results while open move nothing; trials move the trial score), and the
    /// next close restarts it from 0; [`Observation::level`](crate::Observation::level) is `NaN`
    /// then.
    pub fn score(&self) -> f64 {
        self.score.value()
    }

    /// The trial score (nats; 0 outside half-open).
    pub fn trial_score(&self) -> f64 {
        self.trial.score()
    }

    /// The closed line at `now`: `max(ln(rate(now) x false_alarm_period), line_floor)` nats
    /// (see [`Derived::line`]).
    pub fn line(&self, now: f64) -> f64 {
        self.derived
            .line(self.rate(now), self.settings.false_alarm_period)
    }

    /// The traffic estimate at `now`: the meter's decayed count over its time constant,
    /// `count / tau` calls/s (see [`crate::traffic`]).
    pub fn rate(&self, now: f64) -> f64 {
        self.traffic.rate(self.last_now.read(now))
    }

    /// The open-state wait in force, or the next one when closed (seconds).
    pub fn wait(&self) -> f64 {
        self.backoff.current()
    }

    /// When the current (or last) open wait ends: `-inf` before the first opening (the window
    /// breaker's [`Window::open_until`](crate::Window::open_until) says `NaN` there).
    pub fn open_until(&self) -> f64 {
        self.open_until
    }

    /// Whether a trial is in flight.
    pub fn trial_in_flight(&self) -> bool {
        self.trial.in_flight().is_some()
    }

    fn id(&mut self) -> u64 {
        self.next_id = self.next_id.wrapping_add(1);
        self.next_id
    }

    fn go(&mut self, to: State, now: f64, reason: Reason) {
        // Never before the last change, as the window breaker keeps it: a `Shared` caller reads
        // the time before its lock, and its trial, failed 0.1 s before another caller's call
        // began half-open, dated the reopening before half-open and timed the wait from then.
        let now = if now < self.changed_at {
            self.changed_at
        } else {
            now
        };
        self.changed_at = now;
        let from = self.state;
        self.state = to;
        let generation = self.generation.bump();
        match to {
            State::Closed => {
                self.score.reset();
                self.trial.reset();
                self.backoff.reset();
            }
            State::Open => {
                self.trial.reset();
                let wait = if from == State::Closed {
                    self.backoff.start()
                } else {
                    self.backoff.grow()
                };
                self.open_until = now + wait;
            }
            State::HalfOpen => {
                self.trial.reset();
                let rate = self.traffic.rate(now);
                let limit = self.settings.half_open_time_factor
                    * self.derived.trials_to_close as f64
                    / rate;
                self.half_open_limit = if limit.is_finite() {
                    limit
                } else {
                    f64::INFINITY
                };
                self.half_open_until = now + self.half_open_limit;
            }
        }
        self.transitions.push(Transition {
            at: now,
            from,
            to,
            generation,
            reason,
        });
    }

    /// Time rules: lost trials and the half-open time limit.
    fn advance(&mut self, now: f64) {
        self.advance_answering(now, None);
    }

    /// [`Statistical::advance`] for the result of permit `answering`: if that is the trial in
    /// flight, its own result at its loss time exactly is in time (the call's own timeout,
    /// reported as it fires, when `call_timeout` is that timeout as its docs say), so the slot
    /// is kept for it; any other event at that time frees the slot first.
    #[inline]
    fn advance_answering(&mut self, now: f64, answering: Option<u64>) {
        if self.state == State::HalfOpen {
            match (answering, self.trial.in_flight()) {
                (Some(id), Some((held, lost_at))) if id == held && now == lost_at => {}
                _ => {
                    self.trial.expire(now);
                }
            }
            if now >= self.half_open_until {
                let trial = self.trial.score();
                let reason = Reason::HalfOpenTimeLimit {
                    trial,
                    limit: self.half_open_limit,
                };
                let to = if trial < 0.0 {
                    State::Closed
                } else {
                    State::Open
                };
                // At the deadline, also when a later call applies it: a poll there would have
                // made the same change, and the next wait is timed from it.
                self.go(to, self.half_open_until, reason);
            }
        }
    }

    fn permit_of(&mut self, kind: PermitKind, now: f64) -> Permit {
        Permit {
            generation: self.generation.get(),
            id: self.id(),
            issued_at: now,
            kind,
        }
    }
}

impl Breaker for Statistical {
    // Always inlined: with the non-finite `now` check it grew past the inliner's threshold, and
    // out of line it cost the simulator 58 instructions a call (callgrind, busy-service).
    #[inline(always)]
    fn permit(&mut self, now: f64) -> Decision {
        self.transitions.clear();
        let now = self.last_now.take(now);
        self.traffic.tick(now);
        self.advance(now);
        if self.state == State::Open {
            if now < self.open_until {
                return Decision::Reject(Rejection::Open {
                    until: self.open_until,
                });
            }
            let wait = self.backoff.current();
            self.go(State::HalfOpen, now, Reason::WaitElapsed { wait });
        }
        match self.state {
            State::Closed => Decision::Admit(self.permit_of(PermitKind::Normal, now)),
            State::HalfOpen => {
                if self.trial.in_flight().is_some() {
                    return Decision::Reject(Rejection::HalfOpenBusy);
                }
                let permit = self.permit_of(PermitKind::Trial, now);
                self.trial
                    .start(permit.id, now + self.settings.call_timeout);
                Decision::Admit(permit)
            }
            State::Open => unreachable!("handled above"),
        }
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

    fn record(&mut self, permit: &Permit, outcome: Outcome, now: f64) -> Recorded {
        self.transitions.clear();
        let now = self.last_now.take(now);
        self.advance_answering(now, Some(permit.id));
        if permit.kind == PermitKind::LastOption {
            return Recorded::Ignored(Ignored::LastOption);
        }
        if !self.generation.is_current(permit.generation) {
            return Recorded::Ignored(Ignored::Stale {
                permit: permit.generation,
                current: self.generation.get(),
            });
        }
        let failed = match outcome.class() {
            Class::Neutral => {
                if self.trial.holds(permit.id) {
                    self.trial.release();
                }
                return Recorded::Ignored(Ignored::Neutral);
            }
            Class::Failure => true,
            Class::Success => false,
        };
        let w = self.derived.weights.of(failed);
        match self.state {
            State::Closed => {
                let score = self.score.add(w);
                // The line is never below its floor, so a score under the floor cannot reach
                // it: skip the line's `exp` and `ln` then (most results, at a fine rate).
                if score >= self.floor_reach {
                    let line = self.line(now);
                    if score >= reach(line, &self.derived.weights) {
                        self.go(State::Open, now, Reason::ScoreReachedLine { score, line });
                    }
                }
                Recorded::Counted
            }
            State::HalfOpen => {
                if !self.trial.holds(permit.id) {
                    return Recorded::Ignored(Ignored::Lost);
                }
                let d = &self.derived;
                let lines = WaldLines {
                    upper: d.upper,
                    lower: d.lower,
                };
                match self.trial.add(w, &lines.reached(&d.weights)) {
                    Verdict::Continue => {}
                    Verdict::Open => {
                        let reason = Reason::TrialReachedUpper {
                            trial: self.trial.score(),
                            upper: self.derived.upper,
                        };
                        self.go(State::Open, now, reason);
                    }
                    Verdict::Close => {
                        let reason = Reason::TrialReachedLower {
                            trial: self.trial.score(),
                            lower: self.derived.lower,
                        };
                        self.go(State::Closed, now, reason);
                    }
                }
                Recorded::Counted
            }
            State::Open => Recorded::Ignored(Ignored::NoEffect),
        }
    }

    fn poll(&mut self, now: f64) {
        self.transitions.clear();
        let now = self.last_now.take(now);
        self.advance(now);
    }

    fn next_deadline(&self) -> Option<f64> {
        if self.state != State::HalfOpen {
            return None;
        }
        let lost = self
            .trial
            .in_flight()
            .map(|(_, t)| t)
            .unwrap_or(f64::INFINITY);
        let d = lost.min(self.half_open_until);
        d.is_finite().then_some(d)
    }

    fn state(&self) -> State {
        self.state
    }

    fn generation(&self) -> u64 {
        self.generation.get()
    }

    fn observe(&self, now: f64) -> Observation {
        let now = self.last_now.read(now);
        let half = self.state == State::HalfOpen;
        let rate = self.traffic.rate(now);
        Observation {
            state: self.state,
            generation: self.generation.get(),
            // The closed score applies only while closed: open and half-open hold it unused
            // (the trials have their own score) until a close restarts it from 0.
            level: if self.state == State::Closed {
                self.score.value()
            } else {
                f64::NAN
            },
            threshold: self.line(now),
            trial: if half { self.trial.score() } else { f64::NAN },
            trial_upper: self.derived.upper,
            trial_lower: self.derived.lower,
            wait: self.backoff.current(),
            rate,
            count: rate * self.settings.false_alarm_period,
        }
    }

    fn transitions(&self) -> &[Transition] {
        &self.transitions
    }
}
