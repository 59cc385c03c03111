//! `std::arch` backends for x86_64: AVX2 (8 lanes) and AVX-512 (16 lanes).
//!
//! Each file holds a token, its lane types and a handful of
//! `#[target_feature]` shims that instantiate the generic kernels; the
//! algorithm itself lives once, in `crate::kernel`.

pub(crate) mod avx2;
pub(crate) mod avx512;

/// Operator impls for a private vector newtype whose values only a token of
/// the backend creates. `$feature` names the CPU feature the token proves.
macro_rules! vector_ops {
    ($ty:ident, $feature:literal, $($trait:ident $method:ident $intrinsic:ident),+ $(,)?) => {
        $(
            impl core::ops::$trait for $ty {
                type Output = $ty;
                #[inline(always)]
                fn $method(self, rhs: $ty) -> $ty {
                    // SAFETY: a value of this type exists only if a token proved
                    // the CPU feature named in the macro call is present.
                    $ty(unsafe { $intrinsic(self.0, rhs.0) })
                }
            }
        )+
    };
}
pub(crate) use vector_ops;

/// The four batch entry points of one ISA: each only enables the feature and
/// calls the generic kernel with the token.
macro_rules! fill_shims {
    ($token:ty, $features:literal) => {
        use crate::kernel;

        #[target_feature(enable = $features)]
        pub(crate) fn fill1(t: $token, p: &crate::simd::PermTable, xs: &[f32], out: &mut [f32]) {
            kernel::fill1(t, p, xs, out)
        }
        #[target_feature(enable = $features)]
        pub(crate) fn fill2(
            t: $token,
            p: &crate::simd::PermTable,
            xs: &[f32],
            ys: &[f32],
            out: &mut [f32],
        ) {
            kernel::fill2(t, p, xs, ys, out)
        }
        #[target_feature(enable = $features)]
        pub(crate) fn fill3(
            t: $token,
            p: &crate::simd::PermTable,
            xs: &[f32],
            ys: &[f32],
            zs: &[f32],
            out: &mut [f32],
        ) {
            kernel::fill3(t, p, xs, ys, zs, out)
        }
        #[target_feature(enable = $features)]
        pub(crate) fn fill4(
            t: $token,
            p: &crate::simd::PermTable,
            xs: &[f32],
            ys: &[f32],
            zs: &[f32],
            ws: &[f32],
            out: &mut [f32],
        ) {
            kernel::fill4(t, p, xs, ys, zs, ws, out)
        }
    };
}
pub(crate) use fill_shims;
