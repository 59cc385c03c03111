//! Composition: a graph built at run time against the same graph composed
//! statically, and a static graph against its nodes, in the same run
//! (elements per second).
//!
//! - `warped-fbm-grid2`: `fill_grid2` of a 1024² grid (step 1/128) of
//!   6-octave fBm over Perlin, domain-warped by Perlin (amplitude 0.5): the
//!   static `Warp<Fbm<Perlin>, Perlin>`, the graph parsed from its recipe,
//!   and the same nodes each boxed as a `DynSource` (goal: run time ≤ 1.5 ×
//!   static).
//! - `nodes-points`: `fill3` on 1,048,576 random points of Perlin, of
//!   6-octave fBm, and of the static warp of the one by the other (goal: the
//!   graph ≤ the sum of its nodes: the fBm plus 3 Perlin evaluations).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noisefield::prelude::*;
use noisefield::{DynSource, Fbm, Grid2, Perlin, Recipe, Warp};
use std::time::Duration;

mod common;
use common::random_coords;

const SIDE: usize = 1024;
const RECIPE: &str = "warp(fbm(perlin(seed=7), octaves=6), perlin(seed=8), amplitude=0.5)";

fn static_graph() -> Warp<Fbm<Perlin>, Perlin> {
    Warp::new(Fbm::new(Perlin::new(7)).octaves(6), Perlin::new(8)).amplitude(0.5)
}

fn boxed_graph() -> DynSource {
    let fbm = DynSource::new(Fbm::new(DynSource::new(Perlin::new(7))).octaves(6));
    DynSource::new(Warp::new(fbm, DynSource::new(Perlin::new(8))).amplitude(0.5))
}

fn warped_fbm_grid2(c: &mut Criterion) {
    let grid = Grid2::new([0.0; 2], [1.0 / 128.0; 2], [SIDE, SIDE]);
    let mut out = vec![0.0f32; SIDE * SIDE];
    let mut g = c.benchmark_group("warped-fbm-grid2");
    g.sample_size(10).measurement_time(Duration::from_secs(6));
    g.throughput(Throughput::Elements((SIDE * SIDE) as u64));
    let id = |name, round| BenchmarkId::new(name, format!("1024x1024-{round}"));
    let static_graph = static_graph();
    let recipe = RECIPE.parse::<Recipe>().unwrap().source();
    let boxed = boxed_graph();
    // Interleaved, so drift in the machine's speed hits all three alike.
    for round in [1, 2] {
        g.bench_function(id("static", round), |b| {
            b.iter(|| static_graph.fill_grid(&grid, &mut out).unwrap())
        });
        g.bench_function(id("recipe", round), |b| {
            b.iter(|| recipe.fill_grid(&grid, &mut out).unwrap())
        });
        g.bench_function(id("boxed", round), |b| {
            b.iter(|| boxed.fill_grid(&grid, &mut out).unwrap())
        });
    }
    g.finish();
}

fn nodes_points(c: &mut Criterion) {
    let n = 1 << 20;
    let p = random_coords(n, 3);
    let mut out = vec![0.0f32; n];
    let mut g = c.benchmark_group("nodes-points");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(n as u64));
    let perlin = Perlin::new(8);
    let fbm = Fbm::new(Perlin::new(7)).octaves(6);
    let warped = static_graph();
    g.bench_function(BenchmarkId::new("perlin", n), |b| {
        b.iter(|| perlin.fill([&p[0], &p[1], &p[2]], &mut out).unwrap())
    });
    g.bench_function(BenchmarkId::new("fbm6", n), |b| {
        b.iter(|| fbm.fill([&p[0], &p[1], &p[2]], &mut out).unwrap())
    });
    g.bench_function(BenchmarkId::new("warp(fbm6, perlin)", n), |b| {
        b.iter(|| warped.fill([&p[0], &p[1], &p[2]], &mut out).unwrap())
    });
    g.finish();
}

criterion_group!(benches, warped_fbm_grid2, nodes_points);
criterion_main!(benches);
