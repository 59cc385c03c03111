//! Run-time composition: `DynSource` and `Recipe`. Graphs built from text or
//! boxed node by node against the same graphs composed statically (bit for
//! bit, every level, points in both precisions, grids on one thread and the
//! pool), the printed form, and errors with their positions for bad text of
//! every kind, including huge and deeply nested inputs.

use crate::common::levels;
use noisefield::{
    Billow, Blend, Combine, DynSource, EXCERPT_CHARS, Fade, Fbm, Grid2, Grid3, Level,
    MAX_RECIPE_COST, MAX_RECIPE_DEPTH, Map, Marble, Perlin, Recipe, RecipeDefaults, Ridged, Source,
    Turbulence, Value, Warp,
};

/// 1031 pseudo-random points in [-60, 60]³ (a tail after whole packs).
fn points() -> [Vec<f32>; 3] {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 40) as f32 / (1u64 << 24) as f32) * 120.0 - 60.0
    };
    let n = 1031;
    std::array::from_fn(|_| (0..n).map(|_| next()).collect())
}

fn same_bits(a: &[f32], b: &[f32], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.to_bits(), y.to_bits(), "{what}: sample {i}: {x} vs {y}");
    }
}

/// Everything `source` computes on a fixed set of inputs: `f32` and `f64`
/// 3D points (the `f64` ones far out too), 2D points, one-point calls, a
/// fine 2D grid (row path) on one thread and on the pool, a coarse 3D grid.
fn outputs(source: &impl Source) -> Vec<(String, Vec<f32>)> {
    let p = points();
    let n = p[0].len();
    let mut all = Vec::new();
    let mut out = vec![0.0; n];
    source.fill([&p[0], &p[1], &p[2]], &mut out).unwrap();
    all.push(("fill3".to_string(), out.clone()));
    source.fill([&p[0], &p[1]], &mut out).unwrap();
    all.push(("fill2".to_string(), out.clone()));
    let far: Vec<Vec<f64>> = p
        .iter()
        .map(|a| a.iter().map(|&v| f64::from(v) * 1.37 + 1e9).collect())
        .collect();
    source
        .fill_f64([&far[0], &far[1], &far[2]], &mut out)
        .unwrap();
    all.push(("fill3_f64 far".to_string(), out.clone()));
    let one: Vec<f32> = (0..64).map(|i| source.noise([p[0][i], p[1][i]])).collect();
    all.push(("noise2".to_string(), one));
    let grid = Grid2::new([-3.25, 7.5], [1.0 / 16.0, 1.0 / 32.0], [67, 45]);
    let mut g = vec![0.0; 67 * 45];
    source.fill_grid(&grid, &mut g).unwrap();
    all.push(("fill_grid2".to_string(), g.clone()));
    source.fill_grid_par(&grid, &mut g).unwrap();
    all.push(("fill_grid2_par".to_string(), g));
    let grid3 = Grid3::new([0.5, -2.0, 3.0], [0.9, 1.1, 0.8], [9, 7, 5]);
    let mut g = vec![0.0; 9 * 7 * 5];
    source.fill_grid(&grid3, &mut g).unwrap();
    all.push(("fill_grid3".to_string(), g));
    all
}

/// The recipe's graph equals `expected` (composed statically) bit for bit
/// at every level, and at every level equals the scalar level.
fn same_as_static<T: Source + Clone>(text: &str, expected: T, at: impl Fn(T, Level) -> T) {
    let recipe: Recipe = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let scalar = outputs(&at(expected.clone(), Level::Scalar));
    for level in levels() {
        let from_text = recipe.source().with_level(level).unwrap();
        assert_eq!(from_text.level(), level);
        let static_graph = at(expected.clone(), level);
        let (got, want) = (outputs(&from_text), outputs(&static_graph));
        for ((what, g), (_, w)) in got.iter().zip(&want) {
            same_bits(g, w, &format!("{text} at {level}: {what}"));
        }
        for ((what, w), (_, s)) in want.iter().zip(&scalar) {
            same_bits(w, s, &format!("{text} at {level} vs scalar: {what}"));
        }
        assert!(
            want.iter().any(|(_, w)| w.iter().any(|v| *v != 0.0)),
            "{text}: all zero"
        );
    }
}

