//! The one-lane backend: plain `f32`. It is the definition the vector
//! backends are tested against, and what one-point `noise` runs. Besides
//! the core of [`Simd`] it overrides only the table and top-bit reads
//! (measured); every other helper runs its default body.

use super::{PermTable, Simd, pack_lanes};

/// Token of the scalar backend; always available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalar;

/// 2³¹: the first magnitude an `i32` cannot hold.
const I32_RANGE: f32 = 2_147_483_648.0;

pack_lanes!(Scalar, f32);

impl Simd for Scalar {
    const LEVEL: crate::Level = crate::Level::Scalar;
    const LANES: usize = 1;
    const PARTS: usize = 1;
    type F = f32;
    type P = f32;
    type I = i32;
    type H = i32;
    type Perm<'a> = &'a [u8; 256];
    type U = u32;
    type UP = u32;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat(self, v: f32) -> f32 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_i(self, v: i32) -> i32 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_one(self, src: &[f32]) -> f32 {
        src[0]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_one(self, v: f32, dst: &mut [f32]) {
        dst[0] = v;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load(self, src: &[f32]) -> f32 {
        src[0]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store(self, v: f32, dst: &mut [f32]) {
        dst[0] = v;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part(self, v: f32, _: usize) -> f32 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_part(self, v: &mut f32, _: usize, p: f32) {
        *v = p;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(self, h: i32, _: usize) -> i32 {
        h
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor(self, v: f32) -> f32 {
        v.floor()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cell(self, floored: f32) -> i32 {
        // Exact truncation in range; 0 for every other value (multiples of
        // 256, NaN, ±inf), as the contract says.
        if floored.abs() < I32_RANGE {
            floored as i32 & 255
        } else {
            0
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_cells(self, src: &[u8]) -> i32 {
        i32::from(src[0])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm_table(self, t: &PermTable) -> &[u8; 256] {
        &t.bytes
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn perm(self, t: &&[u8; 256], i: i32) -> i32 {
        i32::from(t[(i & 255) as usize])
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32(self, floored: f32) -> (u32, bool) {
        if floored.abs() < I32_RANGE {
            (floored as i32 as u32, true)
        } else {
            (0, false)
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_u32(self, src: &[u32]) -> u32 {
        src[0]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_u32(self, v: u32, dst: &mut [u32]) {
        dst[0] = v;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part(self, v: u32, _: usize) -> u32 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn set_u32_part(self, v: &mut u32, _: usize, p: u32) {
        *v = p;
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_u32(self, v: u32) -> u32 {
        v
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn add_u32(self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mul_u32(self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn xor_u32(self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn shr_u32<const N: i32>(self, a: u32) -> u32 {
        a >> N
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn byte_value(self, h: i32) -> f32 {
        (h & 255) as f32
    }
    // Overrides, measured (callgrind, permuted fill3 and grids): table reads straight from
    // the hash's integer lanes, and the top bits' reads lane by lane with
    // no pack around them (the default bodies go through byte_value and
    // whole packs).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table8(self, t: &[f32; 8], h: i32) -> f32 {
        t[(h & 7) as usize]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table16(self, t: &[f32; 16], h: i32) -> f32 {
        t[(h & 15) as usize]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table32(self, t: &[f32; 32], h: i32) -> f32 {
        t[(h & 31) as usize]
    }
    const SIGNED_TOP_BLENDS: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn signed_top(self, [p, _]: [f32; 2], h: u32) -> f32 {
        f32::from_bits(p.to_bits() ^ (h & 1 << 31))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top2(self, t: [f32; 2], h: u32) -> f32 {
        t[(h >> 31) as usize]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top8(self, t: &[f32; 8], h: u32) -> f32 {
        t[(h >> 29) as usize]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top16(self, t: &[f32; 16], h: u32) -> f32 {
        t[(h >> 28) as usize]
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top24(self, h: u32) -> f32 {
        (h >> 8) as f32
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min(self, a: f32, b: f32) -> f32 {
        if a < b { a } else { b }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn max(self, a: f32, b: f32) -> f32 {
        if a > b { a } else { b }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn outlined<J: super::OutlinedJob<Self>>(self, job: J) -> J::Output {
        // A call, as in the vector backends: inlined into every job, this
        // level's packs were a quarter of the library's machine code.
        #[inline(never)]
        fn call<J: super::OutlinedJob<Scalar>>(s: Scalar, job: J) -> J::Output {
            job.run(s)
        }
        call(self, job)
    }
}
