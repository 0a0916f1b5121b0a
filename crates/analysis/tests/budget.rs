//! Close fine and broken rates: every figure has a bounded cost (work units, not time), and a
//! number whose error estimate is not small is not labeled exact.

use analysis::cli::run;
use analysis::report::{self, Budget, Simulation, Statistical};
use analysis::{cusum, dp};

fn json(cmd: &str) -> serde_json::Value {
    let mut args: Vec<String> = cmd.split_whitespace().map(String::from).collect();
    args.extend(["--format".into(), "json".into()]);
    serde_json::from_str(&run(&args).unwrap()).unwrap()
}

fn close(fine: f64) -> Statistical {
    Statistical {
        fine,
        broken: 0.2,
        a: 0.01,
        b: 0.05,
        calls_per_second: 1.0,
    }
}

#[test]
fn a_dynamic_program_stopped_by_its_cap_is_not_labeled_exact() {
    // At p0 = 0.199 the program stops at its cap with an error estimate of 8e6 on 3.2e7 (the
    // chain and a simulation disagree with it by far more); at 0.19999, with an infinite one.
    for (fine, n) in [(0.199, 95.0), (0.199, 86_400.0), (0.19999, 1000.0)] {
        let s = close(fine);
        let line = s.line_for_calls(n);
        let e = cusum::arl_exact(s.weights(), line, fine);
        assert!(!e.converged && !e.is_exact(), "{fine} {n}: {e:?}");
        assert!(e.figure().is_none());
        let r = report::run_length(&s, line, fine, None);
        assert!(
            r.calls.exact.is_none() && r.seconds.exact.is_none(),
            "{fine} {n}"
        );
        let note = r.exact_note.as_deref().unwrap();
        assert!(note.starts_with("no exact figure"), "{note}");
        assert!(r.work.dp_cells <= dp::MAX_CELLS + 1_000_000, "{:?}", r.work);
    }
    // The half-open test too.
    let t = report::trials(&close(0.199), 0.199, None);
    assert!(t.close_probability.exact.is_none() && t.expected_trials.exact.is_none());
    let note = t.exact_note.as_deref().unwrap();
    assert!(note.starts_with("no exact figure: "), "{note}");
    // Ordinary settings: exact, with an error far below the printed digits, and no note.
    let s = close(0.05);
    let r = report::run_length(&s, s.line_for_calls(1e6), 0.05, None);
    assert_eq!(r.calls.exact.unwrap().kind, analysis::Kind::Exact);
    assert!(r.exact_error < 1e-9 * r.calls.exact.unwrap().value);
    assert!(r.exact_note.is_none());
}

/// Where the dynamic program stopped before it had an estimate, its note says so, and a
/// simulation too long to run is sized by Wald's approximation: the notes said "(estimate inf,
/// error estimate inf)" and "runs of about inf calls".
#[test]
fn a_simulation_is_sized_by_wald_where_the_program_had_no_estimate() {
    let s = Statistical {
        fine: 0.05,
        broken: 0.0500001,
        ..close(0.05)
    };
    let line = s.line_for_calls(2.592e6);
    let budget = Budget {
        dp_cells: 1_000_000,
        ..Budget::DEFAULT
    };
    let sim = Simulation { runs: 10, seed: 1 };
    let r = report::run_length_capped(&s, line, 0.05, Some(sim), budget);
    assert!(r.calls.exact.is_none());
    assert_eq!(
        r.exact_note.as_deref(),
        Some(
            "no exact figure: the dynamic program stopped at its work cap (1e6 cells) before it \
             had an estimate"
        )
    );
    let wald = r.calls.approximation.unwrap().value;
    let note = r.simulation_note.unwrap();
    assert_eq!(
        note,
        format!(
            "not simulated: 10 runs of about {wald:.3e} calls each would pass the 2e10 \
             simulated calls allowed; ask for fewer runs or a lower line"
        )
    );
    assert!(!note.contains("inf"), "{note}");
}

