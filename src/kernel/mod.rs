//! The noise kernels, written once over the lane trait [`Simd`] and compiled
//! inside each backend's `#[target_feature]` shim (everything here is
//! `#[inline(always)]` in optimised builds). Stage 1 turns coordinates into
//! [`Axis`] values; stage 2 (`noiseN_axes`) hashes, takes gradients and
//! blends; the `Job`s (`FillF32`, `FillStaged`, `FillGridRows`, and
//! `rows::FillRowsByCells`) drive them over slices and grids.
//!
//! For one step of `S::LANES` points, `noise3` is Ken Perlin's 2002 improved
//! noise:
//!
//! ```text
//! X, Y, Z  = floor(x, y, z) mod 256          (lattice cell)
//! x0,y0,z0 = (x, y, z) - floor(x, y, z)      (position in the cell, [0, 1])
//! x1,y1,z1 = x0 - 1, y0 - 1, z0 - 1
//! u, v, w  = fade(x0), fade(y0), fade(z0)    (fade t = t³(t(6t − 15) + 10))
//! hash(i,j,k) = P[P[P[X+i] + Y+j] + Z+k]     (every index mod 256)
//! g(h, a, b, c) = GX[h]·a + GY[h]·b + GZ[h]·c  (Ken's 16 gradients, h mod 16)
//! noise = lerp(w, lerp(v, lerp(u, g000, g100), lerp(u, g010, g110)),
//!                 lerp(v, lerp(u, g001, g101), lerp(u, g011, g111)))
//! lerp(t, a, b) = a + t·(b − a)
//! ```
//!
//! 1D takes one permutation step; 2D is 3D's z = 0 slice (three steps, the
//! last adding Z = 0); 4D takes four.
//! Every operation and its order is fixed here, so every backend produces the
//! same bits; the final NaN is made canonical.
//!
//! The `fillN` drivers run the kernel over whole steps and then once more over
//! a zero-padded copy of the last partial step, so tail points are computed by
//! exactly the same code as the rest.

mod rows;

use crate::Fade;
use crate::fade::{fade, fade_slope};
use crate::simd::{Job, MAX_LANES, PermTable, Simd};
use std::ops::{Add, Mul, Sub};

/// Runs `$body` once per part with `$k` a constant (0, or 0..4): a `for`
/// loop over `S::PARTS` is not reliably unrolled, and a variable `k` turns
/// part selection into memory traffic. Every backend has 1 or 4 parts.
macro_rules! for_each_part {
    ($s:ty, |$k:ident| $body:block) => {{
        const { assert!(<$s as Simd>::PARTS == 1 || <$s as Simd>::PARTS == 4) };
        {
            let $k = 0;
            $body
        }
        if <$s as Simd>::PARTS == 4 {
            {
                let $k = 1;
                $body
            }
            {
                let $k = 2;
                $body
            }
            {
                let $k = 3;
                $body
            }
        }
    }};
}
pub(crate) use for_each_part;
pub(crate) use rows::{FillRowsByCells, MAX_COEFFICIENT_STEP, RowAxis};

/// Ken Perlin's 16 gradients (12 cube edges, 4 repeated) by component.
/// Entry h is what his `grad(h, x, y, z)` selects.
pub(crate) const GRAD3_X: [f32; 16] = [
    1., -1., 1., -1., 1., -1., 1., -1., 0., 0., 0., 0., 1., 0., -1., 0.,
];
pub(crate) const GRAD3_Y: [f32; 16] = [
    1., 1., -1., -1., 0., 0., 0., 0., 1., -1., 1., -1., 1., -1., 1., -1.,
];
pub(crate) const GRAD3_Z: [f32; 16] = [
    0., 0., 0., 0., 1., 1., -1., -1., 1., 1., -1., -1., 0., 1., 0., -1.,
];

/// 1D slopes: ±0.25, ±0.5, …, ±2 (h bit 3 is the sign). Never 0; the
/// largest, ±2, bound |noise1| by 1 (reached at x = n + ½ between opposite ±2).
pub(crate) const GRAD1: [f32; 16] = {
    let mut t = [0.0f32; 16];
    let mut h = 0;
    while h < 16 {
        let magnitude = 0.25 * (1 + (h & 7)) as f32;
        t[h] = if h & 8 == 0 { magnitude } else { -magnitude };
        h += 1;
    }
    t
};

