//! `fill1_f64..fill4_f64`: bit-identical to `fillN` on `f32` inputs at every
//! level; defined for every `f64` (finite in, finite and in range out;
//! NaN or infinity in, the canonical NaN out); zero on the lattice; the same
//! after shifts by multiples of the natural period (256 cells for the
//! permutation, 2³² for the coordinates mode) far beyond `f32`
//! precision; mismatched lengths refused with nothing written.

use crate::common::{any_perlin, bit_pattern_slices};

use crate::common::levels;
use crate::common::{
    MAX_LEN, SENTINEL_BITS, adversarial, assert_fill_f64_matches_fill, bits, effective_period,
    fill_f64, perlins,
};
use noisefield::{Error, Perlin};
use proptest::prelude::*;

/// Documented bounds of |noiseN| (see `suite/tests/semantics.rs`).
const BOUNDS: [f32; 4] = [1.0, 1.0, 1.04, 1.5366];

/// 2^63: from here on `as i64` saturates.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

/// `f64` values that stress stage 1: beyond `f32` range and precision,
/// around 2^53 and 2^63, subnormals, just below integers, NaN, infinities.
fn adversarial_f64() -> Vec<f64> {
    let mut t: Vec<f64> = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        9_007_199_254_740_992.0, // 2^53
        9_007_199_254_740_994.0, // 2^53 + 2
        4_503_599_627_370_495.5, // 2^52 - 0.5: the last half
        -4_503_599_627_370_495.5,
        TWO_POW_63,
        -TWO_POW_63,
        TWO_POW_63 - 1024.0, // the largest f64 below 2^63
        -TWO_POW_63 + 1024.0,
        2.0 * TWO_POW_63,
        1e20 + 65_536.0,
        1_099_511_627_776.3, // 2^40 + 0.3
        -1_099_511_627_776.3,
        1e6 + 0.3,
        3.4e38,
        1e39, // beyond f32::MAX
        -1e39,
        f64::from_bits(1), // subnormals
        -f64::from_bits(1),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        1e-300,
        -1e-300,
        1.0 - f64::EPSILON / 2.0, // just below 1: offset rounds to 1.0f32
        -(1.0 - f64::EPSILON / 2.0),
        255.999_999_999_999_97,
        -1e-10,
        0.1,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001), // signalling
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    // 2^53 + 1 is not an f64: the literal is 2^53.
    t.push(9_007_199_254_740_993.0);
    t
}

/// `fillN_f64` at every level (checked equal to each other), returned.
fn every_level_f64(p: &Perlin, inputs: &[&[f64]]) -> Vec<f32> {
    let len = inputs[0].len();
    let mut first: Option<Vec<f32>> = None;
    for level in levels() {
        let mut out = vec![f32::from_bits(SENTINEL_BITS); len];
        fill_f64(&p.clone().with_level(level).unwrap(), inputs, &mut out).unwrap();
        if let Some(f) = &first
            && let Some(i) = (0..len).find(|&i| f[i].to_bits() != out[i].to_bits())
        {
            let c: Vec<f64> = inputs.iter().map(|s| s[i]).collect();
            panic!(
                "level {level} gives {:e}, scalar {:e} at {c:?}",
                out[i], f[i]
            );
        }
        first = Some(out);
    }
    first.unwrap()
}

/// Finite coordinates give finite values within the documented range;
/// any NaN or infinity gives exactly `f32::NAN`.
fn assert_defined(inputs: &[&[f64]], out: &[f32]) {
    let dims = inputs.len();
    for (i, v) in out.iter().enumerate() {
        let c: Vec<f64> = inputs.iter().map(|s| s[i]).collect();
        if c.iter().all(|x| x.is_finite()) {
            assert!(
                v.is_finite() && v.abs() <= BOUNDS[dims - 1],
                "fill{dims}_f64 at {c:?} is {v:e}"
            );
        } else {
            assert_eq!(
                v.to_bits(),
                f32::NAN.to_bits(),
                "fill{dims}_f64 at {c:?} is {v:e}, not the canonical NaN"
            );
        }
    }
}

