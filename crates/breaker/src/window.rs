//! The window breaker: failure rate (and slow-call rate) over a sliding window, with
//! resilience4j 2.x semantics. Each setting names its `CircuitBreakerConfig` counterpart.

use crate::error::{self, SettingsError};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// `slidingWindowType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum SlidingWindowType {
    /// `COUNT_BASED`: the last `sliding_window_size` calls.
    CountBased,
    /// `TIME_BASED`: the calls of the last `sliding_window_size` seconds (epoch-second buckets).
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
    Open,
    /// `CLOSED`.
    Closed,
}

/// Settings of the window breaker; names are resilience4j's `CircuitBreakerConfig` in snake_case.
/// Durations in seconds, rates as fractions (resilience4j takes percentages: 50.0 here is 0.5).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct WindowSettings {
    /// `slidingWindowType`. Default count based.
    pub sliding_window_type: SlidingWindowType,
    /// `slidingWindowSize`: calls (count based) or seconds (time based). Default 100.
    pub sliding_window_size: u32,
    /// `minimumNumberOfCalls`: no rate is computed below this. Default 100. For a count window it
    /// is capped at the window size, as resilience4j does (silently there; reported here by
    /// [`WindowSettings::effective_minimum_number_of_calls`]).
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
    /// `slowCallDurationThreshold`: a call is slow when it takes strictly longer. Default 60 s.
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
    pub wait_interval_multiplier: f64,
    /// The cap of the exponential wait (`maxWaitInterval` of the interval function); 0 = no cap.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub max_wait_duration_in_open_state: f64,
    /// The `randomizationFactor` of a randomized wait: drawn uniformly within +-factor of the
    /// computed wait (0 = off), from a deterministic generator seeded by `random_seed`.
    pub wait_randomization_factor: f64,
    /// Seed of the randomized wait's generator (not a resilience4j setting; keeps runs repeatable).
    pub random_seed: u64,
    /// `permittedNumberOfCallsInHalfOpenState`. Default 10.
    pub permitted_number_of_calls_in_half_open_state: u32,
    /// `maxWaitDurationInHalfOpenState`: 0 = wait for all probes forever. Default 0.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "crate::units::serde_units::duration")
    )]
    pub max_wait_duration_in_half_open_state: f64,
    /// `transitionToStateAfterWaitDuration`: where half-open goes when its max wait runs out.
    pub transition_to_state_after_wait_duration: AfterHalfOpenWait,
    /// `automaticTransitionFromOpenToHalfOpenEnabled`: move to half-open when the wait ends rather
    /// than on the first call after it. Default false.
    pub automatic_transition_from_open_to_half_open_enabled: bool,
}

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
    pub fn validate(&self) -> Result<(), SettingsError> {
        let n = |field: &str, v: u32, lo: u32, hi: u32| {
            if v >= lo && v <= hi {
                Ok(())
            } else {
                Err(SettingsError::new(field, v, format!("{lo} <= x <= {hi}")))
            }
        };
        n(
            "sliding_window_size",
            self.sliding_window_size,
            1,
            1_000_000,
        )?;
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
                Err(SettingsError::new(field, v, "0 < x <= 1 (0% < x <= 100%)"))
            }
        };
        rate("failure_rate_threshold", self.failure_rate_threshold)?;
        rate("slow_call_rate_threshold", self.slow_call_rate_threshold)?;
        error::within(
            "slow_call_duration_threshold",
            self.slow_call_duration_threshold,
            0.0,
            1e9,
        )?;
        error::within(
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
        error::within(
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
                self.max_wait_duration_in_open_state,
                format!(
                    "0 (no cap) or >= wait_duration_in_open_state ({})",
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
                self.wait_randomization_factor,
                "0 <= x < 1",
            ));
        }
        n(
            "permitted_number_of_calls_in_half_open_state",
            self.permitted_number_of_calls_in_half_open_state,
            1,
            1_000_000,
        )?;
        error::non_negative(
            "max_wait_duration_in_half_open_state",
            self.max_wait_duration_in_half_open_state,
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

/// The window breaker. (Implementation follows in its own change.)
#[derive(Debug, Clone)]
pub struct Window {
    settings: WindowSettings,
}

impl Window {
    /// A closed window breaker. Invalid settings give an error naming the field.
    pub fn new(settings: WindowSettings) -> Result<Self, SettingsError> {
        settings.validate()?;
        Ok(Window { settings })
    }

    /// The settings.
    pub fn settings(&self) -> &WindowSettings {
        &self.settings
    }
}
