//! Per call, through the stepping simulator: the totals and metrics are the sums of what each
//! call's report says (verdicts, outcomes, result times), for both breakers on the same calls.

use breaker::{Class, Outcome};
use sim::{Condition, Sim, Verdict};

#[test]
fn metrics_are_sums_of_the_calls() {
    for name in [
        "recovery-warmup",
        "bad-day",
        "late-results",
        "bursty-failures",
    ] {
        for seed in [1u64, 7] {
            for callers in [1u32, 2] {
                let mut s = sim::preset(name).unwrap();
                s.seed = seed;
                s.callers.count = callers;
                s.duration = s.duration.min(6.0 * 3600.0);
                let timeout = s.callers.call_timeout;
                let capacity = s.dependency.iter().any(|p| p.capacity > 0.0);
                let mut sim = Sim::new(&s).unwrap();
                let mut n = [[0u64; 6]; 2];
                while sim.step_call() {
                    let c = sim.snapshot().last_call.unwrap();
                    for (k, d) in [c.statistical, c.window].iter().enumerate() {
                        let w = format!("{name} seed {seed} callers {callers} call {}", c.index);
                        if d.verdict.admitted() {
                            n[k][0] += 1;
                            let o = d.outcome.unwrap();
                            let lat = d.result_at_s.unwrap() - c.t_s;
                            assert!(lat >= 0.0 && lat <= timeout + 1e-9, "{w}: latency {lat}");
                            if o == Outcome::Timeout {
                                n[k][1] += 1;
                                assert!((lat - timeout).abs() < 1e-9, "{w}: timeout at {lat}");
                            }
                            if !capacity {
                                assert_eq!(o, c.drawn, "{w}: the drawn outcome");
                            }
                            if d.verdict == Verdict::Trial {
                                n[k][2] += 1;
                            }
                            // By the phase at the call, from the scenario, not the engine's.
                            if o.class() == Class::Failure
                                && s.condition_at(c.t_s) != Condition::Fine
                            {
                                n[k][5] += 1;
                            }
                        } else {
                            n[k][3] += 1;
                            if !capacity && c.drawn == Outcome::Success {
                                n[k][4] += 1;
                            }
                        }
                    }
                }
                let r = sim.result();
                for (k, b) in [&r.breakers.statistical, &r.breakers.window]
                    .iter()
                    .enumerate()
                {
                    let w = format!("{name} seed {seed} callers {callers} {k}");
                    assert_eq!(b.totals.admitted, n[k][0], "{w}");
                    assert_eq!(b.metrics.calls_waited_on_failure, n[k][1], "{w}");
                    assert_eq!(b.totals.trials, n[k][2], "{w}");
                    assert_eq!(b.metrics.calls_rejected, n[k][3], "{w}");
                    assert_eq!(b.metrics.failed_while_unhealthy, n[k][5], "{w}");
                    if !capacity {
                        assert_eq!(b.metrics.good_calls_to_fallback, n[k][4], "{w}");
                    }
                }
            }
        }
    }
}

/// Each verdict a call's report can carry, on a hand-worked trace through the window breaker
/// (last 2 calls, opens at 50%, waits 5 s, 1 probe): 1 s and 2 s fail (admitted; it opens at
/// 2 s), 3 s is rejected open, 8 s is the probe (half-open from its request; it answers after
/// 10 s), 9 s is rejected busy (the one probe is out), 18 s is the probe's success (closed), 19 s
/// is admitted. Then two calls with one state shared under a lock held 0.4 s that drops a
/// change waiting over 0.5 s: the second would wait 0.6 s, so it goes out uncounted, as a last
/// option, and its result skips the breaker.
#[test]
fn every_verdict_on_a_hand_worked_trace() {
    let mut s = sim::Scenario {
        duration: 60.0,
        ..sim::Scenario::default()
    };
    s.window.sliding_window_size = 2;
    s.window.minimum_number_of_calls = 2;
    s.window.failure_rate_threshold = 0.5;
    s.window.wait_duration_in_open_state = 5.0;
    s.window.permitted_number_of_calls_in_half_open_state = 1;
    s.callers.call_timeout = 60.0;
    s.trace = Some("1,fail,0\n2,fail,0\n3,ok,0\n8,ok,10\n9,ok,0\n19,ok,0\n".into());
    let verdicts = |s: &sim::Scenario| {
        let mut sim = Sim::new(s).unwrap();
        let mut out = vec![];
        while sim.step_call() {
            let c = sim.snapshot().last_call.unwrap();
            out.push((c.t_s, c.window.verdict, c.window.result_at_s));
        }
        (out, sim.result())
    };
    let (got, r) = verdicts(&s);
    assert_eq!(
        got,
        vec![
            (1.0, Verdict::Admitted, Some(1.0)),
            (2.0, Verdict::Admitted, Some(2.0)),
            (3.0, Verdict::RejectedOpen, None),
            (8.0, Verdict::Trial, Some(18.0)),
            (9.0, Verdict::RejectedBusy, None),
            (19.0, Verdict::Admitted, Some(19.0)),
        ]
    );
    let states: Vec<_> = r
        .breakers
        .window
        .events
        .iter()
        .map(|e| (e.t_s, e.to))
        .collect();
    use breaker::State::*;
    assert_eq!(states, vec![(2.0, Open), (8.0, HalfOpen), (18.0, Closed)]);

    let mut shared = s.clone();
    shared.callers.count = 2;
    shared.callers.shared_state = true;
    shared.callers.lock_hold = 0.4;
    shared.callers.lock_timeout = 0.5;
    shared.trace = Some("1,ok,0\n1.2,fail,0\n".into());
    let (got, r) = verdicts(&shared);
    // 1 s takes the lock (free again at 1.4 s); its result at 1 s waits 0.4 s for it: kept,
    // applied at 1.4 s (free again at 1.8 s). 1.2 s would wait 0.6 s for its permit: dropped.
    assert_eq!(
        got,
        vec![
            (1.0, Verdict::Admitted, Some(1.0)),
            (1.2, Verdict::LastOption, Some(1.2)),
        ]
    );
    let w = &r.breakers.window;
    assert_eq!(w.metrics.dropped_updates, 1);
    assert_eq!((w.totals.answered, w.totals.failed), (1, 1));
    assert_eq!(
        w.totals.results_counted, 1,
        "the uncounted failure skips the breaker"
    );
}
