//! Periodic noise (`Perlin::with_period`): shifting any axis by its period
//! changes no bit, for `noiseN`, `fillN`, `fillN_f64` and `fill_gridN` at
//! every level; the batch methods agree with the scalar `noiseN`; grids of
//! whole periods tile seamlessly; the natural period (256 cells, or a
//! multiple, for the permutation; `u32::MAX` for the coordinates mode)
//! changes nothing; a period of 0 is refused readably.

use crate::common::any_perlin;
use noisefield::prelude::*;

use crate::common::levels;
use crate::common::{
    FillGrid, adversarial, assert_every_level_matches_scalar, assert_fill_f64_matches_fill, bits,
    borrow, count, effective_period, fill, fill_f64, grid_points, grid_values, noise, perlins,
    show, unflatten,
};
use noisefield::{Error, Grid, Level, Perlin};
use proptest::prelude::*;

/// 2^31 + 11: a period beyond the `i32` range (not representable in `f32`).
const HUGE: u32 = 2_147_483_659;

/// The period sets the issue names, and a few more.
const PERIODS: [[u32; 4]; 6] = [
    [7, 9, 11, 13],
    [1, 1, 1, 1],
    [300, 256, 5, 1000],
    [HUGE; 4],
    [2, 3, 255, 257],
    [u32::MAX, 1, HUGE, 4096],
];

/// The documented bound between the coefficient-row path and the points.
const ROWS_TOLERANCE: f32 = 1e-6;

fn periodic(p: &Perlin, period: [u32; 4]) -> Perlin {
    p.clone().with_period(period).unwrap()
}

/// Periods where `c + k·p` stays exact in `f32` for |c| < 2^12 with 8
/// fractional bits (|c + 3p| < 2^15): 1 to 2730.
fn small_periods() -> impl Strategy<Value = [u32; 4]> {
    prop_oneof![
        prop::sample::select(PERIODS[..3].to_vec()),
        prop::array::uniform4(1u32..=2730),
        prop::array::uniform4(prop::sample::select(vec![1u32, 2, 3, 255, 256, 257, 512])),
    ]
}

/// Any period, up to `u32::MAX`.
fn any_periods() -> impl Strategy<Value = [u32; 4]> {
    prop_oneof![
        prop::sample::select(PERIODS.to_vec()),
        prop::array::uniform4(1u32..=u32::MAX),
        prop::array::uniform4(prop::sample::select(vec![
            1u32,
            2,
            255,
            256,
            257,
            HUGE,
            u32::MAX
        ])),
    ]
}

