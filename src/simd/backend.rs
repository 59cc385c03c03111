//! What every `std::arch` backend file uses, whatever its ISA: the
//! per-register repetition macro, operator impls for token-made vector
//! newtypes, and the `#[target_feature]` shims that compile a kernel job at
//! one level.
//!
//! A backend file holds a token, its lane types, `impl Simd` and one
//! `job_shim!`; the algorithm itself lives once, in `crate::kernel`.

/// A table of −1.0, 0.0, 1.0 as signed bytes (the kernel's gradient tables
/// hold only those values; constant-folded after inlining).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn unit_bytes<const N: usize>(t: &[f32; N]) -> [u8; N] {
    let mut bytes = [0u8; N];
    let mut i = 0;
    while i < N {
        bytes[i] = t[i] as i8 as u8;
        i += 1;
    }
    bytes
}

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
                #[cfg_attr(not(debug_assertions), inline(always))]
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

/// Operator impls for a newtype over an array of four registers (a whole
/// pack), applying `$intrinsic` register by register.
macro_rules! pack_ops {
    ($ty:ident, $feature:literal, $($trait:ident $method:ident $intrinsic:ident),+ $(,)?) => {
        $(
            impl core::ops::$trait for $ty {
                type Output = $ty;
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn $method(self, rhs: $ty) -> $ty {
                    let (a, b) = (self.0, rhs.0);
                    // SAFETY: a value of this type exists only if a token proved
                    // the CPU feature named in the macro call is present.
                    $ty($crate::simd::backend::each_vector!(|k| unsafe {
                        $intrinsic(a[k], b[k])
                    }))
                }
            }
        )+
    };
}
pub(crate) use pack_ops;

/// The one entry point of an ISA: runs any kernel [`Job`](crate::simd::Job)
/// with this backend's token, compiled with the ISA's features enabled (the
/// job's `#[cfg_attr(not(debug_assertions), inline(always))]` body is inlined here). The token proves the
/// features, so the wrapper is safe.
macro_rules! job_shim {
    ($token:ty, $features:literal) => {
        /// Runs `job` compiled with this backend's features.
        #[inline]
        pub(crate) fn run<J: crate::simd::Job>(token: $token, job: J) -> J::Output {
            #[target_feature(enable = $features)]
            fn shim<J: crate::simd::Job>(token: $token, job: J) -> J::Output {
                job.run(token)
            }
            // SAFETY: `token` exists only where its `new` found the features.
            unsafe { shim(token, job) }
        }

        /// [`Simd::outlined`](crate::simd::Simd::outlined) at this level.
        #[target_feature(enable = $features)]
        #[inline(never)]
        pub(crate) fn run_outlined<J: crate::simd::OutlinedJob<$token>>(
            token: $token,
            job: J,
        ) -> J::Output {
            job.run(token)
        }
    };
}
pub(crate) use job_shim;
