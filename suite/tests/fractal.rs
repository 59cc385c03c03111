//! Fractal combinators (`Fbm`, `Billow`, `Ridged`, `Turbulence`, `Marble`
//! over `Perlin` and `Value`, and nested): the same bits at every level
//! (adversarial table, lengths 0..=67, raw bit patterns; NaN for non-finite
//! inputs), threads and windows; grids against `fillN_f64`; the fold of
//! each combinator against independent oracles (one octave, persistence 0,
//! a constant source, Marble as the sine of Turbulence); outputs inside
//! `bounds`; refused parameters; periodic fractals; decorrelated octaves.

use crate::common::levels;
use crate::common::{
    AnyGrid, Rng, SENTINEL_BITS, adversarial, assert_src_f64_levels_agree,
    assert_src_levels_match_scalar, bit_pattern_slices, bits, borrow, borrow64, f64_slices,
    grad_at, point, show, table_inputs, widen,
};
use noisefield::{
    Billow, DynSource, Error, Fade, Fbm, Level, MAX_OCTAVES, Marble, Perlin, Ridged, Source,
    Turbulence, Value,
};
use proptest::prelude::*;

// ---------------------------------------------------------------- sources

/// Which fold a case uses, with what the tolerance of a fine grid needs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Fbm,
    Billow,
    Ridged,
    Turbulence,
    /// Marble with its power.
    Marble(f64),
}

/// A fractal under test and the parameters its grid tolerance depends on.
struct Case {
    name: String,
    src: DynSource,
    shape: Shape,
    octaves: u32,
    persistence: f64,
    normalize: bool,
    /// How much a change of the source's value can move the output, per
    /// unit (nested fractals: the inner fractal's own gain).
    source_gain: f64,
}

impl Case {
    fn new<S: Source + 'static>(name: &str, src: S, shape: Shape, o: u32, p: f64) -> Case {
        Case {
            name: name.to_string(),
            src: DynSource::new(src),
            shape,
            octaves: o,
            persistence: p,
            normalize: false,
            source_gain: 1.0,
        }
    }

    fn normalized(mut self) -> Case {
        self.normalize = true;
        self
    }

    /// Largest change of the output when every octave value changes by at
    /// most `e`: Σ|aᵢ|·e for Fbm and Turbulence, twice that for Billow
    /// (2|n| − 1), `power` times Turbulence's for Marble (sin is
    /// 1-Lipschitz). Ridged: with |1 − |n|| ≤ 1 and w ≤ 1, a signal moves
    /// by 2e plus its weight's change, and the next weight by twice the
    /// signal's: Eᵢ = 2e + 2Eᵢ₋₁. Normalising multiplies by 2/(hi − lo)
    /// (the raw bounds, which `bounds` reports when not normalised).
    fn gain(&self, raw_bounds: (f32, f32)) -> f64 {
        let mut total = 0.0;
        let mut ridged = 0.0;
        for i in 0..self.octaves as i32 {
            let a = self.persistence.powi(i).abs();
            let term = match self.shape {
                Shape::Fbm | Shape::Turbulence => 1.0,
                Shape::Billow => 2.0,
                Shape::Marble(power) => power.abs(),
                Shape::Ridged => {
                    ridged = 2.0 + 2.0 * ridged;
                    ridged
                }
            };
            total += a * term;
        }
        let scale = if self.normalize && !matches!(self.shape, Shape::Marble(_)) {
            2.0 / f64::from(raw_bounds.1 - raw_bounds.0)
        } else {
            1.0
        };
        total * scale * self.source_gain
    }
}

/// Every combinator over Perlin and Value, one nested, periodic sources,
/// other fades, and a spread of octave counts, lacunarities (whole, not
/// whole, below 1, 0), persistences (negative too) and normalising.
fn cases() -> Vec<Case> {
    let p = |seed| Perlin::permuted(seed);
    let v = |seed| Value::permuted(seed);
    vec![
        Case::new("Fbm<Perlin>", Fbm::new(p(1)), Shape::Fbm, 6, 0.5),
        Case::new(
            "Fbm<Perlin> 32 octaves, lacunarity 1.05, persistence 0.9",
            Fbm::new(p(2)).octaves(32).lacunarity(1.05).persistence(0.9),
            Shape::Fbm,
            32,
            0.9,
        ),
        Case::new(
            "Fbm<Value> 3 octaves, lacunarity 1.9, persistence 0.6",
            Fbm::new(v(3)).octaves(3).lacunarity(1.9).persistence(0.6),
            Shape::Fbm,
            3,
            0.6,
        ),
        Case::new(
            "Billow<Perlin> 4 octaves, normalised",
            Billow::new(p(4)).octaves(4).normalize(true),
            Shape::Billow,
            4,
            0.5,
        )
        .normalized(),
        Case::new("Billow<Value>", Billow::new(v(5)), Shape::Billow, 6, 0.5),
        Case::new(
            "Ridged<Perlin> 5 octaves, lacunarity 2.3",
            Ridged::new(p(6)).octaves(5).lacunarity(2.3),
            Shape::Ridged,
            5,
            0.5,
        ),
        Case::new(
            "Ridged<Value> normalised",
            Ridged::new(v(7)).normalize(true),
            Shape::Ridged,
            6,
            0.5,
        )
        .normalized(),
        Case::new(
            "Turbulence<Perlin>",
            Turbulence::new(p(8)),
            Shape::Turbulence,
            6,
            0.5,
        ),
        Case::new(
            "Turbulence<Value> persistence -0.5, linear fade",
            Turbulence::new(v(9).with_fade(Fade::Linear)).persistence(-0.5),
            Shape::Turbulence,
            6,
            -0.5,
        ),
        Case::new(
            "Marble<Perlin> power 3, stripes 0.7, cosine fade",
            Marble::new(p(10).with_fade(Fade::Cosine))
                .power(3.0)
                .stripes(0.7),
            Shape::Marble(3.0),
            6,
            0.5,
        ),
        Case::new(
            "Marble<Value>",
            Marble::new(v(11)),
            Shape::Marble(4.0),
            6,
            0.5,
        ),
        Case {
            // The inner Ridged moves by its own gain per unit of Perlin.
            source_gain: 2.0 + 0.5 * 6.0,
            ..Case::new(
                "Fbm<Ridged<Perlin>> 3 over 2 octaves",
                Fbm::new(Ridged::new(p(12)).octaves(2)).octaves(3),
                Shape::Fbm,
                3,
                0.5,
            )
        },
        Case::new(
            "Fbm<Perlin periodic [5, 6, 7, 8]> cubic fade",
            Fbm::new(
                p(13)
                    .with_fade(Fade::Cubic)
                    .with_period([5, 6, 7, 8])
                    .unwrap(),
            ),
            Shape::Fbm,
            6,
            0.5,
        ),
        Case::new(
            "Ridged<Value periodic [4, 3, 2, 9]> lacunarity 3",
            Ridged::new(v(14).with_period([4, 3, 2, 9]).unwrap()).lacunarity(3.0),
            Shape::Ridged,
            6,
            0.5,
        ),
        Case::new(
            "Fbm<Perlin> 8 octaves, lacunarity 0.5",
            Fbm::new(p(15)).octaves(8).lacunarity(0.5),
            Shape::Fbm,
            8,
            0.5,
        ),
        Case::new(
            "Turbulence<Perlin> 3 octaves, lacunarity 0",
            Turbulence::new(p(16)).octaves(3).lacunarity(0.0),
            Shape::Turbulence,
            3,
            0.5,
        ),
        Case::new(
            "Fbm<Value> normalised, lacunarity -1.5",
            Fbm::new(v(17)).lacunarity(-1.5).normalize(true),
            Shape::Fbm,
            6,
            0.5,
        )
        .normalized(),
    ]
}

// ------------------------------------------------------------ every level

