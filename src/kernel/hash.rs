//! How a lattice noise turns its corners' cells into hashes, and hashes
//! into gradients or heights: two modes behind one trait, [`LatticeHash`].
//!
//! - [`CoordinateHash`] (the default, `Perlin::new`): each corner's hash is
//!   computed from its whole 32-bit lattice coordinates and the seed with
//!   multiplies, xors and shifts on 32-bit lanes, so the lattice repeats
//!   only every 2³² cells along an axis:
//!
//!   ```text
//!   key_a(c) = m ^ (m >> a),  m = c · PRIME[a]       (axis a = 0, 1, 2, 3; mod 2³²)
//!   v        = seed ^ key_0(X) ^ key_1(Y) ^ …        (the corner's cells X, Y, …)
//!   hash     = (v ^ (v >> 16)) · FINAL                (mod 2³²)
//!   ```
//!
//!   The shift by the axis number keeps a shift by 2³¹ cells on several axes
//!   from cancelling in the xor. The hash's top bits pick the gradient (top 3:
//!   one of 8 in 2D and 3D; top 4: one of 16 slopes in 1D, of 16 diagonals
//!   in 4D); value noise takes the top 24 bits as its height. Gradients
//!   have no zero component, so no lattice edge of any axis-aligned integer
//!   slice is identically zero; 2D has its own 8 directions (22.5° off the
//!   axes and the diagonals), 3D the cube's 8 diagonals, 4D the 16 of the
//!   hypercube.
//! - [`PermutationHash`] (`Perlin::reference`, `Perlin::permuted`): Ken
//!   Perlin's chain of 256-entry permutation lookups on cells mod 256, his
//!   16 gradients in 3D (2D is the z = 0 slice) and 32 in 4D. It repeats
//!   every 256 cells.
//!
//! Both are integer arithmetic and table reads, exact on every backend.

use super::{Axis, GRAD1, GRAD3_X, GRAD3_Y, GRAD3_Z, GRAD4};
use crate::simd::Simd;

/// The lower and upper cells of a step along each of `D` axes.
pub type CellPairs<S, H, const D: usize> =
    [(<H as LatticeHash>::Cell<S>, <H as LatticeHash>::Cell<S>); D];

/// A lattice's hashing mode: cells (stage 1), corner hashes (stage 2) and
/// the corner gradient or height a hash selects.
pub trait LatticeHash: Copy + Send + Sync + 'static {
    /// Cells along an axis after which the lattice repeats (no period set).
    const NATURAL_PERIOD: u64;
    /// What a kernel loads once per call (the permutation, the seed).
    type Ready<'a, S: Simd>: Copy;
    /// A step's lattice cells along one axis.
    type Cell<S: Simd>: Copy;
    /// What the whole step computes before its parts are blended.
    type Step<S: Simd>: Copy;
    /// One part's hash of one corner.
    type Part<S: Simd>: Copy;

    /// Stage 1 in `f32` without a period: the cell of each already floored
    /// coordinate and its upper neighbour.
    fn cells<S: Simd>(s: S, floored: S::F) -> (Self::Cell<S>, Self::Cell<S>);
    /// Cells computed elsewhere (`f64` stage 1, periods): lane `i` of
    /// `c0[..LANES]`, `c1[..LANES]` (already reduced by the natural period).
    fn staged<S: Simd>(s: S, c0: &[u32], c1: &[u32]) -> (Self::Cell<S>, Self::Cell<S>);
    /// One cell pair on every lane.
    fn splat_cells<S: Simd>(s: S, c0: u32, c1: u32) -> (Self::Cell<S>, Self::Cell<S>);
    /// Stage 1 in `f32` with a period: `floor mod period` of each already
    /// floored coordinate and the next cell mod `period`, when this mode
    /// computes them in vectors for this step; `None` sends the step to the
    /// exact lane-by-lane `f64` path.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn periodic_cells<S: Simd>(
        _: S,
        _floored: S::F,
        _period: u64,
    ) -> Option<(Self::Cell<S>, Self::Cell<S>)> {
        None
    }
    /// The whole-step work for the `2^D` corners of cells `cells[a]` (lower,
    /// upper) on each axis `a`.
    fn step<S: Simd, const D: usize>(
        s: S,
        r: &Self::Ready<'_, S>,
        cells: &CellPairs<S, Self, D>,
    ) -> Self::Step<S>;
    /// Part `k`'s hashes of the `2^D` corners (corner index bit `a` = upper
    /// cell on axis `a`); the remaining entries are unspecified. With
    /// `NEXT`, the caller promises that every upper cell is its lower cell
    /// plus one (see [`Dims::eval`](super::Dims::eval)), and a mode may
    /// compute them here instead of reading them.
    fn part_hashes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        r: &Self::Ready<'_, S>,
        step: &Self::Step<S>,
        k: usize,
    ) -> [Self::Part<S>; 16];
    /// The gradient a hash picks in `D` dimensions, by component.
    fn gradient<S: Simd, const D: usize>(s: S, h: Self::Part<S>) -> [S::P; D];
    /// `gradient · c`, summed `((g0·c0 + g1·c1) + g2·c2) + g3·c3`: the
    /// corner value of gradient noise. A mode may compute it another way
    /// only with the same bits.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dot<S: Simd, const D: usize>(s: S, h: Self::Part<S>, c: [S::P; D]) -> S::P {
        gradient_dot::<Self, S, D>(s, h, c)
    }
    /// The height (−1 to 1) a hash picks, for value noise.
    fn height<S: Simd>(s: S, h: Self::Part<S>) -> S::P;
}

