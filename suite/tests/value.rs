//! Value noise and the fade curves: value noise against an independent `f64`
//! implementation (hash chain over `Value::permutation()`, heights
//! `h·2/255 − 1`, fades from their formulas, multilinear blend); lattice
//! points give the corner heights; each `Fade` follows its formula between
//! two lattice points; `Perlin` and `Value` with every fade give the same
//! bits at every level (adversarial table, lengths 0..=67, raw bit
//! patterns) and on grids; outputs stay in [−1, 1].

use crate::common::levels;
use crate::common::{
    AnyGrid, Rng, SENTINEL_BITS, adversarial, assert_src_f64_levels_agree,
    assert_src_levels_match_scalar, bit_pattern_slices, bits, borrow, borrow64, f64_slices,
    table_inputs, widen,
};
use noisefield::prelude::*;
use noisefield::{DynSource, Fade, Level, Perlin, Value};
use proptest::prelude::*;

/// Ken's table and two seeded ones.
fn values() -> Vec<(String, Value)> {
    vec![
        ("reference".to_string(), Value::reference()),
        ("seed 0".to_string(), Value::permuted(0)),
        ("seed 0x5eed".to_string(), Value::permuted(0x5eed)),
    ]
}

/// Every lattice source: Perlin and Value, three tables, every fade.
fn lattice_sources() -> Vec<(String, DynSource)> {
    let mut v: Vec<(String, DynSource)> = Vec::new();
    for fade in Fade::ALL {
        for (name, p) in [
            ("Perlin reference", Perlin::reference()),
            ("Perlin seed 9", Perlin::permuted(9)),
        ] {
            v.push((
                format!("{name}, {fade:?}"),
                DynSource::new(p.with_fade(fade)),
            ));
        }
        for (name, p) in values() {
            v.push((
                format!("Value {name}, {fade:?}"),
                DynSource::new(p.with_fade(fade)),
            ));
        }
    }
    v
}

// ------------------------------------------------------------ the oracle

/// Each curve from its formula, in `f64`.
fn fade64(fade: Fade, t: f64) -> f64 {
    match fade {
        Fade::Quintic => t * t * t * (t * (t * 6.0 - 15.0) + 10.0),
        Fade::Cubic => t * t * (3.0 - 2.0 * t),
        Fade::Cosine => (1.0 - (std::f64::consts::PI * t).cos()) / 2.0,
        Fade::Linear => t,
    }
}

/// The hash of lattice point `cells`: `P[X]` in 1D, `P[P[P[X] + Y] + 0]`
/// in 2D (the z = 0 slice of 3D), `P[P[P[X] + Y] + Z]` in 3D,
/// `P[P[P[P[X] + Y] + Z] + W]` in 4D, every index mod 256.
fn hash(p: &[u8; 256], cells: &[i64]) -> u8 {
    let at = |i: i64| p[i.rem_euclid(256) as usize];
    let mut h = at(cells[0]);
    for &c in &cells[1..] {
        h = at(i64::from(h) + c);
    }
    if cells.len() == 2 {
        h = at(i64::from(h));
    }
    h
}

/// A corner's height: `h · 2/255 − 1`, from −1 (h = 0) to 1 (h = 255).
fn height64(h: u8) -> f64 {
    f64::from(h) * 2.0 / 255.0 - 1.0
}

/// Value noise in `f64`: Σ over the cell's corners of the product of the
/// per-axis weights (`1 − fade(t)` near, `fade(t)` far) times the height.
fn value64(p: &[u8; 256], fade: Fade, c: &[f64]) -> f64 {
    let floor: Vec<f64> = c.iter().map(|v| v.floor()).collect();
    let t: Vec<f64> = c.iter().zip(&floor).map(|(v, f)| v - f).collect();
    let mut sum = 0.0;
    for corner in 0..1usize << c.len() {
        let mut weight = 1.0;
        let cells: Vec<i64> = (0..c.len())
            .map(|a| {
                let far = corner >> a & 1 == 1;
                let u = fade64(fade, t[a]);
                weight *= if far { u } else { 1.0 - u };
                floor[a] as i64 + i64::from(far)
            })
            .collect();
        sum += weight * height64(hash(p, &cells));
    }
    sum
}

