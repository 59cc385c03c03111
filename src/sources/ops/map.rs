//! [`Map`]: one input mapped value by value (scale and bias, abs, clamp,
//! terrace, curve), with its control points, parameter checks, the map of a
//! pack of lanes and its slope for the derivatives.

use super::rows::{How, Rows};
use super::{clamp, finite, invalid, load_rows, store_one, store_rows};
use crate::field::{Field, GradField, GridAxis, LaneSlices, PointPack, canonical};
use crate::kernel::{Dims, Noise};
use crate::simd::scalar::Scalar;
use crate::simd::{MAX_LANES, Simd, dispatch};
use crate::{Error, Level, Source};

/// Most control points a [`Map::terrace`] or [`Map::curve`] takes.
pub const MAX_CONTROL_POINTS: usize = 32;

/// The piecewise maps' segments: `n` control points, per segment its start
/// `x[i]`, end `x[i + 1]`, and a factor `k[i]` (terrace: `1 / width`;
/// curve: slope), terrace widths `w[i]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Pieces {
    n: usize,
    x: [f32; MAX_CONTROL_POINTS],
    k: [f32; MAX_CONTROL_POINTS],
    w: [f32; MAX_CONTROL_POINTS],
    /// The output's first value and the clamp interval.
    start: f32,
    lo: f32,
    hi: f32,
}

impl Pieces {
    const EMPTY: Pieces = Pieces {
        n: 0,
        x: [0.0; MAX_CONTROL_POINTS],
        k: [0.0; MAX_CONTROL_POINTS],
        w: [0.0; MAX_CONTROL_POINTS],
        start: 0.0,
        lo: 0.0,
        hi: 0.0,
    };
}

/// What a [`Map`] does to each value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum MapOp {
    ScaleBias { scale: f32, bias: f32 },
    Abs,
    Clamp { lower: f32, upper: f32 },
    Terrace,
    Curve,
}