/// [`LatticeHash::dot`] from the gradient's components.
#[cfg_attr(not(debug_assertions), inline(always))]
fn gradient_dot<H: LatticeHash, S: Simd, const D: usize>(
    s: S,
    h: H::Part<S>,
    c: [S::P; D],
) -> S::P {
    let g = H::gradient::<S, D>(s, h);
    let mut v = g[0] * c[0];
    for a in 1..D {
        v = v + g[a] * c[a];
    }
    v
}

/// The cells of every axis of a step of points, as `(lower, upper)` pairs.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn axis_cells<S: Simd, H: LatticeHash, const D: usize>(
    axes: &[Axis<S, H>; D],
) -> CellPairs<S, H, D> {
    let mut cells = [(axes[0].c0, axes[0].c1); D];
    for (cell, axis) in cells.iter_mut().zip(axes).skip(1) {
        *cell = (axis.c0, axis.c1);
    }
    cells
}

/// Ken Perlin's permutation chain: `P[P[P[X] + Y] + Z]` on cells mod 256.
#[derive(Clone, Copy, Debug, Default)]
pub struct PermutationHash;

/// `v` on every lane of a part.
#[cfg_attr(not(debug_assertions), inline(always))]
fn splat_part<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}

/// `2 / 255` in `f32`: hash byte `b` gives height `b · VALUE_SCALE − 1`
/// (0 → −1, 255 → 1 exactly).
pub(crate) const VALUE_SCALE: f32 = 2.0 / 255.0;

/// The lattice index `c` (any `u32`, used mod 256) of every lane.
#[cfg_attr(not(debug_assertions), inline(always))]
fn bytes_of<S: Simd>(s: S, c: &[u32]) -> S::I {
    let mut b = [0u8; crate::simd::MAX_LANES];
    for (b, &c) in b.iter_mut().zip(&c[..S::LANES]) {
        *b = c as u8;
    }
    s.load_cells(&b[..S::LANES])
}

impl LatticeHash for PermutationHash {
    const NATURAL_PERIOD: u64 = 256;
    type Ready<'a, S: Simd> = S::Perm<'a>;
    type Cell<S: Simd> = S::I;
    type Step<S: Simd> = [S::I; 16];
    type Part<S: Simd> = S::H;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells<S: Simd>(s: S, floored: S::F) -> (S::I, S::I) {
        let c0 = s.cell(floored);
        (c0, c0 + s.splat_i(1))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn staged<S: Simd>(s: S, c0: &[u32], c1: &[u32]) -> (S::I, S::I) {
        (bytes_of(s, c0), bytes_of(s, c1))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_cells<S: Simd>(s: S, c0: u32, c1: u32) -> (S::I, S::I) {
        (s.splat_i((c0 & 255) as i32), s.splat_i((c1 & 255) as i32))
    }

    /// In `f32` ([`periodic_cells_f32`]), then the low byte, as
    /// [`Self::staged`] takes it from the `f64` path's cells.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn periodic_cells<S: Simd>(s: S, floored: S::F, period: u64) -> Option<(S::I, S::I)> {
        let (c0, c1) = periodic_cells_f32(s, floored, period)?;
        Some((s.cell(c0), s.cell(c1)))
    }

    /// Corner `i + 2j + 4k + 8l` hashes `P[P[P[P[X_i] + Y_j] + Z_k] + W_l]`;
    /// 2D is 3D's z = 0 slice (`P[P[P[X_i] + Y_j]]`), 1D `P[X_i]`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn step<S: Simd, const D: usize>(
        s: S,
        p: &S::Perm<'_>,
        cells: &[(S::I, S::I); D],
    ) -> [S::I; 16] {
        let mut h = [cells[0].0; 16];
        h[0] = s.perm(p, cells[0].0);
        h[1] = s.perm(p, cells[0].1);
        for (a, &(c0, c1)) in cells.iter().enumerate().skip(1) {
            let n = 1 << a;
            // Corners of the lower axes are 0..n; extend by the upper cell.
            for i in (0..n).rev() {
                let base = h[i];
                h[i] = s.perm(p, base + c0);
                h[i + n] = s.perm(p, base + c1);
            }
        }
        if D == 2 {
            // The z = 0 slice of 3D: one more lookup, adding Z = 0.
            for c in &mut h[..4] {
                *c = s.perm(p, *c);
            }
        }
        h
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_hashes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        _: &S::Perm<'_>,
        step: &[S::I; 16],
        k: usize,
    ) -> [S::H; 16] {
        let mut out = [s.hashes(step[0], k); 16];
        for i in 1..1 << D {
            out[i] = s.hashes(step[i], k);
        }
        out
    }

