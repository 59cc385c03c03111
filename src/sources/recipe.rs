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

use std::fmt;
use std::str::FromStr;

use crate::Source;
use crate::{
    Billow, Blend, Combine, DynSource, Error, Fade, Fbm, HashMode, Level, MAX_CONTROL_POINTS, Map,
    Marble, Perlin, Ridged, Turbulence, Value, Warp,
};

/// Most calls nested inside one another in a recipe.
pub const MAX_RECIPE_DEPTH: usize = 24;

/// The most work a recipe may ask for: lattice evaluations per sample
/// (see [`Recipe`]'s "Cost"). A recipe over it is refused when it is built,
/// with its cost in the message: a sample of `fbm` nested ten deep with 32
/// octaves each would take about 10^15 evaluations and never finish.
pub const MAX_RECIPE_COST: u64 = 4096;

/// Axes a warp field is sampled for, per iteration, in the cost of a
/// `warp` (the most a field has: 4D).
const WARP_AXES: u64 = 4;

/// Most values in one list parameter (`terrace` takes up to
/// [`MAX_CONTROL_POINTS`] points).
const MAX_LIST: usize = MAX_CONTROL_POINTS;

/// Why a recipe was refused: where, and what is wrong, for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeError {
    offset: usize,
    column: usize,
    message: String,
}

impl RecipeError {
    fn at(text: &str, offset: usize, message: impl Into<String>) -> RecipeError {
        let offset = offset.min(text.len());
        let column = text[..offset].chars().count() + 1;
        RecipeError {
            offset,
            column,
            message: message.into(),
        }
    }

    /// Byte offset in the text where the error was found.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The same position as a 1-based column (characters, not bytes).
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Two lines that show where in `text` (the recipe this error is
    /// about) the error is: the text around the column, at most
    /// [`EXCERPT_CHARS`] characters with `…` where it is cut, and a caret
    /// under the column. A recipe of any length gives lines of bounded
    /// length.
    ///
    /// ```
    /// use noisefield::Recipe;
    ///
    /// let text = "fbm(perlin, octaves=40)";
    /// let error = text.parse::<Recipe>().unwrap_err();
    /// assert_eq!(error.excerpt(text), "fbm(perlin, octaves=40)\n            ^");
    /// ```
    pub fn excerpt(&self, text: &str) -> String {
        let chars: Vec<char> = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let at = (self.column - 1).min(chars.len());
        let half = EXCERPT_CHARS / 2;
        let start = at.saturating_sub(half);
        let end = (start + EXCERPT_CHARS).min(chars.len());
        let start = end.saturating_sub(EXCERPT_CHARS).min(start);
        let mut line: String = chars[start..end].iter().collect();
        let mut caret = at - start;
        if start > 0 {
            line.insert(0, '…');
            caret += 1;
        }
        if end < chars.len() {
            line.push('…');
        }
        format!("{line}\n{}^", " ".repeat(caret))
    }
}

/// The most characters of a name or value of the text quoted in a message.
const QUOTED_CHARS: usize = 32;

/// `text` for a message: whole, or its first [`QUOTED_CHARS`] characters
/// and `…` (a number or name in a recipe may be megabytes long).
fn clip(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The most characters of a recipe an error's excerpt shows
/// ([`RecipeError::excerpt`]).
pub const EXCERPT_CHARS: usize = 60;

impl fmt::Display for RecipeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for RecipeError {}

/// A parameter value as written.
#[derive(Clone, Debug)]
enum Val {
    Number(String),
    Word(String),
    List(Vec<(usize, Val)>),
    Pair(Box<(usize, Val)>, Box<(usize, Val)>),
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Number(t) | Val::Word(t) => f.write_str(t),
            Val::List(items) => {
                f.write_str("[")?;
                for (i, (_, v)) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Val::Pair(a, b) => write!(f, "({}, {})", a.1, b.1),
        }
    }
}

/// A named parameter: its name, where the name starts, its value and where
/// the value starts.
#[derive(Clone, Debug)]
struct Param {
    key: String,
    at: usize,
    value: Val,
    value_at: usize,
}

/// One call: a name, its inputs and parameters in the order written.
#[derive(Clone, Debug)]
struct Call {
    name: String,
    at: usize,
    kind: Kind,
    inputs: Vec<Call>,
    params: Vec<Param>,
    /// Whether the text wrote parentheses (`fbm()` prints back as written).
    parens: bool,
    /// Arguments in the order written: `true` for an input.
    order: Vec<bool>,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.parens {
            return Ok(());
        }
        f.write_str("(")?;
        let (mut inputs, mut params) = (self.inputs.iter(), self.params.iter());
        for (i, &is_input) in self.order.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if is_input {
                write!(f, "{}", inputs.next().expect("one input per mark"))?;
            } else {
                let p = params.next().expect("one parameter per mark");
                write!(f, "{}={}", p.key, p.value)?;
            }
        }
        f.write_str(")")
    }
}