#[test]
fn recipes_compute_the_statically_composed_graphs() {
    same_as_static(
        "ridged(warp(perlin(seed=7), perlin(seed=8), amplitude=0.5), octaves=5)",
        Ridged::new(Warp::new(Perlin::new(7), Perlin::new(8)).amplitude(0.5)).octaves(5),
        |g, l| g.with_level(l).unwrap(),
    );
    same_as_static(
        "warp(fbm(perlin(seed=3), octaves=6), perlin(seed=4), amplitude=0.5, iterations=2)",
        Warp::new(Fbm::new(Perlin::new(3)).octaves(6), Perlin::new(4))
            .amplitude(0.5)
            .iterations(2),
        |g, l| g.with_level(l).unwrap(),
    );
    same_as_static(
        "select(fbm(value(seed=1, fade=cubic)), ridged(perlin(seed=2, hash=permuted)), \
         perlin(seed=9), threshold=0.1, edge=0.2)",
        Blend::select(
            Fbm::new(Value::new(1).with_fade(Fade::Cubic)),
            Ridged::new(Perlin::permuted(2)),
            Perlin::new(9),
            0.1,
            0.2,
        ),
        |g, l| g.with_level(l).unwrap(),
    );
    same_as_static(
        "terrace(scale_bias(max(billow, turbulence(perlin(seed=5))), scale=0.5, bias=0.1), \
         points=[-1, -0.2, 0.3, 1])",
        Map::terrace(
            Map::scale_bias(
                Combine::max(Billow::new(Perlin::new(0)), Turbulence::new(Perlin::new(5))),
                0.5,
                0.1,
            ),
            &[-1.0, -0.2, 0.3, 1.0],
        ),
        |g, l| g.with_level(l).unwrap(),
    );
    same_as_static(
        "curve(blend(multiply(perlin(seed=1), value(seed=2)), add(abs(perlin(seed=3)), \
         clamp(perlin(seed=4), lower=-0.5, upper=0.25)), fbm(perlin(seed=5, period=[8, 16]), \
         octaves=3)), points=[(-1, 0), (0, 0.5), (1, 0.75)])",
        Map::curve(
            Blend::new(
                Combine::multiply(Perlin::new(1), Value::new(2)),
                Combine::add(
                    Map::abs(Perlin::new(3)),
                    Map::clamp(Perlin::new(4), -0.5, 0.25),
                ),
                Fbm::new(
                    Perlin::new(5)
                        .with_period([8, 16, u32::MAX, u32::MAX])
                        .unwrap(),
                )
                .octaves(3),
            ),
            &[(-1.0, 0.0), (0.0, 0.5), (1.0, 0.75)],
        ),
        |g, l| g.with_level(l).unwrap(),
    );
    same_as_static(
        "marble(perlin(hash=reference), stripes=2, power=3, octaves=4)",
        Marble::new(Perlin::reference())
            .stripes(2.0)
            .power(3.0)
            .octaves(4),
        |g, l| g.with_level(l).unwrap(),
    );
    // A periodic fractal over a boxed node: the periods cross the box (the
    // fractal centres coordinates in the period before scaling them).
    same_as_static(
        "fbm(abs(perlin(seed=2, period=16)), octaves=3, normalize=true)",
        Fbm::new(Map::abs(Perlin::new(2).with_period([16; 4]).unwrap()))
            .octaves(3)
            .normalize(true),
        |g, l| g.with_level(l).unwrap(),
    );
}

