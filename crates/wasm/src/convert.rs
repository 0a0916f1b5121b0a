//! JS values <-> the simulator's settings and results.
//!
//! Settings arrive as plain JS objects and are read straight from them by [`JsDe`], a small serde
//! deserializer that reads a JS value the way `serde_json` reads a `serde_json::Value` (object
//! keys in sorted order, unknown keys seen by `deny_unknown_fields`, whole numbers as integers,
//! `NaN`/`Infinity`/`undefined` as `null`, a key whose value is `undefined` left out, as
//! `JSON.stringify` writes them), so the page's settings are exactly the JSON the CLI
//! reads and the messages are the ones `serde_json` gives. (The wasm used to route settings
//! through `serde_json::Value`; reading JS values directly keeps `serde_json`'s parser, printer
//! and a second copy of every settings type's deserializer out of the wasm.)
//!
//! When an object does not deserialize, the error names the first field that breaks it (found by
//! placing the given fields one by one over the defaults), in the same
//! `<field> = <value> is invalid: ...` form as the simulator's validation; for a value of a type
//! the field does not take it says what is allowed, in the CLI's words: `sim::allowed::explain`,
//! shared with the CLI, tries values at the field through a probe that places them in the JS
//! object and reads it with [`JsDe`]. (Converting the object to a `serde_json::Value` and reusing
//! the CLI's reader whole made the wasm 47.6 KiB gzip larger, measured.) A count's range from JS
//! ends at 2^53 - 1, the largest whole number a JS number holds exactly.
//!
//! Results go to JS through `serde_wasm_bindgen`; [`to_js_json`] and [`to_js_sorted`] give them
//! the shape JSON text would have had (non-finite numbers as `null`; object keys sorted where the
//! value used to be a `serde_json::Value`).

use breaker::quote::{Quoted, LONG};
use breaker::SettingsError;
use js_sys::{Array, Number, Object, Reflect, JSON};
use serde::de::{self, DeserializeOwned, IntoDeserializer};
use serde::{Deserialize, Serialize};
use sim::allowed::{explain, locate, Reading, Trial};
use sim::Scenario;
use std::fmt;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Serialize a result for JS: plain objects (not `Map`s), `u64` as numbers, `None` as `null`.
pub fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(returned)
}

#[inline(never)]
fn returned(e: serde_wasm_bindgen::Error) -> JsError {
    JsError::new(&format!("could not return a result to JS: {e}"))
}

/// [`to_js`] as `JSON.parse` of `serde_json`'s text would give it: non-finite numbers `null`.
pub fn to_js_json<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    Ok(plain(&to_js(v)?, false))
}

/// [`to_js_json`] with every object's keys in sorted order, as a `serde_json::Value` (a sorted
/// map) gave them: the scenario objects the page compares with `JSON.stringify`.
pub fn to_js_sorted<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    Ok(plain(&to_js(v)?, true))
}

fn plain(v: &JsValue, sort: bool) -> JsValue {
    if let Some(x) = v.as_f64() {
        return if x.is_finite() {
            v.clone()
        } else {
            JsValue::NULL
        };
    }
    if Array::is_array(v) {
        let a: &Array = v.unchecked_ref();
        return a.iter().map(|x| plain(&x, sort)).collect::<Array>().into();
    }
    if is_object(v) {
        let out = Object::new();
        for (k, x) in entries(v, sort) {
            let _ = Reflect::set(&out, &JsValue::from_str(&k), &plain(&x, sort));
        }
        return out.into();
    }
    v.clone()
}

/// A plain object (not an array, not null).
fn is_object(v: &JsValue) -> bool {
    v.is_object() && !Array::is_array(v)
}

/// An object's own enumerable keys and values, optionally in sorted order; a key whose value is
/// `undefined` is not there, as `JSON.stringify` leaves it out (`{seed: undefined}` is `{}`, the
/// default seed: it was refused as `seed = null`). Each value is read by the key as JS has it:
/// one with a lone surrogate reads as text with U+FFFD, which looked up found nothing, and it
/// was dropped unsaid (`{"seed\uD800": 5}` ran seed 1); now it is refused as an unknown field.
#[inline(never)]
fn entries(v: &JsValue, sort: bool) -> Vec<(String, JsValue)> {
    let o: &Object = v.unchecked_ref();
    let mut out: Vec<(String, JsValue)> = Object::keys(o)
        .iter()
        .filter_map(|k| {
            let x = Reflect::get(o, &k).unwrap_or(JsValue::NULL);
            Some((k.as_string()?, x))
        })
        .filter(|(_, x)| !x.is_undefined())
        .collect();
    if sort {
        heapsort(&mut out, |e| &e.0);
    }
    out
}

/// Sort `v` in place by `key`, as `sort_unstable_by` would: a heapsort, so `n log n` on a pasted
/// object of thousands of keys (an insertion sort took seconds on 20 000), in a few hundred bytes
/// of wasm where the standard library's sort brings about 4 KB of code (1.5 KB gzip).
fn heapsort<T>(v: &mut [T], key: impl Fn(&T) -> &String + Copy) {
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift_down(v, root, n, key);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, key);
    }
}