/// Every case at every level: `fillN` is the scalar `noiseN` bit for bit,
/// `fillN_f64` gives the same bits at every level (of the widened table
/// and of `f64`-only values), and every non-finite point gives `f32::NAN`.
#[test]
fn fractals_match_scalar_at_every_level() {
    let wide_extra: Vec<f64> = vec![
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        5e-324,
        1_099_511_627_776.3,
        -0.0,
        0.1,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        (1u64 << 53) as f64 + 2.0,
    ];
    for case in cases() {
        for dims in 1..=4 {
            for inputs in table_inputs(dims, 7) {
                let context = format!("{}, length {}", case.name, inputs[0].len());
                assert_src_levels_match_scalar(&case.src, &borrow(&inputs), &context);
                let mut wide = widen(&inputs);
                for (d, axis) in wide.iter_mut().enumerate() {
                    for (i, v) in axis.iter_mut().enumerate() {
                        if (i + d) % 5 == 0 {
                            *v = wide_extra[(i / 5 + d) % wide_extra.len()];
                        }
                    }
                }
                assert_src_f64_levels_agree(&case.src, &borrow64(&wide), &context);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn fractal_bit_patterns_match_scalar_at_every_level(
        which in 0usize..64,
        s in (1usize..=4).prop_flat_map(bit_pattern_slices),
    ) {
        let cases = cases();
        let case = &cases[which % cases.len()];
        assert_src_levels_match_scalar(&case.src, &borrow(&s), &case.name);
    }

    #[test]
    fn fractal_f64_bit_patterns_agree_at_every_level(
        which in 0usize..64,
        s in (1usize..=4).prop_flat_map(f64_slices),
    ) {
        let cases = cases();
        let case = &cases[which % cases.len()];
        assert_src_f64_levels_agree(&case.src, &borrow64(&s), &case.name);
    }
}

// ------------------------------------------------------------------ grids

/// Grids whose |x step| is at least this take the point path in every
/// dimension and every octave with lacunarity ≥ 1 (the coefficient-row
/// bounds are at most 3/4), and give `fillN_f64`'s bits.
const COARSE_X_STEP: f64 = 1.0;

/// The documented distance of a coefficient-row octave from `fillN_f64`.
const ROWS_TOLERANCE: f64 = 1e-6;

fn grid_of(dims: usize, origin: [f64; 4], step: [f64; 4], size: [usize; 4]) -> AnyGrid {
    AnyGrid::new(&origin[..dims], &step[..dims], &size[..dims])
}

/// Coarse grids give exactly `fillN_f64`'s bits at their points, for every
/// case (lacunarity below 1 and 0 included: the octaves' steps shrink, yet
/// the grid is coarse and its octaves are computed as points).
#[test]
fn coarse_fractal_grids_are_fill_f64_bit_for_bit() {
    for case in cases() {
        for dims in 1..=4 {
            for dx in [COARSE_X_STEP, -1.1, 1.3] {
                let grid = grid_of(
                    dims,
                    [-3.3, 17.9, 0.77, -250.2],
                    [dx, 0.43, -0.27, 0.61],
                    [40, 3, 3, 2],
                );
                let got = grid.values(&case.src, false);
                let want = grid.point_values(&case.src);
                if let Some(k) = (0..got.len()).find(|&k| got[k].to_bits() != want[k].to_bits()) {
                    panic!(
                        "{}: {grid:?}, sample {k}: grid {:e}, fill_f64 {:e}",
                        case.name, got[k], want[k]
                    );
                }
            }
        }
    }
}

/// Fine grids (x step 1/128: coefficient rows in every dimension for the
/// first octaves at least) are within [`ROWS_TOLERANCE`] per octave of
/// `fillN_f64`, carried through the fold (see [`Case::gain`]), plus the
/// fold's own `f32` rounding on the two paths (4 roundings per octave of
/// values up to the bound).
#[test]
fn fine_fractal_grids_are_within_the_row_tolerance_of_fill_f64() {
    let mut report = Vec::new();
    for case in cases() {
        for dims in 1..=4 {
            let grid = grid_of(
                dims,
                [-3.3, 1.9, 0.77, -2.2],
                [1.0 / 128.0, 0.43, -0.27, 0.61],
                [300, 3, 3, 2],
            );
            let got = grid.values(&case.src, false);
            let want = grid.point_values(&case.src);
            let raw = raw_bounds(&case, dims);
            let magnitude = f64::from(raw.0.abs().max(raw.1.abs())).max(1.0);
            let rounding = 4.0 * f64::from(case.octaves) * magnitude * 6e-8;
            let tol = ROWS_TOLERANCE * case.gain(raw) + rounding;
            let mut max = 0.0f64;
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                let err = (f64::from(*g) - f64::from(*w)).abs();
                assert!(
                    err <= tol,
                    "{}: {grid:?}, sample {k}: grid {g:e}, fill_f64 {w:e} (tolerance {tol:e})",
                    case.name
                );
                max = max.max(err / tol);
            }
            report.push(format!("{} {dims}D {max:.2}", case.name));
        }
    }
    eprintln!("fine grid error / tolerance: {}", report.join("; "));
}

/// The raw (not normalised) bounds of a case, from the same fractal with
/// normalising off: `bounds` reports them when not normalised.
fn raw_bounds(case: &Case, dims: usize) -> (f32, f32) {
    if !case.normalize {
        return case.src.bounds(dims);
    }
    // The normalised cases, rebuilt without normalising.
    let b = match case.name.as_str() {
        "Billow<Perlin> 4 octaves, normalised" => {
            Billow::new(Perlin::permuted(4)).octaves(4).bounds(dims)
        }
        "Ridged<Value> normalised" => Ridged::new(Value::permuted(7)).bounds(dims),
        "Fbm<Value> normalised, lacunarity -1.5" => {
            Fbm::new(Value::permuted(17)).lacunarity(-1.5).bounds(dims)
        }
        other => panic!("no raw bounds for {other}"),
    };
    assert_ne!(b, (-1.0, 1.0), "{}", case.name);
    b
}

/// A few cases on grids large enough for several rayon tiles and fold
/// blocks: serial, `_par` at every level and in pools of 1, 2 and 3
/// threads give the scalar serial bits, on both x paths.
#[test]
fn large_fractal_grids_agree_across_levels_and_threads() {
    let cases: Vec<(&str, DynSource)> = vec![
        (
            "Fbm<Perlin> 3 octaves",
            DynSource::new(Fbm::new(Perlin::permuted(21)).octaves(3)),
        ),
        (
            "Ridged<Value> 2 octaves",
            DynSource::new(Ridged::new(Value::permuted(22)).octaves(2)),
        ),
        (
            "Marble<Perlin> 2 octaves",
            DynSource::new(Marble::new(Perlin::permuted(23)).octaves(2)),
        ),
    ];
    for (name, src) in &cases {
        for dx in [0.01, -0.7] {
            // 3D: 97 × 40 × 36 = 139,680 samples (3 tiles, the last partial).
            let grid = grid_of(
                3,
                [-3.7, 12.3, 0.45, 0.0],
                [dx, 0.21, -0.17, 0.0],
                [97, 40, 36, 1],
            );
            let scalar = src.clone().with_level(Level::Scalar).unwrap();
            let want = bits(&grid.values(&scalar, false));
            for level in levels() {
                let at = src.clone().with_level(level).unwrap();
                for par in [false, true] {
                    let got = bits(&grid.values(&at, par));
                    assert!(got == want, "{name}, x step {dx}, level {level}, par {par}");
                }
            }
            for threads in [1, 2, 3] {
                let got = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| bits(&grid.values(src, true)));
                assert!(got == want, "{name}, x step {dx}, {threads} threads");
            }
        }
    }
}

/// `(offset, size)` of the pieces of `0..n` cut at `cuts`.
fn pieces(n: usize, cuts: &[usize]) -> Vec<(usize, usize)> {
    let mut bounds: Vec<usize> = cuts.iter().map(|&c| c.min(n)).collect();
    bounds.push(0);
    bounds.push(n);
    bounds.sort_unstable();
    bounds.windows(2).map(|w| (w[0], w[1] - w[0])).collect()
}

/// Every window of the partition of `grid` by `cuts` (one list per axis),
/// filled on its own (`_par` for every other one), has exactly the bits of
/// that block of the whole grid.
fn assert_windows_stitch(src: &DynSource, grid: &AnyGrid, cuts: &[Vec<usize>], context: &str) {
    let size = grid.size();
    let dims = size.len();
    let full = grid.values(src, false);
    let per_axis: Vec<Vec<(usize, usize)>> = (0..dims).map(|a| pieces(size[a], &cuts[a])).collect();
    let shape: Vec<usize> = per_axis.iter().map(Vec::len).collect();
    let mut stitched = vec![f32::from_bits(SENTINEL_BITS); full.len()];
    let count: usize = shape.iter().product();
    for n in 0..count {
        let mut rest = n;
        let (mut offset, mut wsize) = (vec![0; dims], vec![0; dims]);
        for a in 0..dims {
            (offset[a], wsize[a]) = per_axis[a][rest % shape[a]];
            rest /= shape[a];
        }
        let w = grid.window(&offset, &wsize);
        let mut out = vec![f32::from_bits(SENTINEL_BITS); w.len()];
        w.fill(src, &mut out, n % 2 == 1).unwrap();
        for (k, v) in out.iter().enumerate() {
            let (mut rest, mut at, mut stride) = (k, 0, 1);
            for a in 0..dims {
                at += (offset[a] + rest % wsize[a]) * stride;
                rest /= wsize[a];
                stride *= size[a];
            }
            assert_eq!(
                v.to_bits(),
                full[at].to_bits(),
                "{context}: {grid:?}, window {offset:?} {wsize:?}, sample {k}"
            );
            stitched[at] = *v;
        }
    }
    assert_eq!(bits(&stitched), bits(&full), "{context}: stitched windows");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Any partition of a grid into windows, for any case, on both x paths.
    #[test]
    fn fractal_grid_windows_stitch_to_the_grid(
        which in 0usize..64,
        dims in 1usize..=4,
        sizes in prop::collection::vec(0usize..=24, 4),
        cuts in prop::collection::vec(prop::collection::vec(0usize..=24, 0..=3), 4),
        origin in prop::collection::vec(-300.0f64..300.0, 4),
        fine in any::<bool>(),
    ) {
        let cases = cases();
        let case = &cases[which % cases.len()];
        let dx = if fine { 1.0 / 128.0 } else { 0.6 };
        // At most 192, 576, 1728 and 2401 samples in 1D to 4D.
        let cap = [192, 24, 12, 7][dims - 1];
        let size: [usize; 4] = std::array::from_fn(|a| 1 + sizes[a] * cap / 25);
        let grid = grid_of(dims, [origin[0], origin[1], origin[2], origin[3]], [dx, 0.3, -0.45, 0.7], size);
        assert_windows_stitch(&case.src, &grid, &cuts[..dims], &case.name);
    }
}

// ------------------------------------------------------------ the folds

/// Perlin and Value sources (every fade) for the fold identities.
fn plain_sources() -> Vec<(String, Perlin, Value)> {
    Fade::ALL
        .iter()
        .enumerate()
        .map(|(k, &fade)| {
            (
                format!("{fade:?}"),
                Perlin::permuted(30 + k as u64).with_fade(fade),
                Value::permuted(40 + k as u64).with_fade(fade),
            )
        })
        .collect()
}

/// A source's name, the source, and combinators over it.
type Named = (&'static str, DynSource, Vec<DynSource>);

/// `fillN` of a source on some points.
fn fill_of(src: &DynSource, pts: &[Vec<f32>]) -> Vec<f32> {
    let mut out = vec![f32::from_bits(SENTINEL_BITS); pts[0].len()];
    src.fill_dyn(&borrow(pts), &mut out).unwrap();
    out
}

/// With one octave each combinator is its octave term of the source's
/// value n, bit for bit (amplitude 1): `Fbm` n, `Turbulence` |n|, `Billow`
/// 2|n| − 1, `Ridged` (1 − |n|)², computed here in `f32` from `noiseN` of
/// the source; `Marble` is sin(stripes·x + power·|n|) within the sine's
/// error (1e-6 plus the f32 argument reduction, |arg|·2⁻²²).
#[test]
fn one_octave_is_the_octave_term_of_the_source() {
    let mut rng = Rng(51);
    for (fade, perlin, value) in plain_sources() {
        let sources: [Named; 2] = [
            (
                "Perlin",
                DynSource::new(perlin.clone()),
                one_octave_combinators(&perlin, 1),
            ),
            (
                "Value",
                DynSource::new(value.clone()),
                one_octave_combinators(&value, 1),
            ),
        ];
        for (name, src, combos) in &sources {
            for dims in 1..=4 {
                let mut pts = rng.points(dims, 1000, -40.0, 40.0);
                for a in pts.iter_mut() {
                    a.extend([0.0, 1.0, -3.0, 0.5, f32::NAN, 1e-30]);
                }
                let n = fill_of(src, &pts);
                let got: Vec<Vec<f32>> = combos.iter().map(|c| fill_of(c, &pts)).collect();
                for (i, &n) in n.iter().enumerate() {
                    let c = point(&borrow(&pts), i);
                    let want = [
                        n,
                        2.0 * n.abs() - 1.0,
                        (1.0 - n.abs()) * (1.0 - n.abs()),
                        n.abs(),
                    ];
                    for (k, label) in ["Fbm", "Billow", "Ridged", "Turbulence"].iter().enumerate() {
                        let w = if want[k].is_nan() { f32::NAN } else { want[k] };
                        assert_eq!(
                            got[k][i].to_bits(),
                            w.to_bits(),
                            "{label}<{name}> {fade}, 1 octave at {}: {:e}, term {:e}",
                            show(&c),
                            got[k][i],
                            w
                        );
                    }
                    // Marble: power 2.5, stripes 1.5.
                    let arg = 1.5 * c[0] + 2.5 * n.abs();
                    let m = got[4][i];
                    if arg.is_nan() {
                        assert_eq!(m.to_bits(), f32::NAN.to_bits());
                    } else {
                        let err = (f64::from(m) - f64::from(arg).sin()).abs();
                        let tol = 1e-6 + f64::from(arg.abs()) * 2f64.powi(-22);
                        assert!(err <= tol, "Marble<{name}> {fade} at {}: {m:e}", show(&c));
                    }
                }
                // And the same through fill_f64 and a grid (point path).
                let grid = grid_of(
                    dims,
                    [0.3, -1.2, 2.5, 0.1],
                    [0.9, 0.7, -0.55, 0.9],
                    [20, 3, 3, 2],
                );
                let n = grid.values(src, false);
                let fbm = &combos[0];
                assert_eq!(bits(&grid.values(fbm, true)), bits(&n), "{name} {fade}");
                assert_eq!(bits(&grid.point_values(fbm)), bits(&grid.point_values(src)));
            }
        }
    }
}

/// The five combinators over `s` with `octaves` octaves (Marble with power
/// 2.5 and stripes 1.5), in the order Fbm, Billow, Ridged, Turbulence,
/// Marble.
fn one_octave_combinators<S: Source + 'static>(s: &S, octaves: u32) -> Vec<DynSource> {
    vec![
        DynSource::new(Fbm::new(s.clone()).octaves(octaves)),
        DynSource::new(Billow::new(s.clone()).octaves(octaves)),
        DynSource::new(Ridged::new(s.clone()).octaves(octaves)),
        DynSource::new(Turbulence::new(s.clone()).octaves(octaves)),
        DynSource::new(
            Marble::new(s.clone())
                .octaves(octaves)
                .power(2.5)
                .stripes(1.5),
        ),
    ]
}

/// Persistence 0 silences every octave after the first: k octaves give the
/// one-octave values (as numbers: adding 0·n may turn −0 into +0).
#[test]
fn persistence_zero_leaves_the_first_octave() {
    let mut rng = Rng(52);
    let s = Perlin::permuted(53);
    for dims in 1..=4 {
        let pts = rng.points(dims, 500, -100.0, 100.0);
        let one: Vec<Vec<f32>> = one_octave_combinators(&s, 1)
            .iter()
            .map(|c| fill_of(c, &pts))
            .collect();
        for octaves in [2, 7, 32] {
            let k: Vec<DynSource> = vec![
                DynSource::new(Fbm::new(s.clone()).octaves(octaves).persistence(0.0)),
                DynSource::new(Billow::new(s.clone()).octaves(octaves).persistence(0.0)),
                DynSource::new(Ridged::new(s.clone()).octaves(octaves).persistence(0.0)),
                DynSource::new(Turbulence::new(s.clone()).octaves(octaves).persistence(0.0)),
                DynSource::new(
                    Marble::new(s.clone())
                        .octaves(octaves)
                        .persistence(0.0)
                        .power(2.5)
                        .stripes(1.5),
                ),
            ];
            for (c, want) in k.iter().zip(&one) {
                let got = fill_of(c, &pts);
                assert!(got == *want, "{c:?}, {octaves} octaves, {dims}D");
            }
        }
    }
}

/// A constant source: value noise with period 1 on every axis has all of a
/// cell's corners on one lattice point, so it is that point's height h
/// everywhere, and with a whole lacunarity every octave is h again. The
/// fold is then a plain series, computed here in `f64` from the formulas:
/// Fbm Σaᵢh, Turbulence Σaᵢ|h|, Billow Σaᵢ(2|h| − 1), Ridged Σaᵢsᵢ with
/// sᵢ = (1 − |h|)²wᵢ, wᵢ₊₁ = clamp(2sᵢ, 0, 1), w₀ = 1, and Marble
/// sin(stripes·x + power·Σaᵢ|h|). Heights are chosen so that Ridged's
/// weight clamp is active (|h| < 0.29) and inactive. Tolerance: the `f32`
/// roundings of the running sum, 4 per octave of values ≤ Σ|aᵢ|·|term|.
#[test]
fn the_folds_of_a_constant_source_are_the_series() {
    for dims in 1..=4 {
        for (lo, hi) in [(0.05, 0.25), (0.35, 0.75), (0.8, 0.98)] {
            let (seed, h) = (0..5000u64)
                .map(|seed| (seed, constant_height(seed, dims)))
                .find(|(_, h)| (lo..hi).contains(&h.abs()))
                .unwrap();
            let v = Value::permuted(seed).with_period([1, 1, 1, 1]).unwrap();
            let h = f64::from(h);
            for (octaves, persistence) in [
                (1, 0.5),
                (2, 0.5),
                (6, 0.5),
                (9, -0.7),
                (32, 0.93),
                (5, 1.3),
            ] {
                let amplitudes: Vec<f64> =
                    (0..octaves).map(|i| f64::powi(persistence, i)).collect();
                let sum_abs: f64 = amplitudes.iter().map(|a| a.abs()).sum();
                let tol = 4.0 * f64::from(octaves as u32) * sum_abs * 2.0 * 6e-8;
                let fbm: f64 = amplitudes.iter().map(|a| a * h).sum();
                let turbulence: f64 = amplitudes.iter().map(|a| a * h.abs()).sum();
                let billow: f64 = amplitudes.iter().map(|a| a * (2.0 * h.abs() - 1.0)).sum();
                let mut ridged = 0.0;
                let mut w = 1.0;
                for a in &amplitudes {
                    let s = (1.0 - h.abs()) * (1.0 - h.abs()) * w;
                    ridged += a * s;
                    w = (2.0 * s).clamp(0.0, 1.0);
                }
                let l = 1.0; // whole lacunarity, period 1 at every octave
                let o = octaves as u32;
                let srcs: [(&str, DynSource, f64); 4] = [
                    (
                        "Fbm",
                        DynSource::new(
                            Fbm::new(v.clone())
                                .octaves(o)
                                .lacunarity(l)
                                .persistence(persistence as f32),
                        ),
                        fbm,
                    ),
                    (
                        "Turbulence",
                        DynSource::new(
                            Turbulence::new(v.clone())
                                .octaves(o)
                                .lacunarity(l)
                                .persistence(persistence as f32),
                        ),
                        turbulence,
                    ),
                    (
                        "Billow",
                        DynSource::new(
                            Billow::new(v.clone())
                                .octaves(o)
                                .lacunarity(l)
                                .persistence(persistence as f32),
                        ),
                        billow,
                    ),
                    (
                        "Ridged",
                        DynSource::new(
                            Ridged::new(v.clone())
                                .octaves(o)
                                .lacunarity(l)
                                .persistence(persistence as f32),
                        ),
                        ridged,
                    ),
                ];
                let pts: Vec<Vec<f32>> = (0..dims)
                    .map(|a| vec![0.3 + a as f32, -17.2, 1e4, 0.0])
                    .collect();
                for (name, src, want) in &srcs {
                    for got in fill_of(src, &pts) {
                        assert!(
                            (f64::from(got) - want).abs() <= tol.max(1e-7),
                            "{name}, {dims}D, h = {h}, {octaves} octaves, persistence \
                             {persistence}: {got:e}, series {want:e}"
                        );
                    }
                }
                let marble = DynSource::new(
                    Marble::new(v.clone())
                        .octaves(o)
                        .lacunarity(l)
                        .persistence(persistence as f32)
                        .power(1.7)
                        .stripes(0.9),
                );
                for x in [0.0f32, 0.4, -2.9, 6.0] {
                    let mut c = vec![0.25f32; dims];
                    c[0] = x;
                    let arg = 0.9 * f64::from(x) + 1.7 * turbulence;
                    let got = marble.noise_dyn(&c).unwrap();
                    let tol = 1.7 * tol + 1e-6 + arg.abs() * 2f64.powi(-22);
                    assert!(
                        (f64::from(got) - arg.sin()).abs() <= tol,
                        "Marble, {dims}D, x = {x}: {got:e}, sin {:e}",
                        arg.sin()
                    );
                }
            }
        }
    }
}

/// The height of value noise with `seed` and period 1 (its one lattice point).
fn constant_height(seed: u64, dims: usize) -> f32 {
    let v = Value::permuted(seed).with_period([1, 1, 1, 1]).unwrap();
    let c = vec![0.37f32; dims];
    let v = DynSource::new(v);
    let h = v.noise_dyn(&c).unwrap();
    // Constant indeed: the same at another point and at the lattice point.
    assert_eq!(
        h.to_bits(),
        v.noise_dyn(&vec![-5.9f32; dims]).unwrap().to_bits()
    );
    assert_eq!(
        h.to_bits(),
        v.noise_dyn(&vec![0.0f32; dims]).unwrap().to_bits()
    );
    h
}

/// With the same octave settings, the folds relate by formula on any
/// source: `Marble` is sin(stripes·x + power·Turbulence) (the same running
/// sum; only the sine's error remains), `Billow` is 2·Turbulence − Σaᵢ and,
/// for a positive persistence, |Fbm| ≤ Turbulence (within the sums'
/// rounding, 4 roundings per octave of values up to Σ|aᵢ|·2).
#[test]
fn folds_relate_by_formula() {
    let mut rng = Rng(54);
    for (octaves, lacunarity, persistence) in [(6, 2.0f32, 0.5f32), (3, 1.7, 0.8), (11, 2.2, -0.6)]
    {
        let sum_abs: f64 = (0..octaves)
            .map(|i| f64::from(persistence).powi(i).abs())
            .sum();
        let sum: f64 = (0..octaves).map(|i| f64::from(persistence).powi(i)).sum();
        let tol = 4.0 * f64::from(octaves as u32) * sum_abs * 2.0 * 6e-8;
        for (_, perlin, value) in plain_sources() {
            let pairs: [[DynSource; 4]; 2] = [
                folds(&perlin, octaves as u32, lacunarity, persistence),
                folds(&value, octaves as u32, lacunarity, persistence),
            ];
            for [fbm, billow, turbulence, marble] in &pairs {
                for dims in 1..=4 {
                    let pts = rng.points(dims, 400, -200.0, 200.0);
                    let (f, b, t, m) = (
                        fill_of(fbm, &pts),
                        fill_of(billow, &pts),
                        fill_of(turbulence, &pts),
                        fill_of(marble, &pts),
                    );
                    for i in 0..pts[0].len() {
                        let (f, b, t, m) =
                            (f64::from(f[i]), f64::from(b[i]), f64::from(t[i]), m[i]);
                        assert!(
                            (b - (2.0 * t - sum)).abs() <= 2.0 * tol,
                            "{fbm:?}: Billow {b} vs Turbulence {t}"
                        );
                        // |Σaᵢnᵢ| ≤ Σaᵢ|nᵢ| when every aᵢ ≥ 0.
                        if persistence > 0.0 {
                            assert!(f.abs() <= t + tol, "{fbm:?}: |Fbm| {f} > Turbulence {t}");
                        }
                        let arg = 0.6 * pts[0][i] + 1.9 * t as f32;
                        let err = (f64::from(m) - f64::from(arg).sin()).abs();
                        assert!(
                            err <= 1e-6 + f64::from(arg.abs()) * 2f64.powi(-22),
                            "{marble:?}: Marble {m} vs sin({arg}) (Turbulence {t})"
                        );
                    }
                }
            }
        }
    }
}

/// Fbm, Billow, Turbulence and Marble (power 1.9, stripes 0.6) over `s`.
fn folds<S: Source + 'static>(
    s: &S,
    octaves: u32,
    lacunarity: f32,
    persistence: f32,
) -> [DynSource; 4] {
    [
        DynSource::new(
            Fbm::new(s.clone())
                .octaves(octaves)
                .lacunarity(lacunarity)
                .persistence(persistence),
        ),
        DynSource::new(
            Billow::new(s.clone())
                .octaves(octaves)
                .lacunarity(lacunarity)
                .persistence(persistence),
        ),
        DynSource::new(
            Turbulence::new(s.clone())
                .octaves(octaves)
                .lacunarity(lacunarity)
                .persistence(persistence),
        ),
        DynSource::new(
            Marble::new(s.clone())
                .octaves(octaves)
                .lacunarity(lacunarity)
                .persistence(persistence)
                .power(1.9)
                .stripes(0.6),
        ),
    ]
}

