//! Each part of the dependency model against numbers worked out here, independently.

use breaker::Outcome;
use sim::{Arrivals, BreakerKind, Phase, Scenario, Sim, Verdict};

/// Even arrivals, one phase, breakers that never open within the run.
fn base(calls_per_minute: f64, duration: f64, phase: Phase) -> Scenario {
    let mut s = Scenario {
        duration,
        dependency: vec![phase],
        ..Scenario::default()
    };
    s.traffic.calls_per_minute = calls_per_minute;
    s.traffic.arrivals = Arrivals::Even;
    s.window.minimum_number_of_calls = 1_000_000;
    s.window.sliding_window_size = 1_000_000;
    s
}

fn zero_latency() -> Phase {
    Phase {
        latency: 0.0,
        failure_latency: 0.0,
        failure_rate: 0.0,
        ..Phase::default()
    }
}

#[test]
fn one_in_ten_fails_exactly_ten_percent() {
    // 10 calls/s for 100 s: calls 1..=1000, failures at multiples of 10 = 100.
    let s = base(
        600.0,
        100.0,
        Phase {
            one_in: 10,
            ..zero_latency()
        },
    );
    let r = sim::run(&s, 10).unwrap();
    assert_eq!(r.calls, 1000);
    let w = &r.breakers.window;
    assert_eq!(w.totals.admitted, 1000);
    assert_eq!(w.totals.failed, 100);
    assert_eq!(w.totals.answered, 900);
    // "1 in 10" at 10%: below the zero-drift rate of the default statistical settings as a
    // deterministic pattern (ln 4 - 9 x 0.172 < 0 per 10 calls): it never opens either.
    assert!(r.breakers.statistical.events.is_empty());
    assert_eq!(r.breakers.statistical.totals.failed, 100);
}

#[test]
fn capacity_two_per_second_at_five_calls_per_second_sheds_three_a_second() {
    // Calls at k/5 s. Worked by hand: a call succeeds iff fewer than 2 successes in the open
    // second before it. 0.2 ok, 0.4 ok, 0.6/0.8/1.0 shed, 1.2 ok (window (0.2, 1.2) holds 0.4
    // only), 1.4 ok, 1.6/1.8/2.0 shed, ...: 3 of every 5 calls, 30 in 10 s.
    let s = base(
        300.0,
        10.0,
        Phase {
            capacity: 2.0,
            ..zero_latency()
        },
    );
    let mut sim = Sim::new(&s).unwrap();
    let mut shed = vec![];
    while sim.step_call() {
        let c = sim.snapshot().last_call.unwrap();
        assert_eq!(c.drawn, Outcome::Success);
        assert_eq!(c.window.verdict, Verdict::Admitted);
        if c.window.outcome == Some(Outcome::Overload) {
            shed.push(c.index);
        }
    }
    assert_eq!(sim.calls(), 50);
    let expected: Vec<u64> = (1..=50).filter(|n| n % 5 >= 3 || n % 5 == 0).collect();
    assert_eq!(shed, expected);
    assert_eq!(shed.len(), 30);
    // Per second: exactly 3 shed in every whole second (k, k+1] for k = 0..9.
    for k in 0..10u64 {
        let in_second = shed
            .iter()
            .filter(|&&n| n > 5 * k && n <= 5 * (k + 1))
            .count();
        assert_eq!(in_second, 3, "second {k}");
    }
    let r = sim.result();
    assert_eq!(r.breakers.window.totals.failed, 30);
}

#[test]
fn a_hung_call_completes_at_the_timeout() {
    let mut s = base(
        1.0,
        200.0,
        Phase {
            hang_rate: 1.0,
            ..zero_latency()
        },
    );
    s.callers.call_timeout = 7.0;
    let mut sim = Sim::new(&s).unwrap();
    assert!(sim.step_call());
    let c = sim.snapshot().last_call.unwrap();
    assert_eq!(c.t_s, 60.0);
    assert_eq!(c.drawn, Outcome::Timeout);
    assert_eq!(c.window.result_at_s, Some(67.0));
    assert_eq!(c.statistical.result_at_s, Some(67.0));
    sim.run_until(66.999);
    assert_eq!(sim.result().breakers.window.totals.failed, 0);
    sim.run_until(67.0);
    let r = sim.result();
    assert_eq!(r.breakers.window.totals.failed, 1);
    assert_eq!(r.breakers.window.metrics.calls_waited_on_failure, 1);
    assert_eq!(r.breakers.statistical.metrics.calls_waited_on_failure, 1);
}

