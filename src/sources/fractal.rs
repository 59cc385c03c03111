//! Fractal combinators over any [`Source`]: [`Fbm`], [`Billow`], [`Ridged`],
//! [`Turbulence`] and [`Marble`].
//!
//! Octave `i` (from 0) evaluates the source at `c · fᵢ + oᵢ` with frequency
//! `fᵢ = lacunarityⁱ` and amplitude `aᵢ = persistenceⁱ`; `oᵢ` is a fixed
//! per-octave, per-axis offset (0 for octave 0, a fraction of a cell plus
//! up to 64 cells for the others) so that octaves do not share lattice
//! zeros. The frequencies and amplitudes are running products computed once
//! when the combinator is built, never per point. Each combinator folds the
//! octave values `nᵢ` in octave order:
//!
//! | combinator   | octave term `tᵢ`                | output                          |
//! |--------------|---------------------------------|---------------------------------|
//! | `Fbm`        | `nᵢ`                            | `Σ aᵢ·tᵢ`                       |
//! | `Billow`     | `2·|nᵢ| − 1`                    | `Σ aᵢ·tᵢ`                       |
//! | `Turbulence` | `|nᵢ|`                          | `Σ aᵢ·tᵢ`                       |
//! | `Ridged`     | `sᵢ = (1 − |nᵢ|)²·wᵢ`, `wᵢ₊₁ = clamp(2·sᵢ, 0, 1)`, `w₀ = 1` | `Σ aᵢ·sᵢ` |
//! | `Marble`     | `|nᵢ|`                          | `sin(stripes·x + power·Σ aᵢ·tᵢ)` |
//!
//! (`Ridged` is Musgrave's ridged multifractal with offset 1 and gain 2.)
//! With `normalize(true)` the output is mapped from [`Source::bounds`] to
//! [−1, 1] (`Marble` is in [−1, 1] already).
//!
//! A combinator over a periodic source (see `Perlin::with_period`) repeats
//! with the source's period if the lacunarity is a whole number: octave `i`
//! runs the source with its periods multiplied by `lacunarityⁱ`. It repeats
//! bit for bit through every method (points in `f32` and `f64`, grids): the
//! octaves after the first scale not `c` but its member of `c`'s class mod
//! the period in [−period/2, period/2) (computed exactly in `f64`; `c` itself
//! within half a period of 0), so `c · fᵢ` rounds the same for `c` and
//! `c + k·period`.

use std::borrow::Cow;

use crate::field::{
    Field, GradField, GradRequest, GridAxis, Input, LaneSlices, PointPack, Request, canonical,
};
use crate::kernel::{Dims, Noise, load_padded, store_pack};
use crate::kernel::{MAX_LATTICE_DIMENSIONS, centre_in_period};
use crate::scratch::Scratch;
use crate::simd::{Job, MAX_LANES, Simd, dispatch};
use crate::{Error, Level, Source};

/// Most octaves a combinator sums.
pub const MAX_OCTAVES: u32 = 32;

/// Ridged multifractal's gain: how strongly a ridge suppresses the next octave.
const RIDGED_GAIN: f32 = 2.0;

/// Rows of at most this many samples are combined per pass of a grid fill
/// (one octave's block stays in L2 while the next octave is added).
const BLOCK_SAMPLES: usize = 1 << 16;

/// Octave `i`'s offset on axis `d`: `k / 256` cells with `k` from a fixed
/// hash of `(i, d)`, below 64 cells (exact in `f32` and `f64`); 0 for octave 0.
const fn octave_offset(i: usize, d: usize) -> f64 {
    if i == 0 {
        return 0.0;
    }
    // Axes past the fourth (noise in 5 dimensions and more) take keys
    // beyond every first-four-axes key `4i + d`.
    let key = if d < 4 {
        i as u64 * 4 + d as u64
    } else {
        (1 << 32) + i as u64 * 64 + d as u64
    };
    let mut z = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 29;
    // Keep a fraction of a cell: 1..=255 / 256 plus whole cells.
    let k = (z % 16_384) | 1;
    k as f64 / 256.0
}

/// [`octave_offset`] of the first four axes, by octave.
const OFFSETS: [[f64; 4]; MAX_OCTAVES as usize] = {
    let mut t = [[0.0f64; 4]; MAX_OCTAVES as usize];
    let mut i = 0;
    while i < MAX_OCTAVES as usize {
        let mut d = 0;
        while d < 4 {
            t[i][d] = octave_offset(i, d);
            d += 1;
        }
        i += 1;
    }
    t
};

/// The octaves' coordinates of one pack in 5 dimensions and more.
struct OctavesNd {
    /// The pack in `f64`, moved into the periods (octaves 1 and up).
    base: Vec<[f64; MAX_LANES]>,
    /// The octave in hand.
    scaled: Vec<[f64; MAX_LANES]>,
    lanes: usize,
    period_scale: u64,
    frequency: [f64; MAX_OCTAVES as usize],
    octave_scale: [u64; MAX_OCTAVES as usize],
}

