//! Recipes: a source graph as text, parsed at run time.
//!
//! The grammar (whitespace anywhere between tokens):
//!
//! ```text
//! recipe := call
//! call   := name [ "(" [ arg { "," arg } [","] ] ")" ]
//! arg    := call | name "=" value
//! value  := number | name | "[" [ value { "," value } ] "]" | "(" value "," value ")"
//! ```
//!
//! Parsing is one pass with bounded nesting ([`MAX_RECIPE_DEPTH`] calls,
//! lists two deep) and fails at the first error, so any input, of any
//! length, gives a recipe or an error in linear time without deep recursion.
//! A recipe keeps its text's structure (names, parameters and numbers as
//! written, whitespace normalised), so printing it gives text that parses
//! to the same recipe.
//!
//! The files: `parse.rs` the parser (text to a tree of calls), `tree.rs`
//! that tree and its printing, `names.rs` the names a recipe may call and
//! their signatures, `params.rs` typed reads of a call's parameters,
//! `build.rs` the tree built into sources and its cost, `error.rs`
//! [`RecipeError`] and its excerpt, `defaults.rs` [`RecipeDefaults`];
//! [`Recipe`] itself and the limits are here.

mod build;
mod defaults;
mod error;
mod names;
mod params;
mod parse;
mod tree;

pub use defaults::RecipeDefaults;
pub use error::{EXCERPT_CHARS, RecipeError};

use std::fmt;
use std::str::FromStr;

use crate::DynSource;
use build::{build, finished};
use names::BUILT_IN;
use parse::{Parser, is_name_char, is_name_start};
use tree::Call;

/// Most calls nested inside one another in a recipe.
pub const MAX_RECIPE_DEPTH: usize = 24;

/// The most work a recipe may ask for: lattice evaluations per sample
/// (see [`Recipe`]'s "Cost"). A recipe over it is refused when it is built,
/// with its cost in the message: a sample of `fbm` nested ten deep with 32
/// octaves each would take about 10^15 evaluations and never finish.
pub const MAX_RECIPE_COST: u64 = 4096;

/// A source graph as text: `ridged(warp(perlin(seed=7), perlin(seed=8),
/// amplitude=0.5), octaves=5)`.
///
/// [`FromStr`] parses and checks it (every name, input count, parameter and
/// value, as the library's builders would check them) and reports the
/// first problem with its position ([`RecipeError`]); [`fmt::Display`]
/// prints it back (parameters and numbers as written), and that text parses
/// to an equal recipe. [`Recipe::source`] builds the graph as a
/// [`DynSource`], bit-identical to the same graph composed statically.
///
/// | name | inputs | parameters (default) |
/// |---|---|---|
/// | `perlin`, `value` | — | `seed` (0), `hash` (`coordinates`, `permuted`, `reference`: Ken Perlin's table, no seed), `fade` (`quintic`, `cubic`, `cosine`, `linear`), `period` (cells: `64` or `[64, 32]`; missing axes unperiodic) |
/// | `simplex` | — | `seed` (0); `period` (here or in the defaults) is refused: [`crate::Error::NotPeriodic`] |
/// | `fbm`, `billow`, `ridged`, `turbulence` | 0 or 1 (`perlin`) | `octaves` (6), `lacunarity` (2), `persistence` (0.5), `normalize` (`false`) |
/// | `marble` | 0 or 1 | the fractal ones, `stripes` (1), `power` (4) |
/// | `scale_bias` | 1 | `scale` (1), `bias` (0) |
/// | `abs` | 1 | — |
/// | `clamp` | 1 | `lower` (−1), `upper` (1) |
/// | `terrace` | 1 | `points` (a list of 2 to 32 numbers, required) |
/// | `curve` | 1 | `points` (a list of 2 to 32 pairs `(x, y)`, required) |
/// | `add`, `multiply`, `min`, `max` | 2 | — |
/// | `blend` | 3 (a, b, control) | — |
/// | `select` | 3 (a, b, control) | `threshold` (0), `edge` (0) |
/// | `warp` | 2 (source, warp) | `amplitude` (1), `iterations` (1) |
///
/// # Cost and range
///
/// A recipe is refused when it is built if a sample would take more than
/// [`MAX_RECIPE_COST`] lattice evaluations, or if its values could leave
/// `f32`'s range (the bounds of a node, e.g. `scale_bias(perlin,
/// scale=3e38, bias=3e38)`, overflow to infinity). The cost counts 1 for a
/// lattice (`perlin`, `value`) or a caller's source, multiplies by the
/// octaves through every fractal, counts a `warp`'s field once per axis (4)
/// and iteration plus its source, and adds 1 per operator over the sum of
/// its inputs: `fbm(octaves=32)` costs 32, `fbm(fbm(octaves=32),
/// octaves=32)` 1024, and three such fractals nested 32 768, refused.
///
/// The operators are those of [`Map`], [`Combine`], [`Blend`] and
/// [`Warp`]; the fractals those of [`Fbm`] and its siblings. Names given to
/// [`Recipe::parse_with`] add the caller's own sources.
///
/// ```
/// use noisefield::{Recipe, Source};
///
/// let recipe: Recipe = "ridged(warp(perlin(seed=7), perlin(seed=8), amplitude=0.5), octaves=5)"
///     .parse()?;
/// assert_eq!(recipe.to_string().parse::<Recipe>()?, recipe);
/// let terrain = recipe.source();
/// let mut out = vec![0.0; 2];
/// terrain.fill([&[0.5, 10.25], &[3.0, -4.5]], &mut out)?;
///
/// let error = "fbm(perlin, octaves=40)".parse::<Recipe>().unwrap_err();
/// assert_eq!(error.column(), 13);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`Map`]: crate::Map
/// [`Combine`]: crate::Combine
/// [`Blend`]: crate::Blend
/// [`Warp`]: crate::Warp
/// [`Fbm`]: crate::Fbm
#[derive(Clone, Debug)]
pub struct Recipe {
    root: Call,
    users: Vec<(String, DynSource)>,
    source: DynSource,
    cost: u64,
}

