//! Conformance of every backend to the [`Simd`] contract: each operation
//! runs on adversarial and random inputs at every level this CPU has, and
//! its results must equal the scalar backend's (the definition), lane by
//! lane, bit for bit. The scalar backend works one lane at a time, so
//! running the same generic code on it computes each lane on its own.
//!
//! Bits are compared exactly, except that an arithmetic result or a floor
//! that is NaN may be any NaN (the contract leaves payloads open).
//!
//! Integer vectors are observed through contract-defined operations:
//! `byte_value` for the byte lanes (`h mod 256`), and `top24` of a 32-bit
//! lane and of the lane times 256 (its bits 8–31 and 0–23).

use super::{Job, Lanes, OutlinedJob, PermTable, Simd, dispatch, scalar::Scalar};
use crate::Level;

/// Every pack size divides this (`MAX_LANES`).
const BLOCK: usize = super::MAX_LANES;

/// splitmix64: a fixed stream of test bits.
fn random_bits(n: usize, seed: u64) -> Vec<u64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

/// The adversarial floats of the issue and their neighbours, then random
/// bit patterns and random values on the noise's usual scale, padded to
/// whole blocks.
fn floats() -> Vec<f32> {
    let two = |e: i32| 2f32.powi(e);
    let mut v = vec![
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7FC0_1234),
        f32::from_bits(0xFFA0_0001), // a signalling NaN
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::from_bits(0x007F_FFFF),
        -f32::from_bits(0x007F_FFFF),
        f32::MIN_POSITIVE,
        f32::MAX,
        -f32::MAX,
        f32::EPSILON,
        two(23),
        -two(23),
        two(23) - 0.5,
        -(two(23) - 0.5),
        two(23) + 2.0,
        two(24) - 1.0,
        two(31),
        -two(31),
        two(31) - 128.0,
        -(two(31) - 128.0),
        -two(31) - 256.0,
        two(32),
        -two(32),
        two(32) - 256.0,
        two(40) + two(20),
        0.5,
        -0.5,
        1.0,
        -1.0,
        1.5,
        -1.5,
        0.999_999_94,
        -0.999_999_94,
        255.0,
        255.5,
        256.0,
        -256.0,
        -256.5,
        -255.5,
        1e-7,
        -1e-7,
        3.520_183e19,
        254.999_98,
        1e30,
        -1e30,
    ];
    for bits in random_bits(3 * BLOCK * 8, 1) {
        v.push(f32::from_bits(bits as u32));
        v.push(((bits >> 32) as u32 as f32 / 4_294_967_296.0 - 0.5) * 2000.0);
    }
    v.resize(v.len().div_ceil(BLOCK) * BLOCK, 0.25);
    v
}

/// Boundary integers, then random ones, padded to whole blocks.
fn integers() -> Vec<u32> {
    let mut v = vec![
        0,
        1,
        2,
        255,
        256,
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0xDEAD_BEEF,
        0x0100_0000,
        0x00FF_FFFF,
    ];
    v.extend(random_bits(8 * BLOCK, 2).into_iter().map(|b| b as u32));
    v.resize(v.len().div_ceil(BLOCK) * BLOCK, 7);
    v
}

/// Float tables for the `table*`/`top*` reads: entries with awkward bits
/// (NaN payloads, −0, subnormals), which a read must return unchanged.
fn float_table<const N: usize>(seed: u64) -> [f32; N] {
    let specials = [
        f32::from_bits(0x7FC0_4321),
        -0.0,
        f32::from_bits(3),
        f32::NEG_INFINITY,
    ];
    let bits = random_bits(N, seed);
    std::array::from_fn(|i| match i % 5 {
        1 => specials[(i / 5) % specials.len()],
        _ => f32::from_bits(bits[i] as u32),
    })
}

/// Tables of −1, 0, 1 for the `units*` reads.
fn unit_table<const N: usize>(seed: u64) -> [f32; N] {
    let bits = random_bits(N, seed);
    std::array::from_fn(|i| [-1.0, 0.0, 1.0][(bits[i] % 3) as usize])
}

