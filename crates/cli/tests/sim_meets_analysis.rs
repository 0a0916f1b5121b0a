//! The simulator's breakers against the analysis' figures, under the analysis' own assumptions.
//!
//! The page puts the run (crates/sim) beside the analysis (crates/analysis); each is tested on
//! its own elsewhere. Here the two meet: scenarios built to satisfy what the analysis assumes,
//! played through `sim`, counted from the event trace, and compared with the figure the page
//! shows for the same settings, with a 99.9% interval from the counts (z = 3.2905; one-sided
//! checks at the 99.9% quantile). Every run uses fixed seeds, written beside it, so a failure is
//! reproducible, and the tolerances are the intervals alone unless a comment says why not.
//!
//! What the analysis assumes, and how the scenarios meet it:
//! * independent failures at a known, constant rate: one `failure_rate` per phase, no bursts,
//!   no `one_in`, no capacity, no hangs or input errors;
//! * steady traffic at the nominal rate: even arrivals (so a count of calls can be read from
//!   the times: call n comes at n / r), or Poisson where the analysis' figure is in time; the
//!   statistical breaker's meter warm from the start (`expected_calls_per_minute` = the
//!   traffic), as the presets set it. Its line is still set from *measured* traffic (see
//!   `line_from_measured_traffic`);
//! * answers much faster than the time between calls: latency 0, so each result is counted at
//!   its call's arrival, no call is in flight when the breaker changes state, and in half-open
//!   every call is a trial (none rejected as busy, none lost);
//! * the closed CUSUM counted from a score of 0 (a run from a close, or after a stretch of
//!   successes), the half-open test from a trial score of 0, the window from empty (after a
//!   close) -- each as its figure says.
//!
//! Settings points: the defaults (60 calls/min, p0 5%, p1 20%, a 1%, b 5%, 30 d, window 100/50%),
//! and the statistical and window settings of the `recovery-warmup` preset (300 calls/min, p0
//! 10%, p1 40%; window 20/50%, 3 probes) and of `quiet-service` (1 call/min, defaults). Where a
//! figure at the real settings would need more calls than a test can play (a false alarm per
//! 4.7e7 calls at the defaults), the false-alarm period is shortened, which changes the line
//! only, and the real settings get the one-sided check that is affordable; each test says so.
//!
//! What the runs found: the half-open time limit's approximation left out the call that
//! starts half-open, which is the first trial (fixed in `analysis::sprt::half_open_time_limited`;
//! `half_open_with_its_time_limit_meets_the_approximation` failed before, at p1: the breaker
//! ended at the limit 0.154 of the time, the figure said 0.161). Modelling differences, each
//! documented at its test: the line is set from measured traffic (a percent or two at 1 call a
//! minute, inside the intervals); the calls to open count from a score of 0, and a breaker
//! running at p0 opens about 2% sooner (see `analysis::cusum`); the window's trips per day are per day closed.

use analysis::report::{self, Statistical as Settings};
use analysis::window::{self as win, CountWindow};
use breaker::score::Weights;
use breaker::trial::WaldLines;
use breaker::{Reason, State, StatisticalSettings, WindowSettings};
use sim::{Arrivals, Condition, Event, Phase, RunResult, Scenario, Sim};

/// Two-sided 99.9% normal quantile.
const Z: f64 = 3.2905;

// ---------------------------------------------------------------------------------------------
// Settings points and scenarios

/// One settings point: both breakers' settings and the traffic they are tuned for.
#[derive(Clone)]
struct Point {
    name: &'static str,
    stat: StatisticalSettings,
    window: WindowSettings,
    calls_per_minute: f64,
}

impl Point {
    /// The defaults, with the meter warm at the traffic (60 calls/min).
    fn defaults() -> Point {
        Point {
            name: "defaults",
            stat: StatisticalSettings {
                expected_calls_per_minute: 60.0,
                ..StatisticalSettings::default()
            },
            window: WindowSettings::default(),
            calls_per_minute: 60.0,
        }
    }

    /// A preset's breakers and traffic (its dependency is replaced by the test's).
    fn preset(name: &'static str) -> Point {
        let s = sim::preset(name).expect("preset");
        assert_eq!(
            s.statistical.expected_calls_per_minute, s.traffic.calls_per_minute,
            "{name}: the preset's meter starts warm at its traffic"
        );
        Point {
            name,
            stat: s.statistical,
            window: s.window,
            calls_per_minute: s.traffic.calls_per_minute,
        }
    }

    /// Calls per second.
    fn rate(&self) -> f64 {
        self.calls_per_minute / 60.0
    }

    /// The analysis' settings for this point.
    fn analysis(&self) -> Settings {
        Settings {
            fine: self.stat.fine_rate,
            broken: self.stat.broken_rate,
            a: self.stat.trial_wrongly_opens,
            b: self.stat.trial_wrongly_closes,
            calls_per_second: self.rate(),
        }
    }

    /// The closed line the analysis uses: `max(ln N, floor)`, N = nominal calls per period.
    fn line(&self) -> f64 {
        self.analysis()
            .line_for_calls(self.rate() * self.stat.false_alarm_period)
    }

    fn weights(&self) -> Weights {
        self.analysis().weights()
    }

    fn wald(&self) -> WaldLines {
        self.analysis().wald()
    }
}

/// A phase from `start` with independent failures at `rate`, answered at once.
fn phase(start: f64, rate: f64, condition: Condition) -> Phase {
    Phase {
        start,
        condition,
        failure_rate: rate,
        latency: 0.0,
        failure_latency: 0.0,
        ..Phase::default()
    }
}

fn scenario(
    p: &Point,
    arrivals: Arrivals,
    phases: Vec<Phase>,
    duration: f64,
    seed: u64,
) -> Scenario {
    let mut s = Scenario {
        name: format!("{} (sim_meets_analysis)", p.name),
        seed,
        duration,
        dependency: phases,
        statistical: p.stat.clone(),
        window: p.window.clone(),
        ..Scenario::default()
    };
    s.traffic.calls_per_minute = p.calls_per_minute;
    s.traffic.arrivals = arrivals;
    s.validate().expect("a valid scenario");
    s
}

