//! Simplex noise in 1 to [`MAX_SIMPLEX_DIMENSIONS`] dimensions: one kernel
//! with the dimension a run-time value (lanes are points), compiled once per
//! level with derivatives and once without; the pack's job picks constant
//! 2, 3 and 4 dimensions for the optimiser, so those are specialised
//! copies of the same code.
//!
//! The definition, per point `x` in `D` dimensions (`f32` unless said):
//! - **Skew.** `F = (√(D+1) − 1)/D`, `G = (1 − 1/√(D+1))/D`. The skewed
//!   point is `xs_a = x_a + F·(x_0 + … + x_{D−1})` (summed left to right;
//!   in `f64` for `f64` points), its cell `c_a = floor(xs_a) mod 2³²` and
//!   offset `f_a = xs_a − floor(xs_a)`, in [0, 1).
//! - **Simplex by ranking.** `rank_a` counts the axes ahead of `a`: those
//!   with a larger offset, and those before `a` with an equal one. The
//!   pairwise order is a floor, `floor(f_b − f_a)` (−1 or 0), not a branch.
//!   Corner `k` (0 to `D`) is the cell plus one along every axis of rank
//!   below `k`.
//! - **Offsets.** `u_a = f_a − G·(f_0 + … + f_{D−1})` (the point from corner
//!   0, unskewed); from corner `k`, `d_a = (u_a − step_a) + k·G` with
//!   `step_a = min(1, max(0, k − rank_a))`.
//! - **Hash.** The corner's cells hashed as the lattice's coordinates mode
//!   does (`hash` module: `key_a`, `finish`), seed key included, then mixed
//!   once more ([`remix`]: `h ^= h >> 13; h *= 0xC2B2AE35`).
//! - **Gradients.** 2D: one of 16 unit vectors at angles (i + ½)·22.5°,
//!   picked by the hash's top 4 bits. 3D and 4D: unit vectors from tables
//!   ([`GRAD3`]: cube edges and body diagonals; [`GRAD4`]: the tesseract's
//!   edges) by the top 4 bits, negated by bit 27. 1D and 5D up: the
//!   hypercube's diagonals (±1, …, ±1), the sign of component `a` bit
//!   `32 − D + a` of the hash (the lattice's rule). Either way `E[g gᵀ]` is a multiple of the
//!   identity, and the simplex lattice's symmetry does the rest: the noise
//!   is isotropic to second order.
//! - **Falloff.** `t = max(0, ½ − |d|²)` (½ is every simplex's altitude
//!   squared in every dimension, so a corner's reach ends at the facets
//!   opposite it: value and gradient are continuous), and the corner adds
//!   `t⁴·(g·d)`; the sum times [`scale`] is the noise. The derivative is
//!   `Σ t⁴·g − 8t³·(g·d)·d`, times the same scale.
//!
//! A non-finite coordinate makes the point NaN; finite coordinates whose
//! skew overflows are clamped to the finite range (a lattice point far
//! out, noise 0 there).

use super::axis::splat_part;
use super::hash::{axis_key, finish};
use crate::simd::{Lanes, MAX_LANES, OutlinedJob, Simd};

/// The most dimensions [`crate::Simplex`] computes: `D + 1` corners of
/// `O(D)` work each.
pub const MAX_SIMPLEX_DIMENSIONS: usize = 32;
const MAX: usize = MAX_SIMPLEX_DIMENSIONS;

/// The largest `f32` below 1: `f64` offsets are rounded to at most this.
const ONE_BELOW: f32 = 1.0 - f32::EPSILON / 2.0;

/// The 2D gradients' x and y components: 16 unit vectors at (i + ½)·22.5°.
const GRAD2_X: [f32; 16] = [
    0.980_785_25,
    0.831_469_6,
    0.555_570_24,
    0.195_090_32,
    -0.195_090_32,
    -0.555_570_24,
    -0.831_469_6,
    -0.980_785_25,
    -0.980_785_25,
    -0.831_469_6,
    -0.555_570_24,
    -0.195_090_32,
    0.195_090_32,
    0.555_570_24,
    0.831_469_6,
    0.980_785_25,
];
const GRAD2_Y: [f32; 16] = [
    0.195_090_32,
    0.555_570_24,
    0.831_469_6,
    0.980_785_25,
    0.980_785_25,
    0.831_469_6,
    0.555_570_24,
    0.195_090_32,
    -0.195_090_32,
    -0.555_570_24,
    -0.831_469_6,
    -0.980_785_25,
    -0.980_785_25,
    -0.831_469_6,
    -0.555_570_24,
    -0.195_090_32,
];

