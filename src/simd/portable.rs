//! The portable backend: `wide::f32x4`, whose instructions are fixed when the
//! crate is compiled (`cfg(target_feature)`): SSE2 on a default x86_64 build,
//! NEON on aarch64, scalar code elsewhere. It is not used inside the AVX
//! shims, where it would still emit the compile-time instructions.
//!
//! `wide`'s own `floor` falls back to one `floorf` call per lane without
//! SSE4.1, so this backend floors with integer truncation instead (exact, see
//! [`Portable::floor`]). Table reads go lane by lane.

use super::{PermTable, Simd, pack_lanes};
use wide::bytemuck::cast;
use wide::{f32x4, i32x4, u32x4};

/// Token of the portable backend; always available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

/// 2²³: from here on every f32 is an integer.
const INTEGRAL: f32 = 8_388_608.0;

/// 2³¹: the first magnitude an `i32` cannot hold.
const I32_RANGE: f32 = 2_147_483_648.0;

pack_lanes!(Portable, f32x4);

impl Simd for Portable {
    const LEVEL: crate::Level = crate::Level::Portable;
    const LANES: usize = 4;
    const PARTS: usize = 1;
    type F = f32x4;
    type P = f32x4;
    type I = i32x4;
    type H = i32x4;
    type Perm<'a> = &'a [u8; 256];
    type U = u32x4;
    type UP = u32x4;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(self, v: f32) -> f32x4 {
        f32x4::splat(v)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_i(self, v: i32) -> i32x4 {
        i32x4::splat(v)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_one(self, src: &[f32]) -> f32x4 {
        self.load(src)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_one(self, v: f32x4, dst: &mut [f32]) {
        self.store(v, dst);
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load(self, src: &[f32]) -> f32x4 {
        let a: [f32; 4] = src[..4].try_into().unwrap();
        f32x4::new(a)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store(self, v: f32x4, dst: &mut [f32]) {
        dst[..4].copy_from_slice(&v.to_array());
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part(self, v: f32x4, _: usize) -> f32x4 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_part(self, v: &mut f32x4, _: usize, p: f32x4) {
        *v = p;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(self, h: i32x4, _: usize) -> i32x4 {
        h
    }
    /// Exact floor: below 2²³ truncate through i32 (keeping the sign of −0),
    /// then step down where truncation rounded up; at and above 2²³ (and for
    /// NaN, ±inf) the input is its own floor.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor(self, v: f32x4) -> f32x4 {
        let sign = v & f32x4::splat(-0.0);
        let t = v.fast_trunc_int().round_float() | sign;
        let t = t - t.simd_gt(v).select(f32x4::splat(1.0), f32x4::splat(0.0));
        v.abs().simd_lt(f32x4::splat(INTEGRAL)).select(t, v)
    }
    /// Truncation is exact where |v| < 2³¹; every other lane (multiples of
    /// 256, NaN, ±inf) is 0 by an explicit select, whatever the target's
    /// out-of-range conversion gives (SSE2 `i32::MIN`, NEON saturation).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cell(self, floored: f32x4) -> i32x4 {
        let in_range = floored.abs().simd_lt(f32x4::splat(I32_RANGE));
        let v = in_range.select(floored, f32x4::splat(0.0));
        v.fast_trunc_int() & i32x4::splat(255)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_cells(self, src: &[u8]) -> i32x4 {
        let b = &src[..4];
        i32x4::new([b[0], b[1], b[2], b[3]].map(i32::from))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm_table(self, t: &PermTable) -> &[u8; 256] {
        &t.bytes
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm(self, t: &&[u8; 256], i: i32x4) -> i32x4 {
        i32x4::new(i.to_array().map(|i| i32::from(t[(i & 255) as usize])))
    }
    /// Lane by lane with an explicit range test, so the result does not
    /// depend on what the target's float-to-int conversion does out of range.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32(self, floored: f32x4) -> (u32x4, bool) {
        let lanes = floored.to_array();
        let exact = lanes.iter().all(|v| v.abs() < I32_RANGE);
        let cells = lanes.map(|v| {
            if v.abs() < I32_RANGE {
                v as i32 as u32
            } else {
                0
            }
        });
        (u32x4::new(cells), exact)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_u32(self, src: &[u32]) -> u32x4 {
        let a: [u32; 4] = src[..4].try_into().unwrap();
        u32x4::new(a)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_u32(self, v: u32x4, dst: &mut [u32]) {
        dst[..4].copy_from_slice(&v.to_array());
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part(self, v: u32x4, _: usize) -> u32x4 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_u32_part(self, v: &mut u32x4, _: usize, p: u32x4) {
        *v = p;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_u32(self, v: u32) -> u32x4 {
        u32x4::splat(v)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn add_u32(self, a: u32x4, b: u32x4) -> u32x4 {
        a + b
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mul_u32(self, a: u32x4, b: u32x4) -> u32x4 {
        a * b
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn xor_u32(self, a: u32x4, b: u32x4) -> u32x4 {
        a ^ b
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn shr_u32<const N: i32>(self, a: u32x4) -> u32x4 {
        a >> N as u32
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn byte_value(self, h: i32x4) -> f32x4 {
        (h & i32x4::splat(255)).round_float()
    }
    // Overrides, measured (callgrind, permuted fill3 and grids): table reads straight from
    // the hash's integer lanes, and the top bits' reads lane by lane with
    // no pack around them (the default bodies go through byte_value and
    // whole packs).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table8(self, t: &[f32; 8], h: i32x4) -> f32x4 {
        f32x4::new(h.to_array().map(|h| t[(h & 7) as usize]))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table16(self, t: &[f32; 16], h: i32x4) -> f32x4 {
        f32x4::new(h.to_array().map(|h| t[(h & 15) as usize]))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table32(self, t: &[f32; 32], h: i32x4) -> f32x4 {
        f32x4::new(h.to_array().map(|h| t[(h & 31) as usize]))
    }
    /// On x86_64 through an empty `asm!`: without it, each doubling of a
    /// hash became another SSE2 multiply (two `pmuludq` and three
    /// shuffles). Elsewhere `v` as it is.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn opaque_up(self, v: u32x4) -> u32x4 {
        #[cfg(target_arch = "x86_64")]
        {
            let mut r: core::arch::x86_64::__m128i = cast(v);
            // SAFETY: the template is only a comment naming the register
            // (SSE2, part of x86_64): no instruction runs, no memory, stack
            // or flags are touched, and `r` comes back unchanged.
            unsafe {
                core::arch::asm!("/* {0} */", inout(xmm_reg) r, options(pure, nomem, nostack, preserves_flags));
            }
            cast(r)
        }
        #[cfg(not(target_arch = "x86_64"))]
        v
    }
    const SIGNED_TOP_BLENDS: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn signed_top(self, [p, _]: [f32x4; 2], h: u32x4) -> f32x4 {
        // `h`'s top bit xored into `p`'s sign: two operations, where the
        // select is four without SSE4.1's blend.
        cast(cast::<f32x4, u32x4>(p) ^ (h & u32x4::splat(1 << 31)))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top2(self, [clear, set]: [f32x4; 2], h: u32x4) -> f32x4 {
        // The top bit spread over its lane (an arithmetic shift), then a
        // select: lane by lane, the optimiser made a branch per lane of
        // operands it had spilled.
        let mask: f32x4 = cast(cast::<u32x4, i32x4>(h) >> 31);
        mask.select(set, clear)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top8(self, t: &[f32; 8], h: u32x4) -> f32x4 {
        f32x4::new(h.to_array().map(|h| t[(h >> 29) as usize]))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top16(self, t: &[f32; 16], h: u32x4) -> f32x4 {
        f32x4::new(h.to_array().map(|h| t[(h >> 28) as usize]))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top24(self, h: u32x4) -> f32x4 {
        f32x4::new(h.to_array().map(|h| (h >> 8) as f32))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(self, a: f32x4, b: f32x4) -> f32x4 {
        a.simd_lt(b).select(a, b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(self, a: f32x4, b: f32x4) -> f32x4 {
        a.simd_gt(b).select(a, b)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn outlined<J: super::OutlinedJob<Self>>(self, job: J) -> J::Output {
        #[inline(never)]
        fn call<J: super::OutlinedJob<Portable>>(s: Portable, job: J) -> J::Output {
            job.run(s)
        }
        call(self, job)
    }
}
