//! [`Combine`]: two inputs joined value by value (add, multiply, min,
//! max), with its gradient rules.

use super::rows::{How, Rows, in_blocks};
use super::{load_rows, shared_period, store_one, store_rows};
use crate::field::{Field, GradField, GridAxis, LaneSlices, PointPack, canonical};
use crate::kernel::{Dims, Noise};
use crate::simd::scalar::Scalar;
use crate::simd::{MAX_LANES, Simd, dispatch};
use crate::{Error, Level, Source};

/// How a [`Combine`] joins its two inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CombineOp {
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
///
/// [`Map`]: super::Map
#[derive(Clone, Debug)]
pub struct Combine<A, B> {
    a: A,
    b: B,
    op: CombineOp,
    level: Level,
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn combine_pack<S: Simd>(s: S, op: CombineOp, a: S::F, b: S::F) -> S::F {
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
        let a = self.a.eval(&r.0, s, c, period_scale);
        let b = self.b.eval(&r.1, s, c, period_scale);
        canonical(s, combine_pack(s, self.op, a, b))
    }

    fn eval_nd<S: Simd>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        let mut a = store_one(s, self.a.eval_nd(&r.0, s, c, period_scale));
        let b = store_one(s, self.b.eval_nd(&r.1, s, c, period_scale));
        combine_lanes(self.op, &mut a[..S::LANES], &b, &mut [], &[]);
        s.load(&a[..S::LANES])
    }

    fn max_dimension(&self) -> usize {
        self.a.max_dimension().min(self.b.max_dimension())
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

    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        shared_period(&[self.a.period(axis, scale), self.b.period(axis, scale)])
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

/// `da` in the lanes where `min` or `max` ([`combine_pack`]) takes `a`,
/// `db` where it takes `b` (unordered included): the same comparison,
/// lane by lane, so a NaN in the input not taken never reaches the result.
/// [`Field::eval_nd`]'s and [`GradField::eval_grad_nd`]'s rules, lane by
/// lane through [`Scalar`] (one copy, not one per level): `a` becomes the
/// result, `ga` its derivatives (none for values alone).
fn combine_lanes(
    op: CombineOp,
    a: &mut [f32],
    b: &[f32],
    ga: &mut [[f32; MAX_LANES]],
    gb: &[[f32; MAX_LANES]],
) {
    let sc = Scalar;
    for (i, (a, &b)) in a.iter_mut().zip(b).enumerate() {
        for (ga, gb) in ga.iter_mut().zip(gb) {
            let g = match op {
                CombineOp::Add => ga[i] + gb[i],
                CombineOp::Multiply => ga[i] * b + *a * gb[i],
                CombineOp::Min if *a < b => ga[i],
                CombineOp::Max if *a > b => ga[i],
                CombineOp::Min | CombineOp::Max => gb[i],
            };
            ga[i] = canonical(sc, g);
        }
        *a = canonical(sc, combine_pack(sc, op, *a, b));
    }
}

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
        (canonical(s, combine_pack(s, self.op, a, b)), grad)
    }

    /// [`GradField::eval_grad`]'s rules with the dimension a value, lane
    /// by lane ([`combine_lanes`]).
    fn eval_grad_nd<S: Simd>(
        &self,
        r: &Self::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        let mut db = vec![s.splat(0.0); grad.len()];
        let mut a = store_one(s, self.a.eval_grad_nd(&r.0, s, c, period_scale, grad));
        let b = store_one(s, self.b.eval_grad_nd(&r.1, s, c, period_scale, &mut db));
        let mut ga = store_rows(s, grad);
        combine_lanes(
            self.op,
            &mut a[..S::LANES],
            &b,
            &mut ga,
            &store_rows(s, &db),
        );
        load_rows(s, &ga, grad);
        s.load(&a[..S::LANES])
    }
}
