//! Interop with the `noise` crate (noise-rs), behind the `noise` cargo
//! feature, both ways:
//!
//! - Every noisefield source is a `noise::NoiseFn<f64, D>` for D = 1 to 4:
//!   `get(point)` is exactly (widened to `f64`) what `fillD_f64` gives at
//!   that point, NaN when the source is invalid. So noisefield sources plug
//!   into noise-rs's modules (`Displace`, `Select`, `Cache`, its image
//!   builders, …).
//! - [`NoiseFnSource`] makes any `NoiseFn<f64, D>` a [`CustomNoise`], so
//!   `Custom::new(NoiseFnSource::<_, 3>::new(f, bounds))` is a noisefield
//!   source: under `Fbm`, `Warp`, `Combine`, grids on every thread.
//!
//! One macro implements `NoiseFn` for every source type: a new source type
//! is one more line in its list.

use std::fmt;

use noise::NoiseFn;

use crate::field::point_f64;
use crate::{
    Billow, Blend, Combine, Custom, CustomNoise, DynSource, Fbm, Map, Marble, Perlin, Ridged,
    Simplex, Source, Turbulence, Value, Warp,
};

/// `NoiseFn<f64, 1..=4>` for each listed type, through the one-point `f64`
/// path (the bits of `fill_f64`, at every level).
macro_rules! noise_fn {
    ($(impl[$($g:tt)*] $ty:ty;)+) => {$(
        /// 1D: `fill_f64` at the point, widened to `f64` (NaN when invalid).
        impl<$($g)*> NoiseFn<f64, 1> for $ty {
            fn get(&self, point: [f64; 1]) -> f64 {
                f64::from(point_f64(self, point))
            }
        }
        /// 2D: `fill_f64` at the point, widened to `f64` (NaN when invalid).
        impl<$($g)*> NoiseFn<f64, 2> for $ty {
            fn get(&self, point: [f64; 2]) -> f64 {
                f64::from(point_f64(self, point))
            }
        }
        /// 3D: `fill_f64` at the point, widened to `f64` (NaN when invalid).
        impl<$($g)*> NoiseFn<f64, 3> for $ty {
            fn get(&self, point: [f64; 3]) -> f64 {
                f64::from(point_f64(self, point))
            }
        }
        /// 4D: `fill_f64` at the point, widened to `f64` (NaN when invalid).
        impl<$($g)*> NoiseFn<f64, 4> for $ty {
            fn get(&self, point: [f64; 4]) -> f64 {
                f64::from(point_f64(self, point))
            }
        }
    )+};
}

noise_fn! {
    impl[] Perlin;
    impl[] Value;
    impl[] Simplex;
    impl[N: Source] Fbm<N>;
    impl[N: Source] Billow<N>;
    impl[N: Source] Ridged<N>;
    impl[N: Source] Turbulence<N>;
    impl[N: Source] Marble<N>;
    impl[N: Source] Map<N>;
    impl[A: Source, B: Source] Combine<A, B>;
    impl[A: Source, B: Source, C: Source] Blend<A, B, C>;
    impl[N: Source, W: Source] Warp<N, W>;
    impl[U: CustomNoise] Custom<U>;
    impl[] DynSource;
}

/// 2⁶³: coordinates of this magnitude or more have no `isize` cell (the
/// type noise-rs's generators floor into, unchecked).
const ISIZE_RANGE: f64 = 9_223_372_036_854_775_808.0;

/// A noise-rs function (`noise::NoiseFn<f64, D>`) as a [`CustomNoise`]:
/// `Custom::new(NoiseFnSource::<_, D>::new(f, bounds))` is a noisefield
/// source.
///
/// - In `D` dimensions each point is `f.get([x, y, …])`, rounded to `f32`
///   (NaN made canonical).
/// - In fewer dimensions the missing coordinates are 0: a 3D function
///   sampled in 2D is its `z = 0` slice.
/// - In more dimensions every output is NaN (a 2D function has no value at
///   a 3D point).
/// - A point with a non-finite coordinate, or one of magnitude 2⁶³
///   (9.2e18) or more, is NaN without calling `f`: noise-rs's lattice
///   generators convert cells to `isize` and panic there, and a
///   [`CustomNoise`] must accept every `f64` (fractal octaves and warps
///   reach huge coordinates from ordinary inputs such as 1e30).
/// - [`CustomNoise::bounds`] is the interval given at construction, in
///   every dimension (noise-rs has no bounds to ask); it must contain every
///   output, since combinators derive their bounds and normalisation from
///   it. noise-rs's `Perlin` stays within [−1, 1].
/// - noise-rs functions compute in `f64` without SIMD: one `get` call per
///   point. Determinism holds as long as `get` depends only on its point
///   (true of noise-rs's generators; not of a `Cache` shared across
///   threads, say).
///
/// ```
/// use noisefield::{Custom, Fbm, NoiseFnSource, Source};
///
/// let perlin = noise::Perlin::new(7);
/// let source = Custom::new(NoiseFnSource::<_, 3>::new(perlin, (-1.0, 1.0)));
/// let fbm = Fbm::new(source).octaves(4);
/// let mut out = vec![0.0; 2];
/// fbm.fill_f64([&[0.25, 10.5], &[1.5, -3.0], &[0.0, 2.0]], &mut out)?;
///
/// // And back: noisefield sources are NoiseFns (`fill_f64`'s bits).
/// use noise::NoiseFn;
/// let v = noisefield::Perlin::new(3).get([1.5, 2.25, -0.75]);
/// assert_eq!(v, f64::from(noisefield::Perlin::new(3).noise([1.5, 2.25, -0.75])));
/// # Ok::<(), noisefield::Error>(())
/// ```
#[derive(Clone)]
pub struct NoiseFnSource<F, const D: usize> {
    noise: F,
    bounds: (f32, f32),
}

impl<F: NoiseFn<f64, D> + Clone + Send + Sync, const D: usize> NoiseFnSource<F, D> {
    /// `noise` in `D` dimensions (1 to 4), its outputs within `bounds`
    /// (`(lo, hi)`, in every dimension).
    pub fn new(noise: F, bounds: (f32, f32)) -> NoiseFnSource<F, D> {
        NoiseFnSource { noise, bounds }
    }

    /// The noise-rs function.
    pub fn inner(&self) -> &F {
        &self.noise
    }
}

/// The function's type name (noise-rs functions need not be `Debug`).
impl<F, const D: usize> fmt::Debug for NoiseFnSource<F, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NoiseFnSource")
            .field("noise", &std::any::type_name::<F>())
            .field("dimension", &D)
            .field("bounds", &self.bounds)
            .finish()
    }
}

impl<F: NoiseFn<f64, D> + Clone + Send + Sync, const D: usize> CustomNoise for NoiseFnSource<F, D> {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        if points.len() > D {
            out.fill(f32::NAN);
            return;
        }
        for (i, v) in out.iter_mut().enumerate() {
            let mut p = [0.0f64; D];
            for (p, axis) in p.iter_mut().zip(points) {
                *p = axis[i];
            }
            // NaN fails the comparison too.
            *v = if p.iter().all(|c| c.abs() < ISIZE_RANGE) {
                self.noise.get(p) as f32
            } else {
                f32::NAN
            };
        }
    }

    fn bounds(&self, _dimension: usize) -> (f32, f32) {
        self.bounds
    }
}