#[test]
fn boxing_any_node_changes_no_bit() {
    let p = |seed| DynSource::new(Perlin::new(seed));
    let boxed = DynSource::new(
        Warp::new(
            DynSource::new(Fbm::new(p(3)).octaves(4)),
            DynSource::new(Combine::add(p(4), DynSource::new(Value::new(5)))),
        )
        .amplitude(0.75),
    );
    let plain = Warp::new(
        Fbm::new(Perlin::new(3)).octaves(4),
        Combine::add(Perlin::new(4), Value::new(5)),
    )
    .amplitude(0.75);
    for level in levels() {
        let got = outputs(&boxed.clone().with_level(level).unwrap());
        let want = outputs(&plain.clone().with_level(level).unwrap());
        for ((what, g), (_, w)) in got.iter().zip(&want) {
            same_bits(g, w, &format!("boxed graph at {level}: {what}"));
        }
    }
    // The box reports what is inside.
    let inner = Fbm::new(Perlin::new(1).with_period([4; 4]).unwrap()).octaves(2);
    let b = DynSource::new(inner.clone());
    assert_eq!(b.bounds(3), inner.bounds(3));
    assert_eq!(b.check(), Ok(()));
    assert_eq!(
        DynSource::new(Fbm::new(Perlin::new(1)).octaves(0)).check(),
        Fbm::new(Perlin::new(1)).octaves(0).check()
    );
    assert!(
        DynSource::new(Fbm::new(Perlin::new(1)).octaves(0))
            .check()
            .is_err()
    );
}

#[test]
fn printing_gives_canonical_text_that_parses_back() {
    let cases = [
        ("perlin", "perlin"),
        ("  fbm ", "fbm"),
        ("fbm()", "fbm()"),
        (
            "fbm( perlin ( seed = 7 ) ,octaves=5 , )",
            "fbm(perlin(seed=7), octaves=5)",
        ),
        (
            "ridged(warp(perlin(seed=7),perlin(seed=8),amplitude=0.5),octaves=5)",
            "ridged(warp(perlin(seed=7), perlin(seed=8), amplitude=0.5), octaves=5)",
        ),
        (
            "curve(perlin,points=[ ( -1,0 ),(0,.5),(1 , 1e0) ])",
            "curve(perlin, points=[(-1, 0), (0, .5), (1, 1e0)])",
        ),
        (
            "select(perlin, value, perlin(seed=3, period=[4,8]), edge=0.25)",
            "select(perlin, value, perlin(seed=3, period=[4, 8]), edge=0.25)",
        ),
        (
            "marble(octaves=3,perlin(hash=permuted,seed=18446744073709551615))",
            "marble(octaves=3, perlin(hash=permuted, seed=18446744073709551615))",
        ),
    ];
    for (text, printed) in cases {
        let r: Recipe = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(r.to_string(), printed, "{text:?}");
        let again: Recipe = printed.parse().unwrap();
        assert_eq!(again, r);
        assert_eq!(again.to_string(), printed);
    }
    let a: Recipe = "fbm(perlin(seed=1))".parse().unwrap();
    let b: Recipe = "fbm(perlin(seed=2))".parse().unwrap();
    assert_ne!(a, b);
    // The largest seed survives exactly (not through f64).
    let max: Recipe = "perlin(seed=18446744073709551615)".parse().unwrap();
    same_bits(
        &outputs(&max.source())[0].1,
        &outputs(&Perlin::new(u64::MAX))[0].1,
        "seed u64::MAX",
    );
}

/// `text` fails at `column` with a message containing `needle`.
fn fails(text: &str, column: usize, needle: &str) {
    match text.parse::<Recipe>() {
        Ok(r) => panic!("{text:?} parsed as {r}"),
        Err(e) => {
            assert!(
                e.message().contains(needle),
                "{text:?}: message {:?} lacks {needle:?}",
                e.message()
            );
            assert_eq!(e.column(), column, "{text:?}: {e}");
            assert_eq!(e.to_string(), format!("column {column}: {}", e.message()));
        }
    }
}

