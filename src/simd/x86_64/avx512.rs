//! AVX-512 backend: one kernel pack is [`VECTORS`] × 16 = 64 points.
//!
//! Floats are `[__m512; 4]`; the kernel's integer lanes are *bytes*: one
//! `__m512i` holds a byte for each of the 64 points. All hash arithmetic is
//! mod 256, so byte adds are exact, and one lookup of 64 hashes in the
//! 256-byte permutation (held in four registers for the whole call) is two
//! `vpermi2b` (index bits 0–6 over 128 table bytes each) and one byte blend on
//! index bit 7 — no memory access. The byte of point `16k + j` is byte `k` of
//! dword `j`, so vector `k`'s hashes are one `vpsrld` away from the low bits
//! of the dword lanes, where `vpermps` (16 entries) or `vpermt2ps` (32 entries)
//! read the gradient components: no shuffle is spent on spreading bytes.

use crate::simd::backend::{each_vector, job_shim, pack_ops, vector_ops};
use crate::simd::{Lanes, PermTable, Simd, pack_lanes};
use core::arch::x86_64::*;

job_shim!(Avx512, "avx512f,avx512bw,avx512vbmi,avx2");

/// 16-lane vectors per kernel pack.
const VECTORS: usize = 4;

/// Proof that this CPU has AVX-512 F, BW and VBMI (and AVX2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

/// Whether this CPU has AVX-512 F, BW, VBMI and AVX2 (uncached; see
/// [`crate::Level::is_available`]).
pub(crate) fn cpu_has() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("avx2")
}

impl Avx512 {
    /// `Some` exactly when the CPU has AVX-512 F + BW + VBMI.
    #[inline]
    pub(crate) fn new() -> Option<Avx512> {
        crate::Level::Avx512.is_available().then_some(Avx512(()))
    }
}

/// 64 floats: point `16k + j` is lane `j` of vector `k`.
#[derive(Clone, Copy)]
pub(crate) struct F32x64([__m512; VECTORS]);
/// 64 bytes: byte `4j + k` (byte `k` of dword `j`) belongs to point `16k + j`.
#[derive(Clone, Copy)]
pub(crate) struct U8x64(__m512i);

pack_ops!(F32x64, "avx512f", Add add _mm512_add_ps, Sub sub _mm512_sub_ps, Mul mul _mm512_mul_ps);

/// 64 cells or hashes of 32 bits: point `16k + j` is lane `j` of vector `k`.
#[derive(Clone, Copy)]
pub(crate) struct U32x64([__m512i; VECTORS]);
/// One part's 32-bit lanes.
#[derive(Clone, Copy)]
pub(crate) struct U32x16(__m512i);

/// One part: 16 floats.
#[derive(Clone, Copy)]
pub(crate) struct F32x16(__m512);
vector_ops!(F32x16, "avx512f", Add add _mm512_add_ps, Sub sub _mm512_sub_ps, Mul mul _mm512_mul_ps);
vector_ops!(U8x64, "avx512bw", Add add _mm512_add_epi8);

/// The permutation as four 64-byte registers: bytes 0–63, 64–127, 128–191, 192–255.
#[derive(Clone, Copy)]
pub(crate) struct PermRegs([__m512i; 4]);

impl Avx512 {
    /// The hashes of vector `k` in the low byte of each dword lane (higher
    /// bytes are other points' hashes, ignored by `vpermps`/`vpermt2ps`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn spread(self, h: U8x64, k: usize) -> __m512i {
        // SAFETY: the token proves AVX-512F.
        unsafe {
            match k {
                0 => h.0,
                1 => _mm512_srli_epi32::<8>(h.0),
                2 => _mm512_srli_epi32::<16>(h.0),
                _ => _mm512_srli_epi32::<24>(h.0),
            }
        }
    }
}

/// A 64-byte vector constant.
struct Bytes(__m512i);

/// Packs the low bytes of two dword vectors `a`, `b` (as `vpermt2b` sources
/// 0–63 and 64–127): byte `4j + k` takes dword `j` of `a` for even `k`, of
/// `b` for odd `k`.
const PACK_PAIR: Bytes = Bytes({
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (j, k) = (i / 4, i % 4);
        t[i] = (4 * j + if k % 2 == 1 { 64 } else { 0 }) as u8;
        i += 1;
    }
    // SAFETY: a plain byte array reinterpreted as a vector of the same size.
    unsafe { core::mem::transmute::<[u8; 64], __m512i>(t) }
});

