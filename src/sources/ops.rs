//! Operators: fields made point by point from other fields.
//!
//! | type | output at a point (inputs `a`, `b`, control `c`) |
//! |---|---|
//! | [`Map::scale_bias`] | `a · scale + bias` |
//! | [`Map::abs`] | `|a|` |
//! | [`Map::clamp`] | `a` clamped to `[lower, upper]` |
//! | [`Map::terrace`] | `pⱼ + wⱼ·t²` in the interval `[pⱼ, pⱼ₊₁]` of `a`, `t = (a − pⱼ)/wⱼ`, `wⱼ = pⱼ₊₁ − pⱼ` (flat steps, steep risers); clamped to `[p₀, pₙ]` |
//! | [`Map::curve`] | the piecewise-linear curve through the control points `(xᵢ, yᵢ)`, flat outside them |
//! | [`Combine::add`], [`Combine::multiply`] | `a + b`, `a · b` |
//! | [`Combine::min`], [`Combine::max`] | `if a < b { a } else { b }`, `if a > b { a } else { b }` |
//! | [`Blend::new`] | `(1 − t)·a + t·b`, `t = clamp(c/2 + ½, 0, 1)` |
//! | [`Blend::select`] | `(1 − t)·a + t·b`, `t` the smoothstep of `c` over `[threshold − edge, threshold + edge]`; with `edge` 0, `a` where `c ≤ threshold` and `b` where `c > threshold` |
//!
//! Every operator is one pass over its inputs' values, written once over
//! the lane types, so it gives the same bits at every level, on every
//! thread and window split, like the sources under it. Inside a batch or a
//! fractal the inputs are evaluated step by step and combined in registers
//! (no intermediate buffer); a grid fills each input's rows through the
//! input's own row path, in blocks of at most 2¹⁶ samples, and combines the
//! blocks, so an operator's grid is the operator applied to its inputs'
//! grids, bit for bit. A NaN input gives NaN, except that `min` and `max`
//! return `b` when the two are unordered (every crate source is NaN exactly
//! at non-finite coordinates, so both inputs of an operator over crate
//! sources are NaN together). Every NaN output is the canonical `f32::NAN`.
//!
//! Parameters are checked when the operator is built; an invalid one makes
//! [`Source::check`] and every batch call return the error (one-point calls
//! give NaN), as the fractals do.

use crate::field::{Coords, Field, GradField, GridAxis, canonical};
use crate::kernel::{Dims, Noise, load_padded, store_step};
use crate::simd::{Job, MAX_LANES, Simd, dispatch};
use crate::{Error, Level, Source};

/// Most control points a [`Map::terrace`] or [`Map::curve`] takes.
pub const MAX_CONTROL_POINTS: usize = 32;

/// Rows of at most this many samples are combined per pass of a grid fill.
const BLOCK_SAMPLES: usize = 1 << 16;

/// The piecewise maps' segments: `n` control points, per segment its start
/// `x[i]`, end `x[i + 1]`, and a factor `k[i]` (terrace: `1 / width`;
/// curve: slope), terrace widths `w[i]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pieces {
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
enum MapOp {
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
/// fractal the inputs are evaluated step by step and combined in registers
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
#[derive(Clone, Debug)]
pub struct Map<N> {
    source: N,
    op: MapOp,
    pieces: Pieces,
    error: Option<Error>,
    level: Level,
}

/// `Err` for a non-finite parameter.
fn finite(name: &'static str, value: f32) -> Result<(), Error> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFiniteParameter { name, value })
    }
}

fn invalid(name: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidParameter {
        name,
        reason: reason.into(),
    }
}

/// `v` clamped to `[lo, hi]`; NaN stays NaN (`min` and `max` return their
/// second operand when unordered).
#[cfg_attr(not(debug_assertions), inline(always))]
fn clamp<S: Simd>(s: S, v: S::F, lo: f32, hi: f32) -> S::F {
    s.max(s.splat(lo), s.min(s.splat(hi), v))
}