/// `1/√2` and `1/√3` in `f32`: the unit edge and body-diagonal components.
const EDGE: f32 = std::f32::consts::FRAC_1_SQRT_2;
const BODY: f32 = 0.577_350_26;

/// The 3D gradients by the hash's top 4 bits (bit 27 negates): the 6 edge
/// directions of the cube twice (entries 0–11: (1,1,0), (1,−1,0), (1,0,1),
/// (1,0,−1), (0,1,1), (0,1,−1)) and the 4 body diagonals (12–15: (1,1,1),
/// (1,1,−1), (1,−1,1), (−1,1,1)), all of unit length. Their second moments
/// are a multiple of the identity, and seen in an xy slice they point
/// along the axes as well as the diagonals (the diagonals alone made a
/// slice's blobs pair up along the diagonals).
const GRAD3: [[f32; 16]; 3] = {
    const E: [[f32; 3]; 6] = [
        [1., 1., 0.],
        [1., -1., 0.],
        [1., 0., 1.],
        [1., 0., -1.],
        [0., 1., 1.],
        [0., 1., -1.],
    ];
    const B: [[f32; 3]; 4] = [[1., 1., 1.], [1., 1., -1.], [1., -1., 1.], [-1., 1., 1.]];
    let mut t = [[0.0f32; 16]; 3];
    let mut i = 0;
    while i < 16 {
        let mut a = 0;
        while a < 3 {
            t[a][i] = if i < 12 {
                E[i % 6][a] * EDGE
            } else {
                B[i - 12][a] * BODY
            };
            a += 1;
        }
        i += 1;
    }
    t
};

/// The 4D gradients by the hash's top 4 bits (bit 27 negates): the 32
/// edges of the tesseract, `(0, ±1, ±1, ±1)` and its permutations, of unit
/// length. Entry `i`: axis `i >> 2` is 0; of the other three in order, the
/// first is negative where bit 0 of `i` is set, the second where bit 1 is,
/// the third positive.
const GRAD4: [[f32; 16]; 4] = {
    let mut t = [[0.0f32; 16]; 4];
    let mut i = 0;
    while i < 16 {
        let zero = i >> 2;
        let mut k = 0;
        let mut a = 0;
        while a < 4 {
            if a != zero {
                let negative = k < 2 && (i >> k) & 1 == 1;
                t[a][i] = if negative { -BODY } else { BODY };
                k += 1;
            }
            a += 1;
        }
        i += 1;
    }
    t
};

/// The largest `Σ t⁴·|g·d|` over a simplex with every gradient aligned
/// (`|g|`: 1 in 2D to 4D, `√D` for the diagonals), for 1D to 7D, found by search
/// (the maximum lies on the simplex's main diagonal, `f_a` all equal; a
/// search over the whole simplex finds no larger). From 8D on one corner
/// alone gives it: `(4/9)⁴·√(D/18)`, at distance `√(1/18)` along the
/// corner's gradient, where no other corner reaches.
const ENVELOPE: [f64; 7] = [
    0.013_983_312_811_550_375,
    0.010_080_204_702_811_43,
    0.009_289_062_925_455_898,
    0.009_210_831_906_368_898,
    0.020_569_205_712_531_25,
    0.022_527_853_504_479_403,
    0.024_332_295_566_490_136,
];

/// The skew and unskew factors `(F, G)` of `dimensions`, in `f64`.
pub(crate) fn skew_factors(dimensions: usize) -> (f64, f64) {
    let d = dimensions.clamp(1, MAX) as f64;
    let root = (d + 1.0).sqrt();
    ((root - 1.0) / d, (1.0 - 1.0 / root) / d)
}

/// The factor that makes the largest value 1: `1 / envelope`, the
/// envelope rounded up by 10⁻⁶ so that the bound holds.
pub(crate) fn scale(dimensions: usize) -> f32 {
    let d = dimensions.clamp(1, MAX);
    let envelope = match ENVELOPE.get(d - 1) {
        Some(&e) => e,
        None => (4.0f64 / 9.0).powi(4) * (d as f64 / 18.0).sqrt(),
    };
    (1.0 / (envelope * (1.0 + 1e-6))) as f32
}

/// The largest |noise| at finite inputs in any dimension: 1, and a margin
/// for `f32` rounding.
pub(crate) const SIMPLEX_BOUND: f32 = 1.0 + 1e-5;

