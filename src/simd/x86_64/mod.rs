//! The x86_64 `std::arch` backends: AVX2 and AVX-512 (each one token type,
//! its `impl Simd` and its `#[target_feature]` shims).

pub(crate) mod avx2;
pub(crate) mod avx512;
