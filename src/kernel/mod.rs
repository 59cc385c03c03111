//! The noise kernels, written once over the lane trait [`Simd`] and compiled
//! inside each backend's `#[target_feature]` shim (everything here is
//! `#[cfg_attr(not(debug_assertions), inline(always))]` in optimised builds). Stage 1 turns coordinates into
//! [`Axis`] values; stage 2 (`noiseN_axes`) hashes, takes gradients and
//! blends (the default lattice runs both stages part by part:
//! `noise_parts`); the `Job`s (`field::FillPoints`, `FillGridRows`, and
//! `rows::FillRowsByCells`) drive them over slices and grids.
//!
//! How corners are hashed and what a hash selects is the lattice's
//! [`LatticeHash`] mode (`hash.rs`): the full-coordinate hash (the default)
//! or Ken's permutation. With the permutation, for one step of `S::LANES`
//! points, `noise3` is Ken Perlin's 2002 improved noise:
//!
//! ```text
//! X, Y, Z  = floor(x, y, z) mod 256          (lattice cell)
//! x0,y0,z0 = (x, y, z) - floor(x, y, z)      (position in the cell, [0, 1])
//! x1,y1,z1 = x0 - 1, y0 - 1, z0 - 1
//! u, v, w  = fade(x0), fade(y0), fade(z0)    (fade t = t³(t(6t − 15) + 10))
//! hash(i,j,k) = P[P[P[X+i] + Y+j] + Z+k]     (every index mod 256)
//! g(h, a, b, c) = GX[h]·a + GY[h]·b + GZ[h]·c  (Ken's 16 gradients, h mod 16)
//! noise = lerp(w, lerp(v, lerp(u, g000, g100), lerp(u, g010, g110)),
//!                 lerp(v, lerp(u, g001, g101), lerp(u, g011, g111)))
//! lerp(t, a, b) = a + t·(b − a)
//! ```
//!
//! 1D takes one permutation step; 2D is 3D's z = 0 slice (three steps, the
//! last adding Z = 0); 4D takes four. The full-coordinate hash replaces the
//! chain by a hash of each corner's 32-bit cells and the gradients by sets
//! with no zero component; the lerps are the same.
//! Every operation and its order is fixed here, so every backend produces the
//! same bits; the final NaN is made canonical.
//!
//! The `fill` drivers run the kernel over whole steps and then once more over
//! a zero-padded copy of the last partial step, so tail points are computed by
//! exactly the same code as the rest.

mod hash;
mod rows;

use crate::Fade;
use crate::fade::{fade, fade_slope};
use crate::simd::scalar::Scalar;
use crate::simd::{Job, MAX_LANES, PermTable, Simd, StepJob};
use std::marker::PhantomData;
use std::ops::{Add, Mul, Sub};

pub(crate) use hash::{
    CoordinateHash, LatticeHash, NaturalCells, PartCells, PeriodicCells, PermutationHash,
    periodic_cells_f32,
};

/// Runs `$body` once per part with `$k` a constant (0, or 0..4): a `for`
/// loop over `S::PARTS` is not reliably unrolled, and a variable `k` turns
/// part selection into memory traffic. Every backend has 1 or 4 parts.
macro_rules! for_each_part {
    ($s:ty, |$k:ident| $body:block) => {{
        const { assert!(<$s as Simd>::PARTS == 1 || <$s as Simd>::PARTS == 4) };
        {
            let $k = 0;
            $body
        }
        if <$s as Simd>::PARTS == 4 {
            {
                let $k = 1;
                $body
            }
            {
                let $k = 2;
                $body
            }
            {
                let $k = 3;
                $body
            }
        }
    }};
}
pub(crate) use for_each_part;

pub(crate) use rows::{FillRowsByCells, MAX_COEFFICIENT_STEP, RowAxis};

/// Ken Perlin's 16 gradients (12 cube edges, 4 repeated) by component.
/// Entry h is what his `grad(h, x, y, z)` selects.
pub(crate) const GRAD3_X: [f32; 16] = [
    1., -1., 1., -1., 1., -1., 1., -1., 0., 0., 0., 0., 1., 0., -1., 0.,
];
pub(crate) const GRAD3_Y: [f32; 16] = [
    1., 1., -1., -1., 0., 0., 0., 0., 1., -1., 1., -1., 1., -1., 1., -1.,
];
pub(crate) const GRAD3_Z: [f32; 16] = [
    0., 0., 0., 0., 1., 1., -1., -1., 1., 1., -1., -1., 0., 1., 0., -1.,
];

/// 1D slopes: ±0.25, ±0.5, …, ±2 (h bit 3 is the sign). Never 0; the
/// largest, ±2, bound |noise1| by 1 (reached at x = n + ½ between opposite ±2).
pub(crate) const GRAD1: [f32; 16] = {
    let mut t = [0.0f32; 16];
    let mut h = 0;
    while h < 16 {
        let magnitude = 0.25 * (1 + (h & 7)) as f32;
        t[h] = if h & 8 == 0 { magnitude } else { -magnitude };
        h += 1;
    }
    t
};

/// 4D gradients: the 32 edge midpoints of the hypercube, permutations of
/// (0, ±1, ±1, ±1). For h mod 32, axis `h >> 3` is the zero one; bits 0, 1, 2
/// give the signs (set = −1) of the other three axes in x, y, z, w order.
pub(crate) const GRAD4: [[f32; 32]; 4] = {
    let mut t = [[0.0f32; 32]; 4];
    let mut h = 0;
    while h < 32 {
        let zero_axis = h >> 3;
        let mut bit = 0;
        let mut axis = 0;
        while axis < 4 {
            if axis != zero_axis {
                t[axis][h] = if (h >> bit) & 1 == 0 { 1.0 } else { -1.0 };
                bit += 1;
            }
            axis += 1;
        }
        h += 1;
    }
    t
};