// ------------------------------------------------------------------ bounds

/// Every output of every case (normalised or not, every fade, nested,
/// periodic), 1D to 4D, lies inside `bounds(d)`: random points near the
/// origin and far from it, the adversarial table's finite values (huge
/// ones too: no octave may overflow to NaN), `f64` points up to `f64::MAX`,
/// and grids on both x paths and near the end of the `f64` range.
#[test]
fn every_output_lies_inside_bounds() {
    let finite: Vec<f32> = adversarial()
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    let mut rng = Rng(61);
    for case in cases() {
        for dims in 1..=4 {
            let (lo, hi) = case.src.bounds(dims);
            assert!(lo < hi, "{}: bounds({dims}) = ({lo}, {hi})", case.name);
            let mut pts = rng.points(dims, 1500, -300.0, 300.0);
            let far = rng.points(dims, 300, -1e7, 1e7);
            for (a, axis) in pts.iter_mut().enumerate() {
                axis.extend(&far[a]);
                axis.extend(&finite);
            }
            let n = pts[0].len();
            for (a, axis) in pts.iter_mut().enumerate().skip(1) {
                axis.rotate_left(a * 13 % n);
            }
            let mut values = fill_of(&case.src, &pts);
            let wide: Vec<Vec<f64>> = (0..dims)
                .map(|a| {
                    (0..600)
                        .map(|i| match i % 4 {
                            0 => rng.uniform(-1e300, 1e300),
                            1 => rng.uniform(-1e12, 1e12),
                            2 => f64::MAX * if i % 8 == 2 { 1.0 } else { -1.0 },
                            _ => rng.uniform(-50.0, 50.0) + a as f64,
                        })
                        .collect()
                })
                .collect();
            let mut out = vec![0.0f32; 600];
            case.src.fill_f64_dyn(&borrow64(&wide), &mut out).unwrap();
            values.extend(out);
            for dx in [1.0 / 64.0, 0.7] {
                let grid = grid_of(
                    dims,
                    [-9.1, 3.3, 0.2, 7.7],
                    [dx, 0.31, 0.47, -0.23],
                    [200, 6, 4, 3],
                );
                values.extend(grid.values(&case.src, dims % 2 == 0));
            }
            // A grid near the end of the f64 range: octaves scale it past.
            let huge = grid_of(
                dims,
                [1e308, -1e308, 3e307, 0.5],
                [1e306, 2e305, -1e306, 0.5],
                [9, 2, 2, 2],
            );
            values.extend(huge.values(&case.src, false));
            if let Some(bad) = values.iter().position(|v| !(lo..=hi).contains(v)) {
                panic!(
                    "{}, {dims}D: output {:e} (sample {bad}) outside bounds ({lo:e}, {hi:e})",
                    case.name, values[bad]
                );
            }
        }
    }
}

