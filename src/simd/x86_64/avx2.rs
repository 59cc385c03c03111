//! AVX2 backend: one kernel pack is 4 × 8 = 32 points.
//!
//! Floats are `[__m256; 4]`; the kernel's integer lanes are bytes, one
//! `__m256i` for the 32 points (hash arithmetic is mod 256). AVX2 has no
//! 256-entry byte permute and its gathers are slow on the CPUs we measure,
//! so a lookup is a `vpshufb` tree: 16 shuffles read the 16-byte table chunks
//! by index bits 0–3, and 15 `vpblendvb` pick among them by bits 4, 5, 6, 7.
//! Gradient components (−1, 0, 1) are bytes too: one `vpshufb` of a 16-byte
//! component table serves 32 points, widened to `f32` per vector; other
//! tables (the 1D slopes) go through `vpermps` on widened hashes.

use crate::simd::backend::{each_vector, job_shim, pack_ops, unit_bytes, vector_ops};
use crate::simd::{Lanes, PermTable, Simd, pack_lanes};
use core::arch::x86_64::*;

job_shim!(Avx2, "avx2");

/// Proof that this CPU has AVX2.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

/// Whether this CPU has AVX2 (uncached; see [`crate::Level::is_available`]).
pub(crate) fn cpu_has() -> bool {
    std::is_x86_feature_detected!("avx2")
}

impl Avx2 {
    /// `Some` exactly when the CPU has AVX2.
    #[inline]
    pub(crate) fn new() -> Option<Avx2> {
        crate::Level::Avx2.is_available().then_some(Avx2(()))
    }
}

/// 32 floats: point `8k + j` is lane `j` of vector `k`.
#[derive(Clone, Copy)]
pub(crate) struct F32x32([__m256; 4]);
/// 32 bytes: byte `8k + j` belongs to point `8k + j`.
#[derive(Clone, Copy)]
pub(crate) struct U8x32(__m256i);

pack_ops!(F32x32, "avx2", Add add _mm256_add_ps, Sub sub _mm256_sub_ps, Mul mul _mm256_mul_ps);

/// 32 cells or hashes of 32 bits: point `8k + j` is lane `j` of vector `k`.
#[derive(Clone, Copy)]
pub(crate) struct U32x32([__m256i; 4]);
/// One part's 32-bit lanes.
#[derive(Clone, Copy)]
pub(crate) struct U32x8(__m256i);

/// One part: 8 floats.
#[derive(Clone, Copy)]
pub(crate) struct F32x8(__m256);
vector_ops!(F32x8, "avx2", Add add _mm256_add_ps, Sub sub _mm256_sub_ps, Mul mul _mm256_mul_ps);

/// The hashes of part `k`: bytes `8k..8k + 8` of all 32 (table reads by
/// `vpshufb` work on all 32 bytes at once, the same for every part).
#[derive(Clone, Copy)]
pub(crate) struct PartHashes {
    bytes: __m256i,
    k: usize,
}
vector_ops!(U8x32, "avx2", Add add _mm256_add_epi8);

/// `t[h mod 16]` per dword lane, `t` given as its two 8-float halves:
/// `vpermps` reads index bits 0–2, a blend on bit 3 picks the half.
#[cfg_attr(not(debug_assertions), inline(always))]
fn permute16(lo: __m256, hi: __m256, h: __m256i) -> __m256 {
    // SAFETY: called only from `Avx2` token methods, so AVX2 is present.
    unsafe {
        let a = _mm256_permutevar8x32_ps(lo, h);
        let b = _mm256_permutevar8x32_ps(hi, h);
        _mm256_blendv_ps(a, b, _mm256_castsi256_ps(_mm256_slli_epi32::<28>(h)))
    }
}

/// The permutation as 16 chunks of 16 bytes, each repeated in both 128-bit
/// halves (`vpshufb` shuffles within halves).
#[derive(Clone, Copy)]
pub(crate) struct PermChunks<'a>(&'a [u8; 256]);

