//! Durations and rates as people write them: `200ms`, `5s`, `1m`, `1h`, `30d`; `0.05` or `5%`.
//!
//! The settings read these forms when deserialized; a service reading its own configuration
//! (an environment variable, a flag) can use the same parsers:
//!
//! ```
//! use breaker::units::{parse_duration, parse_rate};
//!
//! assert_eq!(parse_duration("200ms"), Ok(0.2));
//! assert_eq!(parse_rate("5%"), Ok(0.05));
//! let e = parse_duration("5 parsecs").unwrap_err();
//! assert_eq!(e.to_string(), r#"unknown duration unit "parsecs" in "5 parsecs": allowed ms, s, m, h, d, w"#);
//! ```
//!
//! They check the form only: the settings check each value against its field's range.

// The messages quote the text with `Quoted` rather than `{:?}`, and the text is split without
// slicing (which could panic, and whose panic message formats a `char` with `{:?}`): both keep
// Rust's Unicode tables out of the page's wasm (see `crate::quote`).

use std::fmt;

use crate::float_parse::parse_f64;
use crate::quote::Quoted;

/// Text [`parse_duration`] or [`parse_rate`] does not read; its message quotes the text and says
/// what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParseUnitError {
    message: String,
}

impl ParseUnitError {
    fn new(message: String) -> Self {
        ParseUnitError { message }
    }
}

impl fmt::Display for ParseUnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseUnitError {}

/// Seconds from `"200ms"`, `"5s"`, `"1.5m"`, `"1h"`, `"30d"`, `"1w"` or a bare number of seconds
/// (`"12.5"`, `"1e3"`); finite, and negative if written so (the caller checks the range). `sec`
/// and `min` are read as `s` and `m` (`"5sec"`, `"1.5 min"`); a space may stand between the
/// number and its unit.
///
/// # Errors
///
/// A [`ParseUnitError`] quoting the text when it is not a finite number with one of those
/// units.
pub fn parse_duration(s: &str) -> Result<f64, ParseUnitError> {
    let t = s.trim();
    // The unit is the letters at the end, so that the `e` of `1e3` stays in the number.
    let split = t.trim_end_matches(|c: char| c.is_ascii_alphabetic()).len();
    let (num, unit) = t.split_at_checked(split).unwrap_or((t, ""));
    let value = parse_f64(num.trim()).ok_or_else(|| {
        ParseUnitError::new(format!(
            "{} is not a duration: use seconds or a unit (200ms, 5s, 1m, 1h, 30d)",
            Quoted(s)
        ))
    })?;
    let scale = match unit.trim() {
        "" | "s" | "sec" => 1.0,
        "ms" => 1e-3,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        "w" => 604_800.0,
        other => {
            return Err(ParseUnitError::new(format!(
                "unknown duration unit {} in {}: allowed ms, s, m, h, d, w",
                Quoted(other),
                Quoted(s)
            )))
        }
    };
    let v = value * scale;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(ParseUnitError::new(format!(
            "{} is not a finite duration",
            Quoted(s)
        )))
    }
}

