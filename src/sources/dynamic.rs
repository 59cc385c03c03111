//! [`DynSource`]: any source behind one object-safe face, for graphs chosen
//! at run time (a recipe, a configuration file).
//!
//! The kernel side of a source ([`Field`]) is generic over the SIMD level,
//! the dimension and the coordinate precision, so it cannot be a trait
//! object. [`DynField`] is its object-safe mirror: one method per kind of
//! work, with the level, the dimension and the precision as values.
//! `Node<T>` implements it for any source `T` by dispatching, inside the
//! call, to the kernels compiled for `T`. [`DynSource`] (a boxed
//! `DynField`) implements `Field` again, so it joins every combinator.
//!
//! What crosses the virtual call:
//! - a whole batch or grid call ([`Field::run`]): once per call, and the
//!   source below runs its own compiled path (a static subtree is as fast
//!   behind the box as without it);
//! - one kernel pack of points when a combinator evaluates it as an input
//!   (32 points at `Avx2`, 64 at `Avx512`, 16 at `Neon`, 8 at `Portable`):
//!   the coordinates are stored per lane, the source runs its pack at the
//!   caller's level and stores its values;
//! - a block of grid rows ([`Field::fill_rows`]), with the grid plan boxed.
//!
//! The same points give the same bits through the box as without it: the
//! pack is evaluated by the same kernel at the same level, on the same
//! coordinates in the same precision.

use crate::field::GradWorkNd;
use std::any::Any;
use std::ops::Deref;

use crate::field::{
    F32Pack, F64Pack, Field, GradField, GradRequest, GradWork, GridAxis, LaneArrays, LaneSlices,
    PointPack, PointsNd, Request, Work, WorkNd, at_level,
};
use crate::grid::GridNd;
use crate::kernel::{Dims, Noise};
use crate::simd::{Job, MAX_LANES, Simd, dispatch};
use crate::{Differentiable, Error, Level, Source};

/// `$body` with `D` the dimension `$d` (1..=4) as a constant; `$none` for any
/// other (the callers are the crate's drivers, which never pass one).
macro_rules! with_dims {
    ($d:expr, $none:expr, |D| $body:expr) => {
        match $d {
            1 => {
                const D: usize = 1;
                $body
            }
            2 => {
                const D: usize = 2;
                $body
            }
            3 => {
                const D: usize = 3;
                $body
            }
            4 => {
                const D: usize = 4;
                $body
            }
            _ => $none,
        }
    };
}

/// A grid plan behind the virtual call.
type AnyPlan = Box<dyn Any + Send + Sync>;

/// The object-safe face of a [`Field`]: every method a combinator or a
/// driver calls on its input, with the level, dimension and precision as
/// values instead of type parameters. [`Erased`] makes it a `Field` again.
trait PackField: Send + Sync + std::fmt::Debug {
    /// One pack of values at `level` (the caller's backend): `out[..LANES]`.
    fn eval_pack(
        &self,
        level: Level,
        c: LaneSlices<'_>,
        period_scale: u64,
        out: &mut [f32; MAX_LANES],
    );
    fn run_level(&self) -> Level;
    fn validate(&self) -> Result<(), Error>;
    fn output_bounds(&self, dimension: usize) -> (f32, f32);
    fn period(&self, axis: usize, scale: u64) -> Option<u64>;
    fn max_dimension(&self) -> usize;
    fn plan(&self, axes: &[GridAxis], period_scale: u64) -> AnyPlan;
    fn fill_rows(
        &self,
        plan: &AnyPlan,
        axes: &[GridAxis],
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
    );
    /// [`GradField::validate_grad`]: `Err(NotDifferentiable)` without derivatives.
    fn validate_grad(&self) -> Result<(), Error>;
    /// One pack of values and derivatives (`grad[a]` for axis `a`; NaN
    /// without derivatives: never reached, `validate_grad` refuses first).
    fn eval_grad_pack(
        &self,
        level: Level,
        c: LaneSlices<'_>,
        period_scale: u64,
        out: &mut [f32; MAX_LANES],
        grad: &mut [[f32; MAX_LANES]],
    );
}

