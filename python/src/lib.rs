//! `noisefield._noisefield`: the Rust half of the Python package.
//!
//! The Python classes (`noisefield/__init__.py`) hold their parameters and
//! one [`Core`] each: a library source built from those parameters. Python
//! does what numpy does best (turning arguments into arrays of one dtype,
//! broadcasting shapes, allocating the output); this module checks every
//! argument against the library, releases the GIL and writes straight into
//! the numpy output.
//!
//! ```text
//! Core.fill(coords, out, threads):
//!     coords: 1..=4 arrays, all float32 or all float64, each broadcastable to out.shape
//!     all contiguous with out's shape  -> the library's fillD / fillD_f64 on the slices
//!     otherwise                        -> blocks of BLOCK points gathered in C order, then the same
//!     GIL released; on the rayon pool in pieces of CHUNK points unless threads == 1
//! Core.fill_grid(shape, origin, step, offset, size, out, threads):
//!     numpy axis order in, the library's x-first Grid out; the block `offset, size` of it
//!     as Grid::window (global sample indices), filled in windows of at most
//!     WINDOW samples per axis, each contiguous in `out`
//! ```
//!
//! Every library error becomes a `ValueError` with the library's message;
//! arguments of the wrong kind are `TypeError`s. Nothing here panics on any
//! input: sizes are checked before they are multiplied, and lengths before
//! slices are taken.

