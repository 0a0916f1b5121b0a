//! Per call, through the stepping simulator: the totals and metrics are the sums of what each
//! call's report says (verdicts, outcomes, result times), for both breakers on the same calls.

use breaker::Outcome;
use sim::{Sim, Verdict};

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
                let mut n = [[0u64; 5]; 2];
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
                    if !capacity {
                        assert_eq!(b.metrics.good_calls_to_fallback, n[k][4], "{w}");
                    }
                }
            }
        }
    }
}
