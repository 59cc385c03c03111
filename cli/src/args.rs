//! The command line: subcommands, their options, and the parsers that turn
//! option text into checked values.
//!
//! Checks that need one value only (a size of 0, a NaN frequency, an unknown
//! palette) are done here by clap, which prints the message and exits with
//! code 2. Checks across options (an origin with the wrong number of
//! coordinates, `--rows` beyond the field) are made when the field is built,
//! still before any file is created.

use crate::Failure;
use crate::output::Format;
use crate::palette::Palette;
use clap::{Args, Parser, Subcommand};
use noisefield::{HashMode, Level, Recipe};
use std::num::NonZeroUsize;
use std::ops::Range;
use std::path::PathBuf;

/// Samples on the longest axis we accept: 2^24, far beyond any picture (a
/// PNG encoder holds two rows of pixels, up to 6 bytes each).
pub const MAX_AXIS: usize = 1 << 24;

/// Samples in the largest field we accept: 2^40 (4 TiB of f32). More is
/// taken for a typo rather than started.
pub const MAX_SAMPLES: u64 = 1 << 40;

/// Most worker threads `--threads` accepts: far more than any machine's
/// cores, far fewer than the threads that exhaust a system.
pub const MAX_THREADS: usize = 1024;

/// Render noise fields to pictures and data.
#[derive(Debug, Parser)]
#[command(name = "noisefield", version, about, propagate_version = true)]
pub struct Cli {
    /// Worker threads for filling grids, 1 to 1024 [default: one per core].
    #[arg(long, global = true, value_name = "N", allow_hyphen_values = true, value_parser = parse_threads)]
    pub threads: Option<NonZeroUsize>,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a field as a picture or as data [default: noise.png, a 1024×1024 fBm terrain map].
    Render(RenderArgs),
    /// Write frames along a time axis (3D noise, z = time) as an animated GIF.
    Animate(AnimateArgs),
    /// Print min, max, mean, standard deviation and a histogram of a field.
    Stats(StatsArgs),
    /// Print throughput (million points per second) per available SIMD level.
    #[command(mut_arg("source", |a| a.default_value("perlin")))]
    Bench(BenchArgs),
}

/// Which noise, shared by every subcommand.
#[derive(Debug, Clone, Args)]
pub struct SourceArgs {
    /// Noise source: a name (perlin, value, simplex, fbm, ridged, billow,
    /// turbulence, marble) or a recipe, e.g. 'ridged(warp(perlin(seed=7), perlin(seed=8),
    /// amplitude=0.5), octaves=5)' (the README lists every name and
    /// parameter), or @FILE for a recipe in a file (@- standard input). The
    /// options below fill in what a recipe leaves out.
    #[arg(long, default_value = "fbm", value_parser = RecipeParser, value_name = "RECIPE")]
    pub source: Recipe,

    /// Seed, 0 to 2^64 - 1.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub seed: u64,

    /// Corner hashing: `coordinates` (never repeats within 2^32 cells) or
    /// `permuted` (the permutation table: the output of versions before
    /// 0.2, repeating every 256 cells).
    #[arg(long, default_value_t = HashMode::Coordinates)]
    pub hash: HashMode,

    /// Octaves of a fractal source, 1 to 32 [default: 6].
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub octaves: Option<u32>,

    /// Frequency factor from one octave to the next [default: 2].
    #[arg(long, allow_hyphen_values = true)]
    pub lacunarity: Option<f32>,

    /// Amplitude factor from one octave to the next [default: 0.5].
    #[arg(long, allow_hyphen_values = true)]
    pub persistence: Option<f32>,

    /// Marble: stripe frequency along x, radians per lattice cell [default: 1].
    #[arg(long, allow_hyphen_values = true)]
    pub stripes: Option<f32>,

    /// Marble: how strongly turbulence bends the stripes [default: 4].
    #[arg(long, allow_hyphen_values = true)]
    pub power: Option<f32>,

    /// Map a fractal's output from its bounds onto [-1, 1] (default: the raw sum).
    #[arg(long)]
    pub normalize: bool,

    /// SIMD level: scalar, portable, neon, avx2 or avx512 [default: the best this CPU has].
    #[arg(long)]
    pub level: Option<Level>,
}

/// Which samples of the noise: the grid, shared by `render` and `stats`.
#[derive(Debug, Clone, Args)]
pub struct FieldArgs {
    /// Samples per axis: WxH for a 2D field, WxHxD for a 3D volume.
    #[arg(long, default_value = "1024x1024", value_parser = parse_size)]
    pub size: Size,

