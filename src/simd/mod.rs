//! The lane trait the kernels are written against, and its backends.
//!
//! A backend is a zero-sized *token* type. Holding a token proves that the CPU
//! supports the backend's instructions (`Avx2::new()` returns `None` otherwise),
//! so every method takes `self` and is safe to call. The vector types of the
//! `std::arch` backends are private newtypes that only token methods create, so
//! their operator impls run only where the token existed.
//!
//! The contract is stated by results, not by any ISA's instructions; every
//! backend keeps it on every input, so that all levels give the same bits
//! (`conformance` tests each operation against [`scalar`], lane by lane):
//! - `+`, `-`, `*` on [`Simd::F`] are single IEEE-754 binary32 operations,
//!   round to nearest even, never fused; the kernel fixes their order.
//! - [`Simd::floor`] is exact IEEE floor for every input (−0 stays −0, ±inf
//!   pass through, NaN gives a NaN).
//! - A NaN result of `+ - *` or `floor` may carry any payload (instructions
//!   differ); the kernel replaces every NaN it returns by `f32::NAN`.
//! - [`Simd::cell`] maps an already floored value `v` to its lattice index
//!   `v mod 256` (0..=255) where |v| < 2³¹, and to 0 everywhere else: finite
//!   values that large are multiples of 256 (so 0 is exact), NaN and ±inf
//!   have no cell and take 0 by definition.
//! - [`Simd::perm`] returns `P[i mod 256]` for every lane, any `i`. Integer
//!   lanes are only ever used mod 256 (vector backends keep them in bytes).
//! - [`Simd::table8`] / [`Simd::table16`] / [`Simd::table32`] return
//!   `t[h mod 8]` / `t[h mod 16]` / `t[h mod 32]`;
//!   [`Simd::units16`] / [`Simd::units32`] the same for tables of −1, 0, 1 only.
//! - [`Simd::min`] / [`Simd::max`] are `a < b ? a : b` / `a > b ? a : b`:
//!   the second operand whenever the comparison is false, NaN included
//!   (not IEEE minNum, and not a NaN-propagating min either).
//! - [`Simd::canonical_nan`] replaces every NaN by `f32::NAN` (payloads of
//!   NaNs differ between instruction forms; the canonical one does not).
//! - [`Simd::opaque_p`] / [`Simd::opaque_up`] return their operand, every
//!   bit (a hint for the optimiser, not an operation).
//!
//! The coordinates mode works on 32-bit lanes ([`Simd::U`], one part
//! [`Simd::UP`]), with results defined by integer arithmetic alone:
//! - [`Simd::cells32`] gives `floor mod 2³²` of floored values with
//!   |v| < 2³¹ (the wrapping `i32` value) and says whether every lane was in
//!   that range; the kernel computes other packs lane by lane in `f64`.
//! - `add_u32` and `mul_u32` wrap (the low 32 bits), `shr_u32` is a logical
//!   shift, `xor_u32` is bitwise, `min_u32` compares unsigned.
//! - [`Simd::top8`] / [`Simd::top16`] return `t[h >> 29]` / `t[h >> 28]`
//!   (the hash's top bits pick the entry); [`Simd::top24`] returns
//!   `h >> 8` as an exact `f32`. [`Simd::top2`] picks one of two parts by
//!   the top bit; [`Simd::signed_top`] is `p` or `−p` by it (given both:
//!   equal bits, except a NaN's sign, which callers make canonical).

use std::ops::{Add, Mul, Sub};

pub(crate) mod backend;
#[cfg(test)]
mod conformance;
pub(crate) mod portable;
pub(crate) mod scalar;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// Most points per kernel pack of any backend (AVX-512: 4 × 16).
pub(crate) const MAX_LANES: usize = 64;

/// A permutation of 0..=255 (one cache line per 64 entries; the AVX-512
/// backend loads it as four registers).
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct PermTable {
    pub(crate) bytes: [u8; 256],
}

impl PermTable {
    pub(crate) fn new(p: &[u8; 256]) -> PermTable {
        PermTable { bytes: *p }
    }

    pub(crate) fn permutation(&self) -> [u8; 256] {
        self.bytes
    }
}

