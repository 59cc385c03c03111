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

use crate::field::{
    Field, GradField, GridAxis, LaneSlices, PointPack, canonical, fill_rows_by_points,
};
use crate::kernel::{Dims, Noise};
use crate::simd::scalar::Scalar;
use crate::simd::{MAX_LANES, Simd};
use crate::sources::ops::{load_rows, store_rows};
use crate::{Error, Level, Source};

/// Most iterations a [`Warp`] runs.
pub const MAX_WARP_ITERATIONS: u32 = 8;

/// The offset of axis `a`'s warp sample, on every coordinate axis (exact
/// in `f32`: multiples of 1/256, none a whole number of cells, no two
/// alike in their fractions; from axis 4 on, steps of 41 + 93/256).
#[rustfmt::skip]
const AXIS_OFFSETS: [f64; crate::MAX_DIMENSIONS] = [
    0.0,
    41.375,
    83.90625,
    125.125,
    166.48828125,
    207.8515625,
    249.21484375,
    290.578125,
    331.94140625,
    373.3046875,
    414.66796875,
    456.03125,
    497.39453125,
    538.7578125,
    580.12109375,
    621.484375,
    662.84765625,
    704.2109375,
    745.57421875,
    786.9375,
    828.30078125,
    869.6640625,
    911.02734375,
    952.390625,
    993.75390625,
    1035.1171875,
    1076.48046875,
    1117.84375,
    1159.20703125,
    1200.5703125,
    1241.93359375,
    1283.296875,
];

/// Axis `a`'s warp sample of the lanes `at` into `sample` (`at` itself on
/// axis 0; else `at + offset`, kept finite), the first `lanes` of each axis.
fn sample_of(at: &[[f64; MAX_LANES]], a: usize, lanes: usize, sample: &mut [[f64; MAX_LANES]]) {
    for (sample, at) in sample.iter_mut().zip(at) {
        for (v, &c) in sample[..lanes].iter_mut().zip(&at[..lanes]) {
            *v = match a {
                0 => c,
                _ => (c + AXIS_OFFSETS[a]).clamp(-f64::MAX, f64::MAX),
            };
        }
    }
}

