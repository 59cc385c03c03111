//! Throughput of the batch kernels per level, the scalar `noise3` loop, and
//! the `noise` crate's 3D Perlin as the anchor, all in elements per second.
//!
//! `cargo bench -p noisefield-bench --bench noise` runs everything; `... -- goal`
//! runs only the speed goal (4,194,304 points, default `fill3` at the best
//! level vs `noise::Perlin::get`); `-- modes` both hash modes at every level,
//! plain and periodic. The per-level `fillN` groups measure Ken's table
//! (`Perlin::reference`).

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

criterion_group!(benches, fills, goal, modes);
criterion_main!(benches);
