//! The window breaker in `recovery-warmup` must reproduce the experiment's stated rules call for
//! call. The rules are re-implemented here plainly, on call numbers (call n at t = n/5 s), with
//! no code shared with the simulator or the breaker crate.

use breaker::State;
use sim::BreakerKind;

#[derive(Debug, Clone, Copy, PartialEq)]
enum S {
    Closed,
    Open,
    HalfOpen,
}

/// (call number at which the transition happens, from, to)
fn rules() -> Vec<(u64, S, S)> {
    played().0
}

/// A rejected call's number and whether the dependency would have answered it.
type Rejected = (u64, bool);

/// The rules played out: the transitions ([`rules`]) and every rejected call's number with
/// whether the dependency would have answered it (its drawn outcome a success and, in the
/// warm-up, fewer than 2 successes of admitted calls in the open second before it: a rejected
/// call uses no capacity).
fn played() -> (Vec<(u64, S, S)>, Vec<Rejected>) {
    const WINDOW: usize = 20;
    const PROBES: usize = 3;
    const WAIT_CALLS: u64 = 25; // 5 s at 5 calls/s
    let mut out = vec![];
    let mut state = S::Closed;
    let mut window: Vec<bool> = vec![]; // true = failed
    let mut probes: Vec<bool> = vec![];
    let mut opened_at = 0u64;
    // Call numbers of calls that succeeded.
    let mut successes: Vec<u64> = vec![];
    // Rejected calls counted as good in the warm-up: had they been admitted, they would have
    // taken the capacity too, so they count against the next rejected ones (not against
    // admitted calls, which meet the real dependency).
    let mut good_rejected: Vec<u64> = vec![];
    let mut rejected = vec![];
    for n in 1..=300u64 {
        // t = n/5: outage 8 <= t < 30 is 40 <= n < 150; warm-up 30 <= t < 40 is 150 <= n < 200.
        if state == S::Open {
            if n >= opened_at + WAIT_CALLS {
                out.push((n, S::Open, S::HalfOpen));
                state = S::HalfOpen;
                probes.clear();
            } else {
                // Rejected: reaches neither the dependency nor the window.
                let drawn_ok = if !(40..200).contains(&n) {
                    n % 10 != 0
                } else {
                    n >= 150
                };
                let recent = successes
                    .iter()
                    .chain(&good_rejected)
                    .filter(|&&m| m + 5 > n && m < n)
                    .count();
                let warm_up = (150..200).contains(&n);
                let good = drawn_ok && !(warm_up && recent >= 2);
                if good && warm_up {
                    good_rejected.push(n);
                }
                rejected.push((n, good));
                continue;
            }
        }
        let failed = if !(40..200).contains(&n) {
            n % 10 == 0
        } else if n < 150 {
            true
        } else {
            // Successes in the open interval (t - 1 s, t): calls m with n - 5 < m < n.
            let recent = successes.iter().filter(|&&m| m + 5 > n && m < n).count();
            recent >= 2
        };
        if !failed {
            successes.push(n);
        }
        match state {
            S::Closed => {
                window.push(failed);
                if window.len() > WINDOW {
                    window.remove(0);
                }
                let fails = window.iter().filter(|&&f| f).count();
                if window.len() == WINDOW && fails * 2 >= WINDOW {
                    out.push((n, S::Closed, S::Open));
                    state = S::Open;
                    opened_at = n;
                }
            }
            S::HalfOpen => {
                probes.push(failed);
                if probes.len() == PROBES {
                    let fails = probes.iter().filter(|&&f| f).count();
                    if fails * 2 < PROBES {
                        out.push((n, S::HalfOpen, S::Closed));
                        state = S::Closed;
                        window.clear();
                    } else {
                        out.push((n, S::HalfOpen, S::Open));
                        state = S::Open;
                        opened_at = n;
                    }
                }
            }
            S::Open => unreachable!(),
        }
    }
    (out, rejected)
}

fn s(x: State) -> S {
    match x {
        State::Closed => S::Closed,
        State::Open => S::Open,
        State::HalfOpen => S::HalfOpen,
    }
}

#[test]
fn window_breaker_reproduces_the_rules_call_for_call() {
    let scenario = sim::preset("recovery-warmup").unwrap();
    let r = sim::run(&scenario, 60).unwrap();
    assert_eq!(r.calls, 300);
    let got: Vec<(u64, S, S)> = r
        .breakers
        .get(BreakerKind::Window)
        .events
        .iter()
        .map(|e| {
            let n = (e.t_s * 5.0).round() as u64;
            assert_eq!(e.t_s, n as f64 / 5.0, "transitions happen at call times");
            (n, s(e.from), s(e.to))
        })
        .collect();
    let want = rules();
    assert!(want.len() >= 6, "{want:?}");
    assert_eq!(got, want);
    // The first opening: call 48 (t = 9.6 s): the last 20 calls (29..=48) hold call 30's
    // transient failure and the outage's calls 40..=48: 10 of 20.
    assert_eq!(want[0], (48, S::Closed, S::Open));
}

#[test]
fn the_warm_up_serves_two_calls_a_second_per_copy() {
    // Every admitted call of the window copy during warm-up: successes never exceed 2 in any
    // open second.
    let scenario = sim::preset("recovery-warmup").unwrap();
    let mut sim = sim::Sim::new(&scenario).unwrap();
    let mut ok: Vec<f64> = vec![];
    while sim.step_call() {
        let c = sim.snapshot().last_call.unwrap();
        if (30.0..40.0).contains(&c.t_s) && c.window.outcome == Some(breaker::Outcome::Success) {
            let recent = ok.iter().filter(|&&s| s > c.t_s - 1.0 + 1e-9).count();
            assert!(recent < 2, "at {}", c.t_s);
            ok.push(c.t_s);
        }
    }
    assert!(!ok.is_empty());
}

/// The window breaker's rejected calls, call for call, against the rules: which calls it
/// rejects, and which of them the dependency would have answered (`good_calls_to_fallback`):
/// none in the outage; in the warm-up, those its copy of the dependency would not have shed
/// (fewer than 2 calls answered, or rejected and counted as good, in the second before).
#[test]
fn rejected_calls_and_those_the_dependency_would_have_answered() {
    let (_, want) = played();
    // The rules reject calls in the outage (none would be answered) and in the warm-up (some
    // would be answered, some shed).
    let part = |lo: u64, hi: u64| want.iter().filter(|(n, _)| (lo..hi).contains(n)).count();
    let good = |lo: u64, hi: u64| {
        want.iter()
            .filter(|(n, ok)| *ok && (lo..hi).contains(n))
            .count()
    };
    assert!(part(40, 150) > 0 && good(40, 150) == 0, "{want:?}");
    assert!(
        good(150, 200) > 0 && good(150, 200) < part(150, 200),
        "{want:?}"
    );

    let scenario = sim::preset("recovery-warmup").unwrap();
    let mut sim = sim::Sim::new(&scenario).unwrap();
    let mut rejected = vec![];
    while sim.step_call() {
        let c = sim.snapshot().last_call.unwrap();
        if !c.window.verdict.admitted() {
            rejected.push(c.index);
        }
    }
    let numbers: Vec<u64> = want.iter().map(|(n, _)| *n).collect();
    assert_eq!(rejected, numbers);
    let m = &sim.result().breakers.window.metrics;
    assert_eq!(m.calls_rejected, want.len() as u64);
    let good = want.iter().filter(|(_, ok)| *ok).count() as u64;
    assert_eq!(m.good_calls_to_fallback, good);
}
