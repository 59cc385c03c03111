//! The hash modes' unit tests: the kernels' hashes, gradients and dot
//! products against their scalar definitions, and the periodic cells
//! against `floor mod period`.

use super::coordinates::coordinate_hash;
use super::gradients::{GRAD3, GRAD4_DIAGONAL};
use super::periodic::periodic_cells32;
use super::*;
use crate::simd::scalar::Scalar;

/// The kernel's per-part hashing equals the scalar definition for every
/// corner, in every dimension, at wrapping cells.
#[test]
fn part_hashes_follow_the_definition() {
    let s = Scalar;
    let cells = [
        [0u32, 1, 2, 3],
        [u32::MAX, 0, 0x8000_0000, 0x7fff_ffff],
        [12_345, 0xdead_beef, 7, 0x8000_0001],
    ];
    for key in [0u32, 0x5bd1_e995] {
        for c in cells {
            let pack = [
                (c[0], c[0].wrapping_add(1)),
                (c[1], c[1] ^ 0x55),
                (c[2], 9),
                (c[3], c[3]),
            ];
            let h4 = CoordinatesMode::part_hashes::<Scalar, 4, false>(s, &key, &pack, 0);
            let h2 = CoordinatesMode::part_hashes::<Scalar, 2, false>(s, &key, &pack, 0);
            for corner in 0..16 {
                let pick = |a: usize| {
                    if corner >> a & 1 == 1 {
                        pack[a].1
                    } else {
                        pack[a].0
                    }
                };
                let all = [pick(0), pick(1), pick(2), pick(3)];
                assert_eq!(h4[corner], coordinate_hash(key, &all));
                if corner < 4 {
                    assert_eq!(h2[corner], coordinate_hash(key, &all[..2]));
                }
            }
        }
    }
}

/// The 3D and 4D gradients picked by sign bits are the tables' entries
/// for every index, and `dot` (products made once, signs blended) is
/// the table gradient's dot product bit for bit, signed zeros,
/// infinities and subnormals included (NaN: NaN either way; kernels
/// make every NaN canonical).
#[test]
fn diagonal_gradients_and_dots_follow_the_tables() {
    let s = Scalar;
    let offsets = [
        0.0f32,
        -0.0,
        0.25,
        -0.75,
        1.0,
        -1.0,
        1e-40,
        -3e-39,
        0.999_999_9,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        3.0e38,
    ];
    let low_bits = [0u32, 1, 0x0123_4567, 0x0fff_ffff];
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    for index in 0..16u32 {
        for low in low_bits {
            let pick = |c: &[f32]| c[(index & 7) as usize];
            let h3 = (index & 7) << 29 | (low >> 3);
            let g3 = CoordinatesMode::gradient::<Scalar, 3>(s, h3);
            let t3 = [pick(&GRAD3[0]), pick(&GRAD3[1]), pick(&GRAD3[2])];
            assert_eq!(
                g3.map(f32::to_bits),
                t3.map(f32::to_bits),
                "3D index {index}"
            );
            let h4 = index << 28 | (low >> 4);
            let g4 = CoordinatesMode::gradient::<Scalar, 4>(s, h4);
            let t4 = [0, 1, 2, 3].map(|a| GRAD4_DIAGONAL[a][index as usize]);
            assert_eq!(
                g4.map(f32::to_bits),
                t4.map(f32::to_bits),
                "4D index {index}"
            );
            for (i, &x) in offsets.iter().enumerate() {
                let c = [
                    x,
                    offsets[(i + 3) % offsets.len()],
                    -offsets[(i + 5) % offsets.len()],
                    offsets[(i + 8) % offsets.len()],
                ];
                let want3 = (t3[0] * c[0] + t3[1] * c[1]) + t3[2] * c[2];
                let got3 = CoordinatesMode::dot::<Scalar, 3>(s, h3, [c[0], c[1], c[2]]);
                assert!(same(got3, want3), "3D {index} {c:?}: {got3} vs {want3}");
                let want4 = ((t4[0] * c[0] + t4[1] * c[1]) + t4[2] * c[2]) + t4[3] * c[3];
                let got4 = CoordinatesMode::dot::<Scalar, 4>(s, h4, c);
                assert!(same(got4, want4), "4D {index} {c:?}: {got4} vs {want4}");
            }
        }
    }
}

