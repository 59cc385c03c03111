//! Grids from the fuzzer's bytes: every level and `_par` give the scalar
//! level's bits; a window gives exactly its block of the whole grid; coarse
//! grids (|x step| above the row path's bound: 1/3 in 1D and 2D, 3/4 in 3D,
//! 1/64 in 4D) equal `fillN_f64` on the same points bit for bit,
//! fine ones within 1e-6; periodic Perlins included; a refused grid leaves
//! `out` untouched.
//!
//! Input layout (missing bytes read as 0):
//!
//! ```text
//! byte 0        bits 0-1: dimension - 1; bit 2: periodic; bit 3: raw f64 origin
//! bytes 1..5    sizes per axis (each mod 25)
//! bytes 5..9    window offsets, bytes 9..13 window sizes (mod the grid size)
//! bytes 13..17  periods per axis (1 + byte)
//! bytes 17..25  seed
//! bytes 25..    per axis: origin (8 bytes), step (8 bytes)
//! ```

#![no_main]

use libfuzzer_sys::fuzz_target;
use noisefield::prelude::*;
use noisefield::{Error, Grid, Level, Perlin};

fuzz_target!(|data: &[u8]| check(data));

fn byte(data: &[u8], i: usize) -> u8 {
    data.get(i).copied().unwrap_or(0)
}

fn word(data: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    for (k, v) in b.iter_mut().enumerate() {
        *v = byte(data, i + k);
    }
    u64::from_le_bytes(b)
}

fn check(data: &[u8]) {
    match byte(data, 0) & 3 {
        0 => grids::<1>(data),
        1 => grids::<2>(data),
        2 => grids::<3>(data),
        _ => grids::<4>(data),
    }
}

/// `fill_grid`, or `fill_grid_par` when `par`.
fn fill_any<const D: usize>(
    p: &Perlin,
    g: &Grid<D>,
    out: &mut [f32],
    par: bool,
) -> Result<(), Error> {
    if par {
        p.fill_grid_par(g, out)
    } else {
        p.fill_grid(g, out)
    }
}

fn grids<const D: usize>(data: &[u8]) {
    let flags = byte(data, 0);
    let size: [usize; D] = std::array::from_fn(|a| usize::from(byte(data, 1 + a)) % 25);
    let mut origin = [0.0f64; D];
    let mut step = [0.0f64; D];
    for a in 0..D {
        let (o, s) = (word(data, 25 + 16 * a), word(data, 33 + 16 * a));
        origin[a] = if flags & 8 != 0 {
            f64::from_bits(o)
        } else {
            (o as i64 as f64) / 2f64.powi(20)
        };
        // Steps from 0 to about ±2, so both grid paths occur.
        step[a] = (s as i32 as f64) / 2f64.powi(30);
    }
    let mut perlin = Perlin::new(word(data, 17));
    if flags & 4 != 0 {
        let period: [u32; 4] = std::array::from_fn(|a| 1 + u32::from(byte(data, 13 + a)));
        perlin = perlin.with_period(period).unwrap();
    }
    let grid = Grid::<D>::new(origin, step, size);
    let n = size.iter().product::<usize>();
    let scalar = perlin.clone().with_level(Level::Scalar).unwrap();
    let mut want = vec![f32::from_bits(0x7fa5_a5a5); n];
    let result = fill_any(&scalar, &grid, &mut want, false);
    if let Err(e) = result {
        assert_eq!(Err(e), grid.check().map(|_| ()), "fill and check disagree");
        assert!(
            want.iter().all(|v| v.to_bits() == 0x7fa5_a5a5),
            "refused fill wrote"
        );
        return;
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    for level in Level::available() {
        let p = perlin.clone().with_level(level).unwrap();
        for par in [false, true] {
            let mut got = vec![0.0f32; n];
            fill_any(&p, &grid, &mut got, par).unwrap();
            assert_eq!(bits(&got), bits(&want), "{level} par={par}");
        }
    }
    // A window is exactly its block of the whole grid.
    let offset: [usize; D] =
        std::array::from_fn(|a| usize::from(byte(data, 5 + a)) % (size[a] + 1));
    let wsize: [usize; D] =
        std::array::from_fn(|a| usize::from(byte(data, 9 + a)) % (size[a] - offset[a] + 1));
    let window = grid.window(offset, wsize).unwrap();
    let mut part = vec![0.0f32; wsize.iter().product()];
    fill_any(&perlin, &window, &mut part, false).unwrap();
    for (i, v) in part.iter().enumerate() {
        let (mut rest, mut at, mut stride) = (i, 0, 1);
        for a in 0..D {
            at += (offset[a] + rest % wsize[a]) * stride;
            rest /= wsize[a];
            stride *= size[a];
        }
        assert_eq!(v.to_bits(), want[at].to_bits(), "window sample {i}");
    }
    // The same points through fillN_f64.
    let mut coords = vec![Vec::with_capacity(n); D];
    for i in 0..n {
        let mut rest = i;
        for (a, c) in coords.iter_mut().enumerate() {
            c.push(grid.coord(a, rest % size[a]));
            rest /= size[a];
        }
    }
    let mut points = vec![0.0f32; n];
    perlin
        .fill_f64(
            std::array::from_fn::<_, D, _>(|a| &coords[a][..]),
            &mut points,
        )
        .unwrap();
    // The library's row-path bound per dimension (`MAX_COEFFICIENT_STEP`):
    // above it a grid takes the point kernel, so its bits are fillN_f64's.
    let coarse = step[0].abs() > [1.0 / 3.0, 1.0 / 3.0, 0.75, 1.0 / 64.0][D - 1];
    for (g, q) in want.iter().zip(&points) {
        if coarse {
            assert_eq!(g.to_bits(), q.to_bits(), "coarse grid vs points");
        } else {
            assert!((g - q).abs() <= 1e-6, "fine grid {g} vs points {q}");
        }
    }
}
