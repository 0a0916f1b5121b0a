//! The page's analysis curves: sweeps of [`analysis::report`]'s point functions (the same ones
//! `breaker analyze` prints), each series labeled with the kind of its numbers. The page's
//! `analysis()` and `breaker analyze curves` both call [`page_curves`], so the command line
//! prints the page's numbers for a scenario, bit for bit.
//!
//! Simulated points are kept small enough for a browser worker (a few million calls per curve):
//! the false-alarm curve simulates only lines up to [`SIM_MAX_LINE_CALLS`] calls, and the window's
//! sliding trips simulate [`WINDOW_SIM_RUNS`] x 10,000 calls per window size.
//!
//! Every point's work is capped, and the curves together draw on [`PAGE_BUDGET`] (deterministic
//! work units, not time): when the rates are close the exact dynamic programs and the simulations
//! would otherwise take minutes. A point left out for its budget is a gap (NaN) in its line.

use analysis::report::{self, Budget, Simulation, Ways, Work};
use analysis::window::CountWindow;
use analysis::Kind;
use breaker::{SlidingWindowType, StatisticalSettings, WindowSettings};
use serde::Serialize;

/// Lines (in calls per period) above this are not simulated on the page.
pub const SIM_MAX_LINE_CALLS: f64 = 3.0e3;
/// Runs per simulated point of the statistical curves.
pub const SIM_RUNS: u64 = 200;
/// Runs (x 10,000 calls) per simulated window size.
pub const WINDOW_SIM_RUNS: u64 = 20;

/// Work all the curves of one [`page_curves`] call may take together: about 0.3 s natively in
/// dynamic-program cells, 0.25 s in chain multiply-adds, 0.5 s in simulation draws (a browser
/// takes about 5x longer). The defaults and the presets take far less.
pub const PAGE_BUDGET: Work = Work {
    dp_cells: 1_000_000_000,
    chain_work: 500_000_000,
    sim_draws: 16_000_000,
};

/// Simulation draws one point of the false-alarm curve may take.
pub const PAGE_POINT_SIM_DRAWS: u64 = 4_000_000;

/// What is left of [`PAGE_BUDGET`], and what was used.
struct Meter {
    left: Work,
    used: Work,
}

impl Meter {
    fn budget(&self) -> Budget {
        Budget {
            dp_cells: self.left.dp_cells.min(analysis::dp::MAX_CELLS),
            chain_work: self.left.chain_work,
            sim_draws: self.left.sim_draws.min(PAGE_POINT_SIM_DRAWS),
        }
    }

    fn spend(&mut self, w: Work) {
        self.used += w;
        self.left.dp_cells = self.left.dp_cells.saturating_sub(w.dp_cells);
        self.left.chain_work = self.left.chain_work.saturating_sub(w.chain_work);
        self.left.sim_draws = self.left.sim_draws.saturating_sub(w.sim_draws);
    }
}

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
    /// A place on the x axis to mark, with what it is (one x value, y empty): the user's own
    /// window on the window curve, the user's own line on the false-alarm curve.
    pub mark: Option<Line>,
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
    /// A simulated line's 95% confidence interval at each point, low and high ends (NaN where
    /// the point is absent); empty for the other kinds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ci95_lo: Vec<f64>,
    /// See [`Line::ci95_lo`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ci95_hi: Vec<f64>,
    /// Sample size behind each simulated point (runs, or calls for the window's trips); the
    /// same at every point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
}

