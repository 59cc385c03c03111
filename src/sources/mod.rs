//! The public sources: the lattice noises ([`Perlin`](perlin::Perlin),
//! [`Value`](value::Value)), fractals, operators, warps, user and boxed
//! sources, recipes, and (feature `noise`) the noise-rs interop. Each is a
//! `Field`; `lib.rs` re-exports their public types.

pub(crate) mod custom;
pub(crate) mod dynamic;
pub(crate) mod fractal;
#[cfg(feature = "noise")]
pub(crate) mod interop;
pub(crate) mod lattice;
pub(crate) mod ops;
pub(crate) mod perlin;
pub(crate) mod recipe;
pub(crate) mod simplex;
pub(crate) mod value;
pub(crate) mod warp;
