//! The tables the command line prints and the page draws: one point or a sweep per command,
//! every number a [`Figure`]. Field names are the JSON keys documented in the crate's README.

use crate::figure::Figure;
use crate::window::{CountWindow, Start};
use crate::{cusum, sprt, window};
use breaker::score::Weights;
use breaker::trial::WaldLines;
use serde::Serialize;

/// Monte Carlo options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Simulation {
    /// Runs (run lengths, trials, window calls to open); the window's trips per day simulate
    /// `runs x 10,000` calls. At least 1, as the command line takes it: 0 runs simulate
    /// nothing, and the note then blames the cap.
    pub runs: u64,
    /// Seed of the PCG generator.
    pub seed: u64,
}

/// Total calls a run-length simulation may spend before it gives up.
pub const SIMULATION_MAX_CALLS: u64 = 20_000_000_000;
/// Total geometric draws (one per failure simulated: the work) a run-length or half-open
/// simulation may make: about 2 s natively. The cap on calls alone let a simulation at a 20%
/// failure rate make 4e9 draws (minutes natively, more in a browser).
pub const SIMULATION_MAX_DRAWS: u64 = 50_000_000;

/// Work caps of one point (deterministic work units, not time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// Band cells of each dynamic program ([`crate::dp::MAX_CELLS`] by default).
    pub dp_cells: u64,
    /// Multiply-adds of the Brook-Evans chain (unlimited by default: it has its own budget,
    /// [`cusum::CHAIN_BUDGET`]).
    pub chain_work: u64,
    /// Geometric draws of a simulation ([`SIMULATION_MAX_DRAWS`] by default).
    pub sim_draws: u64,
}

impl Budget {
    /// The command line's caps.
    pub const DEFAULT: Budget = Budget {
        dp_cells: crate::dp::MAX_CELLS,
        chain_work: u64::MAX,
        sim_draws: SIMULATION_MAX_DRAWS,
    };
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// Work done for one point, in the units of [`Budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Work {
    /// Band cells of the dynamic programs.
    pub dp_cells: u64,
    /// Multiply-adds of the Brook-Evans chain.
    pub chain_work: u64,
    /// Geometric draws of the simulations.
    pub sim_draws: u64,
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, o: Work) {
        self.dp_cells += o.dp_cells;
        self.chain_work += o.chain_work;
        self.sim_draws += o.sim_draws;
    }
}

/// Why an exact figure is left out: the dynamic program stopped at its work cap first.
fn not_exact_note(cells: u64, value: f64, error: f64) -> String {
    let cells = cells as f64;
    if !value.is_finite() {
        // "(estimate inf, error estimate inf)" said nothing.
        return format!(
            "no exact figure: the dynamic program stopped at its work cap ({cells:.0e} cells) \
             before it had an estimate"
        );
    }
    format!(
        "no exact figure: the dynamic program stopped at its work cap ({cells:.0e} cells) \
         before converging (estimate {value:.4e}, error estimate {error:.1e})"
    )
}
/// Total calls a window simulation may spend.
pub const WINDOW_SIMULATION_MAX_CALLS: u64 = 20_000_000;

/// The statistical breaker's settings as the analysis uses them. The report builders take them
/// as the command line and the page check them (`0 < fine < broken < 1`, `0 < a, b` with
/// `a + b < 1`, `calls_per_second` finite and above 0); with others the exact programs panic
/// (fine above broken) and the rest give figures that mean nothing under their usual labels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Statistical {
    /// p0.
    pub fine: f64,
    /// p1.
    pub broken: f64,
    /// a: the trial wrongly opens.
    pub a: f64,
    /// b: the trial wrongly closes.
    pub b: f64,
    /// Traffic, calls per second (turns calls into time).
    pub calls_per_second: f64,
}

impl Statistical {
    /// `w_fail`, `w_ok` from p0 and p1.
    pub fn weights(&self) -> Weights {
        Weights::new(self.fine, self.broken)
    }

    /// Wald's lines from a and b.
    pub fn wald(&self) -> WaldLines {
        WaldLines::new(self.a, self.b)
    }

