//! `noisefield bench`: million points per second per available SIMD level,
//! for random points (`fill2`, `fill3`) and grids (`fill_grid2`,
//! `fill_grid3`, one thread and on the rayon pool). Each cell of the table
//! is the best of `--runs` runs.

use crate::Failure;
use crate::args::{BenchArgs, SourceArgs};
use crate::progress::Progress;
use crate::source;
use noisefield::DynSource;
use noisefield::prelude::*;
use noisefield::{Error, Grid2, Grid3, Level};
use std::time::Instant;

/// Grid spacing in lattice cells: 1/32, a fine grid as pictures use.
const GRID_STEP: f64 = 1.0 / 32.0;

/// Columns of the table: name and the measured fill.
const COLUMNS: [&str; 5] = ["fill2", "fill3", "grid2", "grid3", "grid3 par"];

/// Runs `noisefield bench`.
pub fn run(args: BenchArgs) -> Result<(), Failure> {
    let levels = match args.source.level {
        Some(level) => vec![level],
        None => Level::available(),
    };
    let sources = levels
        .iter()
        .map(|&level| {
            let one_level = SourceArgs {
                level: Some(level),
                ..args.source.clone()
            };
            source::build(&one_level, None)
        })
        .collect::<Result<Vec<DynSource>, Failure>>()?;

    let n = args.points as usize;
    let mut random = XorShift(0x2545_f491_4f6c_dd1d);
    let mut coords = || -> Vec<f32> { (0..n).map(|_| random.coord()).collect() };
    let (xs, ys, zs) = (coords(), coords(), coords());
    let side2 = (n as f64).sqrt().round().max(1.0) as usize;
    let side3 = (n as f64).cbrt().round().max(1.0) as usize;
    let grid2 = Grid2::new([0.0; 2], [GRID_STEP; 2], [side2; 2]);
    let grid3 = Grid3::new([0.0; 3], [GRID_STEP; 3], [side3; 3]);
    let mut out = vec![0.0f32; n.max(side2 * side2).max(side3 * side3 * side3)];

    let kind = args.source.source.to_string();
    let mut header = format!(
        "{kind}, seed {}: million points per second, best of {} runs\n\
         points: {n} random in [-1000, 1000); grids: {side2}² and {side3}³ samples, \
         1/{} cell apart; par: {} threads\n{:<10}",
        args.source.seed,
        args.runs,
        1.0 / GRID_STEP,
        rayon::current_num_threads(),
        "level"
    );
    for column in COLUMNS {
        header += &format!("{column:>11}");
    }
    header.push('\n');
    crate::print_out(&header)?;
    let progress = Progress::new("bench", (sources.len() * COLUMNS.len()) as u64);
    for source in &sources {
        let mut row = format!("{:<10}", source.level().name());
        for column in COLUMNS {
            let runs = args.runs;
            let (points, seconds) = match column {
                "fill2" => (n, best_of(runs, || source.fill([&xs, &ys], &mut out[..n]))?),
                "fill3" => (
                    n,
                    best_of(runs, || source.fill([&xs, &ys, &zs], &mut out[..n]))?,
                ),
                "grid2" => {
                    let out = &mut out[..side2 * side2];
                    (out.len(), best_of(runs, || source.fill_grid(&grid2, out))?)
                }
                "grid3" => {
                    let out = &mut out[..side3.pow(3)];
                    (out.len(), best_of(runs, || source.fill_grid(&grid3, out))?)
                }
                _ => {
                    let out = &mut out[..side3.pow(3)];
                    (
                        out.len(),
                        best_of(runs, || source.fill_grid_par(&grid3, out))?,
                    )
                }
            };
            row.push_str(&format!(
                "{:>11.1}",
                points as f64 / seconds.max(1e-9) / 1e6
            ));
            progress.advance(1);
        }
        progress.print_line(&row)?;
    }
    Ok(())
}

/// The shortest time of `runs` calls of `fill`, in seconds.
fn best_of(runs: u32, mut fill: impl FnMut() -> Result<(), Error>) -> Result<f64, Error> {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        fill()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best)
}

/// Marsaglia's xorshift64: the same points on every run and machine.
struct XorShift(u64);

impl XorShift {
    /// A coordinate in [-1000, 1000) from the top 24 bits.
    fn coord(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        // 2^24 steps of 2000 / 2^24 each: exact in f32.
        (self.0 >> 40) as f32 / (1u64 << 24) as f32 * 2000.0 - 1000.0
    }
}
