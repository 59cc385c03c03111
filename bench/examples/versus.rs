//! noisefield against quick-noise 0.3.0 on issue 39's grid jobs, one library
//! per run, for callgrind instruction counts and wall time (BENCHMARKS.md):
//!
//! ```text
//! cargo build --release -p noisefield-bench --example versus
//! valgrind --tool=callgrind target/release/examples/versus noisefield grid2-64 avx2 3
//! target/release/examples/versus quick grid2-64 - 1000
//! ```
//!
//! Arguments: the library (`noisefield` at a level; `quick`: quick-noise with
//! its run-time dispatch; `quick-static`: quick-noise compiled for the target
//! CPU, so build with `-C target-cpu=...` for that one; `store`: a plain
//! fill of the job's buffer, the store bandwidth), the job, the level
//! (noisefield only; `-` otherwise) and how many times to fill the grid.
//! Jobs, Perlin noise on the grid's samples `i · frequency`:
//! `grid2-64`, `grid2-8` (64², frequency 1/64 and 1/8, one octave),
//! `grid3-64`, `grid3-8` (32³), `fbm2` (1024², three octaves of fBm at 1/32),
//! `fbm3` (128³, the same), `grid2-4096` (4096² at 1/64, one octave);
//! issue 40's `wide2`, `wide1` (16384×2 and ×1 at 1/128) and `square2`
//! (181², about as many samples as `wide2`).
//! It prints the samples per call and the seconds per sample of the whole run.

use noisefield::prelude::*;
use noisefield::{Fbm, Grid, Level, Perlin};
use quick_noise::simd::{Arch, dispatch_simd};
use std::hint::black_box;
use std::time::Instant;

/// A job: the grid's sizes (2D or 3D), its frequency and the octaves.
struct Job {
    size: Vec<usize>,
    frequency: f32,
    octaves: u32,
}

fn job(name: &str) -> Option<Job> {
    let (size, frequency, octaves) = match name {
        "grid2-64" => (vec![64, 64], 1.0 / 64.0, 1),
        "grid2-8" => (vec![64, 64], 1.0 / 8.0, 1),
        "grid3-64" => (vec![32, 32, 32], 1.0 / 64.0, 1),
        "grid3-8" => (vec![32, 32, 32], 1.0 / 8.0, 1),
        "fbm2" => (vec![1024, 1024], 1.0 / 32.0, 3),
        "fbm3" => (vec![128, 128, 128], 1.0 / 32.0, 3),
        "grid2-4096" => (vec![4096, 4096], 1.0 / 64.0, 1),
        // Issue 40's very wide fields: a thin window and the square of its
        // samples, at the tool's default frequency.
        "wide2" => (vec![16384, 2], 1.0 / 128.0, 1),
        "square2" => (vec![181, 181], 1.0 / 128.0, 1),
        "wide1" => (vec![16384, 1], 1.0 / 128.0, 1),
        _ => return None,
    };
    Some(Job {
        size,
        frequency,
        octaves,
    })
}

fn noisefield_fill<const D: usize>(
    job: &Job,
    level: Level,
    out: &mut [f32],
    repeats: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let size: [usize; D] = job.size.as_slice().try_into()?;
    let grid = Grid::<D>::new([0.0; D], [f64::from(job.frequency); D], size);
    let perlin = Perlin::new(7).with_level(level)?;
    if job.octaves == 1 {
        for _ in 0..repeats {
            perlin.fill_grid(&grid, out)?;
            black_box(&mut *out);
        }
    } else {
        let fbm = Fbm::new(perlin).octaves(job.octaves);
        for _ in 0..repeats {
            fbm.fill_grid(&grid, out)?;
            black_box(&mut *out);
        }
    }
    Ok(())
}

fn quick_fill<A: Arch>(job: &Job, out: &mut [f32], repeats: usize) {
    use quick_noise::{Fbm, Grid};
    for _ in 0..repeats {
        match job.size[..] {
            [x, y] => Grid::<2, A>::new(x, y)
                .seed(7)
                .builder::<Fbm, quick_noise::Perlin>()
                .octaves(job.octaves as usize)
                .frequency(job.frequency)
                .fill(out),
            [x, y, z] => Grid::<3, A>::new(x, y, z)
                .seed(7)
                .builder::<Fbm, quick_noise::Perlin>()
                .octaves(job.octaves as usize)
                .frequency(job.frequency)
                .fill(out),
            _ => unreachable!("jobs are 2D or 3D"),
        }
        black_box(&mut *out);
    }
}

#[dispatch_simd(A)]
fn quick_dispatched(job: &Job, out: &mut [f32], repeats: usize) {
    quick_fill::<A>(job, out, repeats);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [library, name, level, repeats] = args.as_slice() else {
        return Err("usage: versus LIBRARY JOB LEVEL REPEATS".into());
    };
    let job = job(name).ok_or("unknown job")?;
    let repeats: usize = repeats.parse()?;
    let samples: usize = job.size.iter().product();
    let mut out = vec![0.0f32; samples];
    let start = Instant::now();
    match library.as_str() {
        "noisefield" => {
            let level: Level = level.parse()?;
            if job.size.len() == 2 {
                noisefield_fill::<2>(&job, level, &mut out, repeats)?;
            } else {
                noisefield_fill::<3>(&job, level, &mut out, repeats)?;
            }
        }
        "quick" => quick_dispatched(&job, &mut out, repeats),
        "quick-static" => quick_fill::<quick_noise::simd::StaticArch>(&job, &mut out, repeats),
        "store" => {
            for _ in 0..repeats {
                out.fill(black_box(0.5));
                black_box(&mut out);
            }
        }
        _ => return Err("library: noisefield, quick, quick-static or store".into()),
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{samples} samples, {:.3} ns per sample",
        seconds * 1e9 / (samples * repeats) as f64
    );
    Ok(())
}
