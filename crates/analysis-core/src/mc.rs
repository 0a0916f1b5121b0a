//! The seeded generator behind every simulated figure: PCG-XSL-RR 128/64 (`rand_pcg::Pcg64`),
//! seeded with `seed_from_u64`, so runs are identical natively and in wasm.

use rand_core::{Rng as _, SeedableRng};
use rand_pcg::Pcg64;

/// A seeded portable generator with the draws the simulations need.
#[derive(Debug, Clone)]
pub struct Rng(Pcg64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(Pcg64::seed_from_u64(seed))
    }

    /// Uniform in (0, 1], 53 bits.
    pub fn uniform_open0(&mut self) -> f64 {
        ((self.0.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Bernoulli(p).
    pub fn bernoulli(&mut self, p: f64) -> bool {
        // uniform in [0, 1): fails with probability p.
        ((self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)) < p
    }

    /// Successes before the next failure when each call fails with probability `p` (> 0):
    /// `floor(ln U / ln(1-p))`, saturating.
    pub fn geometric(&mut self, p: f64) -> u64 {
        if p >= 1.0 {
            return 0;
        }
        let g = libm::floor(libm::log(self.uniform_open0()) / libm::log1p(-p));
        if g >= 1.8e19 {
            u64::MAX / 4
        } else {
            g as u64
        }
    }
}
