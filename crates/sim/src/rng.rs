//! The portable random numbers of a run.
//!
//! PCG-64 (`Lcg128Xsl64`, O'Neill 2014) gives the same `u64` stream on every platform. Uniforms
//! are made here from the top 53 bits (`(x >> 11) * 2^-53`), and exponentials by inversion with
//! `libm::log`, so a run does not depend on how a `rand` version maps bits to floats.

use rand_core::Rng as _;
use rand_pcg::Pcg64;

/// One independent stream of random numbers.
#[derive(Debug, Clone)]
pub(crate) struct Stream {
    pcg: Pcg64,
}

/// The streams a run draws from: arrivals, the dependency and the window breaker's own jitter are
/// kept apart so that changing one part of a scenario does not shift the others' numbers.
impl Stream {
    /// Stream number `stream` of `seed`.
    pub(crate) fn new(seed: u64, stream: u64) -> Self {
        // Spread the 64-bit seed over the 128-bit state with two SplitMix64 rounds, so that
        // nearby seeds give unrelated streams.
        let a = splitmix(seed);
        let b = splitmix(a ^ 0x9E37_79B9_7F4A_7C15);
        let state = ((a as u128) << 64) | b as u128;
        Stream {
            pcg: Pcg64::new(state, stream as u128),
        }
    }

    /// A uniform number in [0, 1).
    #[inline]
    pub(crate) fn uniform(&mut self) -> f64 {
        (self.pcg.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An exponential number with mean 1.
    #[inline]
    pub(crate) fn exponential(&mut self) -> f64 {
        -libm::log(1.0 - self.uniform())
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_in_range_and_repeatable() {
        let mut a = Stream::new(7, 1);
        let mut b = Stream::new(7, 1);
        for _ in 0..1000 {
            let x = a.uniform();
            assert!((0.0..1.0).contains(&x));
            assert_eq!(x.to_bits(), b.uniform().to_bits());
        }
        let mut c = Stream::new(7, 2);
        assert_ne!(Stream::new(7, 1).uniform(), c.uniform());
    }
}
