//! Fractals, derivatives and value noise, each against its anchor in the
//! same run (elements per second):
//!
//! - `fbm-points`: `fill3` of one Perlin octave vs `Fbm` with 1, 4 and 8
//!   octaves on 1,048,576 random points (goal: k octaves ≤ 1.08 × k × one).
//! - `fbm-grid3`: the same on a 256×256×16 grid, step 0.02, one thread
//!   (goal for 4 octaves: ≥ 4 × FastNoise2's ~135 Mpts/s = 540 Mpts/s).
//! - `grad3`: `fill3` vs `fill3_grad` (Perlin, Value), and `Fbm` 4 octaves
//!   (goal: value + gradient ≤ 2 × value only).
//! - `value3`: Value vs Perlin `fill3`.
//! - `fbm-periodic`: six-octave `Fbm` of the default `Perlin::new`, plain vs
//!   periodic (300 cells on every axis), on 1,048,576 random points and a
//!   256×256×16 grid (periodic fractal points were 1.7× plain before their
//!   centring ran in vectors).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noisefield::prelude::*;
use noisefield::{Fbm, Grid3, Perlin, Value};
use std::time::Duration;

mod common;
use common::random_coords;

const N: usize = 1 << 20;

fn fbm_points(c: &mut Criterion) {
    let p = Perlin::reference();
    let xyz = random_coords(N, 3);
    let mut out = vec![0.0f32; N];
    let mut g = c.benchmark_group("fbm-points");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(BenchmarkId::new("perlin-fill3", N), |b| {
        b.iter(|| p.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
    });
    for k in [1, 4, 8] {
        let f = Fbm::new(p.clone()).octaves(k);
        g.bench_function(BenchmarkId::new(format!("fbm{k}-fill3"), N), |b| {
            b.iter(|| f.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
        });
    }
    g.finish();
}

fn fbm_grid3(c: &mut Criterion) {
    let p = Perlin::reference();
    let grid = Grid3::new([0.0; 3], [0.02; 3], [256, 256, 16]);
    let samples = 256 * 256 * 16;
    let mut out = vec![0.0f32; samples];
    let mut g = c.benchmark_group("fbm-grid3");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(samples as u64));
    g.bench_function(BenchmarkId::new("perlin-fill_grid3", "256x256x16"), |b| {
        b.iter(|| p.fill_grid(&grid, &mut out).unwrap())
    });
    for k in [1, 4, 8] {
        let f = Fbm::new(p.clone()).octaves(k);
        g.bench_function(
            BenchmarkId::new(format!("fbm{k}-fill_grid3"), "256x256x16"),
            |b| b.iter(|| f.fill_grid(&grid, &mut out).unwrap()),
        );
    }
    let f = Fbm::new(p.clone()).octaves(4);
    g.bench_function(BenchmarkId::new("fbm4-fill_grid3_par", "256x256x16"), |b| {
        b.iter(|| f.fill_grid_par(&grid, &mut out).unwrap())
    });
    g.finish();
}

fn grad3(c: &mut Criterion) {
    let xyz = random_coords(N, 3);
    let mut out = vec![0.0f32; N];
    let (mut dx, mut dy, mut dz) = (vec![0.0f32; N], vec![0.0f32; N], vec![0.0f32; N]);
    let mut g = c.benchmark_group("grad3");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(N as u64));
    let p = Perlin::reference();
    let v = Value::reference();
    let f = Fbm::new(p.clone()).octaves(4);
    g.bench_function(BenchmarkId::new("perlin-fill3", N), |b| {
        b.iter(|| p.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
    });
    g.bench_function(BenchmarkId::new("perlin-fill3_grad", N), |b| {
        b.iter(|| {
            p.fill_grad(
                [&xyz[0], &xyz[1], &xyz[2]],
                &mut out,
                [&mut dx, &mut dy, &mut dz],
            )
            .unwrap()
        })
    });
    g.bench_function(BenchmarkId::new("value-fill3", N), |b| {
        b.iter(|| v.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
    });
    g.bench_function(BenchmarkId::new("value-fill3_grad", N), |b| {
        b.iter(|| {
            v.fill_grad(
                [&xyz[0], &xyz[1], &xyz[2]],
                &mut out,
                [&mut dx, &mut dy, &mut dz],
            )
            .unwrap()
        })
    });
    g.bench_function(BenchmarkId::new("fbm4-fill3", N), |b| {
        b.iter(|| f.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
    });
    g.bench_function(BenchmarkId::new("fbm4-fill3_grad", N), |b| {
        b.iter(|| {
            f.fill_grad(
                [&xyz[0], &xyz[1], &xyz[2]],
                &mut out,
                [&mut dx, &mut dy, &mut dz],
            )
            .unwrap()
        })
    });
    g.finish();
}

fn fbm_periodic(c: &mut Criterion) {
    let plain = Perlin::new(0x5eed);
    let periodic = plain.clone().with_period([300; 4]).unwrap();
    let xyz = random_coords(N, 3);
    let grid = Grid3::new([0.0; 3], [0.02; 3], [256, 256, 16]);
    let mut out = vec![0.0f32; N];
    let mut g = c.benchmark_group("fbm-periodic");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    for (name, p) in [("plain", plain), ("periodic", periodic)] {
        let f = Fbm::new(p).octaves(6);
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function(BenchmarkId::new(format!("fbm6-fill3-{name}"), N), |b| {
            b.iter(|| f.fill([&xyz[0], &xyz[1], &xyz[2]], &mut out).unwrap())
        });
        g.throughput(Throughput::Elements(256 * 256 * 16));
        g.bench_function(
            BenchmarkId::new(format!("fbm6-fill_grid3-{name}"), "256x256x16"),
            |b| b.iter(|| f.fill_grid(&grid, &mut out[..256 * 256 * 16]).unwrap()),
        );
    }
    g.finish();
}

criterion_group!(benches, fbm_points, fbm_grid3, grad3, fbm_periodic);
criterion_main!(benches);
