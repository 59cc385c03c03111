//! Lattice noise in any number of dimensions up to
//! [`MAX_LATTICE_DIMENSIONS`], with the dimension a run-time value, what
//! `Perlin` and `Value` run in 5 dimensions and more: values by
//! [`blend_blocks`] (the 16 corners of the first four axes written out as
//! one block, the blocks of the upper axes walked at run time; one copy
//! per level and corner kind for 5D, one for 6D and up), derivatives by
//! [`blend_nd`] (every corner walked at run time, one copy per level and
//! corner kind). Both give the same values, bit for bit.
//!
//! What makes the blocks fast (each the same bits as the plain walk):
//! - stage 1 part by part from `f32` coordinates ([`BlockInput`]), nothing
//!   of it through memory;
//! - a corner's term is a product made once per part and axis, its sign
//!   from the hash ([`Simd::signed_top`]): no multiply per corner;
//! - keys folded once per axis (`hash::fold`, linear over xor), so a
//!   corner's hash is one xor and one multiply.
//!
//! It is the coordinates mode's lattice written for `D` axes:
//! - each corner's hash is the `hash` module's definition over `D` cells
//!   (`key_a(c) = m ^ (m >> a)`, `m = c · PRIME[a]`, `key_0(c) = m`: every
//!   axis its own odd multiplier and shift), so no two cells within 2³² along any axis
//!   share a hash;
//! - gradients are the hypercube's `2^D` diagonals `(±g, …, ±g)`, the sign
//!   of component `a` bit `32 − D + a` of the hash (the rule of 3D and 4D),
//!   with `g = ⌊1024 / D⌋ / 512` ([`diagonal_component`]: 341/512 in 3D, ½ in
//!   4D, as there), so the largest |noise|, `g · D / 2` at a cell's centre,
//!   stays at or just below 1 for every fade; value noise takes the top 24
//!   bits as its height;
//! - the `2^D` corners are visited in index order (bit `a` = far on axis
//!   `a`) and blended along x, then y, …, as in 1D–4D: a corner's partial
//!   blends wait on a stack of one value per axis, so memory stays `O(D)`.
//!
//! Run at 3 or 4 axes `blend_nd` gives the 3D and 4D kernels' bits (a unit
//! test checks it); the cost is `2^D` corners of `O(D)` work each.

use super::axis::splat_part;
use super::hash::{axis_key, finish, finish_folded, fold};
use super::stage2::lerp;
use super::{Axis, CoordinatesMode, Corners, HashModeKernel};
use crate::Fade;
use crate::fade::faded;
use crate::simd::{MAX_LANES, Simd};
use std::marker::PhantomData;

/// The most dimensions `Perlin` and `Value` compute: `2^16` corners per
/// point.
pub const MAX_LATTICE_DIMENSIONS: usize = 16;

/// The gradient component magnitude in `dimensions` (3 and up): the largest
/// multiple of 1/512 at most `2 / dimensions`, so that the largest noise,
/// `dimensions / 2` of it, is at most 1.
pub(crate) fn diagonal_component(dimensions: usize) -> f32 {
    (1024 / dimensions.max(3)) as f32 / 512.0
}