/// The second round of MurmurHash3's finaliser (`h ^= h >> 13;
/// h *= 0xC2B2AE35`) after the lattice's `finish`: with the lattice's hash
/// alone the gradients of one simplex's corners are correlated (3D
/// directional derivatives along a main diagonal had 30% more variance
/// than along an axis).
#[cfg_attr(not(debug_assertions), inline(always))]
fn remix<S: Simd>(s: S, h: S::UP) -> S::UP {
    s.mul_u32(s.xor_u32(h, s.shr_u32::<13>(h)), s.splat_u32(0xC2B2_AE35))
}

/// A pack's coordinates as the simplex job receives them.
#[derive(Clone, Copy)]
pub(crate) enum SimplexCoords<'a, S: Simd> {
    /// One `f32` vector per axis.
    Vectors(&'a [S::F]),
    /// Per-lane `f32` copies per axis.
    Lanes32(&'a [[f32; MAX_LANES]]),
    /// Per-lane `f64` values per axis (the skew in `f64`).
    Lanes64(&'a [[f64; MAX_LANES]]),
}

impl<S: Simd> SimplexCoords<'_, S> {
    fn dims(&self) -> usize {
        match self {
            SimplexCoords::Vectors(v) => v.len(),
            SimplexCoords::Lanes32(l) => l.len(),
            SimplexCoords::Lanes64(l) => l.len(),
        }
    }
}

/// One pack of simplex noise, outlined: compiled once per level (see the
/// module docs), the value, and with `grad` the derivative along each axis.
pub(crate) struct SimplexPack<'a, S: Simd> {
    pub(crate) seed: S::UP,
    pub(crate) coords: SimplexCoords<'a, S>,
    pub(crate) grad: Option<&'a mut [S::F]>,
}

impl<S: Simd> OutlinedJob<S> for SimplexPack<'_, S> {
    type Output = S::F;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> S::F {
        let d = self.coords.dims().clamp(1, MAX);
        let (seed, c) = (self.seed, self.coords);
        match (d, self.grad) {
            // Constant dimensions for the common cases: the same code, its
            // loops unrolled (4D: 1.6x as fast at AVX2 and 2.2x at AVX-512
            // on Zen 4, for 35 KB of machine code over the levels).
            (2, None) => pack::<S, false>(s, 2, seed, c, None),
            (3, None) => pack::<S, false>(s, 3, seed, c, None),
            (4, None) => pack::<S, false>(s, 4, seed, c, None),
            (d, None) => pack::<S, false>(s, d, seed, c, None),
            (d, grad) => pack::<S, true>(s, d, seed, c, grad),
        }
    }
}

/// Stage 1 and the corners of one pack in `d` dimensions.
#[cfg_attr(not(debug_assertions), inline(always))]
fn pack<S: Simd, const GRAD: bool>(
    s: S,
    d: usize,
    seed: S::UP,
    coords: SimplexCoords<'_, S>,
    grad: Option<&mut [S::F]>,
) -> S::F {
    let (f64_skew, g) = skew_factors(d);
    let mut cells = [s.load_u32(&[0; MAX_LANES][..S::LANES]); MAX];
    let mut offsets = [s.splat(0.0); MAX];
    match coords {
        SimplexCoords::Vectors(v) => {
            skew_f32(s, &v[..d], f64_skew as f32, &mut cells, &mut offsets)
        }
        SimplexCoords::Lanes32(l) => {
            let mut v = [s.splat(0.0); MAX];
            for (v, l) in v.iter_mut().zip(&l[..d]) {
                *v = s.load(&l[..S::LANES]);
            }
            skew_f32(s, &v[..d], f64_skew as f32, &mut cells, &mut offsets);
        }
        SimplexCoords::Lanes64(l) => skew_f64(s, &l[..d], f64_skew, &mut cells, &mut offsets),
    }
    corners::<S, GRAD>(s, d, g, seed, &cells[..d], &offsets[..d], grad)
}

