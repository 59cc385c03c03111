//! [`Source`], the interface every noise shares, and [`Differentiable`] for
//! sources with analytic derivatives.
//!
//! Both traits are implemented by the crate's types only (they are sealed
//! by a hidden kernel trait). Every type also has the methods as inherent
//! methods, so `perlin.fill3(..)` works without importing the traits; import
//! them to write code generic over sources.

use crate::field::{self, Field, GradField, GradWork, Points, Work};
use crate::grid::{Grid1, Grid2, Grid3, Grid4};
use crate::{Error, Level};

/// A noise source: one point at a time, batches of `f32` or `f64` points,
/// and uniform grids (one thread or the rayon pool), in 1 to 4 dimensions.
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
    /// 1D noise at `x`.
    fn noise1(&self, x: f32) -> f32 {
        field::point(self, [x])
    }
    /// 2D noise at `(x, y)`.
    fn noise2(&self, x: f32, y: f32) -> f32 {
        field::point(self, [x, y])
    }
    /// 3D noise at `(x, y, z)`.
    fn noise3(&self, x: f32, y: f32, z: f32) -> f32 {
        field::point(self, [x, y, z])
    }
    /// 4D noise at `(x, y, z, w)`.
    fn noise4(&self, x: f32, y: f32, z: f32, w: f32) -> f32 {
        field::point(self, [x, y, z, w])
    }
    /// `out[i] = noise1(xs[i])` for every `i`.
    fn fill1(&self, xs: &[f32], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F32([xs]), out).into())
    }
    /// `out[i] = noise2(xs[i], ys[i])` for every `i`.
    fn fill2(&self, xs: &[f32], ys: &[f32], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F32([xs, ys]), out).into())
    }
    /// `out[i] = noise3(xs[i], ys[i], zs[i])` for every `i`.
    fn fill3(&self, xs: &[f32], ys: &[f32], zs: &[f32], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F32([xs, ys, zs]), out).into())
    }
    /// `out[i] = noise4(xs[i], ys[i], zs[i], ws[i])` for every `i`.
    fn fill4(
        &self,
        xs: &[f32],
        ys: &[f32],
        zs: &[f32],
        ws: &[f32],
        out: &mut [f32],
    ) -> Result<(), Error> {
        self.run(Work::Fill(Points::F32([xs, ys, zs, ws]), out).into())
    }
    /// 1D noise at `f64` points: each lattice cell and the offset in it come
    /// from the `f64` value (exact far from the origin), the rest is `f32`.
    /// For a lattice noise and `f32`-representable inputs this equals
    /// [`Source::fill1`] bit for bit; fractals compute octave coordinates in
    /// `f64` here (in `f32` in `fill1`).
    fn fill1_f64(&self, xs: &[f64], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F64([xs]), out).into())
    }
    /// 2D noise at `f64` points; see [`Source::fill1_f64`].
    fn fill2_f64(&self, xs: &[f64], ys: &[f64], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F64([xs, ys]), out).into())
    }
    /// 3D noise at `f64` points; see [`Source::fill1_f64`].
    fn fill3_f64(&self, xs: &[f64], ys: &[f64], zs: &[f64], out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Fill(Points::F64([xs, ys, zs]), out).into())
    }
    /// 4D noise at `f64` points; see [`Source::fill1_f64`].
    fn fill4_f64(
        &self,
        xs: &[f64],
        ys: &[f64],
        zs: &[f64],
        ws: &[f64],
        out: &mut [f32],
    ) -> Result<(), Error> {
        self.run(Work::Fill(Points::F64([xs, ys, zs, ws]), out).into())
    }
    /// Noise at every sample of `grid`, one thread. `out.len()` must be the
    /// grid's sample count; layout: see [`crate::Grid`]. Grids whose x step
    /// is at most 1/3 (1D, 2D), 3/4 (3D) or 1/64 (4D) use the row path
    /// (each octave within 1e-6 of [`Source::fill1_f64`] on the same points;
    /// a fractal's fold carries that per-octave error, so its output is
    /// within 1e-6 times a per-combinator gain, stated in the README);
    /// coarser grids give exactly its bits.
    fn fill_grid1(&self, grid: &Grid1, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, false).into())
    }
    /// [`Source::fill_grid1`] on the rayon pool, in tiles of whole rows; the
    /// same bits whatever the number of threads.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid1_par(&self, grid: &Grid1, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, true).into())
    }
    /// Noise at every sample of a 2D grid; see [`Source::fill_grid1`].
    fn fill_grid2(&self, grid: &Grid2, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, false).into())
    }
    /// [`Source::fill_grid2`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid2_par(&self, grid: &Grid2, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, true).into())
    }
    /// Noise at every sample of a 3D grid; see [`Source::fill_grid1`].
    fn fill_grid3(&self, grid: &Grid3, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, false).into())
    }
    /// [`Source::fill_grid3`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid3_par(&self, grid: &Grid3, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, true).into())
    }
    /// Noise at every sample of a 4D grid; see [`Source::fill_grid1`].
    fn fill_grid4(&self, grid: &Grid4, out: &mut [f32]) -> Result<(), Error> {
        self.run(Work::Grid(grid, out, false).into())
    }
    /// [`Source::fill_grid4`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid4_par(&self, grid: &Grid4, out: &mut [f32]) -> Result<(), Error> {
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
    /// `dimension`-D noise (1..=4) at finite inputs.
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
    /// `(noise1(x), d/dx)`.
    fn noise1_grad(&self, x: f32) -> (f32, f32) {
        let (v, [d]) = field::point_grad(self, [x]);
        (v, d)
    }
    /// `(noise2(x, y), [d/dx, d/dy])`.
    fn noise2_grad(&self, x: f32, y: f32) -> (f32, [f32; 2]) {
        field::point_grad(self, [x, y])
    }
    /// `(noise3(x, y, z), [d/dx, d/dy, d/dz])`.
    fn noise3_grad(&self, x: f32, y: f32, z: f32) -> (f32, [f32; 3]) {
        field::point_grad(self, [x, y, z])
    }
    /// `(noise4(x, y, z, w), [d/dx, d/dy, d/dz, d/dw])`.
    fn noise4_grad(&self, x: f32, y: f32, z: f32, w: f32) -> (f32, [f32; 4]) {
        field::point_grad(self, [x, y, z, w])
    }
    /// Values into `out`, derivatives into `dx`, for every point.
    fn fill1_grad(&self, xs: &[f32], out: &mut [f32], dx: &mut [f32]) -> Result<(), Error> {
        self.run_grad(GradWork::Fill(Points::F32([xs]), out, [dx]).into())
    }
    /// Values into `out`, derivatives into `dx`, `dy`, for every point.
    fn fill2_grad(
        &self,
        xs: &[f32],
        ys: &[f32],
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Fill(Points::F32([xs, ys]), out, [dx, dy]).into())
    }
    /// Values into `out`, derivatives into `dx`, `dy`, `dz`, for every point.
    #[allow(clippy::too_many_arguments)]
    fn fill3_grad(
        &self,
        xs: &[f32],
        ys: &[f32],
        zs: &[f32],
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        dz: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Fill(Points::F32([xs, ys, zs]), out, [dx, dy, dz]).into())
    }
    /// Values into `out`, derivatives into `dx`, `dy`, `dz`, `dw`.
    #[allow(clippy::too_many_arguments)]
    fn fill4_grad(
        &self,
        xs: &[f32],
        ys: &[f32],
        zs: &[f32],
        ws: &[f32],
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        dz: &mut [f32],
        dw: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Fill(Points::F32([xs, ys, zs, ws]), out, [dx, dy, dz, dw]).into())
    }
    /// Values and derivatives at every sample of `grid` (same layout for
    /// every output), each sample exactly as [`Source::fill1_f64`] computes
    /// its point; derivatives are with respect to position (not index).
    fn fill_grid1_grad(&self, grid: &Grid1, out: &mut [f32], dx: &mut [f32]) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx], false).into())
    }
    /// [`Differentiable::fill_grid1_grad`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid1_grad_par(
        &self,
        grid: &Grid1,
        out: &mut [f32],
        dx: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx], true).into())
    }
    /// Values and derivatives over a 2D grid; see [`Differentiable::fill_grid1_grad`].
    fn fill_grid2_grad(
        &self,
        grid: &Grid2,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx, dy], false).into())
    }
    /// [`Differentiable::fill_grid2_grad`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid2_grad_par(
        &self,
        grid: &Grid2,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx, dy], true).into())
    }
    /// Values and derivatives over a 3D grid; see [`Differentiable::fill_grid1_grad`].
    fn fill_grid3_grad(
        &self,
        grid: &Grid3,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        dz: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx, dy, dz], false).into())
    }
    /// [`Differentiable::fill_grid3_grad`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    fn fill_grid3_grad_par(
        &self,
        grid: &Grid3,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        dz: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx, dy, dz], true).into())
    }
    /// Values and derivatives over a 4D grid; see [`Differentiable::fill_grid1_grad`].
    #[allow(clippy::too_many_arguments)]
    fn fill_grid4_grad(
        &self,
        grid: &Grid4,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        dz: &mut [f32],
        dw: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx, dy, dz, dw], false).into())
    }
    /// [`Differentiable::fill_grid4_grad`] on the rayon pool.
    ///
    /// Needs the `parallel` cargo feature (on by default).
    #[cfg(feature = "parallel")]
    #[allow(clippy::too_many_arguments)]
    fn fill_grid4_grad_par(
        &self,
        grid: &Grid4,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        dz: &mut [f32],
        dw: &mut [f32],
    ) -> Result<(), Error> {
        self.run_grad(GradWork::Grid(grid, out, [dx, dy, dz, dw], true).into())
    }
}