use noisefield::{
    Billow, Differentiable, Error, Fade, Fbm, Grid, HashMode, Level, Marble, Perlin, Ridged,
    Source, Turbulence, Value,
};
use numpy::ndarray::{ArrayViewD, IxDyn};
use numpy::{Element, PyReadonlyArrayDyn, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Points per piece of a parallel point fill: 16 Ki points, 64 KiB of
/// output, enough work per task to hide rayon's overhead.
const CHUNK: usize = 1 << 14;

/// Points gathered at a time from broadcast or strided coordinates: 64 Ki
/// points, so the gathered copies stay small (0.5 MiB per axis in float64)
/// whatever the broadcast shape.
const BLOCK: usize = 1 << 16;

/// The widest window of a grid filled at once: 2^14 samples per axis, as
/// the command line's bands. The library keeps data per sample of each axis
/// of a window for every octave, so this bounds it whatever the shape.
const WINDOW: usize = 1 << 14;

/// Most worker threads `threads=` accepts (the command line's limit).
const MAX_THREADS: usize = 1024;

/// A library error as Python sees it: `ValueError` with the same message.
fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Every source the Python package offers. The library's sources are
/// distinct types, so they are held in one enum and each call forwards with
/// one `match` (`each_source!`).
#[derive(Clone, Debug)]
enum AnySource {
    Perlin(Perlin),
    Value(Value),
    FbmP(Fbm<Perlin>),
    FbmV(Fbm<Value>),
    BillowP(Billow<Perlin>),
    BillowV(Billow<Value>),
    RidgedP(Ridged<Perlin>),
    RidgedV(Ridged<Value>),
    TurbulenceP(Turbulence<Perlin>),
    TurbulenceV(Turbulence<Value>),
    MarbleP(Marble<Perlin>),
    MarbleV(Marble<Value>),
}

/// `$body` with `$s` bound to the source inside `$source`, whatever its type.
macro_rules! each_source {
    ($source:expr, $s:ident => $body:expr) => {
        match $source {
            AnySource::Perlin($s) => $body,
            AnySource::Value($s) => $body,
            AnySource::FbmP($s) => $body,
            AnySource::FbmV($s) => $body,
            AnySource::BillowP($s) => $body,
            AnySource::BillowV($s) => $body,
            AnySource::RidgedP($s) => $body,
            AnySource::RidgedV($s) => $body,
            AnySource::TurbulenceP($s) => $body,
            AnySource::TurbulenceV($s) => $body,
            AnySource::MarbleP($s) => $body,
            AnySource::MarbleV($s) => $body,
        }
    };
}

/// `Some($body)` with `$s` bound to the source when it has derivatives
/// (Perlin, Value, Fbm over them), else `None`.
macro_rules! each_gradient {
    ($source:expr, $s:ident => $body:expr) => {
        match $source {
            AnySource::Perlin($s) => Some($body),
            AnySource::Value($s) => Some($body),
            AnySource::FbmP($s) => Some($body),
            AnySource::FbmV($s) => Some($body),
            _ => None,
        }
    };
}

/// The library's fill methods of one dimension, named by `D`, so the code
/// below is written once for 1 to 4 dimensions.
trait Dim<const D: usize> {
    fn grid<S: Source>(s: &S, g: &Grid<D>, out: &mut [f32], par: bool) -> Result<(), Error>;
    fn grid_grad<S: Differentiable>(
        s: &S,
        g: &Grid<D>,
        out: &mut [f32],
        grad: [&mut [f32]; D],
        par: bool,
    ) -> Result<(), Error>;
    fn points32<S: Source>(s: &S, c: [&[f32]; D], out: &mut [f32]) -> Result<(), Error>;
    fn points64<S: Source>(s: &S, c: [&[f64]; D], out: &mut [f32]) -> Result<(), Error>;
    fn points_grad<S: Differentiable>(
        s: &S,
        c: [&[f32]; D],
        out: &mut [f32],
        grad: [&mut [f32]; D],
    ) -> Result<(), Error>;
}

/// The implementor of [`Dim`] for every `D`.
struct Dims;

macro_rules! dim {
    ($d:literal, [$($c:ident),+], [$($g:ident),+], $grid:ident, $grid_par:ident,
     $grad:ident, $grad_par:ident, $fill:ident, $fill64:ident, $fill_grad:ident) => {
        impl Dim<$d> for Dims {
            fn grid<S: Source>(s: &S, g: &Grid<$d>, out: &mut [f32], par: bool) -> Result<(), Error> {
                if par { s.$grid_par(g, out) } else { s.$grid(g, out) }
            }
            fn grid_grad<S: Differentiable>(
                s: &S,
                g: &Grid<$d>,
                out: &mut [f32],
                [$($g),+]: [&mut [f32]; $d],
                par: bool,
            ) -> Result<(), Error> {
                if par { s.$grad_par(g, out, $($g),+) } else { s.$grad(g, out, $($g),+) }
            }
            fn points32<S: Source>(s: &S, [$($c),+]: [&[f32]; $d], out: &mut [f32]) -> Result<(), Error> {
                s.$fill($($c),+, out)
            }
            fn points64<S: Source>(s: &S, [$($c),+]: [&[f64]; $d], out: &mut [f32]) -> Result<(), Error> {
                s.$fill64($($c),+, out)
            }
            fn points_grad<S: Differentiable>(
                s: &S,
                [$($c),+]: [&[f32]; $d],
                out: &mut [f32],
                [$($g),+]: [&mut [f32]; $d],
            ) -> Result<(), Error> {
                s.$fill_grad($($c),+, out, $($g),+)
            }
        }
    };
}
dim!(
    1,
    [x],
    [dx],
    fill_grid1,
    fill_grid1_par,
    fill_grid1_grad,
    fill_grid1_grad_par,
    fill1,
    fill1_f64,
    fill1_grad
);
dim!(
    2,
    [x, y],
    [dx, dy],
    fill_grid2,
    fill_grid2_par,
    fill_grid2_grad,
    fill_grid2_grad_par,
    fill2,
    fill2_f64,
    fill2_grad
);
dim!(
    3,
    [x, y, z],
    [dx, dy, dz],
    fill_grid3,
    fill_grid3_par,
    fill_grid3_grad,
    fill_grid3_grad_par,
    fill3,
    fill3_f64,
    fill3_grad
);
dim!(
    4,
    [x, y, z, w],
    [dx, dy, dz, dw],
    fill_grid4,
    fill_grid4_par,
    fill_grid4_grad,
    fill_grid4_grad_par,
    fill4,
    fill4_f64,
    fill4_grad
);

/// A coordinate element type: `f32` (the library's `fillD`) or `f64`
/// (`fillD_f64`).
trait Coordinate: Element + Copy + Default + Send + Sync {
    fn fill<S: Source, const D: usize>(
        s: &S,
        c: [&[Self]; D],
        out: &mut [f32],
    ) -> Result<(), Error>
    where
        Dims: Dim<D>;
}

impl Coordinate for f32 {
    fn fill<S: Source, const D: usize>(s: &S, c: [&[f32]; D], out: &mut [f32]) -> Result<(), Error>
    where
        Dims: Dim<D>,
    {
        <Dims as Dim<D>>::points32(s, c, out)
    }
}

impl Coordinate for f64 {
    fn fill<S: Source, const D: usize>(s: &S, c: [&[f64]; D], out: &mut [f32]) -> Result<(), Error>
    where
        Dims: Dim<D>,
    {
        <Dims as Dim<D>>::points64(s, c, out)
    }
}

/// Where a call's parallel work runs.
#[derive(Clone)]
enum Workers {
    /// One thread: the caller's.
    One,
    /// The global rayon pool (one thread per core).
    Global,
    /// A pool of a chosen size, kept for later calls.
    Pool(Arc<rayon::ThreadPool>),
}

/// Pools made for `threads=n`, by `n`, so each size is started once.
static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());

impl Workers {
    /// The workers for `threads=` (`None`: one per core).
    fn new(threads: Option<i64>) -> PyResult<Workers> {
        let n = match threads {
            None => return Ok(Workers::Global),
            Some(n) if (1..=MAX_THREADS as i64).contains(&n) => n as usize,
            Some(n) => {
                return Err(PyValueError::new_err(format!(
                    "threads={n}: give 1 to {MAX_THREADS} (None: one per core)"
                )));
            }
        };
        if n == 1 {
            return Ok(Workers::One);
        }
        // A poisoned lock only means another thread panicked while holding
        // it; the list itself is still valid.
        let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, pool)) = pools.iter().find(|(size, _)| *size == n) {
            return Ok(Workers::Pool(pool.clone()));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}")))?;
        let pool = Arc::new(pool);
        pools.push((n, pool.clone()));
        Ok(Workers::Pool(pool))
    }

    /// Runs `f(parallel)` on these workers.
    fn run<R: Send>(&self, f: impl FnOnce(bool) -> R + Send) -> R {
        match self {
            Workers::One => f(false),
            Workers::Global => f(true),
            Workers::Pool(pool) => pool.install(|| f(true)),
        }
    }
}

