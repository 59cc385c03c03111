//! Stage 1 in `f64` ([`stage1`]: cells mod a period, exactly) and moving
//! coordinates by whole periods towards 0 ([`centre_in_period`], per value;
//! [`centre_pack_in_period`], in vectors), so periodic fractals repeat.

use super::periodic_cells_f32;
use crate::simd::Simd;

/// Stage 1 for one coordinate, in `f64`: the lattice cell `floor(c) mod
/// period`, its upper neighbour `(cell + 1) mod period`, and the offset
/// `c − floor(c)` rounded to `f32`. Cells are returned mod 2³² (the
/// permutation mode then reads them mod 256).
///
/// For an `f32` coordinate and the natural period this gives exactly what the
/// vector `f32` stage 1 gives: the `f64` difference is exact and rounds to the
/// same `f32`, and both cells are `floor(c)` mod the natural period exactly.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn stage1(c: f64, period: u64) -> (u32, u32, f32) {
    let floor = floor_f64(c);
    let offset = (c - floor) as f32;
    let cell = lattice_mod(floor, period);
    let next = if cell + 1 == period { 0 } else { cell + 1 };
    (cell as u32, next as u32, offset)
}

/// `c.floor()`, exactly, without the library call that `f64::floor` is on
/// targets without a rounding instruction (x86-64's baseline): the grid
/// paths take stage 1 of every sample of an axis in `f64`, and the call was
/// a third of it. Below 2⁵² the truncation through `i64` is exact, and one
/// less where it lies above `c`; from 2⁵² on every `f64` is an integer, and
/// ±inf are returned as they are and NaN as a NaN (its payload is
/// unspecified, as Rust leaves it for every float operation: LLVM may fold
/// `c + 0` to `c` there, and did on aarch64). The sign is `c`'s, so −0
/// stays −0 (and −0.5 gives −1).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn floor_f64(c: f64) -> f64 {
    /// 2⁵²: from here on every `f64` is an integer.
    const INTEGRAL: f64 = 4_503_599_627_370_496.0;
    if c.abs() < INTEGRAL {
        let t = c as i64 as f64;
        let floor = if t > c { t - 1.0 } else { t };
        floor.copysign(c)
    } else {
        c + 0.0
    }
}

/// `c` moved by a whole number of periods into [−period/2, period/2): the
/// representative of `c mod period` nearest 0 (a tie goes to −period/2).
///
/// Fractal octaves scale the coordinates this returns (`r · fᵢ + oᵢ`), so
/// that a periodic fractal repeats exactly: the result depends on the class
/// of `c` mod `period` alone (it is built from the whole part `floor(c) mod
/// period`, exact, and the fraction `c − floor(c)`, exact), so `c` and
/// `c + k·period` give the same bits even where rounding `c · fᵢ` would not.
/// It is `c` itself inside (−period/2, period/2), exact whenever |c| < 2⁵³
/// (and for an `f32` `c` below 2²⁴, exact in `f32` too: |r| ≤ |c| on the
/// same grid of representable values). NaN and ±inf are returned as they are.
#[inline]
pub(crate) fn centre_in_period(c: f64, period: u64) -> f64 {
    /// Below this magnitude `c − q·period` is exact (see below).
    const QUOTIENT_PATH: f64 = (1u64 << 50) as f64;
    // period ≤ 2⁶², so period as f64 and its half are exact.
    let p = period as f64;
    let half = p * 0.5;
    if c.abs() < half || !c.is_finite() {
        return c;
    }
    if c.abs() < QUOTIENT_PATH {
        // Here period ≤ 2|c| < 2⁵¹, so q·p is an integer below 2⁵³ (exact)
        // and c − q·p is a multiple of c's last place no larger than |c|:
        // exact. The rounded quotient can be one too large only where the
        // member is just below p/2 (then c − q·p is just above −p/2, still
        // no larger than |c|), one too small only just above −p/2; the
        // correction then lands on the member exactly.
        let q = (c / p + 0.5).floor();
        let r = c - q * p;
        return if r < -half {
            r + p
        } else if r >= half {
            r - p
        } else {
            r
        };
    }
    let floor = floor_f64(c);
    let fraction = c - floor;
    let whole = lattice_mod(floor, period);
    // whole + fraction ≥ period/2 ⇔ 2·whole ≥ period, or period is odd,
    // 2·whole + 1 = period and fraction ≥ 1/2.
    let twice = 2 * u128::from(whole);
    let upper = twice >= u128::from(period) || (twice + 1 == u128::from(period) && fraction >= 0.5);
    let whole = if upper {
        whole as i64 - period as i64
    } else {
        whole as i64
    };
    whole as f64 + fraction
}

