//! The cursor's operations (what the page's transport and the wasm `Playground` call) with any
//! times a caller can pass, NaN and the infinities included: no panic, the cursor at a time in
//! `[0, end]` after each, and the same state (time, calls, snapshot, trace hash so far) whether
//! seeking back starts from a near checkpoint or from the start: checkpoints change only how
//! fast the cursor gets there.

use proptest::prelude::*;
use sim::{presets, Scenario, Sim};

#[derive(Debug, Clone, Copy)]
enum Op {
    Seek(f64),
    RunUntil(f64),
    NextEventBy(f64),
    NextEvent,
    StepCall,
    StepBack,
    SeekCall(u64),
    Advance(u64),
    Restart,
}

/// Times on and past the run's ends (`end` is `e`), and not times at all.
fn time(e: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-1.0),
        Just(-0.0),
        Just(0.0),
        Just(e),
        Just(e + 1e-9),
        Just(e * 2.0),
        Just(f64::MAX),
        Just(f64::MIN_POSITIVE),
        0.0..e,
    ]
}

fn op(e: f64) -> impl Strategy<Value = Op> {
    prop_oneof![
        time(e).prop_map(Op::Seek),
        time(e).prop_map(Op::RunUntil),
        time(e).prop_map(Op::NextEventBy),
        Just(Op::NextEvent),
        Just(Op::StepCall),
        Just(Op::StepBack),
        // Often on a checkpoint's call (every 4 at first, then 8, 16, ...), where going back
        // restores it.
        prop_oneof![
            Just(0u64),
            Just(1),
            Just(u64::MAX),
            0u64..5_000,
            (0u64..100).prop_map(|k| k * 4)
        ]
        .prop_map(Op::SeekCall),
        prop_oneof![Just(0u64), Just(1), Just(u64::MAX), 0u64..2_000].prop_map(Op::Advance),
        Just(Op::Restart),
    ]
}

/// Each preset cut to its first `secs` seconds (the operations cross a run end to end quickly).
fn short(secs: f64) -> Vec<Scenario> {
    presets()
        .iter()
        .map(|p| {
            let mut s = p.scenario();
            s.duration = s.duration.min(secs);
            s
        })
        .collect()
}

fn apply(sim: &mut Sim, op: Op) {
    match op {
        Op::Seek(t) => sim.seek(t),
        Op::RunUntil(t) => sim.run_until(t),
        Op::NextEventBy(t) => {
            sim.next_event_by(t);
        }
        Op::NextEvent => {
            sim.next_event();
        }
        Op::StepCall => {
            sim.step_call();
        }
        Op::StepBack => sim.step_back(),
        Op::SeekCall(n) => sim.seek_call(n),
        Op::Advance(n) => {
            sim.advance(n);
        }
        Op::Restart => sim.restart(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_times_leave_the_cursor_on_the_same_state_of_the_run(
        which in 0usize..7,
        ops in proptest::collection::vec(op(600.0), 1..12),
    ) {
        let scenarios = short(600.0);
        let s = &scenarios[which % scenarios.len()];
        // Close checkpoints (seeking back starts near), and as good as none (from the start).
        let mut sim = Sim::new(s).expect("a preset is valid");
        sim.set_checkpoints(4, 8);
        let mut plain = Sim::new(s).expect("valid");
        plain.set_checkpoints(u64::MAX / 4, 2);
        for (i, op) in ops.iter().enumerate() {
            apply(&mut sim, *op);
            apply(&mut plain, *op);
            let t = sim.now_s();
            prop_assert!((0.0..=sim.end_s()).contains(&t), "op {} {:?}: the cursor at {}", i, op, t);
            prop_assert_eq!(plain.now_s().to_bits(), t.to_bits(), "op {} {:?}: the time", i, op);
            prop_assert_eq!(plain.calls(), sim.calls(), "op {} {:?}: calls by {}", i, op, t);
            prop_assert_eq!(plain.trace_hash(), sim.trace_hash(), "op {} {:?}: the run so far", i, op);
            prop_assert_eq!(
                serde_json::to_string(&plain.snapshot()).unwrap(),
                serde_json::to_string(&sim.snapshot()).unwrap(),
                "op {} {:?}: the snapshot", i, op
            );
        }
    }
}

/// "Next event" stops where a link to its time opens: the state after everything at that
/// instant, as `seek` leaves it. It stopped right after the step that made the change, before
/// the rest of the instant (the window panel said 0 calls in window where the link said 1, a
/// trial score 0 where the link said 3.42: a page review). The same for a step to the next
/// call.
#[test]
fn next_event_and_step_call_stop_where_a_seek_to_their_time_does() {
    for s in short(600.0) {
        for stepping in [false, true] {
            let mut sim = Sim::new(&s).expect("a preset is valid");
            for i in 0..40 {
                let more = if stepping {
                    sim.step_call()
                } else {
                    sim.next_event().is_some()
                };
                if !more {
                    break;
                }
                let mut fresh = Sim::new(&s).expect("valid");
                fresh.seek(sim.now_s());
                let what = if stepping { "step" } else { "event" };
                assert_eq!(fresh.calls(), sim.calls(), "{} {what} {i}", s.name);
                assert_eq!(
                    serde_json::to_string(&fresh.snapshot()).unwrap(),
                    serde_json::to_string(&sim.snapshot()).unwrap(),
                    "{} {what} {i} at {}",
                    s.name,
                    sim.now_s()
                );
            }
        }
    }
}
