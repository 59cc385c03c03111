//! Operators (`Map`, `Combine`, `Blend`) and domain warp (`Warp`): each
//! against an oracle built from its inputs' own outputs (computed by
//! separate calls), grids against their inputs' grids, every level against
//! the scalar path, bounds by sampling, and parameter errors.

use crate::common::levels;
use noisefield::{
    Blend, Combine, Error, Fbm, Grid2, Level, MAX_CONTROL_POINTS, Map, Perlin, Ridged, Source,
    Value, Warp,
};

/// 4099 pseudo-random points in [-40, 40]³ (a tail after whole packs).
fn points() -> [Vec<f32>; 3] {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 40) as f32 / (1u64 << 24) as f32) * 80.0 - 40.0
    };
    let n = 4099;
    [
        (0..n).map(|_| next()).collect(),
        (0..n).map(|_| next()).collect(),
        (0..n).map(|_| next()).collect(),
    ]
}

fn fill3(src: &impl Source, p: &[Vec<f32>; 3]) -> Vec<f32> {
    let mut out = vec![0.0; p[0].len()];
    src.fill([&p[0], &p[1], &p[2]], &mut out).unwrap();
    out
}

fn fill3_f64(src: &impl Source, p: &[Vec<f64>; 3]) -> Vec<f32> {
    let mut out = vec![0.0; p[0].len()];
    src.fill_f64([&p[0], &p[1], &p[2]], &mut out).unwrap();
    out
}

fn same_bits(a: &[f32], b: &[f32], what: &str) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.to_bits(), y.to_bits(), "{what}: sample {i}: {x} vs {y}");
    }
}