#[test]
fn a_latency_over_the_timeout_becomes_a_timeout() {
    let mut s = base(
        60.0,
        3.0,
        Phase {
            latency: 50.0,
            ..zero_latency()
        },
    );
    s.callers.call_timeout = 1.5;
    let mut sim = Sim::new(&s).unwrap();
    assert!(sim.step_call());
    let c = sim.snapshot().last_call.unwrap();
    assert_eq!(c.drawn, Outcome::Timeout);
    assert_eq!(c.window.result_at_s, Some(2.5));
}

#[test]
fn input_errors_are_neutral() {
    let s = base(
        600.0,
        60.0,
        Phase {
            input_error_rate: 1.0,
            ..zero_latency()
        },
    );
    let r = sim::run(&s, 4).unwrap();
    for k in BreakerKind::ALL {
        let b = r.breakers.get(k);
        assert_eq!(b.totals.results_neutral, 600, "{k:?}");
        assert_eq!(b.totals.results_counted, 0, "{k:?}");
        assert_eq!(b.totals.failed, 0);
        assert!(b.events.is_empty());
    }
}

/// A phase's failure class is what a failing call draws, and a refused connection or a 5xx is
/// a failure both breakers count: every admitted call failed, and its result was counted.
#[test]
fn failure_class_is_carried_and_5xx_counts() {
    for failure in [Outcome::Refused, Outcome::ServerError] {
        let s = base(
            60.0,
            10.0,
            Phase {
                failure_rate: 1.0,
                failure,
                ..zero_latency()
            },
        );
        let mut sim = Sim::new(&s).unwrap();
        sim.step_call();
        assert_eq!(sim.snapshot().last_call.unwrap().drawn, failure);
        let r = sim::run(&s, 10).unwrap();
        for k in BreakerKind::ALL {
            let t = &r.breakers.get(k).totals;
            assert!(t.admitted > 0, "{failure:?} {k:?}");
            assert_eq!(
                (t.answered, t.failed, t.results_counted),
                (0, t.admitted, t.admitted),
                "{failure:?} {k:?}"
            );
        }
    }
}

#[test]
fn late_results_are_ignored_by_the_statistical_breaker_and_counted() {
    // One call a second at whole seconds. Until 100 s every call succeeds after 30.5 s; from
    // 100 s every call fails at once. The breaker opens at some t_open > 100 (read from the
    // event); every success still in flight then (made at a with a + 30.5 > t_open) lands in a
    // later generation and must be ignored, and nothing else is late (the first wait, 60 s,
    // outlasts them all).
    let mut s = base(
        60.0,
        150.0,
        Phase {
            latency: 30.5,
            ..zero_latency()
        },
    );
    s.dependency.push(Phase {
        start: 100.0,
        failure_rate: 1.0,
        ..zero_latency()
    });
    s.statistical.expected_calls_per_minute = 60.0;
    s.callers.call_timeout = 60.0;
    let r = sim::run(&s, 10).unwrap();
    let st = &r.breakers.statistical;
    let open = st.events.first().expect("opens");
    assert_eq!(open.to, breaker::State::Open);
    assert!(open.t_s > 100.0 && open.t_s < 130.0, "{}", open.t_s);
    let expected = (1..100).filter(|&a| a as f64 + 30.5 > open.t_s).count() as u64;
    assert!(expected > 0);
    assert_eq!(st.metrics.late_results_ignored, expected);
    // The late results are not lost from view: the per-bucket count adds up to the same.
    let per_bucket: f64 = st.series.late_ignored.iter().sum();
    assert_eq!(per_bucket as u64, expected);
}