/// Marble is a sine: at its peaks (sin = ±1) the `f32` polynomial rounds
/// up to 1 + 2⁻²³ unless clamped. With power 0 Marble is sin(stripes·x);
/// every `f32` x within 2e-3 of the first peaks, and the arguments 1e30
/// and beyond, give outputs in [−1, 1].
#[test]
fn marble_stays_in_minus_one_to_one_at_its_peaks() {
    let marble = Marble::new(Perlin::permuted(1)).power(0.0).stripes(1.0);
    for peak in [0.5f32, -0.5, 1.5, 2.5, -3.5] {
        let centre = peak * std::f32::consts::PI;
        let mut xs = Vec::new();
        let mut x = centre - 2e-3;
        while x < centre + 2e-3 {
            xs.push(x);
            x = x.next_up();
        }
        let mut out = vec![0.0f32; xs.len()];
        for level in levels() {
            let at = marble.clone().with_level(level).unwrap();
            at.fill([&xs], &mut out).unwrap();
            let (min, max) = out
                .iter()
                .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            assert!(
                (-1.0..=1.0).contains(&min) && (-1.0..=1.0).contains(&max),
                "level {level}: sin near {centre} spans {min:e}..{max:e}"
            );
            // The peak is reached (within the sine's error), so the range
            // is not cut short either.
            assert!(
                min.abs().max(max.abs()) > 1.0 - 1e-6,
                "near {centre}: {min}..{max}"
            );
        }
    }
}

