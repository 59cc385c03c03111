//! A fixed workload for counting instructions under callgrind (BENCHMARKS.md):
//!
//! ```text
//! cargo build --release -p noisefield-bench --example instructions
//! valgrind --tool=callgrind target/release/examples/instructions fill3 coordinates avx2 1
//! valgrind --tool=callgrind target/release/examples/instructions fill3 coordinates avx2 3
//! ```
//!
//! Arguments: the job (`fill3`, `fill3-periodic`, `fill4`, `fill5`, `grad3`, `grad4` (values and
//! derivatives), `noise3` (one
//! point per call), `grid2`, `grid3`, `grid3-coarse` (step 1), `grid4-coarse` (64 × 16 × 16 × 8, step 1); six-octave
//! fractals over the noise: `fbm3`, `fbm3-periodic` (period 300), `ridged3`, `marble3`, `fbm-grid2`,
//! `ridged-grid2`, `billow-grid2`, `turbulence-grid2` (1024² at step 0.02, 6 octaves), `fbm-wide2` (16384 × 2 at 1/128), `fbm-column2` (2 × 16384), `fbm-square2` (256 × 128),
//! `fbm-row2` (16384 × 1), `fbm-row2-f64` (its points in `f64`); warped 6-octave fBm on a 256² grid: `warped-static`,
//! `warped-recipe`, `warped-boxed`), the hash
//! mode (`coordinates` or `permuted`), the level, and how many times to
//! repeat it. The difference between 3 and 1 repeats, divided by 2 × the
//! job's sample count, is the kernel's cost per sample without setup.

use noisefield::prelude::*;
use noisefield::{
    Billow, DynSource, Fbm, Grid2, Grid3, Grid4, HashMode, Level, Marble, Perlin, Recipe, Ridged,
    Turbulence, Warp,
};

// The benches' inputs: points uniform in [-1000, 1000] from a fixed stream.
#[path = "../benches/common/mod.rs"]
mod common;

