//! `Simplex` noise, 1 to 32 dimensions: the definition against a scalar
//! oracle written from the docs (`f32` and `f64` points), every level
//! against Scalar on adversarial inputs, derivatives against finite
//! differences, continuity across simplex boundaries, the bound (never
//! passed, and reached), isotropy, grids, windows and threads, fractals
//! and recipes over it, and the typed errors (periods, dimensions).

use crate::common::{adversarial, levels};
use crate::dimensions::{bits, corner_hash, emulated, fill_dyn, seed_key, slices, stream};
use noisefield::prelude::*;
use noisefield::{DynSource, Error, Fbm, Grid, Level, MAX_SIMPLEX_DIMENSIONS, Recipe, Simplex};

// ------------------------------------------------------------------ oracle

/// `(F, G)`: skew `(√(D+1) − 1)/D` and unskew `(1 − 1/√(D+1))/D`.
fn factors(d: usize) -> (f64, f64) {
    let root = ((d + 1) as f64).sqrt();
    ((root - 1.0) / d as f64, (1.0 - 1.0 / root) / d as f64)
}

/// The documented normalisation: `1 / (envelope · (1 + 10⁻⁶))`, the
/// envelope searched for 1D to 7D (unit gradients in 2D to 4D) and
/// `(4/9)⁴·√(D/18)` from 8D on.
fn scale(d: usize) -> f32 {
    const SEARCHED: [f64; 7] = [
        0.013_983_312_811_550_375,
        0.010_080_204_702_811_43,
        0.009_289_062_925_455_898,
        0.009_210_831_906_368_898,
        0.020_569_205_712_531_25,
        0.022_527_853_504_479_403,
        0.024_332_295_566_490_136,
    ];
    let envelope = if d <= 7 {
        SEARCHED[d - 1]
    } else {
        (4.0f64 / 9.0).powi(4) * (d as f64 / 18.0).sqrt()
    };
    (1.0 / (envelope * (1.0 + 1e-6))) as f32
}

/// The skewed point's cells and offsets, as stage 1 makes them.
struct Skewed {
    cells: Vec<u32>,
    offsets: Vec<f32>,
}

fn cell(floored: f64) -> u32 {
    floored.rem_euclid(4_294_967_296.0) as u32
}

/// Stage 1 of `f32` points: the skew summed left to right in `f32`, each
/// skewed coordinate clamped to the finite range.
fn skew_f32(p: &[f32]) -> Skewed {
    let f = factors(p.len()).0 as f32;
    let sum = p[1..].iter().fold(p[0], |s, &x| s + x);
    let skew = sum * f;
    let xs: Vec<f32> = p
        .iter()
        .map(|&x| (x + skew).clamp(-f32::MAX, f32::MAX))
        .collect();
    Skewed {
        cells: xs.iter().map(|x| cell(f64::from(x.floor()))).collect(),
        offsets: xs.iter().map(|x| x - x.floor()).collect(),
    }
}

/// Stage 1 of `f64` points: the skew in `f64`, offsets rounded to `f32`
/// (at most the largest `f32` below 1).
fn skew_f64(p: &[f64]) -> Skewed {
    let f = factors(p.len()).0;
    let sum = p[1..].iter().fold(p[0], |s, &x| s + x);
    let skew = sum * f;
    let xs: Vec<f64> = p
        .iter()
        .map(|&x| (x + skew).clamp(-f64::MAX, f64::MAX))
        .collect();
    Skewed {
        cells: xs.iter().map(|x| cell(x.floor())).collect(),
        offsets: xs
            .iter()
            .map(|x| ((x - x.floor()) as f32).min(1.0 - f32::EPSILON / 2.0))
            .collect(),
    }
}

