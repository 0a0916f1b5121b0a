//! Invariants of the statistical breaker over thousands of random call sequences.
#![cfg(not(target_arch = "wasm32"))]

use breaker::{
    Breaker, Decision, Outcome, Permit, PermitKind, State, Statistical, StatisticalSettings,
};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Action {
    /// Ask for a permit after `dt` seconds.
    Ask(f64),
    /// Report the outstanding permit at index `i % len` after `dt` with outcome `o`.
    Report(usize, f64, Outcome),
    /// Poll after `dt`.
    Poll(f64),
    /// A last-option call after `dt`.
    LastOption(f64),
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop::sample::select(Outcome::ALL.to_vec())
}

fn action() -> impl Strategy<Value = Action> {
    let dt = prop_oneof![Just(0.0), 0.0..2.0f64, 0.0..120.0f64, 0.0..2000.0f64];
    prop_oneof![
        4 => dt.clone().prop_map(Action::Ask),
        4 => (any::<usize>(), dt.clone(), outcome()).prop_map(|(i, d, o)| Action::Report(i, d, o)),
        1 => dt.clone().prop_map(Action::Poll),
        1 => dt.prop_map(Action::LastOption),
    ]
}

fn settings() -> impl Strategy<Value = StatisticalSettings> {
    (
        0.001..0.3f64,
        1.5..10.0f64,
        0.001..0.2f64,
        0.001..0.2f64,
        1.0..600.0f64,
        1.0..5.0f64,
        0.5..60.0f64,
        0.0..600.0f64,
    )
        .prop_map(
            |(p0, ratio, a, b, first, factor, timeout, cpm)| StatisticalSettings {
                fine_rate: p0,
                broken_rate: (p0 * ratio).min(0.99),
                false_alarm_period: 3600.0,
                trial_wrongly_opens: a,
                trial_wrongly_closes: b,
                traffic_time_constant: 600.0,
                first_wait: first,
                wait_cap: first * 8.0,
                backoff_factor: factor,
                half_open_time_factor: 3.0,
                call_timeout: timeout,
                expected_calls_per_minute: cpm,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold(s in settings(), actions in prop::collection::vec(action(), 1..200)) {
        let mut b = Statistical::new(s.clone()).unwrap();
        let mut t = 0.0;
        let mut outstanding: Vec<Permit> = Vec::new();
        let mut last_generation = 0;
        // Trials admitted in the current half-open generation and not yet answered or lost.
        let mut trials: Vec<Permit> = Vec::new();
        for a in actions {
            match a {
                Action::Ask(dt) => {
                    t += dt;
                    if let Decision::Admit(p) = b.permit(t) {
                        if p.kind == PermitKind::Trial {
                            trials.retain(|q| q.generation == p.generation && t < q.issued_at + s.call_timeout);
                            prop_assert!(trials.is_empty(), "a second trial in flight: {:?}", trials);
                            trials.push(p);
                        }
                        outstanding.push(p);
                    }
                }
                Action::Report(i, dt, o) => {
                    if outstanding.is_empty() { continue; }
                    t += dt;
                    let p = outstanding.swap_remove(i % outstanding.len());
                    b.record(&p, o, t);
                    trials.retain(|q| q.id != p.id);
                }
                Action::Poll(dt) => { t += dt; b.poll(t); }
                Action::LastOption(dt) => { t += dt; outstanding.push(b.permit_last_option(t)); }
            }
            for tr in b.transitions() {
                prop_assert_eq!(tr.generation, last_generation + 1, "generation must step by one");
                prop_assert_ne!(tr.from, tr.to);
                last_generation = tr.generation;
            }
            prop_assert_eq!(b.generation(), last_generation);
            if b.state() == State::Closed {
                prop_assert!(b.score() >= 0.0, "closed score below 0: {}", b.score());
            }
            prop_assert!(b.wait() >= s.first_wait && b.wait() <= s.wait_cap, "wait {}", b.wait());
            let o = b.observe(t);
            prop_assert!(o.threshold.is_finite() && o.threshold >= b.derived().line_floor);
        }
    }
}

/// Any settings, valid or not, give a breaker that takes calls without panicking, or a named
/// error. Valid settings with each field replaced, one time in ten, by a hostile value (any
/// double, NaN, infinity, 0, a small one of either sign): both outcomes come often. (The fields
/// drawn each at random from such values made a valid breaker in none of 2 million draws, so
/// the calls on one were never made.)
#[test]
fn no_panic_on_any_settings() {
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    let hostile = prop_oneof![
        any::<f64>(),
        -2.0..2.0f64,
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(0.0)
    ];
    let strategy = (
        settings(),
        prop::collection::vec(prop::option::weighted(0.1, hostile), 12),
    );
    let (made, refused) = (Cell::new(0u32), Cell::new(0u32));
    let mut runner = TestRunner::new(Config {
        cases: 500,
        ..Config::default()
    });
    runner
        .run(&strategy, |(mut s, swaps)| {
            let fields: [&mut f64; 12] = [
                &mut s.fine_rate,
                &mut s.broken_rate,
                &mut s.false_alarm_period,
                &mut s.trial_wrongly_opens,
                &mut s.trial_wrongly_closes,
                &mut s.traffic_time_constant,
                &mut s.first_wait,
                &mut s.wait_cap,
                &mut s.backoff_factor,
                &mut s.half_open_time_factor,
                &mut s.call_timeout,
                &mut s.expected_calls_per_minute,
            ];
            for (f, v) in fields.into_iter().zip(swaps) {
                if let Some(v) = v {
                    *f = v;
                }
            }
            match Statistical::new(s) {
                Ok(mut b) => {
                    made.set(made.get() + 1);
                    for i in 0..200 {
                        let t = i as f64 * 0.5;
                        if let Some(p) = b.permit(t).permit() {
                            let o = if i % 3 == 0 {
                                Outcome::Success
                            } else {
                                Outcome::ServerError
                            };
                            b.record(&p, o, t);
                        }
                        b.poll(t);
                        let _ = b.observe(t);
                    }
                }
                Err(e) => {
                    refused.set(refused.get() + 1);
                    prop_assert!(!e.field.is_empty() && e.to_string().contains("allowed"));
                }
            }
            Ok(())
        })
        .unwrap();
    assert!(
        made.get() >= 50 && refused.get() >= 50,
        "{} made, {} refused",
        made.get(),
        refused.get()
    );
}