const POINTS: usize = 1 << 16;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [job, mode, level, repeats] = args.as_slice() else {
        return Err("usage: instructions JOB MODE LEVEL REPEATS".into());
    };
    let mode: HashMode = mode.parse()?;
    let level: Level = level.parse()?;
    let repeats: usize = repeats.parse()?;
    let perlin = Perlin::with_hash(0x5eed, mode).with_level(level)?;

    let xyz = common::random_coords(POINTS, 3);
    let (xs, ys, zs) = (&xyz[0], &xyz[1], &xyz[2]);

    let samples = match job.as_str() {
        "fill3" | "fill3-periodic" => {
            let source = if job == "fill3" {
                perlin
            } else {
                perlin.with_period([300, 300, 300, 300])?
            };
            let mut out = vec![0.0f32; POINTS];
            for _ in 0..repeats {
                source.fill([xs, ys, zs], &mut out)?;
                std::hint::black_box(&mut out);
            }
            POINTS
        }
        "fill4" => {
            let w = common::random_coords(POINTS, 4);
            let mut out = vec![0.0f32; POINTS];
            for _ in 0..repeats {
                perlin.fill([&w[0], &w[1], &w[2], &w[3]], &mut out)?;
                std::hint::black_box(&mut out);
            }
            POINTS
        }
        "fill5" => {
            let w = common::random_coords(POINTS, 5);
            let mut out = vec![0.0f32; POINTS];
            for _ in 0..repeats {
                perlin.fill([&w[0], &w[1], &w[2], &w[3], &w[4]], &mut out)?;
                std::hint::black_box(&mut out);
            }
            POINTS
        }
        "grad3" => {
            // Values and derivatives (`fill_grad`).
            let mut out = vec![0.0f32; POINTS];
            let (mut dx, mut dy, mut dz) = (out.clone(), out.clone(), out.clone());
            for _ in 0..repeats {
                perlin.fill_grad([xs, ys, zs], &mut out, [&mut dx, &mut dy, &mut dz])?;
                std::hint::black_box((&mut out, &mut dx, &mut dy, &mut dz));
            }
            POINTS
        }
        "grad4" => {
            // Values and derivatives in 4D (`fill_grad`).
            let w = common::random_coords(POINTS, 4);
            let mut out = vec![0.0f32; POINTS];
            let mut d = [out.clone(), out.clone(), out.clone(), out.clone()];
            for _ in 0..repeats {
                let [d0, d1, d2, d3] = &mut d;
                perlin.fill_grad([&w[0], &w[1], &w[2], &w[3]], &mut out, [d0, d1, d2, d3])?;
                std::hint::black_box((&mut out, &mut d));
            }
            POINTS
        }
        "noise3" => {
            // One point per call (`Source::noise`, the scalar backend).
            let mut out = vec![0.0f32; POINTS];
            for _ in 0..repeats {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = perlin.noise([xs[i], ys[i], zs[i]]);
                }
                std::hint::black_box(&mut out);
            }
            POINTS
        }
        "grid2" => {
            let grid = Grid2::new([0.0; 2], [0.02; 2], [4096, 4096]);
            let mut out = vec![0.0f32; grid.check()?];
            for _ in 0..repeats {
                perlin.fill_grid(&grid, &mut out)?;
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        "grid3" | "grid3-coarse" => {
            // Coarse: one cell per sample, rows of whole packs of stage 2.
            let step = if job == "grid3" { 0.02 } else { 1.0 };
            let grid = Grid3::new([0.0; 3], [step; 3], [64, 64, 64]);
            let mut out = vec![0.0f32; grid.check()?];
            for _ in 0..repeats {
                perlin.fill_grid(&grid, &mut out)?;
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        "grid4-coarse" => {
            let grid = Grid4::new([0.0; 4], [1.0; 4], [64, 16, 16, 8]);
            let mut out = vec![0.0f32; grid.check()?];
            for _ in 0..repeats {
                perlin.fill_grid(&grid, &mut out)?;
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        "fbm3" | "fbm3-periodic" | "ridged3" | "marble3" => {
            let mut out = vec![0.0f32; POINTS];
            let periodic = perlin.clone().with_period([300, 300, 300, 300])?;
            for _ in 0..repeats {
                match job.as_str() {
                    "fbm3" => Fbm::new(perlin.clone()).fill([xs, ys, zs], &mut out)?,
                    "fbm3-periodic" => Fbm::new(periodic.clone()).fill([xs, ys, zs], &mut out)?,
                    "ridged3" => Ridged::new(perlin.clone()).fill([xs, ys, zs], &mut out)?,
                    _ => Marble::new(perlin.clone()).fill([xs, ys, zs], &mut out)?,
                }
                std::hint::black_box(&mut out);
            }
            POINTS
        }
        "fbm-wide2" | "fbm-square2" | "fbm-column2" => {
            // The command-line tool's default field (six-octave fBm at
            // 1/128 cells per sample) as one of its windows of a very wide
            // field (16384 × 2), of a very tall one (2 × 16384) and as a
            // square of as many samples.
            let size = match job.as_str() {
                "fbm-wide2" => [16384, 2],
                "fbm-column2" => [2, 16384],
                _ => [256, 128],
            };
            let grid = Grid2::new([0.0; 2], [1.0 / 128.0; 2], size);
            let mut out = vec![0.0f32; grid.check()?];
            for _ in 0..repeats {
                Fbm::new(perlin.clone()).fill_grid(&grid, &mut out)?;
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        "fbm-row2" | "fbm-row2-f64" => {
            // One row of the command-line tool's default field (16384 × 1
            // at 1/128), as a grid and as the f64 points at its samples.
            let grid = Grid2::new([0.0; 2], [1.0 / 128.0; 2], [16384, 1]);
            let xs: Vec<f64> = (0..16384).map(|i| i as f64 / 128.0).collect();
            let ys = vec![0.0f64; 16384];
            let mut out = vec![0.0f32; grid.check()?];
            let fbm = Fbm::new(perlin.clone());
            for _ in 0..repeats {
                if job == "fbm-row2" {
                    fbm.fill_grid(&grid, &mut out)?;
                } else {
                    fbm.fill_f64([&xs, &ys], &mut out)?;
                }
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        "fbm-grid2" | "ridged-grid2" | "billow-grid2" | "turbulence-grid2" => {
            let grid = Grid2::new([0.0; 2], [0.02; 2], [1024, 1024]);
            let mut out = vec![0.0f32; grid.check()?];
            for _ in 0..repeats {
                match job.as_str() {
                    "fbm-grid2" => Fbm::new(perlin.clone()).fill_grid(&grid, &mut out)?,
                    "ridged-grid2" => Ridged::new(perlin.clone()).fill_grid(&grid, &mut out)?,
                    "billow-grid2" => Billow::new(perlin.clone()).fill_grid(&grid, &mut out)?,
                    _ => Turbulence::new(perlin.clone()).fill_grid(&grid, &mut out)?,
                }
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        "warped-static" | "warped-recipe" | "warped-boxed" => {
            // 6-octave fBm warped by Perlin on a 256² grid (step 1/128):
            // composed statically, parsed from a recipe, every node boxed.
            let grid = Grid2::new([0.0; 2], [1.0 / 128.0; 2], [256, 256]);
            let mut out = vec![0.0f32; grid.check()?];
            let hash = mode.name();
            let recipe = format!(
                "warp(fbm(perlin(seed=7, hash={hash}), octaves=6), perlin(seed=8, hash={hash}), \
                 amplitude=0.5)"
            );
            let lattice = |seed| Perlin::with_hash(seed, mode);
            // The static graph behind one box runs its own compiled path
            // (one virtual call per fill).
            let graph = match job.as_str() {
                "warped-static" => DynSource::new(
                    Warp::new(Fbm::new(lattice(7)).octaves(6), lattice(8))
                        .amplitude(0.5)
                        .with_level(level)?,
                ),
                "warped-recipe" => recipe.parse::<Recipe>()?.source().with_level(level)?,
                _ => {
                    let fbm = DynSource::new(Fbm::new(DynSource::new(lattice(7))).octaves(6));
                    DynSource::new(Warp::new(fbm, DynSource::new(lattice(8))).amplitude(0.5))
                        .with_level(level)?
                }
            };
            for _ in 0..repeats {
                graph.fill_grid(&grid, &mut out)?;
                std::hint::black_box(&mut out);
            }
            out.len()
        }
        other => return Err(format!("unknown job {other:?}").into()),
    };
    println!("{job} {mode:?} {level}: {samples} samples × {repeats}");
    Ok(())
}
