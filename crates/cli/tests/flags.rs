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
