//! The README's first command: `cargo run --release --example quickstart`.
//!
//! Prints a small ASCII rendering of 2D noise, then the fill3 throughput of
//! every SIMD level this CPU has, in million points per second.

use noisefield::prelude::*;
use noisefield::{Level, Perlin};
use std::time::Instant;

fn main() -> Result<(), noisefield::Error> {
    let perlin = Perlin::reference();

    // 72 × 24 characters of 2D noise, 8 characters per lattice cell across.
    let shades = [' ', '.', ':', '-', '=', '+', '*', '#', '%', '@'];
    for row in 0..24 {
        let line: String = (0..72)
            .map(|col| {
                let v = perlin.noise([col as f32 / 8.0, row as f32 / 4.0]);
                let k = ((v + 1.0) * 0.5 * shades.len() as f32) as usize;
                shades[k.min(shades.len() - 1)]
            })
            .collect();
        println!("{line}");
    }

    // Throughput: 1M random points in [-1000, 1000]^3, best of 5 runs.
    let n = 1 << 20;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut coord = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2000.0 - 1000.0
    };
    let xs: Vec<f32> = (0..n).map(|_| coord()).collect();
    let ys: Vec<f32> = (0..n).map(|_| coord()).collect();
    let zs: Vec<f32> = (0..n).map(|_| coord()).collect();
    let mut out = vec![0.0f32; n];
    println!();
    println!("fill3 over {n} random points, one thread (best of 5):");
    for level in Level::available() {
        let p = perlin.clone().with_level(level)?;
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                p.fill([&xs, &ys, &zs], &mut out)?;
                Ok(t.elapsed().as_secs_f64())
            })
            .collect::<Result<Vec<f64>, noisefield::Error>>()?
            .into_iter()
            .fold(f64::INFINITY, f64::min);
        println!(
            "  {:<9} {:>2} lanes  {:>8.1} Mpoints/s",
            level.name(),
            level.lanes(),
            n as f64 / best / 1e6
        );
    }
    Ok(())
}
