//! Every level's `fill1..fill4` equals the scalar `noise1..noise4`, bit for
//! bit, for the shared adversarial table, for arbitrary bit patterns and at
//! every slice length 0..=67.

use crate::common::{any_perlin, bit_pattern_slices};

use crate::common::levels;
use crate::common::{
    MAX_LEN, SENTINEL_BITS, adversarial, assert_every_level_matches_scalar, borrow, fill, noise,
    perlins, show,
};
use noisefield::{Level, Perlin};
use proptest::prelude::*;

/// Every pair (2D) and every triple (3D) of table values, in one long batch:
/// whole packs at every level, each value on each axis next to every other.
#[test]
fn table_products_1d_to_3d_match_scalar_at_every_level() {
    let t = adversarial();
    let n = t.len();
    for (name, p) in perlins() {
        assert_every_level_matches_scalar(&p, &[&t], &format!("{name}, 1D table"));

        let xs: Vec<f32> = (0..n * n).map(|i| t[i % n]).collect();
        let ys: Vec<f32> = (0..n * n).map(|i| t[i / n]).collect();
        assert_every_level_matches_scalar(&p, &[&xs, &ys], &format!("{name}, 2D product"));

        let xs: Vec<f32> = (0..n * n * n).map(|i| t[i % n]).collect();
        let ys: Vec<f32> = (0..n * n * n).map(|i| t[i / n % n]).collect();
        let zs: Vec<f32> = (0..n * n * n).map(|i| t[i / (n * n)]).collect();
        assert_every_level_matches_scalar(&p, &[&xs, &ys, &zs], &format!("{name}, 3D product"));
    }
}

/// Every quadruple of table values, one `w` at a time (debug builds, and
/// runs under an emulator that set `NOISEFIELD_EMULATED`, take every fifth
/// `w` to stay fast: CI's aarch64 run under qemu spent 9 of its 10 minutes
/// here, and says so in its output).
#[test]
fn table_product_4d_matches_scalar_at_every_level() {
    let t = adversarial();
    let n = t.len();
    let emulated = std::env::var_os("NOISEFIELD_EMULATED").is_some();
    let w_step = if cfg!(debug_assertions) || emulated {
        5
    } else {
        1
    };
    if w_step > 1 {
        println!("4D table product: every {w_step}th w of the table (debug build or emulated run)");
    }
    let xs: Vec<f32> = (0..n * n * n).map(|i| t[i % n]).collect();
    let ys: Vec<f32> = (0..n * n * n).map(|i| t[i / n % n]).collect();
    let zs: Vec<f32> = (0..n * n * n).map(|i| t[i / (n * n)]).collect();
    // Ken's table only: the seeded ones run through the length sweep below.
    let p = Perlin::reference();
    for &w in t.iter().step_by(w_step) {
        let ws = vec![w; xs.len()];
        let context = format!("4D product, w = {w:e} ({:#010x})", w.to_bits());
        assert_every_level_matches_scalar(&p, &[&xs, &ys, &zs, &ws], &context);
    }
}

/// Every length 0..=67 (and some longer ones), each axis cycling through the table with its own
/// stride and starting point, so that table values land at every position of
/// every tail and in many combinations. (Runs under an emulator that set
/// `NOISEFIELD_EMULATED` take every third starting point, and say so: this
/// test took 4½ minutes on the Bochs CPU.)
#[test]
fn every_length_matches_scalar_at_every_level() {
    let t = adversarial();
    let n = t.len();
    let start_step = if std::env::var_os("NOISEFIELD_EMULATED").is_some() {
        3
    } else {
        1
    };
    if start_step > 1 {
        println!("length sweep: every {start_step}rd starting point of the table (emulated run)");
    }
    // Per axis: stride through the table and how fast the start moves.
    let strides = [1, 7, 13, 29];
    let start_speed = [1, 3, 5, 11];
    // 0..=67, then a few lengths with more than one whole pack of the widest
    // kernel and a tail after them.
    let lengths: Vec<usize> = (0..=MAX_LEN)
        .chain([95, 96, 97, 127, 128, 129, 131, 193])
        .collect();
    for (name, p) in perlins() {
        for dims in 1..=4 {
            for &len in &lengths {
                for start in (0..n).step_by(start_step) {
                    let inputs: Vec<Vec<f32>> = (0..dims)
                        .map(|d| {
                            (0..len)
                                .map(|i| t[(start * start_speed[d] + i * strides[d] + d) % n])
                                .collect()
                        })
                        .collect();
                    let context = format!("{name}, start {start}");
                    assert_every_level_matches_scalar(&p, &borrow(&inputs), &context);
                }
            }
        }
    }
}

