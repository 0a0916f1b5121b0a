//! Small numerical helpers: the Wald exponent, binomial tails, sample statistics.

use breaker::score::Weights;

/// Whether the weights make a test: `0 < w_fail < inf` and `-inf < w_ok < 0`, as
/// [`Weights::new`] gives for normal rates `0 < p0 < p1 < 1` (it checks nothing: rates the other
/// way round flip the signs, equal rates give 0, a rate of 0 or 1, or a subnormal p0 such as
/// 5e-324, an infinite weight). The figures
/// answer only for such weights: a function returning an `Option` gives `None`, the exact
/// programs panic (each says which).
pub fn is_test(w: Weights) -> bool {
    w.fail > 0.0 && w.fail < f64::INFINITY && w.ok < 0.0 && w.ok > f64::NEG_INFINITY
}

/// Whether `p` is a failure rate: `0 <= p <= 1` (NaN is not).
pub fn is_rate(p: f64) -> bool {
    (0.0..=1.0).contains(&p)
}

/// Wald's exponent: the nonzero `t` with `E[e^{t w}] = 1` at failure rate `p` (Wald's `h(p)`).
///
/// `t > 0` when the drift is negative (then `e^{t S}` is a martingale and the chance of climbing
/// `d` nats is at most `e^{-t d}`), `t < 0` when it is positive, `0` at zero drift. At `p = p0`
/// it is exactly 1 (the likelihood ratio is a fair bet); at `p = p1` it is -1. Returns `None` when
/// no root exists (`p = 0` or `p = 1`: the walk only goes one way).
pub fn wald_exponent(w: Weights, p: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) {
        return None;
    }
    let mu = w.drift(p);
    if mu == 0.0 {
        return Some(0.0);
    }
    let sign = if mu < 0.0 { 1.0 } else { -1.0 };
    // E[e^{x w}] - 1 = p expm1(x w_fail) + (1-p) expm1(x w_ok), with x = sign * t: convex, 0 at
    // 0, decreasing at 0, positive past the root. Not its logarithm `ln E[e^{x w}]`: that one's
    // absolute rounding (~1e-16) swamps the function near 0, where it is ~ drift x + var x^2 / 2,
    // and hid a root near 0 (close to the zero-drift rate) to within ~1e-6. This form's rounding
    // is relative to its terms, which shrink with x. Terms never overflow to opposite infinities
    // (one is at least -1).
    let g = |t: f64| {
        let x = sign * t;
        p * libm::expm1(x * w.fail) + (1.0 - p) * libm::expm1(x * w.ok)
    };
    let mut hi = 1.0;
    let mut guard = 0;
    while g(hi) < 0.0 {
        hi *= 2.0;
        guard += 1;
        if guard > 2000 {
            return None;
        }
    }
    let mut lo = 0.0;
    // Bisection to the last bit (g is negative on (0, root), positive beyond).
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(sign * 0.5 * (lo + hi))
}

/// Variance of one call's weight at rate `p`: `p (1-p) (w_fail - w_ok)^2`.
pub(crate) fn weight_variance(w: Weights, p: f64) -> f64 {
    p * (1.0 - p) * (w.fail - w.ok) * (w.fail - w.ok)
}

/// Stirling's error at 1, 2, ..., 15 (the values of R's `stirlerr` table, computed to 40 digits
/// with mpmath and rounded once).
const STIRLING_ERRORS: [f64; 15] = [
    0.081_061_466_795_327_26,
    0.041_340_695_955_409_3,
    0.027_677_925_684_998_34,
    0.020_790_672_103_765_093,
    0.016_644_691_189_821_193,
    0.013_876_128_823_070_748,
    0.011_896_709_945_891_77,
    0.010_411_265_261_972_096,
    0.009_255_462_182_712_733,
    0.008_330_563_433_362_87,
    0.007_573_675_487_951_841,
    0.006_942_840_107_209_53,
    0.006_408_994_188_004_207,
    0.005_951_370_112_758_847_5,
    0.005_554_733_551_962_801,
];

