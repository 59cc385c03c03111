//! The coordinates mode (the default): no repetition, periods of
//! any length, no zero lines, and both modes the same at every level.

use crate::common::levels;
use noisefield::prelude::*;
use noisefield::{Grid2, Grid3, HashMode, Level, Perlin, Value};

/// Fraction of positions where `a` and `b` differ (by bits).
fn differing(a: &[f32], b: &[f32]) -> f64 {
    let n = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x.to_bits() != y.to_bits())
        .count();
    n as f64 / a.len() as f64
}

/// Deterministic coordinates in `[0, span)`.
fn stream(n: usize, mut state: u64, span: f64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * span
        })
        .collect()
}

/// `D`-dimensional noise of `p` at `points` (per axis), shifted by `shift`
/// cells along `axis`, through the `f32` batch path and the `f64` path.
fn shifted(
    p: &Perlin,
    dims: usize,
    points: &[Vec<f64>; 4],
    axis: usize,
    shift: f64,
) -> [Vec<f32>; 2] {
    let n = points[0].len();
    let moved: Vec<Vec<f64>> = (0..dims)
        .map(|a| {
            let d = if a == axis { shift } else { 0.0 };
            points[a].iter().map(|&c| c + d).collect()
        })
        .collect();
    let f32s: Vec<Vec<f32>> = moved
        .iter()
        .map(|c| c.iter().map(|&v| v as f32).collect())
        .collect();
    let (mut a, mut b) = (vec![0.0f32; n], vec![0.0f32; n]);
    match dims {
        1 => {
            p.fill([&f32s[0]], &mut a).unwrap();
            p.fill_f64([&moved[0]], &mut b).unwrap();
        }
        2 => {
            p.fill([&f32s[0], &f32s[1]], &mut a).unwrap();
            p.fill_f64([&moved[0], &moved[1]], &mut b).unwrap();
        }
        3 => {
            p.fill([&f32s[0], &f32s[1], &f32s[2]], &mut a).unwrap();
            p.fill_f64([&moved[0], &moved[1], &moved[2]], &mut b)
                .unwrap();
        }
        _ => {
            p.fill([&f32s[0], &f32s[1], &f32s[2], &f32s[3]], &mut a)
                .unwrap();
            p.fill_f64([&moved[0], &moved[1], &moved[2], &moved[3]], &mut b)
                .unwrap();
        }
    }
    [a, b]
}

const SHIFTS: [f64; 5] = [256.0, 512.0, 4096.0, 65536.0, 1_048_576.0];

/// Shifting a default field by k cells along any axis changes more than
/// 99% of its samples, for k up to 2²⁰, in every dimension and on the `f32`
/// and `f64` paths. (Coordinates are odd multiples of 1/128 in [0, 4096):
/// never on a lattice plane, where gradient noise is 0 whatever the hash;
/// about one sample per 1D cell, since two 1D cells match by chance when
/// both slopes do, 1 in 256. The permutation mode, which repeats every 256
/// cells, must fail this.)
#[test]
fn default_fields_do_not_repeat_along_any_axis() {
    let n = 4096;
    let points: [Vec<f64>; 4] = std::array::from_fn(|a| {
        stream(n, a as u64 + 1, 4096.0)
            .iter()
            .map(|c| ((c * 64.0).floor() + 0.5) / 64.0)
            .collect()
    });
    let p = Perlin::new(42);
    for dims in 1..=4 {
        for axis in 0..dims {
            let [base32, base64] = shifted(&p, dims, &points, axis, 0.0);
            for k in SHIFTS {
                let [a, b] = shifted(&p, dims, &points, axis, k);
                let (d32, d64) = (differing(&base32, &a), differing(&base64, &b));
                assert!(
                    d32 > 0.99,
                    "{dims}D axis {axis} shift {k}: f32 only {d32} differ"
                );
                assert!(
                    d64 > 0.99,
                    "{dims}D axis {axis} shift {k}: f64 only {d64} differ"
                );
            }
        }
    }
    // The check can fail: the permutation table repeats every 256 cells.
    let table = Perlin::permuted(42);
    let [base, _] = shifted(&table, 3, &points, 1, 0.0);
    let [moved, _] = shifted(&table, 3, &points, 1, 256.0);
    assert_eq!(differing(&base, &moved), 0.0);
}

