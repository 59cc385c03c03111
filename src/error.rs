//! The crate's one error type.

use crate::Level;
use std::fmt;

/// Why a call was refused. A call that returns `Err` has written nothing.
///
/// Errors compare equal when they are the same variant with the same
/// fields, floating-point fields compared by their bits: an error that
/// carries a NaN equals itself (a derived `PartialEq` would say it does not).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Error {
    /// Coordinate and output slices of a batch call have different lengths.
    ///
    /// `expected` is the length of the first coordinate slice (`xs`); `name`
    /// is the slice whose length `found` differs from it.
    LengthMismatch {
        /// The slice that disagrees: `"ys"`, `"zs"`, `"ws"`, `"axis 4"`, …
        /// (the fifth axis on) or `"out"`.
        name: &'static str,
        /// Length of `xs`.
        expected: usize,
        /// Length of the slice called `name`.
        found: usize,
    },
    /// The requested SIMD level cannot run on this CPU (or this build).
    Unsupported(Level),
    /// A grid window that does not fit inside its parent grid.
    WindowOutOfBounds {
        /// The axis (0 = x, 1 = y, 2 = z, 3 = w).
        axis: usize,
        /// The window's offset on that axis.
        offset: usize,
        /// The window's size on that axis.
        size: usize,
        /// The parent's size on that axis.
        parent: usize,
    },
    /// A grid whose origin, step or last sample position is NaN or infinite.
    NonFiniteGrid {
        /// `"origin"`, `"step"` or `"last sample position"`.
        what: &'static str,
        /// `"x"`, `"y"`, `"z"` or `"w"`.
        axis: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A grid whose sample count does not fit in `usize`.
    GridTooLarge {
        /// The grid's size on each axis.
        size: Vec<usize>,
    },
    /// A period of 0 was given for axis `axis` (0 = x, 1 = y, 2 = z, 3 = w).
    InvalidPeriod {
        /// The axis whose period is 0.
        axis: usize,
    },
    /// A fractal's octave count outside `1..=32`.
    InvalidOctaves(u32),
    /// A fractal parameter (`"lacunarity"`, `"persistence"`, `"power"`,
    /// `"stripes"`) that is NaN or infinite.
    NonFiniteParameter {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: f32,
    },
    /// A fractal over a periodic source whose lacunarity is not a whole
    /// number ≥ 1: its octaves could not repeat with the source's period.
    PeriodicLacunarity(f32),
    /// Fractal settings whose octave frequencies, amplitudes or output
    /// bounds overflow `f32` (for example persistence 1e30 over 32
    /// octaves): the sum would be ±inf or NaN.
    FractalOverflow {
        /// `"frequency"`, `"amplitude"` or `"bounds"`: what overflows first.
        what: &'static str,
        /// The octave count.
        octaves: u32,
        /// The lacunarity.
        lacunarity: f32,
        /// The persistence.
        persistence: f32,
    },
    /// An operator's parameter that is out of its domain (for example a
    /// clamp whose lower bound is above its upper bound, or a terrace with
    /// fewer than two distinct control points).
    InvalidParameter {
        /// The parameter, e.g. `"clamp bounds"` or `"terrace points"`.
        name: &'static str,
        /// What is wrong with it, for a person.
        reason: String,
    },
    /// A call given a number of coordinates its source does not compute
    /// (0; more than [`crate::MAX_LATTICE_DIMENSIONS`] for Perlin and
    /// Value; more than 4 for Ken's permutation mode, and for custom sources
    /// unless [`crate::CustomNoise::max_dimension`] says more;
    /// more than [`crate::MAX_SIMPLEX_DIMENSIONS`]; fractals, operators and
    /// warps compute what all their inputs do).
    InvalidDimension(usize),
    /// A period asked of [`crate::Simplex`]: its skewed lattice does not
    /// tile an axis-aligned box, so it cannot repeat along the axes.
    NotPeriodic,
    /// Derivatives asked of a [`crate::DynSource`] whose graph has a part
    /// without them (ridged, billow, turbulence, marble, a custom source).
    NotDifferentiable,
}

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        use Error::*;
        match (self, other) {
            (
                LengthMismatch {
                    name: a,
                    expected: b,
                    found: c,
                },
                LengthMismatch {
                    name: x,
                    expected: y,
                    found: z,
                },
            ) => (a, b, c) == (x, y, z),
            (Unsupported(a), Unsupported(x)) => a == x,
            (
                WindowOutOfBounds {
                    axis: a,
                    offset: b,
                    size: c,
                    parent: d,
                },
                WindowOutOfBounds {
                    axis: w,
                    offset: x,
                    size: y,
                    parent: z,
                },
            ) => (a, b, c, d) == (w, x, y, z),
            (
                NonFiniteGrid {
                    what: a,
                    axis: b,
                    value: c,
                },
                NonFiniteGrid {
                    what: x,
                    axis: y,
                    value: z,
                },
            ) => (a, b, c.to_bits()) == (x, y, z.to_bits()),
            (GridTooLarge { size: a }, GridTooLarge { size: x }) => a == x,
            (InvalidPeriod { axis: a }, InvalidPeriod { axis: x }) => a == x,
            (InvalidOctaves(a), InvalidOctaves(x)) => a == x,
            (
                NonFiniteParameter { name: a, value: b },
                NonFiniteParameter { name: x, value: y },
            ) => (a, b.to_bits()) == (x, y.to_bits()),
            (PeriodicLacunarity(a), PeriodicLacunarity(x)) => a.to_bits() == x.to_bits(),
            (
                FractalOverflow {
                    what: a,
                    octaves: b,
                    lacunarity: c,
                    persistence: d,
                },
                FractalOverflow {
                    what: w,
                    octaves: x,
                    lacunarity: y,
                    persistence: z,
                },
            ) => (a, b, c.to_bits(), d.to_bits()) == (w, x, y.to_bits(), z.to_bits()),
            (InvalidParameter { name: a, reason: b }, InvalidParameter { name: x, reason: y }) => {
                (a, b) == (x, y)
            }
            (InvalidDimension(a), InvalidDimension(x)) => a == x,
            (NotDifferentiable, NotDifferentiable) => true,
            (NotPeriodic, NotPeriodic) => true,
            _ => false,
        }
    }
}

