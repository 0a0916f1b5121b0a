//! Golden trace hashes: SHA-256 of each preset's canonical event trace (`sim::trace_hash`).
//! The wasm build checks the same hashes, so a change here is a change in behaviour: update
//! them only on purpose, and say why in the commit.

const GOLDEN: [(&str, &str); 7] = [
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

fn check(names: &[&str]) {
    let mut wrong = vec![];
    for &(name, want) in GOLDEN.iter().filter(|(n, _)| names.contains(n)) {
        let s = sim::preset(name).unwrap();
        let r = sim::run(&s, 10).unwrap();
        let got = sim::trace_hash(&r);
        if got != want {
            wrong.push(format!("(\"{name}\", \"{got}\"),"));
        }
    }
    assert!(
        wrong.is_empty(),
        "trace hashes changed:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_preset_has_a_golden_hash() {
    let names: Vec<&str> = sim::presets().iter().map(|p| p.name).collect();
    let golden: Vec<&str> = GOLDEN.iter().map(|g| g.0).collect();
    let mut a = names.clone();
    a.sort();
    let mut b = golden.clone();
    b.sort();
    assert_eq!(a, b);
    for p in sim::presets() {
        assert!(!p.story.is_empty());
        p.scenario().validate().unwrap();
    }
}

#[test]
fn golden_hashes_small_presets() {
    check(&[
        "recovery-warmup",
        "bad-day",
        "quiet-service",
        "bursty-failures",
        "late-results",
    ]);
}

#[test]
fn golden_hash_normal_week() {
    check(&["normal-week"]);
}

/// 26 million calls: about 10 s (the workspace optimizes `sim` and `breaker` in test builds).
#[test]
fn golden_hash_busy_service() {
    check(&["busy-service"]);
}

#[test]
fn canonical_trace_is_one_line_per_event() {
    let r = sim::run(&sim::preset("recovery-warmup").unwrap(), 10).unwrap();
    let text = sim::canonical_trace(&r);
    let n = r.breakers.statistical.events.len() + r.breakers.window.events.len();
    assert_eq!(text.lines().count(), n);
    assert!(text.starts_with("statistical "), "{text}");
    assert_eq!(sim::trace_hash(&r).len(), 64);
}