/// What a name builds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Perlin,
    Value,
    Fractal(FractalKind),
    ScaleBias,
    Abs,
    Clamp,
    Terrace,
    Curve,
    Add,
    Multiply,
    Min,
    Max,
    Blend,
    Select,
    Warp,
    /// A source the caller named ([`Recipe::parse_with`]): index into the list.
    User(usize),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum FractalKind {
    Fbm,
    Billow,
    Ridged,
    Turbulence,
    Marble,
}

/// A name: what it builds, how many inputs it takes (least, most) and its
/// parameters.
struct Signature {
    name: &'static str,
    kind: Kind,
    inputs: (usize, usize),
    params: &'static [&'static str],
}

const fn sig(
    name: &'static str,
    kind: Kind,
    inputs: (usize, usize),
    params: &'static [&'static str],
) -> Signature {
    Signature {
        name,
        kind,
        inputs,
        params,
    }
}

/// The built-in names.
const BUILT_IN: &[Signature] = &[
    sig("perlin", Kind::Perlin, (0, 0), LATTICE),
    sig("value", Kind::Value, (0, 0), LATTICE),
    sig("fbm", Kind::Fractal(FractalKind::Fbm), (0, 1), FRACTAL),
    sig(
        "billow",
        Kind::Fractal(FractalKind::Billow),
        (0, 1),
        FRACTAL,
    ),
    sig(
        "ridged",
        Kind::Fractal(FractalKind::Ridged),
        (0, 1),
        FRACTAL,
    ),
    sig(
        "turbulence",
        Kind::Fractal(FractalKind::Turbulence),
        (0, 1),
        FRACTAL,
    ),
    sig("marble", Kind::Fractal(FractalKind::Marble), (0, 1), MARBLE),
    sig("scale_bias", Kind::ScaleBias, (1, 1), &["scale", "bias"]),
    sig("abs", Kind::Abs, (1, 1), &[]),
    sig("clamp", Kind::Clamp, (1, 1), &["lower", "upper"]),
    sig("terrace", Kind::Terrace, (1, 1), &["points"]),
    sig("curve", Kind::Curve, (1, 1), &["points"]),
    sig("add", Kind::Add, (2, 2), &[]),
    sig("multiply", Kind::Multiply, (2, 2), &[]),
    sig("min", Kind::Min, (2, 2), &[]),
    sig("max", Kind::Max, (2, 2), &[]),
    sig("blend", Kind::Blend, (3, 3), &[]),
    sig("select", Kind::Select, (3, 3), &["threshold", "edge"]),
    sig("warp", Kind::Warp, (2, 2), &["amplitude", "iterations"]),
];

const LATTICE: &[&str] = &["seed", "hash", "fade", "period"];
const FRACTAL: &[&str] = &["octaves", "lacunarity", "persistence", "normalize"];
const MARBLE: &[&str] = &[
    "octaves",
    "lacunarity",
    "persistence",
    "normalize",
    "stripes",
    "power",
];