    /// The closed line for `n` calls per false-alarm period: `max(ln N, floor)`, the breaker's
    /// floor `max(A, w_fail + |w_ok|)`.
    pub fn line_for_calls(&self, n: f64) -> f64 {
        breaker::line::line(n, 1.0, breaker::line::floor(self.weights(), self.wald()))
    }
}

/// The settings and the numbers derived from them, echoed with every report.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Echo {
    /// p0.
    pub fine: f64,
    /// p1.
    pub broken: f64,
    /// a.
    pub a: f64,
    /// b.
    pub b: f64,
    /// `w_fail` (nats).
    pub w_fail: f64,
    /// `w_ok` (nats).
    pub w_ok: f64,
    /// One point = `|w_ok|` nats.
    pub point: f64,
    /// Wald's upper line A (nats).
    pub upper: f64,
    /// Wald's lower line B (nats).
    pub lower: f64,
    /// The failure rate with zero drift.
    pub zero_drift_rate: f64,
    /// The closed line's floor (nats): `max(A, w_fail + |w_ok|)` (`breaker::line::floor`).
    pub line_floor: f64,
    /// Traffic, calls per second.
    pub calls_per_second: f64,
}

impl Echo {
    /// From the settings.
    pub fn of(s: &Statistical) -> Self {
        let w = s.weights();
        let l = s.wald();
        Echo {
            fine: s.fine,
            broken: s.broken,
            a: s.a,
            b: s.b,
            w_fail: w.fail,
            w_ok: w.ok,
            point: w.point(),
            upper: l.upper,
            lower: l.lower,
            zero_drift_rate: w.zero_drift_rate(),
            line_floor: breaker::line::floor(w, l),
            calls_per_second: s.calls_per_second,
        }
    }
}

/// One quantity computed several ways; absent ways are left out of the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Ways {
    /// A proven bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<Figure>,
    /// The exact value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Figure>,
    /// A second, independent method (the Brook-Evans chain), labeled approximation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markov_chain: Option<Figure>,
    /// Wald's approximation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approximation: Option<Figure>,
    /// Monte Carlo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated: Option<Figure>,
}

impl Ways {
    /// Every way scaled by `k` (calls to seconds).
    pub fn scaled(&self, k: f64) -> Ways {
        let f = |x: Option<Figure>| x.map(|f| f.scaled(k));
        Ways {
            bound: f(self.bound),
            exact: f(self.exact),
            markov_chain: f(self.markov_chain),
            approximation: f(self.approximation),
            simulated: f(self.simulated),
        }
    }
}

/// The CUSUM's run length at one true rate and line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunLength {
    /// True failure rate.
    pub true_rate: f64,
    /// The line (nats).
    pub line: f64,
    /// `e^line`: calls per false-alarm period the line stands for.
    pub line_calls: f64,
    /// The line in points.
    pub line_points: f64,
    /// Calls from a score of 0 to the alarm.
    pub calls: Ways,
    /// The same in seconds at the traffic.
    pub seconds: Ways,
    /// Error estimate of `calls.exact` (calls).
    pub exact_error: f64,
    /// Why `calls.exact` is missing: the dynamic program did not converge within its work cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_note: Option<String>,
    /// Error estimate of `calls.markov_chain` (calls), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markov_chain_error: Option<f64>,
    /// Expected score change per call at the true rate (nats).
    pub drift: f64,
    /// Why a simulation that was asked for is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation_note: Option<String>,
    /// The work this point took (not in the JSON).
    #[serde(skip)]
    pub work: Work,
}

/// The words a note puts around a number of runs: "1 run of about 2e3 calls", "5 runs of about
/// 2e3 calls each"; and fewer runs to ask for only when there can be fewer.
fn runs_words(n: u64) -> (&'static str, &'static str, &'static str) {
    if n == 1 {
        ("run", "", "")
    } else {
        ("runs", " each", "fewer runs or ")
    }
}