/// The gradient of a corner with hash `h` in `d` dimensions: 2D one of 16
/// unit vectors at (i + ½)·22.5°, i the top 4 bits; 3D and 4D the unit
/// vector of entry i (the top 4 bits) times −1 where bit 27 is set (3D:
/// the cube's 6 edge directions twice, then its 4 body diagonals; 4D: axis
/// `i >> 2` zero, the other three ±1 with the first two negative by bits 0
/// and 1 of i); otherwise component `a` is −1 where bit `32 − d + a` is
/// set, else 1.
fn gradient(h: u32, d: usize) -> Vec<f32> {
    if d == 2 {
        let angle = ((h >> 28) as f64 + 0.5) * std::f64::consts::PI / 8.0;
        return vec![angle.cos() as f32, angle.sin() as f32];
    }
    if d == 3 || d == 4 {
        let i = (h >> 28) as usize;
        let sign = if h >> 27 & 1 == 1 { -1.0f32 } else { 1.0 };
        let direction: Vec<f64> = if d == 3 {
            let edges = [
                [1., 1., 0.],
                [1., -1., 0.],
                [1., 0., 1.],
                [1., 0., -1.],
                [0., 1., 1.],
                [0., 1., -1.],
            ];
            let bodies = [[1., 1., 1.], [1., 1., -1.], [1., -1., 1.], [-1., 1., 1.]];
            if i < 12 {
                edges[i % 6].to_vec()
            } else {
                bodies[i - 12].to_vec()
            }
        } else {
            let mut k = 0;
            (0..4)
                .map(|a| {
                    if a == i >> 2 {
                        return 0.0;
                    }
                    k += 1;
                    if k <= 2 && i >> (k - 1) & 1 == 1 {
                        -1.0
                    } else {
                        1.0
                    }
                })
                .collect()
        };
        let length = direction.iter().map(|c| c * c).sum::<f64>().sqrt();
        return direction
            .iter()
            .map(|c| (c / length) as f32 * sign)
            .collect();
    }
    (0..d)
        .map(|a| {
            if h >> (32 - d + a) & 1 == 1 {
                -1.0
            } else {
                1.0
            }
        })
        .collect()
}

/// Simplex noise from its definition (the `Simplex` docs and the kernel's
/// module docs): ranks by offset (ties to the lower axis), corner `k` the
/// cell plus one along the `k` axes of lowest rank, each corner's
/// `max(0, ½ − |d|²)⁴ · (g·d)` summed in corner order, times the scale.
fn oracle(seed: u64, s: &Skewed) -> f32 {
    let d = s.offsets.len();
    let o = &s.offsets;
    if o.iter().any(|v| !v.is_finite()) {
        return f32::NAN;
    }
    let g64 = factors(d).1;
    let g = g64 as f32;
    let rank: Vec<usize> = (0..d)
        .map(|a| {
            (0..a).filter(|&b| o[b] >= o[a]).count() + (a + 1..d).filter(|&b| o[b] > o[a]).count()
        })
        .collect();
    let shift = o[1..].iter().fold(o[0], |s, &x| s + x) * g;
    let u: Vec<f32> = o.iter().map(|&x| x - shift).collect();
    let key = seed_key(seed);
    let mut value = 0.0f32;
    for k in 0..=d {
        let shifted = (k as f64 * g64) as f32;
        let step = |a: usize| if rank[a] < k { 1u32 } else { 0 };
        let offset: Vec<f32> = (0..d).map(|a| (u[a] - step(a) as f32) + shifted).collect();
        let corner: Vec<u32> = (0..d).map(|a| s.cells[a].wrapping_add(step(a))).collect();
        // The lattice's corner hash, mixed once more.
        let h = corner_hash(key, &corner);
        let h = (h ^ (h >> 13)).wrapping_mul(0xC2B2_AE35);
        let grad = gradient(h, d);
        let r2 = offset.iter().fold(0.0f32, |r, x| r + x * x);
        let dot = (1..d).fold(grad[0] * offset[0], |v, a| v + grad[a] * offset[a]);
        let t = (0.5 - r2).max(0.0);
        value += (t * t) * (t * t) * dot;
    }
    value * scale(d)
}