#[test]
fn every_exact_figure_in_a_report_has_a_small_error() {
    for cmd in [
        "false-alarms --fine 0.199 --broken 0.2 --sweep 10:1e7:5",
        "false-alarms --fine 0.19999 --broken 0.2 --line-calls 1000",
        "open-delay --fine 0.199 --broken 0.2 --sweep 0.1995:1:4",
        "false-alarms --fine 0.05 --broken 0.2 --sweep 10:1e9:5",
    ] {
        let v = json(cmd);
        for p in v["points"].as_array().unwrap() {
            if let Some(x) = p["calls"].get("exact") {
                let (x, e) = (x["value"].as_f64(), p["exact_error"].as_f64());
                match (x, e) {
                    (Some(x), Some(e)) => assert!(e <= 1e-6 * x, "{cmd}: {x} +- {e}"),
                    _ => panic!("{cmd}: exact {x:?} with error {e:?}"),
                }
            } else {
                assert!(p["exact_note"].is_string(), "{cmd}: {p}");
            }
        }
    }
}

#[test]
fn a_simulation_at_close_rates_is_capped_in_draws() {
    // 200 runs at p0 = 0.199, line ln 95: about 1.3e9 draws (30 s natively, minutes in a
    // browser) before; now skipped at once, with the reason.
    let s = close(0.199);
    let sim = Some(Simulation { runs: 200, seed: 1 });
    let r = report::run_length(&s, s.line_for_calls(95.0), 0.199, sim);
    assert!(r.calls.simulated.is_none());
    assert_eq!(r.work.sim_draws, 0);
    let note = r.simulation_note.as_deref().unwrap();
    assert!(note.contains("draws") && note.contains("5e7"), "{note}");
    // When the estimate lets it start, the cap still stops it.
    let b = Budget {
        sim_draws: 1000,
        ..Budget::DEFAULT
    };
    let r = report::run_length_capped(&close(0.19), s.line_for_calls(95.0), 0.19, sim, b);
    assert!(
        r.calls.simulated.is_none() && r.work.sim_draws <= 1000,
        "{:?}",
        r.work
    );
    // The half-open test's simulation too: skipped at once, by the larger of the program's
    // estimate and Wald's (the program stops at its cap here), at one draw per failure and
    // one more per run.
    let t = report::trials(&close(0.199), 0.2, sim);
    assert!(t.expected_trials.simulated.is_none() && t.close_probability.simulated.is_none());
    assert_eq!(t.work.sim_draws, 0);
    assert!(t.expected_trials.exact.is_none());
    let note = t.simulation_note.as_deref().unwrap();
    let asn: f64 = note
        .strip_prefix("not simulated: 200 runs of about ")
        .and_then(|r| r.split(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    let wald = t.expected_trials.approximation.unwrap().value;
    assert!(asn >= wald * (1.0 - 1e-3), "{asn} {wald}");
    assert_eq!(
        note,
        format!(
            "not simulated: 200 runs of about {asn:.3e} trials each would take about {:.1e} \
             draws (one per failure), past the 5e7 allowed; ask for fewer runs",
            200.0 * (asn * 0.2 + 1.0)
        )
    );
    // Ordinary settings simulate as before.
    let t = report::trials(&close(0.05), 0.1, sim);
    assert_eq!(t.expected_trials.simulated.unwrap().n, Some(200));
    assert!(t.simulation_note.is_none());
}

/// Half-open's simulation is sized before it starts: one draw per failure and one more per run.
/// At a true rate of 0 each run is that one draw (no failure comes, and the trials close), so
/// as many runs as the draws allowed run, and one more is refused at once, with no draw taken.
#[test]
fn half_opens_simulation_is_sized_at_one_draw_a_run_more() {
    let s = close(0.05);
    let b = Budget {
        sim_draws: 1000,
        ..Budget::DEFAULT
    };
    let runs = |runs| report::trials_capped(&s, 0.0, Some(Simulation { runs, seed: 1 }), b);
    let t = runs(1000);
    assert_eq!(t.work.sim_draws, 1000);
    let m = t.close_probability.simulated.unwrap();
    assert_eq!((m.value, m.n), (1.0, Some(1000)));
    // Each run is the same 18 successes in a row (the defaults' trials to close).
    let asn = t.expected_trials.simulated.unwrap().value;
    assert_eq!((asn, t.expected_trials.exact.unwrap().value), (18.0, 18.0));
    assert!(t.simulation_note.is_none());
    let t = runs(1001);
    assert_eq!(t.work.sim_draws, 0);
    assert!(t.close_probability.simulated.is_none());
    assert_eq!(
        t.simulation_note.as_deref(),
        Some(
            "not simulated: 1001 runs of about 1.800e1 trials each would take about 1.0e3 \
             draws (one per failure), past the 1e3 allowed; ask for fewer runs"
        )
    );
}

/// The half-open program can converge on the chance to close before the expected trials (or
/// the other way round): each is labeled exact on its own error, and the note names the one
/// left out (it said "no exact figure" beside an exact chance to close).
#[test]
fn half_opens_two_exact_figures_are_judged_each_on_its_own() {
    let b = |dp_cells| Budget {
        dp_cells,
        ..Budget::DEFAULT
    };
    let t = report::trials_capped(&close(0.05), 0.21, None, b(10_000));
    assert!(t.close_probability.exact.is_some() && t.expected_trials.exact.is_none());
    let full = report::trials(&close(0.05), 0.21, None);
    // Exact within the error it states (2.5e-8 here), as the converged figure shows.
    let (capped, truth) = (
        t.close_probability.exact.unwrap().value,
        full.close_probability.exact.unwrap().value,
    );
    assert!(
        (capped - truth).abs() <= t.close_error,
        "{capped} {truth} +- {}",
        t.close_error
    );
    let note = t.exact_note.as_deref().unwrap_or_else(|| panic!("{t:?}"));
    assert!(
        note.starts_with(
            "no exact expected trials: the dynamic program stopped at its work \
             cap (1e4 cells) before converging (estimates "
        ),
        "{note}"
    );
    assert!(
        note.contains(&format!("trials, error {:.1e})", t.trials_error)),
        "{note}"
    );
    let t = report::trials_capped(&close(0.15), 0.03, None, b(10_000));
    assert!(t.close_probability.exact.is_none() && t.expected_trials.exact.is_some());
    let note = t.exact_note.as_deref().unwrap_or_else(|| panic!("{t:?}"));
    assert!(note.starts_with("no exact chance to close: "), "{note}");
    assert!(full.exact_note.is_none());
}

/// Half-open's time-limited program counts its cells at what they cost against the dynamic
/// programs' (25 each): at fine 19.99%, broken 20% its 8.3e8 cells took 3.7 s within a cap of
/// 1e9, and `analyze trials` 15 s for its three rates; now the cap leaves it out with a note.
/// At the defaults it runs, its work counted at that cost.
#[test]
fn the_time_limited_program_is_capped_at_its_own_cost() {
    use analysis::report::TIME_LIMITED_CELL_COST;
    let s = close(0.1999);
    let mut t = report::trials(&s, 0.2, None);
    let before = t.work.dp_cells;
    report::time_limit(&s, &mut t, 3.0, 23_887, Budget::DEFAULT);
    assert!(t.time_limit.is_none());
    assert_eq!(t.work.dp_cells, before);
    assert_eq!(
        t.time_limit_note.as_deref(),
        Some(
            "not computed: about 7.166e4 trials by the limit would take the program past its \
             work cap (4e7 cells)"
        )
    );
    let s = close(0.05);
    let mut t = report::trials(&s, 0.2, None);
    let before = t.work.dp_cells;
    report::time_limit(&s, &mut t, 3.0, 18, Budget::DEFAULT);
    assert!(t.time_limit.is_some() && t.time_limit_note.is_none());
    let cells = (t.work.dp_cells - before) / TIME_LIMITED_CELL_COST;
    assert_eq!((t.work.dp_cells - before) % TIME_LIMITED_CELL_COST, 0);
    let most = analysis::sprt::time_limited_cells(s.weights(), s.wald(), 1, 54.0).unwrap();
    assert!(cells > 0 && cells <= most, "{cells} of at most {most}");
}
