//! Every `--source`, built in one place.
//!
//! `--source` is a recipe ([`noisefield::Recipe`]), built as a
//! [`DynSource`]: the seven plain names (`perlin`, `fbm`, ...) as the
//! library's own types behind it (a whole grid call runs their compiled
//! path), any other recipe as a run-time graph with the source options as
//! defaults for what it leaves out. Sources with derivatives (`perlin`,
//! `value`, `fbm`, and graphs of them) make normal maps.

use crate::Failure;
use crate::args::SourceArgs;
use noisefield::prelude::*;
use noisefield::{
    Billow, DynSource, Error, Fbm, Grid, MAX_LATTICE_DIMENSIONS, Marble, Perlin, RecipeDefaults,
    Ridged, Turbulence, Value,
};

/// The plain `--source` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// Perlin gradient noise, one octave.
    Perlin,
    /// Value noise (random values at the lattice points), one octave.
    Value,
    /// Fractal Brownian motion: a sum of Perlin octaves.
    Fbm,
    /// Ridged multifractal: sharp crests where the noise crosses zero.
    Ridged,
    /// Billow: a sum of |noise| octaves, puffy.
    Billow,
    /// Turbulence: a sum of |noise| octaves, for flames and smoke.
    Turbulence,
    /// Marble: a sine of x plus turbulence, veined stripes.
    Marble,
}

/// Noise over a grid of any dimension; on the rayon pool when `parallel`.
pub fn fill_grid<const D: usize>(
    source: &DynSource,
    grid: &Grid<D>,
    out: &mut [f32],
    parallel: bool,
) -> Result<(), Error> {
    match parallel {
        true => source.fill_grid_par(grid, out),
        false => source.fill_grid(grid, out),
    }
}

/// Values and derivatives along x and y over a 2D grid (the library's
/// `fill_grid_grad`); on the rayon pool when `parallel`. A usage error for
/// a source without derivatives ([`DynSource::is_differentiable`]).
pub fn fill_grid_grad(
    source: &DynSource,
    grid: &Grid<2>,
    out: &mut [f32],
    grad: [&mut [f32]; 2],
    parallel: bool,
) -> Result<(), Failure> {
    let result = match parallel {
        true => source.fill_grid_grad_par(grid, out, grad),
        false => source.fill_grid_grad(grid, out, grad),
    };
    match result {
        Err(Error::NotDifferentiable) => Err(Failure::usage(NO_DERIVATIVES)),
        other => Ok(other?),
    }
}

/// Why a source cannot make a normal map.
pub const NO_DERIVATIVES: &str = "--format normal needs analytic derivatives, which \
     perlin, value, simplex and fbm have, and the operators and warp over them (ridged, billow, \
     turbulence and marble fold the noise with |n| or sin and have none)";

/// A lattice noise (`Perlin` or `Value`, which share these builder
/// methods) with the period and `--level` applied; `?` on their errors.
macro_rules! lattice {
    ($noise:expr, $args:expr, $period:expr) => {{
        let mut noise = $noise;
        if let Some(period) = $period {
            noise = noise.with_period(period)?;
        }
        if let Some(level) = $args.level {
            noise = noise.with_level(level)?;
        }
        noise
    }};
}

/// A fractal combinator with the octave options of `args` that were given
/// (the library's defaults otherwise: 6 octaves, lacunarity 2, persistence ½).
macro_rules! octaves {
    ($fractal:expr, $args:expr) => {{
        let mut fractal = $fractal.normalize($args.normalize);
        if let Some(octaves) = $args.octaves {
            fractal = fractal.octaves(octaves);
        }
        if let Some(lacunarity) = $args.lacunarity {
            fractal = fractal.lacunarity(lacunarity);
        }
        if let Some(persistence) = $args.persistence {
            fractal = fractal.persistence(persistence);
        }
        fractal
    }};
}

/// The source `args` describe (`default` when `--source` is not given),
/// periodic with `period` (lattice cells per axis, `u32::MAX` on an
/// unperiodic one) when given.
///
/// Fractal options with a single-octave source, an unsupported `--level`,
/// or bad fractal parameters are usage errors.
pub fn build(
    args: &SourceArgs,
    period: Option<[u32; MAX_LATTICE_DIMENSIONS]>,
) -> Result<DynSource, Failure> {
    let Some(kind) = SourceKind::from_name(&args.source.to_string()) else {
        return build_graph(args, period);
    };
    let fractal_options = [
        ("--octaves", args.octaves.is_some()),
        ("--lacunarity", args.lacunarity.is_some()),
        ("--persistence", args.persistence.is_some()),
        ("--normalize", args.normalize),
    ];
    let single_octave = !kind.is_fractal();
    if let Some((name, _)) = fractal_options.iter().find(|(_, given)| *given)
        && single_octave
    {
        return Err(Failure::usage(format!(
            "{name} applies to fractal sources (fbm, ridged, billow, turbulence, marble), \
             not to --source {}",
            kind.name()
        )));
    }
    let marble_options = [("--stripes", args.stripes), ("--power", args.power)];
    if let Some((name, _)) = marble_options.iter().find(|(_, v)| v.is_some())
        && kind != SourceKind::Marble
    {
        return Err(Failure::usage(format!(
            "{name} applies to --source marble only, not to --source {}",
            kind.name()
        )));
    }
    let source = match kind {
        SourceKind::Perlin => DynSource::differentiable(lattice!(
            Perlin::with_hash(args.seed, args.hash),
            args,
            period
        )),
        SourceKind::Value => DynSource::differentiable(lattice!(
            Value::with_hash(args.seed, args.hash),
            args,
            period
        )),
        fractal => {
            let base = lattice!(Perlin::with_hash(args.seed, args.hash), args, period);
            match fractal {
                SourceKind::Fbm => DynSource::differentiable(octaves!(Fbm::new(base), args)),
                SourceKind::Ridged => DynSource::new(octaves!(Ridged::new(base), args)),
                SourceKind::Billow => DynSource::new(octaves!(Billow::new(base), args)),
                SourceKind::Turbulence => DynSource::new(octaves!(Turbulence::new(base), args)),
                _ => {
                    let mut marble = octaves!(Marble::new(base), args);
                    if let Some(stripes) = args.stripes {
                        marble = marble.stripes(stripes);
                    }
                    if let Some(power) = args.power {
                        marble = marble.power(power);
                    }
                    DynSource::new(marble)
                }
            }
        }
    };
    // Octaves out of range, non-finite factors, a fractional lacunarity
    // over a periodic base: the library's own check and message.
    source.check()?;
    Ok(source)
}

