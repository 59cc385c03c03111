//! [`CoordinatesMode`], the default mode: each corner's hash from its whole
//! 32-bit cells and the seed (the definition is in the `hash` module
//! docs), its gradients by the hash's top bits, and the cells of a pack.

use super::super::{Axis, GRAD1};
use super::gradients::{DIAGONAL_COMPONENT, GRAD2};
use super::periodic::periodic_cells32;
use super::{HashModeKernel, gradient_dot, splat_part};
use crate::simd::Simd;

/// The coordinates mode (see the `hash` module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct CoordinatesMode;

/// Odd multipliers per axis (xxHash's 32-bit primes 1 to 4).
pub(crate) const AXIS_PRIMES: [u32; 4] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F];
/// The multiplier of the final mix (xxHash's 32-bit prime 5).
pub(crate) const FINAL_PRIME: u32 = 0x1656_67B1;

/// `2 / (2²⁴ − 1)` in `f32`: the top 24 bits `t` of a hash give height
/// `t · HEIGHT_SCALE − 1` (0 → −1, 2²⁴ − 1 → 1).
pub(crate) const HEIGHT_SCALE: f32 = 2.0 / 16_777_215.0;

/// The sign of each component of a diagonal gradient (3D, 4D) at the top
/// of a lane: component `a` is negative when bit `a` of the index (the
/// hash's top `D` bits), bit `32 − D + a` of the hash, is set; doubling
/// moves it up a place.
#[cfg_attr(not(debug_assertions), inline(always))]
fn diagonal_signs<S: Simd, const D: usize>(s: S, h: S::UP) -> [S::UP; D] {
    // Opaque, `h`'s doubles stay additions (the optimiser would fold them
    // into the hash's final multiply as second multiplies).
    let mut signs = [s.opaque_up(h); D];
    for a in (0..D - 1).rev() {
        signs[a] = s.add_u32(signs[a + 1], signs[a + 1]);
    }
    signs
}

/// The odd multiplier of axis `a` (`PRIME[a]` in the `hash` module docs):
/// [`AXIS_PRIMES`] for the first four axes; for axis 4 and up (noise in
/// more dimensions), the high half of SplitMix64's finaliser (shifts 30,
/// 27, 31) of `a · 0x9E3779B97F4A7C15`, made odd.
pub(crate) const fn axis_multiplier(a: usize) -> u32 {
    if a < 4 {
        return AXIS_PRIMES[a];
    }
    let mut z = (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 32) as u32 | 1
}

/// `key_a(c)` for part lanes `c` on axis `a` (see the `hash` module docs):
/// `m ^ (m >> a)` with `m = c · PRIME[a]` (`m` on axis 0), for any axis
/// below 32.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn axis_key<S: Simd>(s: S, c: S::UP, a: usize) -> S::UP {
    let m = s.mul_u32(c, s.splat_u32(axis_multiplier(a)));
    /// `m ^ (m >> a)` with the shift a constant in each arm.
    macro_rules! shifted {
        ($($n:literal)*) => {
            match a {
                0 => m,
                $($n => s.xor_u32(m, s.shr_u32::<$n>(m)),)*
                _ => s.xor_u32(m, s.shr_u32::<31>(m)),
            }
        };
    }
    shifted!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30)
}

/// The final mix of a corner's combined keys.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn finish<S: Simd>(s: S, v: S::UP) -> S::UP {
    finish_folded(s, fold(s, v))
}

/// The first half of [`finish`], `v ^ (v >> 16)`. It is linear over xor
/// (`fold(a ^ b) = fold(a) ^ fold(b)`), so a kernel that walks corners by
/// xoring key changes can fold the changes once and walk folded keys.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn fold<S: Simd>(s: S, v: S::UP) -> S::UP {
    s.xor_u32(v, s.shr_u32::<16>(v))
}

/// The second half of [`finish`], of a [`fold`]ed key.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn finish_folded<S: Simd>(s: S, folded: S::UP) -> S::UP {
    s.mul_u32(folded, s.splat_u32(FINAL_PRIME))
}

/// The scalar definition of [`CoordinatesMode`]: the hash of the corner with
/// cells `cells` under seed key `seed` (the kernels' oracle in tests).
#[cfg(test)]
pub(crate) fn coordinate_hash(seed: u32, cells: &[u32]) -> u32 {
    let mut v = seed;
    for (a, &c) in cells.iter().enumerate() {
        let m = c.wrapping_mul(axis_multiplier(a));
        v ^= if a == 0 { m } else { m ^ (m >> a) };
    }
    (v ^ (v >> 16)).wrapping_mul(FINAL_PRIME)
}