/// 4D gradients: the 32 edge midpoints of the hypercube, permutations of
/// (0, ±1, ±1, ±1). For h mod 32, axis `h >> 3` is the zero one; bits 0, 1, 2
/// give the signs (set = −1) of the other three axes in x, y, z, w order.
pub(crate) const GRAD4: [[f32; 32]; 4] = {
    let mut t = [[0.0f32; 32]; 4];
    let mut h = 0;
    while h < 32 {
        let zero_axis = h >> 3;
        let mut bit = 0;
        let mut axis = 0;
        while axis < 4 {
            if axis != zero_axis {
                t[axis][h] = if (h >> bit) & 1 == 0 { 1.0 } else { -1.0 };
                bit += 1;
            }
            axis += 1;
        }
        h += 1;
    }
    t
};

#[inline(always)]
fn lerp<T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>>(t: T, a: T, b: T) -> T {
    a + t * (b - a)
}

/// Stage 1 of the kernel for one axis: the lattice cell and its upper
/// neighbour (both mod 256; with a period, reduced by the period first), the
/// offset in the cell, the offset minus one, and the fade of the offset.
/// Stage 2 (`noiseN_axes`) needs nothing else, so the `f32` path below, the
/// `f64` paths and periodic noise differ only in how they build this.
#[derive(Clone, Copy)]
pub struct Axis<S: Simd> {
    pub(crate) c0: S::I,
    pub(crate) c1: S::I,
    pub(crate) t0: S::F,
    pub(crate) t1: S::F,
    pub(crate) fade: S::F,
}

/// Stage 1 in `f32`: cell `floor(c) mod 256`, next cell `+ 1`.
#[inline(always)]
pub(crate) fn axis<S: Simd>(s: S, c: S::F, curve: Fade) -> Axis<S> {
    let floor = s.floor(c);
    let t0 = c - floor;
    let c0 = s.cell(floor);
    Axis {
        c0,
        c1: c0 + s.splat_i(1),
        t0,
        t1: t0 - s.splat(1.0),
        fade: fade(s, curve, t0),
    }
}

/// Both neighbours along the next axis of a hash chain:
/// `(P[base] + a.c0, P[base] + a.c1)`.
#[inline(always)]
fn step<S: Simd>(s: S, p: &S::Perm<'_>, base: S::I, a: &Axis<S>) -> (S::I, S::I) {
    let h = s.perm(p, base);
    (h + a.c0, h + a.c1)
}

// Stage 2 is always inlined in optimised builds (it must be compiled inside
// the shims). Unoptimised builds keep `noiseN_axes` and `cube4` as functions:
// fully inlined at opt-level 0 the 4D kernel needs a multi-megabyte stack frame.

/// One part (register) of an [`Axis`]'s floats.
#[derive(Clone, Copy)]
struct Part<S: Simd> {
    t0: S::P,
    t1: S::P,
    fade: S::P,
}

#[inline(always)]
fn part<S: Simd>(s: S, a: &Axis<S>, k: usize) -> Part<S> {
    Part {
        t0: s.part(a.t0, k),
        t1: s.part(a.t1, k),
        fade: s.part(a.fade, k),
    }
}

/// A corner's value and its derivative along each axis (one part).
#[derive(Clone, Copy)]
pub struct Dual<S: Simd, const D: usize> {
    v: S::P,
    d: [S::P; D],
}

/// What a lattice noise puts at its corners: the value at offset `(x, y, …)`
/// from corner with hash `h`, and (for derivatives) that value's slope.
pub trait Kind: Copy + Send + Sync + 'static {
    fn corner1<S: Simd>(s: S, h: S::H, x: S::P) -> S::P;
    fn corner2<S: Simd>(s: S, h: S::H, x: S::P, y: S::P) -> S::P;
    fn corner3<S: Simd>(s: S, h: S::H, x: S::P, y: S::P, z: S::P) -> S::P;
    fn corner4<S: Simd>(s: S, h: S::H, c: [S::P; 4]) -> S::P;
    /// The corner's value and slopes, with the value computed exactly as
    /// `cornerD` computes it.
    fn dual<S: Simd, const D: usize>(s: S, h: S::H, c: &[S::P; D]) -> Dual<S, D>;
    /// For the grid rows (`rows.rs`): a corner's value as `g0·x + rest`,
    /// with the other axes' offsets `offsets[a][far on a]` (broadcast) for
    /// corner `corner` of `dims`-D noise: `(g0, rest)`.
    fn plane_terms<S: Simd>(
        s: S,
        h: S::H,
        corner: usize,
        offsets: &[[S::P; 2]; 3],
        dims: usize,
    ) -> (S::P, S::P);
}

