//! Throughput of the batch kernels per level, the scalar `noise3` loop, and
//! the `noise` crate's 3D Perlin as the anchor, all in elements per second.
//!
//! `cargo bench -p noisefield-bench --bench noise` runs everything; `... -- goal`
//! runs only the speed goal (4,194,304 points, default `fill3` at the best
//! level vs `noise::Perlin::get`); `-- modes` both hash modes at every level,
//! plain and periodic. The per-level `fillN` groups measure Ken's table
//! (`Perlin::reference`). `-- simplex`: issue 38's simplex goals (quick-noise
//! 0.3.0 in 2D and 3D, the noise crate's OpenSimplex in 4D, 5D to 32D);
//! `-- dimensions`: `Perlin` in 3D to 12D per level (5D against 4D).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noise::NoiseFn;
use noisefield::prelude::*;
use noisefield::{HashMode, Level, Perlin};
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::random_coords;

fn anchor(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    n: usize,
    xyz: &[Vec<f32>],
) {
    let anchor = noise::Perlin::new(0);
    let mut out = vec![0.0f64; n];
    c.bench_function(BenchmarkId::new("noise-crate-perlin3", n), |b| {
        b.iter(|| {
            for (i, o) in out.iter_mut().enumerate() {
                *o = anchor.get([xyz[0][i] as f64, xyz[1][i] as f64, xyz[2][i] as f64]);
            }
            black_box(&out);
        })
    });
}

fn fills(c: &mut Criterion) {
    for n in [4_096usize, 1_048_576] {
        let xyzw = random_coords(n, 4);
        let (x, y, z, w) = (&xyzw[0], &xyzw[1], &xyzw[2], &xyzw[3]);
        let mut out = vec![0.0f32; n];
        for dim in [2, 3, 4] {
            let mut g = c.benchmark_group(format!("fill{dim}"));
            g.throughput(Throughput::Elements(n as u64));
            if n > 100_000 {
                g.sample_size(20).measurement_time(Duration::from_secs(4));
            }
            for level in Level::available() {
                let p = Perlin::reference().with_level(level).unwrap();
                g.bench_function(BenchmarkId::new(level.name(), n), |b| {
                    b.iter(|| match dim {
                        2 => p.fill([x, y], &mut out).unwrap(),
                        3 => p.fill([x, y, z], &mut out).unwrap(),
                        _ => p.fill([x, y, z, w], &mut out).unwrap(),
                    })
                });
            }
            if dim == 3 {
                let p = Perlin::reference();
                g.bench_function(BenchmarkId::new("scalar-noise3-loop", n), |b| {
                    b.iter(|| {
                        for (i, o) in out.iter_mut().enumerate() {
                            *o = p.noise([x[i], y[i], z[i]]);
                        }
                        black_box(&out);
                    })
                });
                anchor(&mut g, n, &xyzw);
            }
            g.finish();
        }
    }
}