impl<F: Source + GradField> Differentiable for F {}

/// Inherent copies of every [`Source`] method on `$ty`, so they can be
/// called without importing the trait.
macro_rules! source_methods {
    (impl[$($g:tt)*] $ty:ty) => {
        /// The [`Source`](crate::Source) methods, callable without importing the trait.
        impl<$($g)*> $ty {
            /// 1D noise at `x`; see [`Source::noise1`](crate::Source::noise1).
            pub fn noise1(&self, x: f32) -> f32 {
                crate::Source::noise1(self, x)
            }
            /// 2D noise at `(x, y)`; see [`Source::noise2`](crate::Source::noise2).
            pub fn noise2(&self, x: f32, y: f32) -> f32 {
                crate::Source::noise2(self, x, y)
            }
            /// 3D noise at `(x, y, z)`; see [`Source::noise3`](crate::Source::noise3).
            pub fn noise3(&self, x: f32, y: f32, z: f32) -> f32 {
                crate::Source::noise3(self, x, y, z)
            }
            /// 4D noise at `(x, y, z, w)`; see [`Source::noise4`](crate::Source::noise4).
            pub fn noise4(&self, x: f32, y: f32, z: f32, w: f32) -> f32 {
                crate::Source::noise4(self, x, y, z, w)
            }
            /// See [`Source::fill1`](crate::Source::fill1).
            pub fn fill1(&self, xs: &[f32], out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill1(self, xs, out)
            }
            /// See [`Source::fill2`](crate::Source::fill2).
            pub fn fill2(&self, xs: &[f32], ys: &[f32], out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill2(self, xs, ys, out)
            }
            /// See [`Source::fill3`](crate::Source::fill3).
            pub fn fill3(
                &self,
                xs: &[f32],
                ys: &[f32],
                zs: &[f32],
                out: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Source::fill3(self, xs, ys, zs, out)
            }
            /// See [`Source::fill4`](crate::Source::fill4).
            pub fn fill4(
                &self,
                xs: &[f32],
                ys: &[f32],
                zs: &[f32],
                ws: &[f32],
                out: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Source::fill4(self, xs, ys, zs, ws, out)
            }
            /// See [`Source::fill1_f64`](crate::Source::fill1_f64).
            pub fn fill1_f64(&self, xs: &[f64], out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill1_f64(self, xs, out)
            }
            /// See [`Source::fill2_f64`](crate::Source::fill2_f64).
            pub fn fill2_f64(&self, xs: &[f64], ys: &[f64], out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill2_f64(self, xs, ys, out)
            }
            /// See [`Source::fill3_f64`](crate::Source::fill3_f64).
            pub fn fill3_f64(
                &self,
                xs: &[f64],
                ys: &[f64],
                zs: &[f64],
                out: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Source::fill3_f64(self, xs, ys, zs, out)
            }
            /// See [`Source::fill4_f64`](crate::Source::fill4_f64).
            pub fn fill4_f64(
                &self,
                xs: &[f64],
                ys: &[f64],
                zs: &[f64],
                ws: &[f64],
                out: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Source::fill4_f64(self, xs, ys, zs, ws, out)
            }
            /// See [`Source::fill_grid1`](crate::Source::fill_grid1).
            pub fn fill_grid1(&self, grid: &crate::Grid1, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid1(self, grid, out)
            }
            /// See [`Source::fill_grid1_par`](crate::Source::fill_grid1_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid1_par(&self, grid: &crate::Grid1, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid1_par(self, grid, out)
            }
            /// See [`Source::fill_grid2`](crate::Source::fill_grid2).
            pub fn fill_grid2(&self, grid: &crate::Grid2, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid2(self, grid, out)
            }
            /// See [`Source::fill_grid2_par`](crate::Source::fill_grid2_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid2_par(&self, grid: &crate::Grid2, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid2_par(self, grid, out)
            }
            /// See [`Source::fill_grid3`](crate::Source::fill_grid3).
            pub fn fill_grid3(&self, grid: &crate::Grid3, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid3(self, grid, out)
            }
            /// See [`Source::fill_grid3_par`](crate::Source::fill_grid3_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid3_par(&self, grid: &crate::Grid3, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid3_par(self, grid, out)
            }
            /// See [`Source::fill_grid4`](crate::Source::fill_grid4).
            pub fn fill_grid4(&self, grid: &crate::Grid4, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid4(self, grid, out)
            }
            /// See [`Source::fill_grid4_par`](crate::Source::fill_grid4_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid4_par(&self, grid: &crate::Grid4, out: &mut [f32]) -> Result<(), crate::Error> {
                crate::Source::fill_grid4_par(self, grid, out)
            }
            /// See [`Source::check`](crate::Source::check).
            pub fn check(&self) -> Result<(), crate::Error> {
                crate::Source::check(self)
            }
            /// See [`Source::bounds`](crate::Source::bounds).
            pub fn bounds(&self, dimension: usize) -> (f32, f32) {
                crate::Source::bounds(self, dimension)
            }
        }
    };
}
pub(crate) use source_methods;

