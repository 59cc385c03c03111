//! NEON backend (aarch64 Advanced SIMD): one kernel pack is 4 × 4 = 16 points.
//!
//! Floats are `[float32x4_t; 4]`; the kernel's integer lanes are bytes, one
//! `uint8x16_t` for the 16 points (hash arithmetic is mod 256), in point
//! order. A permutation lookup is four `tbl`/`tbx` reads of 64-byte table
//! quarters (`vqtbl4q_u8` gives 0 for indices past its 64 bytes, `vqtbx4q_u8`
//! keeps what is there, so index `i ^ 64·q` reaches quarter `q` only).
//! Float tables are read the same way, by bytes: a part's hash bytes are
//! spread to the four bytes of their lanes (`4·entry + byte`), so `tbl` over
//! the table's bytes returns the entries' own bits. Gradient components (−1,
//! 0, 1) are signed bytes: one `tbl` serves the 16 points, widened per part.

use crate::simd::backend::{each_vector, job_shim, pack_ops, unit_bytes, vector_ops};
use crate::simd::{Lanes, PermTable, Simd, pack_lanes};
use core::arch::aarch64::*;

job_shim!(Neon, "neon");

/// Whether this CPU has NEON (uncached; see [`crate::Level::is_available`]).
pub(crate) fn cpu_has() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

/// Proof that this CPU has NEON.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon(());

impl Neon {
    /// `Some` exactly when the CPU has NEON.
    #[inline]
    pub(crate) fn new() -> Option<Neon> {
        crate::Level::Neon.is_available().then_some(Neon(()))
    }
}

/// 2³¹: the first magnitude an `i32` cannot hold.
const I32_RANGE: f32 = 2_147_483_648.0;

/// 16 floats: point `4k + j` is lane `j` of vector `k`.
#[derive(Clone, Copy)]
pub(crate) struct F32x16([float32x4_t; 4]);
pack_ops!(F32x16, "neon", Add add vaddq_f32, Sub sub vsubq_f32, Mul mul vmulq_f32);

/// One part: 4 floats.
#[derive(Clone, Copy)]
pub(crate) struct F32x4(float32x4_t);
vector_ops!(F32x4, "neon", Add add vaddq_f32, Sub sub vsubq_f32, Mul mul vmulq_f32);

/// 16 bytes: byte `4k + j` belongs to point `4k + j`.
#[derive(Clone, Copy)]
pub(crate) struct U8x16(uint8x16_t);
vector_ops!(U8x16, "neon", Add add vaddq_u8);

/// The hashes of part `k`: bytes `4k..4k + 4` of all 16 (byte table reads
/// work on all 16 at once, the same for every part).
#[derive(Clone, Copy)]
pub(crate) struct PartHashes {
    bytes: uint8x16_t,
    k: usize,
}

/// 16 cells or hashes of 32 bits: point `4k + j` is lane `j` of vector `k`.
#[derive(Clone, Copy)]
pub(crate) struct U32x16([uint32x4_t; 4]);
/// One part's 32-bit lanes.
#[derive(Clone, Copy)]
pub(crate) struct U32x4(uint32x4_t);

/// The permutation as four 64-byte table quarters, loaded once per job.
#[derive(Clone, Copy)]
pub(crate) struct PermQuarters([uint8x16x4_t; 4]);

/// For part `k`: byte `b` of lane `j` reads hash byte `4k + j`.
const SPREAD: [[u8; 16]; 4] = {
    let mut s = [[0u8; 16]; 4];
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 16 {
            s[k][b] = (4 * k + b / 4) as u8;
            b += 1;
        }
        k += 1;
    }
    s
};

/// Byte `b` of each 4-byte lane: `[0, 1, 2, 3, 0, 1, 2, 3, …]`.
const BYTE_OF_LANE: [u8; 16] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3];