/// A permutation of 0..=255 (Fisher–Yates on the fixed stream).
fn permutation() -> PermTable {
    let mut p: [u8; 256] = std::array::from_fn(|i| i as u8);
    let bits = random_bits(256, 3);
    for i in (1..256).rev() {
        p.swap(i, (bits[i] % (i as u64 + 1)) as usize);
    }
    PermTable::new(&p)
}

/// What one level produced: its pack size, and per operation the bits of
/// every lane (the same length at every level).
struct Observed {
    lanes: usize,
    /// Lanes per part.
    part_lanes: usize,
    ops: Vec<(&'static str, Vec<u32>)>,
}

impl Observed {
    fn put(&mut self, name: &'static str, bits: impl IntoIterator<Item = u32>) {
        match self.ops.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.extend(bits),
            None => self.ops.push((name, bits.into_iter().collect())),
        }
    }
}

/// Stores a pack's floats as bits.
fn pack_bits<S: Simd>(s: S, v: S::F) -> Vec<u32> {
    let mut out = vec![0.0f32; S::LANES];
    s.store(v, &mut out);
    out.iter().map(|f| f.to_bits()).collect()
}

/// Stores one part per `k` (in point order) as bits.
fn parts_bits<S: Simd>(s: S, part: impl Fn(usize) -> S::P) -> Vec<u32> {
    let mut pack = s.splat(0.0);
    for k in 0..S::PARTS {
        s.set_part(&mut pack, k, part(k));
    }
    pack_bits(s, pack)
}

/// The 32 bits of every lane of one part of cells, through `top24`.
fn u32_part_bits<S: Simd>(s: S, v: S::UP) -> [S::P; 2] {
    let low = s.mul_u32(v, s.splat_u32(256));
    [s.top24(v), s.top24(low)]
}

/// Every lane of a pack of cells as its 32 bits.
fn u32_pack_bits<S: Simd>(s: S, v: S::U) -> Vec<u32> {
    u32_parts_bits(s, |k| s.u32_part(v, k))
}

/// Every lane of one part of cells per `k` (in point order) as its 32 bits.
fn u32_parts_bits<S: Simd>(s: S, part: impl Fn(usize) -> S::UP) -> Vec<u32> {
    let high = parts_bits(s, |k| u32_part_bits(s, part(k))[0]);
    let low = parts_bits(s, |k| u32_part_bits(s, part(k))[1]);
    high.iter()
        .zip(&low)
        .map(|(&h, &l)| ((f32::from_bits(h) as u32) << 8) | (f32::from_bits(l) as u32 & 0xFF))
        .collect()
}

/// Every byte lane of a pack, through `byte_value` (`h mod 256`).
fn byte_pack_bits<S: Simd>(s: S, v: S::I) -> Vec<u32> {
    parts_bits(s, |k| s.byte_value(s.hashes(v, k)))
        .into_iter()
        .map(|b| f32::from_bits(b) as u32)
        .collect()
}

/// `a · b − a` in a function of its own, through [`Simd::outlined`].
struct Outlined<S: Simd>(S::F, S::F);

impl<S: Simd> OutlinedJob<S> for Outlined<S> {
    type Output = S::F;
    fn run(self, _: S) -> S::F {
        self.0 * self.1 - self.0
    }
}

/// Runs every operation over the inputs at one level.
struct Conformance;

impl Job for Conformance {
    type Output = Observed;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) -> Observed {
        observe(s)
    }
}