/// Move `v[root]` down the heap `v[..end]` until it is not less than its children.
fn sift_down<T>(v: &mut [T], mut root: usize, end: usize, key: impl Fn(&T) -> &String) {
    // The heap alone (`end <= v.len()`), so that the indices below need no bounds checks.
    let v = &mut v[..end];
    loop {
        let mut child = 2 * root + 1;
        if child >= v.len() {
            return;
        }
        if child + 1 < v.len() && key(&v[child]) < key(&v[child + 1]) {
            child += 1;
        }
        if key(&v[root]) >= key(&v[child]) {
            return;
        }
        v.swap(root, child);
        root = child;
    }
}

/// A value as compact JSON text, as `serde_json::Value`'s `Display` writes it: object keys
/// sorted, whole numbers as integers, other numbers as [`float_text`], `null` for what JSON
/// cannot hold; cut short as [`write_json`] says.
fn json_text(v: &JsValue) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

/// Writes `v` to `out`; a list or an object stops with `...` before its next entry once the
/// text is past 80 bytes, as `sim`'s messages quote a value. Whether it stopped.
fn write_json(v: &JsValue, out: &mut String) -> bool {
    match kind(v) {
        Ok(Kind::Null) | Err(_) => out.push_str("null"),
        Ok(Kind::Bool(b)) => out.push_str(if b { "true" } else { "false" }),
        // Safe integers: their digits, as `number_text` writes them.
        Ok(Kind::U64(n)) => out.push_str(&number_text(n as f64)),
        Ok(Kind::I64(n)) => out.push_str(&number_text(n as f64)),
        Ok(Kind::F64(x)) => out.push_str(&number_text(x)),
        // Longer than `quote::LONG` bytes, quoted in part as the reason after it quotes it,
        // `"1111…" (100000 bytes)`.
        Ok(Kind::Str(s)) if s.len() > LONG => {
            let _ = fmt::Write::write_fmt(out, format_args!("{}", Quoted(&s)));
        }
        // JSON.stringify escapes a string as serde_json does (`"`, `\`, control characters).
        Ok(Kind::Str(_)) => out.push_str(
            &JSON::stringify(v)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default(),
        ),
        Ok(Kind::Array(a)) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if cut(out, i) || write_json(x, out) {
                    return true;
                }
            }
            out.push(']');
        }
        Ok(Kind::Object(es)) => {
            out.push('{');
            for (i, (k, x)) in es.into_iter().enumerate() {
                if cut(out, i) {
                    return true;
                }
                write_json(&JsValue::from_str(&k), out);
                out.push(':');
                if write_json(&x, out) {
                    return true;
                }
            }
            out.push('}');
        }
    }
    false
}

/// Before entry `i` of a list or an object: `...` and true past 80 bytes, else the comma.
fn cut(out: &mut String, i: usize) -> bool {
    let long = out.len() > 80;
    if long {
        out.push_str("...");
    } else if i > 0 {
        out.push(',');
    }
    long
}

/// A number that is not a safe integer as the command line shows it when given the browser's
/// JSON text of it. `JSON.stringify` writes a whole number below 1e21 as its shortest digits,
/// padded with zeros (2^60 as `1152921504606847000`); the command line reads that text as an
/// integer when it fits a `u64` or an `i64`, and shows it as written (not
/// `9007199254740992.0`, nor 2^60's exact `1152921504606846976`); any other as [`float_text`].
/// Rust's `Display` writes the same shortest digits, without an exponent.
fn number_text(x: f64) -> String {
    let text = format!("{x}");
    if text.parse::<u64>().is_ok() || text.parse::<i64>().is_ok() {
        text
    } else {
        float_text(x)
    }
}