/// Defaults for what a recipe leaves out: the command-line tool's `--seed`,
/// `--hash`, `--period` and fractal options apply this way. A parameter the
/// recipe gives always wins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecipeDefaults {
    /// The seed of every `perlin` and `value` without `seed=` (and of the
    /// Perlin noise under a fractal written without an input).
    pub seed: u64,
    /// Their hash mode, without `hash=`.
    pub hash: HashMode,
    /// Their periods (x, y, z, w cells), without `period=`.
    pub period: Option<[u32; 4]>,
    /// Octaves of every fractal without `octaves=`.
    pub octaves: Option<u32>,
    /// Lacunarity of every fractal without `lacunarity=`.
    pub lacunarity: Option<f32>,
    /// Persistence of every fractal without `persistence=`.
    pub persistence: Option<f32>,
    /// Every fractal normalised, unless it says `normalize=false`.
    pub normalize: bool,
    /// Stripes of every `marble` without `stripes=`.
    pub stripes: Option<f32>,
    /// Power of every `marble` without `power=`.
    pub power: Option<f32>,
}

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

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
    users: &'a [(&'a str, DynSource)],
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> RecipeError {
        RecipeError::at(self.text, self.at, message)
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    /// What is at the cursor, for messages.
    fn found(&mut self) -> String {
        match self.peek() {
            None => "the end of the recipe".to_string(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), RecipeError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            let found = self.found();
            Err(self.error(format!("expected {what}, found {found}")))
        }
    }

    /// The word at the cursor. Names are ASCII, but a word runs on over
    /// any letters and digits, so that `pérlin` is reported whole (an
    /// unknown name) rather than as `p` followed by stray text.
    fn name(&mut self) -> Option<(usize, String)> {
        self.skip_space();
        let rest = &self.text[self.at..];
        let word_start = |c: char| c.is_alphabetic() || c == '_';
        if !rest.chars().next().is_some_and(word_start) {
            return None;
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let at = self.at;
        self.at += len;
        Some((at, rest[..len].to_string()))
    }

    fn call(&mut self, depth: usize) -> Result<Call, RecipeError> {
        if depth >= MAX_RECIPE_DEPTH {
            return Err(self.error(format!("sources nested more than {MAX_RECIPE_DEPTH} deep")));
        }
        let Some((at, name)) = self.name() else {
            let found = self.found();
            return Err(self.error(format!("expected a source name, found {found}")));
        };
        let (kind, (min_inputs, max_inputs), keys) = self.kind(at, &name)?;
        let mut call = Call {
            name,
            at,
            kind,
            inputs: Vec::new(),
            params: Vec::new(),
            parens: false,
            order: Vec::new(),
        };
        if self.peek() == Some('(') {
            self.at += 1;
            call.parens = true;
            while self.peek() != Some(')') {
                self.argument(&mut call, max_inputs, keys, depth)?;
                if self.peek() == Some(',') {
                    self.at += 1;
                } else if self.peek() != Some(')') {
                    let found = self.found();
                    return Err(self.error(format!(
                        "expected ',' or ')' in the arguments of {}, found {found}",
                        call.name
                    )));
                }
            }
            self.at += 1;
        }
        if call.inputs.len() < min_inputs {
            return Err(RecipeError::at(
                self.text,
                at,
                format!(
                    "{} takes {} input source{} and was given {}",
                    call.name,
                    min_inputs,
                    if min_inputs == 1 { "" } else { "s" },
                    call.inputs.len()
                ),
            ));
        }
        Ok(call)
    }

    #[allow(clippy::type_complexity)]
    fn kind(
        &self,
        at: usize,
        name: &str,
    ) -> Result<(Kind, (usize, usize), &'static [&'static str]), RecipeError> {
        if let Some(b) = BUILT_IN.iter().find(|b| b.name == name) {
            return Ok((b.kind, b.inputs, b.params));
        }
        if let Some(i) = self.users.iter().position(|u| u.0 == name) {
            return Ok((Kind::User(i), (0, 0), &[]));
        }
        let mut known: Vec<&str> = BUILT_IN.iter().map(|b| b.name).collect();
        known.extend(self.users.iter().map(|u| u.0));
        Err(RecipeError::at(
            self.text,
            at,
            format!(
                "unknown source {}; known: {}",
                clip(&format!("{name:?}")),
                known.join(", ")
            ),
        ))
    }

    fn argument(
        &mut self,
        call: &mut Call,
        max_inputs: usize,
        keys: &[&str],
        depth: usize,
    ) -> Result<(), RecipeError> {
        let start = self.at;
        let named = self.name();
        if let Some((at, key)) = named.clone()
            && self.peek() == Some('=')
        {
            self.at += 1;
            if !keys.contains(&key.as_str()) {
                let takes = if keys.is_empty() {
                    format!("{} takes no parameters", call.name)
                } else {
                    format!("{} takes {}", call.name, keys.join(", "))
                };
                return Err(RecipeError::at(
                    self.text,
                    at,
                    format!("unknown parameter {}: {takes}", clip(&format!("{key:?}"))),
                ));
            }
            if call.params.iter().any(|p| p.key == key) {
                return Err(RecipeError::at(
                    self.text,
                    at,
                    format!("parameter {key:?} given twice"),
                ));
            }
            self.skip_space();
            let value_at = self.at;
            let value = self.value(0)?;
            call.params.push(Param {
                key,
                at,
                value,
                value_at,
            });
            call.order.push(false);
            return Ok(());
        }
        // An input source: parse it from its start.
        self.at = start;
        self.skip_space();
        let input_at = self.at;
        if named.is_none() {
            let found = self.found();
            return Err(self.error(format!(
                "expected an input source or a parameter (name=value), found {found}"
            )));
        }
        if call.inputs.len() == max_inputs {
            let limit = match max_inputs {
                0 => "no input sources".to_string(),
                1 => "at most 1 input source".to_string(),
                n => format!("at most {n} input sources"),
            };
            return Err(RecipeError::at(
                self.text,
                input_at,
                format!("{} takes {limit}", call.name),
            ));
        }
        let input = self.call(depth + 1)?;
        call.inputs.push(input);
        call.order.push(true);
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Val, RecipeError> {
        self.skip_space();
        let rest = &self.text[self.at..];
        match rest.chars().next() {
            Some('[') | Some('(') if depth >= 2 => {
                Err(self.error("lists nest at most two deep ([(x, y), ...])"))
            }
            Some('[') => {
                self.at += 1;
                let mut items = Vec::new();
                while self.peek() != Some(']') {
                    if items.len() == MAX_LIST {
                        return Err(self.error(format!("a list holds at most {MAX_LIST} values")));
                    }
                    self.skip_space();
                    let at = self.at;
                    items.push((at, self.value(depth + 1)?));
                    if self.peek() == Some(',') {
                        self.at += 1;
                    } else if self.peek() != Some(']') {
                        let found = self.found();
                        return Err(self.error(format!("expected ',' or ']', found {found}")));
                    }
                }
                self.at += 1;
                Ok(Val::List(items))
            }
            Some('(') => {
                self.at += 1;
                self.skip_space();
                let a = (self.at, self.value(depth + 1)?);
                self.expect(',', "',' between the two numbers of a pair")?;
                self.skip_space();
                let b = (self.at, self.value(depth + 1)?);
                self.expect(')', "')' after a pair")?;
                Ok(Val::Pair(Box::new(a), Box::new(b)))
            }
            Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => {
                let len = number_len(rest);
                if len == 0 {
                    return Err(self.error(format!("expected a number, found {c:?}")));
                }
                self.at += len;
                Ok(Val::Number(rest[..len].to_string()))
            }
            Some(c) if c.is_alphabetic() || c == '_' => {
                let (_, word) = self.name().expect("a name starts here");
                Ok(Val::Word(word))
            }
            _ => {
                let found = self.found();
                Err(self.error(format!("expected a value, found {found}")))
            }
        }
    }
}

/// The length of the number at the start of `s` (`[+-]digits[.digits][e[+-]digits]`,
/// digits on at least one side of the point), 0 if none.
fn number_len(s: &str) -> usize {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_end = digits(i);
    let mut end = int_end;
    let mut any = int_end > i;
    i = int_end;
    if b.get(i) == Some(&b'.') {
        let frac_end = digits(i + 1);
        any |= frac_end > i + 1;
        end = frac_end;
        i = frac_end;
    }
    if !any {
        return 0;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_end = digits(j);
        if exp_end > j {
            end = exp_end;
        }
    }
    end
}

/// A built node: lattices kept as their own types so a fractal over one is
/// the statically composed fractal (its kernels inlined, no virtual call
/// per octave).
enum Node {
    Perlin(Perlin),
    Value(Value),
    Dyn(DynSource),
}

impl Node {
    fn boxed(self) -> DynSource {
        match self {
            Node::Perlin(p) => DynSource::differentiable(p),
            Node::Value(v) => DynSource::differentiable(v),
            Node::Dyn(d) => d,
        }
    }
}

/// A built node and its cost: lattice evaluations per sample.
struct Built {
    node: Node,
    cost: u64,
}

/// The parameter `key` of `call`, if given.
fn param<'c>(call: &'c Call, key: &str) -> Option<&'c Param> {
    call.params.iter().find(|p| p.key == key)
}