type Binary = (
    &'static str,
    Combine<Fbm<Perlin>, Perlin>,
    fn(f32, f32) -> f32,
);
type Unary = (&'static str, Map<Fbm<Perlin>>, fn(f32) -> f32);
type Sampled = dyn Fn(&[Vec<f32>; 3]) -> (Vec<f32>, (f32, f32));

fn a() -> Fbm<Perlin> {
    Fbm::new(Perlin::new(1)).octaves(3)
}
fn b() -> Perlin {
    Perlin::new(2)
}

/// `op(a, b)` of the inputs' own outputs, in f32 as the docs define it.
#[test]
fn binary_operators_are_their_formula_on_the_inputs_outputs() {
    let p = points();
    let (va, vb) = (fill3(&a(), &p), fill3(&b(), &p));
    let cases: [Binary; 4] = [
        ("add", Combine::add(a(), b()), |x, y| x + y),
        ("multiply", Combine::multiply(a(), b()), |x, y| x * y),
        (
            "min",
            Combine::min(a(), b()),
            |x, y| if x < y { x } else { y },
        ),
        (
            "max",
            Combine::max(a(), b()),
            |x, y| if x > y { x } else { y },
        ),
    ];
    for (name, op, f) in cases {
        let want: Vec<f32> = va.iter().zip(&vb).map(|(&x, &y)| f(x, y)).collect();
        same_bits(&fill3(&op, &p), &want, name);
        // One point at a time (scalar) too.
        assert_eq!(
            op.noise([p[0][5], p[1][5], p[2][5]]).to_bits(),
            want[5].to_bits(),
            "{name}"
        );
    }
}

#[test]
fn simple_maps_are_their_formula_on_the_input() {
    let p = points();
    let va = fill3(&a(), &p);
    let cases: [Unary; 3] = [
        ("scale_bias", Map::scale_bias(a(), 2.5, -0.25), |x| {
            x * 2.5 + -0.25
        }),
        ("abs", Map::abs(a()), f32::abs),
        ("clamp", Map::clamp(a(), -0.2, 0.3), |x| x.clamp(-0.2, 0.3)),
    ];
    for (name, op, f) in cases {
        let want: Vec<f32> = va.iter().map(|&x| f(x)).collect();
        same_bits(&fill3(&op, &p), &want, name);
    }
}

/// The piecewise maps against an f64 evaluation of their definition.
#[test]
fn terrace_and_curve_follow_their_control_points() {
    let p = points();
    let va = fill3(&a(), &p);
    // Unsorted, with a repeat: sorted and deduplicated by the operator.
    let steps = [0.5f32, -0.6, 0.0, -0.2, 0.5];
    let terrace = fill3(&Map::terrace(a(), &steps), &p);
    let sorted = [-0.6f64, -0.2, 0.0, 0.5];
    let curve_points = [(0.4f32, -1.0f32), (-0.5, 0.25), (0.0, 0.75), (0.1, 0.7)];
    let curve = fill3(&Map::curve(a(), &curve_points), &p);
    let mut cp: Vec<(f64, f64)> = curve_points
        .iter()
        .map(|&(x, y)| (f64::from(x), f64::from(y)))
        .collect();
    cp.sort_by(|u, v| u.0.total_cmp(&v.0));
    let mut inside = 0;
    for (i, &v) in va.iter().enumerate() {
        let v = f64::from(v);
        let t_want = if v <= sorted[0] {
            sorted[0]
        } else if v >= sorted[3] {
            sorted[3]
        } else {
            inside += 1;
            let j = sorted.windows(2).position(|w| v < w[1]).unwrap();
            let (lo, hi) = (sorted[j], sorted[j + 1]);
            let t = (v - lo) / (hi - lo);
            lo + (hi - lo) * t * t
        };
        assert!(
            (f64::from(terrace[i]) - t_want).abs() < 1e-6,
            "terrace at {v}: {} vs {t_want}",
            terrace[i]
        );
        let c_want = if v <= cp[0].0 {
            cp[0].1
        } else if v >= cp[3].0 {
            cp[3].1
        } else {
            let j = cp.windows(2).position(|w| v < w[1].0).unwrap();
            let ((x0, y0), (x1, y1)) = (cp[j], cp[j + 1]);
            y0 + (v - x0) * (y1 - y0) / (x1 - x0)
        };
        assert!(
            (f64::from(curve[i]) - c_want).abs() < 1e-6,
            "curve at {v}: {} vs {c_want}",
            curve[i]
        );
    }
    assert!(inside > 1000, "too few points inside the terrace: {inside}");
    // Exactly the control points' outputs at the ends.
    let lo = Map::terrace(Value::new(3), &[0.0, 2.0]);
    assert!(Source::bounds(&lo, 3).0 >= 0.0);
}

#[test]
fn blend_and_select_mix_by_the_control() {
    let p = points();
    let c = || Perlin::new(9);
    let (va, vb, vc) = (fill3(&a(), &p), fill3(&b(), &p), fill3(&c(), &p));
    let blend = fill3(&Blend::new(a(), b(), c()), &p);
    let soft = fill3(&Blend::select(a(), b(), c(), 0.1, 0.2), &p);
    let hard = fill3(&Blend::select(a(), b(), c(), 0.1, 0.0), &p);
    let (mut low, mut high) = (0, 0);
    for i in 0..va.len() {
        let (x, y, k) = (f64::from(va[i]), f64::from(vb[i]), f64::from(vc[i]));
        let t = (k * 0.5 + 0.5).clamp(0.0, 1.0);
        let want = (1.0 - t) * x + t * y;
        assert!((f64::from(blend[i]) - want).abs() < 1e-6, "blend {i}");
        let r = ((k - (0.1f32 - 0.2f32) as f64) / 0.4).clamp(0.0, 1.0);
        let t = r * r * (3.0 - 2.0 * r);
        let want = (1.0 - t) * x + t * y;
        assert!(
            (f64::from(soft[i]) - want).abs() < 1e-5,
            "select {i}: {} vs {want}",
            soft[i]
        );
        // The hard select is exactly one input.
        if vc[i] > 0.1 {
            high += 1;
            assert_eq!(hard[i], vb[i], "hard select {i}");
        } else {
            low += 1;
            assert_eq!(hard[i], va[i], "hard select {i}");
        }
    }
    assert!(low > 500 && high > 500, "{low} {high}");
}

/// Every operator and the warp at every level equal the scalar level, on
/// the same batches (lengths with tails) and on adversarial coordinates.
#[test]
fn operators_and_warp_agree_across_levels() {
    let p = points();
    let mut adversarial = p.clone();
    for (i, v) in [f32::NAN, f32::INFINITY, -0.0, 1e30, -3.0e9, 2.0e-40]
        .iter()
        .enumerate()
    {
        adversarial[i % 3][i] = *v;
    }
    let graph = || {
        let warp = Warp::new(
            Ridged::new(Perlin::new(4)).octaves(2),
            Fbm::new(Perlin::new(5)).octaves(2),
        )
        .amplitude(0.75)
        .iterations(2);
        let mix = Blend::select(
            warp,
            Map::terrace(b(), &[-0.5, 0.0, 0.5]),
            Perlin::new(6),
            0.0,
            0.1,
        );
        Map::curve(
            Combine::max(mix, Map::scale_bias(a(), 0.5, 0.1)),
            &[(-1.0, -1.0), (0.2, 0.1), (1.0, 1.0)],
        )
    };
    for pts in [&p, &adversarial] {
        let scalar = fill3(&graph().with_level(Level::Scalar).unwrap(), pts);
        let p64: [Vec<f64>; 3] =
            std::array::from_fn(|a| pts[a].iter().map(|&v| f64::from(v)).collect());
        let scalar64 = fill3_f64(&graph().with_level(Level::Scalar).unwrap(), &p64);
        for level in levels() {
            let g = graph().with_level(level).unwrap();
            same_bits(&fill3(&g, pts), &scalar, level.name());
            same_bits(&fill3_f64(&g, &p64), &scalar64, level.name());
        }
    }
}

/// The warp is the source at displaced coordinates: `c + amplitude · w(c +
/// oₐ)`, computed here in f64 from the warp field's own outputs.
#[test]
fn warp_samples_the_source_at_displaced_points() {
    let p = points();
    let p64: [Vec<f64>; 3] = std::array::from_fn(|a| p[a].iter().map(|&v| f64::from(v)).collect());
    let source = Fbm::new(Perlin::new(11)).octaves(4);
    let field = Perlin::new(12);
    let amplitude = 1.5f32;
    let offsets = [0.0, 41.375, 83.906_25];
    let mut moved = p64.clone();
    for a in 0..3 {
        let at: [Vec<f64>; 3] =
            std::array::from_fn(|d| p64[d].iter().map(|&v| v + offsets[a]).collect());
        let w = fill3_f64(&field, &at);
        for (m, (&c, &w)) in moved[a].iter_mut().zip(p64[a].iter().zip(&w)) {
            *m = c + f64::from(amplitude) * f64::from(w);
        }
    }
    let want = fill3_f64(&source, &moved);
    let warp = Warp::new(source.clone(), field.clone()).amplitude(amplitude);
    same_bits(&fill3_f64(&warp, &p64), &want, "warp f64");
    // It moves points: most samples differ from the unwarped source.
    let plain = fill3_f64(&source, &p64);
    let differ = plain.iter().zip(&want).filter(|(x, y)| x != y).count();
    assert!(differ > p64[0].len() * 9 / 10, "{differ}");
}

/// An operator's grid is the operator on its inputs' grids, bit for bit
/// (row paths included), on one thread and on the pool; a warp's grid is
/// `fill_f64` at the grid's points.
#[test]
fn grids_combine_the_inputs_grids() {
    let grid = Grid2::new([0.3, -7.1], [0.05, 0.07], [301, 77]);
    let len = 301 * 77;
    let run = |src: &dyn Fn(&mut [f32], bool)| {
        let (mut one, mut par) = (vec![0.0; len], vec![0.0; len]);
        src(&mut one, false);
        src(&mut par, true);
        same_bits(&one, &par, "threads");
        one
    };
    let grid_of = |s: &dyn Fn(&mut [f32], bool)| run(s);
    let va = grid_of(&|o: &mut [f32], par| {
        if par {
            a().fill_grid_par(&grid, o).unwrap()
        } else {
            a().fill_grid(&grid, o).unwrap()
        }
    });
    let vb = grid_of(&|o: &mut [f32], par| {
        if par {
            b().fill_grid_par(&grid, o).unwrap()
        } else {
            b().fill_grid(&grid, o).unwrap()
        }
    });
    let sum = Combine::add(a(), b());
    let got = grid_of(&|o: &mut [f32], par| {
        if par {
            sum.fill_grid_par(&grid, o).unwrap()
        } else {
            sum.fill_grid(&grid, o).unwrap()
        }
    });
    let want: Vec<f32> = va.iter().zip(&vb).map(|(x, y)| x + y).collect();
    same_bits(&got, &want, "add grid");
    let terrace = Map::terrace(a(), &[-0.3, 0.0, 0.4]);
    let got = grid_of(&|o: &mut [f32], par| {
        if par {
            terrace.fill_grid_par(&grid, o).unwrap()
        } else {
            terrace.fill_grid(&grid, o).unwrap()
        }
    });
    let sorted = [-0.3f64, 0.0, 0.4];
    for (i, (&t, &v)) in got.iter().zip(&va).enumerate() {
        let v = f64::from(v).clamp(sorted[0], sorted[2]);
        let j = if v < sorted[1] { 0 } else { 1 };
        let u = ((v - sorted[j]) / (sorted[j + 1] - sorted[j])).min(1.0);
        let want = sorted[j] + (sorted[j + 1] - sorted[j]) * u * u;
        assert!(
            (f64::from(t) - want).abs() < 1e-6,
            "terrace grid {i}: {t} vs {want}"
        );
    }

    // Warp grid == fill2_f64 at the grid's sample positions.
    let warp = Warp::new(a(), b()).amplitude(0.5);
    let got = grid_of(&|o: &mut [f32], par| {
        if par {
            warp.fill_grid_par(&grid, o).unwrap()
        } else {
            warp.fill_grid(&grid, o).unwrap()
        }
    });
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for j in 0..77 {
        for i in 0..301 {
            xs.push(grid.coord(0, i));
            ys.push(grid.coord(1, j));
        }
    }
    let mut want = vec![0.0; len];
    warp.fill_f64([&xs, &ys], &mut want).unwrap();
    same_bits(&got, &want, "warp grid");
}

/// Outputs stay inside `bounds` (sampled), for every operator.
#[test]
fn bounds_hold() {
    let p = points();
    let check = |name: &str, src: &Sampled| {
        let (v, (lo, hi)) = src(&p);
        for x in v {
            assert!(lo <= x && x <= hi, "{name}: {x} outside [{lo}, {hi}]");
        }
    };
    check("add", &|p| {
        let s = Combine::add(a(), b());
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("multiply", &|p| {
        let s = Combine::multiply(a(), Map::scale_bias(b(), -3.0, 1.0));
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("min", &|p| {
        let s = Combine::min(a(), b());
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("abs", &|p| {
        let s = Map::abs(a());
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("clamp", &|p| {
        let s = Map::clamp(a(), -0.1, 0.1);
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("terrace", &|p| {
        let s = Map::terrace(a(), &[-0.1, 0.2]);
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("curve", &|p| {
        let s = Map::curve(a(), &[(-0.1, 2.0), (0.2, -3.0)]);
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("blend", &|p| {
        let s = Blend::new(a(), Map::scale_bias(b(), 4.0, 0.0), Perlin::new(3));
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    check("warp", &|p| {
        let s = Warp::new(a(), b()).amplitude(3.0);
        (fill3(&s, p), Source::bounds(&s, 3))
    });
    let s = Map::clamp(a(), -0.1, 0.1);
    assert_eq!(Source::bounds(&s, 3), (-0.1, 0.1));
}

/// Bad parameters: a typed error from `check` and every batch call, with
/// nothing written; one-point calls give NaN.
#[test]
fn bad_parameters_are_errors_before_any_work() {
    let too_many: Vec<f32> = (0..=MAX_CONTROL_POINTS).map(|i| i as f32).collect();
    let p = points();
    let n = p[0].len();
    let expect = |name: &str,
                  r: Result<(), Error>,
                  batch: Result<(), Error>,
                  out: &[f32],
                  point: f32,
                  needle: &str| {
        let e = r.expect_err(name);
        assert_eq!(batch.expect_err(name), e, "{name}");
        assert!(
            out.iter().all(|v| v.to_bits() == 0x7fa5_a5a5),
            "{name}: output written"
        );
        assert!(point.is_nan(), "{name}");
        assert!(e.to_string().contains(needle), "{name}: {e}");
    };
    macro_rules! case {
        ($name:expr, $src:expr, $needle:expr) => {{
            let s = $src;
            let mut out = vec![f32::from_bits(0x7fa5_a5a5); n];
            let batch = s.fill([&p[0], &p[1], &p[2]], &mut out);
            expect(
                $name,
                s.check(),
                batch,
                &out,
                s.noise([0.5, 0.5, 0.5]),
                $needle,
            );
        }};
    }
    case!("scale", Map::scale_bias(b(), f32::NAN, 0.0), "scale is NaN");
    case!(
        "clamp",
        Map::clamp(b(), 1.0, -1.0),
        "lower bound 1 is above the upper bound -1"
    );
    case!("terrace few", Map::terrace(b(), &[0.5, 0.5]), "at least 2");
    case!("terrace many", Map::terrace(b(), &too_many), "at most 32");
    case!(
        "terrace inf",
        Map::terrace(b(), &[0.0, f32::INFINITY]),
        "terrace point is inf"
    );
    case!(
        "curve twice",
        Map::curve(b(), &[(0.0, 1.0), (0.0, 2.0), (1.0, 0.0)]),
        "appears twice"
    );
    case!(
        "select edge",
        Blend::select(b(), b(), b(), 0.0, -1.0),
        "negative"
    );
    case!(
        "warp amplitude",
        Warp::new(b(), b()).amplitude(f32::INFINITY),
        "warp amplitude is inf"
    );
    case!(
        "warp iterations",
        Warp::new(b(), b()).iterations(0),
        "1 to 8"
    );
    // An error inside an input reaches the top.
    case!(
        "nested",
        Combine::add(b(), Fbm::new(Map::clamp(b(), 2.0, 1.0))),
        "above the upper bound"
    );
    // And under a fractal.
    case!(
        "under fbm",
        Fbm::new(Warp::new(b(), b()).iterations(9)),
        "1 to 8"
    );
}

/// A warp, operators and a fractal over them compose: a fractal over a
/// warp gives the same bits at every level, as grids and as batches.
#[test]
fn fractals_over_operators_agree_across_levels_and_grids() {
    let g = || {
        Fbm::new(Combine::add(
            Warp::new(b(), Perlin::new(3)).amplitude(0.3),
            Map::abs(Value::new(4)),
        ))
        .octaves(3)
    };
    let grid = Grid2::new([1.5, -2.0], [0.9, 1.1], [70, 33]);
    let len = 70 * 33;
    let mut scalar = vec![0.0; len];
    g().with_level(Level::Scalar)
        .unwrap()
        .fill_grid(&grid, &mut scalar)
        .unwrap();
    for level in levels() {
        let mut out = vec![0.0; len];
        g().with_level(level)
            .unwrap()
            .fill_grid_par(&grid, &mut out)
            .unwrap();
        same_bits(&out, &scalar, level.name());
    }
    // A coarse grid (x step 0.9) is `fill2_f64` at its points.
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for j in 0..33 {
        for i in 0..70 {
            xs.push(grid.coord(0, i));
            ys.push(grid.coord(1, j));
        }
    }
    let mut want = vec![0.0; len];
    g().fill_f64([&xs, &ys], &mut want).unwrap();
    same_bits(&scalar, &want, "coarse grid vs f64 points");
}