impl Avx2 {
    /// Entry `16·first + (i mod 128)` of the permutation for every byte `i`:
    /// chunks `first..first + 8` read by bits 0–3, picked by bits 4–6
    /// (`b4`, `b5`, `b6` hold those bits in each byte's bit 7).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eight_chunks(
        self,
        t: &[u8; 256],
        first: usize,
        i: __m256i,
        b4: __m256i,
        b5: __m256i,
        b6: __m256i,
    ) -> __m256i {
        let c = |k: usize| &t[16 * (first + k)..];
        // SAFETY: the token proves AVX2.
        unsafe {
            let p01 = _mm256_blendv_epi8(self.shuffle16(c(0), i), self.shuffle16(c(1), i), b4);
            let p23 = _mm256_blendv_epi8(self.shuffle16(c(2), i), self.shuffle16(c(3), i), b4);
            let p45 = _mm256_blendv_epi8(self.shuffle16(c(4), i), self.shuffle16(c(5), i), b4);
            let p67 = _mm256_blendv_epi8(self.shuffle16(c(6), i), self.shuffle16(c(7), i), b4);
            let p03 = _mm256_blendv_epi8(p01, p23, b5);
            let p47 = _mm256_blendv_epi8(p45, p67, b5);
            _mm256_blendv_epi8(p03, p47, b6)
        }
    }

    /// `t[i mod 16]` for every byte `i` of `idx`, `t` a 16-byte table.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn shuffle16(self, t: &[u8], idx: __m256i) -> __m256i {
        let t = &t[..16];
        // SAFETY: the token proves AVX2; the load reads the 16 bytes of `t`.
        unsafe {
            let chunk = _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
            _mm256_shuffle_epi8(chunk, _mm256_and_si256(idx, _mm256_set1_epi8(0x0F)))
        }
    }

    /// Entries `t[h mod 16]` of a table of −1, 0, 1 given as bytes, for the
    /// 8 hashes of one part, widened to `f32` (exactly −1.0, +0.0, 1.0, as in
    /// the `f32` tables). The `vpshufb` covers all 32 hashes, the same for
    /// every part, so it is computed once per pack.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units(self, bytes: &[u8; 16], h: PartHashes) -> F32x8 {
        let dwords = self.widen(self.shuffle16(bytes, h.bytes), h.k);
        // SAFETY: the token proves AVX2.
        F32x8(unsafe { _mm256_cvtepi32_ps(dwords) })
    }

    /// Bytes `8k..8k + 8` of `v` sign-extended to dwords.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn widen(self, v: __m256i, k: usize) -> __m256i {
        // SAFETY: the token proves AVX2.
        unsafe {
            let half = if k < 2 {
                _mm256_castsi256_si128(v)
            } else {
                _mm256_extracti128_si256::<1>(v)
            };
            let quarter = if k & 1 == 0 {
                half
            } else {
                _mm_unpackhi_epi64(half, half)
            };
            _mm256_cvtepi8_epi32(quarter)
        }
    }
}

pack_lanes!(Avx2, F32x32);