/// The CUSUM simulation at `p`, or why there is none: skipped at once when the runs would need
/// more than [`SIMULATION_MAX_CALLS`] calls, or more than `max_draws` draws, by the run length
/// `arl` (the dynamic program's, exact or not), instead of simulating until a cap runs out and
/// giving nothing. Returns the draws made too.
fn simulated_run_length(
    w: Weights,
    line: f64,
    p: f64,
    arl: f64,
    o: Simulation,
    max_draws: u64,
) -> (Option<Figure>, Option<String>, u64) {
    let cap = SIMULATION_MAX_CALLS;
    let (run, each, fewer) = runs_words(o.runs);
    if p <= 0.0 {
        return (
            None,
            Some("not simulated: at a true rate of 0 the score never rises".into()),
            0,
        );
    }
    let need = arl * o.runs as f64;
    if need > cap as f64 {
        return (
            None,
            Some(format!(
                "not simulated: {} {run} of about {:.3e} calls{each} would pass the {:.0e} \
                 simulated calls allowed; ask for {fewer}a lower line",
                o.runs, arl, cap as f64
            )),
            0,
        );
    }
    // One draw per failure: about p calls in each.
    let draws = need * p;
    if draws > max_draws as f64 {
        return (
            None,
            Some(format!(
                "not simulated: {} {run} of about {:.3e} calls{each} would take about {:.1e} \
                 draws (one per failure), past the {:.0e} allowed; ask for {fewer}a lower line",
                o.runs, arl, draws, max_draws as f64
            )),
            0,
        );
    }
    match cusum::simulate_capped(w, line, p, o.runs, o.seed, cap, max_draws) {
        (Some(f), d) => (Some(f), None, d),
        (None, d) => (
            None,
            Some(format!(
                "not simulated: the {} {run} passed the {:.0e} simulated calls or the {:.0e} \
                 draws allowed; ask for {}",
                o.runs,
                cap as f64,
                max_draws as f64,
                if o.runs == 1 {
                    "a lower line"
                } else {
                    "fewer runs"
                }
            )),
            d,
        ),
    }
}

/// Run length of the CUSUM with line `line` at true rate `p`, every way that applies, within
/// [`Budget::DEFAULT`].
pub fn run_length(s: &Statistical, line: f64, p: f64, sim: Option<Simulation>) -> RunLength {
    run_length_capped(s, line, p, sim, Budget::DEFAULT)
}

/// [`run_length`] within `budget`: a way that does not fit is left out (the exact figure with
/// [`RunLength::exact_note`], the simulation with [`RunLength::simulation_note`]).
pub fn run_length_capped(
    s: &Statistical,
    line: f64,
    p: f64,
    sim: Option<Simulation>,
    budget: Budget,
) -> RunLength {
    let w = s.weights();
    let exact = cusum::arl_exact_capped(w, line, p, budget.dp_cells);
    let chain = cusum::arl_markov_chain_capped(w, line, p, budget.chain_work as f64);
    let bound = cusum::lorden_bound(line, p, s.fine);
    // A chain whose error is not finite or not below its value, or whose value is below the
    // proven bound, says nothing of the run length (only coarse convergents fit, their grid's
    // drift of the other sign: 2.269e10 +- inf below a bound of 1e15): its work counts, its
    // figure is left out.
    let chain_work = chain.map_or(0, |c| c.work as u64);
    let chain = chain.filter(|c| {
        c.error.is_none_or(|e| e.is_finite() && e < c.arl) && bound.is_none_or(|b| c.arl >= b.value)
    });
    let wald = cusum::arl_wald(w, line, p);
    // The simulation's size is judged on the exact run length, or Wald's where the dynamic
    // program had no estimate (it said "runs of about inf calls").
    let guess = if exact.arl.is_finite() {
        exact.arl
    } else {
        wald.value
    };
    let (simulated, simulation_note, draws) = match sim {
        Some(o) => simulated_run_length(w, line, p, guess, o, budget.sim_draws),
        None => (None, None, 0),
    };
    let calls = Ways {
        bound,
        exact: exact.figure(),
        markov_chain: chain.map(|c| c.figure()),
        approximation: Some(wald),
        simulated,
    };
    RunLength {
        true_rate: p,
        line,
        line_calls: libm::exp(line),
        line_points: w.to_points(line),
        seconds: calls.scaled(1.0 / s.calls_per_second),
        calls,
        exact_error: exact.error,
        exact_note: (!exact.is_exact())
            .then(|| not_exact_note(exact.cells, exact.arl, exact.error)),
        markov_chain_error: chain.and_then(|c| c.error),
        drift: w.drift(p),
        simulation_note,
        work: Work {
            dp_cells: exact.cells,
            chain_work,
            sim_draws: draws,
        },
    }
}