/// A fraction from `"0.05"` or `"5%"` (`"35%"` is 0.35 to the last bit, as `"0.35"` is); finite,
/// in any range (the caller checks it).
///
/// # Errors
///
/// A [`ParseUnitError`] quoting the text when it is not a finite number, with or without `%`.
pub fn parse_rate(s: &str) -> Result<f64, ParseUnitError> {
    let t = s.trim();
    let (num, scale) = match t.strip_suffix('%') {
        Some(n) => (n, 0.01),
        None => (t, 1.0),
    };
    let v = parse_f64(num.trim()).ok_or_else(|| {
        ParseUnitError::new(format!("{} is not a rate: use 0.05 or 5%", Quoted(s)))
    })?;
    if !v.is_finite() {
        Err(ParseUnitError::new(format!(
            "{} is not a finite rate",
            Quoted(s)
        )))
    } else if scale == 1.0 {
        Ok(v)
    } else {
        // "35%" is the fraction 0.35 to the last bit, as "0.35" is: the decimal read with its
        // point moved (correctly rounded once). `v * 0.01` gave 0.35000000000000003, so a window
        // of 20 at "35%" needed 8 failures where resilience4j (and "0.35") trips at 7. A number
        // that already has an exponent is divided by 100 (one more rounding at most).
        let n = num.trim();
        let shifted = if n.contains(['e', 'E']) {
            None
        } else {
            parse_f64(&format!("{n}e-2"))
        };
        Ok(shifted.unwrap_or(v / 100.0))
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

    /// A bare number of seconds is any number Rust reads, an exponent included; the unit is the
    /// letters at the end (before, the first letter began the unit, so the `e` of `1e3` did).
    #[test]
    fn numbers_with_an_exponent() {
        assert_eq!(parse_duration("1e3").unwrap(), 1000.0);
        assert_eq!(parse_duration("5e-05").unwrap(), 5e-5);
        assert_eq!(parse_duration("2.5E-1").unwrap(), 0.25);
        assert_eq!(parse_duration("1e3ms").unwrap(), 1.0);
        assert_eq!(parse_duration(" 1.5e1 min ").unwrap(), 900.0);
        assert_eq!(
            parse_duration("5e").unwrap_err().to_string(),
            "unknown duration unit \"e\" in \"5e\": allowed ms, s, m, h, d, w"
        );
        assert_eq!(
            parse_duration("1e400s").unwrap_err().to_string(),
            "\"1e400s\" is not a finite duration"
        );
        for s in ["inf", "NaN", "e3", "5s5"] {
            assert!(
                parse_duration(s)
                    .unwrap_err()
                    .to_string()
                    .contains("is not a duration"),
                "{s}"
            );
        }
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("5%").unwrap(), 0.05);
        assert_eq!(parse_rate("0.05").unwrap(), 0.05);
        assert!(parse_rate("five").is_err());
        // A percentage is its fraction to the last bit (35 * 0.01 is one ulp above 0.35).
        for pct in 0..=1000 {
            let frac: f64 = format!("{}.{:03}", pct / 1000, pct % 1000).parse().unwrap();
            assert_eq!(
                parse_rate(&format!("{}%", pct as f64 / 10.0)).unwrap(),
                frac,
                "{pct}"
            );
        }
        assert_eq!(parse_rate("35%").unwrap(), 0.35);
        assert_eq!(parse_rate("3.5e1%").unwrap(), 0.35);
        assert!(parse_rate("inf%").is_err());
    }
}

/// Serde helpers: a duration field accepts seconds (`5`) or a string with a unit (`"5s"`), a rate
/// field accepts a fraction (`0.05`) or a percentage string (`"5%"`).
///
/// Public only for the workspace's simulator and for `object_only_serde!`'s expansion; not part
/// of the API.
#[cfg(feature = "serde")]
#[doc(hidden)]
pub mod serde_units {
    use serde::{de, Deserialize, Deserializer};
    use std::fmt;

    /// A number or a string, for fields that were `#[serde(untagged)] enum NumOrStr { Num(..),
    /// Str(String) }`; anything else is [`NumOrStr::Other`], which the caller turns into
    /// [`no_match`], saying what the field takes.
    ///
    /// Written by hand: serde's untagged enums first buffer the whole value (its private
    /// `Content` type, with a visitor and a deserializer for every kind of value), about 4 KB
    /// of the page's wasm for what is here a choice between a number and a string. The number
    /// keeps the kind the data gave (`visit_u64`, `visit_i64`, `visit_f64`), so that each
    /// caller accepts exactly what its untagged `Num(f64)` or `Num(u64)` accepted. Reading never
    /// fails on well-formed data, and the caller's error comes after the whole value is read, as
    /// the untagged enum's did: `serde_json` then names the same position.
    #[derive(Debug, Clone, PartialEq)]
    pub enum NumOrStr {
        /// A non-negative whole number.
        U64(u64),
        /// A negative whole number.
        I64(i64),
        /// Any other number.
        F64(f64),
        /// A string.
        Str(String),
        /// Neither (`null`, a boolean, an array, an object, ...).
        Other,
    }

