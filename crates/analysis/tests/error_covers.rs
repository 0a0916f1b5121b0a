//! An exact figure's stated error covers its distance from the true value, computed apart: the
//! same program in 80-bit long double (numpy), run until the mass left was below 1e-45, with
//! the doubles' weights and lines (the truth of the problem the tool is given). Its rounding,
//! compounding step on step over a million steps, had been taken as growing with the square
//! root of the steps: the errors said 435 calls and 9.6e-13 where the distances were 441 and
//! 1.02e-12.

use analysis::{cusum, sprt};
use breaker::score::Weights;
use breaker::trial::WaldLines;

/// p0 = 30%, p1 = 31%: weights ln(0.31 / 0.3) and ln(0.69 / 0.7).
const W: Weights = Weights {
    fail: 0.03278982282299097,
    ok: -0.014388737452099669,
};

#[test]
fn the_run_length_at_a_line_of_1e9_calls_is_within_its_error() {
    // At p0, line ln 1e9: 1,485,029 steps of the long-double program.
    let truth = 4_336_266_296_315.428;
    let e = cusum::arl_exact(W, 1e9f64.ln(), 0.3);
    assert!(e.converged);
    let off = (e.arl - truth).abs();
    assert!(
        off > 100.0,
        "the case still tests something: {off} calls off"
    );
    assert!(
        off <= e.error,
        "{} is {off} from {truth}, said within {}",
        e.arl,
        e.error
    );
}

#[test]
fn a_half_open_test_s_chances_and_trials_are_within_their_errors() {
    // a = 0.1%, b = 20%: A = ln(0.8 / 0.001), B = ln(0.2 / 0.999); at the broken rate 31%.
    let lines = WaldLines {
        upper: 6.684611727667927,
        lower: -1.6084374121005167,
    };
    let (close, trials) = (0.198_663_849_527_214_6, 21_326.004_367_356_9);
    let e = sprt::exact(W, lines, 0.31);
    assert!(e.converged);
    let off = (e.close_probability - close).abs();
    assert!(off > 5e-13, "the case still tests something: {off} off");
    assert!(
        off <= e.close_error,
        "close {} is {off} from {close}, said within {}",
        e.close_probability,
        e.close_error
    );
    let off = (e.expected_trials - trials).abs();
    assert!(
        off <= e.trials_error,
        "trials {} is {off} from {trials}, said within {}",
        e.expected_trials,
        e.trials_error
    );
}
