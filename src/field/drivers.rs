//! The drivers that run any field over points and grids: the kernel jobs
//! (`FillPoints`, `WholePacks`, `FillPointsGrad`), the entry points behind
//! `Source` and `Field::run` (`run`, `point`, `fill`, `fill_grid`, …) with
//! their checks, and the row and pack helpers the sources share.

#[cfg(any(test, feature = "noise"))]
use super::F64Pack;
use super::{
    F32Pack, Field, GradField, GradRequest, GradWork, GradWorkNd, GridAxis, Input, LaneSlices,
    Points, PointsNd, Request, Work, WorkNd,
};
use crate::error::check_lengths;
use crate::grid::{Grid, GridNd};
use crate::kernel::{Dims, Noise, store_pack};
use crate::simd::scalar::Scalar;
use crate::simd::{Job, MAX_LANES, OutlinedJob, Simd, dispatch};
use crate::{Error, Level};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

#[cfg(feature = "parallel")]
/// Samples per rayon tile of a parallel grid fill: 64 Ki samples, 256 KiB of
/// output, so a tile's output and its row data stay in a core's L2 cache
/// while enough tiles remain to balance threads.
const TILE_SAMPLES: usize = 1 << 16;

/// Grids of at least this many samples (16 MiB of output) stream their rows.
const STREAMING_SAMPLES: usize = 1 << 22;

/// `out[i] = field(inputs[..][i])`: whole packs, the last one padded, all
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
        // Whole packs in place, then the last partial pack from and into
        // zero-padded copies, by one outlined loop (one copy of the inlined
        // kernel; a loop that tested for the partial pack had the optimiser
        // compile the kernel a second time for it).
        let packs = WholePacks {
            field: self.field,
            r: &r,
            inputs,
            out,
            period_scale: self.period_scale,
        };
        s.outlined(packs);
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
            s.outlined(WholePacks {
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

/// [`FillPoints`]' loop over whole packs: `out.len()` a multiple of
/// `LANES`, each input as long.
struct WholePacks<'a, F: Field + 'a, S: Simd, T, const D: usize> {
    field: &'a F,
    r: &'a F::Ready<'a, S>,
    inputs: [&'a [T]; D],
    out: &'a mut [f32],
    period_scale: u64,
}

impl<'a, F: Field + 'a, S: Simd, T: Input, const D: usize> OutlinedJob<S>
    for WholePacks<'a, F, S, T, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) {
        self.field
            .fill_packs(self.r, s, &self.inputs, self.out, self.period_scale);
    }
}

/// Each of `inputs` cut to its first `len` values (a loop over the packs of
/// `len` outputs then checks one bound per pack, not one per input).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn inputs_cut<'a, T, const D: usize>(inputs: &[&'a [T]; D], len: usize) -> [&'a [T]; D] {
    let mut cut = *inputs;
    for input in &mut cut {
        *input = &input[..len];
    }
    cut
}

/// Pack `k` (`n` values from `k·n`) of each of `inputs`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn inputs_pack<'a, T, const D: usize>(
    inputs: &[&'a [T]; D],
    k: usize,
    n: usize,
) -> [&'a [T]; D] {
    let mut pack = *inputs;
    for input in &mut pack {
        *input = &input[k * n..k * n + n];
    }
    pack
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
            store_pack(s, v, dst);
            for a in 0..D {
                store_pack(s, d[a], &mut grad[a][at..at + len]);
            }
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
        Request::Nd(WorkNd::Fill(points, out)) => fill_nd(f, &points, out),
        Request::Nd(WorkNd::Grid(grid, out, parallel)) => fill_grid_nd(f, &grid, out, parallel),
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
        GradRequest::Nd(GradWorkNd::Fill(points, out, mut grad)) => {
            fill_grad_nd(f, &points, out, &mut grad)
        }
        GradRequest::Nd(GradWorkNd::Grid(grid, out, mut grad, parallel)) => {
            fill_grid_grad_nd(f, &grid, out, &mut grad, parallel)
        }
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
    f.eval(&f.ready(s), s, &F32Pack::<Scalar, D>(c), 1)
}