    impl NumOrStr {
        /// The number, as an untagged `Num(f64)` read it; `None` for a string or anything else.
        pub fn as_f64(&self) -> Option<f64> {
            match *self {
                NumOrStr::U64(n) => Some(n as f64),
                NumOrStr::I64(n) => Some(n as f64),
                NumOrStr::F64(x) => Some(x),
                NumOrStr::Str(_) | NumOrStr::Other => None,
            }
        }
    }

    /// What a rate field takes, for [`no_match`].
    pub const RATE: &str = "a fraction or a percentage (0.05 or \"5%\")";
    /// What a duration field takes, for [`no_match`].
    pub const DURATION: &str =
        "a number of seconds or a string with a unit (200ms, 5s, 1m, 1h, 30d)";

    /// The error for a value a field's `NumOrStr` cannot take: `allowed <what the field takes>`
    /// ([`RATE`], [`DURATION`]), the words the settings' range errors use. (The untagged enum
    /// this replaced said only "data did not match any variant of untagged enum NumOrStr".) The
    /// only deserializer message here that starts with `allowed `: callers that explain a
    /// mismatch further (with the field's range) look for that.
    pub fn no_match<E: de::Error>(allowed: &str) -> E {
        E::custom(format_args!("allowed {allowed}"))
    }

