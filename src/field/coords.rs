//! The coordinate packs a field is evaluated on ([`PointPack`]: `f32` vectors,
//! [`F32Pack`], or per-lane `f64`, [`F64Pack`]), a pack stored per lane
//! ([`LaneArrays`]), grid axes as fields see them ([`GridAxis`]), and the stage-1
//! helpers that turn a pack's coordinates into kernel axes.

use crate::Fade;
use crate::Level;
use crate::kernel::{
    Axis, HashModeKernel, axis, centre_in_period, centre_pack_in_period, stage1, staged_axis,
};
use crate::scratch::Scratch;
use crate::simd::{Job, MAX_LANES, Simd};

/// A pack of `S::LANES` points in `D` dimensions, as a field receives it.
pub trait PointPack<S: Simd, const D: usize>: Copy {
    /// `c · scale + offset[axis]` on every axis (an octave's coordinates),
    /// in this representation's precision.
    fn affine(&self, s: S, scale: f64, offset: &[f64; 4]) -> Self;
    /// Each axis with a period moved by whole periods into
    /// [−period/2, period/2) ([`centre_in_period`], per lane in `f64`), so
    /// that the octaves a fractal scales from it repeat exactly.
    fn centred(&self, s: S, periods: &[Option<u64>]) -> Self;
    /// Stage 1 on every axis for hash mode `H`; `periods` (cells, per
    /// axis) when periodic; `fresh` for stage 2 with `FRESH` (see
    /// [`Axis::new`]).
    fn axes<H: HashModeKernel>(
        &self,
        s: S,
        periods: Option<&[u64; 4]>,
        fade: Fade,
        fresh: bool,
    ) -> [Axis<S, H>; D];
    /// The x coordinates as `f32`.
    fn x(&self, s: S) -> S::F;
    /// The coordinates as `f32` vectors, where that is this
    /// representation (stage 1 can then run part by part:
    /// `kernel::noise_parts`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn f32_vectors(&self) -> Option<[S::F; D]> {
        None
    }
    /// `c + amplitude · by[axis]` on every axis (a domain warp), in this
    /// representation's precision (`f32` vectors; per lane in `f64`, where
    /// `amplitude · by` is the exact product of the two `f32`s), clamped
    /// to the finite range like [`PointPack::affine`].
    fn displaced(&self, s: S, amplitude: f32, by: &[S::F; D]) -> Self;
    /// Every lane's coordinates in `f64`, per axis: `f32` lanes widened
    /// (exactly), `f64` lanes as they are; entries past `S::LANES` are 0.
    /// What a user's noise (`Custom`) is called with.
    fn lanes_f64(&self, s: S) -> [[f64; MAX_LANES]; D];
    /// The pack's coordinates per lane (the first `S::LANES` of each
    /// axis), in this representation's precision: what a run-time source
    /// receives across its virtual call.
    fn lane_arrays(&self, s: S) -> LaneArrays<D>;
}

/// A pack of coordinates stored per lane, in any number of dimensions:
/// axis `a`'s values are `c[a][lane]` (the slice's length is the
/// dimension), the first `S::LANES` lanes of the level used. What crosses
/// a run-time source's virtual call ([`LaneArrays`] as slices), and the
/// pack of noise in 5 dimensions and more ([`Field::eval_nd`](super::Field::eval_nd)).
#[derive(Clone, Copy)]
pub enum LaneSlices<'a> {
    F32(&'a [[f32; MAX_LANES]]),
    F64(&'a [[f64; MAX_LANES]]),
}

impl LaneSlices<'_> {
    /// Every lane in `f64` (`f32` lanes widened exactly).
    pub(crate) fn to_f64(self) -> Vec<[f64; MAX_LANES]> {
        match self {
            LaneSlices::F32(c) => c.iter().map(|a| a.map(f64::from)).collect(),
            LaneSlices::F64(c) => c.to_vec(),
        }
    }

    /// The number of axes.
    pub(crate) fn dims(&self) -> usize {
        match self {
            LaneSlices::F32(c) => c.len(),
            LaneSlices::F64(c) => c.len(),
        }
    }
}

