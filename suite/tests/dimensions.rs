//! Noise in 5 dimensions and more (`Perlin`, `Value` and the fractals over
//! them, up to `MAX_LATTICE_DIMENSIONS`): the definition against a scalar
//! oracle written from the docs, every level against Scalar on adversarial
//! inputs, one point, `f32` and `f64` batches, grids, windows and threads
//! agreeing, zero at lattice points, the bound, isotropy, no repetition,
//! and the typed errors of what is not computed.

use crate::common::{adversarial, levels};
use noisefield::prelude::*;
use noisefield::{
    Combine, DynSource, Error, Fbm, Grid, GridNd, Level, MAX_DIMENSIONS, MAX_LATTICE_DIMENSIONS,
    Perlin, Recipe, Value,
};

/// Under an emulator (CI's aarch64 and AVX-512 runs of the `arch` binary:
/// `NOISEFIELD_EMULATED`) the sweeps take fewer dimensions and points; the
/// native run has them all.
pub(crate) fn emulated() -> bool {
    std::env::var_os("NOISEFIELD_EMULATED").is_some()
}

// ------------------------------------------------------------------ oracle

/// SplitMix64's finaliser.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed key: the high half of SplitMix64's first output.
pub(crate) fn seed_key(seed: u64) -> u32 {
    (mix64(seed.wrapping_add(0x9E37_79B9_7F4A_7C15)) >> 32) as u32
}

