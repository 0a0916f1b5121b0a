//! `breaker run`'s flags together: which one wins when two say the same thing.

mod support;

/// The run's header line.
fn header(args: &[&str]) -> String {
    support::stdout(args).lines().next().unwrap().to_string()
}

/// `--seed N` is `--set seed=N` at its place: the last one given wins, as between two `--set`s.
/// It was applied before every `--set` wherever it stood, so a script's `--seed $i` after a
/// fixed `--set seed=1` ran seed 1 every time, silently.
#[test]
fn the_last_seed_given_wins() {
    let p = ["run", "--preset", "recovery-warmup"];
    let with = |more: &[&str]| header(&[&p[..], more].concat());
    assert!(with(&["--set", "seed=3", "--seed", "4"]).contains(": seed 4,"));
    assert!(with(&["--seed", "4", "--set", "seed=3"]).contains(": seed 3,"));
    assert!(with(&["--seed", "4", "--seed", "5"]).contains(": seed 5,"));
    assert!(with(&["--seed", "4"]).contains(": seed 4,"));
}

/// A flag that names one thing (the start, the trace, the output) given twice is refused, as
/// `--preset` with `--scenario` is: the last one silently won (`--preset bad-day --preset
/// late-results` ran late-results). `--seed` and `--set` stay repeatable, the last one winning.
#[test]
fn a_flag_of_one_value_given_twice_is_refused() {
    for (args, flag) in [
        (
            &["run", "--preset", "bad-day", "--preset", "late-results"][..],
            "--preset",
        ),
        (
            &["run", "--scenario", "a.json", "--scenario", "b.json"],
            "--scenario",
        ),
        (&["run", "--trace", "a.csv", "--trace", "b.csv"], "--trace"),
        (
            &[
                "run", "--preset", "bad-day", "--format", "json", "--format", "text",
            ],
            "--format",
        ),
        (
            &[
                "run",
                "--preset",
                "bad-day",
                "--buckets",
                "5",
                "--buckets",
                "5",
            ],
            "--buckets",
        ),
        (
            &[
                "analyze", "curves", "--preset", "bad-day", "--preset", "bad-day",
            ],
            "--preset",
        ),
        (
            &["analyze", "curves", "--format", "json", "--format", "text"],
            "--format",
        ),
        (&["analyze", "drift", "--fine", "1%", "--fine=2%"], "--fine"),
        (
            &["analyze", "window", "--window", "10", "--window", "20"],
            "--window",
        ),
    ] {
        assert_eq!(
            support::refusal(args),
            format!("breaker: {flag}: given twice\n"),
            "{args:?}"
        );
    }
}

/// A flag the `analyze` command does not read is refused, naming both: it was ignored, so
/// `drift --simulate 1000` printed exact figures only and `trials --line-calls 100` the same as
/// without, unsaid. A flag every command reads is taken by each.
#[test]
fn analyze_refuses_a_flag_its_command_does_not_use() {
    for (cmd, flag, value) in [
        ("drift", "--simulate", "1000"),
        ("drift", "--period", "1d"),
        ("drift", "--half-open-time-factor", "2"),
        ("drift", "--window", "10"),
        ("drift", "--a", "2%"),
        ("drift", "--rps", "3"),
        ("drift", "--calls-per-minute", "6000"),
        ("window", "--b", "10%"),
        ("trials", "--line-calls", "100"),
        ("trials", "--period", "1d"),
        ("trials", "--baseline", "1%"),
        ("false-alarms", "--threshold", "10%"),
        ("open-delay", "--min-calls", "10"),
        ("open-delay", "--half-open-time-factor", "2"),
        ("window", "--a", "1%"),
        ("window", "--line-calls", "100"),
        ("window", "--half-open-time-factor", "2"),
    ] {
        assert_eq!(
            support::refusal(&["analyze", cmd, flag, value]),
            format!("breaker: {flag}: {cmd} does not use it (see breaker analyze {cmd} --help)\n")
        );
        // The help it points to lists the flags the command reads, this one not among them.
        let help = support::stdout(&["analyze", cmd, "--help"]);
        assert!(!help.contains(&format!("\n  {flag} ")), "{cmd}: {help}");
    }
    for cmd in ["false-alarms", "open-delay", "trials", "window", "drift"] {
        let mut args = vec!["analyze", cmd, "--fine", "2%", "--broken", "30%"];
        if cmd != "drift" {
            args.extend(["--rps", "3"]);
        }
        args.extend(["--true-rate", "40%", "--format", "json"]);
        support::stdout(&args);
    }
    support::stdout(&["analyze", "trials", "--a", "2%", "--b", "10%"]);
    support::stdout(&[
        "analyze",
        "trials",
        "--half-open-time-factor",
        "2",
        "--simulate",
        "10",
    ]);
    support::stdout(&[
        "analyze",
        "window",
        "--window",
        "5",
        "--threshold",
        "40%",
        "--min-calls",
        "3",
        "--baseline",
        "1%",
        "--seed",
        "2",
        "--simulate",
        "10",
    ]);
    support::stdout(&["analyze", "open-delay", "--period", "1d"]);
    support::stdout(&["analyze", "open-delay", "--line-calls", "100"]);
}

/// `breaker analyze <command> --help` lists the command and exactly the flags it reads: each
/// flag of the whole usage is in a command's help if and only if the command takes it (every
/// command printed the same usage, with every flag).
#[test]
fn analyze_command_help_lists_the_flags_it_reads() {
    let all = support::stdout(&["analyze", "--help"]);
    let flags: Vec<&str> = all
        .lines()
        .filter_map(|l| l.strip_prefix("  --"))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(flags.len(), 18, "{all}");
    let value = |flag: &str| match flag {
        "line-calls" | "window" | "min-calls" | "simulate" | "seed" => "10",
        "period" => "1d",
        "half-open-time-factor" | "calls-per-minute" | "rps" => "2",
        "sweep" => "0.01:0.02:2",
        "format" => "json",
        _ => "1%",
    };
    for cmd in ["false-alarms", "open-delay", "trials", "window", "drift"] {
        let help = support::stdout(&["analyze", cmd, "--help"]);
        assert!(
            help.starts_with(&format!("usage: breaker analyze {cmd} [flags]\n\n  {cmd} ")),
            "{help}"
        );
        assert!(!help.contains("curves"), "{help}");
        let mut listed = 0;
        for flag in &flags {
            let shown = help.contains(&format!("\n  --{flag} "));
            let args = ["analyze", cmd, &format!("--{flag}"), value(flag)];
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_breaker"))
                .args(args)
                .output()
                .unwrap();
            let refused = out.status.code() == Some(2)
                && String::from_utf8(out.stderr)
                    .unwrap()
                    .contains("does not use it");
            assert_eq!(shown, !refused, "{cmd} --{flag}");
            listed += shown as usize;
        }
        assert!(listed >= 5, "{cmd}: {help}");
    }
    assert!(all.ends_with("curves (the page's five analysis charts for a scenario: breaker analyze curves --help)\n"), "{all}");
}