/// A [`PackField`] that owns its source: what a [`DynSource`] boxes.
trait DynField: PackField {
    fn clone_box(&self) -> Box<dyn DynField>;
    /// A whole batch or grid call. The source's own drivers run it: a
    /// lattice's compiled fused paths, or for a composite (an operator, a
    /// warp, a fractal over either) the drivers compiled once for
    /// [`Erased`] ([`run_erased`]).
    fn run(&self, req: Request<'_>) -> Result<(), Error>;
    /// [`DynField::run`] with derivatives (`Err(NotDifferentiable)` without
    /// them).
    fn run_grad(&self, req: GradRequest<'_>) -> Result<(), Error>;
    fn set_level(&mut self, level: Level);
}

/// A source behind the object-safe face, held by `P` (a `Box` in a
/// [`DynSource`], a reference in [`run_erased`]); `G` says whether it has
/// derivatives ([`Plain`] or [`WithGradients`]).
#[derive(Clone, Debug)]
struct Node<P, G>(P, G);

/// How a [`Node`] answers for derivatives.
trait Gradients<T>: Clone + std::fmt::Debug + Send + Sync + 'static {
    fn validate_grad(t: &T) -> Result<(), Error>;
    /// A whole derivative call.
    fn run_grad(t: &T, req: GradRequest<'_>) -> Result<(), Error>;
    fn eval_grad_pack(
        t: &T,
        level: Level,
        c: LaneSlices<'_>,
        period_scale: u64,
        out: &mut [f32; MAX_LANES],
        grad: &mut [[f32; MAX_LANES]],
    );
}

/// A source without derivatives: derivative calls are refused.
#[derive(Clone, Copy, Debug)]
struct Plain;

/// A source with derivatives ([`DynSource::differentiable`]).
#[derive(Clone, Copy, Debug)]
struct WithGradients;

impl<T> Gradients<T> for Plain {
    fn validate_grad(_: &T) -> Result<(), Error> {
        Err(Error::NotDifferentiable)
    }
    fn run_grad(_: &T, _: GradRequest<'_>) -> Result<(), Error> {
        Err(Error::NotDifferentiable)
    }
    fn eval_grad_pack(
        _: &T,
        _: Level,
        _: LaneSlices<'_>,
        _: u64,
        out: &mut [f32; MAX_LANES],
        grad: &mut [[f32; MAX_LANES]],
    ) {
        out.fill(f32::NAN);
        grad.iter_mut().for_each(|g| g.fill(f32::NAN));
    }
}

impl<T: GradField> Gradients<T> for WithGradients {
    fn validate_grad(t: &T) -> Result<(), Error> {
        t.validate_grad()
    }
    fn run_grad(t: &T, req: GradRequest<'_>) -> Result<(), Error> {
        t.run_grad(req)
    }
    fn eval_grad_pack(
        t: &T,
        level: Level,
        c: LaneSlices<'_>,
        period_scale: u64,
        out: &mut [f32; MAX_LANES],
        grad: &mut [[f32; MAX_LANES]],
    ) {
        if grad.len() > 4 {
            return dispatch(
                level,
                EvalGradPackNd {
                    field: t.grad_core(),
                    c,
                    period_scale,
                    out,
                    grad,
                },
            );
        }
        with_dims!(grad.len(), (), |D| dispatch(
            level,
            EvalGradPack::<T::GradCore, D> {
                field: t.grad_core(),
                c,
                period_scale,
                out,
                grad: grad.try_into().expect("D axes"),
            }
        ))
    }
}

/// A pack's `f32` coordinates from their per-lane copies (`D` axes).
#[cfg_attr(not(debug_assertions), inline(always))]
fn f32_pack<S: Simd, const D: usize>(s: S, lanes: &[[f32; MAX_LANES]]) -> F32Pack<S, D> {
    let mut c = [s.splat(0.0); D];
    for (c, lanes) in c.iter_mut().zip(lanes) {
        *c = s.load(&lanes[..S::LANES]);
    }
    F32Pack(c)
}

/// A pack's `f64` coordinates from their per-lane copies (`D` axes).
#[cfg_attr(not(debug_assertions), inline(always))]
fn f64_pack<S: Simd, const D: usize>(lanes: &[[f64; MAX_LANES]]) -> F64Pack<D> {
    let mut c = [[0.0f64; MAX_LANES]; D];
    for (c, lanes) in c.iter_mut().zip(lanes) {
        c[..S::LANES].copy_from_slice(&lanes[..S::LANES]);
    }
    F64Pack(c)
}

/// One pack of `field` at `c`, stored into `out`. Compiled for the source's
/// core type (`Field::Core`), so `Fbm<Perlin>`, `Ridged<Perlin>`, … behind a
/// box share the one copy of `Fractal<Perlin>`.
struct EvalPack<'a, T, const D: usize> {
    field: &'a T,
    c: LaneSlices<'a>,
    period_scale: u64,
    out: &'a mut [f32; MAX_LANES],
}

impl<T: Field, const D: usize> Job for EvalPack<'_, T, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let v = match self.c {
            LaneSlices::F32(lanes) => {
                self.field
                    .eval(&r, s, &f32_pack(s, lanes), self.period_scale)
            }
            LaneSlices::F64(lanes) => {
                self.field
                    .eval(&r, s, &f64_pack::<S, D>(lanes), self.period_scale)
            }
        };
        s.store(v, &mut self.out[..S::LANES]);
    }
}