fn observe<S: Simd>(s: S) -> Observed {
    let n = S::LANES;
    let mut o = Observed {
        lanes: n,
        part_lanes: n / S::PARTS,
        ops: Vec::new(),
    };
    let fl = floats();
    let int = integers();
    let perm = permutation();
    let perm = s.perm_table(&perm);
    let (t8, t16, t32) = (
        float_table::<8>(4),
        float_table::<16>(5),
        float_table::<32>(6),
    );
    let (u16t, u32t) = (unit_table::<16>(7), unit_table::<32>(8));

    // Floats: `b` is the list turned by a prime, so specials meet specials.
    let turned: Vec<f32> = fl.iter().cycle().skip(37).take(fl.len()).copied().collect();
    for (fl_a, fl_b) in fl.chunks(n).zip(turned.chunks(n)) {
        let (a, b) = (s.load(fl_a), s.load(fl_b));
        o.put("load/store", pack_bits(s, a));
        // Parts read from and written to memory: `load_part` of every part,
        // and `store_part` of each part of `a` over a pack of `b`, first to
        // last and last to first (a part that lands on other lanes, or
        // writes any lane but its own, leaves something of `b` or of
        // another part).
        o.put("load_part", parts_bits(s, |k| s.load_part(fl_a, k)));
        for (name, reverse) in [("store_part", false), ("store_part reversed", true)] {
            let mut stored = fl_b.to_vec();
            for k in 0..S::PARTS {
                let k = if reverse { S::PARTS - 1 - k } else { k };
                s.store_part(s.part(a, k), &mut stored, k);
            }
            o.put(name, stored.iter().map(|f| f.to_bits()));
        }
        // One part from and to its own slice: `load_one` of each part's
        // lanes, and `store_one` of each part of `a` at its place over `b`
        // (a store that writes past its part leaves the next part's lane).
        let part_lanes = n / S::PARTS;
        o.put(
            "load_one",
            parts_bits(s, |k| s.load_one(&fl_a[k * part_lanes..])),
        );
        let mut stored = fl_b.to_vec();
        for k in (0..S::PARTS).rev() {
            s.store_one(s.part(a, k), &mut stored[k * part_lanes..]);
        }
        o.put("store_one", stored.iter().map(|f| f.to_bits()));
        o.put("splat", pack_bits(s, s.splat(f32::from_bits(0x7FC0_0077))));
        o.put("add", pack_bits(s, a + b));
        o.put("sub", pack_bits(s, a - b));
        o.put("mul", pack_bits(s, a * b));
        o.put("part add", parts_bits(s, |k| s.part(a, k) + s.part(b, k)));
        o.put("part sub", parts_bits(s, |k| s.part(a, k) - s.part(b, k)));
        o.put("part mul", parts_bits(s, |k| s.part(a, k) * s.part(b, k)));
        o.put("floor", pack_bits(s, s.floor(a)));
        o.put("abs", pack_bits(s, s.abs(a)));
        o.put("min", pack_bits(s, s.min(a, b)));
        o.put("max", pack_bits(s, s.max(a, b)));
        // `Lanes`, on packs and on parts.
        o.put("Lanes min", pack_bits(s, <S::F as Lanes<S>>::min(s, a, b)));
        o.put("Lanes max", pack_bits(s, <S::F as Lanes<S>>::max(s, a, b)));
        o.put(
            "Lanes part min",
            parts_bits(s, |k| Lanes::min(s, s.part(a, k), s.part(b, k))),
        );
        o.put(
            "Lanes part max",
            parts_bits(s, |k| Lanes::max(s, s.part(a, k), s.part(b, k))),
        );
        o.put(
            "Lanes part splat",
            parts_bits(s, |_| {
                <S::P as Lanes<S>>::splat(s, f32::from_bits(0x8000_0001))
            }),
        );
        o.put(
            "canonical_nan",
            parts_bits(s, |k| s.canonical_nan(s.part(a, k))),
        );
        o.put("outlined", pack_bits(s, s.outlined(Outlined::<S>(a, b))));
        o.put("opaque_p", parts_bits(s, |k| s.opaque_p(s.part(a, k))));
        let floored = s.floor(a);
        o.put("cell", byte_pack_bits(s, s.cell(floored)));
        let (cells, exact) = s.cells32(floored);
        o.put("cells32 exact", vec![u32::from(exact); n]);
        o.put("cells32", u32_pack_bits(s, cells));
        // Parts: `floor_part`, and `cells32_parts` of the parts of `a` and
        // `b` together (per lane: its part's flag, then the cells of `a`
        // and of `b`, zero where the flag is clear).
        o.put("floor_part", parts_bits(s, |k| s.floor_part(s.part(a, k))));
        let floored_b = s.floor(b);
        let pair = |k: usize| s.cells32_parts(&[s.part(floored, k), s.part(floored_b, k)]);
        o.put(
            "cells32_parts exact",
            parts_bits(s, |k| {
                <S::P as Lanes<S>>::splat(s, if pair(k).is_some() { 1.0 } else { 0.0 })
            }),
        );
        for (name, axis) in [("cells32_parts a", 0), ("cells32_parts b", 1)] {
            let cells = |k: usize| pair(k).map_or(s.splat_u32(0), |c| c[axis]);
            o.put(name, u32_parts_bits(s, cells));
        }
        // `cells32_parts_checked` of the same pairs: each part's verdict
        // alone, the verdict of the whole pack folded into one check (on
        // every lane), and the cells of `a` and of `b` (defined in every
        // lane whose pair is in range).
        let checked = |k: usize, check: &mut S::UP| {
            s.cells32_parts_checked(&[s.part(floored, k), s.part(floored_b, k)], check)
        };
        o.put(
            "cells32_parts_checked exact",
            parts_bits(s, |k| {
                let mut check = s.cells_check();
                checked(k, &mut check);
                <S::P as Lanes<S>>::splat(s, if s.cells_checked(check) { 1.0 } else { 0.0 })
            }),
        );
        let mut check = s.cells_check();
        for k in 0..S::PARTS {
            checked(k, &mut check);
        }
        o.put(
            "cells32_parts_checked pack",
            vec![u32::from(s.cells_checked(check)); n],
        );
        for (name, axis) in [
            ("cells32_parts_checked a", 0),
            ("cells32_parts_checked b", 1),
        ] {
            let cells = |k: usize| checked(k, &mut s.cells_check())[axis];
            o.put(name, u32_parts_bits(s, cells));
        }
    }
    let mut streamed = vec![0.0f32; fl.len() + 16];
    for offset in [0, 1] {
        let dst = &mut streamed[offset..offset + fl.len()];
        s.copy_streaming(&fl, dst);
        s.store_fence();
        o.put("copy_streaming", dst.iter().map(|f| f.to_bits()));
        for (src, d) in fl.chunks(n).zip(dst.chunks_mut(n)) {
            s.store_streaming(s.load(src), d);
        }
        s.store_fence();
        o.put("store_streaming", dst.iter().map(|f| f.to_bits()));
    }

    // Byte lanes (hashes mod 256): every byte value, then random ones.
    let bytes: Vec<u8> = int
        .iter()
        .enumerate()
        .map(|(i, &v)| (v as usize + i) as u8)
        .collect();
    let turned: Vec<u8> = bytes
        .iter()
        .cycle()
        .skip(61)
        .take(bytes.len())
        .copied()
        .collect();
    for (a, b) in bytes.chunks(n).zip(turned.chunks(n)) {
        let (a, b) = (s.load_cells(a), s.load_cells(b));
        o.put("load_cells", byte_pack_bits(s, a));
        o.put("splat_i", byte_pack_bits(s, s.splat_i(-3)));
        o.put("byte add", byte_pack_bits(s, a + b));
        o.put("perm", byte_pack_bits(s, s.perm(&perm, a)));
        let h = |k| s.hashes(a, k);
        o.put("table8", parts_bits(s, |k| s.table8(&t8, h(k))));
        o.put("table16", parts_bits(s, |k| s.table16(&t16, h(k))));
        o.put("table32", parts_bits(s, |k| s.table32(&t32, h(k))));
        o.put("units16", parts_bits(s, |k| s.units16(&u16t, h(k))));
        o.put("units32", parts_bits(s, |k| s.units32(&u32t, h(k))));
    }

    // 32-bit lanes.
    let turned: Vec<u32> = int
        .iter()
        .cycle()
        .skip(41)
        .take(int.len())
        .copied()
        .collect();
    for (a, b) in int.chunks(n).zip(turned.chunks(n)) {
        let (a, b) = (s.load_u32(a), s.load_u32(b));
        o.put("load_u32", u32_pack_bits(s, a));
        o.put("next_u32", u32_pack_bits(s, s.next_u32(a)));
        let mut stored = vec![0u32; n];
        s.store_u32(b, &mut stored);
        o.put("store_u32", stored);
        let each = |f: &dyn Fn(S::UP, S::UP) -> S::UP| {
            let mut v = a;
            for k in 0..S::PARTS {
                s.set_u32_part(&mut v, k, f(s.u32_part(a, k), s.u32_part(b, k)));
            }
            u32_pack_bits(s, v)
        };
        o.put("splat_u32", each(&|_, _| s.splat_u32(0x8765_4321)));
        o.put("add_u32", each(&|x, y| s.add_u32(x, y)));
        o.put("mul_u32", each(&|x, y| s.mul_u32(x, y)));
        o.put("xor_u32", each(&|x, y| s.xor_u32(x, y)));
        o.put("min_u32", each(&|x, y| s.min_u32(x, y)));
        o.put("shr_u32 1", each(&|x, _| s.shr_u32::<1>(x)));
        o.put("shr_u32 13", each(&|x, _| s.shr_u32::<13>(x)));
        o.put("shr_u32 16", each(&|x, _| s.shr_u32::<16>(x)));
        o.put("shr_u32 31", each(&|x, _| s.shr_u32::<31>(x)));
        o.put("opaque_up", each(&|x, _| s.opaque_up(x)));
        o.put(
            "top2",
            parts_bits(s, |k| {
                let (x, y) = (s.u32_part(a, k), s.u32_part(b, k));
                s.top2([s.top24(x), s.top24(y)], s.xor_u32(x, y))
            }),
        );
        o.put(
            "signed_top",
            parts_bits(s, |k| {
                let (x, y) = (s.u32_part(a, k), s.u32_part(b, k));
                // A finite product and its exact negative (no NaN: their
                // signs may differ between forms).
                let p = s.top24(x) - s.top24(y);
                s.signed_top([p, p * s.part(s.splat(-1.0), 0)], s.xor_u32(x, y))
            }),
        );
        o.put("top8", parts_bits(s, |k| s.top8(&t8, s.u32_part(a, k))));
        o.put("top16", parts_bits(s, |k| s.top16(&t16, s.u32_part(a, k))));
        o.put("top24", parts_bits(s, |k| s.top24(s.u32_part(a, k))));
    }
    o
}

