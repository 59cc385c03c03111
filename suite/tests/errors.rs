//! Refused calls: mismatched slice lengths (every slice, every level, nothing
//! written), unsupported levels, the messages, and parsing `Level`.

use crate::common::levels;
use crate::common::{SENTINEL_BITS, fill};
use noisefield::prelude::*;
use noisefield::{Error, Level, Perlin};

/// The slices of `fillN` after `xs`, in argument order.
fn names(dims: usize) -> Vec<&'static str> {
    let mut v = ["ys", "zs", "ws"][..dims - 1].to_vec();
    v.push("out");
    v
}

/// Runs `fillN` with `xs` of length `len`, every other slice of `len` except
/// `wrong` (an index into [`names`]), which has `wrong_len`. Returns the
/// result and whether `out` kept its sentinel bits.
fn run(
    p: &Perlin,
    dims: usize,
    len: usize,
    wrong: usize,
    wrong_len: usize,
) -> (Result<(), Error>, bool) {
    let slice_names = names(dims);
    let len_of = |k: usize| if k == wrong { wrong_len } else { len };
    // Coordinates 0.5, 1.5, ...: noise there is never the sentinel.
    let coords: Vec<Vec<f32>> = (0..dims - 1)
        .map(|k| (0..len_of(k)).map(|i| i as f32 + 0.5).collect())
        .collect();
    let xs: Vec<f32> = (0..len).map(|i| i as f32 + 0.25).collect();
    let mut inputs: Vec<&[f32]> = vec![&xs];
    inputs.extend(coords.iter().map(Vec::as_slice));
    let out_index = slice_names.len() - 1;
    let mut out = vec![f32::from_bits(SENTINEL_BITS); len_of(out_index)];
    let result = fill(p, &inputs, &mut out);
    let untouched = out.iter().all(|v| v.to_bits() == SENTINEL_BITS);
    (result, untouched)
}

#[test]
fn names_are_the_slices_after_xs() {
    assert_eq!(names(1), ["out"]);
    assert_eq!(names(2), ["ys", "out"]);
    assert_eq!(names(3), ["ys", "zs", "out"]);
    assert_eq!(names(4), ["ys", "zs", "ws", "out"]);
}

#[test]
fn every_mismatched_slice_is_named_and_nothing_is_written() {
    for level in levels() {
        let p = Perlin::reference().with_level(level).unwrap();
        for dims in 1..=4 {
            for (wrong, name) in names(dims).into_iter().enumerate() {
                for (len, wrong_len) in [
                    (10, 9),
                    (10, 11),
                    (0, 1),
                    (1, 0),
                    (67, 3),
                    (3, 67),
                    (64, 65),
                ] {
                    let (result, untouched) = run(&p, dims, len, wrong, wrong_len);
                    let context = format!(
                        "level {level}, fill{dims}, {name} has {wrong_len} where xs has {len}"
                    );
                    match result {
                        Err(Error::LengthMismatch {
                            name: n,
                            expected,
                            found,
                        }) => {
                            assert_eq!((n, expected, found), (name, len, wrong_len), "{context}");
                        }
                        other => panic!("{context}: {other:?}"),
                    }
                    assert!(untouched, "{context}: out was written");
                }
            }
        }
    }
}

/// The control: with equal lengths the same helper does write `out`, so the
/// sentinel check above can see a write.
#[test]
fn equal_lengths_write_every_slot() {
    for level in levels() {
        let p = Perlin::reference().with_level(level).unwrap();
        for dims in 1..=4 {
            for len in [1, 7, 10, 67] {
                let slice_names = names(dims);
                let mut out = vec![f32::from_bits(SENTINEL_BITS); len];
                let xs: Vec<f32> = (0..len).map(|i| i as f32 + 0.25).collect();
                let others: Vec<Vec<f32>> = (1..dims)
                    .map(|_| (0..len).map(|i| i as f32 + 0.5).collect())
                    .collect();
                let mut inputs: Vec<&[f32]> = vec![&xs];
                inputs.extend(others.iter().map(Vec::as_slice));
                assert_eq!(inputs.len(), slice_names.len());
                fill(&p, &inputs, &mut out).unwrap();
                assert!(
                    out.iter().all(|v| v.to_bits() != SENTINEL_BITS),
                    "level {level}, fill{dims}, length {len}: a slot was not written"
                );
            }
        }
    }
}