/// One pack of lattice noise over `axes` (stage 1 of each axis; their
/// number, 1 to [`MAX_LATTICE_DIMENSIONS`], is the dimension) with seed key
/// `seed`, and its derivatives: gradient noise when `sloped`, value noise
/// otherwise; `grad` gets one register per axis (`slopes[a]` is the fade's
/// slope at axis `a`'s offset), made by the product rule at each blend as
/// the 1D–4D kernels make them (`stage2::blend_grad`). Values alone take
/// [`blend_blocks`] (5 axes and more, the same bits, much faster); fewer
/// axes reach here only from tests.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn blend_nd<S: Simd>(
    s: S,
    seed: S::UP,
    axes: &[Axis<S, CoordinatesMode>],
    sloped: bool,
    slopes: &[S::F],
    grad: &mut [S::F],
) -> S::F {
    const MAX: usize = MAX_LATTICE_DIMENSIONS;
    let d = axes.len().clamp(1, MAX);
    let g = diagonal_component(d);
    let mut out = axes[0].t0;
    let zero = splat_part(s, 0.0);
    // Per axis: the change of key from the lower to the upper cell, the
    // gradient products `(+g·t, −g·t)` at the near and far offsets, the fade
    // and its slope; the halves waiting to be blended along each axis (with
    // their derivatives), and the corner's derivatives and sign bits.
    // Declared once, not per part or corner: with the dimension a run-time
    // value, each fresh array is a store of all its entries.
    let mut flip = [seed; MAX];
    let mut near = [[zero; 2]; MAX];
    let mut far = [[zero; 2]; MAX];
    let mut fade = [zero; MAX];
    let mut slope = [zero; MAX];
    let mut stack = [zero; MAX];
    let mut stack_d = [[zero; MAX]; MAX];
    let mut value_d = [zero; MAX];
    let mut signs = [seed; MAX];
    // A plain loop over the parts (not `for_each_part!`): the corners' work
    // dwarfs a part's selection, and one copy of the body is a quarter of
    // the machine code.
    for k in 0..S::PARTS {
        // The lower cells' keys, xored.
        let mut base = seed;
        let (plus, minus) = (splat_part(s, g), splat_part(s, -g));
        for (a, axis) in axes.iter().enumerate().take(d) {
            let k0 = axis_key(s, s.u32_part_ref(&axis.c0, k), a);
            let k1 = axis_key(s, s.u32_part_ref(&axis.c1, k), a);
            base = s.xor_u32(base, k0);
            flip[a] = s.xor_u32(k0, k1);
            let (t0, t1) = (s.part_ref(&axis.t0, k), s.part_ref(&axis.t1, k));
            // `t·(−g)` is the product the 3D and 4D kernels form (not
            // `0 − t·g`, which differs at t = 0 by the zero's sign).
            near[a] = [t0 * plus, t0 * minus];
            far[a] = [t1 * plus, t1 * minus];
            fade[a] = s.part_ref(&axis.fade, k);
            slope[a] = s.part_ref(&slopes[a], k);
        }
        let mut result = zero;
        let mut v = base;
        for i in 0..1usize << d {
            // From corner i − 1 to i, the axes whose bit changes change key.
            let mut changed = if i == 0 { 0 } else { i ^ (i - 1) };
            let mut a = 0;
            while changed != 0 {
                if changed & 1 == 1 {
                    v = s.xor_u32(v, flip[a]);
                }
                changed >>= 1;
                a += 1;
            }
            let h = finish(s, v);
            let mut value = if sloped {
                // Axis a's sign is bit 32 − d + a: the hash doubled
                // d − 1 − a times puts it at the top (opaque, the doubles
                // stay additions).
                signs[d - 1] = s.opaque_up(h);
                for a in (0..d - 1).rev() {
                    signs[a] = s.add_u32(signs[a + 1], signs[a + 1]);
                }
                let at = |a: usize| if i >> a & 1 == 1 { far[a] } else { near[a] };
                let mut dot = s.top2(at(0), signs[0]);
                for (a, &sign) in signs.iter().enumerate().take(d).skip(1) {
                    dot = dot + s.top2(at(a), sign);
                }
                for (dv, &sign) in value_d.iter_mut().zip(&signs).take(d) {
                    *dv = s.top2([plus, minus], sign);
                }
                dot
            } else {
                // A height: no slope of its own.
                value_d[..d].fill(zero);
                CoordinatesMode::height(s, h)
            };
            // Blend with the waiting halves along each axis whose bit this
            // corner completes; otherwise wait.
            let mut a = 0;
            while a < d && i >> a & 1 == 1 {
                let diff = value - stack[a];
                for (dv, &dl) in value_d.iter_mut().zip(&stack_d[a]).take(d) {
                    *dv = dl + fade[a] * (*dv - dl);
                }
                value_d[a] = value_d[a] + slope[a] * diff;
                value = stack[a] + fade[a] * diff;
                a += 1;
            }
            if a == d {
                result = value;
            } else {
                stack[a] = value;
                stack_d[a][..d].copy_from_slice(&value_d[..d]);
            }
        }
        s.set_part(&mut out, k, s.canonical_nan(result));
        for (dst, &dv) in grad.iter_mut().zip(&value_d).take(d) {
            s.set_part(dst, k, s.canonical_nan(dv));
        }
    }
    out
}

