//! Every `--source`, built in one place.
//!
//! `--source` is a recipe ([`noisefield::Recipe`]). The seven plain names
//! (`perlin`, `fbm`, ...) are built as the library's own types, held in one
//! enum, [`AnySource`], so the ones with derivatives (`perlin`, `value`,
//! `fbm`) make normal maps; any other recipe is a run-time graph
//! ([`noisefield::DynSource`]), with the source options as defaults for what
//! it leaves out. Each method forwards with one `match` (the `each_source!`
//! macro).

use crate::Failure;
use crate::args::SourceArgs;
use noisefield::prelude::*;
use noisefield::{
    Billow, DynSource, Error, Fbm, Grid2, Grid3, Level, Marble, Perlin, RecipeDefaults, Ridged,
    Turbulence, Value,
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

/// One of the library's sources, ready to fill grids and points.
#[derive(Debug, Clone)]
pub enum AnySource {
    /// `--source perlin`.
    Perlin(Perlin),
    /// `--source value`.
    Value(Value),
    /// `--source fbm`.
    Fbm(Fbm<Perlin>),
    /// `--source ridged`.
    Ridged(Ridged<Perlin>),
    /// `--source billow`.
    Billow(Billow<Perlin>),
    /// `--source turbulence`.
    Turbulence(Turbulence<Perlin>),
    /// `--source marble`.
    Marble(Marble<Perlin>),
    /// Any other recipe.
    Graph(DynSource),
}

/// `$body` with `$s` bound to the source inside `$source`, whatever its type.
macro_rules! each_source {
    ($source:expr, $s:ident => $body:expr) => {
        match $source {
            AnySource::Perlin($s) => $body,
            AnySource::Value($s) => $body,
            AnySource::Fbm($s) => $body,
            AnySource::Ridged($s) => $body,
            AnySource::Billow($s) => $body,
            AnySource::Turbulence($s) => $body,
            AnySource::Marble($s) => $body,
            AnySource::Graph($s) => $body,
        }
    };
}

impl AnySource {
    /// The SIMD level the fills run at.
    pub fn level(&self) -> Level {
        each_source!(self, s => s.level())
    }

    /// Noise at `n` points `(xs[i], ys[i])`, one thread.
    pub fn fill2(&self, xs: &[f32], ys: &[f32], out: &mut [f32]) -> Result<(), Error> {
        each_source!(self, s => s.fill([xs, ys], out))
    }

    /// Noise at `n` points `(xs[i], ys[i], zs[i])`, one thread.
    pub fn fill3(&self, xs: &[f32], ys: &[f32], zs: &[f32], out: &mut [f32]) -> Result<(), Error> {
        each_source!(self, s => s.fill([xs, ys, zs], out))
    }

    /// Noise over a 2D grid; on the rayon pool when `parallel`.
    pub fn fill_grid2(&self, grid: &Grid2, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        match parallel {
            true => each_source!(self, s => s.fill_grid_par(grid, out)),
            false => each_source!(self, s => s.fill_grid(grid, out)),
        }
    }

    /// Noise over a 3D grid; on the rayon pool when `parallel`.
    pub fn fill_grid3(&self, grid: &Grid3, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        match parallel {
            true => each_source!(self, s => s.fill_grid_par(grid, out)),
            false => each_source!(self, s => s.fill_grid(grid, out)),
        }
    }
}

impl AnySource {
    /// Whether the source has analytic derivatives (the library's
    /// `Differentiable`: Perlin, value noise, and fBm over Perlin).
    pub fn is_differentiable(&self) -> bool {
        matches!(
            self,
            AnySource::Perlin(_) | AnySource::Value(_) | AnySource::Fbm(_)
        )
    }

    /// Values and derivatives along x and y over a 2D grid (the library's
    /// `fill_grid2_grad`); on the rayon pool when `parallel`. A usage error
    /// for a source without derivatives ([`AnySource::is_differentiable`]).
    pub fn fill_grid2_grad(
        &self,
        grid: &Grid2,
        out: &mut [f32],
        dx: &mut [f32],
        dy: &mut [f32],
        parallel: bool,
    ) -> Result<(), Failure> {
        macro_rules! grad {
            ($s:expr) => {
                match parallel {
                    true => $s.fill_grid_grad_par(grid, out, [dx, dy]),
                    false => $s.fill_grid_grad(grid, out, [dx, dy]),
                }
            };
        }
        match self {
            AnySource::Perlin(s) => grad!(s)?,
            AnySource::Value(s) => grad!(s)?,
            AnySource::Fbm(s) => grad!(s)?,
            _ => return Err(Failure::usage(NO_DERIVATIVES)),
        }
        Ok(())
    }

    /// An interval holding every `dimension`-D value (the library's `bounds`).
    pub fn bounds(&self, dimension: usize) -> (f32, f32) {
        each_source!(self, s => s.bounds(dimension))
    }
}

/// Why a source cannot make a normal map.
pub const NO_DERIVATIVES: &str = "--format normal needs analytic derivatives, which \
     --source perlin, value and fbm have (ridged, billow, turbulence and marble fold \
     the noise with |n| or sin and have none)";

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
/// periodic with `period` (x, y, z, w lattice cells) when given.
///
/// Fractal options with a single-octave source, an unsupported `--level`,
/// or bad fractal parameters are usage errors.
pub fn build(args: &SourceArgs, period: Option<[u32; 4]>) -> Result<AnySource, Failure> {
    let Some(kind) = SourceKind::from_name(&args.source.to_string()) else {
        return build_graph(args, period);
    };
    let fractal_options = [
        ("--octaves", args.octaves.is_some()),
        ("--lacunarity", args.lacunarity.is_some()),
        ("--persistence", args.persistence.is_some()),
        ("--normalize", args.normalize),
    ];
    let single_octave = matches!(kind, SourceKind::Perlin | SourceKind::Value);
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
        SourceKind::Perlin => AnySource::Perlin(lattice!(
            Perlin::with_hash(args.seed, args.hash),
            args,
            period
        )),
        SourceKind::Value => AnySource::Value(lattice!(
            Value::with_hash(args.seed, args.hash),
            args,
            period
        )),
        fractal => {
            let base = lattice!(Perlin::with_hash(args.seed, args.hash), args, period);
            match fractal {
                SourceKind::Fbm => AnySource::Fbm(octaves!(Fbm::new(base), args)),
                SourceKind::Ridged => AnySource::Ridged(octaves!(Ridged::new(base), args)),
                SourceKind::Billow => AnySource::Billow(octaves!(Billow::new(base), args)),
                SourceKind::Turbulence => {
                    AnySource::Turbulence(octaves!(Turbulence::new(base), args))
                }
                _ => {
                    let mut marble = octaves!(Marble::new(base), args);
                    if let Some(stripes) = args.stripes {
                        marble = marble.stripes(stripes);
                    }
                    if let Some(power) = args.power {
                        marble = marble.power(power);
                    }
                    AnySource::Marble(marble)
                }
            }
        }
    };
    // Octaves out of range, non-finite factors, a fractional lacunarity
    // over a periodic base: the library's own check and message.
    each_source!(&source, s => s.check())?;
    Ok(source)
}

/// A recipe other than a plain name: a run-time graph, the source options
/// filling in what it leaves out (`--seed` the seed of every lattice without
/// `seed=`, `--octaves` the octaves of every fractal without `octaves=`, ...).
fn build_graph(args: &SourceArgs, period: Option<[u32; 4]>) -> Result<AnySource, Failure> {
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
    let defaults = RecipeDefaults {
        seed: args.seed,
        hash: args.hash,
        period,
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
    Ok(AnySource::Graph(graph))
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