/// [`centre_in_period`] of every lane of an `f32` pack, in vectors: the
/// same bits as `centre_in_period(f64::from(c), period) as f32`, for every
/// lane with −2²¹ < floor(c) < 2²¹; `None` (the caller then centres lane by
/// lane) if a lane is outside, NaN or ±inf, or the period is over
/// [`VECTOR_PERIOD_MAX`](super::hash::VECTOR_PERIOD_MAX).
///
/// Every operation is exact, so it gives the member itself, as
/// `centre_in_period` does (both paths are exact, so they agree):
/// - `whole = floor mod period` ([`periodic_cells_f32`], exact integers);
/// - the member is `whole + (c − floor)` less the period when
///   `whole + (c − floor) ≥ period/2`, that is when
///   `2·whole + [c − floor ≥ ½] ≥ period` (both sides integers), with
///   `[c − floor ≥ ½] = floor(2c) − 2·floor`;
/// - the member is `c − shift` with `shift = floor − whole` (a multiple of
///   the period) plus the period if upper, an integer, and the member is a
///   multiple of `c`'s last place no larger than |c|, so the subtraction is
///   exact. A zero shift is +0, so −0 stays −0 (and `c` inside
///   (−period/2, period/2) stays `c`).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn centre_pack_in_period<S: Simd>(s: S, c: S::F, period: u64) -> Option<S::F> {
    let floor = s.floor(c);
    let (whole, _) = periodic_cells_f32(s, floor, period)?;
    if period >= 1 << 22 {
        // Every lane is in [−2²¹, 2²¹) ⊆ [−period/2, period/2).
        return Some(c);
    }
    let p = s.splat(period as f32);
    let upper_half = s.floor(c + c) - (floor + floor);
    // ≥ 0 exactly when the member is whole + (c − floor) − period.
    let above = whole + whole + upper_half - p;
    let upper = s.min(s.splat(1.0), s.max(s.splat(0.0), above + s.splat(1.0)));
    let shift = (floor - whole) + upper * p;
    Some(c - shift)
}