/// The largest error of each curve as the library evaluates it in `f32`,
/// at exact offsets (every `f32` in [0, 1] measured against the `f64`
/// formulas): the quintic's Horner form cancels near t = 1 (t(6t − 15) ≈ −9,
/// then + 10) and is off by up to 1.13e-6; smoothstep by 7.7e-8; the cosine
/// curve's polynomial by 1.4e-7; the linear one is exact.
fn fade_error(fade: Fade) -> f64 {
    match fade {
        Fade::Quintic => 1.2e-6,
        Fade::Cubic => 1e-7,
        Fade::Cosine => 2e-7,
        Fade::Linear => 0.0,
    }
}

/// The rounding of one `f32` lerp `a + f·(b − a)` of values in [−1, 1]:
/// `b − a` (≤ 2, half an ulp 1.2e-7), the product and the sum (6e-8 each).
const LERP_ROUNDING: f64 = 2.4e-7;

/// How far `Value` may be from [`value64`] in `dims` dimensions: each axis
/// blends once per level of the lerp tree; a fade error δ moves a lerp by
/// δ·|b − a| ≤ 2δ and the later lerps carry it with weights summing to 1,
/// so each axis adds at most 2δ plus one lerp's rounding. Measured maxima
/// are printed (well below: 1.1e-6 for the quintic, 5e-7 for the others).
fn value_tolerance(fade: Fade, dims: usize) -> f64 {
    dims as f64 * (2.0 * fade_error(fade) + LERP_ROUNDING)
}

/// Points that exercise wrapping (|c| > 256), cell faces and ordinary
/// offsets, `n` random ones plus f32 neighbours of lattice planes.
fn oracle_points(rng: &mut Rng, dims: usize, n: usize) -> Vec<Vec<f32>> {
    let mut pts = rng.points(dims, n, -600.0, 600.0);
    for axis in pts.iter_mut() {
        for k in 0..64 {
            let base = (rng.uniform(-300.0, 300.0)).floor() as f32;
            axis.push(match k % 4 {
                0 => base.next_up(),
                1 => base.next_down(),
                2 => base + 0.5,
                _ => base,
            });
        }
    }
    pts
}

#[test]
fn value_noise_matches_an_f64_oracle_in_1d_to_4d() {
    let mut rng = Rng(11);
    let mut report = Vec::new();
    for (name, v) in values() {
        let p = v.permutation().unwrap();
        for fade in Fade::ALL {
            let v = v.clone().with_fade(fade);
            for dims in 1..=4 {
                let pts = oracle_points(&mut rng, dims, 2000);
                let len = pts[0].len();
                let mut out = vec![0.0f32; len];
                DynSource::new(v.clone())
                    .fill_dyn(&borrow(&pts), &mut out)
                    .unwrap();
                let mut max = 0.0f64;
                for (i, &got) in out.iter().enumerate() {
                    let c: Vec<f64> = pts.iter().map(|s| f64::from(s[i])).collect();
                    let want = value64(&p, fade, &c);
                    let err = (f64::from(got) - want).abs();
                    assert!(
                        err <= value_tolerance(fade, dims),
                        "{name}, {fade:?}, {dims}D at {c:?}: Value gave {got:e}, the f64 \
                         oracle {want:e} (difference {err:e})"
                    );
                    max = max.max(err);
                }
                report.push(format!("{name} {fade:?} {dims}D: {max:.2e}"));
            }
        }
    }
    eprintln!("max |Value - f64 oracle|: {}", report.join(", "));
}