/// `c` displaced by `amplitude · by` into `at` (the product of two `f32`s
/// is exact in `f64`; kept finite), lane by lane.
fn displace(
    c: &[[f64; MAX_LANES]],
    amplitude: f32,
    by: &[[f32; MAX_LANES]],
    lanes: usize,
    at: &mut [[f64; MAX_LANES]],
) {
    for ((at, c), by) in at.iter_mut().zip(c).zip(by) {
        for i in 0..lanes {
            at[i] = (c[i] + f64::from(amplitude) * f64::from(by[i])).clamp(-f64::MAX, f64::MAX);
        }
    }
}

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

    /// [`Field::eval`]'s iterations with the dimension a value, the
    /// coordinates lane by lane in `f64` (`f32` lanes widened: in 5
    /// dimensions and more the warp displaces in `f64` for `fill` and
    /// `fill_f64` alike, as the fractals scale their octaves there).
    fn eval_nd<S: Simd>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        if self.error.is_some() {
            return s.splat(f32::NAN);
        }
        self.warped_nd(r, s, &c.to_f64(), period_scale)
    }

    fn max_dimension(&self) -> usize {
        self.source.max_dimension().min(self.warp.max_dimension())
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

impl<N: Source, W: Source> Warp<N, W> {
    /// The warped source at the lanes `c` (5 dimensions and more).
    fn warped_nd<S: Simd>(
        &self,
        r: &<Self as Field>::Ready<'_, S>,
        s: S,
        c: &[[f64; MAX_LANES]],
        period_scale: u64,
    ) -> S::F {
        let (d, lanes) = (c.len(), S::LANES);
        let mut at = c.to_vec();
        let mut sample = c.to_vec();
        let mut by = vec![[0.0f32; MAX_LANES]; d];
        for _ in 0..self.iterations {
            for (a, by) in by.iter_mut().enumerate() {
                sample_of(&at, a, lanes, &mut sample);
                let w = self
                    .warp
                    .eval_nd(&r.1, s, LaneSlices::F64(&sample), period_scale);
                s.store(w, &mut by[..lanes]);
            }
            displace(c, self.amplitude, &by, lanes, &mut at);
        }
        self.source
            .eval_nd(&r.0, s, LaneSlices::F64(&at), period_scale)
    }
}

impl<N: Source + GradField, W: Source + GradField> Warp<N, W> {
    /// [`GradField::eval_grad`]'s chain rule with the dimension a value:
    /// the fields at this level, the chain rule lane by lane
    /// ([`chain_row`], [`chained`]: one copy, not one per level).
    #[allow(clippy::needless_range_loop)] // rows of `by` and the Jacobian
    fn warped_grad_nd<S: Simd>(
        &self,
        r: &<Self as Field>::Ready<'_, S>,
        s: S,
        c: &[[f64; MAX_LANES]],
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        let (d, lanes) = (c.len(), S::LANES);
        let mut at = c.to_vec();
        let mut sample = c.to_vec();
        let mut by = vec![[0.0f32; MAX_LANES]; d];
        let mut jacobian = vec![[0.0f32; MAX_LANES]; d * d];
        let mut dw = vec![s.splat(0.0); d];
        for k in 0..self.iterations {
            let mut next = jacobian.clone();
            for a in 0..d {
                sample_of(&at, a, lanes, &mut sample);
                let w = self.warp.eval_grad_nd(
                    &r.1,
                    s,
                    LaneSlices::F64(&sample),
                    period_scale,
                    &mut dw,
                );
                s.store(w, &mut by[a][..lanes]);
                let dw = store_rows(s, &dw);
                chain_row(k == 0, a, lanes, self.amplitude, &dw, &jacobian, &mut next);
            }
            jacobian = next;
            displace(c, self.amplitude, &by, lanes, &mut at);
        }
        let v = self
            .source
            .eval_grad_nd(&r.0, s, LaneSlices::F64(&at), period_scale, grad);
        let mut g = store_rows(s, grad);
        chained(lanes, &mut g, &jacobian);
        load_rows(s, &g, grad);
        v
    }
}

/// Row `a` of the next Jacobian (`next[a · d + j]`, `d = dw.len()`): the
/// chain `amplitude · Σₘ dw[m] · jacobian[m][j]` (`dw[j]` itself on the
/// first iteration, where the Jacobian is the identity), plus 1 on the
/// diagonal; lane by lane.
#[allow(clippy::needless_range_loop)] // d×d matrices
fn chain_row(
    first: bool,
    a: usize,
    lanes: usize,
    amplitude: f32,
    dw: &[[f32; MAX_LANES]],
    jacobian: &[[f32; MAX_LANES]],
    next: &mut [[f32; MAX_LANES]],
) {
    let d = dw.len();
    for j in 0..d {
        for i in 0..lanes {
            let mut chain = dw[j][i];
            if !first {
                chain = dw[0][i] * jacobian[j][i];
                for m in 1..d {
                    chain += dw[m][i] * jacobian[m * d + j][i];
                }
            }
            let moved = amplitude * chain;
            next[a * d + j][i] = if a == j { 1.0 + moved } else { moved };
        }
    }
}

/// The source's derivatives `g` (per axis of its point) as derivatives
/// along the warp's input: `Σₐ g[a] · jacobian[a][j]`, lane by lane.
#[allow(clippy::needless_range_loop)] // d×d matrices
fn chained(lanes: usize, g: &mut [[f32; MAX_LANES]], jacobian: &[[f32; MAX_LANES]]) {
    let d = g.len();
    let df = g.to_vec();
    for j in 0..d {
        for i in 0..lanes {
            let mut v = df[0][i] * jacobian[j][i];
            for a in 1..d {
                v += df[a][i] * jacobian[a * d + j][i];
            }
            g[j][i] = canonical(Scalar, v);
        }
    }
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

    fn eval_grad_nd<S: Simd>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        if self.error.is_some() {
            grad.fill(s.splat(f32::NAN));
            return s.splat(f32::NAN);
        }
        self.warped_grad_nd(r, s, &c.to_f64(), period_scale, grad)
    }
}