/// The lines of a swept [`Ways`]: one per way present at any point.
fn ways_lines(xs: &[f64], ways: &[Ways]) -> Vec<Line> {
    type Pick = fn(&Ways) -> Option<analysis::Figure>;
    let picks: [(&'static str, Pick); 5] = [
        ("Lorden/Ville bound", |w| w.bound),
        ("exact", |w| w.exact),
        ("Brook-Evans chain", |w| w.markov_chain),
        ("Wald's approximation", |w| w.approximation),
        ("simulated", |w| w.simulated),
    ];
    picks
        .iter()
        .filter_map(|(label, pick)| {
            let figs: Vec<_> = ways.iter().map(pick).collect();
            let first = figs.iter().flatten().next()?;
            let ci = |end: fn((f64, f64)) -> f64| -> Vec<f64> {
                if first.ci95.is_none() {
                    return Vec::new();
                }
                figs.iter()
                    .map(|f| f.and_then(|f| f.ci95).map_or(f64::NAN, end))
                    .collect()
            };
            Some(Line {
                label,
                kind: first.kind,
                x: xs.to_vec(),
                y: figs
                    .iter()
                    .map(|f| f.map_or(f64::NAN, |f| f.value))
                    .collect(),
                ci95_lo: ci(|(lo, _)| lo),
                ci95_hi: ci(|(_, hi)| hi),
                n: first.n,
            })
        })
        .collect()
}

/// Every curve the page shows, for these settings at `calls_per_second` of traffic: settings as
/// the page checks them (fine below broken: the exact programs panic otherwise) and a finite
/// `calls_per_second` above 0.
pub fn page_curves(
    st: &StatisticalSettings,
    win: &WindowSettings,
    calls_per_second: f64,
) -> Vec<Curve> {
    page_curves_metered(st, win, calls_per_second).0
}

/// [`page_curves`] and the work they took (within [`PAGE_BUDGET`], plus the window curve's fixed
/// work, which is not counted).
pub fn page_curves_metered(
    st: &StatisticalSettings,
    win: &WindowSettings,
    calls_per_second: f64,
) -> (Vec<Curve>, Work) {
    let mut meter = Meter {
        left: PAGE_BUDGET,
        used: Work::default(),
    };
    let s = statistical(st, calls_per_second);
    let d = st.derived();
    let sim = |n: f64| {
        (n <= SIM_MAX_LINE_CALLS).then_some(Simulation {
            runs: SIM_RUNS,
            seed: 1,
        })
    };
    let mut out = Vec::new();

    // 1. Calls between false alarms (at p0) against the line, up to the user's own line (N
    // calls at the given traffic, or the floor's e^line), marked: the curve stopped at 1e7
    // calls, so a service of 2,143 calls/min and a week (N = 2.16e7) was past its end.
    let n_now = calls_per_second * st.false_alarm_period;
    let line_now = s.line_for_calls(n_now);
    let yours = libm::exp(line_now);
    // From the floor: a line below it is the floor's, so points there would all be one line
    // drawn at smaller x (with a floor above Wald's A, the first point sat at e^A = 95 with the
    // floor's bound, 199).
    // Two decades at least: with a floor of e^floor >= 1e7 (p0 = 1e-9), the nine points had
    // one x, and the page's log axis over a single value threw in uPlot.
    let lo = libm::exp(d.line_floor).max(10.0);
    let ns = report::sweep_values(lo, lo.max(1e7).max(yours).max(lo * 100.0), 9, true);
    // Higher lines take more work at the same rate: past the first line whose exact figure
    // (or simulation) did not fit, the others are not tried.
    let (mut exact_fits, mut sim_fits) = (true, true);
    let rows: Vec<_> = ns
        .iter()
        .map(|&n| {
            let mut b = meter.budget();
            if !exact_fits {
                b.dp_cells = 0;
            }
            let o = sim(n).filter(|_| sim_fits);
            let r = report::run_length_capped(&s, s.line_for_calls(n), s.fine, o, b);
            meter.spend(r.work);
            exact_fits &= r.calls.exact.is_some();
            sim_fits &= o.is_none() || r.calls.simulated.is_some();
            r
        })
        .collect();
    let calls: Vec<Ways> = rows.iter().map(|r| r.calls).collect();
    let gap_note = gaps(&calls);
    out.push(Curve {
        id: "false_alarms",
        title: "Calls between false alarms vs the line".into(),
        x_label: "line as N = e^line (calls)",
        y_label: "calls per false alarm",
        log_x: true,
        log_y: true,
        note: format!(
            "At the fine rate p0 = {}: the average is at least N, a bound (Ville, Lorden) on the \
             mean, not on each gap; the exact average is larger.{gap_note}{}",
            pct(s.fine),
            sim_note(&calls, "runs")
        ),
        series: ways_lines(&ns, &calls),
        mark: Some(Line {
            label: "your line at the nominal traffic",
            kind: Kind::Exact,
            x: vec![yours],
            y: Vec::new(),
            ci95_lo: Vec::new(),
            ci95_hi: Vec::new(),
            n: None,
        }),
    });

    // 2. Calls to open against the true failure rate, at the line for the given traffic.
    let line = line_now;
    let ps = report::sweep_values(((s.fine + s.broken) / 2.0).min(0.99), 1.0, 10, false);
    let rows: Vec<_> = ps
        .iter()
        .map(|&p| {
            let r = report::run_length_capped(&s, line, p, None, meter.budget());
            meter.spend(r.work);
            r
        })
        .collect();
    let mut ways: Vec<Ways> = rows.iter().map(|r| r.calls).collect();
    let gap_note = gaps(&ways);
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
            "At the line for {} calls per false-alarm period or at its floor, whichever is \
             higher ({:.2} nats = {:.1} points, exact). Counted from a score of 0, as after a \
             close: a breaker that was running at p0 when the failures began may stand above 0 \
             and open a little sooner.{gap_note}",
            fmt_calls(n_now),
            line,
            line / d.point
        ),
        series: ways_lines(&ps, &ways),
        mark: None,
    });

    // 3-4. Half-open: chance to close (OC) and expected trials (ASN).
    let top = (s.broken * 2.0).clamp(s.broken, 1.0);
    let ps = report::sweep_values(0.0, top, 15, false);
    let rows: Vec<_> = ps
        .iter()
        .map(|&p| {
            let r = report::trials_capped(&s, p, None, meter.budget());
            meter.spend(r.work);
            r
        })
        .collect();
    // The curves are of Wald's test run to its end, every trial answered.
    const NO_LIMIT: &str = " For the test run to its end: half-open's time limit can end it \
         first, which moves both chances and the trials (`breaker analyze trials` gives them \
         with it).";
    let close: Vec<Ways> = rows.iter().map(|r| r.close_probability).collect();
    let trials: Vec<Ways> = rows.iter().map(|r| r.expected_trials).collect();
    out.push(Curve {
        id: "trials_oc",
        title: "Half-open: chance to close (OC)".into(),
        x_label: "true failure rate in half-open",
        y_label: "chance to close",
        log_x: false,
        log_y: false,
        note: format!(
            "Wald: about 1 - a = {} at p0, about b = {} at p1.{NO_LIMIT}{}",
            pct(1.0 - s.a),
            pct(s.b),
            gaps(&close)
        ),
        series: ways_lines(&ps, &close),
        mark: None,
    });
    out.push(Curve {
        id: "trials_asn",
        title: "Half-open: expected trials (ASN)".into(),
        x_label: "true failure rate in half-open",
        y_label: "expected trials",
        log_x: false,
        log_y: false,
        note: format!(
            "{} success{} in a row close{} from 0 (exact); the most trials are needed near the zero-drift rate {} (exact).{NO_LIMIT}{}",
            fmt_calls(d.trials_to_close as f64),
            if d.trials_to_close == 1 { "" } else { "es" },
            if d.trials_to_close == 1 { "s" } else { "" },
            pct(d.zero_drift_rate),
            gaps(&trials)
        ),
        series: ways_lines(&ps, &trials),
        mark: None,
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
    // Exact, but 0 where the chance, or the trips a day, are under the smallest normal double
    // (a bound there): the page says of such points "the value, or a chance it is made of, is
    // under about 1e-308, too small for a double: it reads 0" (and `analyze curves` where they
    // start), and the line keeps one kind.
    let mut series = vec![Line {
        label: "windows back to back (binomial tail)",
        kind: Kind::Exact,
        x: sizes.clone(),
        y: rows
            .iter()
            .map(|r| match r.trips_per_day_back_to_back.kind {
                Kind::Bound => 0.0,
                _ => r.trips_per_day_back_to_back.value,
            })
            .collect(),
        ci95_lo: Vec::new(),
        ci95_hi: Vec::new(),
        n: None,
    }];
    let sliding: Vec<Ways> = rows.iter().map(|r| r.trips_per_day_sliding).collect();
    for mut l in ways_lines(&sizes, &sliding) {
        l.label = match l.kind {
            Kind::Simulated => "sliding window, simulated",
            _ => "sliding window (exact chain)",
        };
        series.push(l);
    }
    // The curve is for count windows. The user's window is marked on it: a count window at its
    // size; a time window of T seconds at its calls on average, r T, an approximation (the calls
    // in T seconds vary, and its minimum is not capped at them as a count window's is).
    let size = win.sliding_window_size as f64;
    let cpm = fmt_calls(calls_per_second * 60.0);
    let (x, kind, yours) = match win.sliding_window_type {
        SlidingWindowType::CountBased => (
            size,
            Kind::Exact,
            format!("{size} call{}", if size == 1.0 { "" } else { "s" }),
        ),
        SlidingWindowType::TimeBased => {
            let x = size * calls_per_second;
            (
                x,
                Kind::Approximation,
                format!(
                    "time-based, {size} s: about {} call{} at {cpm} calls/min (an \
                     approximation: the calls in {size} s vary, and its minimumNumberOfCalls is \
                     not capped at them)",
                    fmt_calls(x),
                    if fmt_calls(x) == "1" { "" } else { "s" }
                ),
            )
        }
    };
    out.push(Curve {
        id: "window_trips",
        title: "Window breaker: spurious trips per day vs window size".into(),
        x_label: "slidingWindowSize (calls)",
        y_label: "trips per day at p0",
        log_x: true,
        log_y: true,
        note: format!(
            "Count-based windows at the fine rate {} and threshold {}, {cpm} calls/min; small \
             windows trip on noise. Yours: {yours}.{}",
            pct(s.fine),
            pct(win.failure_rate_threshold),
            sim_note(&sliding, "calls")
        ),
        series,
        mark: Some(Line {
            label: "your window",
            kind,
            x: vec![x],
            y: Vec::new(),
            ci95_lo: Vec::new(),
            ci95_hi: Vec::new(),
            n: None,
        }),
    });
    (out, meter.used)
}

/// The analysis' statistical breaker for settings `st` at `calls_per_second` of traffic.
fn statistical(st: &StatisticalSettings, calls_per_second: f64) -> report::Statistical {
    report::Statistical {
        fine: st.fine_rate,
        broken: st.broken_rate,
        a: st.trial_wrongly_opens,
        b: st.trial_wrongly_closes,
        calls_per_second,
    }
}

/// A curve's note on its exact line's gaps, judged by that curve's own points (the half-open
/// program can converge on the chance to close and not on the trials): empty without a gap.
fn gaps(ways: &[Ways]) -> &'static str {
    if ways.iter().any(|w| w.exact.is_none()) {
        " Exact values are left out where the dynamic program did not converge within its work \
         budget (the rates are close)."
    } else {
        ""
    }
}

