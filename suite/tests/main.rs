//! The integration tests, one binary: each file is a module, so the generic
//! kernels they instantiate are compiled once for all of them.

mod common;

mod custom;
mod dimensions;
mod dynamic;
mod errors;
mod f64_points;
mod fractal;
mod golden;
mod gradient;
mod grid;
mod hash;
mod levels;
mod op_grad;
mod ops;
mod par_grad;
mod period;
mod recipe;
mod reference;
mod semantics;
mod simplex;
mod streaming;
mod value;
