//! [`Simplex`]: Ken Perlin's simplex noise in 1 to 32 dimensions, on the
//! full-coordinate hash; its kernel is `kernel/simplex.rs`.

use crate::field::{
    self, Field, GradField, GradRequest, GridAxis, LaneArrays, LaneSlices, PointPack, Points,
    Request, Work,
};
use crate::kernel::{
    Dims, MAX_SIMPLEX_DIMENSIONS, Noise, SIMPLEX_BOUND, SimplexCoords, SimplexPack,
};
use crate::simd::Simd;
use crate::sources::dynamic::{run_erased, run_grad_erased};
use crate::sources::fractal::Fractal;
use crate::sources::perlin::SplitMix64;
use crate::{Error, Level};

/// Simplex noise: Ken Perlin's 2001 successor to his lattice noise, on the
/// skewed simplex lattice. A point in `D` dimensions blends `D + 1` corners
/// (Perlin noise blends `2^D`), each a gradient under a radially symmetric
/// falloff, so it scales to high dimensions: 1 to
/// [`MAX_SIMPLEX_DIMENSIONS`] (32) through the same methods as every
/// source (`noise([f32; D])`, `fill`, `fill_f64`, grids, derivatives).
///
/// - **Hash.** The corners are hashed by their 32-bit cells with the seed,
///   as [`crate::Perlin::new`] hashes its corners: no repetition within 2³²
///   cells on any axis.
/// - **Gradients.** Unit vectors in 2D (16 directions, (i + ½)·22.5°), 3D
///   (the cube's 6 edge directions, twice, and its 4 body diagonals, ±) and
///   4D (the tesseract's 32 edges); the hypercube's diagonals `(±1, …, ±1)`
///   in 1D and from 5D on. Every set has second moments proportional to
///   the identity, and the lattice is as symmetric (its symmetry group acts
///   irreducibly), so no direction is favoured: directional derivatives
///   have one variance along every axis and diagonal (the suite measures it
///   within 3% over 10⁶ points, 2D to 8D).
/// - **Falloff.** A corner at offset `d` adds `max(0, ½ − |d|²)⁴ · (g·d)`.
///   ½ is the squared altitude of the lattice's simplices in every
///   dimension, so value and gradient are continuous everywhere.
/// - **Bound.** Scaled per dimension so that the largest value, with every
///   corner's gradient aligned, is 1: `bounds(D)` is ±(1 + 10⁻⁵) (the
///   margin covers `f32` rounding). From 3D up one corner alone comes
///   within 1% of it, so the bound is reached (the suite finds it).
/// - **High dimensions are sparse.** A point's `D + 1` corners reach it
///   only within the falloff radius, and the simplices grow longer with
///   `D`: the share of space where the noise is exactly 0 is none up to
///   5D, 1.7% in 6D, 41% in 8D, 93% in 12D, 99.6% in 16D, and no sampled
///   point escapes it from 24D on. That is Ken's construction (a larger
///   radius would make the noise jump); for dense noise up to 16D use
///   [`crate::Perlin`].
/// - **Periods.** None: a skewed lattice does not tile an axis-aligned box,
///   and [`Simplex::with_period`] says so ([`Error::NotPeriodic`]).
/// - **Slices.** A 2D slice of 3D or 4D simplex noise (`z` fixed, the usual
///   terrain or animation use) has the same statistics along x and y. Its
///   gradients seen in the slice point along the axes as well as the
///   diagonals (diagonal gradients alone made the blobs of a slice pair up
///   along the diagonals, so 3D and 4D do not use them); the slice still
///   cuts the lattice obliquely, so it is not 2D simplex noise.
///   OpenSimplex2's rotated lattice for slices is not offered.
///
/// `fill_f64` (and grids, which are `fill_f64` at their sample positions)
/// skews in `f64`; `noise` and `fill` skew in `f32`. The two agree to
/// `f32` rounding but not bit for bit on the same `f32` points (a skewed
/// sum rounds differently); each is the same on every level, thread count,
/// grid window and CPU.
///
/// ```
/// use noisefield::prelude::*;
/// use noisefield::Simplex;
///
/// let s = Simplex::new(7);
/// let v = s.noise([0.3, 1.7, -2.2]);
/// assert!(v.abs() <= s.bounds(3).1);
/// // Seven dimensions cost eight corners a point.
/// let (w, grad) = s.noise_grad([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
/// assert!(w.is_finite() && grad.iter().all(|g| g.is_finite()));
/// assert!(s.with_period([8; 2]).is_err());
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct Simplex {
    seed: u64,
    key: u32,
    level: Level,
}

impl Simplex {
    /// Simplex noise of `seed`.
    pub fn new(seed: u64) -> Simplex {
        Simplex {
            seed,
            key: (SplitMix64(seed).next() >> 32) as u32,
            level: Level::detect(),
        }
    }

    /// The seed it was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The same noise, computed at `level` by the batch methods.
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(mut self, level: Level) -> Result<Simplex, Error> {
        if level.is_available() {
            self.level = level;
            Ok(self)
        } else {
            Err(Error::Unsupported(level))
        }
    }

