//! [`Blend`]: two inputs mixed by a control (a linear ramp or a select's
//! smoothstep), with the weight, its slope and the bounds of the mix.

use super::rows::{How, Rows, in_blocks};
use super::{clamp, finite, invalid, load_rows, shared_period, store_one, store_rows};
use crate::field::{Field, GradField, GridAxis, LaneSlices, PointPack, canonical};
use crate::kernel::{Dims, Noise};
use crate::simd::scalar::Scalar;
use crate::simd::{MAX_LANES, Simd, dispatch};
use crate::{Error, Level, Source};

/// `(lo, hi)` widened by 4 units in the last place of the larger magnitude,
/// for outputs that a few roundings can carry past the exact interval.
fn widened((lo, hi): (f32, f32)) -> (f32, f32) {
    let m = lo.abs().max(hi.abs()) * (4.0 * f32::EPSILON);
    (lo - m, hi + m)
}

/// How a [`Blend`] weighs its inputs by the control: `t = clamp((c −
/// origin) · k₁ · k₂, 0, 1)`, then smoothstep for a select.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Weight {
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
/// [`Field::eval_nd`]'s and [`GradField::eval_grad_nd`]'s rules, lane by
/// lane through [`Scalar`] (one copy, not one per level): `a` becomes the
/// blend of `a` and `b` by `control` (`[b, control]`), `ga` its
/// derivatives (from `[gb, gc]`; none for values alone).
fn blend_lanes(
    w: Weight,
    a: &mut [f32],
    [b, control]: [&[f32]; 2],
    ga: &mut [[f32; MAX_LANES]],
    [gb, gc]: [&[[f32; MAX_LANES]]; 2],
) {
    let sc = Scalar;
    for (i, a) in a.iter_mut().enumerate() {
        let t = blend_weight(sc, w, control[i]);
        let k = (b[i] - *a) * weight_slope_pack(sc, w, control[i]);
        for (ga, (gb, gc)) in ga.iter_mut().zip(gb.iter().zip(gc)) {
            ga[i] = canonical(sc, mix(sc, t, ga[i], gb[i]) + k * gc[i]);
        }
        *a = canonical(sc, mix(sc, t, *a, b[i]));
    }
}

pub(super) fn blend_pack<S: Simd>(s: S, w: Weight, a: S::F, b: S::F, c: S::F) -> S::F {
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

/// [`weight_slope`] of every lane of a pack.
#[cfg_attr(not(debug_assertions), inline(always))]
fn weight_slope_pack<S: Simd>(s: S, w: Weight, c: S::F) -> S::F {
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
///
/// [`Map`]: super::Map
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
    fn eval<S: Simd, Co: PointPack<S, D>, const D: usize>(
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
        canonical(s, blend_pack(s, self.weight, a, b, control))
    }

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
        let mut a = store_one(s, self.a.eval_nd(&r.0, s, c, period_scale));
        let b = store_one(s, self.b.eval_nd(&r.1, s, c, period_scale));
        let control = store_one(s, self.control.eval_nd(&r.2, s, c, period_scale));
        let inputs = [&b[..S::LANES], &control[..S::LANES]];
        blend_lanes(self.weight, &mut a[..S::LANES], inputs, &mut [], [&[], &[]]);
        s.load(&a[..S::LANES])
    }

    fn max_dimension(&self) -> usize {
        let ab = self.a.max_dimension().min(self.b.max_dimension());
        ab.min(self.control.max_dimension())
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

    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        shared_period(&[
            self.a.period(axis, scale),
            self.b.period(axis, scale),
            self.control.period(axis, scale),
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
    fn eval_grad<S: Simd, Co: PointPack<S, D>, const D: usize>(
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
        let k = (b - a) * weight_slope_pack(s, self.weight, control);
        let mut grad = dc;
        for j in 0..D {
            grad[j] = canonical(s, mix(s, t, da[j], db[j]) + k * dc[j]);
        }
        (canonical(s, mix(s, t, a, b)), grad)
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
        let (mut db, mut dc) = (
            vec![s.splat(0.0); grad.len()],
            vec![s.splat(0.0); grad.len()],
        );
        let mut a = store_one(s, self.a.eval_grad_nd(&r.0, s, c, period_scale, grad));
        let b = store_one(s, self.b.eval_grad_nd(&r.1, s, c, period_scale, &mut db));
        let control = store_one(
            s,
            self.control.eval_grad_nd(&r.2, s, c, period_scale, &mut dc),
        );
        let mut ga = store_rows(s, grad);
        let inputs = [&b[..S::LANES], &control[..S::LANES]];
        let (gb, gc) = (store_rows(s, &db), store_rows(s, &dc));
        blend_lanes(self.weight, &mut a[..S::LANES], inputs, &mut ga, [&gb, &gc]);
        load_rows(s, &ga, grad);
        s.load(&a[..S::LANES])
    }
}
