//! What the integration tests share: the one table of adversarial `f32`
//! inputs (STYLE.md habit 13) and helpers that run a point or a batch in any
//! dimension and compare every level against the scalar path bit for bit.

// Each test binary uses only part of this module.
#![allow(dead_code)]

use noisefield::{Error, Level, Perlin};

/// Batch lengths every level is checked at: 0 up to past four 16-lane steps,
/// so every tail length of 8 and 16 lanes occurs, with and without full steps.
pub const MAX_LEN: usize = 67;

/// 2^23: from here on every `f32` is an integer.
pub const TWO_POW_23: f32 = 8_388_608.0;
/// 2^31: the first magnitude `cvttps2dq` cannot represent.
pub const TWO_POW_31: f32 = 2_147_483_648.0;

/// A pattern no kernel writes (the only NaN the crate returns is
/// `f32::NAN`), used to prefill outputs so an unwritten slot shows.
pub const SENTINEL_BITS: u32 = 0x7fa5_a5a5;

/// The shared table of adversarial inputs.
pub fn adversarial() -> Vec<f32> {
    let mut t = vec![
        // lattice integers, negative ones included
        0.0,
        1.0,
        2.0,
        3.0,
        -1.0,
        -2.0,
        -7.0,
        100.0,
        255.0,
        256.0,
        257.0,
        -255.0,
        -256.0,
        -257.0,
        1e6,
        -1e6,
        // signed zeros
        -0.0,
        // NaN with several payloads, quiet and signalling, both signs
        f32::NAN,
        f32::from_bits(0x7fc0_0001),
        f32::from_bits(0xffc0_0000),
        f32::from_bits(0x7f80_0001), // signalling
        f32::from_bits(0xff80_0001), // signalling, negative
        f32::from_bits(0x7fff_ffff),
        // infinities
        f32::INFINITY,
        f32::NEG_INFINITY,
        // subnormals and the smallest normal
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x807f_ffff),
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        // halves and ordinary fractions
        0.5,
        -0.5,
        0.25,
        3.1,
        -3.7,
        127.5,
        -127.5,
        // just below / above integers
        1.0f32.next_down(),
        1.0f32.next_up(),
        (-1.0f32).next_down(),
        (-1.0f32).next_up(),
        255.0f32.next_down(),
        255.0f32.next_up(),
        256.0f32.next_down(),
        256.0f32.next_up(),
        // the last fractional f32s and the first integral ones
        8_388_607.5,  // 2^23 - 0.5
        -8_388_607.5, // -(2^23 - 0.5)
        TWO_POW_23,
        TWO_POW_23 + 1.0,
        -TWO_POW_23 - 1.0,
        16_777_216.0, // 2^24
        // around the i32 range
        2_147_483_520.0, // largest f32 below 2^31
        -2_147_483_520.0,
        TWO_POW_31,
        -TWO_POW_31,
        3e9,
        -3e9,
        // huge
        1e30,
        -1e30,
        1e38,
        f32::MAX,
        f32::MIN,
        // -1e-10 - floor(-1e-10) rounds to 1.0: the offset hits the cell's far end
        -1e-10,
        1e-3,
        -1e-3,
        1e4,
        -1e4,
        9_999.999,
    ];
    // 2^23 + 1 and friends must really be the values they claim to be.
    assert_eq!(TWO_POW_23 + 1.0, 8_388_609.0);
    assert_eq!(
        t.len(),
        t.iter()
            .map(|v| v.to_bits())
            .collect::<std::collections::HashSet<_>>()
            .len()
    );
    t.shrink_to_fit();
    t
}

/// The tables every level is checked with: Ken's and two seeded ones.
pub fn perlins() -> Vec<(String, Perlin)> {
    vec![
        ("reference".to_string(), Perlin::reference()),
        ("seed 0".to_string(), Perlin::new(0)),
        ("seed 0x5eed".to_string(), Perlin::new(0x5eed)),
    ]
}

/// Scalar `noiseN` at one point of `c.len()` (1 to 4) coordinates.
pub fn noise(p: &Perlin, c: &[f32]) -> f32 {
    match *c {
        [x] => p.noise1(x),
        [x, y] => p.noise2(x, y),
        [x, y, z] => p.noise3(x, y, z),
        [x, y, z, w] => p.noise4(x, y, z, w),
        _ => panic!("{} coordinates", c.len()),
    }
}

/// `fillN` with `inputs.len()` (1 to 4) coordinate slices.
pub fn fill(p: &Perlin, inputs: &[&[f32]], out: &mut [f32]) -> Result<(), Error> {
    match *inputs {
        [xs] => p.fill1(xs, out),
        [xs, ys] => p.fill2(xs, ys, out),
        [xs, ys, zs] => p.fill3(xs, ys, zs, out),
        [xs, ys, zs, ws] => p.fill4(xs, ys, zs, ws, out),
        _ => panic!("{} coordinate slices", inputs.len()),
    }
}

/// Point `i` of the coordinate slices.
pub fn point(inputs: &[&[f32]], i: usize) -> Vec<f32> {
    inputs.iter().map(|s| s[i]).collect()
}

/// Coordinates as `value (bits)` for failure messages.
pub fn show(c: &[f32]) -> String {
    let parts: Vec<String> = c
        .iter()
        .map(|v| format!("{v:e} ({:#010x})", v.to_bits()))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// For every available level, `fillN` of `inputs` equals the scalar `noiseN`
/// of each point, bit for bit, and writes every slot. A failure names the
/// first wrong point of every level that has one.
pub fn assert_every_level_matches_scalar(p: &Perlin, inputs: &[&[f32]], context: &str) {
    let len = inputs[0].len();
    let expected: Vec<u32> = (0..len)
        .map(|i| noise(p, &point(inputs, i)).to_bits())
        .collect();
    let mut out = vec![0.0f32; len];
    let mut failures = Vec::new();
    for level in Level::available() {
        let at_level = p.clone().with_level(level).unwrap();
        out.fill(f32::from_bits(SENTINEL_BITS));
        fill(&at_level, inputs, &mut out).unwrap();
        let wrong = out
            .iter()
            .zip(&expected)
            .position(|(got, want)| got.to_bits() != *want);
        if let Some(i) = wrong {
            let (got, want) = (out[i], f32::from_bits(expected[i]));
            failures.push(format!(
                "level {level}: index {i} of {len}: fill gave {got:e} ({:#010x}), \
                 scalar noise gave {want:e} ({:#010x}) at {}",
                got.to_bits(),
                want.to_bits(),
                show(&point(inputs, i)),
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{context}, {}D:\n{}",
        inputs.len(),
        failures.join("\n")
    );
}

/// Owned coordinate slices as the borrowed form the helpers take.
pub fn borrow(inputs: &[Vec<f32>]) -> Vec<&[f32]> {
    inputs.iter().map(Vec::as_slice).collect()
}