/// `normalize(true)`: `bounds` is [−1, 1], every output is inside, and the
/// outputs reach beyond ±0.5 (the map does not collapse the range): with 2
/// octaves in every dimension for Billow, Ridged and Turbulence (whose
/// typical values sit near one end of their interval), and for Fbm in 1D
/// and 2D, where the per-octave bound is tight (1 is reached); Fbm's 3D
/// and 4D bounds are sums of worst cases no sample comes near, so there
/// the reach is only printed.
#[test]
fn normalised_outputs_fill_minus_one_to_one() {
    let mut report = Vec::new();
    for seed in [70u64, 71] {
        let sources: Vec<(String, DynSource)> = vec![
            (
                "Fbm<Perlin>".into(),
                DynSource::new(Fbm::new(Perlin::permuted(seed)).octaves(2).normalize(true)),
            ),
            (
                "Fbm<Value>".into(),
                DynSource::new(Fbm::new(Value::permuted(seed)).octaves(2).normalize(true)),
            ),
            (
                "Billow<Perlin>".into(),
                DynSource::new(
                    Billow::new(Perlin::permuted(seed))
                        .octaves(2)
                        .normalize(true),
                ),
            ),
            (
                "Billow<Value>".into(),
                DynSource::new(
                    Billow::new(Value::permuted(seed))
                        .octaves(2)
                        .normalize(true),
                ),
            ),
            (
                "Ridged<Perlin>".into(),
                DynSource::new(
                    Ridged::new(Perlin::permuted(seed))
                        .octaves(2)
                        .normalize(true),
                ),
            ),
            (
                "Ridged<Value>".into(),
                DynSource::new(
                    Ridged::new(Value::permuted(seed))
                        .octaves(2)
                        .normalize(true),
                ),
            ),
            (
                "Turbulence<Perlin>".into(),
                DynSource::new(
                    Turbulence::new(Perlin::permuted(seed))
                        .octaves(2)
                        .normalize(true),
                ),
            ),
            (
                "Turbulence<Value>".into(),
                DynSource::new(
                    Turbulence::new(Value::permuted(seed))
                        .octaves(2)
                        .normalize(true),
                ),
            ),
        ];
        for (name, src) in &sources {
            for dims in 1..=4 {
                assert_eq!(src.bounds(dims), (-1.0, 1.0), "{name}");
                let size = [
                    [40_000, 1, 1, 1],
                    [200, 200, 1, 1],
                    [40, 40, 25, 1],
                    [16, 16, 16, 10],
                ][dims - 1];
                let grid = grid_of(
                    dims,
                    [0.1, 0.2, 0.3, 0.4],
                    [0.137, 0.173, 0.191, 0.213],
                    size,
                );
                let v = grid.values(src, true);
                let (min, max) = v
                    .iter()
                    .fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
                assert!(-1.0 <= min && max <= 1.0, "{name}, {dims}D: {min}..{max}");
                let reach = min.abs().max(max.abs());
                report.push(format!("{name} {dims}D {reach:.2}"));
                if !name.starts_with("Fbm<Perlin>") || dims <= 2 {
                    assert!(reach > 0.5, "{name}, {dims}D: outputs only in {min}..{max}");
                }
            }
        }
    }
    eprintln!("normalised reach: {}", report.join(", "));
}

// ------------------------------------------------------------------ errors

/// The batch methods of `src` in every dimension (fill, fill_f64, grids
/// serial and parallel) all return `want` and leave `out` untouched; the
/// one-point methods give `f32::NAN`; `check` returns `want`. Errors are
/// compared by their `Debug` text: one holding a NaN is not `==` to itself.
fn assert_refused<S: Source + 'static>(src: &S, want: &Error, context: &str) {
    let src = DynSource::new(src.clone());
    let want = format!("{:?}", Err::<(), _>(want));
    let same = |r: Result<(), Error>| format!("{:?}", r.as_ref()) == want;
    assert!(
        same(src.check()),
        "{context}: check gave {:?}, not {want}",
        src.check()
    );
    for dims in 1..=4 {
        let xs = vec![vec![0.3f32; 9]; dims];
        let wide = widen(&xs);
        let mut out = vec![f32::from_bits(SENTINEL_BITS); 9];
        assert!(
            same(src.fill_dyn(&borrow(&xs), &mut out)),
            "{context}: fill{dims}"
        );
        assert!(
            same(src.fill_f64_dyn(&borrow64(&wide), &mut out)),
            "{context}: fill{dims}_f64"
        );
        let grid = grid_of(dims, [0.1; 4], [0.3; 4], [9, 1, 1, 1]);
        for par in [false, true] {
            assert!(
                same(grid.fill(&src, &mut out, par)),
                "{context}: grid{dims}, par {par}"
            );
        }
        assert!(
            out.iter().all(|v| v.to_bits() == SENTINEL_BITS),
            "{context}: written"
        );
        assert_eq!(
            src.noise_dyn(&xs.iter().map(|a| a[0]).collect::<Vec<_>>())
                .unwrap()
                .to_bits(),
            f32::NAN.to_bits()
        );
    }
}

