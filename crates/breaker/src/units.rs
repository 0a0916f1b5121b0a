//! Durations and rates as people write them: `200ms`, `5s`, `1m`, `1h`, `30d`; `0.05` or `5%`.
//!
//! The messages quote the text with [`Quoted`] rather than `{:?}`, and the text is split without
//! slicing (which could panic, and whose panic message formats a `char` with `{:?}`): both keep
//! Rust's Unicode tables out of the page's wasm (see [`crate::quote`]).

use crate::quote::Quoted;

/// Seconds from `"200ms"`, `"5s"`, `"1.5m"`, `"1h"`, `"30d"`, `"1w"` or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (num, unit) = t.split_at_checked(split).unwrap_or((t, ""));
    let value: f64 = num.trim().parse().map_err(|_| {
        format!(
            "{} is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d)",
            Quoted(s)
        )
    })?;
    let scale = match unit.trim() {
        "" | "s" | "sec" => 1.0,
        "ms" => 1e-3,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        "w" => 604_800.0,
        other => {
            return Err(format!(
                "unknown duration unit {} in {}: allowed ms, s, m, h, d, w",
                Quoted(other),
                Quoted(s)
            ))
        }
    };
    let v = value * scale;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("{} is not a finite duration", Quoted(s)))
    }
}

/// A fraction from `"0.05"` or `"5%"`.
pub fn parse_rate(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n, 0.01),
        None => (t, 1.0),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("{} is not a rate: use 0.05 or 5%", Quoted(s)))?;
    if v.is_finite() {
        Ok(v * scale)
    } else {
        Err(format!("{} is not a finite rate", Quoted(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("200ms").unwrap(), 0.2);
        assert_eq!(parse_duration("5s").unwrap(), 5.0);
        assert_eq!(parse_duration("1m").unwrap(), 60.0);
        assert_eq!(parse_duration("1h").unwrap(), 3600.0);
        assert_eq!(parse_duration("30d").unwrap(), 2_592_000.0);
        assert_eq!(parse_duration("12.5").unwrap(), 12.5);
        assert!(parse_duration("5 parsecs").is_err());
        assert!(parse_duration("abc").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("5%").unwrap(), 0.05);
        assert_eq!(parse_rate("0.05").unwrap(), 0.05);
        assert!(parse_rate("five").is_err());
    }
}

/// Serde helpers: a duration field accepts seconds (`5`) or a string with a unit (`"5s"`), a rate
/// field accepts a fraction (`0.05`) or a percentage string (`"5%"`).
#[cfg(feature = "serde")]
pub mod serde_units {
    use serde::{de, Deserialize, Deserializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumOrStr {
        Num(f64),
        Str(String),
    }

    /// Deserialize a duration in seconds.
    pub fn duration<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match NumOrStr::deserialize(d)? {
            NumOrStr::Num(v) => Ok(v),
            NumOrStr::Str(s) => super::parse_duration(&s).map_err(de::Error::custom),
        }
    }

    /// Deserialize a rate as a fraction.
    pub fn rate<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match NumOrStr::deserialize(d)? {
            NumOrStr::Num(v) => Ok(v),
            NumOrStr::Str(s) => super::parse_rate(&s).map_err(de::Error::custom),
        }
    }
}