/// A finite `f64` as `serde_json` writes it: the shortest digits that read back to the same
/// number, in fixed notation for decimal exponents -5..=15 (`0.00001`, `9007199254740994.0`) and
/// in exponent notation outside (`1e-6`, `1e+16`, `1.5e+300`).
fn float_text(x: f64) -> String {
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let mut digits: Vec<char> = mant.chars().filter(char::is_ascii_digit).collect();
    // A tie: `x` lies exactly halfway between the two closest texts with `f` digits after the
    // point (written out), so `x 2^(f+1)` is an odd whole number, and the lower text is even
    // when that is 1 mod 4. Rust's `Display` takes the upper; `serde_json` (and JS) the even
    // one if it too reads back as `x`. It always does, except at a power of two `2^p`, where
    // the gap below is half the gap above: there only if `5^(p+1) <= 2^-54`, from 2^-25 down.
    let f = (digits.len() as i32 - 1 - e).max(0);
    let lower_reads_back = x.to_bits() << 12 != 0 || x.abs() <= 2f64.powi(-25);
    if let Some(last) = digits.last_mut().filter(|d| **d as u8 % 2 == 1) {
        if lower_reads_back && x.abs() * 2f64.powi(f + 1) % 4.0 == 1.0 {
            *last = (*last as u8 - 1) as char;
        }
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if !(-5..=15).contains(&e) {
        for (i, d) in digits.iter().enumerate() {
            if i == 1 {
                out.push('.');
            }
            out.push(*d);
        }
        out.push_str(if e >= 0 { "e+" } else { "e" });
        out.push_str(exp);
        return out;
    }
    if e < 0 {
        out.push_str("0.");
        for _ in 1..-e {
            out.push('0');
        }
        out.extend(digits);
        return out;
    }
    let k = e as usize + 1;
    for (i, d) in digits.iter().enumerate() {
        if i == k {
            out.push('.');
        }
        out.push(*d);
    }
    for _ in digits.len()..k {
        out.push('0');
    }
    if digits.len() <= k {
        out.push_str(".0");
    }
    out
}

/// Read a value of type `T` from a JS value.
pub fn from_js<T: DeserializeOwned>(v: &JsValue) -> Result<T, DeError> {
    T::deserialize(JsDe(v.clone()))
}

/// Read a scenario object and validate it.
pub fn scenario_from_js(v: &JsValue) -> Result<Scenario, JsError> {
    scenario_from(v).map_err(|m| JsError::new(&m))
}

/// Read a scenario from a JS object and validate it; the error names the field.
fn scenario_from(v: &JsValue) -> Result<Scenario, String> {
    read(v, "", phase, Scenario::validate)
}

/// Read a settings object of type `T` (`what` in a scenario) and validate it; the error names
/// `what.field`.
pub fn from_js_named<T: DeserializeOwned + Serialize + Default>(
    v: &JsValue,
    what: &str,
    validate: fn(&T) -> Result<(), SettingsError>,
) -> Result<T, JsError> {
    read(v, what, || JsValue::NULL, validate).map_err(|m| JsError::new(&m))
}

/// Read settings of type `T` from a JS object and validate them. An error names the field as
/// the CLI does (`statistical.broken_rate = 0.01 is invalid: allowed ...`, with `what.` before
/// the field when `what` is not empty), and a value of the wrong kind says what the field allows,
/// in the CLI's words ([`sim::allowed::explain`]). `item` gives the value a new list entry starts
/// from (the default phase).
///
/// Only the reading and the validation are generic: the rest is [`refused`], one copy for every
/// settings type.
fn read<T: DeserializeOwned + Serialize + Default>(
    v: &JsValue,
    what: &str,
    item: fn() -> JsValue,
    validate: fn(&T) -> Result<(), SettingsError>,
) -> Result<T, String> {
    let base = || to_js_sorted(&T::default()).unwrap_or(JsValue::NULL);
    not_too_deep(v, what, item, &base)?;
    let e = match is_object(v).then(|| from_js::<T>(v)) {
        Some(Ok(t)) => return validate(&t).map(|()| t).map_err(|e| within(e, what)),
        Some(Err(e)) => Some(e),
        None => None,
    };
    let base = base();
    let reading =
        |x: &JsValue| -> Reading { from_js::<T>(x).map(|t| validate(&t)).map_err(|e| e.0) };
    Err(refused(v, what, e, base, &item(), &reading))
}

/// The most levels of objects and lists, one in another, that settings may have: as many as
/// `serde_json` reads (the command line refuses a scenario file nested 128 deep: "recursion
/// limit exceeded").
pub const MAX_NESTING: usize = 127;

/// Whether `v` (at `level`; settings start at 1) holds an object or a list at a level past
/// [`MAX_NESTING`]; if so, `path` ends with the keys (and list indices) down to it.
///
/// Settings are checked for it before anything else reads them: the reader, the search for the
/// field to blame and the messages all recurse into the value, and a value nested thousands
/// deep, or one that holds itself (`s.name = s`: it never ends), overflowed the stack inside
/// the wasm. That is no panic but a JS `RangeError` or a trap, which leaves the wasm's own stack
/// pointer where it was: after two or three of them every call of the module, even
/// `defaultScenario()`, failed with "memory access out of bounds". This recursion stops at
/// [`MAX_NESTING`].
#[inline(never)]
fn too_deep(v: &JsValue, level: usize, path: &mut Vec<String>) -> bool {
    // `Object.keys` of a list is its indices.
    if !v.is_object() {
        return false;
    }
    if level > MAX_NESTING {
        return true;
    }
    for (k, x) in entries(v, true) {
        path.push(k);
        if too_deep(&x, level + 1, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// Refuse settings `v` nested too deep ([`too_deep`], [`nested`]; `base` gives the defaults).
#[inline(never)]
fn not_too_deep(
    v: &JsValue,
    what: &str,
    item: fn() -> JsValue,
    base: &dyn Fn() -> JsValue,
) -> Result<(), String> {
    let mut deep = Vec::new();
    if too_deep(v, 1, &mut deep) {
        Err(nested(v, what, &deep, &base(), &item()))
    } else {
        Ok(())
    }
}

/// The message for settings `v` holding a value nested too deep at `deep` ([`too_deep`]),
/// naming the field that [`collect`] finds on that path (`base`, `item`: as there), so the
/// page shows it beside that field.
#[inline(never)]
fn nested(v: &JsValue, what: &str, deep: &[String], base: &JsValue, item: &JsValue) -> String {
    let mut leaves = Vec::new();
    collect(v, String::new(), Some(base), item, &mut leaves);
    let on_path = |p: &str| p.is_empty() || p.split('.').zip(deep).all(|(a, b)| a == b);
    let (path, leaf) = leaves
        .into_iter()
        .find(|(p, _)| on_path(p))
        .unwrap_or_else(|| (String::new(), v.clone()));
    let dot = if what.is_empty() || path.is_empty() {
        ""
    } else {
        "."
    };
    let name = if what.is_empty() && path.is_empty() {
        "scenario"
    } else {
        what
    };
    let shown = if Array::is_array(&leaf) {
        "[…]"
    } else {
        "{…}"
    };
    format!(
        "{name}{dot}{path} = {shown} is invalid: nested too deep: at most {MAX_NESTING} levels \
         of objects and lists, one in another, as in JSON (a value that holds itself never ends)"
    )
}

/// A validation error, with `what.` before the field when `what` is not empty.
fn within(e: SettingsError, what: &str) -> String {
    if what.is_empty() {
        e.to_string()
    } else {
        e.within(what).to_string()
    }
}

/// The message for settings `v` that are not an object (`e` is `None`) or do not read (`e`):
/// see [`read`]. `base` is the default settings, `reading` reads and validates settings.
#[inline(never)]
fn refused(
    v: &JsValue,
    what: &str,
    e: Option<DeError>,
    base: JsValue,
    item: &JsValue,
    reading: &dyn Fn(&JsValue) -> Reading,
) -> String {
    let name = if what.is_empty() { "scenario" } else { what };
    let Some(e) = e else {
        return format!(
            "{name} = {} is invalid: allowed an object of settings",
            json_text(v)
        );
    };
    blame(v, what, base, item, reading).unwrap_or_else(|| format!("{name} is invalid: {e}"))
}

/// The analysis options the page sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnalysisOptions {
    /// The traffic the curves assume (calls per minute).
    pub calls_per_minute: f64,
}

impl AnalysisOptions {
    /// The traffic one breaker sees, `1e-12 <= x <= 1e12`: the scenario's `1e-6 <= x <= 1e7`
    /// divided among up to 1,000 callers, or a replayed trace's own calls over its run up to
    /// 1e12 (the command line's `analyze curves` draws both; these refused 5e-7 and 1.2e8; a
    /// trace faster still, 100,000 calls in a microsecond, is refused with this range). At 0,
    /// or far past these, the curves were drawn all the same, for "-216000 calls per
    /// false-alarm period" or "inf nats", and the times overflowed to "inf" years at 1e-305.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let x = self.calls_per_minute;
        // `analysis::cli::CALLS_PER_MINUTE`, written out: read from the constant it put 9 B
        // more in the wasm. A test below holds the two together.
        if (1e-12..=1e12).contains(&x) {
            Ok(())
        } else {
            Err(SettingsError::new(
                "calls_per_minute",
                breaker::error::Num(x),
                "1e-12 <= x <= 1e12",
            ))
        }
    }
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            calls_per_minute: 60.0,
        }
    }
}