#[cfg_attr(not(debug_assertions), inline(always))]
fn lerp<T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>>(t: T, a: T, b: T) -> T {
    a + t * (b - a)
}

/// Stage 1 of the kernel for one axis: the lattice cell and its upper
/// neighbour (in the hash mode's form; with a period, reduced by the period
/// first), the offset in the cell, the offset minus one, and the fade of the
/// offset. Stage 2 (`noiseN_axes`) needs nothing else, so the `f32` path
/// below, the `f64` paths and periodic noise differ only in how they build
/// this.
pub struct Axis<S: Simd, H: LatticeHash> {
    pub(crate) c0: H::Cell<S>,
    pub(crate) c1: H::Cell<S>,
    pub(crate) t0: S::F,
    pub(crate) t1: S::F,
    pub(crate) fade: S::F,
}

impl<S: Simd, H: LatticeHash> Clone for Axis<S, H> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Simd, H: LatticeHash> Copy for Axis<S, H> {}

/// Stage 1 in `f32`: cell `floor(c)` (mod the natural period), next cell.
/// `fresh`: for stage 2 with `FRESH` (see [`Axis::new`]).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn axis<S: Simd, H: LatticeHash>(s: S, c: S::F, curve: Fade, fresh: bool) -> Axis<S, H> {
    let floor = s.floor(c);
    Axis::new(s, H::cells(s, floor), c - floor, curve, fresh)
}

impl<S: Simd, H: LatticeHash> Axis<S, H> {
    /// The axis of cells `(c0, c1)` and offsets `t0`. With `fresh` (for
    /// [`Dims::eval`] with `FRESH`), `t1` and `fade` hold the offset as
    /// placeholders: stage 2 makes them per part. (Made here too, the
    /// optimiser would find the same values in stage 2 and keep these for
    /// the whole step.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(
        s: S,
        (c0, c1): (H::Cell<S>, H::Cell<S>),
        t0: S::F,
        curve: Fade,
        fresh: bool,
    ) -> Axis<S, H> {
        let (t1, fade) = if fresh {
            (t0, t0)
        } else {
            (t0 - s.splat(1.0), fade(s, curve, t0))
        };
        Axis {
            c0,
            c1,
            t0,
            t1,
            fade,
        }
    }
}

// Stage 2 is always inlined in optimised builds (it must be compiled inside
// the shims). Unoptimised builds keep `noiseN_axes`, `noise_parts` and `cube`
// as functions: fully inlined at opt-level 0 the 4D kernel needs a multi-megabyte stack frame.

/// One part (register) of an [`Axis`]'s floats.
#[derive(Clone, Copy)]
pub struct Part<S: Simd> {
    t0: S::P,
    t1: S::P,
    fade: S::P,
}

/// Part `k` of axis `a`: stage 1's values, or with `FRESH` the offset
/// minus one and the quintic fade made here from the offset (see
/// [`Dims::eval`]; the same operations on the same lanes, so the same bits).
#[cfg_attr(not(debug_assertions), inline(always))]
fn part<S: Simd, H: LatticeHash, const FRESH: bool>(s: S, a: &Axis<S, H>, k: usize) -> Part<S> {
    let t0 = s.part(a.t0, k);
    if FRESH {
        fresh_part(s, t0)
    } else {
        Part {
            t0,
            t1: s.part(a.t1, k),
            fade: s.part(a.fade, k),
        }
    }
}

/// The part of offset `t0`, with the offset minus one and the quintic fade.
#[cfg_attr(not(debug_assertions), inline(always))]
fn fresh_part<S: Simd>(s: S, t0: S::P) -> Part<S> {
    Part {
        t0,
        t1: t0 - splat_part(s, 1.0),
        fade: fade(s, Fade::Quintic, t0),
    }
}

/// A corner's value and its derivative along each axis (one part).
#[derive(Clone, Copy)]
pub struct Dual<S: Simd, const D: usize> {
    v: S::P,
    d: [S::P; D],
}

/// What a lattice noise puts at its corners: the value at offset `(x, y, …)`
/// from the corner with hash `h` (the gradient or height the hash mode `H`
/// picks), and (for derivatives) that value's slope.
pub trait Kind: Copy + Send + Sync + 'static {
    fn corner<S: Simd, H: LatticeHash, const D: usize>(s: S, h: H::Part<S>, c: [S::P; D]) -> S::P;
    /// The corner's value and slopes, with the value computed exactly as
    /// `corner` computes it.
    fn dual<S: Simd, H: LatticeHash, const D: usize>(
        s: S,
        h: H::Part<S>,
        c: &[S::P; D],
    ) -> Dual<S, D>;
    /// For the grid rows (`rows.rs`): a corner's value as `g0·x + rest`,
    /// with the other axes' offsets `offsets[a][far on a]` (broadcast) for
    /// corner `corner` of `D`-dimensional noise: `(g0, rest)`.
    fn plane_terms<S: Simd, H: LatticeHash, const D: usize>(
        s: S,
        h: H::Part<S>,
        corner: usize,
        offsets: &[[S::P; 2]; 3],
    ) -> (S::P, S::P);
}

/// `v` on every lane of a part.
#[cfg_attr(not(debug_assertions), inline(always))]
fn splat_part<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}

/// Perlin's gradient noise: the corner value is `gradient · offset`,
/// summed `((g0·x + g1·y) + g2·z) + g3·w`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GradientKind;

