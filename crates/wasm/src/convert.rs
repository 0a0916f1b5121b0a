//! JS values <-> the simulator's settings and results.
//!
//! Settings arrive as plain JS objects and go through `serde_json::Value`, so the page's settings
//! are exactly the JSON the CLI reads. When an object does not deserialize, the error names the
//! first field that breaks it (found by placing the given fields one by one over the defaults),
//! in the same `<field> = <value> is invalid: ...` form as the simulator's validation.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sim::Scenario;
use wasm_bindgen::prelude::*;

/// Serialize a result for JS: plain objects (not `Map`s), `u64` as numbers, `None` as `null`.
pub fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("could not return a result to JS: {e}")))
}

/// A JS value as JSON data.
pub fn to_value(v: &JsValue, what: &str) -> Result<Value, JsError> {
    serde_wasm_bindgen::from_value(v.clone())
        .map_err(|e| JsError::new(&format!("{what}: not plain JSON data: {e}")))
}

/// Read a scenario object and validate it.
pub fn scenario_from_js(v: &JsValue) -> Result<Scenario, JsError> {
    let value = to_value(v, "scenario")?;
    scenario_from_value(value).map_err(|m| JsError::new(&m))
}

/// Read a scenario from JSON data and validate it; the error names the field.
pub fn scenario_from_value(value: Value) -> Result<Scenario, String> {
    if !value.is_object() {
        return Err(format!(
            "scenario = {value} is invalid: allowed an object of settings"
        ));
    }
    match serde_json::from_value::<Scenario>(value.clone()) {
        Ok(s) => {
            s.validate().map_err(|e| e.to_string())?;
            Ok(s)
        }
        Err(e) => Err(
            blame::<Scenario>(&value, &Scenario::default().to_value(), phase_default)
                .unwrap_or_else(|| format!("scenario is invalid: {e}")),
        ),
    }
}

/// Read a settings object of type `T`; the error names `what.field`.
pub fn from_js_named<T: DeserializeOwned + Serialize + Default>(
    v: &JsValue,
    what: &str,
) -> Result<T, JsError> {
    let value = to_value(v, what)?;
    serde_json::from_value::<T>(value.clone()).map_err(|e| {
        let base = serde_json::to_value(T::default()).unwrap_or(Value::Null);
        let msg = blame::<T>(&value, &base, |_| Value::Null)
            .map(|m| format!("{what}.{m}"))
            .unwrap_or_else(|| format!("{what} is invalid: {e}"));
        JsError::new(&msg)
    })
}

/// The analysis options the page sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnalysisOptions {
    /// The traffic the curves assume (calls per minute).
    pub calls_per_minute: f64,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            calls_per_minute: 60.0,
        }
    }
}

fn phase_default(path: &str) -> Value {
    if path == "dependency" {
        serde_json::to_value(sim::Phase::default()).unwrap_or(Value::Null)
    } else {
        Value::Null
    }
}

/// Place the leaves of `given` one at a time over `base` and return a message naming the first
/// that makes `T` fail to deserialize. `item_default(array_path)` gives the value a new array
/// element starts from.
fn blame<T: DeserializeOwned>(
    given: &Value,
    base: &Value,
    item_default: impl Fn(&str) -> Value,
) -> Option<String> {
    let mut leaves = Vec::new();
    collect(given, String::new(), &mut leaves);
    let mut cur = base.clone();
    for (path, leaf) in leaves {
        place(&mut cur, &path, leaf.clone(), &item_default);
        if let Err(e) = serde_json::from_value::<T>(cur.clone()) {
            return Some(format!("{path} = {leaf} is invalid: {e}"));
        }
    }
    None
}

fn collect(v: &Value, prefix: String, out: &mut Vec<(String, Value)>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                collect(x, join(k), out);
            }
        }
        Value::Array(a) if !a.is_empty() && a.iter().all(|x| x.is_object()) => {
            for (i, x) in a.iter().enumerate() {
                collect(x, join(&i.to_string()), out);
            }
        }
        _ => out.push((prefix, v.clone())),
    }
}

fn place(root: &mut Value, path: &str, leaf: Value, item_default: &impl Fn(&str) -> Value) {
    let mut cur = root;
    let mut walked = String::new();
    for seg in path.split('.') {
        let here = if walked.is_empty() {
            seg.to_string()
        } else {
            format!("{walked}.{seg}")
        };
        cur = match cur {
            Value::Array(a) => {
                let i: usize = seg.parse().unwrap_or(0);
                while a.len() <= i {
                    a.push(item_default(&walked));
                }
                &mut a[i]
            }
            other => {
                if !other.is_object() {
                    *other = Value::Object(Default::default());
                }
                other
                    .as_object_mut()
                    .expect("made an object above")
                    .entry(seg.to_string())
                    .or_insert(Value::Null)
            }
        };
        walked = here;
    }
    *cur = leaf;
}