/// Points `out[i] = source(coords[..][i])` on `parallel` workers, in pieces
/// of [`CHUNK`] points (every point is computed alone, so the split changes
/// no bit).
fn fill_slices<S: Source, T: Coordinate, const D: usize>(
    s: &S,
    coords: [&[T]; D],
    out: &mut [f32],
    parallel: bool,
) -> Result<(), Error>
where
    Dims: Dim<D>,
{
    if !parallel || out.len() <= CHUNK {
        return T::fill(s, coords, out);
    }
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .try_for_each(|(k, out)| {
            let start = k * CHUNK;
            let piece = coords.map(|c| &c[start..start + out.len()]);
            T::fill(s, piece, out)
        })
}

/// The views of `coords`, each broadcast to `shape`.
fn broadcast<'a, T: Element>(
    coords: &'a [ArrayViewD<'a, T>],
    shape: &[usize],
) -> PyResult<Vec<ArrayViewD<'a, T>>> {
    coords
        .iter()
        .enumerate()
        .map(|(axis, c)| {
            c.broadcast(IxDyn(shape)).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "coordinate {axis} of shape {:?} does not broadcast to the output shape {shape:?}",
                    c.shape()
                ))
            })
        })
        .collect()
}

/// `out` (C order, `shape`) filled with the source at the broadcast
/// coordinates: straight from the arrays when they are contiguous with the
/// output's shape, else gathered [`BLOCK`] points at a time.
fn fill_points<S: Source, T: Coordinate, const D: usize>(
    s: &S,
    coords: &[ArrayViewD<'_, T>],
    shape: &[usize],
    out: &mut [f32],
    workers: &Workers,
) -> PyResult<()>
where
    Dims: Dim<D>,
{
    let views = broadcast(coords, shape)?;
    let slices: Option<Vec<&[T]>> = views.iter().map(|v| v.as_slice()).collect();
    if let Some(slices) = slices
        && let Ok(slices) = <[&[T]; D]>::try_from(slices)
    {
        return workers
            .run(|par| fill_slices(s, slices, out, par))
            .map_err(value_error);
    }
    let mut iters: Vec<_> = views.iter().map(|v| v.iter()).collect();
    let mut buffers: [Vec<T>; D] =
        std::array::from_fn(|_| vec![T::default(); BLOCK.min(out.len())]);
    for out in out.chunks_mut(BLOCK) {
        for (it, buffer) in iters.iter_mut().zip(buffers.iter_mut()) {
            for (slot, v) in buffer.iter_mut().zip(it.by_ref().take(out.len())) {
                *slot = *v;
            }
        }
        let block: [&[T]; D] = std::array::from_fn(|a| &buffers[a][..out.len()]);
        workers
            .run(|par| fill_slices(s, block, out, par))
            .map_err(value_error)?;
    }
    Ok(())
}

/// The grid of `shape`, `origin`, `step` (numpy axis order, slowest axis
/// first) as the library's x-first [`Grid`], and its window at `offset` of
/// `size` (numpy order too), checked.
fn grid_window<const D: usize>(
    shape: &[usize],
    origin: &[f64],
    step: &[f64],
    offset: &[usize],
    size: &[usize],
) -> PyResult<Grid<D>> {
    let x_first = |v: &[usize]| -> [usize; D] { std::array::from_fn(|a| v[D - 1 - a]) };
    let x_first_f = |v: &[f64]| -> [f64; D] { std::array::from_fn(|a| v[D - 1 - a]) };
    let whole = Grid::new(x_first_f(origin), x_first_f(step), x_first(shape));
    whole.check().map_err(value_error)?;
    let window = whole
        .window(x_first(offset), x_first(size))
        .map_err(value_error)?;
    window.check().map_err(value_error)?;
    Ok(window)
}

/// The windows of a grid of `size` (x first) that are filled one at a time,
/// as `(offset, size)`, in output order: each is contiguous in the output
/// and at most [`WINDOW`] samples along every axis. Axes below the first
/// axis longer than `WINDOW` are whole, that axis is cut into pieces of
/// `WINDOW`, and the axes above it one sample at a time.
fn windows<const D: usize>(size: [usize; D]) -> Vec<Window<D>> {
    let cut = (0..D).find(|&a| size[a] > WINDOW).unwrap_or(D - 1);
    let mut list = Vec::new();
    // Indices on the axes above `cut`, the last axis slowest.
    let outer: usize = size[cut + 1..].iter().product();
    for mut k in 0..outer {
        let mut offset = [0usize; D];
        for a in cut + 1..D {
            offset[a] = k % size[a];
            k /= size[a];
        }
        let mut start = 0;
        while start < size[cut] {
            let mut window = size;
            window[cut] = WINDOW.min(size[cut] - start);
            window[cut + 1..].fill(1);
            offset[cut] = start;
            list.push((offset, window));
            start += window[cut];
        }
    }
    list
}

/// A window of a grid, `(offset, size)` with x first.
type Window<const D: usize> = ([usize; D], [usize; D]);

/// The sample count of a window size (known to fit: the grid was checked).
fn samples<const D: usize>(size: &[usize; D]) -> usize {
    size.iter().product()
}

/// `out` cut into consecutive pieces of `lengths` (which sum to its length).
fn split<'a>(mut out: &'a mut [f32], lengths: &[usize]) -> Vec<&'a mut [f32]> {
    let mut pieces = Vec::with_capacity(lengths.len());
    for &n in lengths {
        let (piece, rest) = std::mem::take(&mut out).split_at_mut(n);
        pieces.push(piece);
        out = rest;
    }
    pieces
}