    /// Noise coordinates of the first sample, X,Y or X,Y,Z [default: all 0].
    /// More coordinates than --size has axes (up to 32) make the noise that
    /// many-dimensional: the field spans the --axes and the other
    /// coordinates stay at these values.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_coords, value_name = "X,Y[,Z,…]")]
    pub origin: Option<Coords>,

    /// With an --origin of more coordinates than --size has axes: the noise
    /// axes (numbered from 0) that the picture's x and y (and the volume's z)
    /// run along [default: 0,1 or 0,1,2].
    #[arg(long, value_parser = parse_axes, value_name = "A,B[,C]")]
    pub axes: Option<Axes>,

    /// Lattice cells per sample, a number or a fraction such as 1/128 [default: 1/128].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_frequency, conflicts_with = "period")]
    pub frequency: Option<f64>,

    /// Seamless tile: the field spans exactly P lattice cells per axis (P, or
    /// PX,PY or PX,PY,PZ; 1 to 4294967294) and wraps around; sets the
    /// frequency to P / size.
    #[arg(long, value_parser = parse_periods, value_name = "P")]
    pub period: Option<Periods>,

    /// Tile X,Y (X,Y,Z for a volume) of an endless world, each index 0 or
    /// more: --size is the tile's size, and the tile starts at sample
    /// index × size of the world that starts at --origin (noise coordinate
    /// origin + index × size × frequency). Neighbouring tiles share no
    /// samples (unless --shared-edges) and join exactly; the default
    /// --range is then the source's fixed bounds, the same for every tile.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_tile, value_name = "X,Y[,Z]")]
    pub tile: Option<Tile>,

    /// With --tile: neighbouring tiles share their edge samples (the last
    /// row and column of a tile are the first of the next), as Unity and
    /// Unreal terrain tiles of 2^n + 1 samples do: tile X starts at sample
    /// X · (size − 1).
    #[arg(long, requires = "tile")]
    pub shared_edges: bool,

    /// The noise source.
    #[command(flatten)]
    pub source: SourceArgs,
}

/// `noisefield render`.
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// The field.
    #[command(flatten)]
    pub field: FieldArgs,

    /// Colours of png output [default: terrain].
    #[arg(long, value_enum)]
    pub palette: Option<Palette>,

    /// Values mapped to the ends of the palette (png) or to 0 and 65535
    /// (png16, r16, tiff16), e.g. -1..1 [default: the field's own
    /// min..max; with --tile, the source's fixed bounds].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_range, value_name = "LO..HI")]
    pub range: Option<(f32, f32)>,

    /// png (8-bit colour), png16 (16-bit gray heightmap), npy (numpy
    /// float32), raw (little-endian f32), r16 (little-endian u16
    /// heightmap), exr (32-bit float OpenEXR), tiff (32-bit float), tiff16
    /// (16-bit heights) or normal (RGB8 PNG normal map) [default: from the
    /// output's extension, else png].
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Normal map: the surface is z = S · value over x, y in lattice cells;
    /// larger S, steeper normals [default: 1].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_strength, value_name = "S")]
    pub normal_strength: Option<f32>,

    /// Normal map: store green as the normal's component along −y (towards
    /// row 0, up as the picture is shown: the OpenGL convention of Unity,
    /// Godot and Blender) instead of along +y, the direction rows advance.
    #[arg(long)]
    pub normal_flip_y: bool,

    /// Output file [default: noise.png, noise.npy, … by format].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Only this band A..B (end excluded) of the slowest axis: rows (y) of
    /// a 2D field, slices (z) of a volume.
    #[arg(long, value_parser = parse_rows, value_name = "A..B")]
    pub rows: Option<Range<usize>>,
}

/// `noisefield animate`.
#[derive(Debug, Clone, Args)]
pub struct AnimateArgs {
    /// Frame size, WxH.
    #[arg(long, default_value = "256x256", value_parser = parse_size)]
    pub size: Size,

    /// Number of frames.
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frames: u32,

    /// Time (z) advanced per frame, in lattice cells.
    #[arg(long, default_value = "1/16", value_parser = parse_frequency)]
    pub time_step: f64,

    /// Loop seamlessly: the noise is periodic along time, with a period of
    /// frames × time step rounded to whole lattice cells (the time step is
    /// adjusted to fit).
    #[arg(long = "loop")]
    pub looped: bool,

    /// Frames per second (GIF delays are whole hundredths of a second).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub fps: u16,

    /// Noise coordinates of the first sample of the first frame, X,Y,Z; more
    /// coordinates (up to 32) make the noise N-dimensional, and --axes picks
    /// the frame's axes and time's.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_coords, value_name = "X,Y,Z[,…]")]
    pub origin: Option<Coords>,

