//! What a lattice noise puts at its corners ([`Corners`]): gradients
//! ([`GradientCorners`], Perlin) or heights ([`ValueCorners`], value noise), and
//! a corner's value with its slopes ([`Dual`]) for derivatives.

use super::HashModeKernel;
use super::axis::splat_part;
use crate::simd::Simd;

/// A corner's value and its derivative along each axis (one part).
#[derive(Clone, Copy)]
pub struct Dual<S: Simd, const D: usize> {
    pub(super) v: S::P,
    pub(super) d: [S::P; D],
}

/// What a lattice noise puts at its corners: the value at offset `(x, y, …)`
/// from the corner with hash `h` (the gradient or height the hash mode `H`
/// picks), and (for derivatives) that value's slope.
pub trait Corners: Copy + Send + Sync + 'static {
    /// Whether the corner value depends on the offset (gradients: yes;
    /// heights: no).
    const SLOPED: bool;
    fn corner<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        c: [S::P; D],
    ) -> S::P;
    /// The corner's value and slopes, with the value computed exactly as
    /// `corner` computes it.
    fn dual<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        c: &[S::P; D],
    ) -> Dual<S, D>;
    /// For the grid rows (`rows.rs`): a corner's value as `g0·x + rest`,
    /// with the other axes' offsets `offsets[a][far on a]` (broadcast) for
    /// corner `corner` of `D`-dimensional noise: `(g0, rest)`.
    fn plane_terms<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        corner: usize,
        offsets: &[[S::P; 2]; 3],
    ) -> (S::P, S::P);
}

/// Perlin's gradient noise: the corner value is `gradient · offset`,
/// summed `((g0·x + g1·y) + g2·z) + g3·w`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GradientCorners;

impl Corners for GradientCorners {
    const SLOPED: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn corner<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        c: [S::P; D],
    ) -> S::P {
        H::dot::<S, D>(s, h, c)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dual<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        c: &[S::P; D],
    ) -> Dual<S, D> {
        let g = H::gradient::<S, D>(s, h);
        // The same sum, in the same order, as `corner` (`HashModeKernel::dot`).
        let mut v = g[0] * c[0];
        for a in 1..D {
            v = v + g[a] * c[a];
        }
        Dual { v, d: g }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn plane_terms<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        corner: usize,
        offsets: &[[S::P; 2]; 3],
    ) -> (S::P, S::P) {
        let g = H::gradient::<S, D>(s, h);
        if D == 1 {
            return (g[0], splat_part(s, 0.0));
        }
        let off = |a: usize| offsets[a][corner >> a & 1];
        let mut rest = g[1] * off(0);
        for (a, &g) in g.iter().enumerate().skip(2) {
            rest = rest + g * off(a - 1);
        }
        (g[0], rest)
    }
}

/// Value noise: the corner value is the height the hash picks, whatever the
/// offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValueCorners;

impl Corners for ValueCorners {
    const SLOPED: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn corner<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        _: [S::P; D],
    ) -> S::P {
        H::height(s, h)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dual<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        _: &[S::P; D],
    ) -> Dual<S, D> {
        Dual {
            v: H::height(s, h),
            d: [splat_part(s, 0.0); D],
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn plane_terms<S: Simd, H: HashModeKernel, const D: usize>(
        s: S,
        h: H::Part<S>,
        _: usize,
        _: &[[S::P; 2]; 3],
    ) -> (S::P, S::P) {
        (splat_part(s, 0.0), H::height(s, h))
    }
}