/// Generations where they matter most (design: late results): failures of calls let in before
/// an opening that land while half-open and after the close. A call every 0.5 s; those made
/// in [100, 130) fail after 30 s, all others succeed in 0.1 s. The failures land from 130 s,
/// one beside each success, and open the breaker; after a 5 s wait the trials (successes) close
/// it while failures of the first generation are still landing, until 159.5 s. Counted, they
/// would add ln(p1/p0) each to the trial score or to the new closed score, which nothing but
/// generations keeps them from (in half-open they are also not the trial's, in closed nothing
/// else stops them). Every one landing after the opening must be ignored, and the breaker
/// changes state exactly three times.
#[test]
fn late_failures_move_neither_the_trial_score_nor_the_new_closed_score() {
    let mut s = base(120.0, 200.0, zero_latency());
    s.callers.call_timeout = 60.0;
    s.statistical.first_wait = 5.0;
    s.statistical.call_timeout = 60.0;
    s.statistical.expected_calls_per_minute = 120.0;
    let made = |i: u32| f64::from(i) * 0.5;
    let fails = |t: f64| (100.0..130.0).contains(&t);
    s.trace = Some(
        (1..=400)
            .map(|i| {
                let t = made(i);
                if fails(t) {
                    format!("{t},timeout,30\n")
                } else {
                    format!("{t},success,0.1\n")
                }
            })
            .collect(),
    );
    let r = sim::run(&s, 10).unwrap();
    let st = &r.breakers.statistical;
    let kinds: Vec<_> = st.events.iter().map(|e| (e.from, e.to)).collect();
    use breaker::State::{Closed, HalfOpen, Open};
    assert_eq!(
        kinds,
        [(Closed, Open), (Open, HalfOpen), (HalfOpen, Closed)]
    );
    let (open, half, close) = (st.events[0].t_s, st.events[1].t_s, st.events[2].t_s);
    // Opened by the failures (none lands before 130 s), then a 5 s wait to the first call after it.
    assert!(open > 130.0 && open < 150.0, "{open}");
    assert!(half >= open + 5.0 && half < open + 5.5, "{half}");
    // The trial closed on successes alone: trials to close (from 0) times ln((1 - p1)/(1 - p0)),
    // worked out here from the settings, not taken from the breaker.
    let (p0, p1) = (s.statistical.fine_rate, s.statistical.broken_rate);
    let w_ok = ((1.0 - p1) / (1.0 - p0)).ln();
    let lower =
        (s.statistical.trial_wrongly_closes / (1.0 - s.statistical.trial_wrongly_opens)).ln();
    let to_close = (lower / w_ok - 1e-9).ceil();
    match st.events[2].reason {
        breaker::Reason::TrialReachedLower { trial, .. } => {
            assert!(
                (trial - to_close * w_ok).abs() < 1e-9,
                "{trial} vs {to_close} x {w_ok}"
            )
        }
        ref other => panic!("closed by {other:?}"),
    }
    // The first generation's failures landing after the opening: some while half-open, the
    // rest after the close. All of them ignored, and nothing else.
    let landing: Vec<f64> = (1..=400)
        .map(made)
        .filter(|&t| fails(t))
        .map(|t| t + 30.0)
        .collect();
    let late = landing.iter().filter(|&&at| at > open).count() as u64;
    let in_half_open = landing
        .iter()
        .filter(|&&at| at > half && at < close)
        .count();
    let after_close = landing.iter().filter(|&&at| at > close).count();
    assert!(
        in_half_open > 0 && after_close > 0,
        "{in_half_open} {after_close}"
    );
    assert_eq!(st.metrics.late_results_ignored, late);
}

/// A latency equal to the window's slow-call threshold is not slow, at every call's start (each
/// result lands at `start + latency`, which subtracted back is off by an ulp at many starts):
/// 300 calls, none slow, no opening. A latency one ulp longer makes every call slow.
#[test]
fn a_latency_equal_to_the_slow_threshold_is_never_slow() {
    for (latency, openings) in [(0.3, 0), (f64::from_bits(0.3f64.to_bits() + 1), 1)] {
        let mut s = base(
            300.0,
            60.0,
            Phase {
                latency,
                ..zero_latency()
            },
        );
        s.window.sliding_window_size = 20;
        s.window.minimum_number_of_calls = 20;
        s.window.slow_call_rate_threshold = 0.3;
        s.window.slow_call_duration_threshold = 0.3;
        let r = sim::run(&s, 10).unwrap();
        let w = &r.breakers.window;
        assert_eq!(w.metrics.openings, openings, "latency {latency}");
        if openings == 1 {
            assert!(matches!(
                w.events[0].reason,
                breaker::Reason::SlowCallRate { .. }
            ));
        }
    }
}

