//! Lattice noises: a hash mode (the full-coordinate hash or a permutation),
//! a fade curve, optional periods, and [`Corners`] (gradients for
//! `Perlin`, heights for `Value`). One [`Field`] implementation serves all.

use crate::fade::fade_slope;
use crate::field::{
    Field, GradField, GridAxis, Input, LaneSlices, PointPack, inputs_cut, inputs_pack,
};
use crate::kernel::{
    AxisSamples, BandAxis, BlockInput, CoordinatesMode, Corners, Dims, FillGridRows,
    FillRowsByBands, FillRowsByCells, GradientCorners, HashModeKernel, HashModeRef, MAX_BAND_STEP,
    MAX_COEFFICIENT_STEP, MAX_LATTICE_DIMENSIONS, NaturalCells, Noise, PartsInMemory,
    PartsInVectors, PeriodicCells, PermutationMode, PlanAxes, RowAxis, ValueCorners, blend_blocks,
    blend_nd, diagonal_component, noise_parts, remake_lanes_out_of_range, stage2, stage2_grad,
};
use crate::simd::{MAX_LANES, OutlinedJob, PermTable, Simd, dispatch};
use crate::sources::perlin::SplitMix64;
use crate::{Error, Fade, HashMode, Level};
use std::any::TypeId;
use std::fmt;
use std::sync::Arc;

/// How a lattice hashes its corners (see `kernel/hash/`).
#[derive(Clone, PartialEq)]
pub(crate) enum HashModeData {
    /// Ken's permutation chain over this table (repeats every 256 cells).
    Permutation(Arc<PermTable>),
    /// The full-coordinate hash; `key` is drawn from `seed`.
    Coordinates { seed: u64, key: u32 },
}

impl HashModeData {
    /// The full-coordinate hash of `seed`: its key is the high half of the
    /// first SplitMix64 output.
    pub(crate) fn coordinates(seed: u64) -> HashModeData {
        let key = (SplitMix64(seed).next() >> 32) as u32;
        HashModeData::Coordinates { seed, key }
    }

    fn kernel(&self) -> HashModeRef<'_> {
        match self {
            HashModeData::Permutation(t) => HashModeRef::Permutation(t),
            HashModeData::Coordinates { key, .. } => HashModeRef::Coordinates(*key),
        }
    }

    fn natural_period(&self) -> u64 {
        match self {
            HashModeData::Permutation(_) => PermutationMode::NATURAL_PERIOD,
            HashModeData::Coordinates { .. } => CoordinatesMode::NATURAL_PERIOD,
        }
    }

    pub(crate) fn mode(&self) -> HashMode {
        match self {
            HashModeData::Permutation(_) => HashMode::Permutation,
            HashModeData::Coordinates { .. } => HashMode::Coordinates,
        }
    }
}

impl fmt::Debug for HashModeData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashModeData::Permutation(t) => f
                .debug_struct("Permutation")
                .field("start", &&t.bytes[..8])
                .finish(),
            HashModeData::Coordinates { seed, .. } => {
                f.debug_struct("Coordinates").field("seed", seed).finish()
            }
        }
    }
}

/// What a lattice's kernels load once per call: the permutation in the
/// backend's form, or the seed key on every lane (and alone).
pub enum LatticeReady<'a, S: Simd> {
    Permutation(S::Perm<'a>),
    Coordinates(S::UP, u32),
}

impl<S: Simd> Clone for LatticeReady<'_, S> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Simd> Copy for LatticeReady<'_, S> {}

/// A period of `u32::MAX` on an axis: that axis is not periodic (the
/// lattice's natural period).
const NOT_PERIODIC: u32 = u32::MAX;

/// The stored periods for `with_period(period)` (padded with
/// `NOT_PERIODIC`; `None` when no axis repeats sooner than the lattice
/// itself), or the error for a period of 0 or one past the last axis.
pub(crate) fn periods_of(
    hash_mode: &HashModeData,
    period: &[u32],
) -> Result<Option<[u32; MAX_LATTICE_DIMENSIONS]>, Error> {
    if let Some(axis) = period.iter().position(|&p| p == 0) {
        return Err(Error::InvalidPeriod { axis });
    }
    let mut padded = [NOT_PERIODIC; MAX_LATTICE_DIMENSIONS];
    for (a, &p) in period.iter().enumerate() {
        match padded.get_mut(a) {
            Some(slot) => *slot = p,
            None if p == NOT_PERIODIC => {}
            None => return Err(Error::InvalidDimension(a + 1)),
        }
    }
    // (The permutation mode computes 1D–4D only: its table's period on the
    // first four axes is its natural one, whatever the rest say.)
    let natural = padded == [NOT_PERIODIC; MAX_LATTICE_DIMENSIONS]
        || (hash_mode.mode() == HashMode::Permutation && padded[..4] == [256; 4]);
    Ok((!natural).then_some(padded))
}

/// Largest period a scaled periodic lattice uses (fractal octaves multiply
/// periods; beyond this they saturate, far past any tile anyone renders).
const MAX_PERIOD: u64 = 1 << 62;

