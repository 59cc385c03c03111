//! Stage 1's result for one axis ([`Axis`]: cells, offsets, fade), made
//! from `f32` coordinates ([`axis`]) or from stage-1 values
//! ([`staged_axis`]), and one part (register) of it ([`Part`]) as stage 2
//! reads it.

use super::HashModeKernel;
use crate::Fade;
use crate::fade::faded;
use crate::simd::Simd;

/// Stage 1 of the kernel for one axis: the lattice cell and its upper
/// neighbour (in the hash mode's form; with a period, reduced by the period
/// first), the offset in the cell, the offset minus one, and the fade of the
/// offset. Stage 2 (`noiseN_axes`) needs nothing else, so the `f32` path
/// below, the `f64` paths and periodic noise differ only in how they build
/// this.
pub struct Axis<S: Simd, H: HashModeKernel> {
    pub(crate) c0: H::Cell<S>,
    pub(crate) c1: H::Cell<S>,
    pub(crate) t0: S::F,
    pub(crate) t1: S::F,
    pub(crate) fade: S::F,
}

impl<S: Simd, H: HashModeKernel> Clone for Axis<S, H> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Simd, H: HashModeKernel> Copy for Axis<S, H> {}

/// Stage 1 in `f32`: cell `floor(c)` (mod the natural period), next cell.
/// `fresh`: for stage 2 with `FRESH` (see [`Axis::new`]).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn axis<S: Simd, H: HashModeKernel>(
    s: S,
    c: S::F,
    fade: Fade,
    fresh: bool,
) -> Axis<S, H> {
    let floor = s.floor(c);
    Axis::new(s, H::cells(s, floor), c - floor, fade, fresh)
}

impl<S: Simd, H: HashModeKernel> Axis<S, H> {
    /// The axis of cells `(c0, c1)` and offsets `t0`. With `fresh` (for
    /// [`Dims::eval`](super::Dims::eval) with `FRESH`), `t1` and `fade` hold the offset as
    /// placeholders: stage 2 makes them per part. (Made here too, the
    /// optimiser would find the same values in stage 2 and keep these for
    /// the whole pack.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(
        s: S,
        (c0, c1): (H::Cell<S>, H::Cell<S>),
        t0: S::F,
        fade: Fade,
        fresh: bool,
    ) -> Axis<S, H> {
        let (t1, fade) = if fresh {
            (t0, t0)
        } else {
            (t0 - s.splat(1.0), faded(s, fade, t0))
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

/// One part (register) of an [`Axis`]'s floats.
#[derive(Clone, Copy)]
pub struct Part<S: Simd> {
    pub(super) t0: S::P,
    pub(super) t1: S::P,
    pub(super) fade: S::P,
}

/// Part `k` of axis `a`: stage 1's values, or with `FRESH` the offset
/// minus one and the quintic fade made here from the offset (see
/// [`Dims::eval`](super::Dims::eval); the same operations on the same lanes, so the same bits).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn part<S: Simd, H: HashModeKernel, const FRESH: bool>(
    s: S,
    a: &Axis<S, H>,
    k: usize,
) -> Part<S> {
    let t0 = s.part_ref(&a.t0, k);
    if FRESH {
        fresh_part(s, t0)
    } else {
        Part {
            t0,
            t1: s.part_ref(&a.t1, k),
            fade: s.part_ref(&a.fade, k),
        }
    }
}

/// The part of offset `t0`, with the offset minus one and the quintic fade.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn fresh_part<S: Simd>(s: S, t0: S::P) -> Part<S> {
    Part {
        t0,
        t1: t0 - splat_part(s, 1.0),
        fade: faded(s, Fade::Quintic, t0),
    }
}

/// `v` on every lane of a part.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn splat_part<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}

/// Stage 1 results (cells, next cells, offsets) of one axis as a vector
/// axis, as [`axis`] makes it.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn staged_axis<S: Simd, H: HashModeKernel>(
    s: S,
    c0: &[u32],
    c1: &[u32],
    t0: &[f32],
    fade: Fade,
    fresh: bool,
) -> Axis<S, H> {
    Axis::new(s, H::staged(s, c0, c1), s.load(t0), fade, fresh)
}