    /// With an --origin of more than 3 coordinates: the noise axes (numbered
    /// from 0) that the frame's x and y and time run along [default: 0,1,2].
    #[arg(long, value_parser = parse_axes, value_name = "A,B,T")]
    pub axes: Option<Axes>,

    /// Lattice cells per pixel [default: 1/64].
    #[arg(long, value_parser = parse_frequency)]
    pub frequency: Option<f64>,

    /// Colours of the frames [default: clouds].
    #[arg(long, value_enum)]
    pub palette: Option<Palette>,

    /// Values mapped to the ends of the palette [default: the animation's own min..max].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_range, value_name = "LO..HI")]
    pub range: Option<(f32, f32)>,

    /// Output file.
    #[arg(short, long, value_name = "FILE", default_value = "noise.gif")]
    pub output: PathBuf,

    /// The noise source.
    #[command(flatten)]
    pub source: SourceArgs,
}

/// `noisefield stats`.
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// The field.
    #[command(flatten)]
    pub field: FieldArgs,

    /// Histogram bins between min and max.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub bins: u32,

    /// Also draw the histogram to this PNG file (value axis below, counts
    /// at the left, the mean in red).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Also write the histogram as CSV: a header, then one line per bin
    /// `lo,hi,count` (the last bin includes the max).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// `noisefield bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Random points per run of fill2 and fill3.
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u32).range(1..=(1 << 26)))]
    pub points: u32,

    /// Runs per measurement; the best is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,

    /// The noise source (--level: measure that level only).
    #[command(flatten)]
    pub source: SourceArgs,
}

/// Samples per axis, x first (2 or 3 axes).
#[derive(Debug, Clone, PartialEq)]
pub struct Size(pub Vec<usize>);

/// Coordinates of a point, x first.
#[derive(Debug, Clone, PartialEq)]
pub struct Coords(pub Vec<f64>);

/// Periods in lattice cells: one for every axis, or one per axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Periods(pub Vec<u32>);

/// Tile indices, x first (2 or 3), each 0 or more.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile(pub Vec<u32>);

/// `X,Y` or `X,Y,Z`: tile indices, whole numbers from 0 to 2^32 − 1.
pub fn parse_tile(text: &str) -> Result<Tile, String> {
    let index = text
        .split(',')
        .map(|i| {
            let i = i.trim();
            match i.parse::<i64>() {
                Ok(n) if n < 0 => Err(format!(
                    "tile {n}: tiles are numbered from 0 at --origin; \
                     move --origin for a world that reaches further left or up"
                )),
                _ => i
                    .parse::<u32>()
                    .map_err(|_| format!("{i:?} is not a tile index (a whole number, 0 or more)")),
            }
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if !(2..=3).contains(&index.len()) {
        return Err("expected X,Y or X,Y,Z".into());
    }
    Ok(Tile(index))
}

/// A normal map's strength: finite and greater than 0.
pub fn parse_strength(text: &str) -> Result<f32, String> {
    let value = parse_number(text)?;
    if value > f64::from(f32::MAX) {
        Err(format!(
            "{text} is not a strength: give a number greater than 0 and at most \
             the largest f32, {:e}",
            f32::MAX
        ))
    } else if value > 0.0 && value as f32 > 0.0 {
        Ok(value as f32)
    } else {
        Err(format!(
            "{text} is not a strength: give a number greater than 0"
        ))
    }
}

/// Sets the size of rayon's global pool (before any parallel work).
pub fn set_threads(threads: Option<NonZeroUsize>) -> Result<(), Failure> {
    let Some(n) = threads else { return Ok(()) };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n.get())
        .build_global()
        .map_err(|e| Failure::Io(format!("cannot start {n} threads: {e}")))
}

/// A thread count from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    let n: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a whole number of threads"))?;
    usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_THREADS)
        .and_then(NonZeroUsize::new)
        .ok_or_else(|| format!("{n} threads: give 1 to {MAX_THREADS}"))
}

/// `1024x768` or `256x256x64` (`×` also accepted): 2 or 3 axes, each at
/// least 1 and at most [`MAX_AXIS`], at most [`MAX_SAMPLES`] in all.
/// The largest recipe file `--source @FILE` reads: 16 MiB.
pub const MAX_RECIPE_BYTES: u64 = 1 << 24;