/// A point with 8 fractional bits and |c| < 2^12 on every axis.
fn small_point() -> impl Strategy<Value = [f32; 4]> {
    prop::array::uniform4((-(1i32 << 20)..(1 << 20)).prop_map(|v| v as f32 / 256.0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `noiseN(c + k·p·e_axis) == noiseN(c)` bit for bit, every axis and
    /// dimension, in `f32` where the shift is exact.
    #[test]
    fn noise_n_repeats_with_the_period(
        p in any_perlin(),
        period in small_periods(),
        c in small_point(),
        k in -3i32..=3,
    ) {
        let p = periodic(&p, period);
        for dims in 1..=4 {
            let want = noise(&p, &c[..dims]);
            for axis in 0..dims {
                let mut shifted = c;
                shifted[axis] += (k * period[axis] as i32) as f32;
                prop_assert_eq!(
                    f64::from(shifted[axis]),
                    f64::from(c[axis]) + f64::from(k) * f64::from(period[axis]),
                    "the shift should be exact"
                );
                let got = noise(&p, &shifted[..dims]);
                prop_assert_eq!(
                    got.to_bits(), want.to_bits(),
                    "periods {:?}: noise{} at {} is {:e}, at {} it is {:e}",
                    period, dims, show(&shifted[..dims]), got, show(&c[..dims]), want
                );
            }
        }
    }

    /// The same in `f64` for any period up to `u32::MAX` (shifts exact in
    /// `f64`; an axis at `u32::MAX` shifts by the mode's natural period),
    /// through `fillN_f64` at every level, at both signs.
    #[test]
    fn fill_f64_repeats_with_any_period(
        p in any_perlin(),
        period in any_periods(),
        cells in prop::array::uniform4(-(1i64 << 40)..(1i64 << 40)),
        fractions in prop::array::uniform4(0u32..4096),
        k in prop::sample::select(vec![-3i64, -1, 1, 2, 3]),
    ) {
        let p = periodic(&p, period);
        let c: [f64; 4] = std::array::from_fn(|a| cells[a] as f64 + f64::from(fractions[a]) / 4096.0);
        for level in levels() {
            let p = p.clone().with_level(level).unwrap();
            for dims in 1..=4 {
                let mut inputs: Vec<Vec<f64>> = (0..dims).map(|a| vec![c[a]]).collect();
                // One point per shifted axis, after the unshifted one.
                for axis in 0..dims {
                    for (a, input) in inputs.iter_mut().enumerate() {
                        let step = effective_period(&p, period[a]) as i64;
                        let shift = if a == axis { k * step } else { 0 };
                        let v = c[a] + shift as f64;
                        prop_assert_eq!(v - shift as f64, c[a], "the shift should be exact");
                        input.push(v);
                    }
                }
                let slices: Vec<&[f64]> = inputs.iter().map(Vec::as_slice).collect();
                let mut out = vec![0.0f32; dims + 1];
                fill_f64(&p, &slices, &mut out).unwrap();
                for (axis, v) in out[1..].iter().enumerate() {
                    prop_assert_eq!(
                        v.to_bits(), out[0].to_bits(),
                        "level {}, periods {:?}, {}D: shifting axis {} of {:?} by {} periods",
                        level, period, dims, axis, &c[..dims], k
                    );
                }
            }
        }
    }

    /// Batch calls of a periodic `Perlin` equal its scalar `noiseN` at every
    /// level, for ordinary and arbitrary `f32` inputs, and `fillN_f64` of the
    /// same values equals `fillN`.
    #[test]
    fn periodic_batches_match_scalar(
        p in any_perlin(),
        period in any_periods(),
        dims in 1usize..=4,
        len in 0usize..=67,
        seed in any::<u64>(),
        bits_or_ordinary in any::<bool>(),
    ) {
        let p = periodic(&p, period);
        let mut state = seed | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let inputs: Vec<Vec<f32>> = (0..dims)
            .map(|_| {
                (0..len)
                    .map(|_| {
                        let r = next();
                        if bits_or_ordinary {
                            f32::from_bits(r as u32)
                        } else {
                            (r >> 40) as f32 / (1u64 << 24) as f32 * 2e4 - 1e4
                        }
                    })
                    .collect()
            })
            .collect();
        assert_every_level_matches_scalar(&p, &borrow(&inputs), &format!("periods {period:?}"));
        assert_fill_f64_matches_fill(&p, &inputs);
    }
}

/// The adversarial table (NaN, infinities, subnormals, huge values), its
/// pairs and triples, through a periodic `Perlin` at every level.
#[test]
fn periodic_table_products_match_scalar() {
    let t = adversarial();
    let n = t.len();
    for period in PERIODS {
        for (name, p) in perlins() {
            let p = periodic(&p, period);
            let context = format!("{name}, periods {period:?}");
            let xs: Vec<f32> = (0..n * n).map(|i| t[i % n]).collect();
            let ys: Vec<f32> = (0..n * n).map(|i| t[i / n]).collect();
            let zs: Vec<f32> = (0..n * n).map(|i| t[(i * 7 + 3) % n]).collect();
            let ws: Vec<f32> = (0..n * n).map(|i| t[(i * 13 + 5) % n]).collect();
            let all = [xs, ys, zs, ws];
            for dims in 1..=4 {
                let inputs = &all[..dims];
                assert_every_level_matches_scalar(&p, &borrow(inputs), &context);
                assert_fill_f64_matches_fill(&p, inputs);
            }
        }
    }
}

/// `x mod p` of an integral `f64`, from its integer mantissa and exponent
/// in `u128` arithmetic (independent of any `f64` remainder).
fn integral_mod(x: f64, p: u64) -> f64 {
    assert!(x.is_finite() && x == x.trunc());
    if x == 0.0 {
        return 0.0;
    }
    let bits = x.abs().to_bits();
    let exponent = (bits >> 52) as i32;
    let mut mantissa = u128::from(bits & ((1 << 52) - 1));
    if exponent > 0 {
        mantissa |= 1 << 52;
    }
    // x = mantissa · 2^(exponent − 1075); for integers with exponent below
    // that, shift the mantissa right (exactly: the dropped bits are zero).
    let shift = exponent.max(1) - 1075;
    let p = u128::from(p);
    let mut r = if shift >= 0 {
        let mut r = mantissa % p;
        for _ in 0..shift {
            r = r * 2 % p;
        }
        r
    } else {
        mantissa.checked_shr(shift.unsigned_abs()).unwrap_or(0) % p
    };
    if x < 0.0 && r != 0 {
        r = p - r;
    }
    r as f64
}

/// Coordinates far beyond `i64` and at its edge: the lattice cell is
/// `floor(x) mod period` exactly, so the noise there is the noise at that
/// residue (other axes fractional, so the cell matters).
#[test]
fn huge_f64_coordinates_wrap_exactly() {
    let two_63 = 9_223_372_036_854_775_808.0f64;
    let xs = [
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        two_63,
        -two_63,
        two_63 - 1024.0, // the largest f64 below 2^63
        -two_63 + 1024.0,
        9_007_199_254_740_993.0, // 2^53 + 1 rounds to 2^53
        two_63 * 3.0,
        1e20 + 65536.0,
        -12_345_678_901_234_567_890.0,
    ];
    // The helper itself, on residues known by hand.
    assert_eq!(integral_mod(two_63, 7), 1.0); // 2^63 = 8^21 ≡ 1 (mod 7)
    assert_eq!(integral_mod(-two_63, 7), 6.0);
    assert_eq!(integral_mod(1e300, 256), 0.0);
    assert_eq!(integral_mod(12_345.0, 100), 45.0);
    assert_eq!(integral_mod(-12_345.0, 100), 55.0);
    assert_eq!(integral_mod(4_294_967_296.0, u64::from(u32::MAX)), 1.0);
    assert_eq!(integral_mod(-1.0, 1 << 32), 4_294_967_295.0);
    let mut periods: Vec<[u32; 4]> = PERIODS.to_vec();
    periods.push([256; 4]);
    for (period, mode) in periods
        .iter()
        .flat_map(|&p| [(p, Perlin::permuted(5)), (p, Perlin::new(5))])
    {
        let p = periodic(&mode, period);
        let wrap = [0, 1].map(|a| effective_period(&p, period[a]));
        for level in levels() {
            let p = p.clone().with_level(level).unwrap();
            for &x in &xs {
                let r = integral_mod(x, wrap[0]);
                assert!(r < wrap[0] as f64);
                let ys = [0.3, 0.3];
                let zs = [-1.7, -1.7];
                let mut out = [0.0f32; 2];
                p.fill_f64([&[x, r], &ys, &zs], &mut out).unwrap();
                assert_eq!(
                    out[0].to_bits(),
                    out[1].to_bits(),
                    "level {level}, periods {period:?}: x = {x:e} gives {:e}, x mod period = {r} \
                     gives {:e}",
                    out[0],
                    out[1]
                );
                // The same on the y axis of 2D, with the y period.
                let r = integral_mod(x, wrap[1]);
                p.fill_f64([&[0.3, 0.3], &[x, r]], &mut out).unwrap();
                assert_eq!(out[0].to_bits(), out[1].to_bits(), "y = {x:e}, {period:?}");
            }
        }
    }
}

/// Grids with dyadic origins and steps, so every position is an `f32`:
/// `fill_gridN` and `_par` of a periodic `Perlin` at every level equal the
/// scalar `noiseN` at those positions, bit for bit on the point path and
/// within 1e-6 on the coefficient path.
fn periodic_grids_match_scalar<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let mut max = 0.0f32;
    for period in PERIODS {
        for (name, p) in perlins() {
            let p = periodic(&p, period);
            for dx in [0.125, -0.0625, 0.25, 0.375, -1.5, 5.0] {
                let origin = std::array::from_fn(|a| [-5.375, 2.25, -0.625, 7.5][a]);
                let step = std::array::from_fn(|a| [dx, 0.375, -0.75, 0.5][a]);
                let size = std::array::from_fn(|a| [75, 5, 4, 3][a]);
                let grid = Grid::<D>::new(origin, step, size);
                let points = grid_points(&grid);
                let want: Vec<f32> = (0..count(size))
                    .map(|k| {
                        let c: Vec<f32> = points.iter().map(|axis| axis[k] as f32).collect();
                        assert!(c.iter().zip(&points).all(|(&v, a)| f64::from(v) == a[k]));
                        noise(&p, &c)
                    })
                    .collect();
                for level in levels() {
                    let p = p.clone().with_level(level).unwrap();
                    for parallel in [false, true] {
                        let got = grid_values(&p, &grid, parallel);
                        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                            // The documented coefficient-row bounds.
                            let rows = [1.0 / 3.0, 1.0 / 3.0, 0.75, 1.0 / 64.0][D - 1];
                            let ok = if dx.abs() <= rows {
                                (g - w).abs() <= ROWS_TOLERANCE
                            } else {
                                g.to_bits() == w.to_bits()
                            };
                            assert!(
                                ok,
                                "{name}, periods {period:?}, level {level}, par {parallel}, \
                                 {grid:?}: sample {:?} is {g:e}, noise{D} gives {w:e}",
                                unflatten(k, size)
                            );
                            max = max.max((g - w).abs());
                        }
                    }
                }
            }
        }
    }
    eprintln!("periodic fill_grid{D} vs noise{D}: max |difference| {max:e}");
}

