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
pub enum Trial<'a> {
    /// A whole number (read as an integer, never as a float).
    Whole(u64),
    /// A number that is not whole, or too large to be read as an integer.
    Number(f64),
    /// A string.
    Text(&'a str),
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

/// Why the value at `path` is invalid, when the settings refused it with `error` (the
/// deserializer's message) for being of a type the field does not take: `allowed <what>`, for
/// the message `path = value is invalid: allowed <what>`. A string a rate or a duration cannot
/// read keeps its own message, which says the forms it takes, with the field's range after it
/// (`"quick" is not a duration: use seconds or a unit (...), 0 <= x <= 1e9 seconds`). `None` for
/// other errors (a custom message that already says what is allowed, an unknown field) and for a
/// field whose kind no trial finds.
///
/// `shown` is the value as the message shows it; `whole` the whole number from 0 to `u64::MAX`
/// the value is, if it is one, worked out by the caller from what `shown` stands for: the
/// digits of a `--set` edit as typed ([`breaker::float_parse::parse_whole`]: a double takes
/// `5.0000000000000001` for 5, and 2^53 + 1 for 2^53), or the number read (a file's value or a
/// JS number, shown as its own text: [`whole_number`]). `exact` is
/// the largest whole number the settings' representation holds exactly (`u64::MAX` in JSON text,
/// `2^53 - 1` in a JS number): the largest a count can be given as. `probe` reads the settings
/// with a [`Trial`] at the field.
///
/// * a count: `a whole number 1 <= x <= 1000`, the range [`crate::Scenario::validate`] (or the
///   settings' own validation) gives at the type's smallest or largest value, or the type's own
///   (`0 <= x <= 4294967295`) when both validate; a number that is whole and in range but spelt
///   as a float (`1e2`) gets a hint to write it as a whole number instead;
/// * a number: `a number 1e-6 <= x <= 1e7`, the range validation gives at `-f64::MAX` or
///   `f64::MAX`; a duration or a rate says the forms it also takes as a string;
/// * `true or false`, `a string`, `an object of settings`, `a list of objects`;
/// * otherwise (a name from a list) what the field's own message for an unknown name allows.
///
/// (`probe` is generic, not `&dyn Fn`, so that the page's wasm compiles this function in its own
/// crate, at the size-optimizing level: 0.9 KiB gzip less than this crate's level, measured.)
pub fn explain(
    path: &str,
    shown: &str,
    whole: Option<u64>,
    error: &str,
    exact: u64,
    probe: impl Fn(Trial<'_>) -> Reading,
) -> Option<String> {
    let mismatch = error.starts_with("invalid type: ")
        || error.starts_with("invalid value: ")
        // `serde_units::no_match`: a rate, duration or outcome given as neither number nor string.
        || error.starts_with("allowed ");
    // The range validation gives where it refuses a trial there.
    let refused_at = |t: Trial| match probe(t) {
        Ok(Err(e)) if e.field == path => Some(e.allowed),
        _ => None,
    };
    // What a refusal says the field allows, from trials at both ends: the smallest positive
    // normal number first (a lower end that depends on another field: the broken rate's
    // `fine_rate (0.05) < x < 1`), the largest number below 1 (an upper end that does: `0 < x <
    // 1 - trial_wrongly_opens (0.7)`), then the floats' ends (a field's own range).
    let range = || {
        [
            f64::MIN_POSITIVE,
            1.0 - f64::EPSILON / 2.0,
            -f64::MAX,
            f64::MAX,
        ]
        .into_iter()
        .find_map(|x| refused_at(Trial::Number(x)))
    };
    if !mismatch {
        // A string a rate or a duration cannot read (`"quick" is not a duration: use seconds or
        // a unit (...)`, `"NaN" is not a finite rate`, `unknown duration unit "e" in "1e"`)
        // says why; the field's range is added, as every refusal says it.
        if after(error, " is not a ").is_some() || error.starts_with("unknown duration unit") {
            return Some(format!("{error}, {}", range()?));
        }
        return None;
    }
    let reads = |t: Trial| probe(t).is_ok();
    let mut out = String::from("allowed ");
    let fraction = reads(Trial::Number(0.5));
    let u32_max = u64::from(u32::MAX);
    let count_max = if reads(Trial::Whole(exact)) {
        Some(exact)
    } else if reads(Trial::Whole(u32_max)) {
        Some(u32_max)
    } else {
        None
    };
    match count_max {
        Some(max) if !fraction => {
            // A whole number in range, spelt as a float (1e2, 100.0): only the spelling is refused.
            if let Some(n) = whole.filter(|&n| n <= max) {
                if matches!(probe(Trial::Whole(n)), Ok(Ok(()))) {
                    return Some(breaker::float_parse::spelt_whole("a count", n, shown));
                }
            }
            out.push_str("a whole number ");
            match refused_at(Trial::Whole(0)).or_else(|| refused_at(Trial::Whole(max))) {
                Some(r) => out.push_str(&r),
                None => {
                    out.push_str("0 <= x <= ");
                    out.push_str(&max.to_string());
                }
            }
        }
        _ if fraction => {
            let (kind, sep) = if reads(Trial::Text("1s")) {
                (breaker::units::serde_units::DURATION, ", ")
            } else if reads(Trial::Text("1%")) {
                (breaker::units::serde_units::RATE, ", ")
            } else {
                ("a number", " ")
            };
            out.push_str(kind);
            if let Some(r) = range() {
                out.push_str(sep);
                out.push_str(&r);
            }
        }
        _ if reads(Trial::Flag) => out.push_str("true or false"),
        _ if reads(Trial::Text("")) => out.push_str("a string"),
        _ if reads(Trial::Object) => out.push_str("an object of settings"),
        _ if reads(Trial::List) => out.push_str("a list of objects"),
        // A name from a list: what the field's message for an unknown name allows
        // (`unknown variant ``, expected `poisson` or `even``, `unknown outcome "": allowed ...`).
        // Each list is the set validation takes too: a phase's `failure` names only failures
        // and neutral outcomes, though its reader also takes `success`. (Until 2026-12-07 each
        // name was tried against validation for a narrower set, which no field gave.)
        _ => {
            let e = probe(Trial::Text("")).err()?;
            let names = after(&e, ": allowed ").or_else(|| after(&e, ", expected "))?;
            out.push_str(names);
        }
    }
    Some(out)
}

/// `x` as a whole number from 0 to `u64::MAX`, if it is one: the `whole` of [`explain`] for a
/// number read as a double and shown as its own text.
#[inline]
pub fn whole_number(x: f64) -> Option<u64> {
    // (`u64::MAX as f64` rounds up to 2^64, which no u64 holds.)
    (x.fract() == 0.0 && (0.0..18446744073709551616.0).contains(&x)).then_some(x as u64)
}

/// The leaf to blame among `paths` (the dotted paths of the leaves a user gave, in order), and
/// the settings to explain it in. `build(included)` gives the defaults with the leaves at those
/// indices placed over them; `reading` reads and validates settings.
///
/// The leaf blamed is the first whose placing (after the ones before it) makes the settings
/// fail to read: found by bisection, since a leaf that fails to read still fails with more
/// leaves placed, so a thousand phases take a few dozen readings, not a million. The settings
/// to explain it in hold every other leaf that reads and keeps validation passing, so that a
/// range depends on the user's other values (a later phase's `start`), but not on another
/// invalid one: a leaf that does not read is left out, and so is one that validation refuses
/// (by its `field`), a few times over; past that, only the leaves before the blamed one.
///
/// Returns the blamed leaf's index, its context and the reading's error; `None` when the
/// settings with every leaf read.
pub fn locate<V>(
    paths: &[&str],
    build: impl Fn(&[usize]) -> V,
    reading: impl Fn(&V) -> Reading,
) -> Option<(usize, V, String)> {
    let fails = |set: &[usize]| reading(&build(set)).err();
    let all: Vec<usize> = (0..paths.len()).collect();
    // The first leaf, within `set`, whose prefix fails to read.
    let first_bad = |set: &[usize]| -> Option<(usize, String)> {
        let e = fails(set)?;
        let (mut lo, mut hi, mut err) = (0, set.len(), e);
        // Invariant: set[..lo] reads, set[..hi] fails with `err`.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            match fails(&set[..mid]) {
                Some(e) => (hi, err) = (mid, e),
                None => lo = mid,
            }
        }
        Some((hi - 1, err))
    };
    let (bad, error) = first_bad(&all)?;
    const TRIES: usize = 8;
    let mut others: Vec<usize> = all.iter().copied().filter(|&i| i != bad).collect();
    let mut settled = false;
    for _ in 0..TRIES {
        match first_bad(&others) {
            None => {
                settled = true;
                break;
            }
            Some((k, _)) => {
                others.remove(k);
            }
        }
    }
    if !settled {
        others = (0..bad).collect();
    }
    for _ in 0..TRIES {
        match reading(&build(&others)) {
            Ok(Err(e)) => match others.iter().position(|&i| paths[i] == e.field) {
                Some(k) => {
                    others.remove(k);
                }
                None => break,
            },
            _ => break,
        }
    }
    Some((bad, build(&others), error))
}

/// The text after the first `marker` in `s`. Found without `str::split_once` and without
/// slicing that can panic: the page's wasm would carry a substring searcher and, for the slice
/// panic's message, Rust's Unicode tables (about 2 KB gzip in all).
pub(crate) fn after<'a>(s: &'a str, marker: &str) -> Option<&'a str> {
    let m = marker.as_bytes();
    let i = s.as_bytes().windows(m.len()).position(|w| w == m)?;
    s.get(i + m.len()..)
}