impl OctavesNd {
    fn new<N: Source>(
        f: &Fractal<N>,
        c: LaneSlices<'_>,
        lanes: usize,
        period_scale: u64,
    ) -> OctavesNd {
        let d = &f.derived;
        let base = if d.octaves > 1 {
            centred_lanes(c, lanes, |a| f.source.period(a, period_scale))
        } else {
            Vec::new()
        };
        OctavesNd {
            scaled: base.clone(),
            base,
            lanes,
            period_scale,
            frequency: d.frequency,
            octave_scale: d.period_scale,
        }
    }

    /// Octave `i`'s coordinates (octave 0: `c` as given) and period scale.
    fn at<'a>(&'a mut self, i: usize, c: LaneSlices<'a>) -> (LaneSlices<'a>, u64) {
        if i == 0 {
            return (c, self.period_scale);
        }
        octave_lanes(
            &self.base,
            &mut self.scaled,
            self.lanes,
            self.frequency[i],
            i,
        );
        let scale = self.period_scale.saturating_mul(self.octave_scale[i]);
        (LaneSlices::F64(&self.scaled), scale)
    }
}

/// The x coordinates of a pack as `f32` (marble's stripes).
#[cfg_attr(not(debug_assertions), inline(always))]
fn lane_x<S: Simd>(s: S, c: LaneSlices<'_>) -> S::F {
    match c {
        LaneSlices::F32(l) => s.load(&l[0][..S::LANES]),
        LaneSlices::F64(l) => f64::axis_pack(s, &l[0]).x(s),
    }
}

/// The first `lanes` coordinates of every axis of `c` in `f64`, each axis
/// with a period (`period(axis)`) moved into it (`centre_in_period`): the
/// base of the octaves in 5 dimensions and more.
fn centred_lanes(
    c: LaneSlices<'_>,
    lanes: usize,
    period: impl Fn(usize) -> Option<u64>,
) -> Vec<[f64; MAX_LANES]> {
    let mut base = c.to_f64();
    for (a, axis) in base.iter_mut().enumerate() {
        if let Some(period) = period(a) {
            for v in &mut axis[..lanes] {
                *v = centre_in_period(*v, period);
            }
        }
    }
    base
}

/// Octave `i`'s coordinates from `base` into `scaled` (the first `lanes`
/// of each axis): `c · frequency + offset`, clamped to the finite range,
/// in `f64` as `F64Pack::affine` makes them.
fn octave_lanes(
    base: &[[f64; MAX_LANES]],
    scaled: &mut [[f64; MAX_LANES]],
    lanes: usize,
    frequency: f64,
    i: usize,
) {
    for (a, (out, base)) in scaled.iter_mut().zip(base).enumerate() {
        let offset = octave_offset(i, a);
        for (v, &b) in out[..lanes].iter_mut().zip(&base[..lanes]) {
            *v = (b * frequency + offset).clamp(-f64::MAX, f64::MAX);
        }
    }
}

/// Which fold a [`Fractal`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Fbm,
    Billow,
    Ridged,
    Turbulence,
    Marble,
}

impl Shape {
    /// Every shape, indexed by `shape as usize`.
    const ALL: [Shape; 5] = [
        Shape::Fbm,
        Shape::Billow,
        Shape::Ridged,
        Shape::Turbulence,
        Shape::Marble,
    ];
}

/// The user's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Settings {
    octaves: u32,
    lacunarity: f32,
    persistence: f32,
    normalize: bool,
    power: f32,
    stripes: f32,
}

/// Per-octave tables and per-dimension output maps, derived from the
/// settings whenever one changes.
#[derive(Clone, Debug)]
struct Derived {
    /// Octaves actually run (0 when the settings are invalid).
    octaves: usize,
    frequency: [f64; MAX_OCTAVES as usize],
    amplitude: [f32; MAX_OCTAVES as usize],
    /// `aᵢ·fᵢ`, the chain-rule factor of octave `i`'s derivatives.
    slope: [f32; MAX_OCTAVES as usize],
    /// `lacunarityⁱ` as an integer (periodic sources), saturating.
    period_scale: [u64; MAX_OCTAVES as usize],
    /// Per dimension 1..=MAX_LATTICE_DIMENSIONS: the raw output interval.
    raw: [(f32, f32); MAX_LATTICE_DIMENSIONS],
    /// Per dimension: `(mid, 1 / half-width)` for normalising.
    norm: [(f32, f32); MAX_LATTICE_DIMENSIONS],
    /// Every amplitude and partial sum is far from overflow, so the fold
    /// creates no NaN and only passes on the source's canonical ones: the
    /// grid path may skip the final canonicalising pass.
    nan_free: bool,
    error: Option<Error>,
}

/// The shared engine of the five combinators.
#[derive(Clone, Debug)]
pub struct Fractal<N> {
    source: N,
    shape: Shape,
    level: Level,
    settings: Settings,
    derived: Derived,
}

impl<N: Source> Fractal<N> {
    /// The same fractal (shape, level, settings, tables) over its lattice
    /// as an [`AnyLattice`](crate::sources::lattice::AnyLattice): what the
    /// crate's lattices run their fractals on.
    pub(crate) fn over_any_lattice(&self) -> Fractal<crate::sources::lattice::AnyLattice>
    where
        for<'a> crate::sources::lattice::AnyLattice: From<&'a N>,
    {
        Fractal {
            source: (&self.source).into(),
            shape: self.shape,
            level: self.level,
            settings: self.settings,
            derived: self.derived.clone(),
        }
    }