#[test]
fn shared_state_lock_drops_updates_as_configured() {
    // 4 callers share one state; each change holds the lock 1 s; a change that would wait more
    // than 2 s is dropped. Calls every 0.5 s with results after 20 s (past the 10 s run), so the
    // only changes are the 20 permit requests at 0.5, 1.0, ..., 10.0. Worked by hand: the lock
    // frees at 1.5, 2.5, 3.5, 4.5, 5.5 after requests 1-5 (waits 0, .5, 1, 1.5, 2); request 6
    // (3.0 s) would wait 2.5 s: dropped; request 7 (3.5 s) waits 2 s exactly: kept; and so on,
    // alternately. Dropped: requests 6, 8, ..., 20 = 8.
    let mut s = base(
        120.0,
        10.0,
        Phase {
            latency: 20.0,
            ..zero_latency()
        },
    );
    s.callers.count = 4;
    s.callers.shared_state = true;
    s.callers.lock_hold = 1.0;
    s.callers.lock_timeout = 2.0;
    let r = sim::run(&s, 10).unwrap();
    assert_eq!(r.calls, 20);
    for k in BreakerKind::ALL {
        let b = r.breakers.get(k);
        assert_eq!(b.metrics.dropped_updates, 8, "{k:?}");
        assert_eq!(
            b.totals.admitted, 20,
            "a dropped permit still lets the call out"
        );
        assert_eq!(b.totals.in_flight_at_end, 20);
    }
    // Which requests were dropped, from the calls' verdicts (a dropped permit request lets the
    // call out as a last option): 6, 8, ..., 20. A wait of exactly the timeout is kept, so the
    // 2 s waits of requests 5, 7, ... go through (dropping them instead drops 5, 7, ..., 19:
    // as many, other calls).
    let mut sim = Sim::new(&s).unwrap();
    let mut last_option = vec![];
    while sim.step_call() {
        let c = sim.snapshot().last_call.unwrap();
        assert_eq!(c.statistical.verdict, c.window.verdict, "call {}", c.index);
        if c.window.verdict == Verdict::LastOption {
            last_option.push(c.index);
        }
    }
    assert_eq!(last_option, (6..=20).step_by(2).collect::<Vec<u64>>());
    // Same traffic, own breakers: no lock, nothing dropped.
    s.callers.shared_state = false;
    let r = sim::run(&s, 10).unwrap();
    assert_eq!(r.breakers.statistical.metrics.dropped_updates, 0);
}