/// A pack of coordinates stored per lane (see [`PointPack::lane_arrays`]).
pub enum LaneArrays<const D: usize> {
    F32([[f32; MAX_LANES]; D]),
    F64([[f64; MAX_LANES]; D]),
}

/// [`stage1`] for one lane. In the one-lane backend it stays a call: inlined
/// there, the optimiser speculated the periodic path (whose `f64` floor is a
/// library call without SSE4.1) for every point, even when not periodic.
#[cfg_attr(not(debug_assertions), inline(always))]
fn stage1_lane<S: Simd>(c: f64, period: u64) -> (u32, u32, f32) {
    #[inline(never)]
    fn outlined(c: f64, period: u64) -> (u32, u32, f32) {
        stage1(c, period)
    }
    if S::LANES == 1 {
        outlined(c, period)
    } else {
        stage1(c, period)
    }
}

/// Stage 1 in `f32` with period `period` on this axis: in vectors where the
/// hash mode can ([`HashModeKernel::periodic_cells`]), else per point in `f64`
/// (exact for any period). Both give the cells [`stage1`] gives, and the
/// offset `c − floor(c)` is exact in `f32`, so the paths agree bit for bit.
#[cfg_attr(not(debug_assertions), inline(always))]
fn periodic_axis<S: Simd, H: HashModeKernel>(
    s: S,
    c: S::F,
    period: u64,
    fade: Fade,
    fresh: bool,
) -> Axis<S, H> {
    if period == H::NATURAL_PERIOD {
        // An axis left unperiodic.
        return axis(s, c, fade, fresh);
    }
    let floor = s.floor(c);
    if let Some(cells) = H::periodic_cells(s, floor, period) {
        return Axis::new(s, cells, c - floor, fade, fresh);
    }
    let mut lanes = [0.0f32; MAX_LANES];
    let (mut c0, mut c1, mut t0) = ([0u32; MAX_LANES], [0u32; MAX_LANES], [0.0f32; MAX_LANES]);
    s.store(c, &mut lanes[..S::LANES]);
    for i in 0..S::LANES {
        (c0[i], c1[i], t0[i]) = stage1_lane::<S>(f64::from(lanes[i]), period);
    }
    staged_axis(s, &c0, &c1, &t0, fade, fresh)
}

/// [`centre_in_period`] of each lane in `f64`: the path of packs
/// [`centre_pack_in_period`] leaves (far lanes, NaN, ±inf, huge periods).
#[cfg_attr(not(debug_assertions), inline(always))]
fn centre_lanes_in_period<S: Simd>(s: S, c: S::F, period: u64) -> S::F {
    /// Plain scalar code, kept out of line: it is the rare path.
    #[cold]
    #[inline(never)]
    fn centre(lanes: &mut [f32], period: u64) {
        for v in lanes {
            // Exact below 2²⁴ (see `centre_in_period`); rounded the same
            // way for every member of the class above.
            *v = centre_in_period(f64::from(*v), period) as f32;
        }
    }
    let mut lanes = [0.0f32; MAX_LANES];
    s.store(c, &mut lanes[..S::LANES]);
    centre(&mut lanes[..S::LANES], period);
    s.load(&lanes[..S::LANES])
}

/// Coordinates as `f32` vectors: stage 1 in vector `f32` (periodic too,
/// where the hash mode can).
#[derive(Clone, Copy)]
pub struct F32Pack<S: Simd, const D: usize>(pub [S::F; D]);

