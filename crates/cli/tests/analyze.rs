//! `breaker analyze`'s refusals read as one short line.

mod support;

use support::refusal;

/// A tiny or huge value is echoed with an exponent: `{}` alone wrote `--broken 2e-300` back as
/// `0.000…0002`, 300 zeros, and a sweep to 1e300 as 301 digits.
#[test]
fn tiny_and_huge_values_are_echoed_with_an_exponent() {
    for (args, echo) in [
        (
            &["analyze", "drift", "--fine", "1e-300", "--broken", "2e-300"][..],
            "--broken: 2e-300 is not allowed",
        ),
        (
            &["analyze", "trials", "--sweep", "1e-300:2:5"],
            "--sweep: 1e-300:2:5 is not allowed",
        ),
        (
            &["analyze", "false-alarms", "--sweep", "10:1e300:5"],
            "--sweep: 10:1e300:5 is not allowed",
        ),
        (
            &["analyze", "window", "--sweep", "1e-300:1e300:5"],
            "--sweep: 1e-300:1e300:5 is not allowed",
        ),
    ] {
        let e = refusal(args);
        assert!(e.contains(echo), "{args:?}: {e}");
        assert!(e.len() < 300, "{args:?}: {e}");
    }
    // Ordinary values read as before.
    assert_eq!(
        refusal(&["analyze", "drift", "--fine", "5%", "--broken", "4%"]),
        "breaker: --broken: 0.04 is not allowed: fine (0.05) < broken < 1\n"
    );
}