/// A lattice noise of corner kind `K`.
#[derive(Clone)]
pub struct Lattice<K> {
    pub(crate) hash_mode: HashModeData,
    pub(crate) level: Level,
    /// Per axis (`NOT_PERIODIC` past those given), or `None`.
    pub(crate) periods: Option<[u32; MAX_LATTICE_DIMENSIONS]>,
    pub(crate) fade: Fade,
    pub(crate) corners: K,
}

impl<K: Corners + Default> Lattice<K> {
    /// Ken's permutation chain over `p`.
    pub(crate) fn permuted(p: &[u8; 256]) -> Lattice<K> {
        Lattice::with_hash_mode(HashModeData::Permutation(Arc::new(PermTable::new(p))))
    }

    /// The full-coordinate hash of `seed`.
    pub(crate) fn coordinates(seed: u64) -> Lattice<K> {
        Lattice::with_hash_mode(HashModeData::coordinates(seed))
    }

    fn with_hash_mode(hash_mode: HashModeData) -> Lattice<K> {
        Lattice {
            hash_mode,
            level: Level::detect(),
            periods: None,
            fade: Fade::Quintic,
            corners: K::default(),
        }
    }
}

impl<K> PartialEq for Lattice<K> {
    /// Same hashing, periods and fade (the level changes no output).
    fn eq(&self, other: &Lattice<K>) -> bool {
        self.hash_mode == other.hash_mode
            && self.periods == other.periods
            && self.fade == other.fade
    }
}

impl<K> fmt::Debug for Lattice<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lattice")
            .field("hash", &self.hash_mode)
            .field("level", &self.level)
            .field("period", &self.periods)
            .field("fade", &self.fade)
            .finish()
    }
}

/// Largest |noise| of the permutation mode's gradient noise in dimension
/// 1..=4, per fade (rows in [`Fade::ALL`] order). Found by maximising, over
/// the cell, the sum of the corner weights times each corner's best
/// gradient (any table reaches at most this), then rounded up; 1D and 2D
/// reach exactly 1.
const PERMUTATION_BOUNDS: [[f32; 4]; 4] = [
    [1.0, 1.0, 1.036_355, 1.536_584],
    [1.0, 1.0, 1.044_907, 1.545_202],
    [1.0, 1.0, 1.043_101, 1.543_379],
    [1.0, 1.0, 1.064_83, 1.565_315],
];

/// Largest |noise| of the full-coordinate hash's gradient noise in
/// dimension 1..=4, per fade (rows in [`Fade::ALL`] order), found the same
/// way for its gradient sets and rounded up. In 1D, 3D and 4D every set
/// holds all sign patterns of its largest components, so the bound is
/// exact: `a · D / 2` at a cell's centre for components of size `a` (1D
/// slopes up to 2; 3D 341/512; 4D ½), plus a rounding margin; 2D's was
/// found by search and certified by branch and bound.
const COORDINATE_BOUNDS: [[f32; 4]; 4] = [
    [1.0, 0.998_969, 0.999_03, 1.000_001],
    [1.0, 1.001_791, 0.999_03, 1.000_001],
    [1.0, 1.001_161, 0.999_03, 1.000_001],
    [1.0, 1.008_759, 0.999_03, 1.000_001],
];

impl<K: Corners + fmt::Debug> Lattice<K> {
    fn is_value(&self) -> bool {
        TypeId::of::<K>() == TypeId::of::<ValueCorners>()
    }

    /// The periods scaled by `scale` (saturating), or `None` when not periodic.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn scaled_periods(&self, scale: u64) -> Option<[u64; 4]> {
        let natural = self.hash_mode.natural_period();
        // (Periods past the fourth axis alone leave 1D–4D unperiodic.)
        let first_four = |p: &[u32; MAX_LATTICE_DIMENSIONS]| p[..4] != [NOT_PERIODIC; 4];
        self.periods.filter(first_four).map(|p| {
            std::array::from_fn(|a| match p[a] {
                NOT_PERIODIC => natural,
                p => u64::from(p).saturating_mul(scale).min(MAX_PERIOD),
            })
        })
    }

    fn periods_or_natural(&self, scale: u64) -> [u64; 4] {
        self.scaled_periods(scale)
            .unwrap_or([self.hash_mode.natural_period(); 4])
    }
}

/// Stage 1 of a pack for `lattice`, in a function of its own
/// ([`Stage1Axes`]): one copy per level, pack type, hash mode and dimension,
/// shared by both corner kinds and by values and derivatives (inlined into
/// each, stage 1 was most of the derivative packs' machine code). The axes
/// go to stage 2 through memory either way (it takes them by reference).
#[cfg_attr(not(debug_assertions), inline(always))]
fn stage1_axes<
    K: Corners + fmt::Debug,
    H: HashModeKernel,
    S: Simd,
    C: PointPack<S, D>,
    const D: usize,
>(
    lattice: &Lattice<K>,
    s: S,
    c: &C,
    period_scale: u64,
) -> [crate::kernel::Axis<S, H>; D] {
    outlined_axes::<H, S, C, D>(s, c, lattice.scaled_periods(period_scale), lattice.fade)
}

