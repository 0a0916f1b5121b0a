//! The CUSUM's exact run length at its edges (no rate, a line one failure reaches, a capped
//! dynamic program), when it is labeled exact, and Wald's and Lorden's figures against their
//! closed forms for +1/-1 weights.

use analysis::cusum::{self, ExactArl, EXACT_MAX_RELATIVE_ERROR};
use analysis::dp;
use analysis::Kind;
use breaker::score::Weights;

fn w(fail: f64, ok: f64) -> Weights {
    Weights { fail, ok }
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

/// Gambler's ruin for +1/-1 weights and an integer line `h`: an excursion starts at 1 and ends
/// at 0 or `h`; `ARL = (1 + p E) / (p q_alarm)` (see the module docs).
fn plus1_minus1_arl(h: u32, p: f64) -> f64 {
    let q = 1.0 - p;
    let r = q / p;
    let qa = (1.0 - r) / (1.0 - r.powi(h as i32));
    let e = 1.0 / (q - p) - h as f64 / (q - p) * qa;
    (1.0 + p * e) / (p * qa)
}

fn stopped(arl: f64, error: f64, converged: bool) -> ExactArl {
    ExactArl {
        arl,
        error,
        alarm_per_excursion: 0.5,
        excursion_calls: 1.0,
        iterations: 10,
        converged,
        cells: 10,
    }
}

#[test]
fn labeled_exact_when_converged_or_the_relative_error_is_within_the_limit() {
    // Converged: exact whatever the error estimate says.
    assert!(stopped(1e4, f64::INFINITY, true).is_exact());
    assert!(stopped(1e4, 1.0, true).is_exact());
    // Stopped by the cap: exact iff the error is finite and <= 1e-6 of the value.
    let at_limit = EXACT_MAX_RELATIVE_ERROR * 1e4;
    assert!(stopped(1e4, 0.0, false).is_exact());
    assert!(stopped(1e4, at_limit, false).is_exact());
    assert!(!stopped(1e4, at_limit * 1.001, false).is_exact());
    assert!(!stopped(1e4, 1.0, false).is_exact());
    assert!(!stopped(1e4, f64::INFINITY, false).is_exact());
    assert!(!stopped(f64::INFINITY, f64::INFINITY, false).is_exact());
    assert!(!stopped(1e4, f64::NAN, false).is_exact());
    // Small values: the limit is relative, not absolute (1e-6 x 0.5 < 1e-6).
    assert!(!stopped(0.5, 0.9e-6, false).is_exact());
    assert!(stopped(0.5, 0.4e-6, false).is_exact());
    // The figure carries the value, labeled exact, only when it is exact.
    let f = stopped(1e4, at_limit, false).figure().unwrap();
    assert_eq!((f.value, f.kind), (1e4, Kind::Exact));
    assert!(stopped(1e4, 1.0, false).figure().is_none());
    assert_eq!(stopped(7.0, 1.0, true).figure().unwrap().value, 7.0);
}

#[test]
fn a_line_one_failure_reaches_gives_a_geometric_run_length() {
    // Every failure at 0 alarms: the run length is geometric with mean 1/p.
    for &(fail, line) in &[(2.0, 2.0), (2.0, 1.5), (0.7, 0.1)] {
        for &p in &[0.01, 0.1, 0.3, 0.5, 0.9, 1.0] {
            let e = cusum::arl_exact(w(fail, -1.0), line, p);
            assert!(rel(e.arl, 1.0 / p) < 1e-12, "{fail} {line} {p}: {e:?}");
            assert_eq!(e.alarm_per_excursion, 1.0);
            assert!(e.converged && e.is_exact());
        }
    }
}

#[test]
fn no_failures_never_alarm() {
    let e = cusum::arl_exact(w(1.0, -1.0), 5.0, 0.0);
    assert_eq!(e.arl, f64::INFINITY);
    assert_eq!(e.alarm_per_excursion, 0.0);
    assert!(e.converged && e.is_exact());
    assert_eq!(e.figure().unwrap().value, f64::INFINITY);
}

#[test]
#[should_panic(expected = "need line > 0")]
fn a_line_at_zero_is_rejected() {
    cusum::arl_exact(w(1.0, -1.0), 0.0, 0.1);
}

#[test]
#[should_panic(expected = "need line > 0")]
fn a_failure_weight_at_zero_is_rejected() {
    cusum::arl_exact(w(0.0, -1.0), 3.0, 0.1);
}

#[test]
#[should_panic(expected = "need line > 0")]
fn a_success_weight_at_zero_is_rejected() {
    cusum::arl_exact(w(1.0, 0.0), 3.0, 0.1);
}

#[test]
fn a_capped_program_brackets_the_closed_form() {
    // Stopped early, the figure is off, but by no more than its error estimate, and the estimate
    // is not wildly loose (within 20x of the true miss). Uncapped, it converges to 1e-9.
    let mut finite = 0;
    for &(h, p) in &[(10u32, 0.3), (10, 0.45), (6, 0.4), (8, 0.6)] {
        let want = plus1_minus1_arl(h, p);
        let full = cusum::arl_exact(w(1.0, -1.0), h as f64, p);
        assert!(
            full.converged && rel(full.arl, want) < 1e-9,
            "{h} {p}: {full:?}"
        );
        assert!(full.error >= (full.arl - want).abs() && full.error <= 1e-9 * want);
        // Caps of a few steps: a step counts its cells and dp::STEP_CELLS.
        for steps in [10u64, 20, 50, 100, 200, 500, 1000] {
            let cap = steps * dp::STEP_CELLS;
            let e = cusum::arl_exact_capped(w(1.0, -1.0), h as f64, p, cap);
            let miss = (e.arl - want).abs();
            assert!(e.error >= miss, "h={h} p={p} cap={cap}: {e:?}, true {want}");
            if e.converged {
                continue;
            }
            assert!(e.cells <= cap + 2 * h as u64 + 1 + dp::STEP_CELLS, "{e:?}");
            if e.error.is_finite() {
                finite += 1;
                assert!(
                    e.error <= 20.0 * miss,
                    "h={h} p={p} cap={cap}: {e:?}, true {want}"
                );
            }
        }
    }
    assert!(finite >= 10, "only {finite} finite estimates");
}

#[test]
fn a_capped_error_covers_every_run_length_the_remainders_allow() {
    // The program's totals are sums so far: the true alarm chance is in [q, q + tail_upper] and
    // the true excursion length in [L, L + tail_steps]. The error estimate must cover the run
    // lengths at both ends, (1 + p L) / (p (q + tail_upper)) and (1 + p (L + tail_steps)) / (p q).
    let (mut checked, mut finite) = (0, 0);
    for &(fail, ok) in &[
        (1.0, -1.0),
        (2.0, -1.0),
        (1.0, -3.0),
        (0.9, -0.4),
        (1.0, -6.0),
        (0.3, -1.7),
    ] {
        let wt = w(fail, ok);
        for &h in &[4.0, 8.0, 15.0] {
            for &p in &[0.05, 0.1, 0.3, 0.5, 0.7] {
                for steps in [10u64, 20, 50, 100, 200, 500] {
                    let cap = steps * dp::STEP_CELLS;
                    let e = cusum::arl_exact_capped(wt, h, p, cap);
                    if e.converged {
                        continue;
                    }
                    // And the true run length (the uncapped program, converged to 1e-10).
                    let truth = cusum::arl_exact(wt, h, p);
                    assert!(truth.converged && truth.error < 1e-9 * truth.arl);
                    assert!(
                        e.error >= (e.arl - truth.arl).abs() - truth.error,
                        "{fail}/{ok} h={h} p={p} cap={cap}: {e:?} vs {}",
                        truth.arl
                    );
                    let a = dp::absorb_capped(wt, p, fail, 0.0, h, cap);
                    assert_eq!(
                        (a.upper, a.steps),
                        (e.alarm_per_excursion, e.excursion_calls)
                    );
                    let longest = (1.0 + p * (a.steps + a.tail_steps)) / (p * a.upper);
                    let shortest = (1.0 + p * a.steps) / (p * (a.upper + a.tail_upper));
                    assert!(shortest <= e.arl && e.arl <= longest, "{e:?} {a:?}");
                    let need = (longest - e.arl).max(e.arl - shortest);
                    assert!(
                        e.error >= need,
                        "{fail}/{ok} h={h} p={p} cap={cap}: error {} < {need}",
                        e.error
                    );
                    // And no wider than those ends and rounding: finite once the line was
                    // reached at all.
                    assert_eq!(e.error.is_finite(), a.upper > 0.0, "{e:?} {a:?}");
                    if a.upper > 0.0 {
                        finite += 1;
                        assert!(
                            e.error <= need + 1e-12 * e.arl,
                            "{fail}/{ok} h={h} p={p} cap={cap}: error {} > {need}",
                            e.error
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 50, "only {checked} capped cases");
    // (252 of 392 here; the bracket before session 15 was finite only once the line had more
    // than the remainder, 203.)
    assert!(finite >= 200, "only {finite} finite errors of {checked}");
}

#[test]
fn r_failures_in_a_row_match_the_closed_form_and_carry_a_rounding_error() {
    // A success from anywhere below the line resets (|w_ok| >= line): the alarm is the first run
    // of r = ceil(line / w_fail) failures in a row, ARL = (1 - p^r) / ((1 - p) p^r). Every
    // excursion ends within r calls, so the program leaves no remainder and the error estimate is
    // rounding alone: nonnegative, at least eps a step of the value, and covering the miss.
    for &(fail, line) in &[(1.0f64, 2.0f64), (1.0, 5.0), (0.5, 20.0), (0.25, 30.0)] {
        let r = (line / fail).ceil() as i32;
        for &p in &[0.5f64, 0.8, 0.9, 0.97, 0.99] {
            let want = (1.0 - p.powi(r)) / ((1.0 - p) * p.powi(r));
            let e = cusum::arl_exact(w(fail, -(line + 1.0)), line, p);
            assert!(e.converged && e.iterations >= r as u64 - 1, "{e:?}");
            assert!(rel(e.arl, want) < 1e-12, "r={r} p={p}: {} vs {want}", e.arl);
            assert!(
                e.error >= (e.arl - want).abs(),
                "r={r} p={p}: {e:?} vs {want}"
            );
            let floor = f64::EPSILON * e.iterations as f64 * e.arl;
            assert!(e.error >= floor, "r={r} p={p}: error {} < {floor}", e.error);
            assert!(e.error <= 1e-12 * e.arl, "r={r} p={p}: {e:?}");
        }
    }
}

#[test]
fn wald_matches_its_closed_form_for_plus1_minus1() {
    // +1/-1: p e^t + q e^-t = 1 gives e^t = q/p; drift 2p - 1; (e^{t h} - 1 - t h) / (-t mu).
    for &h in &[3.0, 7.5, 12.0] {
        for &p in &[0.05, 0.3, 0.45, 0.55, 0.8] {
            let q: f64 = 1.0 - p;
            let t = (q / p).ln();
            let want = ((t * h).exp() - 1.0 - t * h) / (-t * (2.0 * p - 1.0));
            let got = cusum::arl_wald(w(1.0, -1.0), h, p);
            assert_eq!(got.kind, Kind::Approximation);
            assert!(
                rel(got.value, want) < 1e-9,
                "h={h} p={p}: {} vs {want}",
                got.value
            );
        }
        // Zero drift: h^2 / var, var = 4 p q = 1.
        let got = cusum::arl_wald(w(1.0, -1.0), h, 0.5).value;
        assert!(rel(got, h * h) < 1e-12, "h={h}: {got}");
        // No successes: one failure after another, h / w_fail calls (no overshoot).
        assert!(rel(cusum::arl_wald(w(2.0, -1.0), h, 1.0).value, h / 2.0) < 1e-15);
        // No failures: never.
        assert_eq!(cusum::arl_wald(w(2.0, -1.0), h, 0.0).value, f64::INFINITY);
    }
}

#[test]
fn lorden_bound_is_e_to_the_line_at_and_below_p0_and_absent_above() {
    for &line in &[0.5, 3.0, 20.0] {
        for &p in &[0.0, 0.01, 0.05] {
            let b = cusum::lorden_bound(line, p, 0.05).unwrap();
            assert_eq!(b.kind, Kind::Bound);
            assert!(rel(b.value, line.exp()) < 1e-15);
        }
        assert!(cusum::lorden_bound(line, 0.050_000_1, 0.05).is_none());
    }
}

/// Irrational weight ratios against references computed independently in 40-digit arithmetic
/// (mpmath): the renewal over excursions written afresh, carrying the (failures, calls) mass
/// until less than 1e-30 of it is left, with the weights `ln(p1/p0)`, `ln((1-p1)/(1-p0))` of
/// the same f64 rates and the line `ln N` in f64. That program matched exact linear solves on
/// commensurate lattices (+1/-1, +8/-1, +3/-1, +5/-2 from solved p1) to 1e-16. The crate's
/// program stops at 1e-10 relative, so 1e-9 here; its error estimate must cover the miss.
#[test]
fn exact_run_length_matches_high_precision_references() {
    // (fine, broken, line calls, true rate, reference)
    let cases = [
        (0.05, 0.2, 1e4, 0.05, 180_469.312_853_756_42),
        (0.05, 0.2, 1e6, 0.2, 96.259_441_794_828_62),
        (0.0001, 0.5, 1e9, 0.0001, 35_646_699_000.265_015),
        (0.0001, 0.5, 1e9, 0.5, 6.070_407_110_213_351),
        (0.2, 0.95, 1e7, 0.2, 38_536_312.536_540_96),
        (0.2, 0.95, 1e7, 0.95, 12.608_639_294_033_537),
        (0.01, 0.3, 1e3, 0.01 / 3.0, 501_428.990_950_676_9),
        (0.001, 0.002, 1e3, 0.002, 15_907.617_254_304_66),
    ];
    for (p0, p1, n, p, want) in cases {
        let e = cusum::arl_exact(Weights::new(p0, p1), libm::log(n), p);
        assert!(
            rel(e.arl, want) < 1e-9,
            "{p0} vs {p1}, ln {n:e}, p {p}: {} vs {want}",
            e.arl
        );
        assert!(
            (e.arl - want).abs() <= e.error + 1e-14 * want,
            "{p0} vs {p1}, ln {n:e}, p {p}: miss {} above the error estimate {}",
            (e.arl - want).abs(),
            e.error
        );
    }
}

/// A tie: with fine 0.01% and broken 0.1%, `w_fail = ln 10` and the line `ln 100` is two
/// failures in a row. The breaker's f64 score after two failures is at the line, so it opens
/// (`>=`); the exact figure must count that. Reference: the same 40-digit renewal with the ratio
/// exactly 10 and the line exactly `2 ln 10`, alarm at `>=`: 380868.838306092. Resolved the
/// other way (the two failures fall short) it would be 381708.433187174, 0.22% more.
#[test]
fn a_line_two_failures_reach_exactly_alarms() {
    let w = Weights::new(0.0001, 0.001);
    let line = libm::log(100.0);
    assert!(
        w.fail + w.fail >= line,
        "the breaker's score reaches the line"
    );
    let e = cusum::arl_exact(w, line, 0.0001);
    assert!(rel(e.arl, 380_868.838_306_092) < 1e-9, "{}", e.arl);
}

/// A line on a grid point to rounding: fine 0.01%, broken 99.99% (`w_fail = |w_ok| = ln 9999` in
/// real numbers; in f64 |w_ok| exceeds w_fail by about 1e-13) with the line at its floor
/// w_fail + |w_ok|. Two failures from 0 fell just short of it in the breaker's f64 score, so the
/// exact run length was about 1e12 calls, while the chain's grid (ratio 1/1) put them on it.
/// A tie to rounding now reaches the line (`breaker::score::TIE`), in the breaker and in the
/// exact program: two failures in a row alarm, `(1 + p) / p^2` calls, and the chain agrees, its
/// error at rounding. Off a tie, the estimate stays at rounding too.
#[test]
fn a_line_on_a_grid_point_is_reached_by_the_exact_program_and_the_chain() {
    let (p0, p1) = (0.0001, 0.9999);
    let wts = Weights::new(p0, p1);
    let line = wts.fail - wts.ok;
    let exact = cusum::arl_exact(wts, line, p0);
    let chain = cusum::arl_markov_chain(wts, line, p0).expect("chain fits");
    let two_in_a_row = (1.0 + p0) / (p0 * p0);
    assert!(rel(exact.arl, two_in_a_row) < 1e-9, "{}", exact.arl);
    assert!(rel(chain.arl, two_in_a_row) < 1e-9, "{}", chain.arl);
    assert!(chain.error.expect("an estimate") < 1e-9 * chain.arl);
    // Half a step lower, no tie: both agree and the estimate is rounding again.
    let line = 1.5 * wts.fail;
    let exact = cusum::arl_exact(wts, line, p0);
    let chain = cusum::arl_markov_chain(wts, line, p0).expect("chain fits");
    assert!(
        rel(chain.arl, exact.arl) < 1e-9,
        "{} {}",
        chain.arl,
        exact.arl
    );
    assert!(chain.error.expect("an estimate") < 1e-9 * chain.arl);
}

/// A line a little above a grid point, within the breaker's tie: the breaker opens at the grid
/// point (`score >= reach(line)`), and so must the chain. With fine 10% and broken 90%
/// (`w_fail = |w_ok| = ln 9`) and a line of `ln(729 + 1e-9)`, 2e-13 of it above three failures,
/// the exact program gives 1020 calls; the chain's grid, built from the line itself, needed four
/// net failures and gave 9220, with an error of rounding. A line beyond the tie (2e-11 above)
/// alarms at four in both, and within 1e-9 of the grid point, on either side, the chain's error
/// covers the other grid (a margin for the rounding a long climb of the score gathers, generous
/// here): below it too, where the line's distance past the last grid point below is nearly a
/// whole step. That error is the gap between the two grids' run lengths, 1020 and 9220 calls,
/// and both grids count in the work. Each chain agrees with the exact program within its error.
#[test]
fn a_line_within_the_tie_above_a_grid_point_is_reached_there_by_the_chain() {
    let (p0, p1) = (0.1, 0.9);
    let wts = Weights::new(p0, p1);
    // The two grids, from lines well on either side of three failures.
    let three = libm::log(729.0);
    let grid = |line: f64| {
        cusum::arl_markov_chain(wts, line, p0)
            .expect("chain fits")
            .arl
    };
    let gap = grid(three * (1.0 + 1e-6)) - grid(three * (1.0 - 1e-6));
    assert!(rel(gap, 9220.0 - 1020.0) < 1e-9, "{gap}");
    for (calls, expected, wide) in [
        (729.0, 1020.0, false),
        (729.000_000_001, 1020.0, false),
        (729.000_000_1, 9220.0, true),
        (728.999_999_9, 1020.0, true),
        (728.9, 1020.0, false),
    ] {
        let line = libm::log(calls);
        let exact = cusum::arl_exact(wts, line, p0);
        let chain = cusum::arl_markov_chain(wts, line, p0).expect("chain fits");
        let error = chain.error.expect("an estimate");
        assert!(
            rel(exact.arl, expected) < 1e-9,
            "{calls}: exact {}",
            exact.arl
        );
        assert!(
            (chain.arl - exact.arl).abs() <= error + 1e-9 * exact.arl,
            "{calls}: chain {} +- {error}, exact {}",
            chain.arl,
            exact.arl
        );
        assert_eq!(error > 1.0, wide, "{calls}: error {error}");
        if wide {
            // The gap and rounding on top (the same grids: the same numbers to the bit).
            assert!(
                error > gap && rel(error, gap) < 1e-9,
                "{calls}: error {error}, gap {gap}"
            );
        }
        // Grids of `states` states, a failure and a success one step each: one grid or two.
        let grids = if wide { 2.0 } else { 1.0 };
        assert_eq!(chain.work, grids * chain.states as f64, "{calls}");
    }
    // Far smaller weights' ratio 1/1 to rounding (fine 0.01%, broken 99.99%), a line of 1e12
    // calls 3e-13 of it above a grid point: the chain gave 1e16 (+-1000) against an exact 1e12.
    let wts = Weights::new(0.0001, 0.9999);
    let line = libm::log(999_700_030_000.0);
    let exact = cusum::arl_exact(wts, line, 0.0001);
    let chain = cusum::arl_markov_chain(wts, line, 0.0001).expect("chain fits");
    assert!(rel(exact.arl, 1.00000002e12) < 1e-6, "exact {}", exact.arl);
    assert!(
        rel(chain.arl, exact.arl) < 1e-9,
        "chain {} exact {}",
        chain.arl,
        exact.arl
    );
}

/// The chain's grid holds the states below the line as the breaker compares with it: `states` is
/// `h` with `(h - 1) x step < reach(line) <= h x step` (step `w_fail / a`, `a/b` the convergent
/// used), to rounding: a line within units in the last place of a grid point may be counted on
/// either side, as the product or as the quotient `reach(line) / step` puts it (the error then
/// covers the other grid), but no further. A line a few units above a grid point can divide to
/// just past that point while the point's product still reaches it; the grid must stop there,
/// not a state further (an alarm a failure later, outside the error). The lines here are the
/// points moved out by the breaker's tie and a few units either way, for weights of ratio 1/1 to
/// rounding and not; the test counts the lines that divide past their point, so that it cannot
/// pass without them.
#[test]
fn the_chain_holds_the_states_below_the_line_as_the_breaker_compares() {
    let (mut lines, mut past) = (0, 0);
    for (p0, p1) in [(0.1, 0.9), (0.2, 0.8), (0.01, 0.05), (0.02, 0.3)] {
        let wts = Weights::new(p0, p1);
        let a = cusum::arl_markov_chain(wts, 3.0 * wts.fail, p0)
            .expect("chain fits")
            .ratio
            .0;
        let step = wts.fail / a as f64;
        for m in (a..=8 * a).step_by((a as usize / 4).max(1)) {
            let point = m as f64 * step / (1.0 - breaker::score::TIE);
            for k in -4i64..=4 {
                let line = f64::from_bits(point.to_bits().wrapping_add_signed(k));
                let chain = cusum::arl_markov_chain(wts, line, p0).expect("chain fits");
                if chain.ratio.0 != a {
                    continue;
                }
                let r = breaker::score::reach(line, &wts);
                let by_product = (1u64..).find(|&h| h as f64 * step >= r).unwrap();
                let by_quotient = (libm::ceil(r / step) as u64).max(1);
                assert!(
                    chain.states == by_product || chain.states == by_quotient,
                    "{p0} {p1} line {line:e} (m {m}, a {a}): {} states, {by_product} by the \
                     product, {by_quotient} by the quotient",
                    chain.states
                );
                lines += 1;
                past += usize::from(by_quotient > by_product);
            }
        }
    }
    assert!(
        lines > 200 && past > 0,
        "{lines} lines, {past} past their point"
    );
}

/// Where only the coarsest convergent `a/b` of an irrational weight ratio fits the chain's work
/// budget, its error is the gap to the grid of the neighbour on the other side of the ratio,
/// `(a + 1)/b` when `a/b` is below it (`(a - 1)/b` when above): that grid is the chain of
/// weights whose ratio is exactly the neighbour, with the same step `w_fail / (a + 1)`, so the
/// gap is computed here by running the chain on those weights. Fine 5%, broken 20%: the ratio
/// is 8.066 (convergents 8/1, 113/14, ...), and at a line of 1000 nats only 8/1 fits. (A
/// coarsest convergent is `a/1` at or below the ratio, or `1/b` above it, so the neighbour
/// below, `(a - 1)/b`, is never taken.)
#[test]
fn the_chain_error_with_one_convergent_is_the_gap_to_the_neighbour_across_the_ratio() {
    let wts = Weights::new(0.05, 0.2);
    let ratio = wts.fail / -wts.ok;
    assert!(ratio > 8.0 && ratio < 9.0, "{ratio}");
    let line = 1000.0;
    for p in [0.2, 0.3] {
        let chain = cusum::arl_markov_chain(wts, line, p).expect("chain fits");
        assert_eq!(chain.ratio, (8, 1));
        let across = w(wts.fail, -wts.fail / 9.0);
        let neighbour = cusum::arl_markov_chain(across, line, p).expect("chain fits");
        assert_eq!(neighbour.ratio, (9, 1));
        let gap = (chain.arl - neighbour.arl).abs();
        let error = chain.error.expect("an estimate");
        assert!(gap > 1.0, "{p}: the grids differ ({gap})");
        assert!(
            error > gap && rel(error, gap) < 1e-9,
            "{p}: error {error}, gap to 9/1 {gap}"
        );
        // Both grids are solved and counted (states x a x b each), and a cap of that work
        // gives the same answer where one less refuses.
        let work = chain.states as f64 * 8.0 + neighbour.states as f64 * 9.0;
        assert_eq!(chain.work, work, "{p}");
        let capped = |max: f64| cusum::arl_markov_chain_capped(wts, line, p, max);
        assert_eq!(capped(work), Some(chain), "{p}");
        assert_eq!(capped(work - 1.0), None, "{p}");
    }
    // Below 1 the coarsest convergent is 1/b, above the ratio, with no neighbour (a - 1)/b: no
    // estimate. Fine 50%, broken 90%: the ratio is 0.365 (1/2, 1/3, 3/8, ...), and at a line of
    // 7e6 nats only 1/2 fits.
    let wts = Weights::new(0.5, 0.9);
    let chain = cusum::arl_markov_chain(wts, 7e6, 0.9).expect("chain fits");
    assert_eq!((chain.ratio, chain.error), ((1, 2), None));
}

/// The chain solves a grid over its budget when it is the coarsest there is, up to 10 times the
/// budget, and refuses past that: with fine 10% and broken 90% (ratio 1/1, `w_fail = ln 9`), a
/// line of `2 x budget` steps is solved (at a failure rate of 90% the score climbs 0.8 ln 9 a
/// call, so the run length is about the line over that drift), one of `11 x budget` steps is
/// not.
#[test]
fn the_chain_solves_a_coarsest_grid_up_to_ten_budgets_and_no_further() {
    let wts = Weights::new(0.1, 0.9);
    let steps = |budgets: f64| budgets * cusum::CHAIN_BUDGET * wts.fail;
    let chain = cusum::arl_markov_chain(wts, steps(2.0) + 0.5 * wts.fail, 0.9)
        .expect("the coarsest grid, under 10 budgets");
    assert_eq!(chain.ratio, (1, 1));
    let drift = wts.drift(0.9);
    assert!(rel(chain.arl, steps(2.0) / drift) < 1e-3, "{}", chain.arl);
    assert!(cusum::arl_markov_chain(wts, steps(11.0) + 0.5 * wts.fail, 0.9).is_none());
}

/// The tie at a grid point in steps of the grid, not of failures: weights of ratio exactly 2
/// (0.6 and -0.3, the same digits an exponent apart), so the grid's step is a success, half a
/// failure. A line of three failures is on a grid point (six steps): reached there by the f64
/// score, the chain agrees with the exact program to rounding and says so. Moved out by 4e-10
/// of itself, past the tie but within 1e-9 of the point (2.4e-9 steps off six), the chain's
/// error is the gap to the grid of seven steps; and the work counts both grids (states x 2 x 1).
#[test]
fn a_line_on_a_grid_point_of_half_a_failure_is_reached_there_by_the_chain() {
    let wts = w(0.6, -0.3);
    let p = 0.2;
    let line = 3.0 * wts.fail;
    let grid = |line: f64| cusum::arl_markov_chain(wts, line, p).expect("chain fits");
    let on = grid(line);
    let exact = cusum::arl_exact(wts, line, p);
    assert_eq!((on.ratio, on.states), ((2, 1), 6));
    assert!(rel(on.arl, exact.arl) < 1e-9, "{} {}", on.arl, exact.arl);
    assert!(on.error.expect("an estimate") < 1e-9 * on.arl);
    assert_eq!(on.work, 6.0 * 2.0);
    let seven = grid(line * (1.0 + 1e-6));
    assert_eq!(seven.states, 7);
    let near = grid(line * (1.0 + 4e-10));
    assert_eq!(near.states, 7);
    let gap = seven.arl - on.arl;
    let error = near.error.expect("an estimate");
    assert!(
        gap > 1.0 && error > gap && rel(error, gap) < 1e-9,
        "error {error}, gap {gap}"
    );
    assert_eq!(near.work, 2.0 * 7.0 * 2.0);
}

/// The run-length simulation's caps count what they say: a draw per failure simulated (every
/// run here needs at least three: `2 ln 4 < 3`), so a cap one draw short of a run's draws gives
/// no figure after exactly that many, and a cap of them gives the same figure; and the calls of
/// all runs together, so a cap of half of them gives no figure though each run's calls fit.
#[test]
fn the_run_length_simulation_caps_its_draws_and_its_calls_in_all() {
    let wts = Weights::new(0.05, 0.2);
    let sim = |max_calls: u64, max_draws: u64| {
        cusum::simulate_capped(wts, 3.0, 0.2, 100, 7, max_calls, max_draws)
    };
    let (figure, draws) = sim(u64::MAX, u64::MAX);
    let figure = figure.expect("a figure");
    assert!(draws >= 300, "{draws} draws");
    assert_eq!(sim(u64::MAX, draws - 1), (None, draws - 1));
    assert_eq!(sim(u64::MAX, draws), (Some(figure), draws));
    let half = (figure.value * 100.0 / 2.0) as u64;
    assert!(half > 10 * figure.value as u64, "{half}");
    assert_eq!(sim(half, u64::MAX).0, None);
}