/// [`EvalPack`] in 5 dimensions and more (the dimension `c.dims()`).
struct EvalPackNd<'a, T> {
    field: &'a T,
    c: LaneSlices<'a>,
    period_scale: u64,
    out: &'a mut [f32; MAX_LANES],
}

impl<T: Field> Job for EvalPackNd<'_, T> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let v = self.field.eval_nd(&r, s, self.c, self.period_scale);
        s.store(v, &mut self.out[..S::LANES]);
    }
}

/// [`EvalGradPack`] in 5 dimensions and more.
struct EvalGradPackNd<'a, T> {
    field: &'a T,
    c: LaneSlices<'a>,
    period_scale: u64,
    out: &'a mut [f32; MAX_LANES],
    grad: &'a mut [[f32; MAX_LANES]],
}

impl<T: GradField> Job for EvalGradPackNd<'_, T> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let mut d = vec![s.splat(0.0); self.grad.len()];
        let v = self
            .field
            .eval_grad_nd(&r, s, self.c, self.period_scale, &mut d);
        s.store(v, &mut self.out[..S::LANES]);
        for (g, d) in self.grad.iter_mut().zip(d) {
            s.store(d, &mut g[..S::LANES]);
        }
    }
}

/// One pack of `field`'s values and derivatives at `c`, stored.
struct EvalGradPack<'a, T, const D: usize> {
    field: &'a T,
    c: LaneSlices<'a>,
    period_scale: u64,
    out: &'a mut [f32; MAX_LANES],
    grad: &'a mut [[f32; MAX_LANES]; D],
}

impl<T: GradField, const D: usize> Job for EvalGradPack<'_, T, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let (v, d) = match self.c {
            LaneSlices::F32(lanes) => {
                self.field
                    .eval_grad(&r, s, &f32_pack(s, lanes), self.period_scale)
            }
            LaneSlices::F64(lanes) => {
                self.field
                    .eval_grad(&r, s, &f64_pack::<S, D>(lanes), self.period_scale)
            }
        };
        s.store(v, &mut self.out[..S::LANES]);
        for (g, d) in self.grad.iter_mut().zip(d) {
            s.store(d, &mut g[..S::LANES]);
        }
    }
}

