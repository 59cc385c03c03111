//! Lattice noises: a permutation, a fade curve, optional periods, and a
//! [`Kind`] of corner (gradients for `Perlin`, heights for `Value`). One
//! [`Field`] implementation serves both.

use crate::field::{Coords, Field, GradField, GridAxis};
use crate::kernel::{
    AxisSamples, Dims, FillGridRows, FillRowsByCells, Kind, MAX_COEFFICIENT_STEP, NATURAL_PERIOD,
    Noise, RowAxis, RowSink, ValueKind,
};
use crate::simd::{PermTable, Simd, dispatch};
use crate::{Error, Fade, Level};
use std::any::TypeId;
use std::fmt;
use std::sync::Arc;

/// Largest period a scaled periodic lattice uses (fractal octaves multiply
/// periods; beyond this they saturate, far past any tile anyone renders).
const MAX_PERIOD: u64 = 1 << 62;

/// A lattice noise of corner kind `K`.
#[derive(Clone)]
pub struct Lattice<K> {
    pub(crate) table: Arc<PermTable>,
    pub(crate) level: Level,
    pub(crate) periods: Option<[u32; 4]>,
    pub(crate) curve: Fade,
    pub(crate) kind: K,
}

impl<K: Kind + Default> Lattice<K> {
    pub(crate) fn new(p: &[u8; 256]) -> Lattice<K> {
        Lattice {
            table: Arc::new(PermTable::new(p)),
            level: Level::detect(),
            periods: None,
            curve: Fade::Quintic,
            kind: K::default(),
        }
    }
}

impl<K> PartialEq for Lattice<K> {
    /// Same permutation, periods and fade (the level changes no output).
    fn eq(&self, other: &Lattice<K>) -> bool {
        self.table == other.table && self.periods == other.periods && self.curve == other.curve
    }
}

impl<K> fmt::Debug for Lattice<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lattice")
            .field("permutation_start", &&self.table.bytes[..8])
            .field("level", &self.level)
            .field("period", &self.periods)
            .field("fade", &self.curve)
            .finish()
    }
}

/// Largest |noise| of Perlin's gradient noise in dimension 1..=4, per fade
/// (rows in [`Fade::ALL`] order). Found by maximising, over the cell, the
/// sum of the corner weights times each corner's best gradient (any table
/// reaches at most this), then rounded up; 1D and 2D reach exactly 1.
const GRADIENT_BOUNDS: [[f32; 4]; 4] = [
    [1.0, 1.0, 1.036_355, 1.536_584],
    [1.0, 1.0, 1.044_907, 1.545_202],
    [1.0, 1.0, 1.043_101, 1.543_379],
    [1.0, 1.0, 1.064_83, 1.565_315],
];

impl<K: Kind + fmt::Debug> Lattice<K> {
    fn is_value(&self) -> bool {
        TypeId::of::<K>() == TypeId::of::<ValueKind>()
    }

    /// The periods scaled by `scale` (saturating), or `None` when not periodic.
    #[inline(always)]
    fn scaled_periods(&self, scale: u64) -> Option<[u64; 4]> {
        self.periods
            .map(|p| p.map(|p| u64::from(p).saturating_mul(scale).min(MAX_PERIOD)))
    }

    fn periods_or_natural(&self, scale: u64) -> [u64; 4] {
        self.scaled_periods(scale).unwrap_or([NATURAL_PERIOD; 4])
    }
}

/// Stage 1 of a step for `lattice`: one match arm per (periodic, fade)
/// pair, each calling [`Coords::axes`] with constants. Passed through as
/// runtime values, the optimiser if-converted the choices into computing
/// every fade (and, in the scalar build, the periodic `f64` path) for every
/// point, 20% more instructions per `fill3`.
#[inline(always)]
fn stage1_axes<K: Kind + fmt::Debug, S: Simd, C: Coords<S, D>, const D: usize>(
    lattice: &Lattice<K>,
    s: S,
    c: &C,
    period_scale: u64,
) -> [crate::kernel::Axis<S>; D] {
    macro_rules! arms {
        ($($curve:ident),+) => {
            match (lattice.scaled_periods(period_scale), lattice.curve) {
                $(
                    (None, Fade::$curve) => c.axes(s, None, Fade::$curve),
                    (Some(p), Fade::$curve) => c.axes(s, Some(&p), Fade::$curve),
                )+
            }
        };
    }
    arms!(Quintic, Cubic, Cosine, Linear)
}

/// Per-fill grid data of a lattice: stage 1 of every sample of each axis,
/// and the x axis's runs when rows go by coefficients (fine x steps).
pub struct LatticePlan {
    samples: Vec<AxisSamples>,
    row: Option<RowAxis>,
}

impl<K: Kind + fmt::Debug> Field for Lattice<K> {
    type Ready<'a, S: Simd>
        = S::Perm<'a>
    where
        Self: 'a;
    type Plan = LatticePlan;

