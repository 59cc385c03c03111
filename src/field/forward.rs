//! Macros that implement `Field` and `GradField` (and the settings methods
//! of `DynField`) for a newtype by forwarding to the field it wraps.

/// The settings methods of [`Field`](super::Field) (and of `DynField`, which has the same
/// ones) for a wrapper that forwards them unchanged to `self.0`.
macro_rules! forward_settings {
    () => {
        fn run_level(&self) -> crate::Level {
            self.0.run_level()
        }
        fn set_level(&mut self, level: crate::Level) {
            self.0.set_level(level)
        }
        fn validate(&self) -> Result<(), crate::Error> {
            self.0.validate()
        }
        fn output_bounds(&self, dimension: usize) -> (f32, f32) {
            self.0.output_bounds(dimension)
        }
        fn period(&self, axis: usize, scale: u64) -> Option<u64> {
            self.0.period(axis, scale)
        }
        fn max_dimension(&self) -> usize {
            self.0.max_dimension()
        }
    };
}
pub(crate) use forward_settings;

/// Implements [`Field`](super::Field) and [`GradField`](super::GradField)
/// for a newtype `$ty($inner)` by forwarding to the inner field.
///
/// `compiled` (for a concrete `$ty`, one of the crate's lattice sources)
/// also runs the fractals over `$ty` by kernels compiled in this crate
/// ([`Field::run_fractal`](super::Field::run_fractal)), once for both
/// lattice kinds: over [`AnyLattice`](crate::sources::lattice::AnyLattice).
macro_rules! forward_field {
    (impl[] $ty:ty, $inner:ty, compiled) => {
        crate::field::forward_field!(impl[] $ty, $inner, {
            // Through `AnyLattice` (a copy of the settings; an `Arc` for a
            // permutation table): its drivers serve `Perlin`, `Value` and
            // the fractals over them, one copy compiled in this crate for
            // both corner kinds.
            fn run(&self, req: crate::field::Request<'_>) -> Result<(), crate::Error> {
                crate::field::run(&crate::sources::lattice::AnyLattice::from(self), req)
            }
            fn run_fractal(
                f: &crate::sources::fractal::Fractal<Self>,
                req: crate::field::Request<'_>,
            ) -> Result<(), crate::Error> {
                crate::field::run(&f.over_any_lattice(), req)
            }
        });
    };
    (impl[$($g:tt)*] $ty:ty, $inner:ty) => {
        crate::field::forward_field!(impl[$($g)*] $ty, $inner, {
            // Written out (not the trait's default) so that a concrete
            // `$ty` runs a copy compiled in this crate.
            fn run(&self, req: crate::field::Request<'_>) -> Result<(), crate::Error> {
                self.0.run(req)
            }
        });
    };
    (impl[$($g:tt)*] $ty:ty, $inner:ty, { $($extra:tt)* }) => {
        impl<$($g)*> crate::field::Field for $ty {
            type Ready<'a, S: crate::simd::Simd>
                = <$inner as crate::field::Field>::Ready<'a, S>
            where
                Self: 'a;
            type Plan = <$inner as crate::field::Field>::Plan;
            type Core = <$inner as crate::field::Field>::Core;

            fn core(&self) -> &Self::Core {
                self.0.core()
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            fn ready<S: crate::simd::Simd>(&self, s: S) -> Self::Ready<'_, S> {
                self.0.ready(s)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval<S: crate::simd::Simd, C: crate::field::PointPack<S, D>, const D: usize>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                c: &C,
                period_scale: u64,
            ) -> S::F
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.eval(r, s, c, period_scale)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval_nd<S: crate::simd::Simd>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                c: crate::field::LaneSlices<'_>,
                period_scale: u64,
            ) -> S::F {
                self.0.eval_nd(r, s, c, period_scale)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn fill_packs<S: crate::simd::Simd, T: crate::field::Input, const D: usize>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                inputs: &[&[T]; D],
                out: &mut [f32],
                period_scale: u64,
            ) where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.fill_packs(r, s, inputs, out, period_scale)
            }
            crate::field::forward_settings!();
            fn plan<const D: usize>(
                &self,
                axes: &[crate::field::GridAxis; D],
                period_scale: u64,
            ) -> Self::Plan
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.plan(axes, period_scale)
            }
            fn fill_rows<const D: usize>(
                &self,
                plan: &Self::Plan,
                axes: &[crate::field::GridAxis; D],
                first_row: usize,
                out: &mut [f32],
                streaming: bool,
            ) where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.fill_rows(plan, axes, first_row, out, streaming)
            }
            fn add_rows<const D: usize>(
                &self,
                plan: &Self::Plan,
                axes: &[crate::field::GridAxis; D],
                first_row: usize,
                out: &mut [f32],
                amplitude: f32,
            ) -> bool
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.add_rows(plan, axes, first_row, out, amplitude)
            }
            $($extra)*
        }
    };
}
pub(crate) use forward_field;

/// Implements [`GradField`](super::GradField) for a newtype `$ty($inner)` by forwarding.
/// `compiled`: see [`forward_field`].
macro_rules! forward_grad_field {
    (impl[] $ty:ty, compiled) => {
        crate::field::forward_grad_field!(impl[] $ty, {
            fn run_grad(&self, req: crate::field::GradRequest<'_>) -> Result<(), crate::Error> {
                crate::field::run_grad(&crate::sources::lattice::AnyLattice::from(self), req)
            }
            fn run_fractal_grad(
                f: &crate::sources::fractal::Fractal<Self>,
                req: crate::field::GradRequest<'_>,
            ) -> Result<(), crate::Error> {
                crate::field::run_grad(&f.over_any_lattice(), req)
            }
        });
    };
    (impl[$($g:tt)*] $ty:ty) => {
        crate::field::forward_grad_field!(impl[$($g)*] $ty, {
            fn run_grad(&self, req: crate::field::GradRequest<'_>) -> Result<(), crate::Error> {
                self.0.run_grad(req)
            }
        });
    };
    (impl[$($g:tt)*] $ty:ty, { $($extra:tt)* }) => {
        impl<$($g)*> crate::field::GradField for $ty {
            type GradCore = <Self as crate::field::Field>::Core;

            fn grad_core(&self) -> &Self::GradCore {
                crate::field::Field::core(self)
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval_grad<S: crate::simd::Simd, C: crate::field::PointPack<S, D>, const D: usize>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                c: &C,
                period_scale: u64,
            ) -> (S::F, [S::F; D])
            where
                crate::kernel::Noise: crate::kernel::Dims<D>,
            {
                self.0.eval_grad(r, s, c, period_scale)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn eval_grad_nd<S: crate::simd::Simd>(
                &self,
                r: &Self::Ready<'_, S>,
                s: S,
                c: crate::field::LaneSlices<'_>,
                period_scale: u64,
                grad: &mut [S::F],
            ) -> S::F {
                self.0.eval_grad_nd(r, s, c, period_scale, grad)
            }
            fn validate_grad(&self) -> Result<(), crate::Error> {
                self.0.validate_grad()
            }
            $($extra)*
        }
    };
}
pub(crate) use forward_grad_field;