/// Float lanes at level `S`, a whole pack ([`Simd::F`]) or one part
/// ([`Simd::P`]): what code written once for both (the fade curves) needs.
/// `min` and `max` keep [`Simd::min`]'s and [`Simd::max`]'s contract.
pub trait Lanes<S>: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// `v` on every lane.
    fn splat(s: S, v: f32) -> Self;
    /// `if a < b { a } else { b }` per lane.
    fn min(s: S, a: Self, b: Self) -> Self;
    /// `if a > b { a } else { b }` per lane.
    fn max(s: S, a: Self, b: Self) -> Self;
}

/// [`Lanes`] for a pack type by the token's pack methods.
macro_rules! pack_lanes {
    ($token:ty, $ty:ty) => {
        impl crate::simd::Lanes<$token> for $ty {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn splat(s: $token, v: f32) -> $ty {
                crate::simd::Simd::splat(s, v)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn min(s: $token, a: $ty, b: $ty) -> $ty {
                crate::simd::Simd::min(s, a, b)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn max(s: $token, a: $ty, b: $ty) -> $ty {
                crate::simd::Simd::max(s, a, b)
            }
        }
    };
}
pub(crate) use pack_lanes;

/// Lane-wise operations of one backend. See the module docs for the contract.
///
/// A kernel pack covers `LANES` points: `PARTS` float registers (`P`), held
/// together as `F`. Stage 1 and the hashing work on whole packs (hashes `I`
/// are bytes in the vector backends, so one permute serves every part);
/// the float work of stage 2 runs one part at a time, which keeps it inside
/// the register file.
///
/// The trait has two halves. **The core** (no default body) is what every
/// level implements: moving packs and parts in and out of memory, floor,
/// min and max, the byte lanes of the permutation mode, the 32-bit lanes of
/// the coordinates mode, and [`Simd::outlined`]. **The helpers** (table
/// reads, the hash's top bits, NaN and sign handling, range checks,
/// streaming stores, optimiser hints) have default bodies written on the
/// core, lane by lane where they must be ([`scalar`] runs them all, and
/// they define what an override must return); a level overrides a helper
/// only where its instructions were measured to pay (`docs/design.md` has
/// the figures).
pub trait Simd: Copy {
    // ---- The core: every level implements these. ----
    /// The level this backend runs.
    const LEVEL: crate::Level;
    /// Points per pack.
    const LANES: usize;
    /// Float registers per pack.
    const PARTS: usize;
    /// `LANES` × `f32`.
    type F: Lanes<Self>;
    /// One part: `LANES / PARTS` × `f32`.
    type P: Lanes<Self>;
    /// `LANES` lattice indices or hashes, used only mod 256 (wrapping adds).
    type I: Copy + Add<Output = Self::I>;
    /// The hashes of one part, in the form table reads take.
    type H: Copy;
    /// The permutation in the form this backend reads fastest.
    type Perm<'a>: Copy;
    /// `LANES` × `u32`: a pack of full 32-bit lattice cells.
    type U: Copy;
    /// One part of [`Simd::U`]: the lanes the coordinates mode runs on.
    type UP: Copy;

    fn splat(self, v: f32) -> Self::F;
    /// Loads `src[..LANES]`; panics if `src` is shorter.
    fn load(self, src: &[f32]) -> Self::F;
    /// Stores into `dst[..LANES]`; panics if `dst` is shorter.
    fn store(self, v: Self::F, dst: &mut [f32]);
    /// Part `k` (`k < PARTS`) of a pack.
    fn part(self, v: Self::F, k: usize) -> Self::P;
    /// [`Simd::part`] of a pack in memory: one load where `k` is a run-time
    /// value (by value, the whole pack goes to the stack first).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_ref(self, v: &Self::F, k: usize) -> Self::P {
        self.part(*v, k)
    }
    /// Replaces part `k` of a pack.
    fn set_part(self, v: &mut Self::F, k: usize, p: Self::P);
    fn floor(self, v: Self::F) -> Self::F;
    /// `if a < b { a } else { b }` per lane (`b` when unordered, so a NaN
    /// in `b` survives).
    fn min(self, a: Self::F, b: Self::F) -> Self::F;
    /// `if a > b { a } else { b }` per lane (`b` when unordered).
    fn max(self, a: Self::F, b: Self::F) -> Self::F;

    fn splat_i(self, v: i32) -> Self::I;
    fn cell(self, floored: Self::F) -> Self::I;
    /// Lattice indices computed elsewhere: byte `i` of `src` for point `i`
    /// (`src[..LANES]`; panics if shorter).
    fn load_cells(self, src: &[u8]) -> Self::I;
    fn perm_table(self, t: &PermTable) -> Self::Perm<'_>;
    fn perm(self, t: &Self::Perm<'_>, i: Self::I) -> Self::I;
    /// The hashes of part `k`.
    fn hashes(self, h: Self::I, k: usize) -> Self::H;
    /// `h mod 256` as a float (0.0..=255.0), per lane.
    fn byte_value(self, h: Self::H) -> Self::P;

    /// `(floor mod 2³², exact)`: each lane of an already floored pack as a
    /// wrapping 32-bit cell, and whether every lane had |v| < 2³¹ (only
    /// then are all lanes right; NaN and ±inf are out of range).
    fn cells32(self, floored: Self::F) -> (Self::U, bool);
    /// `src[..LANES]` as cells; panics if `src` is shorter.
    fn load_u32(self, src: &[u32]) -> Self::U;
    /// Stores into `dst[..LANES]`; panics if `dst` is shorter.
    fn store_u32(self, v: Self::U, dst: &mut [u32]);
    /// Part `k` (`k < PARTS`) of a pack of cells.
    fn u32_part(self, v: Self::U, k: usize) -> Self::UP;
    /// [`Simd::u32_part`] of a pack in memory (see [`Simd::part_ref`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn u32_part_ref(self, v: &Self::U, k: usize) -> Self::UP {
        self.u32_part(*v, k)
    }
    /// Replaces part `k` of a pack of cells.
    fn set_u32_part(self, v: &mut Self::U, k: usize, p: Self::UP);
    fn splat_u32(self, v: u32) -> Self::UP;
    /// Wrapping `a + b` per lane.
    fn add_u32(self, a: Self::UP, b: Self::UP) -> Self::UP;
    /// The low 32 bits of `a · b` per lane.
    fn mul_u32(self, a: Self::UP, b: Self::UP) -> Self::UP;
    fn xor_u32(self, a: Self::UP, b: Self::UP) -> Self::UP;
    /// Logical `a >> N` per lane (`0 < N < 32`).
    fn shr_u32<const N: i32>(self, a: Self::UP) -> Self::UP;

    /// Runs `job` in a function of its own, compiled once per job type
    /// at this level (with its features) and called by every job that
    /// needs it, so shared kernels (a lattice's evaluation, in its own
    /// batches and in every fractal octave) are not inlined into each.
    fn outlined<J: OutlinedJob<Self>>(self, job: J) -> J::Output;

    // ---- The helpers: default bodies on the core. ----
    /// Part `k` of the pack `src[..LANES]`: the lanes of that part alone,
    /// read where they are used; panics if `src` is shorter.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_part(self, src: &[f32], k: usize) -> Self::P {
        self.part(self.load(src), k)
    }
    /// One part from `src[..LANES / PARTS]`; panics if `src` is shorter.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn load_one(self, src: &[f32]) -> Self::P {
        let n = part_lanes::<Self>();
        let mut lanes = [0.0f32; MAX_LANES];
        lanes[..n].copy_from_slice(&src[..n]);
        part_from(self, lanes)
    }
    /// Stores one part into `dst[..LANES / PARTS]`; panics if `dst` is
    /// shorter.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_one(self, p: Self::P, dst: &mut [f32]) {
        let n = part_lanes::<Self>();
        dst[..n].copy_from_slice(&lanes_of(self, p)[..n]);
    }
    /// Stores part `k` of a pack into its lanes of `dst[..LANES]` (the
    /// other lanes are left as they are); panics if `dst` is shorter.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_part(self, p: Self::P, dst: &mut [f32], k: usize) {
        let n = part_lanes::<Self>();
        dst[k * n..(k + 1) * n].copy_from_slice(&lanes_of(self, p)[..n]);
    }
    /// [`Simd::floor`] of one part.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn floor_part(self, v: Self::P) -> Self::P {
        let mut pack = self.splat(0.0);
        self.set_part(&mut pack, 0, v);
        self.part(self.floor(pack), 0)
    }
    /// `|v|` (clears the sign bit; NaN stays NaN).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn abs(self, v: Self::F) -> Self::F {
        let mut lanes = [0.0f32; MAX_LANES];
        self.store(v, &mut lanes[..Self::LANES]);
        for lane in &mut lanes[..Self::LANES] {
            *lane = lane.abs();
        }
        self.load(&lanes[..Self::LANES])
    }
    /// Replaces every NaN by `f32::NAN`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn canonical_nan(self, v: Self::P) -> Self::P {
        map_lanes(self, v, |v| if v.is_nan() { f32::NAN } else { v })
    }
    /// `t[h mod 8]` per lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table8(self, t: &[f32; 8], h: Self::H) -> Self::P {
        map_lanes(self, self.byte_value(h), |i| t[i as usize & 7])
    }
    /// `t[h mod 16]` per lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table16(self, t: &[f32; 16], h: Self::H) -> Self::P {
        map_lanes(self, self.byte_value(h), |i| t[i as usize & 15])
    }
    /// `t[h mod 32]` per lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn table32(self, t: &[f32; 32], h: Self::H) -> Self::P {
        map_lanes(self, self.byte_value(h), |i| t[i as usize & 31])
    }
    /// `table16` for a table whose entries are all −1, 0 or 1 (gradient
    /// components); a backend may read such tables faster.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units16(self, t: &[f32; 16], h: Self::H) -> Self::P {
        self.table16(t, h)
    }
    /// `table32` for a table whose entries are all −1, 0 or 1.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn units32(self, t: &[f32; 32], h: Self::H) -> Self::P {
        self.table32(t, h)
    }
    /// Wrapping `v + 1` on every lane of a pack.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_u32(self, mut v: Self::U) -> Self::U {
        let one = self.splat_u32(1);
        for k in 0..Self::PARTS {
            let p = self.add_u32(self.u32_part(v, k), one);
            self.set_u32_part(&mut v, k, p);
        }
        v
    }
    /// The smaller of `a` and `b` as unsigned integers, per lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn min_u32(self, a: Self::UP, b: Self::UP) -> Self::UP {
        let (mut a, b) = (u32_lanes_of(self, a), u32_lanes_of(self, b));
        for (a, b) in a[..part_lanes::<Self>()].iter_mut().zip(b) {
            *a = (*a).min(b);
        }
        u32_part_from(self, a)
    }
    /// Whether [`Simd::signed_top`] blends its two products (reads
    /// `minus_p`) rather than flipping a sign: then a kernel's products
    /// take twice the registers, and kernels that keep many of them write
    /// less out at once (AVX2, 16 registers).
    const SIGNED_TOP_BLENDS: bool = true;
    /// `p` where the top bit of `h` is clear and `minus_p` where it is set,
    /// with `minus_p` equal to `−p` (a product and the product by the
    /// negated factor, which differ in a NaN's sign at most): a gradient
    /// component's sign applied to its product with an offset. The default
    /// is [`Simd::top2`]; a backend may flip `p`'s sign bit instead and not
    /// read `minus_p` (AVX-512: one ternary-logic operation, and half the
    /// registers).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn signed_top(self, [p, minus_p]: [Self::P; 2], h: Self::UP) -> Self::P {
        self.top2([p, minus_p], h)
    }
    /// `t[h >> 31]` per lane: the top bit of `h` picks one of two parts
    /// (a gradient component's sign, from one bit of a hash moved to the top).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top2(self, [clear, set]: [Self::P; 2], h: Self::UP) -> Self::P {
        let (mut c, s, h) = (
            lanes_of(self, clear),
            lanes_of(self, set),
            u32_lanes_of(self, h),
        );
        for i in 0..part_lanes::<Self>() {
            if h[i] >> 31 == 1 {
                c[i] = s[i];
            }
        }
        part_from(self, c)
    }
    /// `t[h >> 29]` per lane: the top 3 bits of a hash pick the entry.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top8(self, t: &[f32; 8], h: Self::UP) -> Self::P {
        map_u32_lanes(self, h, |h| t[(h >> 29) as usize])
    }
    /// `t[h >> 28]` per lane: the top 4 bits pick the entry.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top16(self, t: &[f32; 16], h: Self::UP) -> Self::P {
        map_u32_lanes(self, h, |h| t[(h >> 28) as usize])
    }
    /// `h >> 8` as `f32` per lane (0 to 2²⁴ − 1, exact).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn top24(self, h: Self::UP) -> Self::P {
        map_u32_lanes(self, h, |h| (h >> 8) as f32)
    }
    /// [`Simd::cells32`] of `D` floored parts at once: their cells, or
    /// `None` unless every lane of every part has |v| < 2³¹.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32_parts<const D: usize>(self, floored: &[Self::P; D]) -> Option<[Self::UP; D]> {
        let mut check = self.cells_check();
        let cells = self.cells32_parts_checked(floored, &mut check);
        self.cells_checked(check).then_some(cells)
    }
    /// [`Simd::cells32_parts`] without its branch, for a pack made part by
    /// part: the cells of `D` floored parts by conversion, right in every
    /// lane with |v| < 2³¹ and unspecified in the others, which it records
    /// in `check` (made by [`Simd::cells_check`], folded over any number of
    /// parts) for [`Simd::cells_checked`]. A level overrides the three
    /// together (the check's lanes are its own business).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells32_parts_checked<const D: usize>(
        self,
        floored: &[Self::P; D],
        check: &mut Self::UP,
    ) -> [Self::UP; D] {
        let mut cells = [self.splat_u32(0); D];
        for (cells, &floored) in cells.iter_mut().zip(floored) {
            let mut pack = self.splat(0.0);
            self.set_part(&mut pack, 0, floored);
            let (c, exact) = self.cells32(pack);
            *cells = self.u32_part(c, 0);
            if !exact {
                *check = self.splat_u32(0);
            }
        }
        cells
    }
    /// A check no lane has failed yet (what its lanes hold is the backend's
    /// business).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_check(self) -> Self::UP {
        self.splat_u32(1)
    }
    /// Whether every lane folded into `check` had |v| < 2³¹: exactly when
    /// [`Simd::cells32_parts`] would have said so of each part.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells_checked(self, check: Self::UP) -> bool {
        u32_lanes_of(self, check)[..part_lanes::<Self>()]
            .iter()
            .all(|&c| c == 1)
    }
    /// `dst.copy_from_slice(src)`, with non-temporal stores where the backend
    /// has them (large outputs: no read-for-ownership of each cache line).
    /// Call [`Simd::store_fence`] before the data is shared.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn copy_streaming(self, src: &[f32], dst: &mut [f32]) {
        dst.copy_from_slice(src);
    }
    /// Stores a whole pack into `dst[..LANES]` with non-temporal stores
    /// where the backend has them and `dst` is aligned for them (64 bytes
    /// for AVX-512, 32 for AVX2; plain stores otherwise). Call
    /// [`Simd::store_fence`] before the data is shared. Panics if `dst` is
    /// shorter.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_streaming(self, v: Self::F, dst: &mut [f32]) {
        self.store(v, dst);
    }
    /// Orders earlier non-temporal stores before later stores.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn store_fence(self) {}
    /// `v`, unchanged, with how it was made hidden from the optimiser (no
    /// instruction), so it cannot rewrite a kernel into a costlier form:
    /// a product's double into a second multiply, or a blend of two
    /// products back into a product of a blend. A backend may return `v`
    /// without the hint (AVX2 gives it for both; AVX-512 and Portable on
    /// x86_64 for `opaque_up`, where its absence made the hash's doublings
    /// multiplies: measured).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn opaque_p(self, v: Self::P) -> Self::P {
        v
    }
    /// [`Simd::opaque_p`] for 32-bit lanes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn opaque_up(self, v: Self::UP) -> Self::UP {
        v
    }
}

