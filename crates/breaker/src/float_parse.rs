//! Decimal text to `f64`, without the standard library's parser.
//!
//! [`parse_f64`] accepts exactly the text `str::parse::<f64>` accepts and gives the same `f64`
//! for it, to the last bit: both round correctly (to nearest, ties to even), so they cannot
//! differ. The standard library's parser is built for speed (the Eisel-Lemire algorithm and its
//! 10 KB table of 128-bit powers of five, plus a decimal fallback); in the page's wasm it was
//! 18 KB of code and data (15 KB gzip) for reading settings such as `"5%"` or `"200ms"` and the
//! command line's numbers. This one is about 4 KB (1.5 KB gzip). The common case (at most 15
//! digits and a power of ten up to 22) is one exact multiplication or division, which IEEE
//! arithmetic rounds correctly (Clinger 1990); every other number is divided out exactly in big
//! integers unless it has at most 19 digits and a power of ten from -13 to 27 (then a few
//! 64-bit divisions, as for trace times such as `1733050000.123456789`). No hot path parses. The unit
//! tests compare it with `str::parse` on edge cases, halfway points and many random numbers.
//! (minimal-lexical, a small correct parser of nom's, with its `compact` feature, measured 3.1
//! KB gzip more in the page's wasm.)

use std::cmp::Ordering;

/// `s` as an `f64`, as `s.parse::<f64>().ok()` gives it: an optional sign, then digits with an
/// optional point (at least one digit), an optional exponent (`e` or `E`, an optional sign, at
/// least one digit), or `inf`, `infinity` or `nan` in any case; no spaces.
pub fn parse_f64(s: &str) -> Option<f64> {
    let (negative, s) = match s.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        rest => (false, rest),
    };
    let x = match number(s) {
        Some(x) => x,
        None if s.eq_ignore_ascii_case(b"inf") || s.eq_ignore_ascii_case(b"infinity") => {
            f64::INFINITY
        }
        None if s.eq_ignore_ascii_case(b"nan") => f64::NAN,
        None => return None,
    };
    Some(if negative { -x } else { x })
}

/// Most significant digits kept. Every halfway point between two `f64`s has at most 768, so
/// digits past the 800th only need to say whether any of them is not zero (see [`number`]).
const MAX_DIGITS: usize = 800;

/// `s` as a whole number, when it spells one from 0 to `u64::MAX` exactly in any form
/// [`parse_f64`] reads (`1e3`, `7.0`, `+100e-2`, `1.8446744073709551615e19`), worked out from the
/// digits, never through a double (which takes `5.0000000000000001` for 5, and `2^53 + 1` for
/// `2^53`). `None` for a fraction, a number past `u64::MAX`, a minus sign (a count takes none),
/// `inf`, `nan`, or text that is not a number.
///
/// (The exponent is read as [`parse_f64`] and the standard library read it: its digits stop
/// being added once it reaches 65536. Only text of 65 kB or more, whose digits bring an
/// exponent past that back to a whole number, is read otherwise than it says.)
pub fn parse_whole(s: &str) -> Option<u64> {
    let (digits, exp) = decimal(s.strip_prefix('+').unwrap_or(s).as_bytes())?;
    if digits.is_empty() {
        return Some(0);
    }
    // The digits left of the point. The first digit is not zero: with none left of the point
    // the number is below 1, with more than 20 it is at least 10^20, past u64::MAX.
    let point = digits.len() as i64 + exp;
    if !(1..=20).contains(&point) || digits.iter().skip(point as usize).any(|&d| d != 0) {
        return None;
    }
    (0..point as usize).try_fold(0u64, |n, i| {
        n.checked_mul(10)?
            .checked_add(u64::from(digits.get(i).copied().unwrap_or(0)))
    })
}

/// The message for the whole number `n` written as `shown`, with a point or an exponent, where
/// `what` (`a count`, `a seed`) is written as a whole number: `a seed is written as a whole
/// number, without a fraction or exponent (1000, not 1e3)`. One wording for the settings and the
/// command line's flags.
pub fn spelt_whole(what: &str, n: u64, shown: &str) -> String {
    format!(
        "{what} is written as a whole number, without a fraction or exponent ({n}, not {shown})"
    )
}