/// One input, mapped value by value. The operators:
///
/// Operators: fields made point by point from other fields.
///
/// | type | output at a point (inputs `a`, `b`, control `c`) |
/// |---|---|
/// | [`Map::scale_bias`] | `a · scale + bias` |
/// | [`Map::abs`] | `|a|` |
/// | [`Map::clamp`] | `a` clamped to `[lower, upper]` |
/// | [`Map::terrace`] | `pⱼ + wⱼ·t²` in the interval `[pⱼ, pⱼ₊₁]` of `a`, `t = (a − pⱼ)/wⱼ`, `wⱼ = pⱼ₊₁ − pⱼ` (flat steps, steep risers); clamped to `[p₀, pₙ]` |
/// | [`Map::curve`] | the piecewise-linear curve through the control points `(xᵢ, yᵢ)`, flat outside them |
/// | [`Combine::add`], [`Combine::multiply`] | `a + b`, `a · b` |
/// | [`Combine::min`], [`Combine::max`] | `if a < b { a } else { b }`, `if a > b { a } else { b }` |
/// | [`Blend::new`] | `(1 − t)·a + t·b`, `t = clamp(c/2 + ½, 0, 1)` |
/// | [`Blend::select`] | `(1 − t)·a + t·b`, `t` the smoothstep of `c` over `[threshold − edge, threshold + edge]`; with `edge` 0, `a` where `c ≤ threshold` and `b` where `c > threshold` |
///
/// Every operator is one pass over its inputs' values, written once over
/// the lane types, so it gives the same bits at every level, on every
/// thread and window split, like the sources under it. Inside a batch or a
/// fractal the inputs are evaluated pack by pack and combined in registers
/// (no intermediate buffer); a grid fills each input's rows through the
/// input's own row path, in blocks of at most 2¹⁶ samples, and combines the
/// blocks, so an operator's grid is the operator applied to its inputs'
/// grids, bit for bit. A NaN input gives NaN, except that `min` and `max`
/// return `b` when the two are unordered (every crate source is NaN exactly
/// at non-finite coordinates, so both inputs of an operator over crate
/// sources are NaN together). Every NaN output is the canonical `f32::NAN`.
///
/// Parameters are checked when the operator is built; an invalid one makes
/// [`Source::check`] and every batch call return the error (one-point calls
/// give NaN), as the fractals do.
///
/// # Derivatives
///
/// Over [`Differentiable`](crate::Differentiable) inputs every operator is
/// differentiable too (`noise_grad`, `fill_grad`, `fill_grid_grad`,
/// …), by the chain rule, with `∇a` the gradient of input `a`:
///
/// | operator | gradient |
/// |---|---|
/// | `scale_bias` | `scale · ∇a` |
/// | `abs` | `sign(a) · ∇a`, with `sign(0) = 0` (at `a = ±0`, the mean of the two one-sided slopes) |
/// | `clamp` | `∇a` where `lower < a < upper`, else 0 (at `a = lower` or `a = upper` too) |
/// | `terrace` | `wⱼ·2t·kⱼ · ∇a` (`kⱼ = 1/wⱼ`: the slope of `wⱼ·t²`) for `a` in `[pⱼ, pⱼ₊₁)`, else 0 |
/// | `curve` | the slope `(yᵢ₊₁ − yᵢ)/(xᵢ₊₁ − xᵢ)` of the segment `[xᵢ, xᵢ₊₁)` holding `a`, times `∇a`; 0 outside `[x₀, xₙ)` |
/// | `add` | `∇a + ∇b` |
/// | `multiply` | `∇a·b + a·∇b` |
/// | `min`, `max` | the gradient of the input the value takes (`∇a` where `a < b`, resp. `a > b`; else `∇b`, ties and unordered included) |
/// | `Blend::new`, `Blend::select` | `(1 − t)·∇a + t·∇b + (b − a)·t′(c)·∇c`, `t′` the slope of the clamped ramp or its smoothstep; 0 where `t` is clamped (ends included) and everywhere for a hard select |
///
/// At a kink the piecewise maps take the slope of the piece the value
/// belongs to, pieces being closed below and open above (`[pⱼ, pⱼ₊₁)`, as a
/// lattice cell is `floor(c)`): a terrace's slope at a control point is 0
/// (its flat side), a curve's at an inner control point is the next
/// segment's. The final clamp to `[p₀, pₙ]` of terraces and curves only
/// absorbs rounding and is not differentiated. The value is bit-identical
/// to the plain methods'; the derivatives are the same bits at every
/// level, thread count and window. A NaN value has NaN derivatives (an
/// input's NaN that `min` or `max` does not take does not reach them).
///
/// As for every differentiable source, `fill_grid_grad` computes each
/// sample as `fill_f64` computes its point, so its values equal
/// `fill_grid`'s bit for bit on coarse grids (which take that path) and
/// are within the row path's documented error of them on fine ones.
///
/// [`Combine::add`]: super::Combine::add
/// [`Combine::multiply`]: super::Combine::multiply
/// [`Combine::min`]: super::Combine::min
/// [`Combine::max`]: super::Combine::max
/// [`Blend::new`]: super::Blend::new
/// [`Blend::select`]: super::Blend::select
#[derive(Clone, Debug)]
pub struct Map<N> {
    source: N,
    op: MapOp,
    pieces: Pieces,
    error: Option<Error>,
    level: Level,
}

/// The map of one pack of values (before NaN canonicalisation).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn map_pack<S: Simd>(s: S, op: MapOp, p: &Pieces, v: S::F) -> S::F {
    match op {
        MapOp::ScaleBias { scale, bias } => v * s.splat(scale) + s.splat(bias),
        MapOp::Abs => s.abs(v),
        MapOp::Clamp { lower, upper } => clamp(s, v, lower, upper),
        MapOp::Terrace => {
            let mut acc = s.splat(p.start);
            for i in 0..p.n.saturating_sub(1) {
                let t = (clamp(s, v, p.x[i], p.x[i + 1]) - s.splat(p.x[i])) * s.splat(p.k[i]);
                acc = acc + s.splat(p.w[i]) * (t * t);
            }
            clamp(s, acc, p.lo, p.hi)
        }
        MapOp::Curve => {
            let mut acc = s.splat(p.start);
            for i in 0..p.n.saturating_sub(1) {
                let t = clamp(s, v, p.x[i], p.x[i + 1]) - s.splat(p.x[i]);
                acc = acc + t * s.splat(p.k[i]);
            }
            clamp(s, acc, p.lo, p.hi)
        }
    }
}