/// [`Stage1Axes`] of `c` with these (already scaled) periods and fade.
#[cfg_attr(not(debug_assertions), inline(always))]
fn outlined_axes<H: HashModeKernel, S: Simd, C: PointPack<S, D>, const D: usize>(
    s: S,
    c: &C,
    periods: Option<[u64; 4]>,
    fade: Fade,
) -> [crate::kernel::Axis<S, H>; D] {
    s.outlined(Stage1Axes::<S, C, H, D> {
        c,
        periods,
        fade,
        _types: std::marker::PhantomData,
    })
}

/// [`stage1_axes`]' job. The quintic fade without a period (the default
/// fade, in the permutation mode and for derivatives) has an arm of its own,
/// with the fade a constant: passed as a run-time value, the optimiser
/// if-converted the choice into computing every fade for every point (20%
/// more instructions per `fill3` when `fill3` came here). The other fades
/// and every periodic stage 1 share one arm each, so that stage 1 is
/// compiled three times per job, not eight.
struct Stage1Axes<'a, S, C, H, const D: usize> {
    c: &'a C,
    periods: Option<[u64; 4]>,
    fade: Fade,
    /// The level and hash mode the axes are made for.
    _types: std::marker::PhantomData<(S, H)>,
}

impl<S: Simd, C: PointPack<S, D>, H: HashModeKernel, const D: usize> OutlinedJob<S>
    for Stage1Axes<'_, S, C, H, D>
{
    type Output = [crate::kernel::Axis<S, H>; D];

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> Self::Output {
        let c = self.c;
        match (self.periods, self.fade) {
            (None, Fade::Quintic) => c.axes::<H>(s, None, Fade::Quintic, false),
            (None, fade) => c.axes::<H>(s, None, fade, false),
            (Some(p), fade) => c.axes::<H>(s, Some(&p), fade, false),
        }
    }
}

/// A lattice's pack in 5 dimensions and more (`kernel::blend_nd`), in a
/// function of its own: one copy per level and corner kind, whatever the
/// dimension. Stage 1 per axis is the 1D pack's (so `f32` and `f64` points
/// and periods on the first four axes behave as in 1D–4D).
struct LatticePackNd<'a, K, S: Simd> {
    lattice: &'a Lattice<K>,
    seed: S::UP,
    c: LaneSlices<'a>,
    period_scale: u64,
    /// Where the derivatives go, when they are asked for.
    grad: Option<&'a mut [S::F]>,
}

impl<K: Corners + fmt::Debug, S: Simd> LatticePackNd<'_, K, S> {
    /// Stage 1 of axis `a`: the 1D pack's.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn stage1(&self, s: S, a: usize) -> crate::kernel::Axis<S, CoordinatesMode> {
        let fade = self.lattice.fade;
        let period = self.lattice.period(a, self.period_scale).map(|p| [p; 4]);
        let period = period.as_ref();
        match self.c {
            LaneSlices::F32(l) => f32::axis_pack(s, &l[a]).axes(s, period, fade, false)[0],
            LaneSlices::F64(l) => f64::axis_pack(s, &l[a]).axes(s, period, fade, false)[0],
        }
    }
}

impl<K: Corners + fmt::Debug, S: Simd> OutlinedJob<S> for LatticePackNd<'_, K, S> {
    type Output = S::F;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(mut self, s: S) -> S::F {
        let fade = self.lattice.fade;
        let d = self.c.dims().clamp(1, MAX_LATTICE_DIMENSIONS);
        let mut grad = self.grad.take();
        let values_by_blocks = d >= 5 && grad.is_none();
        // `f32` coordinates with no period and the default fade go to the
        // blocks as they are, their stage 1 made part by part; a pack with
        // a cell out of that range comes round again with stage 1 of the
        // whole pack. (One call of each kernel, so one copy of each.)
        let mut by_parts = values_by_blocks
            && fade == Fade::Quintic
            && matches!(self.c, LaneSlices::F32(_))
            && (0..d).all(|a| self.lattice.period(a, self.period_scale).is_none());
        loop {
            let staged;
            let input = match self.c {
                LaneSlices::F32(c) if by_parts => BlockInput::Coordinates(&c[..d]),
                _ => {
                    // Filled from axis 0 (every entry read is overwritten
                    // first; zeros would be a `memset` per pack).
                    let first = self.stage1(s, 0);
                    let mut axes = [first; MAX_LATTICE_DIMENSIONS];
                    for (a, axis) in axes.iter_mut().enumerate().take(d).skip(1) {
                        *axis = self.stage1(s, a);
                    }
                    staged = axes;
                    BlockInput::Axes(&staged[..d])
                }
            };
            if values_by_blocks {
                const UPPER: usize = MAX_LATTICE_DIMENSIONS - 4;
                let out = if d == 5 {
                    // The common case, with no loop in a corner.
                    blend_blocks::<S, K, 1, 0>(s, self.seed, input)
                } else {
                    blend_blocks::<S, K, UPPER, { UPPER - 1 }>(s, self.seed, input)
                };
                match out {
                    Some(out) => return out,
                    None => {
                        by_parts = false;
                        continue;
                    }
                }
            }
            let BlockInput::Axes(axes) = input else {
                unreachable!("only values in 5 axes or more go by parts")
            };
            let mut slopes = [s.splat(0.0); MAX_LATTICE_DIMENSIONS];
            let mut unused = [s.splat(0.0); MAX_LATTICE_DIMENSIONS];
            let grad = match grad.take() {
                // Fewer axes (only tests ask): the derivatives' kernel,
                // whose values are the same, its derivatives dropped.
                None => &mut unused[..d],
                Some(grad) => {
                    for (slope, axis) in slopes.iter_mut().zip(axes) {
                        *slope = fade_slope(s, fade, axis.t0);
                    }
                    grad
                }
            };
            return blend_nd(s, self.seed, axes, K::SLOPED, &slopes[..d], grad);
        }
    }
}