/// Typed parameter reads, each with the position of what it reads.
struct Reader<'a> {
    text: &'a str,
    call: &'a Call,
}

impl Reader<'_> {
    fn number_at(&self, at: usize, v: &Val, what: &str) -> Result<f32, RecipeError> {
        let Val::Number(t) = v else {
            return Err(RecipeError::at(
                self.text,
                at,
                format!("{what} must be a number, not {}", clip(&v.to_string())),
            ));
        };
        let x: f32 = t
            .parse()
            .map_err(|_| RecipeError::at(self.text, at, format!("{} is not a number", clip(t))))?;
        if !x.is_finite() {
            return Err(RecipeError::at(
                self.text,
                at,
                format!("{what} = {} is beyond the f32 range (±3.4e38)", clip(t)),
            ));
        }
        Ok(x)
    }

    fn float(&self, key: &str) -> Result<Option<f32>, RecipeError> {
        param(self.call, key)
            .map(|p| self.number_at(p.value_at, &p.value, key))
            .transpose()
    }

    fn integer_at(&self, at: usize, v: &Val, what: &str, max: u64) -> Result<u64, RecipeError> {
        let bad = |why: String| RecipeError::at(self.text, at, why);
        match v {
            Val::Number(t) if t.bytes().all(|b| b.is_ascii_digit() || b == b'+') => {
                let n: u64 = t
                    .trim_start_matches('+')
                    .parse()
                    .map_err(|_| bad(format!("{what} = {} is larger than {max}", clip(t))))?;
                if n > max {
                    return Err(bad(format!("{what} = {} is larger than {max}", clip(t))));
                }
                Ok(n)
            }
            _ => Err(bad(format!(
                "{what} must be a whole number ≥ 0, not {}",
                clip(&v.to_string())
            ))),
        }
    }

    fn integer(&self, key: &str, max: u64) -> Result<Option<u64>, RecipeError> {
        param(self.call, key)
            .map(|p| self.integer_at(p.value_at, &p.value, key, max))
            .transpose()
    }

    fn word(&self, key: &str, allowed: &[&str]) -> Result<Option<&str>, RecipeError> {
        let Some(p) = param(self.call, key) else {
            return Ok(None);
        };
        match &p.value {
            Val::Word(w) if allowed.contains(&w.as_str()) => Ok(Some(w)),
            v => Err(RecipeError::at(
                self.text,
                p.value_at,
                format!(
                    "{key} must be one of {}, not {}",
                    allowed.join(", "),
                    clip(&v.to_string())
                ),
            )),
        }
    }

    fn list(&self, key: &str) -> Result<&[(usize, Val)], RecipeError> {
        let Some(p) = param(self.call, key) else {
            return Err(RecipeError::at(
                self.text,
                self.call.at,
                format!("{} needs {key}=[...]", self.call.name),
            ));
        };
        match &p.value {
            Val::List(items) => Ok(items),
            v => Err(RecipeError::at(
                self.text,
                p.value_at,
                format!("{key} must be a list [...], not {}", clip(&v.to_string())),
            )),
        }
    }

    /// A library error from building this node, at the parameter it names
    /// when the recipe gives it, else at the node's name.
    fn library(&self, e: Error) -> RecipeError {
        let key = match &e {
            Error::InvalidOctaves(_) => Some("octaves"),
            Error::NonFiniteParameter { name, .. } => Some(*name),
            Error::InvalidPeriod { .. } => Some("period"),
            Error::PeriodicLacunarity(_) => Some("lacunarity"),
            Error::InvalidParameter { name, .. } => [
                "points",
                "lower",
                "upper",
                "edge",
                "iterations",
                "amplitude",
            ]
            .into_iter()
            .find(|k| name.contains(k)),
            _ => None,
        };
        let at = key
            .and_then(|k| param(self.call, k))
            .map_or(self.call.at, |p| p.at);
        RecipeError::at(self.text, at, format!("{}: {e}", self.call.name))
    }
}