    /// 1D: the 16 slopes; 2D and 3D: Ken's 16 gradients (2D their x, y);
    /// 4D: the 32 hypercube edge midpoints.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn gradient<S: Simd, const D: usize>(s: S, h: S::H) -> [S::P; D] {
        let mut g = [splat_part(s, 0.0); D];
        match D {
            1 => g[0] = s.table16(&GRAD1, h),
            2 | 3 => {
                let tables = [&GRAD3_X, &GRAD3_Y, &GRAD3_Z];
                for a in 0..D {
                    g[a] = s.units16(tables[a], h);
                }
            }
            _ => {
                for a in 0..D {
                    g[a] = s.units32(&GRAD4[a], h);
                }
            }
        }
        g
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn height<S: Simd>(s: S, h: S::H) -> S::P {
        s.byte_value(h) * splat_part(s, VALUE_SCALE) - splat_part(s, 1.0)
    }
}

/// The full-coordinate hash (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct CoordinateHash;

/// Odd multipliers per axis (xxHash's 32-bit primes 1 to 4).
pub(crate) const AXIS_PRIMES: [u32; 4] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F];
/// The multiplier of the final mix (xxHash's 32-bit prime 5).
pub(crate) const FINAL_PRIME: u32 = 0x1656_67B1;

/// `2 / (2²⁴ − 1)` in `f32`: the top 24 bits `t` of a hash give height
/// `t · HEIGHT_SCALE − 1` (0 → −1, 2²⁴ − 1 → 1).
pub(crate) const HEIGHT_SCALE: f32 = 2.0 / 16_777_215.0;

/// Length of the 2D gradients: 387/256, so the largest |noise2| is just
/// under 1 with the quintic fade (0.99897; unit vectors reach 0.66082;
/// cubic 1.00179, cosine 1.00116, linear 1.00876).
pub(crate) const GRAD2_LENGTH: f32 = 387.0 / 256.0;
const COS_22_5: f32 = 0.923_879_5;
const SIN_22_5: f32 = 0.382_683_43;
/// 2D gradients by component: 8 directions at 22.5° + k·45° (as far from
/// the axes as from the diagonals), index = the hash's top 3 bits.
pub(crate) const GRAD2: [[f32; 8]; 2] = {
    let (c, s) = (COS_22_5 * GRAD2_LENGTH, SIN_22_5 * GRAD2_LENGTH);
    [[c, s, -s, -c, -c, -s, s, c], [s, c, c, s, -s, -c, -c, -s]]
};

/// Component magnitude of the 3D gradients: 341/512 (just under ⅔), so
/// the largest |noise3|, 1.5 · 341/512 = 0.99902 at a cell's centre for
/// every fade, stays below 1.
pub(crate) const GRAD3_COMPONENT: f32 = 341.0 / 512.0;
/// 3D gradients by component: the 8 cube diagonals (±1, ±1, ±1) ·
/// `GRAD3_COMPONENT`; bit `a` of the index (the hash's top 3 bits) set means
/// component `a` is negative (the definition [`CoordinateHash`]'s gradients
/// and `dot` are tested against; they pick signs by bits, not from this).
#[cfg(test)]
pub(crate) const GRAD3: [[f32; 8]; 3] = {
    let mut t = [[0.0f32; 8]; 3];
    let mut i = 0;
    while i < 8 {
        let mut a = 0;
        while a < 3 {
            t[a][i] = if (i >> a) & 1 == 1 {
                -GRAD3_COMPONENT
            } else {
                GRAD3_COMPONENT
            };
            a += 1;
        }
        i += 1;
    }
    t
};

/// 4D gradients by component: the 16 hypercube diagonals (±½, ±½, ±½, ±½),
/// whose largest |noise4| is exactly 1 (at a cell's centre, every fade); bit `a` of
/// the index (the hash's top 4 bits) set means component `a` is negative
/// (the definition, as [`GRAD3`]).
#[cfg(test)]
pub(crate) const GRAD4_DIAGONAL: [[f32; 16]; 4] = {
    let mut t = [[0.0f32; 16]; 4];
    let mut i = 0;
    while i < 16 {
        let mut a = 0;
        while a < 4 {
            t[a][i] = if (i >> a) & 1 == 1 { -0.5 } else { 0.5 };
            a += 1;
        }
        i += 1;
    }
    t
};

/// Component magnitude of the diagonal gradients by dimension (3D: every
/// entry of [`GRAD3`], 4D: of [`GRAD4_DIAGONAL`]).
const DIAGONAL_COMPONENT: [f32; 5] = [0.0, 0.0, 0.0, GRAD3_COMPONENT, 0.5];

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