    /// The same fractal over its source boxed as a [`DynSource`](crate::DynSource)
    /// with derivatives: what simplex noise runs its fractals on, so that
    /// they take the drivers compiled once for fractals over run-time
    /// sources (one virtual call per pack and octave).
    pub(crate) fn over_dyn(&self) -> Fractal<crate::DynSource>
    where
        N: crate::Differentiable + 'static,
    {
        Fractal {
            source: crate::DynSource::differentiable(self.source.clone()),
            shape: self.shape,
            level: self.level,
            settings: self.settings,
            derived: self.derived.clone(),
        }
    }

    fn new(source: N, shape: Shape) -> Fractal<N> {
        let level = source.run_level();
        let mut f = Fractal {
            source,
            shape,
            level,
            settings: Settings {
                octaves: 6,
                lacunarity: 2.0,
                persistence: 0.5,
                normalize: false,
                power: 4.0,
                stripes: 1.0,
            },
            derived: Derived {
                octaves: 0,
                frequency: [1.0; MAX_OCTAVES as usize],
                amplitude: [1.0; MAX_OCTAVES as usize],
                slope: [1.0; MAX_OCTAVES as usize],
                period_scale: [1; MAX_OCTAVES as usize],
                raw: [(0.0, 0.0); MAX_LATTICE_DIMENSIONS],
                norm: [(0.0, 1.0); MAX_LATTICE_DIMENSIONS],
                nan_free: false,
                error: None,
            },
        };
        f.derive();
        f
    }

    fn settings_error(&self) -> Option<Error> {
        let s = &self.settings;
        if !(1..=MAX_OCTAVES).contains(&s.octaves) {
            return Some(Error::InvalidOctaves(s.octaves));
        }
        for (name, value) in [
            ("lacunarity", s.lacunarity),
            ("persistence", s.persistence),
            ("power", s.power),
            ("stripes", s.stripes),
        ] {
            if !value.is_finite() {
                return Some(Error::NonFiniteParameter { name, value });
            }
        }
        if self.source.periodic() && (s.lacunarity < 1.0 || s.lacunarity.fract() != 0.0) {
            return Some(Error::PeriodicLacunarity(s.lacunarity));
        }
        self.source.validate().err()
    }

    /// Recomputes the octave tables and output maps from the settings.
    /// Settings whose frequencies, amplitudes or bounds overflow `f32` are
    /// an error ([`Error::FractalOverflow`]), so every accepted fractal has
    /// finite bounds and sums no infinities.
    fn derive(&mut self) {
        let s = self.settings;
        let mut error = self.settings_error();
        let d = &mut self.derived;
        let (mut f, mut a, mut p) = (1.0f64, 1.0f64, 1u64);
        let factor = s.lacunarity.max(1.0) as u64;
        for i in 0..MAX_OCTAVES as usize {
            d.frequency[i] = f;
            d.amplitude[i] = a as f32;
            d.slope[i] = (a * f) as f32;
            d.period_scale[i] = p;
            f *= f64::from(s.lacunarity);
            a *= f64::from(s.persistence);
            p = p.saturating_mul(factor);
        }
        if error.is_none() {
            let used = s.octaves as usize;
            // Octave coordinates are scaled by the frequency as an `f32`
            // (point methods) and the sum is taken in `f32`.
            let overflows = |v: f64| !(v as f32).is_finite();
            let what = if d.frequency[..used].iter().any(|&f| overflows(f)) {
                Some("frequency")
            } else if d.amplitude[..used].iter().any(|a| !a.is_finite()) {
                Some("amplitude")
            } else {
                None
            };
            error = what.map(|what| Error::FractalOverflow {
                what,
                octaves: s.octaves,
                lacunarity: s.lacunarity,
                persistence: s.persistence,
            });
        }
        self.derived.octaves = if error.is_some() {
            0
        } else {
            s.octaves as usize
        };
        if error.is_none()
            && (1..=4).any(|dim| {
                let (lo, hi) = self.raw_bounds(dim);
                !(lo.is_finite() && hi.is_finite())
            })
        {
            error = Some(Error::FractalOverflow {
                what: "bounds",
                octaves: s.octaves,
                lacunarity: s.lacunarity,
                persistence: s.persistence,
            });
            self.derived.octaves = 0;
        }
        self.derived.error = error;
        let used = self.derived.octaves.max(1);
        let amplitudes_finite = self.derived.amplitude[..used].iter().all(|a| a.is_finite());
        let mut nan_free = amplitudes_finite;
        for dim in 1..=MAX_LATTICE_DIMENSIONS {
            let raw = self.raw_bounds(dim);
            nan_free &= raw.0.abs() < 1e30 && raw.1.abs() < 1e30;
            self.derived.raw[dim - 1] = raw;
            let half = (f64::from(raw.1) - f64::from(raw.0)) / 2.0;
            let mid = (f64::from(raw.1) + f64::from(raw.0)) / 2.0;
            self.derived.norm[dim - 1] = (
                mid as f32,
                if half > 0.0 { (1.0 / half) as f32 } else { 1.0 },
            );
        }
        self.derived.nan_free = nan_free;
    }