/// What the 16 corners of one block read: the first four axes' offsets
/// times the gradient component, fades and key changes in one part, and the
/// upper axes' products chosen for this block. `K`: gradients or heights;
/// `EXTRA`: room for the axes after axis 4 (none in 5D: then axis 4's sign
/// is the hash's top bit).
///
/// A corner's term on an axis is `offset · (±g)`, the sign from the hash.
/// Both products are made once per part and axis ([`Signed`]) and the hash
/// picks one, so a corner has no multiplication: the same products, so the
/// same bits, as multiplying at every corner.
struct Block<S: Simd, K, const EXTRA: usize> {
    /// `[near, far]` per axis.
    t: [[Signed<S>; 2]; 4],
    fade: [S::P; 4],
    /// Each axis's key change, folded (see [`fold`]); the keys the corners
    /// are given are folded too.
    flip: [S::UP; 4],
    /// Axis 4's in this block, and `2^(d − 5)`: the hash times it has axis
    /// 4's sign bit on top (not read in 5D).
    t4: Signed<S>,
    lift4: S::UP,
    /// Axes 5 and up: theirs in this block and lifts `2^(d − 1 − a)`.
    upper: [(Signed<S>, S::UP); EXTRA],
    uppers: usize,
    kind: PhantomData<K>,
}

/// An offset times the gradient component, `[t · g, t · (−g)]`.
type Signed<S> = [<S as Simd>::P; 2];

/// [`Signed`] of offset `t` for component `g` (`[g, −g]`).
#[cfg_attr(not(debug_assertions), inline(always))]
fn signed<S: Simd>(t: S::P, [g, minus_g]: [S::P; 2]) -> Signed<S> {
    [t * g, t * minus_g]
}

impl<S: Simd, K: Corners, const EXTRA: usize> Block<S, K, EXTRA> {
    /// The corner with combined key `v`, `o` its products on the first
    /// four axes: `gradient · offset` summed in axis order (or the height).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn corner(&self, s: S, v: S::UP, o: [Signed<S>; 4]) -> S::P {
        let h = finish_folded(s, v);
        if !K::SLOPED {
            return CoordinatesMode::height(s, h);
        }
        // Axis a's sign is bit 32 − d + a: the hash times 2^(d − 1 − a)
        // (wrapping: a shift) puts it at the top; axis 3's is axis 4's
        // doubled, and so on down.
        let h = s.opaque_up(h);
        let s4 = if EXTRA == 0 {
            h
        } else {
            s.mul_u32(h, self.lift4)
        };
        let s3 = s.add_u32(s4, s4);
        let s2 = s.add_u32(s3, s3);
        let s1 = s.add_u32(s2, s2);
        let s0 = s.add_u32(s1, s1);
        let mut dot = s.signed_top(o[0], s0);
        dot = dot + s.signed_top(o[1], s1);
        dot = dot + s.signed_top(o[2], s2);
        dot = dot + s.signed_top(o[3], s3);
        dot = dot + s.signed_top(self.t4, s4);
        if EXTRA > 0 {
            for &(t, lift) in self.upper.iter().take(self.uppers) {
                dot = dot + s.signed_top(t, s.mul_u32(h, lift));
            }
        }
        dot
    }

    /// Corners `v` and `v ^ flip[0]` blended along x.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn edge(&self, s: S, v: S::UP, [y, z, w]: [Signed<S>; 3]) -> S::P {
        let [x0, x1] = self.t[0];
        let near = self.corner(s, v, [x0, y, z, w]);
        let far = self.corner(s, s.xor_u32(v, self.flip[0]), [x1, y, z, w]);
        lerp(self.fade[0], near, far)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn square(&self, s: S, v: S::UP, [z, w]: [Signed<S>; 2]) -> S::P {
        let [y0, y1] = self.t[1];
        let near = self.edge(s, v, [y0, z, w]);
        let far = self.edge(s, s.xor_u32(v, self.flip[1]), [y1, z, w]);
        lerp(self.fade[1], near, far)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cube(&self, s: S, v: S::UP, w: Signed<S>) -> S::P {
        let [z0, z1] = self.t[2];
        let near = self.square(s, v, [z0, w]);
        let far = self.square(s, s.xor_u32(v, self.flip[2]), [z1, w]);
        lerp(self.fade[2], near, far)
    }

    /// The 16 corners of the first four axes from combined key `v`,
    /// blended along x, y, z, then w: corners `16j` to `16j + 15` of
    /// [`blend_nd`]'s walk, the same operations in the same order.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tesseract(&self, s: S, v: S::UP) -> S::P {
        let [w0, w1] = self.t[3];
        let near = self.cube(s, v, w0);
        let far = self.cube(s, s.xor_u32(v, self.flip[3]), w1);
        lerp(self.fade[3], near, far)
    }
}