/// A `--source` recipe: the text, or `@FILE` (`@-`: standard input) for
/// the text in a file, however long. An error shows the part of the text
/// around the position, with a caret under it.
pub fn parse_recipe(text: &str) -> Result<Recipe, String> {
    let read;
    let text = match text.strip_prefix('@') {
        Some(file) => {
            read = read_recipe(file)?;
            read.as_str()
        }
        None => text,
    };
    text.parse::<Recipe>().map_err(|e| {
        let excerpt = e.excerpt(text).replace('\n', "\n  ");
        format!("{e}\n  {excerpt}")
    })
}

/// `--source`'s parser ([`parse_recipe`]). Its errors are the recipe's own
/// message and excerpt, without clap's "invalid value '…'", which would
/// quote the whole recipe however long.
#[derive(Debug, Clone, Copy)]
pub struct RecipeParser;

impl clap::builder::TypedValueParser for RecipeParser {
    type Value = Recipe;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Recipe, clap::Error> {
        use clap::error::ErrorKind;
        let refuse = |kind, message: String| {
            // A raw error has no tip of its own: the one every usage error ends with.
            let tip = "For more information, try '--help'.";
            clap::Error::raw(kind, format!("--source: {message}\n\n{tip}\n")).with_cmd(cmd)
        };
        let text = value.to_str().ok_or_else(|| {
            refuse(
                ErrorKind::InvalidUtf8,
                "the recipe is not UTF-8 text".into(),
            )
        })?;
        parse_recipe(text).map_err(|message| refuse(ErrorKind::ValueValidation, message))
    }
}

/// The text of a recipe file, `-` for standard input: UTF-8, at most
/// [`MAX_RECIPE_BYTES`].
fn read_recipe(file: &str) -> Result<String, String> {
    use std::io::Read;
    if file.is_empty() {
        return Err("@ needs a file name: --source @FILE, or @- for standard input".into());
    }
    let shown = if file == "-" { "standard input" } else { file };
    let mut bytes = Vec::new();
    let read = if file == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_RECIPE_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(MAX_RECIPE_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("cannot read the recipe from {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_RECIPE_BYTES {
        return Err(format!(
            "the recipe in {shown} is longer than the {MAX_RECIPE_BYTES} bytes accepted"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "the recipe in {shown} is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to()
        )
    })
}

pub fn parse_size(text: &str) -> Result<Size, String> {
    let parts: Vec<&str> = text.split(['x', 'X', '×']).collect();
    if !(2..=3).contains(&parts.len()) {
        return Err("expected WxH (2D) or WxHxD (3D), e.g. 1024x1024".into());
    }
    let size = parts
        .iter()
        .map(|part| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("{part:?} is not a whole number of samples"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    check_size(&size)?;
    Ok(Size(size))
}

/// Every axis at least 1 and at most [`MAX_AXIS`], at most [`MAX_SAMPLES`] in all.
pub fn check_size(size: &[usize]) -> Result<(), String> {
    for &n in size {
        if n == 0 {
            return Err("every axis needs at least 1 sample".into());
        }
        if n > MAX_AXIS {
            return Err(format!(
                "{n} samples on one axis is more than the {MAX_AXIS} accepted"
            ));
        }
    }
    // In u128: three axes of 2^24 are 2^72 samples, past u64.
    let total = size.iter().map(|&n| n as u128).product::<u128>();
    if total > u128::from(MAX_SAMPLES) {
        return Err(format!(
            "{total} samples in all is more than the {MAX_SAMPLES} (2^40) accepted"
        ));
    }
    Ok(())
}

/// A finite number, or a fraction `A/B` of two (`1/128`).
pub fn parse_number(text: &str) -> Result<f64, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("{s:?} is not a number"))
    };
    let value = match text.split_once('/') {
        Some((a, b)) => number(a)? / number(b)?,
        None => number(text)?,
    };
    if value.is_finite() {
        Ok(value)
    } else {
        Err(format!("{text} is not a finite number"))
    }
}

/// A frequency or a time step: finite and greater than 0.
pub fn parse_frequency(text: &str) -> Result<f64, String> {
    let value = parse_number(text)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(format!("{text} is not greater than 0"))
    }
}

/// `X,Y` or `X,Y,Z`: finite coordinates.
pub fn parse_coords(text: &str) -> Result<Coords, String> {
    let coords = text
        .split(',')
        .map(parse_number)
        .collect::<Result<Vec<f64>, String>>()?;
    if !(2..=noisefield::MAX_DIMENSIONS).contains(&coords.len()) {
        return Err(format!(
            "expected X,Y or X,Y,Z, or up to {} coordinates for noise in more dimensions",
            noisefield::MAX_DIMENSIONS
        ));
    }
    Ok(Coords(coords))
}