fn points(dims: usize, n: usize, span: f32) -> Vec<Vec<f32>> {
    (0..dims)
        .map(|a| stream(n, a as u64 * 11 + 5, span))
        .collect()
}

fn fill_f64_dyn(s: &DynSource, c: &[Vec<f64>]) -> Vec<f32> {
    let mut out = vec![f32::from_bits(0x7fc0_dead); c[0].len()];
    s.fill_f64_dyn(&slices(c), &mut out).unwrap();
    out
}

fn widen(c: &[Vec<f32>]) -> Vec<Vec<f64>> {
    c.iter()
        .map(|a| a.iter().map(|&v| f64::from(v)).collect())
        .collect()
}

// ------------------------------------------------------------------- tests

/// `f32` and `f64` batches equal the definition bit for bit at every
/// level, in 1 to 32 dimensions, near the origin and at large cells.
#[test]
fn simplex_follows_its_definition() {
    let dimensions: &[usize] = if emulated() {
        &[1, 2, 3, 4, 7, 16, 32]
    } else {
        &[1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32]
    };
    for &dims in dimensions {
        for span in [3.0f32, 1e6] {
            let c = points(dims, 200, span);
            // Shifted by a fraction so the f64 points are not f32 ones.
            let wide: Vec<Vec<f64>> = widen(&c)
                .into_iter()
                .map(|a| a.into_iter().map(|v| v + 1.0 / 3.0).collect())
                .collect();
            for level in levels() {
                let s = DynSource::new(Simplex::new(99).with_level(level).unwrap());
                let (narrow, broad) = (fill_dyn(&s, &c), fill_f64_dyn(&s, &wide));
                for i in 0..c[0].len() {
                    let p: Vec<f32> = c.iter().map(|a| a[i]).collect();
                    let want = oracle(99, &skew_f32(&p));
                    assert_eq!(
                        narrow[i].to_bits(),
                        want.to_bits(),
                        "{dims}D {level:?} at {p:?}: {} vs {want}",
                        narrow[i]
                    );
                    let q: Vec<f64> = wide.iter().map(|a| a[i]).collect();
                    let want = oracle(99, &skew_f64(&q));
                    assert_eq!(
                        broad[i].to_bits(),
                        want.to_bits(),
                        "{dims}D f64 {level:?} at {q:?}: {} vs {want}",
                        broad[i]
                    );
                }
            }
        }
    }
}

/// Adversarial inputs (lattice points, ±0, NaN, ±inf, 1e30, subnormals)
/// in 2, 3, 4, 7, 16 and 32 dimensions: every level gives Scalar's bits,
/// for simplex noise and fBm over it, and NaN or ±inf anywhere gives the
/// canonical NaN; finite inputs give finite values.
#[test]
fn every_level_equals_scalar_on_adversarial_inputs() {
    let t = adversarial();
    for dims in [2usize, 3, 4, 7, 16, 32] {
        let n = t.len() * 3;
        let c: Vec<Vec<f32>> = (0..dims)
            .map(|a| (0..n).map(|i| t[(i * (a + 1) + a * 5) % t.len()]).collect())
            .collect();
        let sources = [
            DynSource::new(Simplex::new(5)),
            DynSource::new(Fbm::new(Simplex::new(7)).octaves(3)),
        ];
        for source in sources {
            let scalar = fill_dyn(&source.clone().with_level(Level::Scalar).unwrap(), &c);
            for (i, v) in scalar.iter().enumerate() {
                if c.iter().any(|a| !a[i].is_finite()) {
                    assert_eq!(v.to_bits(), f32::NAN.to_bits(), "{dims}D {source:?} {i}");
                } else {
                    assert!(v.is_finite(), "{dims}D {source:?} {i}: {v}");
                }
            }
            for level in levels() {
                let out = fill_dyn(&source.clone().with_level(level).unwrap(), &c);
                assert_eq!(bits(&out), bits(&scalar), "{dims}D {source:?} at {level:?}");
            }
        }
    }
}