/// The default phase, which a new entry of `dependency` starts from.
fn phase() -> JsValue {
    to_js_sorted(&sim::Phase::default()).unwrap_or(JsValue::NULL)
}

/// The largest whole number a JS number gives exactly (`Number.MAX_SAFE_INTEGER`): larger ones
/// are read as floats, which no count takes.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Place the leaves of `given` over `base` (the default settings) and return a message naming
/// the first that makes the settings fail to read (`reading`; `what.` before the field when
/// `what` is not empty), as the CLI's (`sim`'s) does: the leaves are the values below objects
/// and lists of objects where the default has one (a list entry starts as `item`); the leaf and
/// the settings to explain it in come from [`locate`] (a few dozen readings, however many
/// leaves), and a value of the wrong kind is explained by trying values in its place.
fn blame(
    given: &JsValue,
    what: &str,
    base: JsValue,
    item: &JsValue,
    reading: &dyn Fn(&JsValue) -> Reading,
) -> Option<String> {
    let mut leaves = Vec::new();
    collect(given, String::new(), Some(&base), item, &mut leaves);
    let paths: Vec<&str> = leaves.iter().map(|(p, _)| p.as_str()).collect();
    let build = |set: &[usize]| {
        set.iter().fold(fresh(&base), |cur, &i| {
            let (path, leaf) = &leaves[i];
            place(cur, &split(path), leaf, item)
        })
    };
    let (bad, cur, e) = locate(&paths, build, reading)?;
    let (path, leaf) = &leaves[bad];
    let segs = split(path);
    let shown = json_text(leaf);
    let probe = |t: Trial| reading(&place(fresh(&cur), &segs, &trial_js(t), item));
    // A JS number's text is the double's own.
    let whole = leaf.as_f64().and_then(sim::allowed::whole_number);
    let why = explain(path, &shown, whole, &e, MAX_SAFE_INTEGER, probe).unwrap_or(e);
    let dot = if what.is_empty() { "" } else { "." };
    Some(format!("{what}{dot}{path} = {shown} is invalid: {why}"))
}