#[test]
fn periodic_grid1_matches_noise1() {
    periodic_grids_match_scalar::<1>();
}

#[test]
fn periodic_grid2_matches_noise2() {
    periodic_grids_match_scalar::<2>();
}

#[test]
fn periodic_grid3_matches_noise3() {
    periodic_grids_match_scalar::<3>();
}

#[test]
fn periodic_grid4_matches_noise4() {
    periodic_grids_match_scalar::<4>();
}

/// A grid covering one whole period and a bit more on every axis: the
/// sample at index `i` and at `i + period/step` along each axis are the
/// same. With dyadic steps the positions are exact and so is the repeat,
/// on both paths; with steps like 0.1 the positions differ by rounding and
/// the values by at most 1e-6.
fn tiles_seamlessly<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let periods = [7u32, 5, 3, 2];
    // (x step, x samples per period, exact positions)
    let x_steps = [
        (0.125, 56, true),
        (-0.0625, 112, true),
        (0.5, 14, true),
        (1.75, 4, true),
        (0.1, 70, false),
        (0.7, 10, false),
    ];
    for (name, p) in perlins() {
        let p = periodic(&p, [periods[0], periods[1], periods[2], periods[3]]);
        for (dx, per_x, exact) in x_steps {
            let step: [f64; D] = std::array::from_fn(|a| if a == 0 { dx } else { 0.5 });
            let per: [usize; D] = std::array::from_fn(|a| {
                if a == 0 {
                    per_x
                } else {
                    2 * periods[a] as usize
                }
            });
            let size = std::array::from_fn(|a| per[a] + [5, 3, 2, 2][a]);
            let origin = std::array::from_fn(|a| [-2.375, 0.25, 3.125, -0.5][a]);
            let grid = Grid::<D>::new(origin, step, size);
            for level in levels() {
                let p = p.clone().with_level(level).unwrap();
                let v = grid_values(&p, &grid, level == Level::detect());
                for (k, &here) in v.iter().enumerate() {
                    let at = unflatten(k, size);
                    for axis in 0..D {
                        if at[axis] + per[axis] >= size[axis] {
                            continue;
                        }
                        let mut next = at;
                        next[axis] += per[axis];
                        let there = v[crate::common::flatten(next, size)];
                        let ok = if exact {
                            here.to_bits() == there.to_bits()
                        } else {
                            (here - there).abs() <= ROWS_TOLERANCE
                        };
                        assert!(
                            ok,
                            "{name}, level {level}, x step {dx}, {D}D: sample {at:?} is {here:e} \
                             but {next:?}, one period along axis {axis} later, is {there:e}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_grid_of_one_period_tiles_seamlessly_1d() {
    tiles_seamlessly::<1>();
}

#[test]
fn a_grid_of_one_period_tiles_seamlessly_2d() {
    tiles_seamlessly::<2>();
}

#[test]
fn a_grid_of_one_period_tiles_seamlessly_3d() {
    tiles_seamlessly::<3>();
}

#[test]
fn a_grid_of_one_period_tiles_seamlessly_4d() {
    tiles_seamlessly::<4>();
}

/// The natural period on every axis a call uses changes nothing, whatever
/// the unused axes' periods: in the permutation mode periods of 256 or a
/// multiple of it (Ken's table has period 256), in the coordinates mode
/// `u32::MAX` (the lattice's own 2³²). `noiseN`, `fillN` and `fillN_f64` at
/// every level, and `fill_gridN`.
#[test]
fn the_natural_period_changes_nothing() {
    let t = adversarial();
    let n = t.len();
    let xs: Vec<f32> = (0..n * n).map(|i| t[i % n]).collect();
    let ys: Vec<f32> = (0..n * n).map(|i| t[i / n]).collect();
    let zs: Vec<f32> = (0..n * n).map(|i| t[(i * 7 + 3) % n]).collect();
    let ws: Vec<f32> = (0..n * n).map(|i| t[(i * 13 + 5) % n]).collect();
    let all = [xs, ys, zs, ws];
    let wide: Vec<Vec<f64>> = all
        .iter()
        .map(|s| s.iter().map(|&v| f64::from(v)).collect())
        .collect();
    for (name, plain) in perlins() {
        let table = plain.permutation().is_some();
        let natural_period = if table { 256 } else { u32::MAX };
        let natural = plain.clone().with_period([natural_period; 4]).unwrap();
        assert_eq!(natural, plain, "{name}");
        assert_eq!(natural.period(), None, "{name}");
        let multiples: &[u32] = if table {
            &[512, 1024, 256 * 4099]
        } else {
            &[u32::MAX]
        };
        for dims in 1..=4 {
            // The axes this dimension uses at the natural period (or a
            // multiple), the rest odd.
            let mut variants = vec![[natural_period; 4]];
            for &multiple in multiples {
                let mut period = [7, 9, 11, 13];
                period[..dims].fill(multiple);
                variants.push(period);
                period[..dims].fill(natural_period);
                variants.push(period);
            }
            for period in variants {
                let p = plain.clone().with_period(period).unwrap();
                let context = format!("{name}, periods {period:?}, {dims}D");
                for level in levels() {
                    let (a, b) = (
                        plain.clone().with_level(level).unwrap(),
                        p.clone().with_level(level).unwrap(),
                    );
                    let len = all[0].len();
                    let (mut x, mut y, mut z) = (vec![0.0; len], vec![0.0; len], vec![0.0; len]);
                    fill(&a, &borrow(&all[..dims]), &mut x).unwrap();
                    fill(&b, &borrow(&all[..dims]), &mut y).unwrap();
                    let slices: Vec<&[f64]> = wide[..dims].iter().map(Vec::as_slice).collect();
                    fill_f64(&b, &slices, &mut z).unwrap();
                    assert!(bits(&x) == bits(&y), "{context}, level {level}: fill{dims}");
                    assert!(
                        bits(&x) == bits(&z),
                        "{context}, level {level}: fill{dims}_f64"
                    );
                }
                for i in (0..all[0].len()).step_by(7) {
                    let c: Vec<f32> = all[..dims].iter().map(|s| s[i]).collect();
                    let (u, v) = (noise(&plain, &c), noise(&p, &c));
                    assert_eq!(u.to_bits(), v.to_bits(), "{context}: noise at {}", show(&c));
                }
                assert_grids_equal(&plain, &p, dims, &context);
            }
        }
    }
}

fn assert_grids_equal(a: &Perlin, b: &Perlin, dims: usize, context: &str) {
    fn one<const D: usize>(a: &Perlin, b: &Perlin, context: &str)
    where
        Grid<D>: FillGrid,
    {
        for dx in [0.03, -0.25, 0.4, 3.3] {
            let origin = std::array::from_fn(|a| [-300.3, 1e6 + 0.7, -5.1, 2e9 + 0.5][a]);
            let step = std::array::from_fn(|a| [dx, 0.7, -0.3, 1.1][a]);
            let size = std::array::from_fn(|a| [300, 4, 3, 2][a]);
            let grid = Grid::<D>::new(origin, step, size);
            assert!(
                bits(&grid_values(a, &grid, false)) == bits(&grid_values(b, &grid, true)),
                "{context}: {grid:?}"
            );
        }
    }
    match dims {
        1 => one::<1>(a, b, context),
        2 => one::<2>(a, b, context),
        3 => one::<3>(a, b, context),
        _ => one::<4>(a, b, context),
    }
}

#[test]
fn period_0_is_refused_on_every_axis() {
    for axis in 0..4 {
        let mut period = [7; 4];
        period[axis] = 0;
        let err = Perlin::reference().with_period(period).unwrap_err();
        assert_eq!(err, Error::InvalidPeriod { axis });
        let msg = err.to_string();
        let name = ["x", "y", "z", "w"][axis];
        assert!(msg.contains(&format!("{name} axis")), "{msg}");
        assert!(msg.contains("is 0") && msg.contains("at least 1"), "{msg}");
        assert!(
            !msg.contains("InvalidPeriod") && !msg.contains('{'),
            "{msg}"
        );
    }
    // Several zeros: the first is named.
    assert_eq!(
        Perlin::permuted(1).with_period([3, 0, 0, 0]).unwrap_err(),
        Error::InvalidPeriod { axis: 1 }
    );
    assert_eq!(
        Perlin::permuted(1).with_period([0; 4]).unwrap_err(),
        Error::InvalidPeriod { axis: 0 }
    );
}

#[test]
fn period_reports_the_periods_and_survives_with_level() {
    for period in PERIODS {
        let p = Perlin::reference().with_period(period).unwrap();
        assert_eq!(p.period(), Some(period));
        for level in levels() {
            let a = p.clone().with_level(level).unwrap();
            let b = Perlin::reference()
                .with_level(level)
                .unwrap()
                .with_period(period)
                .unwrap();
            assert_eq!(a.period(), Some(period));
            assert_eq!((a.level(), b.level()), (level, level));
            assert_eq!(a, b);
            assert_eq!(
                a.noise([1.3, -2.7, 0.4]).to_bits(),
                b.noise([1.3, -2.7, 0.4]).to_bits()
            );
        }
        // Periodic and plain are different noises (except for period 256).
        assert_ne!(p, Perlin::reference());
    }
    assert_eq!(Perlin::reference().period(), None);
}

/// Period 1 on an axis: every cell hashes as cell 0 with neighbour 0, so
/// noise along that axis depends only on the position within the cell.
#[test]
fn period_1_depends_only_on_the_offset_in_the_cell() {
    let p = Perlin::permuted(9).with_period([1; 4]).unwrap();
    for cell in [-1000.0f32, -3.0, -1.0, 1.0, 2.0, 77.0, 255.0, 256.0, 4097.0] {
        for t in [0.125f32, 0.5, 0.9375] {
            for (y, z, w) in [(0.25f32, 0.75f32, 0.375f32), (3.5, -2.25, 10.125)] {
                assert_eq!(p.noise([cell + t]).to_bits(), p.noise([t]).to_bits());
                assert_eq!(p.noise([cell + t, y]).to_bits(), p.noise([t, y]).to_bits());
                assert_eq!(
                    p.noise([y, cell + t, z]).to_bits(),
                    p.noise([y, t, z]).to_bits()
                );
                assert_eq!(
                    p.noise([y, z, w, cell + t]).to_bits(),
                    p.noise([y, z, w, t]).to_bits()
                );
            }
        }
    }
}

/// The largest |∂noiseN/∂c| along any one axis, for any table (derivation:
/// `MAX_X_SLOPE` in `suite/tests/grid.rs`; the gradient sets are symmetric in the
/// axes, so the x bound holds on every axis).
const MAX_SLOPE: [f32; 4] = [2.6944, 2.75, 3.75, 5.625];

/// Where the lattice wraps, the noise stays continuous: cell `p − 1`'s
/// upper neighbour hashes as cell 0. Points `ε` either side of every lattice
/// plane `k` in `−p..=2p` (the seams at 0, `p` and `2p` among them) differ by
/// at most the slope bound times `2ε`, on every axis, in every dimension,
/// through `noiseN`, `fillN` and `fillN_f64` (checked equal at every level).
#[test]
fn noise_is_continuous_across_the_seams() {
    const EPS: f32 = 1.0 / 4096.0;
    let periods = [
        [7u32, 9, 11, 13],
        [1, 1, 1, 1],
        [2, 3, 5, 300],
        [257, 17, 1, 2],
    ];
    for period in periods {
        for (name, p) in perlins() {
            let p = periodic(&p, period);
            for dims in 1..=4usize {
                for axis in 0..dims {
                    let pa = period[axis] as i32;
                    // Other axes at fixed fractional positions.
                    let base = [0.3125f32, -1.6875, 2.4375, 0.8125];
                    let (mut left, mut right): (Vec<Vec<f32>>, Vec<Vec<f32>>) =
                        (vec![vec![]; dims], vec![vec![]; dims]);
                    for k in -pa..=2 * pa {
                        for d in 0..dims {
                            let (l, r) = if d == axis {
                                (k as f32 - EPS, k as f32 + EPS)
                            } else {
                                (base[d], base[d])
                            };
                            left[d].push(l);
                            right[d].push(r);
                        }
                    }
                    let context = format!("{name}, periods {period:?}, {dims}D, axis {axis}");
                    assert_every_level_matches_scalar(&p, &borrow(&left), &context);
                    assert_every_level_matches_scalar(&p, &borrow(&right), &context);
                    assert_fill_f64_matches_fill(&p, &left);
                    assert_fill_f64_matches_fill(&p, &right);
                    let bound = MAX_SLOPE[dims - 1] * 2.0 * EPS + 1e-6;
                    for i in 0..left[0].len() {
                        let l: Vec<f32> = left.iter().map(|s| s[i]).collect();
                        let r: Vec<f32> = right.iter().map(|s| s[i]).collect();
                        let (a, b) = (noise(&p, &l), noise(&p, &r));
                        assert!(
                            (a - b).abs() <= bound,
                            "{context}: noise at {} is {a:e}, at {} it is {b:e} (bound {bound})",
                            show(&l),
                            show(&r)
                        );
                        // 1D is 0 at every integer from both sides, so compare
                        // slopes: either side of k the noise is ±g_k·ε up to
                        // fade(ε) ≈ 10ε³, so the two values cancel.
                        if dims == 1 {
                            assert!(
                                (a + b).abs() <= 1e-6,
                                "{context}: slopes differ either side of {}: {a:e}, {b:e}",
                                (l[0] + r[0]) / 2.0
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Periodic grids on the coefficient path (x step 1/64 or 0.01) spanning
/// several periods: neighbouring samples along every axis differ by at most
/// the slope bound times the step, seams included.
fn periodic_grid_is_continuous<const D: usize>()
where
    Grid<D>: FillGrid,
{
    for period in [[3u32, 2, 5, 1], [7, 9, 11, 13], [1, 1, 1, 1]] {
        for (name, p) in perlins() {
            let p = periodic(&p, period);
            for h in [1.0 / 64.0, 0.01] {
                // Every axis crosses the seam at 0; x spans several periods.
                let origin = std::array::from_fn(|a| [-2.3, -0.2, -0.15, -0.1][a]);
                let step = [h; D];
                let size = std::array::from_fn(|a| match D {
                    1 => [1200][a],
                    2 => [1200, 40][a],
                    3 => [100, 30, 30][a],
                    _ => [70, 12, 12, 12][a],
                });
                let grid = Grid::<D>::new(origin, step, size);
                let v = grid_values(&p, &grid, true);
                let bound = MAX_SLOPE[D - 1] * (h as f32) * 1.001 + 2e-6;
                for (k, &here) in v.iter().enumerate() {
                    let at = unflatten(k, size);
                    for axis in 0..D {
                        if at[axis] + 1 == size[axis] {
                            continue;
                        }
                        let mut next = at;
                        next[axis] += 1;
                        let there = v[crate::common::flatten(next, size)];
                        assert!(
                            (here - there).abs() <= bound,
                            "{name}, periods {period:?}, {grid:?}: samples {at:?} ({here:e}) and \
                             {next:?} ({there:e}) differ by more than {bound}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn periodic_grids_are_continuous_1d() {
    periodic_grid_is_continuous::<1>();
}

#[test]
fn periodic_grids_are_continuous_2d() {
    periodic_grid_is_continuous::<2>();
}

#[test]
fn periodic_grids_are_continuous_3d() {
    periodic_grid_is_continuous::<3>();
}

#[test]
fn periodic_grids_are_continuous_4d() {
    periodic_grid_is_continuous::<4>();
}