/// Stirling's error `ln n! - ln(sqrt(2 pi n) (n/e)^n)` for a whole `n >= 1` (Loader 2000): from
/// a table up to 15, above it the series `1/12n - 1/360n^3 + 1/1260n^5 - 1/1680n^7 +
/// 1/1188n^9` (within about 1e-16 there: 1.1e-16 at 16, under 1e-17 from 20). `lgamma` up to
/// 15 was within 1e-14, and its code
/// was 1 KB of the page's wasm.
#[inline(never)]
pub(crate) fn stirling_error(n: f64) -> f64 {
    if n <= 15.0 {
        // (`get`: no panic path in the wasm; `n` is a whole number from 1.)
        return STIRLING_ERRORS
            .get((n as usize).wrapping_sub(1))
            .copied()
            .unwrap_or_default();
    }
    let nn = n * n;
    (1.0 / 12.0
        - (1.0 / 360.0 - (1.0 / 1260.0 - (1.0 / 1680.0 - 1.0 / (1188.0 * nn)) / nn) / nn) / nn)
        / n
}

/// The deviance term `x ln(x/m) + m - x` (Loader 2000), written `x log1p(d/m) - d` with
/// `d = x - m`: near `m` it is about `d^2 / 2m`, and this form loses `d`'s last digits to the
/// difference where `x ln(x/m)` would lose `x`'s.
#[inline(never)]
pub(crate) fn deviance(x: f64, m: f64) -> f64 {
    let d = x - m;
    x * libm::log1p(d / m) - d
}

/// `ln P(X = k)` for `X ~ Binomial(n, p)`, `0 < p < 1`, by Loader's saddle point (2000; as R's
/// `dbinom`): Stirling's errors and two deviances. `ln n! - ln k! - ln (n-k)!` through `lgamma`
/// cancelled the digits away: 1e-9 of the tail at n = 1e6, 2e-6 at 1e9, all of it at 1e16.
fn binomial_ln_pmf(n: u64, p: f64, k: u64) -> f64 {
    if k == 0 {
        return n as f64 * libm::log1p(-p);
    }
    if k == n {
        return n as f64 * libm::log(p);
    }
    let (n, k) = (n as f64, k as f64);
    stirling_error(n)
        - stirling_error(k)
        - stirling_error(n - k)
        - deviance(k, n * p)
        - deviance(n - k, n * (1.0 - p))
        + 0.5 * libm::log(n / (2.0 * core::f64::consts::PI * k * (n - k)))
}

/// `P(X >= k)` for `X ~ Binomial(n, p)`, summed from whichever tail is smaller so that tiny
/// probabilities keep their relative precision. Against 40-digit sums: within 3e-13 of the tail
/// up to n = 1e6 (80 random settings), 1e-11 up to 1e12; 1e-8 at 1e16, where the sum takes
/// about 1e8 terms.
pub fn binomial_upper_tail(n: u64, p: f64, k: u64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let mean = n as f64 * p;
    let ln_pmf = |j: u64| binomial_ln_pmf(n, p, j);
    if k as f64 >= mean {
        // Sum upward from k: terms decrease past the mode.
        sum_terms(
            ln_pmf(k),
            k,
            n,
            |j| ((n - j) as f64 / (j + 1) as f64) * (p / (1.0 - p)),
            true,
        )
    } else {
        // 1 - P(X <= k-1), summing downward from k-1.
        let lower = sum_terms(
            ln_pmf(k - 1),
            k - 1,
            0,
            |j| (j as f64 / (n - j + 1) as f64) * ((1.0 - p) / p),
            false,
        );
        (1.0 - lower).max(0.0)
    }
}

