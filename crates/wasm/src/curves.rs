//! The page's analysis curves: sweeps of `analysis::report`'s point functions (the same ones
//! `breaker analyze` prints), each series labeled with the kind of its numbers.
//!
//! Simulated points are kept small enough for a browser worker (a few million calls per curve):
//! the false-alarm curve simulates only lines up to [`SIM_MAX_LINE_CALLS`] calls, and the window's
//! sliding trips simulate [`WINDOW_SIM_RUNS`] x 10,000 calls per window size.

use analysis::report::{self, Simulation, Ways};
use analysis::window::CountWindow;
use analysis::Kind;
use breaker::{StatisticalSettings, WindowSettings};
use serde::Serialize;

/// Lines (in calls per period) above this are not simulated on the page.
pub const SIM_MAX_LINE_CALLS: f64 = 3.0e3;
/// Runs per simulated point of the statistical curves.
pub const SIM_RUNS: u64 = 200;
/// Runs (x 10,000 calls) per simulated window size.
pub const WINDOW_SIM_RUNS: u64 = 20;

/// One curve: a small chart.
#[derive(Debug, Clone, Serialize)]
pub struct Curve {
    /// A stable id.
    pub id: &'static str,
    /// Title.
    pub title: String,
    /// X axis label.
    pub x_label: &'static str,
    /// Y axis label.
    pub y_label: &'static str,
    /// Log-scaled x.
    pub log_x: bool,
    /// Log-scaled y.
    pub log_y: bool,
    /// What to read from it.
    pub note: String,
    /// The lines.
    pub series: Vec<Line>,
}

/// One line of a curve.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// What it is.
    pub label: &'static str,
    /// Its kind: exact, bound, approximation or simulated.
    pub kind: Kind,
    /// X values.
    pub x: Vec<f64>,
    /// Y values (NaN where the way does not apply).
    pub y: Vec<f64>,
}

