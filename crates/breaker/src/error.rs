//! Settings errors that name the field, the value and the allowed range.

use core::fmt;

/// An invalid setting: which field, what it was, what is allowed.
#[derive(Debug, Clone, PartialEq)]
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

/// `0 < v < 1`.
pub(crate) fn open_unit(field: &str, v: f64) -> Result<(), SettingsError> {
    if v.is_finite() && v > 0.0 && v < 1.0 {
        Ok(())
    } else {
        Err(SettingsError::new(field, v, "0 < x < 1"))
    }
}

/// `lo <= v <= hi`, finite.
pub(crate) fn within(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), SettingsError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(SettingsError::new(field, v, format!("{lo} <= x <= {hi}")))
    }
}

/// `v >= 0`, finite.
pub(crate) fn non_negative(field: &str, v: f64) -> Result<(), SettingsError> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(SettingsError::new(field, v, "a finite number >= 0"))
    }
}