/// Lanes in one part at level `S`.
#[cfg_attr(not(debug_assertions), inline(always))]
const fn part_lanes<S: Simd>() -> usize {
    S::LANES / S::PARTS
}

/// The lanes of part `p`, in the first [`part_lanes`] entries: how the
/// helpers' default bodies reach single lanes (through part 0 of a pack).
#[cfg_attr(not(debug_assertions), inline(always))]
fn lanes_of<S: Simd>(s: S, p: S::P) -> [f32; MAX_LANES] {
    let mut pack = s.splat(0.0);
    s.set_part(&mut pack, 0, p);
    let mut lanes = [0.0f32; MAX_LANES];
    s.store(pack, &mut lanes[..S::LANES]);
    lanes
}

/// The part whose lanes are the first [`part_lanes`] entries of `lanes`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn part_from<S: Simd>(s: S, lanes: [f32; MAX_LANES]) -> S::P {
    s.part(s.load(&lanes[..S::LANES]), 0)
}

/// `f` on every lane of `p`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn map_lanes<S: Simd>(s: S, p: S::P, f: impl Fn(f32) -> f32) -> S::P {
    let mut lanes = lanes_of(s, p);
    for lane in &mut lanes[..part_lanes::<S>()] {
        *lane = f(*lane);
    }
    part_from(s, lanes)
}