#[test]
fn bad_recipes_say_where_and_what() {
    fails("", 1, "expected a source name, found the end of the recipe");
    fails("   ", 4, "expected a source name");
    fails(
        "perlinn",
        1,
        "unknown source \"perlinn\"; known: perlin, value, simplex, fbm",
    );
    fails(
        "fbm(perlin, octavs=4)",
        13,
        "unknown parameter \"octavs\": fbm takes octaves",
    );
    fails("abs(perlin, scale=2)", 13, "abs takes no parameters");
    fails(
        "fbm(perlin",
        11,
        "expected ',' or ')' in the arguments of fbm, found the end",
    );
    fails("fbm(perlin))", 12, "unexpected text after the recipe's end");
    fails("fbm perlin", 5, "unexpected text after the recipe's end");
    fails(
        "add(perlin)",
        1,
        "add takes 2 input sources and was given 1",
    );
    fails(
        "blend(perlin, perlin)",
        1,
        "blend takes 3 input sources and was given 2",
    );
    fails("abs(perlin, value)", 13, "abs takes at most 1 input source");
    fails("perlin(value)", 8, "perlin takes no input sources");
    fails(
        "fbm(perlin, octaves=4, octaves=5)",
        24,
        "parameter \"octaves\" given twice",
    );
    fails(
        "scale_bias(perlin, scale=nan)",
        26,
        "scale must be a number, not nan",
    );
    fails("scale_bias(perlin, scale=1e39)", 26, "beyond the f32 range");
    fails(
        "scale_bias(perlin, scale=-)",
        26,
        "expected a number, found '-'",
    );
    fails("fbm(perlin, octaves=40)", 13, "octaves");
    fails(
        "fbm(perlin, octaves=2.5)",
        21,
        "octaves must be a whole number",
    );
    fails(
        "fbm(perlin, octaves=-1)",
        21,
        "octaves must be a whole number",
    );
    fails("perlin(seed=18446744073709551616)", 13, "larger than");
    fails(
        "perlin(hash=sha256)",
        13,
        "hash must be one of coordinates, permuted, reference",
    );
    fails("perlin(hash=reference, seed=3)", 24, "takes no seed");
    fails("perlin(period=0)", 8, "period");
    fails(
        "perlin(period=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])",
        15,
        "period lists 1 to 16 axes",
    );
    fails("clamp(perlin, lower=1, upper=-1)", 1, "clamp");
    fails("terrace(perlin)", 1, "terrace needs points=[...]");
    fails("terrace(perlin, points=[0.5])", 17, "terrace");
    fails("terrace(perlin, points=3)", 24, "points must be a list");
    fails(
        "curve(perlin, points=[0, 1])",
        23,
        "a curve point is a pair (x, y)",
    );
    fails(
        "curve(perlin, points=[(0 1)])",
        26,
        "expected ',' between the two numbers",
    );
    fails("select(perlin, value, perlin, edge=-1)", 31, "edge");
    fails("warp(perlin, perlin, iterations=9)", 22, "iterations");
    fails("fbm(perlin(period=4), lacunarity=2.5)", 23, "lacunarity");
    fails(
        "fbm(perlin, normalize=yes)",
        23,
        "normalize must be one of true, false",
    );
    fails(
        "fbm(perlin, =3)",
        13,
        "expected an input source or a parameter",
    );
    fails("fbm(perlin, octaves=)", 21, "expected a value, found ')'");
    fails(
        "terrace(perlin, points=[[[1]]])",
        26,
        "lists nest at most two deep",
    );
    fails(
        "fbm(perlin,, )",
        12,
        "expected an input source or a parameter",
    );
    // Not ASCII: the column counts characters, and a word runs over every
    // letter, so it is reported whole.
    fails("fbm(perlin, é=1)", 13, "unknown parameter \"é\": fbm takes");
    fails("pérlin", 1, "unknown source \"pérlin\"; known: perlin");
    fails("add(perlin, ñ)", 13, "unknown source \"ñ\"");
    fails("perlin(hash=pérmuted)", 13, "hash must be one of");
    // Every distinct point counted, and every point given.
    fails(
        "terrace(perlin, points=[0, 0, 0])",
        17,
        "3 given, 1 distinct; at least 2 distinct points",
    );
    fails("terrace(perlin, points=[0.5])", 17, "1 given; at least 2");
}