/// `v` on every lane of a part.
#[inline(always)]
fn splat_part<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}

/// Perlin's gradient noise: the corner value is `gradient · offset`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GradientKind;

#[inline(always)]
fn grad3<S: Simd>(s: S, h: S::H, x: S::P, y: S::P, z: S::P) -> S::P {
    s.units16(&GRAD3_X, h) * x + s.units16(&GRAD3_Y, h) * y + s.units16(&GRAD3_Z, h) * z
}

/// The z = 0 slice of `grad3`: the `GZ·0` term only ever changes a zero's sign.
#[inline(always)]
fn grad2<S: Simd>(s: S, h: S::H, x: S::P, y: S::P) -> S::P {
    s.units16(&GRAD3_X, h) * x + s.units16(&GRAD3_Y, h) * y
}

#[inline(always)]
fn grad4<S: Simd>(s: S, h: S::H, [x, y, z, w]: [S::P; 4]) -> S::P {
    let [gx, gy, gz, gw] = &GRAD4;
    s.units32(gx, h) * x + s.units32(gy, h) * y + s.units32(gz, h) * z + s.units32(gw, h) * w
}

impl Kind for GradientKind {
    #[inline(always)]
    fn corner1<S: Simd>(s: S, h: S::H, x: S::P) -> S::P {
        s.table16(&GRAD1, h) * x
    }
    #[inline(always)]
    fn corner2<S: Simd>(s: S, h: S::H, x: S::P, y: S::P) -> S::P {
        grad2(s, h, x, y)
    }
    #[inline(always)]
    fn corner3<S: Simd>(s: S, h: S::H, x: S::P, y: S::P, z: S::P) -> S::P {
        grad3(s, h, x, y, z)
    }
    #[inline(always)]
    fn corner4<S: Simd>(s: S, h: S::H, c: [S::P; 4]) -> S::P {
        grad4(s, h, c)
    }
    #[inline(always)]
    fn dual<S: Simd, const D: usize>(s: S, h: S::H, c: &[S::P; D]) -> Dual<S, D> {
        let mut g = [c[0]; D];
        match D {
            1 => g[0] = s.table16(&GRAD1, h),
            2 | 3 => {
                let tables = [&GRAD3_X, &GRAD3_Y, &GRAD3_Z];
                for a in 0..D {
                    g[a] = s.units16(tables[a], h);
                }
            }
            _ => {
                for a in 0..D {
                    g[a] = s.units32(&GRAD4[a], h);
                }
            }
        }
        // The same sum, in the same order, as `grad2`/`grad3`/`grad4`.
        let mut v = g[0] * c[0];
        for a in 1..D {
            v = v + g[a] * c[a];
        }
        Dual { v, d: g }
    }
    #[inline(always)]
    fn plane_terms<S: Simd>(
        s: S,
        h: S::H,
        corner: usize,
        offsets: &[[S::P; 2]; 3],
        dims: usize,
    ) -> (S::P, S::P) {
        let off = |a: usize| offsets[a][corner >> a & 1];
        match dims {
            1 => (s.table16(&GRAD1, h), splat_part(s, 0.0)),
            2 => (s.units16(&GRAD3_X, h), s.units16(&GRAD3_Y, h) * off(0)),
            3 => (
                s.units16(&GRAD3_X, h),
                s.units16(&GRAD3_Y, h) * off(0) + s.units16(&GRAD3_Z, h) * off(1),
            ),
            _ => (
                s.units32(&GRAD4[0], h),
                s.units32(&GRAD4[1], h) * off(0)
                    + s.units32(&GRAD4[2], h) * off(1)
                    + s.units32(&GRAD4[3], h) * off(2),
            ),
        }
    }
}

/// Value noise: the corner value is `P`-hash / 255 mapped to [−1, 1]
/// (256 evenly spaced heights), whatever the offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValueKind;

/// `2 / 255` in `f32`: hash byte `b` gives height `b · VALUE_SCALE − 1`
/// (0 → −1, 255 → 1 exactly).
pub(crate) const VALUE_SCALE: f32 = 2.0 / 255.0;

#[inline(always)]
fn height<S: Simd>(s: S, h: S::H) -> S::P {
    let one = s.part(s.splat(1.0), 0);
    s.byte_value(h) * s.part(s.splat(VALUE_SCALE), 0) - one
}