/// Where [`blend_blocks`] reads each part's stage 1.
#[derive(Clone, Copy)]
pub(crate) enum BlockInput<'a, S: Simd> {
    /// Stage 1 of the whole pack, one [`Axis`] per axis (`f64`
    /// coordinates, periods).
    Axes(&'a [Axis<S, CoordinatesMode>]),
    /// A pack's `f32` coordinates, lanes per axis, with no period and the
    /// default (quintic) fade: each part's stage 1 is made where it is
    /// read, by [`axis`](super::axis)'s operations on its lanes (so its
    /// bits), and nothing of it goes through memory. Its cells are right
    /// while every |floor| < 2³¹ (else `blend_blocks` says `None`). Other
    /// fades take `Axes` (one copy of this stage fewer per level).
    Coordinates(&'a [[f32; MAX_LANES]]),
}

impl<S: Simd> BlockInput<'_, S> {
    fn dims(&self) -> usize {
        match self {
            BlockInput::Axes(axes) => axes.len(),
            BlockInput::Coordinates(c) => c.len(),
        }
    }
}

/// One part of one axis's stage 1: `([c0, c1], [t0, t1], fade)`.
type AxisPart<S> = ([<S as Simd>::UP; 2], [<S as Simd>::P; 2], <S as Simd>::P);

/// [`AxisPart`] `k` of a staged axis.
#[cfg_attr(not(debug_assertions), inline(always))]
fn axis_part<S: Simd>(s: S, axis: &Axis<S, CoordinatesMode>, k: usize) -> AxisPart<S> {
    (
        [s.u32_part_ref(&axis.c0, k), s.u32_part_ref(&axis.c1, k)],
        [s.part_ref(&axis.t0, k), s.part_ref(&axis.t1, k)],
        s.part_ref(&axis.fade, k),
    )
}

/// [`AxisPart`] `k` of an axis's `f32` lanes `c` with the quintic fade:
/// [`axis`](super::axis)'s operations on its lanes.
#[cfg_attr(not(debug_assertions), inline(always))]
fn coordinate_part<S: Simd>(
    s: S,
    c: &[f32; MAX_LANES],
    k: usize,
    check: &mut S::UP,
) -> AxisPart<S> {
    let x = s.load_part(&c[..S::LANES], k);
    let floor = s.floor_part(x);
    let [c0] = s.cells32_parts_checked(&[floor], check);
    let t0 = x - floor;
    (
        [c0, s.add_u32(c0, s.splat_u32(1))],
        [t0, t0 - splat_part(s, 1.0)],
        faded(s, Fade::Quintic, t0),
    )
}