impl Eq for Error {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::LengthMismatch {
                name,
                expected,
                found,
            } => write!(
                f,
                "slice lengths differ: xs has {expected} points but {name} has {found}; \
                 every coordinate slice and the output slice must have the same length"
            ),
            Error::WindowOutOfBounds {
                axis,
                offset,
                size,
                parent,
            } => write!(
                f,
                "window does not fit in its grid: on the {} axis it covers samples \
                 {offset}..{offset}+{size} but the grid has {parent}",
                crate::grid::AXES[(*axis).min(crate::MAX_DIMENSIONS - 1)]
            ),
            Error::NonFiniteGrid { what, axis, value } => write!(
                f,
                "grid {what} on the {axis} axis is {value}; grid origins, steps and \
                 sample positions must be finite"
            ),
            Error::InvalidDimension(d) => write!(
                f,
                "noise in {d} dimensions is not computed by this source: Perlin and Value \
                 noise take 1 to {} coordinates per point, Simplex noise 1 to {}, Ken's \
                 permutation mode 1 to 4, custom sources 1 to 4 unless they say more \
                 (CustomNoise::max_dimension); fractals, operators and warps take what all \
                 their inputs do",
                crate::MAX_LATTICE_DIMENSIONS,
                crate::MAX_SIMPLEX_DIMENSIONS
            ),
            Error::NotPeriodic => write!(
                f,
                "simplex noise cannot be periodic: its skewed lattice does not tile an \
                 axis-aligned box; use Perlin or Value noise for tiles"
            ),
            Error::NotDifferentiable => write!(
                f,
                "no derivatives: this source has a part without analytic derivatives \
                 (ridged, billow, turbulence, marble or a custom source); perlin, value, \
                 fbm, the operators and warp over them have them"
            ),
            Error::GridTooLarge { size } => write!(
                f,
                "grid of size {size:?} has more samples than fit in memory addresses (usize)"
            ),
            Error::InvalidPeriod { axis } => write!(
                f,
                "the period of the {} axis is 0; periods are counted in lattice cells and \
                 must be at least 1 (256, Ken's table's own period, leaves an axis as it is)",
                crate::grid::AXES[(*axis).min(crate::MAX_DIMENSIONS - 1)]
            ),
            Error::InvalidOctaves(octaves) => write!(
                f,
                "{octaves} octaves requested; a fractal sums 1 to 32 octaves"
            ),
            Error::NonFiniteParameter { name, value } => {
                write!(f, "{name} is {value}; it must be a finite number")
            }
            Error::PeriodicLacunarity(lacunarity) => write!(
                f,
                "lacunarity {lacunarity} over a periodic source: octave k scales the period \
                 by lacunarity^k, so for seamless tiling it must be a whole number (2 is usual)"
            ),
            Error::FractalOverflow {
                what,
                octaves,
                lacunarity,
                persistence,
            } => write!(
                f,
                "the octave {what} overflows f32 (beyond ±3.4e38) with {octaves} octaves, \
                 lacunarity {lacunarity} and persistence {persistence}: octave i has frequency \
                 lacunarity^i and amplitude persistence^i; use fewer octaves or smaller factors"
            ),
            Error::InvalidParameter { name, reason } => write!(f, "invalid {name}: {reason}"),
            Error::Unsupported(level) => {
                let available: Vec<&str> = Level::available().iter().map(|l| l.name()).collect();
                write!(
                    f,
                    "SIMD level {} is not supported on this CPU; available here: {}",
                    level.name(),
                    available.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// Checks that every coordinate slice and `out` have the length of the first.
pub(crate) fn check_lengths<T>(inputs: &[&[T]], out: &[f32]) -> Result<(), Error> {
    const NAMES: [&str; 4] = ["xs", "ys", "zs", "ws"];
    let name = |a: usize| NAMES.get(a).copied().unwrap_or(crate::grid::AXES[a]);
    let expected = inputs.first().map_or(out.len(), |c| c.len());
    let others = inputs
        .iter()
        .enumerate()
        .skip(1)
        .map(|(a, c)| (c.len(), name(a)));
    for (found, name) in others.chain([(out.len(), "out")]) {
        if found != expected {
            return Err(Error::LengthMismatch {
                name,
                expected,
                found,
            });
        }
    }
    Ok(())
}
