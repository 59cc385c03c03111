//! [`Custom`]: a user's own noise ([`CustomNoise`]) as a source, so it
//! joins every combinator (fractals, operators, warps) and every method
//! (points, batches, grids, threads).
//!
//! The user's code is called with batches of `f64` points and fills a
//! batch of outputs; it runs in plain Rust (no SIMD needed):
//!
//! ```text
//! batch (fill, fill_f64)  →  fill(points, out) in calls of ≤ 4096 points
//! grid                      →  fill at the grid's f64 sample positions, whole rows per call
//! inside a combinator       →  fill once per kernel pack (LANES points of the pack's level)
//! every output              →  NaN made the canonical f32::NAN
//! ```
//!
//! The batches a call is cut into depend on the level (a kernel pack is 1
//! to 64 points), the thread count and the window split, so a noise whose
//! output at a point depends only on that point gives the same bits on
//! every level, thread and window: the promise every crate source keeps.

use crate::error::check_lengths;
use crate::field::{
    self, Field, GridAxis, LaneSlices, PointPack, Points, Request, Work, canonical,
};
use crate::kernel::{Dims, Noise};
use crate::simd::{MAX_LANES, Simd};
use crate::{Error, Level};

/// Most points one call of [`CustomNoise::fill`] receives from a batch or
/// grid call (a kernel pack is at most 64).
const BATCH: usize = 4096;

/// A user's own noise function, to be used as a source through [`Custom`].
///
/// Implement [`CustomNoise::fill`] (a batch of points in, a batch of values
/// out) and [`CustomNoise::bounds`]; `Custom::new(my_noise)` is then a
/// [`crate::Source`] like `Perlin`: every combinator takes it ([`crate::Fbm`],
/// [`crate::Ridged`], …, [`crate::Map`], [`crate::Combine`],
/// [`crate::Blend`], [`crate::Warp`]), and it has every method (`noise`,
/// `fill`, `fill_f64`, `fill_grid_par`, …). Plain scalar code is fine: the
/// crate's SIMD runs around it.
///
/// # Contract
///
/// - **Deterministic, point by point.** `out[i]` must depend only on the
///   point `i` (its coordinates and the dimension), never on the other
///   points of the batch, on `i`, on the batch size, on earlier calls or on
///   the thread. The crate cuts work into batches differently on each SIMD
///   level (a kernel pack is 1 to 64 points), thread count and grid window,
///   and pads a partial kernel pack with points at the origin; a noise that
///   keeps this contract gives the same bits everywhere, as the crate's own
///   sources do. (Avoid reading global state, randomness, or anything that
///   changes between calls.)
/// - **Batch sizes.** `fill` is called with 1 to 4096 points. Batch and grid
///   calls of a [`Custom`] pass up to 4096 points per call; inside a
///   combinator (a fractal, an operator, a warp) it is called once per
///   kernel pack, with the pack's 1 to 64 points.
/// - **Every input.** Coordinates may be any `f64`: NaN, ±infinity (a
///   user's NaN or infinite input), and huge finite values (fractal octaves
///   scale coordinates, clamped to the finite range). `fill` must not
///   panic on them; giving NaN for a non-finite coordinate matches the
///   crate's sources.
/// - **Every output.** `fill` must write every `out[i]` (its prior contents
///   are unspecified). Any NaN it writes is replaced by the canonical
///   `f32::NAN`.
/// - **Threads.** `fill` may run on several threads at once (the `_par`
///   grid methods, or the user's own threads), hence `Send + Sync`.
///
/// # Precision
///
/// The points are `f64`: `fill_f64` and grids pass their `f64` coordinates
/// as they are; `noise`, `fill` and combinators evaluated in `f32` pass
/// `f32` coordinates widened exactly to `f64`. So a [`Custom`]'s `fill` and
/// `fill_f64` agree bit for bit on `f32`-representable inputs, and a grid
/// equals `fill_f64` at its sample positions (there is no separate row
/// path).
///
/// ```
/// use noisefield::{Custom, CustomNoise, Fbm, Source};
///
/// /// Concentric rings around the origin (any dimension).
/// #[derive(Clone, Debug)]
/// struct Rings {
///     spacing: f64,
/// }
///
/// impl CustomNoise for Rings {
///     fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
///         for (i, v) in out.iter_mut().enumerate() {
///             let r2: f64 = points.iter().map(|axis| axis[i] * axis[i]).sum();
///             *v = (r2.sqrt() / self.spacing).cos() as f32;
///         }
///     }
///     fn bounds(&self, _dimension: usize) -> (f32, f32) {
///         (-1.0, 1.0)
///     }
/// }
///
/// let rings = Custom::new(Rings { spacing: 0.5 });
/// assert_eq!(rings.noise([0.0, 0.0]), 1.0);
/// // Under a fractal like any source.
/// let rough = Fbm::new(rings).octaves(3);
/// let mut out = vec![0.0; 3];
/// rough.fill([&[0.1, 0.2, 0.3], &[1.0, 2.0, 3.0]], &mut out)?;
/// let (lo, hi) = rough.bounds(2);
/// assert!(out.iter().all(|v| (lo..=hi).contains(v)));
/// # Ok::<(), noisefield::Error>(())
/// ```
pub trait CustomNoise: Clone + Send + Sync + std::fmt::Debug {
    /// `out[i]` = the noise at the point whose coordinate on axis `a` is
    /// `points[a][i]`; `points.len()` is the dimension (1 to
    /// [`CustomNoise::max_dimension`]), every slice has `out.len()` entries
    /// (1 to 4096). See the trait's contract.
    fn fill(&self, points: &[&[f64]], out: &mut [f32]);
    /// An interval `(lo, hi)` containing every output in `dimension` D
    /// (1 to [`CustomNoise::max_dimension`]) at finite inputs. Combinators
    /// derive their own bounds from it ([`crate::Source::bounds`],
    /// `normalize`), so it must hold.
    fn bounds(&self, dimension: usize) -> (f32, f32);
    /// The most dimensions `fill` computes: 4 unless the noise says more
    /// (up to [`crate::MAX_DIMENSIONS`]; a call of more is
    /// [`crate::Error::InvalidDimension`] before `fill` is called). In 5
    /// dimensions and more `fill` is called once per kernel pack (32 points
    /// at `Avx2`) rather than per 4096 points.
    fn max_dimension(&self) -> usize {
        4
    }
}

