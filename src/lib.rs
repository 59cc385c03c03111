//! Perlin gradient noise ("improved noise", Ken Perlin 2002) in 1 to 4
//! dimensions, one point at a time or over slices with SIMD, with the same
//! bits on every CPU.
//!
//! ```
//! use noisefield::prelude::*;
//! use noisefield::{Level, Perlin};
//!
//! let perlin = Perlin::reference();
//! let v = perlin.noise([3.14, 42.0, 7.0]); // Ken's published value: 0.13691995878400012
//! assert!((v - 0.136_919_96).abs() < 1e-6);
//!
//! let xs: Vec<f32> = (0..1000).map(|i| i as f32 * 0.01).collect();
//! let (ys, zs) = (vec![0.5; 1000], vec![-2.25; 1000]);
//! let mut out = vec![0.0; 1000];
//! perlin.fill([&xs, &ys, &zs], &mut out)?;
//! assert_eq!(out[7].to_bits(), perlin.noise([xs[7], 0.5, -2.25]).to_bits());
//!
//! // Every level gives identical bits; only the speed differs.
//! for level in Level::available() {
//!     let mut other = vec![0.0; 1000];
//!     perlin.clone().with_level(level)?.fill([&xs, &ys, &zs], &mut other)?;
//!     assert!(other.iter().zip(&out).all(|(a, b)| a.to_bits() == b.to_bits()));
//! }
//! # Ok::<(), noisefield::Error>(())
//! ```
//!
//! # Semantics
//!
//! In the permutation mode ([`Perlin::reference`], [`Perlin::permuted`]); the
//! default coordinates mode ([`HashMode`]) has its own gradients and
//! bounds ([`Source::bounds`]), is 0 at lattice points too, and neither
//! repeats every 256 cells nor makes 2D a slice of 3D.
//!
//! - **3D** is Ken Perlin's `ImprovedNoise` evaluated in `f32`: with
//!   [`Perlin::reference`] it matches his `f64` Java code within 4e-6 for
//!   |coordinates| ≤ 1e4 (tested against published-algorithm values).
//! - **2D** is the `z = 0` slice of 3D: `noise([x, y]) == noise([x, y, 0.0])`
//!   as values (a zero's sign may differ).
//! - **1D** has slopes ±0.25, ±0.5, …, ±2 at the integers (never 0), chosen
//!   by `P[X] mod 16`.
//! - **4D** hashes through four permutation lookups and uses the 32 edge
//!   gradients of the hypercube, with the quintic fade.
//! - Every dimension is exactly 0 (±0) at every integer lattice point.
//! - **Range** (measured by search, tested in `suite/tests/semantics.rs`): |noise 1D| ≤ 1
//!   (reached between opposite ±2 slopes), |noise 2D| ≤ 1 (reached at cell
//!   centres), |noise 3D| ≤ 1.0363538 (reached with Ken's table; no table can
//!   exceed it), |noise 4D| ≤ 1.5366 for any table (1.3908 found with Ken's
//!   table, 1.4509 with seed 2).
//!
//! # Every input is defined
//!
//! - NaN or ±infinity in any coordinate gives NaN (always the canonical
//!   `f32::NAN` bit pattern).
//! - Finite values of any size are fine. The lattice repeats every 256 units
//!   (Ken's table), and the cell index is `floor(x) mod 256` computed exactly;
//!   from |x| ≥ 2²³ every `f32` is an integer, so such a coordinate sits on a
//!   lattice plane. Subnormals and ±0 behave as the small numbers they are.
//! - Batch calls take any length (0 included); mismatched lengths give
//!   [`Error::LengthMismatch`] and write nothing.
//!
//! # Grids, `f64` points, periodic noise
//!
//! - [`Grid1`]..[`Grid4`] describe uniform grids (`origin + i·step`, in `f64`);
//!   `fill_grid` fills one row-major (x fastest), `fill_grid_par` does it on
//!   the rayon pool in tiles of rows. A [`Grid::window`] keeps the parent's
//!   global sample indices, so any split of a grid into windows, filled in any
//!   order on any number of threads, concatenates to the whole, bit for bit.
//! - `fill_f64` takes `f64` coordinates: the lattice cell and the offset in
//!   it come from the `f64` value, so fields far from the origin (2⁴⁰ and
//!   beyond) are as smooth as at the origin. On `f32`-representable inputs
//!   they equal `fill` bit for bit.
//! - Grids with |x step| > 1/3 (3D: > 3/4, 4D: > 1/64) give exactly the bits of
//!   `fill_f64` on the same points. Finer grids (the common case) share
//!   work across samples: 2D and 3D grids whose x and y steps are at most
//!   ¼ go by bands of rows in one y cell, from per-column coefficients
//!   (Perlin within about 4e-7 of `fill_f64`, value noise its exact bits); other
//!   fine grids evaluate each row from per-plane coefficients (within
//!   1e-6, measured ≤ 3.6e-7). See `BENCHMARKS.md` for speeds. Every path
//!   is bit-identical across levels, threads and windows.
//! - [`Perlin::with_period`] makes every method periodic with any integer
//!   period per axis (the lattice wraps before hashing), for tileable
//!   textures and looping animation.
//!
//! ```
//! use noisefield::prelude::*;
//! use noisefield::{Grid2, Perlin};
//!
//! let tile = Perlin::new(7).with_period([8, 8, 256, 256])?;
//! let grid = Grid2::new([0.0, 0.0], [1.0 / 32.0; 2], [256, 256]); // 8 × 8 cells
//! let mut pixels = vec![0.0; 256 * 256];
//! tile.fill_grid_par(&grid, &mut pixels)?;
//! // Seamless: the column after the last one is column 0 again.
//! let next = Grid2::new([8.0, 0.0], [1.0 / 32.0; 2], [1, 256]);
//! let mut column = vec![0.0; 256];
//! tile.fill_grid(&next, &mut column)?;
//! for j in 0..256 {
//!     assert!((column[j] - pixels[j * 256]).abs() < 1e-6);
//! }
//! # Ok::<(), noisefield::Error>(())
//! ```
//!
//! # Sources, fractals, derivatives
//!
//! [`Perlin`] and [`Value`] (value noise) are lattice noises with a
//! choice of [`Fade`] curve; [`Simplex`] is Ken Perlin's simplex noise, in
//! 1 to [`MAX_SIMPLEX_DIMENSIONS`] dimensions (`D + 1` corners a point). [`Fbm`], [`Billow`], [`Ridged`], [`Turbulence`]
//! and [`Marble`] sum octaves of any source (and nest). All share the
//! [`Source`] interface (`noise`, `fill`, `fill_f64`, `fill_grid(_par)`,
//! `bounds`, `check`, each generic over the dimension; [`prelude`] imports
//! it); [`Perlin`], [`Value`], [`Fbm`] over a differentiable
//! source and the operators and [`Warp`] over differentiable inputs are also
//! [`Differentiable`] (`noise_grad`, `fill_grad`, …: the value with its
//! analytic gradient). Fractals keep every promise above: the same bits on
//! every level, thread count and window split.
//!
//! ```
//! use noisefield::prelude::*;
//! use noisefield::{Fbm, Perlin, Turbulence};
//!
//! let fbm = Fbm::new(Perlin::new(7)).octaves(5).normalize(true);
//! let v = fbm.noise([10.5, -3.25]);
//! assert!((-1.0..=1.0).contains(&v));
//! let (v2, [dx, dy]) = fbm.noise_grad([10.5, -3.25]);
//! assert_eq!(v.to_bits(), v2.to_bits());
//! assert!(dx != 0.0 || dy != 0.0);
//! assert!(Turbulence::new(Perlin::new(7)).persistence(f32::NAN).check().is_err());
//! ```
//!
//! # Same bits everywhere
//!
//! The scalar `noise` and the `fill` of every [`Level`] run one generic
//! kernel with one fixed order of IEEE operations and no FMA; tail points go
//! through the vector kernel on a padded block. Outputs are bit-identical
//! across levels, CPUs and slice lengths. See `ARCHITECTURE.md` and `docs/design.md`.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod error;
mod fade;
mod field;
mod grid;
mod hash_mode;
mod kernel;
mod level;
mod scratch;
mod simd;
mod source;
mod sources;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