/// [`Field::eval_nd`]'s and [`GradField::eval_grad_nd`]'s rules, lane by
/// lane through [`Scalar`] (one copy, not one per level): `v` becomes the
/// mapped value, `g` its derivatives (none for values alone).
fn map_lanes(op: MapOp, p: &Pieces, v: &mut [f32], g: &mut [[f32; MAX_LANES]]) {
    let sc = Scalar;
    for (i, v) in v.iter_mut().enumerate() {
        if !g.is_empty() {
            let slope = map_slope_pack(sc, op, p, *v);
            for g in g.iter_mut() {
                g[i] = canonical(sc, slope * g[i]);
            }
        }
        *v = canonical(sc, map_pack(sc, op, p, *v));
    }
}

/// The map of one `f32` (the same operations through the scalar backend).
fn map_one(op: MapOp, p: &Pieces, v: f32) -> f32 {
    map_pack(Scalar, op, p, v)
}

/// The piece `[xᵢ, xᵢ₊₁)` of a terrace or curve that holds `v`, if any
/// (the last control point and beyond, or below the first: none).
fn piece(p: &Pieces, v: f32) -> Option<usize> {
    (0..p.n.saturating_sub(1)).find(|&i| p.x[i] <= v && v < p.x[i + 1])
}

/// The slope of the map at `v` (the conventions at kinks: see [`Map`]);
/// NaN at NaN. Plain `f32` code, the same at every level.
fn map_slope(op: MapOp, p: &Pieces, v: f32) -> f32 {
    if v.is_nan() {
        return f32::NAN;
    }
    match op {
        MapOp::ScaleBias { scale, .. } => scale,
        MapOp::Abs if v > 0.0 => 1.0,
        MapOp::Abs if v < 0.0 => -1.0,
        MapOp::Abs => 0.0,
        MapOp::Clamp { lower, upper } if lower < v && v < upper => 1.0,
        MapOp::Clamp { .. } => 0.0,
        MapOp::Terrace => piece(p, v).map_or(0.0, |i| {
            // The value adds wᵢ·t² with t = (v − xᵢ)·kᵢ (the clamp keeps v
            // inside its piece): its slope is wᵢ·2t·kᵢ.
            let t = (v - p.x[i]) * p.k[i];
            p.w[i] * (t + t) * p.k[i]
        }),
        MapOp::Curve => piece(p, v).map_or(0.0, |i| p.k[i]),
    }
}

/// [`map_slope`] of every lane of a pack (stored, mapped lane by lane,
/// loaded: the same `f32` code at every level).
#[cfg_attr(not(debug_assertions), inline(always))]
fn map_slope_pack<S: Simd>(s: S, op: MapOp, p: &Pieces, v: S::F) -> S::F {
    if let MapOp::ScaleBias { scale, .. } = op {
        return s.splat(scale);
    }
    let mut lanes = [0.0f32; MAX_LANES];
    s.store(v, &mut lanes[..S::LANES]);
    for l in &mut lanes[..S::LANES] {
        *l = map_slope(op, p, *l);
    }
    s.load(&lanes[..S::LANES])
}

impl<N: Source> Map<N> {
    fn with(source: N, op: MapOp, pieces: Pieces, error: Option<Error>) -> Map<N> {
        let level = source.run_level();
        Map {
            source,
            op,
            pieces,
            error,
            level,
        }
    }

    /// `source · scale + bias` (both finite).
    pub fn scale_bias(source: N, scale: f32, bias: f32) -> Map<N> {
        let error = finite("scale", scale).and(finite("bias", bias)).err();
        Map::with(
            source,
            MapOp::ScaleBias { scale, bias },
            Pieces::EMPTY,
            error,
        )
    }

    /// `|source|`.
    pub fn abs(source: N) -> Map<N> {
        Map::with(source, MapOp::Abs, Pieces::EMPTY, None)
    }

    /// `source` clamped to `[lower, upper]` (finite, `lower ≤ upper`).
    pub fn clamp(source: N, lower: f32, upper: f32) -> Map<N> {
        let mut error = finite("clamp lower bound", lower)
            .and(finite("clamp upper bound", upper))
            .err();
        if error.is_none() && lower > upper {
            error = Some(invalid(
                "clamp bounds",
                format!("the lower bound {lower} is above the upper bound {upper}"),
            ));
        }
        Map::with(source, MapOp::Clamp { lower, upper }, Pieces::EMPTY, error)
    }