/// Inherent copies of every [`Differentiable`] method on `$ty`.
macro_rules! gradient_methods {
    (impl[$($g:tt)*] $ty:ty) => {
        /// The [`Differentiable`](crate::Differentiable) methods, callable without importing the trait.
        impl<$($g)*> $ty {
            /// See [`Differentiable::noise1_grad`](crate::Differentiable::noise1_grad).
            pub fn noise1_grad(&self, x: f32) -> (f32, f32) {
                crate::Differentiable::noise1_grad(self, x)
            }
            /// See [`Differentiable::noise2_grad`](crate::Differentiable::noise2_grad).
            pub fn noise2_grad(&self, x: f32, y: f32) -> (f32, [f32; 2]) {
                crate::Differentiable::noise2_grad(self, x, y)
            }
            /// See [`Differentiable::noise3_grad`](crate::Differentiable::noise3_grad).
            pub fn noise3_grad(&self, x: f32, y: f32, z: f32) -> (f32, [f32; 3]) {
                crate::Differentiable::noise3_grad(self, x, y, z)
            }
            /// See [`Differentiable::noise4_grad`](crate::Differentiable::noise4_grad).
            pub fn noise4_grad(&self, x: f32, y: f32, z: f32, w: f32) -> (f32, [f32; 4]) {
                crate::Differentiable::noise4_grad(self, x, y, z, w)
            }
            /// See [`Differentiable::fill1_grad`](crate::Differentiable::fill1_grad).
            pub fn fill1_grad(&self, xs: &[f32], out: &mut [f32], dx: &mut [f32]) -> Result<(), crate::Error> {
                crate::Differentiable::fill1_grad(self, xs, out, dx)
            }
            /// See [`Differentiable::fill2_grad`](crate::Differentiable::fill2_grad).
            pub fn fill2_grad(
                &self,
                xs: &[f32],
                ys: &[f32],
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill2_grad(self, xs, ys, out, dx, dy)
            }
            /// See [`Differentiable::fill3_grad`](crate::Differentiable::fill3_grad).
            #[allow(clippy::too_many_arguments)]
            pub fn fill3_grad(
                &self,
                xs: &[f32],
                ys: &[f32],
                zs: &[f32],
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
                dz: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill3_grad(self, xs, ys, zs, out, dx, dy, dz)
            }
            /// See [`Differentiable::fill4_grad`](crate::Differentiable::fill4_grad).
            #[allow(clippy::too_many_arguments)]
            pub fn fill4_grad(
                &self,
                xs: &[f32],
                ys: &[f32],
                zs: &[f32],
                ws: &[f32],
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
                dz: &mut [f32],
                dw: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill4_grad(self, xs, ys, zs, ws, out, dx, dy, dz, dw)
            }
            /// See [`Differentiable::fill_grid1_grad`](crate::Differentiable::fill_grid1_grad).
            pub fn fill_grid1_grad(
                &self,
                grid: &crate::Grid1,
                out: &mut [f32],
                dx: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid1_grad(self, grid, out, dx)
            }
            /// See [`Differentiable::fill_grid2_grad`](crate::Differentiable::fill_grid2_grad).
            pub fn fill_grid2_grad(
                &self,
                grid: &crate::Grid2,
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid2_grad(self, grid, out, dx, dy)
            }
            /// See [`Differentiable::fill_grid3_grad`](crate::Differentiable::fill_grid3_grad).
            pub fn fill_grid3_grad(
                &self,
                grid: &crate::Grid3,
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
                dz: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid3_grad(self, grid, out, dx, dy, dz)
            }
            /// See [`Differentiable::fill_grid4_grad`](crate::Differentiable::fill_grid4_grad).
            #[allow(clippy::too_many_arguments)]
            pub fn fill_grid4_grad(
                &self,
                grid: &crate::Grid4,
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
                dz: &mut [f32],
                dw: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid4_grad(self, grid, out, dx, dy, dz, dw)
            }
            /// See [`Differentiable::fill_grid1_grad_par`](crate::Differentiable::fill_grid1_grad_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid1_grad_par(
                &self,
                grid: &crate::Grid1,
                out: &mut [f32],
                dx: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid1_grad_par(self, grid, out, dx)
            }
            /// See [`Differentiable::fill_grid2_grad_par`](crate::Differentiable::fill_grid2_grad_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid2_grad_par(
                &self,
                grid: &crate::Grid2,
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid2_grad_par(self, grid, out, dx, dy)
            }
            /// See [`Differentiable::fill_grid3_grad_par`](crate::Differentiable::fill_grid3_grad_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            pub fn fill_grid3_grad_par(
                &self,
                grid: &crate::Grid3,
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
                dz: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid3_grad_par(self, grid, out, dx, dy, dz)
            }
            /// See [`Differentiable::fill_grid4_grad_par`](crate::Differentiable::fill_grid4_grad_par).
            ///
            /// Needs the `parallel` cargo feature (on by default).
            #[cfg(feature = "parallel")]
            #[allow(clippy::too_many_arguments)]
            pub fn fill_grid4_grad_par(
                &self,
                grid: &crate::Grid4,
                out: &mut [f32],
                dx: &mut [f32],
                dy: &mut [f32],
                dz: &mut [f32],
                dw: &mut [f32],
            ) -> Result<(), crate::Error> {
                crate::Differentiable::fill_grid4_grad_par(self, grid, out, dx, dy, dz, dw)
            }
        }
    };
}
pub(crate) use gradient_methods;
