//! [`Fade`]: the interpolation curve between lattice points, and the
//! polynomials (fades, their slopes, `sin`) the kernels evaluate with `+ − ×`
//! only, so that every backend rounds them identically.

use crate::simd::{Lanes, Simd};

/// How a lattice noise blends its corners: the curve `fade(t)` applied to
/// the offset `t ∈ [0, 1]` inside a cell before each linear interpolation.
///
/// Every curve maps 0 to 0 and 1 to 1 and is symmetric; they differ in how
/// smoothly cells join (what a lighting or erosion step sees).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Fade {
    /// `6t⁵ − 15t⁴ + 10t³` (Ken Perlin 2002): first and second derivatives
    /// vanish at lattice points, so normals are continuous. The default.
    #[default]
    Quintic,
    /// Smoothstep `3t² − 2t³` (Perlin 1985): first derivative vanishes at
    /// lattice points; the second jumps (visible creases in lit terrain).
    Cubic,
    /// `(1 − cos πt) / 2` (the classic value-noise curve): first derivative
    /// vanishes at lattice points. Evaluated by a polynomial within 1e-7.
    Cosine,
    /// `t`: plain multilinear interpolation (value noise's cheapest form);
    /// the field is continuous but its derivative jumps at cell faces.
    Linear,
}

impl Fade {
    /// All curves, in declaration order.
    pub const ALL: [Fade; 4] = [Fade::Quintic, Fade::Cubic, Fade::Cosine, Fade::Linear];
}

/// Taylor coefficients of `sin(πu)` (odd powers 1..=13): for |u| ≤ ½ the
/// truncation error is below 1e-9, under `f32` rounding.
const SIN_PI: [f32; 7] = [
    std::f32::consts::PI,
    -5.167_712_8,
    2.550_164,
    -0.599_264_5,
    0.082_145_89,
    -0.007_370_431,
    0.000_466_302_8,
];

/// Taylor coefficients of `cos(πu)` (even powers 0..=14), for |u| ≤ ½.
const COS_PI: [f32; 8] = [
    1.0,
    -4.934_802,
    4.058_712,
    -1.335_262_8,
    0.235_330_63,
    -0.025_806_89,
    0.001_929_574_3,
    -0.000_104_638_55,
];

/// `sin(πu)` for |u| ≤ ½ (Horner in u², then × u), clamped to [−1, 1]:
/// near u = ±½ the `f32` polynomial reaches 1 + 2⁻²³, which would put the
/// cosine fade above 1 (value noise outside [−1, 1]) and `Marble` outside
/// its bounds. The clamp keeps NaN (`min`/`max` return their second
/// operand when unordered).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn sin_pi_reduced<S: Simd, V: Lanes<S>>(s: S, u: V) -> V {
    let u2 = u * u;
    let mut p = V::splat(s, SIN_PI[6]);
    for c in SIN_PI[..6].iter().rev() {
        p = p * u2 + V::splat(s, *c);
    }
    V::max(s, V::splat(s, -1.0), V::min(s, V::splat(s, 1.0), p * u))
}

/// `cos(πu)` for |u| ≤ ½.
#[cfg_attr(not(debug_assertions), inline(always))]
fn cos_pi_reduced<S: Simd, V: Lanes<S>>(s: S, u: V) -> V {
    let u2 = u * u;
    let mut p = V::splat(s, COS_PI[7]);
    for c in COS_PI[..7].iter().rev() {
        p = p * u2 + V::splat(s, *c);
    }
    p
}

/// `sin(x)` for any `x`: reduced by multiples of π (the reduction is in
/// `f32`, so the result's absolute error grows like `|x|·2⁻²⁴`; it stays in
/// [−1, 1]). NaN and ±inf give NaN.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn sin<S: Simd>(s: S, x: S::F) -> S::F {
    let y = x * s.splat(std::f32::consts::FRAC_1_PI);
    let k = s.floor(y + s.splat(0.5));
    let u = y - k;
    // (−1)^k from the parity of k: k/2 − floor(k/2) is 0 or ½.
    let half = k * s.splat(0.5);
    let parity = half - s.floor(half);
    let sign = s.splat(1.0) - parity * s.splat(4.0);
    // |u| ≤ ½ up to rounding; clamp so the polynomial stays in its range.
    let u = s.max(s.splat(-0.5), s.min(s.splat(0.5), u));
    sin_pi_reduced(s, u) * sign
}

/// `fade(t)` for `t ∈ [0, 1]`, in [0, 1]: a lerp with it is a convex
/// combination, so value noise stays in [−1, 1].
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn faded<S: Simd, V: Lanes<S>>(s: S, fade: Fade, t: V) -> V {
    match fade {
        Fade::Quintic => {
            let t3 = t * t * t;
            // Near t = 1 the Horner form cancels (t(6t − 15) ≈ −9, + 10) and
            // rounds up to 1 + 1.1e-6; the min keeps it at most 1 (a NaN
            // stays NaN). Cubic and Linear never exceed 1 in f32 (checked
            // for every f32 in [0, 1]); Cosine is clamped in `sin_pi_reduced`.
            V::min(
                s,
                V::splat(s, 1.0),
                t3 * (t * (t * V::splat(s, 6.0) - V::splat(s, 15.0)) + V::splat(s, 10.0)),
            )
        }
        Fade::Cubic => t * t * (V::splat(s, 3.0) - t * V::splat(s, 2.0)),
        Fade::Cosine => {
            V::splat(s, 0.5) + V::splat(s, 0.5) * sin_pi_reduced(s, t - V::splat(s, 0.5))
        }
        Fade::Linear => t,
    }
}

/// `fade′(t)`, the slope of the fade, for `t ∈ [0, 1]`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn fade_slope<S: Simd, V: Lanes<S>>(s: S, fade: Fade, t: V) -> V {
    match fade {
        Fade::Quintic => {
            t * t * (t * (t * V::splat(s, 30.0) - V::splat(s, 60.0)) + V::splat(s, 30.0))
        }
        Fade::Cubic => t * (V::splat(s, 6.0) - t * V::splat(s, 6.0)),
        Fade::Cosine => {
            V::splat(s, std::f32::consts::FRAC_PI_2) * cos_pi_reduced(s, t - V::splat(s, 0.5))
        }
        Fade::Linear => V::splat(s, 1.0),
    }
}