/// `breaker analyze false-alarms` / `open-delay`: run lengths over a sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunLengths {
    /// "false-alarms" or "open-delay".
    pub command: &'static str,
    /// What the sweep varies: "line_calls" or "true_rate" (or "none").
    pub sweep: &'static str,
    /// Settings and derived numbers.
    pub settings: Echo,
    /// One row per swept value.
    pub points: Vec<RunLength>,
}

/// Half-open OC and ASN at one true rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trials {
    /// True failure rate of the recovering service.
    pub true_rate: f64,
    /// Chance that half-open closes (OC).
    pub close_probability: Ways,
    /// Expected trials until half-open decides (ASN).
    pub expected_trials: Ways,
    /// Error estimate of the exact OC.
    pub close_error: f64,
    /// Error estimate of the exact ASN.
    pub trials_error: f64,
    /// Why an exact figure is missing: the dynamic program did not converge within its cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_note: Option<String>,
    /// Why a simulation that was asked for is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation_note: Option<String>,
    /// Half-open as the breaker runs it, with its time limit ([`time_limit`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<TimeLimit>,
    /// Why `time_limit` is missing: the program would pass its work cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_limit_note: Option<String>,
    /// The work this point took (not in the JSON).
    #[serde(skip)]
    pub work: Work,
}

/// Half-open with its time limit, `factor x trials to close / rate`, at one true rate
/// ([`sprt::half_open_time_limited`]): approximations, with trials as a Poisson stream after the
/// call that starts half-open (answers much faster than the time between calls, none lost).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimeLimit {
    /// The half-open time factor.
    pub factor: f64,
    /// Trials tried by the limit on average: `1 + factor x trials to close` (the call that
    /// starts half-open, then the calls a Poisson stream brings by the limit).
    pub mean_trials: f64,
    /// Chance that half-open closes: at Wald's lower line, or at the limit with the trial score
    /// below 0.
    pub close_probability: Figure,
    /// Chance that it ends at the limit rather than at a line.
    pub ends_at_limit: Figure,
}

/// What a cell of the time-limited program costs against a cell of the dynamic programs, in
/// whose units [`Budget::dp_cells`] and [`Work::dp_cells`] count: 4.4 ns against 0.175 ns
/// natively (fine 19.99%, broken 20%: 8.3e8 cells in 3.7 s, the half-open program's 1e9 in
/// 175 ms). Counted as one, the cap let that point run 3.7 s (`analyze trials` 15 s).
pub const TIME_LIMITED_CELL_COST: u64 = 25;

/// [`Trials::time_limit`] for `t` (its true rate), or the note saying why it is missing. Its
/// cells count [`TIME_LIMITED_CELL_COST`] each against `budget`.
pub fn time_limit(
    s: &Statistical,
    t: &mut Trials,
    factor: f64,
    trials_to_close: u64,
    budget: Budget,
) {
    let after_first = factor * trials_to_close as f64;
    let mean_trials = 1.0 + after_first;
    match sprt::half_open_time_limited(
        s.weights(),
        s.wald(),
        t.true_rate,
        after_first,
        budget.dp_cells / TIME_LIMITED_CELL_COST,
    ) {
        Some(r) => {
            t.time_limit = Some(TimeLimit {
                factor,
                mean_trials,
                close_probability: Figure::approximation(r.close_probability),
                ends_at_limit: Figure::approximation(r.ends_at_limit),
            });
            t.work.dp_cells += r.cells * TIME_LIMITED_CELL_COST;
        }
        None => {
            t.time_limit_note = Some(format!(
                "not computed: about {mean_trials:.3e} trials by the limit would take the \
                 program past its work cap ({:.0e} cells)",
                (budget.dp_cells / TIME_LIMITED_CELL_COST) as f64
            ))
        }
    }
}

/// OC and ASN at true rate `p`: exact, Wald, and simulated when asked, within
/// [`Budget::DEFAULT`].
pub fn trials(s: &Statistical, p: f64, sim: Option<Simulation>) -> Trials {
    trials_capped(s, p, sim, Budget::DEFAULT)
}

