//! Derivatives of the operators (`Map`, `Combine`, `Blend`) and the domain
//! warp (`Warp`, 1 to 3 iterations) over `Perlin` and `Fbm<Perlin>`:
//! against central differences of the `f64` point path (`fillN_f64`), the
//! simple rules against their documented formula on the inputs' own
//! gradients, the values bit-identical to the plain methods, the
//! derivatives the same bits at every level, one point or a batch, and
//! grids as `gradient.rs` checks `Fbm`'s.

use crate::common::{
    AnyGrid, Rng, SENTINEL_BITS, bits, borrow, borrow64, grad_at, levels, point, show, table_inputs,
};
use noisefield::prelude::*;
use noisefield::{Blend, Combine, Differentiable, DynSource, Fbm, Map, Perlin, Warp};

fn a() -> Fbm<Perlin> {
    Fbm::new(Perlin::new(1)).octaves(3)
}
fn b() -> Perlin {
    Perlin::new(2)
}
/// A control that is clamped on part of space (|1.5·Perlin| reaches past 1).
fn control() -> Map<Perlin> {
    Map::scale_bias(Perlin::new(9), 1.5, 0.0)
}

/// How far (in value) a kept point stays from every kink of its case:
/// an input's value moves by at most h·|∇| ≲ 2e-3 · 10 between `c ± h`
/// (|∇| of `Fbm<Perlin>` with 3 octaves stays below 3 · 3), so no kink lies
/// between the samples of a central difference.
const MARGIN: f32 = 0.05;

/// Whether `v` is within [`MARGIN`] of one of `kinks`.
fn near(v: f32, kinks: &[f32]) -> bool {
    kinks.iter().any(|k| (v - k).abs() < MARGIN)
}

/// One field under test, the sources whose values at a point decide
/// whether a kink is near, and that decision (`true`: skip the point).
struct Case {
    name: String,
    field: DynSource,
    inputs: Vec<DynSource>,
    near_kink: fn(&[f32]) -> bool,
}

fn case(
    name: &str,
    field: impl Differentiable + 'static,
    inputs: Vec<DynSource>,
    near_kink: fn(&[f32]) -> bool,
) -> Case {
    Case {
        name: name.to_string(),
        field: DynSource::differentiable(field),
        inputs,
        near_kink,
    }
}

/// Every operator and warp, with its kinks.
fn cases() -> Vec<Case> {
    let smooth: fn(&[f32]) -> bool = |_| false;
    let terrace = [-0.6, -0.2, 0.0, 0.5];
    let curve = [(0.4, -1.0), (-0.5, 0.25), (0.0, 0.75), (0.1, 0.7)];
    let warp = |source: Fbm<Perlin>, iterations| {
        Warp::new(source, b()).amplitude(0.7).iterations(iterations)
    };
    vec![
        case(
            "scale_bias",
            Map::scale_bias(a(), 2.5, -0.25),
            vec![],
            smooth,
        ),
        case("abs", Map::abs(a()), vec![DynSource::new(a())], |v| {
            near(v[0], &[0.0])
        }),
        case(
            "abs of Perlin",
            Map::abs(b()),
            vec![DynSource::new(b())],
            |v| near(v[0], &[0.0]),
        ),
        case(
            "clamp",
            Map::clamp(a(), -0.2, 0.3),
            vec![DynSource::new(a())],
            |v| near(v[0], &[-0.2, 0.3]),
        ),
        case(
            "terrace",
            Map::terrace(a(), &terrace),
            vec![DynSource::new(a())],
            |v| near(v[0], &[-0.6, -0.2, 0.0, 0.5]),
        ),
        case(
            "curve",
            Map::curve(a(), &curve),
            vec![DynSource::new(a())],
            |v| near(v[0], &[-0.5, 0.0, 0.1, 0.4]),
        ),
        case("add", Combine::add(a(), b()), vec![], smooth),
        case("multiply", Combine::multiply(a(), b()), vec![], smooth),
        case(
            "min",
            Combine::min(a(), b()),
            vec![DynSource::new(a()), DynSource::new(b())],
            |v| near(v[0], &[v[1]]),
        ),
        case(
            "max",
            Combine::max(a(), b()),
            vec![DynSource::new(a()), DynSource::new(b())],
            |v| near(v[0], &[v[1]]),
        ),
        case(
            "blend",
            Blend::new(a(), b(), control()),
            vec![DynSource::new(control())],
            |v| near(v[0], &[-1.0, 1.0]),
        ),
        case(
            "select, edge 0.3",
            Blend::select(a(), b(), control(), 0.1, 0.3),
            vec![DynSource::new(control())],
            |v| near(v[0], &[-0.2, 0.4]),
        ),
        case(
            "select, hard",
            Blend::select(a(), b(), control(), 0.1, 0.0),
            vec![DynSource::new(control())],
            |v| near(v[0], &[0.1]),
        ),
        case("warp, 1 iteration", warp(a(), 1), vec![], smooth),
        case("warp, 2 iterations", warp(a(), 2), vec![], smooth),
        case("warp, 3 iterations", warp(a(), 3), vec![], smooth),
        case(
            "warp of Perlin by Fbm, 3 iterations",
            Warp::new(b(), Fbm::new(Perlin::new(5)).octaves(2))
                .amplitude(0.7)
                .iterations(3),
            vec![],
            smooth,
        ),
        case(
            "Fbm over multiply",
            Fbm::new(Combine::multiply(b(), Perlin::new(3))).octaves(2),
            vec![],
            smooth,
        ),
    ]
}