/// Builds `call` and checks it with the library's own check, its bounds
/// (every value within `f32`'s range) and its cost ([`MAX_RECIPE_COST`]).
fn build(
    text: &str,
    call: &Call,
    users: &[(String, DynSource)],
    defaults: &RecipeDefaults,
) -> Result<Built, RecipeError> {
    let r = Reader { text, call };
    // Lattice evaluations per sample of this node's inputs, added up as
    // they are built.
    let inputs_cost = std::cell::Cell::new(0u64);
    let input = |i: usize| -> Result<DynSource, RecipeError> {
        let built = build(text, &call.inputs[i], users, defaults)?;
        inputs_cost.set(inputs_cost.get().saturating_add(built.cost));
        Ok(built.node.boxed())
    };
    let checked = |s: DynSource| -> Result<Node, RecipeError> {
        s.check().map_err(|e| r.library(e))?;
        for dimension in 1..=4 {
            let (lo, hi) = s.bounds(dimension);
            if !(lo.is_finite() && hi.is_finite()) {
                return Err(RecipeError::at(
                    text,
                    call.at,
                    format!(
                        "{}: its values may reach {lo}..{hi} in {dimension}D, beyond \
                         the f32 range (±3.4e38); scale or shift them less",
                        call.name
                    ),
                ));
            }
        }
        Ok(Node::Dyn(s))
    };
    // An operator costs its inputs and one evaluation of its own.
    let operator = |node: Result<Node, RecipeError>| -> Result<Built, RecipeError> {
        Ok(Built {
            node: node?,
            cost: inputs_cost.get().saturating_add(1),
        })
    };
    let built = match call.kind {
        Kind::Perlin | Kind::Value => {
            let seed = r.integer("seed", u64::MAX)?.unwrap_or(defaults.seed);
            let hash = r.word("hash", &["coordinates", "permuted", "reference"])?;
            let period = period(&r)?.or(defaults.period);
            let fade = r.word("fade", &["quintic", "cubic", "cosine", "linear"])?;
            if hash == Some("reference")
                && let Some(p) = param(call, "seed")
            {
                return Err(RecipeError::at(
                    text,
                    p.at,
                    "hash=reference is Ken Perlin's own table, which takes no seed",
                ));
            }
            let mode = match hash {
                Some("permuted") => HashMode::Permutation,
                Some(_) => HashMode::Coordinates,
                None => defaults.hash,
            };
            let fade = match fade {
                Some("cubic") => Fade::Cubic,
                Some("cosine") => Fade::Cosine,
                Some("linear") => Fade::Linear,
                _ => Fade::Quintic,
            };
            macro_rules! lattice {
                ($ty:ident) => {{
                    let mut n = match hash {
                        Some("reference") => $ty::reference(),
                        _ => $ty::with_hash(seed, mode),
                    };
                    if param(call, "fade").is_some() {
                        n = n.with_fade(fade);
                    }
                    if let Some(p) = period {
                        n = n.with_period(p).map_err(|e| r.library(e))?;
                    }
                    n
                }};
            }
            let node = if call.kind == Kind::Perlin {
                Node::Perlin(lattice!(Perlin))
            } else {
                Node::Value(lattice!(Value))
            };
            Built { node, cost: 1 }
        }
        Kind::Fractal(kind) => {
            let (source, source_cost) = match call.inputs.first() {
                Some(c) => {
                    let built = build(text, c, users, defaults)?;
                    (built.node, built.cost)
                }
                None => (
                    Node::Perlin(
                        Perlin::with_hash(defaults.seed, defaults.hash)
                            .with_period(defaults.period.unwrap_or([u32::MAX; 4]))
                            .map_err(|e| r.library(e))?,
                    ),
                    1,
                ),
            };
            let octaves = r.integer("octaves", u64::from(u32::MAX))?;
            let octaves = octaves.map(|o| o as u32).or(defaults.octaves);
            let lacunarity = r.float("lacunarity")?.or(defaults.lacunarity);
            let persistence = r.float("persistence")?.or(defaults.persistence);
            let normalize = match r.word("normalize", &["true", "false"])? {
                Some(w) => w == "true",
                None => defaults.normalize,
            };
            let stripes = r.float("stripes")?.or(defaults.stripes);
            let power = r.float("power")?.or(defaults.power);
            macro_rules! fractal {
                ($source:expr) => {{
                    let s = $source;
                    macro_rules! configure {
                        ($f:expr) => {{
                            let mut f = $f.normalize(normalize);
                            if let Some(o) = octaves {
                                f = f.octaves(o);
                            }
                            if let Some(l) = lacunarity {
                                f = f.lacunarity(l);
                            }
                            if let Some(p) = persistence {
                                f = f.persistence(p);
                            }
                            f
                        }};
                    }
                    // The fractal and its octaves (fBm with its derivatives).
                    macro_rules! counted {
                        ($f:expr) => {
                            counted!($f, new)
                        };
                        ($f:expr, $boxed:ident) => {{
                            let f = $f;
                            (f.octave_count(), DynSource::$boxed(f))
                        }};
                    }
                    match kind {
                        FractalKind::Fbm => counted!(configure!(Fbm::new(s)), differentiable),
                        FractalKind::Billow => counted!(configure!(Billow::new(s))),
                        FractalKind::Ridged => counted!(configure!(Ridged::new(s))),
                        FractalKind::Turbulence => counted!(configure!(Turbulence::new(s))),
                        FractalKind::Marble => {
                            let mut m = configure!(Marble::new(s));
                            if let Some(x) = stripes {
                                m = m.stripes(x);
                            }
                            if let Some(x) = power {
                                m = m.power(x);
                            }
                            counted!(m)
                        }
                    }
                }};
            }
            let (octaves, f) = match source {
                Node::Perlin(p) => fractal!(p),
                Node::Value(v) => fractal!(v),
                Node::Dyn(d) => fractal!(d),
            };
            Built {
                node: checked(f)?,
                cost: u64::from(octaves).saturating_mul(source_cost),
            }
        }
        Kind::ScaleBias => operator(checked(DynSource::differentiable(Map::scale_bias(
            input(0)?,
            r.float("scale")?.unwrap_or(1.0),
            r.float("bias")?.unwrap_or(0.0),
        ))))?,
        Kind::Abs => operator(checked(DynSource::differentiable(Map::abs(input(0)?))))?,
        Kind::Clamp => operator(checked(DynSource::differentiable(Map::clamp(
            input(0)?,
            r.float("lower")?.unwrap_or(-1.0),
            r.float("upper")?.unwrap_or(1.0),
        ))))?,
        Kind::Terrace => {
            let points = r
                .list("points")?
                .iter()
                .map(|(at, v)| r.number_at(*at, v, "a terrace point"))
                .collect::<Result<Vec<f32>, _>>()?;
            operator(checked(DynSource::differentiable(Map::terrace(
                input(0)?,
                &points,
            ))))?
        }
        Kind::Curve => {
            let points = r
                .list("points")?
                .iter()
                .map(|(at, v)| match v {
                    Val::Pair(x, y) => Ok((
                        r.number_at(x.0, &x.1, "a curve point's x")?,
                        r.number_at(y.0, &y.1, "a curve point's y")?,
                    )),
                    v => Err(RecipeError::at(
                        text,
                        *at,
                        format!(
                            "a curve point is a pair (x, y), not {}",
                            clip(&v.to_string())
                        ),
                    )),
                })
                .collect::<Result<Vec<(f32, f32)>, _>>()?;
            operator(checked(DynSource::differentiable(Map::curve(
                input(0)?,
                &points,
            ))))?
        }
        Kind::Add => operator(checked(DynSource::differentiable(Combine::add(
            input(0)?,
            input(1)?,
        ))))?,
        Kind::Multiply => operator(checked(DynSource::differentiable(Combine::multiply(
            input(0)?,
            input(1)?,
        ))))?,
        Kind::Min => operator(checked(DynSource::differentiable(Combine::min(
            input(0)?,
            input(1)?,
        ))))?,
        Kind::Max => operator(checked(DynSource::differentiable(Combine::max(
            input(0)?,
            input(1)?,
        ))))?,
        Kind::Blend => operator(checked(DynSource::differentiable(Blend::new(
            input(0)?,
            input(1)?,
            input(2)?,
        ))))?,
        Kind::Select => operator(checked(DynSource::differentiable(Blend::select(
            input(0)?,
            input(1)?,
            input(2)?,
            r.float("threshold")?.unwrap_or(0.0),
            r.float("edge")?.unwrap_or(0.0),
        ))))?,
        Kind::Warp => {
            let source = build(text, &call.inputs[0], users, defaults)?;
            let field = build(text, &call.inputs[1], users, defaults)?;
            let mut w = Warp::new(source.node.boxed(), field.node.boxed());
            if let Some(a) = r.float("amplitude")? {
                w = w.amplitude(a);
            }
            let iterations = r.integer("iterations", u64::from(u32::MAX))?;
            if let Some(k) = iterations {
                w = w.iterations(k as u32);
            }
            // The field once per axis and iteration, then the source.
            let fields = iterations.unwrap_or(1).saturating_mul(WARP_AXES);
            Built {
                node: checked(DynSource::differentiable(w))?,
                cost: fields
                    .saturating_mul(field.cost)
                    .saturating_add(source.cost)
                    .saturating_add(1),
            }
        }
        // A caller's source counts as one evaluation.
        Kind::User(i) => Built {
            node: Node::Dyn(users[i].1.clone()),
            cost: 1,
        },
    };
    if built.cost > MAX_RECIPE_COST {
        return Err(RecipeError::at(
            text,
            call.at,
            format!(
                "{} costs {} lattice evaluations per sample, more than the {MAX_RECIPE_COST} \
                 allowed: use fewer octaves, iterations or nested fractals",
                call.name,
                cost_text(built.cost)
            ),
        ));
    }
    Ok(built)
}