fn split(path: &str) -> Vec<&str> {
    path.split('.').collect()
}

/// A trial value as a JS value (whole numbers of at most `MAX_SAFE_INTEGER` read as integers).
fn trial_js(t: Trial) -> JsValue {
    match t {
        Trial::Whole(n) => JsValue::from_f64(n as f64),
        Trial::Number(x) => JsValue::from_f64(x),
        Trial::Text(s) => JsValue::from_str(s),
        Trial::Flag => JsValue::TRUE,
        Trial::Object => Object::new().into(),
        Trial::List => {
            let a = Array::new();
            a.push(&Object::new());
            a.into()
        }
    }
}

fn join(prefix: &str, k: &str) -> String {
    if prefix.is_empty() {
        k.to_string()
    } else {
        format!("{prefix}.{k}")
    }
}

/// The leaves of `v` with their dotted paths (objects' keys in sorted order). A node is gone
/// into only where `shape` (the default at the same path; `item` for list entries) has an object
/// or a list: a value given where a number or a string belongs is one leaf, named as that field.
fn collect(
    v: &JsValue,
    prefix: String,
    shape: Option<&JsValue>,
    item: &JsValue,
    out: &mut Vec<(String, JsValue)>,
) {
    if let Some(s) = shape {
        if is_object(v) && is_object(s) {
            let es = entries(v, true);
            if !es.is_empty() {
                // A key with a dot in it is no field, and its dotted path would name another:
                // left to the reader's "unknown field", with its own name (as natively).
                for (k, x) in es.into_iter().filter(|(k, _)| !k.contains('.')) {
                    let key = JsValue::from_str(&k);
                    let sub = Object::has_own(s.unchecked_ref::<Object>(), &key)
                        .then(|| Reflect::get(s, &key).ok())
                        .flatten();
                    collect(&x, join(&prefix, &k), sub.as_ref(), item, out);
                }
                return;
            }
        } else if Array::is_array(v) && Array::is_array(s) {
            let a: &Array = v.unchecked_ref();
            if a.length() > 0 && a.iter().all(|x| is_object(&x)) {
                for (i, x) in a.iter().enumerate() {
                    collect(&x, join(&prefix, &i.to_string()), Some(item), item, out);
                }
                return;
            }
        }
    }
    out.push((prefix, v.clone()));
}

/// `cur` with `leaf` placed at the path `segs`; what is in the way becomes an object, and a
/// missing list entry starts as a copy of `item`, and `leaf` goes in as a copy.
///
/// Writes into `cur`'s objects and arrays on the path, which must be the caller's own
/// ([`fresh`] copies): one placing costs the depth of its path, so settings with thousands of
/// phases are built in linear time. Keys are defined as own data properties: a key named
/// `__proto__` is an ordinary (unknown) field, never the prototype (`Reflect.set` on it would
/// write through to `Object.prototype`).
fn place(cur: JsValue, segs: &[&str], leaf: &JsValue, item: &JsValue) -> JsValue {
    let Some((seg, rest)) = segs.split_first() else {
        // A copy: a later path may go through it (a key `"a.b"` beside `"a": {}`).
        return fresh(leaf);
    };
    if Array::is_array(&cur) {
        let a: Array = cur.unchecked_into();
        let i: u32 = seg.parse().unwrap_or(0);
        while a.length() <= i {
            a.push(&fresh(item));
        }
        a.set(i, place(a.get(i), rest, leaf, item));
        a.into()
    } else {
        let o: Object = if is_object(&cur) {
            cur.unchecked_into()
        } else {
            Object::new()
        };
        let key = JsValue::from_str(seg);
        let child = if Object::has_own(&o, &key) {
            Reflect::get(&o, &key).unwrap_or(JsValue::NULL)
        } else {
            JsValue::NULL
        };
        define(&o, &key, &place(child, rest, leaf, item));
        o.into()
    }
}

/// A deep copy of `v`'s arrays and plain objects (own enumerable properties), sharing nothing
/// with `v` that [`place`] could write.
fn fresh(v: &JsValue) -> JsValue {
    if Array::is_array(v) {
        let a: &Array = v.unchecked_ref();
        a.iter().map(|x| fresh(&x)).collect::<Array>().into()
    } else if is_object(v) {
        let o: &Object = v.unchecked_ref();
        let copy = Object::new();
        for k in Object::keys(o).iter() {
            define(
                &copy,
                &k,
                &fresh(&Reflect::get(o, &k).unwrap_or(JsValue::NULL)),
            );
        }
        copy.into()
    } else {
        v.clone()
    }
}

/// `o[key] = v` as an own, enumerable, writable data property, whatever the key.
fn define(o: &Object, key: &JsValue, v: &JsValue) {
    let d = Object::new();
    let _ = Reflect::set(&d, &"value".into(), v);
    for flag in ["writable", "enumerable", "configurable"] {
        let _ = Reflect::set(&d, &flag.into(), &JsValue::TRUE);
    }
    let _ = Reflect::define_property(o, key, &d);
}

/// A deserialization error; its text is what `serde_json` says for the same data.
#[derive(Debug)]
pub struct DeError(String);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