/// [`blend_nd`]'s values (no derivatives) in 5 dimensions and more, with
/// the same bits: the 16 corners of the first four axes written out as one
/// block ([`Block`]: every near or far choice a constant, the operands in
/// registers), the `2^(d − 4)` blocks of the upper axes walked at run time
/// and blended as `blend_nd` blends corners. `UPPER` is the room for axes
/// 4 and up (1 for 5D, `MAX_LATTICE_DIMENSIONS − 4` for the rest) and
/// `EXTRA` one less: a copy for 5D, with no loop in a corner and no
/// array larger than it needs, and one for more.
///
/// `None` when `input` is coordinates with a cell out of the conversion's
/// range (|floor| ≥ 2³¹, or not finite): the caller then makes stage 1 of
/// the whole pack and asks again.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn blend_blocks<S: Simd, K: Corners, const UPPER: usize, const EXTRA: usize>(
    s: S,
    seed: S::UP,
    input: BlockInput<'_, S>,
) -> Option<S::F> {
    let d = input.dims().clamp(5, 4 + UPPER);
    let zero = splat_part(s, 0.0);
    let g = diagonal_component(d);
    let g = [splat_part(s, g), splat_part(s, -g)];
    let mut out = s.splat(0.0);
    let mut check = s.cells_check();
    let mut block = Block::<S, K, EXTRA> {
        t: [[[zero; 2]; 2]; 4],
        fade: [zero; 4],
        flip: [seed; 4],
        t4: [zero; 2],
        lift4: s.splat_u32(1 << (d - 5)),
        upper: [([zero; 2], seed); EXTRA],
        uppers: d - 5,
        kind: PhantomData,
    };
    for (u, upper) in block.upper.iter_mut().enumerate().take(d - 5) {
        upper.1 = s.splat_u32(1 << (d - 6 - u));
    }
    // Axes 4 and up: key changes, products and fades (the first four are
    // in `block`), and the blocks waiting to be blended along each.
    let mut flip = [seed; UPPER];
    let mut offsets = [[[zero; 2]; 2]; UPPER];
    let mut fades = [zero; UPPER];
    let mut stack = [zero; UPPER];
    for k in 0..S::PARTS {
        let mut v = seed;
        // Axis a's key into `v`, and what its corners read, from its part
        // `$part` (macros, not closures: a closure is not inlined into the
        // level's function).
        macro_rules! axis {
            ($a:expr, $part:expr) => {{
                let a = $a;
                let ([c0, c1], [t0, t1], fade): AxisPart<S> = $part;
                let k0 = axis_key(s, c0, a);
                let k1 = axis_key(s, c1, a);
                v = s.xor_u32(v, k0);
                let t = [signed::<S>(t0, g), signed::<S>(t1, g)];
                if a < 4 {
                    block.flip[a] = fold(s, s.xor_u32(k0, k1));
                    block.t[a] = t;
                    block.fade[a] = fade;
                } else {
                    flip[a - 4] = fold(s, s.xor_u32(k0, k1));
                    offsets[a - 4] = t;
                    fades[a - 4] = fade;
                }
            }};
        }
        // Every axis, axis `$a`'s part `$part`; in 5D written out, each
        // axis's shift a constant.
        macro_rules! all_axes {
            ($a:ident => $part:expr) => {
                if EXTRA == 0 {
                    for_five!($a => axis!($a, $part));
                } else {
                    for $a in 0..d {
                        axis!($a, $part);
                    }
                }
            };
        }
        macro_rules! for_five {
            ($a:ident => $e:expr) => {{
                {
                    let $a = 0;
                    $e
                }
                {
                    let $a = 1;
                    $e
                }
                {
                    let $a = 2;
                    $e
                }
                {
                    let $a = 3;
                    $e
                }
                {
                    let $a = 4;
                    $e
                }
            }};
        }
        // The input matched once per part, not per axis.
        match input {
            BlockInput::Axes(axes) => all_axes!(a => axis_part(s, &axes[a], k)),
            BlockInput::Coordinates(c) => {
                all_axes!(a => coordinate_part(s, &c[a], k, &mut check))
            }
        }
        // Keys and key changes from here on are folded (the first half of
        // `finish`, linear over xor): a corner's folded key is one xor from
        // its neighbour's, and its hash one multiply.
        v = fold(s, v);
        let result = if EXTRA == 0 && !S::SIGNED_TOP_BLENDS {
            // 5D: the two blocks written out (axis 4 near, then far), as
            // the walk below makes them. (Where a product's sign is a
            // blend of two products, AVX2, their registers overflow: the
            // walk is faster there.)
            block.t4 = offsets[0][0];
            let near = block.tesseract(s, v);
            block.t4 = offsets[0][1];
            let far = block.tesseract(s, s.xor_u32(v, flip[0]));
            near + fades[0] * (far - near)
        } else {
            let mut result = zero;
            for j in 0..1usize << (d - 4) {
                // From block j − 1 to j, the upper axes whose bit changes
                // change key.
                let changed = if j == 0 { 0 } else { j ^ (j - 1) };
                for (u, &flip) in flip.iter().enumerate().take(d - 4) {
                    if changed >> u & 1 == 1 {
                        v = s.xor_u32(v, flip);
                    }
                }
                block.t4 = offsets[0][j & 1];
                for (u, upper) in block.upper.iter_mut().enumerate().take(d - 5) {
                    upper.0 = offsets[u + 1][j >> (u + 1) & 1];
                }
                let mut value = block.tesseract(s, v);
                // Blend with the waiting blocks along each upper axis whose
                // bit this block completes; otherwise wait.
                let mut u = 0;
                while u < d - 4 && j >> u & 1 == 1 {
                    value = stack[u] + fades[u] * (value - stack[u]);
                    u += 1;
                }
                if u == d - 4 {
                    result = value;
                } else {
                    stack[u] = value;
                }
            }
            result
        };
        s.set_part(&mut out, k, s.canonical_nan(result));
    }
    s.cells_checked(check).then_some(out)
}