/// A lattice of either corner kind, the kind chosen at run time: what the
/// fractals over `Perlin` and `Value` run on ([`Field::run_fractal`]), so
/// their drivers are compiled once in this crate for both kinds (the two
/// copies were a quarter of the library's machine code). Each pack still
/// runs its own kind's outlined kernel.
#[derive(Clone, Debug)]
pub(crate) enum AnyLattice {
    Gradient(Lattice<GradientCorners>),
    Value(Lattice<ValueCorners>),
}

impl From<&crate::Perlin> for AnyLattice {
    fn from(p: &crate::Perlin) -> AnyLattice {
        AnyLattice::Gradient(p.0.clone())
    }
}

impl From<&crate::Value> for AnyLattice {
    fn from(v: &crate::Value) -> AnyLattice {
        AnyLattice::Value(v.0.clone())
    }
}

/// `$e` with `$l` bound to the lattice inside `$any`, whichever its kind.
macro_rules! each_kind {
    ($any:expr, $l:ident => $e:expr) => {
        match $any {
            AnyLattice::Gradient($l) => $e,
            AnyLattice::Value($l) => $e,
        }
    };
}

impl Field for AnyLattice {
    type Ready<'a, S: Simd>
        = LatticeReady<'a, S>
    where
        Self: 'a;
    type Plan = LatticePlan;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> LatticeReady<'_, S> {
        each_kind!(self, l => l.ready(s))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        each_kind!(self, l => l.eval(r, s, c, period_scale))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        each_kind!(self, l => l.eval_nd(r, s, c, period_scale))
    }

    fn max_dimension(&self) -> usize {
        each_kind!(self, l => l.max_dimension())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fill_packs<S: Simd, T: Input, const D: usize>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        inputs: &[&[T]; D],
        out: &mut [f32],
        period_scale: u64,
    ) where
        Noise: Dims<D>,
    {
        each_kind!(self, l => l.fill_packs(r, s, inputs, out, period_scale))
    }

    fn run_level(&self) -> Level {
        each_kind!(self, l => l.run_level())
    }

    fn set_level(&mut self, level: Level) {
        each_kind!(self, l => l.set_level(level))
    }

    fn validate(&self) -> Result<(), Error> {
        each_kind!(self, l => l.validate())
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        each_kind!(self, l => l.output_bounds(dimension))
    }

    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        each_kind!(self, l => l.period(axis, scale))
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> LatticePlan
    where
        Noise: Dims<D>,
    {
        each_kind!(self, l => l.plan(axes, period_scale))
    }

    fn fill_rows<const D: usize>(
        &self,
        plan: &LatticePlan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        each_kind!(self, l => l.fill_rows(plan, axes, first_row, out, streaming))
    }

    fn add_rows<const D: usize>(
        &self,
        plan: &LatticePlan,
        axes: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        amplitude: f32,
    ) -> bool
    where
        Noise: Dims<D>,
    {
        each_kind!(self, l => l.add_rows(plan, axes, first_row, out, amplitude))
    }
}

impl GradField for AnyLattice {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        each_kind!(self, l => l.eval_grad(r, s, c, period_scale))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        each_kind!(self, l => l.eval_grad_nd(r, s, c, period_scale, grad))
    }
}

/// Per-fill grid data of a lattice: stage 1 of every sample of each axis,
/// and the x axis's runs when rows go by coefficients (fine x steps).
pub struct LatticePlan {
    samples: Vec<AxisSamples>,
    row: Option<RowAxis>,
    bands: Option<BandAxis>,
}