impl<P, G> PackField for Node<P, G>
where
    P: Deref + Send + Sync + std::fmt::Debug,
    P::Target: Field,
    G: Gradients<P::Target>,
{
    fn eval_pack(
        &self,
        level: Level,
        c: LaneSlices<'_>,
        period_scale: u64,
        out: &mut [f32; MAX_LANES],
    ) {
        let dims = match c {
            LaneSlices::F32(a) => a.len(),
            LaneSlices::F64(a) => a.len(),
        };
        if dims > 4 {
            return dispatch(
                level,
                EvalPackNd {
                    field: self.0.core(),
                    c,
                    period_scale,
                    out,
                },
            );
        }
        with_dims!(dims, (), |D| dispatch(
            level,
            EvalPack::<<P::Target as Field>::Core, D> {
                field: self.0.core(),
                c,
                period_scale,
                out,
            }
        ))
    }

    fn run_level(&self) -> Level {
        self.0.run_level()
    }
    fn validate(&self) -> Result<(), Error> {
        self.0.validate()
    }
    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        self.0.output_bounds(dimension)
    }
    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        self.0.period(axis, scale)
    }
    fn max_dimension(&self) -> usize {
        self.0.max_dimension()
    }

    fn plan(&self, axes: &[GridAxis], period_scale: u64) -> AnyPlan {
        with_dims!(axes.len(), Box::new(()), |D| {
            let axes: &[GridAxis; D] = axes.try_into().expect("D axes");
            Box::new(self.0.plan(axes, period_scale))
        })
    }

    fn fill_rows(
        &self,
        plan: &AnyPlan,
        axes: &[GridAxis],
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
    ) {
        // The plan was made by `plan` above for the same source (the
        // drivers pass a field's own plan back to it).
        let Some(plan) = (**plan).downcast_ref::<<P::Target as Field>::Plan>() else {
            return;
        };
        with_dims!(axes.len(), (), |D| {
            let axes: &[GridAxis; D] = axes.try_into().expect("D axes");
            self.0.fill_rows(plan, axes, first_row, out, streaming)
        })
    }

    fn validate_grad(&self) -> Result<(), Error> {
        G::validate_grad(&*self.0)
    }

    fn eval_grad_pack(
        &self,
        level: Level,
        c: LaneSlices<'_>,
        period_scale: u64,
        out: &mut [f32; MAX_LANES],
        grad: &mut [[f32; MAX_LANES]],
    ) {
        G::eval_grad_pack(&*self.0, level, c, period_scale, out, grad)
    }
}

impl<T, G> DynField for Node<Box<T>, G>
where
    T: Field + 'static,
    G: Gradients<T>,
{
    fn clone_box(&self) -> Box<dyn DynField> {
        Box::new(self.clone())
    }

    fn run(&self, req: Request<'_>) -> Result<(), Error> {
        self.0.run(req)
    }

    fn run_grad(&self, req: GradRequest<'_>) -> Result<(), Error> {
        G::run_grad(&*self.0, req)
    }

    fn set_level(&mut self, level: Level) {
        self.0.set_level(level)
    }
}

/// A whole batch or grid call on `field` by the drivers compiled once for
/// [`Erased`], `field` evaluated one kernel pack at a time across the
/// virtual call: what operators, warps and fractals over them run, so that
/// their drivers are not compiled again for every composite type and level
/// (the pack itself, all of `field` inlined, still is).
pub(crate) fn run_erased<T: Field>(field: &T, req: Request<'_>) -> Result<(), Error> {
    crate::field::run(&Erased(&Node(field, Plain)), req)
}

/// [`run_erased`] with derivatives.
pub(crate) fn run_grad_erased<T: GradField>(field: &T, req: GradRequest<'_>) -> Result<(), Error> {
    crate::field::run_grad(&Erased(&Node(field, WithGradients)), req)
}

