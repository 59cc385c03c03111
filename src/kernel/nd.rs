//! Lattice noise in any number of dimensions up to
//! [`MAX_LATTICE_DIMENSIONS`]: one kernel with the dimension a run-time
//! value (compiled once per level and corner kind, not once per dimension),
//! what `Perlin` and `Value` run in 5 dimensions and more.
//!
//! It is the coordinates mode's lattice written for `D` axes:
//! - each corner's hash is the `hash` module's definition over `D` cells
//!   (`key_a(c) = m ^ (m >> a)`, `m = c · PRIME[a]`, `key_0(c) = m`: every
//!   axis its own odd multiplier and shift), so no two cells within 2³² along any axis
//!   share a hash;
//! - gradients are the hypercube's `2^D` diagonals `(±g, …, ±g)`, the sign
//!   of component `a` bit `32 − D + a` of the hash (the rule of 3D and 4D),
//!   with `g = ⌊1024 / D⌋ / 512` ([`diagonal_component`]: 341/512 in 3D, ½ in
//!   4D, as there), so the largest |noise|, `g · D / 2` at a cell's centre,
//!   stays at or just below 1 for every fade; value noise takes the top 24
//!   bits as its height;
//! - the `2^D` corners are visited in index order (bit `a` = far on axis
//!   `a`) and blended along x, then y, …, as in 1D–4D: a corner's partial
//!   blends wait on a stack of one value per axis, so memory stays `O(D)`.
//!
//! Run at 3 or 4 axes it gives the 3D and 4D kernels' bits (a unit test
//! checks it); the cost is `2^D` corners of `O(D)` work each.

use super::axis::splat_part;
use super::hash::{axis_key, finish};
use super::{Axis, CoordinatesMode, HashModeKernel};
use crate::simd::Simd;

/// The most dimensions `Perlin` and `Value` compute: `2^16` corners per
/// point.
pub const MAX_LATTICE_DIMENSIONS: usize = 16;

/// The gradient component magnitude in `dimensions` (3 and up): the largest
/// multiple of 1/512 at most `2 / dimensions`, so that the largest noise,
/// `dimensions / 2` of it, is at most 1.
pub(crate) fn diagonal_component(dimensions: usize) -> f32 {
    (1024 / dimensions.max(3)) as f32 / 512.0
}