impl Lanes<Avx2> for F32x8 {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(_: Avx2, v: f32) -> F32x8 {
        // SAFETY: the token proves AVX2 (hence AVX).
        F32x8(unsafe { _mm256_set1_ps(v) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(_: Avx2, a: F32x8, b: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2 (vminps is AVX).
        F32x8(unsafe { _mm256_min_ps(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(_: Avx2, a: F32x8, b: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2 (vmaxps is AVX).
        F32x8(unsafe { _mm256_max_ps(a.0, b.0) })
    }
}

/// `v` with its making hidden (see [`Simd::opaque_p`]): an empty `asm!`
/// passing `v` through its own register.
#[target_feature(enable = "avx2")]
#[inline]
fn opaque256(v: __m256i) -> __m256i {
    let mut v = v;
    // SAFETY: the template is only a comment naming the register: no
    // instruction runs, no memory, stack or flags are touched, and `v`
    // comes back unchanged.
    unsafe {
        core::arch::asm!("/* {0} */", inout(ymm_reg) v, options(pure, nomem, nostack, preserves_flags));
    }
    v
}

impl Simd for Avx2 {
    const LEVEL: crate::Level = crate::Level::Avx2;
    const LANES: usize = 32;
    const PARTS: usize = 4;
    type F = F32x32;
    type P = F32x8;
    type I = U8x32;
    type H = PartHashes;
    type Perm<'a> = PermChunks<'a>;
    type U = U32x32;
    type UP = U32x8;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(self, v: f32) -> F32x32 {
        // SAFETY: the token proves AVX2 (hence AVX).
        F32x32([unsafe { _mm256_set1_ps(v) }; 4])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_i(self, v: i32) -> U8x32 {
        // SAFETY: the token proves AVX2. Only the value mod 256 matters.
        U8x32(unsafe { _mm256_set1_epi8(v as i8) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load(self, src: &[f32]) -> F32x32 {
        let src = &src[..32];
        // SAFETY: the token proves AVX2; `src` has 32 floats (sliced above).
        F32x32(each_vector!(|k| unsafe {
            _mm256_loadu_ps(src[8 * k..].as_ptr())
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store(self, v: F32x32, dst: &mut [f32]) {
        let dst = &mut dst[..32];
        // SAFETY: the token proves AVX2; `dst` has room for 32 floats.
        unsafe {
            _mm256_storeu_ps(dst.as_mut_ptr(), v.0[0]);
            _mm256_storeu_ps(dst[8..].as_mut_ptr(), v.0[1]);
            _mm256_storeu_ps(dst[16..].as_mut_ptr(), v.0[2]);
            _mm256_storeu_ps(dst[24..].as_mut_ptr(), v.0[3]);
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_streaming(self, v: F32x32, dst: &mut [f32]) {
        let dst = &mut dst[..32];
        if dst.as_ptr().align_offset(32) != 0 {
            return self.store(v, dst);
        }
        for (k, d) in dst.chunks_exact_mut(8).enumerate() {
            // SAFETY: the token proves AVX2; `d` is 8 floats starting at a
            // 32-byte boundary (checked above; 32 bytes per chunk).
            unsafe { _mm256_stream_ps(d.as_mut_ptr(), v.0[k]) }
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part(self, v: F32x32, k: usize) -> F32x8 {
        F32x8(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_ref(self, v: &F32x32, k: usize) -> F32x8 {
        F32x8(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_one(self, src: &[f32]) -> F32x8 {
        let src = &src[..8];
        // SAFETY: the token proves AVX2; `src` is 8 floats (sliced above).
        F32x8(unsafe { _mm256_loadu_ps(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_one(self, p: F32x8, dst: &mut [f32]) {
        let dst = &mut dst[..8];
        // SAFETY: the token proves AVX2; `dst` is 8 floats (sliced above).
        unsafe { _mm256_storeu_ps(dst.as_mut_ptr(), p.0) }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_part(self, src: &[f32], k: usize) -> F32x8 {
        let src = &src[..32][8 * k..8 * k + 8];
        // SAFETY: the token proves AVX2; `src` is 8 floats (sliced above).
        F32x8(unsafe { _mm256_loadu_ps(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_part(self, p: F32x8, dst: &mut [f32], k: usize) {
        let dst = &mut dst[..32][8 * k..8 * k + 8];
        // SAFETY: the token proves AVX2; `dst` is 8 floats (sliced above).
        unsafe { _mm256_storeu_ps(dst.as_mut_ptr(), p.0) }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_part(self, v: &mut F32x32, k: usize, p: F32x8) {
        v.0[k] = p.0;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(self, h: U8x32, k: usize) -> PartHashes {
        PartHashes { bytes: h.0, k }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor(self, v: F32x32) -> F32x32 {
        // SAFETY: the token proves AVX2 (vroundps is AVX).
        F32x32(each_vector!(|k| unsafe {
            _mm256_round_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(v.0[k])
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cell(self, floored: F32x32) -> U8x32 {
        let f = floored.0;
        // SAFETY: the token proves AVX2. cvttps2dq, low byte of each dword
        // (masked, so the unsigned-saturating packs keep it), packed in
        // 128-bit halves, then dwords reordered to byte 8k + j.
        U8x32(unsafe {
            let byte = _mm256_set1_epi32(255);
            let d = each_vector!(|k| _mm256_and_si256(_mm256_cvttps_epi32(f[k]), byte));
            let ab = _mm256_packus_epi32(d[0], d[1]);
            let ce = _mm256_packus_epi32(d[2], d[3]);
            let bytes = _mm256_packus_epi16(ab, ce);
            _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_cells(self, src: &[u8]) -> U8x32 {
        let src = &src[..32];
        // SAFETY: the token proves AVX2; `src` has 32 bytes (sliced above).
        // Byte order is already point order (byte 8k + j = point 8k + j).
        U8x32(unsafe { _mm256_loadu_si256(src.as_ptr().cast()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm_table(self, t: &PermTable) -> PermChunks<'_> {
        PermChunks(&t.bytes)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm(self, t: &PermChunks<'_>, i: U8x32) -> U8x32 {
        let i = i.0;
        // SAFETY: the token proves AVX2.
        U8x32(unsafe {
            // vpblendvb picks by bit 7 of each mask byte; shifting 16-bit words
            // left by 3, 2, 1 moves index bits 4, 5, 6 of every byte there.
            let b4 = _mm256_slli_epi16::<3>(i);
            let b5 = _mm256_slli_epi16::<2>(i);
            let b6 = _mm256_slli_epi16::<1>(i);
            let low = self.eight_chunks(t.0, 0, i, b4, b5, b6);
            let high = self.eight_chunks(t.0, 8, i, b4, b5, b6);
            _mm256_blendv_epi8(low, high, i)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table8(self, t: &[f32; 8], h: PartHashes) -> F32x8 {
        let dwords = self.widen(h.bytes, h.k);
        // SAFETY: the token proves AVX2; the load reads the 8 floats of `t`.
        // vpermps reads bits 0–2 of each index.
        F32x8(unsafe { _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr()), dwords) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table16(self, t: &[f32; 16], h: PartHashes) -> F32x8 {
        let dwords = self.widen(h.bytes, h.k);
        // SAFETY: the token proves AVX2; the loads read floats 0..8 and 8..16 of `t`.
        unsafe {
            let lo = _mm256_loadu_ps(t.as_ptr());
            let hi = _mm256_loadu_ps(t[8..].as_ptr());
            F32x8(permute16(lo, hi, dwords))
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table32(self, t: &[f32; 32], h: PartHashes) -> F32x8 {
        let dwords = self.widen(h.bytes, h.k);
        // SAFETY: the token proves AVX2; the loads read the 32 floats of `t`.
        unsafe {
            let q = each_vector!(|k| _mm256_loadu_ps(t[8 * k..].as_ptr()));
            let lo = permute16(q[0], q[1], dwords);
            let hi = permute16(q[2], q[3], dwords);
            // Bit 4 of the hash to the sign bit picks the upper half.
            let bit4 = _mm256_castsi256_ps(_mm256_slli_epi32::<27>(dwords));
            F32x8(_mm256_blendv_ps(lo, hi, bit4))
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units16(self, t: &[f32; 16], h: PartHashes) -> F32x8 {
        self.units(&unit_bytes::<16>(t), h)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units32(self, t: &[f32; 32], h: PartHashes) -> F32x8 {
        let bytes = unit_bytes::<32>(t);
        let lo = self.units(bytes[..16].try_into().unwrap(), h);
        let hi = self.units(bytes[16..].try_into().unwrap(), h);
        // SAFETY: the token proves AVX2. Bit 4 of each hash byte moved to bit
        // 7 and sign-extended: the dword's sign bit picks the half.
        unsafe {
            let bit4 = self.widen(_mm256_slli_epi16::<3>(h.bytes), h.k);
            F32x8(_mm256_blendv_ps(lo.0, hi.0, _mm256_castsi256_ps(bit4)))
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn copy_streaming(self, src: &[f32], dst: &mut [f32]) {
        assert_eq!(src.len(), dst.len());
        // Plain copies up to the first 32-byte boundary of `dst`, then
        // vmovntps, then the rest.
        let head = dst.as_ptr().align_offset(32).min(dst.len());
        dst[..head].copy_from_slice(&src[..head]);
        let (src, dst) = (&src[head..], &mut dst[head..]);
        let blocks = dst.len() / 8;
        for (d, s) in dst.chunks_exact_mut(8).zip(src.chunks_exact(8)) {
            // SAFETY: the token proves AVX2; `d` is 8 floats starting at a
            // 32-byte boundary (head peeled above), `s` 8 floats.
            unsafe { _mm256_stream_ps(d.as_mut_ptr(), _mm256_loadu_ps(s.as_ptr())) }
        }
        dst[8 * blocks..].copy_from_slice(&src[8 * blocks..]);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_fence(self) {
        // SAFETY: the token proves AVX2 (so SSE's sfence exists).
        unsafe { _mm_sfence() }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn canonical_nan(self, v: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2.
        F32x8(unsafe {
            let ordered = _mm256_cmp_ps::<_CMP_ORD_Q>(v.0, v.0);
            _mm256_blendv_ps(_mm256_set1_ps(f32::NAN), v.0, ordered)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32(self, floored: F32x32) -> (U32x32, bool) {
        let f = floored.0;
        // SAFETY: the token proves AVX2. cvttps2dq is exact for |v| < 2³¹
        // and gives 0x8000_0000 for every other lane (NaN, ±inf, huge), so
        // a lane equal to it may be out of range (or exactly −2³¹).
        unsafe {
            let cells = each_vector!(|k| _mm256_cvttps_epi32(f[k]));
            let bad = _mm256_set1_epi32(i32::MIN);
            let flags = each_vector!(|k| _mm256_cmpeq_epi32(cells[k], bad));
            let any = _mm256_or_si256(
                _mm256_or_si256(flags[0], flags[1]),
                _mm256_or_si256(flags[2], flags[3]),
            );
            (U32x32(cells), _mm256_testz_si256(any, any) == 1)
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor_part(self, v: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2 (vroundps is AVX).
        F32x8(unsafe { _mm256_round_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(v.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32_parts<const D: usize>(self, floored: &[F32x8; D]) -> Option<[U32x8; D]> {
        // SAFETY: the token proves AVX2. As `cells32`: a lane at
        // 0x8000_0000, the least i32, may be out of range; one signed `min`
        // over the parts finds whether any lane is.
        unsafe {
            let mut cells = [U32x8(_mm256_setzero_si256()); D];
            for (cells, floored) in cells.iter_mut().zip(floored) {
                *cells = U32x8(_mm256_cvttps_epi32(floored.0));
            }
            let mut least = cells[0].0;
            for c in &cells[1..] {
                least = _mm256_min_epi32(least, c.0);
            }
            let bad = _mm256_cmpeq_epi32(least, _mm256_set1_epi32(i32::MIN));
            if _mm256_testz_si256(bad, bad) == 1 {
                Some(cells)
            } else {
                None
            }
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32_parts_checked<const D: usize>(
        self,
        floored: &[F32x8; D],
        check: &mut U32x8,
    ) -> [U32x8; D] {
        let mut cells = [*check; D];
        for (cell, f) in cells.iter_mut().zip(floored) {
            // SAFETY: the token proves AVX2. cvttps2dq gives 0x8000_0000,
            // the least i32, for every lane out of range; the signed min
            // keeps it in `check`.
            unsafe {
                let c = _mm256_cvttps_epi32(f.0);
                check.0 = _mm256_min_epi32(check.0, c);
                *cell = U32x8(c);
            }
        }
        cells
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_check(self) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_set1_epi32(i32::MAX) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_checked(self, check: U32x8) -> bool {
        // SAFETY: the token proves AVX2. A lane at the least i32 may be out
        // of range (or exactly −2³¹, which `cells32` flags too).
        unsafe {
            let bad = _mm256_cmpeq_epi32(check.0, _mm256_set1_epi32(i32::MIN));
            _mm256_testz_si256(bad, bad) == 1
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_u32(self, src: &[u32]) -> U32x32 {
        let src = &src[..32];
        // SAFETY: the token proves AVX2; `src` has 32 lanes (sliced above).
        U32x32(each_vector!(|k| unsafe {
            _mm256_loadu_si256(src[8 * k..].as_ptr().cast())
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn opaque_p(self, v: F32x8) -> F32x8 {
        // SAFETY: the token proves AVX2.
        F32x8(unsafe { _mm256_castsi256_ps(opaque256(_mm256_castps_si256(v.0))) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn opaque_up(self, v: U32x8) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { opaque256(v.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_u32(self, v: U32x32, dst: &mut [u32]) {
        let dst = &mut dst[..32];
        for (k, d) in dst.chunks_exact_mut(8).enumerate() {
            // SAFETY: the token proves AVX2; `d` is 8 lanes.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), v.0[k]) }
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part(self, v: U32x32, k: usize) -> U32x8 {
        U32x8(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part_ref(self, v: &U32x32, k: usize) -> U32x8 {
        U32x8(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_u32_part(self, v: &mut U32x32, k: usize, p: U32x8) {
        v.0[k] = p.0;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min_u32(self, a: U32x8, b: U32x8) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_min_epu32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_u32(self, v: u32) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_set1_epi32(v as i32) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn add_u32(self, a: U32x8, b: U32x8) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_add_epi32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mul_u32(self, a: U32x8, b: U32x8) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_mullo_epi32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn xor_u32(self, a: U32x8, b: U32x8) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_xor_si256(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn shr_u32<const N: i32>(self, a: U32x8) -> U32x8 {
        // SAFETY: the token proves AVX2.
        U32x8(unsafe { _mm256_srli_epi32::<N>(a.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top8(self, t: &[f32; 8], h: U32x8) -> F32x8 {
        // SAFETY: the token proves AVX2; the load reads the 8 floats of `t`.
        // vpermps reads index bits 0–2: the hash's bits 29–31.
        F32x8(unsafe {
            _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr()), _mm256_srli_epi32::<29>(h.0))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top2(self, [clear, set]: [F32x8; 2], h: U32x8) -> F32x8 {
        // SAFETY: the token proves AVX2. vblendvps takes `set` where the
        // mask lane's sign bit (bit 31 of h) is 1.
        F32x8(unsafe { _mm256_blendv_ps(clear.0, set.0, _mm256_castsi256_ps(h.0)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top16(self, t: &[f32; 16], h: U32x8) -> F32x8 {
        // SAFETY: the token proves AVX2; the loads read the 16 floats of `t`.
        // Bits 28–30 index each half, bit 31 (the sign) picks the half.
        F32x8(unsafe {
            let i = _mm256_srli_epi32::<28>(h.0);
            let a = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr()), i);
            let b = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t[8..].as_ptr()), i);
            _mm256_blendv_ps(a, b, _mm256_castsi256_ps(h.0))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top24(self, h: U32x8) -> F32x8 {
        // SAFETY: the token proves AVX2; h >> 8 < 2²⁴ converts exactly.
        F32x8(unsafe { _mm256_cvtepi32_ps(_mm256_srli_epi32::<8>(h.0)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn byte_value(self, h: PartHashes) -> F32x8 {
        // SAFETY: the token proves AVX2. Bytes 8k..8k + 8 zero-extended.
        F32x8(unsafe {
            let half = if h.k < 2 {
                _mm256_castsi256_si128(h.bytes)
            } else {
                _mm256_extracti128_si256::<1>(h.bytes)
            };
            let quarter = if h.k & 1 == 0 {
                half
            } else {
                _mm_unpackhi_epi64(half, half)
            };
            _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(quarter))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn abs(self, v: F32x32) -> F32x32 {
        let v = v.0;
        // SAFETY: the token proves AVX2 (vandnps is AVX).
        F32x32(each_vector!(|k| unsafe {
            _mm256_andnot_ps(_mm256_set1_ps(-0.0), v[k])
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(self, a: F32x32, b: F32x32) -> F32x32 {
        let (a, b) = (a.0, b.0);
        // SAFETY: the token proves AVX2 (vminps is AVX).
        F32x32(each_vector!(|k| unsafe { _mm256_min_ps(a[k], b[k]) }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(self, a: F32x32, b: F32x32) -> F32x32 {
        let (a, b) = (a.0, b.0);
        // SAFETY: the token proves AVX2 (vmaxps is AVX).
        F32x32(each_vector!(|k| unsafe { _mm256_max_ps(a[k], b[k]) }))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn outlined<J: crate::simd::OutlinedJob<Self>>(self, job: J) -> J::Output {
        // SAFETY: `self` is the token, so AVX2 was detected.
        unsafe { run_outlined(self, job) }
    }
}