impl Kind for ValueKind {
    #[inline(always)]
    fn corner1<S: Simd>(s: S, h: S::H, _: S::P) -> S::P {
        height(s, h)
    }
    #[inline(always)]
    fn corner2<S: Simd>(s: S, h: S::H, _: S::P, _: S::P) -> S::P {
        height(s, h)
    }
    #[inline(always)]
    fn corner3<S: Simd>(s: S, h: S::H, _: S::P, _: S::P, _: S::P) -> S::P {
        height(s, h)
    }
    #[inline(always)]
    fn corner4<S: Simd>(s: S, h: S::H, _: [S::P; 4]) -> S::P {
        height(s, h)
    }
    #[inline(always)]
    fn dual<S: Simd, const D: usize>(s: S, h: S::H, _: &[S::P; D]) -> Dual<S, D> {
        Dual {
            v: height(s, h),
            d: [s.part(s.splat(0.0), 0); D],
        }
    }
    #[inline(always)]
    fn plane_terms<S: Simd>(s: S, h: S::H, _: usize, _: &[[S::P; 2]; 3], _: usize) -> (S::P, S::P) {
        (splat_part(s, 0.0), height(s, h))
    }
}

/// 1D: corner `i` hashes `P[X_i]`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise1_axes<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, x: &Axis<S>) -> S::F {
    let (h0, h1) = (s.perm(p, x.c0), s.perm(p, x.c1));
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let x = part(s, x, k);
        let n = lerp(
            x.fade,
            K::corner1(s, s.hashes(h0, k), x.t0),
            K::corner1(s, s.hashes(h1, k), x.t1),
        );
        s.set_part(&mut out, k, s.canonical_nan(n));
    });
    out
}

/// The 4 corner hashes of 2D, at index i + 2j: the z = 0 slice of 3D,
/// `P[P[P[X_i] + Y_j] + 0]`.
#[inline(always)]
fn square_hashes<S: Simd>(s: S, p: &S::Perm<'_>, x: &Axis<S>, y: &Axis<S>) -> [S::I; 4] {
    let (h00, h01) = step(s, p, x.c0, y);
    let (h10, h11) = step(s, p, x.c1, y);
    [
        s.perm(p, s.perm(p, h00)),
        s.perm(p, s.perm(p, h10)),
        s.perm(p, s.perm(p, h01)),
        s.perm(p, s.perm(p, h11)),
    ]
}

/// 2D: the z = 0 slice of 3D (its last hash step adds Z = 0).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise2_axes<S: Simd, K: Kind>(
    s: S,
    p: &S::Perm<'_>,
    x: &Axis<S>,
    y: &Axis<S>,
) -> S::F {
    let c = square_hashes(s, p, x, y);
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let (xp, yp) = (part(s, x, k), part(s, y, k));
        let n = lerp(
            yp.fade,
            lerp(
                xp.fade,
                K::corner2(s, s.hashes(c[0], k), xp.t0, yp.t0),
                K::corner2(s, s.hashes(c[1], k), xp.t1, yp.t0),
            ),
            lerp(
                xp.fade,
                K::corner2(s, s.hashes(c[2], k), xp.t0, yp.t1),
                K::corner2(s, s.hashes(c[3], k), xp.t1, yp.t1),
            ),
        );
        s.set_part(&mut out, k, s.canonical_nan(n));
    });
    out
}

/// The hashes of the 8 corners of the x, y, z cube: corner (i, j, k), at
/// index i + 2j + 4k, hashes `P[P[P[X_i] + Y_j] + Z_k]`.
#[inline(always)]
fn cube_hashes<S: Simd>(s: S, p: &S::Perm<'_>, x: &Axis<S>, y: &Axis<S>, z: &Axis<S>) -> [S::I; 8] {
    let (h00, h01) = step(s, p, x.c0, y);
    let (h10, h11) = step(s, p, x.c1, y);
    let a = [
        s.perm(p, h00),
        s.perm(p, h10),
        s.perm(p, h01),
        s.perm(p, h11),
    ];
    [
        s.perm(p, a[0] + z.c0),
        s.perm(p, a[1] + z.c0),
        s.perm(p, a[2] + z.c0),
        s.perm(p, a[3] + z.c0),
        s.perm(p, a[0] + z.c1),
        s.perm(p, a[1] + z.c1),
        s.perm(p, a[2] + z.c1),
        s.perm(p, a[3] + z.c1),
    ]
}