/// Random `f32` points in [−40, 40)ᴰ.
fn random_points(rng: &mut Rng, dims: usize, n: usize) -> Vec<Vec<f32>> {
    rng.points(dims, n, -40.0, 40.0)
}

fn fill_grad(src: &DynSource, pts: &[Vec<f32>]) -> (Vec<f32>, Vec<Vec<f32>>) {
    let n = pts[0].len();
    let mut out = vec![f32::from_bits(SENTINEL_BITS); n];
    let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); n]; pts.len()];
    {
        let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
        src.fill_grad_dyn(&borrow(pts), &mut out, &mut g).unwrap();
    }
    (out, grad)
}

fn fill_f64(src: &DynSource, pts: &[Vec<f64>]) -> Vec<f32> {
    let mut out = vec![0.0f32; pts[0].len()];
    src.fill_f64_dyn(&borrow64(pts), &mut out).unwrap();
    out
}

/// The larger step of the central differences (in lattice cells); the
/// other is half of it.
const H: f64 = 2e-3;

/// The central difference along `axis` with step `h`, from `fillN_f64`.
fn central(src: &DynSource, wide: &[Vec<f64>], axis: usize, h: f64) -> Vec<f64> {
    let mut up = wide.to_vec();
    let mut down = wide.to_vec();
    up[axis].iter_mut().for_each(|v| *v += h);
    down[axis].iter_mut().for_each(|v| *v -= h);
    let (fu, fd) = (fill_f64(src, &up), fill_f64(src, &down));
    fu.iter()
        .zip(&fd)
        .map(|(&u, &d)| (f64::from(u) - f64::from(d)) / (2.0 * h))
        .collect()
}

/// The derivative estimate and its tolerance from central differences
/// `d1` (step h) and `d2` (step h/2).
///
/// A central difference's error is h²/6·f‴ + O(h⁴) (truncation) plus up to
/// ε/h (ε: the `f32` rounding of one value of the graph, ≲ 1e-6 here: a
/// few ulps of values ≲ 2 and of the inputs'). Through a warp f‴ reaches
/// 1e5 (3 octaves up to frequency 4, composed with displacements whose
/// slopes reach 2), so no fixed tolerance fits every point; instead
/// Richardson's `(4·d2 − d1)/3` cancels the h² term, and `|d1 − d2|`
/// (= ¾·h²/6·|f‴|, three times `d2`'s own truncation error) bounds what is
/// left. The rest: ε/h ≈ 1e-3 of noise (`2e-3`), and the analytic
/// derivative's own `f32` error (≲ 1e-5 relative, `2e-3·|slope|` is far
/// above it). Where f‴ is small (almost everywhere) the tolerance is a few
/// 1e-3; a wrong formula (a dropped Jacobian or product term, a sign, a
/// missing `(b − a)·t′` term) is off by about the size of a term, 0.1 to
/// several units: [`mutants`] checks that such errors fail (wherever the
/// dropped term is not small).
fn estimate(d1: f64, d2: f64) -> (f64, f64) {
    let richardson = (4.0 * d2 - d1) / 3.0;
    (richardson, 2e-3 + 2e-3 * richardson.abs() + (d1 - d2).abs())
}