/// An unexpected value as `serde_json` names it: the unit value is `null`, floats as
/// [`float_text`]; every other kind as serde's own `Display` of `Unexpected` names it, except
/// that strings are quoted by [`Quoted`].
///
/// Written out in full rather than delegating to serde's `Display`: that one formats strings as
/// `string {:?}`, and any reachable `{:?}` of a string brings Rust's Unicode tables into the wasm
/// (several KB). [`Quoted`] gives the same text for every ASCII and ordinary string (it differs
/// only in rare characters that `{:?}` would escape, see `breaker::quote`). The unit test
/// `unexpected_as_serde` checks the other kinds against serde's text.
struct Unexpected<'a>(de::Unexpected<'a>);

impl fmt::Display for Unexpected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use de::Unexpected as U;
        let name = match self.0 {
            U::Unit => "null",
            U::Float(x) => return write!(f, "floating point `{}`", float_text(x)),
            U::Str(s) => return write!(f, "string {}", Quoted(s)),
            U::Bool(b) => return write!(f, "boolean `{b}`"),
            U::Unsigned(n) => return write!(f, "integer `{n}`"),
            U::Signed(n) => return write!(f, "integer `{n}`"),
            U::Char(c) => return write!(f, "character `{c}`"),
            U::Bytes(_) => "byte array",
            U::Option => "Option value",
            U::NewtypeStruct => "newtype struct",
            U::Seq => "sequence",
            U::Map => "map",
            U::Enum => "enum",
            U::UnitVariant => "unit variant",
            U::NewtypeVariant => "newtype variant",
            U::TupleVariant => "tuple variant",
            U::StructVariant => "struct variant",
            U::Other(other) => other,
        };
        f.write_str(name)
    }
}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError(msg.to_string())
    }
    fn invalid_type(u: de::Unexpected, exp: &dyn de::Expected) -> Self {
        DeError(format!("invalid type: {}, expected {exp}", Unexpected(u)))
    }
    fn invalid_value(u: de::Unexpected, exp: &dyn de::Expected) -> Self {
        DeError(format!("invalid value: {}, expected {exp}", Unexpected(u)))
    }
}

/// What a JS value is, in JSON's terms; an array's elements and an object's entries (sorted by
/// key) taken out.
enum Kind {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(String),
    Array(Vec<JsValue>),
    Object(Vec<(String, JsValue)>),
}

// Not inlined: this and the helpers below are the non-generic part of the deserializer, kept
// out of the code generated for every settings type.
#[inline(never)]
fn kind(v: &JsValue) -> Result<Kind, DeError> {
    if v.is_null() || v.is_undefined() {
        return Ok(Kind::Null);
    }
    if let Some(b) = v.as_bool() {
        return Ok(Kind::Bool(b));
    }
    if let Some(x) = v.as_f64() {
        return Ok(if !x.is_finite() {
            Kind::Null
        } else if Number::is_safe_integer(v) {
            if x >= 0.0 {
                Kind::U64(x as u64)
            } else {
                Kind::I64(x as i64)
            }
        } else {
            Kind::F64(x)
        });
    }
    if let Some(s) = v.as_string() {
        return Ok(Kind::Str(s));
    }
    if Array::is_array(v) {
        let a: &Array = v.unchecked_ref();
        return Ok(Kind::Array(a.iter().collect()));
    }
    if v.is_object() {
        return Ok(Kind::Object(entries(v, true)));
    }
    Err(DeError(format!(
        "not plain JSON data: a {}",
        v.js_typeof().as_string().unwrap_or_default()
    )))
}

/// The error for elements left over after a visitor is done.
#[inline(never)]
fn leftover(len: usize, what: &'static str) -> DeError {
    de::Error::invalid_length(len, &what)
}

/// The error for a value of the wrong type.
#[inline(never)]
fn wrong(k: &Kind, exp: &dyn de::Expected) -> DeError {
    let u = match k {
        Kind::Null => de::Unexpected::Unit,
        Kind::Bool(b) => de::Unexpected::Bool(*b),
        Kind::U64(n) => de::Unexpected::Unsigned(*n),
        Kind::I64(n) => de::Unexpected::Signed(*n),
        Kind::F64(x) => de::Unexpected::Float(*x),
        Kind::Str(s) => de::Unexpected::Str(s),
        Kind::Array(_) => de::Unexpected::Seq,
        Kind::Object(_) => de::Unexpected::Map,
    };
    de::Error::invalid_type(u, exp)
}

/// The error for an enum given neither a string nor a one-key object.
#[inline(never)]
fn not_enum(k: &Kind) -> DeError {
    match k {
        Kind::Str(_) | Kind::Object(_) => {
            de::Error::invalid_value(de::Unexpected::Map, &"map with a single key")
        }
        k => wrong(k, &"string or map"),
    }
}

/// A serde deserializer over a JS value that behaves like `serde_json::Value`'s.
pub struct JsDe(pub JsValue);

