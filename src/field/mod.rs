//! The kernel-side interface every noise source implements ([`Field`]), the
//! coordinate packs it is evaluated on ([`PointPack`]), and the jobs and
//! drivers that run any field over points and grids.
//!
//! A field is evaluated one kernel pack at a time: `eval` receives a pack of
//! coordinates and returns a pack of values. Lattice noises (`Perlin`,
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
//!
//! The layer's files: `coords.rs` the coordinate packs and grid axes,
//! `request.rs` the type-erased batch calls ([`Request`]), `drivers.rs` the
//! jobs and drivers that run a field over points and grids, `forward.rs` the
//! macros that implement these traits for newtypes.

mod coords;
mod drivers;
mod forward;
mod request;

pub use coords::{F32Pack, F64Pack, GridAxis, LaneArrays, LaneSlices, PointPack};
#[cfg(any(test, feature = "noise"))]
pub(crate) use drivers::point_f64;
pub(crate) use drivers::{
    at_level, by_row_points, canonical, fill, fill_grid, fill_rows_by_points, inputs_cut,
    inputs_pack, point, point_grad, point_grad_nd, point_nd, run, run_grad,
};
#[cfg(test)]
pub(crate) use drivers::{fill_grad_nd, fill_nd};
pub(crate) use forward::{forward_field, forward_grad_field, forward_settings};
pub(crate) use request::{Dimension, cast};

pub use request::{GradRequest, GradWork, GradWorkNd, Points, PointsNd, Request, Work, WorkNd};

use crate::kernel::{Dims, Noise};
use crate::simd::{MAX_LANES, Simd};
use crate::sources::fractal::Fractal;
use crate::{Error, Level};

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

    /// The field at one pack of points. `period_scale` multiplies the periods
    /// of periodic lattices (fractal octaves of integer lacunarity).
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>;

    /// The field at one pack of points in `c.dims()` dimensions, 5 up to
    /// [`Field::max_dimension`], the dimension a run-time value (compiled
    /// once per level, not once per dimension). The default, for a field
    /// that computes 4 dimensions at most, is NaN: the drivers refuse such
    /// a call with [`Error::InvalidDimension`] before any work.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        let _ = (r, c, period_scale);
        s.splat(f32::NAN)
    }

    /// The most dimensions the field computes (4 without [`Field::eval_nd`]).
    fn max_dimension(&self) -> usize {
        4
    }

    /// The whole packs of a batch call (`fill`): the field at the points
    /// `inputs[..][i]`, stored into `out[i]`, `out.len()` a multiple of
    /// `LANES` and each input as long. A field may run its pack inlined in
    /// the loop, reading and writing the memory part by part, instead of
    /// calling a shared copy of [`Field::eval`] per pack, and choose how
    /// its packs run once for the loop.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fill_packs<S: Simd, T: Input, const D: usize>(
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
    /// The period (in cells, multiplied by `scale`) of the lattice inside
    /// along `axis`; `None` on an axis without a set period.
    fn period(&self, axis: usize, scale: u64) -> Option<u64>;
    /// The periods of the first `D` axes ([`Field::period`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn periods<const D: usize>(&self, scale: u64) -> [Option<u64>; D] {
        std::array::from_fn(|a| self.period(a, scale))
    }
    /// Whether a lattice inside repeats with a set period on some axis.
    fn periodic(&self) -> bool {
        (0..crate::kernel::MAX_LATTICE_DIMENSIONS).any(|a| self.period(a, 1).is_some())
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

    /// Adds `amplitude ·` each value of the rows [`Field::fill_rows`] would
    /// store to the values in `out` (fBm's fold, in its operations) in the
    /// row pass itself, where the field can; `false`, with nothing written,
    /// where it cannot (the default).
    fn add_rows<const D: usize>(
        &self,
        plan: &Self::Plan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        amplitude: f32,
    ) -> bool
    where
        Noise: Dims<D>,
    {
        let _ = (plan, axes, first_row, out, amplitude);
        false
    }

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
    /// packs are compiled for (the field itself, or what a public newtype
    /// wraps).
    type GradCore: GradField;

    fn grad_core(&self) -> &Self::GradCore;

    /// The field and its derivative along each axis at one pack of points.
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>;

    /// [`Field::eval_nd`] with derivatives: the value, and the derivative
    /// along axis `a` into `grad[a]` (`c.dims()` of them). The default, for
    /// a field of 4 dimensions at most, is NaN (never reached: the drivers
    /// refuse first).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        let _ = (r, c, period_scale);
        grad.fill(s.splat(f32::NAN));
        s.splat(f32::NAN)
    }

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
    type Pack<S: Simd, const D: usize>: PointPack<S, D>;
    /// The padding of a last partial pack.
    const ZERO: Self;
    /// The pack's inputs as `f32` slices, when they are `f32`.
    fn f32_slices<'a, const D: usize>(src: &[&'a [Self]; D]) -> Option<[&'a [f32]; D]>;
    /// The pack of `len ≤ LANES` points at `at` (padding lanes at 0).
    fn load<S: Simd, const D: usize>(
        s: S,
        inputs: &[&[Self]; D],
        at: usize,
        len: usize,
    ) -> Self::Pack<S, D>;
    /// One axis's per-lane values as a one-axis pack (for 5 dimensions
    /// and more, whose packs are per-lane copies: [`LaneSlices`]).
    fn axis_pack<S: Simd>(s: S, lanes: &[Self; MAX_LANES]) -> Self::Pack<S, 1>;
    /// A one-axis pack's lanes stored back (the first `S::LANES`).
    fn store_axis<S: Simd>(s: S, p: &Self::Pack<S, 1>, lanes: &mut [Self; MAX_LANES]);
    /// Per-lane copies of a pack's axes as the pack of 5 dimensions and more.
    fn slices(lanes: &[[Self; MAX_LANES]]) -> LaneSlices<'_>;
}

impl Input for f32 {
    type Pack<S: Simd, const D: usize> = F32Pack<S, D>;
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
    ) -> F32Pack<S, D> {
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
        F32Pack(c)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn axis_pack<S: Simd>(s: S, lanes: &[f32; MAX_LANES]) -> F32Pack<S, 1> {
        F32Pack([s.load(&lanes[..S::LANES])])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_axis<S: Simd>(s: S, p: &F32Pack<S, 1>, lanes: &mut [f32; MAX_LANES]) {
        s.store(p.0[0], &mut lanes[..S::LANES]);
    }
    fn slices(lanes: &[[f32; MAX_LANES]]) -> LaneSlices<'_> {
        LaneSlices::F32(lanes)
    }
}

impl Input for f64 {
    type Pack<S: Simd, const D: usize> = F64Pack<D>;
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
    ) -> F64Pack<D> {
        let mut c = [[0.0f64; MAX_LANES]; D];
        for d in 0..D {
            c[d][..len].copy_from_slice(&inputs[d][at..at + len]);
        }
        F64Pack(c)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn axis_pack<S: Simd>(_: S, lanes: &[f64; MAX_LANES]) -> F64Pack<1> {
        F64Pack([*lanes])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_axis<S: Simd>(_: S, p: &F64Pack<1>, lanes: &mut [f64; MAX_LANES]) {
        lanes[..S::LANES].copy_from_slice(&p.0[0][..S::LANES]);
    }
    fn slices(lanes: &[[f64; MAX_LANES]]) -> LaneSlices<'_> {
        LaneSlices::F64(lanes)
    }
}