#[test]
fn recipes_that_ask_too_much_work_are_refused_with_their_cost() {
    let fbm = |inner: &str| format!("fbm({inner}, octaves=32)");
    // 32 and 32² lattice evaluations per sample: built, and counted.
    let one: Recipe = fbm("perlin").parse().unwrap();
    assert_eq!(one.cost(), 32);
    let two: Recipe = fbm(&fbm("perlin")).parse().unwrap();
    assert_eq!(two.cost(), 1024);
    // 32³ and more: refused at the outermost node that goes over, with the cost.
    let three = fbm(&fbm(&fbm("perlin")));
    fails(
        &three,
        1,
        "fbm costs 32768 lattice evaluations per sample, more than the 4096",
    );
    // Ten deep (10^15): refused when built, at once, the cost saturating
    // rather than wrapping.
    let mut deep = "perlin".to_string();
    for _ in 0..10 {
        deep = fbm(&deep);
    }
    let start = std::time::Instant::now();
    let e = deep.parse::<Recipe>().unwrap_err();
    assert!(e.message().contains("costs 32768"), "{e}");
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    // Operators add their inputs and 1; a warp counts its field once per
    // axis (4) and iteration, then its source.
    let r: Recipe = "add(perlin, abs(value))".parse().unwrap();
    assert_eq!(r.cost(), 1 + (1 + 1) + 1);
    let r: Recipe = "warp(fbm(octaves=3), fbm(octaves=5), iterations=8)"
        .parse()
        .unwrap();
    assert_eq!(r.cost(), 8 * 4 * 5 + 3 + 1);
    assert_eq!(MAX_RECIPE_COST, 4096);
    // Exactly at the limit is fine; one over is not.
    let at: Recipe = "fbm(fbm(fbm(octaves=16), octaves=16), octaves=16)"
        .parse()
        .unwrap();
    assert_eq!(at.cost(), 4096);
    fails(
        "add(perlin, fbm(fbm(fbm(octaves=16), octaves=16), octaves=16))",
        1,
        "add costs 4098",
    );
    // The defaults count: `fbm(fbm(fbm))` is 216 with 6 octaves, 32768 with 32.
    let r: Recipe = "fbm(fbm(fbm))".parse().unwrap();
    assert_eq!(r.cost(), 216);
    let many = RecipeDefaults {
        octaves: Some(32),
        ..RecipeDefaults::default()
    };
    let e = r.source_with(&many).unwrap_err();
    assert!(e.message().contains("costs 32768"), "{e}");
}

#[test]
fn recipes_whose_values_overflow_f32_are_refused() {
    fails(
        "scale_bias(perlin, scale=3e38, bias=3e38)",
        1,
        "beyond the f32 range",
    );
    fails(
        "add(scale_bias(value, scale=2e38), scale_bias(value, scale=2e38))",
        1,
        "add: its values may reach",
    );
    fails(
        "multiply(scale_bias(perlin, scale=1e20), scale_bias(perlin, scale=1e20))",
        1,
        "beyond the f32 range",
    );
    // Large but finite bounds are fine, and every built recipe's bounds are finite.
    for text in [
        "scale_bias(perlin, scale=1e38)",
        "scale_bias(perlin, scale=1e38, bias=-1e38)",
        "multiply(scale_bias(perlin, scale=1e19), scale_bias(perlin, scale=1e19))",
    ] {
        let r: Recipe = text.parse().unwrap();
        for d in 1..=4 {
            let (lo, hi) = r.source().bounds(d);
            assert!(
                lo.is_finite() && hi.is_finite(),
                "{text} in {d}D: {lo}..{hi}"
            );
        }
    }
}