/// `PRIME[a]` (`key_a(c) = m ^ (m >> a)`, `m = c · PRIME[a]`, `key_0 = m`):
/// xxHash's primes, then SplitMix64's finaliser of
/// `a · golden`, made odd (the `hash` module docs).
fn multiplier(a: usize) -> u32 {
    const XXHASH: [u32; 4] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F];
    if a < 4 {
        XXHASH[a]
    } else {
        (mix64((a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> 32) as u32 | 1
    }
}

/// The hash of the corner with cells `cells`.
pub(crate) fn corner_hash(key: u32, cells: &[u32]) -> u32 {
    let mut v = key;
    for (a, &c) in cells.iter().enumerate() {
        let m = c.wrapping_mul(multiplier(a));
        v ^= if a == 0 { m } else { m ^ (m >> a) };
    }
    (v ^ (v >> 16)).wrapping_mul(0x1656_67B1)
}

fn quintic(t: f32) -> f32 {
    let t3 = t * t * t;
    1.0f32.min(t3 * (t * (t * 6.0 - 15.0) + 10.0))
}

/// Lattice noise at a finite point (its cells `floor mod 2³²`), from the
/// definition: cells and offsets, every corner's hash, gradient
/// `(±g, …)` by the hash's top `D` bits (value noise: the top 24 bits as a
/// height), blended along x, then y, …
fn oracle(seed: u64, gradient: bool, p: &[f32]) -> f32 {
    let d = p.len();
    let key = seed_key(seed);
    let g = (1024 / d) as f32 / 512.0;
    let cells: Vec<u32> = p.iter().map(|&x| x.floor() as i64 as u32).collect();
    let t0: Vec<f32> = p.iter().map(|&x| x - x.floor()).collect();
    let mut values: Vec<f32> = (0..1usize << d)
        .map(|i| {
            let corner: Vec<u32> = (0..d)
                .map(|a| cells[a].wrapping_add((i >> a & 1) as u32))
                .collect();
            let h = corner_hash(key, &corner);
            if !gradient {
                return (h >> 8) as f32 * (2.0f32 / 16_777_215.0) - 1.0;
            }
            let term = |a: usize| {
                let sign = if h >> (32 - d + a) & 1 == 1 { -g } else { g };
                let t = if i >> a & 1 == 1 { t0[a] - 1.0 } else { t0[a] };
                t * sign
            };
            (1..d).fold(term(0), |v, a| v + term(a))
        })
        .collect();
    for &t in &t0 {
        let f = quintic(t);
        values = values
            .chunks(2)
            .map(|pair| pair[0] + f * (pair[1] - pair[0]))
            .collect();
    }
    values[0]
}

/// Deterministic values in `[-span, span)`: SplitMix64 of `(stream,
/// index)`, so the streams of different axes are independent (streams of
/// one linear congruential generator from different seeds are not: their
/// differences are multiples of one another, and the points lie on planes).
pub(crate) fn stream(n: usize, id: u64, span: f32) -> Vec<f32> {
    let base = id.wrapping_mul(0xD1B5_4A32_D192_ED03);
    (0..n as u64)
        .map(|i| {
            let mut z = base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            ((z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * span
        })
        .collect()
}

fn points(dims: usize, n: usize, span: f32) -> Vec<Vec<f32>> {
    (0..dims)
        .map(|a| stream(n, a as u64 * 7 + 3, span))
        .collect()
}

pub(crate) fn slices<T>(c: &[Vec<T>]) -> Vec<&[T]> {
    c.iter().map(Vec::as_slice).collect()
}

pub(crate) fn fill_dyn(s: &DynSource, c: &[Vec<f32>]) -> Vec<f32> {
    let mut out = vec![f32::from_bits(0x7fc0_dead); c[0].len()];
    s.fill_dyn(&slices(c), &mut out).unwrap();
    out
}

pub(crate) fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|v| v.to_bits()).collect()
}

/// Perlin and value noise in 5 to 8 dimensions equal the definition bit
/// for bit, at every level, near the origin and at large cells.
#[test]
fn noise_in_five_dimensions_and_more_follows_the_definition() {
    for dims in [3, 4, 5, 6, 7, 8] {
        // 1e10: most cells beyond ±2³¹ (wrapped mod 2³²; there every f32
        // is a whole number, so lattice points, and their zeros' signs).
        for span in [3.0f32, 1e6, 1e10] {
            let c = points(dims, 300, span);
            for (gradient, source) in [
                (false, DynSource::new(Value::new(99))),
                (true, DynSource::new(Perlin::new(99))),
            ] {
                for level in levels() {
                    let s = source.clone().with_level(level).unwrap();
                    let out = fill_dyn(&s, &c);
                    for (i, v) in out.iter().enumerate() {
                        let p: Vec<f32> = c.iter().map(|a| a[i]).collect();
                        let want = oracle(99, gradient, &p);
                        assert_eq!(
                            v.to_bits(),
                            want.to_bits(),
                            "{dims}D gradient={gradient} {level:?} at {p:?}: {v} vs {want}"
                        );
                    }
                }
            }
        }
    }
}

/// Adversarial inputs (lattice points, ±0, NaN, ±inf, 1e30, subnormals) in
/// 5, 6, 8 and 12 dimensions: every level gives Scalar's bits, for Perlin,
/// value noise and fBm, and NaN or ±inf anywhere gives the canonical NaN.
#[test]
fn every_level_equals_scalar_in_many_dimensions() {
    let t = adversarial();
    let dimensions: &[usize] = if emulated() {
        &[5, 6, 8]
    } else {
        &[5, 6, 8, 12]
    };
    for &dims in dimensions {
        let n = t.len() * 3;
        let c: Vec<Vec<f32>> = (0..dims)
            .map(|a| (0..n).map(|i| t[(i * (a + 1) + a * 5) % t.len()]).collect())
            .collect();
        let sources = [
            DynSource::new(Perlin::new(5)),
            DynSource::new(Value::new(6)),
            DynSource::new(Fbm::new(Perlin::new(7)).octaves(3)),
        ];
        for source in sources {
            let scalar = fill_dyn(&source.clone().with_level(Level::Scalar).unwrap(), &c);
            for (i, v) in scalar.iter().enumerate() {
                if c.iter().any(|a| !a[i].is_finite()) {
                    assert_eq!(v.to_bits(), f32::NAN.to_bits(), "{dims}D {source:?} {i}");
                }
            }
            for level in levels() {
                let out = fill_dyn(&source.clone().with_level(level).unwrap(), &c);
                assert_eq!(bits(&out), bits(&scalar), "{dims}D {source:?} at {level:?}");
            }
        }
    }
}

/// The static API in 6 and 9 dimensions: one point, `f32` and `f64`
/// batches (equal for `f32` points, fractals too: their octaves are made
/// in `f64` in 5D and more), and the run-time face agree.
#[test]
fn points_batches_and_the_runtime_face_agree() {
    fn check<const D: usize>(p: &DynSource) {
        let c = points(D, 257, 40.0);
        let arrays: [&[f32]; D] = std::array::from_fn(|a| c[a].as_slice());
        let wide: Vec<Vec<f64>> = c
            .iter()
            .map(|a| a.iter().map(|&v| f64::from(v)).collect())
            .collect();
        let wides: [&[f64]; D] = std::array::from_fn(|a| wide[a].as_slice());
        let (mut a, mut b) = (vec![0.0f32; 257], vec![0.0f32; 257]);
        p.fill(arrays, &mut a).unwrap();
        p.fill_f64(wides, &mut b).unwrap();
        assert_eq!(bits(&a), bits(&b), "{D}D fill vs fill_f64");
        assert_eq!(bits(&a), bits(&fill_dyn(&DynSource::new(p.clone()), &c)));
        for i in (0..257).step_by(16) {
            let q: [f32; D] = std::array::from_fn(|k| c[k][i]);
            assert_eq!(p.noise(q).to_bits(), a[i].to_bits(), "{D}D noise at {q:?}");
            let dynamic = DynSource::new(p.clone()).noise_dyn(&q).unwrap();
            assert_eq!(dynamic.to_bits(), a[i].to_bits());
        }
    }
    for p in [
        DynSource::new(Perlin::new(1)),
        DynSource::new(Perlin::new(2).with_fade(noisefield::Fade::Cubic)),
        DynSource::new(Fbm::new(Perlin::new(3)).octaves(5)),
        DynSource::new(noisefield::Ridged::new(Value::new(4)).octaves(3)),
    ] {
        check::<6>(&p);
        check::<9>(&p);
    }
}

/// A 5D grid equals `fill_f64` at its sample positions, on one thread and
/// on the pool, and two windows join into the whole grid.
#[test]
fn grids_in_five_dimensions_are_their_points() {
    let size = [7, 5, 3, 4, 6];
    let grid = Grid::new(
        [0.3, -2.0, 100.5, 7.0, -0.01],
        [0.37, 0.5, 1.25, 0.01, 3.0],
        size,
    );
    let n: usize = size.iter().product();
    let mut coords: Vec<Vec<f64>> = (0..5).map(|_| Vec::with_capacity(n)).collect();
    for i in 0..n {
        let mut rest = i;
        for (a, c) in coords.iter_mut().enumerate() {
            c.push(grid.coord(a, rest % size[a]));
            rest /= size[a];
        }
    }
    for source in [
        DynSource::new(Perlin::new(3)),
        DynSource::new(Fbm::new(Value::new(4)).octaves(4)),
    ] {
        let mut points = vec![0.0f32; n];
        source.fill_f64_dyn(&slices(&coords), &mut points).unwrap();
        let (mut one, mut many) = (vec![0.0f32; n], vec![0.0f32; n]);
        source.fill_grid(&grid, &mut one).unwrap();
        assert_eq!(bits(&one), bits(&points), "{source:?}");
        // The pool needs threads, which the emulated runs' harness lacks.
        if !emulated() {
            source.fill_grid_par(&grid, &mut many).unwrap();
            assert_eq!(bits(&many), bits(&points), "{source:?}");
        }
        // Windows split along the last axis.
        let low = grid.window([0; 5], [7, 5, 3, 4, 2]).unwrap();
        let high = grid.window([0, 0, 0, 0, 2], [7, 5, 3, 4, 4]).unwrap();
        let mut joined = vec![0.0f32; n];
        let (a, b) = joined.split_at_mut(n / 3);
        source.fill_grid(&low, a).unwrap();
        source.fill_grid(&high, b).unwrap();
        assert_eq!(bits(&joined), bits(&points), "{source:?} windows");
    }
}

/// Gradient noise is 0 at every lattice point, in every dimension up to
/// the most it computes.
#[test]
fn lattice_points_are_zero() {
    let most = if emulated() {
        8
    } else {
        MAX_LATTICE_DIMENSIONS
    };
    for dims in 5..=most {
        let n = if dims > 12 { 8 } else { 64 };
        let c: Vec<Vec<f32>> = points(dims, n, 1000.0)
            .into_iter()
            .map(|a| a.into_iter().map(f32::floor).collect())
            .collect();
        let out = fill_dyn(&DynSource::new(Perlin::new(dims as u64)), &c);
        assert!(out.iter().all(|&v| v == 0.0), "{dims}D: {out:?}");
    }
}

/// Random points stay within the stated bound, which is the exact largest
/// value (`g · D / 2`, all corners' gradients pointing at a cell's centre)
/// plus rounding; the oracle reaches it there with those gradients.
#[test]
fn values_stay_within_the_bound() {
    for dims in [5usize, 6, 8, 10] {
        let p = Perlin::new(11);
        let (lo, hi) = p.bounds(dims);
        let g = (1024 / dims) as f32 / 512.0;
        assert_eq!(hi, -lo);
        assert!(
            (hi - g * dims as f32 / 2.0).abs() < 1e-5 && hi <= 1.00001,
            "{dims}D {hi}"
        );
        let n = match (emulated(), dims > 8) {
            (true, _) => 2_000,
            (false, true) => 20_000,
            (false, false) => 100_000,
        };
        let c = points(dims, n, 500.0);
        let out = fill_dyn(&DynSource::new(p.clone()), &c);
        let max = out.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        eprintln!("{dims}D: max |noise| over {n} random points {max}, bound {hi}");
        assert!(max <= hi, "{dims}D: {max} > {hi}");
        assert!(max > 0.1 * hi, "{dims}D: {max}: the search found nothing");
        let value = DynSource::new(Value::new(11));
        assert!(
            fill_dyn(&value, &c)
                .iter()
                .all(|v| v.abs() <= value.bounds(dims).1)
        );
    }
}

/// The variance of the directional derivative (central differences) is the
/// same along an axis, a face diagonal and the main diagonal, within 3%,
/// over 10⁶ random points of 5D noise: the gradients favour no direction.
#[test]
fn five_dimensional_noise_is_isotropic_to_second_order() {
    if emulated() {
        // Level-independent statistics: the native run has them.
        eprintln!("isotropy: skipped under emulation (10^6 points; run natively)");
        return;
    }
    let dims = 5;
    let n = 1_000_000;
    let p = DynSource::new(Perlin::new(21));
    let c = points(dims, n, 1000.0);
    let h: f64 = 1.0 / 256.0;
    let s5 = 1.0 / (dims as f32).sqrt();
    let s2 = std::f32::consts::FRAC_1_SQRT_2;
    let directions: [(&str, [f32; 5]); 3] = [
        ("axis", [0.0, 0.0, 1.0, 0.0, 0.0]),
        ("face diagonal", [s2, 0.0, 0.0, -s2, 0.0]),
        ("main diagonal", [s5, -s5, s5, s5, -s5]),
    ];
    let mut variances = Vec::new();
    for (name, u) in directions {
        // In f64, so each step is exactly `h·u`.
        let moved = |sign: f64| -> Vec<f32> {
            let m: Vec<Vec<f64>> = (0..dims)
                .map(|a| {
                    let step = sign * h * f64::from(u[a]);
                    c[a].iter().map(|&x| f64::from(x) + step).collect()
                })
                .collect();
            let mut out = vec![0.0f32; n];
            p.fill_f64_dyn(&slices(&m), &mut out).unwrap();
            out
        };
        let (plus, minus) = (moved(1.0), moved(-1.0));
        let var = plus
            .iter()
            .zip(&minus)
            .map(|(a, b)| {
                let d = f64::from(a - b) / (2.0 * h);
                d * d
            })
            .sum::<f64>()
            / n as f64;
        eprintln!("5D directional derivative variance along the {name}: {var}");
        variances.push(var);
    }
    let (lo, hi) = variances
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    assert!(hi / lo < 1.03, "{variances:?}");
}

/// Shifting a 6D field by 2^k cells along any axis (and by 2³¹ along two
/// axes at once, where equal per-axis changes of key would cancel) changes
/// more than 99% of its samples.
#[test]
fn six_dimensional_fields_do_not_repeat() {
    let dims = 6;
    let n = 4096;
    // Off every lattice plane: odd multiples of 1/128.
    let c: Vec<Vec<f32>> = points(dims, n, 2000.0)
        .into_iter()
        .map(|a| {
            a.into_iter()
                .map(|v| ((v * 64.0).floor() + 0.5) / 64.0)
                .collect()
        })
        .collect();
    let p = DynSource::new(Perlin::new(8));
    let base = fill_dyn(&p, &c);
    let differing = |moved: &[f32]| {
        moved
            .iter()
            .zip(&base)
            .filter(|(a, b)| a.to_bits() != b.to_bits())
            .count() as f64
            / n as f64
    };
    let mut shifts: Vec<Vec<(usize, f64)>> = Vec::new();
    for axis in 0..dims {
        for k in [256.0, 65536.0, 1_048_576.0] {
            shifts.push(vec![(axis, k)]);
        }
    }
    for (a, b) in [(4, 5), (0, 5), (3, 4)] {
        shifts.push(vec![(a, 2_147_483_648.0), (b, 2_147_483_648.0)]);
    }
    for shift in shifts {
        // f64 points: a shift of 2³¹ cells is exact there.
        let moved: Vec<Vec<f64>> = (0..dims)
            .map(|a| {
                let d: f64 = shift.iter().filter(|s| s.0 == a).map(|s| s.1).sum();
                c[a].iter().map(|&x| f64::from(x) + d).collect()
            })
            .collect();
        let mut out = vec![0.0f32; n];
        p.fill_f64_dyn(&slices(&moved), &mut out).unwrap();
        let d = differing(&out);
        assert!(d > 0.99, "shift {shift:?}: only {d} differ");
    }
}

/// What is not computed is refused with a typed error before any work
/// (nothing written), and a one-point call is NaN.
#[test]
fn what_is_not_computed_is_a_typed_error() {
    let c = points(5, 10, 3.0);
    let sentinel = f32::from_bits(0x7fc0_dead);
    let refuse = |s: DynSource, dims: usize| {
        let c = points(dims, 10, 3.0);
        let mut out = vec![sentinel; 10];
        assert_eq!(
            s.fill_dyn(&slices(&c), &mut out),
            Err(Error::InvalidDimension(dims)),
            "{s:?}"
        );
        assert!(out.iter().all(|v| v.to_bits() == sentinel.to_bits()));
    };
    // Ken's permutation mode is defined in 1D–4D only.
    refuse(DynSource::new(Perlin::reference()), 5);
    refuse(DynSource::new(Fbm::new(Value::permuted(3))), 6);
    // A permutation-mode input makes its operator 1D–4D too.
    refuse(
        DynSource::new(Combine::add(Perlin::new(1), Perlin::reference())),
        5,
    );
    // Past the lattice's and the crate's limits.
    refuse(DynSource::new(Perlin::new(1)), MAX_LATTICE_DIMENSIONS + 1);
    refuse(DynSource::new(Perlin::new(1)), MAX_DIMENSIONS + 1);
    assert!(Perlin::reference().noise([0.5f32; 5]).is_nan());
    assert!(Perlin::new(1).noise([0.5f32; 17]).is_nan());
    assert_eq!(
        DynSource::new(Perlin::new(1)).noise_dyn(&[0.5; 17]),
        Err(Error::InvalidDimension(17))
    );
    // Derivatives: the same limits.
    let p = Perlin::reference();
    let mut out = vec![sentinel; 10];
    let mut grads = vec![vec![sentinel; 10]; 5];
    let [g0, g1, g2, g3, g4] = &mut grads[..] else {
        unreachable!()
    };
    let coords: [&[f32]; 5] = std::array::from_fn(|a| c[a].as_slice());
    assert_eq!(
        p.fill_grad(coords, &mut out, [g0, g1, g2, g3, g4]),
        Err(Error::InvalidDimension(5))
    );
    assert!(out.iter().all(|v| v.to_bits() == sentinel.to_bits()));
    assert!(
        grads
            .iter()
            .flatten()
            .all(|v| v.to_bits() == sentinel.to_bits())
    );
    assert!(p.noise_grad([0.5f32; 5]).0.is_nan());
    let (v, d) = Perlin::new(1).noise_grad([0.5f32; 17]);
    assert!(v.is_nan() && d.iter().all(|d| d.is_nan()));
    let p = Perlin::new(1);
    // A fifth coordinate slice of another length is named.
    let mut short = c.clone();
    short[4].pop();
    let mut out = vec![sentinel; 10];
    let e = DynSource::new(p)
        .fill_dyn(&slices(&short), &mut out)
        .unwrap_err();
    assert_eq!(
        e,
        Error::LengthMismatch {
            name: "axis 4",
            expected: 10,
            found: 9
        }
    );
    assert!(e.to_string().contains("axis 4"), "{e}");
    assert!(out.iter().all(|v| v.to_bits() == sentinel.to_bits()));
}

/// Derivatives in 5, 6 and 9 dimensions: the values are `fill`'s bits,
/// every level gives Scalar's, one point gives the batch's, and they match
/// central differences of the noise.
#[test]
#[allow(clippy::needless_range_loop)] // per-axis outputs side by side
fn derivatives_in_many_dimensions() {
    for dims in [5usize, 6, 9] {
        let n = 300;
        let c = points(dims, n, 50.0);
        for source in [
            DynSource::differentiable(Perlin::new(12)),
            DynSource::differentiable(Value::new(13).with_fade(noisefield::Fade::Cosine)),
            DynSource::differentiable(Fbm::new(Perlin::new(14)).octaves(3)),
        ] {
            let grads_at = |s: &DynSource| {
                let mut out = vec![0.0f32; n];
                let mut grad = vec![vec![0.0f32; n]; dims];
                let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
                s.fill_grad_dyn(&slices(&c), &mut out, &mut g).unwrap();
                (out, grad)
            };
            let (values, grad) = grads_at(&source.clone().with_level(Level::Scalar).unwrap());
            assert_eq!(
                bits(&values),
                bits(&fill_dyn(&source, &c)),
                "{dims}D {source:?}"
            );
            for level in levels() {
                let (v, g) = grads_at(&source.clone().with_level(level).unwrap());
                assert_eq!(bits(&v), bits(&values), "{dims}D {source:?} {level:?}");
                for a in 0..dims {
                    assert_eq!(
                        bits(&g[a]),
                        bits(&grad[a]),
                        "{dims}D {source:?} {level:?} d{a}"
                    );
                }
            }
            // Central differences, in f64 so each step is exact.
            let h = 1e-3;
            for a in 0..dims {
                let moved = |sign: f64| {
                    let m: Vec<Vec<f64>> = (0..dims)
                        .map(|b| {
                            let d = if a == b { sign * h } else { 0.0 };
                            c[b].iter().map(|&x| f64::from(x) + d).collect()
                        })
                        .collect();
                    let mut out = vec![0.0f32; n];
                    source.fill_f64_dyn(&slices(&m), &mut out).unwrap();
                    out
                };
                let (plus, minus) = (moved(1.0), moved(-1.0));
                for i in 0..n {
                    let fd = (f64::from(plus[i]) - f64::from(minus[i])) / (2.0 * h);
                    let d = f64::from(grad[a][i]);
                    assert!(
                        (fd - d).abs() < 2e-3 * (1.0 + d.abs()),
                        "{dims}D {source:?} d{a} at point {i}: {d} vs differences {fd}"
                    );
                }
            }
            // One point.
            for i in [0, 17, 299] {
                let p: Vec<f32> = c.iter().map(|a| a[i]).collect();
                let mut d = vec![0.0f32; dims];
                let v = source.noise_grad_dyn(&p, &mut d).unwrap();
                assert_eq!(v.to_bits(), values[i].to_bits());
                let want: Vec<f32> = grad.iter().map(|g| g[i]).collect();
                assert_eq!(bits(&d), bits(&want), "{dims}D {source:?} noise_grad_dyn");
            }
        }
    }
    // The static API, and a grid (positions exact in f32: binary steps).
    let p = Perlin::new(3);
    let q = [0.5f32, -1.25, 2.0625, 7.75, -0.375, 3.5];
    let (v, d) = p.noise_grad(q);
    let mut out = [0.0f32; 1];
    let mut g = [[0.0f32; 1]; 6];
    let [g0, g1, g2, g3, g4, g5] = &mut g;
    let c: [[f32; 1]; 6] = q.map(|x| [x]);
    p.fill_grad(
        std::array::from_fn(|a| &c[a][..]),
        &mut out,
        [g0, g1, g2, g3, g4, g5],
    )
    .unwrap();
    assert_eq!(v.to_bits(), out[0].to_bits());
    assert_eq!(bits(&d), bits(&g.map(|g| g[0])));
    let size = [5, 3, 4, 2, 3];
    let grid = Grid::new(
        [0.25, -3.0, 1.5, 0.0, 9.0],
        [0.125, 0.5, 0.375, 1.25, 0.0625],
        size,
    );
    let n: usize = size.iter().product();
    let mut coords: Vec<Vec<f32>> = (0..5).map(|_| Vec::with_capacity(n)).collect();
    for i in 0..n {
        let mut rest = i;
        for (a, c) in coords.iter_mut().enumerate() {
            c.push(grid.coord(a, rest % size[a]) as f32);
            rest /= size[a];
        }
    }
    let arrays: [&[f32]; 5] = std::array::from_fn(|a| coords[a].as_slice());
    let (mut want, mut got) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (mut wg, mut gg) = (vec![vec![0.0f32; n]; 5], vec![vec![0.0f32; n]; 5]);
    let mut it = wg.iter_mut();
    p.fill_grad(
        arrays,
        &mut want,
        std::array::from_fn(|_| &mut it.next().unwrap()[..]),
    )
    .unwrap();
    let mut it = gg.iter_mut();
    let grad = std::array::from_fn(|_| &mut it.next().unwrap()[..]);
    if emulated() {
        // One thread there (see `grids_in_five_dimensions_are_their_points`).
        p.fill_grid_grad(&grid, &mut got, grad).unwrap();
    } else {
        p.fill_grid_grad_par(&grid, &mut got, grad).unwrap();
    }
    assert_eq!(bits(&got), bits(&want));
    for a in 0..5 {
        assert_eq!(bits(&gg[a]), bits(&wg[a]), "grid d{a}");
    }
}

/// Periods on every axis in 5 dimensions and more: a shift by a whole
/// number of periods along any periodic axis changes no bit (points in
/// `f32` and `f64`, grids, fractals, every level); a shift by one cell
/// changes nearly every value; axes past the array given stay unperiodic.
#[test]
fn periods_apply_to_every_axis_in_many_dimensions() {
    const PERIOD: [u32; 8] = [3, 5, 7, 2, 4, 6, 9, 11];
    let n = if emulated() { 64 } else { 512 };
    let sources = [
        DynSource::new(Perlin::new(5).with_period(PERIOD).unwrap()),
        DynSource::new(
            Value::new(6)
                .with_fade(noisefield::Fade::Cubic)
                .with_period(PERIOD)
                .unwrap(),
        ),
        DynSource::new(Fbm::new(Perlin::new(7).with_period(PERIOD).unwrap()).octaves(3)),
    ];
    for dims in [5, 6, 8] {
        // Coordinates on a 1/64 grid: shifts by whole cells are exact in f32.
        let c: Vec<Vec<f32>> = points(dims, n, 40.0)
            .into_iter()
            .map(|a| {
                a.into_iter()
                    .map(|v| (v * 64.0).floor() / 64.0 + 1.0 / 128.0)
                    .collect()
            })
            .collect();
        for source in &sources {
            for level in levels() {
                let s = source.clone().with_level(level).unwrap();
                let base = fill_dyn(&s, &c);
                for axis in 0..dims {
                    let period = PERIOD[axis] as f32;
                    for (k, expect_same) in [(period, true), (-2.0 * period, true), (1.0, false)] {
                        let mut moved = c.clone();
                        moved[axis].iter_mut().for_each(|v| *v += k);
                        let out = fill_dyn(&s, &moved);
                        let same = out
                            .iter()
                            .zip(&base)
                            .filter(|(a, b)| a.to_bits() == b.to_bits());
                        let same = same.count();
                        if expect_same {
                            assert_eq!(same, n, "{s:?} {dims}D axis {axis} shift {k} {level:?}");
                        } else {
                            assert!(
                                same < n / 4,
                                "{s:?} {dims}D axis {axis}: {same} of {n} unmoved"
                            );
                        }
                        // f64 points give the f32 points' bits here too.
                        let wide: Vec<Vec<f64>> = moved
                            .iter()
                            .map(|a| a.iter().map(|&v| f64::from(v)).collect())
                            .collect();
                        let mut out64 = vec![0.0f32; n];
                        s.fill_f64_dyn(&slices(&wide), &mut out64).unwrap();
                        if expect_same {
                            assert_eq!(bits(&out64), bits(&base), "{s:?} f64 axis {axis}");
                        }
                    }
                }
            }
        }
    }
    // A 6D grid spanning whole periods on every axis joins its neighbour.
    let size = [6, 10, 7, 4, 8, 6];
    let p = Perlin::new(9).with_period(PERIOD).unwrap();
    let step: [f64; 6] = std::array::from_fn(|a| f64::from(PERIOD[a]) / size[a] as f64);
    let samples: usize = size.iter().product();
    let (mut here, mut there) = (vec![0.0f32; samples], vec![0.0f32; samples]);
    p.fill_grid(&Grid::new([0.1; 6], step, size), &mut here)
        .unwrap();
    let moved: [f64; 6] = std::array::from_fn(|a| 0.1 + f64::from(PERIOD[a]) * (a as f64 - 2.0));
    p.fill_grid(&Grid::new(moved, step, size), &mut there)
        .unwrap();
    assert_eq!(bits(&here), bits(&there));
    // Past the periods given, an axis is unperiodic: [8; 4] in 6D.
    let short = DynSource::new(Perlin::new(5).with_period([8; 4]).unwrap());
    let c: Vec<Vec<f32>> = points(6, n, 40.0)
        .into_iter()
        .map(|a| {
            a.into_iter()
                .map(|v| (v * 64.0).floor() / 64.0 + 1.0 / 128.0)
                .collect()
        })
        .collect();
    let base = fill_dyn(&short, &c);
    for axis in 0..6 {
        let mut moved = c.clone();
        moved[axis].iter_mut().for_each(|v| *v += 8.0);
        let same = fill_dyn(&short, &moved)
            .iter()
            .zip(&base)
            .filter(|(a, b)| a.to_bits() == b.to_bits())
            .count();
        match axis {
            0..4 => assert_eq!(same, n, "axis {axis}"),
            _ => assert!(same < n / 4, "axis {axis}: {same} unmoved"),
        }
    }
    // The periods as set, and what is refused.
    let p = Perlin::new(1).with_period([4, 5, 6, 7, 8, 9]).unwrap();
    assert_eq!(p.period(), Some([4, 5, 6, 7]));
    assert_eq!(
        (p.axis_period(5), p.axis_period(6), p.axis_period(40)),
        (Some(9), None, None)
    );
    assert_eq!(
        Perlin::new(1).with_period([u32::MAX; 20]).unwrap().period(),
        None
    );
    let past = [u32::MAX; 17].map(|_| 8);
    assert_eq!(
        Perlin::new(1).with_period(past).unwrap_err(),
        Error::InvalidDimension(MAX_LATTICE_DIMENSIONS + 1)
    );
    let mut zero = [8u32; 6];
    zero[5] = 0;
    let e = Value::new(1).with_period(zero).unwrap_err();
    assert_eq!(e, Error::InvalidPeriod { axis: 5 });
    assert!(e.to_string().contains("axis 5"), "{e}");
    // Only axis 4 periodic: 1D–4D noise is the unperiodic noise's.
    let fifth = Perlin::new(2)
        .with_period([u32::MAX, u32::MAX, u32::MAX, u32::MAX, 3])
        .unwrap();
    let c4 = points(4, n, 40.0);
    let (mut a, mut b) = (vec![0.0f32; n], vec![0.0f32; n]);
    let c4s: [&[f32]; 4] = std::array::from_fn(|k| c4[k].as_slice());
    fifth.fill(c4s, &mut a).unwrap();
    Perlin::new(2).fill(c4s, &mut b).unwrap();
    assert_eq!(bits(&a), bits(&b));
    // Recipes take a period per axis too.
    let recipe: Recipe = "perlin(seed=5, period=[3, 5, 7, 2, 4, 6, 9, 11])"
        .parse()
        .unwrap();
    let recipe = recipe.source();
    let c = points(8, n, 40.0);
    assert_eq!(fill_dyn(&recipe, &c), fill_dyn(&sources[0], &c));
    let long = format!("perlin(period=[{}])", ["2"; 17].join(", "));
    let e = long.parse::<Recipe>().unwrap_err().to_string();
    assert!(e.contains("period lists 1 to 16 axes"), "{e}");
}

/// `GridNd` and the `DynSource::*_grid*_dyn` methods: the dimension a value,
/// the typed grid's bits in 1D–4D and 5D alike, windows included; bad
/// slices refused before any work.
#[test]
fn grids_with_the_dimension_a_value_are_the_typed_grids() {
    let sources = [
        DynSource::differentiable(Perlin::new(3)),
        DynSource::differentiable(Fbm::new(Value::new(4)).octaves(3)),
    ];
    fn check<const D: usize>(
        source: &DynSource,
        grid: Grid<D>,
        offset: [usize; D],
        size: [usize; D],
    ) where
        DynSource: Differentiable,
    {
        let n: usize = grid.size().iter().product();
        let (mut typed, mut dynamic) = (vec![0.0f32; n], vec![1.0f32; n]);
        source.fill_grid(&grid, &mut typed).unwrap();
        let nd = GridNd::new(&grid.origin(), &grid.step(), &grid.size()).unwrap();
        assert_eq!(nd, GridNd::from(&grid));
        source.fill_grid_dyn(&nd, &mut dynamic).unwrap();
        assert_eq!(bits(&dynamic), bits(&typed), "{D}D {source:?}");
        if !emulated() {
            let mut par = vec![2.0f32; n];
            source.fill_grid_par_dyn(&nd, &mut par).unwrap();
            assert_eq!(bits(&par), bits(&typed), "{D}D par");
        }
        // A window: the typed window's bits.
        let w = grid.window(offset, size).unwrap();
        let m: usize = size.iter().product();
        let (mut typed, mut dynamic) = (vec![0.0f32; m], vec![1.0f32; m]);
        source.fill_grid(&w, &mut typed).unwrap();
        let wnd = nd.window(&offset, &size).unwrap();
        assert_eq!((wnd.size(), wnd.offset()), (&size[..], &offset[..]));
        source.fill_grid_dyn(&wnd, &mut dynamic).unwrap();
        assert_eq!(bits(&dynamic), bits(&typed), "{D}D window");
        // Derivatives.
        let mut g = vec![vec![0.0f32; n]; D];
        let mut gd = vec![vec![1.0f32; n]; D];
        let (mut v, mut vd) = (vec![0.0f32; n], vec![1.0f32; n]);
        let mut it = g.iter_mut();
        let grads: [&mut [f32]; D] = std::array::from_fn(|_| it.next().unwrap().as_mut_slice());
        source.fill_grid_grad(&grid, &mut v, grads).unwrap();
        let mut gds: Vec<&mut [f32]> = gd.iter_mut().map(Vec::as_mut_slice).collect();
        source.fill_grid_grad_dyn(&nd, &mut vd, &mut gds).unwrap();
        assert_eq!(bits(&vd), bits(&v), "{D}D grad values");
        for a in 0..D {
            assert_eq!(bits(&gd[a]), bits(&g[a]), "{D}D d/d{a}");
        }
    }
    for s in &sources {
        check(s, Grid::new([0.3], [0.05], [100]), [7], [50]);
        check(
            s,
            Grid::new([0.3, -2.0], [0.07, 0.11], [33, 9]),
            [3, 2],
            [20, 5],
        );
        check(
            s,
            Grid::new([0.3, -2.0, 5.0], [0.2, 0.5, 0.01], [9, 7, 5]),
            [1, 0, 2],
            [8, 7, 2],
        );
        check(
            s,
            Grid::new([1.0; 4], [0.3; 4], [5, 4, 3, 6]),
            [0, 1, 1, 2],
            [5, 2, 2, 3],
        );
        check(
            s,
            Grid::new([0.5; 5], [0.4, 0.3, 0.2, 0.1, 0.7], [4, 3, 5, 2, 3]),
            [1, 0, 2, 1, 0],
            [2, 3, 3, 1, 2],
        );
    }
    // Refused before any work.
    assert_eq!(
        GridNd::new(&[], &[], &[]).unwrap_err(),
        Error::InvalidDimension(0)
    );
    assert_eq!(
        GridNd::new(&[0.0; 33], &[1.0; 33], &[1; 33]).unwrap_err(),
        Error::InvalidDimension(33)
    );
    let e = GridNd::new(&[0.0; 3], &[1.0; 2], &[4; 3]).unwrap_err();
    assert!(e.to_string().contains("step"), "{e}");
    let g = GridNd::new(&[0.0; 6], &[0.1; 6], &[2; 6]).unwrap();
    assert!(matches!(
        g.window(&[1; 6], &[2; 6]),
        Err(Error::WindowOutOfBounds { axis: 0, .. })
    ));
    assert!(g.window(&[0; 5], &[1; 5]).is_err());
    let sentinel = f32::from_bits(0x7fc0_dead);
    let mut out = vec![sentinel; 64];
    let seventeen = GridNd::new(&[0.0; 17], &[0.1; 17], &[1; 17]).unwrap();
    assert_eq!(
        sources[0].fill_grid_dyn(&seventeen, &mut out[..1]),
        Err(Error::InvalidDimension(17))
    );
    assert_eq!(
        sources[0].fill_grid_dyn(&g, &mut out[..63]),
        Err(Error::LengthMismatch {
            name: "out",
            expected: 64,
            found: 63
        })
    );
    let mut grads: Vec<Vec<f32>> = vec![vec![sentinel; 64]; 5];
    let mut gs: Vec<&mut [f32]> = grads.iter_mut().map(Vec::as_mut_slice).collect();
    assert!(
        sources[0]
            .fill_grid_grad_dyn(&g, &mut out, &mut gs)
            .is_err()
    );
    assert!(
        out.iter()
            .chain(grads.iter().flatten())
            .all(|v| v.to_bits() == sentinel.to_bits())
    );
    let ridged = DynSource::new(noisefield::Ridged::new(Perlin::new(1)));
    let mut gs: Vec<&mut [f32]> = grads.iter_mut().take(6).map(Vec::as_mut_slice).collect();
    assert!(ridged.fill_grid_grad_dyn(&g, &mut out, &mut gs).is_err());
}

/// The offsets of the warp's samples per axis, as the docs give them:
/// 0, 41.375, 83.90625, 125.125, then steps of 41 + 93/256.
fn warp_offset(a: usize) -> f64 {
    match a {
        0..4 => [0.0, 41.375, 83.906_25, 125.125][a],
        _ => 125.125 + (a - 3) as f64 * (41.0 + 93.0 / 256.0),
    }
}

/// Operators, warp and recipes in 5 dimensions and more: the definitions
/// (sums, maps, the warp's displaced samples, from the inputs' own
/// values), every level equal to Scalar on adversarial inputs, one point
/// equal to the batch, recipes equal to the static graphs, derivatives
/// against central differences, and the dimensions each input computes.
#[test]
#[allow(clippy::needless_range_loop)] // per-axis outputs side by side
fn operators_warp_and_recipes_in_many_dimensions() {
    use noisefield::{Blend, Map, Simplex, Warp};
    let n = if emulated() { 48 } else { 300 };
    let (a, b) = (Perlin::new(1), Value::new(2));
    for dims in [5, 7] {
        let c = points(dims, n, 30.0);
        let wide: Vec<Vec<f64>> = c
            .iter()
            .map(|a| a.iter().map(|&v| f64::from(v)).collect())
            .collect();
        let fa = fill_dyn(&DynSource::new(a.clone()), &c);
        let fb = fill_dyn(&DynSource::new(b.clone()), &c);
        // Sums, products and maps of the inputs' own values.
        let sum = fill_dyn(&DynSource::new(Combine::add(a.clone(), b.clone())), &c);
        let want: Vec<f32> = fa.iter().zip(&fb).map(|(x, y)| x + y).collect();
        assert_eq!(bits(&sum), bits(&want), "{dims}D add");
        let product = fill_dyn(&DynSource::new(Combine::multiply(a.clone(), b.clone())), &c);
        let want: Vec<f32> = fa.iter().zip(&fb).map(|(x, y)| x * y).collect();
        assert_eq!(bits(&product), bits(&want), "{dims}D multiply");
        let low = fill_dyn(&DynSource::new(Combine::min(a.clone(), b.clone())), &c);
        let want: Vec<f32> = fa
            .iter()
            .zip(&fb)
            .map(|(&x, &y)| if x < y { x } else { y })
            .collect();
        assert_eq!(bits(&low), bits(&want), "{dims}D min");
        let mapped = fill_dyn(&DynSource::new(Map::scale_bias(a.clone(), 3.0, -0.5)), &c);
        let want: Vec<f32> = fa.iter().map(|x| x * 3.0 + -0.5).collect();
        assert_eq!(bits(&mapped), bits(&want), "{dims}D scale_bias");
        // The warp: each axis displaced by the warp field at the point
        // plus that axis's offset on every coordinate (f64 points).
        let warp = Warp::new(a.clone(), b.clone()).amplitude(0.75);
        let mut got = vec![0.0f32; n];
        DynSource::new(warp.clone())
            .fill_f64_dyn(&slices(&wide), &mut got)
            .unwrap();
        let mut at = wide.clone();
        for (axis, at) in at.iter_mut().enumerate() {
            let moved: Vec<Vec<f64>> = wide
                .iter()
                .map(|v| v.iter().map(|x| x + warp_offset(axis)).collect())
                .collect();
            let mut w = vec![0.0f32; n];
            DynSource::new(b.clone())
                .fill_f64_dyn(&slices(&moved), &mut w)
                .unwrap();
            for (x, w) in at.iter_mut().zip(&w) {
                *x += 0.75 * f64::from(*w);
            }
        }
        let mut want = vec![0.0f32; n];
        DynSource::new(a.clone())
            .fill_f64_dyn(&slices(&at), &mut want)
            .unwrap();
        assert_eq!(bits(&got), bits(&want), "{dims}D warp");
    }
    // Every level equals Scalar, on adversarial inputs; one point equals
    // the batch; the recipe equals the static graph.
    let graphs: Vec<(&str, DynSource)> = vec![
        (
            "add(perlin(seed=1), scale_bias(value(seed=2), scale=0.5, bias=0.25))",
            DynSource::differentiable(Combine::add(
                Perlin::new(1),
                Map::scale_bias(Value::new(2), 0.5, 0.25),
            )),
        ),
        (
            "blend(perlin(seed=1), simplex(seed=3), fbm(value(seed=4), octaves=2))",
            DynSource::differentiable(Blend::new(
                Perlin::new(1),
                Simplex::new(3),
                Fbm::new(Value::new(4)).octaves(2),
            )),
        ),
        (
            "warp(fbm(perlin(seed=5), octaves=3), perlin(seed=6), amplitude=2, iterations=2)",
            DynSource::differentiable(
                Warp::new(Fbm::new(Perlin::new(5)).octaves(3), Perlin::new(6))
                    .amplitude(2.0)
                    .iterations(2),
            ),
        ),
        (
            "max(terrace(simplex(seed=7), points=[-1, 0, 1]), abs(value(seed=8)))",
            DynSource::differentiable(Combine::max(
                Map::terrace(Simplex::new(7), &[-1.0, 0.0, 1.0]),
                Map::abs(Value::new(8)),
            )),
        ),
    ];
    let t = adversarial();
    for dims in [5, 6, 8] {
        let c: Vec<Vec<f32>> = (0..dims)
            .map(|k| {
                (0..t.len() * 2)
                    .map(|i| t[(i * (k + 3) + k) % t.len()])
                    .collect()
            })
            .collect();
        for (text, graph) in &graphs {
            let recipe: Recipe = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let scalar = fill_dyn(&graph.clone().with_level(Level::Scalar).unwrap(), &c);
            assert_eq!(
                bits(&fill_dyn(&recipe.source(), &c)),
                bits(&scalar),
                "{text}"
            );
            for level in levels() {
                let got = fill_dyn(&graph.clone().with_level(level).unwrap(), &c);
                assert_eq!(bits(&got), bits(&scalar), "{text} {dims}D {level:?}");
            }
            for i in (0..c[0].len()).step_by(7) {
                let p: Vec<f32> = c.iter().map(|a| a[i]).collect();
                let one = graph.noise_dyn(&p).unwrap();
                assert_eq!(one.to_bits(), scalar[i].to_bits(), "{text} point {i}");
            }
        }
    }
    // Derivatives: the values' bits, and central differences (f64 points).
    let h = 1e-3;
    for (text, graph) in &graphs {
        let dims = 6;
        let c = points(dims, 64, 5.0);
        let mut out = vec![0.0f32; 64];
        let mut grads = vec![vec![0.0f32; 64]; dims];
        let mut g: Vec<&mut [f32]> = grads.iter_mut().map(Vec::as_mut_slice).collect();
        graph.fill_grad_dyn(&slices(&c), &mut out, &mut g).unwrap();
        assert_eq!(bits(&out), bits(&fill_dyn(graph, &c)), "{text}");
        let (mut worst, mut close) = (0.0f64, 0usize);
        for axis in 0..dims {
            let at = |d: f64| {
                let moved: Vec<Vec<f64>> = (0..dims)
                    .map(|k| {
                        c[k].iter()
                            .map(|&v| f64::from(v) + if k == axis { d } else { 0.0 })
                            .collect()
                    })
                    .collect();
                let mut v = vec![0.0f32; 64];
                graph.fill_f64_dyn(&slices(&moved), &mut v).unwrap();
                v
            };
            let (up, down) = (at(h), at(-h));
            for i in 0..64 {
                let fd = (f64::from(up[i]) - f64::from(down[i])) / (2.0 * h);
                let e = (fd - f64::from(grads[axis][i])).abs() / (1.0 + fd.abs());
                worst = worst.max(e);
                close += usize::from(e < 2e-2);
            }
        }
        // Terrace, abs and max have kinks: a point within h of one may
        // differ there (a wrong rule would miss at most points).
        if text.starts_with("max") {
            assert!(close >= 64 * dims * 9 / 10, "{text}: {close} close");
        } else {
            assert!(worst < 2e-2, "{text}: worst relative error {worst}");
        }
    }
    // Each combinator computes the dimensions all its inputs do.
    let lattice_and_simplex = DynSource::new(Combine::add(Perlin::new(1), Simplex::new(2)));
    assert_eq!(
        lattice_and_simplex.noise_dyn(&[0.5; 17]),
        Err(Error::InvalidDimension(17))
    );
    assert!(lattice_and_simplex.noise_dyn(&[0.5; 16]).is_ok());
    let simplexes = DynSource::new(Warp::new(Simplex::new(1), Simplex::new(2)));
    assert!(simplexes.noise_dyn(&[0.5; 32]).unwrap().abs() <= 1.0 + 1e-5);
}

/// A user's noise of any dimension: `sum of cos(c[a] · (a + 1))` over its
/// axes, in `f64`.
#[derive(Clone, Debug)]
struct Waves {
    most: usize,
}

impl noisefield::CustomNoise for Waves {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        assert!(
            points.len() <= self.most,
            "called with {} axes",
            points.len()
        );
        for (i, v) in out.iter_mut().enumerate() {
            let sum: f64 = points
                .iter()
                .enumerate()
                .map(|(a, p)| (p[i] * (a + 1) as f64).cos())
                .sum();
            *v = (sum / points.len() as f64) as f32;
        }
    }
    fn bounds(&self, _: usize) -> (f32, f32) {
        (-1.0, 1.0)
    }
    fn max_dimension(&self) -> usize {
        self.most
    }
}

