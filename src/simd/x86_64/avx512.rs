//! AVX-512 backend: 16 lanes of `__m512`.
//!
//! The 256-byte permutation sits in four registers for the whole call. A
//! lookup of 16 dword indices is two `vpermi2b` (each reads 128 table bytes by
//! index bits 0–6, zeroing all but the low byte of each dword) and one byte
//! blend on index bit 7: no memory access. Gradient components come from one
//! `vpermps` (16 entries) or `vpermt2ps` (32 entries) per component.

use super::{fill_shims, vector_ops};
use crate::simd::{PermTable, Simd};
use core::arch::x86_64::*;

fill_shims!(Avx512, "avx512f,avx512bw,avx512vbmi,avx2");

/// Proof that this CPU has AVX-512 F, BW and VBMI (and AVX2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// `Some` exactly when the CPU has AVX-512 F + BW + VBMI.
    #[inline]
    pub(crate) fn new() -> Option<Avx512> {
        crate::Level::Avx512.is_available().then_some(Avx512(()))
    }
}

#[derive(Clone, Copy)]
pub(crate) struct F32x16(__m512);
#[derive(Clone, Copy)]
pub(crate) struct I32x16(__m512i);

vector_ops!(F32x16, "avx512f", Add add _mm512_add_ps, Sub sub _mm512_sub_ps, Mul mul _mm512_mul_ps);
vector_ops!(I32x16, "avx512f", Add add _mm512_add_epi32);

/// The permutation as four 64-byte registers: bytes 0–63, 64–127, 128–191, 192–255.
#[derive(Clone, Copy)]
pub(crate) struct PermRegs([__m512i; 4]);

/// Byte mask selecting the low byte of every dword.
const LOW_BYTE_OF_EACH_DWORD: u64 = 0x1111_1111_1111_1111;

impl Simd for Avx512 {
    const LANES: usize = 16;
    type F = F32x16;
    type I = I32x16;
    type Perm<'a> = PermRegs;

    #[inline(always)]
    fn splat(self, v: f32) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe { _mm512_set1_ps(v) })
    }
    #[inline(always)]
    fn splat_i(self, v: i32) -> I32x16 {
        // SAFETY: the token proves AVX-512F.
        I32x16(unsafe { _mm512_set1_epi32(v) })
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> F32x16 {
        let src = &src[..16];
        // SAFETY: the token proves AVX-512F; `src` has 16 floats (sliced above).
        F32x16(unsafe { _mm512_loadu_ps(src.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, v: F32x16, dst: &mut [f32]) {
        let dst = &mut dst[..16];
        // SAFETY: the token proves AVX-512F; `dst` has room for 16 floats.
        unsafe { _mm512_storeu_ps(dst.as_mut_ptr(), v.0) }
    }
    #[inline(always)]
    fn floor(self, v: F32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe {
            _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(v.0)
        })
    }
    #[inline(always)]
    fn cell(self, floored: F32x16) -> I32x16 {
        // SAFETY: the token proves AVX-512F.
        I32x16(unsafe { _mm512_and_si512(_mm512_cvttps_epi32(floored.0), _mm512_set1_epi32(255)) })
    }
    #[inline(always)]
    fn perm_table(self, t: &PermTable) -> PermRegs {
        let b = &t.bytes[..256];
        // SAFETY: the token proves AVX-512F; the four 64-byte loads read
        // bytes 0..256 of a 512-byte array.
        PermRegs(unsafe {
            [
                _mm512_loadu_si512(b[..64].as_ptr().cast()),
                _mm512_loadu_si512(b[64..128].as_ptr().cast()),
                _mm512_loadu_si512(b[128..192].as_ptr().cast()),
                _mm512_loadu_si512(b[192..].as_ptr().cast()),
            ]
        })
    }
    #[inline(always)]
    fn perm(self, t: &PermRegs, i: I32x16) -> I32x16 {
        let [t0, t1, t2, t3] = t.0;
        // SAFETY: the token proves AVX-512 BW (movepi8_mask, byte blend) and
        // VBMI (vpermi2b). Register-only, any index bits are fine.
        I32x16(unsafe {
            let upper_half = _mm512_movepi8_mask(i.0);
            let lo = _mm512_maskz_permutex2var_epi8(LOW_BYTE_OF_EACH_DWORD, t0, i.0, t1);
            let hi = _mm512_maskz_permutex2var_epi8(LOW_BYTE_OF_EACH_DWORD, t2, i.0, t3);
            _mm512_mask_blend_epi8(upper_half, lo, hi)
        })
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], h: I32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the load reads 16 floats of `t`.
        F32x16(unsafe { _mm512_permutexvar_ps(h.0, _mm512_loadu_ps(t.as_ptr())) })
    }
    #[inline(always)]
    fn table32(self, t: &[f32; 32], h: I32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the loads read floats 0..16 and
        // 16..32 of `t`.
        F32x16(unsafe {
            let lo = _mm512_loadu_ps(t.as_ptr());
            let hi = _mm512_loadu_ps(t[16..].as_ptr());
            _mm512_permutex2var_ps(lo, h.0, hi)
        })
    }
    #[inline(always)]
    fn canonical_nan(self, v: F32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe {
            let unordered = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v.0, v.0);
            _mm512_mask_blend_ps(unordered, v.0, _mm512_set1_ps(f32::NAN))
        })
    }
}