macro_rules! each_combinator {
    ($source:expr, |$c:ident| $body:expr) => {{
        let $c = Fbm::new($source);
        $body;
        let $c = Billow::new($source);
        $body;
        let $c = Ridged::new($source);
        $body;
        let $c = Turbulence::new($source);
        $body;
        let $c = Marble::new($source);
        $body;
    }};
}

/// Octaves 0 and 33, NaN or infinite lacunarity and persistence (and
/// Marble's power and stripes), and a non-whole lacunarity (or one below 1)
/// over a periodic source are refused by `check` and by every batch method
/// with the typed error (nothing written); the one-point methods give NaN;
/// the messages name the parameter. The limits themselves (1 and 32
/// octaves, lacunarity 1 and 3 over a periodic source) are accepted, and a
/// later setter that repairs the parameter clears the error.
#[test]
fn invalid_parameters_are_refused_everywhere() {
    let periodic = || Perlin::permuted(1).with_period([4, 4, 4, 4]).unwrap();
    each_combinator!(Perlin::permuted(1), |c| {
        let name = format!("{c:?}").split('(').next().unwrap().to_string();
        for octaves in [0, 33, u32::MAX] {
            let bad = c.clone().octaves(octaves);
            assert_refused(
                &bad,
                &Error::InvalidOctaves(octaves),
                &format!("{name}, {octaves} octaves"),
            );
            assert_eq!(bad.octave_count(), octaves);
            // Repaired later in the chain: valid again.
            assert_eq!(bad.octaves(3).check(), Ok(()));
        }
        for octaves in [1, MAX_OCTAVES] {
            assert_eq!(c.clone().octaves(octaves).check(), Ok(()));
        }
        for value in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for (param, bad) in [
                ("lacunarity", c.clone().lacunarity(value)),
                ("persistence", c.clone().persistence(value)),
            ] {
                let err = bad.check().unwrap_err();
                match &err {
                    Error::NonFiniteParameter { name, value: v } => {
                        assert_eq!(*name, param);
                        assert_eq!(v.to_bits(), value.to_bits());
                    }
                    other => panic!("{name}, {param} = {value}: {other:?}"),
                }
                assert!(err.to_string().contains(param), "{err}");
                assert_refused(&bad, &err, &format!("{name}, {param} = {value}"));
            }
        }
    });
    for value in [f32::NAN, f32::INFINITY] {
        for (param, bad) in [
            ("power", Marble::new(Perlin::permuted(1)).power(value)),
            ("stripes", Marble::new(Perlin::permuted(1)).stripes(value)),
        ] {
            let err = bad.check().unwrap_err();
            assert!(
                matches!(err, Error::NonFiniteParameter { name, .. } if name == param),
                "{err:?}"
            );
            assert!(err.to_string().contains(param), "{err}");
            assert_refused(&bad, &err, param);
        }
    }
    each_combinator!(periodic(), |c| {
        for lacunarity in [2.5f32, 0.5, 0.0, -2.0, 1.000_001] {
            let bad = c.clone().lacunarity(lacunarity);
            let want = Error::PeriodicLacunarity(lacunarity);
            assert_refused(&bad, &want, &format!("periodic, lacunarity {lacunarity}"));
            let msg = want.to_string();
            assert!(
                msg.contains("lacunarity") && msg.contains("whole number"),
                "{msg}"
            );
        }
        for lacunarity in [1.0f32, 3.0] {
            assert_eq!(c.clone().lacunarity(lacunarity).check(), Ok(()));
        }
    });
    // The same non-whole lacunarity over a non-periodic source is fine.
    assert_eq!(
        Fbm::new(Perlin::permuted(1)).lacunarity(2.5).check(),
        Ok(())
    );
    // Octaves are checked first; the message names them.
    let err = Fbm::new(Perlin::permuted(1))
        .octaves(0)
        .lacunarity(f32::NAN)
        .check()
        .unwrap_err();
    assert_eq!(err, Error::InvalidOctaves(0));
    assert!(err.to_string().contains("octaves"), "{err}");
    // A nested fractal reports its inner fractal's error.
    let nested = Fbm::new(Ridged::new(Perlin::permuted(1)).octaves(40));
    assert_refused(&nested, &Error::InvalidOctaves(40), "nested");
}

/// The `try_` setters refuse a bad octave count, lacunarity or persistence
/// as the combinator is built, with the same typed error `check` gives, and
/// pass good values through to the same combinator the plain setters build.
#[test]
fn try_setters_refuse_bad_parameters_at_construction() {
    let periodic = || Perlin::permuted(1).with_period([4, 4, 4, 4]).unwrap();
    each_combinator!(Perlin::permuted(1), |c| {
        for octaves in [0, 33, u32::MAX] {
            let err = c.clone().try_octaves(octaves).unwrap_err();
            assert_eq!(err, Error::InvalidOctaves(octaves));
        }
        for value in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for (param, err) in [
                ("lacunarity", c.clone().try_lacunarity(value).unwrap_err()),
                ("persistence", c.clone().try_persistence(value).unwrap_err()),
            ] {
                assert!(
                    matches!(err, Error::NonFiniteParameter { name, value: v }
                        if name == param && v.to_bits() == value.to_bits()),
                    "{param} = {value}: {err:?}"
                );
            }
        }
        let built = c
            .clone()
            .try_octaves(5)
            .and_then(|c| c.try_lacunarity(1.75))
            .and_then(|c| c.try_persistence(0.4))
            .unwrap();
        let plain = c.clone().octaves(5).lacunarity(1.75).persistence(0.4);
        let (mut a, mut b) = ([0.0f32; 9], [0.0f32; 9]);
        let xs = [0.3f32, -7.1, 12.6, 0.0, 1e3, -0.5, 2.25, 9.9, 100.125];
        built.fill([&xs], &mut a).unwrap();
        plain.fill([&xs], &mut b).unwrap();
        assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        assert_eq!(built.octave_count(), 5);
    });
    each_combinator!(periodic(), |c| {
        let err = c.clone().try_lacunarity(2.5).unwrap_err();
        assert_eq!(err, Error::PeriodicLacunarity(2.5));
        assert!(c.clone().try_lacunarity(3.0).is_ok());
    });
}

/// `with_level`: every available level is accepted and reported, and the
/// source's level is set with it; a level this CPU lacks is
/// `Error::Unsupported`. (This machine may support every level, so the
/// refusal branch may not run here; `suite/tests/errors.rs` covers it for `Perlin`
/// the same way.)
#[test]
fn with_level_sets_the_fractal_and_its_source() {
    for level in [Level::Scalar, Level::Portable, Level::Avx2, Level::Avx512] {
        let f = Fbm::new(Ridged::new(Value::permuted(1))).with_level(level);
        if level.is_available() {
            let f = f.unwrap();
            assert_eq!(f.level(), level);
            assert_eq!(f.source().level(), level);
            assert_eq!(f.source().source().level(), level);
        } else {
            assert_eq!(f.unwrap_err(), Error::Unsupported(level));
        }
    }
}

// ---------------------------------------------------------------- periodic