    /// Terraces: the values between two neighbouring control points `pⱼ <
    /// pⱼ₊₁` map to `pⱼ + wⱼ·t²` (`t` the position in the interval, `wⱼ` its
    /// width), so the output stays near each point and rises steeply to the
    /// next; below the first point and above the last the output is the
    /// first or last point. Points may come in any order; repeats are
    /// ignored. 2 to [`MAX_CONTROL_POINTS`] distinct finite points.
    pub fn terrace(source: N, points: &[f32]) -> Map<N> {
        let mut sorted: Vec<f32> = points.to_vec();
        let error = terrace_error(&sorted);
        let mut pieces = Pieces::EMPTY;
        if error.is_none() {
            sorted.sort_by(f32::total_cmp);
            sorted.dedup();
            pieces.n = sorted.len();
            for (i, pair) in sorted.windows(2).enumerate() {
                pieces.x[i] = pair[0];
                pieces.w[i] = pair[1] - pair[0];
                pieces.k[i] = 1.0 / pieces.w[i];
            }
            pieces.x[pieces.n - 1] = sorted[pieces.n - 1];
            (pieces.start, pieces.lo, pieces.hi) = (sorted[0], sorted[0], sorted[pieces.n - 1]);
        }
        Map::with(source, MapOp::Terrace, pieces, error)
    }

    /// The piecewise-linear curve through `points` (`(input, output)`
    /// pairs, any order, 2 to [`MAX_CONTROL_POINTS`] of them, finite, no
    /// input twice): between two neighbouring inputs the output is the
    /// straight line between their outputs; below the first input and above
    /// the last it is the first or last output.
    pub fn curve(source: N, points: &[(f32, f32)]) -> Map<N> {
        let mut sorted: Vec<(f32, f32)> = points.to_vec();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let error = curve_error(&sorted);
        let mut pieces = Pieces::EMPTY;
        if error.is_none() {
            pieces.n = sorted.len();
            for (i, pair) in sorted.windows(2).enumerate() {
                let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
                pieces.x[i] = x0;
                // In f64, rounded once: the slope of the segment.
                pieces.k[i] =
                    ((f64::from(y1) - f64::from(y0)) / (f64::from(x1) - f64::from(x0))) as f32;
            }
            pieces.x[pieces.n - 1] = sorted[pieces.n - 1].0;
            pieces.start = sorted[0].1;
            pieces.lo = sorted.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
            pieces.hi = sorted.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
        }
        Map::with(source, MapOp::Curve, pieces, error)
    }

    /// The same field computed at `level` (the inputs' levels are set too).
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(self, level: Level) -> Result<Map<N>, Error> {
        crate::field::at_level(self, level)
    }

    /// The input.
    pub fn source(&self) -> &N {
        &self.source
    }
}

fn count_error(name: &'static str, count: usize) -> Option<Error> {
    if count < 2 {
        Some(invalid(
            name,
            format!("{count} given; at least 2 distinct points are needed"),
        ))
    } else if count > MAX_CONTROL_POINTS {
        Some(invalid(
            name,
            format!("{count} given; at most {MAX_CONTROL_POINTS} are allowed"),
        ))
    } else {
        None
    }
}

fn terrace_error(points: &[f32]) -> Option<Error> {
    if let Some(&v) = points.iter().find(|v| !v.is_finite()) {
        return Some(Error::NonFiniteParameter {
            name: "terrace point",
            value: v,
        });
    }
    let mut distinct = points.to_vec();
    distinct.sort_by(f32::total_cmp);
    // -0 and +0 are one point.
    distinct.dedup_by(|a, b| a == b);
    if distinct.len() < 2 && points.len() >= 2 {
        // `[0, 0, 0]`: say how many were given, and how many differ.
        return Some(invalid(
            "terrace points",
            format!(
                "{} given, {} distinct; at least 2 distinct points are needed",
                points.len(),
                distinct.len()
            ),
        ));
    }
    count_error("terrace points", distinct.len())
}

