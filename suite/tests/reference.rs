//! Ken Perlin's ImprovedNoise (f64 Java reference) against `Perlin::reference()`.
//!
//! The values come from `suite/data/improved_noise_3d.csv`, a byte-for-byte
//! copy of the project's `shared/reference/improved_noise_3d.csv` (computed
//! outside this crate by the published algorithm; both SHA-256
//! `f94cc022ce4f0d6a`), plus the published spot check
//! noise(3.14, 42, 7) = 0.13691995878400012.

use crate::common::levels;
use noisefield::Perlin;
use noisefield::prelude::*;
use std::path::PathBuf;

/// The bar: 4e-6 absolute at every point.
const TOLERANCE: f64 = 4e-6;

const REFERENCE_CSV: &str = "data/improved_noise_3d.csv";

fn reference_rows() -> Vec<[f64; 4]> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(REFERENCE_CSV);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let rows: Vec<[f64; 4]> = text
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l.split(',').map(|f| f.trim().parse().unwrap()).collect();
            [v[0], v[1], v[2], v[3]]
        })
        .collect();
    assert_eq!(rows.len(), 256, "reference file should have 256 points");
    rows
}

#[test]
fn noise3_matches_ken_reference_within_4e_6() {
    let perlin = Perlin::reference();
    let mut worst = 0.0f64;
    for [x, y, z, expected] in reference_rows() {
        // The coordinates are exactly representable as f32.
        let (xf, yf, zf) = (x as f32, y as f32, z as f32);
        assert_eq!(xf as f64, x);
        let got = perlin.noise([xf, yf, zf]) as f64;
        let err = (got - expected).abs();
        worst = worst.max(err);
        assert!(
            err <= TOLERANCE,
            "noise3({x}, {y}, {z}) = {got}, reference {expected}, error {err}"
        );
    }
    eprintln!("worst error against the reference: {worst:e}");
}

#[test]
fn fill3_matches_ken_reference_at_every_level() {
    let rows = reference_rows();
    let xs: Vec<f32> = rows.iter().map(|r| r[0] as f32).collect();
    let ys: Vec<f32> = rows.iter().map(|r| r[1] as f32).collect();
    let zs: Vec<f32> = rows.iter().map(|r| r[2] as f32).collect();
    for level in levels() {
        let perlin = Perlin::reference().with_level(level).unwrap();
        let mut out = vec![f32::NAN; rows.len()];
        perlin.fill([&xs, &ys, &zs], &mut out).unwrap();
        for (r, got) in rows.iter().zip(&out) {
            let err = (*got as f64 - r[3]).abs();
            assert!(err <= TOLERANCE, "{level}: error {err} at {r:?}");
        }
    }
}

#[test]
#[allow(clippy::approx_constant)] // 3.14 is the published input, not π
fn published_spot_check() {
    let v = Perlin::reference().noise([3.14, 42.0, 7.0]) as f64;
    assert!((v - 0.136_919_958_784_000_12).abs() < 1e-6, "got {v}");
}

#[test]
fn a_seeded_table_is_not_ken_noise() {
    // Guards against the reference test passing for any table.
    let rows = reference_rows();
    let seeded = Perlin::permuted(1);
    let far = rows
        .iter()
        .filter(|[x, y, z, e]| {
            ((seeded.noise([*x as f32, *y as f32, *z as f32]) as f64) - e).abs() > 1e-3
        })
        .count();
    assert!(far > 200, "only {far} of 256 points differ");
}
