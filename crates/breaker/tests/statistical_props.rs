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

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Any input, valid or not, gives a breaker or a named error: never a panic.
    #[test]
    fn no_panic_on_any_settings(
        v in prop::collection::vec(prop_oneof![any::<f64>(), -2.0..2.0f64, Just(f64::NAN)], 12)
    ) {
        let s = StatisticalSettings {
            fine_rate: v[0], broken_rate: v[1], false_alarm_period: v[2], trial_wrongly_opens: v[3],
            trial_wrongly_closes: v[4], traffic_time_constant: v[5], first_wait: v[6], wait_cap: v[7],
            backoff_factor: v[8], half_open_time_factor: v[9], call_timeout: v[10],
            expected_calls_per_minute: v[11],
        };
        match Statistical::new(s) {
            Ok(mut b) => {
                for i in 0..50 {
                    if let Some(p) = b.permit(i as f64).permit() {
                        b.record(&p, Outcome::ServerError, i as f64);
                    }
                }
            }
            Err(e) => prop_assert!(!e.field.is_empty() && e.to_string().contains("allowed")),
        }
    }
}