/// Byte `4j + k` = `16k + j`: point order to this backend's byte layout.
const INTERLEAVE: Bytes = Bytes({
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (16 * (i % 4) + i / 4) as u8;
        i += 1;
    }
    // SAFETY: a plain byte array reinterpreted as a vector of the same size.
    unsafe { core::mem::transmute::<[u8; 64], __m512i>(t) }
});

/// Bytes 2 and 3 of every dword: the ones the second pair of vectors fills.
const SECOND_PAIR: u64 = 0xCCCC_CCCC_CCCC_CCCC;

pack_lanes!(Avx512, F32x64);

impl Lanes<Avx512> for F32x16 {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(_: Avx512, v: f32) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe { _mm512_set1_ps(v) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(_: Avx512, a: F32x16, b: F32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe { _mm512_min_ps(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(_: Avx512, a: F32x16, b: F32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe { _mm512_max_ps(a.0, b.0) })
    }
}

/// `v` with its making hidden (see [`Simd::opaque_up`]): an empty `asm!`
/// passing `v` through its own register.
#[target_feature(enable = "avx512f")]
#[inline]
fn opaque512(v: __m512i) -> __m512i {
    let mut v = v;
    // SAFETY: the template is only a comment naming the register: no
    // instruction runs, no memory, stack or flags are touched, and `v`
    // comes back unchanged.
    unsafe {
        core::arch::asm!("/* {0} */", inout(zmm_reg) v, options(pure, nomem, nostack, preserves_flags));
    }
    v
}

impl Simd for Avx512 {
    const LEVEL: crate::Level = crate::Level::Avx512;
    const LANES: usize = 16 * VECTORS;
    const PARTS: usize = VECTORS;
    type F = F32x64;
    type P = F32x16;
    type I = U8x64;
    /// Part `k`'s hashes in the low byte of each dword lane.
    type H = __m512i;
    type Perm<'a> = PermRegs;
    type U = U32x64;
    type UP = U32x16;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(self, v: f32) -> F32x64 {
        // SAFETY: the token proves AVX-512F.
        F32x64([unsafe { _mm512_set1_ps(v) }; VECTORS])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_i(self, v: i32) -> U8x64 {
        // SAFETY: the token proves AVX-512F. Only the value mod 256 matters.
        U8x64(unsafe { _mm512_set1_epi8(v as i8) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load(self, src: &[f32]) -> F32x64 {
        let src = &src[..64];
        // SAFETY: the token proves AVX-512F; `src` has 64 floats (sliced above).
        F32x64(unsafe {
            [
                _mm512_loadu_ps(src.as_ptr()),
                _mm512_loadu_ps(src[16..].as_ptr()),
                _mm512_loadu_ps(src[32..].as_ptr()),
                _mm512_loadu_ps(src[48..].as_ptr()),
            ]
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store(self, v: F32x64, dst: &mut [f32]) {
        let dst = &mut dst[..64];
        // SAFETY: the token proves AVX-512F; `dst` has room for 64 floats.
        unsafe {
            _mm512_storeu_ps(dst.as_mut_ptr(), v.0[0]);
            _mm512_storeu_ps(dst[16..].as_mut_ptr(), v.0[1]);
            _mm512_storeu_ps(dst[32..].as_mut_ptr(), v.0[2]);
            _mm512_storeu_ps(dst[48..].as_mut_ptr(), v.0[3]);
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part(self, v: F32x64, k: usize) -> F32x16 {
        F32x16(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_ref(self, v: &F32x64, k: usize) -> F32x16 {
        F32x16(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_one(self, src: &[f32]) -> F32x16 {
        let src = &src[..16];
        // SAFETY: the token proves AVX-512F; `src` is 16 floats (sliced above).
        F32x16(unsafe { _mm512_loadu_ps(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_one(self, p: F32x16, dst: &mut [f32]) {
        let dst = &mut dst[..16];
        // SAFETY: the token proves AVX-512F; `dst` is 16 floats (sliced above).
        unsafe { _mm512_storeu_ps(dst.as_mut_ptr(), p.0) }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_part(self, src: &[f32], k: usize) -> F32x16 {
        let src = &src[..64][16 * k..16 * k + 16];
        // SAFETY: the token proves AVX-512F; `src` is 16 floats (sliced above).
        F32x16(unsafe { _mm512_loadu_ps(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_part(self, p: F32x16, dst: &mut [f32], k: usize) {
        let dst = &mut dst[..64][16 * k..16 * k + 16];
        // SAFETY: the token proves AVX-512F; `dst` is 16 floats (sliced above).
        unsafe { _mm512_storeu_ps(dst.as_mut_ptr(), p.0) }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_part(self, v: &mut F32x64, k: usize, p: F32x16) {
        v.0[k] = p.0;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(self, h: U8x64, k: usize) -> __m512i {
        self.spread(h, k)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor(self, v: F32x64) -> F32x64 {
        // SAFETY: the token proves AVX-512F.
        F32x64(each_vector!(|k| unsafe {
            _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(v.0[k])
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cell(self, floored: F32x64) -> U8x64 {
        let f = floored.0;
        // SAFETY: the token proves AVX-512F/BW/VBMI. cvttps2dq, then the low
        // byte of dword j of vector k packed to byte 4j + k.
        U8x64(unsafe {
            let d = [
                _mm512_cvttps_epi32(f[0]),
                _mm512_cvttps_epi32(f[1]),
                _mm512_cvttps_epi32(f[2]),
                _mm512_cvttps_epi32(f[3]),
            ];
            let first = _mm512_permutex2var_epi8(d[0], PACK_PAIR.0, d[1]);
            let second = _mm512_permutex2var_epi8(d[2], PACK_PAIR.0, d[3]);
            _mm512_mask_blend_epi8(SECOND_PAIR, first, second)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_cells(self, src: &[u8]) -> U8x64 {
        let src = &src[..64];
        // SAFETY: the token proves AVX-512F/VBMI; `src` has 64 bytes (sliced
        // above). vpermb moves point 16k + j (byte 16k + j) to byte 4j + k.
        U8x64(unsafe {
            _mm512_permutexvar_epi8(INTERLEAVE.0, _mm512_loadu_si512(src.as_ptr().cast()))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm_table(self, t: &PermTable) -> PermRegs {
        let b = &t.bytes[..256];
        // SAFETY: the token proves AVX-512F; the four 64-byte loads read
        // the four 64-byte quarters of the 256-byte table.
        PermRegs(unsafe {
            [
                _mm512_loadu_si512(b[..64].as_ptr().cast()),
                _mm512_loadu_si512(b[64..128].as_ptr().cast()),
                _mm512_loadu_si512(b[128..192].as_ptr().cast()),
                _mm512_loadu_si512(b[192..].as_ptr().cast()),
            ]
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm(self, t: &PermRegs, i: U8x64) -> U8x64 {
        let [t0, t1, t2, t3] = t.0;
        // SAFETY: the token proves AVX-512 BW (movepi8_mask, byte blend) and
        // VBMI (vpermi2b). Register-only; every index byte is valid.
        U8x64(unsafe {
            let upper_half = _mm512_movepi8_mask(i.0);
            let lo = _mm512_permutex2var_epi8(t0, i.0, t1);
            let hi = _mm512_permutex2var_epi8(t2, i.0, t3);
            _mm512_mask_blend_epi8(upper_half, lo, hi)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table8(self, t: &[f32; 8], h: __m512i) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the load reads the 8 floats of
        // `t` into the low half (the upper half is zero and never indexed:
        // the indices are masked to 0..8).
        F32x16(unsafe {
            let table = _mm512_zextps256_ps512(_mm256_loadu_ps(t.as_ptr()));
            _mm512_permutexvar_ps(_mm512_and_si512(h, _mm512_set1_epi32(7)), table)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table16(self, t: &[f32; 16], h: __m512i) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the load reads the 16 floats of `t`.
        F32x16(unsafe { _mm512_permutexvar_ps(h, _mm512_loadu_ps(t.as_ptr())) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table32(self, t: &[f32; 32], h: __m512i) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the loads read floats 0..16 and
        // 16..32 of `t`.
        F32x16(unsafe {
            let lo = _mm512_loadu_ps(t.as_ptr());
            let hi = _mm512_loadu_ps(t[16..].as_ptr());
            _mm512_permutex2var_ps(lo, h, hi)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn copy_streaming(self, src: &[f32], dst: &mut [f32]) {
        assert_eq!(src.len(), dst.len());
        // Plain copies up to the first 64-byte boundary of `dst`, then whole
        // cache lines with vmovntps, then the rest.
        let head = dst.as_ptr().align_offset(64).min(dst.len());
        dst[..head].copy_from_slice(&src[..head]);
        let (src, dst) = (&src[head..], &mut dst[head..]);
        let lines = dst.len() / 16;
        for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
            // SAFETY: the token proves AVX-512F; `d` is 16 floats starting
            // at a 64-byte boundary (head peeled above), `s` 16 floats.
            unsafe { _mm512_stream_ps(d.as_mut_ptr(), _mm512_loadu_ps(s.as_ptr())) }
        }
        dst[16 * lines..].copy_from_slice(&src[16 * lines..]);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_streaming(self, v: F32x64, dst: &mut [f32]) {
        let dst = &mut dst[..64];
        if dst.as_ptr().align_offset(64) != 0 {
            return self.store(v, dst);
        }
        for (k, d) in dst.chunks_exact_mut(16).enumerate() {
            // SAFETY: the token proves AVX-512F; `d` is 16 floats starting at
            // a 64-byte boundary (checked above; 64 bytes per chunk).
            unsafe { _mm512_stream_ps(d.as_mut_ptr(), v.0[k]) }
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_fence(self) {
        // SAFETY: the token proves AVX-512F (so SSE's sfence exists).
        unsafe { _mm_sfence() }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn canonical_nan(self, v: F32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F.
        F32x16(unsafe {
            let unordered = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v.0, v.0);
            _mm512_mask_blend_ps(unordered, v.0, _mm512_set1_ps(f32::NAN))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32(self, floored: F32x64) -> (U32x64, bool) {
        let f = floored.0;
        // SAFETY: the token proves AVX-512F. cvttps2dq is exact for |v| < 2³¹
        // and gives 0x8000_0000 for every other lane (NaN, ±inf, huge), so
        // a lane equal to it may be out of range (or exactly −2³¹).
        unsafe {
            let cells = each_vector!(|k| _mm512_cvttps_epi32(f[k]));
            let bad = _mm512_set1_epi32(i32::MIN);
            let flags = each_vector!(|k| _mm512_cmpeq_epi32_mask(cells[k], bad));
            (
                U32x64(cells),
                (flags[0] | flags[1] | flags[2] | flags[3]) == 0,
            )
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32_parts_checked<const D: usize>(
        self,
        floored: &[F32x16; D],
        check: &mut U32x16,
    ) -> [U32x16; D] {
        let mut cells = [*check; D];
        for (cell, f) in cells.iter_mut().zip(floored) {
            // SAFETY: the token proves AVX-512F. cvttps2dq gives 0x8000_0000,
            // the least i32, for every lane out of range; the signed min
            // keeps it in `check`.
            unsafe {
                let c = _mm512_cvttps_epi32(f.0);
                check.0 = _mm512_min_epi32(check.0, c);
                *cell = U32x16(c);
            }
        }
        cells
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_check(self) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_set1_epi32(i32::MAX) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_checked(self, check: U32x16) -> bool {
        // SAFETY: the token proves AVX-512F. A lane at the least i32 may be
        // out of range (or exactly −2³¹, which `cells32` flags too).
        unsafe { _mm512_cmpeq_epi32_mask(check.0, _mm512_set1_epi32(i32::MIN)) == 0 }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_u32(self, src: &[u32]) -> U32x64 {
        let src = &src[..64];
        // SAFETY: the token proves AVX-512F; `src` has 64 lanes (sliced above).
        U32x64(each_vector!(|k| unsafe {
            _mm512_loadu_si512(src[16 * k..].as_ptr().cast())
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_u32(self, v: U32x64, dst: &mut [u32]) {
        let dst = &mut dst[..64];
        for (k, d) in dst.chunks_exact_mut(16).enumerate() {
            // SAFETY: the token proves AVX-512F; `d` is 16 lanes.
            unsafe { _mm512_storeu_si512(d.as_mut_ptr().cast(), v.0[k]) }
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part(self, v: U32x64, k: usize) -> U32x16 {
        U32x16(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part_ref(self, v: &U32x64, k: usize) -> U32x16 {
        U32x16(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_u32_part(self, v: &mut U32x64, k: usize, p: U32x16) {
        v.0[k] = p.0;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min_u32(self, a: U32x16, b: U32x16) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_min_epu32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_u32(self, v: u32) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_set1_epi32(v as i32) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn add_u32(self, a: U32x16, b: U32x16) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_add_epi32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mul_u32(self, a: U32x16, b: U32x16) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_mullo_epi32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn xor_u32(self, a: U32x16, b: U32x16) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_xor_si512(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn shr_u32<const N: i32>(self, a: U32x16) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { _mm512_srlv_epi32(a.0, _mm512_set1_epi32(N)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top8(self, t: &[f32; 8], h: U32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the load reads the 8 floats of
        // `t` (into lanes 0–7; indices h >> 29 are 0–7).
        F32x16(unsafe {
            let table = _mm512_castps256_ps512(_mm256_loadu_ps(t.as_ptr()));
            _mm512_permutexvar_ps(_mm512_srli_epi32::<29>(h.0), table)
        })
    }
    /// Without it, the doubling of a hash that moves each sign bit to the
    /// top became one more `vpmulld` per axis and corner (5D: 5 a corner).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn opaque_up(self, v: U32x16) -> U32x16 {
        // SAFETY: the token proves AVX-512F.
        U32x16(unsafe { opaque512(v.0) })
    }
    const SIGNED_TOP_BLENDS: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn signed_top(self, [p, _]: [F32x16; 2], h: U32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F. Truth table 0x78 is
        // `a ^ (b & c)`: `p` with `h`'s top bit xored into its sign.
        F32x16(unsafe {
            let sign = _mm512_set1_epi32(i32::MIN);
            let v = _mm512_ternarylogic_epi32::<0x78>(_mm512_castps_si512(p.0), h.0, sign);
            _mm512_castsi512_ps(v)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top2(self, [clear, set]: [F32x16; 2], h: U32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F. Bit 31 set is a signed lane
        // below zero; the blend takes `set` where the mask bit is 1.
        F32x16(unsafe {
            let top = _mm512_cmplt_epi32_mask(h.0, _mm512_setzero_si512());
            _mm512_mask_blend_ps(top, clear.0, set.0)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top16(self, t: &[f32; 16], h: U32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F; the load reads the 16 floats of `t`.
        F32x16(unsafe {
            _mm512_permutexvar_ps(_mm512_srli_epi32::<28>(h.0), _mm512_loadu_ps(t.as_ptr()))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top24(self, h: U32x16) -> F32x16 {
        // SAFETY: the token proves AVX-512F; h >> 8 < 2²⁴ converts exactly.
        F32x16(unsafe { _mm512_cvtepi32_ps(_mm512_srli_epi32::<8>(h.0)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn byte_value(self, h: __m512i) -> F32x16 {
        // SAFETY: the token proves AVX-512F. The hash is each dword's low byte.
        F32x16(unsafe { _mm512_cvtepi32_ps(_mm512_and_si512(h, _mm512_set1_epi32(255))) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn abs(self, v: F32x64) -> F32x64 {
        let v = v.0;
        // SAFETY: the token proves AVX-512F (vpandd on the float bits).
        F32x64(each_vector!(|k| unsafe {
            _mm512_castsi512_ps(_mm512_and_si512(
                _mm512_castps_si512(v[k]),
                _mm512_set1_epi32(i32::MAX),
            ))
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(self, a: F32x64, b: F32x64) -> F32x64 {
        let (a, b) = (a.0, b.0);
        // SAFETY: the token proves AVX-512F.
        F32x64(each_vector!(|k| unsafe { _mm512_min_ps(a[k], b[k]) }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(self, a: F32x64, b: F32x64) -> F32x64 {
        let (a, b) = (a.0, b.0);
        // SAFETY: the token proves AVX-512F.
        F32x64(each_vector!(|k| unsafe { _mm512_max_ps(a[k], b[k]) }))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn outlined<J: crate::simd::OutlinedJob<Self>>(self, job: J) -> J::Output {
        // SAFETY: `self` is the token, so AVX-512 F/BW/VBMI was detected.
        unsafe { run_outlined(self, job) }
    }
}