impl<'de> de::Deserializer<'de> for JsDe {
    type Error = DeError;

    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Null => visitor.visit_unit(),
            Kind::Bool(b) => visitor.visit_bool(b),
            Kind::U64(n) => visitor.visit_u64(n),
            Kind::I64(n) => visitor.visit_i64(n),
            Kind::F64(x) => visitor.visit_f64(x),
            Kind::Str(s) => visitor.visit_string(s),
            Kind::Array(a) => visit_array(a, visitor),
            Kind::Object(es) => visit_object(es, visitor),
        }
    }

    // The typed entry points below visit only the kinds `serde_json::Value`'s do, and give the
    // error the visitor's default methods would give for any other kind (`wrong`): the same
    // results and messages as going through `deserialize_any`, without instantiating all of
    // its arms for every struct, sequence and number type (several KB of the wasm).

    fn deserialize_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Array(a) => visit_array(a, visitor),
            Kind::Object(es) => visit_object(es, visitor),
            k => Err(wrong(&k, &visitor)),
        }
    }

    fn deserialize_map<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Object(es) => visit_object(es, visitor),
            k => Err(wrong(&k, &visitor)),
        }
    }

    fn deserialize_seq<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Array(a) => visit_array(a, visitor),
            k => Err(wrong(&k, &visitor)),
        }
    }

    fn deserialize_tuple<V: de::Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_f64<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::U64(n) => visitor.visit_u64(n),
            Kind::I64(n) => visitor.visit_i64(n),
            Kind::F64(x) => visitor.visit_f64(x),
            k => Err(wrong(&k, &visitor)),
        }
    }

    fn deserialize_f32<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_u64<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_u32<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_u16<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_u8<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_i64<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_i32<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_i16<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_i8<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_bool<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Bool(b) => visitor.visit_bool(b),
            k => Err(wrong(&k, &visitor)),
        }
    }

    fn deserialize_string<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Str(s) => visitor.visit_string(s),
            k => Err(wrong(&k, &visitor)),
        }
    }

    fn deserialize_str<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_string(visitor)
    }

    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match kind(&self.0)? {
            Kind::Str(s) => visitor.visit_enum(s.into_deserializer()),
            Kind::Object(mut es) if es.len() == 1 => {
                let (variant, value) = es.remove(0);
                visitor.visit_enum(Enum(variant, value))
            }
            k => Err(not_enum(&k)),
        }
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct identifier ignored_any
    }
}

/// `visitor.visit_seq` over the elements, all of which it must take.
fn visit_array<'de, V: de::Visitor<'de>>(a: Vec<JsValue>, visitor: V) -> Result<V::Value, DeError> {
    let len = a.len();
    let mut seq = Seq(a.into_iter());
    let out = visitor.visit_seq(&mut seq)?;
    if seq.0.len() == 0 {
        Ok(out)
    } else {
        Err(leftover(len, "fewer elements in array"))
    }
}

/// `visitor.visit_map` over the entries, all of which it must take.
fn visit_object<'de, V: de::Visitor<'de>>(
    es: Vec<(String, JsValue)>,
    visitor: V,
) -> Result<V::Value, DeError> {
    let len = es.len();
    let mut map = Map(es.into_iter(), None);
    let out = visitor.visit_map(&mut map)?;
    if map.0.len() == 0 {
        Ok(out)
    } else {
        Err(leftover(len, "fewer elements in map"))
    }
}

struct Seq(std::vec::IntoIter<JsValue>);