/// Stage 1 of `f32` vectors: cells and offsets of the skewed point.
#[cfg_attr(not(debug_assertions), inline(always))]
fn skew_f32<S: Simd>(s: S, x: &[S::F], f: f32, cells: &mut [S::U; MAX], offsets: &mut [S::F; MAX]) {
    let mut sum = x[0];
    // ±0 on every finite lane, NaN where a coordinate is NaN or infinite
    // (0·inf is NaN); added to an offset in [0, 1) it changes nothing else.
    let zero = s.splat(0.0);
    let mut poison = x[0] * zero;
    for &x in &x[1..] {
        sum = sum + x;
        poison = poison + x * zero;
    }
    let skew = sum * s.splat(f);
    let (lo, hi) = (s.splat(-f32::MAX), s.splat(f32::MAX));
    let mut exact = true;
    for (a, &x) in x.iter().enumerate() {
        // An overflowing skew of finite inputs is clamped (NaN stays NaN:
        // min and max return their second operand when unordered).
        let xs = s.max(lo, s.min(hi, x + skew));
        let floor = s.floor(xs);
        offsets[a] = (xs - floor) + poison;
        let (c, in_range) = s.cells32(floor);
        cells[a] = c;
        exact &= in_range;
    }
    if !exact {
        for (a, &x) in x.iter().enumerate() {
            let xs = s.max(lo, s.min(hi, x + skew));
            cells[a] = far_cells(s, s.floor(xs));
        }
    }
}

/// `floor mod 2³²` of every lane of a floored pack, in `f64` (exact for
/// every finite `f32`; 0 for NaN and ±inf).
#[cfg_attr(not(debug_assertions), inline(always))]
fn far_cells<S: Simd>(s: S, floored: S::F) -> S::U {
    /// Plain scalar code, the same at every level, out of line (the rare
    /// path).
    #[cold]
    #[inline(never)]
    fn lanes(floored: &[f32], cells: &mut [u32]) {
        for (c, &v) in cells.iter_mut().zip(floored) {
            *c = cell_of(f64::from(v));
        }
    }
    let mut v = [0.0f32; MAX_LANES];
    s.store(floored, &mut v[..S::LANES]);
    let mut cells = [0u32; MAX_LANES];
    lanes(&v[..S::LANES], &mut cells[..S::LANES]);
    s.load_u32(&cells[..S::LANES])
}

/// `floor(v) mod 2³²` of a floored `f64` (0 when not finite), through
/// `i64` where that is exact (the `f64` remainder is a library call).
fn cell_of(floored: f64) -> u32 {
    super::period::lattice_mod(floored, 1 << 32) as u32
}

/// Stage 1 of `f64` lanes: the skew in `f64`, per lane (scalar code, the
/// same operations at every level), offsets rounded to `f32` below 1.
#[cfg_attr(not(debug_assertions), inline(always))]
fn skew_f64<S: Simd>(
    s: S,
    x: &[[f64; MAX_LANES]],
    f: f64,
    cells: &mut [S::U; MAX],
    offsets: &mut [S::F; MAX],
) {
    /// Each lane's skew (`NaN` where a coordinate is not finite).
    #[inline(never)]
    fn skews(x: &[[f64; MAX_LANES]], f: f64, skew: &mut [f64]) {
        for (i, skew) in skew.iter_mut().enumerate() {
            let mut sum = x[0][i];
            let mut finite = sum.is_finite();
            for x in &x[1..] {
                sum += x[i];
                finite &= x[i].is_finite();
            }
            *skew = if finite { sum * f } else { f64::NAN };
        }
    }
    /// One axis's cells and offsets.
    #[inline(never)]
    fn axis(x: &[f64], skew: &[f64], cells: &mut [u32], offsets: &mut [f32]) {
        for (i, &skew) in skew.iter().enumerate() {
            if skew.is_nan() {
                (cells[i], offsets[i]) = (0, f32::NAN);
                continue;
            }
            let xs = (x[i] + skew).clamp(-f64::MAX, f64::MAX);
            let floor = super::period::floor_f64(xs);
            cells[i] = cell_of(floor);
            offsets[i] = ((xs - floor) as f32).min(ONE_BELOW);
        }
    }
    let n = S::LANES;
    let mut skew = [0.0f64; MAX_LANES];
    skews(x, f, &mut skew[..n]);
    for (a, x) in x.iter().enumerate() {
        let (mut c, mut o) = ([0u32; MAX_LANES], [0.0f32; MAX_LANES]);
        axis(&x[..n], &skew[..n], &mut c[..n], &mut o[..n]);
        cells[a] = s.load_u32(&c[..n]);
        offsets[a] = s.load(&o[..n]);
    }
}

