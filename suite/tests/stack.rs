//! Fills must run on small thread stacks at every level, in debug builds too
//! (fully inlined at opt-level 0, the 4D kernel once needed more than the
//! 2 MiB a spawned thread gets; a stack overflow aborts the process).

use crate::common::levels;
use noisefield::{Grid4, Perlin};

#[test]
fn every_fill_runs_on_a_1_mib_thread_stack() {
    for level in levels() {
        let result = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                let p = Perlin::new(9).with_level(level).unwrap();
                let c = [0.3f32, -1.7, 2.5, 100.25, 7.0];
                let (c5, mut out) = (&c[..], [0.0f32; 5]);
                p.fill1(c5, &mut out).unwrap();
                p.fill2(c5, c5, &mut out).unwrap();
                p.fill3(c5, c5, c5, &mut out).unwrap();
                p.fill4(c5, c5, c5, c5, &mut out).unwrap();
                let d: Vec<f64> = c.iter().map(|&v| f64::from(v)).collect();
                p.fill4_f64(&d, &d, &d, &d, &mut out).unwrap();
                let grid = Grid4::new([0.5; 4], [0.1, 0.3, 0.3, 0.3], [5, 2, 2, 2]);
                let mut field = [0.0f32; 40];
                p.fill_grid4(&grid, &mut field).unwrap();
                let coarse = Grid4::new([0.5; 4], [0.7; 4], [5, 2, 2, 2]);
                p.fill_grid4(&coarse, &mut field).unwrap();
                out[3].to_bits() ^ field[7].to_bits()
            })
            .unwrap()
            .join();
        assert!(result.is_ok(), "{level}: fills panicked on a 1 MiB stack");
    }
}
