// Every leaf setting of a scenario's JSON as the dotted path `--set` takes (included by
// `sim/tests/settings_fuzz.rs` and `sim/tests/scenario.rs`).

/// Every leaf of `v` as a dotted path (`dependency.1.burst.enter`), as `--set` takes it.
fn leaves(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                leaves(x, &join(prefix, k), out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, &join(prefix, &i.to_string()), out);
            }
        }
        _ => out.push(prefix.to_string()),
    }
}

fn join(prefix: &str, k: &str) -> String {
    if prefix.is_empty() {
        k.to_string()
    } else {
        format!("{prefix}.{k}")
    }
}