impl Neon {
    /// Byte indices `4·(h mod (mask + 1)) + b` into a table of `f32`s for the
    /// four hashes of part `h.k` (`mask + 1` a power of two, at most 32).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn entry_bytes(self, h: PartHashes, mask: u8) -> uint8x16_t {
        // SAFETY: the token proves NEON; the loads read 16-byte constants.
        unsafe {
            let spread = vqtbl1q_u8(h.bytes, vld1q_u8(SPREAD[h.k].as_ptr()));
            let entry = vandq_u8(spread, vdupq_n_u8(mask));
            vorrq_u8(vshlq_n_u8::<2>(entry), vld1q_u8(BYTE_OF_LANE.as_ptr()))
        }
    }

    /// Byte indices `4·e + b` for 32-bit lanes holding entries `e < 64`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn lane_entry_bytes(self, e: uint32x4_t) -> uint8x16_t {
        // SAFETY: the token proves NEON. `e · 0x0404_0404` puts `4e` in every
        // byte of the lane (4e < 256, no carries); the add sets byte `b`.
        unsafe {
            let four_e = vmulq_u32(e, vdupq_n_u32(0x0404_0404));
            vreinterpretq_u8_u32(vaddq_u32(four_e, vdupq_n_u32(0x0302_0100)))
        }
    }

    /// Signed bytes `4k..4k + 4` of `v` as `f32` (exact).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn widen_signed(self, v: uint8x16_t, k: usize) -> float32x4_t {
        // SAFETY: the token proves NEON.
        unsafe {
            let v = vreinterpretq_s8_u8(v);
            let half = vmovl_s8(if k < 2 {
                vget_low_s8(v)
            } else {
                vget_high_s8(v)
            });
            let quarter = if k & 1 == 0 {
                vget_low_s16(half)
            } else {
                vget_high_s16(half)
            };
            vcvtq_f32_s32(vmovl_s16(quarter))
        }
    }

    /// Unsigned bytes `4k..4k + 4` of `v` as `f32` (exact).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn widen_unsigned(self, v: uint8x16_t, k: usize) -> float32x4_t {
        // SAFETY: the token proves NEON.
        unsafe {
            let half = vmovl_u8(if k < 2 {
                vget_low_u8(v)
            } else {
                vget_high_u8(v)
            });
            let quarter = if k & 1 == 0 {
                vget_low_u16(half)
            } else {
                vget_high_u16(half)
            };
            vcvtq_f32_u32(vmovl_u16(quarter))
        }
    }

    /// `|v| < 2³¹` per lane, all ones or zero (false for NaN).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn in_i32_range(self, v: float32x4_t) -> uint32x4_t {
        // SAFETY: the token proves NEON.
        unsafe { vcaltq_f32(v, vdupq_n_f32(I32_RANGE)) }
    }
}

pack_lanes!(Neon, F32x16);

