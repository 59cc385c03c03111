//! `noisefield._noisefield`: the Rust half of the Python package.
//!
//! The Python classes (`noisefield/__init__.py`) hold their parameters and
//! one [`Core`] each: a library source built from those parameters (or
//! from a recipe's text), behind the library's run-time face
//! [`DynSource`], which has derivatives where the source has them. Python
//! does what numpy does best (turning arguments into arrays of one dtype,
//! broadcasting shapes, allocating the output); this module checks every
//! argument against the library, releases the GIL and writes straight into
//! the numpy output.
//!
//! ```text
//! Core.fill(coords, out, threads):
//!     coords: 1..=4 arrays, all float32 or all float64, each broadcastable to out.shape
//!     all contiguous with out's shape  -> the library's fill / fill_f64 on the slices
//!     otherwise                        -> blocks of BLOCK points gathered in C order, then the same
//!     GIL released; on the rayon pool in pieces of CHUNK points unless threads == 1,
//!     else in blocks of POINT_BLOCK points
//! Core.fill_grid(shape, origin, step, offset, size, out, threads):
//!     numpy axis order in, the library's x-first GridNd out (any number of axes); the block
//!     `offset, size` of it as GridNd::window (global sample indices), filled in windows of at most
//!     WINDOW samples per axis and BLOCK_TIME of work, each contiguous in `out`
//! ```
//!
//! Ctrl-C: Python's SIGINT handler only notes the signal; `KeyboardInterrupt`
//! is raised when the main thread next runs `PyErr_CheckSignals`. A long call
//! is cut into blocks (any split gives the same bits: points are computed
//! one by one, and windows of a grid join bit for bit), and on the main
//! thread it attaches to the interpreter every [`CHECK_EVERY`] to run that
//! check: between its blocks on one thread, or from the waiting caller while
//! the rayon workers fill them. Once the check raises, no further block
//! starts and the call returns the error ([`run_jobs`]).
//!
//! Every library error becomes a `ValueError` with the library's message;
//! arguments of the wrong kind are `TypeError`s. Nothing here panics on any
//! input: sizes are checked before they are multiplied, and lengths before
//! slices are taken.