    /// The interval of the fold (before normalising), by interval
    /// arithmetic over the octaves, widened by a relative 1e-5 for `f32`
    /// rounding.
    fn raw_bounds(&self, dimension: usize) -> (f32, f32) {
        if self.shape == Shape::Marble {
            return (-1.0, 1.0);
        }
        let (lo, hi) = self.source.output_bounds(dimension);
        let (lo, hi) = (f64::from(lo), f64::from(hi));
        let m = lo.abs().max(hi.abs());
        let term = match self.shape {
            Shape::Fbm => (lo, hi),
            Shape::Billow => (-1.0, 2.0 * m - 1.0),
            Shape::Turbulence | Shape::Marble => (0.0, m),
            Shape::Ridged => (0.0, 1.0f64.max((1.0 - m) * (1.0 - m))),
        };
        let (mut sum_lo, mut sum_hi) = (0.0f64, 0.0f64);
        for i in 0..self.derived.octaves.max(1) {
            let a = f64::from(self.derived.amplitude[i]);
            let (x, y) = (a * term.0, a * term.1);
            sum_lo += x.min(y);
            sum_hi += x.max(y);
        }
        let pad = 1e-5 * sum_lo.abs().max(sum_hi.abs());
        ((sum_lo - pad) as f32, (sum_hi + pad) as f32)
    }

    /// The coordinates the octaves after the first scale: on each periodic
    /// axis moved by whole periods into [−period/2, period/2) (`c` itself
    /// there), so `c` and `c + k·period` give every octave the same bits.
    /// Octave 0 keeps `c`: the source repeats exactly at its period.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn centred<S: Simd, C: PointPack<S, D>, const D: usize>(
        &self,
        s: S,
        c: &C,
        period_scale: u64,
    ) -> C {
        let periods = self.source.periods::<D>(period_scale);
        if self.derived.octaves > 1 && periods.iter().any(Option::is_some) {
            c.centred(s, &periods)
        } else {
            *c
        }
    }

    /// The output map of `D`-dimensional noise: normalised or raw.
    fn output_bounds_of(&self, dimension: usize) -> (f32, f32) {
        if self.settings.normalize || self.shape == Shape::Marble {
            (-1.0, 1.0)
        } else {
            self.derived.raw[dimension.clamp(1, MAX_LATTICE_DIMENSIONS) - 1]
        }
    }
}

/// Octave `first`'s contribution folded into `acc` (`weight`: Ridged's
/// running weight). The one definition of each fold, used by points and grids.
#[cfg_attr(not(debug_assertions), inline(always))]
fn fold<S: Simd>(
    s: S,
    shape: Shape,
    first: bool,
    amplitude: f32,
    acc: S::F,
    weight: &mut S::F,
    n: S::F,
) -> S::F {
    let term = match shape {
        Shape::Fbm => n,
        Shape::Billow => s.abs(n) * s.splat(2.0) - s.splat(1.0),
        Shape::Turbulence | Shape::Marble => s.abs(n),
        Shape::Ridged => {
            let ridge = s.splat(1.0) - s.abs(n);
            let signal = ridge * ridge * *weight;
            // min(1, ·) then max(0, ·): a NaN signal stays NaN.
            *weight = s.max(
                s.splat(0.0),
                s.min(s.splat(1.0), signal * s.splat(RIDGED_GAIN)),
            );
            signal
        }
    };
    let v = s.splat(amplitude) * term;
    if first { v } else { acc + v }
}

/// The fold's final map: Marble's sine, or normalising (clamped to [−1, 1]
/// against rounding), then canonical NaN.
#[cfg_attr(not(debug_assertions), inline(always))]
fn finish<S: Simd>(s: S, f: &Settings, shape: Shape, norm: (f32, f32), acc: S::F, x: S::F) -> S::F {
    let v = if shape == Shape::Marble {
        // Clamped so that a huge finite x (or an f64 one beyond f32) gives
        // a finite sine, not sin(±inf) = NaN; NaN stays NaN.
        let arg = s.splat(f.stripes) * x + s.splat(f.power) * acc;
        let arg = s.max(s.splat(-f32::MAX), s.min(s.splat(f32::MAX), arg));
        crate::fade::sin(s, arg)
    } else if f.normalize {
        let v = (acc - s.splat(norm.0)) * s.splat(norm.1);
        s.max(s.splat(-1.0), s.min(s.splat(1.0), v))
    } else {
        acc
    };
    canonical(s, v)
}

/// Per-fill grid data of a fractal: each octave's scaled axes and plan.
pub struct FractalPlan<P> {
    octaves: Vec<(Vec<GridAxis>, P)>,
}

impl<N: Source> Field for Fractal<N> {
    type Ready<'a, S: Simd>
        = N::Ready<'a, S>
    where
        Self: 'a;
    type Plan = FractalPlan<N::Plan>;
    type Core = Self;

    fn core(&self) -> &Self {
        self
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn ready<S: Simd>(&self, s: S) -> N::Ready<'_, S> {
        self.source.ready(s)
    }