/// Fills `out` with `s` over `grid`, window by window ([`windows`]).
fn fill_grid<S: Source, const D: usize>(
    s: &S,
    grid: &Grid<D>,
    out: &mut [f32],
    parallel: bool,
) -> Result<(), Error>
where
    Dims: Dim<D>,
{
    let list = windows(grid.size());
    if list.len() == 1 {
        return <Dims as Dim<D>>::grid(s, grid, out, parallel);
    }
    let lengths: Vec<usize> = list.iter().map(|(_, size)| samples(size)).collect();
    let pieces = split(out, &lengths);
    let work = list.into_iter().zip(pieces);
    let one = |((offset, size), out): (Window<D>, &mut [f32])| {
        let window = grid.window(offset, size)?;
        <Dims as Dim<D>>::grid(s, &window, out, parallel)
    };
    if parallel {
        work.collect::<Vec<_>>().into_par_iter().try_for_each(one)
    } else {
        work.into_iter().try_for_each(one)
    }
}

/// Fills `out` and `grads` with `s` and its derivatives over `grid`,
/// window by window.
fn fill_grid_grad<S: Differentiable, const D: usize>(
    s: &S,
    grid: &Grid<D>,
    out: &mut [f32],
    grads: [&mut [f32]; D],
    parallel: bool,
) -> Result<(), Error>
where
    Dims: Dim<D>,
{
    let list = windows(grid.size());
    let lengths: Vec<usize> = list.iter().map(|(_, size)| samples(size)).collect();
    let mut grad_pieces: Vec<std::vec::IntoIter<&mut [f32]>> = grads
        .into_iter()
        .map(|g| split(g, &lengths).into_iter())
        .collect();
    let mut work = Vec::with_capacity(list.len());
    for (window, out) in list.into_iter().zip(split(out, &lengths)) {
        let mut g: [Option<&mut [f32]>; D] = std::array::from_fn(|_| None);
        for (slot, pieces) in g.iter_mut().zip(grad_pieces.iter_mut()) {
            *slot = pieces.next();
        }
        work.push((window, out, g));
    }
    let one = |((offset, size), out, g): (Window<D>, &mut [f32], [Option<&mut [f32]>; D])| {
        let window = grid.window(offset, size)?;
        // Every output was split by the same lengths: each has its piece.
        let g = g.map(|piece| piece.unwrap_or_default());
        <Dims as Dim<D>>::grid_grad(s, &window, out, g, parallel)
    };
    if parallel && work.len() > 1 {
        work.into_par_iter().try_for_each(one)
    } else {
        work.into_iter().try_for_each(one)
    }
}

/// The coordinates of a point call: all `float32` or all `float64`.
enum Coords<'py> {
    F32(Vec<PyReadonlyArrayDyn<'py, f32>>),
    F64(Vec<PyReadonlyArrayDyn<'py, f64>>),
}

impl<'py> Coords<'py> {
    fn extract(coords: &[Bound<'py, PyAny>]) -> PyResult<Coords<'py>> {
        if !(1..=4).contains(&coords.len()) {
            return Err(PyValueError::new_err(format!(
                "{} coordinate arrays given; noise has 1 to 4 dimensions",
                coords.len()
            )));
        }
        let f32s: Result<Vec<_>, _> = coords.iter().map(|c| c.extract()).collect();
        if let Ok(f32s) = f32s {
            return Ok(Coords::F32(f32s));
        }
        let f64s: Result<Vec<_>, _> = coords.iter().map(|c| c.extract()).collect();
        f64s.map(Coords::F64).map_err(|_| {
            PyTypeError::new_err(
                "coordinates must be numpy arrays, all float32 or all float64 \
                 (noisefield's Python functions convert other dtypes)",
            )
        })
    }
}

/// A shape given from Python, checked to be 1 to 4 axes.
fn check_axes(what: &str, shape: &[usize]) -> PyResult<()> {
    if (1..=4).contains(&shape.len()) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{what} has {} axes; noisefield grids have 1 to 4",
            shape.len()
        )))
    }
}

/// `Err` unless every list has the grid's number of axes.
fn check_lengths(shape: &[usize], lists: [(&str, usize); 4]) -> PyResult<()> {
    for (name, len) in lists {
        if len != shape.len() {
            return Err(PyValueError::new_err(format!(
                "{name} has {len} values but the grid shape {shape:?} has {} axes",
                shape.len()
            )));
        }
    }
    Ok(())
}

/// A noise source: the library's, ready to fill points and grids.
#[pyclass(frozen, module = "noisefield._noisefield")]
struct Core {
    source: AnySource,
}