/// The 16 corner hashes of 4D, at index i + 2j + 4k + 8l:
/// `P[P[P[P[X_i] + Y_j] + Z_k] + W_l]`.
#[inline(always)]
fn hypercube_hashes<S: Simd>(s: S, p: &S::Perm<'_>, a: &[Axis<S>; 4]) -> [S::I; 16] {
    let b = cube_hashes(s, p, &a[0], &a[1], &a[2]);
    let mut c = [b[0]; 16];
    for i in 0..8 {
        c[i] = s.perm(p, b[i] + a[3].c0);
        c[i + 8] = s.perm(p, b[i] + a[3].c1);
    }
    c
}

/// Part `k` of 8 corner hashes.
#[inline(always)]
fn part_hashes<S: Simd>(s: S, c: &[S::I], k: usize) -> [S::H; 8] {
    [
        s.hashes(c[0], k),
        s.hashes(c[1], k),
        s.hashes(c[2], k),
        s.hashes(c[3], k),
        s.hashes(c[4], k),
        s.hashes(c[5], k),
        s.hashes(c[6], k),
        s.hashes(c[7], k),
    ]
}

/// Ken's blend of 8 corner values (corner i + 2j + 4k): along x, then y,
/// then z.
#[inline(always)]
fn trilinear<S: Simd>(x: &Part<S>, y: &Part<S>, z: &Part<S>, c: [S::P; 8]) -> S::P {
    lerp(
        z.fade,
        lerp(y.fade, lerp(x.fade, c[0], c[1]), lerp(x.fade, c[2], c[3])),
        lerp(y.fade, lerp(x.fade, c[4], c[5]), lerp(x.fade, c[6], c[7])),
    )
}

/// 3D: Ken Perlin's improved noise (with `GradientKind`).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise3_axes<S: Simd, K: Kind>(
    s: S,
    p: &S::Perm<'_>,
    x: &Axis<S>,
    y: &Axis<S>,
    z: &Axis<S>,
) -> S::F {
    let c = cube_hashes(s, p, x, y, z);
    // Any step value: every part is overwritten below.
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let (xp, yp, zp) = (part(s, x, k), part(s, y, k), part(s, z, k));
        let (x0, x1, y0, y1, z0, z1) = (xp.t0, xp.t1, yp.t0, yp.t1, zp.t0, zp.t1);
        let g = part_hashes(s, &c, k);
        let corners = [
            K::corner3(s, g[0], x0, y0, z0),
            K::corner3(s, g[1], x1, y0, z0),
            K::corner3(s, g[2], x0, y1, z0),
            K::corner3(s, g[3], x1, y1, z0),
            K::corner3(s, g[4], x0, y0, z1),
            K::corner3(s, g[5], x1, y0, z1),
            K::corner3(s, g[6], x0, y1, z1),
            K::corner3(s, g[7], x1, y1, z1),
        ];
        let n = trilinear(&xp, &yp, &zp, corners);
        s.set_part(&mut out, k, s.canonical_nan(n));
    });
    out
}

/// One 3D cube of the 4D hypercube (one w corner, offset `w`) for part `k`:
/// corner hashes `c[i + 2j + 4k]`, blended as in 3D.
#[cfg_attr(not(debug_assertions), inline(always))]
fn cube4<S: Simd, K: Kind>(s: S, c: &[S::I], k: usize, [x, y, z]: &[Part<S>; 3], w: S::P) -> S::P {
    let g = part_hashes(s, c, k);
    let (x0, x1, y0, y1, z0, z1) = (x.t0, x.t1, y.t0, y.t1, z.t0, z.t1);
    let corners = [
        K::corner4(s, g[0], [x0, y0, z0, w]),
        K::corner4(s, g[1], [x1, y0, z0, w]),
        K::corner4(s, g[2], [x0, y1, z0, w]),
        K::corner4(s, g[3], [x1, y1, z0, w]),
        K::corner4(s, g[4], [x0, y0, z1, w]),
        K::corner4(s, g[5], [x1, y0, z1, w]),
        K::corner4(s, g[6], [x0, y1, z1, w]),
        K::corner4(s, g[7], [x1, y1, z1, w]),
    ];
    trilinear(x, y, z, corners)
}