    /// The level the batch methods run at ([`Level::detect`] unless set).
    pub fn level(&self) -> Level {
        self.level
    }

    /// Always [`Error::NotPeriodic`]: simplex noise cannot repeat along
    /// the axes (its skewed lattice does not tile an axis-aligned box). For
    /// tiles, use [`crate::Perlin`] or [`crate::Value`] with a period.
    pub fn with_period<const N: usize>(self, period: [u32; N]) -> Result<Simplex, Error> {
        let _ = period;
        Err(Error::NotPeriodic)
    }

    /// Points of `D` dimensions as the kernel's coordinates, and the pack.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pack<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        s: S,
        seed: S::UP,
        c: &C,
        grad: Option<&mut [S::F]>,
    ) -> S::F {
        let lanes;
        let vectors = c.f32_vectors();
        let coords = match &vectors {
            Some(v) => SimplexCoords::Vectors(v),
            None => {
                lanes = c.lane_arrays(s);
                match &lanes {
                    LaneArrays::F32(l) => SimplexCoords::Lanes32(l),
                    LaneArrays::F64(l) => SimplexCoords::Lanes64(l),
                }
            }
        };
        s.outlined(SimplexPack { seed, coords, grad })
    }
}

/// Per-lane copies as the kernel's coordinates.
fn lane_coords<S: Simd>(c: LaneSlices<'_>) -> SimplexCoords<'_, S> {
    match c {
        LaneSlices::F32(l) => SimplexCoords::Lanes32(l),
        LaneSlices::F64(l) => SimplexCoords::Lanes64(l),
    }
}

impl Field for Simplex {
    type Ready<'a, S: Simd>
        = S::UP
    where
        Self: 'a;
    type Plan = ();
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> S::UP {
        s.splat_u32(self.key)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &S::UP,
        s: S,
        c: &C,
        _period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        self.pack(s, *r, c, None)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(&self, r: &S::UP, s: S, c: LaneSlices<'_>, _period_scale: u64) -> S::F {
        s.outlined(SimplexPack {
            seed: *r,
            coords: lane_coords::<S>(c),
            grad: None,
        })
    }

    fn max_dimension(&self) -> usize {
        MAX_SIMPLEX_DIMENSIONS
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

    fn output_bounds(&self, _dimension: usize) -> (f32, f32) {
        (-SIMPLEX_BOUND, SIMPLEX_BOUND)
    }

    fn period(&self, _axis: usize, _scale: u64) -> Option<u64> {
        None
    }

    fn plan<const D: usize>(&self, _: &[GridAxis; D], _: u64)
    where
        Noise: Dims<D>,
    {
    }

    /// The grid's `f64` sample positions through the batch path
    /// (`fill_f64`'s bits).
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
            // The inputs and output were sized by the grid: nothing to refuse.
            let _ = run_erased(self, Work::Fill(Points::F64(inputs), out).into());
        });
    }

    /// `f32` batches in 2 and 3 dimensions (the common case) have
    /// drivers of their own; everything else (`f64` points, grids, other
    /// dimensions, derivatives) runs on the drivers compiled once for every
    /// run-time source (`dynamic::Erased`): one virtual call per kernel
    /// pack, and the pack's coordinates copied per lane. That costs 2D
    /// batches half their speed again (2.4 → 3.5 ns a point at `Avx2`), so
    /// the common case keeps its own; its own drivers for everything made
    /// the library 2% heavier.
    fn run(&self, req: Request<'_>) -> Result<(), Error> {
        match req {
            Request::D2(Work::Fill(Points::F32(inputs), out)) => field::fill(self, inputs, out),
            Request::D3(Work::Fill(Points::F32(inputs), out)) => field::fill(self, inputs, out),
            req => run_erased(self, req),
        }
    }

    /// Fractals over simplex noise run as fractals over a boxed source,
    /// whose drivers the library has anyway (recipes): a copy of them for
    /// `Fractal<Simplex>` made the library 1% heavier.
    fn run_fractal(f: &Fractal<Self>, req: Request<'_>) -> Result<(), Error> {
        f.over_dyn().run(req)
    }
}

impl GradField for Simplex {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &S::UP,
        s: S,
        c: &C,
        _period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        let mut grad = [s.splat(0.0); D];
        let v = self.pack(s, *r, c, Some(&mut grad));
        (v, grad)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        r: &S::UP,
        s: S,
        c: LaneSlices<'_>,
        _period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        s.outlined(SimplexPack {
            seed: *r,
            coords: lane_coords::<S>(c),
            grad: Some(grad),
        })
    }

    fn run_grad(&self, req: GradRequest<'_>) -> Result<(), Error> {
        run_grad_erased(self, req)
    }

    fn run_fractal_grad(f: &Fractal<Self>, req: GradRequest<'_>) -> Result<(), Error> {
        f.over_dyn().run_grad(req)
    }
}