/// `f` on every lane of `h`, into float lanes.
#[cfg_attr(not(debug_assertions), inline(always))]
fn map_u32_lanes<S: Simd>(s: S, h: S::UP, f: impl Fn(u32) -> f32) -> S::P {
    let h = u32_lanes_of(s, h);
    let mut lanes = [0.0f32; MAX_LANES];
    for (lane, &h) in lanes[..part_lanes::<S>()].iter_mut().zip(&h) {
        *lane = f(h);
    }
    part_from(s, lanes)
}

/// [`lanes_of`] for 32-bit lanes.
#[cfg_attr(not(debug_assertions), inline(always))]
fn u32_lanes_of<S: Simd>(s: S, p: S::UP) -> [u32; MAX_LANES] {
    let mut lanes = [0u32; MAX_LANES];
    let mut pack = s.load_u32(&lanes[..S::LANES]);
    s.set_u32_part(&mut pack, 0, p);
    s.store_u32(pack, &mut lanes[..S::LANES]);
    lanes
}

/// [`part_from`] for 32-bit lanes.
#[cfg_attr(not(debug_assertions), inline(always))]
fn u32_part_from<S: Simd>(s: S, lanes: [u32; MAX_LANES]) -> S::UP {
    s.u32_part(s.load_u32(&lanes[..S::LANES]), 0)
}

