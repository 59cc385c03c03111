//! The parallel derivative grids (`fill_grid_grad_par`), on every
//! differentiable type and in every dimension, give the serial grids' bits;
//! the prelude brings the methods into scope.

use noisefield::prelude::*;
use noisefield::{Fbm, Grid1, Grid2, Grid3, Grid4, Perlin, Value};

/// Runs `$serial` and `$par` (closures over the outputs) and compares every
/// output slice bit for bit.
macro_rules! same_bits {
    ($name:expr, $len:expr, $k:expr, |$o:ident, $d:ident| $call:expr, |$po:ident, $pd:ident| $pcall:expr) => {{
        let mut $o = vec![0.0f32; $len];
        let mut $d = vec![vec![0.0f32; $len]; $k];
        $call.unwrap();
        let mut $po = vec![f32::NAN; $len];
        let mut $pd = vec![vec![f32::NAN; $len]; $k];
        $pcall.unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
        assert_eq!(bits(&$o), bits(&$po), "{}: values", $name);
        for a in 0..$k {
            assert_eq!(bits(&$d[a]), bits(&$pd[a]), "{}: derivative {a}", $name);
        }
        // Not a constant field: the comparison means something.
        assert!($o.iter().any(|&v| v != $o[0]), "{}: constant output", $name);
    }};
}

macro_rules! check_type {
    ($name:expr, $src:expr) => {{
        let src = $src;
        let g1 = Grid1::new([0.3], [0.37], [300]);
        same_bits!(
            concat!($name, " 1D"),
            300,
            1,
            |o, d| {
                let [dx] = &mut d[..] else { unreachable!() };
                src.fill_grid_grad(&g1, &mut o, [dx])
            },
            |o2, d2| {
                let [dx] = &mut d2[..] else { unreachable!() };
                src.fill_grid_grad_par(&g1, &mut o2, [dx])
            }
        );
        let g2 = Grid2::new([0.3, -1.1], [0.37, 0.21], [40, 30]);
        same_bits!(
            concat!($name, " 2D"),
            1200,
            2,
            |o, d| {
                let [dx, dy] = &mut d[..] else { unreachable!() };
                src.fill_grid_grad(&g2, &mut o, [dx, dy])
            },
            |o2, d2| {
                let [dx, dy] = &mut d2[..] else {
                    unreachable!()
                };
                src.fill_grid_grad_par(&g2, &mut o2, [dx, dy])
            }
        );
        let g3 = Grid3::new([0.3, -1.1, 2.0], [0.37, 0.21, 0.5], [12, 10, 9]);
        same_bits!(
            concat!($name, " 3D"),
            1080,
            3,
            |o, d| {
                let [dx, dy, dz] = &mut d[..] else {
                    unreachable!()
                };
                src.fill_grid_grad(&g3, &mut o, [dx, dy, dz])
            },
            |o2, d2| {
                let [dx, dy, dz] = &mut d2[..] else {
                    unreachable!()
                };
                src.fill_grid_grad_par(&g3, &mut o2, [dx, dy, dz])
            }
        );
        let g4 = Grid4::new([0.3, -1.1, 2.0, 0.7], [0.37, 0.21, 0.5, 0.3], [8, 6, 5, 4]);
        same_bits!(
            concat!($name, " 4D"),
            960,
            4,
            |o, d| {
                let [dx, dy, dz, dw] = &mut d[..] else {
                    unreachable!()
                };
                src.fill_grid_grad(&g4, &mut o, [dx, dy, dz, dw])
            },
            |o2, d2| {
                let [dx, dy, dz, dw] = &mut d2[..] else {
                    unreachable!()
                };
                src.fill_grid_grad_par(&g4, &mut o2, [dx, dy, dz, dw])
            }
        );
    }};
}

#[test]
fn parallel_derivative_grids_match_the_serial_ones() {
    check_type!("Perlin", Perlin::new(3));
    check_type!("Value", Value::new(4));
    check_type!("Fbm<Perlin>", Fbm::new(Perlin::new(5)).octaves(3));
}