/// The 1D lattice value at `X` is the height of `h = P[X]`: the 256 lattice
/// values over one period are 256 distinct numbers, increasing with `h`,
/// from exactly −1 to exactly 1, each within rounding of `h·2/255 − 1`;
/// in 2D to 4D a lattice point gives exactly the bits of the 1D lattice
/// point with the same hash (the height depends on the hash only).
#[test]
fn value_at_lattice_points_is_the_corner_height() {
    for (name, v) in values() {
        let p = v.permutation().unwrap();
        for fade in Fade::ALL {
            let v = v.clone().with_fade(fade);
            let mut by_hash = [0.0f32; 256];
            for x in 0..256i64 {
                // Also one period away on both sides: the same bits.
                let got = v.noise([x as f32]);
                for shift in [-256.0f32, 256.0, -512.0] {
                    assert_eq!(got.to_bits(), v.noise([x as f32 + shift]).to_bits());
                }
                by_hash[usize::from(hash(&p, &[x]))] = got;
            }
            assert_eq!(by_hash[0], -1.0, "{name}, {fade:?}");
            assert_eq!(by_hash[255], 1.0, "{name}, {fade:?}");
            for h in 0..256 {
                let err = (f64::from(by_hash[h]) - height64(h as u8)).abs();
                // f32 rounding of h·(2/255) (< 2) and of the − 1: < 3e-7.
                assert!(err < 3e-7, "{name}: height {h} is {:e}", by_hash[h]);
                if h > 0 {
                    assert!(by_hash[h] > by_hash[h - 1], "{name}: heights {h}");
                }
            }
            let mut rng = Rng(5);
            let dv = DynSource::new(v.clone());
            for dims in 2..=4 {
                for _ in 0..500 {
                    let cells: Vec<i64> = (0..dims)
                        .map(|_| rng.uniform(-700.0, 700.0).floor() as i64)
                        .collect();
                    let c: Vec<f32> = cells.iter().map(|&c| c as f32).collect();
                    let got = dv.noise_dyn(&c).unwrap();
                    let want = by_hash[usize::from(hash(&p, &cells))];
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{name}, {fade:?}, lattice point {cells:?}: {got:e}, height {want:e}"
                    );
                }
            }
        }
    }
}

/// Between two lattice points `X` and `X + 1` whose heights differ by at
/// least 1.5, 1D value noise is `h0 + fade(t)·(h1 − h0)` with each curve's
/// formula, within the `f32` error of the curve ([`fade_error`]) times
/// |h1 − h0| plus the lerp's rounding. Every
/// other curve is at least 100 tolerances away somewhere on the same
/// samples, so the check tells the curves apart; the curves are symmetric
/// (`fade(1 − t) = 1 − fade(t)`) and the field is continuous at the faces.
#[test]
fn every_fade_follows_its_formula_between_two_lattice_points() {
    for (name, v) in values() {
        let plain = v.clone();
        let x = (0..255)
            .max_by_key(|&x| {
                let d = plain.noise([x as f32 + 1.0]) - plain.noise([x as f32]);
                (d.abs() * 1e6) as i64
            })
            .unwrap() as f32;
        let mut rng = Rng(3);
        let mut ts: Vec<f32> = (0..=1024).map(|k| k as f32 / 1024.0).collect();
        ts.extend((0..2000).map(|_| rng.uniform(0.0, 1.0) as f32));
        ts.extend([
            1e-7,
            1.0f32.next_down(),
            0.5f32.next_up(),
            0.5f32.next_down(),
        ]);
        for fade in Fade::ALL {
            let v = v.clone().with_fade(fade);
            let (h0, h1) = (v.noise([x]), v.noise([x + 1.0]));
            let (h0, h1) = (f64::from(h0), f64::from(h1));
            assert!((h1 - h0).abs() >= 1.5, "{name}: heights {h0}, {h1}");
            let tol = fade_error(fade) * (h1 - h0).abs() + LERP_ROUNDING;
            let xs: Vec<f32> = ts.iter().map(|t| x + t).collect();
            let mut out = vec![0.0f32; xs.len()];
            v.fill([&xs], &mut out).unwrap();
            let mut others_far = [false; 4];
            for (k, (&xk, &got)) in xs.iter().zip(&out).enumerate() {
                // The offset the library sees (x + t rounded to f32).
                let t = f64::from(xk) - f64::from(x);
                let want = h0 + fade64(fade, t) * (h1 - h0);
                let err = (f64::from(got) - want).abs();
                assert!(
                    err <= tol,
                    "{name}, {fade:?}, t = {t}: value {got:e}, formula {want:e} ({err:e})"
                );
                for (o, other) in Fade::ALL.iter().enumerate() {
                    let w = h0 + fade64(*other, t) * (h1 - h0);
                    others_far[o] |= (w - want).abs() > 100.0 * tol;
                }
                // Symmetry around the cell centre (exact offsets only).
                if k <= 1024 {
                    let mirror = v.noise([x + (1.0 - ts[k])]);
                    let sum = f64::from(got) + f64::from(mirror);
                    assert!(
                        (sum - (h0 + h1)).abs() <= 2.0 * tol,
                        "{name}, {fade:?}: fade(t) + fade(1 − t) ≠ 1 at t = {t}"
                    );
                }
            }
            for (o, other) in Fade::ALL.iter().enumerate() {
                assert!(
                    *other == fade || others_far[o],
                    "{name}: the samples cannot tell {fade:?} from {other:?}"
                );
            }
            // Continuous at the face: the last f32 before X + 1 is within
            // (largest fade slope, π/2 < 2) × |h1 − h0| × distance of h1.
            let last = (x + 1.0).next_down();
            let gap = f64::from(x + 1.0) - f64::from(last);
            let before = f64::from(v.noise([last]));
            assert!(
                (before - h1).abs() <= 2.0 * (h1 - h0).abs() * gap + tol,
                "{name}, {fade:?}"
            );
            // The lattice values do not depend on the curve.
            assert_eq!(v.noise([x]).to_bits(), plain.noise([x]).to_bits());
        }
    }
}