/// A cost for a message: the number, or "more than 2^64" when it saturated.
fn cost_text(cost: u64) -> String {
    if cost == u64::MAX {
        "more than 2^64".to_string()
    } else {
        cost.to_string()
    }
}

/// The graph `build` made, boxed, at one level for every node: the best
/// this CPU has.
fn finished(built: Built) -> DynSource {
    built
        .node
        .boxed()
        .with_level(Level::detect())
        .expect("the detected level is available")
}

/// `period=64` (every axis) or `period=[64, 32]` (x, y; the rest unperiodic).
fn period(r: &Reader<'_>) -> Result<Option<[u32; 4]>, RecipeError> {
    let Some(p) = param(r.call, "period") else {
        return Ok(None);
    };
    let max = u64::from(u32::MAX - 1);
    match &p.value {
        Val::List(items) => {
            if items.is_empty() || items.len() > 4 {
                return Err(RecipeError::at(
                    r.text,
                    p.value_at,
                    "period lists 1 to 4 axes (x, y, z, w)",
                ));
            }
            let mut out = [u32::MAX; 4];
            for (o, (at, v)) in out.iter_mut().zip(items) {
                *o = r.integer_at(*at, v, "a period", max)? as u32;
            }
            Ok(Some(out))
        }
        v => Ok(Some(
            [r.integer_at(p.value_at, v, "period", max)? as u32; 4],
        )),
    }
}
