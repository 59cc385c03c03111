//! AVX2 backend: 8 lanes of `__m256`. Permutation lookups are dword gathers
//! from the 512-byte doubled table (reading 4 bytes at index ≤ 255 stays
//! inside it), masked to the low byte; 16-entry gradient tables are two
//! `vpermps` (3-bit index) joined by a blend on bit 3.

use super::{fill_shims, vector_ops};
use crate::simd::{PermTable, Simd};
use core::arch::x86_64::*;

fill_shims!(Avx2, "avx2");

/// Proof that this CPU has AVX2.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `Some` exactly when the CPU has AVX2.
    #[inline]
    pub(crate) fn new() -> Option<Avx2> {
        crate::Level::Avx2.is_available().then_some(Avx2(()))
    }
}

#[derive(Clone, Copy)]
pub(crate) struct F32x8(__m256);
#[derive(Clone, Copy)]
pub(crate) struct I32x8(__m256i);

vector_ops!(F32x8, "avx2", Add add _mm256_add_ps, Sub sub _mm256_sub_ps, Mul mul _mm256_mul_ps);
vector_ops!(I32x8, "avx2", Add add _mm256_add_epi32);

/// `vpermps` on the 8-entry halves of `t`, picked by bit 3 of `h`.
#[inline(always)]
fn table8x2(lo: &[f32], hi: &[f32], h: __m256i) -> __m256 {
    // SAFETY: called only from `Avx2` token methods, so AVX2 is present; both
    // slices have 8 elements (callers pass halves of 16-entry arrays).
    unsafe {
        let lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(lo[..8].as_ptr()), h);
        let hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(hi[..8].as_ptr()), h);
        // blendv reads the sign bit: move bit 3 there.
        _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32::<28>(h)))
    }
}

impl Simd for Avx2 {
    const LANES: usize = 8;
    type F = F32x8;
    type I = I32x8;
    type Perm<'a> = &'a PermTable;

    #[inline(always)]
    fn splat(self, v: f32) -> F32x8 {
        // SAFETY: the token proves AVX2 (hence AVX).
        F32x8(unsafe { _mm256_set1_ps(v) })
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> I32x8 {
        // SAFETY: the token proves AVX2.
        I32x8(unsafe { _mm256_set1_epi32(v) })
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> F32x8 {
        let src = &src[..8];
        // SAFETY: the token proves AVX2; `src` has 8 floats (sliced above).
        F32x8(unsafe { _mm256_loadu_ps(src.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, v: F32x8, dst: &mut [f32]) {
        let dst = &mut dst[..8];
        // SAFETY: the token proves AVX2; `dst` has room for 8 floats.
        unsafe { _mm256_storeu_ps(dst.as_mut_ptr(), v.0) }
    }
    #[inline(always)]
    fn floor(self, v: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2 (vroundps is AVX).
        F32x8(unsafe { _mm256_round_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(v.0) })
    }
    #[inline(always)]
    fn cell(self, floored: F32x8) -> I32x8 {
        // SAFETY: the token proves AVX2.
        I32x8(unsafe { _mm256_and_si256(_mm256_cvttps_epi32(floored.0), _mm256_set1_epi32(255)) })
    }
    #[inline(always)]
    fn perm_table(self, t: &PermTable) -> &PermTable {
        t
    }
    #[inline(always)]
    fn perm(self, t: &&PermTable, i: I32x8) -> I32x8 {
        // SAFETY: the token proves AVX2. Every index is masked to 0..=255 and
        // each gather reads 4 bytes at base + index ≤ base + 258 < base + 512,
        // inside `t.bytes`.
        unsafe {
            let byte = _mm256_set1_epi32(255);
            let idx = _mm256_and_si256(i.0, byte);
            let words = _mm256_i32gather_epi32::<1>(t.bytes.as_ptr().cast::<i32>(), idx);
            I32x8(_mm256_and_si256(words, byte))
        }
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], h: I32x8) -> F32x8 {
        F32x8(table8x2(&t[..8], &t[8..], h.0))
    }
    #[inline(always)]
    fn table32(self, t: &[f32; 32], h: I32x8) -> F32x8 {
        let lo = table8x2(&t[..8], &t[8..16], h.0);
        let hi = table8x2(&t[16..24], &t[24..], h.0);
        // SAFETY: the token proves AVX2; bit 4 of h moved to the sign bit.
        F32x8(unsafe {
            _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32::<27>(h.0)))
        })
    }
    #[inline(always)]
    fn canonical_nan(self, v: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2.
        F32x8(unsafe {
            let ordered = _mm256_cmp_ps::<_CMP_ORD_Q>(v.0, v.0);
            _mm256_blendv_ps(_mm256_set1_ps(f32::NAN), v.0, ordered)
        })
    }
}