/// The map of one step of values (before NaN canonicalisation).
#[cfg_attr(not(debug_assertions), inline(always))]
fn map_step<S: Simd>(s: S, op: MapOp, p: &Pieces, v: S::F) -> S::F {
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

/// The map of one `f32` (the same operations through the scalar backend).
fn map_one(op: MapOp, p: &Pieces, v: f32) -> f32 {
    map_step(crate::simd::scalar::Scalar, op, p, v)
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

/// [`map_slope`] of every lane of a step (stored, mapped lane by lane,
/// loaded: the same `f32` code at every level).
#[cfg_attr(not(debug_assertions), inline(always))]
fn map_slope_step<S: Simd>(s: S, op: MapOp, p: &Pieces, v: S::F) -> S::F {
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

/// `(lo, hi)` widened by 4 units in the last place of the larger magnitude,
/// for outputs that a few roundings can carry past the exact interval.
fn widened((lo, hi): (f32, f32)) -> (f32, f32) {
    let m = lo.abs().max(hi.abs()) * (4.0 * f32::EPSILON);
    (lo - m, hi + m)
}

/// The periods shared by every input: an axis is periodic only where all
/// inputs repeat with the same period.
fn shared_periods(all: &[[Option<u64>; 4]]) -> [Option<u64>; 4] {
    let mut out = all[0];
    for p in &all[1..] {
        for (o, q) in out.iter_mut().zip(p) {
            if *o != *q {
                *o = None;
            }
        }
    }
    out
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
    fn eval<S: Simd, C: Coords<S, D>, const D: usize>(
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
        canonical(s, map_step(s, self.op, &self.pieces, v))
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

    fn periods(&self, scale: u64) -> [Option<u64>; 4] {
        self.source.periods(scale)
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
    fn eval_grad<S: Simd, C: Coords<S, D>, const D: usize>(
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
        let slope = map_slope_step(s, self.op, &self.pieces, v);
        for g in &mut grad {
            *g = canonical(s, slope * *g);
        }
        (canonical(s, map_step(s, self.op, &self.pieces, v)), grad)
    }
}

/// How a [`Combine`] joins its two inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CombineOp {
    Add,
    Multiply,
    Min,
    Max,
}

/// Two inputs joined value by value (see [`Map`] for every operator).
///
/// Differentiable when both inputs are: `∇a + ∇b`, `∇a·b + a·∇b`, and for
/// `min` / `max` the gradient of the input the value takes (`b`'s at a tie
/// or when unordered); see [`Map`]'s table.
#[derive(Clone, Debug)]
pub struct Combine<A, B> {
    a: A,
    b: B,
    op: CombineOp,
    level: Level,
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn combine_step<S: Simd>(s: S, op: CombineOp, a: S::F, b: S::F) -> S::F {
    match op {
        CombineOp::Add => a + b,
        CombineOp::Multiply => a * b,
        CombineOp::Min => s.min(a, b),
        CombineOp::Max => s.max(a, b),
    }
}

impl<A: Source, B: Source> Combine<A, B> {
    fn with(a: A, b: B, op: CombineOp) -> Combine<A, B> {
        let level = a.run_level();
        let mut c = Combine { a, b, op, level };
        c.set_level(level);
        c
    }

    /// `a + b`.
    pub fn add(a: A, b: B) -> Combine<A, B> {
        Combine::with(a, b, CombineOp::Add)
    }

    /// `a · b`.
    pub fn multiply(a: A, b: B) -> Combine<A, B> {
        Combine::with(a, b, CombineOp::Multiply)
    }

    /// The smaller of `a` and `b` (`b` when unordered).
    pub fn min(a: A, b: B) -> Combine<A, B> {
        Combine::with(a, b, CombineOp::Min)
    }

    /// The larger of `a` and `b` (`b` when unordered).
    pub fn max(a: A, b: B) -> Combine<A, B> {
        Combine::with(a, b, CombineOp::Max)
    }

    /// The same field computed at `level` (the inputs' levels are set too).
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(self, level: Level) -> Result<Combine<A, B>, Error> {
        crate::field::at_level(self, level)
    }

    /// The inputs.
    pub fn inputs(&self) -> (&A, &B) {
        (&self.a, &self.b)
    }
}

impl<A: Source, B: Source> Field for Combine<A, B> {
    type Ready<'r, S: Simd>
        = (A::Ready<'r, S>, B::Ready<'r, S>)
    where
        Self: 'r;
    type Plan = (A::Plan, B::Plan);
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> Self::Ready<'_, S> {
        (self.a.ready(s), self.b.ready(s))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: Coords<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        let a = self.a.eval(&r.0, s, c, period_scale);
        let b = self.b.eval(&r.1, s, c, period_scale);
        canonical(s, combine_step(s, self.op, a, b))
    }

    fn run_level(&self) -> Level {
        self.level
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
        self.a.set_level(level);
        self.b.set_level(level);
    }

    fn validate(&self) -> Result<(), Error> {
        self.a.validate().and(self.b.validate())
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        let (a0, a1) = self.a.output_bounds(dimension);
        let (b0, b1) = self.b.output_bounds(dimension);
        // Rounding is monotone in each operand, so the ends' results bound
        // every result.
        match self.op {
            CombineOp::Add => (a0 + b0, a1 + b1),
            CombineOp::Multiply => {
                let p = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                (
                    p.iter().copied().fold(f32::INFINITY, f32::min),
                    p.iter().copied().fold(f32::NEG_INFINITY, f32::max),
                )
            }
            CombineOp::Min => (a0.min(b0), a1.min(b1)),
            CombineOp::Max => (a0.max(b0), a1.max(b1)),
        }
    }

    fn periods(&self, scale: u64) -> [Option<u64>; 4] {
        shared_periods(&[self.a.periods(scale), self.b.periods(scale)])
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> Self::Plan
    where
        Noise: Dims<D>,
    {
        (
            self.a.plan(axes, period_scale),
            self.b.plan(axes, period_scale),
        )
    }

    fn fill_rows<const D: usize>(
        &self,
        plan: &Self::Plan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        _streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        in_blocks(axes[0].coords.len(), first_row, out, |row, block, [b]| {
            self.a.fill_rows(&plan.0, axes, row, block, false);
            self.b.fill_rows(&plan.1, axes, row, b, false);
            let how = How::Combine(self.op);
            dispatch(
                self.level,
                Rows {
                    how,
                    dst: block,
                    b,
                    c: &[],
                },
            );
        });
    }

    crate::sources::dynamic::erased_runs!();
}

/// `da` in the lanes where `min` or `max` ([`combine_step`]) takes `a`,
/// `db` where it takes `b` (unordered included): the same comparison,
/// lane by lane, so a NaN in the input not taken never reaches the result.
#[cfg_attr(not(debug_assertions), inline(always))]
fn taken<S: Simd, const D: usize>(
    s: S,
    op: CombineOp,
    a: S::F,
    b: S::F,
    da: &[S::F; D],
    db: &[S::F; D],
) -> [S::F; D] {
    let (mut la, mut lb) = ([0.0f32; MAX_LANES], [0.0f32; MAX_LANES]);
    s.store(a, &mut la[..S::LANES]);
    s.store(b, &mut lb[..S::LANES]);
    let mut take_a = [false; MAX_LANES];
    for i in 0..S::LANES {
        take_a[i] = match op {
            CombineOp::Min => la[i] < lb[i],
            _ => la[i] > lb[i],
        };
    }
    let mut out = *db;
    for (o, (da, db)) in out.iter_mut().zip(da.iter().zip(db)) {
        s.store(*da, &mut la[..S::LANES]);
        s.store(*db, &mut lb[..S::LANES]);
        for i in 0..S::LANES {
            if take_a[i] {
                lb[i] = la[i];
            }
        }
        *o = s.load(&lb[..S::LANES]);
    }
    out
}

impl<A: Source + GradField, B: Source + GradField> GradField for Combine<A, B> {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.validate()?;
        self.a.validate_grad()?;
        self.b.validate_grad()
    }

    crate::sources::dynamic::erased_grad_runs!();
    /// `∇a + ∇b`, `∇a·b + a·∇b`, or the gradient of the input `min`/`max` takes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: Coords<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        let (a, da) = self.a.eval_grad(&r.0, s, c, period_scale);
        let (b, db) = self.b.eval_grad(&r.1, s, c, period_scale);
        // Loops, not closures, around lane operations (see docs/design.md).
        let mut grad = db;
        match self.op {
            CombineOp::Add => {
                for j in 0..D {
                    grad[j] = da[j] + db[j];
                }
            }
            CombineOp::Multiply => {
                for j in 0..D {
                    grad[j] = da[j] * b + a * db[j];
                }
            }
            CombineOp::Min | CombineOp::Max => grad = taken(s, self.op, a, b, &da, &db),
        }
        for g in &mut grad {
            *g = canonical(s, *g);
        }
        (canonical(s, combine_step(s, self.op, a, b)), grad)
    }
}

/// How a [`Blend`] weighs its inputs by the control: `t = clamp((c −
/// origin) · k₁ · k₂, 0, 1)`, then smoothstep for a select.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Weight {
    origin: f32,
    k1: f32,
    k2: f32,
    smooth: bool,
}

/// `2¹²⁶`: twice this factor takes any nonzero `f32` difference to at
/// least 2¹⁰³, so a hard select's ramp is a step.
const STEEP: f32 = 8.507_059e37;

/// The weight `t` of `b` at control values `c`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_weight<S: Simd>(s: S, w: Weight, c: S::F) -> S::F {
    let t = (c - s.splat(w.origin)) * s.splat(w.k1) * s.splat(w.k2);
    let mut t = clamp(s, t, 0.0, 1.0);
    if w.smooth {
        t = t * t * (s.splat(3.0) - s.splat(2.0) * t);
    }
    t
}

/// `(1 − t)·a + t·b`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn mix<S: Simd>(s: S, t: S::F, a: S::F, b: S::F) -> S::F {
    (s.splat(1.0) - t) * a + t * b
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_step<S: Simd>(s: S, w: Weight, a: S::F, b: S::F, c: S::F) -> S::F {
    mix(s, blend_weight(s, w, c), a, b)
}

/// `dt/dc` of [`blend_weight`] at the control value `c`: 0 where `t` is
/// clamped, the ends included; NaN at NaN. Plain `f32` code, the same at
/// every level.
fn weight_slope(w: Weight, c: f32) -> f32 {
    // `blend_weight`'s ramp, the same operations.
    let r = (c - w.origin) * w.k1 * w.k2;
    if r.is_nan() {
        return f32::NAN;
    }
    // A hard select's ramp is a step: its r is 0 or at least 2¹⁰³ (see
    // `STEEP`), never inside, so its slope is 0 everywhere.
    if !(0.0 < r && r < 1.0) {
        return 0.0;
    }
    let k = w.k1 * w.k2;
    if w.smooth {
        // d/dr of r·r·(3 − 2r).
        6.0 * r * (1.0 - r) * k
    } else {
        k
    }
}

/// [`weight_slope`] of every lane of a step.
#[cfg_attr(not(debug_assertions), inline(always))]
fn weight_slope_step<S: Simd>(s: S, w: Weight, c: S::F) -> S::F {
    let mut lanes = [0.0f32; MAX_LANES];
    s.store(c, &mut lanes[..S::LANES]);
    for l in &mut lanes[..S::LANES] {
        *l = weight_slope(w, *l);
    }
    s.load(&lanes[..S::LANES])
}

/// Two inputs mixed by a third, the control (see [`Map`] for every operator).
///
/// Differentiable when all three inputs are: `(1 − t)·∇a + t·∇b + (b −
/// a)·t′(c)·∇c`, with `t′` the slope of the weight in the control (`½` on
/// the ramp of [`Blend::new`], the smoothstep's `6r(1 − r)/(2·edge)` for
/// [`Blend::select`]); `t′` is 0 where the weight is clamped, both ends
/// included, and everywhere for a hard select (`edge` 0), whose step has
/// no slope; see [`Map`]'s table.
#[derive(Clone, Debug)]
pub struct Blend<A, B, C> {
    a: A,
    b: B,
    control: C,
    weight: Weight,
    error: Option<Error>,
    level: Level,
}

impl<A: Source, B: Source, C: Source> Blend<A, B, C> {
    fn with(a: A, b: B, control: C, weight: Weight, error: Option<Error>) -> Blend<A, B, C> {
        let level = a.run_level();
        let mut blend = Blend {
            a,
            b,
            control,
            weight,
            error,
            level,
        };
        blend.set_level(level);
        blend
    }

    /// `a` where the control is −1 or below, `b` where it is 1 or above,
    /// linearly in between: `(1 − t)·a + t·b` with `t = clamp(c/2 + ½, 0, 1)`.
    pub fn new(a: A, b: B, control: C) -> Blend<A, B, C> {
        let weight = Weight {
            origin: -1.0,
            k1: 0.5,
            k2: 1.0,
            smooth: false,
        };
        Blend::with(a, b, control, weight, None)
    }

    /// `a` where the control is at most `threshold − edge`, `b` where it is
    /// at least `threshold + edge`, a smoothstep between; with `edge` 0 a
    /// hard switch (`b` exactly where the control is above `threshold`).
    /// `threshold` finite, `edge` finite and ≥ 0.
    pub fn select(a: A, b: B, control: C, threshold: f32, edge: f32) -> Blend<A, B, C> {
        let mut error = finite("select threshold", threshold)
            .and(finite("select edge", edge))
            .err();
        if error.is_none() && edge < 0.0 {
            error = Some(invalid(
                "select edge",
                format!("{edge} is negative; the soft edge is a half-width ≥ 0"),
            ));
        }
        let weight = if edge > 0.0 && (0.5 / edge).is_finite() {
            Weight {
                origin: threshold - edge,
                k1: 0.5 / edge,
                k2: 1.0,
                smooth: true,
            }
        } else {
            // An edge so thin that its slope overflows is a step too.
            Weight {
                origin: threshold,
                k1: STEEP,
                k2: STEEP,
                smooth: true,
            }
        };
        Blend::with(a, b, control, weight, error)
    }

    /// The same field computed at `level` (the inputs' levels are set too).
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(self, level: Level) -> Result<Blend<A, B, C>, Error> {
        crate::field::at_level(self, level)
    }

    /// The inputs: `a`, `b` and the control.
    pub fn inputs(&self) -> (&A, &B, &C) {
        (&self.a, &self.b, &self.control)
    }
}

impl<A: Source, B: Source, C: Source> Field for Blend<A, B, C> {
    type Ready<'r, S: Simd>
        = (A::Ready<'r, S>, B::Ready<'r, S>, C::Ready<'r, S>)
    where
        Self: 'r;
    type Plan = (A::Plan, B::Plan, C::Plan);
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> Self::Ready<'_, S> {
        (self.a.ready(s), self.b.ready(s), self.control.ready(s))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, Co: Coords<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &Co,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        if self.error.is_some() {
            return s.splat(f32::NAN);
        }
        let a = self.a.eval(&r.0, s, c, period_scale);
        let b = self.b.eval(&r.1, s, c, period_scale);
        let control = self.control.eval(&r.2, s, c, period_scale);
        canonical(s, blend_step(s, self.weight, a, b, control))
    }

    fn run_level(&self) -> Level {
        self.level
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
        self.a.set_level(level);
        self.b.set_level(level);
        self.control.set_level(level);
    }

    fn validate(&self) -> Result<(), Error> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => self
                .a
                .validate()
                .and(self.b.validate())
                .and(self.control.validate()),
        }
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        let (a0, a1) = self.a.output_bounds(dimension);
        let (b0, b1) = self.b.output_bounds(dimension);
        // Exactly a convex combination; three roundings can step past it.
        widened((a0.min(b0), a1.max(b1)))
    }

    fn periods(&self, scale: u64) -> [Option<u64>; 4] {
        shared_periods(&[
            self.a.periods(scale),
            self.b.periods(scale),
            self.control.periods(scale),
        ])
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> Self::Plan
    where
        Noise: Dims<D>,
    {
        (
            self.a.plan(axes, period_scale),
            self.b.plan(axes, period_scale),
            self.control.plan(axes, period_scale),
        )
    }

    fn fill_rows<const D: usize>(
        &self,
        plan: &Self::Plan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        _streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        let how = match self.error {
            None => How::Blend(self.weight),
            Some(_) => How::Nan,
        };
        in_blocks(
            axes[0].coords.len(),
            first_row,
            out,
            |row, block, [b, c]| {
                self.a.fill_rows(&plan.0, axes, row, block, false);
                self.b.fill_rows(&plan.1, axes, row, b, false);
                self.control.fill_rows(&plan.2, axes, row, c, false);
                dispatch(
                    self.level,
                    Rows {
                        how,
                        dst: block,
                        b,
                        c,
                    },
                );
            },
        );
    }

    crate::sources::dynamic::erased_runs!();
}

