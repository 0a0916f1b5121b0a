//! What a settings field allows, said when it refuses a value of the wrong kind.
//!
//! Serde's own words for a value a field's type refuses name the Rust type (`invalid value:
//! integer `-3`, expected u32`); the project's standard is `field = value is invalid: allowed
//! ...` with the kind of value and the range. [`explain`] finds both by trying values at the
//! field, through a probe that reads the settings with the trial value in place and validates
//! them. It knows nothing of how the settings are held: the CLI probes a `serde_json::Value`, the
//! page's wasm a JS object (so the wasm needs no `serde_json` and no second copy of every settings
//! type's deserializer, and both say the same words).

use breaker::SettingsError;

/// A value tried at the field to learn what it takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trial {
    /// A whole number (read as an integer, never as a float).
    Whole(u64),
    /// A number that is not whole, or too large to be read as an integer.
    Number(f64),
    /// A string.
    Text(&'static str),
    /// `true`.
    Flag,
    /// An empty object, `{}`.
    Object,
    /// A list of one empty object, `[{}]`.
    List,
}

/// What the settings are with a trial value at the field: `Err` with the deserializer's message
/// when they do not read, else their validation.
pub type Reading = Result<Result<(), SettingsError>, String>;

/// The message for the value at `path` that the settings refused with `error` (the
/// deserializer's message), when it is one of a type mismatch: `path = shown is invalid: allowed
/// <what>`. `None` for other errors (a custom message that already says what is allowed, an
/// unknown field) and for a field whose kind no trial finds.
///
/// `shown` is the value as the user wrote it, `given` the value when it is a number. `exact` is
/// the largest whole number the settings' representation holds exactly (`u64::MAX` in JSON text,
/// `2^53 - 1` in a JS number): the largest a count can be given as. `probe` reads the settings
/// with a [`Trial`] at the field.
///
/// * a count: `a whole number 1 <= x <= 1000`, the range [`crate::Scenario::validate`] (or the
///   settings' own validation) gives at the type's smallest or largest value, or the type's own
///   (`0 <= x <= 4294967295`) when both validate; a number that is whole and in range but spelt
///   as a float (`1e2`) gets a hint to write it as a whole number instead;
/// * a number: `a number 0 < x <= 1e7`, the range validation gives at `-f64::MAX` or
///   `f64::MAX`; a duration or a rate says the forms it also takes as a string;
/// * `true or false`, `a string`, `an object of settings`, `a list of objects`;
/// * otherwise (a name from a list) what the field's own message for an unknown name allows.
pub fn explain(
    path: &str,
    shown: &str,
    given: Option<f64>,
    error: &str,
    exact: u64,
    probe: &dyn Fn(Trial) -> Reading,
) -> Option<String> {
    let mismatch = error.starts_with("invalid type: ")
        || error.starts_with("invalid value: ")
        || error == breaker::units::serde_units::NO_MATCH;
    if !mismatch {
        return None;
    }
    let reads = |t: Trial| probe(t).is_ok();
    // The range validation gives at the first trial it refuses there.
    let range = |trials: [Trial; 2]| {
        trials.into_iter().find_map(|t| match probe(t) {
            Ok(Err(e)) if e.field == path => Some(e.allowed),
            _ => None,
        })
    };
    let fraction = reads(Trial::Number(0.5));
    let count_max = [exact, u64::from(u32::MAX)]
        .into_iter()
        .find(|&m| reads(Trial::Whole(m)));
    let allowed = match count_max {
        Some(max) if !fraction => {
            // A whole number in range, spelt as a float (1e2, 100.0): only the spelling is refused.
            if let Some(x) = given.filter(|x| x.fract() == 0.0 && (0.0..=max as f64).contains(x)) {
                let fits = match probe(Trial::Whole(x as u64)) {
                    Ok(Err(e)) => e.field != path,
                    Ok(Ok(())) => true,
                    Err(_) => false,
                };
                if fits {
                    return Some(format!(
                        "{path} = {shown} is invalid: a count is written as a whole number, \
                         without a fraction or exponent ({}, not {shown})",
                        x as u64
                    ));
                }
            }
            let r = range([Trial::Whole(0), Trial::Whole(max)])
                .unwrap_or_else(|| format!("0 <= x <= {max}"));
            format!("a whole number {r}")
        }
        _ if fraction => {
            let r = range([Trial::Number(-f64::MAX), Trial::Number(f64::MAX)]);
            let kind = if reads(Trial::Text("1s")) {
                "a number of seconds or a string with a unit (200ms, 5s, 1m, 1h, 30d),"
            } else if reads(Trial::Text("1%")) {
                "a fraction or a percentage (0.05 or \"5%\"),"
            } else {
                "a number"
            };
            match r {
                Some(r) => format!("{kind} {r}"),
                None => kind.trim_end_matches(',').to_string(),
            }
        }
        _ if reads(Trial::Flag) => "true or false".into(),
        _ if reads(Trial::Text("")) => "a string".into(),
        _ if reads(Trial::Object) => "an object of settings".into(),
        _ if reads(Trial::List) => "a list of objects".into(),
        // A name from a list: what the field's message for an unknown name allows
        // (`unknown variant ``, expected `poisson` or `even``, `unknown outcome "": allowed ...`).
        _ => {
            let e = probe(Trial::Text("")).err()?;
            let (_, names) = e
                .split_once(": allowed ")
                .or_else(|| e.split_once(", expected "))?;
            names.to_string()
        }
    };
    Some(format!("{path} = {shown} is invalid: allowed {allowed}"))
}