/// Any source, chosen at run time: a boxed graph behind one object-safe
/// face, itself a [`Source`] that every combinator takes.
///
/// Build one from any source with [`DynSource::new`], or from recipe text
/// with [`crate::Recipe`]. A batch or grid call on a `DynSource` runs the
/// source's own compiled path (one virtual call per call); a combinator
/// that takes a `DynSource` as input makes one virtual call per kernel
/// pack (32 points at `Avx2`, 64 at `Avx512`, 16 at `Neon`) and one per
/// block of grid rows, never one per point. The output is bit-identical
/// to the same graph composed statically, at every level.
///
/// ```
/// use noisefield::{Combine, DynSource, Fbm, Perlin, Source, Value};
///
/// // Picked from configuration at run time:
/// let rough = true;
/// let base = if rough {
///     DynSource::new(Fbm::new(Perlin::new(7)).octaves(5))
/// } else {
///     DynSource::new(Value::new(7))
/// };
/// let terrain = DynSource::new(Combine::add(base, Perlin::new(8)));
/// let mut out = vec![0.0; 3];
/// terrain.fill([&[0.5, 1.5, 2.5], &[0.25, 0.25, 0.25]], &mut out)?;
/// assert!(out.iter().all(|v| v.is_finite()));
/// # Ok::<(), noisefield::Error>(())
/// ```
pub struct DynSource(Box<dyn DynField>);