/// Operations whose NaN results may carry any payload.
const ARITHMETIC: [&str; 9] = [
    "add",
    "sub",
    "mul",
    "part add",
    "part sub",
    "part mul",
    "floor",
    "floor_part",
    "outlined",
];

/// Levels named in `NOISEFIELD_REQUIRE_LEVELS` (comma-separated) that
/// this CPU lacks: the run must fail rather than skip them in silence.
fn required_but_missing() -> Vec<String> {
    let wanted = std::env::var("NOISEFIELD_REQUIRE_LEVELS").unwrap_or_default();
    wanted
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .filter(|w| !w.parse::<Level>().is_ok_and(Level::is_available))
        .map(str::to_string)
        .collect()
}

/// The scalar observations of operation `name`.
fn scalar_flags<'a>(reference: &'a Observed, name: &str) -> &'a [u32] {
    &reference.ops.iter().find(|(n, _)| *n == name).unwrap().1
}

#[test]
fn every_operation_of_every_level_matches_scalar() {
    let missing = required_but_missing();
    assert!(
        missing.is_empty(),
        "NOISEFIELD_REQUIRE_LEVELS names levels this CPU lacks (or unknown names): {missing:?}"
    );
    let reference = observe(Scalar);
    let mut ran = Vec::new();
    for &level in Level::all() {
        if !level.is_available() {
            eprintln!("conformance: {level} NOT tested (this CPU lacks it)");
            continue;
        }
        let got = dispatch(level, Conformance);
        assert_eq!(got.ops.len(), reference.ops.len());
        for ((name, want), (got_name, bits)) in reference.ops.iter().zip(&got.ops) {
            assert_eq!(name, got_name);
            assert_eq!(want.len(), bits.len(), "{level} {name}: lane count");
            match *name {
                // One flag per pack: set exactly when the scalar flags of
                // all the pack's lanes are.
                "cells32 exact" => {
                    for (i, chunk) in want.chunks(got.lanes).enumerate() {
                        let all = u32::from(chunk.iter().all(|&f| f == 1));
                        assert_eq!(bits[i * got.lanes], all, "{level} cells32 flag, pack {i}");
                    }
                }
                // One flag per part: set exactly when the scalar flags of
                // all the part's lanes are (1.0 or 0.0 on every lane).
                "cells32_parts exact" | "cells32_parts_checked exact" => {
                    let one = 1.0f32.to_bits();
                    for (i, chunk) in want.chunks(got.part_lanes).enumerate() {
                        let all = if chunk.iter().all(|&f| f == one) {
                            one
                        } else {
                            0
                        };
                        for (j, &b) in bits[i * got.part_lanes..][..got.part_lanes]
                            .iter()
                            .enumerate()
                        {
                            assert_eq!(b, all, "{level} cells32_parts flag, part {i}, lane {j}");
                        }
                    }
                }
                // The pack's verdict: set exactly when the scalar flags of
                // all its lanes' pairs are.
                "cells32_parts_checked pack" => {
                    let one = 1.0f32.to_bits();
                    let pairs = scalar_flags(&reference, "cells32_parts exact");
                    for (i, chunk) in pairs.chunks(got.lanes).enumerate() {
                        let all = u32::from(chunk.iter().all(|&f| f == one));
                        for (j, &b) in bits[i * got.lanes..][..got.lanes].iter().enumerate() {
                            assert_eq!(b, all, "{level} {name}, pack {i}, lane {j}");
                        }
                    }
                }
                // Checked cells are defined in every lane whose pair is in
                // range (the scalar flag of that lane alone).
                "cells32_parts_checked a" | "cells32_parts_checked b" => {
                    let pairs = scalar_flags(&reference, "cells32_parts exact");
                    for (i, (w, g)) in want.iter().zip(bits).enumerate() {
                        if pairs[i] == 1.0f32.to_bits() {
                            assert_eq!(w, g, "{level} {name}, lane {i}");
                        }
                    }
                }
                // Cells are defined only in parts flagged exact.
                "cells32_parts a" | "cells32_parts b" => {
                    let flags = &got
                        .ops
                        .iter()
                        .find(|(n, _)| *n == "cells32_parts exact")
                        .unwrap()
                        .1;
                    for (i, (w, g)) in want.iter().zip(bits).enumerate() {
                        if flags[i] == 1.0f32.to_bits() {
                            assert_eq!(w, g, "{level} {name}, lane {i}");
                        }
                    }
                }
                // Cells are defined only in packs flagged exact.
                "cells32" => {
                    let flags = &got
                        .ops
                        .iter()
                        .find(|(n, _)| *n == "cells32 exact")
                        .unwrap()
                        .1;
                    for (i, (w, g)) in want.iter().zip(bits).enumerate() {
                        if flags[i] == 1 {
                            assert_eq!(w, g, "{level} cells32, lane {i}");
                        }
                    }
                }
                _ => {
                    // Arithmetic and floor: a NaN's payload is unspecified
                    // (instructions differ in which operand's payload they
                    // keep and whether they quiet it; the kernel replaces
                    // every result NaN), so any NaN matches any NaN there.
                    let any_nan = ARITHMETIC.contains(name);
                    let nan = |b: u32| f32::from_bits(b).is_nan();
                    let same =
                        |i: usize| want[i] == bits[i] || (any_nan && nan(want[i]) && nan(bits[i]));
                    if let Some(i) = (0..want.len()).find(|&i| !same(i)) {
                        panic!(
                            "{level} {name}: lane {i} gives {:#010x}, scalar {:#010x}",
                            bits[i], want[i]
                        );
                    }
                }
            }
        }
        ran.push(level.name());
    }
    eprintln!("conformance: tested {}", ran.join(", "));
    assert!(
        ran.len() >= 2,
        "at least scalar and portable run everywhere"
    );
}

#[test]
fn the_observations_see_every_bit() {
    // The observers themselves, on the scalar backend, against plain Rust.
    let s = Scalar;
    for &v in &integers() {
        assert_eq!(u32_pack_bits(s, s.load_u32(&[v])), [v]);
    }
    for b in 0..=255u8 {
        assert_eq!(byte_pack_bits(s, s.load_cells(&[b])), [u32::from(b)]);
    }
    // And the scalar backend's contract where it is easy to state.
    assert_eq!(
        byte_pack_bits(s, s.cell(2f32.powi(31))),
        [0],
        "2³¹ is a multiple of 256"
    );
    assert_eq!(byte_pack_bits(s, s.cell(f32::NAN)), [0]);
    assert_eq!(byte_pack_bits(s, s.cell(-1.0)), [255]);
    assert_eq!(s.min(f32::NAN, 1.0), 1.0);
    assert!(s.min(1.0, f32::NAN).is_nan());
}