/// One pack of lattice noise over `axes` (stage 1 of each axis; their
/// number, 1 to [`MAX_LATTICE_DIMENSIONS`], is the dimension) with seed key
/// `seed`: gradient noise when `sloped`, value noise otherwise. With `grad`
/// (one register per axis; `slopes[a]` the fade's slope at axis `a`'s
/// offset) also the derivatives, by the product rule at each blend as the
/// 1D–4D kernels make them (`stage2::blend_grad`); the value is the same
/// either way. `GRAD` (whether `grad` is given) is a constant: written
/// once, compiled twice, so that the values alone carry none of the
/// derivatives' work (with it a run-time flag, 5D values took 1.4× as long).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn blend_nd<S: Simd, const GRAD: bool>(
    s: S,
    seed: S::UP,
    axes: &[Axis<S, CoordinatesMode>],
    sloped: bool,
    slopes: &[S::F],
    mut grad: Option<&mut [S::F]>,
) -> S::F {
    const MAX: usize = MAX_LATTICE_DIMENSIONS;
    let d = axes.len().clamp(1, MAX);
    let g = diagonal_component(d);
    let with_grad = GRAD;
    let mut out = axes[0].t0;
    let zero = splat_part(s, 0.0);
    // Per axis: the change of key from the lower to the upper cell, the
    // gradient products `(+g·t, −g·t)` at the near and far offsets, the fade
    // and its slope; the halves waiting to be blended along each axis (with
    // their derivatives), and the corner's derivatives and sign bits.
    // Declared once, not per part or corner: with the dimension a run-time
    // value, each fresh array is a store of all its entries.
    let mut flip = [seed; MAX];
    let mut near = [[zero; 2]; MAX];
    let mut far = [[zero; 2]; MAX];
    let mut fade = [zero; MAX];
    let mut slope = [zero; MAX];
    let mut stack = [zero; MAX];
    let mut stack_d = [[zero; MAX]; MAX];
    let mut value_d = [zero; MAX];
    let mut signs = [seed; MAX];
    // A plain loop over the parts (not `for_each_part!`): the corners' work
    // dwarfs a part's selection, and one copy of the body is a quarter of
    // the machine code.
    for k in 0..S::PARTS {
        // The lower cells' keys, xored.
        let mut base = seed;
        let (plus, minus) = (splat_part(s, g), splat_part(s, -g));
        for (a, axis) in axes.iter().enumerate().take(d) {
            let k0 = axis_key(s, s.u32_part(axis.c0, k), a);
            let k1 = axis_key(s, s.u32_part(axis.c1, k), a);
            base = s.xor_u32(base, k0);
            flip[a] = s.xor_u32(k0, k1);
            let (t0, t1) = (s.part(axis.t0, k), s.part(axis.t1, k));
            // `t·(−g)` is the product the 3D and 4D kernels form (not
            // `0 − t·g`, which differs at t = 0 by the zero's sign).
            near[a] = [t0 * plus, t0 * minus];
            far[a] = [t1 * plus, t1 * minus];
            fade[a] = s.part(axis.fade, k);
            if with_grad {
                slope[a] = s.part(slopes[a], k);
            }
        }
        let mut result = zero;
        let mut v = base;
        for i in 0..1usize << d {
            // From corner i − 1 to i, the axes whose bit changes change key.
            let mut changed = if i == 0 { 0 } else { i ^ (i - 1) };
            let mut a = 0;
            while changed != 0 {
                if changed & 1 == 1 {
                    v = s.xor_u32(v, flip[a]);
                }
                changed >>= 1;
                a += 1;
            }
            let h = finish(s, v);
            let mut value = if sloped {
                // Axis a's sign is bit 32 − d + a: the hash doubled
                // d − 1 − a times puts it at the top (opaque, the doubles
                // stay additions).
                signs[d - 1] = s.opaque_up(h);
                for a in (0..d - 1).rev() {
                    signs[a] = s.add_u32(signs[a + 1], signs[a + 1]);
                }
                let at = |a: usize| if i >> a & 1 == 1 { far[a] } else { near[a] };
                let mut dot = s.top2(at(0), signs[0]);
                for (a, &sign) in signs.iter().enumerate().take(d).skip(1) {
                    dot = dot + s.top2(at(a), sign);
                }
                if with_grad {
                    for (dv, &sign) in value_d.iter_mut().zip(&signs).take(d) {
                        *dv = s.top2([plus, minus], sign);
                    }
                }
                dot
            } else {
                // A height: no slope of its own.
                if with_grad {
                    value_d[..d].fill(zero);
                }
                CoordinatesMode::height(s, h)
            };
            // Blend with the waiting halves along each axis whose bit this
            // corner completes; otherwise wait.
            let mut a = 0;
            while a < d && i >> a & 1 == 1 {
                let diff = value - stack[a];
                if with_grad {
                    for (dv, &dl) in value_d.iter_mut().zip(&stack_d[a]).take(d) {
                        *dv = dl + fade[a] * (*dv - dl);
                    }
                    value_d[a] = value_d[a] + slope[a] * diff;
                }
                value = stack[a] + fade[a] * diff;
                a += 1;
            }
            if a == d {
                result = value;
            } else {
                stack[a] = value;
                if with_grad {
                    stack_d[a][..d].copy_from_slice(&value_d[..d]);
                }
            }
        }
        s.set_part(&mut out, k, s.canonical_nan(result));
        if let Some(grad) = grad.as_deref_mut() {
            for (dst, &dv) in grad.iter_mut().zip(&value_d).take(d) {
                s.set_part(dst, k, s.canonical_nan(dv));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::field::{Field, PointsNd, Request, WorkNd, run};
    use crate::kernel::{GradientCorners, ValueCorners};
    use crate::sources::lattice::Lattice;
    use crate::{Fade, Level, Source};

    /// Coordinates that reach every path: lattice points, ±0, the middle of
    /// cells, far cells (beyond 2³¹, where cells wrap), NaN and infinities.
    fn axis_values(axis: usize, n: usize) -> Vec<f32> {
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.5,
            1e9,
            -3e9,
            7e12,
            f32::NAN,
            f32::INFINITY,
            1e-40,
        ];
        let mut state = 0x9E37_79B9u32.wrapping_mul(axis as u32 + 1);
        (0..n)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                if i % 7 == axis % 7 {
                    special[(i / 7 + axis) % special.len()]
                } else {
                    (state as f32 / u32::MAX as f32 - 0.5) * 200.0
                }
            })
            .collect()
    }

    /// Run with 3 or 4 axes (and value noise with 1 to 4), the kernel of
    /// any dimension gives the bits of the 1D–4D kernels, at every level
    /// and fade, `f32` and `f64` points: the same hash, gradients and blend.
    #[test]
    fn at_four_axes_or_fewer_it_is_the_fixed_kernels() {
        fn check<K: crate::kernel::Corners + Default + std::fmt::Debug>(dims: &[usize]) {
            let n = 999;
            for &d in dims {
                let coords: Vec<Vec<f32>> = (0..d).map(|a| axis_values(a, n)).collect();
                let wide: Vec<Vec<f64>> = coords
                    .iter()
                    .map(|c| c.iter().map(|&v| f64::from(v) * 1.5).collect())
                    .collect();
                for fade in [Fade::Quintic, Fade::Cubic, Fade::Cosine] {
                    for level in Level::available() {
                        let mut l = Lattice::<K>::coordinates(1234);
                        l.fade = fade;
                        l.set_level(level);
                        let slices: Vec<&[f32]> = coords.iter().map(Vec::as_slice).collect();
                        let wides: Vec<&[f64]> = wide.iter().map(Vec::as_slice).collect();
                        let (mut fixed, mut any) = (vec![0.0f32; n], vec![0.0f32; n]);
                        let (mut fixed64, mut any64) = (vec![0.0f32; n], vec![0.0f32; n]);
                        match d {
                            1 => l.fill([slices[0]], &mut fixed).unwrap(),
                            2 => l.fill([slices[0], slices[1]], &mut fixed).unwrap(),
                            3 => l
                                .fill([slices[0], slices[1], slices[2]], &mut fixed)
                                .unwrap(),
                            _ => l
                                .fill(std::array::from_fn::<_, 4, _>(|a| slices[a]), &mut fixed)
                                .unwrap(),
                        }
                        match d {
                            1 => l.fill_f64([wides[0]], &mut fixed64).unwrap(),
                            2 => l.fill_f64([wides[0], wides[1]], &mut fixed64).unwrap(),
                            3 => l
                                .fill_f64([wides[0], wides[1], wides[2]], &mut fixed64)
                                .unwrap(),
                            _ => l
                                .fill_f64(
                                    std::array::from_fn::<_, 4, _>(|a| wides[a]),
                                    &mut fixed64,
                                )
                                .unwrap(),
                        }
                        let points = PointsNd::F32(slices.clone());
                        run(&l, Request::Nd(WorkNd::Fill(points, &mut any))).unwrap();
                        let points = PointsNd::F64(wides.clone());
                        run(&l, Request::Nd(WorkNd::Fill(points, &mut any64))).unwrap();
                        for i in 0..n {
                            assert_eq!(
                                fixed[i].to_bits(),
                                any[i].to_bits(),
                                "{d}D {fade:?} {level:?} point {i}: {} vs {}",
                                fixed[i],
                                any[i]
                            );
                            assert_eq!(fixed64[i].to_bits(), any64[i].to_bits(), "{d}D f64 {i}");
                        }
                    }
                }
            }
        }
        check::<GradientCorners>(&[3, 4]);
        check::<ValueCorners>(&[1, 2, 3, 4]);
    }

    /// The same with derivatives: the kernel of any dimension's values and
    /// derivatives at 3 and 4 axes are the 3D and 4D kernels'.
    #[test]
    fn derivatives_at_four_axes_or_fewer_are_the_fixed_kernels() {
        check::<GradientCorners>(&[3, 4]);
        check::<ValueCorners>(&[1, 2, 3, 4]);
    }

    fn check<K: crate::kernel::Corners + Default + std::fmt::Debug>(dims: &[usize]) {
        use crate::Differentiable;
        use crate::field::{GradRequest, GradWorkNd, run_grad};
        let n = 555;
        for &d in dims {
            let coords: Vec<Vec<f32>> = (0..d).map(|a| axis_values(a, n)).collect();
            let slices: Vec<&[f32]> = coords.iter().map(Vec::as_slice).collect();
            for fade in [Fade::Quintic, Fade::Cosine, Fade::Linear] {
                for level in Level::available() {
                    let mut l = Lattice::<K>::coordinates(77);
                    l.fade = fade;
                    l.set_level(level);
                    let mut fixed = vec![vec![0.0f32; n]; d + 1];
                    let mut any = vec![vec![0.0f32; n]; d + 1];
                    {
                        let (out, grad) = fixed.split_first_mut().unwrap();
                        let mut g = grad.iter_mut().map(Vec::as_mut_slice);
                        match d {
                            1 => l.fill_grad([slices[0]], out, [g.next().unwrap()]),
                            2 => l.fill_grad(
                                [slices[0], slices[1]],
                                out,
                                std::array::from_fn(|_| g.next().unwrap()),
                            ),
                            3 => l.fill_grad(
                                [slices[0], slices[1], slices[2]],
                                out,
                                std::array::from_fn(|_| g.next().unwrap()),
                            ),
                            _ => l.fill_grad(
                                [slices[0], slices[1], slices[2], slices[3]],
                                out,
                                std::array::from_fn(|_| g.next().unwrap()),
                            ),
                        }
                        .unwrap();
                    }
                    {
                        let (out, grad) = any.split_first_mut().unwrap();
                        let grad = grad.iter_mut().map(Vec::as_mut_slice).collect();
                        let work = GradWorkNd::Fill(PointsNd::F32(slices.clone()), out, grad);
                        run_grad(&l, GradRequest::Nd(work)).unwrap();
                    }
                    for (a, (x, y)) in fixed.iter().zip(&any).enumerate() {
                        for i in 0..n {
                            assert_eq!(
                                x[i].to_bits(),
                                y[i].to_bits(),
                                "{d}D {fade:?} {level:?} output {a} point {i}: {} vs {}",
                                x[i],
                                y[i]
                            );
                        }
                    }
                }
            }
        }
    }
}