/// A number without its sign, or `None` if `s` is not one.
fn number(s: &[u8]) -> Option<f64> {
    decimal(s).map(|(digits, exp)| value(&digits, exp))
}

/// A number without its sign as `(digits, exp)`, its value `digits x 10^exp` with `digits`
/// (each 0 to 9) without leading zeros; `None` if `s` is not one. Past the 800th digit only
/// whether any is not zero is kept (as a 1 after the kept digits).
fn decimal(s: &[u8]) -> Option<(Vec<u8>, i64)> {
    // The value is `digits x 10^exp`, `digits` without leading zeros.
    let mut digits: Vec<u8> = Vec::new();
    let mut exp: i64 = 0;
    let mut seen = false;
    let mut rest_nonzero = false;
    let mut i = 0;
    let mut after_point = false;
    while i < s.len() {
        match s[i] {
            b'.' if !after_point => after_point = true,
            c @ b'0'..=b'9' => {
                seen = true;
                let d = c - b'0';
                if digits.len() < MAX_DIGITS {
                    if d != 0 || !digits.is_empty() {
                        digits.push(d);
                    }
                    exp -= i64::from(after_point);
                } else {
                    rest_nonzero |= d != 0;
                    exp += i64::from(!after_point);
                }
            }
            _ => break,
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if let Some(b'e' | b'E') = s.get(i) {
        i += 1;
        let negative = s.get(i) == Some(&b'-');
        if matches!(s.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut e: i64 = 0;
        while let Some(c @ b'0'..=b'9') = s.get(i) {
            // The standard library stops adding digits once the exponent reaches 0x10000 (far
            // past any f64), so an exponent of any length reads as it does there.
            if e < 0x10000 {
                e = 10 * e + i64::from(c - b'0');
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        exp += if negative { -e } else { e };
    }
    if i != s.len() {
        return None;
    }
    if rest_nonzero {
        // A 1 past the kept digits: between them and the next 800-digit number, as the dropped
        // digits are, and never on a halfway point.
        digits.push(1);
        exp -= 1;
    }
    Some((digits, exp))
}

/// `digits x 10^exp` rounded to the nearest `f64` (ties to even); `digits` has no leading zero.
fn value(digits: &[u8], exp: i64) -> f64 {
    // Below 10^-324 (under half the least subnormal) or at least 10^310 (past the largest f64).
    let magnitude = digits.len() as i64 + exp;
    if digits.is_empty() || magnitude < -324 {
        return 0.0;
    }
    if magnitude > 310 {
        return f64::INFINITY;
    }
    // Both the digits (below 2^53) and the power of ten are exact, so IEEE rounds the one
    // operation correctly.
    if digits.len() <= 15 && (-22..=22).contains(&exp) {
        let d = digits.iter().fold(0u64, |n, &c| 10 * n + u64::from(c)) as f64;
        let p = (0..exp.unsigned_abs()).fold(1.0, |p, _| p * 10.0);
        return if exp < 0 { d / p } else { d * p };
    }
    // At most 19 digits (below 2^64) and a small power of ten: `digits x 10^exp` from 64-bit
    // integer steps and one conversion, which rounds correctly; scaling by a power of two is
    // exact here (far from the subnormals and the largest f64). Trace times such as
    // `1733050000.123456789` take this path: about 80 ns, against 1.1 us below. Only 64-bit
    // operations, so the wasm gets no 128-bit division or multiplication routines.
    if digits.len() <= 19 && (-13..=27).contains(&exp) {
        let m = digits.iter().fold(0u64, |n, &c| 10 * n + u64::from(c));
        let p5 = 5u64.pow(exp.unsigned_abs() as u32);
        if exp >= 0 {
            // `digits x 5^exp x 2^exp`, when `digits x 5^exp` fits 64 bits.
            if let Some(x) = m.checked_mul(p5) {
                return x as f64 * pow2(exp);
            }
        } else {
            // `q = floor(m x 2^(s+64) / 5^-exp)`, `m x 2^s` with its top bit set, divided
            // 32 bits at a time (`5^13 < 2^31`, so no step overflows): 97 to 126 bits. Its top
            // 64 with a sticky bit for a remainder convert as the exact quotient would. Nothing
            // else lies below them: when the division is exact, `m / 5^-exp` is an integer below
            // 2^64, all of it in the top 64 bits.
            let s = m.leading_zeros();
            let top = m << s;
            let (mut r, mut q) = (0u64, [0u64; 4]);
            for (qi, c) in q.iter_mut().zip([top >> 32, top & 0xffff_ffff, 0, 0]) {
                let cur = r << 32 | c;
                (*qi, r) = (cur / p5, cur % p5);
            }
            let (hi, lo) = (q[0] << 32 | q[1], q[2] << 32 | q[3]);
            let lz = hi.leading_zeros(); // 2 to 31, by the bits of `q`
            let bits = (hi << lz | lo >> (64 - lz)) | u64::from(r != 0);
            return bits as f64 * pow2(exp - i64::from(lz + s));
        }
    }
    // The value is `num / den` exactly, in big integers.
    let mut num = Big::default();
    for &d in digits {
        num.mul_add(10, u32::from(d));
    }
    let mut den = Big::default();
    den.mul_add(1, 1);
    for _ in 0..exp.unsigned_abs() {
        if exp < 0 { &mut den } else { &mut num }.mul_add(10, 0);
    }
    // `q = floor(num x 2^s / den)` has 54 or 55 bits, or fewer when `2^-s` reaches below the
    // half of the least subnormal's last bit (2^-1075).
    let s = (54 - (num.bits() - den.bits())).min(1075);
    let (num, den) = if s >= 0 {
        (num.shl(s as usize), den)
    } else {
        (num, den.shl(s.unsigned_abs() as usize))
    };
    let (q, exact) = num.div(&den);
    // Keep 53 bits, with the last bit's weight no less than 2^-1074 (a subnormal's).
    let shift = (64 - i64::from(q.leading_zeros()) - 53).max(s - 1074) as u32;
    let mut m = q >> shift;
    let half = (q >> (shift - 1)) & 1 == 1;
    let below = q & ((1 << (shift - 1)) - 1) != 0 || !exact;
    if half && (below || m & 1 == 1) {
        m += 1;
    }
    let mut e2 = i64::from(shift) - s;
    if m == 1 << 53 {
        m >>= 1;
        e2 += 1;
    }
    if m < 1 << 52 {
        // A subnormal (or zero): its last bit weighs 2^-1074.
        return f64::from_bits(m);
    }
    let biased = e2 + 1075;
    if biased >= 2047 {
        return f64::INFINITY;
    }
    f64::from_bits(((biased as u64) << 52) | (m & ((1 << 52) - 1)))
}

/// `2^k` for a `k` whose power is a normal `f64` (here within -108..=27).
fn pow2(k: i64) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// A non-negative big integer: 32-bit limbs, least significant first, no zero limb on top.
#[derive(Default, Clone)]
struct Big(Vec<u32>);

impl Big {
    /// `self x m + add`.
    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = u64::from(add);
        for x in &mut self.0 {
            let t = u64::from(*x) * u64::from(m) + carry;
            *x = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// The number of bits, to the highest 1.
    fn bits(&self) -> i64 {
        self.0.last().map_or(0, |top| {
            32 * self.0.len() as i64 - i64::from(top.leading_zeros())
        })
    }

    /// `self x 2^n`.
    fn shl(&self, n: usize) -> Big {
        let (limbs, b) = (n / 32, n % 32);
        let mut out = vec![0; limbs];
        let mut carry = 0;
        for &x in &self.0 {
            out.push(x << b | carry);
            carry = if b == 0 { 0 } else { x >> (32 - b) };
        }
        if carry > 0 {
            out.push(carry);
        }
        Big(out)
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self - other`, for `other <= self`.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0;
        for (i, x) in self.0.iter_mut().enumerate() {
            let (d, b1) = x.overflowing_sub(other.0.get(i).copied().unwrap_or(0));
            let (d, b2) = d.overflowing_sub(borrow);
            *x = d;
            borrow = u32::from(b1 || b2);
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// `floor(self / den)` for a quotient below 2^55, and whether the division is exact.
    fn div(mut self, den: &Big) -> (u64, bool) {
        let mut q = 0;
        for bit in (0..55).rev() {
            let d = den.shl(bit);
            if self.cmp(&d) != Ordering::Less {
                self.sub(&d);
                q |= 1 << bit;
            }
        }
        (q, self.0.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_f64, parse_whole};

    /// A fixed linear congruential sequence (Knuth's MMIX constants): `next(n)` is below `n`,
    /// from the state's top 31 bits.
    fn lcg(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        }
    }

    fn same(s: &str) {
        let ours = parse_f64(s);
        let std = s.parse::<f64>().ok();
        assert_eq!(
            ours.map(f64::to_bits),
            std.map(f64::to_bits),
            "{s:?}: {ours:?} vs {std:?}"
        );
    }

    #[test]
    fn syntax_as_std() {
        for s in [
            "",
            "+",
            "-",
            ".",
            "e",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "1.e5",
            ".5",
            "5.",
            "+.5",
            "-5.",
            "1..2",
            "1.2.3",
            "1e5.5",
            "1e5e5",
            " 1",
            "1 ",
            "+-1",
            "--1",
            "0x10",
            "1_000",
            "inf",
            "-inf",
            "+inf",
            "INF",
            "Infinity",
            "-infinity",
            "infin",
            "nan",
            "NaN",
            "-nan",
            "+NAN",
            "nan1",
            "1nan",
            "١",
            "1\u{0}",
            "00",
            "-0",
            "+0.000",
            "0e999999999999",
            "1e-999999999999999999999",
            "1e999999999999999999999",
            "007",
            "0.0e0",
            "1E5",
            "1E+05",
            "1e-05",
            "12345678901234567890",
            "0.000000000000000000000000000001",
        ] {
            same(s);
        }
    }

    #[test]
    fn edges_as_std() {
        for s in [
            "0.1", "0.2", "0.3", "0.35", "1e-2", "35e-2", "5e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "2.47032822920623272e-324", "4.9406564584124654e-324",
            "2.2250738585072011e-308", "2.2250738585072014e-308", "2.225073858507201136e-308",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "1.797693134862315807e308", "1e308", "1e309", "1e-323", "1e-324", "1e-325",
            "9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000001",
            "123456789012345678901234567890e-40", "1e22", "1e23", "1e-22", "1e-23",
            "8.98846567431158e307", "4.4501477170144023e-308", "0.5e-323", "7.4e-324",
            "2.2250738585072012e-308", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
        ] {
            same(s);
            same(&format!("-{s}"));
        }
        // Halfway points with many digits, just below, on and just above.
        let long =
            "4.4501477170144022721148195934182639518696390927032912960468522194496444440421538\
                    910330590478162701758282983178260792422137401728773891892910553144148156412434\
                    867599762821265346585071045737627442980259622449029037796981144446145705102663\
                    115100318287949527959668236039986479250965780342141637013812613333119898765515\
                    451440315261253813266652951306000184917766328660755595837392240989947807556594\
                    098101021612198814605258742579179000071675999344145086087205681577915435923018\
                    910334964869420614052182892431445797605163650903606514140377217442262561590244\
                    668525767372446430075513332450079650686719491377688478005309963967709758965844\
                    137894433796621993967316936280457084866613206797017728916080020698679408551343\
                    728867675409720757232455434770912461317493580281734466552734375e-308";
        for tail in ["", "0", "00001", "1"] {
            same(&format!("{long}{tail}"));
        }
        same(&long.replace("375e-308", "374999999999999999999e-308"));
        same(&long.replace("375e-308", "37500000000000000000000000000000000000001e-308"));
        // Past 800 digits: only whether a dropped digit is not zero matters.
        same(&format!("1{}e-800", "0".repeat(900)));
        same(&format!("1{}1e-901", "0".repeat(900)));
        same(&format!("9007199254740993{}", "0".repeat(1000)));
        same(&format!("0.{}9007199254740993e1020", "0".repeat(1000)));
        // A halfway point whose tail past the kept digits decides: rounded up only for a
        // non-zero dropped digit (the 1 the sticky rule adds; without it these round down).
        // (The digits dropped before the point count in the exponent: `e-801` brings these
        // back to 2^53 + 1 and a little.)
        same(&format!("9007199254740993{}1e-801", "0".repeat(800)));
        same(&format!("9007199254740993.{}1", "0".repeat(1000)));
        // ... and dropped digits that are all zero leave it on the halfway point (ties to even:
        // down), before the point or after it.
        same(&format!("9007199254740993{}e-801", "0".repeat(801)));
        same(&format!("9007199254740993.{}", "0".repeat(1000)));
        // Exponents saturate as the standard library's do, far past any f64, whatever the
        // digits before them move the value by.
        same(&format!("0.{}1e700010", "0".repeat(70000)));
        same(&format!("0.{}1e700000", "0".repeat(70000)));
        same(&format!("1{}e-700010", "0".repeat(70000)));
        // An exponent that reaches 0x10000 exactly stops there (1.0, not infinity).
        same(&format!("0.{}1e655360", "0".repeat(65535)));
    }

    #[test]
    fn nineteen_digit_path_as_std() {
        // Exact halfway points between two f64s with at most 19 digits (`k / 2^j` for an odd
        // `k` just past 2^53 or 2^54: `k x 5^j` with the point `j` places from the right),
        // and their neighbours in the last digit: ties go to even, the rest to the nearer.
        for k in [
            (1u128 << 53) + 1,
            (1 << 53) + 3,
            (1 << 54) + 1,
            (1 << 54) + 6001,
        ] {
            for j in 0..=6u32 {
                let digits = (k * 5u128.pow(j)).to_string();
                for d in [
                    digits.clone(),
                    (k * 5u128.pow(j) - 1).to_string(),
                    (k * 5u128.pow(j) + 1).to_string(),
                ] {
                    let (int, frac) = d.split_at(d.len() - j as usize);
                    same(&format!("{int}.{frac}"));
                    same(&format!("{d}e-{j}"));
                    same(&format!("0.{d}e{}", d.len() as u32 - j));
                }
            }
        }
        // Within 2^-63 of a halfway point, above and below (`m x 2^34 = c x 10^13 + 2^13 x u`
        // for an odd `c` of 54 bits and the least `u` either way): the top 64 bits of the
        // quotient read as a tie, and only the bits under them say which way to round.
        for c in [
            (1u128 << 53) + 1,
            (1 << 53) + 3,
            (1 << 53) + 5,
            (1 << 53) + 7,
        ] {
            let p = c * 5u128.pow(13);
            let u = (1u128 << 21) - p % (1 << 21);
            for n in [p + u, p + u - (1 << 21)] {
                same(&format!("{}e-13", n >> 21));
            }
        }
        // Times as traces write them, and the path's edges (19 and 20 digits, 10^-13 and -14,
        // 10^27 and 28, products just within and past 64 bits).
        for s in [
            "1733050000.123456789",
            "1733050000.999999999",
            "86399.999999999999",
            "0.1234567890123456789",
            "9999999999999999999",
            "18446744073709551615",
            "9999999999999999999e27",
            "9999999999999999999e-27",
            "1234567890123456789e28",
            "1234567890123456789e-28",
            "9999999999999999999e-13",
            "9999999999999999999e-14",
            "1e-13",
            "1e-14",
            "3e-13",
            "18446744073709551615e-13",
            "3689348814741910323e1",
            "3689348814741910324e1",
            "1e-27",
            "1e27",
            "3e-27",
            "7e26",
            "1.000000000000000000e-27",
        ] {
            same(s);
        }
        // Random mantissas of up to 19 digits with every exponent the path takes, and one past.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..200_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = seed % 10_000_000_000_000_000_000;
            let m = m >> (seed >> 58); // some short ones, so that positive powers fit 64 bits
            let e = (seed >> 40) % 44;
            same(&format!("{m}e{}", e as i64 - 14));
        }
    }

    #[test]
    fn random_as_std() {
        // Digits, points and exponents of every size.
        let mut next = lcg(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let long = next(4) == 0;
            let len = 1 + next(if long { 40 } else { 20 });
            let mut s: String = (0..len)
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            if next(2) == 0 {
                s.insert(next(len + 1) as usize, '.');
            }
            if next(3) > 0 {
                s.push_str(&format!("e{}", next(700) as i64 - 350));
            }
            same(&s);
        }
        // Every f64's shortest text and its neighbours' halfway points.
        for _ in 0..100_000 {
            let x = f64::from_bits((next(1 << 31) << 32 | next(1 << 32)) & !(1 << 63));
            if x.is_finite() {
                same(&format!("{x:e}"));
                same(&format!("{x:.25e}"));
                same(&format!("{x:.40e}"));
            }
        }
    }

    #[test]
    fn whole_numbers_from_their_digits() {
        let max = u64::MAX;
        for (s, want) in [
            ("0", Some(0)),
            ("+0", Some(0)),
            ("000", Some(0)),
            ("0.000e7", Some(0)),
            ("0e99999999999", Some(0)),
            ("7.0", Some(7)),
            ("1e3", Some(1000)),
            ("+100e-2", Some(1)),
            ("12.5e1", Some(125)),
            (".5e1", Some(5)),
            ("5.", Some(5)),
            ("9007199254740993.0", Some(9007199254740993)),
            ("18446744073709551615", Some(max)),
            ("18446744073709551615.000", Some(max)),
            ("1.8446744073709551615e19", Some(max)),
            ("184467440737095516150e-1", Some(max)),
            ("18446744073709551616", None),
            ("1.8446744073709551616e19", None),
            ("1e20", None),
            ("1e99999999999", None),
            ("5.0000000000000001", None),
            ("12.5", None),
            ("1e-400", None),
            ("0.5", None),
            ("-0", None),
            ("-1e3", None),
            ("++1", None),
            ("1e", None),
            (".", None),
            ("", None),
            ("0x10", None),
            ("inf", None),
            ("nan", None),
            (" 1", None),
        ] {
            assert_eq!(parse_whole(s), want, "{s:?}");
        }
        // Long text: 10^900 x 10^-900 is 1; a nonzero digit there is a fraction.
        let zeros = "0".repeat(900);
        assert_eq!(parse_whole(&format!("1{zeros}e-900")), Some(1));
        assert_eq!(parse_whole(&format!("1.{zeros}")), Some(1));
        assert_eq!(parse_whole(&format!("1.{zeros}1")), None);
        assert_eq!(parse_whole(&format!("1{zeros}1e-901")), None);
    }

    #[test]
    fn whole_numbers_in_every_spelling() {
        // Each number spelt with its point moved by the exponent and zeros added at either end
        // reads back as itself; with a nonzero digit after it, or past u64::MAX, as none.
        let mut next = lcg(0x9e37_79b9_7f4a_7c15);
        for i in 0..100_000 {
            let n = match i % 3 {
                0 => next(1000),
                // (`next` gives 31 bits: three draws cover all 64.)
                1 => next(1 << 31) << 33 ^ next(1 << 31) << 2 ^ next(4),
                _ => u64::MAX - next(1000),
            };
            // n with `lead` zeros before and `t` after, the point `k` places from the end, and
            // the exponent `k - t` that makes the value n again.
            let (lead, t) = (next(3) as usize, next(3) as usize);
            let digits = format!("{}{n}{}", "0".repeat(lead), "0".repeat(t));
            let k = next(digits.len() as u64 + 1) as usize;
            let (int, frac) = digits.split_at(digits.len() - k);
            let exp = k as i64 - t as i64;
            let e = if exp == 0 && next(2) == 0 {
                String::new()
            } else {
                format!("e{exp}")
            };
            let s = format!("{int}.{frac}{e}");
            assert_eq!(parse_whole(&s), Some(n), "{s:?}");
            if k == 0 {
                let bare = format!("{int}{e}");
                assert_eq!(parse_whole(&bare), Some(n), "{bare:?}");
            }
            // A nonzero digit after the last: n + d x 10^(-t-1), not whole.
            let fraction = format!("{int}.{frac}{}{e}", 1 + next(9));
            assert_eq!(parse_whole(&fraction), None, "{fraction:?}");
            let past = (u128::from(u64::MAX) + 1 + u128::from(n)).to_string();
            assert_eq!(parse_whole(&past), None, "{past:?}");
        }
    }
}