    #[inline(always)]
    fn ready<S: Simd>(&self, s: S) -> S::Perm<'_> {
        s.perm_table(&self.table)
    }

    #[inline(always)]
    fn eval<S: Simd, C: Coords<S, D>, const D: usize>(
        &self,
        p: &S::Perm<'_>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        let axes = stage1_axes(self, s, c, period_scale);
        Noise::eval::<S, K>(s, p, &axes)
    }

    fn run_level(&self) -> Level {
        self.level
    }

    fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    fn validate(&self) -> Result<(), Error> {
        Ok(())
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        let d = dimension.clamp(1, 4) - 1;
        let b = if self.is_value() {
            1.0
        } else {
            let row = Fade::ALL.iter().position(|&f| f == self.curve).unwrap_or(0);
            GRADIENT_BOUNDS[row][d]
        };
        (-b, b)
    }

    fn periodic(&self) -> bool {
        self.periods.is_some()
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> LatticePlan
    where
        Noise: Dims<D>,
    {
        let periods = self.periods_or_natural(period_scale);
        let samples: Vec<AxisSamples> = (0..D)
            .map(|a| AxisSamples::new(&axes[a].coords, periods[a]))
            .collect();
        // The path depends on the grid alone, never on windows or threads.
        let by_cells = axes[0].step.abs() <= MAX_COEFFICIENT_STEP[D - 1];
        let row = by_cells
            .then(|| RowAxis::new(&samples, self.curve))
            .flatten();
        LatticePlan { samples, row }
    }

    fn fill_rows<const D: usize, O: RowSink>(
        &self,
        plan: &LatticePlan,
        _: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
        sink: O,
    ) where
        Noise: Dims<D>,
    {
        let axes: [&AxisSamples; D] = std::array::from_fn(|a| &plan.samples[a]);
        let (table, curve) = (&*self.table, self.curve);
        match &plan.row {
            Some(x) => dispatch(
                self.level,
                FillRowsByCells {
                    table,
                    _kind: self.kind,
                    axes,
                    x,
                    first_row,
                    out,
                    streaming,
                    sink,
                },
            ),
            None => dispatch(
                self.level,
                FillGridRows {
                    table,
                    curve,
                    _kind: self.kind,
                    axes,
                    first_row,
                    out,
                    sink,
                },
            ),
        }
    }
}

impl<K: Kind + fmt::Debug> GradField for Lattice<K> {
    #[inline(always)]
    fn eval_grad<S: Simd, C: Coords<S, D>, const D: usize>(
        &self,
        p: &S::Perm<'_>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        let axes = stage1_axes(self, s, c, period_scale);
        Noise::eval_grad::<S, K>(s, p, self.curve, &axes)
    }
}

/// The public face of a lattice newtype `$ty(Lattice<_>)`: builder methods,
/// `Debug`, the forwarded `Field`/`GradField`, and every source method.
macro_rules! lattice_source {
    ($ty:ident, $name:literal, $kind:ty) => {
        impl $ty {
            /// The permutation in use.
            pub fn permutation(&self) -> [u8; 256] {
                self.0.table.permutation()
            }

            /// The same noise, computed at `level` by the batch methods.
            ///
            /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
            pub fn with_level(mut self, level: Level) -> Result<$ty, Error> {
                if level.is_available() {
                    self.0.level = level;
                    Ok(self)
                } else {
                    Err(Error::Unsupported(level))
                }
            }

            /// The level the batch methods run at ([`Level::detect`] unless set).
            pub fn level(&self) -> Level {
                self.0.level
            }

            /// Periodic (tileable) noise: `noise(.., c + period[a], ..) == noise(.., c, ..)`
            /// exactly on every axis `a`, for every method.
            ///
            /// `period[0..4]` are the x, y, z, w periods in lattice cells; a method of
            /// dimension `D` uses the first `D`. The lattice wraps before the table:
            /// cell `X` hashes as `X mod period`, and its neighbour as
            /// `(X + 1) mod period`. A period of 256 is the table's own, so
            /// `with_period([256; 4])` changes nothing. Every period must be at least
            /// 1 (use 256 for axes you don't use); 0 gives [`Error::InvalidPeriod`].
            ///
            /// Periodic noise computes each point's lattice cell in `f64` (exact for
            /// every input); it runs at about a third of the speed of plain noise.
            pub fn with_period(mut self, period: [u32; 4]) -> Result<$ty, Error> {
                if let Some(axis) = period.iter().position(|&p| p == 0) {
                    return Err(Error::InvalidPeriod { axis });
                }
                self.0.periods = (period != [256; 4]).then_some(period);
                Ok(self)
            }

            /// The periods set by `with_period` (`None`: 256 on every axis).
            pub fn period(&self) -> Option<[u32; 4]> {
                self.0.periods
            }

            /// The same noise with another fade curve (default [`Fade::Quintic`]).
            pub fn with_fade(mut self, fade: Fade) -> $ty {
                self.0.curve = fade;
                self
            }

            /// The fade curve in use.
            pub fn fade(&self) -> Fade {
                self.0.curve
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct($name)
                    .field("permutation_start", &&self.0.table.bytes[..8])
                    .field("level", &self.0.level)
                    .field("period", &self.0.periods)
                    .field("fade", &self.0.curve)
                    .finish()
            }
        }

        crate::field::forward_field!(impl[] $ty, crate::lattice::Lattice<$kind>);
        crate::field::forward_grad_field!(impl[] $ty);
        crate::source::source_methods!(impl[] $ty);
        crate::source::gradient_methods!(impl[] $ty);
    };
}
pub(crate) use lattice_source;
