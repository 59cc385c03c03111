//! The noise kernels, written once over the lane trait [`Simd`] and compiled
//! inside each backend's `#[target_feature]` shim (everything here is
//! `#[inline(always)]`).
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
//! 1D, 2D and 4D follow the same pattern with 1, 2 and 4 permutation steps.
//! Every operation and its order is fixed here, so every backend produces the
//! same bits; the final NaN is made canonical.
//!
//! The `fillN` drivers run the kernel over whole steps and then once more over
//! a zero-padded copy of the last partial step, so tail points are computed by
//! exactly the same code as the rest.

use crate::simd::{MAX_LANES, PermTable, Simd};

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

/// fade(t) = 6t⁵ − 15t⁴ + 10t³, evaluated as t³·(t·(t·6 − 15) + 10).
#[inline(always)]
fn fade<S: Simd>(s: S, t: S::F) -> S::F {
    let t3 = t * t * t;
    t3 * (t * (t * s.splat(6.0) - s.splat(15.0)) + s.splat(10.0))
}

#[inline(always)]
fn lerp<S: Simd>(t: S::F, a: S::F, b: S::F) -> S::F {
    a + t * (b - a)
}

/// One permutation step for both neighbours along an axis:
/// `(P[base] + next, P[base + 1] + next)`.
#[inline(always)]
fn step<S: Simd>(s: S, p: &S::Perm<'_>, base: S::I, next: S::I) -> (S::I, S::I) {
    let one = s.splat_i(1);
    (s.perm(p, base) + next, s.perm(p, base + one) + next)
}

/// Cell index (mod 256), offset inside the cell, offset minus one, fade.
#[inline(always)]
fn axis<S: Simd>(s: S, c: S::F) -> (S::I, S::F, S::F, S::F) {
    let floor = s.floor(c);
    let t0 = c - floor;
    (s.cell(floor), t0, t0 - s.splat(1.0), fade(s, t0))
}

#[inline(always)]
fn grad3<S: Simd>(s: S, h: S::I, x: S::F, y: S::F, z: S::F) -> S::F {
    s.table16(&GRAD3_X, h) * x + s.table16(&GRAD3_Y, h) * y + s.table16(&GRAD3_Z, h) * z
}