#[test]
fn length_mismatch_message_names_the_slice_and_both_lengths() {
    let msg = Error::LengthMismatch {
        name: "zs",
        expected: 1234,
        found: 567,
    }
    .to_string();
    assert!(msg.contains("zs"), "{msg}");
    assert!(msg.contains("xs"), "{msg}");
    assert!(msg.contains("1234"), "{msg}");
    assert!(msg.contains("567"), "{msg}");
    assert!(!msg.contains("LengthMismatch"), "not human readable: {msg}");

    // And the error a real call returns says the same.
    let err = Perlin::reference()
        .fill([&[0.5; 5], &[0.5; 5]], &mut [0.0; 4])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("out") && err.contains('5') && err.contains('4'),
        "{err}"
    );
}

#[test]
fn unsupported_levels_are_refused() {
    for level in [Level::Scalar, Level::Portable, Level::Avx2, Level::Avx512] {
        if level.is_available() {
            assert_eq!(
                Perlin::reference().with_level(level).unwrap().level(),
                level
            );
        } else {
            let err = Perlin::reference().with_level(level).unwrap_err();
            assert_eq!(err, Error::Unsupported(level));
            let msg = err.to_string();
            assert!(
                msg.contains(level.name()) && msg.contains("not supported"),
                "{msg}"
            );
        }
    }
}

#[test]
fn unsupported_message_names_the_level() {
    let msg = Error::Unsupported(Level::Avx512).to_string();
    assert!(msg.contains("avx512"), "{msg}");
    assert!(msg.contains("not supported"), "{msg}");
    // It lists what is available instead.
    for level in levels() {
        assert!(msg.contains(level.name()), "{msg}");
    }
}

#[test]
fn error_is_a_std_error() {
    fn takes(e: &dyn std::error::Error) -> String {
        e.to_string()
    }
    let e = Error::Unsupported(Level::Avx2);
    assert_eq!(takes(&e), e.to_string());
    // `?` into Box<dyn Error>.
    fn boxed() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Perlin::reference().fill([&[1.0]], &mut [])?;
        Ok(())
    }
    let b = boxed().unwrap_err();
    assert!(b.downcast_ref::<Error>().is_some());
    assert!(b.source().is_none());
}

#[test]
fn level_names_round_trip() {
    for level in [Level::Scalar, Level::Portable, Level::Avx2, Level::Avx512] {
        assert_eq!(level.name().parse::<Level>(), Ok(level));
        assert_eq!(level.to_string(), level.name());
        assert_eq!(level.to_string().parse::<Level>(), Ok(level));
    }
    let names: Vec<&str> = [Level::Scalar, Level::Portable, Level::Avx2, Level::Avx512]
        .iter()
        .map(|l| l.name())
        .collect();
    assert_eq!(names, ["scalar", "portable", "avx2", "avx512"]);
}

#[test]
fn unknown_level_names_are_rejected_readably() {
    let err = "sse9".parse::<Level>().unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("sse9"), "{msg}");
    for name in ["scalar", "portable", "avx2", "avx512"] {
        assert!(msg.contains(name), "{msg} should list {name}");
    }
    let _: &dyn std::error::Error = &err;
    assert!("".parse::<Level>().is_err());
    assert!("avx".parse::<Level>().is_err());
    assert!("avx5120".parse::<Level>().is_err());
}

/// Errors compare NaN-aware: a grid refused for a NaN origin gives an error
/// equal to the one `check` gives (a derived `PartialEq` compares the `f64`
/// field with `==`, and NaN never equals itself); different values differ.
#[test]
fn errors_carrying_nan_equal_themselves() {
    let grid = noisefield::Grid2::new([f64::NAN, 0.0], [0.5, 0.5], [4, 4]);
    let mut out = [0.0f32; 16];
    let err = Perlin::new(1).fill_grid(&grid, &mut out).unwrap_err();
    assert_eq!(Err(err.clone()), grid.check().map(|_| ()));
    assert_eq!(err, err.clone());
    let other = noisefield::Grid2::new([f64::INFINITY, 0.0], [0.5, 0.5], [4, 4]);
    assert_ne!(err, other.check().unwrap_err());
    let nan = Error::NonFiniteParameter {
        name: "persistence",
        value: f32::NAN,
    };
    assert_eq!(nan, nan.clone());
    assert_ne!(nan, Error::InvalidOctaves(3));
}
