//! Each preset's trace hash (`sim::trace_hash` of the whole run), pinned. The native test
//! (`native_hashes.rs`) and the browser test (`web.rs`) both compare against this table, so a
//! pass on both means wasm and native runs agree call for call.
//!
//! Regenerate after an intended change to the simulator or a preset with
//! `PRINT_HASHES=1 cargo test -p breaker-wasm --test native_hashes -- --nocapture`.

/// (preset name, SHA-256 hex of its canonical trace).
pub const GOLDEN_TRACE_HASHES: &[(&str, &str)] = &[
    (
        "recovery-warmup",
        "06f0736797fcfc5ea9a7b0e6952c64ece010afebcc65d8b69f6e51eb9d33d184",
    ),
    (
        "normal-week",
        "09115d662c021d479dac15f5d40bffb57b085b0d2752a9eba5cb4fc3799785d2",
    ),
    (
        "bad-day",
        "19f45cb97db252e29ea4f6bf3a3abb61c513e18120f5d58d32c148be557d695e",
    ),
    (
        "quiet-service",
        "c643792cde83222878faa75bb14ba9997f67a98d3e3632ae76eda9b78ca8d2cf",
    ),
    (
        "busy-service",
        "ab93dc20477551e63dffbf8a8b18211151e66928c9d10655a55618153f4b97f1",
    ),
    (
        "bursty-failures",
        "0532c627f9414709839e6eb81513ca3c329fe30f244ae733396669db72855b68",
    ),
    (
        "late-results",
        "b62dc4213a05ea5aaea8e3b3dd0afd35b54553fd7169a964e8d571b5da6fb107",
    ),
];
