//! Generated arrivals against their rate: a daily swing drawn by thinning under a 15-minute
//! envelope must give, hour by hour, the integral of `base x (1 - swing x cos(2 pi t / day))`.

use std::f64::consts::PI;

const DAY: f64 = 86_400.0;

fn scenario(json: &str) -> sim::Scenario {
    serde_json::from_str(json).unwrap()
}

/// Calls per hour of the day over 10 days, folded, against the exact expected count; each hour
/// within 5 standard deviations (Poisson: sd = sqrt(mean)), and the total too.
#[test]
fn daily_swing_follows_the_rate_hour_by_hour() {
    for (swing, seed) in [(0.6, 1u64), (0.3, 2), (0.95, 3)] {
        let s = scenario(&format!(
            r#"{{ "duration": "10d", "seed": {seed},
                  "traffic": {{ "calls_per_minute": 600, "daily_swing": {swing} }},
                  "dependency": [ {{ "start": 0, "failure_rate": 0, "latency": 0 }} ] }}"#
        ));
        let r = sim::run(&s, 240).unwrap();
        let answered = &r.breakers.statistical.series.answered;
        assert_eq!(answered.len(), 240);
        assert_eq!(answered.iter().sum::<f64>() as u64, r.calls);
        let base = 10.0;
        let mut by_hour = [0.0f64; 24];
        for (i, n) in answered.iter().enumerate() {
            by_hour[i % 24] += n;
        }
        // Integral of the rate over [a, b), in calls.
        let integral = |a: f64, b: f64| {
            base * ((b - a)
                - swing * DAY / (2.0 * PI)
                    * ((2.0 * PI * b / DAY).sin() - (2.0 * PI * a / DAY).sin()))
        };
        for (h, got) in by_hour.iter().enumerate() {
            let want = 10.0 * integral(h as f64 * 3600.0, (h + 1) as f64 * 3600.0);
            let sd = want.sqrt();
            assert!(
                (got - want).abs() < 5.0 * sd,
                "swing {swing}, hour {h}: {got} calls, expected {want:.0} +- {sd:.0}"
            );
        }
        let want = base * 10.0 * DAY;
        assert!((r.calls as f64 - want).abs() < 5.0 * want.sqrt());
    }
}

/// A swing on a rate too low to give a call in the run ends at once with no call (it used to walk
/// slice by slice, ~1e13 slices for 1e-13 calls/min, before returning). Traffic now takes at
/// least 1e-6 calls/min (`sim::MIN_CALLS_PER_MINUTE`; the rates below it are refused, see
/// `tests/scenario.rs`): at the floor, a month expects 0.04 calls, none on this seed.
#[test]
fn a_vanishing_rate_with_a_swing_ends_at_once() {
    for arrivals in ["poisson", "even"] {
        for cpm in ["1e-6", "1.5e-6"] {
            let s = scenario(&format!(
                r#"{{ "duration": "30d", "traffic": {{ "calls_per_minute": {cpm},
                      "daily_swing": 0.5, "arrivals": "{arrivals}" }} }}"#
            ));
            let r = sim::run(&s, 10).unwrap();
            assert_eq!(r.calls, 0, "{cpm} {arrivals}");
            assert_eq!(sim::bare::bare_loop(&s).calls, 0, "{cpm} {arrivals}");
        }
    }
}

/// Evenly spaced calls under a daily swing keep the mean rate: call n comes when the expected
/// count (the integral of the rate) reaches n, so whole days hold `rate x days` calls whatever
/// the rate. Spacing each call `1 / rate(t)` after the one before took the rate at one instant
/// for the whole gap: at 0.1 calls/min and a 99% swing a call at night waited over 16 hours,
/// and a week held 38% fewer calls than the rate says.
#[test]
fn even_arrivals_under_a_swing_keep_the_mean_rate() {
    for swing in [0.3, 0.9, 0.99] {
        for cpm in [600.0f64, 1.0, 0.1, 0.01, 0.001] {
            let days = (2000.0 / (cpm * 1440.0)).ceil().max(7.0);
            let s = scenario(&format!(
                r#"{{ "duration": {}, "traffic": {{ "calls_per_minute": {cpm},
                      "daily_swing": {swing}, "arrivals": "even" }},
                      "dependency": [ {{ "start": 0, "failure_rate": 0, "latency": 0 }} ] }}"#,
                days * DAY
            ));
            let r = sim::run(&s, 24).unwrap();
            let want = cpm * 1440.0 * days;
            assert!(
                (r.calls as f64 - want).abs() <= 1.0,
                "swing {swing}, {cpm} calls/min, {days} days: {} calls, expected {want}",
                r.calls
            );
            // Hour by hour too (folded over the days): within one call of the integral.
            if cpm >= 1.0 {
                let answered = &r.breakers.statistical.series.answered;
                let base = cpm / 60.0;
                let integral = |a: f64, b: f64| {
                    base * ((b - a)
                        - swing * DAY / (2.0 * PI)
                            * ((2.0 * PI * b / DAY).sin() - (2.0 * PI * a / DAY).sin()))
                };
                let per_bucket = days * DAY / 24.0;
                for (i, got) in answered.iter().enumerate() {
                    let want = integral(i as f64 * per_bucket, (i + 1) as f64 * per_bucket);
                    assert!(
                        (got - want).abs() <= 2.0,
                        "swing {swing}, {cpm} calls/min, bucket {i}: {got}, expected {want:.1}"
                    );
                }
            }
        }
    }
}
