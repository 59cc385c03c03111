//! The cross-architecture subset of the integration tests: the modules that
//! pin output bits (golden fingerprints), compare every level with scalar
//! (noise in 5 dimensions and more, against its definition too),
//! check the coordinates mode and Ken's reference values, and the
//! documented semantics. CI runs this binary under qemu on aarch64 (NEON
//! against scalar, and the same golden constants as on x86_64); the whole
//! suite (`tests/main.rs`, which has these same files) runs natively.
//!
//! It is its own target so the emulated build compiles only these modules:
//! `cargo test` skips it (`test = false` in this package's Cargo.toml); run it with
//! `cargo test --test arch`.

// The suite's shared helpers: this subset uses only some of them (the
// module allows its own dead code).
mod common;

mod dimensions;
mod golden;
mod hash;
mod levels;
mod reference;
mod semantics;
mod simplex;