/// A [`CustomNoise`] as a noisefield source: it joins every combinator
/// ([`crate::Fbm`], [`crate::Billow`], [`crate::Ridged`],
/// [`crate::Turbulence`], [`crate::Marble`], [`crate::Map`],
/// [`crate::Combine`], [`crate::Blend`], [`crate::Warp`]) and has every
/// [`crate::Source`] method.
///
/// - `noise`, `fill` (and `f32` combinators): the noise at the `f32`
///   coordinates widened to `f64`; `fill_f64`: at the `f64` coordinates.
///   The two agree bit for bit where the `f64` inputs are `f32` values, and
///   differ (legitimately) only by the coordinates given otherwise.
/// - Grids: exactly `fill_f64` at the grid's sample positions.
/// - Every level, thread count and window split gives the same bits,
///   provided the noise keeps [`CustomNoise`]'s contract (each output a
///   function of its point alone).
/// - [`crate::Source::bounds`] is the noise's own; no periods (a fractal
///   over it does not tile); parameters are always valid.
#[derive(Clone, Debug)]
pub struct Custom<U> {
    noise: U,
    level: Level,
}

impl<U: CustomNoise> Custom<U> {
    /// `noise` as a source, at the best level of this CPU (the level only
    /// matters to combinators over it: the user's code is plain Rust).
    pub fn new(noise: U) -> Custom<U> {
        Custom {
            noise,
            level: Level::detect(),
        }
    }

    /// The user's noise (named `inner`: `noise` is [`Source::noise`](crate::Source::noise)).
    pub fn inner(&self) -> &U {
        &self.noise
    }

    /// The same source at `level`.
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(self, level: Level) -> Result<Custom<U>, Error> {
        field::at_level(self, level)
    }

    /// `out[i]` = the noise at point `i` of `inputs`, in calls of at most
    /// [`BATCH`] points, NaN made canonical.
    fn fill_points<const D: usize>(&self, inputs: [&[f64]; D], out: &mut [f32]) {
        for (k, out) in out.chunks_mut(BATCH).enumerate() {
            let at = k * BATCH;
            let points: [&[f64]; D] = std::array::from_fn(|a| &inputs[a][at..at + out.len()]);
            self.noise.fill(&points, out);
            canonical_all(out);
        }
    }