impl Kind for GradientKind {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn corner<S: Simd, H: LatticeHash, const D: usize>(s: S, h: H::Part<S>, c: [S::P; D]) -> S::P {
        H::dot::<S, D>(s, h, c)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dual<S: Simd, H: LatticeHash, const D: usize>(
        s: S,
        h: H::Part<S>,
        c: &[S::P; D],
    ) -> Dual<S, D> {
        let g = H::gradient::<S, D>(s, h);
        // The same sum, in the same order, as `corner` (`LatticeHash::dot`).
        let mut v = g[0] * c[0];
        for a in 1..D {
            v = v + g[a] * c[a];
        }
        Dual { v, d: g }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn plane_terms<S: Simd, H: LatticeHash, const D: usize>(
        s: S,
        h: H::Part<S>,
        corner: usize,
        offsets: &[[S::P; 2]; 3],
    ) -> (S::P, S::P) {
        let g = H::gradient::<S, D>(s, h);
        if D == 1 {
            return (g[0], splat_part(s, 0.0));
        }
        let off = |a: usize| offsets[a][corner >> a & 1];
        let mut rest = g[1] * off(0);
        for (a, &g) in g.iter().enumerate().skip(2) {
            rest = rest + g * off(a - 1);
        }
        (g[0], rest)
    }
}

/// Value noise: the corner value is the height the hash picks, whatever the
/// offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValueKind;

impl Kind for ValueKind {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn corner<S: Simd, H: LatticeHash, const D: usize>(s: S, h: H::Part<S>, _: [S::P; D]) -> S::P {
        H::height(s, h)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dual<S: Simd, H: LatticeHash, const D: usize>(
        s: S,
        h: H::Part<S>,
        _: &[S::P; D],
    ) -> Dual<S, D> {
        Dual {
            v: H::height(s, h),
            d: [splat_part(s, 0.0); D],
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn plane_terms<S: Simd, H: LatticeHash, const D: usize>(
        s: S,
        h: H::Part<S>,
        _: usize,
        _: &[[S::P; 2]; 3],
    ) -> (S::P, S::P) {
        (splat_part(s, 0.0), H::height(s, h))
    }
}

/// 1D: the lerp of the two corners.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise1_axes<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &Axis<S, H>,
) -> S::F {
    let step = H::step::<S, 1>(s, r, &[(x.c0, x.c1)]);
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let g = H::part_hashes::<S, 1, NEXT>(s, r, &step, k);
        let n = Noise::blend::<S, K, H>(s, &g, &[part::<S, H, FRESH>(s, x, k)]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// 2D: corners at index i + 2j, blended along x, then y.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise2_axes<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &Axis<S, H>,
    y: &Axis<S, H>,
) -> S::F {
    let step = H::step::<S, 2>(s, r, &[(x.c0, x.c1), (y.c0, y.c1)]);
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let c = H::part_hashes::<S, 2, NEXT>(s, r, &step, k);
        let (xp, yp) = (part::<S, H, FRESH>(s, x, k), part::<S, H, FRESH>(s, y, k));
        let n = Noise::blend::<S, K, H>(s, &c, &[xp, yp]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// 3D: Ken Perlin's improved noise (with `GradientKind` and the permutation).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise3_axes<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &Axis<S, H>,
    y: &Axis<S, H>,
    z: &Axis<S, H>,
) -> S::F {
    let step = H::step::<S, 3>(s, r, &[(x.c0, x.c1), (y.c0, y.c1), (z.c0, z.c1)]);
    // Any step value: every part is overwritten below.
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let (xp, yp, zp) = (
            part::<S, H, FRESH>(s, x, k),
            part::<S, H, FRESH>(s, y, k),
            part::<S, H, FRESH>(s, z, k),
        );
        let g = H::part_hashes::<S, 3, NEXT>(s, r, &step, k);
        let n = Noise::blend::<S, K, H>(s, &g, &[xp, yp, zp]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// 4D: 16 corners at i + 2j + 4k + 8l, two cubes blended along w.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise4_axes<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool>(
    s: S,
    r: &H::Ready<'_, S>,
    a: &[Axis<S, H>; 4],
) -> S::F {
    let step = H::step::<S, 4>(s, r, &hash::axis_cells(a));
    let [x, y, z, w] = a;
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let g = H::part_hashes::<S, 4, NEXT>(s, r, &step, k);
        let (xp, yp, zp, wp) = (
            part::<S, H, FRESH>(s, x, k),
            part::<S, H, FRESH>(s, y, k),
            part::<S, H, FRESH>(s, z, k),
            part::<S, H, FRESH>(s, w, k),
        );
        let n = Noise::blend::<S, K, H>(s, &g, &[xp, yp, zp, wp]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// Stages 1 and 2 part by part, for the default lattice (full-coordinate
/// hash `lanes`, the seed key on every lane; quintic fade) at `f32`
/// coordinates, its cells made by `cells_of` (without a period or with
/// one): each part's floor, cells, offsets, fades and hashes are made where
/// they are used, so nothing of the step but the coordinates and the
/// result goes through memory (stage 1 for the whole step first kept about
/// 40 values of 3D noise alive across it). The same operations on the same
/// lanes as [`axis`] (or `field::periodic_axis`) then [`Dims::eval`] with
/// `FRESH`, so the same bits.
///
/// The lanes whose cells `cells_of` cannot make are folded into `check`
/// (made by [`Simd::cells_check`], over any number of steps): while
/// [`Simd::cells_checked`] holds, every coordinate was finite and so is
/// every result (no NaN to make canonical). Otherwise the caller remakes
/// those lanes or steps another way ([`remake_lanes_out_of_range`] without
/// a period).
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(unused_assignments)] // the last part's `next` is made by no part
pub(crate) fn noise_parts<S: Simd, K: Kind, C: PartCells<S, D>, IO: PartsIo<S, D>, const D: usize>(
    s: S,
    lanes: &S::UP,
    cells_of: &C,
    check: &mut S::UP,
    io: &mut IO,
) where
    Noise: Dims<D>,
{
    type H = CoordinateHash;
    // Part k + 1's stage 1 (loads, floors, cells, offsets) is made before
    // part k's hashes and blend, so that the two overlap: 4–6% faster on a
    // Zen 3 than each part in turn (a part's chain of dependent operations
    // is about as long as the time it takes).
    let mut next = stage1_part::<S, C, IO, D>(s, cells_of, io, 0, check);
    for_each_part!(S, |k| {
        let (offsets, cells) = next;
        if k + 1 < S::PARTS {
            next = stage1_part::<S, C, IO, D>(s, cells_of, io, k + 1, check);
        }
        let mut parts = [fresh_part(s, offsets[0]); D];
        for a in 1..D {
            parts[a] = fresh_part(s, offsets[a]);
        }
        let g = cells_of.hashes(s, lanes, &cells);
        io.put(s, k, Noise::blend::<S, K, H>(s, &g, &parts));
    });
}

/// Stage 1 of part `k` of a step for [`noise_parts`]: each axis's offset
/// in its cell, and its cells by `cells_of` (lanes it cannot make folded
/// into `check`).
#[cfg_attr(not(debug_assertions), inline(always))]
fn stage1_part<S: Simd, C: PartCells<S, D>, IO: PartsIo<S, D>, const D: usize>(
    s: S,
    cells_of: &C,
    io: &IO,
    k: usize,
    check: &mut S::UP,
) -> ([S::P; D], C::Cells) {
    let mut offsets = [io.coordinate(s, 0, k); D];
    for (a, c) in offsets.iter_mut().enumerate().skip(1) {
        *c = io.coordinate(s, a, k);
    }
    let mut floors = offsets;
    for f in &mut floors {
        *f = s.floor_part(*f);
    }
    let cells = cells_of.cells(s, &floors, check);
    for (c, f) in offsets.iter_mut().zip(&floors) {
        *c = *c - *f;
    }
    (offsets, cells)
}

/// After [`noise_parts`] found a lane out of range: the result of every
/// such point of `inputs` remade alone into `out` (each as long). A point
/// with a coordinate NaN or ±inf is NaN (its offset in the cell is NaN); a
/// point with |c| ≥ 2³¹ (cells wrapped mod 2³²) goes through the scalar
/// kernel. Other points keep their results.
#[cold]
#[inline(never)]
pub(crate) fn remake_lanes_out_of_range<K: Kind, const D: usize>(
    key: u32,
    inputs: &[&[f32]; D],
    out: &mut [f32],
) where
    Noise: Dims<D>,
{
    for (i, out) in out.iter_mut().enumerate() {
        let mut c = [0.0f32; D];
        for (c, input) in c.iter_mut().zip(inputs) {
            *c = input[i];
        }
        if c.iter().any(|v| !v.is_finite()) {
            *out = f32::NAN;
        } else if c.iter().any(|v| v.abs() >= I32_RANGE) {
            *out = default_lattice_lane::<K, D>(key, c);
        }
    }
}

/// 2³¹: the first magnitude an `i32` cannot hold.
const I32_RANGE: f32 = 2_147_483_648.0;

/// The default lattice (full-coordinate hash `key`, quintic fade, no
/// period) at one point, by the scalar backend (the same bits as every
/// level).
#[cold]
#[inline(never)]
fn default_lattice_lane<K: Kind, const D: usize>(key: u32, c: [f32; D]) -> f32
where
    Noise: Dims<D>,
{
    let s = Scalar;
    let mut axes = [axis::<Scalar, CoordinateHash>(s, c[0], Fade::Quintic, true); D];
    for (a, axis_a) in axes.iter_mut().enumerate().skip(1) {
        *axis_a = axis::<Scalar, CoordinateHash>(s, c[a], Fade::Quintic, true);
    }
    Noise::eval::<Scalar, K, CoordinateHash, true, true>(s, &key, &axes)
}

/// Where [`noise_parts`] reads a step's coordinates and puts its result,
/// one part at a time.
pub(crate) trait PartsIo<S: Simd, const D: usize> {
    /// Part `k` of the step's coordinates on axis `a`.
    fn coordinate(&self, s: S, a: usize, k: usize) -> S::P;
    /// Part `k` of the result.
    fn put(&mut self, s: S, k: usize, v: S::P);
}

/// A step whose coordinates and result are vectors (a lattice's step
/// inside a shared, outlined step: fractal octaves, combinators).
pub(crate) struct PartsInVectors<S: Simd, const D: usize> {
    pub(crate) c: [S::F; D],
    pub(crate) out: S::F,
}

impl<S: Simd, const D: usize> PartsIo<S, D> for PartsInVectors<S, D> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn coordinate(&self, s: S, a: usize, k: usize) -> S::P {
        s.part(self.c[a], k)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put(&mut self, s: S, k: usize, v: S::P) {
        s.set_part(&mut self.out, k, v);
    }
}

/// A step of a batch call, read from its input slices and written to its
/// output slice in place (each `LANES` long): no part's coordinates or
/// result wait in registers, or on the stack, while other parts run.
pub(crate) struct PartsInMemory<'a, const D: usize> {
    pub(crate) src: [&'a [f32]; D],
    pub(crate) dst: &'a mut [f32],
}

impl<S: Simd, const D: usize> PartsIo<S, D> for PartsInMemory<'_, D> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn coordinate(&self, s: S, a: usize, k: usize) -> S::P {
        s.load_part(self.src[a], k)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put(&mut self, s: S, k: usize, v: S::P) {
        s.store_part(v, self.dst, k);
    }
}

/// Corner `(x, y, z, w)` of `D`-dimensional noise (`w` unused in 3D) with
/// hash `h`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn corner_at<S: Simd, K: Kind, H: LatticeHash, const D: usize>(
    s: S,
    h: H::Part<S>,
    [x, y, z, w]: [S::P; 4],
) -> S::P {
    let all = [x, y, z, w];
    let mut c = [x; D];
    c.copy_from_slice(&all[..D]);
    K::corner::<S, H, D>(s, h, c)
}

/// Corners `j` and `j + 1` of a cube (offsets `y`, `z`, `w` shared) blended
/// along x.
#[cfg_attr(not(debug_assertions), inline(always))]
fn cube_edge<S: Simd, K: Kind, H: LatticeHash, const D: usize>(
    s: S,
    g: &[H::Part<S>],
    j: usize,
    x: &Part<S>,
    [y, z, w]: [S::P; 3],
) -> S::P {
    lerp(
        x.fade,
        corner_at::<S, K, H, D>(s, g[j], [x.t0, y, z, w]),
        corner_at::<S, K, H, D>(s, g[j + 1], [x.t1, y, z, w]),
    )
}

/// The 8 corners of a cube (corner i + 2j + 4k, hash `g[i + 2j + 4k]`;
/// in 4D every corner at offset `w`) blended along x, then y, then z.
#[cfg_attr(not(debug_assertions), inline(always))]
fn cube<S: Simd, K: Kind, H: LatticeHash, const D: usize>(
    s: S,
    g: &[H::Part<S>],
    [x, y, z]: &[Part<S>; 3],
    w: S::P,
) -> S::P {
    let near = lerp(
        y.fade,
        cube_edge::<S, K, H, D>(s, g, 0, x, [y.t0, z.t0, w]),
        cube_edge::<S, K, H, D>(s, g, 2, x, [y.t1, z.t0, w]),
    );
    let far = lerp(
        y.fade,
        cube_edge::<S, K, H, D>(s, g, 4, x, [y.t0, z.t1, w]),
        cube_edge::<S, K, H, D>(s, g, 6, x, [y.t1, z.t1, w]),
    );
    lerp(z.fade, near, far)
}

// Kernels index their small per-axis and per-corner arrays by constant
// loop bounds: unrolled, the indices are constants.
/// `lerp` of two corner duals along `axis` with fade `t` and fade slope
/// `dt`: the value exactly as [`lerp`], the slopes by the product rule.
#[allow(clippy::needless_range_loop)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn lerp_dual<S: Simd, const D: usize>(
    t: S::P,
    dt: S::P,
    axis: usize,
    a: &Dual<S, D>,
    b: &Dual<S, D>,
) -> Dual<S, D> {
    let diff = b.v - a.v;
    let mut d = a.d;
    for i in 0..D {
        d[i] = lerp(t, a.d[i], b.d[i]);
    }
    d[axis] = d[axis] + dt * diff;
    Dual {
        v: a.v + t * diff,
        d,
    }
}

/// Value and analytic derivatives of a `D`-dimensional lattice noise (corner
/// index bit `a` = far on axis `a`). The blend runs axis by axis in the
/// order of `noiseN_axes`, so the value has exactly their bits.
#[allow(clippy::needless_range_loop)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_grad<S: Simd, K: Kind, H: LatticeHash, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    curve: Fade,
    axes: &[Axis<S, H>; D],
) -> (S::F, [S::F; D]) {
    let step = H::step::<S, D>(s, r, &hash::axis_cells(axes));
    let mut slope = [axes[0].t0; D];
    for a in 0..D {
        slope[a] = fade_slope(s, curve, axes[a].t0);
    }
    let mut out = axes[0].t0;
    let mut dout = [axes[0].t0; D];
    for_each_part!(S, |k| {
        let g = H::part_hashes::<S, D, false>(s, r, &step, k);
        let mut parts = [part::<S, H, false>(s, &axes[0], k); D];
        let mut dt = [s.part(slope[0], k); D];
        for a in 1..D {
            parts[a] = part::<S, H, false>(s, &axes[a], k);
            dt[a] = s.part(slope[a], k);
        }
        let zero = Dual {
            v: parts[0].t0,
            d: [parts[0].t0; D],
        };
        let mut corners = [zero; 16];
        for (i, corner) in corners.iter_mut().enumerate().take(1 << D) {
            let mut offsets = [parts[0].t0; D];
            for a in 0..D {
                offsets[a] = if i >> a & 1 == 1 {
                    parts[a].t1
                } else {
                    parts[a].t0
                };
            }
            *corner = K::dual::<S, H, D>(s, g[i], &offsets);
        }
        let mut n = 1 << D;
        for a in 0..D {
            n /= 2;
            for i in 0..n {
                corners[i] = lerp_dual(
                    parts[a].fade,
                    dt[a],
                    a,
                    &corners[2 * i],
                    &corners[2 * i + 1],
                );
            }
        }
        s.set_part(&mut out, k, s.canonical_nan(corners[0].v));
        for a in 0..D {
            s.set_part(&mut dout[a], k, s.canonical_nan(corners[0].d[a]));
        }
    });
    (out, dout)
}

/// Stage 2 for `D` axes: the value, and the value with its derivatives.
/// Kernels avoid closures, `Fn` calls and `array::map`: those are compiled
/// without the shim's target features and need not inline, leaving every
/// intrinsic an out-of-line call.
pub trait Dims<const D: usize> {
    /// The noise at one step. With `FRESH`, stage 2 makes each axis's
    /// offset minus one and (quintic) fade per part from the offset, where
    /// they are used, and with `NEXT` the upper cells as the lower plus one
    /// (the full-coordinate hash; the permutation hash reads its stage-1
    /// cells either way): stage 1 and 2 then keep far fewer values alive
    /// across the step (the whole-step values of 3 or 4 axes outgrow the
    /// register file). Callers pass them only where that gives the same
    /// bits: `FRESH` for the quintic fade (stage 1 made with `fresh`),
    /// `NEXT` where no axis has a period.
    fn eval<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool>(
        s: S,
        r: &H::Ready<'_, S>,
        axes: &[Axis<S, H>; D],
    ) -> S::F;
    fn eval_grad<S: Simd, K: Kind, H: LatticeHash>(
        s: S,
        r: &H::Ready<'_, S>,
        curve: Fade,
        axes: &[Axis<S, H>; D],
    ) -> (S::F, [S::F; D]);
    /// The blend of one part's corners: hashes `g` (corner `i + 2j + 4k +
    /// 8l`), the axes' offsets and fades `p`.
    fn blend<S: Simd, K: Kind, H: LatticeHash>(
        s: S,
        g: &[H::Part<S>; 16],
        p: &[Part<S>; D],
    ) -> S::P;
}

/// The lattice noise of each dimension, as [`Dims`].
pub struct Noise;

macro_rules! dims {
    ($d:literal, |$s:ident, $r:ident, $a:ident| $eval:expr, |$bs:ident, $g:ident, $p:ident| $blend:expr) => {
        impl Dims<$d> for Noise {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool>(
                $s: S,
                $r: &H::Ready<'_, S>,
                $a: &[Axis<S, H>; $d],
            ) -> S::F {
                $eval
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval_grad<S: Simd, K: Kind, H: LatticeHash>(
                s: S,
                r: &H::Ready<'_, S>,
                curve: Fade,
                a: &[Axis<S, H>; $d],
            ) -> (S::F, [S::F; $d]) {
                blend_grad::<S, K, H, $d>(s, r, curve, a)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn blend<S: Simd, K: Kind, H: LatticeHash>(
                $bs: S,
                $g: &[H::Part<S>; 16],
                $p: &[Part<S>; $d],
            ) -> S::P {
                $blend
            }
        }
    };
}
// 1D: the lerp of the two corners.
dims!(
    1,
    |s, r, a| noise1_axes::<S, K, H, FRESH, NEXT>(s, r, &a[0]),
    |s, g, p| lerp(
        p[0].fade,
        K::corner::<S, H, 1>(s, g[0], [p[0].t0]),
        K::corner::<S, H, 1>(s, g[1], [p[0].t1]),
    )
);
// 2D: corners i + 2j, blended along x, then y.
dims!(
    2,
    |s, r, a| noise2_axes::<S, K, H, FRESH, NEXT>(s, r, &a[0], &a[1]),
    |s, g, p| {
        let [x, y] = p;
        lerp(
            y.fade,
            lerp(
                x.fade,
                K::corner::<S, H, 2>(s, g[0], [x.t0, y.t0]),
                K::corner::<S, H, 2>(s, g[1], [x.t1, y.t0]),
            ),
            lerp(
                x.fade,
                K::corner::<S, H, 2>(s, g[2], [x.t0, y.t1]),
                K::corner::<S, H, 2>(s, g[3], [x.t1, y.t1]),
            ),
        )
    }
);
// 3D: Ken Perlin's improved noise (with `GradientKind` and the permutation).
dims!(
    3,
    |s, r, a| noise3_axes::<S, K, H, FRESH, NEXT>(s, r, &a[0], &a[1], &a[2]),
    |s, g, p| cube::<S, K, H, 3>(s, &g[..8], p, p[2].t0)
);
// 4D: 16 corners i + 2j + 4k + 8l, two cubes blended along w.
dims!(
    4,
    |s, r, a| noise4_axes::<S, K, H, FRESH, NEXT>(s, r, a),
    |s, g, p| {
        let [x, y, z, w] = p;
        let xyz = [*x, *y, *z];
        let near = cube::<S, K, H, 4>(s, &g[..8], &xyz, w.t0);
        let far = cube::<S, K, H, 4>(s, &g[8..], &xyz, w.t1);
        lerp(w.fade, near, far)
    }
);

/// Stage 2 of one step from its axes ([`Dims::eval`]) in a function of its
/// own ([`Simd::outlined`]): compiled once per level, corner kind, hash
/// mode, dimension and stage-1 form (`FRESH`, `NEXT`), and called by every
/// stage 1 that feeds it: `f32` and `f64` points and fractal octaves. (The
/// default lattice's part-by-part path, `noise_parts`, keeps its stage 2
/// inline, since its stage 1 runs inside it; so do grid rows, measured.) The call and the axes
/// passed through memory cost a few instructions per step of `S::LANES`
/// points; every copy of stage 2 inlined into its callers cost the build
/// far more.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn stage2<S, K, H, const FRESH: bool, const NEXT: bool, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    axes: &[Axis<S, H>; D],
) -> S::F
where
    S: Simd,
    K: Kind,
    H: LatticeHash,
    Noise: Dims<D>,
{
    s.outlined(Stage2::<'_, '_, S, K, H, FRESH, NEXT, D> {
        r,
        axes,
        _kind: PhantomData,
    })
}

/// [`stage2`] with derivatives ([`Dims::eval_grad`]).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn stage2_grad<S, K, H, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    curve: Fade,
    axes: &[Axis<S, H>; D],
) -> (S::F, [S::F; D])
where
    S: Simd,
    K: Kind,
    H: LatticeHash,
    Noise: Dims<D>,
{
    s.outlined(Stage2Grad::<'_, '_, S, K, H, D> {
        r,
        curve,
        axes,
        _kind: PhantomData,
    })
}

/// [`stage2`]'s outlined step.
struct Stage2<
    'a,
    'r,
    S: Simd,
    K,
    H: LatticeHash,
    const FRESH: bool,
    const NEXT: bool,
    const D: usize,
> {
    r: &'a H::Ready<'r, S>,
    axes: &'a [Axis<S, H>; D],
    _kind: PhantomData<K>,
}

impl<S: Simd, K: Kind, H: LatticeHash, const FRESH: bool, const NEXT: bool, const D: usize>
    StepJob<S> for Stage2<'_, '_, S, K, H, FRESH, NEXT, D>
where
    Noise: Dims<D>,
{
    type Output = S::F;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> S::F {
        Noise::eval::<S, K, H, FRESH, NEXT>(s, self.r, self.axes)
    }
}

/// [`stage2_grad`]'s outlined step.
struct Stage2Grad<'a, 'r, S: Simd, K, H: LatticeHash, const D: usize> {
    r: &'a H::Ready<'r, S>,
    curve: Fade,
    axes: &'a [Axis<S, H>; D],
    _kind: PhantomData<K>,
}

impl<S: Simd, K: Kind, H: LatticeHash, const D: usize> StepJob<S> for Stage2Grad<'_, '_, S, K, H, D>
where
    Noise: Dims<D>,
{
    type Output = (S::F, [S::F; D]);

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> (S::F, [S::F; D]) {
        Noise::eval_grad::<S, K, H>(s, self.r, self.curve, self.axes)
    }
}

/// Loads `src[at..at + LANES]`, zero-padded past its end (or zeros when
/// `src` is empty).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn load_padded<S: Simd>(s: S, src: &[f32], at: usize) -> S::F {
    if at + S::LANES <= src.len() {
        s.load(&src[at..at + S::LANES])
    } else {
        let mut padded = [0.0f32; MAX_LANES];
        let rest = src.get(at..).unwrap_or(&[]);
        padded[..rest.len()].copy_from_slice(rest);
        s.load(&padded[..S::LANES])
    }
}

/// Stores a step into `dst`: `LANES` values, or fewer for the last, partial
/// step (through a padded buffer).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn store_step<S: Simd>(s: S, v: S::F, dst: &mut [f32]) {
    if dst.len() == S::LANES {
        s.store(v, dst);
    } else {
        let mut result = [0.0f32; MAX_LANES];
        s.store(v, &mut result[..S::LANES]);
        let len = dst.len();
        dst.copy_from_slice(&result[..len]);
    }
}

/// How a lattice hashes its corners, as a kernel job receives it: the mode
/// is chosen once per job ([`Hashing::run`]), never per point.
#[derive(Clone, Copy)]
pub(crate) enum Hashing<'a> {
    /// Ken's permutation chain ([`PermutationHash`]).
    Table(&'a PermTable),
    /// The full-coordinate hash with this seed key ([`CoordinateHash`]).
    Coordinates(u32),
}

/// Code that runs with a hash mode and its loaded state.
pub(crate) trait WithHash<S: Simd> {
    type Output;
    fn run<H: LatticeHash>(self, s: S, r: &H::Ready<'_, S>) -> Self::Output;
}

impl Hashing<'_> {
    /// Runs `f` with this mode's [`LatticeHash`] type and loaded state.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn run<S: Simd, W: WithHash<S>>(self, s: S, f: W) -> W::Output {
        match self {
            Hashing::Table(t) => f.run::<PermutationHash>(s, &s.perm_table(t)),
            Hashing::Coordinates(seed) => f.run::<CoordinateHash>(s, &s.splat_u32(seed)),
        }
    }
}

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
    let floor = c.floor();
    let offset = (c - floor) as f32;
    let cell = lattice_mod(floor, period);
    let next = if cell + 1 == period { 0 } else { cell + 1 };
    (cell as u32, next as u32, offset)
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
/// same grid of steps). NaN and ±inf are returned as they are.
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
    let floor = c.floor();
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

/// [`centre_in_period`] of every lane of an `f32` step, in vectors: the
/// same bits as `centre_in_period(f64::from(c), period) as f32`, for every
/// lane with −2²¹ < floor(c) < 2²¹; `None` (the caller then centres lane by
/// lane) if a lane is outside, NaN or ±inf, or the period is over
/// [`VECTOR_PERIOD_MAX`](hash::VECTOR_PERIOD_MAX).
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
pub(crate) fn centre_step_in_period<S: Simd>(s: S, c: S::F, period: u64) -> Option<S::F> {
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
fn lattice_mod(floor: f64, period: u64) -> u64 {
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

/// Stage 1 results (cells, next cells, offsets) of one axis as a vector
/// axis, as [`axis`] makes it.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn staged_axis<S: Simd, H: LatticeHash>(
    s: S,
    c0: &[u32],
    c1: &[u32],
    t0: &[f32],
    curve: Fade,
    fresh: bool,
) -> Axis<S, H> {
    Axis::new(s, H::staged(s, c0, c1), s.load(t0), curve, fresh)
}

/// Stage 1 of every sample of one grid axis (computed once per fill, in
/// `f64`, by [`stage1`]), padded with zeros to a whole number of steps.
pub(crate) struct AxisSamples {
    pub(crate) len: usize,
    pub(crate) c0: Vec<u32>,
    pub(crate) c1: Vec<u32>,
    pub(crate) t0: Vec<f32>,
}

impl AxisSamples {
    /// Stage 1 of the positions `coords` on an axis with period `period`.
    pub(crate) fn new(coords: &[f64], period: u64) -> AxisSamples {
        let len = coords.len();
        let padded = len.div_ceil(MAX_LANES) * MAX_LANES;
        let mut a = AxisSamples {
            len,
            c0: vec![0; padded],
            c1: vec![0; padded],
            t0: vec![0.0; padded],
        };
        for (i, &c) in coords.iter().enumerate() {
            (a.c0[i], a.c1[i], a.t0[i]) = stage1(c, period);
        }
        a
    }

    /// Sample `i` as the same value on every lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat<S: Simd, H: LatticeHash>(&self, s: S, i: usize, curve: Fade) -> Axis<S, H> {
        let t = s.splat(self.t0[i]);
        let (c0, c1) = H::splat_cells(s, self.c0[i], self.c1[i]);
        Axis {
            c0,
            c1,
            t0: t,
            t1: t - s.splat(1.0),
            fade: fade(s, curve, t),
        }
    }
}

/// Rows `first_row..` of a grid (as many as `out` holds): row `r` is the run
/// of x samples at the other axes' indices `r` in mixed radix (y fastest).
/// Stage 2 sees the x axis from its samples and the other axes broadcast, so
/// every sample is computed exactly as the `f64` point path computes it.
pub(crate) struct FillGridRows<'a, K, const D: usize> {
    pub(crate) hashing: Hashing<'a>,
    pub(crate) curve: Fade,
    /// The corner kind (a zero-sized marker).
    pub(crate) _kind: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
}