/// Grids too: a 2D and a 3D grid at origin o and o + k along each axis.
/// No sample lies on a lattice line (two integer coordinates): along one,
/// the cube-diagonal gradients leave 4 shapes of noise per cell (only
/// their signs along the line matter), so shifted lines match by chance
/// in a quarter of their cells.
#[test]
fn default_grids_do_not_repeat() {
    let p = Perlin::new(3);
    let fill2 = |o: [f64; 2]| {
        let g = Grid2::new(o, [0.05, 0.07], [96, 40]);
        let mut out = vec![0.0f32; 96 * 40];
        p.fill_grid(&g, &mut out).unwrap();
        out
    };
    let fill3 = |o: [f64; 3]| {
        let g = Grid3::new(o, [0.9, 0.3, 0.45], [40, 9, 7]);
        let mut out = vec![0.0f32; 40 * 9 * 7];
        p.fill_grid(&g, &mut out).unwrap();
        out
    };
    let (o2, o3) = ([0.31, -5.25], [0.31, -2.13, 9.07]);
    let (base2, base3) = (fill2(o2), fill3(o3));
    for k in SHIFTS {
        for axis in 0..3 {
            let mut o = o3;
            o[axis] += k;
            let d = differing(&base3, &fill3(o));
            assert!(d > 0.99, "3D grid axis {axis} shift {k}: only {d} differ");
            if axis < 2 {
                let mut o = o2;
                o[axis] += k;
                let d = differing(&base2, &fill2(o));
                assert!(d > 0.99, "2D grid axis {axis} shift {k}: only {d} differ");
            }
        }
    }
}

/// `with_period(p)` repeats exactly at p on every axis, for p from 1 to
/// 65536, and a default-mode period of 1000 does not repeat at 256.
#[test]
fn periods_are_exact_at_any_length() {
    let n = 512;
    // Multiples of 2⁻²⁰, so every shift below is exact in `f64`.
    let exact = |c: Vec<f64>| -> Vec<f64> {
        c.iter()
            .map(|&v| (v * 1_048_576.0).floor() / 1_048_576.0)
            .collect()
    };
    let xs = exact(stream(n, 7, 50.0));
    let ys = exact(stream(n, 8, 50.0));
    let zs = exact(stream(n, 9, 50.0));
    for period in [1u32, 3, 300, 1000, 65536] {
        for source in [HashMode::Coordinates, HashMode::Permutation] {
            let p = Perlin::with_hash(5, source)
                .with_period([period; 4])
                .unwrap();
            let eval = |dx: f64, dy: f64, dz: f64| {
                let x: Vec<f64> = xs.iter().map(|c| c + dx).collect();
                let y: Vec<f64> = ys.iter().map(|c| c + dy).collect();
                let z: Vec<f64> = zs.iter().map(|c| c + dz).collect();
                let mut out = vec![0.0f32; n];
                p.fill_f64([&x, &y, &z], &mut out).unwrap();
                out
            };
            let base = eval(0.0, 0.0, 0.0);
            let k = f64::from(period);
            for shift in [
                (k, 0.0, 0.0),
                (0.0, k, 0.0),
                (0.0, 0.0, k),
                (3.0 * k, -k, 2.0 * k),
            ] {
                let moved = eval(shift.0, shift.1, shift.2);
                assert_eq!(
                    differing(&base, &moved),
                    0.0,
                    "{source:?} period {period}: not periodic by {shift:?}"
                );
            }
            if source == HashMode::Coordinates && period > 256 {
                let moved = eval(256.0, 0.0, 0.0);
                let d = differing(&base, &moved);
                assert!(d > 0.99, "period {period} repeats at 256 ({d} differ)");
            }
        }
    }
}

