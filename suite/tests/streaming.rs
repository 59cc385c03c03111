//! Grids of 2²² samples or more write their rows with non-temporal stores
//! (2D rows through scratch strips, 3D rows straight from the registers).
//! The values must not change: a streamed grid equals the same grid filled
//! as windows too small to stream, bit for bit, at every level, serial and
//! parallel, including rows whose start is not 64-byte aligned.

use crate::common::levels;
use noisefield::prelude::*;
use noisefield::{Grid2, Grid3, Level, Perlin};

/// `got` equals the windowed fill `reference` bit for bit (the first
/// differing sample is reported).
fn assert_same_bits(got: &[f32], reference: &[f32], context: &str) {
    let first_bad = got
        .iter()
        .zip(reference)
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(first_bad, None, "{context}: differs from windowed fill");
}

#[test]
fn streamed_grids_equal_windowed_grids() {
    // 2050 columns: rows start at every 8-byte offset modulo 64.
    let (nx, ny) = (2050usize, 2048usize);
    assert!(nx * ny >= 1 << 22, "must be large enough to stream");
    let grid = Grid2::new([-3.3, 7.7], [0.013, 0.021], [nx, ny]);
    let reference = {
        let p = Perlin::new(4).with_level(Level::Scalar).unwrap();
        let mut out = vec![0.0f32; nx * ny];
        for band in 0..16 {
            let rows = ny / 16;
            let window = grid.window([0, band * rows], [nx, rows]).unwrap();
            p.fill_grid(&window, &mut out[band * rows * nx..(band + 1) * rows * nx])
                .unwrap();
        }
        out
    };
    for level in levels() {
        let p = Perlin::new(4).with_level(level).unwrap();
        let mut serial = vec![f32::NAN; nx * ny];
        p.fill_grid(&grid, &mut serial).unwrap();
        let mut parallel = vec![f32::NAN; nx * ny];
        p.fill_grid_par(&grid, &mut parallel).unwrap();
        for (name, got) in [("fill_grid2", &serial), ("fill_grid2_par", &parallel)] {
            assert_same_bits(got, &reference, &format!("{level} {name}"));
        }
    }
}

#[test]
fn streamed_3d_grids_equal_windowed_grids() {
    // 130 columns: rows start at every 8-byte offset modulo 64.
    let (nx, ny, nz) = (130usize, 128usize, 256usize);
    assert!(nx * ny * nz >= 1 << 22, "must be large enough to stream");
    let grid = Grid3::new([5.1, -3.3, 7.7], [0.017, 0.013, 0.021], [nx, ny, nz]);
    let reference = {
        let p = Perlin::new(4).with_level(Level::Scalar).unwrap();
        let mut out = vec![0.0f32; nx * ny * nz];
        let slab = nx * ny * 16;
        for (band, out) in out.chunks_mut(slab).enumerate() {
            let window = grid.window([0, 0, band * 16], [nx, ny, 16]).unwrap();
            p.fill_grid(&window, out).unwrap();
        }
        out
    };
    for level in levels() {
        let p = Perlin::new(4).with_level(level).unwrap();
        let mut serial = vec![f32::NAN; nx * ny * nz];
        p.fill_grid(&grid, &mut serial).unwrap();
        let mut parallel = vec![f32::NAN; nx * ny * nz];
        p.fill_grid_par(&grid, &mut parallel).unwrap();
        for (name, got) in [("fill_grid3", &serial), ("fill_grid3_par", &parallel)] {
            assert_same_bits(got, &reference, &format!("{level} {name}"));
        }
    }
}
