//! The kernel-side interface every noise source implements ([`Field`]), the
//! coordinate steps it is evaluated on ([`Coords`]), and the jobs and
//! drivers that run any field over points and grids.
//!
//! A field is evaluated one kernel step at a time: `eval` receives a step of
//! coordinates and returns a step of values. Lattice noises (`Perlin`,
//! `Value`) run stage 1 and stage 2 on them; fractal combinators transform
//! the coordinates per octave and call their source's `eval`, so a nested
//! combination is one inlined loop inside one `#[target_feature]` shim, and
//! every level computes the same bits.
//!
//! Grids are filled by rows: [`Field::plan`] precomputes per-axis work once
//! per fill (for a lattice: stage 1 of every sample; for a fractal: each
//! octave's plan on its scaled axes), and [`Field::fill_rows`] fills whole
//! rows, so tiles and windows of whole rows give the same bits.
//!
//! The traits here are public but unnameable outside the crate: they are the
//! sealed supertraits of [`crate::Source`] and [`crate::Differentiable`].

use crate::error::check_lengths;
use crate::fractal::Fractal;
use crate::grid::Grid;
use crate::kernel::{
    Axis, Dims, LatticeHash, Noise, axis, centre_in_period, centre_step_in_period, stage1,
    staged_axis, store_step,
};
use crate::simd::scalar::Scalar;
use crate::simd::{Job, MAX_LANES, Simd, StepJob, dispatch};
use crate::{Error, Fade, Level};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

#[cfg(feature = "parallel")]
/// Samples per rayon tile of a parallel grid fill: 64 Ki samples, 256 KiB of
/// output, so a tile's output and its row data stay in a core's L2 cache
/// while enough tiles remain to balance threads.
const TILE_SAMPLES: usize = 1 << 16;

/// Grids of at least this many samples (16 MiB of output) stream their rows.
const STREAMING_SAMPLES: usize = 1 << 22;