pub use error::Error;
pub use kernel::{MAX_LATTICE_DIMENSIONS, MAX_SIMPLEX_DIMENSIONS};

/// The most dimensions a noise call takes (`noise([f32; D])` with a larger
/// `D` does not compile). [`Perlin`] and [`Value`] compute up to
/// [`MAX_LATTICE_DIMENSIONS`] (`2^D` corners per point), [`Simplex`] up to
/// [`MAX_SIMPLEX_DIMENSIONS`], this many (`D + 1`); a source asked for
/// more than it computes answers [`Error::InvalidDimension`].
pub const MAX_DIMENSIONS: usize = 32;
pub use fade::Fade;
pub use grid::{Grid, Grid1, Grid2, Grid3, Grid4, GridNd};
pub use hash_mode::{HashMode, ParseHashModeError};
pub use level::{Level, ParseLevelError};
pub use source::{Differentiable, Source};
pub use sources::custom::{Custom, CustomNoise};
pub use sources::dynamic::DynSource;
pub use sources::fractal::{Billow, Fbm, MAX_OCTAVES, Marble, Ridged, Turbulence};
#[cfg(feature = "noise")]
pub use sources::interop::NoiseFnSource;
pub use sources::ops::{Blend, Combine, MAX_CONTROL_POINTS, Map};
pub use sources::perlin::Perlin;
pub use sources::recipe::{
    EXCERPT_CHARS, MAX_RECIPE_COST, MAX_RECIPE_DEPTH, Recipe, RecipeDefaults, RecipeError,
};
pub use sources::simplex::Simplex;
pub use sources::value::Value;
pub use sources::warp::{MAX_WARP_ITERATIONS, Warp};

/// The traits whose methods every source has: `use noisefield::prelude::*;`
/// makes `perlin.fill([xs, ys], &mut out)` and `fbm.noise_grad([x, y])`
/// callable.
pub mod prelude {
    pub use crate::{Differentiable, Source};
}
