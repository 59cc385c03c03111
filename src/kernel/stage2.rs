//! Stage 2: the corners' hashes and values blended by the fades, per
//! dimension (`noiseN_axes`, [`Dims`] for [`Noise`]), with derivatives
//! (`blend_grad`), and outlined once per level and form ([`stage2`],
//! [`stage2_grad`]).

use super::axis::{Part, part};
use super::corners::Dual;
use super::{Axis, Corners, HashModeKernel, for_each_part, hash};
use crate::Fade;
use crate::fade::fade_slope;
use crate::simd::{OutlinedJob, Simd};
use std::marker::PhantomData;
use std::ops::{Add, Mul, Sub};

// Stage 2 is always inlined in optimised builds (it must be compiled inside
// the shims). Unoptimised builds keep `noiseN_axes`, `noise_parts` and `cube`
// as functions: fully inlined at opt-level 0 the 4D kernel needs a multi-megabyte stack frame.

#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn lerp<T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>>(
    t: T,
    a: T,
    b: T,
) -> T {
    a + t * (b - a)
}

/// 1D: the lerp of the two corners.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise1_axes<
    S: Simd,
    K: Corners,
    H: HashModeKernel,
    const FRESH: bool,
    const NEXT: bool,
>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &Axis<S, H>,
) -> S::F {
    let pack = H::pack_work::<S, 1>(s, r, &[(x.c0, x.c1)]);
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let g = H::part_hashes::<S, 1, NEXT>(s, r, &pack, k);
        let n = Noise::blend::<S, K, H>(s, &g, &[part::<S, H, FRESH>(s, x, k)]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// 2D: corners at index i + 2j, blended along x, then y.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise2_axes<
    S: Simd,
    K: Corners,
    H: HashModeKernel,
    const FRESH: bool,
    const NEXT: bool,
>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &Axis<S, H>,
    y: &Axis<S, H>,
) -> S::F {
    let pack = H::pack_work::<S, 2>(s, r, &[(x.c0, x.c1), (y.c0, y.c1)]);
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let c = H::part_hashes::<S, 2, NEXT>(s, r, &pack, k);
        let (xp, yp) = (part::<S, H, FRESH>(s, x, k), part::<S, H, FRESH>(s, y, k));
        let n = Noise::blend::<S, K, H>(s, &c, &[xp, yp]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// 3D: Ken Perlin's improved noise (with `GradientCorners` and the permutation).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise3_axes<
    S: Simd,
    K: Corners,
    H: HashModeKernel,
    const FRESH: bool,
    const NEXT: bool,
>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &Axis<S, H>,
    y: &Axis<S, H>,
    z: &Axis<S, H>,
) -> S::F {
    let pack = H::pack_work::<S, 3>(s, r, &[(x.c0, x.c1), (y.c0, y.c1), (z.c0, z.c1)]);
    // Any pack value: every part is overwritten below.
    let mut out = x.t0;
    for_each_part!(S, |k| {
        let (xp, yp, zp) = (
            part::<S, H, FRESH>(s, x, k),
            part::<S, H, FRESH>(s, y, k),
            part::<S, H, FRESH>(s, z, k),
        );
        let g = H::part_hashes::<S, 3, NEXT>(s, r, &pack, k);
        let n = Noise::blend::<S, K, H>(s, &g, &[xp, yp, zp]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// 4D: 16 corners at i + 2j + 4k + 8l, two cubes blended along w.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn noise4_axes<
    S: Simd,
    K: Corners,
    H: HashModeKernel,
    const FRESH: bool,
    const NEXT: bool,
>(
    s: S,
    r: &H::Ready<'_, S>,
    a: &[Axis<S, H>; 4],
) -> S::F {
    let pack = H::pack_work::<S, 4>(s, r, &hash::axis_cells(a));
    let [x, y, z, w] = a;
    let mut out = x.t0;
    for_each_part!(S, 4, |k| {
        let g = H::part_hashes_of_axes::<S, 4, NEXT>(s, r, &pack, a, k);
        let (xp, yp, zp, wp) = (
            part::<S, H, FRESH>(s, x, k),
            part::<S, H, FRESH>(s, y, k),
            part::<S, H, FRESH>(s, z, k),
            part::<S, H, FRESH>(s, w, k),
        );
        let n = Noise::blend::<S, K, H>(s, &g, &[xp, yp, zp, wp]);
        let n = s.canonical_nan(n);
        s.set_part(&mut out, k, n);
    });
    out
}

/// Corner `(x, y, z, w)` of `D`-dimensional noise (`w` unused in 3D) with
/// hash `h`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn corner_at<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    h: H::Part<S>,
    [x, y, z, w]: [S::P; 4],
) -> S::P {
    let all = [x, y, z, w];
    let mut c = [x; D];
    c.copy_from_slice(&all[..D]);
    K::corner::<S, H, D>(s, h, c)
}

/// Corners `j` and `j + 1` of a cube (offsets `y`, `z`, `w` shared) blended
/// along x.
#[cfg_attr(not(debug_assertions), inline(always))]
fn cube_edge<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    g: &[H::Part<S>],
    j: usize,
    x: &Part<S>,
    [y, z, w]: [S::P; 3],
) -> S::P {
    lerp(
        x.fade,
        corner_at::<S, K, H, D>(s, g[j], [x.t0, y, z, w]),
        corner_at::<S, K, H, D>(s, g[j + 1], [x.t1, y, z, w]),
    )
}

/// The 8 corners of a cube (corner i + 2j + 4k, hash `g[i + 2j + 4k]`;
/// in 4D every corner at offset `w`) blended along x, then y, then z.
#[cfg_attr(not(debug_assertions), inline(always))]
fn cube<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    g: &[H::Part<S>],
    [x, y, z]: &[Part<S>; 3],
    w: S::P,
) -> S::P {
    let near = lerp(
        y.fade,
        cube_edge::<S, K, H, D>(s, g, 0, x, [y.t0, z.t0, w]),
        cube_edge::<S, K, H, D>(s, g, 2, x, [y.t1, z.t0, w]),
    );
    let far = lerp(
        y.fade,
        cube_edge::<S, K, H, D>(s, g, 4, x, [y.t0, z.t1, w]),
        cube_edge::<S, K, H, D>(s, g, 6, x, [y.t1, z.t1, w]),
    );
    lerp(z.fade, near, far)
}

// Kernels index their small per-axis and per-corner arrays by constant
// loop bounds: unrolled, the indices are constants.
/// `lerp` of two corner duals along `axis` with fade `t` and fade slope
/// `dt`: the value exactly as [`lerp`], the slopes by the product rule.
#[allow(clippy::needless_range_loop)]
#[cfg_attr(not(debug_assertions), inline(always))]
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

/// Value and analytic derivatives of a `D`-dimensional lattice noise (corner
/// index bit `a` = far on axis `a`). The blend runs axis by axis in the
/// order of `noiseN_axes`, so the value has exactly their bits.
#[allow(clippy::needless_range_loop)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_grad<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    fade: Fade,
    axes: &[Axis<S, H>; D],
) -> (S::F, [S::F; D]) {
    let pack = H::pack_work::<S, D>(s, r, &hash::axis_cells(axes));
    let mut slope = [axes[0].t0; D];
    for a in 0..D {
        slope[a] = fade_slope(s, fade, axes[a].t0);
    }
    let mut out = axes[0].t0;
    let mut dout = [axes[0].t0; D];
    for_each_part!(S, D, |k| {
        let g = H::part_hashes_of_axes::<S, D, false>(s, r, &pack, axes, k);
        let mut parts = [part::<S, H, false>(s, &axes[0], k); D];
        let mut dt = [s.part_ref(&slope[0], k); D];
        for a in 1..D {
            parts[a] = part::<S, H, false>(s, &axes[a], k);
            dt[a] = s.part_ref(&slope[a], k);
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
            *corner = K::dual::<S, H, D>(s, g[i], &offsets);
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
    /// The noise at one pack. With `FRESH`, stage 2 makes each axis's
    /// offset minus one and (quintic) fade per part from the offset, where
    /// they are used, and with `NEXT` the upper cells as the lower plus one
    /// (the coordinates mode; the permutation mode reads its stage-1
    /// cells either way): stage 1 and 2 then keep far fewer values alive
    /// across the pack (the whole-pack values of 3 or 4 axes outgrow the
    /// register file). Callers pass them only where that gives the same
    /// bits: `FRESH` for the quintic fade (stage 1 made with `fresh`),
    /// `NEXT` where no axis has a period.
    fn eval<S: Simd, K: Corners, H: HashModeKernel, const FRESH: bool, const NEXT: bool>(
        s: S,
        r: &H::Ready<'_, S>,
        axes: &[Axis<S, H>; D],
    ) -> S::F;
    fn eval_grad<S: Simd, K: Corners, H: HashModeKernel>(
        s: S,
        r: &H::Ready<'_, S>,
        fade: Fade,
        axes: &[Axis<S, H>; D],
    ) -> (S::F, [S::F; D]);
    /// The blend of one part's corners: hashes `g` (corner `i + 2j + 4k +
    /// 8l`), the axes' offsets and fades `p`.
    fn blend<S: Simd, K: Corners, H: HashModeKernel>(
        s: S,
        g: &[H::Part<S>; 16],
        p: &[Part<S>; D],
    ) -> S::P;
}

/// The lattice noise of each dimension, as [`Dims`].
pub struct Noise;

macro_rules! dims {
    ($d:literal, |$s:ident, $r:ident, $a:ident| $eval:expr, |$bs:ident, $g:ident, $p:ident| $blend:expr) => {
        impl Dims<$d> for Noise {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval<S: Simd, K: Corners, H: HashModeKernel, const FRESH: bool, const NEXT: bool>(
                $s: S,
                $r: &H::Ready<'_, S>,
                $a: &[Axis<S, H>; $d],
            ) -> S::F {
                $eval
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval_grad<S: Simd, K: Corners, H: HashModeKernel>(
                s: S,
                r: &H::Ready<'_, S>,
                fade: Fade,
                a: &[Axis<S, H>; $d],
            ) -> (S::F, [S::F; $d]) {
                blend_grad::<S, K, H, $d>(s, r, fade, a)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn blend<S: Simd, K: Corners, H: HashModeKernel>(
                $bs: S,
                $g: &[H::Part<S>; 16],
                $p: &[Part<S>; $d],
            ) -> S::P {
                $blend
            }
        }
    };
}
// 1D: the lerp of the two corners.
dims!(
    1,
    |s, r, a| noise1_axes::<S, K, H, FRESH, NEXT>(s, r, &a[0]),
    |s, g, p| lerp(
        p[0].fade,
        K::corner::<S, H, 1>(s, g[0], [p[0].t0]),
        K::corner::<S, H, 1>(s, g[1], [p[0].t1]),
    )
);
// 2D: corners i + 2j, blended along x, then y.
dims!(
    2,
    |s, r, a| noise2_axes::<S, K, H, FRESH, NEXT>(s, r, &a[0], &a[1]),
    |s, g, p| {
        let [x, y] = p;
        lerp(
            y.fade,
            lerp(
                x.fade,
                K::corner::<S, H, 2>(s, g[0], [x.t0, y.t0]),
                K::corner::<S, H, 2>(s, g[1], [x.t1, y.t0]),
            ),
            lerp(
                x.fade,
                K::corner::<S, H, 2>(s, g[2], [x.t0, y.t1]),
                K::corner::<S, H, 2>(s, g[3], [x.t1, y.t1]),
            ),
        )
    }
);
// 3D: Ken Perlin's improved noise (with `GradientCorners` and the permutation).
dims!(
    3,
    |s, r, a| noise3_axes::<S, K, H, FRESH, NEXT>(s, r, &a[0], &a[1], &a[2]),
    |s, g, p| cube::<S, K, H, 3>(s, &g[..8], p, p[2].t0)
);
// 4D: 16 corners i + 2j + 4k + 8l, two cubes blended along w.
dims!(
    4,
    |s, r, a| noise4_axes::<S, K, H, FRESH, NEXT>(s, r, a),
    |s, g, p| {
        let [x, y, z, w] = p;
        let xyz = [*x, *y, *z];
        let near = cube::<S, K, H, 4>(s, &g[..8], &xyz, w.t0);
        let far = cube::<S, K, H, 4>(s, &g[8..], &xyz, w.t1);
        lerp(w.fade, near, far)
    }
);

/// Stage 2 of one pack from its axes ([`Dims::eval`]) in a function of its
/// own ([`Simd::outlined`]): compiled once per level, corners, hash
/// mode, dimension and stage-1 form (`FRESH`, `NEXT`), and called by every
/// stage 1 that feeds it: `f32` and `f64` points and fractal octaves. (The
/// default lattice's part-by-part path, `noise_parts`, keeps its stage 2
/// inline, since its stage 1 runs inside it; so do grid rows in 1D to 3D,
/// measured.) The call and the axes
/// passed through memory cost a few instructions per pack of `S::LANES`
/// points; every copy of stage 2 inlined into its callers cost the build
/// far more.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn stage2<S, K, H, const FRESH: bool, const NEXT: bool, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    axes: &[Axis<S, H>; D],
) -> S::F
where
    S: Simd,
    K: Corners,
    H: HashModeKernel,
    Noise: Dims<D>,
{
    s.outlined(Stage2::<'_, '_, S, K, H, FRESH, NEXT, D> {
        r,
        axes,
        _corners: PhantomData,
    })
}

/// [`stage2`] with derivatives ([`Dims::eval_grad`]).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn stage2_grad<S, K, H, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    fade: Fade,
    axes: &[Axis<S, H>; D],
) -> (S::F, [S::F; D])
where
    S: Simd,
    K: Corners,
    H: HashModeKernel,
    Noise: Dims<D>,
{
    s.outlined(Stage2Grad::<'_, '_, S, K, H, D> {
        r,
        fade,
        axes,
        _corners: PhantomData,
    })
}

/// [`stage2`]'s outlined pack.
struct Stage2<
    'a,
    'r,
    S: Simd,
    K,
    H: HashModeKernel,
    const FRESH: bool,
    const NEXT: bool,
    const D: usize,
> {
    r: &'a H::Ready<'r, S>,
    axes: &'a [Axis<S, H>; D],
    _corners: PhantomData<K>,
}

impl<S: Simd, K: Corners, H: HashModeKernel, const FRESH: bool, const NEXT: bool, const D: usize>
    OutlinedJob<S> for Stage2<'_, '_, S, K, H, FRESH, NEXT, D>
where
    Noise: Dims<D>,
{
    type Output = S::F;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> S::F {
        Noise::eval::<S, K, H, FRESH, NEXT>(s, self.r, self.axes)
    }
}

/// [`stage2_grad`]'s outlined pack.
struct Stage2Grad<'a, 'r, S: Simd, K, H: HashModeKernel, const D: usize> {
    r: &'a H::Ready<'r, S>,
    fade: Fade,
    axes: &'a [Axis<S, H>; D],
    _corners: PhantomData<K>,
}

impl<S: Simd, K: Corners, H: HashModeKernel, const D: usize> OutlinedJob<S>
    for Stage2Grad<'_, '_, S, K, H, D>
where
    Noise: Dims<D>,
{
    type Output = (S::F, [S::F; D]);

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> (S::F, [S::F; D]) {
        Noise::eval_grad::<S, K, H>(s, self.r, self.fade, self.axes)
    }
}