/// 4D: four permutation steps, 32 hypercube-edge gradients. Corner
/// (i, j, k, l) hashes `P[P[P[P[X_i] + Y_j] + Z_k] + W_l]`, at i + 2j + 4k + 8l.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise4_axes<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, a: &[Axis<S>; 4]) -> S::F {
    let c = hypercube_hashes(s, p, a);
    let [x, y, z, w] = a;
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let (xp, yp, zp, wp) = (part(s, x, k), part(s, y, k), part(s, z, k), part(s, w, k));
        let parts = [xp, yp, zp];
        let near = cube4::<S, K>(s, &c[..8], k, &parts, wp.t0);
        let far = cube4::<S, K>(s, &c[8..], k, &parts, wp.t1);
        let n = lerp(wp.fade, near, far);
        s.set_part(&mut out, k, s.canonical_nan(n));
    });
    out
}

// Kernels index their small per-axis and per-corner arrays by constant
// loop bounds: unrolled, the indices are constants.
/// `lerp` of two corner duals along `axis` with fade `t` and fade slope
/// `dt`: the value exactly as [`lerp`], the slopes by the product rule.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn lerp_dual<S: Simd, const D: usize>(
    t: S::P,
    dt: S::P,
    axis: usize,
    a: &Dual<S, D>,
    b: &Dual<S, D>,
) -> Dual<S, D> {
    let diff = b.v - a.v;
    let mut d = a.d;
    for i in 0..D {
        d[i] = lerp(t, a.d[i], b.d[i]);
    }
    d[axis] = d[axis] + dt * diff;
    Dual {
        v: a.v + t * diff,
        d,
    }
}

/// Value and analytic derivatives of a `D`-dimensional lattice noise from
/// its `2^D` corner hashes (corner index bit `a` = far on axis `a`). The
/// blend runs axis by axis in the order of `noiseN_axes`, so the value has
/// exactly their bits.
#[allow(clippy::needless_range_loop)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_grad<S: Simd, K: Kind, const D: usize>(
    s: S,
    curve: Fade,
    axes: &[Axis<S>; D],
    c: &[S::I],
) -> (S::F, [S::F; D]) {
    let mut slope = [axes[0].t0; D];
    for a in 0..D {
        slope[a] = fade_slope(s, curve, axes[a].t0);
    }
    let mut out = axes[0].t0;
    let mut dout = [axes[0].t0; D];
    for_each_part!(S, |k| {
        let mut parts = [part(s, &axes[0], k); D];
        let mut dt = [s.part(slope[0], k); D];
        for a in 1..D {
            parts[a] = part(s, &axes[a], k);
            dt[a] = s.part(slope[a], k);
        }
        let zero = Dual {
            v: parts[0].t0,
            d: [parts[0].t0; D],
        };
        let mut corners = [zero; 16];
        for (i, corner) in corners.iter_mut().enumerate().take(1 << D) {
            let mut offsets = [parts[0].t0; D];
            for a in 0..D {
                offsets[a] = if i >> a & 1 == 1 {
                    parts[a].t1
                } else {
                    parts[a].t0
                };
            }
            *corner = K::dual(s, s.hashes(c[i], k), &offsets);
        }
        let mut n = 1 << D;
        for a in 0..D {
            n /= 2;
            for i in 0..n {
                corners[i] = lerp_dual(
                    parts[a].fade,
                    dt[a],
                    a,
                    &corners[2 * i],
                    &corners[2 * i + 1],
                );
            }
        }
        s.set_part(&mut out, k, s.canonical_nan(corners[0].v));
        for a in 0..D {
            s.set_part(&mut dout[a], k, s.canonical_nan(corners[0].d[a]));
        }
    });
    (out, dout)
}

/// Stage 2 for `D` axes: the value, and the value with its derivatives.
/// Kernels avoid closures, `Fn` calls and `array::map`: those are compiled
/// without the shim's target features and need not inline, leaving every
/// intrinsic an out-of-line call.
pub trait Dims<const D: usize> {
    fn eval<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, axes: &[Axis<S>; D]) -> S::F;
    fn eval_grad<S: Simd, K: Kind>(
        s: S,
        p: &S::Perm<'_>,
        curve: Fade,
        axes: &[Axis<S>; D],
    ) -> (S::F, [S::F; D]);
}

/// The lattice noise of each dimension, as [`Dims`].
pub struct Noise;