impl<S: Simd, const D: usize> PointPack<S, D> for F32Pack<S, D> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn affine(&self, s: S, scale: f64, offset: &[f64; 4]) -> Self {
        let f = s.splat(scale as f32);
        let (lo, hi) = (s.splat(-f32::MAX), s.splat(f32::MAX));
        let mut c = self.0;
        for d in 0..D {
            // A finite coordinate scaled past f32::MAX would be ±inf (NaN
            // noise); clamped, it is a huge finite one, like any |c| ≥ 2³¹ a
            // lattice plane. NaN stays NaN (min and max return their second
            // operand when unordered); an infinite input was NaN already at
            // octave 0, which makes the fold NaN.
            c[d] = s.max(lo, s.min(hi, c[d] * f + s.splat(offset[d] as f32)));
        }
        F32Pack(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn displaced(&self, s: S, amplitude: f32, by: &[S::F; D]) -> Self {
        let a = s.splat(amplitude);
        let (lo, hi) = (s.splat(-f32::MAX), s.splat(f32::MAX));
        let mut c = self.0;
        for d in 0..D {
            // Finite stays finite, NaN stays NaN (see `affine`).
            c[d] = s.max(lo, s.min(hi, c[d] + a * by[d]));
        }
        F32Pack(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn centred(&self, s: S, periods: &[Option<u64>]) -> Self {
        let mut c = self.0;
        for (c, period) in c.iter_mut().zip(periods) {
            if let Some(period) = *period {
                *c = match centre_pack_in_period(s, *c, period) {
                    Some(centred) => centred,
                    None => centre_lanes_in_period(s, *c, period),
                };
            }
        }
        F32Pack(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[allow(clippy::needless_range_loop)] // several per-axis arrays
    fn axes<H: HashModeKernel>(
        &self,
        s: S,
        periods: Option<&[u64; 4]>,
        fade: Fade,
        fresh: bool,
    ) -> [Axis<S, H>; D] {
        match periods {
            None => {
                let mut axes = [axis::<S, H>(s, self.0[0], fade, fresh); D];
                for d in 1..D {
                    axes[d] = axis(s, self.0[d], fade, fresh);
                }
                axes
            }
            Some(periods) => {
                // Unrolled by hand: as a loop (its body too large for the
                // optimiser to unroll), every axis went through memory and
                // periodic `fill3` cost 1.47× plain noise; unrolled, 1.25×.
                let mut axes = [periodic_axis::<S, H>(s, self.0[0], periods[0], fade, fresh); D];
                if D > 1 {
                    axes[1] = periodic_axis(s, self.0[1], periods[1], fade, fresh);
                }
                if D > 2 {
                    axes[2] = periodic_axis(s, self.0[2], periods[2], fade, fresh);
                }
                if D > 3 {
                    axes[3] = periodic_axis(s, self.0[3], periods[3], fade, fresh);
                }
                axes
            }
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn x(&self, _: S) -> S::F {
        self.0[0]
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn f32_vectors(&self) -> Option<[S::F; D]> {
        Some(self.0)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lane_arrays(&self, s: S) -> LaneArrays<D> {
        let mut lanes = [[0.0f32; MAX_LANES]; D];
        for (lanes, &c) in lanes.iter_mut().zip(&self.0) {
            s.store(c, &mut lanes[..S::LANES]);
        }
        LaneArrays::F32(lanes)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lanes_f64(&self, s: S) -> [[f64; MAX_LANES]; D] {
        let mut c = [[0.0f64; MAX_LANES]; D];
        for (c, &v) in c.iter_mut().zip(&self.0) {
            let mut lanes = [0.0f32; MAX_LANES];
            s.store(v, &mut lanes[..S::LANES]);
            for (c, &l) in c.iter_mut().zip(&lanes[..S::LANES]) {
                *c = f64::from(l);
            }
        }
        c
    }
}

/// Coordinates as `f64` per lane: stage 1 per point in `f64` (exact far from
/// the origin), then vectors.
#[derive(Clone, Copy)]
pub struct F64Pack<const D: usize>(pub [[f64; MAX_LANES]; D]);

impl<S: Simd, const D: usize> PointPack<S, D> for F64Pack<D> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn affine(&self, _: S, scale: f64, offset: &[f64; 4]) -> Self {
        let mut c = self.0;
        for d in 0..D {
            for v in &mut c[d][..S::LANES] {
                // Finite stays finite (see `F32Pack::affine`).
                *v = (*v * scale + offset[d]).clamp(-f64::MAX, f64::MAX);
            }
        }
        F64Pack(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn displaced(&self, s: S, amplitude: f32, by: &[S::F; D]) -> Self {
        let mut c = self.0;
        for d in 0..D {
            let mut lanes = [0.0f32; MAX_LANES];
            s.store(by[d], &mut lanes[..S::LANES]);
            for (v, &w) in c[d][..S::LANES].iter_mut().zip(&lanes) {
                // The product of two `f32`s is exact in `f64`.
                *v = (*v + f64::from(amplitude) * f64::from(w)).clamp(-f64::MAX, f64::MAX);
            }
        }
        F64Pack(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn centred(&self, _: S, periods: &[Option<u64>]) -> Self {
        let mut c = self.0;
        for (c, period) in c.iter_mut().zip(periods) {
            if let Some(period) = *period {
                for v in &mut c[..S::LANES] {
                    *v = centre_in_period(*v, period);
                }
            }
        }
        F64Pack(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn axes<H: HashModeKernel>(
        &self,
        s: S,
        periods: Option<&[u64; 4]>,
        fade: Fade,
        fresh: bool,
    ) -> [Axis<S, H>; D] {
        let (mut c0, mut c1, mut t0) = ([0u32; MAX_LANES], [0u32; MAX_LANES], [0.0f32; MAX_LANES]);
        let mut axes = [axis::<S, H>(s, s.splat(0.0), fade, fresh); D];
        for d in 0..D {
            let period = periods.map_or(H::NATURAL_PERIOD, |p| p[d]);
            for i in 0..S::LANES {
                (c0[i], c1[i], t0[i]) = stage1_lane::<S>(self.0[d][i], period);
            }
            axes[d] = staged_axis(s, &c0, &c1, &t0, fade, fresh);
        }
        axes
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn x(&self, s: S) -> S::F {
        let mut lanes = [0.0f32; MAX_LANES];
        for (l, &c) in lanes.iter_mut().zip(&self.0[0][..S::LANES]) {
            *l = c as f32;
        }
        s.load(&lanes[..S::LANES])
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lane_arrays(&self, _: S) -> LaneArrays<D> {
        LaneArrays::F64(self.0)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lanes_f64(&self, _: S) -> [[f64; MAX_LANES]; D] {
        self.0
    }
}

/// One grid axis as a field sees it: every sample's position (global
/// indices applied) and the distance between samples.
#[derive(Clone, Debug)]
pub struct GridAxis {
    pub(crate) coords: Scratch<f64>,
    pub(crate) step: f64,
}

impl GridAxis {
    /// The axis after an octave's `c · scale + offset` (computed in `f64`
    /// exactly as [`F64Pack::affine`] computes it), in a job of `level`.
    pub(crate) fn affine(&self, scale: f64, offset: f64, level: Level) -> GridAxis {
        // (Reused, not zeroed: every value is written.)
        let mut coords = Scratch::reused(self.coords.len(), 0.0);
        let job = AffineCoords {
            scale,
            offset,
            coords: &self.coords,
            out: &mut coords,
        };
        crate::simd::dispatch(level, job);
        GridAxis {
            coords,
            step: self.step * scale,
        }
    }

    /// The axis with every coordinate moved by whole periods into
    /// [−period/2, period/2), as [`F64Pack::centred`] moves it (the step,
    /// which picks the row path, is kept).
    pub(crate) fn centred(&self, period: u64) -> GridAxis {
        GridAxis {
            coords: self
                .coords
                .iter()
                .map(|&c| centre_in_period(c, period))
                .collect(),
            step: self.step,
        }
    }
}

/// [`GridAxis::affine`]'s loop, at the level's width (four lanes at AVX2,
/// where the baseline's two took some 3.5 instructions a sample).
struct AffineCoords<'a> {
    scale: f64,
    offset: f64,
    coords: &'a [f64],
    out: &'a mut [f64],
}

impl Job for AffineCoords<'_> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, _: S) {
        let (scale, offset) = (self.scale, self.offset);
        // The clamp as two selects, so the loop is vectorised: `clamp`'s
        // values, −0 kept and NaN staying NaN.
        for (out, &c) in self.out.iter_mut().zip(self.coords) {
            let v = c * scale + offset;
            let v = if v < -f64::MAX { -f64::MAX } else { v };
            *out = if v > f64::MAX { f64::MAX } else { v };
        }
    }
}