/// Periodic noise through the `f32` batch path (cells reduced in vectors,
/// or lane by lane far out) equals the `f64` path (exact per point) bit for
/// bit at every level and both modes, near the origin, at multiples of the
/// period, and far out (2²² to 2³⁰ cells, where the vector quotient is
/// refused); and the `f32` path is periodic too.
#[test]
fn periodic_f32_path_equals_the_exact_path() {
    let n = 700;
    let mut coords: [Vec<f32>; 3] = std::array::from_fn(|a| {
        stream(n, 20 + a as u64, 80.0)
            .iter()
            .map(|&c| (c - 40.0) as f32)
            .collect()
    });
    // Some lanes far out, some on multiples of the periods used below.
    for (i, c) in coords[0].iter_mut().enumerate().step_by(7) {
        *c = match i % 4 {
            0 => 4_194_304.5 + i as f32,
            1 => -1_073_741_824.0 + 128.0 * i as f32,
            2 => 3000.0,
            _ => -65_536.0,
        };
    }
    for mode in HashMode::ALL {
        for period in [1u32, 3, 7, 300, 1000, 65_536, 99_991, 1 << 24, 1 << 25] {
            let reference = Perlin::with_hash(9, mode)
                .with_period([period, 300, period, 5])
                .unwrap()
                .with_level(Level::Scalar)
                .unwrap();
            let c64: Vec<Vec<f64>> = coords
                .iter()
                .map(|c| c.iter().map(|&v| f64::from(v)).collect())
                .collect();
            let mut exact = vec![0.0f32; n];
            reference
                .fill_f64([&c64[0], &c64[1], &c64[2]], &mut exact)
                .unwrap();
            for level in levels() {
                let p = reference.clone().with_level(level).unwrap();
                let mut out = vec![0.0f32; n];
                p.fill([&coords[0], &coords[1], &coords[2]], &mut out)
                    .unwrap();
                for i in 0..n {
                    assert_eq!(
                        out[i].to_bits(),
                        exact[i].to_bits(),
                        "{mode:?} period {period} {level:?} at {:?}",
                        (coords[0][i], coords[1][i], coords[2][i])
                    );
                }
            }
            // Periodic in f32 too: shifted by whole periods (exact in f32:
            // multiples of 2⁻¹⁰ below 2¹⁷ in magnitude; far lanes moved in).
            if period <= 1000 {
                let near = |c: &Vec<f32>| -> Vec<f32> {
                    c.iter()
                        .map(|&v| match v.abs() > 70_000.0 {
                            true => 0.25,
                            false => (v * 1024.0).floor() / 1024.0,
                        })
                        .collect()
                };
                let (x, y, z) = (near(&coords[0]), near(&coords[1]), near(&coords[2]));
                let k = period as f32;
                let shift =
                    |c: &[f32], by: f32| -> Vec<f32> { c.iter().map(|&v| v + by).collect() };
                let (mut a, mut b) = (vec![0.0f32; n], vec![0.0f32; n]);
                reference.fill([&x, &y, &z], &mut a).unwrap();
                reference
                    .fill(
                        [&shift(&x, -2.0 * k), &shift(&y, 300.0), &shift(&z, k)],
                        &mut b,
                    )
                    .unwrap();
                let (a, b) = (a.iter().map(|v| v.to_bits()), b.iter().map(|v| v.to_bits()));
                assert!(a.eq(b), "{mode:?} period {period}: f32 path not periodic");
            }
        }
    }
}

/// A small xorshift stream of integers.
fn ints(state: &mut u64, below: i64) -> i64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state % below as u64) as i64 - below / 2
}