impl<K: Corners + fmt::Debug> Field for Lattice<K> {
    type Ready<'a, S: Simd>
        = LatticeReady<'a, S>
    where
        Self: 'a;
    type Plan = LatticePlan;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> LatticeReady<'_, S> {
        match &self.hash_mode {
            HashModeData::Permutation(t) => LatticeReady::Permutation(s.perm_table(t)),
            HashModeData::Coordinates { key, .. } => {
                LatticeReady::Coordinates(s.splat_u32(*key), *key)
            }
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> S::F
    where
        Noise: Dims<D>,
    {
        s.outlined(LatticePack::<K, S, C, D> {
            lattice: self,
            r,
            c,
            period_scale,
        })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        match r {
            LatticeReady::Coordinates(seed, _) => s.outlined(LatticePackNd::<K, S> {
                lattice: self,
                seed: *seed,
                c,
                period_scale,
                grad: None,
            }),
            // Never reached: `max_dimension` is 4 in this mode.
            LatticeReady::Permutation(_) => s.splat(f32::NAN),
        }
    }

    /// [`MAX_LATTICE_DIMENSIONS`] with the full-coordinate hash; Ken's
    /// permutation mode is defined in 1 to 4 dimensions.
    fn max_dimension(&self) -> usize {
        match self.hash_mode {
            HashModeData::Permutation(_) => 4,
            HashModeData::Coordinates { .. } => MAX_LATTICE_DIMENSIONS,
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fill_packs<S: Simd, T: Input, const D: usize>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        inputs: &[&[T]; D],
        out: &mut [f32],
        period_scale: u64,
    ) where
        Noise: Dims<D>,
    {
        // The default lattice's pack at `f32` points is inlined in a loop of
        // its own (its call and the pack's values passed through memory cost
        // about 2 instructions per point at `Avx2`, a periodic pack's cell
        // setup 7 more; at `Scalar` the call per point cost 40% of its
        // speed, at `Portable` 12%): it reads each part's coordinates from
        // the inputs and stores its result into `out` where they are used;
        // without a period the cells' range is checked once for the whole
        // loop. Everything else (`f64` points, other fades, the permutation
        // mode) calls the shared pack, the one copy of its kernel at this
        // level. (The fused arms are compiled only where they can run:
        // `f32_slices` is a constant of `T`.)
        let n = S::LANES;
        let inputs = inputs_cut(inputs, out.len());
        if let (LatticeReady::Coordinates(lanes, key), Fade::Quintic, Some(f32_inputs)) =
            (r, self.fade, T::f32_slices(&inputs))
        {
            match self.scaled_periods(period_scale) {
                None => {
                    let mut check = s.cells_check();
                    for (k, dst) in out.chunks_exact_mut(n).enumerate() {
                        let src = inputs_pack(&f32_inputs, k, n);
                        let io = &mut PartsInMemory { src, dst };
                        noise_parts::<S, K, _, _, D>(s, lanes, &NaturalCells, &mut check, io);
                    }
                    if !s.cells_checked(check) {
                        remake_lanes_out_of_range::<K, D>(*key, &f32_inputs, out);
                    }
                    return;
                }
                Some(p) => {
                    if let Some(cells) = PeriodicCells::<S, D>::new(s, &p) {
                        // A pack with a lane the parts cannot reduce (far
                        // from the origin, NaN, ±inf) is made again whole,
                        // by whole-pack stage 1 (not the shared pack, which
                        // would try the parts again first).
                        for (k, dst) in out.chunks_exact_mut(n).enumerate() {
                            let src = inputs_pack(&f32_inputs, k, n);
                            let mut check = s.cells_check();
                            let io = &mut PartsInMemory { src, dst };
                            noise_parts::<S, K, _, _, D>(s, lanes, &cells, &mut check, io);
                            if !s.cells_checked(check) {
                                let c = T::load(s, &inputs, k * n, n);
                                let v = periodic_by_axes::<K, S, _, D>(lanes, s, &c, &p);
                                s.store(v, dst);
                            }
                        }
                        return;
                    }
                }
            }
        }
        for (k, dst) in out.chunks_exact_mut(n).enumerate() {
            let c = T::load(s, &inputs, k * n, n);
            s.store(self.eval(r, s, &c, period_scale), dst);
        }
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
        if dimension > 4 {
            // The diagonal gradients' exact bound (`kernel::nd`), plus a
            // margin for `f32` rounding; heights stay in [−1, 1].
            let g = diagonal_component(dimension);
            let b = if self.is_value() {
                1.0
            } else {
                g * dimension as f32 / 2.0 + 4e-6
            };
            return (-b, b);
        }
        let d = dimension.clamp(1, 4) - 1;
        let row = Fade::ALL.iter().position(|&f| f == self.fade).unwrap_or(0);
        let b = match (self.is_value(), &self.hash_mode) {
            (true, _) => 1.0,
            (false, HashModeData::Permutation(_)) => PERMUTATION_BOUNDS[row][d],
            (false, HashModeData::Coordinates { .. }) => COORDINATE_BOUNDS[row][d],
        };
        (-b, b)
    }

    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        let p = *self.periods?.get(axis)?;
        (p != NOT_PERIODIC).then(|| u64::from(p).saturating_mul(scale).min(MAX_PERIOD))
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> LatticePlan
    where
        Noise: Dims<D>,
    {
        let periods = self.periods_or_natural(period_scale);
        let coords: [&[f64]; D] = std::array::from_fn(|a| &axes[a].coords[..]);
        // The path depends on the grid alone, never on windows or threads.
        // Rows by cells read x through the row axis alone, which takes x's
        // samples (a fractal holds one plan per octave for the whole fill).
        let by_cells = axes[0].step.abs() <= MAX_COEFFICIENT_STEP[D - 1];
        let band_step = MAX_BAND_STEP[D - 1];
        let by_bands = (D == 2 || D == 3) && axes[..2].iter().all(|a| a.step.abs() <= band_step);
        let plan = PlanAxes {
            coords: &coords,
            periods: &periods[..D],
            fade: self.fade,
            by_cells,
            by_bands,
        };
        let (samples, row, bands) = dispatch(self.level, plan);
        LatticePlan {
            samples,
            row,
            bands,
        }
    }

    fn fill_rows<const D: usize>(
        &self,
        plan: &LatticePlan,
        _: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
    ) where
        Noise: Dims<D>,
    {
        if let Some(x) = &plan.bands {
            return self.fill_bands(plan, x, first_row, out, streaming, None);
        }
        let axes: [&AxisSamples; D] = std::array::from_fn(|a| &plan.samples[a]);
        let (hash_mode, fade) = (self.hash_mode.kernel(), self.fade);
        match &plan.row {
            Some(x) => dispatch(
                self.level,
                FillRowsByCells {
                    hash_mode,
                    _corners: self.corners,
                    axes,
                    x,
                    first_row,
                    out,
                    streaming,
                },
            ),
            None => dispatch(
                self.level,
                FillGridRows {
                    hash_mode,
                    fade,
                    _corners: self.corners,
                    axes,
                    first_row,
                    out,
                },
            ),
        }
    }

    fn add_rows<const D: usize>(
        &self,
        plan: &LatticePlan,
        _: &[GridAxis; D],
        first_row: usize,
        out: &mut [f32],
        amplitude: f32,
    ) -> bool
    where
        Noise: Dims<D>,
    {
        match &plan.bands {
            Some(x) if x.can_add(D) => {
                self.fill_bands(plan, x, first_row, out, false, Some(amplitude));
                true
            }
            _ => false,
        }
    }
}

impl<K: Corners + fmt::Debug> Lattice<K> {
    /// Rows of a grid by bands ([`FillRowsByBands`]), stored or added.
    fn fill_bands<const D: usize>(
        &self,
        plan: &LatticePlan,
        x: &BandAxis,
        first_row: usize,
        out: &mut [f32],
        streaming: bool,
        add: Option<f32>,
    ) where
        Noise: Dims<D>,
    {
        let axes: [&AxisSamples; D] = std::array::from_fn(|a| &plan.samples[a]);
        let hash_mode = self.hash_mode.kernel();
        match D {
            2 => dispatch(
                self.level,
                FillRowsByBands::<K, 2> {
                    hash_mode,
                    _corners: self.corners,
                    axes: [axes[0], axes[1]],
                    x,
                    first_row,
                    out,
                    streaming,
                    add,
                },
            ),
            _ => dispatch(
                self.level,
                FillRowsByBands::<K, 3> {
                    hash_mode,
                    _corners: self.corners,
                    axes: [axes[0], axes[1], axes[2]],
                    x,
                    first_row,
                    out,
                    streaming,
                    add,
                },
            ),
        }
    }
}

impl<K: Corners + fmt::Debug> GradField for Lattice<K> {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> (S::F, [S::F; D])
    where
        Noise: Dims<D>,
    {
        s.outlined(LatticeGradPack(LatticePack::<K, S, C, D> {
            lattice: self,
            r,
            c,
            period_scale,
        }))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        r: &LatticeReady<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        match r {
            LatticeReady::Coordinates(seed, _) => s.outlined(LatticePackNd::<K, S> {
                lattice: self,
                seed: *seed,
                c,
                period_scale,
                grad: Some(grad),
            }),
            LatticeReady::Permutation(_) => {
                grad.fill(s.splat(f32::NAN));
                s.splat(f32::NAN)
            }
        }
    }
}

/// One pack of a lattice's points (stage 1 and stage 2), run through
/// [`Simd::outlined`]: compiled once per level, coordinate type and
/// dimension, and shared by the lattice's batches and every fractal over it.
struct LatticePack<'a, 'r, K, S: Simd, C, const D: usize> {
    lattice: &'a Lattice<K>,
    r: &'a LatticeReady<'r, S>,
    c: &'a C,
    period_scale: u64,
}

impl<K: Corners + fmt::Debug, S: Simd, C: PointPack<S, D>, const D: usize> OutlinedJob<S>
    for LatticePack<'_, '_, K, S, C, D>
where
    Noise: Dims<D>,
{
    type Output = S::F;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> S::F {
        let LatticePack {
            lattice,
            r,
            c,
            period_scale,
        } = self;
        match r {
            LatticeReady::Permutation(p) => {
                let axes = stage1_axes::<K, PermutationMode, S, C, D>(lattice, s, c, period_scale);
                stage2::<S, K, PermutationMode, false, false, D>(s, p, &axes)
            }
            LatticeReady::Coordinates(key, key_alone) => {
                if lattice.fade == Fade::Quintic {
                    return quintic_coordinates::<K, S, C, D>(
                        lattice,
                        key,
                        *key_alone,
                        s,
                        c,
                        period_scale,
                    );
                }
                type H = CoordinatesMode;
                let axes = stage1_axes::<K, H, S, C, D>(lattice, s, c, period_scale);
                stage2::<S, K, H, false, false, D>(s, key, &axes)
            }
        }
    }
}

/// A pack of the full-coordinate hash with the quintic fade (the default
/// lattice): stage 2 makes the fades (and, with no period, the upper cells)
/// per part, where they are used (see `Dims::eval`).
#[cfg_attr(not(debug_assertions), inline(always))]
fn quintic_coordinates<K: Corners + fmt::Debug, S: Simd, C: PointPack<S, D>, const D: usize>(
    lattice: &Lattice<K>,
    key: &S::UP,
    key_alone: u32,
    s: S,
    c: &C,
    period_scale: u64,
) -> S::F
where
    Noise: Dims<D>,
{
    // (Tested first on its own, the common case stays out of the periods'
    // arithmetic.)
    let periods = match lattice.periods {
        None => None,
        Some(_) => lattice.scaled_periods(period_scale),
    };
    match periods {
        None => quintic_plain::<K, S, C, D>(key, key_alone, s, c),
        Some(p) => quintic_periodic::<K, S, C, D>(key, s, c, &p),
    }
}

/// [`quintic_coordinates`] without a period.
#[cfg_attr(not(debug_assertions), inline(always))]
fn quintic_plain<K: Corners + fmt::Debug, S: Simd, C: PointPack<S, D>, const D: usize>(
    key: &S::UP,
    key_alone: u32,
    s: S,
    c: &C,
) -> S::F
where
    Noise: Dims<D>,
{
    type H = CoordinatesMode;
    match c.f32_vectors() {
        Some(c) => {
            let mut io = PartsInVectors { c, out: c[0] };
            let mut check = s.cells_check();
            noise_parts::<S, K, _, _, D>(s, key, &NaturalCells, &mut check, &mut io);
            if !s.cells_checked(check) {
                let mut lanes = [[0.0f32; MAX_LANES]; D];
                for (lanes, &c) in lanes.iter_mut().zip(&c) {
                    s.store(c, &mut lanes[..S::LANES]);
                }
                let mut inputs: [&[f32]; D] = [&[]; D];
                for (input, lanes) in inputs.iter_mut().zip(&lanes) {
                    *input = &lanes[..S::LANES];
                }
                let mut out = [0.0f32; MAX_LANES];
                s.store(io.out, &mut out[..S::LANES]);
                remake_lanes_out_of_range::<K, D>(key_alone, &inputs, &mut out[..S::LANES]);
                io.out = s.load(&out[..S::LANES]);
            }
            io.out
        }
        None => {
            // `f64` points of the default lattice (grids of composites,
            // warps): inline, stage 1 and 2 fuse (outlined, a warped fBm
            // grid took 14% more instructions).
            let axes = c.axes::<H>(s, None, Fade::Quintic, true);
            Noise::eval::<S, K, H, true, true>(s, key, &axes)
        }
    }
}

/// [`quintic_coordinates`] with the (scaled) periods `p`: part by part
/// where it can ([`PeriodicCells`]), else by [`periodic_by_axes`].
#[cfg_attr(not(debug_assertions), inline(always))]
fn quintic_periodic<K: Corners + fmt::Debug, S: Simd, C: PointPack<S, D>, const D: usize>(
    key: &S::UP,
    s: S,
    c: &C,
    p: &[u64; 4],
) -> S::F
where
    Noise: Dims<D>,
{
    if let (Some(v), Some(cells)) = (c.f32_vectors(), PeriodicCells::new(s, p)) {
        let mut io = PartsInVectors { c: v, out: v[0] };
        let mut check = s.cells_check();
        noise_parts::<S, K, _, _, D>(s, key, &cells, &mut check, &mut io);
        if s.cells_checked(check) {
            return io.out;
        }
    }
    periodic_by_axes::<K, S, C, D>(key, s, c, p)
}

/// [`quintic_periodic`] by whole-pack stage 1 ([`PointPack::axes`]): every
/// period, every lane. The rare packs that come here (a lane far from the
/// origin, NaN, ±inf) share the outlined stage 1 and stage 2 of the other
/// fades (the same operations, so the same bits) rather than a copy of
/// their own.
#[cfg_attr(not(debug_assertions), inline(always))]
fn periodic_by_axes<K: Corners + fmt::Debug, S: Simd, C: PointPack<S, D>, const D: usize>(
    key: &S::UP,
    s: S,
    c: &C,
    p: &[u64; 4],
) -> S::F
where
    Noise: Dims<D>,
{
    type H = CoordinatesMode;
    let axes = outlined_axes::<H, S, C, D>(s, c, Some(*p), Fade::Quintic);
    stage2::<S, K, H, false, false, D>(s, key, &axes)
}

/// [`LatticePack`] with derivatives.
struct LatticeGradPack<'a, 'r, K, S: Simd, C, const D: usize>(LatticePack<'a, 'r, K, S, C, D>);

impl<K: Corners + fmt::Debug, S: Simd, C: PointPack<S, D>, const D: usize> OutlinedJob<S>
    for LatticeGradPack<'_, '_, K, S, C, D>
where
    Noise: Dims<D>,
{
    type Output = (S::F, [S::F; D]);

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) -> (S::F, [S::F; D]) {
        let LatticePack {
            lattice,
            r,
            c,
            period_scale,
        } = self.0;
        match r {
            LatticeReady::Permutation(p) => {
                let axes = stage1_axes::<K, PermutationMode, S, C, D>(lattice, s, c, period_scale);
                stage2_grad::<S, K, PermutationMode, D>(s, p, lattice.fade, &axes)
            }
            LatticeReady::Coordinates(key, _) => {
                let axes = stage1_axes::<K, CoordinatesMode, S, C, D>(lattice, s, c, period_scale);
                stage2_grad::<S, K, CoordinatesMode, D>(s, key, lattice.fade, &axes)
            }
        }
    }
}

/// The public face of a lattice newtype `$ty(Lattice<_>)`: builder methods,
/// `Debug`, the forwarded `Field`/`GradField`, and every source method.
macro_rules! lattice_source {
    ($ty:ident, $name:literal, $corners:ty) => {
        impl $ty {
            /// The permutation in use, in the permutation mode
            /// ([`HashMode::Permutation`]); `None` with the full-coordinate hash.
            pub fn permutation(&self) -> Option<[u8; 256]> {
                match &self.0.hash_mode {
                    crate::sources::lattice::HashModeData::Permutation(t) => Some(t.permutation()),
                    crate::sources::lattice::HashModeData::Coordinates { .. } => None,
                }
            }

            /// `new(seed)` or `permuted(seed)`, by `mode`.
            pub fn with_hash(seed: u64, mode: HashMode) -> $ty {
                match mode {
                    HashMode::Coordinates => $ty::new(seed),
                    HashMode::Permutation => $ty::permuted(seed),
                }
            }

            /// How corners are hashed: [`HashMode::Coordinates`] (`new`) or
            /// [`HashMode::Permutation`] (`permuted`, `reference`).
            pub fn hash_mode(&self) -> HashMode {
                self.0.hash_mode.mode()
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
            /// `period[a]` is axis `a`'s period in lattice cells (x, y, z, w,
            /// then axes 4 and up), for as many axes as the array has: axes
            /// past its end are unperiodic, and a method of dimension `D`
            /// ignores the periods of the axes beyond `D` (`[8; 4]` tiles 1D
            /// to 4D noise, `[8; 6]` also 5D and 6D). The lattice wraps before
            /// hashing: cell `X` hashes as `X mod period`, and its neighbour as
            /// `(X + 1) mod period`. Every period from 1 to `u32::MAX - 1`
            /// works; 0 gives [`Error::InvalidPeriod`], and a period on an axis
            /// past [`crate::MAX_LATTICE_DIMENSIONS`] [`Error::InvalidDimension`].
            /// `u32::MAX` leaves an axis unperiodic (e.g. `[64, 64, u32::MAX]`
            /// tiles x and y only).
            ///
            /// With the full-coordinate hash ([`HashMode::Coordinates`], the
            /// default) the noise repeats exactly at `period` and at no smaller
            /// shift (cells of one period all hash differently). In the
            /// permutation mode the table itself repeats every 256 cells, so a
            /// period `p` is exact but cells `X` and `X + 256` inside one period
            /// hash alike, and `with_period([256; 4])` changes nothing (that mode
            /// is kept for its bits; prefer the default for tiles).
            ///
            /// Every input's lattice cell is `floor mod period` exactly. In the
            /// default mode `f32` batches reduce cells in vectors (periods up to
            /// 2²⁴, points within 2²² periods of the origin), the rest per point
            /// in `f64`, with the same bits.
            pub fn with_period<const N: usize>(mut self, period: [u32; N]) -> Result<$ty, Error> {
                self.0.periods = crate::sources::lattice::periods_of(&self.0.hash_mode, &period)?;
                Ok(self)
            }

            /// The periods of the x, y, z and w axes set by `with_period`
            /// (`u32::MAX` on an unperiodic axis; `None`: not periodic, also
            /// after `with_period([u32::MAX; 4])` and, in the permutation
            /// mode, `with_period([256; 4])`). [`Self::axis_period`] reads
            /// any axis.
            pub fn period(&self) -> Option<[u32; 4]> {
                self.0.periods.map(|p| [p[0], p[1], p[2], p[3]])
            }

            /// Axis `axis`'s period in cells (`None` where it is unperiodic).
            pub fn axis_period(&self, axis: usize) -> Option<u32> {
                let p = self.0.periods?.get(axis).copied()?;
                (p != u32::MAX).then_some(p)
            }

            /// The same noise with another fade curve (default [`Fade::Quintic`]).
            pub fn with_fade(mut self, fade: Fade) -> $ty {
                self.0.fade = fade;
                self
            }

            /// The fade curve in use.
            pub fn fade(&self) -> Fade {
                self.0.fade
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct($name)
                    .field("hash", &self.0.hash_mode)
                    .field("level", &self.0.level)
                    .field("period", &self.0.periods)
                    .field("fade", &self.0.fade)
                    .finish()
            }
        }

        crate::field::forward_field!(impl[] $ty, crate::sources::lattice::Lattice<$corners>, compiled);
        crate::field::forward_grad_field!(impl[] $ty, compiled);
    };
}
pub(crate) use lattice_source;