#[test]
fn callers_take_calls_in_turn() {
    let mut s = base(60.0, 10.0, zero_latency());
    s.callers.count = 3;
    let mut sim = Sim::new(&s).unwrap();
    let mut callers = vec![];
    while sim.step_call() {
        callers.push(sim.snapshot().last_call.unwrap().caller);
    }
    assert_eq!(callers, vec![0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
}

#[test]
fn bursts_cluster_failures() {
    // Same mean failure rate, with and without bursts: bursts give longer runs of failures.
    let longest_run = |s: &Scenario| {
        let mut sim = Sim::new(s).unwrap();
        let (mut best, mut cur) = (0, 0);
        while sim.step_call() {
            if sim.snapshot().last_call.unwrap().drawn == Outcome::Success {
                cur = 0;
            } else {
                cur += 1;
                best = best.max(cur);
            }
        }
        best
    };
    let mut calm = base(
        600.0,
        600.0,
        Phase {
            failure_rate: 0.05,
            ..zero_latency()
        },
    );
    calm.window.minimum_number_of_calls = 1_000_000;
    let mut bursty = calm.clone();
    bursty.dependency[0].failure_rate = 0.0;
    // Enter 0.5%, leave 10%: in a burst 1/21 of the time (0.005 / 0.105), mean length 10.
    bursty.dependency[0].burst.enter = 0.005;
    bursty.dependency[0].burst.leave = 0.1;
    bursty.dependency[0].burst.failure_rate = 1.0;
    assert!(longest_run(&bursty) >= 20);
    assert!(longest_run(&calm) <= 6);
}

/// Hung calls complete at the call timeout as timeouts; with the statistical breaker's
/// `call_timeout` set to that same timeout (as its docs say), a hung trial's timeout counts
/// against half-open. It was dropped as a lost trial, so only the trials that got an answer
/// moved the score: during a 20-minute hang the breaker closed on the still-hanging service
/// (at the half-open time limit, the score below 0), as `bad-day` did at 17:00.
#[test]
fn a_hung_trial_counts_as_a_failure() {
    let mut s = base(120.0, 3600.0, zero_latency());
    s.dependency.push(Phase {
        start: 600.0,
        condition: sim::Condition::Outage,
        hang_rate: 0.8,
        ..zero_latency()
    });
    s.dependency.push(Phase {
        start: 1800.0,
        ..zero_latency()
    });
    s.dependency[0].failure_rate = 0.01;
    s.dependency[2].failure_rate = 0.01;
    s.callers.call_timeout = 10.0;
    s.statistical.call_timeout = 10.0;
    s.statistical.expected_calls_per_minute = 120.0;
    for seed in 1..=5 {
        s.seed = seed;
        let r = sim::run(&s, 10).unwrap();
        let st = &r.breakers.statistical;
        assert!(st.metrics.openings >= 1, "seed {seed}: opens in the hang");
        for e in &st.events {
            assert!(
                !(e.to == breaker::State::Closed && e.t_s < 1800.0),
                "seed {seed}: closed at {} while the service hangs: {}",
                e.t_s,
                e.reason
            );
        }
    }
}

/// The capacity rule counts the successes in `(t - 1 s, t]`: a success at the same instant
/// came first and uses the capacity (simultaneous calls cannot all pass a limit of one a
/// second), one exactly a second before does not.
#[test]
fn capacity_counts_successes_at_the_same_instant() {
    let mut s = base(
        60.0,
        10.0,
        Phase {
            capacity: 1.0,
            ..zero_latency()
        },
    );
    s.trace = Some("1,ok,0\n1,ok,0\n2,ok,0\n2.5,ok,0\n".into());
    let r = sim::run(&s, 10).unwrap();
    for k in BreakerKind::ALL {
        let t = &r.breakers.get(k).totals;
        // 1: ok; 1: shed (the success at 1); 2: ok (1 is a second before); 2.5: shed.
        assert_eq!((t.answered, t.failed), (2, 2), "{k:?}");
    }
}

/// `calls_waited_on_failure` counts admitted calls that ended in a timeout: a trace's timeout
/// waited what it recorded (2 s here, not the 30 s call timeout), a recorded 408 too, and a
/// latency over the call timeout became one.
#[test]
fn calls_waited_on_failure_are_the_timeouts() {
    let mut s = base(60.0, 10.0, zero_latency());
    s.trace = Some("1,timeout,2\n2,ok,0.1\n3,ok,40\n4,408,5\n40,ok,0\n".into());
    let r = sim::run(&s, 10).unwrap();
    for k in BreakerKind::ALL {
        assert_eq!(
            r.breakers.get(k).metrics.calls_waited_on_failure,
            3,
            "{k:?}"
        );
    }
}

/// Each call's latency from its report: result time − arrival time, for every call of the run
/// (the window breaker never opens here, so every call is admitted).
fn latencies(s: &Scenario) -> Vec<(Outcome, f64)> {
    let mut sim = Sim::new(s).unwrap();
    let mut out = vec![];
    while sim.step_call() {
        let c = sim.snapshot().last_call.unwrap();
        assert_eq!(c.window.verdict, Verdict::Admitted);
        out.push((
            c.window.outcome.unwrap(),
            c.window.result_at_s.unwrap() - c.t_s,
        ));
    }
    out
}

/// The jitter is one exponential (mean 1) per call from a stream of its own, scaled by the
/// phase's jitter for an answer or for a failure. Read off a run where every call succeeds
/// with `latency_jitter` 1 s, the draws J_n must give a run where every call fails exactly
/// `failure_latency + failure_latency_jitter × J_n` (0.5 + 2 J_n here), success jitter off:
/// the failure jitter alone turns the draws on, and scales and adds as documented.
#[test]
fn failure_jitter_scales_the_same_draws_as_success_jitter() {
    let mut ok = base(600.0, 100.0, zero_latency());
    ok.dependency[0].latency = 0.25;
    ok.dependency[0].latency_jitter = 1.0;
    ok.callers.call_timeout = 1e6;
    let draws: Vec<f64> = latencies(&ok)
        .into_iter()
        .map(|(o, lat)| {
            assert_eq!(o, Outcome::Success);
            lat - 0.25
        })
        .collect();
    assert_eq!(draws.len(), 1000);
    // Exponential with mean 1: positive, mean within 10% over 1000 draws (sd of the mean 0.03).
    assert!(draws.iter().all(|&j| j >= 0.0));
    let mean = draws.iter().sum::<f64>() / draws.len() as f64;
    assert!((mean - 1.0).abs() < 0.1, "mean jitter {mean}");

    let mut fail = ok.clone();
    fail.dependency[0] = Phase {
        failure_rate: 1.0,
        failure_latency: 0.5,
        failure_latency_jitter: 2.0,
        ..zero_latency()
    };
    let got = latencies(&fail);
    assert_eq!(got.len(), draws.len());
    for (n, ((o, lat), j)) in got.iter().zip(&draws).enumerate() {
        assert_eq!(*o, Outcome::ServerError, "call {}", n + 1);
        let want = 0.5 + 2.0 * j;
        assert!((lat - want).abs() < 1e-9, "call {}: {lat} != {want}", n + 1);
    }
}

/// A phase whose failures are timeouts waits the whole call timeout for them (its
/// `failure_latency` is for the other failures), and a phase whose failures are not timeouts
/// answers them at `failure_latency`, under the timeout.
#[test]
fn a_timeout_failure_waits_the_call_timeout_and_others_the_failure_latency() {
    let mut s = base(
        60.0,
        10.0,
        Phase {
            failure_rate: 1.0,
            failure: Outcome::Timeout,
            failure_latency: 0.3,
            ..zero_latency()
        },
    );
    s.callers.call_timeout = 7.0;
    let got = latencies(&s);
    assert_eq!(got.len(), 10);
    for (o, lat) in &got {
        assert_eq!(*o, Outcome::Timeout);
        assert!((lat - 7.0).abs() < 1e-9, "{lat}");
    }
    s.dependency[0].failure = Outcome::Refused;
    for (o, lat) in latencies(&s) {
        assert_eq!(o, Outcome::Refused);
        assert!((lat - 0.3).abs() < 1e-9, "{lat}");
    }
}

/// `good_calls_to_fallback` asks this side's copy of the dependency whether a rejected call
/// would have been answered: not when the phase's capacity is used up in the second before it,
/// by admitted calls or by rejected calls counted as good (had those been admitted, they would
/// have taken it); always in a phase without a capacity (even in a run where another phase has
/// one). Worked by hand on a trace, the window breaker over the last 3 calls opening at 50%:
/// 1.0 ok (admitted, uses the capacity of 1/s), 1.1 and 1.2 fail (admitted: 2 of 3 failed, it
/// opens at 1.2 for 5 s); then rejected: 1.3 ok (1.0 is in (0.3, 1.3]: would be shed), 2.0 ok
/// (1.0 is a second or more before: would be answered, taking the capacity), 2.1 ok (2.0 took
/// it: would be shed), 2.2 fail (would fail), and from 2.5 a phase without a capacity: 3.0 ok
/// and 3.5 ok (would be answered). 3 of 6 (4 before rejected calls took the capacity).
#[test]
fn good_calls_to_fallback_use_the_phase_capacity() {
    let mut s = base(
        60.0,
        10.0,
        Phase {
            capacity: 1.0,
            ..zero_latency()
        },
    );
    s.dependency.push(Phase {
        start: 2.5,
        ..zero_latency()
    });
    s.window.sliding_window_size = 3;
    s.window.minimum_number_of_calls = 3;
    s.window.failure_rate_threshold = 0.5;
    s.window.wait_duration_in_open_state = 5.0;
    s.trace = Some("1,ok,0\n1.1,fail,0\n1.2,fail,0\n1.3,ok,0\n2,ok,0\n2.1,ok,0\n2.2,fail,0\n3,ok,0\n3.5,ok,0\n".into());
    let r = sim::run(&s, 10).unwrap();
    let w = &r.breakers.window;
    assert_eq!(w.events.len(), 1);
    assert_eq!(
        (w.events[0].t_s, w.events[0].to),
        (1.2, breaker::State::Open)
    );
    assert_eq!(w.totals.admitted, 3);
    assert_eq!(w.metrics.calls_rejected, 6);
    assert_eq!(w.metrics.good_calls_to_fallback, 3);
}

/// Calls every 0.5 s for 10 s at a capacity of 1 call/s, a failure latency of 5 s and a call
/// timeout of 2 s: every other call is shed, and its answer would come after the timeout.
fn shed_past_the_timeout() -> Scenario {
    let mut s = base(
        120.0,
        10.0,
        Phase {
            capacity: 1.0,
            failure_latency: 5.0,
            ..zero_latency()
        },
    );
    s.callers.call_timeout = 2.0;
    s
}

/// A call shed by the capacity answers at `failure_latency`, but never after the call timeout:
/// with a failure latency of 5 s and a 2 s timeout, calls every 0.5 s at 1 call/s of capacity
/// alternate: answered at once, shed and done at 2 s (the first call at 0.5 s; a success exactly
/// a second before no longer counts).
#[test]
fn a_shed_call_completes_by_the_call_timeout() {
    let s = shed_past_the_timeout();
    let got = latencies(&s);
    assert_eq!(got.len(), 20);
    for (i, (o, lat)) in got.iter().enumerate() {
        if i % 2 == 0 {
            assert_eq!((*o, *lat), (Outcome::Success, 0.0), "call {}", i + 1);
        } else {
            assert_ne!(*o, Outcome::Success, "call {}", i + 1);
            assert!((lat - 2.0).abs() < 1e-9, "call {}: {lat}", i + 1);
        }
    }
}

/// A call with no answer by the call timeout completes then as a timeout, and a shed call is no
/// exception: shed with a failure latency (5 s) over the call timeout (2 s), the caller sees its
/// timeout fire, not the overload answer that would come later, and counts a call that waited
/// on a failure. 10 of the 20 calls are shed ([`a_shed_call_completes_by_the_call_timeout`]).
#[test]
fn a_shed_call_over_the_call_timeout_is_a_timeout() {
    let mut s = shed_past_the_timeout();
    let got = latencies(&s);
    for (i, (o, _)) in got.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
        assert_eq!(*o, Outcome::Timeout, "call {}", i + 1);
    }
    let r = sim::run(&s, 10).unwrap();
    let w = &r.breakers.window;
    // The timeouts of the calls at 9 s and 10 s fire after the 10 s run: still in flight, but
    // counted as waiting on a failure when admitted.
    let t = &w.totals;
    assert_eq!((t.answered, t.failed, t.in_flight_at_end), (10, 8, 2));
    assert_eq!(w.metrics.calls_waited_on_failure, 10);
    // Under the timeout, a shed call is an overload.
    s.callers.call_timeout = 5.5;
    let got = latencies(&s);
    for (i, (o, lat)) in got.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
        assert_eq!(*o, Outcome::Overload, "call {}", i + 1);
        assert!((lat - 5.0).abs() < 1e-9, "call {}: {lat}", i + 1);
    }
}

