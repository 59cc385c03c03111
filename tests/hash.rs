//! The full-coordinate hash (the default mode): no repetition, periods of
//! any length, no zero lines, and both modes the same at every level.

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
            p.fill1(&f32s[0], &mut a).unwrap();
            p.fill1_f64(&moved[0], &mut b).unwrap();
        }
        2 => {
            p.fill2(&f32s[0], &f32s[1], &mut a).unwrap();
            p.fill2_f64(&moved[0], &moved[1], &mut b).unwrap();
        }
        3 => {
            p.fill3(&f32s[0], &f32s[1], &f32s[2], &mut a).unwrap();
            p.fill3_f64(&moved[0], &moved[1], &moved[2], &mut b)
                .unwrap();
        }
        _ => {
            p.fill4(&f32s[0], &f32s[1], &f32s[2], &f32s[3], &mut a)
                .unwrap();
            p.fill4_f64(&moved[0], &moved[1], &moved[2], &moved[3], &mut b)
                .unwrap();
        }
    }
    [a, b]
}

const SHIFTS: [f64; 5] = [256.0, 512.0, 4096.0, 65536.0, 1_048_576.0];

/// Shifting a default field by k cells along any axis changes more than
/// 99% of its samples, for k up to 2²⁰, in every dimension and on the `f32`
/// and `f64` paths. (Coordinates are multiples of 1/64 in [0, 64), exact in
/// `f32` even after the largest shift; the permutation mode, which
/// repeats every 256 cells, must fail this.)
#[test]
fn default_fields_do_not_repeat_along_any_axis() {
    let n = 4096;
    let points: [Vec<f64>; 4] = std::array::from_fn(|a| {
        stream(n, a as u64 + 1, 64.0)
            .iter()
            .map(|c| (c * 64.0).floor() / 64.0)
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
#[test]
fn default_grids_do_not_repeat() {
    let p = Perlin::new(3);
    let fill2 = |o: [f64; 2]| {
        let g = Grid2::new(o, [0.05, 0.07], [96, 40]);
        let mut out = vec![0.0f32; 96 * 40];
        p.fill_grid2(&g, &mut out).unwrap();
        out
    };
    let fill3 = |o: [f64; 3]| {
        let g = Grid3::new(o, [0.9, 0.3, 0.45], [40, 9, 7]);
        let mut out = vec![0.0f32; 40 * 9 * 7];
        p.fill_grid3(&g, &mut out).unwrap();
        out
    };
    let (o2, o3) = ([0.3, -5.25], [0.5, -2.0, 9.0]);
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
    let xs = stream(n, 7, 50.0);
    let ys = stream(n, 8, 50.0);
    let zs = stream(n, 9, 50.0);
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
                p.fill3_f64(&x, &y, &z, &mut out).unwrap();
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
                    2 => p.noise2(c[0], c[1]),
                    3 => p.noise3(c[0], c[1], c[2]),
                    _ => p.noise4(c[0], c[1], c[2], c[3]),
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
        for level in Level::available() {
            let p = Perlin::with_hash(77, mode).with_level(level).unwrap();
            let v = Value::with_hash(77, mode).with_level(level).unwrap();
            let mut out = vec![0.0f32; xs.len()];
            p.fill2(&xs, &ys, &mut out).unwrap();
            for i in 0..xs.len() {
                assert_eq!(
                    out[i].to_bits(),
                    p.noise2(xs[i], ys[i]).to_bits(),
                    "{mode:?} {level:?}"
                );
            }
            v.fill2(&xs, &ys, &mut out).unwrap();
            for i in 0..xs.len() {
                assert_eq!(
                    out[i].to_bits(),
                    v.noise2(xs[i], ys[i]).to_bits(),
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
        p.fill2(&xs, &ys, &mut out).unwrap();
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