impl<'de> de::SeqAccess<'de> for Seq {
    type Error = DeError;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        self.0.next().map(|v| seed.deserialize(JsDe(v))).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Map(std::vec::IntoIter<(String, JsValue)>, Option<JsValue>);

impl<'de> de::MapAccess<'de> for Map {
    type Error = DeError;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match self.0.next() {
            Some((k, v)) => {
                self.1 = Some(v);
                seed.deserialize(k.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, DeError> {
        match self.1.take() {
            Some(v) => seed.deserialize(JsDe(v)),
            None => Err(de::Error::custom("value is missing")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// `{variant: value}`.
struct Enum(String, JsValue);

impl<'de> de::EnumAccess<'de> for Enum {
    type Error = DeError;
    type Variant = JsDe;
    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, JsDe), DeError> {
        let tag = seed.deserialize(self.0.into_deserializer())?;
        Ok((tag, JsDe(self.1)))
    }
}

impl<'de> de::VariantAccess<'de> for JsDe {
    type Error = DeError;
    fn unit_variant(self) -> Result<(), DeError> {
        match kind(&self.0)? {
            Kind::Null => Ok(()),
            k => Err(wrong(&k, &"unit")),
        }
    }
    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: de::Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_any(self, visitor)
    }
    fn struct_variant<V: de::Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::{float_text, heapsort, number_text, AnalysisOptions, Unexpected};
    use serde::de::Unexpected as U;

    /// The analysis options take the command line's traffic range, to its ends.
    #[test]
    fn analysis_options_take_the_analysis_traffic_range() {
        let (lo, hi) = analysis::cli::CALLS_PER_MINUTE;
        let ok = |x: f64| {
            AnalysisOptions {
                calls_per_minute: x,
            }
            .validate()
            .is_ok()
        };
        assert!(ok(lo) && ok(hi));
        assert!(!ok(f64::from_bits(lo.to_bits() - 1)) && !ok(f64::from_bits(hi.to_bits() + 1)));
    }

    #[test]
    fn heapsort_sorts_as_sort_unstable() {
        let mut seed = 12345u64;
        for n in [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 100, 1000] {
            let keys: Vec<String> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // Few distinct lengths and letters: many ties and shared prefixes.
                    let len = (seed >> 60) as usize % 4;
                    (0..len)
                        .map(|i| char::from(b'a' + ((seed >> (8 * i + 20)) % 3) as u8))
                        .collect()
                })
                .collect();
            let mut ours = keys.clone();
            heapsort(&mut ours, |s| s);
            let mut std = keys;
            std.sort_unstable();
            assert_eq!(ours, std);
        }
        let mut mixed: Vec<String> = ["é", "z", "\u{1f600}", "\u{e000}", "A", ""]
            .map(String::from)
            .to_vec();
        heapsort(&mut mixed, |s| s);
        assert_eq!(mixed, ["", "A", "z", "é", "\u{e000}", "\u{1f600}"]);
    }

    /// `float_text` writes a finite double as `serde_json` does: the edges of its fixed
    /// notation (decimal exponents -5 and 15 against -6 and 16), signs, the subnormals, the
    /// largest, every power of two, and many doubles: any bits, or a few odd bits times a power
    /// of two (short exact expansions, where the ties fall: from 2^-25 to below 2^51).
    #[test]
    fn float_text_as_serde_json() {
        let mut xs = vec![
            0.0,
            1.0,
            0.5,
            1e-5,
            9.99e-6,
            1e-6,
            1.5e15,
            9.999999999999998e15,
            1e16,
            9007199254740994.0,
            0.1 + 0.2,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            f64::EPSILON,
        ];
        // Every power of two, the subnormal ones too (`powi` gives 0 below 2^-1023).
        xs.extend((1..2047u64).map(|e| f64::from_bits(e << 52)));
        xs.extend((0..52).map(|k| f64::from_bits(1 << k)));
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..300_000u64 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = if i % 2 == 0 {
                f64::from_bits(seed >> 1)
            } else {
                let bits = 1 + (seed >> 58) % 53;
                let m = ((seed >> 3) & ((1u64 << bits) - 1)) | 1;
                m as f64 * 2f64.powi((seed >> 40) as i32 % 160 - 100)
            };
            if x.is_finite() {
                xs.push(x);
            }
        }
        let mut ties = 0;
        for &x in &xs {
            for x in [x, -x] {
                let json = serde_json::to_string(&x).unwrap();
                assert_eq!(float_text(x), json, "{x:e}");
                // Halfway, where Rust's `Display` writes other digits.
                let digits = |t: &str| -> String {
                    let t = t.split('e').next().unwrap().replace(['-', '.'], "");
                    t.trim_matches('0').to_string()
                };
                ties += usize::from(x > 0.0 && digits(&json) != digits(&format!("{x:e}")));
            }
        }
        // 492 of the doubles (each counted once, not with both signs).
        assert!(ties > 400, "{ties} ties");
    }

    /// `number_text` keeps a whole number's digits where the command line reads them as a
    /// `u64` or an `i64` (Rust's shortest digits, padded with zeros), and falls back to
    /// `float_text` past them and for fractions.
    #[test]
    fn number_text_as_the_command_line_shows() {
        for (x, want) in [
            (0.0, "0"),
            (7.0, "7"),
            (-7.0, "-7"),
            (9007199254740992.0, "9007199254740992"),
            (2f64.powi(60), "1152921504606847000"),
            (2f64.powi(63) - 1024.0, "9223372036854775000"),
            // JSON.stringify writes -2^63 as -9223372036854776000: past an i64.
            (-(2f64.powi(63)), "-9.223372036854776e+18"),
            (2f64.powi(64), "1.8446744073709552e+19"),
            (1709292416539055.0 + 0.25, "1709292416539055.2"),
            (0.5, "0.5"),
            (1e300, "1e+300"),
        ] {
            assert_eq!(number_text(x), want, "{x:e}");
        }
    }

    /// Every kind but those named the `serde_json` way (unit, float, string) reads as serde's
    /// own `Display` of it; strings as `string {:?}` for ordinary text.
    #[test]
    fn unexpected_as_serde() {
        for u in [
            U::Bool(true),
            U::Unsigned(7),
            U::Signed(-7),
            U::Char('x'),
            U::Bytes(b"ab"),
            U::Option,
            U::NewtypeStruct,
            U::Seq,
            U::Map,
            U::Enum,
            U::UnitVariant,
            U::NewtypeVariant,
            U::TupleVariant,
            U::StructVariant,
            U::Other("something else"),
            U::Str("fast \"x\"\n"),
            U::Str("déjà 日本 🙂"),
        ] {
            assert_eq!(Unexpected(u).to_string(), u.to_string());
        }
        assert_eq!(Unexpected(U::Unit).to_string(), "null");
        assert_eq!(
            Unexpected(U::Float(0.5)).to_string(),
            "floating point `0.5`"
        );
    }
}