/// Late results judged in half-open (design §3's pain): a call every 0.5 s for an hour, each
/// answered in 0.1 s except from 1200 s to 1800 s, where every call hangs for the 60 s call
/// timeout. The window breaker (20 calls, 3 probes, 30 s open) records the hung calls of earlier
/// generations in its half-open windows: 37 of them, as an independent model of resilience4j's
/// state machine (written in Python for a review, replaying the same trace) counted; the
/// statistical breaker's generations drop them all.
#[test]
fn late_results_judged_in_half_open_are_counted() {
    let mut s = base(60.0, 3600.0, zero_latency());
    s.callers.call_timeout = 60.0;
    s.window.sliding_window_size = 20;
    s.window.minimum_number_of_calls = 20;
    s.window.wait_duration_in_open_state = 30.0;
    s.window.permitted_number_of_calls_in_half_open_state = 3;
    let trace: String = (1..=7200)
        .map(|i| {
            let t = f64::from(i) * 0.5;
            if (1200.0..1800.0).contains(&t) {
                format!("{t},timeout,60\n")
            } else {
                format!("{t},success,0.1\n")
            }
        })
        .collect();
    s.trace = Some(trace);
    let r = sim::run(&s, 10).unwrap();
    let w = &r.breakers.window;
    assert_eq!(w.metrics.late_results_in_half_open, 37);
    // Among the results counted.
    assert!(w.metrics.late_results_in_half_open <= w.totals.results_counted);
    // The statistical breaker ignores them (its `late_results_in_half_open` is 0 by definition:
    // `late_failures_move_neither_the_trial_score_nor_the_new_closed_score` tests the dropping).
    let st = &r.breakers.statistical.metrics;
    assert_eq!(st.late_results_in_half_open, 0);
    assert!(st.late_results_ignored > 0);
}