/// One point in `p.len()` dimensions (5 and up) through the scalar
/// backend: NaN if the field is invalid or computes fewer dimensions.
pub(crate) fn point_nd<F: Field>(f: &F, p: &[f32]) -> f32 {
    let f = f.core();
    if f.validate().is_err() || p.len() > f.max_dimension() {
        return f32::NAN;
    }
    let mut lanes = vec![[0.0f32; MAX_LANES]; p.len()];
    for (l, &c) in lanes.iter_mut().zip(p) {
        l[0] = c;
    }
    let s = Scalar;
    let mut v = [0.0f32];
    s.store(
        f.eval_nd(&f.ready(s), s, LaneSlices::F32(&lanes), 1),
        &mut v,
    );
    v[0]
}

/// `Err(InvalidDimension)` unless `f` computes `dims` dimensions.
fn check_dimension<F: Field>(f: &F, dims: usize) -> Result<(), Error> {
    if dims == 0 || dims > f.max_dimension() {
        return Err(Error::InvalidDimension(dims));
    }
    Ok(())
}

/// `out[i] = field(points[..][i])` with the dimension a value (5 and up):
/// packs of per-lane copies through [`Field::eval_nd`], the last one
/// zero-padded.
struct FillPointsNd<'a, F> {
    field: &'a F,
    points: &'a PointsNd<'a>,
    out: &'a mut [f32],
}

impl<F: Field> Job for FillPointsNd<'_, F> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let n = S::LANES;
        let mut lanes = LaneCopies::new(self.points);
        for (k, dst) in self.out.chunks_mut(n).enumerate() {
            let c = lanes.pack(self.points, k * n, n);
            store_pack(s, self.field.eval_nd(&r, s, c, 1), dst);
        }
    }
}

/// Per-lane copies of a batch's packs, in its precision.
struct LaneCopies {
    f32s: Vec<[f32; MAX_LANES]>,
    f64s: Vec<[f64; MAX_LANES]>,
}

impl LaneCopies {
    fn new(points: &PointsNd<'_>) -> LaneCopies {
        let dims = points.dims();
        match points {
            PointsNd::F32(_) => LaneCopies {
                f32s: vec![[0.0; MAX_LANES]; dims],
                f64s: Vec::new(),
            },
            PointsNd::F64(_) => LaneCopies {
                f32s: Vec::new(),
                f64s: vec![[0.0; MAX_LANES]; dims],
            },
        }
    }

    /// The pack of `n` points of `points` from `at` (inlined into each
    /// level's driver, where `n` is its constant width: the copies are then
    /// a few vector moves, not a `memcpy` call per axis).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pack<'a>(&'a mut self, points: &PointsNd<'_>, at: usize, n: usize) -> LaneSlices<'a> {
        match points {
            PointsNd::F32(c) => LaneSlices::F32(lane_copies(c, &mut self.f32s, at, n)),
            PointsNd::F64(c) => LaneSlices::F64(lane_copies(c, &mut self.f64s, at, n)),
        }
    }
}

/// The pack of `n` points from `at` (fewer at the end, zero past them) as
/// per-lane copies in `lanes`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn lane_copies<'a, T: Copy + Default>(
    coords: &[&[T]],
    lanes: &'a mut [[T; MAX_LANES]],
    at: usize,
    n: usize,
) -> &'a [[T; MAX_LANES]] {
    for (l, c) in lanes.iter_mut().zip(coords) {
        let len = c.len().saturating_sub(at).min(n);
        if len == n {
            // A whole pack: `n` elements, a constant where inlined.
            l[..n].copy_from_slice(&c[at..at + n]);
        } else {
            l[..len].copy_from_slice(&c[at..at + len]);
            l[len..n].fill(T::default());
        }
    }
    lanes
}

/// A batch of points with the dimension a value, at the field's level.
pub(crate) fn fill_nd<F: Field>(
    f: &F,
    points: &PointsNd<'_>,
    out: &mut [f32],
) -> Result<(), Error> {
    let f = f.core();
    f.validate()?;
    check_dimension(f, points.dims())?;
    match points {
        PointsNd::F32(c) => check_lengths(c, out)?,
        PointsNd::F64(c) => check_lengths(c, out)?,
    }
    dispatch(
        f.run_level(),
        FillPointsNd {
            field: f,
            points,
            out,
        },
    );
    Ok(())
}

/// Samples per block of a grid in 5 dimensions and more: their positions
/// are made in `f64` and filled as points.
const GRID_ND_BLOCK: usize = 1 << 12;