/// A level by name (`"scalar"`, `"portable"`, `"avx2"`, `"avx512"`, `"neon"`).
fn parse_level(level: &str) -> PyResult<Level> {
    level
        .parse::<Level>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A fade curve by name.
fn parse_fade(fade: &str) -> PyResult<Fade> {
    match fade {
        "quintic" => Ok(Fade::Quintic),
        "cubic" => Ok(Fade::Cubic),
        "cosine" => Ok(Fade::Cosine),
        "linear" => Ok(Fade::Linear),
        _ => Err(PyValueError::new_err(format!(
            "unknown fade {fade:?}: expected 'quintic', 'cubic', 'cosine' or 'linear'"
        ))),
    }
}

/// A lattice noise's builder calls, for `Perlin` and `Value` alike.
macro_rules! build_lattice {
    ($ty:ident, $seed:expr, $hash:expr, $period:expr, $fade:expr, $level:expr) => {{
        let mut noise = match $hash {
            "reference" => $ty::reference(),
            mode => {
                let mode = mode
                    .parse::<HashMode>()
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                $ty::with_hash($seed, mode)
            }
        };
        noise = noise.with_fade(parse_fade($fade)?);
        if let Some(period) = $period {
            noise = noise.with_period(period).map_err(value_error)?;
        }
        if let Some(level) = $level {
            noise = noise.with_level(parse_level(level)?).map_err(value_error)?;
        }
        noise
    }};
}

/// A lattice source: `kind` is `"perlin"` or `"value"`; `hash` is
/// `"coordinates"`, `"permuted"` or `"reference"` (Ken's table, `seed`
/// unused); `period` x first, `u32::MAX` for an unperiodic axis.
#[pyfunction]
#[pyo3(signature = (kind, seed, hash, period, fade, level))]
fn lattice(
    kind: &str,
    seed: u64,
    hash: &str,
    period: Option<[u32; 4]>,
    fade: &str,
    level: Option<&str>,
) -> PyResult<Core> {
    let source = match kind {
        "perlin" => AnySource::Perlin(build_lattice!(Perlin, seed, hash, period, fade, level)),
        "value" => AnySource::Value(build_lattice!(Value, seed, hash, period, fade, level)),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown lattice {kind:?}: expected 'perlin' or 'value'"
            )));
        }
    };
    Ok(Core { source })
}

/// The fractal settings from Python, in one place.
struct Octaves {
    octaves: u32,
    lacunarity: f32,
    persistence: f32,
    normalize: bool,
    level: Option<Level>,
}

/// A combinator over `base` with `o`'s settings, checked by the library.
macro_rules! build_fractal {
    ($ty:ident, $base:expr, $o:expr) => {{
        let mut f = $ty::new($base)
            .octaves($o.octaves)
            .lacunarity($o.lacunarity)
            .persistence($o.persistence)
            .normalize($o.normalize);
        if let Some(level) = $o.level {
            f = f.with_level(level).map_err(value_error)?;
        }
        f
    }};
}

/// One combinator of each lattice, by `kind`.
macro_rules! fractal_of {
    ($kind:expr, $base:expr, $o:expr, $power:expr, $stripes:expr,
     $fbm:ident, $billow:ident, $ridged:ident, $turbulence:ident, $marble:ident) => {
        match $kind {
            "fbm" => AnySource::$fbm(build_fractal!(Fbm, $base, $o)),
            "billow" => AnySource::$billow(build_fractal!(Billow, $base, $o)),
            "ridged" => AnySource::$ridged(build_fractal!(Ridged, $base, $o)),
            "turbulence" => AnySource::$turbulence(build_fractal!(Turbulence, $base, $o)),
            "marble" => AnySource::$marble(
                build_fractal!(Marble, $base, $o).power($power).stripes($stripes),
            ),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown fractal {:?}: expected 'fbm', 'billow', 'ridged', 'turbulence' or 'marble'",
                    $kind
                )));
            }
        }
    };
}

/// A fractal combinator (`"fbm"`, `"billow"`, `"ridged"`, `"turbulence"`,
/// `"marble"`) over the lattice source `base`, checked: bad settings are a
/// `ValueError` here, before any work.
#[pyfunction]
#[pyo3(signature = (kind, base, octaves, lacunarity, persistence, normalize, power, stripes, level))]
#[allow(clippy::too_many_arguments)]
fn fractal(
    kind: &str,
    base: &Core,
    octaves: u32,
    lacunarity: f32,
    persistence: f32,
    normalize: bool,
    power: f32,
    stripes: f32,
    level: Option<&str>,
) -> PyResult<Core> {
    let o = Octaves {
        octaves,
        lacunarity,
        persistence,
        normalize,
        level: level.map(parse_level).transpose()?,
    };
    let source = match &base.source {
        AnySource::Perlin(p) => fractal_of!(
            kind,
            p.clone(),
            o,
            power,
            stripes,
            FbmP,
            BillowP,
            RidgedP,
            TurbulenceP,
            MarbleP
        ),
        AnySource::Value(v) => fractal_of!(
            kind,
            v.clone(),
            o,
            power,
            stripes,
            FbmV,
            BillowV,
            RidgedV,
            TurbulenceV,
            MarbleV
        ),
        _ => {
            return Err(PyTypeError::new_err(
                "a fractal's source must be a Perlin or a Value noise",
            ));
        }
    };
    each_source!(&source, s => s.check()).map_err(value_error)?;
    Ok(Core { source })
}