/// `dims` coordinate slices of one length in 0..=67 with ordinary values.
fn ordinary_slices(dims: usize) -> impl Strategy<Value = Vec<Vec<f32>>> {
    (0..=MAX_LEN).prop_flat_map(move |len| {
        prop::collection::vec(prop::collection::vec(-1e4f32..1e4f32, len), dims)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fill1_bit_patterns_match_scalar(p in any_perlin(), s in bit_pattern_slices(1)) {
        assert_every_level_matches_scalar(&p, &borrow(&s), "fill1, bit patterns");
    }

    #[test]
    fn fill2_bit_patterns_match_scalar(p in any_perlin(), s in bit_pattern_slices(2)) {
        assert_every_level_matches_scalar(&p, &borrow(&s), "fill2, bit patterns");
    }

    #[test]
    fn fill3_bit_patterns_match_scalar(p in any_perlin(), s in bit_pattern_slices(3)) {
        assert_every_level_matches_scalar(&p, &borrow(&s), "fill3, bit patterns");
    }

    #[test]
    fn fill4_bit_patterns_match_scalar(p in any_perlin(), s in bit_pattern_slices(4)) {
        assert_every_level_matches_scalar(&p, &borrow(&s), "fill4, bit patterns");
    }

    #[test]
    fn ordinary_coordinates_match_scalar(p in any_perlin(), s in (1usize..=4).prop_flat_map(ordinary_slices)) {
        assert_every_level_matches_scalar(&p, &borrow(&s), "ordinary coordinates");
    }

    /// One point gives the same bits at every position of a slice, from
    /// position 0 through the whole packs to the last slot of the tail, with
    /// unrelated points around it.
    #[test]
    fn a_point_gives_the_same_bits_at_every_position(
        p in any_perlin(),
        filler in (1usize..=4).prop_flat_map(bit_pattern_slices),
        seed_point in prop::collection::vec(any::<u32>(), 4),
        ordinary in any::<bool>(),
    ) {
        let dims = filler.len();
        let len = filler[0].len();
        prop_assume!(len > 0);
        let at: Vec<f32> = seed_point[..dims]
            .iter()
            .map(|&b| if ordinary { (b as f32 / u32::MAX as f32 - 0.5) * 2e3 } else { f32::from_bits(b) })
            .collect();
        let want = noise(&p, &at).to_bits();
        let mut out = vec![0.0f32; len];
        for level in levels() {
            let at_level = p.clone().with_level(level).unwrap();
            for k in 0..len {
                let mut inputs = filler.clone();
                for d in 0..dims {
                    inputs[d][k] = at[d];
                }
                out.fill(f32::from_bits(SENTINEL_BITS));
                fill(&at_level, &borrow(&inputs), &mut out).unwrap();
                prop_assert_eq!(
                    out[k].to_bits(),
                    want,
                    "level {}, {}D, length {}, position {}, point {}",
                    level, dims, len, k, show(&at)
                );
            }
        }
    }
}

#[test]
fn with_level_reports_the_level() {
    for (name, p) in perlins() {
        for level in levels() {
            assert!(level.is_available());
            let at_level = p.clone().with_level(level).unwrap();
            assert_eq!(at_level.level(), level, "{name}");
            // The level is not part of the table.
            assert_eq!(at_level.permutation(), p.permutation());
        }
    }
}

#[test]
fn a_new_perlin_runs_at_the_detected_level() {
    assert_eq!(Perlin::reference().level(), Level::detect());
    assert_eq!(Perlin::new(3).level(), Level::detect());
}

#[test]
fn available_levels_are_sorted_scalar_and_portable_first_detected_last() {
    let levels = Level::available();
    assert!(
        levels.windows(2).all(|w| w[0] < w[1]),
        "not strictly ascending: {levels:?}"
    );
    assert_eq!(&levels[..2], &[Level::Scalar, Level::Portable]);
    assert_eq!(levels.last(), Some(&Level::detect()));
    for &level in Level::all() {
        assert_eq!(level.is_available(), levels.contains(&level), "{level}");
    }
}

#[test]
fn a_level_of_another_architecture_is_never_available() {
    // Availability is decided per level, not by order: NEON sorts below
    // AVX2, yet an x86 CPU with AVX2 does not have it, and the other way round.
    let foreign: &[Level] = if cfg!(target_arch = "x86_64") {
        &[Level::Neon]
    } else if cfg!(target_arch = "aarch64") {
        &[Level::Avx2, Level::Avx512]
    } else {
        &[Level::Neon, Level::Avx2, Level::Avx512]
    };
    for &level in foreign {
        assert!(!level.is_available(), "{level}");
        assert!(!Level::available().contains(&level), "{level}");
        let refused = Perlin::new(1).with_level(level);
        assert!(
            matches!(refused, Err(noisefield::Error::Unsupported(l)) if l == level),
            "with_level({level}) must be refused here"
        );
    }
    if cfg!(target_arch = "aarch64") {
        assert!(Level::Neon.is_available(), "every aarch64 CPU has NEON");
        assert_eq!(Level::detect(), Level::Neon);
    }
}

#[test]
fn every_level_has_a_name_that_parses_back() {
    let names: Vec<&str> = Level::all().iter().map(|l| l.name()).collect();
    assert_eq!(names, ["scalar", "portable", "neon", "avx2", "avx512"]);
    for &level in Level::all() {
        assert_eq!(level.name().parse::<Level>(), Ok(level));
        assert_eq!(level.to_string().to_uppercase().parse::<Level>(), Ok(level));
    }
    let err = "sse9".parse::<Level>().unwrap_err().to_string();
    assert!(err.contains("neon") && err.contains("avx512"), "{err}");
}

/// Prints which levels this CPU has and which the cross-level tests ran
/// (CI runs it with `--nocapture`), and fails when `NOISEFIELD_REQUIRE_LEVELS`
/// names a level that is missing.
#[test]
fn levels_this_cpu_tests() {
    println!("{}", crate::common::levels_report());
    let missing = crate::common::missing_required_levels();
    assert!(
        missing.is_empty(),
        "NOISEFIELD_REQUIRE_LEVELS names levels this CPU lacks (or unknown names): {missing:?}"
    );
    assert_eq!(levels(), Level::available());
}