    impl<'de> Deserialize<'de> for NumOrStr {
        /// A human-readable format is asked for "any" value. Any other is asked for an `f64`,
        /// the form the fields are written in: a format that is not self-describing (postcard,
        /// bincode) has no "any" to give and reads that number; a self-describing one
        /// (MessagePack, CBOR) gives what it holds, "5s" as well.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            if d.is_human_readable() {
                d.deserialize_any(NumOrStrVisitor)
            } else {
                d.deserialize_f64(NumOrStrVisitor)
            }
        }
    }

    struct NumOrStrVisitor;

    impl<'de> de::Visitor<'de> for NumOrStrVisitor {
        type Value = NumOrStr;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number or a string")
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<NumOrStr, E> {
            Ok(NumOrStr::U64(v))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<NumOrStr, E> {
            Ok(match u64::try_from(v) {
                Ok(n) => NumOrStr::U64(n),
                Err(_) => NumOrStr::I64(v),
            })
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<NumOrStr, E> {
            Ok(NumOrStr::F64(v))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<NumOrStr, E> {
            Ok(NumOrStr::Str(v.to_owned()))
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<NumOrStr, E> {
            Ok(NumOrStr::Str(v))
        }

        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<NumOrStr, E> {
            match std::str::from_utf8(v) {
                Ok(s) => self.visit_str(s),
                Err(_) => Ok(NumOrStr::Other),
            }
        }

        // Everything else matched neither variant. (A `char` did not either: the untagged
        // `String` variant took strings and bytes only.)
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<NumOrStr, E> {
            Ok(NumOrStr::Other)
        }

        fn visit_char<E: de::Error>(self, _: char) -> Result<NumOrStr, E> {
            Ok(NumOrStr::Other)
        }

        fn visit_unit<E: de::Error>(self) -> Result<NumOrStr, E> {
            Ok(NumOrStr::Other)
        }

        fn visit_none<E: de::Error>(self) -> Result<NumOrStr, E> {
            Ok(NumOrStr::Other)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<NumOrStr, D::Error> {
            Read::deserialize(d)?;
            Ok(NumOrStr::Other)
        }

        fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<NumOrStr, D::Error> {
            Read::deserialize(d)?;
            Ok(NumOrStr::Other)
        }

        // The whole sequence or map is read, as the untagged enum did.
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<NumOrStr, A::Error> {
            ReadVisitor.visit_seq(seq)?;
            Ok(NumOrStr::Other)
        }

        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<NumOrStr, A::Error> {
            ReadVisitor.visit_map(map)?;
            Ok(NumOrStr::Other)
        }
    }

    /// A value read whole and dropped, every number and string in it parsed, as the untagged
    /// enum's buffering did: an invalid nested value (`[1e400]`) fails with its own error and
    /// position, as before. (`IgnoredAny` skips nested values without parsing them.)
    struct Read;

    impl<'de> Deserialize<'de> for Read {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(ReadVisitor)
        }
    }

    struct ReadVisitor;

    impl<'de> de::Visitor<'de> for ReadVisitor {
        type Value = Read;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any value")
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_none<E: de::Error>(self) -> Result<Read, E> {
            Ok(Read)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Read, D::Error> {
            Read::deserialize(d)
        }

        fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Read, D::Error> {
            Read::deserialize(d)
        }

        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Read, A::Error> {
            while seq.next_element::<Read>()?.is_some() {}
            Ok(Read)
        }

        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
            while map.next_entry::<Read, Read>()?.is_some() {}
            Ok(Read)
        }
    }

    /// A deserializer that reads a struct from an object only, in human-readable formats.
    ///
    /// serde's derived structs also accept a sequence, field by field in order, so
    /// `{"traffic": [60]}` would silently set `traffic.calls_per_minute` to 60. Settings are
    /// written by people, by name: a list where a struct belongs is refused ("invalid type:
    /// sequence, expected struct ..."). Binary formats, which write structs as tuples, read them
    /// as before. The format is still asked for a struct (so `#[serde(flatten)]`, which hands a
    /// struct only its own keys, and formats with a struct syntax of their own work as before);
    /// only the visitor's sequence path is closed. Used through
    /// [`object_only_serde!`](crate::object_only_serde).
    #[allow(missing_debug_implementations)] // a deserializer in passing, never printed
    pub struct ObjectOnly<D>(pub D);

    impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
        type Error = D::Error;

        fn deserialize_struct<V: de::Visitor<'de>>(
            self,
            name: &'static str,
            fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let human = self.0.is_human_readable();
            self.0
                .deserialize_struct(name, fields, NoSeq { visitor, human })
        }

        fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.deserialize_any(visitor)
        }

        fn is_human_readable(&self) -> bool {
            self.0.is_human_readable()
        }

        // A derived struct asks only for a struct; the rest are here for completeness.
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }

    /// A struct's visitor with its sequence path closed in human-readable formats
    /// ([`ObjectOnly`]).
    struct NoSeq<V> {
        visitor: V,
        human: bool,
    }

    impl<'de, V: de::Visitor<'de>> de::Visitor<'de> for NoSeq<V> {
        type Value = V::Value;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.visitor.expecting(f)
        }

        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
            self.visitor.visit_map(map)
        }

        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
            if self.human {
                Err(de::Error::invalid_type(de::Unexpected::Seq, &self))
            } else {
                self.visitor.visit_seq(seq)
            }
        }
    }

    /// Deserialize a duration in seconds.
    pub fn duration<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match NumOrStr::deserialize(d)? {
            NumOrStr::Str(s) => super::parse_duration(&s).map_err(de::Error::custom),
            n => n.as_f64().ok_or_else(|| no_match(DURATION)),
        }
    }

    /// Deserialize a rate as a fraction.
    pub fn rate<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match NumOrStr::deserialize(d)? {
            NumOrStr::Str(s) => super::parse_rate(&s).map_err(de::Error::custom),
            n => n.as_f64().ok_or_else(|| no_match(RATE)),
        }
    }
}