impl PartialEq for Recipe {
    /// Recipes are equal when they print the same (and name the same
    /// caller sources).
    fn eq(&self, other: &Recipe) -> bool {
        self.to_string() == other.to_string()
    }
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.root)
    }
}

impl FromStr for Recipe {
    type Err = RecipeError;

    fn from_str(text: &str) -> Result<Recipe, RecipeError> {
        Recipe::parse_with(text, &[])
    }
}

impl Recipe {
    /// Parses `text` with the caller's own sources available by name
    /// (names are identifiers, not a built-in name; a caller's source takes
    /// no inputs or parameters in the text).
    ///
    /// ```
    /// use noisefield::{DynSource, Map, Perlin, Recipe};
    ///
    /// let island = DynSource::new(Map::scale_bias(Perlin::new(3), 0.5, 0.25));
    /// let recipe = Recipe::parse_with("fbm(island, octaves=3)", &[("island", island)])?;
    /// assert_eq!(recipe.to_string(), "fbm(island, octaves=3)");
    /// # Ok::<(), noisefield::RecipeError>(())
    /// ```
    pub fn parse_with(text: &str, sources: &[(&str, DynSource)]) -> Result<Recipe, RecipeError> {
        for (name, _) in sources {
            let identifier =
                name.chars().next().is_some_and(is_name_start) && name.chars().all(is_name_char);
            if !identifier {
                return Err(RecipeError::at(
                    text,
                    0,
                    format!("the source name {name:?} is not an identifier (letters, digits, _)"),
                ));
            }
            if BUILT_IN.iter().any(|b| b.name == *name) {
                return Err(RecipeError::at(
                    text,
                    0,
                    format!("the source name {name:?} is a built-in name"),
                ));
            }
        }
        let mut parser = Parser {
            text,
            at: 0,
            users: sources,
        };
        let root = parser.call(0)?;
        parser.skip_space();
        if parser.at < text.len() {
            return Err(parser.error("unexpected text after the recipe's end"));
        }
        let users: Vec<(String, DynSource)> = sources
            .iter()
            .map(|(n, s)| (n.to_string(), s.clone()))
            .collect();
        let built = build(text, &root, &users, &RecipeDefaults::default())?;
        let cost = built.cost;
        Ok(Recipe {
            root,
            users,
            source: finished(built),
            cost,
        })
    }

    /// Lattice evaluations per sample, with the library's defaults for what
    /// the recipe leaves out: at most [`MAX_RECIPE_COST`] (see "Cost and
    /// range" above).
    ///
    /// ```
    /// use noisefield::Recipe;
    ///
    /// let recipe: Recipe = "warp(fbm(octaves=4), perlin, iterations=2)".parse()?;
    /// assert_eq!(recipe.cost(), 4 + 2 * 4 * 1 + 1);
    /// # Ok::<(), noisefield::RecipeError>(())
    /// ```
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The graph, at the best level this CPU has (change it with
    /// [`DynSource::with_level`]).
    pub fn source(&self) -> DynSource {
        self.source.clone()
    }

    /// The graph with `defaults` for what the recipe leaves out. The text
    /// was checked with the library's defaults; other defaults can make a
    /// parameter invalid (a lacunarity of 2.5 with a period), which is
    /// reported at the node it applies to.
    pub fn source_with(&self, defaults: &RecipeDefaults) -> Result<DynSource, RecipeError> {
        let text = self.to_string();
        // Positions refer to the printed text, which the caller sees.
        let printed: Recipe = Recipe::parse_with(&text, &self.user_refs())?;
        Ok(finished(build(
            &text,
            &printed.root,
            &self.users,
            defaults,
        )?))
    }

    /// Whether the recipe calls `name` anywhere (`"fbm"`, `"warp"`, a
    /// caller's source name).
    pub fn contains(&self, name: &str) -> bool {
        fn walk(c: &Call, name: &str) -> bool {
            c.name == name || c.inputs.iter().any(|i| walk(i, name))
        }
        walk(&self.root, name)
    }

    fn user_refs(&self) -> Vec<(&str, DynSource)> {
        self.users
            .iter()
            .map(|(n, s)| (n.as_str(), s.clone()))
            .collect()
    }
}