/// The whole run, without series.
fn play(s: &Scenario) -> RunResult {
    let mut sim = Sim::new(s).expect("runs");
    sim.advance(u64::MAX);
    assert!(sim.is_done());
    sim.result()
}

/// The index of the call at `t` with even arrivals at `r` calls/s (call n comes at n / r).
fn call_at(t: f64, r: f64) -> i64 {
    let n = (t * r).round();
    assert!(
        (t * r - n).abs() < 1e-6,
        "{t} s is not a call's time at {r}/s"
    );
    n as i64
}

/// The index of the last call at or before `t` (even arrivals at `r` calls/s): a close at the
/// half-open time limit comes between calls.
fn calls_by(t: f64, r: f64) -> i64 {
    (t * r + 1e-6).floor() as i64
}

// ---------------------------------------------------------------------------------------------
// Counting from the event trace

/// Stretches a breaker spent closed: `(from, to, ended_by_opening)`; the run starts closed at 0
/// and the last stretch may run to the end (`false`).
fn closed_stretches(events: &[Event], end: f64) -> Vec<(f64, f64, bool)> {
    let mut out = Vec::new();
    let mut since = Some(0.0);
    for e in events {
        assert_eq!(e.caller, 0, "one caller");
        match (e.from, e.to) {
            (State::Closed, State::Open) => {
                out.push((since.take().expect("was closed"), e.t_s, true));
            }
            (_, State::Closed) => since = Some(e.t_s),
            _ => {}
        }
    }
    if let Some(s) = since {
        out.push((s, end, false));
    }
    out
}

