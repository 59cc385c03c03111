//! [`Warp`]: a source sampled at coordinates displaced by another field.
//!
//! At a point `c`, axis `a` is displaced by the warp field `w` sampled at
//! `c + oₐ` (`o₀ = 0`; the other axes' offsets move every coordinate by a
//! fixed non-integer amount, so each axis sees an unrelated part of `w`):
//!
//! ```text
//! c₀ = c,   cₖ₊₁[a] = c[a] + amplitude · w(cₖ + oₐ),   output = source(c_iterations)
//! ```
//!
//! With one iteration (the default) this is the classic domain warp
//! `source(c + amplitude · w(c))`; more iterations warp the warp
//! (`f(p + w(p + w(p)))`, progressive warping). A fractal warp field
//! (`Fbm` over `Perlin`) gives the usual warped-fBm look.
//!
//! The displaced coordinates are computed in the precision of the call:
//! `f32` for `fill` (and one-point calls), `f64` for `fill_f64` (where
//! `amplitude · w` is exact). Grids are computed as `fill_f64` computes
//! their sample coordinates, bit for bit (a warped grid is no longer a grid
//! for the source, so there is no row path). Every level, thread count and
//! window split gives the same bits.

use crate::field::{Field, GradField, GridAxis, PointPack, canonical, fill_rows_by_points};
use crate::kernel::{Dims, Noise};
use crate::simd::Simd;
use crate::{Error, Level, Source};

/// Most iterations a [`Warp`] runs.
pub const MAX_WARP_ITERATIONS: u32 = 8;

/// The offset of axis `a`'s warp sample, on every coordinate axis (exact
/// in `f32`: multiples of 1/256, not whole cells).
const AXIS_OFFSETS: [f64; 4] = [0.0, 41.375, 83.906_25, 125.125];

/// A source sampled at coordinates displaced by a warp field.
///
/// At a point `c`, axis `a` is displaced by the warp field `w` sampled at
/// `c + oₐ` (`o₀ = 0`; the other axes' offsets move every coordinate by a
/// fixed non-integer amount, so each axis sees an unrelated part of `w`):
///
/// ```text
/// c₀ = c,   cₖ₊₁[a] = c[a] + amplitude · w(cₖ + oₐ),   output = source(c_iterations)
/// ```
///
/// With one iteration (the default) this is the classic domain warp
/// `source(c + amplitude · w(c))`; more iterations warp the warp
/// (`f(p + w(p + w(p)))`, progressive warping). A fractal warp field
/// (`Fbm` over `Perlin`) gives the usual warped-fBm look.
///
/// The displaced coordinates are computed in the precision of the call:
/// `f32` for `fill` (and one-point calls), `f64` for `fill_f64` (where
/// `amplitude · w` is exact). Grids are computed as `fill_f64` computes
/// their sample coordinates, bit for bit (a warped grid is no longer a grid
/// for the source, so there is no row path). Every level, thread count and
/// window split gives the same bits.
///
/// # Derivatives
///
/// When the source and the warp field are
/// [`Differentiable`](crate::Differentiable), so is the warp, by the chain
/// rule through every iteration: with `Jₖ = ∂cₖ/∂c` (`J₀` the identity),
///
/// ```text
/// Jₖ₊₁[a][j] = δₐⱼ + amplitude · Σₘ ∂w/∂pₘ(cₖ + oₐ) · Jₖ[m][j]
/// ∂output/∂c[j] = Σₐ ∂source/∂pₐ(c_iterations) · J_iterations[a][j]
/// ```
///
/// (one iteration: `∂source/∂p · (I + amplitude · ∂w/∂c)`). The value is
/// bit-identical to the plain methods'; the derivatives (in `f32`, a `D×D`
/// matrix per point) are the same bits at every level, thread count and
/// window. The clamp of displaced coordinates to the finite range is not
/// differentiated. `fill_grid_grad` computes each sample as `fill_f64`
/// does, like the value grid, so their values are equal bit for bit.
#[derive(Clone, Debug)]
pub struct Warp<N, W> {
    source: N,
    warp: W,
    amplitude: f32,
    iterations: u32,
    error: Option<Error>,
    level: Level,
}

impl<N: Source, W: Source> Warp<N, W> {
    /// `source` warped by `warp` with amplitude 1 (one lattice cell per
    /// unit of `warp`'s output) and one iteration, at the source's level.
    pub fn new(source: N, warp: W) -> Warp<N, W> {
        let level = source.run_level();
        let mut w = Warp {
            source,
            warp,
            amplitude: 1.0,
            iterations: 1,
            error: None,
            level,
        };
        w.set_level(level);
        w
    }

    /// How far the warp moves a point per unit of the warp field's output,
    /// in the source's coordinates (finite).
    pub fn amplitude(mut self, amplitude: f32) -> Warp<N, W> {
        self.amplitude = amplitude;
        self.error = self.settings_error();
        self
    }

    /// Warps of the warp: 1 to [`MAX_WARP_ITERATIONS`].
    pub fn iterations(mut self, iterations: u32) -> Warp<N, W> {
        self.iterations = iterations;
        self.error = self.settings_error();
        self
    }