/// Every case in 2D and 3D: the analytic derivatives at random points
/// away from kinks (see [`MARGIN`]) against central differences of the
/// `f64` point path ([`estimate`]). Each case keeps most of its points,
/// and the wrong formulas of [`mutants`] fail at more than a fifth of
/// them (the report prints how many; typically most).
#[test]
fn derivatives_match_central_differences() {
    let mut rng = Rng(71);
    let mut report = Vec::new();
    for case in cases() {
        for dims in [2, 3] {
            let n = 400;
            let pts = random_points(&mut rng, dims, n);
            let (_, grad) = fill_grad(&case.field, &pts);
            let wide: Vec<Vec<f64>> = pts
                .iter()
                .map(|s| s.iter().map(|&v| f64::from(v)).collect())
                .collect();
            let input_values: Vec<Vec<f32>> =
                case.inputs.iter().map(|s| fill_f64(s, &wide)).collect();
            let keep: Vec<bool> = (0..n)
                .map(|i| {
                    let v: Vec<f32> = input_values.iter().map(|x| x[i]).collect();
                    !(case.near_kink)(&v)
                })
                .collect();
            let kept = keep.iter().filter(|&&k| k).count();
            assert!(
                kept >= n / 2,
                "{}, {dims}D: only {kept} points kept",
                case.name
            );
            let wrong = mutants(&case.name, &pts, &grad);
            let mut wrong_fails = 0;
            let (mut worst, mut largest) = (0.0f64, 0.0f64);
            let mut estimates = vec![vec![(0.0, 0.0); n]; dims];
            for a in 0..dims {
                let d1 = central(&case.field, &wide, a, H);
                let d2 = central(&case.field, &wide, a, H / 2.0);
                for i in (0..n).filter(|&i| keep[i]) {
                    let (want, tol) = estimate(d1[i], d2[i]);
                    estimates[a][i] = (want, tol);
                    let got = f64::from(grad[a][i]);
                    let err = (got - want).abs();
                    assert!(
                        err <= tol,
                        "{}, {dims}D at {}: d/d{a} = {got:e}, central differences {want:e} \
                         (h: {:e}, h/2: {:e}; tolerance {tol:e})",
                        case.name,
                        show(&point(&borrow(&pts), i)),
                        d1[i],
                        d2[i]
                    );
                    worst = worst.max(err / tol);
                    largest = largest.max(want.abs());
                }
            }
            if let Some(wrong) = &wrong {
                for i in (0..n).filter(|&i| keep[i]) {
                    let fails = (0..dims).any(|a| {
                        let (want, tol) = estimates[a][i];
                        (wrong[a][i] - want).abs() > tol
                    });
                    wrong_fails += usize::from(fails);
                }
                // Where the dropped term is small (t′ = 0 outside a
                // select's ramp, a or ∇b near 0) a wrong formula passes.
                assert!(
                    wrong_fails * 5 > kept,
                    "{}, {dims}D: the wrong formula fails at only {wrong_fails} of {kept} points",
                    case.name
                );
            }
            report.push(format!(
                "{} {dims}D: {kept} points, |slope| ≤ {largest:.2}, error/tolerance ≤ {worst:.3}{}",
                case.name,
                match wrong {
                    Some(_) => format!(", a wrong formula fails at {wrong_fails}"),
                    None => String::new(),
                }
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
}

/// For some cases, the derivative a wrong formula would give (one term
/// dropped), built from the library's derivative (`grad`) and the inputs'
/// own values and gradients (separate calls): `multiply` without `a·∇b`,
/// `blend` and the soft `select` without `(b − a)·t′(c)·∇c`, and warps
/// without the Jacobian of the displacement (1 iteration: `∇source` at the
/// displaced point) or without the earlier iterations' Jacobians (2, 3
/// iterations: `∇source · (I + amplitude·∇w)` at the last displacement).
fn mutants(name: &str, pts: &[Vec<f32>], grad: &[Vec<f32>]) -> Option<Vec<Vec<f64>>> {
    let (dims, n) = (pts.len(), pts[0].len());
    let wide = |v: &[f32]| -> Vec<f64> { v.iter().map(|&x| f64::from(x)).collect() };
    match name {
        "multiply" => {
            let (va, _) = fill_grad(&DynSource::differentiable(a()), pts);
            let (_, gb) = fill_grad(&DynSource::differentiable(b()), pts);
            Some(
                (0..dims)
                    .map(|j| {
                        (0..n)
                            .map(|i| f64::from(grad[j][i]) - f64::from(va[i]) * f64::from(gb[j][i]))
                            .collect()
                    })
                    .collect(),
            )
        }
        "blend" | "select, edge 0.3" => {
            let (va, vb) = (
                fill_grad(&DynSource::differentiable(a()), pts).0,
                fill_grad(&DynSource::differentiable(b()), pts).0,
            );
            let (vc, gc) = fill_grad(&DynSource::differentiable(control()), pts);
            let slope: Vec<f64> = vc
                .iter()
                .map(|&c| {
                    let c = f64::from(c);
                    if name == "blend" {
                        if -1.0 < c && c < 1.0 { 0.5 } else { 0.0 }
                    } else {
                        // Ramp over [0.1 − 0.3, 0.1 + 0.3].
                        let r = (c + 0.2) / 0.6;
                        if 0.0 < r && r < 1.0 {
                            6.0 * r * (1.0 - r) / 0.6
                        } else {
                            0.0
                        }
                    }
                })
                .collect();
            Some(
                (0..dims)
                    .map(|j| {
                        (0..n)
                            .map(|i| {
                                let k = (f64::from(vb[i]) - f64::from(va[i])) * slope[i];
                                f64::from(grad[j][i]) - k * f64::from(gc[j][i])
                            })
                            .collect()
                    })
                    .collect(),
            )
        }
        "warp, 1 iteration" | "warp, 2 iterations" | "warp, 3 iterations" => {
            let iterations = name.as_bytes()[6] - b'0';
            let offsets = [0.0, 41.375, 83.906_25];
            let amplitude = f64::from(0.7f32);
            let c: Vec<Vec<f64>> = pts.iter().map(|s| wide(s)).collect();
            // `at` after `iterations − 1` displacements, in f64 as the
            // f64 point path computes them; then the last one.
            let displace = |at: &[Vec<f64>]| -> Vec<Vec<f64>> {
                (0..dims)
                    .map(|a| {
                        let moved: Vec<Vec<f64>> = at
                            .iter()
                            .map(|s| s.iter().map(|&v| v + offsets[a]).collect())
                            .collect();
                        let w = fill_f64(&DynSource::new(b()), &moved);
                        (0..n)
                            .map(|i| c[a][i] + amplitude * f64::from(w[i]))
                            .collect()
                    })
                    .collect()
            };
            let mut at = c.clone();
            for _ in 1..iterations {
                at = displace(&at);
            }
            let p = displace(&at);
            let narrow = |v: &[Vec<f64>]| -> Vec<Vec<f32>> {
                v.iter()
                    .map(|s| s.iter().map(|&x| x as f32).collect())
                    .collect()
            };
            let (_, df) = fill_grad(&DynSource::differentiable(a()), &narrow(&p));
            if iterations == 1 {
                return Some(df.iter().map(|s| wide(s)).collect());
            }
            let dw: Vec<Vec<Vec<f32>>> = (0..dims)
                .map(|a| {
                    let moved: Vec<Vec<f64>> = at
                        .iter()
                        .map(|s| s.iter().map(|&v| v + offsets[a]).collect())
                        .collect();
                    fill_grad(&DynSource::differentiable(b()), &narrow(&moved)).1
                })
                .collect();
            Some(
                (0..dims)
                    .map(|j| {
                        (0..n)
                            .map(|i| {
                                (0..dims)
                                    .map(|a| {
                                        let jac = f64::from(u8::from(a == j))
                                            + amplitude * f64::from(dw[a][j][i]);
                                        f64::from(df[a][i]) * jac
                                    })
                                    .sum()
                            })
                            .collect()
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The simple rules, bit for bit, from the inputs' own values and
/// gradients (separate calls) combined in `f32` as `Map`'s docs define
/// them, at every point (kinks, ties and NaN included).
#[test]
fn simple_rules_are_their_formula_on_the_inputs_gradients() {
    let mut rng = Rng(73);
    for dims in [2, 3] {
        let mut pts = random_points(&mut rng, dims, 1000);
        // Non-finite and huge coordinates too.
        for (i, v) in [f32::NAN, f32::INFINITY, -1e30, 3e9].iter().enumerate() {
            pts[i % dims][i] = *v;
        }
        let (va, ga) = fill_grad(&DynSource::differentiable(a()), &pts);
        let (vb, gb) = fill_grad(&DynSource::differentiable(b()), &pts);
        type Rule = fn(f32, f32, f32, f32) -> f32;
        let rules: Vec<(&str, DynSource, Rule)> = vec![
            (
                "scale_bias",
                DynSource::differentiable(Map::scale_bias(a(), 2.5, -0.25)),
                |_, da, _, _| 2.5 * da,
            ),
            (
                "abs",
                DynSource::differentiable(Map::abs(a())),
                |a, da, _, _| {
                    if a.is_nan() {
                        f32::NAN
                    } else if a > 0.0 {
                        da
                    } else if a < 0.0 {
                        -da
                    } else {
                        0.0 * da
                    }
                },
            ),
            (
                "clamp",
                DynSource::differentiable(Map::clamp(a(), -0.2, 0.3)),
                |a, da, _, _| {
                    if a.is_nan() {
                        f32::NAN
                    } else if -0.2 < a && a < 0.3 {
                        da
                    } else {
                        0.0 * da
                    }
                },
            ),
            (
                "add",
                DynSource::differentiable(Combine::add(a(), b())),
                |_, da, _, db| da + db,
            ),
            (
                "multiply",
                DynSource::differentiable(Combine::multiply(a(), b())),
                |a, da, b, db| da * b + a * db,
            ),
            (
                "min",
                DynSource::differentiable(Combine::min(a(), b())),
                |a, da, b, db| {
                    if a < b { da } else { db }
                },
            ),
            (
                "max",
                DynSource::differentiable(Combine::max(a(), b())),
                |a, da, b, db| {
                    if a > b { da } else { db }
                },
            ),
        ];
        for (name, field, rule) in rules {
            let (_, g) = fill_grad(&field, &pts);
            for axis in 0..dims {
                for i in 0..pts[0].len() {
                    let want = rule(va[i], ga[axis][i], vb[i], gb[axis][i]);
                    let want = if want.is_nan() { f32::NAN } else { want };
                    // `0 · da` may be −0 where the library's is +0 or the
                    // reverse: equal as values, and NaN only with `da`.
                    let same = want.to_bits() == g[axis][i].to_bits()
                        || (want == 0.0 && g[axis][i] == 0.0);
                    assert!(
                        same,
                        "{name}, {dims}D, axis {axis} at {}: {:e}, want {want:e}",
                        show(&point(&borrow(&pts), i)),
                        g[axis][i]
                    );
                }
            }
        }
    }
}

/// Terrace and curve slopes at points inside their pieces, against the
/// `f64` derivative of their definition (`2·(a − pⱼ)/wⱼ` and the
/// segment's slope) times the input's gradient; 0 outside.
#[test]
fn terrace_and_curve_slopes_follow_their_pieces() {
    let mut rng = Rng(79);
    let pts = random_points(&mut rng, 3, 3000);
    let (va, ga) = fill_grad(&DynSource::differentiable(a()), &pts);
    let steps = [-0.6f64, -0.2, 0.0, 0.5];
    let (_, gt) = fill_grad(
        &DynSource::differentiable(Map::terrace(a(), &[0.5, -0.6, 0.0, -0.2])),
        &pts,
    );
    let cp = [(-0.5f64, 0.25f64), (0.0, 0.75), (0.1, 0.7), (0.4, -1.0)];
    let (_, gc) = fill_grad(
        &DynSource::differentiable(Map::curve(
            a(),
            &[(0.4, -1.0), (-0.5, 0.25), (0.0, 0.75), (0.1, 0.7)],
        )),
        &pts,
    );
    let (mut inside_t, mut inside_c) = (0, 0);
    for i in 0..va.len() {
        let v = f64::from(va[i]);
        let t_slope = match steps.windows(2).find(|w| w[0] <= v && v < w[1]) {
            Some(w) => {
                inside_t += 1;
                2.0 * (v - w[0]) / (w[1] - w[0])
            }
            None => 0.0,
        };
        let c_slope = match cp.windows(2).find(|w| w[0].0 <= v && v < w[1].0) {
            Some(w) => {
                inside_c += 1;
                (w[1].1 - w[0].1) / (w[1].0 - w[0].0)
            }
            None => 0.0,
        };
        for axis in 0..3 {
            let d = f64::from(ga[axis][i]);
            for (name, got, slope) in [
                ("terrace", gt[axis][i], t_slope),
                ("curve", gc[axis][i], c_slope),
            ] {
                let want = slope * d;
                assert!(
                    (f64::from(got) - want).abs() <= 1e-5 * (1.0 + want.abs()),
                    "{name} at a = {v}, axis {axis}: {got:e}, want {want:e}"
                );
            }
        }
    }
    assert!(inside_t > 1000 && inside_c > 1000, "{inside_t} {inside_c}");
}

/// At every level `fillN_grad` gives the scalar `noiseN_grad`'s bits
/// (value and derivatives) and writes every slot; the value is `noiseN`'s
/// and `fillN`'s bits; a NaN value has NaN derivatives (exactly
/// `f32::NAN`), and non-finite coordinates give NaN everywhere. On
/// random points and on the shared adversarial table, 1D to 4D.
#[test]
fn values_are_the_plain_ones_and_derivatives_agree_across_levels() {
    let mut rng = Rng(83);
    for case in cases() {
        for dims in 1..=4 {
            let mut sets = vec![random_points(&mut rng, dims, 131)];
            sets.extend(table_inputs(dims, 3).into_iter().filter(|s| {
                let len = s[0].len();
                len == 67 || len == 13
            }));
            for pts in &sets {
                let inputs = borrow(pts);
                let len = pts[0].len();
                let want: Vec<(f32, Vec<f32>)> = (0..len)
                    .map(|i| grad_at(&case.field, &point(&inputs, i)))
                    .collect();
                let mut plain = vec![0.0f32; len];
                case.field.fill_dyn(&inputs, &mut plain).unwrap();
                for (i, (v, d)) in want.iter().enumerate() {
                    let c = point(&inputs, i);
                    let context = format!("{}, {dims}D at {}", case.name, show(&c));
                    assert_eq!(
                        v.to_bits(),
                        case.field.noise_dyn(&c).unwrap().to_bits(),
                        "{context}"
                    );
                    assert_eq!(v.to_bits(), plain[i].to_bits(), "{context}: fill");
                    if v.is_nan() || c.iter().any(|x| !x.is_finite()) {
                        assert!(
                            std::iter::once(v)
                                .chain(d)
                                .all(|x| x.to_bits() == f32::NAN.to_bits()),
                            "{context}: {v:e}, {d:?}"
                        );
                    }
                }
                for level in levels() {
                    let at = case.field.clone().with_level(level).unwrap();
                    let (out, grad) = fill_grad(&at, pts);
                    for i in 0..len {
                        let got: Vec<u32> = std::iter::once(out[i])
                            .chain(grad.iter().map(|g| g[i]))
                            .map(f32::to_bits)
                            .collect();
                        let expected: Vec<u32> = std::iter::once(want[i].0)
                            .chain(want[i].1.iter().copied())
                            .map(f32::to_bits)
                            .collect();
                        assert_eq!(
                            got,
                            expected,
                            "{}, {dims}D, level {level}: point {i} of {len} at {}",
                            case.name,
                            show(&point(&inputs, i))
                        );
                    }
                }
            }
        }
    }
}

/// `[values, d/dx, …]` of `fill_gridN_grad` (or `_par`), every slot written.
fn grid_grad(src: &DynSource, grid: &AnyGrid, par: bool) -> Vec<Vec<u32>> {
    let (n, dims) = (grid.len(), grid.dims());
    let mut out = vec![f32::from_bits(SENTINEL_BITS); n];
    let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); n]; dims];
    {
        let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
        grid.fill_grad(src, &mut out, &mut g, par).unwrap();
    }
    let mut all = vec![bits(&out)];
    all.extend(grad.iter().map(|g| bits(g)));
    for (o, v) in all.iter().enumerate() {
        assert!(
            !v.contains(&SENTINEL_BITS),
            "{grid:?}: output {o} not written"
        );
    }
    all
}

/// Grids with derivatives, as `gradient.rs` checks `Fbm`'s: the values are
/// `fillN_f64` at the grid's points bit for bit, hence the value grid's
/// (`fill_gridN`) bits on coarse grids, and for a warp on every grid (its
/// value grid is computed by points); over `Perlin` alone on grids of
/// `f32`-exact positions the derivatives are `fillN_grad`'s bits; every
/// level, `_par`, pools of 1, 2 and 3 threads and a split into windows give
/// the same bits.
#[test]
fn grids_with_derivatives_are_the_point_path_everywhere() {
    let over_perlin: Vec<(&str, DynSource)> = vec![
        ("abs of Perlin", DynSource::differentiable(Map::abs(b()))),
        (
            "blend of Perlins",
            DynSource::differentiable(Blend::select(b(), Perlin::new(3), control(), 0.1, 0.3)),
        ),
        (
            "min of Perlins",
            DynSource::differentiable(Combine::min(b(), Perlin::new(3))),
        ),
    ];
    let all = cases().into_iter().map(|c| (c.name, c.field, false)).chain(
        over_perlin
            .into_iter()
            .map(|(n, f)| (n.to_string(), f, true)),
    );
    for (name, field, lattice_only) in all {
        let warp = name.starts_with("warp");
        for dims in [2, 3] {
            // x steps: fine (row path for the value grid) and coarse.
            for dx in [1.0 / 128.0, 0.875] {
                let origin: Vec<f64> = [-3.25, 25.5, 0.375][..dims].to_vec();
                let step: Vec<f64> = [dx, 0.4375, -0.25][..dims].to_vec();
                let size: Vec<usize> = [37, 5, 3][..dims].to_vec();
                let grid = AnyGrid::new(&origin, &step, &size);
                let context = format!("{name}, {grid:?}");
                let want = grid_grad(&field, &grid, false);
                assert_eq!(
                    want[0],
                    bits(&grid.point_values(&field)),
                    "{context}: values vs fill_f64"
                );
                if dx > 0.75 || warp {
                    assert_eq!(
                        want[0],
                        bits(&grid.values(&field, false)),
                        "{context}: values vs the value grid"
                    );
                }
                if lattice_only {
                    let pts: Vec<Vec<f32>> = grid
                        .points()
                        .iter()
                        .map(|a| a.iter().map(|&v| v as f32).collect())
                        .collect();
                    let (out, grad) = fill_grad(&field, &pts);
                    assert_eq!(want[0], bits(&out), "{context}: values vs fill_grad");
                    for a in 0..dims {
                        assert_eq!(want[a + 1], bits(&grad[a]), "{context}: d/d{a}");
                    }
                }
                for level in levels() {
                    let at = field.clone().with_level(level).unwrap();
                    for par in [false, true] {
                        assert!(
                            grid_grad(&at, &grid, par) == want,
                            "{context}, level {level}, par {par}"
                        );
                    }
                }
                for threads in [1, 2, 3] {
                    let got = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap()
                        .install(|| grid_grad(&field, &grid, true));
                    assert!(got == want, "{context}, {threads} threads");
                }
                // Two windows along the last axis, the second also cut in x.
                let last = dims - 1;
                let cut = size[last] / 2;
                for (off, len) in [(0, cut), (cut, size[last] - cut)] {
                    let mut offset = vec![0; dims];
                    let mut wsize = size.clone();
                    offset[last] = off;
                    wsize[last] = len;
                    if off > 0 {
                        offset[0] = 3;
                        wsize[0] = 30;
                    }
                    let got = grid_grad(&field, &grid.window(&offset, &wsize), off > 0);
                    for k in 0..got[0].len() {
                        let (mut rest, mut at, mut stride) = (k, 0, 1);
                        for a in 0..dims {
                            at += (offset[a] + rest % wsize[a]) * stride;
                            rest /= wsize[a];
                            stride *= size[a];
                        }
                        for (o, g) in got.iter().enumerate() {
                            assert_eq!(
                                g[k], want[o][at],
                                "{context}: window {offset:?} {wsize:?}, output {o}, sample {k}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The `_grad` methods exist on every operator type, invalid parameters refuse derivative calls with their
/// error (nothing written) and give NaN from one point, and a fractal over
/// a warp is differentiable too.
#[test]
fn gradient_methods_errors_and_nesting() {
    let (v, d) = Map::abs(b()).noise_grad([0.3, 0.4, 0.5]);
    assert_eq!(v.to_bits(), Map::abs(b()).noise([0.3, 0.4, 0.5]).to_bits());
    assert!(d.iter().all(|x| x.is_finite()));
    let _ = Combine::add(b(), b()).noise_grad([0.3, 0.4]);
    let _ = Blend::new(b(), b(), b()).noise_grad([0.3]);
    let _ = Warp::new(b(), b()).noise_grad([0.3, 0.4, 0.5, 0.6]);
    let fbm = Fbm::new(Warp::new(b(), Perlin::new(4)).amplitude(0.3)).octaves(2);
    let (v, _) = Differentiable::noise_grad(&fbm, [1.3, 2.4]);
    assert_eq!(v.to_bits(), fbm.noise([1.3, 2.4]).to_bits());

    let bad: Vec<(DynSource, &str)> = vec![
        (
            DynSource::differentiable(Map::clamp(b(), 1.0, -1.0)),
            "above the upper bound",
        ),
        (
            DynSource::differentiable(Blend::select(b(), b(), b(), 0.0, -1.0)),
            "negative",
        ),
        (
            DynSource::differentiable(Warp::new(b(), b()).iterations(0)),
            "1 to 8",
        ),
        (
            DynSource::differentiable(Combine::add(
                b(),
                Map::curve(b(), &[(0.0, 1.0), (0.0, 2.0)]),
            )),
            "appears twice",
        ),
    ];
    for (src, needle) in bad {
        let (v, d) = src.noise_grad([0.5, 0.25]);
        assert!(
            std::iter::once(v)
                .chain(d)
                .all(|x| x.to_bits() == f32::NAN.to_bits()),
            "{needle}"
        );
        let pts = vec![vec![0.5f32; 9]; 2];
        let mut out = vec![f32::from_bits(SENTINEL_BITS); 9];
        let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); 9]; 2];
        let grid = AnyGrid::new(&[0.5, 0.5], &[0.25, 0.25], &[3, 3]);
        for on_grid in [false, true] {
            let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
            let e = if on_grid {
                grid.fill_grad(&src, &mut out, &mut g, true)
            } else {
                src.fill_grad_dyn(&borrow(&pts), &mut out, &mut g)
            }
            .unwrap_err();
            assert!(e.to_string().contains(needle), "{e}");
        }
        assert!(
            out.iter()
                .chain(grad.iter().flatten())
                .all(|v| v.to_bits() == SENTINEL_BITS),
            "{needle}: written"
        );
    }
}