impl Dims<1> for Noise {
    #[inline(always)]
    fn eval<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, [x]: &[Axis<S>; 1]) -> S::F {
        noise1_axes::<S, K>(s, p, x)
    }
    #[inline(always)]
    fn eval_grad<S: Simd, K: Kind>(
        s: S,
        p: &S::Perm<'_>,
        curve: Fade,
        a: &[Axis<S>; 1],
    ) -> (S::F, [S::F; 1]) {
        let c = [s.perm(p, a[0].c0), s.perm(p, a[0].c1)];
        blend_grad::<S, K, 1>(s, curve, a, &c)
    }
}
impl Dims<2> for Noise {
    #[inline(always)]
    fn eval<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, [x, y]: &[Axis<S>; 2]) -> S::F {
        noise2_axes::<S, K>(s, p, x, y)
    }
    #[inline(always)]
    fn eval_grad<S: Simd, K: Kind>(
        s: S,
        p: &S::Perm<'_>,
        curve: Fade,
        a: &[Axis<S>; 2],
    ) -> (S::F, [S::F; 2]) {
        let c = square_hashes(s, p, &a[0], &a[1]);
        blend_grad::<S, K, 2>(s, curve, a, &c)
    }
}
impl Dims<3> for Noise {
    #[inline(always)]
    fn eval<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, [x, y, z]: &[Axis<S>; 3]) -> S::F {
        noise3_axes::<S, K>(s, p, x, y, z)
    }
    #[inline(always)]
    fn eval_grad<S: Simd, K: Kind>(
        s: S,
        p: &S::Perm<'_>,
        curve: Fade,
        a: &[Axis<S>; 3],
    ) -> (S::F, [S::F; 3]) {
        let c = cube_hashes(s, p, &a[0], &a[1], &a[2]);
        blend_grad::<S, K, 3>(s, curve, a, &c)
    }
}
impl Dims<4> for Noise {
    #[inline(always)]
    fn eval<S: Simd, K: Kind>(s: S, p: &S::Perm<'_>, a: &[Axis<S>; 4]) -> S::F {
        noise4_axes::<S, K>(s, p, a)
    }
    #[inline(always)]
    fn eval_grad<S: Simd, K: Kind>(
        s: S,
        p: &S::Perm<'_>,
        curve: Fade,
        a: &[Axis<S>; 4],
    ) -> (S::F, [S::F; 4]) {
        let c = hypercube_hashes(s, p, a);
        blend_grad::<S, K, 4>(s, curve, a, &c)
    }
}

/// Stores a step into `dst`: `LANES` values, or fewer for the last, partial
/// step (through a padded buffer).
#[inline(always)]
pub(crate) fn store_step<S: Simd>(s: S, v: S::F, dst: &mut [f32]) {
    if dst.len() == S::LANES {
        s.store(v, dst);
    } else {
        let mut result = [0.0f32; MAX_LANES];
        s.store(v, &mut result[..S::LANES]);
        let len = dst.len();
        dst.copy_from_slice(&result[..len]);
    }
}

/// Ken's table repeats every 256 cells: the period of an axis without one.
pub(crate) const NATURAL_PERIOD: u64 = 256;

/// Stage 1 for one coordinate, in `f64`: the lattice cell `floor(c) mod
/// period`, its upper neighbour `(cell + 1) mod period` (both then mod 256 for
/// the table), and the offset `c − floor(c)` rounded to `f32`.
///
/// For an `f32` coordinate and the natural period this gives exactly what the
/// vector `f32` stage 1 gives: the `f64` difference is exact and rounds to the
/// same `f32`, and both cells are `floor(c) mod 256` exactly.
#[inline(always)]
pub(crate) fn stage1(c: f64, period: u64) -> (u8, u8, f32) {
    let floor = c.floor();
    let offset = (c - floor) as f32;
    let cell = lattice_mod(floor, period);
    let next = if cell + 1 == period { 0 } else { cell + 1 };
    (cell as u8, next as u8, offset)
}

/// `floor mod period` for an integral `floor`, exactly; 0 for NaN and ±inf.
/// `period` is at most 2⁶² (fractal octaves scale periods, saturating there).
#[inline(always)]
fn lattice_mod(floor: f64, period: u64) -> u64 {
    /// 2⁶³: the first magnitude `as i64` saturates at.
    const I64_RANGE: f64 = 9_223_372_036_854_775_808.0;
    if floor.abs() < I64_RANGE {
        let i = floor as i64;
        if period == NATURAL_PERIOD {
            (i & 255) as u64
        } else {
            i.rem_euclid(period as i64) as u64
        }
    } else if floor.is_finite() {
        // fmod is exact; |floor| ≥ 2⁶³ is an integer multiple of 2¹¹.
        floor.rem_euclid(period as f64) as u64
    } else {
        0
    }
}