impl DynSource {
    /// `source` behind the run-time face (at `source`'s level).
    pub fn new<T: Source + 'static>(source: T) -> DynSource {
        DynSource(Box::new(Node(Box::new(source), Plain)))
    }

    /// `source` behind the run-time face with its derivatives: the
    /// `DynSource` answers [`Differentiable`]'s methods (with
    /// [`DynSource::new`] they return [`Error::NotDifferentiable`]).
    pub fn differentiable<T: Differentiable + 'static>(source: T) -> DynSource {
        DynSource(Box::new(Node(Box::new(source), WithGradients)))
    }

    /// Whether the derivative methods work on this graph (every part of it
    /// has derivatives) and its parameters are valid.
    pub fn is_differentiable(&self) -> bool {
        self.0.validate_grad().is_ok()
    }

    /// The same graph with every source in it at `level`, or
    /// [`Error::Unsupported`] when this CPU cannot run it.
    pub fn with_level(self, level: Level) -> Result<DynSource, Error> {
        at_level(self, level)
    }

    /// The SIMD level the batch methods run at.
    pub fn level(&self) -> Level {
        self.0.run_level()
    }

    /// [`Source::noise`] with the dimension as a value: `p.len()`
    /// coordinates, [`Error::InvalidDimension`] for a number the crate
    /// does not compute.
    pub fn noise_dyn(&self, p: &[f32]) -> Result<f32, Error> {
        if p.len() > 4 {
            self.check_dimension(p.len())?;
            return Ok(crate::field::point_nd(self, p));
        }
        by_dimension!(p.len(), |D| Ok(self.noise::<D>(array(p))))
    }

    /// [`Source::fill`] with the dimension as a value: one slice per axis
    /// (`coords.len()` axes).
    pub fn fill_dyn(&self, coords: &[&[f32]], out: &mut [f32]) -> Result<(), Error> {
        if coords.len() > 4 {
            return self.run(Request::Nd(WorkNd::Fill(
                PointsNd::F32(coords.to_vec()),
                out,
            )));
        }
        by_dimension!(coords.len(), |D| self.fill::<D>(array(coords), out))
    }

    /// [`Source::fill_f64`] with the dimension as a value.
    pub fn fill_f64_dyn(&self, coords: &[&[f64]], out: &mut [f32]) -> Result<(), Error> {
        if coords.len() > 4 {
            return self.run(Request::Nd(WorkNd::Fill(
                PointsNd::F64(coords.to_vec()),
                out,
            )));
        }
        by_dimension!(coords.len(), |D| self.fill_f64::<D>(array(coords), out))
    }

    /// `Err` unless the source is valid and computes `dims` dimensions.
    fn check_dimension(&self, dims: usize) -> Result<(), Error> {
        self.0.validate()?;
        if dims == 0 || dims > self.0.max_dimension() {
            return Err(Error::InvalidDimension(dims));
        }
        Ok(())
    }

    /// [`Differentiable::noise_grad`] with the dimension as a value: the
    /// value, and the derivatives written to `grad` (`p.len()` of them,
    /// [`Error::InvalidParameter`] otherwise; [`Error::NotDifferentiable`]
    /// without derivatives).
    pub fn noise_grad_dyn(&self, p: &[f32], grad: &mut [f32]) -> Result<f32, Error> {
        check_axes(p.len(), grad.len())?;
        self.0.validate_grad()?;
        if p.len() > 4 {
            self.check_dimension(p.len())?;
            return Ok(crate::field::point_grad_nd(self, p, grad));
        }
        by_dimension!(p.len(), |D| {
            let (v, d) = self.noise_grad::<D>(array(p));
            grad.copy_from_slice(&d);
            Ok(v)
        })
    }

    /// [`Differentiable::fill_grad`] with the dimension as a value: `grad`
    /// holds one output slice per axis.
    pub fn fill_grad_dyn(
        &self,
        coords: &[&[f32]],
        out: &mut [f32],
        grad: &mut [&mut [f32]],
    ) -> Result<(), Error> {
        check_axes(coords.len(), grad.len())?;
        if coords.len() > 4 {
            let grad = grad.iter_mut().map(|g| &mut **g).collect();
            let points = PointsNd::F32(coords.to_vec());
            return self.run_grad(GradRequest::Nd(GradWorkNd::Fill(points, out, grad)));
        }
        by_dimension!(coords.len(), |D| {
            let mut it = grad.iter_mut();
            let grad: [&mut [f32]; D] = std::array::from_fn(|_| &mut **it.next().expect("D"));
            self.fill_grad::<D>(array(coords), out, grad)
        })
    }
    /// [`Source::fill_grid`] with the dimension as a value (`grid.dims()`
    /// axes): the same bits as the [`crate::Grid`] of that many axes.
    pub fn fill_grid_dyn(&self, grid: &GridNd, out: &mut [f32]) -> Result<(), Error> {
        self.grid_dyn(grid, out, false)
    }

    /// [`Source::fill_grid_par`] with the dimension as a value.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    pub fn fill_grid_par_dyn(&self, grid: &GridNd, out: &mut [f32]) -> Result<(), Error> {
        self.grid_dyn(grid, out, true)
    }

    fn grid_dyn(&self, grid: &GridNd, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        if grid.dims() > 4 {
            return self.run(Request::Nd(WorkNd::Grid(grid.clone(), out, parallel)));
        }
        by_dimension!(grid.dims(), |D| self
            .run(Work::Grid(&grid.typed::<D>(), out, parallel).into()))
    }

    /// [`Differentiable::fill_grid_grad`] with the dimension as a value:
    /// `grad` holds one output slice per axis.
    pub fn fill_grid_grad_dyn(
        &self,
        grid: &GridNd,
        out: &mut [f32],
        grad: &mut [&mut [f32]],
    ) -> Result<(), Error> {
        self.grid_grad_dyn(grid, out, grad, false)
    }

    /// [`Differentiable::fill_grid_grad_par`] with the dimension as a value.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    pub fn fill_grid_grad_par_dyn(
        &self,
        grid: &GridNd,
        out: &mut [f32],
        grad: &mut [&mut [f32]],
    ) -> Result<(), Error> {
        self.grid_grad_dyn(grid, out, grad, true)
    }

    fn grid_grad_dyn(
        &self,
        grid: &GridNd,
        out: &mut [f32],
        grad: &mut [&mut [f32]],
        parallel: bool,
    ) -> Result<(), Error> {
        check_axes(grid.dims(), grad.len())?;
        if grid.dims() > 4 {
            let grad = grad.iter_mut().map(|g| &mut **g).collect();
            let work = GradWorkNd::Grid(grid.clone(), out, grad, parallel);
            return self.run_grad(GradRequest::Nd(work));
        }
        by_dimension!(grid.dims(), |D| {
            let mut it = grad.iter_mut();
            let grad: [&mut [f32]; D] = std::array::from_fn(|_| &mut **it.next().expect("D"));
            self.run_grad(GradWork::Grid(&grid.typed::<D>(), out, grad, parallel).into())
        })
    }
}