/// The lines of a swept [`Ways`]: one per way present at any point.
fn ways_lines(xs: &[f64], ways: &[Ways]) -> Vec<Line> {
    type Pick = fn(&Ways) -> Option<analysis::Figure>;
    let picks: [(&'static str, Pick); 5] = [
        ("Lorden/Ville bound", |w| w.bound),
        ("exact (renewal DP)", |w| w.exact),
        ("Brook-Evans chain", |w| w.markov_chain),
        ("Wald's approximation", |w| w.approximation),
        ("simulated", |w| w.simulated),
    ];
    picks
        .iter()
        .filter_map(|(label, pick)| {
            let figs: Vec<_> = ways.iter().map(pick).collect();
            let kind = figs.iter().flatten().next()?.kind;
            Some(Line {
                label,
                kind,
                x: xs.to_vec(),
                y: figs
                    .iter()
                    .map(|f| f.map_or(f64::NAN, |f| f.value))
                    .collect(),
            })
        })
        .collect()
}

/// Every curve the page shows, for these settings at `calls_per_second` of traffic.
pub fn page_curves(
    st: &StatisticalSettings,
    win: &WindowSettings,
    calls_per_second: f64,
) -> Vec<Curve> {
    let s = report::Statistical {
        fine: st.fine_rate,
        broken: st.broken_rate,
        a: st.trial_wrongly_opens,
        b: st.trial_wrongly_closes,
        calls_per_second,
    };
    let d = st.derived();
    let sim = |n: f64| {
        (n <= SIM_MAX_LINE_CALLS).then_some(Simulation {
            runs: SIM_RUNS,
            seed: 1,
        })
    };
    let mut out = Vec::new();

    // 1. Calls between false alarms (at p0) against the line.
    let lo = d.upper.exp().max(10.0);
    let ns = report::sweep_values(lo, lo.max(1e7), 9, true);
    let rows: Vec<_> = ns
        .iter()
        .map(|&n| report::run_length(&s, s.line_for_calls(n), s.fine, sim(n)))
        .collect();
    out.push(Curve {
        id: "false_alarms",
        title: "Calls between false alarms vs the line".into(),
        x_label: "line as N = e^line (calls)",
        y_label: "calls per false alarm",
        log_x: true,
        log_y: true,
        note: format!(
            "At the fine rate p0 = {}: the bound N is guaranteed (Ville); the exact value is larger.",
            pct(s.fine)
        ),
        series: ways_lines(&ns, &rows.iter().map(|r| r.calls).collect::<Vec<_>>()),
    });

    // 2. Calls to open against the true failure rate, at the line for the given traffic.
    let n_now = calls_per_second * st.false_alarm_period;
    let line = s.line_for_calls(n_now);
    let ps = report::sweep_values(((s.fine + s.broken) / 2.0).min(0.99), 1.0, 10, false);
    let rows: Vec<_> = ps
        .iter()
        .map(|&p| report::run_length(&s, line, p, None))
        .collect();
    let mut ways: Vec<Ways> = rows.iter().map(|r| r.calls).collect();
    for w in &mut ways {
        w.bound = None; // the bound speaks of false alarms at p0 only
    }
    out.push(Curve {
        id: "open_delay",
        title: "Calls to open vs the true failure rate".into(),
        x_label: "true failure rate",
        y_label: "calls to open",
        log_x: false,
        log_y: true,
        note: format!(
            "At the line for {} calls per false-alarm period ({:.2} nats = {:.1} points).",
            fmt_calls(n_now),
            line,
            line / d.point
        ),
        series: ways_lines(&ps, &ways),
    });

    // 3-4. Half-open: chance to close (OC) and expected trials (ASN).
    let top = (s.broken * 2.0).clamp(s.broken, 1.0);
    let ps = report::sweep_values(0.0, top, 15, false);
    let rows: Vec<_> = ps.iter().map(|&p| report::trials(&s, p, None)).collect();
    out.push(Curve {
        id: "trials_oc",
        title: "Half-open: chance to close (OC)".into(),
        x_label: "true failure rate of the recovering service",
        y_label: "chance to close",
        log_x: false,
        log_y: false,
        note: format!(
            "Wald: about 1 - a = {} at p0, about b = {} at p1.",
            pct(1.0 - s.a),
            pct(s.b)
        ),
        series: ways_lines(
            &ps,
            &rows.iter().map(|r| r.close_probability).collect::<Vec<_>>(),
        ),
    });
    out.push(Curve {
        id: "trials_asn",
        title: "Half-open: expected trials (ASN)".into(),
        x_label: "true failure rate of the recovering service",
        y_label: "expected trials",
        log_x: false,
        log_y: false,
        note: format!(
            "{} successes in a row close from 0; the most trials are needed near the zero-drift rate {}.",
            d.trials_to_close,
            pct(d.zero_drift_rate)
        ),
        series: ways_lines(
            &ps,
            &rows.iter().map(|r| r.expected_trials).collect::<Vec<_>>(),
        ),
    });

    // 5. The window breaker: spurious trips per day at p0 against the window size.
    let sizes: Vec<f64> = {
        let mut v: Vec<f64> = report::sweep_values(5.0, 500.0, 10, true)
            .into_iter()
            .map(f64::round)
            .collect();
        v.dedup();
        v
    };
    let rows: Vec<_> = sizes
        .iter()
        .map(|&n| {
            let mut w = CountWindow::new(n as u32, win.failure_rate_threshold);
            w.minimum_calls = (win.minimum_number_of_calls).min(n as u32);
            report::window_trips(
                &w,
                s.fine,
                calls_per_second,
                Some(Simulation {
                    runs: WINDOW_SIM_RUNS,
                    seed: 1,
                }),
            )
        })
        .collect();
    let mut series = vec![Line {
        label: "windows back to back (binomial tail)",
        kind: rows
            .first()
            .map_or(Kind::Exact, |r| r.trips_per_day_back_to_back.kind),
        x: sizes.clone(),
        y: rows
            .iter()
            .map(|r| r.trips_per_day_back_to_back.value)
            .collect(),
    }];
    for mut l in ways_lines(
        &sizes,
        &rows
            .iter()
            .map(|r| r.trips_per_day_sliding)
            .collect::<Vec<_>>(),
    ) {
        l.label = match l.kind {
            Kind::Simulated => "sliding window, simulated",
            _ => "sliding window (exact chain)",
        };
        series.push(l);
    }
    out.push(Curve {
        id: "window_trips",
        title: "Window breaker: spurious trips per day vs window size".into(),
        x_label: "slidingWindowSize (calls)",
        y_label: "trips per day at p0",
        log_x: true,
        log_y: true,
        note: format!(
            "At the fine rate {} and threshold {}, {} calls/min; small windows trip on noise.",
            pct(s.fine),
            pct(win.failure_rate_threshold),
            fmt_calls(calls_per_second * 60.0)
        ),
        series,
    });
    out
}

fn pct(x: f64) -> String {
    let v = x * 100.0;
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}%")
    } else {
        format!("{v:.2}%")
    }
}

fn fmt_calls(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.3e}", n)
    } else {
        format!("{:.0}", n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_for_the_defaults_are_quick_and_labeled() {
        let st = StatisticalSettings::default();
        let win = WindowSettings::default();
        let t = std::time::Instant::now();
        let curves = page_curves(&st, &win, 1.0);
        let took = t.elapsed();
        assert_eq!(curves.len(), 5);
        for c in &curves {
            assert!(!c.series.is_empty(), "{}", c.id);
            for l in &c.series {
                assert_eq!(l.x.len(), l.y.len(), "{} {}", c.id, l.label);
            }
        }
        eprintln!("page_curves took {took:?}");
        for p in sim::presets() {
            let sc = p.scenario();
            let t = std::time::Instant::now();
            page_curves(
                &sc.statistical,
                &sc.window,
                sc.traffic.calls_per_minute / 60.0,
            );
            eprintln!("{}: {:?}", p.name, t.elapsed());
        }
    }
}
