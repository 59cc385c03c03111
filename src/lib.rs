//! Perlin gradient noise ("improved noise", Ken Perlin 2002) in 1 to 4
//! dimensions, one point at a time or over slices with SIMD, with the same
//! bits on every CPU.
//!
//! ```
//! use noisefield::{Level, Perlin};
//!
//! let perlin = Perlin::reference();
//! let v = perlin.noise3(3.14, 42.0, 7.0); // Ken's published value: 0.13691995878400012
//! assert!((v - 0.136_919_96).abs() < 1e-6);
//!
//! let xs: Vec<f32> = (0..1000).map(|i| i as f32 * 0.01).collect();
//! let (ys, zs) = (vec![0.5; 1000], vec![-2.25; 1000]);
//! let mut out = vec![0.0; 1000];
//! perlin.fill3(&xs, &ys, &zs, &mut out)?;
//! assert_eq!(out[7].to_bits(), perlin.noise3(xs[7], 0.5, -2.25).to_bits());
//!
//! // Every level gives identical bits; only the speed differs.
//! for level in Level::available() {
//!     let mut other = vec![0.0; 1000];
//!     perlin.clone().with_level(level)?.fill3(&xs, &ys, &zs, &mut other)?;
//!     assert!(other.iter().zip(&out).all(|(a, b)| a.to_bits() == b.to_bits()));
//! }
//! # Ok::<(), noisefield::Error>(())
//! ```
//!
//! # Semantics
//!
//! - **3D** is Ken Perlin's `ImprovedNoise` evaluated in `f32`: with
//!   [`Perlin::reference`] it matches his `f64` Java code within 4e-6 for
//!   |coordinates| ≤ 1e4 (tested against published-algorithm values).
//! - **2D** is the `z = 0` slice of 3D: `noise2(x, y) == noise3(x, y, 0.0)`
//!   as values (a zero's sign may differ).
//! - **1D** has slopes ±0.25, ±0.5, …, ±2 at the integers (never 0), chosen
//!   by `P[X] mod 16`.
//! - **4D** hashes through four permutation steps and uses the 32 edge
//!   gradients of the hypercube, with the quintic fade.
//! - Every dimension is exactly 0 (±0) at every integer lattice point.
//! - **Range** (measured; see `README.md`): 1D is within [-1, 1] (the bound is
//!   reached), 2D within about ±1.0, 3D within about ±1.04, 4D within about ±1.3.
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
//! # Same bits everywhere
//!
//! The scalar `noiseN` and the `fillN` of every [`Level`] run one generic
//! kernel with one fixed order of IEEE operations and no FMA; tail points go
//! through the vector kernel on a padded block. Outputs are bit-identical
//! across levels, CPUs and slice lengths. See `ARCHITECTURE.md`.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod error;
mod grid;
mod kernel;
mod level;
mod perlin;
mod simd;

pub use error::Error;
pub use grid::{Grid, Grid1, Grid2, Grid3, Grid4};
pub use level::{Level, ParseLevelError};
pub use perlin::Perlin;