/// `floor mod period` for an integral `floor`, exactly; 0 for NaN and ±inf.
/// `period` is at most 2⁶² (fractal octaves scale periods, saturating there).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn lattice_mod(floor: f64, period: u64) -> u64 {
    /// 2⁶³: the first magnitude `as i64` saturates at.
    const I64_RANGE: f64 = 9_223_372_036_854_775_808.0;
    if floor.abs() < I64_RANGE {
        let i = floor as i64;
        if period.is_power_of_two() {
            (i as u64) & (period - 1)
        } else {
            i.rem_euclid(period as i64) as u64
        }
    } else if floor.is_finite() {
        // fmod is exact; |floor| ≥ 2⁶³ is an integer multiple of 2¹¹.
        floor.rem_euclid(period as f64) as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::{centre_in_period, floor_f64};

    /// `floor_f64` is `f64::floor`, bit for bit (sign of zero included; a
    /// NaN gives a NaN, whose payload Rust does not specify), on the edges
    /// of its paths and on random bit patterns.
    #[test]
    fn floor_f64_is_floor() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::from_bits(1),
            -f64::from_bits(1),
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
        ];
        for e in [52, 53, 62, 63, 64] {
            let p = (e as f64).exp2();
            for v in [p, p - 0.5, p - 1.0, p + 1.0, p - 1.5] {
                values.extend([v, -v]);
            }
        }
        let mut bits = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            values.push(f64::from_bits(bits));
            // Magnitudes around the lattice: up to 2^60 in steps of 1/8.
            values.push((bits >> 4) as i64 as f64 / 8.0);
        }
        for v in values {
            if v.is_nan() {
                assert!(floor_f64(v).is_nan(), "{:#x}", v.to_bits());
                continue;
            }
            assert_eq!(
                floor_f64(v).to_bits(),
                v.floor().to_bits(),
                "{v:e} ({:#x})",
                v.to_bits()
            );
        }
    }
    use crate::simd::{Job, MAX_LANES, Simd};

    /// `centre_in_period` against exact integer arithmetic on coordinates
    /// that are multiples of 1/8 (so every result is exact): the result is
    /// the member of `c`'s class mod the period in [−period/2, period/2),
    /// ties (odd and even periods) to −period/2, `c` itself inside; far
    /// integers (beyond 2⁵³, where `floor mod period` goes through `fmod`)
    /// and the largest period; NaN and ±inf as they are.
    #[test]
    fn centre_in_period_is_the_class_member_nearest_zero() {
        for period in [1u64, 2, 3, 5, 8, 300, 65_537, 1 << 40] {
            let p8 = i128::from(period) * 8;
            for eighths in (-3 * p8 - 9..3 * p8 + 9).step_by((period as usize / 64).max(1)) {
                let c = eighths as f64 / 8.0;
                // The class member in [−p/2, p/2), in eighths: [−4p, 4p).
                let want = (eighths + 4 * p8 / 8).rem_euclid(p8) - 4 * p8 / 8;
                let got = centre_in_period(c, period);
                assert_eq!(got, want as f64 / 8.0, "c = {c}, period {period}");
            }
            let half = period as f64 / 2.0;
            assert_eq!(centre_in_period(half, period), -half, "period {period}");
            assert_eq!(centre_in_period(-half, period), -half, "period {period}");
        }
        // Beyond 2⁵³ the whole part is exact: 2⁶⁰ = 16¹⁵ ≡ 1 (mod 5).
        let c = (1u64 << 60) as f64;
        assert_eq!(centre_in_period(c, 5), 1.0); // 2⁶⁰ mod 5 = 1
        assert_eq!(centre_in_period(-c, 5), -1.0);
        assert_eq!(
            centre_in_period(1e300, 7),
            (1e300f64 % 7.0 + 3.0) % 7.0 - 3.0
        );
        let top = 1u64 << 62;
        assert_eq!(centre_in_period(-3.5, top), -3.5);
        assert_eq!(
            centre_in_period(3.0 * (1u64 << 61) as f64, top),
            -((1u64 << 61) as f64)
        );
        assert!(centre_in_period(f64::NAN, 5).is_nan());
        // Random f64s (full mantissas, 2⁻¹⁸ ≤ |c| < 2⁵⁰) and periods against
        // exact integer arithmetic in units of 2⁻⁷⁰: the member is exact.
        let mut z = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut v = z;
            v = (v ^ (v >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            v = (v ^ (v >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            v ^ (v >> 31)
        };
        for _ in 0..200_000 {
            let bits = next();
            let exponent = 1023 - 18 + bits % 68; // 2⁻¹⁸ ..= 2⁴⁹
            let c = f64::from_bits((bits & (1 << 63)) | (exponent << 52) | (next() >> 12));
            let c = if bits & 64 == 0 {
                c
            } else {
                f64::from(c as f32)
            };
            let period = match bits >> 8 & 3 {
                0 => 1 + next() % 16,
                1 => 1 + next() % 100_000,
                2 => 1 + next() % (1 << 40),
                _ => 1 << (next() % 41),
            };
            let scale = (1u128 << 70) as f64;
            let units = (c * scale) as i128; // exact: c is a multiple of 2⁻⁷⁰
            let p = i128::from(period) << 70;
            let want = (units + p / 2).rem_euclid(p) - p / 2;
            let got = centre_in_period(c, period);
            assert_eq!(got, want as f64 / scale, "c = {c:e}, period {period}");
            // The whole-part path: 2⁵⁰ ≤ |c| < 2¹⁰⁰, multiples of 2⁻², exactly.
            let big = f64::from_bits(
                (bits & (1 << 63)) | ((1023 + 50 + next() % 50) << 52) | (next() >> 12),
            );
            let big_units = (big * 4.0) as i128;
            let want = (big_units + 2 * i128::from(period)).rem_euclid(4 * i128::from(period))
                - 2 * i128::from(period);
            assert_eq!(
                centre_in_period(big, period),
                want as f64 / 4.0,
                "c = {big:e}, period {period}"
            );
            let shifted = c + period as f64;
            let shifted_units = shifted * scale;
            if shifted_units.fract() == 0.0 && shifted_units as i128 - units == p {
                assert_eq!(
                    centre_in_period(shifted, period),
                    got,
                    "c = {c:e} + {period}"
                );
            }
        }
        assert_eq!(centre_in_period(f64::INFINITY, 5), f64::INFINITY);
        assert_eq!(centre_in_period(f64::NEG_INFINITY, 5), f64::NEG_INFINITY);
    }

    /// Centres every `S::LANES` values of `values` with
    /// `centre_pack_in_period`: per pack, `None` or the lanes' bits.
    struct CentrePacks<'a> {
        values: &'a [f32],
        period: u64,
    }

    impl Job for CentrePacks<'_> {
        type Output = (usize, Vec<Option<Vec<u32>>>);
        fn run<S: Simd>(self, s: S) -> Self::Output {
            let packs = self.values.chunks_exact(S::LANES).map(|pack| {
                let centred = super::centre_pack_in_period(s, s.load(pack), self.period)?;
                let mut lanes = [0.0f32; MAX_LANES];
                s.store(centred, &mut lanes[..S::LANES]);
                Some(lanes[..S::LANES].iter().map(|v| v.to_bits()).collect())
            });
            (S::LANES, packs.collect())
        }
    }

    /// The vector centring gives `centre_in_period`'s bits (through `f64`)
    /// in every lane, at every level this CPU has, and declines a pack
    /// exactly when a lane is outside −2²¹ < floor(c) < 2²¹ (NaN and ±inf
    /// included) or the period is over 2²⁴. Values: class members around
    /// ±period/2 and their neighbouring floats (the ties), ±0, subnormals,
    /// tiny negatives (whose fraction c − floor(c) is not exact in `f32`),
    /// random full-mantissa values from 2⁻³⁰ to 2²², the range's edges,
    /// NaN and ±inf.
    #[test]
    fn centre_pack_in_period_matches_centre_in_period() {
        use crate::Level;
        use crate::simd::dispatch;
        let mut z = 0x0bad_5eed_1234_5678u64;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            z
        };
        let limit = 2_097_152.0f32; // 2²¹
        let (mut vector, mut declined) = (0usize, 0usize);
        for period in [
            1u64,
            2,
            3,
            5,
            8,
            255,
            256,
            300,
            1000,
            65_535,
            65_536,
            99_991,
            (1 << 22) - 1,
            1 << 22,
            (1 << 24) - 1,
            1 << 24,
            (1 << 24) + 1,
            1 << 40,
        ] {
            let mut values = vec![0.0f32, -0.0, f32::from_bits(1), -f32::from_bits(1)];
            values.extend([-1e-30f32, -1e-7, -0.3, 0.3, 0.5, -0.5, 0.999_999_94]);
            for k in -6i64..=6 {
                let member = (k as f64 * period as f64 / 2.0) as f32;
                values.extend([member, member.next_up(), member.next_down()]);
                values.extend([member + 0.5, member - 0.5, member + 0.25]);
            }
            for _ in 0..4000 {
                let bits = next();
                let exponent = 127 - 30 + (bits % 53) as u32; // 2⁻³⁰ ..= 2²²
                let sign = (bits as u32 >> 8) & (1 << 31);
                values.push(f32::from_bits(sign | exponent << 23 | (next() as u32 >> 9)));
            }
            // In range: pad to whole packs of every width.
            values.retain(|v| v.floor().abs() < limit);
            while values.len() % MAX_LANES != 0 {
                values.push(1.75);
            }
            let in_range = values.len();
            for edge in [
                limit,
                -limit,
                limit - 0.5,
                -limit + 1.0,
                -limit + 0.5,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1e30,
            ] {
                // One edge value per pack, in a different lane each time.
                let mut pack = [0.25f32; MAX_LANES];
                pack[values.len() / MAX_LANES % MAX_LANES] = edge;
                values.extend(pack);
            }
            let fits = |v: f32| v.floor().abs() < limit && period <= 1 << 24;
            for &level in Level::all() {
                if !level.is_available() {
                    eprintln!("centre_pack_in_period: {level} NOT tested (this CPU lacks it)");
                    continue;
                }
                let (lanes, packs) = dispatch(
                    level,
                    CentrePacks {
                        values: &values,
                        period,
                    },
                );
                for (i, (pack, got)) in values.chunks_exact(lanes).zip(&packs).enumerate() {
                    assert_eq!(
                        got.is_some(),
                        pack.iter().all(|&v| fits(v)),
                        "{level}, period {period}, pack {i}: {pack:?}"
                    );
                    assert!(got.is_some() || i * lanes >= in_range || period > 1 << 24);
                    let Some(got) = got else {
                        declined += 1;
                        continue;
                    };
                    vector += 1;
                    for (&c, &bits) in pack.iter().zip(got) {
                        let want = centre_in_period(f64::from(c), period) as f32;
                        assert_eq!(
                            bits,
                            want.to_bits(),
                            "{level}, c = {c:e}, period {period}: {} for {want}",
                            f32::from_bits(bits)
                        );
                    }
                }
            }
        }
        // Both outcomes were seen (the test is not vacuous).
        assert!(vector > 10_000 && declined > 100, "{vector} {declined}");
    }
}
