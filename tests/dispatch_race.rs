//! The first use of the crate from many threads at the same instant: CPU
//! detection races with itself and with batch calls.
//!
//! A test binary of its own (not in suite/tests), with this one test, so that nothing has touched
//! the detection cache before the threads start.

use noisefield::prelude::*;
use noisefield::{Level, Perlin};
use std::sync::{Arc, Barrier};
use std::thread;

const THREADS: usize = 16;

#[test]
fn first_calls_from_many_threads_agree() {
    // Inputs are built without the crate: 4099 points (whole packs of every
    // level and a tail), lattice points, NaN and huge values among them.
    let n = 4099;
    let xs: Arc<Vec<f32>> = Arc::new((0..n).map(|i| i as f32 * 0.173 - 300.0).collect());
    let ys: Arc<Vec<f32>> = Arc::new((0..n).map(|i| (i % 97) as f32 * -1.25 + 0.5).collect());
    let zs: Arc<Vec<f32>> = Arc::new(
        (0..n)
            .map(|i| match i % 11 {
                0 => f32::NAN,
                1 => 3e9,
                2 => -0.0,
                _ => i as f32 * 0.01,
            })
            .collect(),
    );
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (xs, ys, zs, barrier) = (xs.clone(), ys.clone(), zs.clone(), barrier.clone());
            thread::spawn(move || {
                let mut out = vec![0.0f32; xs.len()];
                barrier.wait();
                // Half the threads detect first, half go straight to a batch.
                let (detected, level) = if t % 2 == 0 {
                    let detected = Level::detect();
                    let p = Perlin::reference();
                    p.fill([&xs, &ys, &zs], &mut out).unwrap();
                    (detected, p.level())
                } else {
                    let p = Perlin::reference();
                    p.fill([&xs, &ys, &zs], &mut out).unwrap();
                    (Level::detect(), p.level())
                };
                (detected, level, out)
            })
        })
        .collect();
    let results: Vec<(Level, Level, Vec<f32>)> =
        handles.into_iter().map(|h| h.join().unwrap()).collect();

    let settled = Level::detect();
    let p = Perlin::reference();
    let scalar: Vec<u32> = (0..n)
        .map(|i| p.noise([xs[i], ys[i], zs[i]]).to_bits())
        .collect();
    for (t, (detected, level, out)) in results.iter().enumerate() {
        assert_eq!(*detected, settled, "thread {t} detected {detected}");
        assert_eq!(*level, settled, "thread {t} ran at {level}");
        let wrong = out.iter().zip(&scalar).position(|(a, b)| a.to_bits() != *b);
        assert!(
            wrong.is_none(),
            "thread {t}: point {wrong:?} differs from the scalar noise3"
        );
    }
}
