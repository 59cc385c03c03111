//! Fills must run on small thread stacks at every level, in debug builds too.
//!
//! A test binary of the library's own package (not in suite/), so that CI
//! runs it unoptimised as well as in release (`cargo test --test stack`).
//! At opt-level 0 nothing is inlined that is not `inline(always)`, and every
//! inlined temporary keeps its own stack slot: with the kernel forced inline
//! there, a 4D fBm batch at the AVX-512 level (values four vectors wide) took
//! a 1.4 MiB frame and overflowed a 2 MiB test thread. A stack overflow
//! aborts the process, so each level runs on a thread of its own.

use noisefield::{Differentiable, Fbm, Grid4, Level, Map, Perlin, Source, Value, Warp};

/// The stack each fill gets: half of what a spawned thread has by default.
const STACK: usize = 1 << 20;

/// Every fill of `src` in 1D to 4D, points (f32 and f64) and grids.
fn fills(src: &impl Source) -> u32 {
    let c = [0.3f32, -1.7, 2.5, 100.25, 7.0];
    let (c5, mut out) = (&c[..], [0.0f32; 5]);
    src.fill([c5], &mut out).unwrap();
    src.fill([c5, c5], &mut out).unwrap();
    src.fill([c5, c5, c5], &mut out).unwrap();
    src.fill([c5, c5, c5, c5], &mut out).unwrap();
    let d: Vec<f64> = c.iter().map(|&v| f64::from(v)).collect();
    src.fill_f64([&d, &d, &d, &d], &mut out).unwrap();
    let grid = Grid4::new([0.5; 4], [0.1, 0.3, 0.3, 0.3], [5, 2, 2, 2]);
    let mut field = [0.0f32; 40];
    src.fill_grid(&grid, &mut field).unwrap();
    let coarse = Grid4::new([0.5; 4], [0.7; 4], [5, 2, 2, 2]);
    src.fill_grid(&coarse, &mut field).unwrap();
    out[3].to_bits() ^ field[7].to_bits()
}

/// Every 4D gradient fill of `src`, points and grids.
fn gradients(src: &impl Differentiable) -> u32 {
    let c = [0.3f32, -1.7, 2.5, 100.25, 7.0];
    let c5 = &c[..];
    let (mut out, mut g) = ([0.0f32; 5], [[0.0f32; 5]; 4]);
    let [gx, gy, gz, gw] = &mut g;
    src.fill_grad([c5, c5, c5, c5], &mut out, [gx, gy, gz, gw])
        .unwrap();
    let grid = Grid4::new([0.5; 4], [0.1, 0.3, 0.3, 0.3], [5, 2, 2, 2]);
    let (mut field, mut d) = ([0.0f32; 40], [[0.0f32; 40]; 4]);
    let [dx, dy, dz, dw] = &mut d;
    src.fill_grid_grad(&grid, &mut field, [dx, dy, dz, dw])
        .unwrap();
    out[1].to_bits() ^ field[9].to_bits() ^ d[3][9].to_bits()
}

/// Runs `job` on a thread with a `STACK`-byte stack; an overflow aborts.
fn on_small_stack(level: Level, what: &str, job: impl FnOnce() -> u32 + Send + 'static) {
    let result = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(job)
        .unwrap()
        .join();
    assert!(result.is_ok(), "{level}: {what} panicked on a 1 MiB stack");
}

#[test]
fn every_fill_runs_on_a_1_mib_thread_stack() {
    let untested: Vec<&str> = Level::all()
        .iter()
        .filter(|l| !l.is_available())
        .map(|l| l.name())
        .collect();
    eprintln!("stack test: levels this CPU lacks (untested here): {untested:?}");
    for level in Level::available() {
        on_small_stack(level, "perlin", move || {
            fills(&Perlin::new(9).with_level(level).unwrap())
        });
        on_small_stack(level, "perlin gradients", move || {
            gradients(&Perlin::new(9).with_level(level).unwrap())
        });
        on_small_stack(level, "fbm", move || {
            let fbm = Fbm::new(Perlin::new(3)).octaves(4);
            fills(&fbm.with_level(level).unwrap())
        });
        on_small_stack(level, "fbm gradients", move || {
            let fbm = Fbm::new(Value::new(3)).octaves(3);
            gradients(&fbm.with_level(level).unwrap())
        });
        on_small_stack(level, "warp and map", move || {
            let warp = Warp::new(Perlin::new(14), Fbm::new(Value::new(15)).octaves(2));
            fills(&Map::abs(warp).with_level(level).unwrap())
        });
    }
}
