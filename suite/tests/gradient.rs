//! Gradient noise against an independent `f64` implementation (Ken
//! Perlin's `grad` function, the documented 1D slopes and 4D edge
//! gradients, every fade), and the analytic derivatives of `Perlin`,
//! `Value` and `Fbm` (`noiseN_grad`, `fillN_grad`, `fill_gridN_grad`):
//! against central differences of the library's own field and of the
//! `f64` oracles, equal to the corner gradient at lattice points, the value
//! part bit-identical to the plain methods, the same bits at every level,
//! thread count and window, and refused calls (the derivative slices are
//! named, nothing is written).

use crate::common::levels;
use crate::common::{
    AnyGrid, Rng, SENTINEL_BITS, bit_pattern_slices, bits, borrow, borrow64, grad_at, point, show,
    table_inputs,
};
use noisefield::prelude::*;
use noisefield::{DynSource, Error, Fade, Fbm, Perlin, Value};
use proptest::prelude::*;

// ------------------------------------------------------------ the oracle

/// Ken Perlin's `grad(hash, x, y, z)` from `ImprovedNoise.java` (2002),
/// as published.
fn ken_grad(hash: u8, x: f64, y: f64, z: f64) -> f64 {
    let h = hash & 15;
    let u = if h < 8 { x } else { y };
    let v = if h < 4 {
        y
    } else if h == 12 || h == 14 {
        x
    } else {
        z
    };
    (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
}

/// The 1D slope of hash `h` (the crate docs: ±0.25, ±0.5, …, ±2 by
/// `h mod 16`; bits 0–2 pick the magnitude (1 + b)/4, bit 3 the sign).
fn slope1(h: u8) -> f64 {
    let magnitude = 0.25 * f64::from(1 + (h & 7));
    if h & 8 == 0 { magnitude } else { -magnitude }
}

/// The 4D gradient of hash `h`: one of the 32 edge midpoints of the
/// hypercube (0, ±1, ±1, ±1) permuted; for `h mod 32`, axis `h >> 3` is
/// the zero one and bits 0, 1, 2 are the signs (set: −1) of the other
/// three axes in x, y, z, w order.
fn grad4(h: u8, d: &[f64]) -> f64 {
    let h = h & 31;
    let zero = usize::from(h >> 3);
    let mut bit = 0;
    let mut sum = 0.0;
    for (a, &da) in d.iter().enumerate() {
        if a != zero {
            sum += if h >> bit & 1 == 0 { da } else { -da };
            bit += 1;
        }
    }
    sum
}

/// The corner value `g · d` of hash `h` at offset `d` (2D: 3D's z = 0 slice).
fn corner(h: u8, d: &[f64]) -> f64 {
    match *d {
        [x] => slope1(h) * x,
        [x, y] => ken_grad(h, x, y, 0.0),
        [x, y, z] => ken_grad(h, x, y, z),
        _ => grad4(h, d),
    }
}

/// The gradient vector of hash `h` in `dims` dimensions.
fn gradient_of(h: u8, dims: usize) -> Vec<f64> {
    (0..dims)
        .map(|a| {
            let e: Vec<f64> = (0..dims).map(|b| f64::from(u8::from(a == b))).collect();
            corner(h, &e)
        })
        .collect()
}

/// `P[X]`, `P[P[P[X] + Y] + 0]`, `P[P[P[X] + Y] + Z]`,
/// `P[P[P[P[X] + Y] + Z] + W]`, every index mod 256.
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

fn fade64(fade: Fade, t: f64) -> f64 {
    match fade {
        Fade::Quintic => t * t * t * (t * (t * 6.0 - 15.0) + 10.0),
        Fade::Cubic => t * t * (3.0 - 2.0 * t),
        Fade::Cosine => (1.0 - (std::f64::consts::PI * t).cos()) / 2.0,
        Fade::Linear => t,
    }
}

/// A lattice noise in `f64`: Σ over the cell's corners of the product of
/// the fade weights times the corner value (`g · d` for gradient noise,
/// `h·2/255 − 1` for value noise).
fn lattice64(p: &[u8; 256], fade: Fade, value: bool, c: &[f64]) -> f64 {
    let floor: Vec<f64> = c.iter().map(|v| v.floor()).collect();
    let t: Vec<f64> = c.iter().zip(&floor).map(|(v, f)| v - f).collect();
    let mut sum = 0.0;
    for k in 0..1usize << c.len() {
        let mut weight = 1.0;
        let mut cells = Vec::new();
        let mut d = Vec::new();
        for a in 0..c.len() {
            let far = k >> a & 1 == 1;
            let u = fade64(fade, t[a]);
            weight *= if far { u } else { 1.0 - u };
            cells.push(floor[a] as i64 + i64::from(far));
            d.push(t[a] - f64::from(u8::from(far)));
        }
        let h = hash(p, &cells);
        let v = if value {
            f64::from(h) * 2.0 / 255.0 - 1.0
        } else {
            corner(h, &d)
        };
        sum += weight * v;
    }
    sum
}

/// Central differences of [`lattice64`] with step 1e-6: the truncation
/// error h²/6·|f'''| is below 1e-10 and the f64 rounding 1e-16/1e-6, so
/// this is the exact derivative for any tolerance used here (points stay
/// 0.05 away from cell faces, where the slope may jump).
fn lattice64_grad(p: &[u8; 256], fade: Fade, value: bool, c: &[f64]) -> Vec<f64> {
    const H: f64 = 1e-6;
    (0..c.len())
        .map(|a| {
            let (mut up, mut down) = (c.to_vec(), c.to_vec());
            up[a] += H;
            down[a] -= H;
            (lattice64(p, fade, value, &up) - lattice64(p, fade, value, &down)) / (2.0 * H)
        })
        .collect()
}

// ---------------------------------------------------------------- sources

fn perlins() -> Vec<(String, Perlin)> {
    vec![
        ("Perlin reference".to_string(), Perlin::reference()),
        ("Perlin seed 7".to_string(), Perlin::permuted(7)),
    ]
}

fn values() -> Vec<(String, Value)> {
    vec![
        ("Value reference".to_string(), Value::reference()),
        ("Value seed 7".to_string(), Value::permuted(7)),
    ]
}

/// Every differentiable source type with a spread of settings.
fn grad_sources() -> Vec<(String, DynSource)> {
    let mut v: Vec<(String, DynSource)> = Vec::new();
    for fade in Fade::ALL {
        for (name, p) in perlins() {
            v.push((
                format!("{name}, {fade:?}"),
                DynSource::differentiable(p.with_fade(fade)),
            ));
        }
        for (name, p) in values() {
            v.push((
                format!("{name}, {fade:?}"),
                DynSource::differentiable(p.with_fade(fade)),
            ));
        }
    }
    v.push((
        "Fbm<Perlin>".into(),
        DynSource::differentiable(Fbm::new(Perlin::permuted(3))),
    ));
    v.push((
        "Fbm<Perlin> 3 octaves, lacunarity 1.7, normalised".into(),
        DynSource::differentiable(
            Fbm::new(Perlin::permuted(4).with_fade(Fade::Cubic))
                .octaves(3)
                .lacunarity(1.7)
                .persistence(0.6)
                .normalize(true),
        ),
    ));
    v.push((
        "Fbm<Perlin periodic>".into(),
        DynSource::differentiable(
            Fbm::new(Perlin::permuted(5).with_period([5, 6, 7, 8]).unwrap()).octaves(4),
        ),
    ));
    v.push((
        "Fbm<Value> 4 octaves".into(),
        DynSource::differentiable(Fbm::new(Value::permuted(6)).octaves(4).persistence(-0.7)),
    ));
    v
}

// ------------------------------------------------------ gradient noise

/// `Perlin` with every fade is the `f64` oracle (Ken's gradients, the
/// documented hash chains) within its `f32` rounding: the fade's error
/// (1.2e-6 at most, see suite/tests/value.rs) times a corner value difference
/// (|g·d| ≤ 3, so ≤ 6) per axis, plus the lerps' rounding; Ken's table in
/// 3D is also checked against his published values in suite/tests/reference.rs.
#[test]
fn perlin_matches_the_f64_oracle_with_every_fade() {
    let mut rng = Rng(17);
    let mut report = Vec::new();
    for (name, p) in perlins() {
        let table = p.permutation().unwrap();
        for fade in Fade::ALL {
            let p = p.clone().with_fade(fade);
            for dims in 1..=4 {
                let pts = rng.points(dims, 3000, -600.0, 600.0);
                let mut out = vec![0.0f32; 3000];
                DynSource::new(p.clone())
                    .fill_dyn(&borrow(&pts), &mut out)
                    .unwrap();
                let mut max = 0.0f64;
                for (i, got) in out.iter().enumerate() {
                    let c: Vec<f64> = pts.iter().map(|s| f64::from(s[i])).collect();
                    let want = lattice64(&table, fade, false, &c);
                    let err = (f64::from(*got) - want).abs();
                    let tol = dims as f64 * (6.0 * 1.2e-6 + 1e-6);
                    assert!(
                        err <= tol,
                        "{name}, {fade:?}, {dims}D at {c:?}: {got:e}, oracle {want:e}"
                    );
                    max = max.max(err);
                }
                report.push(format!("{fade:?} {dims}D {max:.1e}"));
            }
        }
    }
    eprintln!("max |Perlin - f64 oracle|: {}", report.join(", "));
}

/// At a lattice point every fade weight is 0 except the near corner's, so
/// the derivative is that corner's gradient: exactly for the quintic and
/// smoothstep fades (their slope is 0 there), within the cosine
/// polynomial's slope error at 0 (1e-7 × a corner difference ≤ 3), and for
/// the linear fade (slope 1) `g₀ − g_a` on axis `a`, with `g_a` the
/// gradient of the next corner along `a` (the far corner's value there is
/// `g_a · (−e_a)`). The value is ±0. Gradients from Ken's `grad` function
/// (2D, 3D), the documented 1D slopes and 4D edges, and the hash chain.
#[test]
fn perlin_derivative_at_a_lattice_point_is_the_corner_gradient() {
    let mut rng = Rng(23);
    for (name, p) in perlins() {
        let table = p.permutation().unwrap();
        for fade in Fade::ALL {
            let p = DynSource::differentiable(p.clone().with_fade(fade));
            for dims in 1..=4 {
                let mut seen = std::collections::HashSet::new();
                for n in 0..600 {
                    let cells: Vec<i64> = (0..dims)
                        .map(|a| {
                            if n < 256 && a == 0 {
                                n
                            } else {
                                rng.uniform(-600.0, 600.0).floor() as i64
                            }
                        })
                        .collect();
                    let c: Vec<f32> = cells.iter().map(|&v| v as f32).collect();
                    let (v, d) = grad_at(&p, &c);
                    assert_eq!(v, 0.0, "{name}, {fade:?}, {cells:?}");
                    let g = gradient_of(hash(&table, &cells), dims);
                    seen.insert(g.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
                    for a in 0..dims {
                        let mut next = cells.clone();
                        next[a] += 1;
                        let ga = gradient_of(hash(&table, &next), dims)[a];
                        let (want, tol) = match fade {
                            Fade::Quintic | Fade::Cubic => (g[a], 0.0),
                            Fade::Cosine => (g[a], 1e-6),
                            Fade::Linear => (g[a] - ga, 0.0),
                        };
                        assert!(
                            (f64::from(d[a]) - want).abs() <= tol,
                            "{name}, {fade:?}, lattice point {cells:?}, axis {a}: derivative \
                             {:e}, corner gradient {g:?} (next {ga})",
                            d[a]
                        );
                    }
                }
                // The points cover the gradient set: 16 slopes in 1D, Ken's
                // 12 edges in 2D (z dropped: 8 distinct) and 3D, 32 in 4D.
                assert!(
                    seen.len() >= [16, 8, 12, 32][dims - 1],
                    "{dims}D: {}",
                    seen.len()
                );
            }
        }
    }
}

/// Value noise's derivative at a lattice point: 0 for the quintic and
/// smoothstep fades, (nearly: the cosine slope polynomial's error) 0 for
/// the cosine one, and for the linear fade the height difference to the
/// next lattice point along each axis (the cell the point belongs to is
/// `floor(c)`), exactly as `f32` subtracts the two lattice values.
#[test]
fn value_derivative_at_a_lattice_point() {
    let mut rng = Rng(29);
    for (name, v) in values() {
        for fade in Fade::ALL {
            let v = DynSource::differentiable(v.clone().with_fade(fade));
            for dims in 1..=4 {
                for _ in 0..400 {
                    let c: Vec<f32> = (0..dims)
                        .map(|_| rng.uniform(-600.0, 600.0).floor() as f32)
                        .collect();
                    let (value, d) = grad_at(&v, &c);
                    assert_eq!(value.to_bits(), v.noise_dyn(&c).unwrap().to_bits());
                    for a in 0..dims {
                        let mut next = c.clone();
                        next[a] += 1.0;
                        let step = v.noise_dyn(&next).unwrap() - value;
                        let ok = match fade {
                            Fade::Quintic | Fade::Cubic => d[a] == 0.0,
                            Fade::Cosine => d[a].abs() <= 1e-6,
                            Fade::Linear => d[a].to_bits() == step.to_bits(),
                        };
                        assert!(
                            ok,
                            "{name}, {fade:?}, {c:?}, axis {a}: {:e} (step {step:e})",
                            d[a]
                        );
                    }
                }
            }
        }
    }
}

/// Random points whose offsets in their cells are in [0.05, 0.95] on every
/// axis (central differences of step ≤ 2e-3 stay inside one cell).
fn interior_points(rng: &mut Rng, dims: usize, n: usize) -> Vec<Vec<f32>> {
    (0..dims)
        .map(|_| {
            (0..n)
                .map(|_| {
                    let cell = rng.uniform(-600.0, 600.0).floor();
                    (cell + rng.uniform(0.05, 0.95)) as f32
                })
                .collect()
        })
        .collect()
}

/// The analytic derivatives of single-octave Perlin and Value (every fade)
/// against exact derivatives of the `f64` oracles, at interior points.
/// The tolerance is the `f32` error of the derivative: the fade slope's
/// rounding (≤ 4e-6 for the quintic's cancelling Horner form near 1) times
/// a corner difference (≤ 6), plus the fade's (1.2e-6) times a gradient
/// difference (≤ 4), per axis. Measured maxima are printed.
#[test]
fn derivatives_match_the_f64_oracles() {
    let mut rng = Rng(31);
    let mut report = Vec::new();
    for value in [false, true] {
        for (name, table, fade, src) in lattice_grads(value) {
            for dims in 1..=4 {
                let pts = interior_points(&mut rng, dims, 400);
                let mut max = 0.0f64;
                for i in 0..400 {
                    let c = point(&borrow(&pts), i);
                    let (v, d) = grad_at(&src, &c);
                    let c64: Vec<f64> = c.iter().map(|&x| f64::from(x)).collect();
                    let want = lattice64_grad(&table, fade, value, &c64);
                    let tol = dims as f64 * (6.0 * 4e-6 + 4.0 * 1.2e-6);
                    for a in 0..dims {
                        let err = (f64::from(d[a]) - want[a]).abs();
                        assert!(
                            err <= tol,
                            "{name}, {dims}D at {}: d/d{a} = {:e}, oracle {:e}",
                            show(&c),
                            d[a],
                            want[a]
                        );
                        max = max.max(err);
                    }
                    assert_eq!(
                        v.to_bits(),
                        src.noise_dyn(&c).unwrap().to_bits(),
                        "{name}: value part"
                    );
                }
                report.push(format!("{name} {dims}D {max:.1e}"));
            }
        }
    }
    eprintln!("max |derivative - f64 oracle|: {}", report.join(", "));
}

/// A named lattice source with its permutation and fade.
type Lattice = (String, [u8; 256], Fade, DynSource);

/// Perlin or Value with every fade, with its table.
fn lattice_grads(value: bool) -> Vec<Lattice> {
    let mut v: Vec<Lattice> = Vec::new();
    for fade in Fade::ALL {
        if value {
            for (name, s) in values() {
                let s = s.with_fade(fade);
                v.push((
                    format!("{name}, {fade:?}"),
                    s.permutation().unwrap(),
                    fade,
                    DynSource::differentiable(s),
                ));
            }
        } else {
            for (name, s) in perlins() {
                let s = s.with_fade(fade);
                v.push((
                    format!("{name}, {fade:?}"),
                    s.permutation().unwrap(),
                    fade,
                    DynSource::differentiable(s),
                ));
            }
        }
    }
    v
}

// ----------------------------------------------- finite differences

/// Central differences of the library's own field (`fillN_f64` at x ± h on
/// each axis, in `f64` coordinates) against `fillN_grad` at the same
/// `f32` points, for Perlin and Value (single octave, every fade, interior
/// points) and `Fbm` over quintic Perlin and Value (any point: the quintic
/// fade makes the field C², so the remainder bound below holds across cell
/// faces).
///
/// The error of (f(x+h) − f(x−h))/2h is at most h²/6·sup|f'''| (truncation)
/// plus ε/h, with ε the error of one `f32` evaluation:
///
/// - |f'''| ≤ 500 per octave of amplitude a and frequency f, times a·f³. On
///   one axis a lattice noise is `A(t) + F(t)·L(t)` (convex blends of the
///   other axes), F the fade and L linear with |L| ≤ 6, |L'| ≤ 4 (corner
///   values g·d ≤ 3, gradients ≤ 2): f''' = F'''L + 3F''L', and the quintic
///   has |F'''| ≤ 60, |F''| ≤ 5.8 (smoothstep 12 and 1.5, cosine 15.5 and
///   4.9): 360 + 70 < 500.
/// - ε ≤ (8e-6·D + 2e-7) per unit amplitude: per axis the fade's `f32` error
///   (≤ 1.2e-6, see suite/tests/value.rs) times a corner difference (≤ 6) plus the
///   lerp's rounding, and the offset's rounding to `f32` (3e-8) times a
///   slope (≤ 6).
///
/// The analytic derivative's own error (≤ 3e-5 per axis per unit a·f,
/// tested against the `f64` oracles above) is added. With h = 2e-3, one
/// octave in 1D allows 4.4e-3 — a wrong slope term (a missing fade slope,
/// frequency or sign) is off by 0.1 to several units.
fn fd_tolerance(h: f64, dims: usize, (s1, s3, slope): Sums) -> f64 {
    h * h / 6.0 * 500.0 * s3 + (8e-6 * dims as f64 + 2e-7) * s1 / h + 3e-5 * dims as f64 * slope
}

/// The step of the central differences: near the optimum
/// (3ε/sup|f'''|)^(1/3) ≈ 3e-3 of the bound above.
const FD_STEP: f64 = 2e-3;

#[test]
fn derivatives_match_central_differences_of_the_field() {
    const H: f64 = FD_STEP;
    let mut rng = Rng(37);
    let mut worst = 0.0f64;
    for (name, src, sums) in fd_sources() {
        for dims in 1..=4 {
            let tol = fd_tolerance(H, dims, sums);
            let pts = if name.starts_with("Fbm") {
                rng.points(dims, 300, -600.0, 600.0)
            } else {
                interior_points(&mut rng, dims, 300)
            };
            let n = pts[0].len();
            let mut out = vec![0.0f32; n];
            let mut grad: Vec<Vec<f32>> = vec![vec![0.0; n]; dims];
            {
                let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
                src.fill_grad_dyn(&borrow(&pts), &mut out, &mut g).unwrap();
            }
            let wide: Vec<Vec<f64>> = pts
                .iter()
                .map(|s| s.iter().map(|&v| f64::from(v)).collect())
                .collect();
            for a in 0..dims {
                let mut up = wide.clone();
                let mut down = wide.clone();
                up[a].iter_mut().for_each(|v| *v += H);
                down[a].iter_mut().for_each(|v| *v -= H);
                let (mut fu, mut fd) = (vec![0.0f32; n], vec![0.0f32; n]);
                src.fill_f64_dyn(&borrow64(&up), &mut fu).unwrap();
                src.fill_f64_dyn(&borrow64(&down), &mut fd).unwrap();
                for i in 0..n {
                    let fdiff = (f64::from(fu[i]) - f64::from(fd[i])) / (2.0 * H);
                    let err = (f64::from(grad[a][i]) - fdiff).abs();
                    assert!(
                        err <= tol,
                        "{name}, {dims}D at {}: d/d{a} = {:e}, central difference {fdiff:e} \
                         (tolerance {tol:e})",
                        show(&point(&borrow(&pts), i)),
                        grad[a][i]
                    );
                    worst = worst.max(err / tol);
                }
            }
        }
    }
    eprintln!("largest |derivative - central difference| / tolerance: {worst:.3}");
}

/// (Σ|aᵢ|, Σ|aᵢ|fᵢ³, Σ|aᵢ|fᵢ) over a source's octaves.
type Sums = (f64, f64, f64);

/// Sources for the finite-difference test, with (Σ|aᵢ|, Σ|aᵢ|fᵢ³,
/// Σ|aᵢ|fᵢ) of their octaves (normalising multiplies by 2/(hi − lo)).
fn fd_sources() -> Vec<(String, DynSource, Sums)> {
    let mut v: Vec<(String, DynSource, Sums)> = Vec::new();
    for value in [false, true] {
        for (name, _, _, src) in lattice_grads(value) {
            v.push((name, src, (1.0, 1.0, 1.0)));
        }
    }
    let sums = |octaves: u32, lacunarity: f64, persistence: f64, scale: f64| {
        let (mut s1, mut s3, mut sl) = (0.0, 0.0, 0.0);
        for i in 0..octaves as i32 {
            let (a, f) = (persistence.powi(i).abs() * scale, lacunarity.powi(i));
            s1 += a;
            s3 += a * f * f * f;
            sl += a * f;
        }
        (s1, s3, sl)
    };
    v.push((
        "Fbm<Perlin> 3 octaves".into(),
        DynSource::differentiable(Fbm::new(Perlin::permuted(41)).octaves(3)),
        sums(3, 2.0, 0.5, 1.0),
    ));
    v.push((
        "Fbm<Value> 3 octaves, lacunarity 1.7, persistence -0.6".into(),
        DynSource::differentiable(
            Fbm::new(Value::permuted(42))
                .octaves(3)
                .lacunarity(1.7)
                .persistence(-0.6),
        ),
        sums(3, 1.7, 0.6, 1.0),
    ));
    let normalized = Fbm::new(Perlin::permuted(43)).octaves(2).normalize(true);
    let (lo, hi) = Fbm::new(Perlin::permuted(43)).octaves(2).bounds(3);
    // 2/(hi − lo) of the 3D bounds; 1D to 4D bounds differ by < 60 %, and
    // the tolerance uses the largest scale (1D's, the narrowest bounds).
    let (lo1, hi1) = Fbm::new(Perlin::permuted(43)).octaves(2).bounds(1);
    let scale = 2.0 / f64::from(hi1 - lo1).min(f64::from(hi - lo));
    v.push((
        "Fbm<Perlin> 2 octaves, normalised".into(),
        DynSource::differentiable(normalized),
        sums(2, 2.0, 0.5, scale),
    ));
    v
}

/// `Fbm` with one octave has exactly its source's value and derivatives;
/// with k octaves and persistence 0 exactly those of one octave (as values:
/// adding 0·n may turn −0 into +0).
#[test]
fn fbm_of_one_octave_is_its_source() {
    let mut rng = Rng(43);
    for dims in 1..=4 {
        let pts = rng.points(dims, 500, -300.0, 300.0);
        for i in 0..500 {
            let c = point(&borrow(&pts), i);
            for (p, v) in [
                (Perlin::permuted(1), Value::permuted(1)),
                (Perlin::reference(), Value::permuted(2)),
            ] {
                let grad = |s| grad_at(&s, &c);
                let (pv, pd) = grad(DynSource::differentiable(p.clone()));
                let (fv, fd) = grad(DynSource::differentiable(Fbm::new(p.clone()).octaves(1)));
                assert_eq!(bits(&[pv]), bits(&[fv]));
                assert_eq!(bits(&pd), bits(&fd), "Perlin at {}", show(&c));
                let (k0v, k0d) = grad(DynSource::differentiable(
                    Fbm::new(p.clone()).octaves(5).persistence(0.0),
                ));
                assert_eq!(pv, k0v);
                assert_eq!(pd, k0d, "persistence 0 at {}", show(&c));
                let (vv, vd) = grad(DynSource::differentiable(v.clone()));
                let (fv, fd) = grad(DynSource::differentiable(Fbm::new(v.clone()).octaves(1)));
                assert_eq!(bits(&[vv]), bits(&[fv]));
                assert_eq!(bits(&vd), bits(&fd), "Value at {}", show(&c));
            }
        }
    }
}

// ------------------------------------------------------- every level

/// At every level `fillN_grad` gives the scalar `noiseN_grad`'s bits (value
/// and derivatives) and writes every slot; the value is `noiseN`'s bits;
/// non-finite points give exactly `f32::NAN` everywhere.
fn assert_grad_levels_match_scalar(src: &DynSource, inputs: &[&[f32]], context: &str) {
    let (len, dims) = (inputs[0].len(), inputs.len());
    let want: Vec<(f32, Vec<f32>)> = (0..len).map(|i| grad_at(src, &point(inputs, i))).collect();
    for (i, (v, d)) in want.iter().enumerate() {
        let c = point(inputs, i);
        assert_eq!(
            v.to_bits(),
            src.noise_dyn(&c).unwrap().to_bits(),
            "{context}: value part at {}",
            show(&c)
        );
        if c.iter().any(|x| !x.is_finite()) {
            assert!(
                std::iter::once(v)
                    .chain(d)
                    .all(|x| x.to_bits() == f32::NAN.to_bits()),
                "{context}: at {} gave {v:e}, {d:?}",
                show(&c)
            );
        }
    }
    for level in levels() {
        let at = src.clone().with_level(level).unwrap();
        let mut out = vec![f32::from_bits(SENTINEL_BITS); len];
        let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); len]; dims];
        {
            let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
            at.fill_grad_dyn(inputs, &mut out, &mut g).unwrap();
        }
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
                "{context}, {dims}D, level {level}: index {i} of {len} at {}",
                show(&point(inputs, i))
            );
        }
        // The plain fill: the same values.
        let mut plain = vec![0.0f32; len];
        at.fill_dyn(inputs, &mut plain).unwrap();
        assert_eq!(
            bits(&plain),
            bits(&out),
            "{context}, level {level}: fill vs fill_grad"
        );
    }
}