#[pymethods]
impl Core {
    /// The SIMD level the fills run at.
    #[getter]
    fn level(&self) -> &'static str {
        each_source!(&self.source, s => s.level()).name()
    }

    /// An interval `(lo, hi)` holding every output of `dimension`-D noise.
    fn bounds(&self, dimension: usize) -> PyResult<(f32, f32)> {
        if !(1..=4).contains(&dimension) {
            return Err(PyValueError::new_err(format!(
                "dimension {dimension}: noise has 1 to 4 dimensions"
            )));
        }
        Ok(each_source!(&self.source, s => s.bounds(dimension)))
    }

    /// Whether the source has analytic derivatives.
    #[getter]
    fn differentiable(&self) -> bool {
        each_gradient!(&self.source, _s => ()).is_some()
    }

    /// `out[i] = noise(coords[0][i], ...)`, the coordinates broadcast to
    /// `out`'s shape (C-contiguous float32).
    #[pyo3(signature = (coords, out, threads=None))]
    fn fill<'py>(
        &self,
        py: Python<'py>,
        coords: Vec<Bound<'py, PyAny>>,
        mut out: PyReadwriteArrayDyn<'py, f32>,
        threads: Option<i64>,
    ) -> PyResult<()> {
        let workers = Workers::new(threads)?;
        let coords = Coords::extract(&coords)?;
        let shape = out.shape().to_vec();
        let out = out
            .as_slice_mut()
            .map_err(|_| PyValueError::new_err("out must be a C-contiguous float32 array"))?;
        let source = &self.source;
        macro_rules! go {
            ($arrays:expr) => {{
                let views: Vec<_> = $arrays.iter().map(|a| a.as_array()).collect();
                py.detach(|| {
                    each_source!(source, s => match views.len() {
                        1 => fill_points::<_, _, 1>(s, &views, &shape, out, &workers),
                        2 => fill_points::<_, _, 2>(s, &views, &shape, out, &workers),
                        3 => fill_points::<_, _, 3>(s, &views, &shape, out, &workers),
                        _ => fill_points::<_, _, 4>(s, &views, &shape, out, &workers),
                    })
                })
            }};
        }
        match &coords {
            Coords::F32(a) => go!(a),
            Coords::F64(a) => go!(a),
        }
    }

    /// Values into `out` and derivatives (one array per coordinate, same
    /// order) into `grads`, at float32 points of one shape, all C-contiguous.
    #[pyo3(signature = (coords, out, grads, threads=None))]
    fn fill_grad<'py>(
        &self,
        py: Python<'py>,
        coords: Vec<PyReadonlyArrayDyn<'py, f32>>,
        mut out: PyReadwriteArrayDyn<'py, f32>,
        mut grads: Vec<PyReadwriteArrayDyn<'py, f32>>,
        threads: Option<i64>,
    ) -> PyResult<()> {
        let workers = Workers::new(threads)?;
        if !(1..=4).contains(&coords.len()) || grads.len() != coords.len() {
            return Err(PyValueError::new_err(
                "give 1 to 4 coordinate arrays and one derivative array for each",
            ));
        }
        let contiguous = || PyValueError::new_err("arrays must be C-contiguous");
        let xs: Vec<&[f32]> = coords
            .iter()
            .map(|c| c.as_slice().map_err(|_| contiguous()))
            .collect::<PyResult<_>>()?;
        let out = out.as_slice_mut().map_err(|_| contiguous())?;
        let gs: Vec<&mut [f32]> = grads
            .iter_mut()
            .map(|g| g.as_slice_mut().map_err(|_| contiguous()))
            .collect::<PyResult<_>>()?;
        let source = &self.source;
        fn go<S: Differentiable, const D: usize>(
            s: &S,
            xs: Vec<&[f32]>,
            out: &mut [f32],
            gs: Vec<&mut [f32]>,
            workers: &Workers,
        ) -> Result<(), Error>
        where
            Dims: Dim<D>,
        {
            let xs: [&[f32]; D] = std::array::from_fn(|a| xs[a]);
            let mut gs = gs.into_iter();
            let gs: [&mut [f32]; D] = std::array::from_fn(|_| gs.next().unwrap_or_default());
            workers.run(|par| {
                if !par || out.len() <= CHUNK {
                    return <Dims as Dim<D>>::points_grad(s, xs, out, gs);
                }
                let mut pieces: Vec<_> = gs.into_iter().map(|g| g.chunks_mut(CHUNK)).collect();
                let mut work = Vec::new();
                for (k, out) in out.chunks_mut(CHUNK).enumerate() {
                    let g: [&mut [f32]; D] =
                        std::array::from_fn(|a| pieces[a].next().unwrap_or_default());
                    work.push((k * CHUNK, out, g));
                }
                work.into_par_iter().try_for_each(|(start, out, g)| {
                    let piece = xs.map(|x| &x[start..start + out.len()]);
                    <Dims as Dim<D>>::points_grad(s, piece, out, g)
                })
            })
        }
        // Every array the length of `out`, so that each piece below exists.
        let n = out.len();
        if xs.iter().any(|x| x.len() != n) || gs.iter().any(|g| g.len() != n) {
            return Err(PyValueError::new_err(
                "coordinate, output and derivative arrays must all have one shape",
            ));
        }
        let result = py.detach(|| {
            each_gradient!(source, s => match xs.len() {
                1 => go::<_, 1>(s, xs, out, gs, &workers),
                2 => go::<_, 2>(s, xs, out, gs, &workers),
                3 => go::<_, 3>(s, xs, out, gs, &workers),
                _ => go::<_, 4>(s, xs, out, gs, &workers),
            })
        });
        match result {
            Some(r) => r.map_err(value_error),
            None => Err(no_gradient(source)),
        }
    }

    /// Checks a grid and its window (numpy axis order); returns the
    /// window's sample count. Raises what a fill would, before any work.
    fn grid_check(
        &self,
        shape: Vec<usize>,
        origin: Vec<f64>,
        step: Vec<f64>,
        offset: Vec<usize>,
        size: Vec<usize>,
    ) -> PyResult<usize> {
        check_axes("grid shape", &shape)?;
        check_lengths(
            &shape,
            [
                ("origin", origin.len()),
                ("step", step.len()),
                ("window", offset.len()),
                ("window", size.len()),
            ],
        )?;
        let n = match shape.len() {
            1 => grid_window::<1>(&shape, &origin, &step, &offset, &size)?.check(),
            2 => grid_window::<2>(&shape, &origin, &step, &offset, &size)?.check(),
            3 => grid_window::<3>(&shape, &origin, &step, &offset, &size)?.check(),
            _ => grid_window::<4>(&shape, &origin, &step, &offset, &size)?.check(),
        };
        n.map_err(value_error)
    }

    /// Fills `out` (C-contiguous float32 of shape `size`) with the window
    /// at `offset` of the grid `shape, origin, step` (numpy axis order).
    #[pyo3(signature = (shape, origin, step, offset, size, out, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn fill_grid<'py>(
        &self,
        py: Python<'py>,
        shape: Vec<usize>,
        origin: Vec<f64>,
        step: Vec<f64>,
        offset: Vec<usize>,
        size: Vec<usize>,
        mut out: PyReadwriteArrayDyn<'py, f32>,
        threads: Option<i64>,
    ) -> PyResult<()> {
        let workers = Workers::new(threads)?;
        let n = self.grid_check(
            shape.clone(),
            origin.clone(),
            step.clone(),
            offset.clone(),
            size.clone(),
        )?;
        if out.shape() != size.as_slice() {
            return Err(PyValueError::new_err(format!(
                "out has shape {:?} but the window has shape {size:?}",
                out.shape()
            )));
        }
        let out = out
            .as_slice_mut()
            .map_err(|_| PyValueError::new_err("out must be a C-contiguous float32 array"))?;
        if n == 0 {
            return Ok(());
        }
        let source = &self.source;
        macro_rules! go {
            ($d:literal) => {{
                let grid = grid_window::<$d>(&shape, &origin, &step, &offset, &size)?;
                py.detach(|| workers.run(|par| each_source!(source, s => fill_grid(s, &grid, out, par))))
            }};
        }
        let result = match shape.len() {
            1 => go!(1),
            2 => go!(2),
            3 => go!(3),
            _ => go!(4),
        };
        result.map_err(value_error)
    }

    /// [`Core::fill_grid`] with derivatives: `grads` in numpy axis order
    /// (the slowest axis first), each of the window's shape.
    #[pyo3(signature = (shape, origin, step, offset, size, out, grads, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn fill_grid_grad<'py>(
        &self,
        py: Python<'py>,
        shape: Vec<usize>,
        origin: Vec<f64>,
        step: Vec<f64>,
        offset: Vec<usize>,
        size: Vec<usize>,
        mut out: PyReadwriteArrayDyn<'py, f32>,
        mut grads: Vec<PyReadwriteArrayDyn<'py, f32>>,
        threads: Option<i64>,
    ) -> PyResult<()> {
        let workers = Workers::new(threads)?;
        let n = self.grid_check(
            shape.clone(),
            origin.clone(),
            step.clone(),
            offset.clone(),
            size.clone(),
        )?;
        if !self.differentiable() {
            return Err(no_gradient(&self.source));
        }
        if grads.len() != shape.len()
            || std::iter::once(&out)
                .chain(grads.iter())
                .any(|a| a.shape() != size.as_slice())
        {
            return Err(PyValueError::new_err(format!(
                "give out and one derivative array per axis, each of the window's shape {size:?}"
            )));
        }
        let contiguous = || PyValueError::new_err("arrays must be C-contiguous float32");
        let out = out.as_slice_mut().map_err(|_| contiguous())?;
        // The library's derivatives are x first; numpy's axis order is the reverse.
        let mut gs: Vec<&mut [f32]> = grads
            .iter_mut()
            .map(|g| g.as_slice_mut().map_err(|_| contiguous()))
            .collect::<PyResult<_>>()?;
        gs.reverse();
        if n == 0 {
            return Ok(());
        }
        let source = &self.source;
        macro_rules! go {
            ($d:literal) => {{
                let grid = grid_window::<$d>(&shape, &origin, &step, &offset, &size)?;
                let mut gs = gs.into_iter();
                let gs: [&mut [f32]; $d] = std::array::from_fn(|_| gs.next().unwrap_or_default());
                py.detach(|| {
                    workers.run(|par| each_gradient!(source, s => fill_grid_grad(s, &grid, out, gs, par)))
                })
            }};
        }
        let result = match shape.len() {
            1 => go!(1),
            2 => go!(2),
            3 => go!(3),
            _ => go!(4),
        };
        match result {
            Some(r) => r.map_err(value_error),
            None => Err(no_gradient(source)),
        }
    }
}

