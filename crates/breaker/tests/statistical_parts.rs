//! The statistical breaker's public parts on their own: the traffic meter, the backoff, the
//! weights and the CUSUM score, Wald's trial, the line and the generation counter. Expected
//! values are computed here from the formulas in the modules' docs (with `f64::ln`/`exp`, not
//! the crate's `libm`), so a change of formula fails here even where the whole breaker's tests
//! would not see it (a part used only for display, a branch the breaker reaches rarely).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use breaker::backoff::Backoff;
use breaker::generation::Generation;
use breaker::line;
use breaker::score::{Score, Weights};
use breaker::traffic::Traffic;
use breaker::trial::{Trial, Verdict, WaldLines};

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-13 * y.abs().max(1e-300)
}

/// `count(t) = count(t0) exp(-(t - t0)/tau)`, +1 per call, `rate = count / tau`; a meter started
/// at `NaN` does not decay until its first tick; a tick earlier than the last update counts
/// without decay and does not move the update time back.
#[test]
fn the_traffic_meter_decays_by_e_per_time_constant() {
    let e = std::f64::consts::E;
    // Not started: 2 calls/s x 3600 s = 7200, whatever the time asked.
    let mut m = Traffic::new(3600.0, 2.0, f64::NAN);
    assert_eq!(m.count(0.0), 7200.0);
    assert_eq!(m.count(1e6), 7200.0);
    assert_eq!(m.rate(1e6), 2.0);
    // The first tick starts it at 100: 7201 then, 7201/e an hour later.
    m.tick(100.0);
    assert_eq!(m.count(100.0), 7201.0);
    assert!(close(m.count(3700.0), 7201.0 / e), "{}", m.count(3700.0));
    assert!(close(m.rate(3700.0), 7201.0 / e / 3600.0));
    // A time before the update reads the count as it was (no growth backwards).
    assert_eq!(m.count(50.0), 7201.0);
    // A tick at the same time adds 1; an earlier tick adds 1 without decay and keeps the
    // update time at 100 (so an hour after 100 is still one e-fold).
    m.tick(100.0);
    m.tick(50.0);
    assert_eq!(m.count(100.0), 7203.0);
    assert!(close(m.count(3700.0), 7203.0 / e), "{}", m.count(3700.0));
    // A later tick decays first: 1 ms after 100 (the polynomial branch of the decay).
    m.tick(100.001);
    let expect = 7203.0 * (-0.001f64 / 3600.0).exp() + 1.0;
    assert!(close(m.count(100.001), expect), "{}", m.count(100.001));
    // Started at 0: the assumed count decays from 0.
    let m = Traffic::new(10.0, 3.0, 0.0);
    assert!(close(m.count(20.0), 30.0 / (e * e)), "{}", m.count(20.0));
    assert!(close(m.rate(5.0), 3.0 * (-0.5f64).exp()));
}

/// The wait starts at `first`, is multiplied by `factor` up to `cap`, and a reset or a new
/// start brings it back to `first` (never above `cap`).
#[test]
fn the_backoff_grows_by_its_factor_to_the_cap_and_resets() {
    let mut b = Backoff::new(60.0, 600.0, 3.0);
    assert_eq!(b.current(), 60.0);
    assert_eq!(b.start(), 60.0);
    let grown: Vec<f64> = (0..4).map(|_| b.grow()).collect();
    assert_eq!(grown, [180.0, 540.0, 600.0, 600.0]);
    assert_eq!(b.current(), 600.0);
    b.reset();
    assert_eq!(b.current(), 60.0);
    b.grow();
    assert_eq!(b.start(), 60.0);
    // A first wait above the cap waits the cap.
    let mut b = Backoff::new(60.0, 30.0, 2.0);
    assert_eq!(b.current(), 30.0);
    assert_eq!(b.grow(), 30.0);
    b.reset();
    assert_eq!(b.current(), 30.0);
    assert_eq!(b.start(), 30.0);
}

/// `w_fail = ln(p1/p0)`, `w_ok = ln((1-p1)/(1-p0))`, a point is `|w_ok|`, the drift at rate p is
/// `p w_fail + (1-p) w_ok`, zero at `-w_ok / (w_fail - w_ok)`.
#[test]
fn weights_points_and_drift() {
    let w = Weights::new(0.05, 0.20);
    let (fail, ok) = (4f64.ln(), (0.80f64 / 0.95).ln());
    assert!(close(w.fail, fail) && close(w.ok, ok));
    assert_eq!(w.of(true), w.fail);
    assert_eq!(w.of(false), w.ok);
    assert!(close(w.point(), -ok));
    // One failure is 8.04 points.
    assert!(
        close(w.to_points(fail), fail / -ok),
        "{}",
        w.to_points(fail)
    );
    assert!(close(w.to_points(-2.0 * ok), 2.0));
    // Fine rate: -0.094 nats a call; broken: +0.140.
    assert!(
        close(w.drift(0.05), 0.05 * fail + 0.95 * ok),
        "{}",
        w.drift(0.05)
    );
    assert!(
        close(w.drift(0.20), 0.20 * fail + 0.80 * ok),
        "{}",
        w.drift(0.20)
    );
    assert!(w.drift(0.05) < 0.0 && w.drift(0.20) > 0.0);
    assert!(close(w.zero_drift_rate(), -ok / (fail - ok)));
}

