//! `std::arch` backends for x86_64: AVX2 (8-lane registers, 32 points per
//! step) and AVX-512 (16-lane registers, 64 points per step).
//!
//! Each file holds a token, its lane types and one `#[target_feature]` shim,
//! `run(token, job)`, that instantiates a generic kernel job; the algorithm
//! itself lives once, in `crate::kernel`.

pub(crate) mod avx2;
pub(crate) mod avx512;

/// `[e(0), e(1), e(2), e(3)]` with `$k` bound to each index, written out:
/// closures and `array::map` need not inline into the target-feature shims.
macro_rules! each_vector {
    (|$k:ident| $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
            {
                let $k = 3;
                $e
            },
        ]
    };
}
pub(crate) use each_vector;

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

/// The one entry point of an ISA: runs any kernel [`Job`](crate::simd::Job)
/// with this backend's token, compiled with the ISA's features enabled (the
/// job's `#[inline(always)]` body is inlined here).
macro_rules! job_shim {
    ($token:ty, $features:literal) => {
        #[target_feature(enable = $features)]
        pub(crate) fn run<J: crate::simd::Job>(token: $token, job: J) -> J::Output {
            job.run(token)
        }

        /// [`Simd::outlined`](crate::simd::Simd::outlined) at this level.
        #[target_feature(enable = $features)]
        #[inline(never)]
        pub(crate) fn run_step<J: crate::simd::StepJob<$token>>(
            token: $token,
            step: J,
        ) -> J::Output {
            step.run(token)
        }
    };
}
pub(crate) use job_shim;