/// A grid with the dimension a value: every sample exactly as
/// [`Source::fill_f64`](crate::Source::fill_f64) computes its position, in
/// blocks of samples (on the rayon pool when `parallel`; the same bits
/// whatever the split).
pub(crate) fn fill_grid_nd<F: Field>(
    f: &F,
    grid: &GridNd,
    out: &mut [f32],
    parallel: bool,
) -> Result<(), Error> {
    let f = f.core();
    f.validate()?;
    check_dimension(f, grid.dims())?;
    out_len(grid.check()?, out)?;
    grid_by_points(grid, out, &mut [], parallel, &|points, out, _| {
        dispatch(
            f.run_level(),
            FillPointsNd {
                field: f,
                points,
                out,
            },
        )
    });
    Ok(())
}

/// `out[i]` and `grad[a][i]` = the field and its derivatives at point `i`,
/// the dimension a value: [`FillPointsNd`] with derivatives.
struct FillPointsGradNd<'a, 'b, F> {
    field: &'a F,
    points: &'a PointsNd<'a>,
    out: &'a mut [f32],
    grad: &'a mut [&'b mut [f32]],
}

impl<F: GradField> Job for FillPointsGradNd<'_, '_, F> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let r = self.field.ready(s);
        let n = S::LANES;
        let mut lanes = LaneCopies::new(self.points);
        let mut d = vec![s.splat(0.0); self.points.dims()];
        for (k, dst) in self.out.chunks_mut(n).enumerate() {
            let c = lanes.pack(self.points, k * n, n);
            let v = self.field.eval_grad_nd(&r, s, c, 1, &mut d);
            store_pack(s, v, dst);
            let (at, len) = (k * n, dst.len());
            for (g, &d) in self.grad.iter_mut().zip(&d) {
                store_pack(s, d, &mut g[at..at + len]);
            }
        }
    }
}

/// A batch of points with derivatives, the dimension a value.
pub(crate) fn fill_grad_nd<F: GradField>(
    f: &F,
    points: &PointsNd<'_>,
    out: &mut [f32],
    grad: &mut [&mut [f32]],
) -> Result<(), Error> {
    f.validate_grad()?;
    check_dimension(f, points.dims())?;
    match points {
        PointsNd::F32(c) => check_lengths(c, out)?,
        PointsNd::F64(c) => check_lengths(c, out)?,
    }
    check_axes_and_lengths(grad, points.dims(), out.len())?;
    dispatch(
        f.run_level(),
        FillPointsGradNd {
            field: f,
            points,
            out,
            grad,
        },
    );
    Ok(())
}

/// `Err` unless there is one derivative output per axis, each of `len`.
fn check_axes_and_lengths(grad: &[&mut [f32]], dims: usize, len: usize) -> Result<(), Error> {
    if grad.len() != dims {
        return Err(Error::InvalidParameter {
            name: "grad",
            reason: format!(
                "{} derivative outputs for {dims} coordinate axes; give one per axis",
                grad.len()
            ),
        });
    }
    check_grad_lengths(grad, len)
}

/// A grid with derivatives, the dimension a value: every sample as
/// [`fill_grad_nd`] computes its `f64` position.
fn fill_grid_grad_nd<F: GradField>(
    f: &F,
    grid: &GridNd,
    out: &mut [f32],
    grad: &mut [&mut [f32]],
    parallel: bool,
) -> Result<(), Error> {
    f.validate_grad()?;
    check_dimension(f, grid.dims())?;
    let len = out_len(grid.check()?, out)?;
    check_axes_and_lengths(grad, grid.dims(), len)?;
    grid_by_points(grid, out, grad, parallel, &|points, out, grad| {
        dispatch(
            f.run_level(),
            FillPointsGradNd {
                field: f,
                points,
                out,
                grad,
            },
        )
    });
    Ok(())
}