    fn settings_error(&self) -> Option<Error> {
        if !self.amplitude.is_finite() {
            return Some(Error::NonFiniteParameter {
                name: "warp amplitude",
                value: self.amplitude,
            });
        }
        if !(1..=MAX_WARP_ITERATIONS).contains(&self.iterations) {
            return Some(Error::InvalidParameter {
                name: "warp iterations",
                reason: format!(
                    "{} given; a warp runs 1 to {MAX_WARP_ITERATIONS} iterations",
                    self.iterations
                ),
            });
        }
        None
    }

    /// The same field computed at `level` (the inputs' levels are set too).
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(self, level: Level) -> Result<Warp<N, W>, Error> {
        crate::field::at_level(self, level)
    }

    /// The warped source and the warp field.
    pub fn inputs(&self) -> (&N, &W) {
        (&self.source, &self.warp)
    }
}

impl<N: Source, W: Source> Field for Warp<N, W> {
    type Ready<'r, S: Simd>
        = (N::Ready<'r, S>, W::Ready<'r, S>)
    where
        Self: 'r;
    /// The period scale the grid's plan was made with.
    type Plan = u64;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> Self::Ready<'_, S> {
        (self.source.ready(s), self.warp.ready(s))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        if self.error.is_some() {
            return s.splat(f32::NAN);
        }
        let mut at = *c;
        for _ in 0..self.iterations {
            let mut by = [s.splat(0.0); D];
            for (a, by) in by.iter_mut().enumerate() {
                // One call site, so the warp field's kernel is inlined once.
                let sample = if a == 0 {
                    at
                } else {
                    at.affine(s, 1.0, &[AXIS_OFFSETS[a]; 4])
                };
                *by = self.warp.eval(&r.1, s, &sample, period_scale);
            }
            at = c.displaced(s, self.amplitude, &by);
        }
        self.source.eval(&r.0, s, &at, period_scale)
    }

    fn run_level(&self) -> Level {
        self.level
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
        self.source.set_level(level);
        self.warp.set_level(level);
    }

    fn validate(&self) -> Result<(), Error> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => self.source.validate().and(self.warp.validate()),
        }
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        self.source.output_bounds(dimension)
    }

    /// A warp does not repeat bit for bit with its inputs' periods.
    fn period(&self, _: usize, _: u64) -> Option<u64> {
        None
    }

    fn plan<const D: usize>(&self, _: &[GridAxis; D], period_scale: u64) -> u64
    where
        Noise: Dims<D>,
    {
        period_scale
    }

    fn fill_rows<const D: usize>(
        &self,
        period_scale: &u64,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        _streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        fill_rows_by_points(self, axes, first_row, out, *period_scale);
    }

    crate::sources::dynamic::erased_runs!();
}

impl<N: Source + GradField, W: Source + GradField> GradField for Warp<N, W> {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.validate()?;
        self.source.validate_grad()?;
        self.warp.validate_grad()
    }

    crate::sources::dynamic::erased_grad_runs!();
    /// The chain rule through every iteration: with `Jₖ = ∂cₖ/∂c` (`J₀ =
    /// I`), `Jₖ₊₁[a][j] = δₐⱼ + amplitude · Σₘ ∂w/∂pₘ(cₖ + oₐ) · Jₖ[m][j]`,
    /// and the output's gradient is `Σₐ ∂source/∂pₐ(c_iterations) · J[a][j]`.
    #[allow(clippy::needless_range_loop)] // D×D matrices
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        if self.error.is_some() {
            return (s.splat(f32::NAN), [s.splat(f32::NAN); D]);
        }
        let amplitude = s.splat(self.amplitude);
        let mut at = *c;
        // jacobian[a][j] = ∂at[a]/∂c[j] (unused while `at` is `c`: the
        // identity is not multiplied out).
        let mut jacobian = [[s.splat(0.0); D]; D];
        for k in 0..self.iterations {
            let mut by = [s.splat(0.0); D];
            let mut next = jacobian;
            for a in 0..D {
                // The same samples as `eval` (the offset's slope is 1), one
                // call site.
                let sample = if a == 0 {
                    at
                } else {
                    at.affine(s, 1.0, &[AXIS_OFFSETS[a]; 4])
                };
                let (w, dw) = self.warp.eval_grad(&r.1, s, &sample, period_scale);
                by[a] = w;
                for j in 0..D {
                    // ∂w(cₖ + oₐ)/∂c[j], left to right over m.
                    let mut chain = dw[j];
                    if k > 0 {
                        chain = dw[0] * jacobian[0][j];
                        for m in 1..D {
                            chain = chain + dw[m] * jacobian[m][j];
                        }
                    }
                    let moved = amplitude * chain;
                    next[a][j] = if a == j { s.splat(1.0) + moved } else { moved };
                }
            }
            jacobian = next;
            at = c.displaced(s, self.amplitude, &by);
        }
        let (v, df) = self.source.eval_grad(&r.0, s, &at, period_scale);
        let mut grad = df;
        for j in 0..D {
            let mut g = df[0] * jacobian[0][j];
            for a in 1..D {
                g = g + df[a] * jacobian[a][j];
            }
            grad[j] = canonical(s, g);
        }
        (v, grad)
    }
}
