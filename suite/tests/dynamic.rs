//! `DynSource`: derivatives where its source has them (the same bits as the
//! static graph, at every level), a typed refusal where it has none, and
//! the dimension as a value (`fill_dyn` and its siblings).

use crate::common::levels;
use noisefield::prelude::*;
use noisefield::{Billow, DynSource, Error, Fbm, Grid, Map, Perlin, Recipe, Ridged, Value, Warp};

/// `n` points per axis in `d` axes: spread over ±40 cells, with lattice
/// points and a large coordinate among them.
fn points(d: usize, n: usize) -> Vec<Vec<f32>> {
    (0..d)
        .map(|a| {
            (0..n)
                .map(|i| match (i + a) % 9 {
                    0 => (i % 5) as f32,
                    1 => 3.0e5 + i as f32 * 0.37,
                    _ => ((i * 37 + a * 11) % 800) as f32 * 0.1 - 40.0 + 0.013 * a as f32,
                })
                .collect()
        })
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// `fill_grad` of `src`: the values and one derivative vector per axis.
fn fill_grad<const D: usize>(
    src: &impl Differentiable,
    coords: [&[f32]; D],
) -> (Vec<f32>, Vec<Vec<f32>>) {
    let n = coords[0].len();
    let mut out = vec![f32::NAN; n];
    let mut grad = vec![vec![f32::NAN; n]; D];
    let mut it = grad.iter_mut();
    src.fill_grad(
        coords,
        &mut out,
        std::array::from_fn(|_| &mut it.next().unwrap()[..]),
    )
    .unwrap();
    (out, grad)
}

/// `fill_grad` and `fill_grid_grad` of `a` and `b` in `D` dimensions give
/// the same bits; returns whether some derivative was non-zero.
fn same_gradients<const D: usize>(
    a: &impl Differentiable,
    b: &impl Differentiable,
    what: &str,
) -> bool {
    let pts = points(D, 70);
    let coords: [&[f32]; D] = std::array::from_fn(|k| &pts[k][..]);
    let (va, ga) = fill_grad(a, coords);
    let (vb, gb) = fill_grad(b, coords);
    assert_eq!(bits(&va), bits(&vb), "{what} {D}D: values");
    for k in 0..D {
        assert_eq!(bits(&ga[k]), bits(&gb[k]), "{what} {D}D: derivative {k}");
    }
    let grid = Grid::<D>::new(
        [0.3; D],
        [0.19; D],
        std::array::from_fn(|k| [7, 3, 2, 2][k]),
    );
    let n: usize = grid.size().iter().product();
    let (ga_out, gb_out) = {
        let (mut oa, mut ob) = (vec![0.0; n], vec![0.0; n]);
        let mut da = vec![vec![0.0; n]; D];
        let mut db = vec![vec![0.0; n]; D];
        let mut ia = da.iter_mut();
        let mut ib = db.iter_mut();
        a.fill_grid_grad(
            &grid,
            &mut oa,
            std::array::from_fn(|_| &mut ia.next().unwrap()[..]),
        )
        .unwrap();
        b.fill_grid_grad(
            &grid,
            &mut ob,
            std::array::from_fn(|_| &mut ib.next().unwrap()[..]),
        )
        .unwrap();
        ((oa, da), (ob, db))
    };
    assert_eq!(bits(&ga_out.0), bits(&gb_out.0), "{what} {D}D grid: values");
    assert_eq!(ga_out.1.len(), D);
    for k in 0..D {
        assert_eq!(
            bits(&ga_out.1[k]),
            bits(&gb_out.1[k]),
            "{what} {D}D grid: derivative {k}"
        );
    }
    ga.iter().flatten().any(|&d| d != 0.0 && d.is_finite())
}

fn every_dimension(a: &impl Differentiable, b: &impl Differentiable, what: &str) {
    let moving = [
        same_gradients::<1>(a, b, what),
        same_gradients::<2>(a, b, what),
        same_gradients::<3>(a, b, what),
        same_gradients::<4>(a, b, what),
    ];
    assert!(moving.iter().all(|&m| m), "{what}: all derivatives zero");
}

/// A boxed graph, and a combinator over a boxed input (which crosses the
/// virtual call once per kernel pack), give the static graph's derivatives.
#[test]
fn boxed_derivatives_equal_the_static_ones_at_every_level() {
    for level in levels() {
        let at = |d: DynSource| d.with_level(level).unwrap();
        let perlin = Perlin::new(7).with_level(level).unwrap();
        every_dimension(
            &perlin,
            &at(DynSource::differentiable(Perlin::new(7))),
            "perlin",
        );
        let value = Value::new(3).with_level(level).unwrap();
        every_dimension(
            &value,
            &at(DynSource::differentiable(Value::new(3))),
            "value",
        );
        let fbm = Fbm::new(Perlin::new(4))
            .octaves(3)
            .with_level(level)
            .unwrap();
        let boxed_octaves = Fbm::new(DynSource::differentiable(Perlin::new(4)))
            .octaves(3)
            .with_level(level)
            .unwrap();
        every_dimension(&fbm, &boxed_octaves, "fbm over a boxed perlin");
        let warp = Warp::new(Perlin::new(1), Fbm::new(Value::new(2)).octaves(2))
            .amplitude(0.4)
            .with_level(level)
            .unwrap();
        let boxed_warp = Warp::new(
            DynSource::differentiable(Perlin::new(1)),
            DynSource::differentiable(Fbm::new(Value::new(2)).octaves(2)),
        )
        .amplitude(0.4)
        .with_level(level)
        .unwrap();
        every_dimension(&warp, &boxed_warp, "warp of boxed inputs");
        let map = Map::abs(Perlin::new(5)).with_level(level).unwrap();
        every_dimension(&map, &at(DynSource::differentiable(map.clone())), "abs");
    }
}

/// Recipes are differentiable where every part is, with the static
/// graph's bits; where a part is not, every derivative call is refused
/// with `NotDifferentiable` and writes nothing, and values still work.
#[test]
fn recipes_have_derivatives_where_their_parts_do() {
    let recipe = |text: &str| text.parse::<Recipe>().unwrap().source();
    let fbm = recipe("fbm(perlin(seed=4), octaves=3)");
    assert!(fbm.is_differentiable());
    every_dimension(&Fbm::new(Perlin::new(4)).octaves(3), &fbm, "recipe fbm");
    let warp = recipe("warp(perlin(seed=1), fbm(value(seed=2), octaves=2), amplitude=0.4)");
    let static_warp = Warp::new(Perlin::new(1), Fbm::new(Value::new(2)).octaves(2)).amplitude(0.4);
    every_dimension(&static_warp, &warp, "recipe warp");
    for text in [
        "add(abs(perlin), scale_bias(value, scale=2))",
        "blend(perlin, value, perlin(seed=9))",
        "max(perlin, clamp(value, lower=-0.5, upper=0.5))",
    ] {
        let s = recipe(text);
        assert!(s.is_differentiable(), "{text}");
        let (v, d) = s.noise_grad([0.3, 1.7, -2.2]);
        assert_eq!(v.to_bits(), s.noise([0.3, 1.7, -2.2]).to_bits(), "{text}");
        assert!(d.iter().all(|x| x.is_finite()), "{text}: {d:?}");
    }
    for text in [
        "ridged(perlin)",
        "fbm(ridged(perlin), octaves=2)",
        "add(perlin, billow(value))",
        "warp(perlin, turbulence(perlin))",
        "marble",
    ] {
        let s = recipe(text);
        assert!(!s.is_differentiable(), "{text}");
        let pts = points(3, 40);
        let coords = [&pts[0][..], &pts[1][..], &pts[2][..]];
        let mut out = vec![f32::from_bits(0x7fa5_a5a5); 40];
        let mut g = vec![vec![f32::from_bits(0x7fa5_a5a5); 40]; 3];
        let [gx, gy, gz] = &mut g[..] else {
            unreachable!()
        };
        let grads = [&mut gx[..], &mut gy[..], &mut gz[..]];
        assert_eq!(
            s.fill_grad(coords, &mut out, grads),
            Err(Error::NotDifferentiable),
            "{text}"
        );
        let grid = Grid::<3>::new([0.0; 3], [0.25; 3], [4, 5, 2]);
        let grads = [&mut gx[..], &mut gy[..], &mut gz[..]];
        assert_eq!(
            s.fill_grid_grad(&grid, &mut out, grads),
            Err(Error::NotDifferentiable),
            "{text}"
        );
        assert!(
            out.iter()
                .chain(g.iter().flatten())
                .all(|v| v.to_bits() == 0x7fa5_a5a5),
            "{text}: a refused call wrote"
        );
        let (v, d) = s.noise_grad([0.3, 1.7]);
        assert!(v.is_nan() && d.iter().all(|x| x.is_nan()), "{text}");
        s.fill(coords, &mut out).unwrap();
        assert!(out.iter().all(|v| v.is_finite()), "{text}: values");
    }
    // A plain box has no derivatives, even over a source that has them.
    let plain = DynSource::new(Perlin::new(1));
    assert!(!plain.is_differentiable());
    assert!(
        DynSource::new(Billow::new(Perlin::new(1)))
            .noise_grad([0.5])
            .0
            .is_nan()
    );
    let mut out = [0.0f32; 1];
    assert_eq!(
        plain.fill_grad([&[0.5f32][..]], &mut out, [&mut [0.0f32][..]]),
        Err(Error::NotDifferentiable)
    );
}

/// `noise_dyn`, `fill_dyn`, `fill_f64_dyn`, `noise_grad_dyn` and
/// `fill_grad_dyn` equal the static methods of `coords.len()` dimensions;
/// another count is `InvalidDimension`, before any work.
#[test]
fn the_dimension_as_a_value() {
    let src = DynSource::differentiable(Fbm::new(Perlin::new(2)).octaves(2));
    let pts = points(4, 50);
    let wide: Vec<Vec<f64>> = pts
        .iter()
        .map(|a| a.iter().map(|&x| f64::from(x) + 1e-9).collect())
        .collect();
    for d in 1..=4 {
        let coords: Vec<&[f32]> = pts[..d].iter().map(Vec::as_slice).collect();
        let coords64: Vec<&[f64]> = wide[..d].iter().map(Vec::as_slice).collect();
        let (mut got, mut want) = (vec![0.0f32; 50], vec![0.0f32; 50]);
        src.fill_dyn(&coords, &mut got).unwrap();
        let mut grad = vec![vec![0.0f32; 50]; d];
        let mut want_grad = vec![vec![0.0f32; 50]; d];
        let mut gv = vec![0.0f32; 50];
        {
            let mut slices: Vec<&mut [f32]> = grad.iter_mut().map(Vec::as_mut_slice).collect();
            src.fill_grad_dyn(&coords, &mut gv, &mut slices).unwrap();
        }
        let (mut got64, mut want64) = (vec![0.0f32; 50], vec![0.0f32; 50]);
        src.fill_f64_dyn(&coords64, &mut got64).unwrap();
        let p: Vec<f32> = coords.iter().map(|c| c[3]).collect();
        let mut pg = vec![0.0f32; d];
        let pv = src.noise_grad_dyn(&p, &mut pg).unwrap();
        let (want_p, want_pv, want_pg): (f32, f32, Vec<f32>) = {
            let mut it = want_grad.iter_mut();
            macro_rules! at {
                ($d:literal) => {{
                    let c: [&[f32]; $d] = std::array::from_fn(|k| coords[k]);
                    let c64: [&[f64]; $d] = std::array::from_fn(|k| coords64[k]);
                    src.fill(c, &mut want).unwrap();
                    src.fill_f64(c64, &mut want64).unwrap();
                    let g: [&mut [f32]; $d] = std::array::from_fn(|_| &mut it.next().unwrap()[..]);
                    src.fill_grad(c, &mut [0.0; 50], g).unwrap();
                    let q: [f32; $d] = std::array::from_fn(|k| p[k]);
                    let (v, g) = src.noise_grad(q);
                    (src.noise(q), v, g.to_vec())
                }};
            }
            match d {
                1 => at!(1),
                2 => at!(2),
                3 => at!(3),
                _ => at!(4),
            }
        };
        assert_eq!(bits(&got), bits(&want), "fill_dyn {d}D");
        assert_eq!(bits(&gv), bits(&want), "fill_grad_dyn {d}D values");
        for k in 0..d {
            assert_eq!(
                bits(&grad[k]),
                bits(&want_grad[k]),
                "fill_grad_dyn {d}D axis {k}"
            );
        }
        assert_eq!(bits(&got64), bits(&want64), "fill_f64_dyn {d}D");
        assert_eq!(
            src.noise_dyn(&p).unwrap().to_bits(),
            want_p.to_bits(),
            "noise_dyn {d}D"
        );
        assert_eq!(pv.to_bits(), want_pv.to_bits(), "noise_grad_dyn {d}D");
        assert_eq!(bits(&pg), bits(&want_pg), "noise_grad_dyn {d}D derivatives");
    }
    // Fbm over Perlin computes up to MAX_LATTICE_DIMENSIONS (16); past it,
    // and past the crate's 32, a typed error.
    for d in [0usize, 17, 33] {
        let pts = points(d, 3);
        let coords: Vec<&[f32]> = pts.iter().map(Vec::as_slice).collect();
        let mut out = vec![f32::from_bits(0x7fa5_a5a5); 3];
        assert_eq!(
            src.fill_dyn(&coords, &mut out),
            Err(Error::InvalidDimension(d))
        );
        assert!(
            out.iter().all(|v| v.to_bits() == 0x7fa5_a5a5),
            "{d}D: wrote"
        );
        assert_eq!(
            src.noise_dyn(&vec![0.5; d]),
            Err(Error::InvalidDimension(d))
        );
        let mut g = vec![0.0; d];
        assert_eq!(
            src.noise_grad_dyn(&vec![0.5; d], &mut g),
            Err(Error::InvalidDimension(d))
        );
        assert!(
            Error::InvalidDimension(d)
                .to_string()
                .contains(&format!("{d} dimensions"))
        );
    }
    let mut short = [0.0f32; 2];
    let refused = src.noise_grad_dyn(&[0.5, 0.5, 0.5], &mut short);
    assert!(
        matches!(refused, Err(Error::InvalidParameter { name: "grad", .. })),
        "{refused:?}"
    );
    let ridged = DynSource::new(Ridged::new(Perlin::new(1)));
    assert_eq!(
        ridged.noise_grad_dyn(&[0.5, 0.5], &mut short),
        Err(Error::NotDifferentiable)
    );
}
