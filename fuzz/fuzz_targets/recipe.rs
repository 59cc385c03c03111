//! Recipe text: any bytes (as UTF-8, invalid sequences replaced) parse to a
//! recipe or give an error whose position is inside the text, never a panic
//! or a stack overflow, and an excerpt of bounded length around it. A
//! recipe costs at most `MAX_RECIPE_COST` lattice evaluations per sample,
//! its bounds are finite, and it prints as text that parses to an equal
//! recipe, and its graph gives the same bits at every available level as
//! at the scalar level on a few points (NaN exactly where the scalar level
//! has NaN).

#![no_main]

use libfuzzer_sys::fuzz_target;
use noisefield::{EXCERPT_CHARS, Level, MAX_RECIPE_COST, Recipe, Source};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let recipe = match text.parse::<Recipe>() {
        Ok(r) => r,
        Err(e) => {
            assert!(e.offset() <= text.len());
            assert!(text.is_char_boundary(e.offset()));
            assert!(e.column() >= 1 && !e.message().is_empty());
            // The excerpt: two lines, bounded whatever the text's length,
            // the caret within the first.
            let excerpt = e.excerpt(&text);
            let lines: Vec<&str> = excerpt.split('\n').collect();
            assert_eq!(lines.len(), 2, "{excerpt:?}");
            assert!(lines[0].chars().count() <= EXCERPT_CHARS + 2, "{excerpt:?}");
            assert!(
                lines[1].chars().count() <= lines[0].chars().count() + 1,
                "{excerpt:?}"
            );
            assert!(lines[1].ends_with('^'));
            return;
        }
    };
    // Every built recipe is within the work limit, and its values within f32.
    assert!(
        recipe.cost() >= 1 && recipe.cost() <= MAX_RECIPE_COST,
        "{recipe}: {}",
        recipe.cost()
    );
    for d in 1..=4 {
        let (lo, hi) = recipe.source().bounds(d);
        assert!(
            lo.is_finite() && hi.is_finite(),
            "{recipe} in {d}D: {lo}..{hi}"
        );
    }
    let printed = recipe.to_string();
    let again: Recipe = printed.parse().expect("printed recipes parse");
    assert_eq!(again, recipe);
    assert_eq!(again.to_string(), printed);

    let xs = [
        0.25f32,
        -3.5,
        17.125,
        1e6,
        f32::NAN,
        0.0,
        -0.0,
        1e30,
        2.5e-3,
    ];
    let ys = [1.5f32, 0.75, -9.0, 3.0, 2.0, f32::INFINITY, 0.5, -1e30, 7.0];
    let source = recipe.source();
    let scalar = source.clone().with_level(Level::Scalar).unwrap();
    let mut want = [0.0f32; 9];
    scalar.fill([&xs, &ys], &mut want).unwrap();
    for level in [Level::Portable, Level::Avx2, Level::Avx512, Level::Neon] {
        if let Ok(s) = source.clone().with_level(level) {
            let mut got = [0.0f32; 9];
            s.fill([&xs, &ys], &mut got).unwrap();
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g.to_bits(), w.to_bits(), "{printed} at {level}");
            }
        }
    }
});