/// `$body` with `D` the constant `$d` where the crate computes that many
/// dimensions; [`Error::InvalidDimension`] otherwise.
macro_rules! by_dimension {
    ($d:expr, |D| $body:expr) => {
        with_dims!($d, Err(Error::InvalidDimension($d)), |D| $body)
    };
}
use by_dimension;

/// `Err` unless there is one derivative output per coordinate axis.
fn check_axes(axes: usize, grads: usize) -> Result<(), Error> {
    if axes == grads {
        return Ok(());
    }
    Err(Error::InvalidParameter {
        name: "grad",
        reason: format!("{grads} derivative outputs for {axes} coordinate axes; give one per axis"),
    })
}

/// The first `D` elements of `s` (`s.len() == D`: the callers matched on it).
fn array<T: Copy, const D: usize>(s: &[T]) -> [T; D] {
    std::array::from_fn(|a| s[a])
}

impl Clone for DynSource {
    fn clone(&self) -> DynSource {
        DynSource(self.0.clone_box())
    }
}

impl std::fmt::Debug for DynSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("DynSource").field(&self.0).finish()
    }
}

/// The `run` and `run_fractal` of a composite [`Field`]: [`run_erased`].
macro_rules! erased_runs {
    () => {
        fn run(&self, req: crate::field::Request<'_>) -> Result<(), crate::Error> {
            crate::sources::dynamic::run_erased(self, req)
        }

        fn run_fractal(
            f: &crate::sources::fractal::Fractal<Self>,
            req: crate::field::Request<'_>,
        ) -> Result<(), crate::Error> {
            crate::sources::dynamic::run_erased(f, req)
        }
    };
}
pub(crate) use erased_runs;

/// The `run_grad` and `run_fractal_grad` of a composite [`GradField`]:
/// [`run_grad_erased`].
macro_rules! erased_grad_runs {
    () => {
        fn run_grad(&self, req: crate::field::GradRequest<'_>) -> Result<(), crate::Error> {
            crate::sources::dynamic::run_grad_erased(self, req)
        }

        fn run_fractal_grad(
            f: &crate::sources::fractal::Fractal<Self>,
            req: crate::field::GradRequest<'_>,
        ) -> Result<(), crate::Error> {
            crate::sources::dynamic::run_grad_erased(f, req)
        }
    };
}
pub(crate) use erased_grad_runs;

/// `plan` and `fill_rows` forwarded to `self.0` (a boxed or borrowed
/// [`PackField`]).
macro_rules! forward_grid {
    () => {
        fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> AnyPlan
        where
            Noise: Dims<D>,
        {
            self.0.plan(axes, period_scale)
        }

        fn fill_rows<const D: usize>(
            &self,
            plan: &AnyPlan,
            axes: &[GridAxis; D],
            first_row: usize,
            out: &mut [f32],
            streaming: bool,
        ) where
            Noise: Dims<D>,
        {
            self.0.fill_rows(plan, axes, first_row, out, streaming)
        }
    };
}

/// A [`PackField`] as a [`Field`]: the one type the drivers are compiled
/// for on behalf of every boxed or erased source. It only borrows, so it
/// has no level to set (only the owners' `with_level` sets levels).
#[derive(Clone, Copy, Debug)]
struct Erased<'a>(&'a dyn PackField);