/// [`trials`] within `budget`: a way that does not fit is left out, with a note.
pub fn trials_capped(s: &Statistical, p: f64, sim: Option<Simulation>, budget: Budget) -> Trials {
    let (w, l) = (s.weights(), s.wald());
    let e = sprt::exact_capped(w, l, p, budget.dp_cells);
    let a = sprt::wald(w, l, p);
    let (close_ok, trials_ok) = (e.close_is_exact(), e.trials_is_exact());
    // Draws the runs would take, about (one per failure, one more per run), by the exact ASN, or
    // the larger of its estimate and Wald's when it is not exact: skipped at once past the cap.
    let asn = if trials_ok {
        e.expected_trials
    } else {
        e.expected_trials.max(a.expected_trials)
    };
    let (m, draws, simulation_note) = match sim {
        None => (None, 0, None),
        Some(o) if o.runs as f64 * (asn * p + 1.0) > budget.sim_draws as f64 => (
            None,
            0,
            Some({
                let (run, each, _) = runs_words(o.runs);
                format!(
                    "not simulated: {} {run} of about {:.3e} trials{each} would take about \
                     {:.1e} draws (one per failure), past the {:.0e} allowed{}",
                    o.runs,
                    asn,
                    o.runs as f64 * (asn * p + 1.0),
                    budget.sim_draws as f64,
                    if o.runs == 1 {
                        ""
                    } else {
                        "; ask for fewer runs"
                    }
                )
            }),
        ),
        Some(o) => match sprt::simulate_capped(w, l, p, o.runs, o.seed, budget.sim_draws) {
            (Some(m), d) => (Some(m), d, None),
            (None, d) => (
                None,
                d,
                Some(format!(
                    "not simulated: the runs passed the {:.0e} draws (one per failure) \
                     allowed; ask for fewer runs",
                    budget.sim_draws as f64
                )),
            ),
        },
    };
    // Each figure is exact or not on its own error: the note names the one left out where the
    // other is exact ("no exact figure" followed "chance to close: exact 0").
    let exact_note = (!(close_ok && trials_ok)).then(|| {
        let what = if close_ok {
            "expected trials"
        } else if trials_ok {
            "chance to close"
        } else {
            "figure"
        };
        format!(
            "no exact {what}: the dynamic program stopped at its work cap ({:.0e} cells) \
             before converging (estimates {:.4e} to close, error {:.1e}; {:.4e} trials, error \
             {:.1e})",
            e.cells as f64, e.close_probability, e.close_error, e.expected_trials, e.trials_error
        )
    });
    Trials {
        true_rate: p,
        close_probability: Ways {
            exact: close_ok.then(|| Figure::exact(e.close_probability)),
            approximation: Some(Figure::approximation(a.close_probability)),
            simulated: m.map(|m| m.0),
            ..Ways::default()
        },
        expected_trials: Ways {
            exact: trials_ok.then(|| Figure::exact(e.expected_trials)),
            approximation: Some(Figure::approximation(a.expected_trials)),
            simulated: m.map(|m| m.1),
            ..Ways::default()
        },
        close_error: e.close_error,
        trials_error: e.trials_error,
        exact_note,
        simulation_note,
        time_limit: None,
        time_limit_note: None,
        work: Work {
            dp_cells: e.cells,
            chain_work: 0,
            sim_draws: draws,
        },
    }
}

/// `breaker analyze trials`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrialsReport {
    /// "trials".
    pub command: &'static str,
    /// "true_rate" or "none".
    pub sweep: &'static str,
    /// Settings and derived numbers.
    pub settings: Echo,
    /// Successes in a row that close from 0: `ceil(B / w_ok)`.
    #[serde(serialize_with = "whole_number")]
    pub trials_to_close: u64,
    /// Failures in a row that open again from 0: `ceil(A / w_fail)`.
    #[serde(serialize_with = "whole_number")]
    pub trials_to_open: u64,
    /// One row per true rate.
    pub points: Vec<Trials>,
}

/// A count that can pass 2^53 (trials to close at rates one rounding step apart: 1.3e16):
/// as a whole number below 2^53 (JS's safe integers, all the page's converter takes), and as a
/// float from there, which JSON readers and the page take (the page's results refused such a
/// `u64`, and with it the whole run).
pub fn whole_number<S: serde::Serializer>(n: &u64, s: S) -> Result<S::Ok, S::Error> {
    if *n < 1 << 53 {
        s.serialize_u64(*n)
    } else {
        s.serialize_f64(*n as f64)
    }
}