/// The `d + 1` corners of every point of a pack (cells and offsets of its
/// skewed point; `g` the unskew factor), part by part; with `GRAD` also the
/// derivatives into `grad`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn corners<S: Simd, const GRAD: bool>(
    s: S,
    d: usize,
    g: f64,
    seed: S::UP,
    cells: &[S::U],
    offsets: &[S::F],
    mut grad: Option<&mut [S::F]>,
) -> S::F {
    let zero = splat_part(s, 0.0);
    let one = splat_part(s, 1.0);
    let minus_one = splat_part(s, -1.0);
    let half = splat_part(s, 0.5);
    let eight = splat_part(s, 8.0);
    let unskew = splat_part(s, g as f32);
    let scale = splat_part(s, scale(d));
    let mut out = s.splat(0.0);
    // Declared once (not per part or corner): with the dimension a run-time
    // value, each fresh array is a store of all its entries.
    let mut f = [zero; MAX];
    let mut u = [zero; MAX];
    let mut rank = [zero; MAX];
    let mut flip = [seed; MAX];
    let mut offset = [zero; MAX];
    let mut gradient = [zero; MAX];
    let mut slope = [zero; MAX];
    let next = s.splat_u32(1);
    for k in 0..S::PARTS {
        // The offsets, their unskewed form and their ranks.
        for (f, o) in f.iter_mut().zip(offsets) {
            *f = s.part(*o, k);
        }
        let mut sum = f[0];
        for &f in &f[1..d] {
            sum = sum + f;
        }
        let shift = sum * unskew;
        for a in 0..d {
            u[a] = f[a] - shift;
            rank[a] = zero;
            for b in 0..a {
                // −1 when f_b < f_a (a is ahead of b), else 0 (b is ahead).
                let order = s.floor_part(f[b] - f[a]);
                rank[a] = rank[a] + (one + order);
                rank[b] = rank[b] - order;
            }
        }
        // The lower cell's keys combined, and what each axis's step flips.
        let mut base = seed;
        for a in 0..d {
            let cell = s.u32_part(cells[a], k);
            let k0 = axis_key(s, cell, a);
            let k1 = axis_key(s, s.add_u32(cell, next), a);
            base = s.xor_u32(base, k0);
            flip[a] = s.xor_u32(k0, k1);
        }
        let mut value = zero;
        if GRAD {
            slope[..d].fill(zero);
        }
        for corner in 0..=d {
            let at = splat_part(s, corner as f32);
            let shifted = splat_part(s, (corner as f64 * g) as f32);
            let mut r2 = zero;
            let mut v = base;
            let mut check = s.cells_check();
            for a in 0..d {
                let step = Lanes::min(s, one, Lanes::max(s, zero, at - rank[a]));
                offset[a] = (u[a] - step) + shifted;
                r2 = r2 + offset[a] * offset[a];
                if corner > 0 {
                    let [step] = s.cells32_parts_checked(&[step], &mut check);
                    v = s.xor_u32(v, s.mul_u32(flip[a], step));
                }
            }
            let h = remix(s, finish(s, v));
            if d == 2 {
                gradient[0] = s.top16(&GRAD2_X, h);
                gradient[1] = s.top16(&GRAD2_Y, h);
            } else if d == 3 || d == 4 {
                // The table's entry by the top 4 bits, negated by bit 27
                // (the hash doubled 4 times).
                let mut sign = s.opaque_up(h);
                for _ in 0..4 {
                    sign = s.add_u32(sign, sign);
                }
                let sign = s.top2([one, minus_one], sign);
                let table: &[[f32; 16]] = if d == 3 { &GRAD3 } else { &GRAD4 };
                for (g, t) in gradient.iter_mut().zip(table) {
                    *g = s.top16(t, h) * sign;
                }
            } else {
                // Axis a's sign is bit 32 − d + a: the hash doubled d − 1 − a
                // times puts it at the top.
                let mut sign = s.opaque_up(h);
                for a in (0..d).rev() {
                    gradient[a] = s.top2([one, minus_one], sign);
                    sign = s.add_u32(sign, sign);
                }
            }
            let mut dot = gradient[0] * offset[0];
            for a in 1..d {
                dot = dot + gradient[a] * offset[a];
            }
            let t = Lanes::max(s, zero, half - r2);
            let t2 = t * t;
            let t4 = t2 * t2;
            value = value + t4 * dot;
            if GRAD {
                let pull = eight * (t2 * t) * dot;
                for a in 0..d {
                    slope[a] = slope[a] + (t4 * gradient[a] - pull * offset[a]);
                }
            }
        }
        s.set_part(&mut out, k, s.canonical_nan(value * scale));
        if let Some(grad) = grad.as_deref_mut() {
            for (dst, &dv) in grad.iter_mut().zip(&slope).take(d) {
                s.set_part(dst, k, s.canonical_nan(dv * scale));
            }
        }
    }
    out
}