#[test]
fn an_error_shows_a_bounded_excerpt_of_a_long_recipe() {
    // The error at the end of 130 KB of text: at most EXCERPT_CHARS of it,
    // cut with … on either side, and the caret under the column.
    let text = format!(
        "scale_bias(perlin, scale=0.5{}, bias=x)",
        "0".repeat(130_000)
    );
    let e = text.parse::<Recipe>().unwrap_err();
    assert!(e.message().contains("bias must be a number"), "{e}");
    // The message quotes a long value in part only.
    let long = format!("scale_bias(perlin, scale=1{})", "0".repeat(130_000));
    let m = long.parse::<Recipe>().unwrap_err().to_string();
    assert!(m.len() < 200 && m.contains("0…"), "{m}");
    let excerpt = e.excerpt(&text);
    let lines: Vec<&str> = excerpt.lines().collect();
    assert_eq!(lines.len(), 2, "{excerpt}");
    assert!(lines[0].chars().count() <= EXCERPT_CHARS + 2, "{excerpt}");
    assert!(
        lines[0].starts_with('…') && lines[0].ends_with("bias=x)"),
        "{excerpt}"
    );
    let caret = lines[1].chars().count() - 1;
    assert!(lines[1].ends_with('^'));
    assert_eq!(lines[0].chars().nth(caret), Some('x'), "{excerpt}");
    // A short recipe is shown whole.
    let e = "fbm(perlin, octaves=40)".parse::<Recipe>().unwrap_err();
    assert_eq!(
        e.excerpt("fbm(perlin, octaves=40)"),
        "fbm(perlin, octaves=40)\n            ^"
    );
    // An error at the start of a long text: cut on the right only.
    let text = format!("perlinn({})", " ".repeat(1000));
    let e = text.parse::<Recipe>().unwrap_err();
    let excerpt = e.excerpt(&text);
    assert!(
        excerpt.starts_with("perlinn(") && excerpt.contains("…\n^"),
        "{excerpt:?}"
    );
}

#[test]
fn huge_and_deep_recipes_fail_fast_without_overflowing_the_stack() {
    let ten_mb = 10 << 20;
    // Deep nesting, far past the limit: refused at the limit.
    let deep = "abs(".repeat(ten_mb / 4);
    let e = deep.parse::<Recipe>().unwrap_err();
    assert!(e.message().contains("nested more than"), "{e}");
    assert_eq!(e.column(), 4 * MAX_RECIPE_DEPTH + 1);
    // Just inside the limit: it parses, builds, and evaluates (on a thread
    // with a small stack).
    let ok = format!(
        "{}perlin{}",
        "abs(".repeat(MAX_RECIPE_DEPTH - 1),
        ")".repeat(MAX_RECIPE_DEPTH - 1)
    );
    let r: Recipe = ok.parse().unwrap();
    let v = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let s = r.source();
            let mut out = vec![0.0; 100];
            let xs: Vec<f32> = (0..100).map(|i| i as f32 * 0.37).collect();
            s.fill_f64(
                [
                    &xs.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
                    &vec![0.5; 100],
                ],
                &mut out,
            )
            .unwrap();
            (out, s.noise([1.3, 0.5]))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(v.1, Perlin::new(0).noise([1.3, 0.5]).abs());
    // Too many inputs: refused at the first extra one, not after reading 10 MB.
    let wide = format!("add(perlin, {}", "perlin, ".repeat(ten_mb / 8));
    let e = wide.parse::<Recipe>().unwrap_err();
    assert_eq!(e.column(), 21, "{e}");
    // A long list: refused at the 33rd value.
    let list = format!("terrace(perlin, points=[{}", "0, ".repeat(ten_mb / 3));
    let e = list.parse::<Recipe>().unwrap_err();
    assert!(e.message().contains("at most 32"), "{e}");
    // 10 MB of space around a valid recipe is fine.
    let spaced = format!("{0}fbm({0}perlin{0}){0}", " ".repeat(ten_mb / 4));
    assert_eq!(spaced.parse::<Recipe>().unwrap().to_string(), "fbm(perlin)");
    // Unbalanced: 10 MB of closing parentheses.
    let e = format!("perlin{}", ")".repeat(ten_mb))
        .parse::<Recipe>()
        .unwrap_err();
    assert_eq!(e.column(), 7);
}

