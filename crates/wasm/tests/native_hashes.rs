//! Natively, every preset's trace hash equals the pinned table (`golden/mod.rs`), which the
//! browser test compares against too.
#![cfg(not(target_arch = "wasm32"))]

mod golden;

#[test]
fn every_preset_hashes_as_pinned() {
    let print = std::env::var_os("PRINT_HASHES").is_some();
    let mut got = Vec::new();
    for p in sim::presets() {
        let r = sim::run(&p.scenario(), 0).expect("a preset runs");
        got.push((p.name, sim::trace_hash(&r)));
    }
    if print {
        for (n, h) in &got {
            println!("    (\"{n}\", \"{h}\"),");
        }
    }
    let want: Vec<(&str, String)> = golden::GOLDEN_TRACE_HASHES
        .iter()
        .map(|(n, h)| (*n, h.to_string()))
        .collect();
    assert_eq!(
        got, want,
        "native trace hashes differ from the pinned table"
    );
}
