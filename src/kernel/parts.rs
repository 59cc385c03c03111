//! Stages 1 and 2 part by part for the default lattice ([`noise_parts`]):
//! where a pack's parts are read and written ([`PartsIo`]), and the points
//! out of the cells' range remade one by one afterwards
//! ([`remake_lanes_out_of_range`]).

use super::axis::fresh_part;
use super::{
    CoordinatesMode, Corners, Dims, Noise, PARTS_LOOP_FROM, PartCells, axis, for_each_part,
};
use crate::Fade;
use crate::simd::Simd;
use crate::simd::scalar::Scalar;

/// Stages 1 and 2 part by part, for the default lattice (coordinates
/// mode, `lanes` its seed key on every lane; quintic fade) at `f32`
/// coordinates, its cells made by `cells_of` (without a period or with
/// one): each part's floor, cells, offsets, fades and hashes are made where
/// they are used, so nothing of the pack but the coordinates and the
/// result goes through memory (stage 1 for the whole pack first kept about
/// 40 values of 3D noise alive across it). The same operations on the same
/// lanes as [`axis`](fn@axis) (or `field::coords::periodic_axis`) then
/// [`Dims::eval`] with `FRESH`, so the same bits.
///
/// The lanes whose cells `cells_of` cannot make are folded into `check`
/// (made by [`Simd::cells_check`], over any number of packs): while
/// [`Simd::cells_checked`] holds, every coordinate was finite and so is
/// every result (no NaN to make canonical). Otherwise the caller remakes
/// those lanes or packs another way ([`remake_lanes_out_of_range`] without
/// a period).
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(unused_assignments)] // the last part's `next` is made by no part
pub(crate) fn noise_parts<
    S: Simd,
    K: Corners,
    C: PartCells<S, D>,
    IO: PartsIo<S, D>,
    const D: usize,
>(
    s: S,
    lanes: &S::UP,
    cells_of: &C,
    check: &mut S::UP,
    io: &mut IO,
) where
    Noise: Dims<D>,
{
    if const { D >= PARTS_LOOP_FROM } {
        // In a loop (see `for_each_part!`), each part in turn: carried
        // across the loop, the next part's stage 1 was spilled.
        for k in 0..S::PARTS {
            let stage1 = stage1_part::<S, C, IO, D>(s, cells_of, io, k, check);
            blend_part::<S, K, C, IO, D>(s, lanes, cells_of, io, k, stage1);
        }
        return;
    }
    // Part k + 1's stage 1 (loads, floors, cells, offsets) is made before
    // part k's hashes and blend, so that the two overlap: 4–6% faster on a
    // Zen 3 than each part in turn (a part's chain of dependent operations
    // is about as long as the time it takes).
    let mut next = stage1_part::<S, C, IO, D>(s, cells_of, io, 0, check);
    for_each_part!(S, |k| {
        let this = next;
        if k + 1 < S::PARTS {
            next = stage1_part::<S, C, IO, D>(s, cells_of, io, k + 1, check);
        }
        blend_part::<S, K, C, IO, D>(s, lanes, cells_of, io, k, this);
    });
}

/// Stage 2 of part `k` for [`noise_parts`], from its [`stage1_part`].
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_part<S: Simd, K: Corners, C: PartCells<S, D>, IO: PartsIo<S, D>, const D: usize>(
    s: S,
    lanes: &S::UP,
    cells_of: &C,
    io: &mut IO,
    k: usize,
    (offsets, cells): ([S::P; D], C::Cells),
) where
    Noise: Dims<D>,
{
    let mut parts = [fresh_part(s, offsets[0]); D];
    for a in 1..D {
        parts[a] = fresh_part(s, offsets[a]);
    }
    let g = cells_of.hashes(s, lanes, &cells);
    io.put(s, k, Noise::blend::<S, K, CoordinatesMode>(s, &g, &parts));
}

/// Stage 1 of part `k` of a pack for [`noise_parts`]: each axis's offset
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
pub(crate) fn remake_lanes_out_of_range<K: Corners, const D: usize>(
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

/// The default lattice (coordinates mode with key `key`, quintic fade, no
/// period) at one point, by the scalar backend (the same bits as every
/// level).
#[cold]
#[inline(never)]
fn default_lattice_lane<K: Corners, const D: usize>(key: u32, c: [f32; D]) -> f32
where
    Noise: Dims<D>,
{
    let s = Scalar;
    let mut axes = [axis::<Scalar, CoordinatesMode>(s, c[0], Fade::Quintic, true); D];
    for (a, axis_a) in axes.iter_mut().enumerate().skip(1) {
        *axis_a = axis::<Scalar, CoordinatesMode>(s, c[a], Fade::Quintic, true);
    }
    Noise::eval::<Scalar, K, CoordinatesMode, true, true>(s, &key, &axes)
}

/// Where [`noise_parts`] reads a pack's coordinates and puts its result,
/// one part at a time.
pub(crate) trait PartsIo<S: Simd, const D: usize> {
    /// Part `k` of the pack's coordinates on axis `a`.
    fn coordinate(&self, s: S, a: usize, k: usize) -> S::P;
    /// Part `k` of the result.
    fn put(&mut self, s: S, k: usize, v: S::P);
}

/// A pack whose coordinates and result are vectors (a lattice's pack
/// inside a shared, outlined pack: fractal octaves, combinators).
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

/// A pack of a batch call, read from its input slices and written to its
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