/// Fills `out` (and each of `grad`, as long) with `fill(points, block,
/// grad blocks)` for blocks of samples of `grid` (on the rayon pool when
/// `parallel`), `points` their positions in `f64`. Not generic, so one copy
/// serves every field.
#[allow(clippy::type_complexity)]
fn grid_by_points(
    grid: &GridNd,
    out: &mut [f32],
    grad: &mut [&mut [f32]],
    parallel: bool,
    fill: &(dyn Fn(&PointsNd<'_>, &mut [f32], &mut [&mut [f32]]) + Sync),
) {
    let block = |first: usize, out: &mut [f32], grad: &mut [&mut [f32]]| {
        let dims = grid.dims();
        let mut coords = vec![vec![0.0f64; out.len()]; dims];
        // The local index of sample `first` on each axis, then counted up.
        let mut index = vec![0usize; dims];
        let mut rest = first;
        for (a, i) in index.iter_mut().enumerate() {
            *i = rest % grid.size()[a];
            rest /= grid.size()[a];
        }
        for j in 0..out.len() {
            for (a, (c, &i)) in coords.iter_mut().zip(&index).enumerate() {
                c[j] = grid.coord(a, i);
            }
            for (i, &n) in index.iter_mut().zip(grid.size()) {
                *i += 1;
                if *i < n {
                    break;
                }
                *i = 0;
            }
        }
        fill(
            &PointsNd::F64(coords.iter().map(Vec::as_slice).collect()),
            out,
            grad,
        );
    };
    // Each block's output and derivative outputs.
    let mut grads: Vec<_> = grad
        .iter_mut()
        .map(|g| g.chunks_mut(GRID_ND_BLOCK))
        .collect();
    let blocks: Vec<(usize, &mut [f32], Vec<&mut [f32]>)> = out
        .chunks_mut(GRID_ND_BLOCK)
        .enumerate()
        .map(|(k, out)| {
            let g = grads.iter_mut().filter_map(Iterator::next).collect();
            (k * GRID_ND_BLOCK, out, g)
        })
        .collect();
    #[cfg(feature = "parallel")]
    if parallel {
        blocks
            .into_par_iter()
            .for_each(|(first, out, mut grad)| block(first, out, &mut grad));
        return;
    }
    let _ = parallel;
    for (first, out, mut grad) in blocks {
        block(first, out, &mut grad);
    }
}

/// One point and its derivatives in `p.len()` dimensions (5 and up)
/// through the scalar backend (NaN if the field is invalid or computes
/// fewer dimensions).
pub(crate) fn point_grad_nd<F: GradField>(f: &F, p: &[f32], grad: &mut [f32]) -> f32 {
    if f.validate_grad().is_err() || p.len() > f.max_dimension() || grad.len() != p.len() {
        grad.fill(f32::NAN);
        return f32::NAN;
    }
    let mut lanes = vec![[0.0f32; MAX_LANES]; p.len()];
    for (l, &c) in lanes.iter_mut().zip(p) {
        l[0] = c;
    }
    let s = Scalar;
    let mut d = vec![0.0f32; p.len()];
    let v = f.eval_grad_nd(&f.ready(s), s, LaneSlices::F32(&lanes), 1, &mut d);
    grad.copy_from_slice(&d);
    v
}

/// One `f64` point through the scalar backend (`NaN` if the field is
/// invalid): the bits of `fill_f64` at that point, at every level.
#[cfg(any(test, feature = "noise"))]
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
    f.eval(&f.ready(s), s, &F64Pack(lanes), 1)
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
    f.eval_grad(&f.ready(s), s, &F32Pack::<Scalar, D>(c), 1)
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
    check_lengths(&inputs, out)?;
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
const GRAD_NAMES: [&str; crate::MAX_DIMENSIONS] = [
    "dx", "dy", "dz", "dw", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14",
    "d15", "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24", "d25", "d26", "d27",
    "d28", "d29", "d30", "d31",
];

/// `Err(LengthMismatch)` unless every derivative slice has `len` elements.
fn check_grad_lengths(grad: &[&mut [f32]], len: usize) -> Result<(), Error> {
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
    check_lengths(&inputs, out)?;
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
    out_len(grid.check()?, out)
}

/// `len`, or `Err(LengthMismatch)` unless `out` has `len` samples.
fn out_len(len: usize, out: &[f32]) -> Result<usize, Error> {
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
fn grid_axes<const D: usize>(grid: &Grid<D>, level: Level) -> [GridAxis; D] {
    let step = grid.step();
    std::array::from_fn(|a| GridAxis {
        coords: grid.coords(a, level),
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
    let axes = grid_axes(grid, f.run_level());
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
    let axes = grid_axes(grid, f.run_level());
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

/// Canonical NaN for a whole pack.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn canonical<S: Simd>(s: S, mut v: S::F) -> S::F {
    crate::kernel::for_each_part!(S, |k| {
        let p = s.canonical_nan(s.part(v, k));
        s.set_part(&mut v, k, p);
    });
    v
}