/// `key_a(c)` for part lanes `c` on axis `a` (see the module docs).
#[cfg_attr(not(debug_assertions), inline(always))]
fn axis_key<S: Simd>(s: S, c: S::UP, a: usize) -> S::UP {
    let m = s.mul_u32(c, s.splat_u32(AXIS_PRIMES[a]));
    match a {
        0 => m,
        1 => s.xor_u32(m, s.shr_u32::<1>(m)),
        2 => s.xor_u32(m, s.shr_u32::<2>(m)),
        _ => s.xor_u32(m, s.shr_u32::<3>(m)),
    }
}

/// The final mix of a corner's combined keys.
#[cfg_attr(not(debug_assertions), inline(always))]
fn finish<S: Simd>(s: S, v: S::UP) -> S::UP {
    s.mul_u32(s.xor_u32(v, s.shr_u32::<16>(v)), s.splat_u32(FINAL_PRIME))
}

/// The scalar definition of [`CoordinateHash`]: the hash of the corner with
/// cells `cells` under seed key `seed` (the kernels' oracle in tests).
#[cfg(test)]
pub(crate) fn coordinate_hash(seed: u32, cells: &[u32]) -> u32 {
    let mut v = seed;
    for (a, &c) in cells.iter().enumerate() {
        let m = c.wrapping_mul(AXIS_PRIMES[a]);
        v ^= if a == 0 { m } else { m ^ (m >> a) };
    }
    (v ^ (v >> 16)).wrapping_mul(FINAL_PRIME)
}