/// A piece of a kernel run through [`Simd::outlined`] at level `S`.
pub trait OutlinedJob<S: Simd> {
    type Output;
    fn run(self, s: S) -> Self::Output;
}

/// A kernel invocation, generic over the backend. Its `run` is
/// `#[cfg_attr(not(debug_assertions), inline(always))]`, so [`dispatch`] compiles it once per level, inside
/// that level's `#[target_feature]` shim.
pub(crate) trait Job {
    type Output;
    fn run<S: Simd>(self, s: S) -> Self::Output;
}

/// Runs `job` at `level`: the only place a level turns into code. Called once
/// per public call, outside every loop; making a token is one relaxed atomic
/// load. A level the CPU lacks cannot be stored in a `Perlin`
/// (`with_level` refuses it); should one arrive anyway, the portable backend
/// runs instead, with the same bits.
///
/// A new `std::arch` backend is one file in its architecture's folder
/// (token, `impl Simd`, `job_shim!`; `x86_64/`, `aarch64/`), its `Level`,
/// one arm here and one in [`cpu_has`].
#[inline]
pub(crate) fn dispatch<J: Job>(level: crate::Level, job: J) -> J::Output {
    use crate::Level;
    // (Not `if let` match guards: the crate's rust-version predates them.)
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            if let Some(t) = x86_64::avx512::Avx512::new() {
                return x86_64::avx512::run(t, job);
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            if let Some(t) = x86_64::avx2::Avx2::new() {
                return x86_64::avx2::run(t, job);
            }
        }
        #[cfg(target_arch = "aarch64")]
        Level::Neon => {
            if let Some(t) = aarch64::neon::Neon::new() {
                return aarch64::neon::run(t, job);
            }
        }
        _ => {}
    }
    match level {
        Level::Scalar => job.run(scalar::Scalar),
        _ => job.run(portable::Portable),
    }
}

/// Whether this CPU can run `level` (detected now, uncached: `Level` caches
/// the answers). A level of another architecture is never available.
pub(crate) fn cpu_has(level: crate::Level) -> bool {
    use crate::Level;
    match level {
        Level::Scalar | Level::Portable => true,
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => x86_64::avx512::cpu_has(),
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => x86_64::avx2::cpu_has(),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => aarch64::neon::cpu_has(),
        _ => false,
    }
}