/// Drift at one true rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Drift {
    /// True failure rate.
    pub true_rate: f64,
    /// Expected score change per call (nats).
    pub nats_per_call: Figure,
    /// The same in points.
    pub points_per_call: Figure,
}

/// Drift at `p`.
pub fn drift(s: &Statistical, p: f64) -> Drift {
    let w = s.weights();
    let d = w.drift(p);
    Drift {
        true_rate: p,
        nats_per_call: Figure::exact(d),
        points_per_call: Figure::exact(w.to_points(d)),
    }
}

/// `breaker analyze drift`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DriftReport {
    /// "drift".
    pub command: &'static str,
    /// "true_rate" or "none".
    pub sweep: &'static str,
    /// Settings and derived numbers.
    pub settings: Echo,
    /// The rate with zero drift (exact).
    pub zero_drift_rate: Figure,
    /// The indifference zone `[p0, p1]` around it.
    pub indifference_zone: (f64, f64),
    /// One row per true rate.
    pub points: Vec<Drift>,
}

/// Spurious trips of the window breaker at one baseline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WindowTrips {
    /// Baseline failure rate.
    pub baseline: f64,
    /// Chance that a full window is at or over the threshold (binomial tail, exact; a bound,
    /// at most 2.2e-308, where the tail is smaller than a double holds).
    pub trip_probability_per_window: Figure,
    /// Trips per day with windows evaluated back to back (exact for that model; a bound, at
    /// most, with the chance).
    pub trips_per_day_back_to_back: Figure,
    /// Trips per day for a window sliding one call at a time, restarting empty after a trip:
    /// `exact` (chain, windows up to 18) and/or `simulated`.
    pub trips_per_day_sliding: Ways,
    /// Error estimate of the exact sliding figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sliding_error: Option<f64>,
}

/// The window breaker at an outage rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WindowOutage {
    /// Outage failure rate.
    pub outage_rate: f64,
    /// Baseline of the full window the outage starts from.
    pub baseline: f64,
    /// Calls from the start of the outage to the trip.
    pub calls_to_open: Ways,
    /// The same in seconds.
    pub seconds_to_open: Ways,
    /// Error estimate of the exact calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls_error: Option<f64>,
    /// Why a figure is missing, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `breaker analyze window`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WindowReport {
    /// "window".
    pub command: &'static str,
    /// "baseline" or "none".
    pub sweep: &'static str,
    /// `slidingWindowSize`.
    pub window: u32,
    /// `failureRateThreshold` (fraction).
    pub threshold: f64,
    /// `minimumNumberOfCalls` in force (capped at the window).
    pub minimum_calls: u32,
    /// `minimumNumberOfCalls` as given (above `minimum_calls` when the window caps it).
    pub minimum_calls_given: u32,
    /// Failures in a full window that trip.
    pub failures_to_trip: u64,
    /// Traffic, calls per second.
    pub calls_per_second: f64,
    /// Seconds to fill the window (exact): calls over the traffic, for calls evenly spaced (the
    /// n-th at n / rate) and the mean for Poisson calls.
    pub time_to_fill: Figure,
    /// Seconds to the first evaluation (exact), as `time_to_fill`.
    pub time_to_first_evaluation: Figure,
    /// Spurious trips, one row per baseline.
    pub points: Vec<WindowTrips>,
    /// Opening on an outage, from a full window at `--baseline` (the fine rate when it is not
    /// given, as when a sweep varies the baseline).
    pub outage: WindowOutage,
}

