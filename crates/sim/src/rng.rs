//! The portable random numbers of a run.
//!
//! xoshiro256++ (Blackman and Vigna, ACM TOMS 2021; `rand_xoshiro`) gives the same `u64` stream on
//! every platform with 64-bit operations only, so it is as cheap in wasm as natively (PCG-64's
//! 128-bit multiply is a library call in wasm: the first generator cost a run 15% there). Uniforms
//! are made here from the top 53 bits (`(x >> 11) * 2^-53`). Exponentials come from a ziggurat
//! (Marsaglia and Tsang 2000, in Doornik's form as `rand_distr::Exp1` has it): mostly a table
//! lookup and a multiply, with `ln`/`exp` only in the rare tail and wedge cases (about 2.2% of
//! draws). It is written out here, not taken from `rand_distr`, because that crate computes its
//! `ln`/`exp` through `num-traits`, which switches to the platform's `std` math whenever any crate
//! in the build enables `num-traits/std` (proptest does in tests); here the tables and the rare
//! cases use the `libm` crate, so wasm and native agree bit for bit in every build.

use std::sync::OnceLock;

use rand_core::Rng as _;
use rand_core::SeedableRng as _;
use rand_xoshiro::Xoshiro256PlusPlus;

/// One independent stream of random numbers.
#[derive(Debug, Clone)]
pub(crate) struct Stream {
    gen: Xoshiro256PlusPlus,
    zig: &'static Ziggurat,
}

/// The streams a run draws from: arrivals, the dependency's outcomes and its latency jitter are
/// kept apart so that changing one part of a scenario does not shift the others' numbers.
impl Stream {
    /// Stream number `stream` of `seed`.
    pub(crate) fn new(seed: u64, stream: u64) -> Self {
        // The 256-bit state from SplitMix64's output function iterated from a mix of seed and
        // stream (xoshiro's authors recommend SplitMix64 for seeding), so nearby seeds and
        // streams give unrelated states.
        let mut z = splitmix(seed) ^ splitmix(stream.wrapping_add(0xD1B5_4A32_D192_ED03));
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_exact_mut(8) {
            z = splitmix(z);
            chunk.copy_from_slice(&z.to_le_bytes());
        }
        Stream {
            gen: Xoshiro256PlusPlus::from_seed(bytes),
            zig: Ziggurat::exponential(),
        }
    }