#[test]
fn grad_methods_match_scalar_at_every_level() {
    for (name, src) in grad_sources() {
        for dims in 1..=4 {
            for inputs in table_inputs(dims, 5) {
                let context = format!("{name}, length {}", inputs[0].len());
                assert_grad_levels_match_scalar(&src, &borrow(&inputs), &context);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn grad_bit_patterns_match_scalar_at_every_level(
        s in (1usize..=4).prop_flat_map(bit_pattern_slices),
        which in 0usize..20,
    ) {
        let sources = grad_sources();
        let (name, src) = &sources[which % sources.len()];
        assert_grad_levels_match_scalar(src, &borrow(&s), name);
    }
}

// ------------------------------------------------------------------ grids

/// `fill_gridN_grad`: the value is exactly `fillN_f64` at the grid's
/// points (as documented, on either x path); for lattice sources on grids
/// of `f32`-exact positions the derivatives are `fillN_grad`'s bits; `_par`,
/// every level, pools of 1, 2 and 3 threads and a split into windows give
/// the same bits.
#[test]
fn grid_derivatives_match_points_everywhere() {
    for (name, src) in grad_sources() {
        for dims in 1..=4 {
            for dx in [1.0 / 128.0, 0.625] {
                // Dyadic origins and steps: every position is exact in f32.
                let origin: Vec<f64> = (0..dims).map(|a| [-3.25, 250.5, 0.375, -7.0][a]).collect();
                let step: Vec<f64> = (0..dims).map(|a| [dx, 0.4375, -0.25, 0.5625][a]).collect();
                let size: Vec<usize> = (0..dims).map(|a| [70, 5, 4, 3][a]).collect();
                let grid = AnyGrid::new(&origin, &step, &size);
                let want = grid_grad_values(&src, &grid, false);
                let context = format!("{name}, {grid:?}");
                // Values: fill_f64 at the points.
                assert_eq!(bits(&want[0]), bits(&grid.point_values(&src)), "{context}");
                // Derivatives of lattice sources: fill_grad at the f32 points.
                if !name.starts_with("Fbm") {
                    let pts: Vec<Vec<f32>> = grid
                        .points()
                        .iter()
                        .map(|a| a.iter().map(|&v| v as f32).collect())
                        .collect();
                    let n = grid.len();
                    let mut out = vec![0.0f32; n];
                    let mut grad = vec![vec![0.0f32; n]; dims];
                    {
                        let mut g: Vec<&mut [f32]> =
                            grad.iter_mut().map(Vec::as_mut_slice).collect();
                        src.fill_grad_dyn(&borrow(&pts), &mut out, &mut g).unwrap();
                    }
                    assert_eq!(bits(&want[0]), bits(&out), "{context}: value vs fill_grad");
                    for a in 0..dims {
                        assert_eq!(bits(&want[a + 1]), bits(&grad[a]), "{context}: d/d{a}");
                    }
                }
                for level in levels() {
                    let at = src.clone().with_level(level).unwrap();
                    for par in [false, true] {
                        assert!(
                            all_bits(&grid_grad_values(&at, &grid, par)) == all_bits(&want),
                            "{context}, level {level}, par {par}"
                        );
                    }
                }
                for threads in [1, 2, 3] {
                    let got = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap()
                        .install(|| grid_grad_values(&src, &grid, true));
                    assert!(
                        all_bits(&got) == all_bits(&want),
                        "{context}, {threads} threads"
                    );
                }
                // Windows: two slabs along the last axis and a middle piece of x.
                let last = dims - 1;
                let cut = size[last] / 2;
                for (off_last, len_last) in [(0, cut), (cut, size[last] - cut)] {
                    let mut offset = vec![0; dims];
                    let mut wsize = size.clone();
                    offset[last] = off_last;
                    wsize[last] = len_last;
                    if dims > 1 {
                        offset[0] = 3;
                        wsize[0] = 50;
                    }
                    let w = grid.window(&offset, &wsize);
                    let got = grid_grad_values(&src, &w, off_last > 0);
                    for (k, _) in got[0].iter().enumerate() {
                        let mut rest = k;
                        let mut at = 0;
                        let mut stride = 1;
                        for a in 0..dims {
                            let i = rest % wsize[a];
                            rest /= wsize[a];
                            at += (offset[a] + i) * stride;
                            stride *= size[a];
                        }
                        for (o, g) in got.iter().enumerate() {
                            assert_eq!(
                                g[k].to_bits(),
                                want[o][at].to_bits(),
                                "{context}: window {offset:?} {wsize:?}, output {o}, sample {k}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The bit patterns of several outputs.
fn all_bits(outputs: &[Vec<f32>]) -> Vec<Vec<u32>> {
    outputs.iter().map(|o| bits(o)).collect()
}

/// `[values, d/dx, d/dy, …]` of `fill_gridN_grad` (or `_par`), checking
/// every slot was written.
fn grid_grad_values(src: &DynSource, grid: &AnyGrid, par: bool) -> Vec<Vec<f32>> {
    let (n, dims) = (grid.len(), grid.dims());
    let mut out = vec![f32::from_bits(SENTINEL_BITS); n];
    let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); n]; dims];
    {
        let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
        grid.fill_grad(src, &mut out, &mut g, par).unwrap();
    }
    let mut all = vec![out];
    all.extend(grad);
    for (o, v) in all.iter().enumerate() {
        if let Some(k) = v.iter().position(|x| x.to_bits() == SENTINEL_BITS) {
            panic!("{grid:?}: output {o}, sample {k} not written");
        }
    }
    all
}

/// The derivatives of a grid are with respect to position: central
/// differences along each axis of a coarse grid (step 2e-3 around each
/// sample, from `fillN_f64`) agree within the tolerance argued at
/// [`fd_tolerance`].
#[test]
fn grid_derivatives_are_with_respect_to_position() {
    const H: f64 = FD_STEP;
    let src = DynSource::differentiable(Fbm::new(Perlin::permuted(8)).octaves(2));
    for dims in 1..=4 {
        // 2 octaves, lacunarity 2, persistence ½: Σa = 1.5, Σa·f³ = 5, Σa·f = 2.
        let tol = fd_tolerance(H, dims, (1.5, 5.0, 2.0));
        let origin: Vec<f64> = (0..dims).map(|a| 0.3 + a as f64).collect();
        let step: Vec<f64> = (0..dims).map(|a| [0.7, -0.45, 0.55, 0.35][a]).collect();
        let size: Vec<usize> = (0..dims).map(|a| [9, 4, 3, 3][a]).collect();
        let grid = AnyGrid::new(&origin, &step, &size);
        let got = grid_grad_values(&src, &grid, true);
        let pts = grid.points();
        for a in 0..dims {
            let mut up = pts.clone();
            let mut down = pts.clone();
            up[a].iter_mut().for_each(|v| *v += H);
            down[a].iter_mut().for_each(|v| *v -= H);
            let (mut fu, mut fd) = (vec![0.0f32; grid.len()], vec![0.0f32; grid.len()]);
            src.fill_f64_dyn(&borrow64(&up), &mut fu).unwrap();
            src.fill_f64_dyn(&borrow64(&down), &mut fd).unwrap();
            for k in 0..grid.len() {
                let fdiff = (f64::from(fu[k]) - f64::from(fd[k])) / (2.0 * H);
                assert!(
                    (f64::from(got[a + 1][k]) - fdiff).abs() <= tol,
                    "{dims}D grid sample {k}, axis {a}: {:e} vs {fdiff:e}",
                    got[a + 1][k]
                );
            }
        }
    }
}

// ------------------------------------------------------------- refusals

/// A derivative slice of the wrong length is `Error::LengthMismatch` naming
/// it (`dx`, `dy`, `dz`, `dw`), with the expected length that of `out`;
/// nothing is written to any output. Also for grids, and a wrong `out`.
#[test]
fn a_wrong_derivative_length_is_named_and_nothing_is_written() {
    let names = ["dx", "dy", "dz", "dw"];
    let sources: Vec<DynSource> = vec![
        DynSource::differentiable(Perlin::permuted(1)),
        DynSource::differentiable(Value::permuted(1)),
        DynSource::differentiable(Fbm::new(Perlin::permuted(1))),
    ];
    for src in &sources {
        for level in levels() {
            let src = src.clone().with_level(level).unwrap();
            for dims in 1..=4 {
                for len in [0usize, 1, 9, 67] {
                    let inputs: Vec<Vec<f32>> = vec![vec![0.5; len]; dims];
                    let size: Vec<usize> =
                        (0..dims).map(|a| if a == 0 { len } else { 1 }).collect();
                    let grid = AnyGrid::new(&vec![0.5; dims], &vec![0.25; dims], &size);
                    for (wrong, wrong_name) in names.iter().enumerate().take(dims) {
                        for wrong_len in [len + 1, len.saturating_sub(1)] {
                            if wrong_len == len {
                                continue;
                            }
                            for on_grid in [false, true] {
                                let mut out = vec![f32::from_bits(SENTINEL_BITS); len];
                                let mut grad: Vec<Vec<f32>> = (0..dims)
                                    .map(|a| {
                                        let l = if a == wrong { wrong_len } else { len };
                                        vec![f32::from_bits(SENTINEL_BITS); l]
                                    })
                                    .collect();
                                let result = {
                                    let mut g: Vec<&mut [f32]> =
                                        grad.iter_mut().map(Vec::as_mut_slice).collect();
                                    if on_grid {
                                        grid.fill_grad(&src, &mut out, &mut g, wrong % 2 == 0)
                                    } else {
                                        src.fill_grad_dyn(&borrow(&inputs), &mut out, &mut g)
                                    }
                                };
                                assert_eq!(
                                    result,
                                    Err(Error::LengthMismatch {
                                        name: wrong_name,
                                        expected: len,
                                        found: wrong_len
                                    }),
                                    "{dims}D, level {level}, grid {on_grid}"
                                );
                                let msg = result.unwrap_err().to_string();
                                assert!(msg.contains(wrong_name), "{msg}");
                                assert!(
                                    out.iter()
                                        .chain(grad.iter().flatten())
                                        .all(|v| v.to_bits() == SENTINEL_BITS),
                                    "{dims}D, level {level}: written after an error"
                                );
                            }
                        }
                    }
                    // A wrong `out` is named "out" (before any derivative).
                    let mut out = vec![f32::from_bits(SENTINEL_BITS); len + 1];
                    let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); len]; dims];
                    let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
                    let result = src.fill_grad_dyn(&borrow(&inputs), &mut out, &mut g);
                    assert_eq!(
                        result,
                        Err(Error::LengthMismatch {
                            name: "out",
                            expected: len,
                            found: len + 1
                        })
                    );
                    assert!(out.iter().all(|v| v.to_bits() == SENTINEL_BITS));
                }
            }
        }
    }
}

/// An invalid `Fbm` refuses every derivative call with its parameter error
/// (nothing written) and gives NaN from the one-point method.
#[test]
fn an_invalid_fbm_refuses_derivatives() {
    /// `noise_grad` of `fbm` at one point in `D` dimensions is all NaN.
    fn nan_at_one_point<const D: usize>(fbm: &Fbm<Perlin>) -> bool {
        let (v, d) = fbm.noise_grad([0.3; D]);
        std::iter::once(v)
            .chain(d)
            .all(|x| x.to_bits() == f32::NAN.to_bits())
    }
    for (fbm, want) in [
        (
            Fbm::new(Perlin::permuted(2)).octaves(0),
            Error::InvalidOctaves(0),
        ),
        (
            Fbm::new(Perlin::permuted(2)).octaves(33),
            Error::InvalidOctaves(33),
        ),
        (
            Fbm::new(Perlin::permuted(2).with_period([4, 4, 4, 4]).unwrap()).lacunarity(2.5),
            Error::PeriodicLacunarity(2.5),
        ),
    ] {
        let one_point = [
            nan_at_one_point::<1>(&fbm),
            nan_at_one_point::<2>(&fbm),
            nan_at_one_point::<3>(&fbm),
            nan_at_one_point::<4>(&fbm),
        ];
        let src = DynSource::differentiable(fbm);
        for dims in 1..=4 {
            assert!(one_point[dims - 1], "{want:?}, {dims}D");
            let mut d = vec![f32::from_bits(SENTINEL_BITS); dims];
            assert_eq!(
                src.noise_grad_dyn(&vec![0.3; dims], &mut d),
                Err(want.clone()),
                "{dims}D, noise_grad_dyn"
            );
            let inputs = vec![vec![0.3f32; 5]; dims];
            let mut out = vec![f32::from_bits(SENTINEL_BITS); 5];
            let mut grad = vec![vec![f32::from_bits(SENTINEL_BITS); 5]; dims];
            let grid = AnyGrid::new(&vec![0.5; dims], &vec![0.25; dims], &{
                let mut s = vec![1; dims];
                s[0] = 5;
                s
            });
            for on_grid in [false, true] {
                let mut g: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
                let result = if on_grid {
                    grid.fill_grad(&src, &mut out, &mut g, true)
                } else {
                    src.fill_grad_dyn(&borrow(&inputs), &mut out, &mut g)
                };
                assert_eq!(result, Err(want.clone()), "{dims}D, grid {on_grid}");
            }
            assert!(
                out.iter()
                    .chain(grad.iter().flatten())
                    .chain(&d)
                    .all(|v| v.to_bits() == SENTINEL_BITS)
            );
        }
    }
}