#[test]
fn callers_name_their_own_sources() {
    let island = DynSource::new(Map::scale_bias(Perlin::new(3), 0.5, 0.25));
    let r = Recipe::parse_with(
        "add(fbm(island, octaves=3), island)",
        &[("island", island.clone())],
    )
    .unwrap();
    assert_eq!(r.to_string(), "add(fbm(island, octaves=3), island)");
    assert!(r.contains("island") && r.contains("fbm") && !r.contains("warp"));
    let want = Combine::add(
        Fbm::new(Map::scale_bias(Perlin::new(3), 0.5, 0.25)).octaves(3),
        Map::scale_bias(Perlin::new(3), 0.5, 0.25),
    );
    for ((what, g), (_, w)) in outputs(&r.source()).iter().zip(&outputs(&want)) {
        same_bits(g, w, &format!("caller's source: {what}"));
    }
    // Unknown without it; the message lists the caller's names too.
    let e = "fbm(island)".parse::<Recipe>().unwrap_err();
    assert_eq!(e.column(), 5);
    let e = Recipe::parse_with("fbm(isle)", &[("island", island.clone())]).unwrap_err();
    assert!(e.message().ends_with("warp, island"), "{e}");
    // A caller's source takes no arguments in the text.
    let e = Recipe::parse_with("island(seed=3)", &[("island", island.clone())]).unwrap_err();
    assert_eq!(e.column(), 8);
    // Names must be identifiers and not built in.
    assert!(Recipe::parse_with("perlin", &[("fbm", island.clone())]).is_err());
    assert!(Recipe::parse_with("perlin", &[("my island", island)]).is_err());
}

#[test]
fn defaults_fill_what_the_recipe_leaves_out() {
    let r: Recipe = "add(fbm, ridged(perlin(seed=3), octaves=2))"
        .parse()
        .unwrap();
    let defaults = RecipeDefaults {
        seed: 11,
        octaves: Some(4),
        period: Some([32; 4]),
        ..RecipeDefaults::default()
    };
    let got = r.source_with(&defaults).unwrap();
    let period = |p: Perlin| p.with_period([32; 4]).unwrap();
    let want = Combine::add(
        Fbm::new(period(Perlin::new(11))).octaves(4),
        Ridged::new(period(Perlin::new(3))).octaves(2),
    );
    for ((what, g), (_, w)) in outputs(&got).iter().zip(&outputs(&want)) {
        same_bits(g, w, &format!("defaults: {what}"));
    }
    // A default can make a node invalid: reported at that node.
    let bad = RecipeDefaults {
        lacunarity: Some(2.5),
        period: Some([32; 4]),
        ..RecipeDefaults::default()
    };
    let e = r.source_with(&bad).unwrap_err();
    assert_eq!(e.column(), 5, "{e}");
    assert!(e.message().contains("lacunarity"), "{e}");
}

mod random_text {
    use noisefield::Recipe;
    use proptest::prelude::*;

    /// Tokens of the grammar and near misses, so random sequences often
    /// get deep into the parser and the builders.
    const PIECES: &[&str] = &[
        "perlin",
        "value",
        "fbm",
        "ridged",
        "marble",
        "warp",
        "select",
        "curve",
        "terrace",
        "clamp",
        "add",
        "abs",
        "island",
        "(",
        ")",
        "[",
        "]",
        ",",
        "=",
        " ",
        "seed",
        "octaves",
        "points",
        "period",
        "hash",
        "permuted",
        "reference",
        "edge",
        "amplitude",
        "iterations",
        "0",
        "1",
        "-1",
        "2.5",
        "1e39",
        "nan",
        ".",
        "e",
        "+",
        "40",
        "é",
        "\u{0}",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Any text gives a recipe or an error, never a panic; an error's
        /// position is inside the text; a recipe prints as text that
        /// parses to an equal recipe.
        #[test]
        fn any_text_parses_or_fails_cleanly(picks in prop::collection::vec(0..PIECES.len(), 0..40)) {
            let text: String = picks.iter().map(|&i| PIECES[i]).collect();
            match text.parse::<Recipe>() {
                Ok(r) => {
                    let printed = r.to_string();
                    let again: Recipe = printed.parse().unwrap();
                    prop_assert_eq!(&again, &r);
                    prop_assert_eq!(again.to_string(), printed);
                }
                Err(e) => {
                    prop_assert!(e.offset() <= text.len());
                    prop_assert!(text.is_char_boundary(e.offset()));
                    prop_assert!(!e.message().is_empty());
                }
            }
        }
    }
}