/// What a curve's simulated points rest on, for its note: " Simulated points: N runs each; the
/// band is their 95% interval." (empty when nothing was simulated).
fn sim_note(ways: &[Ways], unit: &str) -> String {
    match ways.iter().find_map(|w| w.simulated).and_then(|f| f.n) {
        Some(n) => format!(
            " Simulated points: {} {unit} each; the band is their 95% interval.",
            fmt_calls(n as f64)
        ),
        None => String::new(),
    }
}

/// A rate in percent, with the decimals it needs to be told from 0% and from 100% (two at
/// least; trailing zeros dropped): 5%, 11.03%, 0.1049% (the zero-drift rate beside a p0 of
/// 0.1%, which two significant digits wrote "0.1%"), 0.004% (p0 may be that small), 99.999%
/// (1 - a for a = 0.001%); two decimals gave 0.00% and 100.00%. Up to 15 decimals, then
/// e-notation (1.0e-18%).
fn pct(x: f64) -> String {
    let v = x * 100.0;
    // Four significant digits of its distance to 0% or 100%, at least two decimals.
    // No more digits than a double holds, 15 in all: 1 - 1e-14 read 99.999999999999005%.
    let distance = v.min(100.0 - v).abs();
    let whole_digits = if v >= 1.0 {
        format!("{:.0}", v.trunc()).len()
    } else {
        0
    };
    let most = 15usize.saturating_sub(whole_digits).max(2);
    let mut n = distance * 100.0;
    let mut decimals = 2;
    while n < 1000.0 && decimals < most {
        n *= 10.0;
        decimals += 1;
    }
    // Closer to 0% than 15 decimals give two significant digits of (1e-20 read "0%";
    // 1.5e-15 read 0.000000000000002%): e-notation.
    if distance < 1e-14 && v < 50.0 {
        return format!("{v:.1e}%");
    }
    let text = format!("{v:.decimals$}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}%")
}