/// Half-open episodes: `(entered, left, closed, reason it ended)`; an episode still running at
/// the end is left out (it started before the end, so leaving it out biases nothing measured
/// per episode only if episodes are short against the run: they are, a few hundred calls).
fn half_open_episodes(events: &[Event]) -> Vec<(f64, f64, bool, Reason)> {
    let mut out = Vec::new();
    let mut entered = None;
    for e in events {
        match (e.from, e.to) {
            (State::Open, State::HalfOpen) => entered = Some(e.t_s),
            (State::HalfOpen, to) => {
                let t0 = entered.take().expect("entered half-open");
                out.push((t0, e.t_s, to == State::Closed, e.reason));
            }
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Statistics

/// Mean and its 99.9% interval (normal, sample variance): `(mean, lo, hi, n)`.
fn mean_ci(xs: &[f64]) -> (f64, f64, f64, usize) {
    let n = xs.len();
    assert!(n >= 30, "too few samples ({n}) for a normal interval");
    let m = xs.iter().sum::<f64>() / n as f64;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    let h = Z * (v / n as f64).sqrt();
    (m, m - h, m + h, n)
}

/// Wilson's 99.9% interval for `k` successes in `n` trials.
fn binomial_ci(k: u64, n: u64) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let ph = k / n;
    let den = 1.0 + Z * Z / n;
    let centre = (ph + Z * Z / (2.0 * n)) / den;
    let half = Z * (ph * (1.0 - ph) / n + Z * Z / (4.0 * n * n)).sqrt() / den;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The smallest `k` with `P(Poisson(mean) <= k) >= 0.999`: more events than this, from a
/// count whose mean is at most `mean`, happen less than 0.1% of the time.
fn poisson_upper_999(mean: f64) -> u64 {
    let mut term = (-mean).exp();
    let mut cdf = term;
    let mut k = 0u64;
    while cdf < 0.999 {
        k += 1;
        term *= mean / k as f64;
        cdf += term;
    }
    k
}

fn inside(x: f64, (lo, hi): (f64, f64)) -> bool {
    lo <= x && x <= hi
}

// ---------------------------------------------------------------------------------------------
// 1. False alarms at the fine rate

/// Calls in each stretch closed at the fine rate, from a close (score 0) to the false alarm:
/// the analysis' run length "from a score of 0 up to and including the call that reaches the
/// line". Even arrivals, so a stretch `(t0, t1]` holds calls `n0 + 1 ..= n1`. Returns the
/// complete stretches' lengths and the calls played.
fn false_alarm_run_lengths(p: &Point, duration: f64, seeds: &[u64]) -> (Vec<f64>, u64, u64) {
    let r = p.rate();
    let (mut lengths, mut calls, mut window_trips) = (Vec::new(), 0, 0);
    for &seed in seeds {
        let s = scenario(
            p,
            Arrivals::Even,
            vec![phase(0.0, p.stat.fine_rate, Condition::Fine)],
            duration,
            seed,
        );
        let out = play(&s);
        calls += out.calls;
        window_trips += out.breakers.window.metrics.openings;
        let st = &out.breakers.statistical;
        assert_eq!(st.metrics.openings, st.metrics.false_openings);
        for (t0, t1, opened) in closed_stretches(&st.events, out.end_s) {
            if opened {
                lengths.push((call_at(t1, r) - calls_by(t0, r)) as f64);
            }
        }
    }
    (lengths, calls, window_trips)
}

/// The closed stretches' durations in seconds from a close (score 0) to the false alarm, for
/// Poisson arrivals (the analysis' time figure is its calls over the traffic: the time to the
/// n-th call of a Poisson stream is n / r on average). Returns the durations, closed seconds
/// in all (the last stretch, cut by the end, included) and the false alarms.
/// Also the window breaker's trips in the same runs.
fn false_alarm_times(p: &Point, duration: f64, seeds: &[u64]) -> (Vec<f64>, f64, u64, u64) {
    let (mut times, mut closed, mut alarms, mut trips) = (Vec::new(), 0.0, 0, 0);
    for &seed in seeds {
        let s = scenario(
            p,
            Arrivals::Poisson,
            vec![phase(0.0, p.stat.fine_rate, Condition::Fine)],
            duration,
            seed,
        );
        let out = play(&s);
        let st = &out.breakers.statistical;
        assert_eq!(st.metrics.openings, st.metrics.false_openings);
        alarms += st.metrics.openings;
        trips += out.breakers.window.metrics.openings;
        for (t0, t1, opened) in closed_stretches(&st.events, out.end_s) {
            closed += t1 - t0;
            if opened {
                times.push(t1 - t0);
            }
        }
    }
    (times, closed, alarms, trips)
}

/// A point whose false-alarm period is shortened so that the line is `ln(calls)`: the same
/// breaker with a lower line, whose false alarms a test can count (the real line of the
/// defaults gives one per 4.7e7 calls).
fn with_line_calls(mut p: Point, calls: f64) -> Point {
    p.stat.false_alarm_period = calls / p.rate();
    p
}

/// Check 1, where the analysis' figure is exact and a test can play hundreds of false alarms:
/// the mean calls from a close to the false alarm, over every complete stretch (a 99.9%
/// normal interval from 500-600 stretches), contain the exact average run length, and do not
/// fall below Ville/Lorden's bound (no more false alarms than the bound allows).
///
/// Seeds 11-14 (defaults), 21-22 (recovery-warmup), 31-32 (quiet-service), fixed.
/// Leaving out the last stretch, cut by the end of its run, biases the mean down by about
/// 1 / (alarms per run), under 1% here, against an interval of about +-14%.
#[test]
fn false_alarms_at_the_fine_rate_come_at_the_exact_average_run_length() {
    for (p, duration, seeds) in [
        // 4 x 9e6 calls, about 530 alarms.
        (
            with_line_calls(Point::defaults(), 3600.0),
            9e6,
            &[11u64, 12, 13, 14][..],
        ),
        // 300 calls/min: 2 x 9e6 calls, about 550 alarms.
        (
            with_line_calls(Point::preset("recovery-warmup"), 3600.0),
            1.8e6,
            &[21, 22][..],
        ),
    ] {
        let a = report::run_length(&p.analysis(), p.line(), p.stat.fine_rate, None);
        let exact = a.calls.exact.expect("an exact figure");
        let bound = a.calls.bound.expect("a bound at p0");
        let wald = a.calls.approximation.expect("Wald's").value;
        assert_eq!(exact.kind, analysis::Kind::Exact);
        assert_eq!(bound.kind, analysis::Kind::Bound);
        let (lengths, calls, _) = false_alarm_run_lengths(&p, duration, seeds);
        let (m, lo, hi, n) = mean_ci(&lengths);
        eprintln!(
            "check 1 {}: line {:.4} nats; analysis exact {:.1} calls (bound {:.0}; Wald \
             approx. {wald:.0}, not checked: it leaves out the overshoot); simulated {m:.1} [{lo:.1}, {hi:.1}] over {n} false alarms, {calls} calls, seeds \
             {seeds:?}",
            p.name, a.line, exact.value, bound.value
        );
        assert!(
            inside(exact.value, (lo, hi)),
            "{}: simulated {m:.1} [{lo:.1}, {hi:.1}] calls between false alarms, exact {:.1}",
            p.name,
            exact.value
        );
        assert!(
            hi >= bound.value,
            "{}: more false alarms than the bound allows",
            p.name
        );
    }
}

/// Check 1 in time, with Poisson arrivals at 1 call/min (quiet-service's traffic): the mean
/// time from a close to the false alarm contains the analysis' exact figure in seconds.
///
/// Here the line is set from *measured* traffic, not the nominal rate the analysis divides by:
/// the meter's count (time constant 1 h, about 60 calls) moves by about 1 / sqrt(2 x 60) = 9%,
/// so the line moves by about +-0.09 nats around ln(N) (and sits ln(61/60) = 0.017 nats higher
/// on average: the count the line is read from includes the call being counted). The run
/// length grows about as e^line, so the effect on the mean is a percent or two, inside the
/// interval; a test that finds more would mean the meter, not the CUSUM, sets the false alarms.
///
/// Seeds 31, 32, fixed: 2 runs of 1e9 s (31.7 years, the longest run) at 1 call/min, 3.3e7
/// calls, about 490 false alarms.
#[test]
fn false_alarms_in_time_with_a_measured_line_at_low_traffic() {
    let p = with_line_calls(Point::preset("quiet-service"), 3600.0);
    let a = report::run_length(&p.analysis(), p.line(), p.stat.fine_rate, None);
    let exact = a.seconds.exact.expect("an exact figure");
    let (times, closed, alarms, _) = false_alarm_times(&p, sim::MAX_DURATION_S, &[31, 32]);
    let (m, lo, hi, n) = mean_ci(&times);
    eprintln!(
        "check 1 {} in time: analysis exact {:.4e} s; simulated {m:.4e} [{lo:.4e}, {hi:.4e}] \
         over {n} false alarms ({alarms} in {closed:.3e} closed seconds), seeds [31, 32]",
        p.name, exact.value
    );
    assert!(
        inside(exact.value, (lo, hi)),
        "simulated {m:.4e} [{lo:.4e}, {hi:.4e}] s between false alarms, exact {:.4e}",
        exact.value
    );
}

/// Check 1 at the real defaults and at busy-service's traffic, where a false alarm takes
/// 4.7e7 (defaults) or 5.9e8 calls (exact): only the one-sided check is affordable. The false
/// alarms in 4 months of closed calls number no more than a Poisson count whose mean is the
/// closed calls over the bound allows at 99.9% (nor over the exact figure). With the
/// defaults' window (100 calls, 50%) at 5% a trip has chance 7e-38 per window: none may come.
///
/// Seeds 41-44, fixed: 4 runs of 30 days at 60 calls/min (1.04e7 calls).
#[test]
fn false_alarms_at_the_real_defaults_are_no_more_than_the_bound_allows() {
    let p = Point::defaults();
    let a = report::run_length(&p.analysis(), p.line(), p.stat.fine_rate, None);
    let (exact, bound) = (a.calls.exact.unwrap().value, a.calls.bound.unwrap().value);
    let (_, closed_s, alarms, trips) = false_alarm_times(&p, 30.0 * 86_400.0, &[41, 42, 43, 44]);
    let closed_calls = closed_s * p.rate();
    let by_bound = poisson_upper_999(closed_calls / bound);
    let by_exact = poisson_upper_999(closed_calls / exact);
    eprintln!(
        "check 1 defaults: {alarms} false alarms in {closed_calls:.3e} closed calls; the bound \
         ({bound:.4e} calls) allows {by_bound}, the exact figure ({exact:.4e}) {by_exact} \
         (99.9%), seeds [41, 42, 43, 44]"
    );
    assert!(
        alarms <= by_bound && alarms <= by_exact,
        "{alarms} false alarms"
    );
    // The window breaker in the same runs.
    let cw = CountWindow {
        size: p.window.sliding_window_size,
        threshold: p.window.failure_rate_threshold,
        minimum_calls: p.window.minimum_number_of_calls,
    };
    let chance = win::trip_probability(&cw, p.stat.fine_rate).value;
    eprintln!(
        "check 4 defaults: {trips} window trips at 5% (chance a full window trips {chance:.3e})"
    );
    assert!(chance < 1e-30);
    assert_eq!(trips, 0);
}

// ---------------------------------------------------------------------------------------------
// 2. Detection delay at the broken rate

/// Outages at the broken rate, each after a stretch of `before` (a failure rate) long enough
/// for the breaker to be closed again: the calls (even arrivals) or seconds (Poisson) from the
/// outage's start to the statistical breaker's opening. Outages start half a call after a
/// call, so "from the start" counts the outage's calls exactly. Each outage lasts 6x the
/// analysis' calls to open (the chance of no opening by then is far below 1e-9; an outage
/// without one fails the test rather than being left out). An outage that starts while the
/// breaker is not closed is left out (chosen by the state before it starts: no bias), and
/// counted: the caller asserts how many.
fn open_delays(
    p: &Point,
    arrivals: Arrivals,
    before: (f64, f64),
    outages: usize,
    seeds: &[u64],
) -> (Vec<f64>, usize, Vec<f64>) {
    let (before_rate, before_s) = before;
    let r = p.rate();
    let a = report::run_length(&p.analysis(), p.line(), p.stat.broken_rate, None);
    let during_calls = (6.0 * a.calls.exact.unwrap().value).ceil();
    let before_calls = (before_s * r).ceil();
    let cycle = (before_calls + during_calls) / r;
    let mut phases = Vec::new();
    for i in 0..outages {
        let t = i as f64 * cycle;
        let cond = if before_rate <= p.stat.fine_rate {
            Condition::Fine
        } else {
            Condition::Degraded
        };
        phases.push(phase(t, before_rate, cond));
        // Half a call after call `before_calls` of the cycle.
        phases.push(phase(
            t + (before_calls + 0.5) / r,
            p.stat.broken_rate,
            Condition::Outage,
        ));
    }
    let duration = outages as f64 * cycle;
    let (mut delays, mut skipped, mut metric) = (Vec::new(), 0, Vec::new());
    for &seed in seeds {
        let s = scenario(p, arrivals, phases.clone(), duration, seed);
        let out = play(&s);
        let st = &out.breakers.statistical;
        let mut k = 0;
        for i in 0..outages {
            let (t_s, t_end) = (phases[2 * i + 1].start, (i + 1) as f64 * cycle);
            while k < st.events.len() && st.events[k].t_s < t_s {
                k += 1;
            }
            let closed = k == 0 || st.events[k - 1].to == State::Closed;
            if !closed {
                skipped += 1;
                continue;
            }
            let e = st.events[k..]
                .iter()
                .find(|e| e.from == State::Closed && e.to == State::Open)
                .expect("an opening");
            assert!(
                e.t_s < t_end,
                "seed {seed}: outage {i} passed without an opening"
            );
            delays.push(match arrivals {
                Arrivals::Even => (call_at(e.t_s, r) - calls_by(t_s, r)) as f64,
                Arrivals::Poisson => e.t_s - t_s,
            });
        }
        metric.push(st.metrics.time_to_open_s.expect("opened"));
    }
    (delays, skipped, metric)
}

/// Check 2: from a score of 0 (the outage follows a stretch of successes longer than the
/// wait cap, the trials to close and the line in points), the calls from an outage's start to
/// the opening average the analysis' exact calls to open, within a 99.9% interval. Wald's
/// approximation (no overshoot) is printed beside them; what is checked of the
/// theory is Wald's identity's bound, `(line + w_fail) / drift` calls at most.
///
/// Seeds 51-52 (defaults), 53 (recovery-warmup), fixed; 1500 outages each.
#[test]
fn calls_to_open_at_the_broken_rate_from_a_score_of_0() {
    for (p, seeds) in [
        (Point::defaults(), &[51u64, 52][..]),
        (Point::preset("recovery-warmup"), &[53][..]),
    ] {
        let w = p.weights();
        let quiet = p.stat.wait_cap
            + (p.stat.derived().trials_to_close as f64 + (p.line() / -w.ok).ceil() + 20.0)
                / p.rate();
        let (delays, skipped, _) = open_delays(&p, Arrivals::Even, (0.0, quiet), 1500, seeds);
        assert_eq!(skipped, 0, "every outage starts closed");
        let a = report::run_length(&p.analysis(), p.line(), p.stat.broken_rate, None);
        let exact = a.calls.exact.expect("exact");
        let wald = a.calls.approximation.expect("Wald's");
        let (m, lo, hi, n) = mean_ci(&delays);
        eprintln!(
            "check 2 {}: line {:.4} nats; analysis exact {:.3} calls, Wald approx. {:.3}; \
             simulated {m:.3} [{lo:.3}, {hi:.3}] over {n} outages, seeds {seeds:?}",
            p.name, a.line, exact.value, wald.value
        );
        assert!(
            inside(exact.value, (lo, hi)),
            "{}: exact {} outside",
            p.name,
            exact.value
        );
        // Wald's identity with the floor: S at the opening = the weights' sum + what the floor
        // took back (>= 0), and S < line + w_fail, so E[calls] <= (line + w_fail) / drift, a
        // bound the exact figure and the simulation must meet. Wald's approximation (no
        // overshoot) is only printed: it has no bracket of its own here.
        let mu = w.drift(p.stat.broken_rate);
        let upper = (a.line + w.fail) / mu;
        assert!(
            exact.value <= upper && lo <= upper,
            "{}: over {upper}",
            p.name
        );
    }
}

/// Check 2 in time at 1 call/min (quiet-service), Poisson arrivals, measured line: the mean
/// time from an outage's start to the opening contains the analysis' exact seconds to open
/// (its calls over the nominal traffic). Seed 54, fixed; 1500 outages.
#[test]
fn time_to_open_at_the_broken_rate_at_low_traffic() {
    let p = Point::preset("quiet-service");
    let w = p.weights();
    let quiet = p.stat.wait_cap
        + (p.stat.derived().trials_to_close as f64 + (p.line() / -w.ok).ceil() + 20.0) / p.rate();
    let (delays, skipped, _) = open_delays(&p, Arrivals::Poisson, (0.0, quiet), 1500, &[54]);
    assert_eq!(skipped, 0);
    let a = report::run_length(&p.analysis(), p.line(), p.stat.broken_rate, None);
    let exact = a.seconds.exact.expect("exact");
    let (m, lo, hi, n) = mean_ci(&delays);
    eprintln!(
        "check 2 {} in time: line {:.4} nats; analysis exact {:.1} s ({:.3} calls); simulated \
         {m:.1} [{lo:.1}, {hi:.1}] s over {n} outages, seed 54",
        p.name,
        a.line,
        exact.value,
        a.calls.exact.unwrap().value
    );
    assert!(
        inside(exact.value, (lo, hi)),
        "exact {} s outside",
        exact.value
    );
}

/// Check 2 as a run shows it: an outage that follows a fine stretch (at p0) finds the score
/// where the fine rate left it, above 0 a good part of the time (every failure lifts it by
/// w_fail, which takes w_fail / |w_ok| successes to wear off: 8 at the defaults). The
/// analysis counts from a score of 0, so its figure is the longest of these starts: the run's
/// mean (the page's `time_to_open_s`) is shorter, never longer. A modelling difference, not a
/// bug: checked one-sided, with the shortfall printed.
///
/// Seeds 55-56, fixed; 1500 outages each, after 3000 calls at 5%.
#[test]
fn calls_to_open_after_a_fine_stretch_are_no_more_than_from_0() {
    let p = Point::defaults();
    let before = p.stat.wait_cap + 3000.0 / p.rate();
    let (delays, skipped, metric) = open_delays(
        &p,
        Arrivals::Even,
        (p.stat.fine_rate, before),
        1500,
        &[55, 56],
    );
    assert!(
        skipped < 30,
        "{skipped} outages found the breaker not closed"
    );
    let a = report::run_length(&p.analysis(), p.line(), p.stat.broken_rate, None);
    let exact = a.calls.exact.expect("exact").value;
    let (m, lo, hi, n) = mean_ci(&delays);
    eprintln!(
        "check 2 {} after a fine stretch: analysis exact {exact:.3} calls (from 0); simulated \
         {m:.3} [{lo:.3}, {hi:.3}] over {n} outages ({skipped} skipped), {:.1}% shorter; the \
         run's time_to_open_s per seed {metric:?}, seeds [55, 56]",
        p.name,
        100.0 * (1.0 - m / exact)
    );
    assert!(lo <= exact, "longer than from a score of 0");
}

// ---------------------------------------------------------------------------------------------
// 3. The half-open test: chance to close (OC) and expected trials (ASN)

/// Where the true OC and ASN of Wald's test must lie, whatever the overshoot: Wald's
/// approximations take the score at the end to be exactly on a line (A or B); it is in fact in
/// `[A, A + w_fail)` when it opens and `(B + w_ok, B]` when it closes. With `t` Wald's exponent
/// (`E[e^{t w}] = 1`), `E[e^{t S_end}] = 1`, so `OC = (X_up - 1) / (X_up - X_lo)` with each `X`
/// the mean of `e^{t S}` over its end: monotone in each, so the OC lies between its values at
/// the corners of the two ranges; Wald's OC is the corner without overshoot. Then Wald's
/// identity `E[S_end] = drift x ASN` (at zero drift `E[S_end^2] = E[w^2] x ASN`) gives the ASN
/// at the corners of OC and both ends. These brackets say how close Wald's figures must be.
fn wald_brackets(w: Weights, l: WaldLines, p: f64) -> ((f64, f64), (f64, f64)) {
    let t = analysis::num::wald_exponent(w, p).expect("0 < p < 1");
    let (up, lo) = ([l.upper, l.upper + w.fail], [l.lower + w.ok, l.lower]);
    let linear = (t * (l.upper - l.lower)).abs() < 1e-6;
    let mut ocs = Vec::new();
    for &u in &up {
        for &d in &lo {
            ocs.push(if linear {
                u / (u - d)
            } else {
                let (xu, xd) = ((t * u).exp(), (t * d).exp());
                (xu - 1.0) / (xu - xd)
            });
        }
    }
    let span = |v: &[f64]| {
        (
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let oc = span(&ocs);
    let mu = w.drift(p);
    let m2 = p * w.fail * w.fail + (1.0 - p) * w.ok * w.ok;
    let mut asns = Vec::new();
    for c in [oc.0, oc.1] {
        for &u in &up {
            for &d in &lo {
                asns.push(if linear {
                    ((1.0 - c) * u * u + c * d * d) / m2
                } else {
                    ((1.0 - c) * u + c * d) / mu
                });
            }
        }
    }
    (oc, span(&asns))
}

/// Half-open episodes of the statistical breaker with the dependency failing at `q` (even
/// arrivals, so an episode's trials are counted from its times: every call in half-open is a
/// trial, answered at once). The point's line is put at its floor and its waits at half a
/// call, so the breaker opens often and tries at once: neither changes the half-open test.
/// Returns (closes, trials per episode).
fn trials_at(p: &Point, q: f64, duration: f64, seeds: &[u64]) -> (u64, Vec<f64>) {
    let mut p = p.clone();
    let r = p.rate();
    p.stat.false_alarm_period = 1e-3;
    p.stat.first_wait = 0.5 / r;
    p.stat.wait_cap = 0.5 / r;
    let (mut closes, mut trials) = (0, Vec::new());
    for &seed in seeds {
        let s = scenario(
            &p,
            Arrivals::Even,
            vec![phase(0.0, q, Condition::Fine)],
            duration,
            seed,
        );
        let out = play(&s);
        let st = &out.breakers.statistical;
        let mut counted = 0;
        for (t0, t1, closed, reason) in half_open_episodes(&st.events) {
            assert!(
                !matches!(reason, Reason::HalfOpenTimeLimit { .. }),
                "no time limit here"
            );
            let n = call_at(t1, r) - call_at(t0, r) + 1;
            counted += n as u64;
            trials.push(n as f64);
            closes += closed as u64;
        }
        // Every trial admitted is in a complete episode, but the one running at the end.
        let total = st.totals.trials;
        assert!(
            total >= counted && total - counted < 2000,
            "{total} trials, {counted} counted"
        );
    }
    (closes, trials)
}

/// Check 3: at p0, the zero-drift rate and p1, the half-open test as the simulator runs it
/// (without its time limit: `half_open_time_factor` 1e6, so it is Wald's test run to its end,
/// as the exact and Wald figures are) closes with the exact OC's chance (Wilson 99.9% interval)
/// after the exact ASN's trials on average (normal 99.9% interval). Wald's figures are checked
/// against what the overshoot allows ([`wald_brackets`]), and Wald's bounds on the errors
/// (at p0 a reopening at most a / (1 - b), at p1 a close at most b / (1 - a)) against the runs.
///
/// Seeds 61-62 (defaults), 63-64 (recovery-warmup), fixed: 4e6 calls per rate and point.
#[test]
fn half_open_closes_and_tries_as_the_exact_oc_and_asn_say() {
    for (mut p, seeds) in [
        (Point::defaults(), [61u64, 62]),
        (Point::preset("recovery-warmup"), [63, 64]),
    ] {
        p.stat.half_open_time_factor = 1e6;
        let (w, l) = (p.weights(), p.wald());
        let (a, b) = (p.stat.trial_wrongly_opens, p.stat.trial_wrongly_closes);
        for q in [p.stat.fine_rate, w.zero_drift_rate(), p.stat.broken_rate] {
            let t = report::trials(&p.analysis(), q, None);
            let (oc, asn) = (
                t.close_probability.exact.expect("exact").value,
                t.expected_trials.exact.expect("exact").value,
            );
            let (oc_w, asn_w) = (
                t.close_probability.approximation.unwrap().value,
                t.expected_trials.approximation.unwrap().value,
            );
            let (closes, trials) = trials_at(&p, q, 2e6 / p.rate(), &seeds);
            let n = trials.len() as u64;
            let oc_ci = binomial_ci(closes, n);
            let (m, lo, hi, _) = mean_ci(&trials);
            let (oc_b, asn_b) = wald_brackets(w, l, q);
            eprintln!(
                "check 3 {} at {:.4}%: OC exact {oc:.4}, Wald approx. {oc_w:.4} (overshoot \
                 bracket [{:.4}, {:.4}]), simulated {:.4} [{:.4}, {:.4}]; ASN exact {asn:.3}, \
                 Wald approx. {asn_w:.3} (bracket [{:.3}, {:.3}]), simulated {m:.3} [{lo:.3}, \
                 {hi:.3}]; {n} episodes, seeds {seeds:?}",
                p.name,
                100.0 * q,
                oc_b.0,
                oc_b.1,
                closes as f64 / n as f64,
                oc_ci.0,
                oc_ci.1,
                asn_b.0,
                asn_b.1
            );
            assert!(
                inside(oc, oc_ci),
                "{} at {q}: exact OC {oc} outside",
                p.name
            );
            assert!(
                inside(asn, (lo, hi)),
                "{} at {q}: exact ASN {asn} outside",
                p.name
            );
            // Wald's figures: the corner without overshoot of what the overshoot allows, and
            // the runs and the exact figures inside it.
            let tol = 1e-9;
            assert!(
                inside(oc_w, (oc_b.0 - tol, oc_b.1 + tol)),
                "Wald's OC outside its bracket"
            );
            assert!(inside(
                asn_w,
                (asn_b.0 * (1.0 - tol), asn_b.1 * (1.0 + tol))
            ));
            assert!(
                inside(oc, oc_b) && inside(asn, asn_b),
                "exact outside the bracket"
            );
            assert!(
                oc_ci.0 <= oc_b.1 && oc_ci.1 >= oc_b.0,
                "runs outside the OC bracket"
            );
            assert!(
                lo <= asn_b.1 && hi >= asn_b.0,
                "runs outside the ASN bracket"
            );
            if q == p.stat.fine_rate {
                assert!(
                    1.0 - oc_ci.1 <= a / (1.0 - b),
                    "reopens more than Wald's bound"
                );
            }
            if q == p.stat.broken_rate {
                assert!(oc_ci.0 <= b / (1.0 - a), "closes more than Wald's bound");
            }
        }
    }
}

/// Check 3 with the breaker's time limit (`half_open_time_factor` 3, the default): the
/// analysis' figures with the limit are labelled approximations because they take the trials
/// tried by the limit to be Poisson with mean `3 x trials to close`, as for a Poisson stream
/// of calls answered at once with none lost. This scenario meets that (Poisson arrivals,
/// latency 0) but for the limit being set from the *measured* rate (about 1.7% noise at 60
/// calls/min, a fraction of a trial on ~54), so the approximation should hold within the
/// intervals: the chance to close and the chance to end at the limit (Wilson 99.9%).
///
/// Seed 65, fixed: 4e6 calls per rate.
#[test]
fn half_open_with_its_time_limit_meets_the_approximation() {
    let mut p = Point::defaults();
    let r = p.rate();
    p.stat.false_alarm_period = 1e-3;
    p.stat.first_wait = 0.5 / r;
    p.stat.wait_cap = 0.5 / r;
    let d = p.stat.derived();
    for q in [p.stat.fine_rate, d.zero_drift_rate, p.stat.broken_rate] {
        let mut t = report::trials(&p.analysis(), q, None);
        report::time_limit(
            &p.analysis(),
            &mut t,
            p.stat.half_open_time_factor,
            d.trials_to_close,
            report::Budget::DEFAULT,
        );
        let lim = t.time_limit.expect("computed");
        assert_eq!(lim.close_probability.kind, analysis::Kind::Approximation);
        let s = scenario(
            &p,
            Arrivals::Poisson,
            vec![phase(0.0, q, Condition::Fine)],
            4e6 / r,
            65,
        );
        let out = play(&s);
        let eps = half_open_episodes(&out.breakers.statistical.events);
        let n = eps.len() as u64;
        let closes = eps.iter().filter(|e| e.2).count() as u64;
        let limits = eps
            .iter()
            .filter(|e| matches!(e.3, Reason::HalfOpenTimeLimit { .. }))
            .count() as u64;
        let (c_ci, l_ci) = (binomial_ci(closes, n), binomial_ci(limits, n));
        eprintln!(
            "check 3 time limit at {:.4}%: close approx. {:.4}, simulated {:.4} [{:.4}, {:.4}]; \
             ends at the limit approx. {:.4}, simulated {:.4} [{:.4}, {:.4}]; {n} episodes, \
             seed 65",
            100.0 * q,
            lim.close_probability.value,
            closes as f64 / n as f64,
            c_ci.0,
            c_ci.1,
            lim.ends_at_limit.value,
            limits as f64 / n as f64,
            l_ci.0,
            l_ci.1
        );
        assert!(
            inside(lim.close_probability.value, c_ci),
            "at {q}: close outside"
        );
        assert!(
            inside(lim.ends_at_limit.value, l_ci),
            "at {q}: ends at the limit outside"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 4. The window breaker's trips at a steady rate

/// Calls from each close of the window breaker (an empty window) to its next trip, with the
/// dependency failing at `q` (even arrivals; the first stretch starts empty at 0 too).
fn window_run_lengths(p: &Point, q: f64, duration: f64, seeds: &[u64]) -> Vec<f64> {
    let r = p.rate();
    let mut lengths = Vec::new();
    for &seed in seeds {
        let s = scenario(
            p,
            Arrivals::Even,
            vec![phase(0.0, q, Condition::Fine)],
            duration,
            seed,
        );
        let out = play(&s);
        let wb = &out.breakers.window;
        for (t0, t1, opened) in closed_stretches(&wb.events, out.end_s) {
            if opened {
                lengths.push((call_at(t1, r) - calls_by(t0, r)) as f64);
            }
        }
    }
    lengths
}

fn count_window(w: &WindowSettings) -> CountWindow {
    CountWindow {
        size: w.sliding_window_size,
        threshold: w.failure_rate_threshold,
        minimum_calls: w.minimum_number_of_calls,
    }
}

/// Check 4: the window breaker's spurious trips per day at a baseline rate, sliding window
/// restarting empty after each trip (the analysis' model), against the simulator's window
/// breaker counted over the calls it spent closed (the analysis does not subtract the time
/// open: its trips per day are per day *closed*; a run's raw trips per day are lower by the
/// share of time open and half-open, large only where trips are frequent, as here).
///
/// * a count window of 10 (minimum 10, 50%) at 20%: the analysis' figure is exact (chain);
///   the mean calls from empty to a trip (99.9% interval) must contain it. Seeds 71-72.
/// * recovery-warmup's window (20, minimum 20, 50%, 3 probes) at 25%: past the exact chain's
///   18 calls the analysis simulates (its own generator, 2e7 calls, seed 1); the two
///   simulations must agree within their combined 99.9% interval. Seeds 73-74.
#[test]
fn window_trips_per_day_closed_match_the_sliding_window_figure() {
    let mut small = Point::defaults();
    small.window.sliding_window_size = 10;
    small.window.minimum_number_of_calls = 10;
    small.window.wait_duration_in_open_state = 0.5;
    let recovery = Point::preset("recovery-warmup");
    for (p, q, seeds) in [(small, 0.2, [71u64, 72]), (recovery, 0.25, [73, 74])] {
        let rps = p.rate();
        let cw = count_window(&p.window);
        let per_day = |calls: f64| rps * 86_400.0 / calls;
        let lengths = window_run_lengths(&p, q, 1e6 / rps, &seeds);
        let (m, lo, hi, n) = mean_ci(&lengths);
        let figure = report::window_trips(
            &cw,
            q,
            rps,
            Some(report::Simulation {
                runs: 2000,
                seed: 1,
            }),
        );
        let sliding = figure.trips_per_day_sliding;
        eprintln!(
            "check 4 {} window {} at {q}: analysis sliding exact {:?} / simulated {:?} trips per \
             day; simulator {:.2} [{:.2}, {:.2}] per day closed ({m:.3} [{lo:.3}, {hi:.3}] calls \
             from empty) over {n} trips, seeds {seeds:?}",
            p.name,
            cw.size,
            sliding.exact.map(|f| f.value),
            sliding.simulated.map(|f| (f.value, f.ci95)),
            per_day(m),
            per_day(hi),
            per_day(lo),
        );
        if let Some(exact) = sliding.exact {
            let calls = win::calls_to_trip_exact(&cw, q, win::Start::Empty)
                .unwrap()
                .calls;
            assert!((per_day(calls) - exact.value).abs() < 1e-9 * exact.value);
            assert!(inside(calls, (lo, hi)), "exact {calls} calls outside");
        } else {
            let s = sliding.simulated.expect("simulated");
            let (a_lo, a_hi) = s.ci95.unwrap();
            let se_a = (a_hi - a_lo) / (2.0 * 1.96);
            // The simulator's trips per day and its standard error (delta method).
            let x = per_day(m);
            let se_x = x * ((hi - lo) / (2.0 * Z)) / m;
            let diff = (x - s.value).abs();
            assert!(
                diff <= Z * (se_a * se_a + se_x * se_x).sqrt(),
                "{x} vs {} trips per day",
                s.value
            );
        }
    }
}

/// Half-open episodes at the fine rate, many of them: at p0 the closed breaker seldom opens,
/// so each cycle forces an opening with a burst of 12 failures (11 x w_fail passes the
/// defaults' line, 14.77 nats, from any score), then `calls` at p0. The wait (20 calls) ends
/// after the burst, so every trial is at p0; the line stays the defaults' (a false alarm per
/// 4.7e7 calls), so no opening comes within a p0 stretch. Episodes that start in a p0 stretch
/// are all counted, and each must end within it (none may run into the next burst). Returns
/// (episodes, reopenings, ended at the time limit, trials per episode ended at a line; the
/// last with even arrivals only).
fn episodes_at_the_fine_rate(
    p: &Point,
    arrivals: Arrivals,
    cycles: usize,
    calls: f64,
    seeds: std::ops::Range<u64>,
) -> (u64, u64, u64, Vec<f64>) {
    let mut p = p.clone();
    let r = p.rate();
    p.stat.first_wait = 20.0 / r;
    p.stat.wait_cap = 20.0 / r;
    assert!(11.0 * p.weights().fail >= p.line());
    let cycle = (12.0 + calls) / r;
    let mut phases = Vec::new();
    for i in 0..cycles {
        let t = i as f64 * cycle;
        // Starts half a call before a call (even arrivals): 12 calls in the burst.
        let start = if i == 0 { 0.0 } else { t - 0.5 / r };
        phases.push(phase(start, 1.0, Condition::Degraded));
        phases.push(phase(t + 11.5 / r, p.stat.fine_rate, Condition::Fine));
    }
    let (mut n, mut reopened, mut limited, mut trials) = (0, 0, 0, Vec::new());
    // A run per seed: the simulator looks a phase up by a scan from the last one, so one run
    // of 10^5 phases would spend its time there.
    for seed in seeds {
        let s = scenario(&p, arrivals, phases.clone(), cycles as f64 * cycle, seed);
        let out = play(&s);
        for (t0, t1, closed, reason) in half_open_episodes(&out.breakers.statistical.events) {
            let i = phases.partition_point(|ph| ph.start <= t0) - 1;
            assert_eq!(
                phases[i].failure_rate, p.stat.fine_rate,
                "a trial in a burst"
            );
            let end = phases.get(i + 1).map_or(f64::INFINITY, |ph| ph.start);
            assert!(
                t1 < end,
                "seed {seed}: an episode at {t0} s ran into the next burst"
            );
            n += 1;
            reopened += !closed as u64;
            limited += matches!(reason, Reason::HalfOpenTimeLimit { .. }) as u64;
            if arrivals == Arrivals::Even && !matches!(reason, Reason::HalfOpenTimeLimit { .. }) {
                trials.push((call_at(t1, r) - call_at(t0, r) + 1) as f64);
            }
        }
    }
    (n, reopened, limited, trials)
}

/// Check 3 for the chance that matters most at p0, that half-open wrongly opens (the setting
/// `a` = 1% asks for it; Wald's bound is a / (1 - b) = 1.05%, the exact chance 0.60%), counted
/// over enough episodes to resolve it to about +-20%: without the time limit against the exact
/// 1 - OC (and its ASN), and with the default limit (factor 3, Poisson arrivals) against the
/// approximations. Seeds 6600-6639 (even: 80000 cycles of 412 calls, 40 runs) and 6700-6729
/// (Poisson: 60000 cycles; a burst of Poisson calls reaches 11 failures only about 3 times in
/// 4), fixed. (A run per 2000 cycles: see [`episodes_at_the_fine_rate`].)
#[test]
fn half_open_at_the_fine_rate_reopens_as_the_analysis_says() {
    let mut p = Point::defaults();
    let (a, b) = (p.stat.trial_wrongly_opens, p.stat.trial_wrongly_closes);
    let q = p.stat.fine_rate;
    let t = report::trials(&p.analysis(), q, None);
    let reopen = 1.0 - t.close_probability.exact.expect("exact").value;
    let asn = t.expected_trials.exact.expect("exact").value;
    p.stat.half_open_time_factor = 1e6;
    let (n, k, limited, trials) =
        episodes_at_the_fine_rate(&p, Arrivals::Even, 2000, 400.0, 6600..6640);
    assert_eq!(limited, 0);
    let ci = binomial_ci(k, n);
    let (m, lo, hi, _) = mean_ci(&trials);
    eprintln!(
        "check 3 defaults at p0, reopening: exact {reopen:.5}, Wald's bound {:.5}; simulated \
         {:.5} [{:.5}, {:.5}] ({k} of {n} episodes); ASN exact {asn:.3}, simulated {m:.3} \
         [{lo:.3}, {hi:.3}], seeds 6600..6640",
        a / (1.0 - b),
        k as f64 / n as f64,
        ci.0,
        ci.1
    );
    assert!(
        inside(reopen, ci),
        "exact reopening chance {reopen} outside"
    );
    assert!(inside(asn, (lo, hi)), "exact ASN {asn} outside");
    assert!(ci.0 <= a / (1.0 - b), "reopens more than Wald's bound");

    // With the time limit.
    p.stat.half_open_time_factor = 3.0;
    let d = p.stat.derived();
    let mut t = report::trials(&p.analysis(), q, None);
    report::time_limit(
        &p.analysis(),
        &mut t,
        3.0,
        d.trials_to_close,
        report::Budget::DEFAULT,
    );
    let lim = t.time_limit.expect("computed");
    let (n, k, limited, _) =
        episodes_at_the_fine_rate(&p, Arrivals::Poisson, 2000, 400.0, 6700..6730);
    let (r_ci, l_ci) = (binomial_ci(k, n), binomial_ci(limited, n));
    eprintln!(
        "check 3 time limit at p0: reopening approx. {:.5}, simulated {:.5} [{:.5}, {:.5}]; \
         ends at the limit approx. {:.5}, simulated {:.5} [{:.5}, {:.5}]; {n} episodes, seeds 6700..6730",
        1.0 - lim.close_probability.value,
        k as f64 / n as f64,
        r_ci.0,
        r_ci.1,
        lim.ends_at_limit.value,
        limited as f64 / n as f64,
        l_ci.0,
        l_ci.1
    );
    assert!(
        inside(1.0 - lim.close_probability.value, r_ci),
        "reopening outside"
    );
    assert!(
        inside(lim.ends_at_limit.value, l_ci),
        "ends at the limit outside"
    );
}