/// The z = 0 slice of `grad3`: the `GZ·0` term only ever changes a zero's sign.
#[inline(always)]
fn grad2<S: Simd>(s: S, h: S::I, x: S::F, y: S::F) -> S::F {
    s.table16(&GRAD3_X, h) * x + s.table16(&GRAD3_Y, h) * y
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn grad4<S: Simd>(s: S, h: S::I, x: S::F, y: S::F, z: S::F, w: S::F) -> S::F {
    let [gx, gy, gz, gw] = &GRAD4;
    s.table32(gx, h) * x + s.table32(gy, h) * y + s.table32(gz, h) * z + s.table32(gw, h) * w
}

#[inline(always)]
pub(crate) fn noise1<S: Simd>(s: S, p: &S::Perm<'_>, x: S::F) -> S::F {
    let (xi, x0, x1, u) = axis(s, x);
    let h0 = s.perm(p, xi);
    let h1 = s.perm(p, xi + s.splat_i(1));
    let n = lerp::<S>(u, s.table16(&GRAD1, h0) * x0, s.table16(&GRAD1, h1) * x1);
    s.canonical_nan(n)
}

#[inline(always)]
pub(crate) fn noise2<S: Simd>(s: S, p: &S::Perm<'_>, x: S::F, y: S::F) -> S::F {
    let (xi, x0, x1, u) = axis(s, x);
    let (yi, y0, y1, v) = axis(s, y);
    // hash(i, j, 0) of noise3: the last step adds Z = 0.
    let (a, b) = step(s, p, xi, yi);
    let one = s.splat_i(1);
    let (h00, h01) = (s.perm(p, a), s.perm(p, a + one));
    let (h10, h11) = (s.perm(p, b), s.perm(p, b + one));
    let n = lerp::<S>(
        v,
        lerp::<S>(u, grad2(s, h00, x0, y0), grad2(s, h10, x1, y0)),
        lerp::<S>(u, grad2(s, h01, x0, y1), grad2(s, h11, x1, y1)),
    );
    s.canonical_nan(n)
}

#[inline(always)]
pub(crate) fn noise3<S: Simd>(s: S, p: &S::Perm<'_>, x: S::F, y: S::F, z: S::F) -> S::F {
    let (xi, x0, x1, u) = axis(s, x);
    let (yi, y0, y1, v) = axis(s, y);
    let (zi, z0, z1, w) = axis(s, z);
    let (a, b) = step(s, p, xi, yi);
    let (aa, ab) = step(s, p, a, zi);
    let (ba, bb) = step(s, p, b, zi);
    let one = s.splat_i(1);
    let g = Corner3 { s, p };
    let n = lerp::<S>(
        w,
        lerp::<S>(
            v,
            lerp::<S>(u, g.at(aa, x0, y0, z0), g.at(ba, x1, y0, z0)),
            lerp::<S>(u, g.at(ab, x0, y1, z0), g.at(bb, x1, y1, z0)),
        ),
        lerp::<S>(
            v,
            lerp::<S>(u, g.at(aa + one, x0, y0, z1), g.at(ba + one, x1, y0, z1)),
            lerp::<S>(u, g.at(ab + one, x0, y1, z1), g.at(bb + one, x1, y1, z1)),
        ),
    );
    s.canonical_nan(n)
}

/// `grad3` at the corner whose last hash step is `h` (closures are avoided in
/// kernels: they need not inline into the `#[target_feature]` shims).
#[derive(Clone, Copy)]
struct Corner3<'a, 'p, S: Simd> {
    s: S,
    p: &'a S::Perm<'p>,
}

impl<S: Simd> Corner3<'_, '_, S> {
    #[inline(always)]
    fn at(self, h: S::I, x: S::F, y: S::F, z: S::F) -> S::F {
        grad3(self.s, self.s.perm(self.p, h), x, y, z)
    }
}

/// One 3D cube of the 4D hypercube (fixed w corner): hashes `aa..bb` are
/// `P[P[X+i] + Y+j] + Z` as in 3D, `w_cell` is `W + l`, `w_rel` the w offset.
#[derive(Clone, Copy)]
struct Cube4<'a, 'p, S: Simd> {
    s: S,
    p: &'a S::Perm<'p>,
    w_cell: S::I,
    w_rel: S::F,
}

impl<S: Simd> Cube4<'_, '_, S> {
    #[inline(always)]
    fn at(self, zhash: S::I, x: S::F, y: S::F, z: S::F) -> S::F {
        let (s, p) = (self.s, self.p);
        let h = s.perm(p, s.perm(p, zhash) + self.w_cell);
        grad4(s, h, x, y, z, self.w_rel)
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn lerped(
        self,
        [aa, ab, ba, bb]: [S::I; 4],
        [x0, x1]: [S::F; 2],
        [y0, y1]: [S::F; 2],
        [z0, z1]: [S::F; 2],
        [u, v, t]: [S::F; 3],
    ) -> S::F {
        let one = self.s.splat_i(1);
        lerp::<S>(
            t,
            lerp::<S>(
                v,
                lerp::<S>(u, self.at(aa, x0, y0, z0), self.at(ba, x1, y0, z0)),
                lerp::<S>(u, self.at(ab, x0, y1, z0), self.at(bb, x1, y1, z0)),
            ),
            lerp::<S>(
                v,
                lerp::<S>(
                    u,
                    self.at(aa + one, x0, y0, z1),
                    self.at(ba + one, x1, y0, z1),
                ),
                lerp::<S>(
                    u,
                    self.at(ab + one, x0, y1, z1),
                    self.at(bb + one, x1, y1, z1),
                ),
            ),
        )
    }
}

#[inline(always)]
pub(crate) fn noise4<S: Simd>(s: S, p: &S::Perm<'_>, x: S::F, y: S::F, z: S::F, w: S::F) -> S::F {
    let (xi, x0, x1, u) = axis(s, x);
    let (yi, y0, y1, v) = axis(s, y);
    let (zi, z0, z1, t) = axis(s, z);
    let (wi, w0, w1, q) = axis(s, w);
    let (a, b) = step(s, p, xi, yi);
    let (aa, ab) = step(s, p, a, zi);
    let (ba, bb) = step(s, p, b, zi);
    let hashes = [aa, ab, ba, bb];
    let (xs, ys, zs, fades) = ([x0, x1], [y0, y1], [z0, z1], [u, v, t]);
    let near = Cube4 {
        s,
        p,
        w_cell: wi,
        w_rel: w0,
    };
    let far = Cube4 {
        s,
        p,
        w_cell: wi + s.splat_i(1),
        w_rel: w1,
    };
    let n = lerp::<S>(
        q,
        near.lerped(hashes, xs, ys, zs, fades),
        far.lerped(hashes, xs, ys, zs, fades),
    );
    s.canonical_nan(n)
}

/// A per-step noise function of `D` coordinates. Kernels avoid closures,
/// `Fn` calls and `array::map`: those are compiled without the shim's target
/// features and need not inline, leaving every intrinsic an out-of-line call.
trait Point<S: Simd, const D: usize> {
    fn eval(s: S, p: &S::Perm<'_>, c: [S::F; D]) -> S::F;
}

struct Dim1;
struct Dim2;
struct Dim3;
struct Dim4;

impl<S: Simd> Point<S, 1> for Dim1 {
    #[inline(always)]
    fn eval(s: S, p: &S::Perm<'_>, [x]: [S::F; 1]) -> S::F {
        noise1(s, p, x)
    }
}
impl<S: Simd> Point<S, 2> for Dim2 {
    #[inline(always)]
    fn eval(s: S, p: &S::Perm<'_>, [x, y]: [S::F; 2]) -> S::F {
        noise2(s, p, x, y)
    }
}
impl<S: Simd> Point<S, 3> for Dim3 {
    #[inline(always)]
    fn eval(s: S, p: &S::Perm<'_>, [x, y, z]: [S::F; 3]) -> S::F {
        noise3(s, p, x, y, z)
    }
}
impl<S: Simd> Point<S, 4> for Dim4 {
    #[inline(always)]
    fn eval(s: S, p: &S::Perm<'_>, [x, y, z, w]: [S::F; 4]) -> S::F {
        noise4(s, p, x, y, z, w)
    }
}

/// Loads `LANES` values at `at` from each input.
#[inline(always)]
fn load_step<S: Simd, const D: usize>(s: S, inputs: &[&[f32]; D], at: usize) -> [S::F; D] {
    let mut v = [s.splat(0.0); D];
    for d in 0..D {
        v[d] = s.load(&inputs[d][at..at + S::LANES]);
    }
    v
}

/// Runs `K` over every full step of the inputs, then over a zero-padded copy
/// of the remainder. The caller has checked that all slices have `out.len()`.
#[inline(always)]
fn fill<S: Simd, K: Point<S, D>, const D: usize>(
    s: S,
    p: &S::Perm<'_>,
    inputs: [&[f32]; D],
    out: &mut [f32],
) {
    let n = S::LANES;
    let full = out.len() - out.len() % n;
    let (body, tail) = out.split_at_mut(full);
    for (k, dst) in body.chunks_exact_mut(n).enumerate() {
        s.store(K::eval(s, p, load_step(s, &inputs, k * n)), dst);
    }
    if !tail.is_empty() {
        let mut padded = [[0.0f32; MAX_LANES]; D];
        for d in 0..D {
            padded[d][..tail.len()].copy_from_slice(&inputs[d][full..]);
        }
        let mut padded_inputs: [&[f32]; D] = [&[]; D];
        for d in 0..D {
            padded_inputs[d] = &padded[d];
        }
        let mut result = [0.0f32; MAX_LANES];
        s.store(
            K::eval(s, p, load_step(s, &padded_inputs, 0)),
            &mut result[..n],
        );
        tail.copy_from_slice(&result[..tail.len()]);
    }
}

#[inline(always)]
pub(crate) fn fill1<S: Simd>(s: S, t: &PermTable, xs: &[f32], out: &mut [f32]) {
    fill::<S, Dim1, 1>(s, &s.perm_table(t), [xs], out)
}

#[inline(always)]
pub(crate) fn fill2<S: Simd>(s: S, t: &PermTable, xs: &[f32], ys: &[f32], out: &mut [f32]) {
    fill::<S, Dim2, 2>(s, &s.perm_table(t), [xs, ys], out)
}

#[inline(always)]
pub(crate) fn fill3<S: Simd>(
    s: S,
    t: &PermTable,
    xs: &[f32],
    ys: &[f32],
    zs: &[f32],
    out: &mut [f32],
) {
    fill::<S, Dim3, 3>(s, &s.perm_table(t), [xs, ys, zs], out)
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn fill4<S: Simd>(
    s: S,
    t: &PermTable,
    xs: &[f32],
    ys: &[f32],
    zs: &[f32],
    ws: &[f32],
    out: &mut [f32],
) {
    fill::<S, Dim4, 4>(s, &s.perm_table(t), [xs, ys, zs, ws], out)
}