/// Sum pmf terms from `start` towards `end` (up or down) with the ratio between neighbours.
fn sum_terms(ln_first: f64, start: u64, end: u64, ratio: impl Fn(u64) -> f64, up: bool) -> f64 {
    let mut term = libm::exp(ln_first);
    let mut sum = term;
    let mut j = start;
    loop {
        if j == end {
            break;
        }
        term *= ratio(j);
        j = if up { j + 1 } else { j - 1 };
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    sum.min(1.0)
}

/// Running mean and variance (Welford).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stats {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Stats {
    pub(crate) fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    pub(crate) fn n(&self) -> u64 {
        self.n
    }

    /// The squared coefficient of variation `s^2 / mean^2` (sample variance); `None` below two
    /// values or at a mean of 0.
    pub(crate) fn squared_cv(&self) -> Option<f64> {
        (self.n >= 2 && self.mean != 0.0)
            .then(|| self.m2 / (self.n - 1) as f64 / (self.mean * self.mean))
    }

    /// Mean with its 95% Student-t interval `mean +- t(0.975, n-1) s / sqrt(n)`; no interval
    /// from one value. Exact for normal values (where 1.96 in place of `t` would hold only 88%
    /// of the time at n = 5); an approximation for skewed ones such as run lengths, which are
    /// roughly geometric: for exponential values it holds about 88% of the time at n = 5, 90% at
    /// 10 and 94% at 100 (simulated), so small samples give intervals too narrow. The values
    /// are counts (calls, trials): the lower end of an interval is at least 0, where
    /// `mean - half` can be below it for a few skewed values ("[-1.710e6, 9.575e7]" from 10 run
    /// lengths); a mean of counts cannot be, so the interval covers it as often.
    ///
    /// Values all equal have no spread to make an interval from: none either (`[11, 11]` from
    /// 1,000 runs of 11 calls to open at a failure rate of 0.999999 said the mean was 11 for
    /// sure, where it is 11.000011).
    pub(crate) fn mean_ci95(&self) -> (f64, (f64, f64)) {
        let var = self.m2 / (self.n.max(2) - 1) as f64;
        if self.n < 2 || var == 0.0 {
            return (self.mean, (f64::NEG_INFINITY, f64::INFINITY));
        }
        let half = t975(self.n - 1) * libm::sqrt(var / self.n as f64);
        (self.mean, ((self.mean - half).max(0.0), self.mean + half))
    }
}

/// Student's t quantile at 0.975 for `df >= 1` degrees of freedom: scipy's `t.ppf(0.975, df)`
/// up to 9, then the Cornish-Fisher expansion in `1/df` to four terms (Abramowitz and Stegun
/// 26.7.5), within the first term it leaves out, about `0.37 / df^5` relative (3.6e-6 at
/// `df = 10`, 3.7e-11 at 100).
pub(crate) fn t975(df: u64) -> f64 {
    const SMALL: [f64; 9] = [
        12.706204736174694,
        4.302652729749462,
        3.1824463052837078,
        2.7764451051977934,
        2.5705818356363146,
        2.4469118511449786,
        2.364624251592784,
        2.306004135204166,
        2.262157162798205,
    ];
    if let Some(&t) = SMALL.get(df.max(1) as usize - 1) {
        return t;
    }
    // z = the normal quantile at 0.975; g_k the expansion's polynomials in z.
    let z = 1.959963984540054f64;
    let z2 = z * z;
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
    let v = 1.0 / df as f64;
    z + v * (g1 + v * (g2 + v * (g3 + v * g4)))
}

/// Counts up to this get the exact Garwood interval; above it the Wilson-Hilferty form, within
/// 3e-5 of it (relative; 1.7e-6 at 1000, against scipy's chi-square quantiles).
const GARWOOD_EXACT_UP_TO: u64 = 100;

/// 95% interval for a Poisson mean from a count `c`: Garwood's (1936) exact interval, the means
/// at which `P(X >= c) = 2.5%` and `P(X <= c) = 2.5%`, for `c <= 100`; its Wilson-Hilferty
/// approximation above that. (Wilson-Hilferty alone put the lower end of `c = 1` at 0.013
/// instead of 0.0253, and the upper end of `c = 0` at 3.668 instead of 3.689.)
pub(crate) fn poisson_ci95(c: u64) -> (f64, f64) {
    if c <= GARWOOD_EXACT_UP_TO {
        let lo = if c == 0 {
            0.0
        } else {
            poisson_mean_where_cdf(c - 1, 0.975)
        };
        return (lo, poisson_mean_where_cdf(c, 0.025));
    }
    let z = 1.96;
    let t = |c: f64, sign: f64| 1.0 - 1.0 / (9.0 * c) + sign * z / (3.0 * libm::sqrt(c));
    let (c0, c1) = (c as f64, c as f64 + 1.0);
    let cube = |x: f64| x * x * x;
    (c0 * cube(t(c0, -1.0)), c1 * cube(t(c1, 1.0)))
}