use noisefield::prelude::*;
use noisefield::{
    Billow, DynSource, EXCERPT_CHARS, Error, Fade, Fbm, GridNd, HashMode, Level, MAX_DIMENSIONS,
    MAX_LATTICE_DIMENSIONS, Marble, Perlin, Recipe, RecipeError, Ridged, Simplex, Turbulence,
    Value,
};
use numpy::ndarray::{ArrayViewD, IxDyn};
use numpy::{Element, PyReadonlyArrayDyn, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Points per piece of a parallel point fill: 16 Ki points, 64 KiB of
/// output, enough work per task to hide rayon's overhead.
const CHUNK: usize = 1 << 14;

/// Points gathered at a time from broadcast or strided coordinates: 64 Ki
/// points, so the gathered copies stay small (0.5 MiB per axis in float64)
/// whatever the broadcast shape.
const BLOCK: usize = 1 << 16;

/// Points per block of a point fill on one thread, between two looks for
/// Ctrl-C: 32 Ki points, a millisecond of work for most sources, under
/// 0.1 s for the slowest (32 octaves in 4D at the scalar level).
const POINT_BLOCK: usize = 1 << 15;

/// One thread's work in the first window of a grid fill, estimated before
/// it is timed ([`Core::first_window`]); a grid estimated under it runs as
/// one call, as before Ctrl-C was looked for.
const FIRST_TIME: Duration = Duration::from_millis(50);

/// One thread's work per window of a grid fill after the first, at the
/// rate the first one took: short for a prompt Ctrl-C, long enough that
/// the library's preparation of each window (per sample of x and octave,
/// some 13 ns each at any level) stays under 1 % of it.
const BLOCK_TIME: Duration = Duration::from_millis(40);

/// The fewest samples per window after the first (where rows allow).
const MIN_WINDOW: usize = 1 << 10;

/// A window size beyond any grid that fits in memory (no overflow when
/// [`next_window`] multiplies it by [`WINDOW`]).
const UNBOUNDED: usize = 1 << 40;

/// How often a call on the main thread looks for Ctrl-C (at most).
const CHECK_EVERY: Duration = Duration::from_millis(20);

/// The widest window of a grid filled at once: 2^14 samples per axis, as
/// the command line's bands. The library keeps data per sample of each axis
/// of a window for every octave, so this bounds it whatever the shape.
const WINDOW: usize = 1 << 14;

/// Most worker threads `threads=` accepts (the command line's limit).
const MAX_THREADS: usize = 1024;

/// A library error as Python sees it: `ValueError` with the same message
/// (`TypeError` for derivatives asked of a source without them, which
/// [`Core::has_gradient`] refuses first with the source's name).
fn value_error(e: Error) -> PyErr {
    match e {
        Error::NotDifferentiable => PyTypeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// A coordinate element type: `f32` (the library's `fill`) or `f64`
/// (`fill_f64`).
/// The dimension is a value (`coords.len()`, 1 to 32): the library's
/// `fill_dyn`, the same bits as its `fill::<D>`.
trait Coordinate: Element + Copy + Default + Send + Sync {
    fn fill(s: &DynSource, c: &[&[Self]], out: &mut [f32]) -> Result<(), Error>;
}

impl Coordinate for f32 {
    fn fill(s: &DynSource, c: &[&[f32]], out: &mut [f32]) -> Result<(), Error> {
        s.fill_dyn(c, out)
    }
}

impl Coordinate for f64 {
    fn fill(s: &DynSource, c: &[&[f64]], out: &mut [f32]) -> Result<(), Error> {
        s.fill_f64_dyn(c, out)
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

    /// Whether these workers are more than the calling thread.
    fn parallel(&self) -> bool {
        !matches!(self, Workers::One)
    }

    /// How many threads these workers are.
    fn threads(&self) -> usize {
        match self {
            Workers::One => 1,
            Workers::Global => rayon::current_num_threads(),
            Workers::Pool(pool) => pool.current_num_threads(),
        }
    }

    /// `op` on the calling thread, with a scope whose spawned jobs run on
    /// these workers' pool.
    fn in_place_scope<'s, R>(&self, op: impl FnOnce(&rayon::Scope<'s>) -> R) -> R {
        match self {
            Workers::Pool(pool) => pool.in_place_scope(op),
            _ => rayon::in_place_scope(op),
        }
    }
}

/// Where a call looks for Ctrl-C (see the module docs).
#[derive(Clone, Copy)]
struct Watch {
    /// Whether the call runs on Python's main thread, the only one whose
    /// signal check sees signals: elsewhere the call never attaches.
    main: bool,
}

impl Watch {
    /// The watch of a call with `work` points or samples: calls of up to
    /// one block never look.
    fn new(py: Python<'_>, work: usize) -> Watch {
        Watch {
            main: work > CHUNK && on_main_thread(py),
        }
    }

    /// A watch that never looks.
    const NONE: Watch = Watch { main: false };

    /// Runs the interpreter's signal handlers (briefly attached): `Err`
    /// (`KeyboardInterrupt` for Ctrl-C) if one raised.
    fn check(self) -> PyResult<()> {
        if self.main {
            Python::attach(|py| py.check_signals())
        } else {
            Ok(())
        }
    }
}

/// Whether this is Python's main thread (`threading.main_thread()`); true
/// if that cannot be told (a check there costs only a brief attach).
fn on_main_thread(py: Python<'_>) -> bool {
    let main = || -> PyResult<bool> {
        let threading = py.import("threading")?;
        let main = threading.call_method0("main_thread")?.getattr("ident")?;
        main.eq(threading.call_method0("get_ident")?)
    };
    main().unwrap_or(true)
}

/// Runs `one(job, parallel)` for every job, looking for Ctrl-C between
/// them ([`Watch`]): a lone job runs on `workers` (`parallel` says whether
/// it may use them); several run one after another on one thread, or as
/// rayon tasks while the calling thread waits and looks. After a look
/// raises, no further job starts and its error is returned.
fn run_jobs<J: Send>(
    jobs: Vec<J>,
    workers: &Workers,
    watch: Watch,
    one: impl Fn(J, bool) -> Result<(), Error> + Sync,
) -> PyResult<()> {
    if jobs.len() <= 1 {
        return match jobs.into_iter().next() {
            Some(job) => workers.run(|par| one(job, par)).map_err(value_error),
            None => Ok(()),
        };
    }
    if !workers.parallel() {
        let mut looked = Instant::now();
        for job in jobs {
            one(job, false).map_err(value_error)?;
            if watch.main && looked.elapsed() >= CHECK_EVERY {
                watch.check()?;
                looked = Instant::now();
            }
        }
        return Ok(());
    }
    let stop = AtomicBool::new(false);
    let work = || {
        jobs.into_par_iter().try_for_each(|job| {
            if stop.load(Ordering::Relaxed) {
                Ok(())
            } else {
                one(job, true)
            }
        })
    };
    if !watch.main {
        return workers.run(|_| work()).map_err(value_error);
    }
    let done = AtomicBool::new(false);
    let caller = std::thread::current();
    let mut outcome = None;
    let mut interrupted = None;
    workers.in_place_scope(|scope| {
        let (done, caller, outcome) = (&done, &caller, &mut outcome);
        scope.spawn(move |_| {
            *outcome = Some(work());
            done.store(true, Ordering::Release);
            caller.unpark();
        });
        while !done.load(Ordering::Acquire) {
            std::thread::park_timeout(CHECK_EVERY);
            if interrupted.is_none()
                && let Err(e) = watch.check()
            {
                stop.store(true, Ordering::Relaxed);
                interrupted = Some(e);
            }
        }
    });
    match interrupted {
        Some(e) => Err(e),
        None => outcome.unwrap_or(Ok(())).map_err(value_error),
    }
}

/// Points `out[i] = source(coords[..][i])` on `workers`, in pieces of
/// [`CHUNK`] points in parallel, [`POINT_BLOCK`] on one thread (every point
/// is computed alone, so the split changes no bit), looking for Ctrl-C
/// between them.
fn fill_slices<T: Coordinate>(
    s: &DynSource,
    coords: &[&[T]],
    out: &mut [f32],
    workers: &Workers,
    watch: Watch,
) -> PyResult<()> {
    if !workers.parallel() && !watch.main {
        return T::fill(s, coords, out).map_err(value_error);
    }
    let size = if workers.parallel() {
        CHUNK
    } else {
        POINT_BLOCK
    };
    let jobs: Vec<_> = out.chunks_mut(size).enumerate().collect();
    run_jobs(jobs, workers, watch, |(k, out), _| {
        let start = k * size;
        let piece: Vec<&[T]> = coords
            .iter()
            .map(|c| &c[start..start + out.len()])
            .collect();
        T::fill(s, &piece, out)
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
fn fill_points<T: Coordinate>(
    s: &DynSource,
    coords: &[ArrayViewD<'_, T>],
    shape: &[usize],
    out: &mut [f32],
    workers: &Workers,
    watch: Watch,
) -> PyResult<()> {
    let views = broadcast(coords, shape)?;
    let slices: Option<Vec<&[T]>> = views.iter().map(|v| v.as_slice()).collect();
    if let Some(slices) = slices {
        return fill_slices(s, &slices, out, workers, watch);
    }
    let mut looked = Instant::now();
    let mut iters: Vec<_> = views.iter().map(|v| v.iter()).collect();
    let mut buffers: Vec<Vec<T>> = (0..views.len())
        .map(|_| vec![T::default(); BLOCK.min(out.len())])
        .collect();
    for out in out.chunks_mut(BLOCK) {
        for (it, buffer) in iters.iter_mut().zip(buffers.iter_mut()) {
            for (slot, v) in buffer.iter_mut().zip(it.by_ref().take(out.len())) {
                *slot = *v;
            }
        }
        let block: Vec<&[T]> = buffers.iter().map(|b| &b[..out.len()]).collect();
        fill_slices(s, &block, out, workers, Watch::NONE)?;
        if watch.main && looked.elapsed() >= CHECK_EVERY {
            watch.check()?;
            looked = Instant::now();
        }
    }
    Ok(())
}

/// The grid of `shape`, `origin`, `step` (numpy axis order, slowest axis
/// first) as the library's x-first [`GridNd`], and its window at `offset`
/// of `size` (numpy order too), checked.
fn grid_window(
    shape: &[usize],
    origin: &[f64],
    step: &[f64],
    offset: &[usize],
    size: &[usize],
) -> PyResult<GridNd> {
    let x_first = |v: &[usize]| -> Vec<usize> { v.iter().rev().copied().collect() };
    let x_first_f = |v: &[f64]| -> Vec<f64> { v.iter().rev().copied().collect() };
    let whole =
        GridNd::new(&x_first_f(origin), &x_first_f(step), &x_first(shape)).map_err(value_error)?;
    whole.check().map_err(value_error)?;
    let window = whole
        .window(&x_first(offset), &x_first(size))
        .map_err(value_error)?;
    window.check().map_err(value_error)?;
    Ok(window)
}

/// A window of a grid, `(offset, size)` with x first.
type Window = (Vec<usize>, Vec<usize>);

/// The sample count of a window size (known to fit: the grid was checked).
fn samples(size: &[usize]) -> usize {
    size.iter().product()
}

/// The next window of a grid of `size` (x first) to fill, from the sample
/// `at` (the first one not yet filled, output order): contiguous in the
/// output, at most [`WINDOW`] samples along every axis and, where whole
/// rows allow, at most `target` samples (at least one). Axes below `cut`
/// are whole (at most `target` samples together), `cut` is cut in a piece,
/// and the axes above it are one sample each.
fn next_window(size: &[usize], at: &[usize], target: usize) -> Window {
    let d = size.len();
    let (mut cut, mut inner) = (0, 1usize);
    // `inner * size[cut]` is at most `target * WINDOW`: no overflow.
    while cut + 1 < d && at[cut] == 0 && size[cut] <= WINDOW && inner * size[cut] <= target {
        inner *= size[cut];
        cut += 1;
    }
    let mut window = size.to_vec();
    window[cut] = (target / inner).clamp(1, WINDOW).min(size[cut] - at[cut]);
    window[cut + 1..].fill(1);
    (at.to_vec(), window)
}

/// The sample after the window `(offset, size)` of [`next_window`] in
/// output order, `None` past the end of a grid of `grid_size`.
fn after(grid_size: &[usize], (offset, size): &Window) -> Option<Vec<usize>> {
    let d = grid_size.len();
    let mut at = offset.clone();
    // The lowest axis the window does not cover whole is where it advances.
    let cut = (0..d).find(|&a| size[a] != grid_size[a]).unwrap_or(d - 1);
    at[cut] += size[cut];
    for a in cut..d {
        if at[a] < grid_size[a] {
            return Some(at);
        }
        at[a] = 0;
        if a + 1 < d {
            at[a + 1] += 1;
        }
    }
    None
}

/// The outputs of a grid fill, cut window by window: the values, or the
/// values and one derivative array per axis.
trait Outputs: Sized + Send {
    /// The first `n` samples of every output, and the rest.
    fn split(self, n: usize) -> (Self, Self);
}

impl Outputs for &mut [f32] {
    fn split(self, n: usize) -> (Self, Self) {
        self.split_at_mut(n)
    }
}

impl Outputs for (&mut [f32], Vec<&mut [f32]>) {
    fn split(self, n: usize) -> (Self, Self) {
        let (head, tail) = self.0.split_at_mut(n);
        let (heads, tails) = self.1.into_iter().map(|g| g.split_at_mut(n)).unzip();
        ((head, heads), (tail, tails))
    }
}

/// `grid` filled window by window by `fill(window, outputs, parallel)`,
/// looking for Ctrl-C between windows on the main thread. The library
/// prepares each window's rows anew (per sample of x and octave), so
/// windows are as large as a prompt Ctrl-C allows: the first, of about
/// `first` samples per thread, is filled and timed, and the rest are
/// windows of [`BLOCK_TIME`] of one thread's work at that rate, filled with
/// the workers' help. A grid that is one such window is one call on the
/// workers. Off the main thread the windows are only cut to [`WINDOW`]
/// samples per axis.
fn fill_windows<O: Outputs>(
    grid: &GridNd,
    mut outputs: O,
    first: usize,
    workers: &Workers,
    watch: Watch,
    fill: impl Fn(&GridNd, O, bool) -> Result<(), Error> + Sync,
) -> PyResult<()> {
    let size = grid.size();
    let mut at = Some(vec![0; size.len()]);
    // Off the main thread nothing is looked for: windows as large as WINDOW allows.
    let mut target = UNBOUNDED;
    if watch.main {
        // The workers' threads: windows are sized per thread, so that those
        // in flight when a Ctrl-C comes end within about BLOCK_TIME.
        let threads = workers.threads();
        let window = next_window(size, &vec![0; size.len()], first.saturating_mul(threads));
        at = after(size, &window);
        if at.is_none() {
            return workers
                .run(|par| fill(grid, outputs, par))
                .map_err(value_error);
        }
        let n = samples(&window.1);
        let (head, rest) = outputs.split(n);
        outputs = rest;
        let started = Instant::now();
        let part = grid.window(&window.0, &window.1).map_err(value_error)?;
        workers
            .run(|par| fill(&part, head, par))
            .map_err(value_error)?;
        let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-9) / threads as f64;
        target =
            (rate * BLOCK_TIME.as_secs_f64()).clamp(MIN_WINDOW as f64, UNBOUNDED as f64) as usize;
        watch.check()?;
    }
    let mut jobs = Vec::new();
    while let Some(from) = at {
        let window = next_window(size, &from, target);
        let (head, rest) = outputs.split(samples(&window.1));
        outputs = rest;
        at = after(size, &window);
        jobs.push((window, head));
    }
    run_jobs(jobs, workers, watch, |((offset, size), out), par| {
        fill(&grid.window(&offset, &size)?, out, par)
    })
}

/// Fills `out` with `s` over `grid` ([`fill_windows`]).
fn fill_grid(
    s: &DynSource,
    grid: &GridNd,
    out: &mut [f32],
    first: usize,
    workers: &Workers,
    watch: Watch,
) -> PyResult<()> {
    fill_windows(grid, out, first, workers, watch, |window, out, par| {
        if par {
            s.fill_grid_par_dyn(window, out)
        } else {
            s.fill_grid_dyn(window, out)
        }
    })
}

/// Fills `out` and `grads` (x first) with `s` and its derivatives over
/// `grid` ([`fill_windows`]).
fn fill_grid_grad(
    s: &DynSource,
    grid: &GridNd,
    out: &mut [f32],
    grads: Vec<&mut [f32]>,
    first: usize,
    workers: &Workers,
    watch: Watch,
) -> PyResult<()> {
    fill_windows(
        grid,
        (out, grads),
        first,
        workers,
        watch,
        |window, (out, mut grads), par| {
            // One derivative array per axis: each has its piece.
            if par {
                s.fill_grid_grad_par_dyn(window, out, &mut grads)
            } else {
                s.fill_grid_grad_dyn(window, out, &mut grads)
            }
        },
    )
}

/// The coordinates of a point call: all `float32` or all `float64`.
enum Coords<'py> {
    F32(Vec<PyReadonlyArrayDyn<'py, f32>>),
    F64(Vec<PyReadonlyArrayDyn<'py, f64>>),
}

impl<'py> Coords<'py> {
    fn extract(coords: &[Bound<'py, PyAny>]) -> PyResult<Coords<'py>> {
        if !(1..=MAX_DIMENSIONS).contains(&coords.len()) {
            return Err(PyValueError::new_err(format!(
                "{} coordinate arrays given; noise has 1 to {MAX_DIMENSIONS} dimensions \
                 (Perlin and Value noise up to {MAX_LATTICE_DIMENSIONS}, Simplex noise all)",
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

/// A shape given from Python, checked to be 1 to [`MAX_DIMENSIONS`] axes
/// (the source may compute fewer: its fill says so).
fn check_axes(what: &str, shape: &[usize]) -> PyResult<()> {
    if (1..=MAX_DIMENSIONS).contains(&shape.len()) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{what} has {} axes; noisefield grids have 1 to {MAX_DIMENSIONS}",
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
    /// The source behind the library's run-time face: every call is one
    /// call into the source's own compiled path. It has derivatives where
    /// the source has them ([`DynSource::is_differentiable`]).
    source: DynSource,
    /// Lattice evaluations per sample (a fractal's octaves, a recipe's
    /// cost), for [`Core::first_window`].
    work: u64,
    /// What the source was built as.
    origin: Origin,
}

/// What a [`Core`] was built as: what [`fractal`] builds over, and what
/// the error of a derivative call without derivatives names.
#[derive(Clone, Debug)]
enum Origin {
    /// A lattice noise, kept as its own type: the library's fractals take
    /// it as that, so that they run their own compiled path (not a call
    /// into a [`DynSource`] per kernel pack).
    Perlin(Perlin),
    /// A value noise, as [`Origin::Perlin`].
    Value(Value),
    /// A simplex noise, as [`Origin::Perlin`].
    Simplex(Simplex),
    /// A fractal, by its Python class name (`"Ridged"`).
    Fractal(&'static str),
    /// A recipe, as the library prints it.
    Recipe(String),
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
/// unused); `period` x first (up to [`MAX_DIMENSIONS`] values), `u32::MAX`
/// for an unperiodic axis.
#[pyfunction]
#[pyo3(signature = (kind, seed, hash, period, fade, level))]
fn lattice(
    kind: &str,
    seed: u64,
    hash: &str,
    period: Option<Vec<u32>>,
    fade: &str,
    level: Option<&str>,
) -> PyResult<Core> {
    // Padded to the most axes a grid has: the library refuses a period past
    // the axes a lattice computes.
    let period = match period {
        Some(p) if p.len() > MAX_DIMENSIONS => {
            return Err(PyValueError::new_err(format!(
                "period has {} values; give 1 to {MAX_DIMENSIONS} (x first)",
                p.len()
            )));
        }
        Some(p) => Some(std::array::from_fn::<u32, MAX_DIMENSIONS, _>(|a| {
            p.get(a).copied().unwrap_or(u32::MAX)
        })),
        None => None,
    };
    let (source, origin) = match kind {
        "perlin" => {
            let noise = build_lattice!(Perlin, seed, hash, period, fade, level);
            (
                DynSource::differentiable(noise.clone()),
                Origin::Perlin(noise),
            )
        }
        "value" => {
            let noise = build_lattice!(Value, seed, hash, period, fade, level);
            (
                DynSource::differentiable(noise.clone()),
                Origin::Value(noise),
            )
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown lattice {kind:?}: expected 'perlin' or 'value'"
            )));
        }
    };
    Ok(Core {
        source,
        work: 1,
        origin,
    })
}

/// A simplex noise of `seed` at `level` (`None`: the best this CPU has).
#[pyfunction]
#[pyo3(signature = (seed, level))]
fn simplex(seed: u64, level: Option<&str>) -> PyResult<Core> {
    let mut noise = Simplex::new(seed);
    if let Some(level) = level {
        noise = noise.with_level(parse_level(level)?).map_err(value_error)?;
    }
    Ok(Core {
        source: DynSource::differentiable(noise.clone()),
        work: 1,
        origin: Origin::Simplex(noise),
    })
}

/// The library's refusal of a period on simplex noise, as a `ValueError`.
#[pyfunction]
fn simplex_period() -> PyErr {
    value_error(Error::NotPeriodic)
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

/// The combinator `kind` over `base` with `o`'s settings (`power` and
/// `stripes` for marble), and its Python class name: Fbm with its
/// derivatives, the others without.
fn fractal_over<N: Differentiable + 'static>(
    kind: &str,
    base: N,
    o: &Octaves,
    power: f32,
    stripes: f32,
) -> PyResult<(DynSource, &'static str)> {
    Ok(match kind {
        "fbm" => (
            DynSource::differentiable(build_fractal!(Fbm, base, o)),
            "Fbm",
        ),
        "billow" => (DynSource::new(build_fractal!(Billow, base, o)), "Billow"),
        "ridged" => (DynSource::new(build_fractal!(Ridged, base, o)), "Ridged"),
        "turbulence" => (
            DynSource::new(build_fractal!(Turbulence, base, o)),
            "Turbulence",
        ),
        "marble" => {
            let marble = build_fractal!(Marble, base, o)
                .power(power)
                .stripes(stripes);
            (DynSource::new(marble), "Marble")
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown fractal {kind:?}: expected 'fbm', 'billow', 'ridged', 'turbulence' or 'marble'"
            )));
        }
    })
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
    let (source, name) = match &base.origin {
        Origin::Perlin(p) => fractal_over(kind, p.clone(), &o, power, stripes)?,
        Origin::Value(v) => fractal_over(kind, v.clone(), &o, power, stripes)?,
        Origin::Simplex(v) => fractal_over(kind, v.clone(), &o, power, stripes)?,
        _ => {
            return Err(PyTypeError::new_err(
                "a fractal's source must be a Perlin, a Value or a Simplex noise",
            ));
        }
    };
    source.check().map_err(value_error)?;
    Ok(Core {
        source,
        work: u64::from(octaves),
        origin: Origin::Fractal(name),
    })
}

/// The source graph of a recipe (the library's `Recipe`, e.g.
/// `"ridged(warp(perlin(seed=7), perlin(seed=8)), octaves=5)"`) at `level`
/// (`None`: the best this CPU has), and the recipe as the library prints
/// it (whitespace normalised; it parses to the same recipe). A recipe the
/// library refuses (its syntax, a name, a parameter, its cost or its
/// bounds) is a `ValueError` with the library's message and an excerpt of
/// the text with a caret under the column.
#[pyfunction]
#[pyo3(signature = (text, level))]
fn recipe(text: &str, level: Option<&str>) -> PyResult<(Core, String)> {
    let recipe: Recipe = text.parse().map_err(|e: RecipeError| {
        let excerpt = e.excerpt(text).replace('\n', "\n  ");
        PyValueError::new_err(format!("{e}\n  {excerpt}"))
    })?;
    let mut source = recipe.source();
    if let Some(level) = level {
        source = source
            .with_level(parse_level(level)?)
            .map_err(value_error)?;
    }
    let printed = recipe.to_string();
    let core = Core {
        source,
        work: recipe.cost(),
        origin: Origin::Recipe(printed.clone()),
    };
    Ok((core, printed))
}

impl Core {
    /// The samples of the first, timed window of a `dimension`-D grid fill:
    /// [`FIRST_TIME`] of work by a generous estimate (nanoseconds per
    /// sample and lattice evaluation, measured on an AMD EPYC core and
    /// rounded up; 1D grids are one row, all preparation). Too small a
    /// window costs speed (each window prepares its rows anew: a grid split
    /// in two at a SIMD level takes up to a few percent longer), too large
    /// delays a Ctrl-C.
    /// In 5 dimensions and more a sample is its `f64` point, `2^D` corners
    /// of a lattice (fewer for simplex noise): 64 ns per corner covers
    /// Scalar.
    fn first_window(&self, dimension: usize) -> usize {
        let per_octave = match (self.source.level().name(), dimension) {
            (_, 5..) => 64.0 * (1u64 << dimension.min(MAX_LATTICE_DIMENSIONS)) as f64,
            ("scalar", _) => [24.0, 6.0, 10.0, 48.0][dimension.clamp(1, 4) - 1],
            ("portable" | "neon", _) => [16.0, 3.0, 6.0, 24.0][dimension.clamp(1, 4) - 1],
            _ => [16.0, 0.8, 1.2, 6.0][dimension.clamp(1, 4) - 1],
        };
        let count = FIRST_TIME.as_nanos() as f64 / (per_octave * self.work.max(1) as f64);
        (count as usize).max(1)
    }

    /// `Err` (a `TypeError` naming the source) unless the source has
    /// derivatives: checked before any derivative call does any work.
    fn has_gradient(&self) -> PyResult<()> {
        if self.source.is_differentiable() {
            return Ok(());
        }
        let message = match &self.origin {
            Origin::Recipe(text) => format!(
                "the recipe {} has no analytic derivatives: ridged, billow, turbulence and \
                 marble have none; perlin, value, fbm, the operators and warp over them have",
                shortened(text)
            ),
            Origin::Fractal(name) => {
                format!("{name} has no analytic derivatives; Perlin, Value and Fbm over them have")
            }
            // Lattices have derivatives; this names the library's reason.
            Origin::Perlin(_) | Origin::Value(_) | Origin::Simplex(_) => {
                Error::NotDifferentiable.to_string()
            }
        };
        Err(PyTypeError::new_err(message))
    }
}

/// A recipe for a message: its first [`EXCERPT_CHARS`] characters (a
/// recipe may be megabytes long), `…` where it is cut.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[pymethods]
impl Core {
    /// The SIMD level the fills run at.
    #[getter]
    fn level(&self) -> &'static str {
        self.source.level().name()
    }

    /// An interval `(lo, hi)` holding every output of `dimension`-D noise.
    fn bounds(&self, dimension: usize) -> PyResult<(f32, f32)> {
        if !(1..=MAX_DIMENSIONS).contains(&dimension) {
            return Err(PyValueError::new_err(format!(
                "dimension {dimension}: noise has 1 to {MAX_DIMENSIONS} dimensions"
            )));
        }
        Ok(self.source.bounds(dimension))
    }

    /// Whether the source has analytic derivatives.
    #[getter]
    fn differentiable(&self) -> bool {
        self.source.is_differentiable()
    }

    /// Raises what a derivative call raises for a source without
    /// derivatives (a `TypeError`), so that callers can check before they
    /// allocate outputs.
    fn grad_check(&self) -> PyResult<()> {
        self.has_gradient()
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
        let watch = Watch::new(py, out.len());
        macro_rules! go {
            ($arrays:expr) => {{
                let views: Vec<_> = $arrays.iter().map(|a| a.as_array()).collect();
                py.detach(|| fill_points(source, &views, &shape, out, &workers, watch))
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
        if !(1..=MAX_DIMENSIONS).contains(&coords.len()) || grads.len() != coords.len() {
            return Err(PyValueError::new_err(format!(
                "give 1 to {MAX_DIMENSIONS} coordinate arrays and one derivative array for each"
            )));
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
        fn go(
            s: &DynSource,
            xs: Vec<&[f32]>,
            out: &mut [f32],
            gs: Vec<&mut [f32]>,
            workers: &Workers,
            watch: Watch,
        ) -> PyResult<()> {
            // In pieces as `fill_slices`: every point is computed alone.
            let size = if workers.parallel() {
                CHUNK
            } else {
                POINT_BLOCK
            };
            let mut pieces: Vec<_> = gs.into_iter().map(|g| g.chunks_mut(size)).collect();
            let mut work = Vec::new();
            for (k, out) in out.chunks_mut(size).enumerate() {
                let g: Vec<&mut [f32]> = pieces
                    .iter_mut()
                    .map(|p| p.next().unwrap_or_default())
                    .collect();
                work.push((k * size, out, g));
            }
            run_jobs(work, workers, watch, |(start, out, mut g), _| {
                let piece: Vec<&[f32]> = xs.iter().map(|x| &x[start..start + out.len()]).collect();
                s.fill_grad_dyn(&piece, out, &mut g)
            })
        }
        // Every array the length of `out`, so that each piece below exists.
        let n = out.len();
        if xs.iter().any(|x| x.len() != n) || gs.iter().any(|g| g.len() != n) {
            return Err(PyValueError::new_err(
                "coordinate, output and derivative arrays must all have one shape",
            ));
        }
        self.has_gradient()?;
        let watch = Watch::new(py, n);
        py.detach(|| go(source, xs, out, gs, &workers, watch))
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
        let n = grid_window(&shape, &origin, &step, &offset, &size)?
            .check()
            .map_err(value_error)?;
        // A dimension the source does not compute (one point says so).
        self.source
            .noise_dyn(&vec![0.0; shape.len()])
            .map_err(value_error)?;
        Ok(n)
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
        let watch = Watch::new(py, n);
        let grid = grid_window(&shape, &origin, &step, &offset, &size)?;
        let first = self.first_window(shape.len());
        py.detach(|| fill_grid(source, &grid, out, first, &workers, watch))
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
        self.has_gradient()?;
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
        let watch = Watch::new(py, n);
        let grid = grid_window(&shape, &origin, &step, &offset, &size)?;
        // Derivatives take the f64 point path, some 8 times the work of
        // values per sample, with no preparation per window.
        let first = self.first_window(shape.len()) / 8;
        py.detach(|| fill_grid_grad(source, &grid, out, gs, first, &workers, watch))
    }
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
    let grid = grid_window(&shape, &origin, &step, &offset, &shape)?;
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
                Some(out) => source.fill_grid_par_dyn(&grid, out)?,
                None => {
                    let mut out = vec![0.0f32; n];
                    source.fill_grid_par_dyn(&grid, &mut out)?;
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
            source.fill([xs, ys, zs], &mut out)?;
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
    m.add_function(wrap_pyfunction!(simplex, m)?)?;
    m.add_function(wrap_pyfunction!(simplex_period, m)?)?;
    m.add_function(wrap_pyfunction!(fractal, m)?)?;
    m.add_function(wrap_pyfunction!(recipe, m)?)?;
    m.add_function(wrap_pyfunction!(available_levels, m)?)?;
    m.add_function(wrap_pyfunction!(detect_level, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_grid, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_fill3, m)?)?;
    m.add("WINDOW", WINDOW)?;
    Ok(())
}