    #[allow(clippy::needless_range_loop)] // parallel per-octave tables
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
        let d = &self.derived;
        let mut acc = s.splat(0.0);
        let mut weight = s.splat(1.0);
        let centred = self.centred(s, c, period_scale);
        for i in 0..d.octaves {
            // One call site for every octave, so the source's kernel is
            // inlined once (octave 0 keeps its coordinates as they are).
            let (ci, scale) = if i == 0 {
                (*c, period_scale)
            } else {
                let scale = period_scale.saturating_mul(d.period_scale[i]);
                (centred.affine(s, d.frequency[i], &OFFSETS[i]), scale)
            };
            let n = self.source.eval(r, s, &ci, scale);
            acc = fold(s, self.shape, i == 0, d.amplitude[i], acc, &mut weight, n);
        }
        if d.octaves == 0 {
            return s.splat(f32::NAN);
        }
        finish(s, &self.settings, self.shape, d.norm[D - 1], acc, c.x(s))
    }

    /// [`Field::eval`]'s octaves in 5 dimensions and more. Octave 0 takes
    /// the coordinates as given; the others' are made in `f64` from them
    /// (widened exactly from `f32`), moved into their periods and scaled
    /// per lane by plain scalar code ([`octave_lanes`]), so `fill` and
    /// `fill_f64` agree bit for bit on `f32` points here (in 1D–4D `fill`
    /// scales in `f32`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_nd<S: Simd>(
        &self,
        r: &N::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
    ) -> S::F {
        let d = &self.derived;
        if d.octaves == 0 || c.dims() == 0 {
            return s.splat(f32::NAN);
        }
        let mut octaves = OctavesNd::new(self, c, S::LANES, period_scale);
        let mut acc = s.splat(0.0);
        let mut weight = s.splat(1.0);
        for i in 0..d.octaves {
            let (ci, scale) = octaves.at(i, c);
            let n = self.source.eval_nd(r, s, ci, scale);
            acc = fold(s, self.shape, i == 0, d.amplitude[i], acc, &mut weight, n);
        }
        let norm = d.norm[c.dims().clamp(1, MAX_LATTICE_DIMENSIONS) - 1];
        finish(s, &self.settings, self.shape, norm, acc, lane_x(s, c))
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
        match &self.derived.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn output_bounds(&self, dimension: usize) -> (f32, f32) {
        self.output_bounds_of(dimension)
    }

    fn period(&self, axis: usize, scale: u64) -> Option<u64> {
        self.source.period(axis, scale)
    }

    fn plan<const D: usize>(&self, axes: &[GridAxis; D], period_scale: u64) -> Self::Plan
    where
        Noise: Dims<D>,
    {
        let d = &self.derived;
        let level = self.source.run_level();
        let periods = self.source.periods::<D>(period_scale);
        // Only the periodic axes are moved (and copied).
        let centred: Vec<Cow<'_, GridAxis>> = (0..D)
            .map(|a| periods[a].map_or(Cow::Borrowed(&axes[a]), |p| Cow::Owned(axes[a].centred(p))))
            .collect();
        let octaves = (0..d.octaves)
            .map(|i| {
                let scaled: Vec<GridAxis> = if i == 0 {
                    axes.to_vec()
                } else {
                    let mut scaled: Vec<GridAxis> = (0..D)
                        .map(|a| centred[a].affine(d.frequency[i], OFFSETS[i][a], level))
                        .collect();
                    // The source picks its row path from the x step. An
                    // octave of a coarse grid must stay on the point path
                    // (a coarse grid gives `fill_f64`'s bits) even where
                    // |lacunarity| < 1 shrinks its step below the bound, so
                    // the source sees the larger of the two steps.
                    let grid_step = axes[0].step.abs();
                    if scaled[0].step.abs() < grid_step {
                        scaled[0].step = grid_step;
                    }
                    scaled
                };
                let array: &[GridAxis; D] = scaled[..].try_into().unwrap();
                let scale = period_scale.saturating_mul(d.period_scale[i]);
                let plan = self.source.plan(array, scale);
                (scaled, plan)
            })
            .collect();
        FractalPlan { octaves }
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
        let nx = axes[0].coords.len();
        if nx == 0 || out.is_empty() {
            return;
        }
        let rows_per_block = (BLOCK_SAMPLES / nx).max(1);
        let block_len = (rows_per_block * nx).min(out.len());
        // Octave 0 goes straight into the output block, every later octave
        // into `values`, and a pass of its own folds each into the block:
        // the source's row job is compiled once, whatever the fold.
        // (Reused, not zeroed: each octave writes its values before they
        // are read, and each block sets its weights.)
        let mut values =
            Scratch::reused(if plan.octaves.len() > 1 { block_len } else { 0 }, 0.0f32);
        let ridged = self.shape == Shape::Ridged;
        let mut weight = Scratch::reused(if ridged { block_len } else { 0 }, 1.0f32);
        // The x coordinate of each sample of a row, as `f32` (Marble), padded.
        let xs: Scratch<f32> = if self.shape == Shape::Marble {
            let padded = nx.div_ceil(MAX_LANES) * MAX_LANES;
            let mut xs: Scratch<f32> = axes[0].coords.iter().map(|&c| c as f32).collect();
            xs.resize(padded, 0.0);
            xs
        } else {
            Scratch::default()
        };
        // Raw Fbm, Billow, Turbulence and Ridged sums end as they are.
        let needs_finish =
            self.settings.normalize || self.shape == Shape::Marble || !self.derived.nan_free;
        for (b, block) in out.chunks_mut(rows_per_block * nx).enumerate() {
            let row = first_row + b * rows_per_block;
            weight.iter_mut().for_each(|w| *w = 1.0);
            let weight_len = if ridged { block.len() } else { 0 };
            for (i, (scaled, octave)) in plan.octaves.iter().enumerate() {
                let scaled: &[GridAxis; D] = scaled[..].try_into().unwrap();
                let amplitude = self.derived.amplitude[i];
                let first = i == 0;
                let octave_values = if first {
                    self.source.fill_rows(octave, scaled, row, block, false);
                    // Fbm's first octave at amplitude 1 folds to itself.
                    if self.shape == Shape::Fbm && amplitude == 1.0 {
                        continue;
                    }
                    None
                } else {
                    // fBm's later octaves are added in the source's row pass
                    // where it can (the fold's operations): no pass of
                    // their own over the block. The other shapes keep their
                    // fold pass: with `|v|` terms in the band rows (measured)
                    // the compiler kept the choice in the row loops, a
                    // compare and branch per register, or outlined their
                    // rows' setup; one-octave grids took 3–7% more
                    // instructions either way. Ridged has its weights too.
                    let added = self.shape == Shape::Fbm
                        && self.source.add_rows(octave, scaled, row, block, amplitude);
                    if added {
                        continue;
                    }
                    let values = &mut values[..block.len()];
                    self.source.fill_rows(octave, scaled, row, values, false);
                    Some(&*values)
                };
                dispatch(
                    self.level,
                    FoldRows {
                        shape: self.shape,
                        first,
                        amplitude,
                        acc: &mut *block,
                        values: octave_values,
                        weight: &mut weight[..weight_len],
                    },
                );
            }
            if needs_finish {
                dispatch(
                    self.level,
                    FinishRows {
                        shape: self.shape,
                        settings: &self.settings,
                        norm: self.derived.norm[D - 1],
                        xs: &xs,
                        dst: block,
                        nx,
                    },
                );
            }
        }
    }

    fn run(&self, req: Request<'_>) -> Result<(), Error> {
        N::run_fractal(self, req)
    }
}

