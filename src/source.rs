//! [`Source`], the interface every noise shares, and [`Differentiable`] for
//! sources with analytic derivatives.
//!
//! Both traits are implemented by the crate's types only (they are sealed
//! by a hidden kernel trait). Their methods are generic over the dimension
//! `D`; `use noisefield::prelude::*` brings them into scope.

use crate::field::{self, Dimension, Field, GradField, GradWork, Points, Work, cast};
use crate::grid::Grid;
use crate::{Error, Level};

/// A noise source: one point at a time, batches of `f32` or `f64` points,
/// and uniform grids (one thread or the rayon pool), in 1 to
/// [`crate::MAX_DIMENSIONS`] dimensions: [`crate::Perlin`] and
/// [`crate::Value`] (full-coordinate hash) and fractals over them compute
/// up to [`crate::MAX_LATTICE_DIMENSIONS`], everything else 1 to 4; a call
/// in more dimensions than a source computes is
/// [`Error::InvalidDimension`] (NaN from the one-point methods).
///
/// In 5 dimensions and more the dimension is a run-time value inside the
/// crate: one kernel per level serves every `D` (`2^D` corners per point),
/// grids are filled point by point (each sample as [`Source::fill_f64`]
/// computes its position), and derivatives are not computed yet.
///
/// Implemented by [`crate::Perlin`], [`crate::Value`] and the fractal
/// combinators over any source ([`crate::Fbm`], [`crate::Billow`],
/// [`crate::Ridged`], [`crate::Turbulence`], [`crate::Marble`]).
///
/// Every method gives the same bits at every [`Level`], on every CPU, for
/// every thread count and every window split of a grid. Batch methods check
/// their arguments first and write nothing when they return `Err`:
/// [`Error::LengthMismatch`] for slices of different lengths, the grid
/// errors for grids, and a combinator's own parameter error (see
/// [`Source::check`]). The one-point methods cannot fail: an invalid
/// combinator gives NaN.
pub trait Source: Field {
    /// The noise at one point `p` in `D` dimensions (1 to
    /// [`crate::MAX_DIMENSIONS`]; another `D` does not compile). Gives the
    /// bits of [`Source::fill`] at that point.
    ///
    /// ```
    /// use noisefield::{Perlin, prelude::*};
    /// let ken = Perlin::reference(); // 2D is the z = 0 slice of 3D in Ken's mode
    /// assert_eq!(ken.noise([0.5, 0.25]), ken.noise([0.5, 0.25, 0.0]));
    /// ```
    ///
    /// A dimension the crate does not compute is refused when the program
    /// is built, not when it runs:
    ///
    /// ```compile_fail
    /// use noisefield::{Perlin, prelude::*};
    /// let v = Perlin::new(1).noise([0.5f32; 33]);
    /// ```
    ///
    /// Six dimensions, e.g. a 3D volume that loops in time on a torus
    /// (two circles' coordinates) plus one more parameter:
    ///
    /// ```
    /// use noisefield::{Perlin, prelude::*};
    /// let p = Perlin::new(7);
    /// let v = p.noise([0.5, 1.25, 2.0, 0.3, -0.7, 4.5]);
    /// assert!(v.abs() <= p.bounds(6).1);
    /// assert!(Perlin::reference().noise([0.5; 6]).is_nan()); // Ken's mode: 1D–4D
    /// ```
    fn noise<const D: usize>(&self, p: [f32; D]) -> f32 {
        let () = Dimension::<D>::COMPUTED;
        match D {
            1 => field::point(self, cast::<_, D, 1>(p)),
            2 => field::point(self, cast::<_, D, 2>(p)),
            3 => field::point(self, cast::<_, D, 3>(p)),
            4 => field::point(self, cast::<_, D, 4>(p)),
            _ => field::point_nd(self, &p),
        }
    }
    /// `out[i]` = the noise at point `i`, whose coordinate on axis `a` is
    /// `coords[a][i]`: `fill([xs, ys, zs], out)` in 3D. Every slice must
    /// have `out.len()` elements ([`Error::LengthMismatch`] otherwise).
    fn fill<const D: usize>(&self, coords: [&[f32]; D], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F32(coords), out).into())
    }
    /// [`Source::fill`] at `f64` points: each lattice cell and the offset in
    /// it come from the `f64` value (exact far from the origin), the rest is
    /// `f32`. For a lattice noise and `f32`-representable inputs this equals
    /// [`Source::fill`] bit for bit; fractals compute octave coordinates in
    /// `f64` here (in `f32` in `fill`).
    fn fill_f64<const D: usize>(&self, coords: [&[f64]; D], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F64(coords), out).into())
    }
    /// The noise at every sample of `grid`, one thread. `out.len()` must be
    /// the grid's sample count; layout: see [`crate::Grid`]. 2D and 3D
    /// grids whose x and y steps are at most ¼ go by bands of rows (Perlin
    /// within 4e-7 of [`Source::fill_f64`] on the same points in the tests,
    /// 4.17e-7 the worst of 10⁹ samples; value noise its exact bits); other grids whose x step is at most 1/3 (1D, 2D),
    /// 3/4 (3D) or 1/64 (4D) use the row path (within 1e-6). A fractal's
    /// fold carries that per-octave error, so its output is within the
    /// bound times a per-combinator gain, stated in the README; coarser
    /// grids give exactly `fill_f64`'s bits. Every path gives the same bits
    /// at every level, thread count and window split.
    fn fill_grid<const D: usize>(&self, grid: &Grid<D>, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, false).into())
    }
    /// [`Source::fill_grid`] on the rayon pool, in tiles of whole rows; the
    /// same bits whatever the number of threads.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid_par<const D: usize>(&self, grid: &Grid<D>, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, true).into())
    }
    /// The SIMD level the batch methods run at.
    fn level(&self) -> Level {
        self.run_level()
    }
    /// `Err` if the source's parameters are invalid (a fractal's octaves
    /// outside 1..=32, a non-finite parameter, a non-integer lacunarity over
    /// a periodic source); every batch method then returns this error.
    fn check(&self) -> Result<(), Error> {
        self.validate()
    }
    /// An interval `(lo, hi)` that contains every output of the
    /// `dimension`-D noise at finite inputs (1 to the dimensions the source
    /// computes).
    fn bounds(&self, dimension: usize) -> (f32, f32) {
        self.output_bounds(dimension)
    }
}