impl<A: Source + GradField, B: Source + GradField, C: Source + GradField> GradField
    for Blend<A, B, C>
{
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.validate()?;
        self.a.validate_grad()?;
        self.b.validate_grad()?;
        self.control.validate_grad()
    }

    crate::sources::dynamic::erased_grad_runs!();
    /// `(1 − t)·∇a + t·∇b + (b − a)·t′(c)·∇c`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, Co: Coords<S, D>, const D: usize>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: &Co,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        if self.error.is_some() {
            return (s.splat(f32::NAN), [s.splat(f32::NAN); D]);
        }
        let (a, da) = self.a.eval_grad(&r.0, s, c, period_scale);
        let (b, db) = self.b.eval_grad(&r.1, s, c, period_scale);
        let (control, dc) = self.control.eval_grad(&r.2, s, c, period_scale);
        let t = blend_weight(s, self.weight, control);
        let k = (b - a) * weight_slope_step(s, self.weight, control);
        let mut grad = dc;
        for j in 0..D {
            grad[j] = canonical(s, mix(s, t, da[j], db[j]) + k * dc[j]);
        }
        (canonical(s, mix(s, t, a, b)), grad)
    }
}

/// Rows `first_row..` of a grid with rows of `nx` samples, in blocks of
/// at most [`BLOCK_SAMPLES`] (whole rows): `each(row, block, scratch)` gets
/// a block's first row, the block of `out`, and `N` scratch blocks of its
/// length for the other inputs' values.
fn in_blocks<const N: usize>(
    nx: usize,
    first_row: usize,
    out: &mut [f32],
    mut each: impl FnMut(usize, &mut [f32], [&mut [f32]; N]),
) {
    if nx == 0 || out.is_empty() {
        return;
    }
    let rows_per_block = (BLOCK_SAMPLES / nx).max(1);
    let len = (rows_per_block * nx).min(out.len());
    let mut scratch = vec![0.0f32; N * len];
    for (k, block) in out.chunks_mut(rows_per_block * nx).enumerate() {
        let mut parts = scratch.chunks_mut(len);
        let others = std::array::from_fn(|_| &mut parts.next().unwrap()[..block.len()]);
        each(first_row + k * rows_per_block, block, others);
    }
}

/// What a [`Rows`] pass computes.
#[derive(Clone, Copy)]
enum How<'a> {
    Map(MapOp, &'a Pieces),
    Combine(CombineOp),
    Blend(Weight),
    Nan,
}

/// One operator pass over a block of grid samples: `dst` holds the first
/// input's values and receives the result; `b`, `c` the other inputs'.
struct Rows<'a> {
    how: How<'a>,
    dst: &'a mut [f32],
    b: &'a [f32],
    c: &'a [f32],
}

impl Job for Rows<'_> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let n = S::LANES;
        for (k, dst) in self.dst.chunks_mut(n).enumerate() {
            let at = k * n;
            let a = load_padded(s, dst, 0);
            let v = match self.how {
                How::Map(op, pieces) => map_step(s, op, pieces, a),
                How::Combine(op) => combine_step(s, op, a, load_padded(s, self.b, at)),
                How::Blend(w) => blend_step(
                    s,
                    w,
                    a,
                    load_padded(s, self.b, at),
                    load_padded(s, self.c, at),
                ),
                How::Nan => s.splat(f32::NAN),
            };
            store_step(s, canonical(s, v), dst);
        }
    }
}
