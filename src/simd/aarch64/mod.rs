//! The aarch64 `std::arch` backend: NEON (its token type, `impl Simd` and
//! `#[target_feature]` shims).

pub(crate) mod neon;