/// Spurious trips at baseline `p` (sliding: exact up to [`window::MAX_EXACT`], simulated when
/// asked or when the exact chain does not apply).
pub fn window_trips(w: &CountWindow, p: f64, rps: f64, sim: Option<Simulation>) -> WindowTrips {
    let exact = window::sliding_trips_per_day_exact(w, p, rps);
    let sim = sim.or(exact.is_none().then_some(Simulation {
        runs: 1000,
        seed: 1,
    }));
    WindowTrips {
        baseline: p,
        trip_probability_per_window: window::trip_probability(w, p),
        trips_per_day_back_to_back: window::back_to_back_trips_per_day(w, p, rps),
        trips_per_day_sliding: Ways {
            exact: exact.map(|e| e.0),
            simulated: sim.and_then(|o| {
                let calls = o
                    .runs
                    .saturating_mul(10_000)
                    .min(WINDOW_SIMULATION_MAX_CALLS);
                window::simulate_trips_per_day(w, p, rps, calls, o.seed)
            }),
            ..Ways::default()
        },
        sliding_error: exact.map(|e| e.1),
    }
}

/// Calls to open at `outage` from a full window at `baseline`.
pub fn window_outage(
    w: &CountWindow,
    baseline: f64,
    outage: f64,
    rps: f64,
    sim: Option<Simulation>,
) -> WindowOutage {
    let start = Start::Full { baseline };
    let exact = window::calls_to_trip_exact(w, outage, start);
    let sim = sim.or(exact.is_none().then_some(Simulation {
        runs: 1000,
        seed: 1,
    }));
    let calls = Ways {
        exact: exact.map(|e| Figure::exact(e.calls)),
        simulated: sim.and_then(|o| {
            window::simulate_calls_to_trip(
                w,
                outage,
                start,
                o.runs,
                o.seed,
                WINDOW_SIMULATION_MAX_CALLS,
            )
        }),
        ..Ways::default()
    };
    // The simulation gives up when its runs together pass the cap (or a full window at the
    // baseline keeps tripping): runs may well have tripped, so the note does not say none did.
    let note = (calls.exact.is_none() && calls.simulated.is_none()).then(|| {
        // A start that hardly exists: the full window at the baseline is itself over the
        // threshold more often than not (fewer runs would not help).
        let trips = window::trip_probability(w, baseline).value;
        if trips > 0.5 {
            return format!(
                "not simulated: a full window at the baseline {} is itself at or over the {} \
                 threshold (chance {}), so there is hardly a full window below it to start from; \
                 give a --baseline further below the threshold",
                crate::cli::pct(baseline),
                crate::cli::pct(w.threshold),
                crate::cli::num(trips)
            );
        }
        // An outage under the threshold trips a full window only by chance: runs go on long.
        let chance = window::trip_probability(w, outage);
        let by_chance = chance.value;
        let why = if by_chance < 0.5 {
            format!(
                "at the outage rate {} a full window reaches the {} threshold only by chance \
                 (chance {}), and ",
                crate::cli::pct(outage),
                crate::cli::pct(w.threshold),
                crate::cli::chance(&chance)
            )
        } else {
            String::new()
        };
        let runs = sim.map_or(0, |o| o.runs);
        // A trip by chance 1 in more calls than allowed: no run fits, fewer runs would not help.
        let (run, ask, end) = if runs == 1 {
            ("run", "", "")
        } else if by_chance * (WINDOW_SIMULATION_MAX_CALLS as f64) < 1.0 {
            ("runs", "", "")
        } else {
            ("runs", "ask for fewer runs (", ")")
        };
        format!(
            "not simulated: {why}the {runs} {run} (each from a full window) needed more than the \
             {WINDOW_SIMULATION_MAX_CALLS} simulated calls allowed; {ask}the exact chain takes \
             windows up to {}{end}",
            window::MAX_EXACT
        )
    });
    WindowOutage {
        outage_rate: outage,
        baseline,
        seconds_to_open: calls.scaled(1.0 / rps),
        note,
        calls_to_open: calls,
        calls_error: exact.map(|e| e.error),
    }
}

/// A swept range: `count` values from `from` to `to`, evenly or logarithmically spaced. As the
/// command line's `--sweep` gives them: `count` from 2 (1 and 0 give `[from]`) to what memory
/// holds, and for log spacing `0 < from, to` (else `NaN`s).
pub fn sweep_values(from: f64, to: f64, count: usize, log: bool) -> Vec<f64> {
    if count <= 1 {
        return vec![from];
    }
    (0..count)
        .map(|i| {
            let t = i as f64 / (count - 1) as f64;
            if log {
                libm::exp(libm::log(from) + t * (libm::log(to) - libm::log(from)))
            } else {
                from + t * (to - from)
            }
        })
        .collect()
}