impl Field for Erased<'_> {
    type Ready<'a, S: Simd>
        = ()
    where
        Self: 'a;
    type Plan = AnyPlan;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, _: S) {}

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        _: &(),
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        let mut out = [0.0f32; MAX_LANES];
        match c.lane_arrays(s) {
            LaneArrays::F32(lanes) => {
                self.0
                    .eval_pack(S::LEVEL, LaneSlices::F32(&lanes), period_scale, &mut out)
            }
            LaneArrays::F64(lanes) => {
                self.0
                    .eval_pack(S::LEVEL, LaneSlices::F64(&lanes), period_scale, &mut out)
            }
        }
        s.load(&out[..S::LANES])
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(&self, _: &(), s: S, c: LaneSlices<'_>, period_scale: u64) -> S::F {
        let mut out = [0.0f32; MAX_LANES];
        self.0.eval_pack(S::LEVEL, c, period_scale, &mut out);
        s.load(&out[..S::LANES])
    }

    fn max_dimension(&self) -> usize {
        self.0.max_dimension()
    }

    fn run_level(&self) -> Level {
        self.0.run_level()
    }
    fn set_level(&mut self, _: Level) {}
    fn validate(&self) -> Result<(), Error> {
        self.0.validate()
    }
    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        self.0.output_bounds(dimension)
    }
    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        self.0.period(axis, scale)
    }

    forward_grid!();
}

impl GradField for Erased<'_> {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        _: &(),
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        let mut out = [0.0f32; MAX_LANES];
        let mut grad = [[0.0f32; MAX_LANES]; D];
        match c.lane_arrays(s) {
            LaneArrays::F32(lanes) => self.0.eval_grad_pack(
                S::LEVEL,
                LaneSlices::F32(&lanes),
                period_scale,
                &mut out,
                &mut grad,
            ),
            LaneArrays::F64(lanes) => self.0.eval_grad_pack(
                S::LEVEL,
                LaneSlices::F64(&lanes),
                period_scale,
                &mut out,
                &mut grad,
            ),
        }
        let mut d = [s.splat(0.0); D];
        for (d, g) in d.iter_mut().zip(&grad) {
            *d = s.load(&g[..S::LANES]);
        }
        (s.load(&out[..S::LANES]), d)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        _: &(),
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        let mut out = [0.0f32; MAX_LANES];
        let mut lanes = vec![[0.0f32; MAX_LANES]; grad.len()];
        self.0
            .eval_grad_pack(S::LEVEL, c, period_scale, &mut out, &mut lanes);
        for (g, l) in grad.iter_mut().zip(&lanes) {
            *g = s.load(&l[..S::LANES]);
        }
        s.load(&out[..S::LANES])
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.0.validate_grad()
    }
}

impl DynSource {
    /// The boxed source as the [`Field`] the drivers are compiled for.
    fn erased(&self) -> Erased<'_> {
        Erased(&*self.0)
    }
}

impl Field for DynSource {
    type Ready<'a, S: Simd> = ();
    type Plan = AnyPlan;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, _: S) {}

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        _: &(),
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        self.erased().eval(&(), s, c, period_scale)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(&self, _: &(), s: S, c: LaneSlices<'_>, period_scale: u64) -> S::F {
        self.erased().eval_nd(&(), s, c, period_scale)
    }

    crate::field::forward_settings!();

    forward_grid!();

    fn run(&self, req: Request<'_>) -> Result<(), Error> {
        self.0.run(req)
    }

    fn run_fractal(
        f: &crate::sources::fractal::Fractal<Self>,
        req: Request<'_>,
    ) -> Result<(), Error> {
        run_erased(f, req)
    }
}

impl GradField for DynSource {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        _: &(),
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        self.erased().eval_grad(&(), s, c, period_scale)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        _: &(),
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        self.erased().eval_grad_nd(&(), s, c, period_scale, grad)
    }

    fn run_grad(&self, req: GradRequest<'_>) -> Result<(), Error> {
        self.0.run_grad(req)
    }

    fn run_fractal_grad(
        f: &crate::sources::fractal::Fractal<Self>,
        req: GradRequest<'_>,
    ) -> Result<(), Error> {
        run_grad_erased(f, req)
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.0.validate_grad()
    }
}
