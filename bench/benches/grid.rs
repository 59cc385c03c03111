//! Grids against random points, parallel against one thread, and the `noise`
//! crate's loop over the same grid; elements per second.
//!
//! - `grid3`: 256³ samples, step 0.02 (50 samples per lattice cell).
//! - `grid3-1m`: 128×128×64 samples (1 Mi, 4 MiB of output, fits the L3
//!   cache), one thread and parallel: the 64 MiB grids above are bound by
//!   memory bandwidth on two threads.
//! - `grid2`: 4096² samples, step 0.02.
//! - `versus-quick`: issue 39's jobs against quick-noise 0.3.0 (see
//!   `versus_quick`; `examples/versus.rs` runs one job of either library
//!   for callgrind).
//!
//! Random-point baselines: 1,048,576 points uniform in [-1000, 1000]ᴰ.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noise::NoiseFn;
use noisefield::prelude::*;
use noisefield::{Fbm, Grid2, Grid3, HashMode, Level, Perlin};
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

/// Issue 39's jobs against quick-noise 0.3.0 (its run-time dispatch), one
/// thread, Perlin noise at the grid's samples `i · frequency`: 64² and 32³
/// at 1/64 and 1/8, three-octave fBm 1024² and 128³ at 1/32, 4096² at
/// 1/64; noisefield at AVX2 and at the detected level. The store
/// bandwidth anchor: a plain fill of the 4096² buffer.
fn versus_quick(c: &mut Criterion) {
    use quick_noise::simd::{Arch, dispatch_simd};

    /// quick-noise's grid: fBm of `octaves` (1: plain noise).
    fn quick<A: Arch>(size: &[usize], frequency: f32, octaves: usize, out: &mut [f32]) {
        use quick_noise::{Fbm, Grid};
        match *size {
            [x, y] => Grid::<2, A>::new(x, y)
                .seed(7)
                .builder::<Fbm, quick_noise::Perlin>()
                .octaves(octaves)
                .frequency(frequency)
                .fill(out),
            [x, y, z] => Grid::<3, A>::new(x, y, z)
                .seed(7)
                .builder::<Fbm, quick_noise::Perlin>()
                .octaves(octaves)
                .frequency(frequency)
                .fill(out),
            _ => unreachable!("2D or 3D"),
        }
    }
    #[dispatch_simd(A)]
    fn quick_dispatched(size: &[usize], frequency: f32, octaves: usize, out: &mut [f32]) {
        quick::<A>(size, frequency, octaves, out);
    }

    let jobs: [(&str, &[usize], f32, u32); 7] = [
        ("64^2-1/64", &[64, 64], 1.0 / 64.0, 1),
        ("64^2-1/8", &[64, 64], 1.0 / 8.0, 1),
        ("32^3-1/64", &[32, 32, 32], 1.0 / 64.0, 1),
        ("32^3-1/8", &[32, 32, 32], 1.0 / 8.0, 1),
        ("fbm3-1024^2-1/32", &[1024, 1024], 1.0 / 32.0, 3),
        ("fbm3-128^3-1/32", &[128, 128, 128], 1.0 / 32.0, 3),
        ("4096^2-1/64", &[4096, 4096], 1.0 / 64.0, 1),
    ];
    let mut g = c.benchmark_group("versus-quick");
    g.sample_size(20).measurement_time(Duration::from_secs(2));
    let mut out = vec![0.0f32; 4096 * 4096];
    let detected = Level::detect();
    for (name, size, frequency, octaves) in jobs {
        let samples: usize = size.iter().product();
        let out = &mut out[..samples];
        g.throughput(Throughput::Elements(samples as u64));
        for level in [Level::Avx2, detected] {
            let Ok(perlin) = Perlin::new(7).with_level(level) else {
                eprintln!("versus-quick: this CPU lacks {level}, skipped");
                continue;
            };
            let step = f64::from(frequency);
            let id = format!("noisefield-{level}");
            match *size {
                [x, y] => {
                    let grid = Grid2::new([0.0; 2], [step; 2], [x, y]);
                    let fbm = Fbm::new(perlin.clone()).octaves(octaves);
                    g.bench_function(BenchmarkId::new(id, name), |b| match octaves {
                        1 => b.iter(|| perlin.fill_grid(&grid, out).unwrap()),
                        _ => b.iter(|| fbm.fill_grid(&grid, out).unwrap()),
                    });
                }
                [x, y, z] => {
                    let grid = Grid3::new([0.0; 3], [step; 3], [x, y, z]);
                    let fbm = Fbm::new(perlin.clone()).octaves(octaves);
                    g.bench_function(BenchmarkId::new(id, name), |b| match octaves {
                        1 => b.iter(|| perlin.fill_grid(&grid, out).unwrap()),
                        _ => b.iter(|| fbm.fill_grid(&grid, out).unwrap()),
                    });
                }
                _ => unreachable!("2D or 3D"),
            }
            if level == detected {
                break;
            }
        }
        let octaves = octaves as usize;
        g.bench_function(BenchmarkId::new("quick-noise", name), |b| {
            b.iter(|| quick_dispatched(size, frequency, octaves, out))
        });
        if samples == 4096 * 4096 {
            g.bench_function(BenchmarkId::new("store-bandwidth", name), |b| {
                b.iter(|| {
                    out.fill(black_box(0.5));
                    black_box(&mut *out);
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, grid3, grid2, grid3_1m, grid_modes, versus_quick);
criterion_main!(benches);
