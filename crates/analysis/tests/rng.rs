//! The simulations' generator (`mc::Rng`): each draw recomputed here from the raw PCG-XSL-RR
//! 128/64 stream its docs name (`rand_pcg::Pcg64::seed_from_u64`), so a simulated figure is
//! reproducible from the seed alone, and each distribution checked by its frequencies.

use analysis::mc::Rng;
use rand_core::{Rng as _, SeedableRng};
use rand_pcg::Pcg64;

const SEEDS: [u64; 4] = [0, 1, 77, 0xdead_beef_cafe_f00d];
const TWO_M53: f64 = 1.0 / 9_007_199_254_740_992.0; // 2^-53

/// The top 53 bits of a raw draw, as an integer.
fn bits53(raw: &mut Pcg64) -> u64 {
    raw.next_u64() >> 11
}

#[test]
fn uniform_is_the_top_53_bits_plus_one_over_2_pow_53() {
    for seed in SEEDS {
        let (mut rng, mut raw) = (Rng::new(seed), Pcg64::seed_from_u64(seed));
        for _ in 0..10_000 {
            let k = bits53(&mut raw) + 1; // 1 ..= 2^53
            let u = rng.uniform_open0();
            assert_eq!(u, k as f64 * TWO_M53, "seed {seed}");
            assert!(u > 0.0 && u <= 1.0);
        }
    }
    // And it is uniform: mean 1/2, a tenth of the draws in each tenth.
    let mut rng = Rng::new(5);
    let n = 200_000;
    let mut bins = [0u32; 10];
    let mut sum = 0.0;
    for _ in 0..n {
        let u = rng.uniform_open0();
        sum += u;
        bins[((u * 10.0).ceil() as usize - 1).min(9)] += 1;
    }
    assert!(
        (sum / n as f64 - 0.5).abs() < 0.005,
        "mean {}",
        sum / n as f64
    );
    for b in bins {
        // Binomial(2e5, 0.1): sd 134.
        assert!((b as f64 - 20_000.0).abs() < 700.0, "{bins:?}");
    }
}

#[test]
fn bernoulli_is_a_uniform_in_0_1_below_p() {
    for seed in SEEDS {
        let (mut rng, mut raw) = (Rng::new(seed), Pcg64::seed_from_u64(seed));
        for i in 0..10_000 {
            let u = bits53(&mut raw) as f64 * TWO_M53; // [0, 1)
                                                       // Rates around the draw itself, so the strict comparison is exercised: at p = u the
                                                       // call succeeds (P(fail) = p exactly for p a multiple of 2^-53).
            let p = match i % 4 {
                0 => u,
                1 => u + TWO_M53,
                2 => 0.3,
                _ => 0.9,
            };
            assert_eq!(rng.bernoulli(p), u < p, "seed {seed} draw {i} p {p}");
        }
    }
    let mut rng = Rng::new(9);
    for p in [0.0, 0.01, 0.5, 0.97, 1.0] {
        let n = 100_000;
        let fails = (0..n).filter(|_| rng.bernoulli(p)).count() as f64;
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (fails - n as f64 * p).abs() <= 5.0 * sd,
            "p {p}: {fails} of {n}"
        );
    }
}

#[test]
fn geometric_counts_successes_before_a_failure() {
    // Inversion of P(G >= k) = (1-p)^k from the same uniform as `uniform_open0`.
    for seed in SEEDS {
        for p in [1e-6f64, 0.003, 0.05, 0.5, 0.999] {
            let (mut rng, mut raw) = (Rng::new(seed), Pcg64::seed_from_u64(seed));
            for _ in 0..2000 {
                let u = (bits53(&mut raw) + 1) as f64 * TWO_M53;
                let x = u.ln() / (-p).ln_1p();
                let got = rng.geometric(p) as f64;
                // std's and libm's logarithms may differ in the last bit: only at an integer.
                let near_integer = (x - x.round()).abs() <= 1e-9 * x.max(1.0);
                assert!(
                    got == x.floor() || (near_integer && (got - x).abs() <= 1.0),
                    "seed {seed} p {p}: {got} vs {x}"
                );
            }
        }
    }
    // Frequencies: P(G = 0) = p, P(G >= k) = (1-p)^k, mean (1-p)/p.
    let mut rng = Rng::new(3);
    for p in [0.02, 0.3, 0.8] {
        let n = 100_000u32;
        let draws: Vec<u64> = (0..n).map(|_| rng.geometric(p)).collect();
        let nf = n as f64;
        let mean = draws.iter().sum::<u64>() as f64 / nf;
        let want = (1.0 - p) / p;
        let sd = ((1.0 - p) / (p * p) / nf).sqrt();
        assert!(
            (mean - want).abs() < 5.0 * sd,
            "p {p}: mean {mean} vs {want}"
        );
        for k in [0u64, 1, 3] {
            let at_least = draws.iter().filter(|&&g| g > k).count() as f64 / nf;
            let q = (1.0 - p).powi(k as i32 + 1);
            let sd = (q * (1.0 - q) / nf).sqrt();
            assert!((at_least - q).abs() < 5.0 * sd + 1e-12, "p {p} k {k}");
        }
    }
}

#[test]
fn geometric_at_the_ends() {
    // A certain failure: no successes, and no draw used (the next uniform is the stream's first).
    for p in [1.0, 1.5] {
        let mut rng = Rng::new(11);
        assert_eq!(rng.geometric(p), 0);
        assert_eq!(rng.uniform_open0(), Rng::new(11).uniform_open0());
    }
    // A rate so small the count passes u64: it saturates at u64::MAX / 4 (so sums of a few stay
    // in range), whatever the draw.
    let mut rng = Rng::new(12);
    for _ in 0..100 {
        assert_eq!(rng.geometric(1e-300), u64::MAX / 4);
    }
    // Just below the saturation point it is the plain count: ln U / ln(1-p) for p = 1e-19 is
    // about 1e19 * (-ln U), below 1.8e19 when U > e^-1.8.
    let (mut rng, mut raw) = (Rng::new(13), Pcg64::seed_from_u64(13));
    let mut plain = 0;
    for _ in 0..200 {
        let u = (bits53(&mut raw) + 1) as f64 * TWO_M53;
        let g = rng.geometric(1e-19);
        let x = u.ln() / (-1e-19f64).ln_1p();
        if x < 1.79e19 {
            assert!((g as f64 / x - 1.0).abs() < 1e-12, "{g} vs {x}");
            plain += 1;
        } else if x > 1.81e19 {
            assert_eq!(g, u64::MAX / 4);
        }
    }
    assert!(plain > 100);
}