// ---------------------------------------------------------- every level

#[test]
fn lattice_sources_with_every_fade_match_scalar_at_every_level() {
    for (name, src) in lattice_sources() {
        for dims in 1..=4 {
            for inputs in table_inputs(dims, 3) {
                let context = format!("{name}, length {}", inputs[0].len());
                assert_src_levels_match_scalar(&src, &borrow(&inputs), &context);
                // fillN_f64 of the widened inputs: fillN's bits, every level.
                let wide = widen(&inputs);
                let got = assert_src_f64_levels_agree(&src, &borrow64(&wide), &context);
                let mut want = vec![0.0f32; inputs[0].len()];
                src.fill_dyn(&borrow(&inputs), &mut want).unwrap();
                assert_eq!(bits(&got), bits(&want), "{context}: fill_f64 vs fill");
            }
        }
    }
}

/// A lattice source: Perlin or Value, any table, any fade.
fn any_lattice() -> impl Strategy<Value = (String, DynSource)> {
    (any::<bool>(), any::<u64>(), 0..4usize, any::<bool>()).prop_map(
        |(value, seed, fade, reference)| {
            let fade = Fade::ALL[fade];
            let name = format!("value {value}, seed {seed} (reference {reference}), {fade:?}");
            let src = match (value, reference) {
                (true, true) => DynSource::new(Value::reference().with_fade(fade)),
                (true, false) => DynSource::new(Value::permuted(seed).with_fade(fade)),
                (false, true) => DynSource::new(Perlin::reference().with_fade(fade)),
                (false, false) => DynSource::new(Perlin::permuted(seed).with_fade(fade)),
            };
            (name, src)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn bit_patterns_match_scalar_at_every_level(
        (name, src) in any_lattice(),
        s in (1usize..=4).prop_flat_map(bit_pattern_slices),
    ) {
        assert_src_levels_match_scalar(&src, &borrow(&s), &name);
        let wide = widen(&s);
        let got = assert_src_f64_levels_agree(&src, &borrow64(&wide), &name);
        let mut want = vec![0.0f32; s[0].len()];
        src.fill_dyn(&borrow(&s), &mut want).unwrap();
        prop_assert_eq!(bits(&got), bits(&want), "{}: fill_f64 vs fill", name);
    }

    #[test]
    fn f64_bit_patterns_agree_at_every_level(
        (name, src) in any_lattice(),
        s in (1usize..=4).prop_flat_map(f64_slices),
    ) {
        assert_src_f64_levels_agree(&src, &borrow64(&s), &name);
    }
}

// ------------------------------------------------------------------ range

/// Every output of Value noise (every fade, every dimension) lies in
/// [−1, 1], the interval `bounds` reports; both ends are reached (at
/// lattice points of heights 0 and 255). Points: random, next to every
/// lattice plane of a period (where the fades reach 0 and 1), the
/// adversarial table's finite values, and grids on both grid paths.
#[test]
fn value_outputs_lie_in_minus_one_to_one() {
    let finite: Vec<f32> = adversarial()
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    for (name, v) in values() {
        for fade in Fade::ALL {
            let v = v.clone().with_fade(fade);
            let dv = DynSource::new(v.clone());
            for dims in 1..=4 {
                assert_eq!(v.bounds(dims), (-1.0, 1.0), "{name}, {dims}D");
                let mut rng = Rng(dims as u64);
                let mut pts = rng.points(dims, 4000, -300.0, 300.0);
                for (a, axis) in pts.iter_mut().enumerate() {
                    for x in -300..300 {
                        let x = x as f32;
                        axis.extend([x.next_up(), x.next_down(), x + 1e-7, x - 1e-10]);
                    }
                    axis.extend(finite.iter().map(|&f| f / (a as f32 + 1.0)));
                }
                let len = pts[0].len();
                let mut out = vec![0.0f32; len];
                dv.fill_dyn(&borrow(&pts), &mut out).unwrap();
                let mut values = out;
                for step in [0.003, 0.37] {
                    let origin: Vec<f64> = (0..dims).map(|a| -2.5 + a as f64).collect();
                    let steps: Vec<f64> = (0..dims)
                        .map(|a| if a == 0 { step } else { 0.29 })
                        .collect();
                    let size: Vec<usize> = (0..dims).map(|a| [400, 9, 5, 4][a]).collect();
                    values.extend(AnyGrid::new(&origin, &steps, &size).values(&dv, false));
                }
                if let Some(bad) = values.iter().find(|x| !(-1.0..=1.0).contains(*x)) {
                    panic!("{name}, {fade:?}, {dims}D: output {bad:e} outside [-1, 1]");
                }
            }
            // Both ends: the 1D lattice points whose hash is 0 and 255.
            let p = v.permutation().unwrap();
            let lo = p.iter().position(|&h| h == 0).unwrap() as f32;
            let hi = p.iter().position(|&h| h == 255).unwrap() as f32;
            assert_eq!((v.noise([lo]), v.noise([hi])), (-1.0, 1.0), "{name}");
        }
    }
}

/// Every fade stays in [0, 1], so value noise never overshoots a corner of
/// height ±1: with tables whose lattice point 0 has height 1 (`P[0] = 255`)
/// or −1 (`P[0] = 0`), every `f32` offset within 2⁻⁷ of either end of the
/// cells next to it (where the `f32` curves round beyond 1 and below 0
/// unless clamped: the quintic reaches 1 + 1.1e-6) gives 1D outputs in
/// [−1, 1], at every level.
#[test]
fn fades_never_overshoot_at_the_ends_of_a_cell() {
    let mut xs = Vec::new();
    // Cell −1 (x = t − 1, exact) with t from 1 − 2⁻⁷ to 1, and cell 0 with
    // t from 0 to 2⁻⁷: every f32 offset there.
    let mut t = 1.0f32 - 2.0f32.powi(-7);
    while t < 1.0 {
        xs.push(t - 1.0);
        t = t.next_up();
    }
    xs.extend((0..1 << 17).map(|k| k as f32 * 2.0f32.powi(-24)));
    for height in [0u8, 255] {
        let seed = (0..10_000u64)
            .find(|&s| Value::permuted(s).permutation().unwrap()[0] == height)
            .unwrap();
        for fade in Fade::ALL {
            let v = Value::permuted(seed).with_fade(fade);
            assert_eq!(v.noise([0.0]), if height == 0 { -1.0 } else { 1.0 });
            let mut out = vec![0.0f32; xs.len()];
            for level in levels() {
                let at = v.clone().with_level(level).unwrap();
                at.fill([&xs], &mut out).unwrap();
                if let Some(i) = out.iter().position(|o| !(-1.0..=1.0).contains(o)) {
                    panic!(
                        "{fade:?}, height {height}, level {level}: at {:e} value {:e}",
                        xs[i], out[i]
                    );
                }
            }
        }
    }
}

// ------------------------------------------------------------------ grids

/// Grids whose |x step| is at least this take the point path in every
/// dimension (the coefficient-row bounds are at most 3/4) and give exactly
/// `fillN_f64`'s bits.
const COARSE_X_STEP: f64 = 1.0;

/// Grids of Perlin and Value with every fade: coarse grids (|x step| ≥
/// [`COARSE_X_STEP`]) give `fillN_f64`'s bits; finer ones (1/128 here, the
/// coefficient-row path in every dimension) stay within the documented 1e-6
/// of it; `_par` and every level give the serial scalar bits.
#[test]
fn grids_of_every_fade_match_points_and_agree_everywhere() {
    for (name, src) in lattice_sources() {
        for dims in 1..=4 {
            for dx in [1.0 / 128.0, -1.05, 1.25] {
                let origin: Vec<f64> = (0..dims).map(|a| [-3.3, 250.6, 0.45, -7.0][a]).collect();
                let step: Vec<f64> = (0..dims).map(|a| [dx, 0.43, -0.27, 0.61][a]).collect();
                let size: Vec<usize> = (0..dims).map(|a| [300, 5, 4, 3][a]).collect();
                let grid = AnyGrid::new(&origin, &step, &size);
                let want = grid.values(&src.clone().with_level(Level::Scalar).unwrap(), false);
                let points = grid.point_values(&src);
                for (k, (g, p)) in want.iter().zip(&points).enumerate() {
                    let ok = if dx.abs() >= COARSE_X_STEP {
                        g.to_bits() == p.to_bits()
                    } else {
                        (g - p).abs() <= 1e-6
                    };
                    assert!(
                        ok,
                        "{name}, {grid:?}, sample {k}: grid {g:e}, fill_f64 {p:e}"
                    );
                }
                for level in levels() {
                    for par in [false, true] {
                        let got = grid.values(&src.clone().with_level(level).unwrap(), par);
                        assert!(
                            bits(&got) == bits(&want),
                            "{name}, {grid:?}, level {level}, par {par}"
                        );
                    }
                }
            }
        }
    }
}

/// `Value::with_period([4; 4])`: shifting any axis by 4 changes no bit, for
/// `noiseN`, `fillN_f64` and grids (coordinates with few fraction bits, so
/// the shifted ones are exact).
#[test]
fn periodic_value_noise_repeats_exactly() {
    let v = DynSource::new(Value::permuted(21).with_period([4, 4, 4, 4]).unwrap());
    let mut rng = Rng(8);
    for dims in 1..=4 {
        for _ in 0..300 {
            let c: Vec<f32> = (0..dims)
                .map(|_| (rng.uniform(-40.0, 40.0) * 256.0).round() as f32 / 256.0)
                .collect();
            let base = v.noise_dyn(&c).unwrap();
            for a in 0..dims {
                for k in [-2.0f32, 1.0, 3.0] {
                    let mut s = c.clone();
                    s[a] += 4.0 * k;
                    assert_eq!(
                        v.noise_dyn(&s).unwrap().to_bits(),
                        base.to_bits(),
                        "{c:?} axis {a}"
                    );
                    let wide: Vec<Vec<f64>> = s.iter().map(|&x| vec![f64::from(x)]).collect();
                    let mut out = [0.0f32];
                    v.fill_f64_dyn(&borrow64(&wide), &mut out).unwrap();
                    assert_eq!(out[0].to_bits(), base.to_bits(), "{c:?} axis {a} (f64)");
                }
            }
        }
        for dx in [1.0 / 128.0, 0.375] {
            let step: Vec<f64> = (0..dims).map(|a| if a == 0 { dx } else { 0.125 }).collect();
            let size: Vec<usize> = (0..dims).map(|a| [256, 8, 6, 5][a]).collect();
            let origin = vec![0.25; dims];
            let want = AnyGrid::new(&origin, &step, &size).values(&v, false);
            for a in 0..dims {
                let mut shifted = origin.clone();
                shifted[a] += 8.0;
                let got = AnyGrid::new(&shifted, &step, &size).values(&v, true);
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{dims}D grid, x step {dx}, axis {a}"
                );
            }
        }
    }
}

/// Invalid or mismatched calls on `Value` write nothing (the lattice has no
/// parameters to refuse; slices are checked as for `Perlin`).
#[test]
fn mismatched_value_batches_write_nothing() {
    let v = Value::permuted(4);
    let xs = [0.5f32; 9];
    let mut out = [f32::from_bits(SENTINEL_BITS); 8];
    assert!(v.fill([&xs, &xs], &mut out).is_err());
    assert!(out.iter().all(|o| o.to_bits() == SENTINEL_BITS));
    assert_eq!(v.check(), Ok(()));
    assert_eq!(
        Value::permuted(4).with_period([3, 0, 1, 1]).unwrap_err(),
        noisefield::Error::InvalidPeriod { axis: 1 }
    );
}