/// Custom sources in 5 dimensions and more where they say so: their
/// values at every level (points, `f64` points, grids), under fractals and
/// operators; 4 dimensions (the default) and past their own count refused.
#[test]
fn custom_sources_in_many_dimensions_when_they_say_so() {
    use noisefield::Custom;
    // Boxed at once: the suite compiles one more source type, not its
    // combinators too.
    let waves = DynSource::new(Custom::new(Waves { most: 9 }));
    let c = points(7, 100, 10.0);
    let want: Vec<f32> = (0..100)
        .map(|i| {
            let sum: f64 = (0..7)
                .map(|a| (f64::from(c[a][i]) * (a + 1) as f64).cos())
                .sum();
            (sum / 7.0) as f32
        })
        .collect();
    for level in levels() {
        let s = waves.clone().with_level(level).unwrap();
        assert_eq!(bits(&fill_dyn(&s, &c)), bits(&want), "{level:?}");
    }
    let p: Vec<f32> = (0..7).map(|a| c[a][3]).collect();
    assert_eq!(waves.noise_dyn(&p).unwrap().to_bits(), want[3].to_bits());
    let grid = GridNd::new(&[0.5; 6], &[0.25; 6], &[3, 2, 4, 2, 3, 2]).unwrap();
    let mut out = vec![0.0f32; 288];
    waves.fill_grid_dyn(&grid, &mut out).unwrap();
    let first: f64 = (1..=6).map(|a| (0.5 * a as f64).cos()).sum::<f64>() / 6.0;
    assert_eq!(out[0].to_bits(), (first as f32).to_bits());
    let fbm = DynSource::new(Fbm::new(waves.clone()).octaves(2));
    assert_eq!(fill_dyn(&fbm, &c).len(), 100);
    let perlin = DynSource::new(Perlin::new(1));
    let sum = DynSource::new(Combine::add(waves.clone(), perlin.clone()));
    let added: Vec<f32> = want
        .iter()
        .zip(&fill_dyn(&perlin, &c))
        .map(|(a, b)| a + b)
        .collect();
    assert_eq!(bits(&fill_dyn(&sum, &c)), bits(&added));
    // Past what the noise says.
    let ten = points(10, 4, 1.0);
    let mut out = vec![0.0f32; 4];
    assert_eq!(
        waves.fill_dyn(&slices(&ten), &mut out),
        Err(Error::InvalidDimension(10))
    );
}