impl<K: Kind, const D: usize> Job for FillGridRows<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        self.hashing.run(s, self)
    }
}

impl<K: Kind, S: Simd, const D: usize> WithHash<S> for FillGridRows<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: LatticeHash>(self, s: S, r: &H::Ready<'_, S>) {
        let (axes, curve) = (self.axes, self.curve);
        let (n, x) = (S::LANES, axes[0]);
        if x.len == 0 {
            return;
        }
        for (row_index, row) in self.out.chunks_exact_mut(x.len).enumerate() {
            let mut all = [x.splat::<S, H>(s, 0, curve); D];
            let mut rest = self.first_row + row_index;
            for d in 1..D {
                all[d] = axes[d].splat(s, rest % axes[d].len, curve);
                rest /= axes[d].len;
            }
            for (k, dst) in row.chunks_mut(n).enumerate() {
                let at = k * n;
                all[0] = staged_axis(s, &x.c0[at..], &x.c1[at..], &x.t0[at..], curve, false);
                // Inline: the call and the axes through memory cost a
                // fractal grid's coarse octaves 8% (four-octave 2D fBm).
                let v = Noise::eval::<S, K, H, false, false>(s, r, &all);
                store_step(s, v, dst);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::centre_in_period;
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
    /// `centre_step_in_period`: per step, `None` or the lanes' bits.
    struct CentreSteps<'a> {
        values: &'a [f32],
        period: u64,
    }

    impl Job for CentreSteps<'_> {
        type Output = (usize, Vec<Option<Vec<u32>>>);
        fn run<S: Simd>(self, s: S) -> Self::Output {
            let steps = self.values.chunks_exact(S::LANES).map(|step| {
                let centred = super::centre_step_in_period(s, s.load(step), self.period)?;
                let mut lanes = [0.0f32; MAX_LANES];
                s.store(centred, &mut lanes[..S::LANES]);
                Some(lanes[..S::LANES].iter().map(|v| v.to_bits()).collect())
            });
            (S::LANES, steps.collect())
        }
    }

    /// The vector centring gives `centre_in_period`'s bits (through `f64`)
    /// in every lane, at every level this CPU has, and declines a step
    /// exactly when a lane is outside −2²¹ < floor(c) < 2²¹ (NaN and ±inf
    /// included) or the period is over 2²⁴. Values: class members around
    /// ±period/2 and their neighbouring floats (the ties), ±0, subnormals,
    /// tiny negatives (whose fraction c − floor(c) is not exact in `f32`),
    /// random full-mantissa values from 2⁻³⁰ to 2²², the range's edges,
    /// NaN and ±inf.
    #[test]
    fn centre_step_in_period_matches_centre_in_period() {
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
            // In range: pad to whole steps of every width.
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
                // One edge value per step, in a different lane each time.
                let mut step = [0.25f32; MAX_LANES];
                step[values.len() / MAX_LANES % MAX_LANES] = edge;
                values.extend(step);
            }
            let fits = |v: f32| v.floor().abs() < limit && period <= 1 << 24;
            for &level in Level::all() {
                if !level.is_available() {
                    eprintln!("centre_step_in_period: {level} NOT tested (this CPU lacks it)");
                    continue;
                }
                let (lanes, steps) = dispatch(
                    level,
                    CentreSteps {
                        values: &values,
                        period,
                    },
                );
                for (i, (step, got)) in values.chunks_exact(lanes).zip(&steps).enumerate() {
                    assert_eq!(
                        got.is_some(),
                        step.iter().all(|&v| fits(v)),
                        "{level}, period {period}, step {i}: {step:?}"
                    );
                    assert!(got.is_some() || i * lanes >= in_range || period > 1 << 24);
                    let Some(got) = got else {
                        declined += 1;
                        continue;
                    };
                    vector += 1;
                    for (&c, &bits) in step.iter().zip(got) {
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