/// The axes of the noise a field spans (`--axes`): 2 or 3 distinct axis
/// numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Axes(pub Vec<usize>);

/// `A,B` or `A,B,C`: distinct axis numbers from 0.
pub fn parse_axes(text: &str) -> Result<Axes, String> {
    let axes = text
        .split(',')
        .map(|a| {
            let a = a.trim();
            a.parse::<usize>()
                .ok()
                .filter(|&a| a < noisefield::MAX_DIMENSIONS)
                .ok_or_else(|| {
                    format!(
                        "{a:?} is not an axis number (0 to {})",
                        noisefield::MAX_DIMENSIONS - 1
                    )
                })
        })
        .collect::<Result<Vec<usize>, String>>()?;
    if !(2..=3).contains(&axes.len()) {
        return Err("expected A,B (a picture) or A,B,C (a volume)".into());
    }
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].contains(a) {
            return Err(format!("axis {a} given twice"));
        }
    }
    Ok(Axes(axes))
}

/// The longest period, in cells: 2^32 − 2, as a recipe's `period` (the
/// library reads 2^32 − 1 as "not periodic").
pub const MAX_PERIOD: u32 = u32::MAX - 1;

/// `P` (every axis) or `PX,PY[,PZ]`: periods in lattice cells, 1 to [`MAX_PERIOD`].
pub fn parse_periods(text: &str) -> Result<Periods, String> {
    let periods = text
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<u32>()
                .ok()
                .filter(|&p| (1..=MAX_PERIOD).contains(&p))
                .ok_or_else(|| {
                    format!("{p:?} is not a period (a whole number of cells, 1 to {MAX_PERIOD})")
                })
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if periods.len() > 3 {
        return Err("expected P, PX,PY or PX,PY,PZ".into());
    }
    Ok(Periods(periods))
}

/// `LO..HI`: values within `f32`'s range with LO < HI.
pub fn parse_range(text: &str) -> Result<(f32, f32), String> {
    let (lo, hi) = text.split_once("..").ok_or("expected LO..HI, e.g. -1..1")?;
    let single = |part: &str| {
        let v = parse_number(part)?;
        match v.abs() > f64::from(f32::MAX) {
            true => Err(format!(
                "{}: {} is beyond the largest f32, ±{:e}",
                text,
                part.trim(),
                f32::MAX
            )),
            false => Ok(v as f32),
        }
    };
    let (lo, hi) = (single(lo)?, single(hi)?);
    if lo < hi && lo.is_finite() && hi.is_finite() {
        Ok((lo, hi))
    } else {
        Err(format!("{text}: LO must be less than HI"))
    }
}

/// `A..B`: a non-empty band of indices, B excluded.
pub fn parse_rows(text: &str) -> Result<Range<usize>, String> {
    let (a, b) = text.split_once("..").ok_or("expected A..B, e.g. 0..512")?;
    let index = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?} is not a row index"))
    };
    let (a, b) = (index(a)?, index(b)?);
    if a < b {
        Ok(a..b)
    } else {
        Err(format!("{text}: the band is empty (A must be less than B)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1024x768"), Ok(Size(vec![1024, 768])));
        assert_eq!(parse_size("4×5×6"), Ok(Size(vec![4, 5, 6])));
        for bad in [
            "0x5",
            "5",
            "5x5x5x5",
            "ax5",
            "-1x5",
            "20000000x1",
            "2000000x2000000",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_frequency("1/128"), Ok(1.0 / 128.0));
        assert_eq!(parse_frequency("0.25"), Ok(0.25));
        for bad in ["NaN", "inf", "0", "-1", "1/0", "x"] {
            assert!(parse_frequency(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_coords("-1.5,2"), Ok(Coords(vec![-1.5, 2.0])));
        assert!(parse_coords("1").is_err());
        assert_eq!(parse_range("-0.5..1"), Ok((-0.5, 1.0)));
        assert!(parse_range("1..1").is_err());
        let err = parse_range("1e39..2e39").unwrap_err();
        assert!(err.contains("beyond the largest f32"), "{err}");
        assert!(!err.contains("less than"), "{err}");
        assert_eq!(parse_threads("1024").map(|n| n.get()), Ok(1024));
        for bad in ["0", "1025", "100000", "-1", "x"] {
            assert!(parse_threads(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_rows("3..7"), Ok(3..7));
        assert!(parse_rows("7..3").is_err());
        assert_eq!(parse_periods("8"), Ok(Periods(vec![8])));
        assert!(parse_periods("0").is_err());
    }
}