impl<N: Source + GradField> GradField for Fractal<N> {
    type GradCore = Self;

    fn grad_core(&self) -> &Self {
        self
    }

    fn validate_grad(&self) -> Result<(), Error> {
        self.validate()?;
        self.source.validate_grad()
    }
    /// fBm's derivatives: `Σ aᵢ·fᵢ·∇nᵢ` (only `Fbm` forwards this).
    #[allow(clippy::needless_range_loop)] // parallel per-octave tables
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
        debug_assert_eq!(self.shape, Shape::Fbm);
        let d = &self.derived;
        if d.octaves == 0 {
            return (s.splat(f32::NAN), [s.splat(f32::NAN); D]);
        }
        let mut acc = s.splat(0.0);
        let mut grad = [s.splat(0.0); D];
        let centred = self.centred(s, c, period_scale);
        for i in 0..d.octaves {
            // One call site for every octave (see `eval`).
            let (ci, scale) = if i == 0 {
                (*c, period_scale)
            } else {
                let scale = period_scale.saturating_mul(d.period_scale[i]);
                (centred.affine(s, d.frequency[i], &OFFSETS[i]), scale)
            };
            let (n, dn) = self.source.eval_grad(r, s, &ci, scale);
            let v = s.splat(d.amplitude[i]) * n;
            let k = s.splat(d.slope[i]);
            if i == 0 {
                acc = v;
                for a in 0..D {
                    grad[a] = k * dn[a];
                }
            } else {
                acc = acc + v;
                for a in 0..D {
                    grad[a] = grad[a] + k * dn[a];
                }
            }
        }
        let v = finish(s, &self.settings, self.shape, d.norm[D - 1], acc, c.x(s));
        if self.settings.normalize {
            let k = s.splat(d.norm[D - 1].1);
            for g in &mut grad {
                *g = *g * k;
            }
        }
        for g in &mut grad {
            *g = canonical(s, *g);
        }
        (v, grad)
    }

    /// [`GradField::eval_grad`] in 5 dimensions and more, the octaves made
    /// as [`Field::eval_nd`] makes them.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_grad_nd<S: Simd>(
        &self,
        r: &N::Ready<'_, S>,
        s: S,
        c: LaneSlices<'_>,
        period_scale: u64,
        grad: &mut [S::F],
    ) -> S::F {
        let d = &self.derived;
        if d.octaves == 0 || c.dims() == 0 {
            grad.fill(s.splat(f32::NAN));
            return s.splat(f32::NAN);
        }
        let mut octaves = OctavesNd::new(self, c, S::LANES, period_scale);
        let mut dn = vec![s.splat(0.0); grad.len()];
        let mut acc = s.splat(0.0);
        for i in 0..d.octaves {
            let (ci, scale) = octaves.at(i, c);
            let n = self.source.eval_grad_nd(r, s, ci, scale, &mut dn);
            let v = s.splat(d.amplitude[i]) * n;
            let k = s.splat(d.slope[i]);
            if i == 0 {
                acc = v;
                for (g, &dn) in grad.iter_mut().zip(&dn) {
                    *g = k * dn;
                }
            } else {
                acc = acc + v;
                for (g, &dn) in grad.iter_mut().zip(&dn) {
                    *g = *g + k * dn;
                }
            }
        }
        let norm = d.norm[c.dims().clamp(1, MAX_LATTICE_DIMENSIONS) - 1];
        let v = finish(s, &self.settings, self.shape, norm, acc, lane_x(s, c));
        for g in grad.iter_mut() {
            if self.settings.normalize {
                *g = *g * s.splat(norm.1);
            }
            *g = canonical(s, *g);
        }
        v
    }

    fn run_grad(&self, req: GradRequest<'_>) -> Result<(), Error> {
        N::run_fractal_grad(self, req)
    }
}