    /// A uniform number in [0, 1).
    #[inline]
    pub(crate) fn uniform(&mut self) -> f64 {
        (self.gen.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An exponential number with mean 1 (ziggurat, see the module's docs).
    #[inline]
    pub(crate) fn exponential(&mut self) -> f64 {
        let z = self.zig;
        loop {
            // The low 8 bits pick a layer, the top 52 make a uniform in (0, 1).
            let bits = self.gen.next_u64();
            let i = (bits & 0xff) as usize;
            let u =
                f64::from_bits(0x3FF0_0000_0000_0000 | (bits >> 12)) - (1.0 - f64::EPSILON / 2.0);
            let x = u * z.x[i];
            if x < z.x[i + 1] {
                return x;
            }
            if i == 0 {
                // The tail beyond R is R plus an exponential (memorylessness).
                return ZIG_EXP_R - libm::log(1.0 - self.uniform());
            }
            // The wedge between the layer's rectangle and the curve.
            if z.f[i + 1] + (z.f[i] - z.f[i + 1]) * self.uniform() < libm::exp(-x) {
                return x;
            }
        }
    }
}

/// Where the exponential ziggurat's tail starts, and the area of each of its 256 layers
/// (Marsaglia and Tsang 2000, table 1).
#[allow(clippy::excessive_precision)] // the published digits
const ZIG_EXP_R: f64 = 7.697_117_470_131_049_72;
#[allow(clippy::excessive_precision)]
const ZIG_EXP_V: f64 = 0.003_949_659_822_581_557_199_3;

/// The layers' right edges `x` and the density `f = exp(-x)` there, 257 of each.
#[derive(Debug)]
struct Ziggurat {
    x: [f64; 257],
    f: [f64; 257],
}

impl Ziggurat {
    /// The exponential's tables, computed once with `libm`: `x0 = v / f(R)`, `x1 = R`,
    /// `x(i+1) = f^-1(v / x(i) + f(x(i)))`, `x256 = 0` (as rand's `ziggurat_tables.py`).
    fn exponential() -> &'static Ziggurat {
        static TABLES: OnceLock<Ziggurat> = OnceLock::new();
        TABLES.get_or_init(|| {
            let mut x = [0.0; 257];
            x[0] = ZIG_EXP_V / libm::exp(-ZIG_EXP_R);
            x[1] = ZIG_EXP_R;
            for i in 2..256 {
                x[i] = -libm::log(ZIG_EXP_V / x[i - 1] + libm::exp(-x[i - 1]));
            }
            x[256] = 0.0;
            let f = x.map(|x| libm::exp(-x));
            Ziggurat { x, f }
        })
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

    /// SplitMix64 (Vigna's splitmix64.c): from the state 0 it gives 0xe220a8397b1dcdaf,
    /// 0x6e789e6aa1b965f4, 0x06c45d188009454f; `splitmix(x)` is its output from the state `x`.
    /// (The unit tests pinned no seed's stream before: a flipped shift here passed them, and
    /// only a run's figures in the simulator's tests showed it.)
    #[test]
    fn splitmix_is_the_reference_splitmix64() {
        const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
        let firsts = [0, GAMMA, GAMMA.wrapping_mul(2)].map(splitmix);
        assert_eq!(
            firsts,
            [
                0xe220_a839_7b1d_cdaf,
                0x6e78_9e6a_a1b9_65f4,
                0x06c4_5d18_8009_454f
            ]
        );
        assert_eq!(splitmix(1_234_567), 0x599e_d017_fb08_fc85);
    }

    /// The first outputs of xoshiro256++ from the state (1, 2, 3, 4), as printed by the
    /// reference C code (prng.di.unimi.it/xoshiro256plusplus.c): the generator is the published
    /// one, so the streams do not hang on a crate's choices.
    #[test]
    fn generator_is_reference_xoshiro256plusplus() {
        let mut bytes = [0u8; 32];
        for (i, chunk) in bytes.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&(i as u64 + 1).to_le_bytes());
        }
        let mut g = Xoshiro256PlusPlus::from_seed(bytes);
        let got: Vec<u64> = (0..4).map(|_| g.next_u64()).collect();
        let published = [41943041, 58720359, 3588806011781223, 3591011842654386];
        assert_eq!(got, published);
        assert_eq!(got, reference_xoshiro(&[1, 2, 3, 4], 4));
    }

    /// A stream whose generator gives `first`, then 0, then whatever follows: with `s0 = 0`
    /// xoshiro256++'s output is `rotl(s3, 23)`, and with `s1 = s3` the next state's `s0` and
    /// `s3` are both 0, so its output is 0.
    fn stream_giving(first: u64) -> Stream {
        let s3 = first.rotate_right(23);
        let state = [0, s3, 0x0123_4567_89ab_cdef, s3];
        let mut bytes = [0u8; 32];
        for (chunk, w) in bytes.chunks_exact_mut(8).zip(state) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        assert_eq!(reference_xoshiro(&state, 2), [first, 0]);
        Stream {
            gen: Xoshiro256PlusPlus::from_seed(bytes),
            zig: Ziggurat::exponential(),
        }
    }

    /// A uniform is the generator's top 53 bits over 2^53: 0 from 0, 2^-53 from the lowest bit
    /// kept, 1/2 from the top bit, and from all ones 1 - 2^-53, the largest float under 1.
    #[test]
    fn uniform_is_the_top_53_bits_over_2_to_the_53() {
        let half_ulp = f64::EPSILON / 2.0;
        for (bits, want) in [
            (0u64, 0.0),
            ((1 << 11) - 1, 0.0),
            (1 << 11, half_ulp),
            (1 << 63, 0.5),
            (u64::MAX, 1.0 - half_ulp),
            (
                0x0123_4567_89ab_cdef,
                (0x0123_4567_89ab_cdef_u64 >> 11) as f64 * half_ulp,
            ),
        ] {
            let mut s = stream_giving(bits);
            assert_eq!(s.uniform().to_bits(), want.to_bits(), "{bits:#x}");
            // The next output is 0.
            assert_eq!(s.uniform(), 0.0);
        }
        assert!(1.0 - half_ulp < 1.0);
    }

    /// The layer's uniform is the centre of one of 2^52 cells, `(2m + 1) / 2^53` for the top 52
    /// bits `m` (so in (0, 1), never 0), and a draw inside layer `i`'s rectangle is that times
    /// `x(i)`, exactly.
    #[test]
    fn a_rectangle_draw_is_the_cell_centre_times_the_layer_edge() {
        let z = Ziggurat::exponential();
        let top = (1u64 << 52) - 1;
        for (m, i) in [
            (0u64, 0usize),
            (0, 17),
            (1, 254),
            (12345, 100),
            (top / 3, 1),
            (top / 2, 128),
        ] {
            let u = (2 * m + 1) as f64 / (1u64 << 53) as f64;
            let want = u * z.x[i];
            assert!(want < z.x[i + 1], "layer {i}, m {m} is in the rectangle");
            // Bits 8..12 are not used.
            let got = stream_giving((m << 12) | 0xa00 | i as u64).exponential();
            assert_eq!(got.to_bits(), want.to_bits(), "layer {i}, m {m}");
        }
    }

    /// A draw on the next layer's edge, `u x(i) = x(i+1)` exactly, is not in layer `i`'s
    /// rectangle (`x < x(i+1)`, as Doornik and `rand_distr` have it), and with a wedge uniform of
    /// 0 it is not under the curve either (`f(i+1) + 0 < e^-x(i+1) = f(i+1)` is false): it is
    /// rejected, and the generator's next outputs make the draw. The 52-bit `m` giving such a
    /// draw is searched for near `2^52 x(i+1) / x(i)`, layer by layer.
    #[test]
    fn a_draw_on_a_layer_edge_is_rejected() {
        let z = Ziggurat::exponential();
        let mut found = 0;
        for i in 1..255 {
            let m0 = (z.x[i + 1] / z.x[i] * (1u64 << 52) as f64) as u64;
            for m in m0 - 4..m0 + 4 {
                let u = (2 * m + 1) as f64 / (1u64 << 53) as f64;
                if u * z.x[i] != z.x[i + 1] {
                    continue;
                }
                found += 1;
                let mut s = stream_giving((m << 12) | i as u64);
                let mut rest = s.clone();
                rest.gen.next_u64();
                rest.gen.next_u64();
                let got = s.exponential();
                assert_eq!(
                    got.to_bits(),
                    rest.exponential().to_bits(),
                    "layer {i}, m {m}"
                );
                assert_ne!(got, z.x[i + 1]);
            }
        }
        // 188 such draws over the 254 layers.
        assert!(found >= 100, "{found} draws on a layer's edge");
    }

    /// xoshiro256++ written out from the paper, for the tests above.
    fn reference_xoshiro(s0: &[u64; 4], n: usize) -> Vec<u64> {
        let mut s = *s0;
        (0..n)
            .map(|_| {
                let r = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
                let t = s[1] << 17;
                s[2] ^= s[0];
                s[3] ^= s[1];
                s[1] ^= s[2];
                s[0] ^= s[3];
                s[2] ^= t;
                s[3] = s[3].rotate_left(45);
                r
            })
            .collect()
    }

    /// The same draws as `rand_distr::Exp1` (the reference ziggurat) from the same generator
    /// states, to 1e-12: the tables and the sampling step are the published ones. Only the tail
    /// (beyond R, 0.05% of draws) differs on purpose: `R - ln(1 - U)` here, never `ln 0`.
    #[test]
    fn exponential_matches_rand_distr() {
        use rand_distr::Distribution as _;
        let mut tails = 0;
        for k in 0..200_000u64 {
            let mut ours = Stream::new(k, 9);
            let mut theirs = ours.gen.clone();
            let a = ours.exponential();
            let b: f64 = rand_distr::Exp1.sample(&mut theirs);
            if a >= ZIG_EXP_R && b >= ZIG_EXP_R {
                tails += 1;
                continue;
            }
            assert!((a - b).abs() <= 1e-12 * b.max(1.0), "state {k}: {a} vs {b}");
        }
        // e^-R = 0.045% of draws are in the tail: about 90 of 200 000.
        assert!((50..150).contains(&tails), "{tails} tail draws");
    }

    /// The draws have mean 1 and variance 1 and P(X > 3) = e^-3, over a million draws
    /// (tolerances are about 5 standard errors).
    #[test]
    fn exponential_moments_and_tail() {
        let mut s = Stream::new(11, 3);
        let n = 1_000_000;
        let (mut sum, mut sq, mut over3) = (0.0, 0.0, 0u32);
        for _ in 0..n {
            let x = s.exponential();
            assert!(x >= 0.0 && x.is_finite());
            sum += x;
            sq += x * x;
            over3 += (x > 3.0) as u32;
        }
        let mean = sum / n as f64;
        let var = sq / n as f64 - mean * mean;
        assert!(
            (mean - 1.0).abs() < 5.0 * 1.0 / (n as f64).sqrt(),
            "mean {mean}"
        );
        assert!(
            (var - 1.0).abs() < 5.0 * (8.0f64).sqrt() / (n as f64).sqrt(),
            "var {var}"
        );
        let p = over3 as f64 / n as f64;
        let e3 = (-3.0f64).exp();
        let se = (e3 * (1.0 - e3) / n as f64).sqrt();
        assert!((p - e3).abs() < 5.0 * se, "P(X>3) {p}");
    }
}