impl Lanes<Neon> for F32x4 {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(_: Neon, v: f32) -> F32x4 {
        // SAFETY: the token proves NEON.
        F32x4(unsafe { vdupq_n_f32(v) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(_: Neon, a: F32x4, b: F32x4) -> F32x4 {
        // SAFETY: the token proves NEON. A select on `a < b`, as `Simd::min`.
        F32x4(unsafe { vbslq_f32(vcltq_f32(a.0, b.0), a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(_: Neon, a: F32x4, b: F32x4) -> F32x4 {
        // SAFETY: the token proves NEON. A select on `a > b`, as `Simd::max`.
        F32x4(unsafe { vbslq_f32(vcgtq_f32(a.0, b.0), a.0, b.0) })
    }
}

impl Simd for Neon {
    const LEVEL: crate::Level = crate::Level::Neon;
    const LANES: usize = 16;
    const PARTS: usize = 4;
    type F = F32x16;
    type P = F32x4;
    type I = U8x16;
    type H = PartHashes;
    type Perm<'a> = PermQuarters;
    type U = U32x16;
    type UP = U32x4;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(self, v: f32) -> F32x16 {
        // SAFETY: the token proves NEON.
        F32x16([unsafe { vdupq_n_f32(v) }; 4])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_i(self, v: i32) -> U8x16 {
        // SAFETY: the token proves NEON. Only the value mod 256 matters.
        U8x16(unsafe { vdupq_n_u8(v as u8) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load(self, src: &[f32]) -> F32x16 {
        let src = &src[..16];
        // SAFETY: the token proves NEON; `src` has 16 floats (sliced above).
        F32x16(each_vector!(|k| unsafe {
            vld1q_f32(src[4 * k..].as_ptr())
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store(self, v: F32x16, dst: &mut [f32]) {
        let dst = &mut dst[..16];
        // SAFETY: the token proves NEON; `dst` has room for 16 floats.
        unsafe {
            vst1q_f32(dst.as_mut_ptr(), v.0[0]);
            vst1q_f32(dst[4..].as_mut_ptr(), v.0[1]);
            vst1q_f32(dst[8..].as_mut_ptr(), v.0[2]);
            vst1q_f32(dst[12..].as_mut_ptr(), v.0[3]);
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part(self, v: F32x16, k: usize) -> F32x4 {
        F32x4(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_ref(self, v: &F32x16, k: usize) -> F32x4 {
        F32x4(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_one(self, src: &[f32]) -> F32x4 {
        let src = &src[..4];
        // SAFETY: the token proves NEON; `src` is 4 floats (sliced above).
        F32x4(unsafe { vld1q_f32(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_one(self, p: F32x4, dst: &mut [f32]) {
        let dst = &mut dst[..4];
        // SAFETY: the token proves NEON; `dst` is 4 floats (sliced above).
        unsafe { vst1q_f32(dst.as_mut_ptr(), p.0) }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_part(self, src: &[f32], k: usize) -> F32x4 {
        let src = &src[..16][4 * k..4 * k + 4];
        // SAFETY: the token proves NEON; `src` is 4 floats (sliced above).
        F32x4(unsafe { vld1q_f32(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_part(self, p: F32x4, dst: &mut [f32], k: usize) {
        let dst = &mut dst[..16][4 * k..4 * k + 4];
        // SAFETY: the token proves NEON; `dst` is 4 floats (sliced above).
        unsafe { vst1q_f32(dst.as_mut_ptr(), p.0) }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_part(self, v: &mut F32x16, k: usize, p: F32x4) {
        v.0[k] = p.0;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(self, h: U8x16, k: usize) -> PartHashes {
        PartHashes { bytes: h.0, k }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor(self, v: F32x16) -> F32x16 {
        let v = v.0;
        // SAFETY: the token proves NEON. frintm: IEEE floor, −0 stays −0,
        // ±inf and NaN pass through.
        F32x16(each_vector!(|k| unsafe { vrndmq_f32(v[k]) }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cell(self, floored: F32x16) -> U8x16 {
        let f = floored.0;
        // SAFETY: the token proves NEON. fcvtzs is exact where |v| < 2³¹;
        // other lanes (it saturates there) are cleared to 0. The low bytes
        // of the 16 dwords, in point order, by two rounds of `uzp1`.
        U8x16(unsafe {
            let d = each_vector!(|k| vandq_u32(
                vreinterpretq_u32_s32(vcvtq_s32_f32(f[k])),
                self.in_i32_range(f[k])
            ));
            let ab = vuzp1q_u16(vreinterpretq_u16_u32(d[0]), vreinterpretq_u16_u32(d[1]));
            let cd = vuzp1q_u16(vreinterpretq_u16_u32(d[2]), vreinterpretq_u16_u32(d[3]));
            vuzp1q_u8(vreinterpretq_u8_u16(ab), vreinterpretq_u8_u16(cd))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_cells(self, src: &[u8]) -> U8x16 {
        let src = &src[..16];
        // SAFETY: the token proves NEON; `src` has 16 bytes (sliced above).
        U8x16(unsafe { vld1q_u8(src.as_ptr()) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm_table(self, t: &PermTable) -> PermQuarters {
        let t = &t.bytes;
        // SAFETY: the token proves NEON; each load reads 64 of the 256 bytes.
        PermQuarters(each_vector!(|q| unsafe {
            vld1q_u8_x4(t[64 * q..].as_ptr())
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm(self, t: &PermQuarters, i: U8x16) -> U8x16 {
        let (t, i) = (t.0, i.0);
        // SAFETY: the token proves NEON. `i ^ 64q` is below 64 exactly for
        // the indices of quarter q; tbl gives 0 and tbx keeps the result
        // for the others.
        U8x16(unsafe {
            let r = vqtbl4q_u8(t[0], i);
            let r = vqtbx4q_u8(r, t[1], veorq_u8(i, vdupq_n_u8(0x40)));
            let r = vqtbx4q_u8(r, t[2], veorq_u8(i, vdupq_n_u8(0x80)));
            vqtbx4q_u8(r, t[3], veorq_u8(i, vdupq_n_u8(0xC0)))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table8(self, t: &[f32; 8], h: PartHashes) -> F32x4 {
        let idx = self.entry_bytes(h, 7);
        // SAFETY: the token proves NEON; the load reads the 32 bytes of `t`.
        F32x4(unsafe { vreinterpretq_f32_u8(vqtbl2q_u8(vld1q_u8_x2(t.as_ptr().cast()), idx)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table16(self, t: &[f32; 16], h: PartHashes) -> F32x4 {
        let idx = self.entry_bytes(h, 15);
        // SAFETY: the token proves NEON; the load reads the 64 bytes of `t`.
        F32x4(unsafe { vreinterpretq_f32_u8(vqtbl4q_u8(vld1q_u8_x4(t.as_ptr().cast()), idx)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table32(self, t: &[f32; 32], h: PartHashes) -> F32x4 {
        let idx = self.entry_bytes(h, 31);
        // SAFETY: the token proves NEON; the loads read the 128 bytes of `t`.
        // Indices 64..128 reach the upper half through `idx ^ 64`.
        F32x4(unsafe {
            let lo = vqtbl4q_u8(vld1q_u8_x4(t.as_ptr().cast()), idx);
            let hi = vld1q_u8_x4(t[16..].as_ptr().cast());
            vreinterpretq_f32_u8(vqtbx4q_u8(lo, hi, veorq_u8(idx, vdupq_n_u8(64))))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units16(self, t: &[f32; 16], h: PartHashes) -> F32x4 {
        let bytes = unit_bytes::<16>(t);
        // SAFETY: the token proves NEON; the load reads the 16 table bytes.
        let v = unsafe { vqtbl1q_u8(vld1q_u8(bytes.as_ptr()), vandq_u8(h.bytes, vdupq_n_u8(15))) };
        F32x4(self.widen_signed(v, h.k))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units32(self, t: &[f32; 32], h: PartHashes) -> F32x4 {
        let bytes = unit_bytes::<32>(t);
        // SAFETY: the token proves NEON; the load reads the 32 table bytes.
        let v = unsafe {
            vqtbl2q_u8(
                vld1q_u8_x2(bytes.as_ptr()),
                vandq_u8(h.bytes, vdupq_n_u8(31)),
            )
        };
        F32x4(self.widen_signed(v, h.k))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn canonical_nan(self, v: F32x4) -> F32x4 {
        // SAFETY: the token proves NEON. A lane equals itself unless NaN.
        F32x4(unsafe { vbslq_f32(vceqq_f32(v.0, v.0), v.0, vdupq_n_f32(f32::NAN)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32(self, floored: F32x16) -> (U32x16, bool) {
        let f = floored.0;
        // SAFETY: the token proves NEON. fcvtzs is exact for |v| < 2³¹;
        // the flag says whether every lane was there.
        unsafe {
            let cells = each_vector!(|k| vreinterpretq_u32_s32(vcvtq_s32_f32(f[k])));
            let ok = each_vector!(|k| self.in_i32_range(f[k]));
            let all = vandq_u32(vandq_u32(ok[0], ok[1]), vandq_u32(ok[2], ok[3]));
            (U32x16(cells), vminvq_u32(all) == u32::MAX)
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32_parts_checked<const D: usize>(
        self,
        floored: &[F32x4; D],
        check: &mut U32x4,
    ) -> [U32x4; D] {
        let mut cells = [*check; D];
        for (cell, f) in cells.iter_mut().zip(floored) {
            // SAFETY: the token proves NEON. fcvtzs is exact for |v| < 2³¹;
            // the range mask clears the other lanes of `check`.
            unsafe {
                *cell = U32x4(vreinterpretq_u32_s32(vcvtq_s32_f32(f.0)));
                check.0 = vandq_u32(check.0, self.in_i32_range(f.0));
            }
        }
        cells
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_check(self) -> U32x4 {
        // SAFETY: the token proves NEON.
        U32x4(unsafe { vdupq_n_u32(u32::MAX) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_checked(self, check: U32x4) -> bool {
        // SAFETY: the token proves NEON.
        unsafe { vminvq_u32(check.0) == u32::MAX }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_u32(self, src: &[u32]) -> U32x16 {
        let src = &src[..16];
        // SAFETY: the token proves NEON; `src` has 16 lanes (sliced above).
        U32x16(each_vector!(|k| unsafe {
            vld1q_u32(src[4 * k..].as_ptr())
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_u32(self, v: U32x16, dst: &mut [u32]) {
        let dst = &mut dst[..16];
        for (k, d) in dst.chunks_exact_mut(4).enumerate() {
            // SAFETY: the token proves NEON; `d` is 4 lanes.
            unsafe { vst1q_u32(d.as_mut_ptr(), v.0[k]) }
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part(self, v: U32x16, k: usize) -> U32x4 {
        U32x4(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part_ref(self, v: &U32x16, k: usize) -> U32x4 {
        U32x4(v.0[k])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_u32_part(self, v: &mut U32x16, k: usize, p: U32x4) {
        v.0[k] = p.0;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_u32(self, v: u32) -> U32x4 {
        // SAFETY: the token proves NEON.
        U32x4(unsafe { vdupq_n_u32(v) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn add_u32(self, a: U32x4, b: U32x4) -> U32x4 {
        // SAFETY: the token proves NEON.
        U32x4(unsafe { vaddq_u32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mul_u32(self, a: U32x4, b: U32x4) -> U32x4 {
        // SAFETY: the token proves NEON. mul keeps the low 32 bits.
        U32x4(unsafe { vmulq_u32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn xor_u32(self, a: U32x4, b: U32x4) -> U32x4 {
        // SAFETY: the token proves NEON.
        U32x4(unsafe { veorq_u32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min_u32(self, a: U32x4, b: U32x4) -> U32x4 {
        // SAFETY: the token proves NEON.
        U32x4(unsafe { vminq_u32(a.0, b.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn shr_u32<const N: i32>(self, a: U32x4) -> U32x4 {
        // SAFETY: the token proves NEON; 0 < N < 32 (the trait's contract).
        U32x4(unsafe { vshrq_n_u32::<N>(a.0) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top8(self, t: &[f32; 8], h: U32x4) -> F32x4 {
        // SAFETY: the token proves NEON; the load reads the 32 bytes of `t`.
        F32x4(unsafe {
            let idx = self.lane_entry_bytes(vshrq_n_u32::<29>(h.0));
            vreinterpretq_f32_u8(vqtbl2q_u8(vld1q_u8_x2(t.as_ptr().cast()), idx))
        })
    }
    const SIGNED_TOP_BLENDS: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn signed_top(self, [p, _]: [F32x4; 2], h: U32x4) -> F32x4 {
        // SAFETY: the token proves NEON. `h`'s top bit xored into `p`'s
        // sign (two operations, as the blend's are, on one register).
        F32x4(unsafe {
            let sign = vandq_u32(h.0, vdupq_n_u32(1 << 31));
            vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(p.0), sign))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top2(self, [clear, set]: [F32x4; 2], h: U32x4) -> F32x4 {
        // SAFETY: the token proves NEON. The arithmetic shift spreads bit 31
        // over the lane; bsl takes `set` where the mask's bits are 1.
        F32x4(unsafe {
            let top = vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(h.0)));
            vbslq_f32(top, set.0, clear.0)
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top16(self, t: &[f32; 16], h: U32x4) -> F32x4 {
        // SAFETY: the token proves NEON; the load reads the 64 bytes of `t`.
        F32x4(unsafe {
            let idx = self.lane_entry_bytes(vshrq_n_u32::<28>(h.0));
            vreinterpretq_f32_u8(vqtbl4q_u8(vld1q_u8_x4(t.as_ptr().cast()), idx))
        })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top24(self, h: U32x4) -> F32x4 {
        // SAFETY: the token proves NEON; h >> 8 < 2²⁴ converts exactly.
        F32x4(unsafe { vcvtq_f32_u32(vshrq_n_u32::<8>(h.0)) })
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn byte_value(self, h: PartHashes) -> F32x4 {
        F32x4(self.widen_unsigned(h.bytes, h.k))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn abs(self, v: F32x16) -> F32x16 {
        let v = v.0;
        // SAFETY: the token proves NEON. fabs clears the sign bit only.
        F32x16(each_vector!(|k| unsafe { vabsq_f32(v[k]) }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(self, a: F32x16, b: F32x16) -> F32x16 {
        let (a, b) = (a.0, b.0);
        // SAFETY: the token proves NEON. A select on `a < b`, not fmin:
        // `b` whenever the comparison is false (NaN included).
        F32x16(each_vector!(|k| unsafe {
            vbslq_f32(vcltq_f32(a[k], b[k]), a[k], b[k])
        }))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(self, a: F32x16, b: F32x16) -> F32x16 {
        let (a, b) = (a.0, b.0);
        // SAFETY: the token proves NEON. A select on `a > b`, as `min`.
        F32x16(each_vector!(|k| unsafe {
            vbslq_f32(vcgtq_f32(a[k], b[k]), a[k], b[k])
        }))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn outlined<J: crate::simd::OutlinedJob<Self>>(self, job: J) -> J::Output {
        // SAFETY: `self` is the token, so NEON was detected.
        unsafe { run_outlined(self, job) }
    }
}
