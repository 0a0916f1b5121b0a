//! What happened to a call, and whether it says the service is failing: a failure of the
//! service counts against it, a success for it, and a fault of the caller (bad input, its own
//! rate limit) neither way. [`Outcome`]'s variants say which is which; [`Outcome::class`]
//! gives the class.

use core::fmt;
use core::str::FromStr;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The outcome of one call, as the caller saw it.
///
/// Non-exhaustive: a new kind of outcome may be added in a minor version (with its
/// [`Outcome::class`]), so a `match` needs a `_` arm.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Outcome {
    /// The call succeeded (2xx, 3xx).
    Success,
    /// No answer within the call timeout (or 408).
    Timeout,
    /// The connection was refused or reset.
    Refused,
    /// A 5xx from the service.
    ServerError,
    /// The service shed the call because it is over capacity (e.g. 503 while warming up).
    Overload,
    /// A 429 from the service itself (the service is saturated).
    ServiceRateLimited,
    /// The service rejected our own key or account (401/403 on our credentials).
    AuthRejected,
    /// The call's own input was rejected (other 4xx): says nothing about the service.
    InputRejected,
    /// A user's own rate limit (a quota of theirs, not the service's health).
    UserRateLimited,
}

/// How an outcome counts: the three ways a result can move a breaker (exhaustive: there are no
/// others).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// A success: pulls the score down.
    Success,
    /// A failure that means the service is failing: pushes the score up.
    Failure,
    /// Moves nothing.
    Neutral,
}

impl Outcome {
    /// All outcomes, in declaration order. A slice, not an array, so that adding an outcome does
    /// not change its type.
    pub const ALL: &'static [Outcome] = &[
        Outcome::Success,
        Outcome::Timeout,
        Outcome::Refused,
        Outcome::ServerError,
        Outcome::Overload,
        Outcome::ServiceRateLimited,
        Outcome::AuthRejected,
        Outcome::InputRejected,
        Outcome::UserRateLimited,
    ];

    /// Whether this outcome counts as a success, a failure, or not at all.
    pub fn class(self) -> Class {
        match self {
            Outcome::Success => Class::Success,
            Outcome::Timeout
            | Outcome::Refused
            | Outcome::ServerError
            | Outcome::Overload
            | Outcome::ServiceRateLimited
            | Outcome::AuthRejected => Class::Failure,
            Outcome::InputRejected | Outcome::UserRateLimited => Class::Neutral,
        }
    }

    /// Classify an HTTP status. 401/403 are taken to be the service rejecting our own
    /// credentials (a failure); callers who know a 403 is about the user's input should report
    /// [`Outcome::InputRejected`] instead. 408 counts as a timeout, 429 as the service's own limit.
    /// A number that is no HTTP status (below 100, above 599) is a [`Outcome::ServerError`]:
    /// the service answered with something it should not have.
    pub fn from_http_status(status: u16) -> Outcome {
        match status {
            100..=399 => Outcome::Success,
            401 | 403 => Outcome::AuthRejected,
            408 => Outcome::Timeout,
            429 => Outcome::ServiceRateLimited,
            503 => Outcome::Overload,
            400..=499 => Outcome::InputRejected,
            _ => Outcome::ServerError,
        }
    }

    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Timeout => "timeout",
            Outcome::Refused => "refused",
            Outcome::ServerError => "server_error",
            Outcome::Overload => "overload",
            Outcome::ServiceRateLimited => "service_rate_limited",
            Outcome::AuthRejected => "auth_rejected",
            Outcome::InputRejected => "input_rejected",
            Outcome::UserRateLimited => "user_rate_limited",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text [`Outcome::from_str`](FromStr::from_str) does not read; its message says what is
/// allowed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParseOutcomeError {
    message: String,
}

impl fmt::Display for ParseOutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseOutcomeError {}

impl FromStr for Outcome {
    type Err = ParseOutcomeError;

    /// A snake_case name (`timeout`, `server_error`, ...), `ok`/`fail` shorthands, or an HTTP
    /// status code (`200`, `503`, ...).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Outcome::parse(s).map_err(|message| ParseOutcomeError { message })
    }
}

/// [`Outcome::ALL`]'s names, as a refusal lists them (written out: built at run time, the list
/// took a few hundred bytes of the page's wasm; a test keeps the two the same).
const NAMES: &str = "success, timeout, refused, server_error, overload, service_rate_limited, \
                     auth_rejected, input_rejected, user_rate_limited";

impl Outcome {
    fn parse(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if let Ok(code) = t.parse::<u16>() {
            if (100..=599).contains(&code) {
                return Ok(Outcome::from_http_status(code));
            }
        }
        // A number past u16 too (it was told the outcome names, success among them).
        let digits = t.strip_prefix('+').unwrap_or(t);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "HTTP status {} is out of range: allowed 100 <= x <= 599",
                crate::quote::Clipped(t)
            ));
        }
        let lower = t.to_ascii_lowercase();
        match lower.as_str() {
            "ok" => return Ok(Outcome::Success),
            "fail" | "failure" => return Ok(Outcome::ServerError),
            _ => {}
        }
        Outcome::ALL
            .iter()
            .copied()
            .find(|o| o.as_str() == lower)
            .ok_or_else(|| {
                format!(
                    "unknown outcome {}: allowed {NAMES}, ok, fail, or an HTTP status",
                    crate::quote::Quoted(t),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal's list is every outcome's name, in order: an outcome added to [`Outcome::ALL`]
    /// must be added to [`NAMES`].
    #[test]
    fn the_names_listed_are_all_the_outcomes() {
        let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
        assert_eq!(NAMES, names.join(", "));
    }
}