/// A recipe other than a plain name: a run-time graph, the source options
/// filling in what it leaves out (`--seed` the seed of every lattice without
/// `seed=`, `--octaves` the octaves of every fractal without `octaves=`, ...).
fn build_graph(
    args: &SourceArgs,
    period: Option<[u32; MAX_LATTICE_DIMENSIONS]>,
) -> Result<DynSource, Failure> {
    let recipe = &args.source;
    let fractals = ["fbm", "ridged", "billow", "turbulence", "marble"];
    let fractal_options = [
        ("--octaves", args.octaves.is_some()),
        ("--lacunarity", args.lacunarity.is_some()),
        ("--persistence", args.persistence.is_some()),
        ("--normalize", args.normalize),
    ];
    if let Some((name, _)) = fractal_options.iter().find(|(_, given)| *given)
        && !fractals.iter().any(|f| recipe.contains(f))
    {
        return Err(Failure::usage(format!(
            "{name} applies to fractal sources (fbm, ridged, billow, turbulence, marble), \
             and --source {} has none",
            shortened(recipe)
        )));
    }
    let marble_options = [("--stripes", args.stripes), ("--power", args.power)];
    if let Some((name, _)) = marble_options.iter().find(|(_, v)| v.is_some())
        && !recipe.contains("marble")
    {
        return Err(Failure::usage(format!(
            "{name} applies to marble, and --source {} has none",
            shortened(recipe)
        )));
    }
    // A recipe's defaults hold the x, y, z and w periods; past them a
    // period is the recipe's own `period=[…]`.
    if let Some(p) = period
        && let Some(axis) = (4..p.len()).find(|&a| p[a] != u32::MAX)
    {
        return Err(Failure::usage(format!(
            "--period on axis {axis} with a recipe: give the periods in the recipe \
             (perlin(period=[…]) lists one per axis, x first)"
        )));
    }
    let defaults = RecipeDefaults {
        seed: args.seed,
        hash: args.hash,
        period: period.map(|p| [p[0], p[1], p[2], p[3]]),
        octaves: args.octaves,
        lacunarity: args.lacunarity,
        persistence: args.persistence,
        normalize: args.normalize,
        stripes: args.stripes,
        power: args.power,
    };
    let mut graph = recipe.source_with(&defaults).map_err(|e| {
        // Positions refer to the recipe as printed.
        let excerpt = e.excerpt(&recipe.to_string()).replace('\n', "\n  ");
        Failure::usage(format!("--source: {e}\n  {excerpt}"))
    })?;
    if let Some(level) = args.level {
        graph = graph.with_level(level)?;
    }
    Ok(graph)
}

/// A recipe for a message: as printed, cut to its first
/// [`noisefield::EXCERPT_CHARS`] characters (a recipe read from a file may
/// be megabytes long).
fn shortened(recipe: &noisefield::Recipe) -> String {
    let text = recipe.to_string();
    match text.char_indices().nth(noisefield::EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

impl SourceKind {
    /// The plain name `name` is, if it is one.
    pub fn from_name(name: &str) -> Option<SourceKind> {
        [
            SourceKind::Perlin,
            SourceKind::Value,
            SourceKind::Fbm,
            SourceKind::Ridged,
            SourceKind::Billow,
            SourceKind::Turbulence,
            SourceKind::Marble,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }

    /// Whether it is a sum of octaves (every kind but Perlin and Value).
    pub fn is_fractal(self) -> bool {
        !matches!(self, SourceKind::Perlin | SourceKind::Value)
    }

    /// The name as given to `--source`.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Perlin => "perlin",
            SourceKind::Value => "value",
            SourceKind::Fbm => "fbm",
            SourceKind::Ridged => "ridged",
            SourceKind::Billow => "billow",
            SourceKind::Turbulence => "turbulence",
            SourceKind::Marble => "marble",
        }
    }
}
