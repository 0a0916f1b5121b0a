//! Golden trace hashes: SHA-256 of each preset's canonical event trace (`sim::trace_hash`),
//! against the one pinned table `sim::GOLDEN_TRACE_HASHES`, which the browser tests check too.

use sha2::Digest;
use sim::{BreakerKind, GOLDEN_TRACE_HASHES as GOLDEN};

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
    // Each line names its event: breaker, time (shortest round-trip form), caller, states and
    // generation, statistical's events before window's, in order.
    let events = BreakerKind::ALL
        .iter()
        .flat_map(|&k| r.breakers.get(k).events.iter().map(move |e| (k, e)));
    for (line, (kind, e)) in text.lines().zip(events) {
        let f: Vec<&str> = line.splitn(7, ' ').collect();
        assert_eq!(f[0], kind.as_str(), "{line}");
        assert_eq!(f[1].parse::<f64>().unwrap(), e.t_s, "{line}");
        assert_eq!(f[2], e.caller.to_string(), "{line}");
        assert_eq!((f[3], f[4]), (e.from.as_str(), e.to.as_str()), "{line}");
        assert_eq!(f[5], e.generation.to_string(), "{line}");
        assert_eq!(f[6], format!("{:?}", e.reason), "{line}");
    }
    assert!(text.contains("\nwindow "), "both breakers' events");
    // The hash is the SHA-256 of that text, in lower-case hex.
    let digest = sha2::Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(sim::trace_hash(&r), hex);
}