/// The error of asking a source without derivatives for them.
fn no_gradient(source: &AnySource) -> PyErr {
    let name = match source {
        AnySource::BillowP(_) | AnySource::BillowV(_) => "Billow",
        AnySource::RidgedP(_) | AnySource::RidgedV(_) => "Ridged",
        AnySource::TurbulenceP(_) | AnySource::TurbulenceV(_) => "Turbulence",
        _ => "Marble",
    };
    PyTypeError::new_err(format!(
        "{name} has no analytic derivatives; Perlin, Value and Fbm over them have"
    ))
}

/// The SIMD levels this CPU runs, slowest first.
#[pyfunction]
fn available_levels() -> Vec<&'static str> {
    Level::available().iter().map(|l| l.name()).collect()
}

/// The fastest level this CPU runs (the default of every source).
#[pyfunction]
fn detect_level() -> &'static str {
    Level::detect().name()
}

/// Seconds per call of the library's own `fill_grid2_par` over the grid
/// `shape, origin, step` (numpy order), `repeats` times: the Rust side of
/// the speed comparison, in the caller's process. It fills `out` (a
/// C-contiguous float32 array of `shape`, so both sides write the same
/// memory) or, without it, a new `Vec` per call, allocated and freed inside
/// the timing as a Python call that returns a new array.
#[pyfunction]
#[pyo3(signature = (core, shape, origin, step, repeats, out=None))]
fn _bench_grid<'py>(
    py: Python<'py>,
    core: &Core,
    shape: Vec<usize>,
    origin: Vec<f64>,
    step: Vec<f64>,
    repeats: usize,
    out: Option<PyReadwriteArrayDyn<'py, f32>>,
) -> PyResult<Vec<f64>> {
    let offset = vec![0; shape.len()];
    let n = core.grid_check(
        shape.clone(),
        origin.clone(),
        step.clone(),
        offset.clone(),
        shape.clone(),
    )?;
    if shape.len() != 2 {
        return Err(PyValueError::new_err("_bench_grid times 2D grids"));
    }
    let grid = grid_window::<2>(&shape, &origin, &step, &offset, &shape)?;
    let mut out = out;
    let buffer = match out.as_mut() {
        Some(out) if out.shape() == shape.as_slice() => Some(
            out.as_slice_mut()
                .map_err(|_| PyValueError::new_err("out must be C-contiguous"))?,
        ),
        Some(_) => return Err(PyValueError::new_err("out must have the grid's shape")),
        None => None,
    };
    let source = &core.source;
    py.detach(|| {
        let mut times = Vec::with_capacity(repeats);
        let mut buffer = buffer;
        for _ in 0..repeats {
            let start = Instant::now();
            match buffer.as_deref_mut() {
                Some(out) => each_source!(source, s => s.fill_grid2_par(&grid, out))?,
                None => {
                    let mut out = vec![0.0f32; n];
                    each_source!(source, s => s.fill_grid2_par(&grid, &mut out))?;
                    drop(std::hint::black_box(out));
                }
            }
            times.push(start.elapsed().as_secs_f64());
        }
        Ok(times)
    })
    .map_err(value_error)
}