impl HashModeKernel for CoordinatesMode {
    const NATURAL_PERIOD: u64 = 1 << 32;
    /// The seed key on every lane.
    type Ready<'a, S: Simd> = S::UP;
    type Cell<S: Simd> = S::U;
    type PackWork<S: Simd> = [(S::U, S::U); 4];
    type Part<S: Simd> = S::UP;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells<S: Simd>(s: S, floored: S::F) -> (S::U, S::U) {
        let (c0, exact) = s.cells32(floored);
        let c0 = if exact { c0 } else { cells_by_lane(s, floored) };
        (c0, s.next_u32(c0))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn staged<S: Simd>(s: S, c0: &[u32], c1: &[u32]) -> (S::U, S::U) {
        (s.load_u32(c0), s.load_u32(c1))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_cells<S: Simd>(s: S, c0: u32, c1: u32) -> (S::U, S::U) {
        let lanes = [[c0; crate::simd::MAX_LANES], [c1; crate::simd::MAX_LANES]];
        (s.load_u32(&lanes[0]), s.load_u32(&lanes[1]))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn periodic_cells<S: Simd>(s: S, floored: S::F, period: u64) -> Option<(S::U, S::U)> {
        periodic_cells32(s, floored, period)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pack_work<S: Simd, const D: usize>(
        _: S,
        _: &S::UP,
        cells: &[(S::U, S::U); D],
    ) -> [(S::U, S::U); 4] {
        let mut all = [cells[0]; 4];
        all[..D].copy_from_slice(cells);
        all
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_hashes_of_axes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        seed: &S::UP,
        _: &[(S::U, S::U); 4],
        axes: &[Axis<S, Self>; D],
        k: usize,
    ) -> [S::UP; 16] {
        let mut cells = [(s.splat_u32(0), s.splat_u32(0)); D];
        for (cell, axis) in cells.iter_mut().zip(axes) {
            let lower = s.u32_part_ref(&axis.c0, k);
            let upper = if NEXT {
                s.add_u32(lower, s.splat_u32(1))
            } else {
                s.u32_part_ref(&axis.c1, k)
            };
            *cell = (lower, upper);
        }
        Self::corner_hashes::<S, D>(s, seed, &cells)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_hashes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        seed: &S::UP,
        pack: &[(S::U, S::U); 4],
        k: usize,
    ) -> [S::UP; 16] {
        let mut cells = [(s.splat_u32(0), s.splat_u32(0)); D];
        for (cell, &(c0, c1)) in cells.iter_mut().zip(pack) {
            let lower = s.u32_part(c0, k);
            let upper = if NEXT {
                s.add_u32(lower, s.splat_u32(1))
            } else {
                s.u32_part(c1, k)
            };
            *cell = (lower, upper);
        }
        Self::corner_hashes::<S, D>(s, seed, &cells)
    }

    /// 1D: the 16 slopes by the top 4 bits; 2D and 3D: 8 gradients by the
    /// top 3; 4D: 16 by the top 4.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn gradient<S: Simd, const D: usize>(s: S, h: S::UP) -> [S::P; D] {
        let mut g = [splat_part(s, 0.0); D];
        match D {
            1 => g[0] = s.top16(&GRAD1, h),
            2 => {
                for a in 0..2 {
                    g[a] = s.top8(&GRAD2[a], h);
                }
            }
            _ => {
                let signs = diagonal_signs::<S, D>(s, h);
                let m = DIAGONAL_COMPONENT[D];
                let (plus, minus) = (splat_part(s, m), splat_part(s, -m));
                for a in 0..D {
                    g[a] = s.top2([plus, minus], signs[a]);
                }
            }
        }
        g
    }

    /// 3D and 4D: each component `±m` of the gradient is a blend by one
    /// bit of the hash ([`Self::gradient`]), then multiplied. (Both products
    /// `m·c` and `(−m)·c` of each offset made once per part and blended
    /// instead: 48 fewer multiplies per AVX2 pack, but the twelve products
    /// overflow the registers: 32.0 instructions per point against 30.0.
    /// Products with ±m are exact negatives of each other, so every way
    /// gives the same bits.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dot<S: Simd, const D: usize>(s: S, h: S::UP, c: [S::P; D]) -> S::P {
        if D < 3 {
            return gradient_dot::<Self, S, D>(s, h, c);
        }
        let g = Self::gradient::<S, D>(s, h);
        let mut v = c[0] * g[0];
        for a in 1..D {
            v = v + c[a] * g[a];
        }
        v
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn height<S: Simd>(s: S, h: S::UP) -> S::P {
        s.top24(h) * splat_part(s, HEIGHT_SCALE) - splat_part(s, 1.0)
    }
}

impl CoordinatesMode {
    /// The hashes of a part's corners (corner `i + 2j + 4k + 8l` at the
    /// lower or upper cell of each axis by its bits) from each axis's
    /// `(lower, upper)` cells: the combined keys of the lower axes' corners,
    /// extended axis by axis, then mixed. In 4D the keys are [`fold`]ed
    /// first (the first half of [`finish`], linear over xor: once per axis,
    /// not once per corner), so each corner's mix is its multiply alone:
    /// the same hashes, 8% fewer instructions a point (AVX2). In 3D that
    /// form measured 2% slower at AVX2 (fewer instructions, longer chains),
    /// so up to 3D the keys are mixed corner by corner.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn corner_hashes<S: Simd, const D: usize>(
        s: S,
        seed: &S::UP,
        cells: &[(S::UP, S::UP); D],
    ) -> [S::UP; 16] {
        if const { D < 4 } {
            let mut v = [*seed; 16];
            for (a, &(lower, upper)) in cells.iter().enumerate() {
                let k0 = axis_key(s, lower, a);
                let k1 = axis_key(s, upper, a);
                let n = 1 << a;
                for i in 0..n {
                    v[i + n] = s.xor_u32(v[i], k1);
                    v[i] = s.xor_u32(v[i], k0);
                }
            }
            for h in &mut v[..1 << D] {
                *h = finish(s, *h);
            }
            return v;
        }
        let mut base = *seed;
        let mut flips = [base; D];
        for (a, &(lower, upper)) in cells.iter().enumerate() {
            let k0 = axis_key(s, lower, a);
            base = s.xor_u32(base, k0);
            flips[a] = fold(s, s.xor_u32(k0, axis_key(s, upper, a)));
        }
        let mut v = [fold(s, base); 16];
        for (a, &flip) in flips.iter().enumerate() {
            let n = 1 << a;
            for i in 0..n {
                v[i + n] = s.xor_u32(v[i], flip);
            }
        }
        for h in &mut v[..1 << D] {
            *h = finish_folded(s, *h);
        }
        v
    }

    /// The hashes of a part's corners from each axis's lower cells (the
    /// upper ones are those plus one).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn hashes_of_cells<S: Simd, const D: usize>(
        s: S,
        seed: &S::UP,
        lower: &[S::UP; D],
    ) -> [S::UP; 16] {
        let mut cells = [(lower[0], lower[0]); D];
        for (cell, &lower) in cells.iter_mut().zip(lower) {
            *cell = (lower, s.add_u32(lower, s.splat_u32(1)));
        }
        Self::corner_hashes::<S, D>(s, seed, &cells)
    }
}

/// The cell `floor mod 2³²` of every lane of an already floored pack, lane
/// by lane (the path for packs with a lane outside ±2³¹, NaN or ±inf).
#[cfg_attr(not(debug_assertions), inline(always))]
fn cells_by_lane<S: Simd>(s: S, floored: S::F) -> S::U {
    let mut lanes = [0.0f32; crate::simd::MAX_LANES];
    s.store(floored, &mut lanes[..S::LANES]);
    let mut cells = [0u32; crate::simd::MAX_LANES];
    wrap_cells(&lanes[..S::LANES], &mut cells[..S::LANES]);
    s.load_u32(&cells[..S::LANES])
}

/// `floor mod 2³²` of floored values (0 for NaN and ±inf), exactly. Plain
/// scalar code, kept out of line: it is the rare path.
#[cold]
#[inline(never)]
fn wrap_cells(floored: &[f32], cells: &mut [u32]) {
    for (c, &v) in cells.iter_mut().zip(floored) {
        *c = super::super::lattice_mod(f64::from(v), CoordinatesMode::NATURAL_PERIOD) as u32;
    }
}
