//! `breaker analyze`'s refusals read as one short line, and its text says what each figure is.

mod support;

use support::{refusal, success};

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

/// Every figure of a run-length line says its kind, as the JSON's `kind` does (the Brook-Evans
/// chain's was printed as "markov chain" alone, though it is an approximation).
#[test]
fn every_run_length_figure_says_its_kind() {
    let kinds = [
        "bound >= ",
        "exact ",
        "markov chain approximation ",
        "wald approximation ",
        "simulated ",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for cmd in ["false-alarms", "open-delay"] {
        let out = success(&["analyze", cmd, "--simulate", "200", "--line-calls", "1e3"]);
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().split_once(": "))
            .filter(|(what, _)| {
                ["calls between false alarms", "calls to open", "time"].contains(what)
            })
            .map(|(_, figures)| figures)
            .collect();
        assert_eq!(lines.len(), 2, "{cmd}: {text}");
        for figures in lines {
            for part in figures.split(" | ") {
                let kind = kinds.iter().find(|k| part.starts_with(**k));
                assert!(kind.is_some(), "{cmd}: {part:?} in {figures:?}");
                seen.insert(*kind.unwrap());
            }
        }
    }
    assert_eq!(
        seen.len(),
        kinds.len(),
        "each kind printed somewhere: {seen:?}"
    );
}

/// A Wald approximation below the proven bound is said to be off (p0 = 0.001%, p1 = 99%: 2.150e6
/// calls against a bound of 9.900e6); above it (the defaults), nothing is added.
#[test]
fn a_wald_approximation_below_the_bound_says_so() {
    let text = |args: &[&str]| String::from_utf8(success(args).stdout).unwrap();
    let t = text(&[
        "analyze",
        "false-alarms",
        "--fine",
        "0.001%",
        "--broken",
        "99%",
    ]);
    assert!(
        t.contains(
            "calls between false alarms: bound >= 9.900e6 | exact 5.000e9 (+-1.421e-4) | markov \
             chain approximation 5.000e9 (+-0.2505) | wald approximation 2.150e6 (below the \
             bound: it leaves out the overshoot past the line)\n"
        ),
        "{t}"
    );
    assert!(t.contains("| wald approximation 24.88 d (below the bound: it leaves out the overshoot past the line)\n"), "{t}");
    let t = text(&["analyze", "false-alarms"]);
    assert!(
        t.contains("| wald approximation ") && !t.contains("below the bound"),
        "{t}"
    );
}

/// A command `analyze` does not know points to `analyze curves` too; a flag's value that says
/// "unknown command" does not (its message quoted the value and got the pointer appended).
#[test]
fn only_a_command_refused_points_to_curves() {
    let curves = "; or curves (the page's five analysis charts for a scenario: breaker analyze \
                  curves --help)\n";
    assert!(refusal(&["analyze", "bogus"]).ends_with(curves));
    assert!(refusal(&["analyze"]).ends_with(curves));
    assert_eq!(
        refusal(&["analyze", "false-alarms", "--fine", "unknown command"]),
        "breaker: --fine: \"unknown command\" is not a rate: use 0.05 or 5%; allowed 0 < fine < 1 \
         (e.g. 5%)\n"
    );
}