/// 95% interval for the mean of a count `c` whose variance is `phi` times its mean (a renewal
/// count: `phi` = the squared coefficient of variation of the gaps). For `phi > 1` the
/// quasi-Poisson scaling: `phi` times [`poisson_ci95`] of `c / phi`, the lower end at
/// `floor(c / phi)` and the upper at `ceil(c / phi)` (outwards); [`poisson_ci95`] of `c` otherwise
/// (`phi` unknown, or at most 1, where Poisson's is conservative).
pub(crate) fn poisson_ci95_overdispersed(c: u64, phi: Option<f64>) -> (f64, f64) {
    match phi {
        Some(phi) if phi > 1.0 && phi.is_finite() => {
            let ce = c as f64 / phi;
            let lo = poisson_ci95(libm::floor(ce) as u64).0;
            let hi = poisson_ci95(libm::ceil(ce) as u64).1;
            (lo * phi, hi * phi)
        }
        _ => poisson_ci95(c),
    }
}

/// `P(X <= k)` for `X ~ Poisson(m)`, summed term by term (`m` below a few hundred, so
/// `e^-m` does not underflow).
fn poisson_cdf(k: u64, m: f64) -> f64 {
    let mut term = libm::exp(-m);
    let mut sum = term;
    for i in 1..=k {
        term *= m / i as f64;
        sum += term;
    }
    sum
}