impl<F: Field> Source for F {}

/// A source with analytic derivatives: the value and its gradient
/// together. The value is bit-identical to [`Source`]'s; the derivatives
/// are exact derivatives of the computed field (up to `f32` rounding).
/// Implemented by [`crate::Perlin`], [`crate::Value`], [`crate::Fbm`] over
/// a differentiable source, and the operators and the warp over
/// differentiable inputs ([`crate::Map`], [`crate::Combine`],
/// [`crate::Blend`], [`crate::Warp`]; their conventions at kinks — `abs` at
/// 0, clamp ends, terrace and curve control points, `min`/`max` ties,
/// clamped blend weights — are in [`crate::Map`]'s docs).
///
/// At a cell face where the fade curve's derivative jumps
/// ([`crate::Fade::Linear`]) the derivative is the one of the cell the
/// point belongs to (the cell is `floor(c)`).
pub trait Differentiable: Source + GradField {
    /// `(noise(p), [d/dx, d/dy, …])`: the value and its `D` derivatives.
    fn noise_grad<const D: usize>(&self, p: [f32; D]) -> (f32, [f32; D]) {
        let () = Dimension::<D>::COMPUTED;
        match D {
            1 => unsplit(field::point_grad(self, cast::<_, D, 1>(p))),
            2 => unsplit(field::point_grad(self, cast::<_, D, 2>(p))),
            3 => unsplit(field::point_grad(self, cast::<_, D, 3>(p))),
            4 => unsplit(field::point_grad(self, cast::<_, D, 4>(p))),
            _ => {
                let mut d = [0.0; D];
                (field::point_grad_nd(self, &p, &mut d), d)
            }
        }
    }
    /// Values into `out` and the derivative along axis `a` into `grad[a]`,
    /// for every point (as [`Source::fill`]); every slice must have
    /// `out.len()` elements.
    fn fill_grad<const D: usize>(
        &self,
        coords: [&[f32]; D],
        out: &mut [f32],
        grad: [&mut [f32]; D],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Fill(Points::F32(coords), out, grad).into())
    }
    /// Values and derivatives at every sample of `grid` (same layout for
    /// every output), each sample exactly as [`Source::fill_f64`] computes
    /// its point; derivatives are with respect to position (not index).
    fn fill_grid_grad<const D: usize>(
        &self,
        grid: &Grid<D>,
        out: &mut [f32],
        grad: [&mut [f32]; D],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, grad, false).into())
    }
    /// [`Differentiable::fill_grid_grad`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid_grad_par<const D: usize>(
        &self,
        grid: &Grid<D>,
        out: &mut [f32],
        grad: [&mut [f32]; D],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, grad, true).into())
    }
}

impl<F: Source + GradField> Differentiable for F {}

/// A value and gradient of dimension `E` as one of dimension `D` (`D == E`).
fn unsplit<const E: usize, const D: usize>((v, d): (f32, [f32; E])) -> (f32, [f32; D]) {
    (v, cast(d))
}