/// A fractal over a periodic source with a whole lacunarity repeats with
/// the source's period, bit for bit: Fbm over Perlin and Value with period 4
/// (lacunarity 2 and 3), and Billow, Ridged, Turbulence over Perlin, in 1D
/// to 4D, for `noiseN`/`fillN` (coordinates with at most 10 fraction bits
/// and |c| < 64, so c + 4k is exact in `f32`, and so is every octave's
/// c·fᵢ + oᵢ), `fillN_f64` and grids (a grid shifted by one period, and the
/// samples one period apart within a grid).
#[test]
fn periodic_fractals_repeat_exactly() {
    let perlin = || Perlin::permuted(1).with_period([4, 4, 4, 4]).unwrap();
    let value = || Value::permuted(1).with_period([4, 4, 4, 4]).unwrap();
    let cases: Vec<(String, DynSource)> = vec![
        (
            "Fbm<Perlin> lacunarity 2".into(),
            DynSource::new(Fbm::new(perlin()).lacunarity(2.0)),
        ),
        (
            "Fbm<Perlin> lacunarity 3".into(),
            DynSource::new(Fbm::new(perlin()).octaves(4).lacunarity(3.0)),
        ),
        (
            "Fbm<Value> lacunarity 2".into(),
            DynSource::new(Fbm::new(value()).lacunarity(2.0)),
        ),
        (
            "Billow<Perlin>".into(),
            DynSource::new(Billow::new(perlin()).octaves(4)),
        ),
        (
            "Ridged<Value>".into(),
            DynSource::new(Ridged::new(value()).octaves(4)),
        ),
        (
            "Turbulence<Perlin>".into(),
            DynSource::new(Turbulence::new(perlin()).octaves(4)),
        ),
    ];
    let mut rng = Rng(81);
    for (name, src) in &cases {
        for dims in 1..=4 {
            let pts: Vec<Vec<f32>> = (0..dims)
                .map(|_| {
                    (0..200)
                        .map(|_| (rng.uniform(-40.0, 40.0) * 1024.0).round() as f32 / 1024.0)
                        .collect()
                })
                .collect();
            let base = fill_of(src, &pts);
            for a in 0..dims {
                for k in [-3.0f32, 1.0, 5.0] {
                    let mut shifted = pts.clone();
                    shifted[a].iter_mut().for_each(|v| *v += 4.0 * k);
                    assert_eq!(
                        bits(&fill_of(src, &shifted)),
                        bits(&base),
                        "{name}, {dims}D, axis {a}, {k} periods"
                    );
                    for (i, b) in base.iter().enumerate().take(5) {
                        let c = point(&borrow(&shifted), i);
                        assert_eq!(
                            src.noise_dyn(&c).unwrap().to_bits(),
                            b.to_bits(),
                            "{name}: noise at {}",
                            show(&c)
                        );
                    }
                    let wide = widen(&shifted);
                    let mut out = vec![0.0f32; 200];
                    src.fill_f64_dyn(&borrow64(&wide), &mut out).unwrap();
                    let mut want = vec![0.0f32; 200];
                    src.fill_f64_dyn(&borrow64(&widen(&pts)), &mut want)
                        .unwrap();
                    assert_eq!(
                        bits(&out),
                        bits(&want),
                        "{name}, {dims}D, axis {a}: fill_f64"
                    );
                }
            }
            for dx in [1.0 / 64.0, 0.5] {
                let size = [
                    [512, 1, 1, 1],
                    [256, 12, 1, 1],
                    [128, 8, 9, 1],
                    [64, 8, 9, 9],
                ][dims - 1];
                let step = [dx, 0.5, 0.5, 0.5];
                let grid = grid_of(dims, [0.25; 4], step, size);
                let want = grid.values(src, false);
                for a in 0..dims {
                    let mut origin = [0.25; 4];
                    origin[a] += 4.0;
                    let got = grid_of(dims, origin, step, size).values(src, true);
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "{name}, {dims}D grid, x step {dx}, axis {a}"
                    );
                }
                // Along x within the grid: samples 4/dx apart.
                let period = (4.0 / dx) as usize;
                let nx = size[0];
                for (r, row) in want.chunks(nx).enumerate() {
                    for i in 0..nx.saturating_sub(period) {
                        assert_eq!(
                            row[i].to_bits(),
                            row[i + period].to_bits(),
                            "{name}, {dims}D, row {r}, x sample {i}"
                        );
                    }
                }
            }
        }
    }
}

/// Coordinates `pts` with axis `a` shifted by `k` periods `p`, and the
/// indices where that shift is exact (most random `f32`s moved to a larger
/// binade lose low bits; there the claim does not apply).
fn shifted_exactly<T: Copy + Into<f64>>(
    pts: &[Vec<T>],
    a: usize,
    k: f64,
    p: f64,
    narrow: impl Fn(f64) -> T,
) -> (Vec<Vec<T>>, Vec<usize>) {
    let mut shifted = pts.to_vec();
    shifted[a] = pts[a].iter().map(|&v| narrow(v.into() + k * p)).collect();
    let exact = (0..pts[a].len())
        .filter(|&i| shifted[a][i].into() - pts[a][i].into() == k * p)
        .collect();
    (shifted, exact)
}

