//! Settings errors that name the field, the value and the allowed range: what `validate()` (run
//! by every `new`) refuses. A value that does not deserialize at all fails before: text a
//! duration or rate field cannot read (`"abc"` for a rate) with that field's own message (`"abc"
//! is not a rate: use 0.05 or 5%`); a string where a plain number belongs (`"2"` for
//! `backoff_factor`) with the format's own error and position (serde's words, e.g. `invalid
//! type: string "2", expected f64 at line 1 column 21`), which does not name the field.

use core::fmt;

/// An invalid setting: which field, what it was, what is allowed.
///
/// Non-exhaustive: read its fields; make one with [`SettingsError::new`] (a field may be added
/// in a minor version).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SettingsError {
    /// The field's name as it appears in the settings (snake_case, e.g. `broken_rate`).
    pub field: String,
    /// The offending value, as text.
    pub value: String,
    /// The allowed range or rule, e.g. `0 < x < 1`.
    pub allowed: String,
}

impl SettingsError {
    /// A new error for `field`.
    pub fn new(
        field: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }

    /// The same error with its field name prefixed, e.g. `statistical.` + `broken_rate`.
    #[must_use = "the error with the prefix is returned"]
    pub fn within(mut self, prefix: &str) -> Self {
        self.field = format!("{prefix}.{}", self.field);
        self
    }
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} is invalid: allowed {}",
            self.field, self.value, self.allowed
        )
    }
}

impl std::error::Error for SettingsError {}

// Public only for the workspace's simulator, whose messages write numbers the same way; not part
// of the API.
#[doc(hidden)]
/// A number as an error message shows it: as Rust prints it, except that very large or very
/// small magnitudes are written with an exponent (`1e308`, not 309 digits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.abs();
        if a.is_finite() && (a >= 1e16 || (a > 0.0 && a < 1e-9)) {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// `0 < v < 1`, and not subnormal (below `f64::MIN_POSITIVE`, 2.2e-308): a ratio of such a rate
/// overflows (`p1/p0`, `(1-b)/a`), so a log-likelihood ratio or a line would be infinite. A
/// subnormal rate's message says so, since it is inside `0 < x < 1`.
pub(crate) fn open_unit(field: &str, v: f64) -> Result<(), SettingsError> {
    if v.is_normal() && v > 0.0 && v < 1.0 {
        Ok(())
    } else if v > 0.0 && v < f64::MIN_POSITIVE {
        Err(SettingsError::new(
            field,
            Num(v),
            "0 < x < 1, at least 2.2250738585072014e-308 (a smaller rate is subnormal)",
        ))
    } else {
        Err(SettingsError::new(field, Num(v), "0 < x < 1"))
    }
}

/// A range's end as a message shows it: a power of ten from a million up as `1e9` (as the
/// simulator writes its limits), anything else as [`Num`] does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bound(pub f64);

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = format!("{:e}", self.0);
        match e.strip_prefix("1e").and_then(|k| k.parse::<u32>().ok()) {
            Some(k) if k >= 6 => write!(f, "1e{k}"),
            _ => Num(self.0).fmt(f),
        }
    }
}

/// `lo <= v <= hi`, finite.
pub(crate) fn within(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), SettingsError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(SettingsError::new(
            field,
            Num(v),
            format!("{} <= x <= {}", Bound(lo), Bound(hi)),
        ))
    }
}

/// [`within`] for a duration: the message says the range is in seconds.
pub(crate) fn seconds(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), SettingsError> {
    within(field, v, lo, hi).map_err(|mut e| {
        e.allowed.push_str(" seconds");
        e
    })
}

#[cfg(test)]
mod tests {
    use super::{open_unit, seconds, within, Bound, Num};

    #[test]
    fn messages_write_huge_and_tiny_numbers_with_an_exponent() {
        let e = seconds("period", 1e308, 1e-3, 1e12)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "period = 1e308 is invalid: allowed 0.001 <= x <= 1e12 seconds"
        );
        let e = within("factor", 0.5, 1.0, 1000.0).unwrap_err().to_string();
        assert_eq!(e, "factor = 0.5 is invalid: allowed 1 <= x <= 1000");
        let e = open_unit("rate", -1e-300).unwrap_err().to_string();
        assert_eq!(e, "rate = -1e-300 is invalid: allowed 0 < x < 1");
        let e = open_unit("rate", 1e-310).unwrap_err().to_string();
        assert_eq!(
            e,
            "rate = 1e-310 is invalid: allowed 0 < x < 1, at least 2.2250738585072014e-308 \
             (a smaller rate is subnormal)"
        );
        assert!(open_unit("rate", f64::MIN_POSITIVE).is_ok());
        // 0 is not subnormal: the plain range, without the subnormal note.
        for zero in [0.0, -0.0] {
            let e = open_unit("rate", zero).unwrap_err().to_string();
            assert_eq!(e, format!("rate = {zero} is invalid: allowed 0 < x < 1"));
        }
        // Ordinary numbers as before.
        assert_eq!(Num(1.5).to_string(), "1.5");
        assert_eq!(Num(1e15).to_string(), "1000000000000000");
        assert_eq!(Num(0.0001).to_string(), "0.0001");
        assert_eq!(Num(f64::NAN).to_string(), "NaN");
        assert_eq!(Num(f64::INFINITY).to_string(), "inf");
        // A range's end: powers of ten from a million up with an exponent, others as numbers.
        for (b, text) in [
            (1e6, "1e6"),
            (1e9, "1e9"),
            (1e12, "1e12"),
            (1e5, "100000"),
            (1000.0, "1000"),
            (1e-3, "0.001"),
            (0.0, "0"),
            (2e9, "2000000000"),
            (1.5e9, "1500000000"),
        ] {
            assert_eq!(Bound(b).to_string(), text, "{b}");
        }
    }
}