/// Calls (or calls per minute): whole below 1e6, digits grouped as the page groups them
/// (200,000), unless a fraction under 10 (0.5 calls/min was "0"), then in e-notation.
pub fn fmt_calls(n: f64) -> String {
    // Past a million, or below 0.01 (which {:.2} would write 0.00): four figures (1.000e-3).
    if n >= 1e6 || (n > 0.0 && n < 0.01) {
        format!("{:.3e}", n)
    } else if n < 10.0 && n.fract() != 0.0 {
        format!("{:.2}", n)
    } else {
        let whole = format!("{:.0}", n);
        if n < 0.0 {
            return whole; // no calls are negative; not grouped
        }
        let digits = whole.len();
        let mut out = String::with_capacity(digits + digits / 3);
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (digits - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rate_in_a_note_is_never_read_as_0_or_100_percent() {
        assert_eq!(super::pct(0.05), "5%");
        assert_eq!(super::pct(0.110311), "11.03%");
        assert_eq!(super::pct(0.00004), "0.004%");
        assert_eq!(super::pct(1.0 - 0.00001), "99.999%");
        assert_eq!(super::pct(0.995), "99.5%");
        // The zero-drift rate at p0 0.1%, p1 0.11%: two significant digits read "0.1%", p0.
        assert_eq!(super::pct(0.0010491), "0.1049%");
        // No digits past a double's: float noise read 99.999999999999005%, and 1.5e-17 a
        // rounded one-digit 0.000000000000002%.
        assert_eq!(super::pct(1.0 - 1e-14), "99.999999999999%");
        assert_eq!(super::pct(1.0 - 3e-15), "99.9999999999997%");
        assert_eq!(super::pct(1.5e-17), "1.5e-15%");
        assert_eq!(super::pct(1e-9), "0.0000001%");
        assert_eq!(super::pct(1e-12), "0.0000000001%");
        assert_eq!(super::pct(1.0 - 1e-12), "99.9999999999%");
        assert_eq!(super::pct(3e-16), "0.00000000000003%");
        assert_eq!(super::pct(1e-20), "1.0e-18%");
        assert_eq!(super::pct(5e-324), "4.9e-322%");
        // The e-notation starts below 1e-14%: at it, 15 decimals still show it.
        assert_eq!(super::pct(1e-16), "0.00000000000001%");
        assert_eq!(super::pct(9e-17), "9.0e-15%");
    }

    use super::*;

    /// Whole calls grouped by thousands below a million, e-notation from it, two decimals for a
    /// fraction under 10.
    #[test]
    fn calls_are_written_as_the_page_writes_them() {
        let cases = [
            (0.0, "0"),
            (1.0, "1"),
            (999.0, "999"),
            (1000.0, "1,000"),
            (43_200.0, "43,200"),
            (200_000.0, "200,000"),
            (999_999.0, "999,999"),
            (1e6, "1.000e6"),
            (0.5, "0.50"),
            (0.001, "1.000e-3"),
            // Where one form gives way to the next: 0.01 still has two decimals of its own, a
            // fraction from 10 on is rounded whole, and a negative number (never a count) is
            // not grouped.
            (0.01, "0.01"),
            (0.009_999, "9.999e-3"),
            (9.5, "9.50"),
            (10.6, "11"),
            (-1000.0, "-1000"),
        ];
        for (n, want) in cases {
            assert_eq!(fmt_calls(n), want, "{n}");
        }
    }

    #[test]
    fn curves_for_close_rates_stay_within_the_page_budget() {
        // p0 = 0.19999 kept a browser worker busy for over 6 minutes, 0.19 for ~10 s, 0.199 for
        // minutes: simulated points of thousands of draws each and a capped dynamic program at
        // every point of every curve.
        let win = WindowSettings::default();
        for fine in [0.19, 0.199, 0.19999] {
            let st = StatisticalSettings {
                fine_rate: fine,
                broken_rate: 0.2,
                ..StatisticalSettings::default()
            };
            let (curves, work) = page_curves_metered(&st, &win, 1.0);
            assert_eq!(curves.len(), 5);
            // Each program may pass what is left by one band width (at most ~2e5 cells here).
            assert!(
                work.dp_cells <= PAGE_BUDGET.dp_cells + 1_000_000,
                "{fine}: {work:?}"
            );
            assert!(
                work.chain_work <= PAGE_BUDGET.chain_work,
                "{fine}: {work:?}"
            );
            assert!(work.sim_draws <= PAGE_BUDGET.sim_draws, "{fine}: {work:?}");
            // And it is spent: this close, most of it (0.19 fits every exact point in 0.9e9
            // cells); where an exact point is left out, the program that did not converge took
            // all there was, so those after it are not tried.
            assert!(work.dp_cells > PAGE_BUDGET.dp_cells / 2, "{fine}: {work:?}");
            if curves.iter().any(|c| c.note.contains("left out")) {
                assert!(work.dp_cells >= PAGE_BUDGET.dp_cells, "{fine}: {work:?}");
            }
            assert!(work.chain_work > 0, "{fine}: {work:?}");
            // A line labeled exact holds only exact points; the left-out ones are gaps.
            for c in &curves {
                for l in &c.series {
                    assert_eq!(l.x.len(), l.y.len(), "{} {}", c.id, l.label);
                }
            }
            if fine > 0.199 - 1e-12 {
                let fa = curves.iter().find(|c| c.id == "false_alarms").unwrap();
                assert!(fa.note.contains("left out"), "{}", fa.note);
            }
        }
    }

    #[test]
    fn curves_for_the_defaults_and_presets_use_a_small_part_of_the_budget() {
        let mut cases = vec![(
            StatisticalSettings::default(),
            WindowSettings::default(),
            1.0,
        )];
        for p in sim::presets() {
            let sc = p.scenario();
            cases.push((
                sc.statistical,
                sc.window,
                sc.traffic.calls_per_minute / 60.0,
            ));
        }
        for (st, win, cps) in cases {
            let (curves, work) = page_curves_metered(&st, &win, cps);
            assert!(work.dp_cells * 100 < PAGE_BUDGET.dp_cells, "{work:?}");
            assert!(work.chain_work * 3 < PAGE_BUDGET.chain_work, "{work:?}");
            assert!(work.sim_draws * 10 < PAGE_BUDGET.sim_draws, "{work:?}");
            let fa = curves.iter().find(|c| c.id == "false_alarms").unwrap();
            assert!(!fa.note.contains("left out"), "{}", fa.note);
            // What was used is counted: every way that ran.
            assert!(work.dp_cells > 0 && work.chain_work > 0, "{work:?}");
            let simulated = fa.series.iter().any(|l| l.kind == Kind::Simulated);
            assert_eq!(work.sim_draws > 0, simulated, "{work:?}");
        }
    }

    /// A chart says exact values are left out only where its own exact line has a gap: the
    /// half-open charts were both judged by the program's note, which is there when either of
    /// its two figures is left out.
    #[test]
    fn a_chart_speaks_of_its_own_gaps() {
        let st = StatisticalSettings {
            fine_rate: 0.05,
            broken_rate: 0.2,
            ..StatisticalSettings::default()
        };
        let s = statistical(&st, 1.0);
        let budget = Budget {
            dp_cells: 10_000,
            ..Budget::DEFAULT
        };
        // At 21% and 10,000 cells the chance to close converges and the trials do not.
        let t = report::trials_capped(&s, 0.21, None, budget);
        assert!(t.exact_note.is_some());
        let (close, trials) = ([t.close_probability], [t.expected_trials]);
        assert_eq!(gaps(&close), "");
        assert!(gaps(&trials).starts_with(" Exact values are left out where"));
        let curves = page_curves(&st, &WindowSettings::default(), 1.0);
        assert!(curves.iter().all(|c| !c.note.contains("left out")));
    }

    /// The rates each curve is swept over: calls to open from halfway between p0 and p1 to a
    /// total outage, the half-open charts from 0 to twice p1 (at most 1), in equal steps.
    #[test]
    fn the_rate_curves_span_their_ranges() {
        for (fine, broken, top) in [(0.05, 0.3, 0.6), (0.01, 0.02, 0.04), (0.2, 0.7, 1.0)] {
            let st = StatisticalSettings {
                fine_rate: fine,
                broken_rate: broken,
                ..StatisticalSettings::default()
            };
            let curves = page_curves(&st, &WindowSettings::default(), 1.0);
            let xs = |id: &str| {
                curves.iter().find(|c| c.id == id).unwrap().series[0]
                    .x
                    .clone()
            };
            let open = xs("open_delay");
            assert_eq!(open.len(), 10);
            assert_eq!((open[0], open[9]), ((fine + broken) / 2.0, 1.0), "{open:?}");
            for id in ["trials_oc", "trials_asn"] {
                let x = xs(id);
                assert_eq!(x.len(), 15);
                assert_eq!(x[0], 0.0);
                assert!((x[14] - top).abs() < 1e-15, "{id}: {x:?}");
                assert!((x[1] - top / 14.0).abs() < 1e-15, "{id}: {x:?}");
            }
        }
    }

    /// The page says why a line has no value at a point (www/src/analysis.js's `leftOut`) with
    /// these limits written out: they must be these constants'.
    #[test]
    fn the_page_states_the_limits_of_the_ways_as_they_are() {
        let js = include_str!("../../../www/src/analysis.js");
        let chain = analysis::window::MAX_EXACT;
        assert!(js.contains(&format!("chain && x > {chain},")));
        assert!(js.contains(&format!("it is computed up to {chain} calls")));
        let sim = SIM_MAX_LINE_CALLS as u64;
        assert!(js.contains(&format!("sim && x > {sim},")));
        assert!(js.contains(&format!(
            "lines above {},{:03} calls",
            sim / 1000,
            sim % 1000
        )));
    }

    /// The back-to-back line is exact, with 0 where the chance is under a double's least (the
    /// analysis gives a bound there, at most 2.2e-308): the page says of such a 0 "the value, or
    /// a chance it is made of, is under about 1e-308". At p0 0.001%, windows of 180 calls and
    /// more (P(Bin(180, 1e-5) >= 90) is about 1e-397); 5 calls trip with chance 1e-14.
    #[test]
    fn back_to_back_line_is_exact_with_0_under_a_doubles_least() {
        let s = StatisticalSettings {
            fine_rate: 1e-5,
            ..StatisticalSettings::default()
        };
        let curves = page_curves(&s, &WindowSettings::default(), 1.0);
        let c = curves.iter().find(|c| c.id == "window_trips").unwrap();
        let l = &c.series[0];
        assert_eq!(
            (l.label, l.kind),
            ("windows back to back (binomial tail)", Kind::Exact)
        );
        let zero: Vec<f64> =
            l.x.iter()
                .zip(&l.y)
                .filter(|(_, &y)| y == 0.0)
                .map(|(&x, _)| x)
                .collect();
        assert!(
            !zero.is_empty() && zero.iter().all(|&x| x >= 180.0),
            "{zero:?}"
        );
        assert!(
            l.y.iter().all(|&y| y == 0.0 || y >= f64::MIN_POSITIVE),
            "{:?}",
            l.y
        );
        assert!(l.y[0] > 1e-12, "{:?}", l.y);
    }

    /// A simulated line carries its sample size and a 95% interval around every point it has;
    /// no other line does, and the curve's note says how many runs or calls a point rests on.
    #[test]
    fn simulated_lines_carry_their_interval_and_size() {
        let curves = page_curves(
            &StatisticalSettings::default(),
            &WindowSettings::default(),
            1.0,
        );
        let mut seen = Vec::new();
        for c in &curves {
            for l in &c.series {
                if l.kind != Kind::Simulated {
                    assert!(l.ci95_lo.is_empty() && l.ci95_hi.is_empty() && l.n.is_none());
                    continue;
                }
                assert_eq!((l.ci95_lo.len(), l.ci95_hi.len()), (l.y.len(), l.y.len()));
                let mut points = 0;
                for i in 0..l.y.len() {
                    let (lo, y, hi) = (l.ci95_lo[i], l.y[i], l.ci95_hi[i]);
                    assert_eq!(y.is_nan(), lo.is_nan(), "{} point {i}", c.id);
                    if !y.is_nan() {
                        assert!(lo <= y && y <= hi && lo < hi, "{}: {lo} {y} {hi}", c.id);
                        points += 1;
                    }
                }
                assert!(points >= 2, "{}", c.id);
                seen.push((c.id, l.n));
            }
        }
        assert_eq!(
            seen,
            [
                ("false_alarms", Some(SIM_RUNS)),
                ("window_trips", Some(WINDOW_SIM_RUNS * 10_000))
            ]
        );
        let note = |id| &curves.iter().find(|c| c.id == id).unwrap().note;
        assert!(note("false_alarms").contains(" 200 runs each; the band is their 95% interval."));
        assert!(
            note("window_trips").contains(" 200,000 calls each;"),
            "{}",
            note("window_trips")
        );
        assert!(!note("open_delay").contains("Simulated"));
        // Numbers computed for a note say their kind, as the page's other numbers do.
        assert!(
            note("open_delay").contains(" points, exact). "),
            "{}",
            note("open_delay")
        );
        assert!(
            note("trials_asn").contains(" in a row close from 0 (exact); ")
                && note("trials_asn").contains("zero-drift rate ")
                && note("trials_asn").contains("% (exact). For the test run to its end: ")
                && note("trials_oc").contains("at p1. For the test run to its end: "),
            "{}",
            note("trials_asn")
        );
    }

    /// A count in a note is grouped as the page groups numbers: "2,990 successes", not "2990".
    #[test]
    fn a_notes_counts_are_grouped() {
        let st = StatisticalSettings {
            fine_rate: 0.001,
            broken_rate: 0.002,
            ..StatisticalSettings::default()
        };
        let n = st.derived().trials_to_close;
        assert!((1000..1_000_000).contains(&n), "{n}");
        let curves = page_curves(&st, &WindowSettings::default(), 1.0);
        let note = &curves.iter().find(|c| c.id == "trials_asn").unwrap().note;
        let grouped = format!(
            "{},{:03} successes in a row close from 0 (exact)",
            n / 1000,
            n % 1000
        );
        assert!(note.starts_with(&grouped), "{note}");
    }

    /// The window curve is of count windows. Its note says so and where the user's window sits:
    /// a count window at its size (exact), a time window of T s at r calls/s at about r T calls
    /// (an approximation); the mark says the same. A time window's seconds used to be read as
    /// calls without a word.
    #[test]
    fn the_window_curve_places_the_users_window() {
        let st = StatisticalSettings::default();
        let window =
            |curves: Vec<Curve>| curves.into_iter().find(|c| c.id == "window_trips").unwrap();
        let count = WindowSettings {
            sliding_window_size: 40,
            ..WindowSettings::default()
        };
        let c = window(page_curves(&st, &count, 2.0));
        assert!(
            c.note
                .starts_with("Count-based windows at the fine rate 5%"),
            "{}",
            c.note
        );
        assert!(c.note.contains(" Yours: 40 calls. "), "{}", c.note);
        let m = c.mark.expect("a mark");
        assert_eq!((m.x, m.kind), (vec![40.0], Kind::Exact));
        assert!(m.y.is_empty());

        let time = WindowSettings {
            sliding_window_type: SlidingWindowType::TimeBased,
            sliding_window_size: 30,
            ..WindowSettings::default()
        };
        let c = window(page_curves(&st, &time, 2.0));
        assert!(
            c.note.contains(
                " Yours: time-based, 30 s: about 60 calls at 120 calls/min (an approximation: \
                 the calls in 30 s vary, and its minimumNumberOfCalls is not capped at them)."
            ),
            "{}",
            c.note
        );
        let m = c.mark.expect("a mark");
        assert_eq!((m.x.clone(), m.kind), (vec![60.0], Kind::Approximation));
        // The command line agrees: a count window of that many calls at this traffic stands for
        // a time window of about 30 s.
        let cli: Vec<String> = ["window", "--window", &m.x[0].to_string(), "--rps", "2"]
            .map(String::from)
            .into();
        let text = analysis::cli::run(&cli).unwrap();
        assert!(
            text.contains("this stands for one of about 30.00 s (an approximation"),
            "{text}"
        );
        // Slow traffic: a fraction of a call, not "0".
        let c = window(page_curves(&st, &time, 0.5 / 60.0));
        assert!(c.note.contains(", 0.50 calls/min;"), "{}", c.note);
        assert!(
            c.note.contains(": about 0.25 calls at 0.50 calls/min"),
            "{}",
            c.note
        );
        // Slower still: three figures, not "0.00 calls/min".
        let c = window(page_curves(&st, &time, 0.06 / 3600.0));
        assert!(c.note.contains(", 1.000e-3 calls/min;"), "{}", c.note);
        // A time window holding about one call: "about 1 call".
        let c = window(page_curves(&st, &time, 1.0 / 30.0));
        assert!(
            c.note.contains(": about 1 call at 2 calls/min"),
            "{}",
            c.note
        );
        // A window of one call, not "1 calls".
        let one = WindowSettings {
            sliding_window_size: 1,
            minimum_number_of_calls: 1,
            ..WindowSettings::default()
        };
        let c = window(page_curves(&st, &one, 2.0));
        assert!(c.note.contains(" Yours: 1 call. "), "{}", c.note);
        // Only the false-alarm and window curves have a mark.
        let all = page_curves(&st, &time, 1.0);
        assert_eq!(
            all.iter()
                .filter(|c| c.mark.is_some())
                .map(|c| c.id)
                .collect::<Vec<_>>(),
            ["false_alarms", "window_trips"]
        );
    }

    #[test]
    fn the_false_alarm_curve_reaches_and_marks_the_users_line() {
        // 2,143 calls/min for a week: N = 2.16e7 calls, past the 1e7 the curve used to stop at.
        // Its last point is the user's line, with `breaker analyze false-alarms --fine 1%
        // --broken 30% --calls-per-minute 2143 --period 7d`'s exact mean gap (2.457e8 calls).
        let st = StatisticalSettings {
            fine_rate: 0.01,
            broken_rate: 0.3,
            false_alarm_period: 7.0 * 86_400.0,
            ..StatisticalSettings::default()
        };
        let curves = page_curves(&st, &WindowSettings::default(), 2143.0 / 60.0);
        let fa = curves.iter().find(|c| c.id == "false_alarms").unwrap();
        let m = fa.mark.as_ref().expect("a mark");
        assert_eq!(m.label, "your line at the nominal traffic");
        assert_eq!(m.kind, Kind::Exact);
        assert!((m.x[0] - 21_601_440.0).abs() < 1e-6, "{}", m.x[0]);
        let exact = fa.series.iter().find(|l| l.kind == Kind::Exact).unwrap();
        assert!((exact.x.last().unwrap() - 21_601_440.0).abs() < 1e-6);
        let y = *exact.y.last().unwrap();
        assert!((y / 245_691_697.266_480_7 - 1.0).abs() < 1e-9, "{y}");
        // A line on the floor (a trickle of traffic): the mark is e^floor, the curve's start.
        let low = page_curves(&st, &WindowSettings::default(), 1e-6);
        let fa = low.iter().find(|c| c.id == "false_alarms").unwrap();
        let x = fa.mark.as_ref().unwrap().x[0];
        assert!((x.ln() - st.derived().line_floor).abs() < 1e-12, "{x}");
        // The calls-to-open note gives the line in force: the floor here (it gave ln 95 as the
        // line "for 4.32 calls", whose log is 1.46).
        let delay = low.iter().find(|c| c.id == "open_delay").unwrap();
        let floor = format!("higher ({:.2} nats", st.derived().line_floor);
        assert!(delay.note.contains(&floor), "{}", delay.note);
    }

    /// Each point of the false-alarm curve is drawn at its own line: the bound (N = e^line) is
    /// the point's x, also where the floor is above Wald's A (before, the sweep started at e^A
    /// and points below the floor were drawn at x = 95 with the floor's bound, 199).
    #[test]
    fn false_alarm_points_sit_at_their_own_line() {
        for (fine, broken, a) in [(0.005, 0.5, 0.01), (0.01, 0.3, 0.1), (0.02, 0.1, 0.01)] {
            let st = StatisticalSettings {
                fine_rate: fine,
                broken_rate: broken,
                trial_wrongly_opens: a,
                ..StatisticalSettings::default()
            };
            let curves = page_curves(&st, &WindowSettings::default(), 10.0);
            let fa = curves.iter().find(|c| c.id == "false_alarms").unwrap();
            let bound = fa.series.iter().find(|l| l.kind == Kind::Bound).unwrap();
            for (x, y) in bound.x.iter().zip(&bound.y) {
                assert!(
                    (y / x - 1.0).abs() < 1e-9,
                    "{fine}/{broken}/{a}: x {x}, bound {y}"
                );
            }
            let first = bound.x[0].ln();
            assert!((first - st.derived().line_floor.max(10f64.ln())).abs() < 1e-9);
        }
    }

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

    /// A line floor of 1e7 calls or more (p0 = 1e-9, or a tiny a) gave the false-alarm curve
    /// nine points at one x, and the page's log axis over one value threw ("Invalid array
    /// length" in uPlot): the curve spans two decades from the floor at least.
    #[test]
    fn the_false_alarm_curve_spans_two_decades_from_a_high_floor() {
        let win = WindowSettings::default();
        for (fine, opens) in [(1e-9, 0.01), (1e-20, 0.01), (0.05, 1e-8), (0.05, 0.01)] {
            let st = StatisticalSettings {
                fine_rate: fine,
                trial_wrongly_opens: opens,
                ..StatisticalSettings::default()
            };
            let curves = page_curves(&st, &win, 1.0);
            let x = &curves[0].series[0].x;
            assert!(x.windows(2).all(|w| w[0] < w[1]), "{fine} {opens}: {x:?}");
            assert!(
                x[x.len() - 1] >= 100.0 * x[0] * (1.0 - 1e-12),
                "{fine} {opens}: {x:?}"
            );
        }
    }
}