/// Periodic fractals repeat exactly at any coordinates, not only at the
/// friendly ones above: random `f32` and `f64` coordinates with full
/// mantissas within ±2.5 periods (and `f64` ones near ±10⁹ periods), periods
/// that are not powers of two, one axis left unperiodic, nested combinators
/// and a lacunarity of 3, shifted by whole periods wherever the shifted
/// coordinate is exact: `fillN` at every level, `noiseN`, `fillN_f64`, and
/// Fbm's derivatives. (Octaves scaled straight from `c` round `c · fᵢ`
/// differently from `(c + period) · fᵢ`: `noise2` differed by up to 4.4e-4.)
#[test]
fn periodic_fractals_repeat_exactly_at_any_coordinates() {
    const N: usize = 256;
    let perlin = |seed, p| Perlin::new(seed).with_period(p).unwrap();
    let cases: Vec<(&str, [u32; 4], DynSource)> = vec![
        (
            "Fbm<Perlin::new>",
            [5, 300, 7, 12],
            DynSource::new(Fbm::new(perlin(3, [5, 300, 7, 12])).octaves(6)),
        ),
        (
            "Ridged<Value::new> lacunarity 3",
            [64, 5, 300, 3],
            DynSource::new(
                Ridged::new(Value::new(4).with_period([64, 5, 300, 3]).unwrap())
                    .octaves(5)
                    .lacunarity(3.0),
            ),
        ),
        (
            "Billow<Perlin::permuted>",
            [300; 4],
            DynSource::new(
                Billow::new(Perlin::permuted(5).with_period([300; 4]).unwrap()).octaves(4),
            ),
        ),
        (
            "Turbulence<Perlin::new>, y and w unperiodic",
            [5, u32::MAX, 7, u32::MAX],
            DynSource::new(Turbulence::new(perlin(6, [5, u32::MAX, 7, u32::MAX])).octaves(4)),
        ),
        (
            "Fbm<Fbm<Perlin::new>>",
            [6, 10, 3, 5],
            DynSource::new(Fbm::new(Fbm::new(perlin(9, [6, 10, 3, 5])).octaves(3)).octaves(3)),
        ),
    ];
    let gradient = DynSource::differentiable(Fbm::new(perlin(3, [5, 300, 7, 12])).octaves(6));
    let levels = levels();
    let mut rng = Rng(83);
    for (name, periods, src) in &cases {
        for dims in 1..=4 {
            let pts: Vec<Vec<f32>> = (0..dims)
                .map(|a| {
                    let half = 2.5 * f64::from(periods[a].min(1000));
                    (0..N).map(|_| rng.uniform(-half, half) as f32).collect()
                })
                .collect();
            let far: Vec<Vec<f64>> = (0..dims)
                .map(|a| {
                    let p = f64::from(periods[a].min(1000));
                    (0..N)
                        .map(|i| match i % 2 {
                            0 => rng.uniform(-2.5 * p, 2.5 * p),
                            _ => rng.uniform(-1e9 * p, 1e9 * p),
                        })
                        .collect()
                })
                .collect();
            let base: Vec<Vec<f32>> = levels
                .iter()
                .map(|&l| fill_of(&src.clone().with_level(l).unwrap(), &pts))
                .collect();
            let mut base64 = vec![0.0f32; N];
            src.fill_f64_dyn(&borrow64(&far), &mut base64).unwrap();
            for a in (0..dims).filter(|&a| periods[a] != u32::MAX) {
                let p = f64::from(periods[a]);
                for k in [-2.0, 1.0, 3.0] {
                    let context = format!("{name}, {dims}D, axis {a}, {k} periods");
                    let (shifted, exact) = shifted_exactly(&pts, a, k, p, |v| v as f32);
                    assert!(
                        exact.len() >= N / 8,
                        "{context}: {} exact shifts",
                        exact.len()
                    );
                    for (l, &level) in levels.iter().enumerate() {
                        let got = fill_of(&src.clone().with_level(level).unwrap(), &shifted);
                        for &i in &exact {
                            assert_eq!(
                                got[i].to_bits(),
                                base[l][i].to_bits(),
                                "{context}, {level:?}: fill at {} and {}",
                                show(&point(&borrow(&pts), i)),
                                show(&point(&borrow(&shifted), i)),
                            );
                        }
                    }
                    for &i in exact.iter().take(16) {
                        let c = point(&borrow(&shifted), i);
                        assert_eq!(
                            src.noise_dyn(&c).unwrap().to_bits(),
                            base[0][i].to_bits(),
                            "{context}: noise at {}",
                            show(&c)
                        );
                    }
                    let (shifted, exact) = shifted_exactly(&far, a, k, p, |v| v);
                    assert!(
                        exact.len() >= N / 8,
                        "{context}: {} exact f64 shifts",
                        exact.len()
                    );
                    let mut got = vec![0.0f32; N];
                    src.fill_f64_dyn(&borrow64(&shifted), &mut got).unwrap();
                    for &i in &exact {
                        assert_eq!(
                            got[i].to_bits(),
                            base64[i].to_bits(),
                            "{context}: fill_f64 at {:?} and {:?}",
                            point_f64(&far, i),
                            point_f64(&shifted, i),
                        );
                    }
                    if *name == "Fbm<Perlin::new>" {
                        let (shifted, exact) = shifted_exactly(&pts, a, k, p, |v| v as f32);
                        let fill_grad = |inputs: &[Vec<f32>]| {
                            let mut out = vec![0.0f32; N];
                            let mut grad = vec![vec![0.0f32; N]; dims];
                            let mut slices: Vec<&mut [f32]> =
                                grad.iter_mut().map(Vec::as_mut_slice).collect();
                            gradient
                                .fill_grad_dyn(&borrow(inputs), &mut out, &mut slices)
                                .unwrap();
                            (out, grad)
                        };
                        let (want, want_grad) = fill_grad(&pts);
                        let (got, got_grad) = fill_grad(&shifted);
                        for &i in &exact {
                            assert_eq!(
                                got[i].to_bits(),
                                want[i].to_bits(),
                                "{context}: fill_grad value"
                            );
                            for d in 0..dims {
                                assert_eq!(
                                    got_grad[d][i].to_bits(),
                                    want_grad[d][i].to_bits(),
                                    "{context}: fill_grad d/d{d}"
                                );
                            }
                            let (v, g) = grad_at(&gradient, &point(&borrow(&shifted), i));
                            assert_eq!(
                                (v.to_bits(), bits(&g)),
                                (want[i].to_bits(), bits(&point(&borrow(&want_grad), i)))
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Point `i` of `f64` coordinate slices.
fn point_f64(inputs: &[Vec<f64>], i: usize) -> Vec<f64> {
    inputs.iter().map(|s| s[i]).collect()
}

// ------------------------------------------------------------- decorrelation

/// Perlin is 0 at every lattice point; its octaves would all be 0 at the
/// origin if they lined up. `Fbm` with 2 or more octaves is not 0 there (nor
/// at other lattice points), for many tables, in every dimension.
#[test]
fn fbm_is_not_zero_at_the_origin() {
    for seed in 0..40 {
        let p = Perlin::permuted(seed);
        for dims in 1..=4 {
            let origin = vec![0.0f32; dims];
            assert_eq!(DynSource::new(p.clone()).noise_dyn(&origin).unwrap(), 0.0);
            for octaves in [2, 3, 6] {
                let f = DynSource::new(Fbm::new(p.clone()).octaves(octaves));
                let v = f.noise_dyn(&origin).unwrap();
                assert!(
                    v != 0.0 && v.is_finite(),
                    "seed {seed}, {dims}D, {octaves} octaves: {v}"
                );
                let lattice: Vec<f32> = (0..dims).map(|a| (seed as f32) - 3.0 * a as f32).collect();
                assert!(
                    f.noise_dyn(&lattice).unwrap() != 0.0,
                    "seed {seed}, {dims}D at {lattice:?}"
                );
            }
        }
    }
}

/// `Fbm` is not the naive sum Σ aᵢ·Perlin(c·fᵢ) without offsets (computed
/// here in `f64` from the library's Perlin at the scaled points): at
/// lattice points the naive sum is exactly 0 and `Fbm` is not; at random
/// points they differ by more than 1e-3 almost everywhere (≥ 90 %), far
/// beyond any rounding.
#[test]
fn octave_offsets_make_fbm_differ_from_the_naive_sum() {
    let mut rng = Rng(91);
    for seed in [1u64, 2, 3] {
        let p = DynSource::new(Perlin::permuted(seed));
        let fbm = DynSource::new(Fbm::new(Perlin::permuted(seed)).octaves(5));
        for dims in 1..=4 {
            let mut pts: Vec<Vec<f64>> = (0..dims)
                .map(|_| (0..1000).map(|_| rng.uniform(-100.0, 100.0)).collect())
                .collect();
            for axis in pts.iter_mut() {
                axis.extend((0..50).map(|_| rng.uniform(-100.0, 100.0).round()));
            }
            let n = pts[0].len();
            let mut naive = vec![0.0f64; n];
            for i in 0..5 {
                let f = 2f64.powi(i);
                let scaled: Vec<Vec<f64>> = pts
                    .iter()
                    .map(|a| a.iter().map(|v| v * f).collect())
                    .collect();
                let mut out = vec![0.0f32; n];
                p.fill_f64_dyn(&borrow64(&scaled), &mut out).unwrap();
                for (s, o) in naive.iter_mut().zip(&out) {
                    *s += 0.5f64.powi(i) * f64::from(*o);
                }
            }
            let mut got = vec![0.0f32; n];
            fbm.fill_f64_dyn(&borrow64(&pts), &mut got).unwrap();
            let differ = (0..1000)
                .filter(|&i| (f64::from(got[i]) - naive[i]).abs() > 1e-3)
                .count();
            assert!(
                differ >= 900,
                "seed {seed}, {dims}D: only {differ} of 1000 differ"
            );
            for i in 1000..n {
                assert_eq!(naive[i], 0.0);
                assert!(
                    got[i] != 0.0,
                    "seed {seed}, {dims}D: Fbm is 0 at a lattice point"
                );
            }
        }
    }
}

/// Settings whose octave amplitudes, frequencies or bounds overflow `f32`
/// (persistence 1e30 over 32 octaves; lacunarity 1e30 over 3; persistence
/// `f32::MAX` over 2, whose bounds overflow while each amplitude is finite; with
/// and without `normalize`) are refused by `check`, the `try_` setters and
/// every batch method with [`Error::FractalOverflow`]; and every accepted
/// setting in a sweep of large factors has finite bounds and finite values.
#[test]
fn overflowing_settings_are_refused_and_accepted_ones_have_finite_bounds() {
    each_combinator!(Perlin::permuted(1), |c| {
        let name = format!("{c:?}").split('(').next().unwrap().to_string();
        for normalize in [false, true] {
            for (octaves, lacunarity, persistence, what) in [
                (32, 2.0f32, 1e30f32, "amplitude"),
                (3, 1e30, 0.5, "frequency"),
                (2, 2.0, f32::MAX, "bounds"),
            ] {
                let bad = c
                    .clone()
                    .octaves(octaves)
                    .lacunarity(lacunarity)
                    .persistence(persistence)
                    .normalize(normalize);
                let want = Error::FractalOverflow {
                    what,
                    octaves,
                    lacunarity,
                    persistence,
                };
                if name == "Marble" && what == "bounds" {
                    // Marble's bounds are [-1, 1] whatever its sum.
                    continue;
                }
                let context = format!("{name}, {octaves} octaves, l {lacunarity}, p {persistence}");
                assert_refused(&bad, &want, &context);
                let (lo, hi) = bad.bounds(3);
                assert!(lo.is_finite() && hi.is_finite(), "{context}: bounds");
                assert!(want.to_string().contains("overflows f32"), "{want}");
                let err = c
                    .clone()
                    .octaves(octaves)
                    .lacunarity(lacunarity)
                    .try_persistence(persistence)
                    .unwrap_err();
                assert_eq!(err, want, "{context}: try_persistence");
            }
        }
        // A sweep: whatever is accepted has finite bounds and values.
        for octaves in [1, 8, 20, 32] {
            for factor in [0.5f32, 4.0, 1e3, 1e9, 1e20] {
                for lacunarity in [2.0f32, factor] {
                    let f = c
                        .clone()
                        .octaves(octaves)
                        .lacunarity(lacunarity)
                        .persistence(factor);
                    if f.check().is_err() {
                        continue;
                    }
                    for dims in 1..=4 {
                        let (lo, hi) = f.bounds(dims);
                        assert!(lo.is_finite() && hi.is_finite(), "{name} bounds");
                        let xs = vec![vec![0.0f32, 0.3, -17.25, 1e6]; dims];
                        let mut out = vec![0.0f32; 4];
                        DynSource::new(f.clone())
                            .fill_dyn(&borrow(&xs), &mut out)
                            .unwrap();
                        for v in out {
                            assert!(lo <= v && v <= hi, "{name}: {v} outside {lo}..{hi}");
                        }
                    }
                }
            }
        }
    });
}