/// The speed goal: the default `fill3` at the best level against the noise
/// crate, same 4,194,304 points.
fn goal(c: &mut Criterion) {
    let n = 4_194_304;
    let xyz = random_coords(n, 3);
    let mut out = vec![0.0f32; n];
    let mut g = c.benchmark_group("goal");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    let p = Perlin::new(0);
    g.bench_function(BenchmarkId::new(format!("fill3-{}", p.level()), n), |b| {
        b.iter(|| p.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
    });
    anchor(&mut g, n, &xyz);
    g.finish();
}

/// Both hash modes at every level, plain and periodic (period 300 on every
/// axis), with the noise crate as the anchor: 4,194,304 random points.
fn modes(c: &mut Criterion) {
    let n = 4_194_304;
    let xyz = random_coords(n, 3);
    let mut out = vec![0.0f32; n];
    let mut g = c.benchmark_group("modes");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for level in Level::available() {
        for mode in HashMode::ALL {
            let plain = Perlin::with_hash(0, mode).with_level(level).unwrap();
            let periodic = plain.clone().with_period([300; 4]).unwrap();
            for (name, p) in [("fill3", plain), ("fill3-periodic", periodic)] {
                let id = format!("{name}-{}-{}", mode.name(), level.name());
                g.bench_function(BenchmarkId::new(id, n), |b| {
                    b.iter(|| p.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
                });
            }
        }
    }
    anchor(&mut g, n, &xyz);
    g.finish();
}

/// Issue 38's simplex goals: batches of 65,536 random points in ±1000,
/// `Simplex` at AVX2 and at the detected level against quick-noise 0.3.0's
/// `Simplex` batch (its run-time dispatch, one octave) in 2D and 3D, and
/// against the noise crate's `OpenSimplex` in 4D; then `Simplex` in 5D to
/// 32D at the detected level (points per second).
fn simplex(c: &mut Criterion) {
    use quick_noise::simd::{SimdSliceIterExt, dispatch_simd};
    use quick_noise::{BatchNoise, Fbm};

    #[dispatch_simd(A)]
    fn quick(c: &[Vec<f32>], out: &mut [f32]) {
        if c.len() == 2 {
            BatchNoise::<2, Fbm, quick_noise::Simplex>::builder::<A, _, _>(
                c[0].simd_iter::<A>(),
                c[1].simd_iter::<A>(),
            )
            .seed(7)
            .octaves(1)
            .fill(out)
        } else {
            BatchNoise::<3, Fbm, quick_noise::Simplex>::builder::<A, _, _, _>(
                c[0].simd_iter::<A>(),
                c[1].simd_iter::<A>(),
                c[2].simd_iter::<A>(),
            )
            .seed(7)
            .octaves(1)
            .fill(out)
        }
    }

    let n = 65_536;
    let coords = random_coords(n, 32);
    let mut out = vec![0.0f32; n];
    let mut g = c.benchmark_group("simplex");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(2));
    let detected = Level::detect();
    for d in [2usize, 3, 4] {
        let refs: Vec<&[f32]> = coords[..d].iter().map(Vec::as_slice).collect();
        for level in [Level::Avx2, detected] {
            let Ok(s) = noisefield::Simplex::new(7).with_level(level) else {
                eprintln!("simplex: this CPU lacks {level}, skipped");
                continue;
            };
            let s = noisefield::DynSource::new(s);
            g.bench_function(
                BenchmarkId::new(format!("noisefield-{d}d-{level}"), n),
                |b| b.iter(|| s.fill_dyn(&refs, &mut out).unwrap()),
            );
        }
        if d < 4 {
            g.bench_function(BenchmarkId::new(format!("quick-noise-{d}d"), n), |b| {
                b.iter(|| quick(&coords[..d], &mut out))
            });
        } else {
            let os = noise::OpenSimplex::new(7);
            g.bench_function(BenchmarkId::new("noise-crate-opensimplex-4d", n), |b| {
                b.iter(|| {
                    for (i, o) in out.iter_mut().enumerate() {
                        let p = [0, 1, 2, 3].map(|a| f64::from(coords[a][i]));
                        *o = os.get(p) as f32;
                    }
                    black_box(&out);
                })
            });
        }
    }
    // Grids against the same samples as `f64` and as `f32` points (a grid
    // is its `f64` points, bit for bit).
    for d in [2usize, 3] {
        let side = if d == 2 { 256 } else { 40 };
        let grid =
            noisefield::GridNd::new(&vec![12.3; d], &vec![1.0 / 32.0; d], &vec![side; d]).unwrap();
        let m = side.pow(d as u32);
        let wide: Vec<Vec<f64>> = (0..d)
            .map(|a| {
                (0..m)
                    .map(|i| 12.3 + (i / side.pow(a as u32) % side) as f64 / 32.0)
                    .collect()
            })
            .collect();
        let narrow: Vec<Vec<f32>> = wide
            .iter()
            .map(|c| c.iter().map(|&v| v as f32).collect())
            .collect();
        let s = noisefield::DynSource::new(noisefield::Simplex::new(7));
        let mut out = vec![0.0f32; m];
        g.throughput(Throughput::Elements(m as u64));
        g.bench_function(BenchmarkId::new(format!("grid-{d}d-{detected}"), m), |b| {
            b.iter(|| s.fill_grid_dyn(&grid, &mut out).unwrap())
        });
        let refs: Vec<&[f64]> = wide.iter().map(Vec::as_slice).collect();
        g.bench_function(
            BenchmarkId::new(format!("f64-points-{d}d-{detected}"), m),
            |b| b.iter(|| s.fill_f64_dyn(&refs, &mut out).unwrap()),
        );
        let refs: Vec<&[f32]> = narrow.iter().map(Vec::as_slice).collect();
        g.bench_function(
            BenchmarkId::new(format!("f32-points-{d}d-{detected}"), m),
            |b| b.iter(|| s.fill_dyn(&refs, &mut out).unwrap()),
        );
    }
    g.throughput(Throughput::Elements(n as u64));
    for d in [5usize, 6, 8, 12, 16, 24, 32] {
        let refs: Vec<&[f32]> = coords[..d].iter().map(Vec::as_slice).collect();
        let s = noisefield::DynSource::new(noisefield::Simplex::new(7));
        g.bench_function(
            BenchmarkId::new(format!("noisefield-{d}d-{detected}"), n),
            |b| b.iter(|| s.fill_dyn(&refs, &mut out).unwrap()),
        );
    }
    g.finish();
}

/// Issue 38's N-D goal: `Perlin` (the default lattice) over 65,536 random
/// points in ±1000 through `DynSource::fill_dyn`, 3D to 8D at every level
/// (5D at most 2.3× the time per point of 4D), 12D at the detected level.
fn dimensions(c: &mut Criterion) {
    let n = 65_536;
    let coords = random_coords(n, 12);
    let mut out = vec![0.0f32; n];
    let mut g = c.benchmark_group("dimensions");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(2));
    let detected = Level::detect();
    for level in Level::available() {
        let p = noisefield::DynSource::new(Perlin::new(7).with_level(level).unwrap());
        for d in [3usize, 4, 5, 6, 8, 12] {
            if d == 12 && level != detected {
                continue;
            }
            let refs: Vec<&[f32]> = coords[..d].iter().map(Vec::as_slice).collect();
            g.bench_function(BenchmarkId::new(format!("perlin-{d}d-{level}"), n), |b| {
                b.iter(|| p.fill_dyn(&refs, &mut out).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, fills, goal, modes, simplex, dimensions);
criterion_main!(benches);