/// Every pair (2D), and every table value against ordinary values on the
/// other axes (1D to 4D), at every level.
#[test]
fn adversarial_f64_values_are_defined_at_every_level() {
    let t = adversarial_f64();
    let n = t.len();
    for (_, p) in perlins() {
        let out = every_level_f64(&p, &[&t]);
        assert_defined(&[&t], &out);

        let xs: Vec<f64> = (0..n * n).map(|i| t[i % n]).collect();
        let ys: Vec<f64> = (0..n * n).map(|i| t[i / n]).collect();
        let out = every_level_f64(&p, &[&xs, &ys]);
        assert_defined(&[&xs, &ys], &out);

        // Each table value on each axis, the others ordinary or from the table.
        for dims in 3..=4 {
            let len = n * n;
            let cols: Vec<Vec<f64>> = (0..dims)
                .map(|d| {
                    (0..len)
                        .map(|i| {
                            if d == 0 {
                                t[i % n]
                            } else if d == 1 {
                                t[i / n]
                            } else if i % 5 == 0 {
                                t[(i * 7 + d) % n]
                            } else {
                                (i as f64) * 0.37 - 100.0 * d as f64
                            }
                        })
                        .collect()
                })
                .collect();
            let inputs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            let out = every_level_f64(&p, &inputs);
            assert_defined(&inputs, &out);
        }
    }
}

/// The shared `f32` table, widened: `fillN_f64` equals `fillN`.
#[test]
fn the_f32_table_widened_matches_fill() {
    let t = adversarial();
    let n = t.len();
    for (_, p) in perlins() {
        let xs: Vec<f32> = (0..n * n).map(|i| t[i % n]).collect();
        let ys: Vec<f32> = (0..n * n).map(|i| t[i / n]).collect();
        let zs: Vec<f32> = (0..n * n).map(|i| t[(i * 7 + 3) % n]).collect();
        let ws: Vec<f32> = (0..n * n).map(|i| t[(i * 13 + 5) % n]).collect();
        let all = [xs, ys, zs, ws];
        for dims in 1..=4 {
            assert_fill_f64_matches_fill(&p, &all[..dims]);
        }
    }
}