/// A step of `S::LANES` points in `D` dimensions, as a field receives it.
pub trait Coords<S: Simd, const D: usize>: Copy {
    /// `c · scale + offset[axis]` on every axis (an octave's coordinates),
    /// in this representation's precision.
    fn affine(&self, s: S, scale: f64, offset: &[f64; 4]) -> Self;
    /// Each axis with a period moved by whole periods into
    /// [−period/2, period/2) ([`centre_in_period`], per lane in `f64`), so
    /// that the octaves a fractal scales from it repeat exactly.
    fn centred(&self, s: S, periods: &[Option<u64>; 4]) -> Self;
    /// Stage 1 on every axis for hash mode `H`; `periods` (cells, per
    /// axis) when periodic; `fresh` for stage 2 with `FRESH` (see
    /// [`Axis::new`]).
    fn axes<H: LatticeHash>(
        &self,
        s: S,
        periods: Option<&[u64; 4]>,
        curve: Fade,
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
    /// to the finite range like [`Coords::affine`].
    fn displaced(&self, s: S, amplitude: f32, by: &[S::F; D]) -> Self;
    /// Every lane's coordinates in `f64`, per axis: `f32` lanes widened
    /// (exactly), `f64` lanes as they are; entries past `S::LANES` are 0.
    /// What a user's noise (`Custom`) is called with.
    fn lanes_f64(&self, s: S) -> [[f64; MAX_LANES]; D];
    /// The step's coordinates per lane (the first `S::LANES` of each
    /// axis), in this representation's precision: what a run-time source
    /// receives across its virtual call.
    fn lanes(&self, s: S) -> Lanes<D>;
}

/// A step of coordinates stored per lane (see [`Coords::lanes`]).
pub enum Lanes<const D: usize> {
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
/// hash mode can ([`LatticeHash::periodic_cells`]), else per point in `f64`
/// (exact for any period). Both give the cells [`stage1`] gives, and the
/// offset `c − floor(c)` is exact in `f32`, so the paths agree bit for bit.
#[cfg_attr(not(debug_assertions), inline(always))]
fn periodic_axis<S: Simd, H: LatticeHash>(
    s: S,
    c: S::F,
    period: u64,
    curve: Fade,
    fresh: bool,
) -> Axis<S, H> {
    if period == H::NATURAL_PERIOD {
        // An axis left unperiodic.
        return axis(s, c, curve, fresh);
    }
    let floor = s.floor(c);
    if let Some(cells) = H::periodic_cells(s, floor, period) {
        return Axis::new(s, cells, c - floor, curve, fresh);
    }
    let mut lanes = [0.0f32; MAX_LANES];
    let (mut c0, mut c1, mut t0) = ([0u32; MAX_LANES], [0u32; MAX_LANES], [0.0f32; MAX_LANES]);
    s.store(c, &mut lanes[..S::LANES]);
    for i in 0..S::LANES {
        (c0[i], c1[i], t0[i]) = stage1_lane::<S>(f64::from(lanes[i]), period);
    }
    staged_axis(s, &c0, &c1, &t0, curve, fresh)
}

/// [`centre_in_period`] of each lane in `f64`: the path of steps
/// [`centre_step_in_period`] leaves (far lanes, NaN, ±inf, huge periods).
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
pub struct F32Coords<S: Simd, const D: usize>(pub [S::F; D]);

impl<S: Simd, const D: usize> Coords<S, D> for F32Coords<S, D> {
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
        F32Coords(c)
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
        F32Coords(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn centred(&self, s: S, periods: &[Option<u64>; 4]) -> Self {
        let mut c = self.0;
        for (c, period) in c.iter_mut().zip(periods) {
            if let Some(period) = *period {
                *c = match centre_step_in_period(s, *c, period) {
                    Some(centred) => centred,
                    None => centre_lanes_in_period(s, *c, period),
                };
            }
        }
        F32Coords(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[allow(clippy::needless_range_loop)] // several per-axis arrays
    fn axes<H: LatticeHash>(
        &self,
        s: S,
        periods: Option<&[u64; 4]>,
        curve: Fade,
        fresh: bool,
    ) -> [Axis<S, H>; D] {
        match periods {
            None => {
                let mut axes = [axis::<S, H>(s, self.0[0], curve, fresh); D];
                for d in 1..D {
                    axes[d] = axis(s, self.0[d], curve, fresh);
                }
                axes
            }
            Some(periods) => {
                // Unrolled by hand: as a loop (its body too large for the
                // optimiser to unroll), every axis went through memory and
                // periodic `fill3` cost 1.47× plain noise; unrolled, 1.25×.
                let mut axes = [periodic_axis::<S, H>(s, self.0[0], periods[0], curve, fresh); D];
                if D > 1 {
                    axes[1] = periodic_axis(s, self.0[1], periods[1], curve, fresh);
                }
                if D > 2 {
                    axes[2] = periodic_axis(s, self.0[2], periods[2], curve, fresh);
                }
                if D > 3 {
                    axes[3] = periodic_axis(s, self.0[3], periods[3], curve, fresh);
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
    fn lanes(&self, s: S) -> Lanes<D> {
        let mut lanes = [[0.0f32; MAX_LANES]; D];
        for (lanes, &c) in lanes.iter_mut().zip(&self.0) {
            s.store(c, &mut lanes[..S::LANES]);
        }
        Lanes::F32(lanes)
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
pub struct F64Coords<const D: usize>(pub [[f64; MAX_LANES]; D]);

impl<S: Simd, const D: usize> Coords<S, D> for F64Coords<D> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn affine(&self, _: S, scale: f64, offset: &[f64; 4]) -> Self {
        let mut c = self.0;
        for d in 0..D {
            for v in &mut c[d][..S::LANES] {
                // Finite stays finite (see `F32Coords::affine`).
                *v = (*v * scale + offset[d]).clamp(-f64::MAX, f64::MAX);
            }
        }
        F64Coords(c)
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
        F64Coords(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn centred(&self, _: S, periods: &[Option<u64>; 4]) -> Self {
        let mut c = self.0;
        for (c, period) in c.iter_mut().zip(periods) {
            if let Some(period) = *period {
                for v in &mut c[..S::LANES] {
                    *v = centre_in_period(*v, period);
                }
            }
        }
        F64Coords(c)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn axes<H: LatticeHash>(
        &self,
        s: S,
        periods: Option<&[u64; 4]>,
        curve: Fade,
        fresh: bool,
    ) -> [Axis<S, H>; D] {
        let (mut c0, mut c1, mut t0) = ([0u32; MAX_LANES], [0u32; MAX_LANES], [0.0f32; MAX_LANES]);
        let mut axes = [axis::<S, H>(s, s.splat(0.0), curve, fresh); D];
        for d in 0..D {
            let period = periods.map_or(H::NATURAL_PERIOD, |p| p[d]);
            for i in 0..S::LANES {
                (c0[i], c1[i], t0[i]) = stage1_lane::<S>(self.0[d][i], period);
            }
            axes[d] = staged_axis(s, &c0, &c1, &t0, curve, fresh);
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
    fn lanes(&self, _: S) -> Lanes<D> {
        Lanes::F64(self.0)
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
    pub(crate) coords: Vec<f64>,
    pub(crate) step: f64,
}

impl GridAxis {
    /// The axis after an octave's `c · scale + offset` (computed in `f64`
    /// exactly as [`F64Coords::affine`] computes it).
    pub(crate) fn affine(&self, scale: f64, offset: f64) -> GridAxis {
        GridAxis {
            coords: self
                .coords
                .iter()
                .map(|&c| (c * scale + offset).clamp(-f64::MAX, f64::MAX))
                .collect(),
            step: self.step * scale,
        }
    }

    /// The axis with every coordinate moved by whole periods into
    /// [−period/2, period/2), as [`F64Coords::centred`] moves it (the step,
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

/// The kernel-side interface of a noise source. See the module docs.
pub trait Field: Clone + Send + Sync + std::fmt::Debug {
    /// What a kernel loads once per call (e.g. the permutation in registers).
    type Ready<'a, S: Simd>: Copy
    where
        Self: 'a;
    /// Per-fill grid precomputation.
    type Plan: Send + Sync + 'static;
    /// The field the batch and grid jobs are compiled for: the field
    /// itself, or what a public newtype wraps (`Perlin` → `Lattice`, each
    /// combinator → `Fractal<N>`), so `Fbm<N>`, `Ridged<N>`, … share one
    /// compiled copy of their kernels.
    type Core: Field;

    fn core(&self) -> &Self::Core;

    fn ready<S: Simd>(&self, s: S) -> Self::Ready<'_, S>;

    /// The field at one step of points. `period_scale` multiplies the periods
    /// of periodic lattices (fractal octaves of integer lacunarity).
    fn eval<S: Simd, C: Coords<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>;

    /// The whole steps of a batch call (`fill`): the field at the points
    /// `inputs[..][i]`, stored into `out[i]`, `out.len()` a multiple of
    /// `LANES` and each input as long. A field may run its step inlined in
    /// the loop, reading and writing the memory part by part, instead of
    /// calling a shared copy of [`Field::eval`] per step, and choose its
    /// kind of step once for the loop.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fill_steps<S: Simd, T: Input, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        inputs: &[&[T]; D],
        out: &mut [f32],
        period_scale: u64,
    ) where
        Noise: Dims<D>,
    {
        for (k, dst) in out.chunks_exact_mut(S::LANES).enumerate() {
            let c = T::load(s, inputs, k * S::LANES, S::LANES);
            s.store(self.eval(r, s, &c, period_scale), dst);
        }
    }

    /// The level batch calls run at.
    fn run_level(&self) -> Level;
    /// Sets the level (already checked to be available).
    fn set_level(&mut self, level: Level);
    /// `Err` when the field's parameters are invalid (it then computes nothing).
    fn validate(&self) -> Result<(), Error>;
    /// An interval that contains every output of `dimension`-D noise at
    /// finite inputs.
    fn output_bounds(&self, dimension: usize) -> (f32, f32);
    /// The periods (in cells, per axis, multiplied by `scale`) of the
    /// lattice inside; `None` on an axis without a set period.
    fn periods(&self, scale: u64) -> [Option<u64>; 4];
    /// Whether a lattice inside repeats with a set period on some axis.
    fn periodic(&self) -> bool {
        self.periods(1).iter().any(Option::is_some)
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> Self::Plan
    where
        Noise: Dims<D>;

    /// Rows `first_row..` (as many as `out` holds) of the grid `axes` that
    /// `plan` was made for, stored into `out` (streamed out with
    /// non-temporal stores when `streaming`).
    fn fill_rows<const D: usize>(
        &self,
        plan: &Self::Plan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
    ) where
        Noise: Dims<D>;

    /// Runs one batch call. The default compiles the kernels for `Self`
    /// where the call is; the crate's own sources (`Perlin`, `Value`, the
    /// fractals over them) override it with a copy compiled once in this
    /// crate, so tests, tools and users' crates that call them link that
    /// copy instead of compiling the kernels again.
    fn run(&self, req: Request<'_>) -> Result<(), Error> {
        run(self.core(), req)
    }

    /// [`Field::run`] for a fractal over this field (compiled in this crate
    /// when `Self` is one of its sources).
    fn run_fractal(f: &Fractal<Self>, req: Request<'_>) -> Result<(), Error> {
        run(f, req)
    }
}

/// A [`Field`] with analytic derivatives.
pub trait GradField: Field {
    /// [`Field::Core`] with derivatives: what a boxed source's derivative
    /// steps are compiled for (the field itself, or what a public newtype
    /// wraps).
    type GradCore: GradField;

    fn grad_core(&self) -> &Self::GradCore;

    /// The field and its derivative along each axis at one step of points.
    fn eval_grad<S: Simd, C: Coords<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>;

    /// [`Field::run`] with derivatives.
    fn run_grad(&self, req: GradRequest<'_>) -> Result<(), Error> {
        run_grad(self, req)
    }

    /// [`Field::validate`] for derivatives: also `Err` where a part of the
    /// field has none ([`Error::NotDifferentiable`], a [`crate::DynSource`]
    /// built without them). Combinators check their inputs' with it.
    fn validate_grad(&self) -> Result<(), Error> {
        self.validate()
    }

    /// [`GradField::run_grad`] for a fractal over this field.
    fn run_fractal_grad(f: &Fractal<Self>, req: GradRequest<'_>) -> Result<(), Error> {
        run_grad(f, req)
    }
}

/// A coordinate element type of the batch entry points.
pub trait Input: Copy + Send + Sync {
    type Step<S: Simd, const D: usize>: Coords<S, D>;
    /// The padding of a last partial step.
    const ZERO: Self;
    /// The step's inputs as `f32` slices, when they are `f32`.
    fn f32_slices<'a, const D: usize>(src: &[&'a [Self]; D]) -> Option<[&'a [f32]; D]>;
    /// The step of `len ≤ LANES` points at `at` (padding lanes at 0).
    fn load<S: Simd, const D: usize>(
        s: S,
        inputs: &[&[Self]; D],
        at: usize,
        len: usize,
    ) -> Self::Step<S, D>;
}

impl Input for f32 {
    type Step<S: Simd, const D: usize> = F32Coords<S, D>;
    const ZERO: f32 = 0.0;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn f32_slices<'a, const D: usize>(src: &[&'a [f32]; D]) -> Option<[&'a [f32]; D]> {
        Some(*src)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load<S: Simd, const D: usize>(
        s: S,
        inputs: &[&[f32]; D],
        at: usize,
        len: usize,
    ) -> F32Coords<S, D> {
        let mut c = [s.splat(0.0); D];
        for d in 0..D {
            c[d] = if len == S::LANES {
                s.load(&inputs[d][at..at + S::LANES])
            } else {
                let mut padded = [0.0f32; MAX_LANES];
                padded[..len].copy_from_slice(&inputs[d][at..at + len]);
                s.load(&padded[..S::LANES])
            };
        }
        F32Coords(c)
    }
}

impl Input for f64 {
    type Step<S: Simd, const D: usize> = F64Coords<D>;
    const ZERO: f64 = 0.0;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn f32_slices<'a, const D: usize>(_: &[&'a [f64]; D]) -> Option<[&'a [f32]; D]> {
        None
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load<S: Simd, const D: usize>(
        _: S,
        inputs: &[&[f64]; D],
        at: usize,
        len: usize,
    ) -> F64Coords<D> {
        let mut c = [[0.0f64; MAX_LANES]; D];
        for d in 0..D {
            c[d][..len].copy_from_slice(&inputs[d][at..at + len]);
        }
        F64Coords(c)
    }
}

/// `out[i] = field(inputs[..][i])`: whole steps, the last one padded, all
/// through the same code.
struct FillPoints<'a, F, T, const D: usize> {
    field: &'a F,
    inputs: [&'a [T]; D],
    out: &'a mut [f32],
    /// Multiplies the periods of periodic lattices (1 for a batch call).
    period_scale: u64,
}

impl<F: Field, T: Input, const D: usize> Job for FillPoints<'_, F, T, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let n = S::LANES;
        let whole = self.out.len() / n * n;
        let (out, tail) = self.out.split_at_mut(whole);
        let mut inputs = self.inputs;
        for input in &mut inputs {
            *input = &input[..whole];
        }
        // Whole steps in place, then the last partial step from and into
        // zero-padded copies, by one outlined loop (one copy of the inlined
        // kernel; a loop that tested for the partial step had the optimiser
        // compile the kernel a second time for it).
        let steps = WholeSteps {
            field: self.field,
            r: &r,
            inputs,
            out,
            period_scale: self.period_scale,
        };
        s.outlined(steps);
        if !tail.is_empty() {
            let len = tail.len();
            let mut padded_in = [[T::ZERO; MAX_LANES]; D];
            let mut padded_out = [0.0f32; MAX_LANES];
            for (padded, input) in padded_in.iter_mut().zip(&self.inputs) {
                padded[..len].copy_from_slice(&input[whole..]);
            }
            let mut src: [&[T]; D] = [&[]; D];
            for (src, padded) in src.iter_mut().zip(&padded_in) {
                *src = &padded[..n];
            }
            s.outlined(WholeSteps {
                field: self.field,
                r: &r,
                inputs: src,
                out: &mut padded_out[..n],
                period_scale: self.period_scale,
            });
            tail.copy_from_slice(&padded_out[..len]);
        }
    }
}

/// [`FillPoints`]' loop over whole steps: `out.len()` a multiple of
/// `LANES`, each input as long.
struct WholeSteps<'a, F: Field + 'a, S: Simd, T, const D: usize> {
    field: &'a F,
    r: &'a F::Ready<'a, S>,
    inputs: [&'a [T]; D],
    out: &'a mut [f32],
    period_scale: u64,
}

impl<'a, F: Field + 'a, S: Simd, T: Input, const D: usize> StepJob<S> for WholeSteps<'a, F, S, T, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) {
        self.field
            .fill_steps(self.r, s, &self.inputs, self.out, self.period_scale);
    }
}

/// Each of `inputs` cut to its first `len` values (a loop over the steps of
/// `len` outputs then checks one bound per step, not one per input).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn inputs_cut<'a, T, const D: usize>(inputs: &[&'a [T]; D], len: usize) -> [&'a [T]; D] {
    let mut cut = *inputs;
    for input in &mut cut {
        *input = &input[..len];
    }
    cut
}

/// Step `k` (`n` values from `k·n`) of each of `inputs`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn inputs_step<'a, T, const D: usize>(
    inputs: &[&'a [T]; D],
    k: usize,
    n: usize,
) -> [&'a [T]; D] {
    let mut step = *inputs;
    for input in &mut step {
        *input = &input[k * n..k * n + n];
    }
    step
}

/// `out[i]`, `grad[a][i]` = the field and its derivatives at point `i`.
struct FillPointsGrad<'a, F, T, const D: usize> {
    field: &'a F,
    inputs: [&'a [T]; D],
    out: &'a mut [f32],
    grad: [&'a mut [f32]; D],
}

impl<F: GradField, T: Input, const D: usize> Job for FillPointsGrad<'_, F, T, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let FillPointsGrad {
            field,
            inputs,
            out,
            grad,
        } = self;
        let r = field.ready(s);
        let n = S::LANES;
        for (k, dst) in out.chunks_mut(n).enumerate() {
            let at = k * n;
            let len = dst.len();
            let c = T::load(s, &inputs, at, len);
            let (v, d) = field.eval_grad(&r, s, &c, 1);
            store_step(s, v, dst);
            for a in 0..D {
                store_step(s, d[a], &mut grad[a][at..at + len]);
            }
        }
    }
}

/// The points of a batch, in either precision (`D` slices of coordinates).
pub enum Points<'a, const D: usize> {
    F32([&'a [f32]; D]),
    F64([&'a [f64]; D]),
}

/// One batch call in `D` dimensions, with its types erased, so that a
/// field can run it through a copy of the kernels compiled for it once
/// ([`Field::run`]).
pub enum Work<'a, const D: usize> {
    /// `out[i]` = the field at point `i`.
    Fill(Points<'a, D>, &'a mut [f32]),
    /// The field at every sample of the grid (on the rayon pool when `true`).
    Grid(&'a Grid<D>, &'a mut [f32], bool),
}

/// [`Work`] with derivatives: the values, then one output per axis.
pub enum GradWork<'a, const D: usize> {
    Fill(Points<'a, D>, &'a mut [f32], [&'a mut [f32]; D]),
    Grid(&'a Grid<D>, &'a mut [f32], [&'a mut [f32]; D], bool),
}

/// A [`Work`] in any dimension: what [`Field::run`] receives.
pub enum Request<'a> {
    D1(Work<'a, 1>),
    D2(Work<'a, 2>),
    D3(Work<'a, 3>),
    D4(Work<'a, 4>),
}

/// A [`GradWork`] in any dimension: what [`GradField::run_grad`] receives.
pub enum GradRequest<'a> {
    D1(GradWork<'a, 1>),
    D2(GradWork<'a, 2>),
    D3(GradWork<'a, 3>),
    D4(GradWork<'a, 4>),
}

/// The dimensions the crate computes: `Dimension::<D>::COMPUTED` fails to
/// compile (when a generic method is instantiated) for any other `D`.
pub(crate) struct Dimension<const D: usize>;

impl<const D: usize> Dimension<D> {
    pub(crate) const COMPUTED: () = assert!(
        1 <= D && D <= 4,
        "noisefield computes noise in 1 to 4 dimensions"
    );
}

/// `a` as an array of length `E`; called only where `D == E` (the caller
/// matched on `D`), so every element moves across and none is made up.
pub(crate) fn cast<T, const D: usize, const E: usize>(a: [T; D]) -> [T; E] {
    debug_assert_eq!(D, E);
    let mut it = a.into_iter();
    std::array::from_fn(|_| it.next().expect("D == E"))
}

/// `grid` as a grid of dimension `E` (`D == E`, as for [`cast`]).
fn cast_grid<const D: usize, const E: usize>(grid: &Grid<D>) -> &Grid<E> {
    (grid as &dyn std::any::Any).downcast_ref().expect("D == E")
}

impl<'a, const D: usize> Points<'a, D> {
    fn cast<const E: usize>(self) -> Points<'a, E> {
        match self {
            Points::F32(c) => Points::F32(cast(c)),
            Points::F64(c) => Points::F64(cast(c)),
        }
    }
}

impl<'a, const D: usize> Work<'a, D> {
    fn cast<const E: usize>(self) -> Work<'a, E> {
        match self {
            Work::Fill(p, out) => Work::Fill(p.cast(), out),
            Work::Grid(g, out, par) => Work::Grid(cast_grid(g), out, par),
        }
    }
}

impl<'a, const D: usize> GradWork<'a, D> {
    fn cast<const E: usize>(self) -> GradWork<'a, E> {
        match self {
            GradWork::Fill(p, out, g) => GradWork::Fill(p.cast(), out, cast(g)),
            GradWork::Grid(grid, out, g, par) => GradWork::Grid(cast_grid(grid), out, cast(g), par),
        }
    }
}

impl<'a, const D: usize> From<Work<'a, D>> for Request<'a> {
    fn from(w: Work<'a, D>) -> Request<'a> {
        let () = Dimension::<D>::COMPUTED;
        match D {
            1 => Request::D1(w.cast()),
            2 => Request::D2(w.cast()),
            3 => Request::D3(w.cast()),
            _ => Request::D4(w.cast()),
        }
    }
}

impl<'a, const D: usize> From<GradWork<'a, D>> for GradRequest<'a> {
    fn from(w: GradWork<'a, D>) -> GradRequest<'a> {
        let () = Dimension::<D>::COMPUTED;
        match D {
            1 => GradRequest::D1(w.cast()),
            2 => GradRequest::D2(w.cast()),
            3 => GradRequest::D3(w.cast()),
            _ => GradRequest::D4(w.cast()),
        }
    }
}

/// `f` set to run at `level` (its inputs too), or
/// Err([`Error::Unsupported`]) when this CPU cannot run `level`: the
/// `with_level` of the combinators.
pub(crate) fn at_level<F: Field>(mut f: F, level: Level) -> Result<F, Error> {
    if !level.is_available() {
        return Err(Error::Unsupported(level));
    }
    f.set_level(level);
    Ok(f)
}

/// Runs `req` on `f`: the kernels compiled for `F` where this is instantiated.
pub(crate) fn run<F: Field>(f: &F, req: Request<'_>) -> Result<(), Error> {
    fn work<F: Field, const D: usize>(f: &F, w: Work<'_, D>) -> Result<(), Error>
    where
        Noise: Dims<D>,
    {
        match w {
            Work::Fill(Points::F32(inputs), out) => fill(f, inputs, out),
            Work::Fill(Points::F64(inputs), out) => fill(f, inputs, out),
            Work::Grid(grid, out, parallel) => fill_grid(f, grid, out, parallel),
        }
    }
    match req {
        Request::D1(w) => work(f, w),
        Request::D2(w) => work(f, w),
        Request::D3(w) => work(f, w),
        Request::D4(w) => work(f, w),
    }
}

/// Runs `req` on `f`, derivatives included; see [`run`].
pub(crate) fn run_grad<F: GradField>(f: &F, req: GradRequest<'_>) -> Result<(), Error> {
    fn work<F: GradField, const D: usize>(f: &F, w: GradWork<'_, D>) -> Result<(), Error>
    where
        Noise: Dims<D>,
    {
        match w {
            GradWork::Fill(Points::F32(inputs), out, grad) => fill_grad(f, inputs, out, grad),
            GradWork::Fill(Points::F64(inputs), out, grad) => fill_grad(f, inputs, out, grad),
            GradWork::Grid(grid, out, grad, parallel) => {
                fill_grid_grad(f, grid, out, grad, parallel)
            }
        }
    }
    match req {
        GradRequest::D1(w) => work(f, w),
        GradRequest::D2(w) => work(f, w),
        GradRequest::D3(w) => work(f, w),
        GradRequest::D4(w) => work(f, w),
    }
}

/// One point through the scalar backend (`NaN` if the field is invalid).
pub(crate) fn point<F: Field, const D: usize>(f: &F, c: [f32; D]) -> f32
where
    Noise: Dims<D>,
{
    let f = f.core();
    if f.validate().is_err() {
        return f32::NAN;
    }
    let s = Scalar;
    f.eval(&f.ready(s), s, &F32Coords::<Scalar, D>(c), 1)
}

/// One `f64` point through the scalar backend (`NaN` if the field is
/// invalid): the bits of `fill_f64` at that point, at every level.
#[cfg(feature = "noise")]
pub(crate) fn point_f64<F: Field, const D: usize>(f: &F, c: [f64; D]) -> f32
where
    Noise: Dims<D>,
{
    let f = f.core();
    if f.validate().is_err() {
        return f32::NAN;
    }
    let s = Scalar;
    let mut lanes = [[0.0f64; MAX_LANES]; D];
    for (l, c) in lanes.iter_mut().zip(c) {
        l[0] = c;
    }
    f.eval(&f.ready(s), s, &F64Coords(lanes), 1)
}

/// One point and its derivatives through the scalar backend.
pub(crate) fn point_grad<F: GradField, const D: usize>(f: &F, c: [f32; D]) -> (f32, [f32; D])
where
    Noise: Dims<D>,
{
    if f.validate_grad().is_err() {
        return (f32::NAN, [f32::NAN; D]);
    }
    let s = Scalar;
    f.eval_grad(&f.ready(s), s, &F32Coords::<Scalar, D>(c), 1)
}

/// A batch of points at the field's level.
pub(crate) fn fill<F: Field, T: Input, const D: usize>(
    f: &F,
    inputs: [&[T]; D],
    out: &mut [f32],
) -> Result<(), Error>
where
    Noise: Dims<D>,
{
    let f = f.core();
    f.validate()?;
    check_lengths(inputs, out)?;
    dispatch(
        f.run_level(),
        FillPoints {
            field: f,
            inputs,
            out,
            period_scale: 1,
        },
    );
    Ok(())
}

/// The names of the derivative outputs, by axis.
const GRAD_NAMES: [&str; 4] = ["dx", "dy", "dz", "dw"];

/// `Err(LengthMismatch)` unless every derivative slice has `len` elements.
fn check_grad_lengths<const D: usize>(grad: &[&mut [f32]; D], len: usize) -> Result<(), Error> {
    for (a, g) in grad.iter().enumerate() {
        if g.len() != len {
            return Err(Error::LengthMismatch {
                name: GRAD_NAMES[a],
                expected: len,
                found: g.len(),
            });
        }
    }
    Ok(())
}

/// A batch of points with derivatives at the field's level.
pub(crate) fn fill_grad<F: GradField, T: Input, const D: usize>(
    f: &F,
    inputs: [&[T]; D],
    out: &mut [f32],
    grad: [&mut [f32]; D],
) -> Result<(), Error>
where
    Noise: Dims<D>,
{
    f.validate_grad()?;
    check_lengths(inputs, out)?;
    check_grad_lengths(&grad, out.len())?;
    dispatch(
        f.run_level(),
        FillPointsGrad {
            field: f,
            inputs,
            out,
            grad,
        },
    );
    Ok(())
}

/// The checked sample count of `grid` and the length of `out`, which must match.
fn grid_len<const D: usize>(grid: &Grid<D>, out: &[f32]) -> Result<usize, Error> {
    let len = grid.check()?;
    if out.len() != len {
        return Err(Error::LengthMismatch {
            name: "out",
            expected: len,
            found: out.len(),
        });
    }
    Ok(len)
}

/// Every sample position of each axis of `grid`.
fn grid_axes<const D: usize>(grid: &Grid<D>) -> [GridAxis; D] {
    let (size, step) = (grid.size(), grid.step());
    std::array::from_fn(|a| GridAxis {
        coords: (0..size[a]).map(|i| grid.coord(a, i)).collect(),
        step: step[a],
    })
}

/// Fills `out` with the field at every sample of `grid` (layout: see
/// [`Grid`]); on the rayon pool in tiles of whole rows when `parallel`.
pub(crate) fn fill_grid<F: Field, const D: usize>(
    f: &F,
    grid: &Grid<D>,
    out: &mut [f32],
    parallel: bool,
) -> Result<(), Error>
where
    Noise: Dims<D>,
{
    let f = f.core();
    f.validate()?;
    let len = grid_len(grid, out)?;
    if len == 0 {
        return Ok(());
    }
    let axes = grid_axes(grid);
    let plan = f.plan(&axes, 1);
    let nx = axes[0].coords.len();
    // Outputs far beyond the caches are written with non-temporal stores
    // (no read of each line before it is overwritten). Speed only: the
    // values are computed the same way either way.
    let streaming = len >= STREAMING_SAMPLES && nx >= 64;
    #[cfg(feature = "parallel")]
    if parallel {
        // Tiles of whole rows, about TILE_SAMPLES samples each.
        let rows_per_tile = (TILE_SAMPLES / nx).max(1);
        out.par_chunks_mut(rows_per_tile * nx)
            .enumerate()
            .for_each(|(t, out)| f.fill_rows(&plan, &axes, t * rows_per_tile, out, streaming));
        return Ok(());
    }
    // Without the `parallel` feature no `_par` method exists to ask for it.
    let _ = parallel;
    f.fill_rows(&plan, &axes, 0, out, streaming);
    Ok(())
}

/// Rows of at most this many samples go through one derivative pass of a grid.
const GRAD_ROWS_SAMPLES: usize = 1 << 12;

/// Fills `out` and the derivative slices at every sample of `grid`, each
/// sample computed as the `f64` point path computes it.
pub(crate) fn fill_grid_grad<F: GradField, const D: usize>(
    f: &F,
    grid: &Grid<D>,
    out: &mut [f32],
    grad: [&mut [f32]; D],
    parallel: bool,
) -> Result<(), Error>
where
    Noise: Dims<D>,
{
    f.validate_grad()?;
    let len = grid_len(grid, out)?;
    check_grad_lengths(&grad, len)?;
    if len == 0 {
        return Ok(());
    }
    let axes = grid_axes(grid);
    let nx = axes[0].coords.len();
    let rows_per_chunk = (GRAD_ROWS_SAMPLES / nx).max(1);
    let chunk = rows_per_chunk * nx;
    // Split every output the same way: chunk `t` of each is rows
    // `t * rows_per_chunk..`.
    let mut grad_chunks: Vec<_> = grad.into_iter().map(|g| g.chunks_mut(chunk)).collect();
    let mut work = Vec::new();
    for (t, out) in out.chunks_mut(chunk).enumerate() {
        let g: [&mut [f32]; D] = std::array::from_fn(|a| grad_chunks[a].next().unwrap());
        work.push((t, out, g));
    }
    let run = |(t, out, g): (usize, &mut [f32], [&mut [f32]; D])| {
        let coords = row_coords(&axes, t * rows_per_chunk, out.len() / nx);
        let inputs: [&[f64]; D] = std::array::from_fn(|a| &coords[a][..]);
        dispatch(
            f.run_level(),
            FillPointsGrad {
                field: f,
                inputs,
                out,
                grad: g,
            },
        );
    };
    #[cfg(feature = "parallel")]
    if parallel {
        work.into_par_iter().for_each(run);
        return Ok(());
    }
    let _ = parallel;
    work.into_iter().for_each(run);
    Ok(())
}

/// The points of rows `first_row..first_row + rows` of the grid `axes`, as
/// `f64` coordinate slices (x fastest).
fn row_coords<const D: usize>(
    axes: &[GridAxis; D],
    first_row: usize,
    rows: usize,
) -> [Vec<f64>; D] {
    let nx = axes[0].coords.len();
    let mut coords: [Vec<f64>; D] = std::array::from_fn(|_| Vec::with_capacity(rows * nx));
    for r in 0..rows {
        let mut rest = first_row + r;
        let mut other = [0.0f64; 4];
        for a in 1..D {
            let n = axes[a].coords.len();
            other[a] = axes[a].coords[rest % n];
            rest /= n;
        }
        coords[0].extend_from_slice(&axes[0].coords);
        for a in 1..D {
            coords[a].extend(std::iter::repeat_n(other[a], nx));
        }
    }
    coords
}

/// Rows of at most this many samples go through one pass of
/// [`fill_rows_by_points`] (its coordinates: 8 bytes per sample and axis).
const POINT_ROWS_SAMPLES: usize = 1 << 12;

/// [`Field::fill_rows`] for fields without a row path of their own (a
/// domain warp): rows `first_row..` of the grid `axes` exactly as the `f64`
/// point path computes them (`fill_f64` at the grid's coordinates), in
/// passes of whole rows; `period_scale` as in [`Field::plan`].
pub(crate) fn fill_rows_by_points<F: Field, const D: usize>(
    f: &F,
    axes: &[GridAxis; D],
    first_row: usize,
    out: &mut [f32],
    period_scale: u64,
) where
    Noise: Dims<D>,
{
    by_row_points(axes, first_row, out, |inputs, out| {
        dispatch(
            f.run_level(),
            FillPoints {
                field: f,
                inputs,
                out,
                period_scale,
            },
        );
    });
}

/// Rows `first_row..` of the grid `axes` (as many as `out` holds) in passes
/// of whole rows (at most [`POINT_ROWS_SAMPLES`] samples, or one row):
/// `pass(points, out)` with the pass's sample positions (`f64`, x fastest)
/// and its part of `out`.
pub(crate) fn by_row_points<const D: usize>(
    axes: &[GridAxis; D],
    first_row: usize,
    out: &mut [f32],
    mut pass: impl FnMut([&[f64]; D], &mut [f32]),
) {
    let nx = axes[0].coords.len();
    if nx == 0 {
        return;
    }
    let rows_per_pass = (POINT_ROWS_SAMPLES / nx).max(1);
    for (p, out) in out.chunks_mut(rows_per_pass * nx).enumerate() {
        let coords = row_coords(axes, first_row + p * rows_per_pass, out.len() / nx);
        let inputs: [&[f64]; D] = std::array::from_fn(|a| &coords[a][..]);
        pass(inputs, out);
    }
}

/// Canonical NaN for a whole step.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn canonical<S: Simd>(s: S, mut v: S::F) -> S::F {
    crate::kernel::for_each_part!(S, |k| {
        let p = s.canonical_nan(s.part(v, k));
        s.set_part(&mut v, k, p);
    });
    v
}

/// The settings methods of [`Field`] (and of `DynField`, which has the same
/// ones) for a wrapper that forwards them unchanged to `self.0`.
macro_rules! forward_settings {
    () => {
        fn run_level(&self) -> crate::Level {
            self.0.run_level()
        }
        fn set_level(&mut self, level: crate::Level) {
            self.0.set_level(level)
        }
        fn validate(&self) -> Result<(), crate::Error> {
            self.0.validate()
        }
        fn output_bounds(&self, dimension: usize) -> (f32, f32) {
            self.0.output_bounds(dimension)
        }
        fn periods(&self, scale: u64) -> [Option<u64>; 4] {
            self.0.periods(scale)
        }
    };
}
pub(crate) use forward_settings;

/// Implements [`Field`] and [`GradField`] for a newtype `$ty($inner)` by
/// forwarding to the inner field.
///
/// `compiled` (for a concrete `$ty`, one of the crate's lattice sources)
/// also compiles, in this crate, the kernels of the fractals over `$ty`
/// ([`Field::run_fractal`]).
macro_rules! forward_field {
    (impl[] $ty:ty, $inner:ty, compiled) => {
        crate::field::forward_field!(impl[] $ty, $inner, {
            fn run_fractal(
                f: &crate::fractal::Fractal<Self>,
                req: crate::field::Request<'_>,
            ) -> Result<(), crate::Error> {
                crate::field::run(f, req)
            }
        });
    };
    (impl[$($g:tt)*] $ty:ty, $inner:ty) => {
        crate::field::forward_field!(impl[$($g)*] $ty, $inner, {});
    };
    (impl[$($g:tt)*] $ty:ty, $inner:ty, { $($extra:tt)* }) => {
        impl<$($g)*> crate::field::Field for $ty {
            type Ready<'a, S: crate::simd::Simd>
                = <$inner as crate::field::Field>::Ready<'a, S>
            where
                Self: 'a;
            type Plan = <$inner as crate::field::Field>::Plan;
            type Core = <$inner as crate::field::Field>::Core;

            fn core(&self) -> &Self::Core {
                self.0.core()
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            fn ready<S: crate::simd::Simd>(&self, s: S) -> Self::Ready<'_, S> {
                self.0.ready(s)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval<S: crate::simd::Simd, C: crate::field::Coords<S, D>, const D: usize>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                c: &C,
                period_scale: u64,
            ) -> S::F
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.eval(r, s, c, period_scale)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn fill_steps<S: crate::simd::Simd, T: crate::field::Input, const D: usize>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                inputs: &[&[T]; D],
                out: &mut [f32],
                period_scale: u64,
            ) where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.fill_steps(r, s, inputs, out, period_scale)
            }
            crate::field::forward_settings!();
            fn plan<const D: usize>(
                &self,
                axes: &[crate::field::GridAxis; D],
                period_scale: u64,
            ) -> Self::Plan
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.plan(axes, period_scale)
            }
            fn fill_rows<const D: usize>(
                &self,
                plan: &Self::Plan,
                axes: &[crate::field::GridAxis; D],
                first_row: usize,
                out: &mut [f32],
                streaming: bool,
            ) where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.fill_rows(plan, axes, first_row, out, streaming)
            }
            // Written out (not the trait's default) so that a concrete
            // `$ty` runs a copy compiled in this crate.
            fn run(&self, req: crate::field::Request<'_>) -> Result<(), crate::Error> {
                self.0.run(req)
            }
            $($extra)*
        }
    };
}
pub(crate) use forward_field;

/// Implements [`GradField`] for a newtype `$ty($inner)` by forwarding.
/// `compiled`: see [`forward_field`].
macro_rules! forward_grad_field {
    (impl[] $ty:ty, compiled) => {
        crate::field::forward_grad_field!(impl[] $ty, {
            fn run_fractal_grad(
                f: &crate::fractal::Fractal<Self>,
                req: crate::field::GradRequest<'_>,
            ) -> Result<(), crate::Error> {
                crate::field::run_grad(f, req)
            }
        });
    };
    (impl[$($g:tt)*] $ty:ty) => {
        crate::field::forward_grad_field!(impl[$($g)*] $ty, {});
    };
    (impl[$($g:tt)*] $ty:ty, { $($extra:tt)* }) => {
        impl<$($g)*> crate::field::GradField for $ty {
            type GradCore = <Self as crate::field::Field>::Core;

            fn grad_core(&self) -> &Self::GradCore {
                crate::field::Field::core(self)
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval_grad<S: crate::simd::Simd, C: crate::field::Coords<S, D>, const D: usize>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                c: &C,
                period_scale: u64,
            ) -> (S::F, [S::F; D])
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.eval_grad(r, s, c, period_scale)
            }
            fn run_grad(&self, req: crate::field::GradRequest<'_>) -> Result<(), crate::Error> {
                self.0.run_grad(req)
            }
            fn validate_grad(&self) -> Result<(), crate::Error> {
                self.0.validate_grad()
            }
            $($extra)*
        }
    };
}
pub(crate) use forward_grad_field;
