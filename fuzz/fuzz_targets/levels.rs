//! Every available level's `fillN` equals the scalar `noiseN`, bit for bit,
//! for coordinates made from the fuzzer's bytes; mismatched slice lengths are
//! refused with `Error::LengthMismatch` and leave `out` untouched.
//!
//! Input layout (missing bytes read as 0):
//!
//! ```text
//! byte 0      bits 0-1: dimension - 1
//!             bits 2-3: coordinates: 0, 1 raw f32 bit patterns,
//!                       2 scaled to an ordinary range, 3 mixed per value
//!             bits 4-5: range of scaled values: ±1, ±256, ±1e4, ±2^24
//!             bit  6:   also try a length mismatch
//! byte 1      table: 0 Ken's, odd Perlin::new(bytes 2..10), even Perlin::permuted
//! byte 10     length cap (the length is the smaller of this and what the
//!             remaining bytes hold)
//! byte 11     mismatch: bits 0-1 which slice (ys, zs, ws, out as the
//!             dimension allows), bits 2-7 the length difference
//! bytes 12..  coordinates, 4 bytes each, axis-major per point
//! ```

#![no_main]

use libfuzzer_sys::fuzz_target;
use noisefield::prelude::*;
use noisefield::{Error, Level, Perlin};

/// A pattern no kernel writes (every NaN the crate returns is `f32::NAN`).
const SENTINEL_BITS: u32 = 0x7fa5_a5a5;

/// The scaled ranges: small, one period, the documented accuracy range, and
/// where f32 stops having fractions (2^24).
const RANGES: [f32; 4] = [1.0, 256.0, 1e4, 16_777_216.0];

fuzz_target!(|data: &[u8]| check(data));

fn byte(data: &[u8], i: usize) -> u8 {
    data.get(i).copied().unwrap_or(0)
}

fn check(data: &[u8]) {
    let flags = byte(data, 0);
    let dims = usize::from(flags & 3) + 1;
    let mode = (flags >> 2) & 3;
    let range = RANGES[usize::from((flags >> 4) & 3)];
    let perlin = if byte(data, 1) == 0 {
        Perlin::reference()
    } else {
        let mut seed = [0u8; 8];
        for (k, s) in seed.iter_mut().enumerate() {
            *s = byte(data, 2 + k);
        }
        let seed = u64::from_le_bytes(seed);
        // Odd: the coordinates mode; even: a seeded permutation.
        if byte(data, 1) & 1 == 1 {
            Perlin::new(seed)
        } else {
            Perlin::permuted(seed)
        }
    };
    let coords = data.get(12..).unwrap_or(&[]);
    let len = usize::from(byte(data, 10)).min(coords.len() / (4 * dims));

    let mut inputs: Vec<Vec<f32>> = vec![Vec::with_capacity(len); dims];
    for (i, chunk) in coords.chunks_exact(4).take(len * dims).enumerate() {
        let bits = u32::from_le_bytes(chunk.try_into().unwrap());
        let scaled = mode == 2 || (mode == 3 && i % 2 == 1);
        let v = if scaled {
            // bits -> [-range, range): 2^-31 steps, rounded to f32.
            (bits as f64 / 2_147_483_648.0 - 1.0) as f32 * range
        } else {
            f32::from_bits(bits)
        };
        inputs[i % dims].push(v);
    }

    let slices: Vec<&[f32]> = inputs.iter().map(Vec::as_slice).collect();
    let expected: Vec<u32> = (0..len)
        .map(|i| noise(&perlin, &slices, i).to_bits())
        .collect();
    let mut out = vec![0.0f32; len];
    for level in Level::available() {
        let p = perlin.clone().with_level(level).unwrap();
        out.fill(f32::from_bits(SENTINEL_BITS));
        fill(&p, &slices, &mut out).unwrap();
        for i in 0..len {
            assert!(
                out[i].to_bits() == expected[i],
                "level {level}, {dims}D, length {len}, index {i}: fill {:#010x}, scalar {:#010x}, point {:?}",
                out[i].to_bits(),
                expected[i],
                slices.iter().map(|s| s[i].to_bits()).collect::<Vec<_>>(),
            );
        }
    }

    if flags & 0x40 != 0 {
        check_mismatch(&perlin, &slices, byte(data, 11));
    }
}

/// Makes one slice after `xs` a different length and expects a refusal.
fn check_mismatch(perlin: &Perlin, slices: &[&[f32]], choice: u8) {
    let dims = slices.len();
    let len = slices[0].len();
    // Slices after xs: ys.. (dims - 1 of them), then out.
    let names = ["ys", "zs", "ws"];
    let wrong = usize::from(choice & 3) % dims; // 0..dims-1: coordinate; dims-1: out
    let delta = usize::from(choice >> 2) + 1;
    let wrong_len = if choice & 0x80 != 0 && len >= delta {
        len - delta
    } else {
        len + delta
    };
    let mut owned: Vec<Vec<f32>> = slices.iter().map(|s| s.to_vec()).collect();
    let (name, out_len) = if wrong == dims - 1 {
        ("out", wrong_len)
    } else {
        owned[wrong + 1].resize(wrong_len, 0.5);
        (names[wrong], len)
    };
    let borrowed: Vec<&[f32]> = owned.iter().map(Vec::as_slice).collect();
    for level in Level::available() {
        let p = perlin.clone().with_level(level).unwrap();
        let mut out = vec![f32::from_bits(SENTINEL_BITS); out_len];
        let result = fill(&p, &borrowed, &mut out);
        match result {
            Err(Error::LengthMismatch {
                name: n,
                expected,
                found,
            }) => {
                assert_eq!(
                    (n, expected, found),
                    (name, len, wrong_len),
                    "level {level}"
                );
            }
            other => panic!("level {level}: {name} of {wrong_len} vs xs of {len} gave {other:?}"),
        }
        assert!(
            out.iter().all(|v| v.to_bits() == SENTINEL_BITS),
            "level {level}: a refused call wrote out"
        );
    }
}

fn noise(p: &Perlin, s: &[&[f32]], i: usize) -> f32 {
    match *s {
        [x] => p.noise([x[i]]),
        [x, y] => p.noise([x[i], y[i]]),
        [x, y, z] => p.noise([x[i], y[i], z[i]]),
        [x, y, z, w] => p.noise([x[i], y[i], z[i], w[i]]),
        _ => unreachable!(),
    }
}

fn fill(p: &Perlin, s: &[&[f32]], out: &mut [f32]) -> Result<(), Error> {
    match *s {
        [xs] => p.fill([xs], out),
        [xs, ys] => p.fill([xs, ys], out),
        [xs, ys, zs] => p.fill([xs, ys, zs], out),
        [xs, ys, zs, ws] => p.fill([xs, ys, zs, ws], out),
        _ => unreachable!(),
    }
}