/// Page's CUSUM: `S = max(0, S + w)`.
#[test]
fn the_score_adds_with_a_floor_at_zero() {
    let mut s = Score::default();
    assert_eq!(s.add(-1.0), 0.0);
    assert_eq!(s.add(2.0), 2.0);
    assert_eq!(s.add(-0.5), 1.5);
    assert_eq!(s.value(), 1.5);
    assert_eq!(s.add(-3.0), 0.0);
    assert_eq!(s.add(0.25), 0.25);
    s.reset();
    assert_eq!(s.value(), 0.0);
}

/// `reach(line, w)`: the line moved toward 0 by `TIE` (1e-12) of it, but by at most a quarter of
/// the smaller weight; a line of 0 stays put.
#[test]
fn a_line_is_reached_within_its_tie_or_a_quarter_step() {
    use breaker::score::{reach, TIE};
    assert_eq!(TIE, 1e-12);
    let w = Weights {
        fail: 2.0,
        ok: -0.5,
    };
    // TIE of the line is the smaller: above 0 the line less it, below 0 the line plus it.
    for line in [9f64.ln(), 1e3, 1.0] {
        assert_eq!(reach(line, &w), line - line * 1e-12, "{line}");
        assert_eq!(reach(-line, &w), -line + line * 1e-12, "{line}");
    }
    // Where a quarter of the smaller weight (0.125 here) is the smaller: TIE of 1e12 is 1.
    assert_eq!(reach(1e12, &w), 1e12 - 0.125);
    assert_eq!(reach(-1e12, &w), -1e12 + 0.125);
    let tiny = Weights {
        fail: 1e-13,
        ok: -4e-14,
    };
    assert_eq!(reach(5.0, &tiny), 5.0 - 1e-14);
    assert_eq!(reach(0.0, &w), 0.0);
}

/// One trial at a time; a trial is lost at its loss time exactly (`now >= lost_at`); a result
/// frees the slot and moves the score, a release frees it without moving the score.
#[test]
fn the_trial_slot_and_wald_verdicts() {
    let lines = WaldLines::new(0.01, 0.05);
    assert!(close(lines.upper, 95f64.ln()));
    assert!(close(lines.lower, (0.05f64 / 0.99).ln()));
    let mut t = Trial::default();
    assert!(!t.expire(1e9), "nothing in flight: nothing lost");
    assert!(t.start(1, 10.0));
    assert!(!t.start(2, 20.0), "the slot is taken");
    assert_eq!(t.in_flight(), Some((1, 10.0)));
    assert!(t.holds(1) && !t.holds(2));
    assert!(!t.expire(9.999));
    assert!(t.expire(10.0), "lost at its loss time");
    assert_eq!(t.in_flight(), None);
    assert!(!t.holds(1));
    assert!(t.start(2, 20.0));
    t.release();
    assert_eq!((t.in_flight(), t.score()), (None, 0.0));
    // Verdicts: 4.0 < A = 4.55 continues, 4.0 + 1.0 opens; B = -2.98.
    assert!(t.start(3, 30.0));
    assert_eq!(t.add(4.0, &lines), Verdict::Continue);
    assert_eq!(t.in_flight(), None, "a result frees the slot");
    assert_eq!(t.score(), 4.0);
    assert_eq!(t.add(1.0, &lines), Verdict::Open);
    t.reset();
    assert_eq!(t.score(), 0.0);
    assert_eq!(t.add(-2.9, &lines), Verdict::Continue);
    assert_eq!(t.add(-0.1, &lines), Verdict::Close);
}

/// `line = max(ln(rate x period), floor)`, `floor = max(A, w_fail + |w_ok|)`.
#[test]
fn the_line_and_its_floor() {
    assert!(close(line::line(1.0, 100.0, 2.0), 100f64.ln()));
    assert!(close(line::line(0.5, 400.0, 2.0), 200f64.ln()));
    assert_eq!(line::line(0.5, 10.0, 2.0), 2.0, "ln 5 < 2");
    assert_eq!(line::line(0.5, 1.0, 2.0), 2.0, "N < 1");
    assert_eq!(line::line(0.0, 1e9, 2.0), 2.0, "no traffic");
    // Default rates: A = ln 95 = 4.55 over ln 4 + |ln(0.8/0.95)| = 1.56.
    let w = Weights::new(0.05, 0.20);
    let floor = line::floor(w, WaldLines::new(0.01, 0.05));
    assert!(close(floor, 95f64.ln()));
    // p1/p0 = 100 against (1-b)/a = 8: w_fail + |w_ok| = ln 100 + ln(0.995/0.5) = 5.29.
    let w = Weights::new(0.005, 0.5);
    let floor = line::floor(w, WaldLines::new(0.1, 0.2));
    assert!(close(floor, 100f64.ln() + (0.995f64 / 0.5).ln()), "{floor}");
}