    /// [`Custom::fill_points`] at `f32` points widened to `f64`.
    fn fill_widened<const D: usize>(&self, inputs: [&[f32]; D], out: &mut [f32]) {
        let n = out.len().min(BATCH);
        let mut wide: [Vec<f64>; D] = std::array::from_fn(|_| vec![0.0; n]);
        for (k, out) in out.chunks_mut(BATCH).enumerate() {
            let at = k * BATCH;
            for (w, input) in wide.iter_mut().zip(&inputs) {
                for (w, &v) in w.iter_mut().zip(&input[at..at + out.len()]) {
                    *w = f64::from(v);
                }
            }
            let points: [&[f64]; D] = std::array::from_fn(|a| &wide[a][..out.len()]);
            self.noise.fill(&points, out);
            canonical_all(out);
        }
    }

    /// One batch call in `D` dimensions.
    fn work<const D: usize>(&self, w: Work<'_, D>) -> Result<(), Error>
    where
        Noise: Dims<D>,
    {
        match w {
            Work::Fill(Points::F32(inputs), out) => {
                check_lengths(&inputs, out)?;
                self.fill_widened(inputs, out);
                Ok(())
            }
            Work::Fill(Points::F64(inputs), out) => {
                check_lengths(&inputs, out)?;
                self.fill_points(inputs, out);
                Ok(())
            }
            Work::Grid(grid, out, parallel) => field::fill_grid(self, grid, out, parallel),
        }
    }
}

/// Every NaN in `out` replaced by the canonical `f32::NAN` (what
/// [`canonical`] does to a kernel pack).
fn canonical_all(out: &mut [f32]) {
    for v in out {
        if v.is_nan() {
            *v = f32::NAN;
        }
    }
}

impl<U: CustomNoise> Field for Custom<U> {
    type Ready<'a, S: Simd>
        = ()
    where
        Self: 'a;
    type Plan = ();
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, _: S) {}

    /// One call of the user's `fill` for the pack's `S::LANES` points
    /// (padding lanes are points at the origin; their outputs are dropped).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        _: &(),
        s: S,
        c: &C,
        _period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        let lanes = c.lanes_f64(s);
        let mut points: [&[f64]; D] = [&[]; D];
        for (p, lanes) in points.iter_mut().zip(&lanes) {
            *p = &lanes[..S::LANES];
        }
        let mut out = [0.0f32; MAX_LANES];
        self.noise.fill(&points, &mut out[..S::LANES]);
        canonical(s, s.load(&out[..S::LANES]))
    }

    fn run_level(&self) -> Level {
        self.level
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    fn validate(&self) -> Result<(), Error> {
        Ok(())
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        self.noise.bounds(dimension)
    }

    /// A user's noise has no periods the crate knows of.
    fn period(&self, _: usize, _: u64) -> Option<u64> {
        None
    }

    fn plan<const D: usize>(&self, _: &[GridAxis; D], _: u64)
    where
        Noise: Dims<D>,
    {
    }

    /// The grid's `f64` sample positions, whole rows per pass, through
    /// the batch path (`fill_f64`'s bits).
    fn fill_rows<const D: usize>(
        &self,
        _: &(),
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        _streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        field::by_row_points(axes, first_row, out, |inputs, out| {
            self.fill_points(inputs, out)
        });
    }

    /// Batches call the user's `fill` in chunks of up to 4096 points (not
    /// once per kernel pack); grids go through `fill_rows`.
    fn run_fractal(
        f: &crate::sources::fractal::Fractal<Self>,
        req: Request<'_>,
    ) -> Result<(), Error> {
        crate::sources::dynamic::run_erased(f, req)
    }

    fn run(&self, req: Request<'_>) -> Result<(), Error> {
        match req {
            Request::D1(w) => self.work(w),
            Request::D2(w) => self.work(w),
            Request::D3(w) => self.work(w),
            Request::D4(w) => self.work(w),
            // Pack by pack ([`Field::eval_nd`]), on the erased drivers.
            req @ Request::Nd(_) => crate::sources::dynamic::run_erased(self, req),
        }
    }

    /// One call of the user's `fill` for the pack's `S::LANES` points in
    /// `f64` (`f32` lanes widened exactly).
    fn eval_nd<S: Simd>(&self, _: &(), s: S, c: LaneSlices<'_>, _period_scale: u64) -> S::F {
        let lanes: Vec<[f64; MAX_LANES]> = c.to_f64();
        let points: Vec<&[f64]> = lanes.iter().map(|a| &a[..S::LANES]).collect();
        let mut out = [0.0f32; MAX_LANES];
        self.noise.fill(&points, &mut out[..S::LANES]);
        canonical(s, s.load(&out[..S::LANES]))
    }

    fn max_dimension(&self) -> usize {
        self.noise.max_dimension().clamp(1, crate::MAX_DIMENSIONS)
    }
}