/// Seconds per call of the library's `fill3` on float32 `xs, ys, zs` into
/// one buffer, one thread, `repeats` times (see [`_bench_grid`]).
#[pyfunction]
fn _bench_fill3<'py>(
    py: Python<'py>,
    core: &Core,
    xs: PyReadonlyArrayDyn<'py, f32>,
    ys: PyReadonlyArrayDyn<'py, f32>,
    zs: PyReadonlyArrayDyn<'py, f32>,
    repeats: usize,
) -> PyResult<Vec<f64>> {
    let contiguous = || PyValueError::new_err("arrays must be C-contiguous");
    let (xs, ys, zs) = (
        xs.as_slice().map_err(|_| contiguous())?,
        ys.as_slice().map_err(|_| contiguous())?,
        zs.as_slice().map_err(|_| contiguous())?,
    );
    let source = &core.source;
    py.detach(|| {
        let mut out = vec![0.0f32; xs.len()];
        let mut times = Vec::with_capacity(repeats);
        for _ in 0..repeats {
            let start = Instant::now();
            each_source!(source, s => s.fill3(xs, ys, zs, &mut out))?;
            times.push(start.elapsed().as_secs_f64());
        }
        std::hint::black_box(&out);
        Ok(times)
    })
    .map_err(value_error)
}

/// The extension module `noisefield._noisefield`.
#[pymodule]
fn _noisefield(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()?;
    m.add_function(wrap_pyfunction!(lattice, m)?)?;
    m.add_function(wrap_pyfunction!(fractal, m)?)?;
    m.add_function(wrap_pyfunction!(available_levels, m)?)?;
    m.add_function(wrap_pyfunction!(detect_level, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_grid, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_fill3, m)?)?;
    m.add("WINDOW", WINDOW)?;
    Ok(())
}