impl LatticeHash for CoordinateHash {
    const NATURAL_PERIOD: u64 = 1 << 32;
    /// The seed key on every lane.
    type Ready<'a, S: Simd> = S::UP;
    type Cell<S: Simd> = S::U;
    type Step<S: Simd> = [(S::U, S::U); 4];
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
    fn step<S: Simd, const D: usize>(
        _: S,
        _: &S::UP,
        cells: &[(S::U, S::U); D],
    ) -> [(S::U, S::U); 4] {
        let mut all = [cells[0]; 4];
        all[..D].copy_from_slice(cells);
        all
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_hashes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        seed: &S::UP,
        step: &[(S::U, S::U); 4],
        k: usize,
    ) -> [S::UP; 16] {
        let mut cells = [(s.splat_u32(0), s.splat_u32(0)); D];
        for (cell, &(c0, c1)) in cells.iter_mut().zip(step) {
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
    /// instead: 48 fewer multiplies per AVX2 step, but the twelve products
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

impl CoordinateHash {
    /// The hashes of a part's corners (corner `i + 2j + 4k + 8l` at the
    /// lower or upper cell of each axis by its bits) from each axis's
    /// `(lower, upper)` cells: the combined keys of the lower axes' corners,
    /// extended axis by axis, then mixed.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn corner_hashes<S: Simd, const D: usize>(
        s: S,
        seed: &S::UP,
        cells: &[(S::UP, S::UP); D],
    ) -> [S::UP; 16] {
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

/// Largest period whose cells [`periodic_cells32`] reduces in vectors.
pub(crate) const VECTOR_PERIOD_MAX: u64 = 1 << 24;

/// `(floor mod period, (floor + 1) mod period)` of every lane of an already
/// floored step, in 32-bit lanes, for `period` ≤ [`VECTOR_PERIOD_MAX`];
/// `None` if the period is larger or a lane is too far from the origin (the
/// quotient below could be off by more than one), NaN or ±inf.
///
/// The quotient is `q = floor((floor + ½) · (1/period))` in `f32`, then
/// `r = cell − q · period` in wrapping 32-bit arithmetic (exact, since the
/// true `r` is small).
/// - While |floor| < 2²¹ (every lane of the step), `q` is exact:
///   `(floor + ½) / period` lies at least `½ / period` from an integer,
///   and the two roundings (of `1/period` and of the product) move it by
///   under `|q| · 2⁻²³ < ¼ / period`. So `r` is in `[0, period)` at once.
/// - Farther out, while |q| < 2²², `q` is `floor(floor / period)` or one
///   off either way (`floor + ½` may round to a neighbour of `floor`), so
///   `r` lies in `[−period, 2·period)`, and one unsigned `min` each way
///   brings it into `[0, period)`: `min(r, r + period)` adds the period to
///   a negative `r` (as unsigned it is above `2³² − period`),
///   `min(r, r − period)` takes it from an `r` at or above the period
///   (below, `r − period` wraps high).
#[cfg_attr(not(debug_assertions), inline(always))]
fn periodic_cells32<S: Simd>(s: S, floored: S::F, period: u64) -> Option<(S::U, S::U)> {
    if period > VECTOR_PERIOD_MAX {
        return None;
    }
    let (quotient, exact) = period_quotients(s, floored, period);
    let (cells, cells_in_range) = s.cells32(floored);
    let (quotients, _) = s.cells32(quotient);
    if !exact {
        // |q| < 2²² when q · 2⁹ (an exact product) is in i32 range.
        let (_, quotients_small) = s.cells32(quotient * s.splat(512.0));
        if !(cells_in_range && quotients_small) {
            return None;
        }
    }
    let p = period as u32;
    let (plus, minus) = (s.splat_u32(p), s.splat_u32(p.wrapping_neg()));
    let fix_up = (!exact).then_some(plus);
    let (mut c0, mut c1) = (cells, cells);
    crate::kernel::for_each_part!(S, |k| {
        let (cell, quotient) = (s.u32_part(cells, k), s.u32_part(quotients, k));
        let (r, next) = remainders(s, cell, quotient, minus, fix_up);
        s.set_u32_part(&mut c0, k, r);
        s.set_u32_part(&mut c1, k, next);
    });
    Some((c0, c1))
}

/// The quotient `floor((floor + ½) · (1/period))` of every lane of an
/// already floored step, in `f32`, and whether it is exact in every lane:
/// whether every |floor| < 2²¹ (see [`periodic_cells32`]), which holds
/// exactly when floor · 2¹⁰ (an exact product) is in i32 range.
#[cfg_attr(not(debug_assertions), inline(always))]
fn period_quotients<S: Simd>(s: S, floored: S::F, period: u64) -> (S::F, bool) {
    let reciprocal = s.splat((1.0 / period as f64) as f32);
    let quotient = s.floor((floored + s.splat(0.5)) * reciprocal);
    let (_, exact) = s.cells32(floored * s.splat(1024.0));
    (quotient, exact)
}

/// `(floor mod period, (floor + 1) mod period)` of every lane of an already
/// floored step, as exact integers in `f32`, for `period` ≤
/// [`VECTOR_PERIOD_MAX`]; `None` if the period is larger or a lane has
/// |floor| ≥ 2²¹ (NaN and ±inf included).
///
/// The quotient is [`periodic_cells32`]'s, exact below 2²¹. Then `q·period`
/// is an integer below 2²⁴ in magnitude (|q| ≥ 2 only for periods below
/// 2²¹, and |q·period| ≤ |floor| + period), so `floor − q·period` and the
/// rest are exact.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn periodic_cells_f32<S: Simd>(
    s: S,
    floored: S::F,
    period: u64,
) -> Option<(S::F, S::F)> {
    if period > VECTOR_PERIOD_MAX {
        return None;
    }
    let (q, exact) = period_quotients(s, floored, period);
    if !exact {
        return None;
    }
    let p = s.splat(period as f32);
    let whole = floored - q * p;
    // whole + 1, less the period where it reaches it (`wrap` is then 1,
    // elsewhere max(0, a non-positive integer)).
    let next = whole + s.splat(1.0);
    let wrap = s.max(s.splat(0.0), next - p + s.splat(1.0));
    Some((whole, next - wrap * p))
}

/// A part's cells `r = cell − quotient · period` and `(r + 1) mod period`
/// in wrapping 32-bit lanes (`minus`: −period mod 2³²), for a quotient
/// that is `floor(cell / period)`. With `fix_up` (the period itself), the
/// quotient may be one off either way and `r` is brought into
/// `[0, period)` first (see [`periodic_cells32`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn remainders<S: Simd>(
    s: S,
    cell: S::UP,
    quotient: S::UP,
    minus: S::UP,
    fix_up: Option<S::UP>,
) -> (S::UP, S::UP) {
    let mut r = s.add_u32(cell, s.mul_u32(quotient, minus));
    if let Some(plus) = fix_up {
        r = s.min_u32(r, s.add_u32(r, plus));
        r = s.min_u32(r, s.add_u32(r, minus));
    }
    let next = s.add_u32(r, s.splat_u32(1));
    (r, s.min_u32(next, s.add_u32(next, minus)))
}

/// How [`super::noise_parts`] makes a part's cells from its floored
/// coordinates, and its corners' hashes from the cells: with the lattice's
/// natural period ([`NaturalCells`]) or with a period per axis
/// ([`PeriodicCells`]).
pub(crate) trait PartCells<S: Simd, const D: usize> {
    /// A part's cells on every axis, as the hashes need them.
    type Cells: Copy;
    /// The cells of `D` floored parts, right in every lane this form can
    /// make exactly; the others are recorded in `check` (see
    /// [`Simd::cells32_parts_checked`]).
    fn cells(&self, s: S, floored: &[S::P; D], check: &mut S::UP) -> Self::Cells;
    /// The hashes of the part's corners (as [`CoordinateHash::part_hashes`]).
    fn hashes(&self, s: S, key: &S::UP, cells: &Self::Cells) -> [S::UP; 16];
}

/// Cells with the natural period 2³²: each axis's lower cell by conversion
/// (right while |floor| < 2³¹), the upper one made with the hashes.
pub(crate) struct NaturalCells;

impl<S: Simd, const D: usize> PartCells<S, D> for NaturalCells {
    type Cells = [S::UP; D];

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells(&self, s: S, floored: &[S::P; D], check: &mut S::UP) -> [S::UP; D] {
        s.cells32_parts_checked(floored, check)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(&self, s: S, key: &S::UP, cells: &[S::UP; D]) -> [S::UP; 16] {
        CoordinateHash::hashes_of_cells::<S, D>(s, key, cells)
    }
}

/// Cells reduced by a period per axis, part by part: the exact case of
/// [`periodic_cells32`] (the same operations, so the same bits), right in
/// the lanes of a periodic axis with |floor| < 2²¹ and of an unperiodic
/// one with |floor| < 2³¹. Others are recorded in the check (the caller
/// then makes the step by [`periodic_cells32`]'s whole-step path).
///
/// An unperiodic axis runs the same operations with quotient 0 and period
/// 0 (2³² wrapped): `1/period` is 0, so the cell is the floor's and the
/// upper cell its wrapping successor, as [`CoordinateHash::cells`] makes.
pub(crate) struct PeriodicCells<S: Simd, const D: usize> {
    /// 2¹⁰ on a periodic axis (|floor · 2¹⁰| < 2³¹ exactly when
    /// |floor| < 2²¹), 1 on another.
    range_scale: [S::P; D],
    /// `1/period` in `f32` (0 on an unperiodic axis).
    reciprocal: [S::P; D],
    /// `−period` mod 2³² (0 on an unperiodic axis).
    minus_period: [S::UP; D],
}

impl<S: Simd, const D: usize> PeriodicCells<S, D> {
    /// The reductions for `periods` (cells per axis, [`CoordinateHash::NATURAL_PERIOD`]
    /// on an unperiodic axis), or `None` if an axis's period is over
    /// [`VECTOR_PERIOD_MAX`] (and not natural).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(s: S, periods: &[u64; 4]) -> Option<PeriodicCells<S, D>> {
        let mut cells = PeriodicCells {
            range_scale: [splat_part(s, 1.0); D],
            reciprocal: [splat_part(s, 0.0); D],
            minus_period: [s.splat_u32(0); D],
        };
        for (a, &period) in periods.iter().take(D).enumerate() {
            if period == CoordinateHash::NATURAL_PERIOD {
                continue;
            }
            if period > VECTOR_PERIOD_MAX {
                return None;
            }
            cells.range_scale[a] = splat_part(s, 1024.0);
            cells.reciprocal[a] = splat_part(s, (1.0 / period as f64) as f32);
            cells.minus_period[a] = s.splat_u32((period as u32).wrapping_neg());
        }
        Some(cells)
    }
}

impl<S: Simd, const D: usize> PartCells<S, D> for PeriodicCells<S, D> {
    type Cells = [(S::UP, S::UP); D];

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells(&self, s: S, floored: &[S::P; D], check: &mut S::UP) -> [(S::UP, S::UP); D] {
        // Conversions whose range `check` need not record (the scaled
        // floors' conversion records it for them).
        let mut unrecorded = s.cells_check();
        let cells = s.cells32_parts_checked(floored, &mut unrecorded);
        let mut scaled = *floored;
        let mut quotients = *floored;
        for a in 0..D {
            scaled[a] = floored[a] * self.range_scale[a];
            quotients[a] = s.floor_part((floored[a] + splat_part(s, 0.5)) * self.reciprocal[a]);
        }
        s.cells32_parts_checked(&scaled, check);
        let quotients = s.cells32_parts_checked(&quotients, &mut unrecorded);
        let mut out = [(cells[0], cells[0]); D];
        for a in 0..D {
            out[a] = remainders(s, cells[a], quotients[a], self.minus_period[a], None);
        }
        out
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(&self, s: S, key: &S::UP, cells: &[(S::UP, S::UP); D]) -> [S::UP; 16] {
        CoordinateHash::corner_hashes::<S, D>(s, key, cells)
    }
}

/// The cell `floor mod 2³²` of every lane of an already floored step, lane
/// by lane (the path for steps with a lane outside ±2³¹, NaN or ±inf).
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
        *c = super::lattice_mod(f64::from(v), CoordinateHash::NATURAL_PERIOD) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::scalar::Scalar;

    /// The kernel's per-part hashing equals the scalar definition for every
    /// corner, in every dimension, at wrapping cells.
    #[test]
    fn part_hashes_follow_the_definition() {
        let s = Scalar;
        let cells = [
            [0u32, 1, 2, 3],
            [u32::MAX, 0, 0x8000_0000, 0x7fff_ffff],
            [12_345, 0xdead_beef, 7, 0x8000_0001],
        ];
        for key in [0u32, 0x5bd1_e995] {
            for c in cells {
                let step = [
                    (c[0], c[0].wrapping_add(1)),
                    (c[1], c[1] ^ 0x55),
                    (c[2], 9),
                    (c[3], c[3]),
                ];
                let h4 = CoordinateHash::part_hashes::<Scalar, 4, false>(s, &key, &step, 0);
                let h2 = CoordinateHash::part_hashes::<Scalar, 2, false>(s, &key, &step, 0);
                for corner in 0..16 {
                    let pick = |a: usize| {
                        if corner >> a & 1 == 1 {
                            step[a].1
                        } else {
                            step[a].0
                        }
                    };
                    let all = [pick(0), pick(1), pick(2), pick(3)];
                    assert_eq!(h4[corner], coordinate_hash(key, &all));
                    if corner < 4 {
                        assert_eq!(h2[corner], coordinate_hash(key, &all[..2]));
                    }
                }
            }
        }
    }

    /// The 3D and 4D gradients picked by sign bits are the tables' entries
    /// for every index, and `dot` (products made once, signs blended) is
    /// the table gradient's dot product bit for bit, signed zeros,
    /// infinities and subnormals included (NaN: NaN either way; kernels
    /// make every NaN canonical).
    #[test]
    fn diagonal_gradients_and_dots_follow_the_tables() {
        let s = Scalar;
        let offsets = [
            0.0f32,
            -0.0,
            0.25,
            -0.75,
            1.0,
            -1.0,
            1e-40,
            -3e-39,
            0.999_999_9,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            3.0e38,
        ];
        let low_bits = [0u32, 1, 0x0123_4567, 0x0fff_ffff];
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for index in 0..16u32 {
            for low in low_bits {
                let pick = |c: &[f32]| c[(index & 7) as usize];
                let h3 = (index & 7) << 29 | (low >> 3);
                let g3 = CoordinateHash::gradient::<Scalar, 3>(s, h3);
                let t3 = [pick(&GRAD3[0]), pick(&GRAD3[1]), pick(&GRAD3[2])];
                assert_eq!(
                    g3.map(f32::to_bits),
                    t3.map(f32::to_bits),
                    "3D index {index}"
                );
                let h4 = index << 28 | (low >> 4);
                let g4 = CoordinateHash::gradient::<Scalar, 4>(s, h4);
                let t4 = [0, 1, 2, 3].map(|a| GRAD4_DIAGONAL[a][index as usize]);
                assert_eq!(
                    g4.map(f32::to_bits),
                    t4.map(f32::to_bits),
                    "4D index {index}"
                );
                for (i, &x) in offsets.iter().enumerate() {
                    let c = [
                        x,
                        offsets[(i + 3) % offsets.len()],
                        -offsets[(i + 5) % offsets.len()],
                        offsets[(i + 8) % offsets.len()],
                    ];
                    let want3 = (t3[0] * c[0] + t3[1] * c[1]) + t3[2] * c[2];
                    let got3 = CoordinateHash::dot::<Scalar, 3>(s, h3, [c[0], c[1], c[2]]);
                    assert!(same(got3, want3), "3D {index} {c:?}: {got3} vs {want3}");
                    let want4 = ((t4[0] * c[0] + t4[1] * c[1]) + t4[2] * c[2]) + t4[3] * c[3];
                    let got4 = CoordinateHash::dot::<Scalar, 4>(s, h4, c);
                    assert!(same(got4, want4), "4D {index} {c:?}: {got4} vs {want4}");
                }
            }
        }
    }

    /// The vector periodic cells equal `floor mod period` (and the next cell)
    /// wherever they are given, including at multiples of the period and far
    /// from the origin, and are given for every lane within 2²² cells.
    #[test]
    fn periodic_cells_are_floor_mod_period() {
        let s = Scalar;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut given, mut refused) = (0, 0);
        for period in [
            1u64,
            2,
            3,
            7,
            255,
            256,
            300,
            1000,
            65_535,
            65_536,
            99_991,
            (1 << 24) - 1,
            1 << 24,
        ] {
            let mut values = vec![0.0f32, -0.0, 1.0, -1.0, 2_147_483_520.0, -2_147_483_648.0];
            for k in [
                -5_000_000i64,
                -1000,
                -3,
                -2,
                -1,
                0,
                1,
                2,
                3,
                1000,
                5_000_000,
            ] {
                for d in [-1, 0, 1] {
                    values.push((k * period as i64 + d) as f32);
                }
            }
            // The exact quotient's limit, 2²¹: the multiples of the period
            // just inside it and their neighbours (the quotients closest to
            // an integer), and the lanes around the limit itself.
            let inside = ((1i64 << 21) - 1) / period as i64;
            for k in [inside, inside - 1, -inside, 1 - inside] {
                for d in [-1, 0, 1] {
                    values.push((k * period as i64 + d) as f32);
                }
            }
            for d in -2..=2i64 {
                values.push(((1i64 << 21) + d) as f32);
                values.push((-(1i64 << 21) + d) as f32);
            }
            for _ in 0..2000 {
                let magnitude = 1u64 << (random() % 32);
                let v = (random() % (2 * magnitude)) as f64 - magnitude as f64;
                values.push((v as f32).floor());
            }
            // The part-by-part form: axis 0 with the period, axis 1
            // unperiodic.
            let natural = CoordinateHash::NATURAL_PERIOD;
            let parts = PeriodicCells::<Scalar, 2>::new(s, &[period, natural, 0, 0]).unwrap();
            for v in values {
                let v = v.floor();
                let mut check = s.cells_check();
                let [(p0, p1), (n0, n1)] = parts.cells(s, &[v, v], &mut check);
                assert_eq!(
                    s.cells_checked(check),
                    v.abs() < 2_097_152.0,
                    "{v} mod {period}"
                );
                // The f32 form: given exactly within 2²¹, and right there.
                let want = super::super::lattice_mod(f64::from(v), period);
                match periodic_cells_f32(s, v, period) {
                    Some((c0, c1)) => {
                        assert_eq!((c0, c1), (want as f32, ((want + 1) % period) as f32));
                        assert!(v.abs() < 2_097_152.0, "{v} mod {period} in f32");
                    }
                    None => assert!(v.abs() >= 2_097_152.0, "{v} mod {period} refused"),
                }
                match periodic_cells32(s, v, period) {
                    Some((c0, c1)) => {
                        assert_eq!(u64::from(c0), want, "{v} mod {period}");
                        assert_eq!(u64::from(c1), (want + 1) % period, "{v} mod {period}");
                        if s.cells_checked(check) {
                            assert_eq!((p0, p1), (c0, c1), "{v} mod {period} by parts");
                            let cell = v as i32 as u32;
                            assert_eq!((n0, n1), (cell, cell.wrapping_add(1)), "{v} unperiodic");
                        }
                        given += 1;
                    }
                    None => {
                        assert!(v.abs() >= 4_194_304.0, "{v} mod {period} refused");
                        refused += 1;
                    }
                }
            }
        }
        assert!(given > 10 * refused, "{given} given, {refused} refused");
        assert!(periodic_cells32(s, f32::NAN, 3).is_none());
        assert!(periodic_cells32(s, f32::INFINITY, 3).is_none());
        assert!(periodic_cells32(s, 5.0, (1 << 24) + 1).is_none());
        assert!(periodic_cells_f32(s, f32::NAN, 3).is_none());
        assert!(periodic_cells_f32(s, f32::NEG_INFINITY, 3).is_none());
        assert!(periodic_cells_f32(s, 5.0, (1 << 24) + 1).is_none());
        assert!(PeriodicCells::<Scalar, 1>::new(s, &[(1 << 24) + 1, 3, 3, 3]).is_none());
        // Past the period's limit on an axis a step has not: still reduced.
        assert!(PeriodicCells::<Scalar, 1>::new(s, &[3, (1 << 24) + 1, 0, 0]).is_some());
        // An unperiodic axis is reduced within 2³¹, NaN and ±inf nowhere.
        let natural = [CoordinateHash::NATURAL_PERIOD; 4];
        let parts = PeriodicCells::<Scalar, 1>::new(s, &natural).unwrap();
        for (v, ok) in [
            (-2_147_483_648.0f32, false),
            (-2_147_483_520.0, true),
            (2_147_483_520.0, true),
            (2_147_483_648.0, false),
            (f32::NAN, false),
            (f32::NEG_INFINITY, false),
        ] {
            let mut check = s.cells_check();
            let [(c0, c1)] = parts.cells(s, &[v], &mut check);
            assert_eq!(s.cells_checked(check), ok, "{v}");
            if ok {
                assert_eq!(
                    (c0, c1),
                    (v as i32 as u32, (v as i32 as u32).wrapping_add(1))
                );
            }
        }
        for (v, ok) in [
            (-2_097_152.0f32, false),
            (-2_097_151.0, true),
            (2_097_151.0, true),
        ] {
            let parts = PeriodicCells::<Scalar, 1>::new(s, &[7, 0, 0, 0]).unwrap();
            let mut check = s.cells_check();
            parts.cells(s, &[v], &mut check);
            assert_eq!(s.cells_checked(check), ok, "{v} mod 7");
        }
    }

    /// A shift by 2³¹ cells on several axes at once does not cancel in the
    /// xor (without the per-axis shift it would, for any odd primes).
    #[test]
    fn half_period_shifts_do_not_cancel() {
        let half = 0x8000_0000u32;
        let base = [5u32, 9, 13, 17];
        for mask in 1..16usize {
            let moved: Vec<u32> = (0..4)
                .map(|a| base[a].wrapping_add(if mask >> a & 1 == 1 { half } else { 0 }))
                .collect();
            assert_ne!(
                coordinate_hash(3, &moved),
                coordinate_hash(3, &base),
                "mask {mask}"
            );
        }
    }
}