/// One octave's pass over a block of grid samples: folds its `values` (in
/// `acc` itself for the first octave, `None`) into the sums in `acc`.
struct FoldRows<'a> {
    shape: Shape,
    first: bool,
    amplitude: f32,
    acc: &'a mut [f32],
    values: Option<&'a [f32]>,
    /// Ridged's weights, indexed like `acc` (empty for the other folds).
    weight: &'a mut [f32],
}

impl Job for FoldRows<'_> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        // The fold is a constant of each loop.
        macro_rules! by_shape {
            ($($shape:ident),+) => {
                match self.shape {
                    $(Shape::$shape => fold_rows::<S, { Shape::$shape as u8 }>(s, self),)+
                }
            };
        }
        by_shape!(Fbm, Billow, Ridged, Turbulence, Marble);
    }
}

/// [`FoldRows`] for the fold `Shape::ALL[SHAPE]`: whole vectors, then the
/// tail padded through the same pack.
#[cfg_attr(not(debug_assertions), inline(always))]
fn fold_rows<S: Simd, const SHAPE: u8>(s: S, job: FoldRows<'_>) {
    let shape = Shape::ALL[SHAPE as usize];
    let ridged = shape == Shape::Ridged;
    let (first, amplitude) = (job.first, job.amplitude);
    // One pack: `v` the octave's values, `acc` the sums so far, `w` the
    // ridged weights (ignored by the other folds).
    let fold_pack = |v: S::F, acc: S::F, w: &mut S::F| fold(s, shape, first, amplitude, acc, w, v);
    let n = S::LANES;
    let len = job.acc.len();
    let whole = len - len % n;
    let (acc_body, acc_tail) = job.acc.split_at_mut(whole);
    let mut w = s.splat(1.0);
    for (k, dst) in acc_body.chunks_exact_mut(n).enumerate() {
        let at = k * n;
        let acc = s.load(dst);
        let v = match job.values {
            Some(values) => s.load(&values[at..at + n]),
            None => acc,
        };
        if ridged {
            w = s.load(&job.weight[at..at + n]);
        }
        let sum = fold_pack(v, acc, &mut w);
        if ridged {
            s.store(w, &mut job.weight[at..at + n]);
        }
        s.store(sum, dst);
    }
    if !acc_tail.is_empty() {
        let acc = load_padded(s, acc_tail, 0);
        let v = match job.values {
            Some(values) => load_padded(s, values, whole),
            None => acc,
        };
        if ridged {
            w = load_padded(s, job.weight, whole);
        }
        let sum = fold_pack(v, acc, &mut w);
        if ridged {
            store_pack(s, w, &mut job.weight[whole..]);
        }
        store_pack(s, sum, acc_tail);
    }
}

/// A block's last pass: the fold's final map ([`finish`]) on the sums in
/// `dst`, rows of `nx` samples.
struct FinishRows<'a> {
    shape: Shape,
    settings: &'a Settings,
    norm: (f32, f32),
    /// Each row's x coordinates (Marble only; empty otherwise).
    xs: &'a [f32],
    dst: &'a mut [f32],
    nx: usize,
}

impl Job for FinishRows<'_> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let n = S::LANES;
        for row in self.dst.chunks_mut(self.nx) {
            for (k, dst) in row.chunks_mut(n).enumerate() {
                let x = if self.xs.is_empty() {
                    s.splat(0.0)
                } else {
                    s.load(&self.xs[k * n..k * n + n])
                };
                let v = load_padded(s, dst, 0);
                let v = finish(s, self.settings, self.shape, self.norm, v, x);
                store_pack(s, v, dst);
            }
        }
    }
}

