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
/// slice by slice, ~1e13 slices for 1e-13 calls/min, before returning).
#[test]
fn a_vanishing_rate_with_a_swing_ends_at_once() {
    for cpm in ["1e-13", "1e-300", "4e-320"] {
        let s = scenario(&format!(
            r#"{{ "duration": "30d", "traffic": {{ "calls_per_minute": {cpm}, "daily_swing": 0.5 }} }}"#
        ));
        let r = sim::run(&s, 10).unwrap();
        assert_eq!(r.calls, 0, "{cpm}");
        assert_eq!(sim::bare::bare_loop(&s).calls, 0, "{cpm}");
    }
}