/// `dims` slices of one length in 0..=67 of arbitrary `f64` bit patterns.
fn f64_slices(dims: usize) -> impl Strategy<Value = Vec<Vec<f64>>> {
    (0..=MAX_LEN).prop_flat_map(move |len| {
        prop::collection::vec(
            prop::collection::vec(
                prop_oneof![
                    any::<u64>().prop_map(f64::from_bits),
                    -1e4f64..1e4,
                    prop::sample::select(adversarial_f64()),
                ],
                len,
            ),
            dims,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fill_f64_of_f32_bit_patterns_is_fill(
        p in any_perlin(),
        s in (1usize..=4).prop_flat_map(bit_pattern_slices),
    ) {
        assert_fill_f64_matches_fill(&p, &s);
    }

    #[test]
    fn fill_f64_of_any_f64_is_defined(
        p in any_perlin(),
        s in (1usize..=4).prop_flat_map(f64_slices),
    ) {
        let inputs: Vec<&[f64]> = s.iter().map(Vec::as_slice).collect();
        let out = every_level_f64(&p, &inputs);
        assert_defined(&inputs, &out);
    }

    /// Integer-valued `f64`s on every axis (any size): the lattice, so 0.
    #[test]
    fn fill_f64_is_zero_on_the_lattice(
        p in any_perlin(),
        cells in prop::collection::vec(
            prop::array::uniform4(prop_oneof![
                (-(1i64 << 53)..(1i64 << 53)).prop_map(|i| i as f64),
                any::<u64>().prop_map(|b| f64::from_bits(b).trunc()).prop_filter("finite", |x| x.is_finite()),
            ]),
            1..40,
        ),
    ) {
        for dims in 1..=4 {
            let cols: Vec<Vec<f64>> = (0..dims).map(|d| cells.iter().map(|c| c[d]).collect()).collect();
            let inputs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            for (i, v) in every_level_f64(&p, &inputs).iter().enumerate() {
                prop_assert!(*v == 0.0, "fill{}_f64 at {:?} is {:e}", dims, &cells[i][..dims], v);
            }
        }
    }

    /// Shifting by any multiple of the natural period N up to 2^44 changes
    /// no bit, where the shifted positions are exact (8 fractional bits);
    /// the shifted points are far beyond `f32` precision.
    #[test]
    fn fill_f64_repeats_with_the_natural_period_far_out(
        p in any_perlin(),
        c in prop::array::uniform4((-(1i64 << 20)..(1i64 << 20)).prop_map(|v| v as f64 / 256.0)),
        k in prop::array::uniform4(-(1i64 << 36)..(1i64 << 36)),
    ) {
        let natural = effective_period(&p, u32::MAX);
        // Multiples of N up to 2^44 in magnitude.
        let k = k.map(|k| k / (natural / 256) as i64);
        let n = natural as f64;
        for dims in 1..=4 {
            let shifted: Vec<f64> = (0..dims).map(|d| c[d] + n * k[d] as f64).collect();
            for d in 0..dims {
                prop_assert_eq!(shifted[d] - n * k[d] as f64, c[d]);
            }
            let cols: Vec<Vec<f64>> = (0..dims).map(|d| vec![c[d], shifted[d]]).collect();
            let inputs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            let out = every_level_f64(&p, &inputs);
            prop_assert_eq!(
                out[0].to_bits(), out[1].to_bits(),
                "fill{}_f64 at {:?} is {:e}, at {:?} it is {:e}", dims, &c[..dims], out[0], shifted, out[1]
            );
        }
    }
}

/// The slices of `fillN_f64` after `xs`, in argument order.
fn names(dims: usize) -> Vec<&'static str> {
    let mut v = ["ys", "zs", "ws"][..dims - 1].to_vec();
    v.push("out");
    v
}

#[test]
fn mismatched_lengths_are_refused_and_nothing_written() {
    for level in levels() {
        let p = Perlin::reference().with_level(level).unwrap();
        for periodic in [false, true] {
            let p = if periodic {
                p.clone().with_period([7, 9, 11, 13]).unwrap()
            } else {
                p.clone()
            };
            for dims in 1..=4 {
                for (wrong, name) in names(dims).into_iter().enumerate() {
                    for (len, wrong_len) in [(10, 9), (10, 11), (0, 1), (1, 0), (67, 3), (64, 65)] {
                        let len_of = |k: usize| if k == wrong { wrong_len } else { len };
                        let xs: Vec<f64> = (0..len).map(|i| i as f64 + 0.25).collect();
                        let others: Vec<Vec<f64>> = (0..dims - 1)
                            .map(|k| (0..len_of(k)).map(|i| i as f64 + 0.5).collect())
                            .collect();
                        let mut inputs: Vec<&[f64]> = vec![&xs];
                        inputs.extend(others.iter().map(Vec::as_slice));
                        let mut out = vec![f32::from_bits(SENTINEL_BITS); len_of(dims - 1)];
                        let result = fill_f64(&p, &inputs, &mut out);
                        let context = format!(
                            "level {level}, periodic {periodic}, fill{dims}_f64, \
                             {name} has {wrong_len} where xs has {len}"
                        );
                        assert_eq!(
                            result,
                            Err(Error::LengthMismatch {
                                name,
                                expected: len,
                                found: wrong_len
                            }),
                            "{context}"
                        );
                        assert!(
                            out.iter().all(|v| v.to_bits() == SENTINEL_BITS),
                            "{context}: out was written"
                        );
                        let msg = result.unwrap_err().to_string();
                        assert!(msg.contains(name) && msg.contains("xs"), "{msg}");
                    }
                }
            }
        }
    }
}

/// The control for the sentinel check: equal lengths write every slot, and
/// empty slices are fine.
#[test]
fn equal_lengths_write_every_slot() {
    let p = Perlin::permuted(4);
    for dims in 1..=4 {
        for len in [0, 1, 7, 67] {
            let cols: Vec<Vec<f64>> = (0..dims)
                .map(|d| (0..len).map(|i| i as f64 * 0.3 + d as f64 + 0.1).collect())
                .collect();
            let inputs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            let out = every_level_f64(&p, &inputs);
            assert!(
                !bits(&out).contains(&SENTINEL_BITS),
                "fill{dims}_f64, length {len}"
            );
        }
    }
}