/// One point, batches, the static and run-time faces agree; `fill` and
/// `fill_f64` differ only by the skew's rounding.
#[test]
fn points_and_batches_agree() {
    fn check<const D: usize>() {
        let s = Simplex::new(3);
        let c = points(D, 257, 40.0);
        let arrays: [&[f32]; D] = std::array::from_fn(|a| c[a].as_slice());
        let mut a = vec![0.0f32; 257];
        s.fill(arrays, &mut a).unwrap();
        assert_eq!(bits(&a), bits(&fill_dyn(&DynSource::new(s.clone()), &c)));
        let wide = widen(&c);
        let wides: [&[f64]; D] = std::array::from_fn(|k| wide[k].as_slice());
        let mut b = vec![0.0f32; 257];
        s.fill_f64(wides, &mut b).unwrap();
        for i in 0..257 {
            let q: [f32; D] = std::array::from_fn(|k| c[k][i]);
            assert_eq!(s.noise(q).to_bits(), a[i].to_bits(), "{D}D noise at {q:?}");
            let (v, _) = s.noise_grad(q);
            assert_eq!(v.to_bits(), a[i].to_bits(), "{D}D noise_grad at {q:?}");
            assert!((a[i] - b[i]).abs() < 2e-4, "{D}D fill vs fill_f64 at {q:?}");
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<6>();
    check::<11>();
}

/// Analytic derivatives against central differences of the `f64` path.
#[test]
fn derivatives_match_finite_differences() {
    for dims in [1usize, 2, 3, 4, 5, 8, 13] {
        let s = DynSource::differentiable(Simplex::new(17));
        let n = 400;
        let c = points(dims, n, 3.0);
        let mut value = vec![0.0f32; n];
        let mut grads = vec![vec![0.0f32; n]; dims];
        {
            let mut g: Vec<&mut [f32]> = grads.iter_mut().map(Vec::as_mut_slice).collect();
            s.fill_grad_dyn(&slices(&c), &mut value, &mut g).unwrap();
        }
        assert_eq!(bits(&value), bits(&fill_dyn(&s, &c)), "{dims}D value");
        let h = 1e-3;
        let mut largest = 0.0f64;
        for (a, grad) in grads.iter().enumerate() {
            let moved = |sign: f64| {
                let mut w = widen(&c);
                for x in &mut w[a] {
                    *x += sign * h;
                }
                fill_f64_dyn(&s, &w)
            };
            let (plus, minus) = (moved(1.0), moved(-1.0));
            for i in 0..n {
                let fd = (f64::from(plus[i]) - f64::from(minus[i])) / (2.0 * h);
                let g = f64::from(grad[i]);
                largest = largest.max(g.abs());
                assert!(
                    (fd - g).abs() <= 1e-2 + 2e-3 * g.abs(),
                    "{dims}D axis {a} point {i}: analytic {g}, central difference {fd}"
                );
            }
        }
        // From 8D on most points sit beyond every corner's reach (the
        // Simplex docs): fewer derivatives are large.
        let least = if dims <= 8 { 0.5 } else { 0.05 };
        assert!(
            largest > least,
            "{dims}D: derivatives all near 0 ({largest})"
        );
    }
}

/// Value and gradient have no jumps: along segments that cross many
/// simplices, the second difference of the values (and of the gradients)
/// stays at the size smoothness gives, far below what a corner reaching
/// past its simplex would leave (a falloff radius² of 0.6 instead of 0.5
/// jumps by about 10⁻³ in value and 10⁻¹ in gradient).
#[test]
fn value_and_gradient_are_continuous_across_simplex_boundaries() {
    let steps = if emulated() { 4_000 } else { 40_000 };
    for dims in [2usize, 3, 4, 6] {
        let s = DynSource::differentiable(Simplex::new(23));
        for segment in 0..4u64 {
            let start = stream(dims, 100 + segment, 5.0);
            let direction = stream(dims, 200 + segment, 1.0);
            let length = direction.iter().map(|v| v * v).sum::<f32>().sqrt();
            let step = 5e-5 / length;
            let c: Vec<Vec<f32>> = (0..dims)
                .map(|a| {
                    (0..steps)
                        .map(|i| start[a] + direction[a] * step * i as f32)
                        .collect()
                })
                .collect();
            let mut value = vec![0.0f32; steps];
            let mut grads = vec![vec![0.0f32; steps]; dims];
            {
                let mut g: Vec<&mut [f32]> = grads.iter_mut().map(Vec::as_mut_slice).collect();
                s.fill_grad_dyn(&slices(&c), &mut value, &mut g).unwrap();
            }
            let second = |v: &[f32], i: usize| {
                (f64::from(v[i + 1]) - 2.0 * f64::from(v[i]) + f64::from(v[i - 1])).abs()
            };
            for i in 1..steps - 1 {
                // f32 points along the segment are not evenly spaced to the
                // last bit: the tolerance covers that rounding, not a jump.
                assert!(
                    second(&value, i) < 2e-5,
                    "{dims}D segment {segment} step {i}: value jumps ({})",
                    second(&value, i)
                );
                for (a, g) in grads.iter().enumerate() {
                    assert!(
                        second(g, i) < 5e-3,
                        "{dims}D segment {segment} step {i} axis {a}: gradient jumps ({})",
                        second(g, i)
                    );
                }
            }
        }
    }
}

/// |noise| never passes `bounds(D)`, and the bound is reached within 3%:
/// 1D and 2D by a search over random points; from 3D on at the point
/// `√(1/18)` from a lattice corner along its own gradient (found from the
/// derivative at the corner, where only that corner's gradient acts).
#[test]
fn the_bound_holds_and_is_reached() {
    let s = DynSource::differentiable(Simplex::new(31));
    let dims_list: &[usize] = if emulated() {
        &[1, 2, 3, 5, 16, 32]
    } else {
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 24, 32]
    };
    for &dims in dims_list {
        let (lo, hi) = s.bounds(dims);
        assert_eq!((lo, hi), (-1.0 - 1e-5, 1.0 + 1e-5), "{dims}D bounds");
        let n = if emulated() { 20_000 } else { 400_000 };
        let c = points(dims, n, 50.0);
        let out = fill_dyn(&s, &c);
        let mut largest = out.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert!(largest <= hi, "{dims}D: {largest} beyond {hi}");
        if dims >= 3 {
            let g = factors(dims).1;
            for k in 0..200u32 {
                // A lattice corner: integer skewed cells, unskewed.
                let cells: Vec<f64> = (0..dims)
                    .map(|a| f64::from((k * 7 + a as u32 * 13) % 97) - 40.0)
                    .collect();
                let sum: f64 = cells.iter().sum();
                let corner: Vec<f32> = cells.iter().map(|&x| (x - g * sum) as f32).collect();
                let mut grad = vec![0.0f32; dims];
                s.noise_grad_dyn(&corner, &mut grad).unwrap();
                let along = (1.0f32 / 18.0).sqrt() / (dims as f32).sqrt();
                let p: Vec<f32> = corner
                    .iter()
                    .zip(&grad)
                    .map(|(&x, &d)| x + along.copysign(d))
                    .collect();
                let v = s.noise_dyn(&p).unwrap();
                assert!(v.abs() <= hi);
                largest = largest.max(v.abs());
            }
        }
        eprintln!("{dims}D simplex: largest |noise| found {largest} (bound {hi})");
        assert!(largest >= 0.97, "{dims}D: the largest found is {largest}");
    }
}

/// Directional derivatives along axes and diagonals have one variance
/// (within 3%, 10⁶ points, analytic gradients) in 2 to 8 dimensions.
#[test]
fn simplex_is_isotropic_to_second_order() {
    if emulated() {
        eprintln!("simplex isotropy: skipped under emulation (10^6 points; run natively)");
        return;
    }
    let n = 1_000_000;
    for dims in [2usize, 3, 4, 5, 8] {
        let s = DynSource::differentiable(Simplex::new(41));
        let c = points(dims, n, 1000.0);
        let mut value = vec![0.0f32; n];
        let mut grads = vec![vec![0.0f32; n]; dims];
        {
            let mut g: Vec<&mut [f32]> = grads.iter_mut().map(Vec::as_mut_slice).collect();
            s.fill_grad_dyn(&slices(&c), &mut value, &mut g).unwrap();
        }
        let r = 1.0 / (dims as f64).sqrt();
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let mut axis = vec![0.0; dims];
        axis[dims - 1] = 1.0;
        let mut face = vec![0.0; dims];
        face[0] = h;
        face[dims - 1] = -h;
        let main: Vec<f64> = (0..dims).map(|a| if a % 3 == 1 { -r } else { r }).collect();
        let mut variances = Vec::new();
        for (name, u) in [
            ("axis", axis),
            ("face diagonal", face),
            ("main diagonal", main),
        ] {
            let var = (0..n)
                .map(|i| {
                    let d: f64 = (0..dims).map(|a| f64::from(grads[a][i]) * u[a]).sum();
                    d * d
                })
                .sum::<f64>()
                / n as f64;
            eprintln!("{dims}D simplex: directional derivative variance along the {name}: {var}");
            variances.push(var);
        }
        let (lo, hi) = variances
            .iter()
            .fold((f64::MAX, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        assert!(lo > 0.0 && hi / lo < 1.03, "{dims}D: {variances:?}");
    }
}

/// Grids are `fill_f64` at their sample positions, on one thread and on
/// the pool, and windows join into the whole grid (2D, 3D and 5D).
#[test]
fn grids_are_their_points() {
    fn check<const D: usize>(grid: &Grid<D>, split: usize) {
        let s = Simplex::new(9);
        let size = grid.size();
        let n: usize = size.iter().product();
        let mut coords: Vec<Vec<f64>> = (0..D).map(|_| Vec::with_capacity(n)).collect();
        for i in 0..n {
            let mut rest = i;
            for (a, c) in coords.iter_mut().enumerate() {
                c.push(grid.coord(a, rest % size[a]));
                rest /= size[a];
            }
        }
        let points = fill_f64_dyn(&DynSource::new(s.clone()), &coords);
        let mut one = vec![0.0f32; n];
        s.fill_grid(grid, &mut one).unwrap();
        assert_eq!(bits(&one), bits(&points), "{D}D grid");
        if !emulated() {
            let mut many = vec![0.0f32; n];
            s.fill_grid_par(grid, &mut many).unwrap();
            assert_eq!(bits(&many), bits(&points), "{D}D grid on the pool");
        }
        let last = D - 1;
        let mut low_size = size;
        low_size[last] = split;
        let mut high_size = size;
        high_size[last] = size[last] - split;
        let mut high_at = [0; D];
        high_at[last] = split;
        let low = grid.window([0; D], low_size).unwrap();
        let high = grid.window(high_at, high_size).unwrap();
        let cut = n / size[last] * split;
        let mut joined = vec![0.0f32; n];
        let (a, b) = joined.split_at_mut(cut);
        s.fill_grid(&low, a).unwrap();
        s.fill_grid(&high, b).unwrap();
        assert_eq!(bits(&joined), bits(&points), "{D}D windows");
    }
    check(&Grid::new([0.3, -2.0], [0.07, 0.11], [67, 40]), 13);
    check(
        &Grid::new([5.0, 1.0, -3.0], [0.2, 0.3, 0.05], [17, 9, 11]),
        4,
    );
    check(
        &Grid::new(
            [0.3, -2.0, 100.5, 7.0, -0.01],
            [0.37, 0.5, 1.25, 0.01, 3.0],
            [7, 5, 3, 4, 6],
        ),
        2,
    );
}

/// Fractals, operators, warps and recipes take simplex noise; every level
/// gives the same bits.
#[test]
fn composites_over_simplex() {
    let c = points(3, 300, 20.0);
    for recipe in [
        "simplex",
        "simplex(seed=4)",
        "fbm(simplex(seed=2), octaves=5)",
        "ridged(simplex, octaves=3)",
        "scale_bias(simplex, scale=0.5, bias=0.25)",
        "warp(simplex(seed=1), fbm(simplex(seed=2), octaves=2), amplitude=0.5)",
        "add(simplex, perlin)",
    ] {
        let source = recipe.parse::<Recipe>().unwrap().source();
        let scalar = fill_dyn(&source.clone().with_level(Level::Scalar).unwrap(), &c);
        let (lo, hi) = source.bounds(3);
        assert!(scalar.iter().all(|v| (lo..=hi).contains(v)), "{recipe}");
        for level in levels() {
            let out = fill_dyn(&source.clone().with_level(level).unwrap(), &c);
            assert_eq!(bits(&out), bits(&scalar), "{recipe} at {level:?}");
        }
    }
    // The recipe's seed is the library's.
    let by_recipe = fill_dyn(&"simplex(seed=4)".parse::<Recipe>().unwrap().source(), &c);
    let direct = fill_dyn(&DynSource::new(Simplex::new(4)), &c);
    assert_eq!(bits(&by_recipe), bits(&direct));
    // fBm with derivatives over simplex noise: the value is the fill's.
    let fbm = Fbm::new(Simplex::new(2)).octaves(4);
    let (v, g) = fbm.noise_grad([0.3f32, 1.1, -0.7]);
    assert_eq!(v.to_bits(), fbm.noise([0.3f32, 1.1, -0.7]).to_bits());
    assert!(g.iter().all(|g| g.is_finite()) && g.iter().any(|&g| g != 0.0));
}

/// A period, 0 coordinates or more than 32 are typed errors before any
/// work (the output untouched).
#[test]
fn periods_and_dimensions_out_of_range_are_refused() {
    let s = Simplex::new(1);
    assert_eq!(s.clone().with_period([8; 2]), Err(Error::NotPeriodic));
    assert_eq!(s.clone().with_period([8; 4]), Err(Error::NotPeriodic));
    assert!(
        Error::NotPeriodic
            .to_string()
            .contains("simplex noise cannot be periodic")
    );
    for recipe in ["simplex(period=8)", "fbm(simplex(period=[4, 4]))"] {
        let e = recipe.parse::<Recipe>().unwrap_err().to_string();
        assert!(e.contains("cannot be periodic"), "{recipe}: {e}");
    }
    let d = DynSource::new(s);
    let sentinel = f32::from_bits(0x7fc0_dead);
    for dims in [0usize, MAX_SIMPLEX_DIMENSIONS + 1] {
        let c = points(dims.max(1), 10, 3.0);
        let refs: Vec<&[f32]> = (0..dims).map(|a| c[a % c.len()].as_slice()).collect();
        let mut out = vec![sentinel; 10];
        assert_eq!(
            d.fill_dyn(&refs, &mut out),
            Err(Error::InvalidDimension(dims))
        );
        assert!(out.iter().all(|v| v.to_bits() == sentinel.to_bits()));
    }
    let c = points(32, 10, 3.0);
    let mut out = vec![sentinel; 10];
    d.fill_dyn(&slices(&c), &mut out).unwrap();
    assert!(out.iter().all(|v| v.is_finite()));
}