/// Stage 1 results (cells, next cells, offsets) of one axis as a vector
/// axis; the offset minus one and the fade are computed as in [`axis`].
#[inline(always)]
pub(crate) fn staged_axis<S: Simd>(s: S, c0: &[u8], c1: &[u8], t0: &[f32], curve: Fade) -> Axis<S> {
    let t = s.load(t0);
    Axis {
        c0: s.load_cells(c0),
        c1: s.load_cells(c1),
        t0: t,
        t1: t - s.splat(1.0),
        fade: fade(s, curve, t),
    }
}

/// Stage 1 of every sample of one grid axis (computed once per fill, in
/// `f64`, by [`stage1`]), padded with zeros to a whole number of steps.
pub(crate) struct AxisSamples {
    pub(crate) len: usize,
    pub(crate) c0: Vec<u8>,
    pub(crate) c1: Vec<u8>,
    pub(crate) t0: Vec<f32>,
}

impl AxisSamples {
    /// Stage 1 of the positions `coords` on an axis with period `period`.
    pub(crate) fn new(coords: &[f64], period: u64) -> AxisSamples {
        let len = coords.len();
        let padded = len.div_ceil(MAX_LANES) * MAX_LANES;
        let mut a = AxisSamples {
            len,
            c0: vec![0; padded],
            c1: vec![0; padded],
            t0: vec![0.0; padded],
        };
        for (i, &c) in coords.iter().enumerate() {
            (a.c0[i], a.c1[i], a.t0[i]) = stage1(c, period);
        }
        a
    }

    /// Sample `i` as the same value on every lane.
    #[inline(always)]
    fn splat<S: Simd>(&self, s: S, i: usize, curve: Fade) -> Axis<S> {
        let t = s.splat(self.t0[i]);
        Axis {
            c0: s.splat_i(i32::from(self.c0[i])),
            c1: s.splat_i(i32::from(self.c1[i])),
            t0: t,
            t1: t - s.splat(1.0),
            fade: fade(s, curve, t),
        }
    }
}

/// What a grid row job does with each step of values it computes: store
/// them, or (a fractal's octaves) fold them into what the output holds.
pub trait RowSink {
    /// Whether this sink is a plain store (only then may rows be streamed).
    const STORE: bool;
    /// Puts one step of values `v` for the output samples
    /// `at..at + dst.len()` into `dst` (the output from `at`).
    fn put<S: Simd>(&mut self, s: S, v: S::F, dst: &mut [f32], at: usize);
}

/// The plain sink: stores the values.
pub struct Store;

impl RowSink for Store {
    const STORE: bool = true;
    #[inline(always)]
    fn put<S: Simd>(&mut self, s: S, v: S::F, dst: &mut [f32], _: usize) {
        store_step(s, v, dst);
    }
}

/// Rows `first_row..` of a grid (as many as `out` holds): row `r` is the run
/// of x samples at the other axes' indices `r` in mixed radix (y fastest).
/// Stage 2 sees the x axis from its samples and the other axes broadcast, so
/// every sample is computed exactly as the `f64` point path computes it.
pub(crate) struct FillGridRows<'a, K, O, const D: usize> {
    pub(crate) table: &'a PermTable,
    pub(crate) curve: Fade,
    /// The corner kind (a zero-sized marker).
    pub(crate) _kind: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
    pub(crate) sink: O,
}

impl<K: Kind, O: RowSink, const D: usize> Job for FillGridRows<'_, K, O, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(mut self, s: S) {
        let (p, axes, curve) = (s.perm_table(self.table), self.axes, self.curve);
        let (n, x) = (S::LANES, axes[0]);
        if x.len == 0 {
            return;
        }
        for (r, row) in self.out.chunks_exact_mut(x.len).enumerate() {
            let mut all = [x.splat(s, 0, curve); D];
            let mut rest = self.first_row + r;
            for d in 1..D {
                all[d] = axes[d].splat(s, rest % axes[d].len, curve);
                rest /= axes[d].len;
            }
            for (k, dst) in row.chunks_mut(n).enumerate() {
                let at = k * n;
                all[0] = staged_axis(s, &x.c0[at..], &x.c1[at..], &x.t0[at..], curve);
                let v = Noise::eval::<S, K>(s, &p, &all);
                self.sink.put(s, v, dst, r * x.len + at);
            }
        }
    }
}