/// One public combinator: a newtype over [`Fractal`] with builder methods.
macro_rules! combinator {
    ($(#[$doc:meta])* $ty:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $ty<N>(Fractal<N>);

        impl<N: Source> $ty<N> {
            /// The combinator over `source` with 6 octaves, lacunarity 2,
            /// persistence ½, not normalised, at the source's level.
            pub fn new(source: N) -> $ty<N> {
                $ty(Fractal::new(source, Shape::$ty))
            }

            /// Sums `octaves` octaves (1..=32; others make [`Source::check`]
            /// and every batch call return [`Error::InvalidOctaves`];
            /// [`try_octaves`](Self::try_octaves) returns it here).
            pub fn octaves(mut self, octaves: u32) -> $ty<N> {
                self.0.settings.octaves = octaves;
                self.0.derive();
                self
            }

            /// Frequency ratio between octaves (finite; a whole number over a
            /// periodic source).
            pub fn lacunarity(mut self, lacunarity: f32) -> $ty<N> {
                self.0.settings.lacunarity = lacunarity;
                self.0.derive();
                self
            }

            /// Amplitude ratio between octaves (finite).
            pub fn persistence(mut self, persistence: f32) -> $ty<N> {
                self.0.settings.persistence = persistence;
                self.0.derive();
                self
            }

            /// [`octaves`](Self::octaves), rejecting a bad count at once:
            /// Err([`Error::InvalidOctaves`]) outside 1..=32 (or an error
            /// an earlier setter left, as [`Source::check`] reports it).
            pub fn try_octaves(self, octaves: u32) -> Result<$ty<N>, Error> {
                self.octaves(octaves).checked()
            }

            /// [`lacunarity`](Self::lacunarity), rejecting a bad value at
            /// once: Err([`Error::NonFiniteParameter`]) when not finite,
            /// Err([`Error::PeriodicLacunarity`]) when not whole over a
            /// periodic source, Err([`Error::FractalOverflow`]) when an
            /// octave's frequency overflows `f32`.
            pub fn try_lacunarity(self, lacunarity: f32) -> Result<$ty<N>, Error> {
                self.lacunarity(lacunarity).checked()
            }

            /// [`persistence`](Self::persistence), rejecting a bad value at
            /// once: Err([`Error::NonFiniteParameter`]) when not finite,
            /// Err([`Error::FractalOverflow`]) when an octave's amplitude or
            /// the output bounds overflow `f32`.
            pub fn try_persistence(self, persistence: f32) -> Result<$ty<N>, Error> {
                self.persistence(persistence).checked()
            }

            /// `self`, or the error [`Source::check`] finds in it.
            fn checked(self) -> Result<$ty<N>, Error> {
                Source::check(&self).map(|()| self)
            }

            /// Maps the output from [`Source::bounds`]'s raw interval onto
            /// [−1, 1] when `on`.
            pub fn normalize(mut self, on: bool) -> $ty<N> {
                self.0.settings.normalize = on;
                self.0.derive();
                self
            }

            /// The same field computed at `level` (the source's level is
            /// set too).
            ///
            /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
            pub fn with_level(self, level: Level) -> Result<$ty<N>, Error> {
                crate::field::at_level(self.0, level).map($ty)
            }

            /// The level the batch methods run at.
            pub fn level(&self) -> Level {
                self.0.level
            }

            /// The source the octaves sample.
            pub fn source(&self) -> &N {
                &self.0.source
            }

            /// The octave count set (valid or not).
            pub fn octave_count(&self) -> u32 {
                self.0.settings.octaves
            }
        }

        crate::field::forward_field!(impl[N: Source] $ty<N>, Fractal<N>);
    };
}

combinator!(
    /// Fractal Brownian motion: `Σ persistenceⁱ · source(c · lacunarityⁱ + oᵢ)`.
    /// The seeds' "octaves": detail at every scale. Also [`crate::Differentiable`]
    /// when its source is.
    ///
    /// ```
    /// use noisefield::prelude::*;
    /// use noisefield::{Fbm, Perlin};
    /// let fbm = Fbm::new(Perlin::new(7)).octaves(6).lacunarity(2.0).persistence(0.5);
    /// let v = fbm.noise([0.3, 1.7, 2.2]);
    /// let (lo, hi) = fbm.bounds(3);
    /// assert!(lo <= v && v <= hi);
    /// assert!(Fbm::new(Perlin::new(7)).octaves(0).check().is_err());
    ///
    /// // Or rejected as the combinator is built:
    /// let built = Fbm::new(Perlin::new(7)).try_octaves(40);
    /// assert_eq!(built.unwrap_err(), noisefield::Error::InvalidOctaves(40));
    /// let fbm = Fbm::new(Perlin::new(7)).try_octaves(6)?.try_persistence(0.5)?;
    /// assert_eq!(fbm.octave_count(), 6);
    /// # Ok::<(), noisefield::Error>(())
    /// ```
    Fbm
);
crate::field::forward_grad_field!(impl[N: Source + GradField] Fbm<N>);

combinator!(
    /// Billowy noise: `Σ aᵢ·(2·|nᵢ| − 1)`: rounded puffs with creases
    /// between them (clouds, rolling hills).
    Billow
);

combinator!(
    /// Ridged multifractal (Musgrave): `Σ aᵢ·sᵢ` with `sᵢ = (1 − |nᵢ|)²·wᵢ`
    /// and each octave weighted by the previous one's signal
    /// (`wᵢ₊₁ = clamp(2·sᵢ, 0, 1)`): sharp ridges, smooth valleys
    /// (mountain ranges). Raw output is in `[0, Σ aᵢ]`.
    Ridged
);

combinator!(
    /// Turbulence (Perlin 1985): `Σ aᵢ·|nᵢ|`, non-negative, with creases
    /// where each octave crosses zero (fire, smoke).
    Turbulence
);

combinator!(
    /// Marble (Perlin 1985): `sin(stripes·x + power·Σ aᵢ·|nᵢ|)`: stripes
    /// along x bent by turbulence. Output in [−1, 1].
    Marble
);

impl<N: Source> Marble<N> {
    /// How strongly turbulence bends the stripes (default 4; finite).
    pub fn power(mut self, power: f32) -> Marble<N> {
        self.0.settings.power = power;
        self.0.derive();
        self
    }

    /// Stripe frequency along x, in radians per unit (default 1; finite).
    pub fn stripes(mut self, stripes: f32) -> Marble<N> {
        self.0.settings.stripes = stripes;
        self.0.derive();
        self
    }
}
