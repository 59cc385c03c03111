//! Grids against random points, parallel against one thread, and the `noise`
//! crate's loop over the same grid; elements per second.
//!
//! - `grid3`: 256³ samples, step 0.02 (50 samples per lattice cell).
//! - `grid3-1m`: 128×128×64 samples (1 Mi, 4 MiB of output, fits the L3
//!   cache), one thread and parallel: the 64 MiB grids above are bound by
//!   memory bandwidth on two threads.
//! - `grid2`: 4096² samples, step 0.02.
//!
//! Random-point baselines: 1,048,576 points uniform in [-1000, 1000]ᴰ.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noise::NoiseFn;
use noisefield::prelude::*;
use noisefield::{Grid2, Grid3, HashMode, Perlin};
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::random_coords;

fn grid3(c: &mut Criterion) {
    let p = Perlin::reference();
    let mut g = c.benchmark_group("grid3");
    g.sample_size(10).measurement_time(Duration::from_secs(6));

    let n = 1 << 20;
    let xyz = random_coords(n, 3);
    let mut out = vec![0.0f32; n];
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::new("fill3-random-points", n), |b| {
        b.iter(|| p.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
    });

    let size = 256;
    let grid = Grid3::new([0.0; 3], [0.02; 3], [size; 3]);
    let samples = size * size * size;
    let mut field = vec![0.0f32; samples];
    g.throughput(Throughput::Elements(samples as u64));
    g.bench_function(BenchmarkId::new("fill_grid3", "256^3"), |b| {
        b.iter(|| p.fill_grid(&grid, &mut field).unwrap())
    });
    g.bench_function(BenchmarkId::new("fill_grid3_par", "256^3"), |b| {
        b.iter(|| p.fill_grid_par(&grid, &mut field).unwrap())
    });
    let anchor = noise::Perlin::new(0);
    g.bench_function(BenchmarkId::new("noise-crate-loop", "256^3"), |b| {
        b.iter(|| {
            let mut at = 0;
            for k in 0..size {
                for j in 0..size {
                    for i in 0..size {
                        let p = [i as f64 * 0.02, j as f64 * 0.02, k as f64 * 0.02];
                        field[at] = anchor.get(p) as f32;
                        at += 1;
                    }
                }
            }
            black_box(&field);
        })
    });
    g.finish();
}

fn grid2(c: &mut Criterion) {
    let p = Perlin::reference();
    let mut g = c.benchmark_group("grid2");
    g.sample_size(10).measurement_time(Duration::from_secs(6));

    let n = 1 << 20;
    let xy = random_coords(n, 2);
    let mut out = vec![0.0f32; n];
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::new("fill2-random-points", n), |b| {
        b.iter(|| p.fill([&xy[0], &xy[1]], &mut out).unwrap())
    });

    let size = 4096;
    let grid = Grid2::new([0.0; 2], [0.02; 2], [size; 2]);
    let mut field = vec![0.0f32; size * size];
    g.throughput(Throughput::Elements((size * size) as u64));
    g.bench_function(BenchmarkId::new("fill_grid2", "4096^2"), |b| {
        b.iter(|| p.fill_grid(&grid, &mut field).unwrap())
    });
    g.bench_function(BenchmarkId::new("fill_grid2_par", "4096^2"), |b| {
        b.iter(|| p.fill_grid_par(&grid, &mut field).unwrap())
    });
    let anchor = noise::Perlin::new(0);
    g.bench_function(BenchmarkId::new("noise-crate-loop", "4096^2"), |b| {
        b.iter(|| {
            for (at, v) in field.iter_mut().enumerate() {
                let p = [(at % size) as f64 * 0.02, (at / size) as f64 * 0.02];
                *v = anchor.get(p) as f32;
            }
            black_box(&field);
        })
    });
    g.finish();
}

fn grid3_1m(c: &mut Criterion) {
    let p = Perlin::reference();
    let mut g = c.benchmark_group("grid3-1m");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    let grid = Grid3::new([0.0; 3], [0.02; 3], [128, 128, 64]);
    let mut field = vec![0.0f32; 128 * 128 * 64];
    g.throughput(Throughput::Elements(field.len() as u64));
    g.bench_function(BenchmarkId::new("fill_grid3", "128x128x64"), |b| {
        b.iter(|| p.fill_grid(&grid, &mut field).unwrap())
    });
    g.bench_function(BenchmarkId::new("fill_grid3_par", "128x128x64"), |b| {
        b.iter(|| p.fill_grid_par(&grid, &mut field).unwrap())
    });
    g.finish();
}

/// Grids in both hash modes at the detected level, plain and periodic (a
/// 64-cell tile on every axis): `fill_grid2` 4096², `fill_grid3` 128×128×64,
/// step 0.02, one thread.
fn grid_modes(c: &mut Criterion) {
    let mut g = c.benchmark_group("grid-modes");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    let grid2 = Grid2::new([0.0; 2], [0.02; 2], [4096; 2]);
    let grid3 = Grid3::new([0.0; 3], [0.02; 3], [128, 128, 64]);
    let mut field = vec![0.0f32; 4096 * 4096];
    for mode in HashMode::ALL {
        let plain = Perlin::with_hash(0, mode);
        let periodic = plain.clone().with_period([64; 4]).unwrap();
        for (name, p) in [("plain", plain), ("periodic", periodic)] {
            g.throughput(Throughput::Elements(4096 * 4096));
            let id = format!("fill_grid2-{name}-{}", mode.name());
            g.bench_function(BenchmarkId::new(id, "4096^2"), |b| {
                b.iter(|| p.fill_grid(&grid2, &mut field).unwrap())
            });
            g.throughput(Throughput::Elements(128 * 128 * 64));
            let id = format!("fill_grid3-{name}-{}", mode.name());
            g.bench_function(BenchmarkId::new(id, "128x128x64"), |b| {
                b.iter(|| p.fill_grid(&grid3, &mut field[..128 * 128 * 64]).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, grid3, grid2, grid3_1m, grid_modes);
criterion_main!(benches);