/// The vector periodic cells equal `floor mod period` (and the next cell)
/// wherever they are given, including at multiples of the period and far
/// from the origin, and are given for every lane within 2²² cells.
#[test]
fn periodic_cells_are_floor_mod_period() {
    let s = Scalar;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut given, mut refused) = (0, 0);
    for period in [
        1u64,
        2,
        3,
        7,
        255,
        256,
        300,
        1000,
        65_535,
        65_536,
        99_991,
        (1 << 24) - 1,
        1 << 24,
    ] {
        let mut values = vec![0.0f32, -0.0, 1.0, -1.0, 2_147_483_520.0, -2_147_483_648.0];
        for k in [
            -5_000_000i64,
            -1000,
            -3,
            -2,
            -1,
            0,
            1,
            2,
            3,
            1000,
            5_000_000,
        ] {
            for d in [-1, 0, 1] {
                values.push((k * period as i64 + d) as f32);
            }
        }
        // The exact quotient's limit, 2²¹: the multiples of the period
        // just inside it and their neighbours (the quotients closest to
        // an integer), and the lanes around the limit itself.
        let inside = ((1i64 << 21) - 1) / period as i64;
        for k in [inside, inside - 1, -inside, 1 - inside] {
            for d in [-1, 0, 1] {
                values.push((k * period as i64 + d) as f32);
            }
        }
        for d in -2..=2i64 {
            values.push(((1i64 << 21) + d) as f32);
            values.push((-(1i64 << 21) + d) as f32);
        }
        for _ in 0..2000 {
            let magnitude = 1u64 << (random() % 32);
            let v = (random() % (2 * magnitude)) as f64 - magnitude as f64;
            values.push((v as f32).floor());
        }
        // The part-by-part form: axis 0 with the period, axis 1
        // unperiodic.
        let natural = CoordinatesMode::NATURAL_PERIOD;
        let parts = PeriodicCells::<Scalar, 2>::new(s, &[period, natural, 0, 0]).unwrap();
        for v in values {
            let v = v.floor();
            let mut check = s.cells_check();
            let [(p0, p1), (n0, n1)] = parts.cells(s, &[v, v], &mut check);
            assert_eq!(
                s.cells_checked(check),
                v.abs() < 2_097_152.0,
                "{v} mod {period}"
            );
            // The f32 form: given exactly within 2²¹, and right there.
            let want = super::super::lattice_mod(f64::from(v), period);
            match periodic_cells_f32(s, v, period) {
                Some((c0, c1)) => {
                    assert_eq!((c0, c1), (want as f32, ((want + 1) % period) as f32));
                    assert!(v.abs() < 2_097_152.0, "{v} mod {period} in f32");
                }
                None => assert!(v.abs() >= 2_097_152.0, "{v} mod {period} refused"),
            }
            match periodic_cells32(s, v, period) {
                Some((c0, c1)) => {
                    assert_eq!(u64::from(c0), want, "{v} mod {period}");
                    assert_eq!(u64::from(c1), (want + 1) % period, "{v} mod {period}");
                    if s.cells_checked(check) {
                        assert_eq!((p0, p1), (c0, c1), "{v} mod {period} by parts");
                        let cell = v as i32 as u32;
                        assert_eq!((n0, n1), (cell, cell.wrapping_add(1)), "{v} unperiodic");
                    }
                    given += 1;
                }
                None => {
                    assert!(v.abs() >= 4_194_304.0, "{v} mod {period} refused");
                    refused += 1;
                }
            }
        }
    }
    assert!(given > 10 * refused, "{given} given, {refused} refused");
    assert!(periodic_cells32(s, f32::NAN, 3).is_none());
    assert!(periodic_cells32(s, f32::INFINITY, 3).is_none());
    assert!(periodic_cells32(s, 5.0, (1 << 24) + 1).is_none());
    assert!(periodic_cells_f32(s, f32::NAN, 3).is_none());
    assert!(periodic_cells_f32(s, f32::NEG_INFINITY, 3).is_none());
    assert!(periodic_cells_f32(s, 5.0, (1 << 24) + 1).is_none());
    assert!(PeriodicCells::<Scalar, 1>::new(s, &[(1 << 24) + 1, 3, 3, 3]).is_none());
    // Past the period's limit on an axis a pack has not: still reduced.
    assert!(PeriodicCells::<Scalar, 1>::new(s, &[3, (1 << 24) + 1, 0, 0]).is_some());
    // An unperiodic axis is reduced within 2³¹, NaN and ±inf nowhere.
    let natural = [CoordinatesMode::NATURAL_PERIOD; 4];
    let parts = PeriodicCells::<Scalar, 1>::new(s, &natural).unwrap();
    for (v, ok) in [
        (-2_147_483_648.0f32, false),
        (-2_147_483_520.0, true),
        (2_147_483_520.0, true),
        (2_147_483_648.0, false),
        (f32::NAN, false),
        (f32::NEG_INFINITY, false),
    ] {
        let mut check = s.cells_check();
        let [(c0, c1)] = parts.cells(s, &[v], &mut check);
        assert_eq!(s.cells_checked(check), ok, "{v}");
        if ok {
            assert_eq!(
                (c0, c1),
                (v as i32 as u32, (v as i32 as u32).wrapping_add(1))
            );
        }
    }
    for (v, ok) in [
        (-2_097_152.0f32, false),
        (-2_097_151.0, true),
        (2_097_151.0, true),
    ] {
        let parts = PeriodicCells::<Scalar, 1>::new(s, &[7, 0, 0, 0]).unwrap();
        let mut check = s.cells_check();
        parts.cells(s, &[v], &mut check);
        assert_eq!(s.cells_checked(check), ok, "{v} mod 7");
    }
}

/// A shift by 2³¹ cells on several axes at once does not cancel in the
/// xor (without the per-axis shift it would, for any odd primes).
#[test]
fn half_period_shifts_do_not_cancel() {
    let half = 0x8000_0000u32;
    let base = [5u32, 9, 13, 17];
    for mask in 1..16usize {
        let moved: Vec<u32> = (0..4)
            .map(|a| base[a].wrapping_add(if mask >> a & 1 == 1 { half } else { 0 }))
            .collect();
        assert_ne!(
            coordinate_hash(3, &moved),
            coordinate_hash(3, &base),
            "mask {mask}"
        );
    }
}
