//! The names a recipe may call: what each builds, how many inputs it
//! takes and which parameters ([`BUILT_IN`]).

/// What a name builds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
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
    ///
    /// [`Recipe::parse_with`]: super::Recipe::parse_with
    User(usize),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum FractalKind {
    Fbm,
    Billow,
    Ridged,
    Turbulence,
    Marble,
}

/// A name: what it builds, how many inputs it takes (least, most) and its
/// parameters.
pub(super) struct Signature {
    pub(super) name: &'static str,
    pub(super) kind: Kind,
    pub(super) inputs: (usize, usize),
    pub(super) params: &'static [&'static str],
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
pub(super) const BUILT_IN: &[Signature] = &[
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