fn curve_error(sorted: &[(f32, f32)]) -> Option<Error> {
    if let Some(&(x, y)) = sorted.iter().find(|p| !p.0.is_finite() || !p.1.is_finite()) {
        let value = if x.is_finite() { y } else { x };
        return Some(Error::NonFiniteParameter {
            name: "curve point",
            value,
        });
    }
    if let Some(e) = count_error("curve points", sorted.len()) {
        return Some(e);
    }
    if let Some(pair) = sorted.windows(2).find(|p| p[0].0 == p[1].0) {
        return Some(invalid(
            "curve points",
            format!(
                "the input {} appears twice; each input needs one output",
                pair[0].0
            ),
        ));
    }
    // A slope that overflows f32 would make the curve infinite.
    for pair in sorted.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let slope = (f64::from(y1) - f64::from(y0)) / (f64::from(x1) - f64::from(x0));
        if !(slope as f32).is_finite() {
            return Some(invalid(
                "curve points",
                format!("the slope between inputs {x0} and {x1} overflows f32"),
            ));
        }
    }
    None
}

impl<N: Source> Field for Map<N> {
    type Ready<'a, S: Simd>
        = N::Ready<'a, S>
    where
        Self: 'a;
    type Plan = N::Plan;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> N::Ready<'_, S> {
        self.source.ready(s)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &N::Ready<'_, S>,
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
        let v = self.source.eval(r, s, c, period_scale);
        canonical(s, map_pack(s, self.op, &self.pieces, v))
    }

    fn eval_nd<S: Simd>(
        &self,
        r: &N::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        if self.error.is_some() {
            return s.splat(f32::NAN);
        }
        let mut v = store_one(s, self.source.eval_nd(r, s, c, period_scale));
        map_lanes(self.op, &self.pieces, &mut v[..S::LANES], &mut []);
        s.load(&v[..S::LANES])
    }

    fn max_dimension(&self) -> usize {
        self.source.max_dimension()
    }

    fn run_level(&self) -> Level {
        self.level
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
        self.source.set_level(level);
    }

    fn validate(&self) -> Result<(), Error> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => self.source.validate(),
        }
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        let (lo, hi) = self.source.output_bounds(dimension);
        match self.op {
            // Monotone maps (rounding is monotone too): the ends' images.
            MapOp::ScaleBias { .. } | MapOp::Clamp { .. } | MapOp::Terrace => {
                let (a, b) = (
                    map_one(self.op, &self.pieces, lo),
                    map_one(self.op, &self.pieces, hi),
                );
                (a.min(b), a.max(b))
            }
            MapOp::Abs if lo >= 0.0 => (lo, hi),
            MapOp::Abs if hi <= 0.0 => (-hi, -lo),
            MapOp::Abs => (0.0, hi.max(-lo)),
            MapOp::Curve => (self.pieces.lo, self.pieces.hi),
        }
    }

    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        self.source.period(axis, scale)
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> N::Plan
    where
        Noise: Dims<D>,
    {
        self.source.plan(axes, period_scale)
    }

    fn fill_rows<const D: usize>(
        &self,
        plan: &N::Plan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        _streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        self.source.fill_rows(plan, axes, first_row, out, false);
        let how = match self.error {
            None => How::Map(self.op, &self.pieces),
            Some(_) => How::Nan,
        };
        dispatch(
            self.level,
            Rows {
                how,
                dst: out,
                b: &[],
                c: &[],
            },
        );
    }

    crate::sources::dynamic::erased_runs!();
}

impl<N: Source + GradField> GradField for Map<N> {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.validate()?;
        self.source.validate_grad()
    }

    crate::sources::dynamic::erased_grad_runs!();
    /// `slope(a) · ∇a`, the slope per lane by `map_slope`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &N::Ready<'_, S>,
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
        let (v, mut grad) = self.source.eval_grad(r, s, c, period_scale);
        let slope = map_slope_pack(s, self.op, &self.pieces, v);
        for g in &mut grad {
            *g = canonical(s, slope * *g);
        }
        (canonical(s, map_pack(s, self.op, &self.pieces, v)), grad)
    }

    fn eval_grad_nd<S: Simd>(
        &self,
        r: &N::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        if self.error.is_some() {
            grad.fill(s.splat(f32::NAN));
            return s.splat(f32::NAN);
        }
        let mut v = store_one(s, self.source.eval_grad_nd(r, s, c, period_scale, grad));
        let mut g = store_rows(s, grad);
        map_lanes(self.op, &self.pieces, &mut v[..S::LANES], &mut g);
        load_rows(s, &g, grad);
        s.load(&v[..S::LANES])
    }
}
