//! The noise-rs interop tests (feature `noise`), a binary of their own so
//! that checking the feature does not compile the whole suite again
//! (`cargo test --release --features noise --test interop`).

// The suite's helpers (dead code allowed there); this binary uses a few.
#[path = "../../suite/tests/common/mod.rs"]
mod common;

mod interop;