/// The mean `m` at which `P(X <= k) = q`, by bisection (the CDF falls as `m` grows).
fn poisson_mean_where_cdf(k: u64, q: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, k as f64 + 10.0 * libm::sqrt(k as f64 + 1.0) + 10.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if poisson_cdf(k, mid) > q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::{
        binomial_ln_pmf, deviance, poisson_ci95, poisson_ci95_overdispersed, stirling_error, t975,
        wald_exponent, weight_variance, Stats,
    };
    use breaker::score::Weights;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    /// Against `ln n! - (ln sqrt(2 pi n) + n ln n - n)` in 50-digit arithmetic (mpmath's
    /// `loggamma`): the table to the last bit, the series within 1.2e-16 (absolute) from 16.
    #[test]
    fn stirling_error_is_lns_of_factorials_less_stirling() {
        let mpmath: [(f64, f64); 10] = [
            (1.0, 0.08106146679532726),
            (2.0, 0.0413406959554093),
            (7.0, 0.01189670994589177),
            (15.0, 0.005554733551962801),
            (16.0, 0.0052076559196096404),
            (17.0, 0.004901395948434738),
            (20.0, 0.004166319691996922),
            (50.0, 0.0016666444469833656),
            (1000.0, 8.333333055555635e-5),
            (1e6, 8.333333333333056e-8),
        ];
        for (n, want) in mpmath {
            let got = stirling_error(n);
            let tol = if n <= 15.0 { 0.0 } else { 1.2e-16 };
            assert!((got - want).abs() <= tol, "{n}: {got:e} vs {want:e}");
        }
    }

    /// Against `x ln(x/m) + m - x` in 50-digit arithmetic, near `m` and far from it: within 4
    /// ulps of `|x - m|` (absolute: what `ln P` needs; near `m` that is 4e-11 of the deviance
    /// itself at `x` = 1e6, `d` = -0.5, where `x ln(x/m) + m - x` is 7e-4 of it off).
    #[test]
    fn deviance_is_loaders() {
        let mpmath: [(f64, f64, f64); 5] = [
            (10.0, 3.0, 5.03972804325936),
            (3.0, 10.0, 3.388081587022192),
            (1000.0, 999.5, 0.00012504168229791928),
            (1e6, 1e6 + 0.5, 1.2499995833334897e-7),
            (1.0, 1e-3, 5.908755278982137),
        ];
        for (x, m, want) in mpmath {
            let got = deviance(x, m);
            let tol = 4.0 * f64::EPSILON * (x - m).abs();
            assert!((got - want).abs() <= tol, "{x} {m}: {got:e} vs {want:e}");
        }
        assert_eq!(deviance(7.0, 7.0), 0.0);
    }

    /// `ln (C(n, k) p^k (1-p)^(n-k))` in 50-digit arithmetic (mpmath), `p` the double given:
    /// the ends `k = 0` and `k = n`, the middle, and a far tail.
    #[test]
    fn binomial_ln_pmf_is_the_log_of_the_pmf() {
        let mpmath: [(u64, f64, u64, f64); 8] = [
            (10, 0.3, 0, -3.5667494393873236),
            (10, 0.3, 10, -12.03972804325936),
            (10, 0.3, 3, -1.3211512777668886),
            (100, 0.05, 50, -85.56743674505965),
            (1000, 0.01, 10, -2.0735373169590643),
            (1_000_000, 0.01, 10_500, -17.966241648702365),
            (20, 0.9, 1, -40.85874500899071),
            (60, 1e-4, 2, -10.947746208403826),
        ];
        for (n, p, k, want) in mpmath {
            let got = binomial_ln_pmf(n, p, k);
            assert!(rel(got, want) < 1e-15, "{n} {p} {k}: {got} vs {want}");
        }
    }

    /// Wald's exponent: 1 at `p0` and -1 at `p1` (the likelihood ratio's own), and elsewhere the
    /// nonzero root of `E[e^{h w}] = 1` (checked here with `exp`; 0.0038 at 0.11, next to the
    /// zero-drift rate) with the sign opposite the drift; 0 at zero drift; none where the walk
    /// goes one way only, or where no root exists.
    #[test]
    fn wald_exponent_is_the_nonzero_root() {
        let w = Weights::new(0.05, 0.2);
        assert!((wald_exponent(w, 0.05).unwrap() - 1.0).abs() < 1e-14);
        assert!((wald_exponent(w, 0.2).unwrap() + 1.0).abs() < 1e-14);
        // Rates close together make small weights and far roots: 1.4e4 and -6.2e3 for 0.1
        // against 0.1001 (past 4,000, where a search stepping by 2 gave up).
        let near = Weights::new(0.1, 0.1001);
        let cases = [1e-6, 0.01, 0.1, 0.11, 0.12, 0.3, 0.9, 1.0 - 1e-9].map(|p| (w, p));
        for (w, p) in cases.into_iter().chain([(near, 1e-6), (near, 0.5)]) {
            let h = wald_exponent(w, p).unwrap();
            let e = |h: f64| p * (h * w.fail).exp() + (1.0 - p) * (h * w.ok).exp();
            assert!((e(h) - 1.0).abs() < 1e-12, "{p}: h {h}, E {}", e(h));
            // The root past 0, not 0 itself: E < 1 between them, > 1 beyond (E is convex).
            assert!(e(h / 2.0) < 1.0 && e(2.0 * h) > 1.0, "{p}: h {h}");
            assert_eq!(h.signum(), -w.drift(p).signum(), "{p}: h {h}");
            assert!(w != near || h.abs() > 4000.0, "{p}: h {h}");
        }
        // +1 / -1 at 1/2: zero drift, exactly.
        let fair = Weights {
            fail: 1.0,
            ok: -1.0,
        };
        assert_eq!(wald_exponent(fair, 0.5), Some(0.0));
        // At 1/4 the root of (e^h + 3 e^-h) / 4 = 1 is ln 3.
        let h = wald_exponent(fair, 0.25).unwrap();
        assert!((h - 3f64.ln()).abs() < 1e-15, "{h}");
        assert!((wald_exponent(fair, 0.75).unwrap() + 3f64.ln()).abs() < 1e-15);
        for p in [0.0, 1.0, -0.1, 1.5, f64::NAN] {
            assert_eq!(wald_exponent(w, p), None, "{p}");
        }
        // Weights that both pull down (not a test): `E[e^{h w}] < 1` for every `h > 0`.
        assert_eq!(
            wald_exponent(
                Weights {
                    fail: -1.0,
                    ok: -0.5
                },
                0.3
            ),
            None
        );
    }

    /// `p (1-p) (w_fail - w_ok)^2`: 1/4 x 2^2 = 1 for +1 / -1 at 1/2, 3/16 x 4 at 1/4.
    #[test]
    fn weight_variance_is_bernoullis() {
        let fair = Weights {
            fail: 1.0,
            ok: -1.0,
        };
        assert_eq!(weight_variance(fair, 0.5), 1.0);
        assert_eq!(weight_variance(fair, 0.25), 0.75);
        let w = Weights {
            fail: 3.0,
            ok: -0.5,
        };
        assert_eq!(weight_variance(w, 0.1), 0.1 * 0.9 * 3.5 * 3.5);
    }

    /// Against scipy's `t.ppf(0.975, df)`: exact from the table; above it within the first term
    /// the expansion leaves out, about `0.37 / df^5` relative (3.6e-6 at 10, 3.7e-11 at 100).
    #[test]
    fn t_quantile_is_students() {
        let scipy: [(u64, f64); 14] = [
            (1, 12.706204736174694),
            (2, 4.302652729749462),
            (9, 2.262157162798205),
            (10, 2.228138851986274),
            (11, 2.200985160091639),
            (15, 2.131449545559776),
            (20, 2.085963447265864),
            (30, 2.0422724563012378),
            (50, 2.008559112100761),
            (100, 1.9839715185235518),
            (199, 1.9719565442517533),
            (399, 1.965927295920882),
            (1000, 1.9623390808264083),
            (1_000_000, 1.959966356814107),
        ];
        for (df, t) in scipy {
            let got = t975(df);
            let tol = if df < 10 {
                0.0
            } else {
                (0.4 / (df as f64).powi(5) + f64::EPSILON) * t
            };
            assert!((got - t).abs() <= tol, "df {df}: {got} vs {t}");
        }
    }

    /// The interval of 1, 2, 3, 4, 5: mean 3, s = sqrt(2.5), half-width t(0.975, 4) s / sqrt 5.
    #[test]
    fn mean_interval_uses_t() {
        let mut s = Stats::default();
        for x in [1.0, 2.0, 3.0, 4.0, 5.0] {
            s.push(x);
        }
        let (m, (lo, hi)) = s.mean_ci95();
        let half = 2.7764451051977934 * (2.5f64 / 5.0).sqrt();
        assert_eq!(m, 3.0);
        assert!((lo - (3.0 - half)).abs() < 1e-12 && (hi - (3.0 + half)).abs() < 1e-12);
        let mut one = Stats::default();
        one.push(7.0);
        assert_eq!(one.mean_ci95(), (7.0, (f64::NEG_INFINITY, f64::INFINITY)));
        // Skewed counts: 1, 1, 1 and 1000 give mean 250.75 and a half-width of 1589 (t = 3.18,
        // s = 499.5): the lower end stops at 0.
        let mut skewed = Stats::default();
        for x in [1.0, 1.0, 1.0, 1000.0] {
            skewed.push(x);
        }
        let (m, (lo, hi)) = skewed.mean_ci95();
        let half = 3.182446305284263 * (249500.25f64 / 4.0).sqrt();
        assert_eq!((m, lo), (250.75, 0.0));
        assert!((hi - (250.75 + half)).abs() < 1e-9, "{hi}");
    }

    /// Two values: `t(0.975, 1)` = 12.7062 times `s / sqrt 2` (`s` = sqrt 2 for 100 and 102).
    #[test]
    fn mean_interval_of_two_values() {
        let mut s = Stats::default();
        for x in [100.0, 102.0] {
            s.push(x);
        }
        let (m, (lo, hi)) = s.mean_ci95();
        let half = 12.706204736174694;
        assert_eq!(m, 101.0);
        assert!((lo - (101.0 - half)).abs() < 1e-12 && (hi - (101.0 + half)).abs() < 1e-12);
        // Equal values have no spread: no interval.
        let mut same = Stats::default();
        for _ in 0..3 {
            same.push(11.0);
        }
        assert_eq!(same.mean_ci95(), (11.0, (f64::NEG_INFINITY, f64::INFINITY)));
    }

    /// `s^2 / mean^2` with the sample variance: 2, 4, 4, 4, 5, 5, 7, 9 have mean 5 and
    /// `s^2` = 32/7, so 32/175 (Python's `statistics.variance / mean^2`: 0.18285714285714286).
    #[test]
    fn squared_cv_is_sample_variance_over_squared_mean() {
        let mut s = Stats::default();
        assert_eq!((s.n(), s.squared_cv()), (0, None));
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0] {
            s.push(x);
        }
        s.push(9.0);
        assert_eq!(s.n(), 8);
        let cv2 = s.squared_cv().unwrap();
        assert!((cv2 - 32.0 / 175.0).abs() < 1e-15, "{cv2}");
        // One value: none; a mean of 0: none.
        let mut one = Stats::default();
        one.push(3.0);
        assert_eq!((one.n(), one.squared_cv()), (1, None));
        let mut zero = Stats::default();
        zero.push(-1.0);
        zero.push(1.0);
        assert_eq!(zero.squared_cv(), None);
        // Two values: 1 and 3 have s^2 = 2, mean 2: 1/2.
        let mut two = Stats::default();
        two.push(1.0);
        two.push(3.0);
        assert_eq!(two.squared_cv(), Some(0.5));
    }

    /// Quasi-Poisson: `phi` times Garwood's interval of `c / phi`, outwards to whole counts
    /// (scipy's `chi2.ppf` as below); Garwood's own for `phi` unknown, at most 1 or not finite.
    #[test]
    fn overdispersed_interval_scales_garwoods() {
        let close = |(l, h): (f64, f64), (lo, hi): (f64, f64)| {
            (l - lo).abs() <= 1e-9 * lo && (h - hi).abs() <= 1e-9 * hi
        };
        // 40 / 4 = 10: 4 x [4.7954, 18.3904].
        let got = poisson_ci95_overdispersed(40, Some(4.0));
        assert!(
            close(got, (4.0 * 4.7953886961324335, 4.0 * 18.39035604201778)),
            "{got:?}"
        );
        // 42 / 4 = 10.5: the lower end from 10, the upper from 11.
        let got = poisson_ci95_overdispersed(42, Some(4.0));
        assert!(
            close(got, (4.0 * 4.7953886961324335, 4.0 * 19.682038513301954)),
            "{got:?}"
        );
        for phi in [
            None,
            Some(1.0),
            Some(0.5),
            Some(f64::INFINITY),
            Some(f64::NAN),
        ] {
            assert_eq!(
                poisson_ci95_overdispersed(3, phi),
                poisson_ci95(3),
                "{phi:?}"
            );
        }
        let got = poisson_ci95(3);
        assert!(
            close(got, (0.6186721228956014, 8.767273069742323)),
            "{got:?}"
        );
    }

    /// Against scipy: `chi2.ppf(0.025, 2c) / 2` and `chi2.ppf(0.975, 2c + 2) / 2` (Garwood), and
    /// past the exact range within the Wilson-Hilferty error stated.
    #[test]
    fn poisson_interval_is_garwoods() {
        let scipy: [(u64, f64, f64); 6] = [
            (0, 0.0, 3.6888794541139354),
            (1, 0.025317807984289876, 5.571643390938898),
            (2, 0.24220927854396496, 7.22468766772396),
            (5, 1.6234863901184207, 11.66833207932267),
            (20, 12.216519585403944, 30.8883779026746),
            (100, 81.36399125092314, 121.62679379242638),
        ];
        for (c, lo, hi) in scipy {
            let (l, h) = poisson_ci95(c);
            assert!((l - lo).abs() <= 1e-9 * lo.max(1e-300), "{c}: {l} vs {lo}");
            assert!((h - hi).abs() <= 1e-9 * hi, "{c}: {h} vs {hi}");
        }
        for (c, lo, hi) in [
            (200, 173.24088268145732, 229.72198166544987),
            (1000, 938.9730184076952, 1063.952136016302),
        ] {
            let (l, h) = poisson_ci95(c);
            assert!(
                (l / lo - 1.0).abs() < 3e-5 && (h / hi - 1.0).abs() < 3e-5,
                "{c}: {l} {h}"
            );
        }
    }
}