/// No lattice edge is a line of zeros: for 20,000 random edges per
/// orientation in 2D, and on integer slices of 3D (z) and 4D (z, w), the
/// noise at 16 interior points of the edge is not all zero. (Ken's
/// gradients fail this on a ninth of the edges.)
#[test]
fn no_lattice_edge_is_a_line_of_zeros() {
    fn zero_edges(p: &Perlin, dims: usize, along: usize) -> usize {
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ (dims * 4 + along) as u64;
        let mut zeros = 0;
        for _ in 0..20_000 {
            let corner: Vec<f32> = (0..dims)
                .map(|_| ints(&mut state, 1 << 16) as f32)
                .collect();
            let all_zero = (1..=16).all(|i| {
                let mut c = corner.clone();
                c[along] += i as f32 / 17.0;
                let v = match dims {
                    2 => p.noise([c[0], c[1]]),
                    3 => p.noise([c[0], c[1], c[2]]),
                    _ => p.noise([c[0], c[1], c[2], c[3]]),
                };
                v == 0.0
            });
            zeros += usize::from(all_zero);
        }
        zeros
    }
    let p = Perlin::new(42);
    for dims in 2..=4 {
        for along in 0..dims {
            assert_eq!(
                zero_edges(&p, dims, along),
                0,
                "{dims}D edges along axis {along}"
            );
        }
    }
    // The check can fail: Ken's gradients have zero components.
    assert!(zero_edges(&Perlin::permuted(42), 2, 0) > 1000);
}

/// Both modes, every level: the batch paths equal the scalar point path
/// bit for bit (the shared level tests cover more inputs for each mode).
#[test]
fn both_modes_agree_across_levels() {
    let xs: Vec<f32> = stream(300, 11, 600.0)
        .iter()
        .map(|&c| (c - 300.0) as f32)
        .collect();
    let ys: Vec<f32> = stream(300, 12, 600.0)
        .iter()
        .map(|&c| (c - 300.0) as f32)
        .collect();
    for mode in HashMode::ALL {
        for level in levels() {
            let p = Perlin::with_hash(77, mode).with_level(level).unwrap();
            let v = Value::with_hash(77, mode).with_level(level).unwrap();
            let mut out = vec![0.0f32; xs.len()];
            p.fill([&xs, &ys], &mut out).unwrap();
            for i in 0..xs.len() {
                assert_eq!(
                    out[i].to_bits(),
                    p.noise([xs[i], ys[i]]).to_bits(),
                    "{mode:?} {level:?}"
                );
            }
            v.fill([&xs, &ys], &mut out).unwrap();
            for i in 0..xs.len() {
                assert_eq!(
                    out[i].to_bits(),
                    v.noise([xs[i], ys[i]]).to_bits(),
                    "{mode:?} {level:?}"
                );
            }
        }
    }
}

/// The modes are what they say, and seeds give different noises.
#[test]
fn modes_and_seeds() {
    assert_eq!(Perlin::new(1).hash_mode(), HashMode::Coordinates);
    assert_eq!(Perlin::permuted(1).hash_mode(), HashMode::Permutation);
    assert_eq!(Perlin::reference().hash_mode(), HashMode::Permutation);
    assert_eq!(Value::new(1).hash_mode(), HashMode::Coordinates);
    assert!(Perlin::new(1).permutation().is_none());
    assert!(Perlin::permuted(1).permutation().is_some());
    assert_eq!("permuted".parse::<HashMode>(), Ok(HashMode::Permutation));
    assert_eq!("Coordinates".parse::<HashMode>(), Ok(HashMode::Coordinates));
    assert!("ken".parse::<HashMode>().is_err());
    let xs: Vec<f32> = (0..1000).map(|i| i as f32 * 0.173 - 80.0).collect();
    let ys: Vec<f32> = (0..1000).map(|i| i as f32 * 0.311 - 40.0).collect();
    let field = |p: &Perlin| {
        let mut out = vec![0.0f32; 1000];
        p.fill([&xs, &ys], &mut out).unwrap();
        out
    };
    let seeds: Vec<Vec<f32>> = [0u64, 1, 2, u64::MAX]
        .iter()
        .map(|&s| field(&Perlin::new(s)))
        .collect();
    for i in 0..seeds.len() {
        for j in 0..i {
            let d = differing(&seeds[i], &seeds[j]);
            assert!(d > 0.99, "seeds {i} and {j}: only {d} differ");
        }
    }
}