#[cfg(test)]
mod tests {
    use crate::field::{Field, PointsNd, fill_grad_nd, fill_nd, point, point_f64, point_grad};
    use crate::kernel::{GradientCorners, ValueCorners};
    use crate::sources::lattice::Lattice;
    use crate::{Fade, Level};

    /// Coordinates that reach every path: lattice points, ±0, the middle of
    /// cells, far cells (beyond 2³¹, where cells wrap), NaN and infinities.
    fn axis_values(axis: usize, n: usize) -> Vec<f32> {
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.5,
            1e9,
            -3e9,
            7e12,
            f32::NAN,
            f32::INFINITY,
            1e-40,
        ];
        let mut state = 0x9E37_79B9u32.wrapping_mul(axis as u32 + 1);
        (0..n)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                if i % 7 == axis % 7 {
                    special[(i / 7 + axis) % special.len()]
                } else {
                    (state as f32 / u32::MAX as f32 - 0.5) * 200.0
                }
            })
            .collect()
    }

    /// The 1D–4D kernels at one point through the scalar backend (the
    /// definition: every level's batches give its bits, the suite checks),
    /// `f32` and `f64`, and with derivatives. Points, not batches: a batch
    /// here would compile every driver of the library into this test
    /// binary again (60 of its 64 seconds of build).
    fn fixed<K: crate::kernel::Corners + std::fmt::Debug>(l: &Lattice<K>, c: &[f32]) -> f32 {
        match *c {
            [x] => point(l, [x]),
            [x, y] => point(l, [x, y]),
            [x, y, z] => point(l, [x, y, z]),
            [x, y, z, w] => point(l, [x, y, z, w]),
            _ => unreachable!(),
        }
    }

    fn fixed_f64<K: crate::kernel::Corners + std::fmt::Debug>(l: &Lattice<K>, c: &[f64]) -> f32 {
        match *c {
            [x] => point_f64(l, [x]),
            [x, y] => point_f64(l, [x, y]),
            [x, y, z] => point_f64(l, [x, y, z]),
            [x, y, z, w] => point_f64(l, [x, y, z, w]),
            _ => unreachable!(),
        }
    }

    fn fixed_grad<K: crate::kernel::Corners + std::fmt::Debug>(
        l: &Lattice<K>,
        c: &[f32],
    ) -> (f32, Vec<f32>) {
        fn to_vec<const D: usize>((v, g): (f32, [f32; D])) -> (f32, Vec<f32>) {
            (v, g.to_vec())
        }
        match *c {
            [x] => to_vec(point_grad(l, [x])),
            [x, y] => to_vec(point_grad(l, [x, y])),
            [x, y, z] => to_vec(point_grad(l, [x, y, z])),
            [x, y, z, w] => to_vec(point_grad(l, [x, y, z, w])),
            _ => unreachable!(),
        }
    }

    /// Run with 3 or 4 axes (and value noise with 1 to 4), the kernel of
    /// any dimension gives the bits of the 1D–4D kernels, at every level
    /// and fade, `f32` and `f64` points: the same hash, gradients and blend.
    #[test]
    fn at_four_axes_or_fewer_it_is_the_fixed_kernels() {
        fn check<K: crate::kernel::Corners + Default + std::fmt::Debug>(dims: &[usize]) {
            let n = 999;
            for &d in dims {
                let coords: Vec<Vec<f32>> = (0..d).map(|a| axis_values(a, n)).collect();
                let wide: Vec<Vec<f64>> = coords
                    .iter()
                    .map(|c| c.iter().map(|&v| f64::from(v) * 1.5).collect())
                    .collect();
                for fade in [Fade::Quintic, Fade::Cubic, Fade::Cosine] {
                    for level in Level::available() {
                        let mut l = Lattice::<K>::coordinates(1234);
                        l.fade = fade;
                        l.set_level(level);
                        let slices: Vec<&[f32]> = coords.iter().map(Vec::as_slice).collect();
                        let wides: Vec<&[f64]> = wide.iter().map(Vec::as_slice).collect();
                        let (mut any, mut any64) = (vec![0.0f32; n], vec![0.0f32; n]);
                        fill_nd(&l, &PointsNd::F32(slices.clone()), &mut any).unwrap();
                        fill_nd(&l, &PointsNd::F64(wides.clone()), &mut any64).unwrap();
                        for i in 0..n {
                            let c: Vec<f32> = slices.iter().map(|a| a[i]).collect();
                            let fixed = fixed(&l, &c);
                            assert_eq!(
                                fixed.to_bits(),
                                any[i].to_bits(),
                                "{d}D {fade:?} {level:?} point {i}: {fixed} vs {}",
                                any[i]
                            );
                            let c: Vec<f64> = wides.iter().map(|a| a[i]).collect();
                            let fixed = fixed_f64(&l, &c);
                            assert_eq!(fixed.to_bits(), any64[i].to_bits(), "{d}D f64 {i}");
                        }
                    }
                }
            }
        }
        check::<GradientCorners>(&[3, 4]);
        check::<ValueCorners>(&[1, 2, 3, 4]);
    }

    /// The same with derivatives: the kernel of any dimension's values and
    /// derivatives at 3 and 4 axes are the 3D and 4D kernels'.
    #[test]
    fn derivatives_at_four_axes_or_fewer_are_the_fixed_kernels() {
        check::<GradientCorners>(&[3, 4]);
        check::<ValueCorners>(&[1, 2, 3, 4]);
    }

    fn check<K: crate::kernel::Corners + Default + std::fmt::Debug>(dims: &[usize]) {
        let n = 555;
        for &d in dims {
            let coords: Vec<Vec<f32>> = (0..d).map(|a| axis_values(a, n)).collect();
            let slices: Vec<&[f32]> = coords.iter().map(Vec::as_slice).collect();
            for fade in [Fade::Quintic, Fade::Cosine, Fade::Linear] {
                for level in Level::available() {
                    let mut l = Lattice::<K>::coordinates(77);
                    l.fade = fade;
                    l.set_level(level);
                    let mut any = vec![vec![0.0f32; n]; d + 1];
                    {
                        let (out, grad) = any.split_first_mut().unwrap();
                        let mut grad: Vec<&mut [f32]> =
                            grad.iter_mut().map(Vec::as_mut_slice).collect();
                        let points = PointsNd::F32(slices.clone());
                        fill_grad_nd(&l, &points, out, &mut grad).unwrap();
                    }
                    for i in 0..n {
                        let c: Vec<f32> = slices.iter().map(|a| a[i]).collect();
                        let (v, g) = fixed_grad(&l, &c);
                        for (a, x) in std::iter::once(v).chain(g).enumerate() {
                            let y = any[a][i];
                            assert_eq!(
                                x.to_bits(),
                                y.to_bits(),
                                "{d}D {fade:?} {level:?} output {a} point {i}: {x} vs {y}",
                            );
                        }
                    }
                }
            }
        }
    }
}