/// Each bump moves to the next generation; only the current one is current.
#[test]
fn generations_count_up_by_one() {
    let mut g = Generation::default();
    assert_eq!(g.get(), 0);
    assert!(g.is_current(0));
    assert_eq!(g.bump(), 1);
    assert_eq!(g.bump(), 2);
    assert_eq!(g.get(), 2);
    assert!(g.is_current(2) && !g.is_current(1) && !g.is_current(3));
}

/// Rates close together (or tiny, for `w_ok`) keep their weights' digits: reference values
/// computed at 60 digits (Python's decimal) from the same binary inputs. `ln` of the rounded
/// ratio gave w_ok = -9.99978e-13 for (1e-9, 1.001e-9) (2e-5 off, the drift at p0 4% off), and
/// a positive drift at p0 for (1 - 2^-52, 1 - 2^-53).
#[test]
fn weights_of_rates_close_together_keep_their_digits() {
    let close = |got: f64, want: f64, tol: f64| {
        assert!(
            ((got - want) / want).abs() < tol,
            "{got:e} against {want:e}"
        )
    };
    let w = Weights::new(1e-9, 1.001e-9);
    close(w.fail, 9.995_003_330_834_265e-4, 1e-13);
    close(w.ok, -1.000_000_001_000_393_1e-12, 1e-13);
    close(w.drift(1e-9), -4.996_669_169_667_264e-16, 1e-9);
    close(w.zero_drift_rate(), 1.000_499_916_708_307e-9, 1e-12);
    let w = Weights::new(0.999_999_999_999_999_8, 0.999_999_999_999_999_9);
    close(w.fail, 1.110_223_024_625_156_8e-16, 1e-13);
    close(w.ok, -std::f64::consts::LN_2, 1e-15); // ln(2^-53 / 2^-52)
    close(
        w.drift(0.999_999_999_999_999_8),
        -4.288_728_939_981_675e-17,
        1e-9,
    );
    let w = Weights::new(1e-17, 1e-16);
    close(w.ok, -9.000_000_000_000_001e-17, 1e-13);
    close(w.drift(1e-17), -6.697_414_907_005_954e-17, 1e-9);
    // Ordinary rates: ln of the ratio as before, bit for bit (runs are unchanged).
    let w = Weights::new(0.05, 0.2);
    assert_eq!(w.fail.to_bits(), libm::log(0.2 / 0.05).to_bits());
    assert_eq!(
        w.ok.to_bits(),
        libm::log((1.0 - 0.2) / (1.0 - 0.05)).to_bits()
    );
}

/// At a distance from 1 of exactly [`Weights::NEAR_ONE`] the weight is `ln` of the ratio, as for
/// ordinary rates: only a distance below it takes `log1p` (the two differ in the last digits
/// here, 9.999500033330834e-5 by `log1p` against 9.999500033329732e-5 by `ln`). Rates found by
/// search so that the distance, worked out as [`Weights::new`] does, is `NEAR_ONE` exactly.
#[test]
fn a_ratio_at_exactly_near_one_takes_ln_of_the_ratio() {
    // w_fail: (p1 - p0) / p0 is 1e-4 exactly.
    let (p0, p1) = (0.240_122_948_099_996_65, 0.240_146_960_394_806_65);
    assert_eq!((p1 - p0) / p0, Weights::NEAR_ONE);
    let w = Weights::new(p0, p1);
    assert_eq!(w.fail.to_bits(), libm::log(p1 / p0).to_bits());
    assert_ne!(w.fail.to_bits(), libm::log1p((p1 - p0) / p0).to_bits());
    // w_ok: (p0 - p1) / (1 - p0) is -1e-4 exactly.
    let (p0, p1) = (0.186_593_124_157_473_84, 0.186_674_464_845_058_1);
    assert_eq!((p0 - p1) / (1.0 - p0), -Weights::NEAR_ONE);
    let w = Weights::new(p0, p1);
    assert_eq!(w.ok.to_bits(), libm::log((1.0 - p1) / (1.0 - p0)).to_bits());
    assert_ne!(
        w.ok.to_bits(),
        libm::log1p((p0 - p1) / (1.0 - p0)).to_bits()
    );
}
