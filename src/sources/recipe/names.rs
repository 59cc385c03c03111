//! The names a recipe may call: what each builds, how many inputs it
//! takes and which parameters ([`BUILT_IN`]).

/// What a name builds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum SourceKind {
    Perlin,
    Value,
    Simplex,
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
    pub(super) kind: SourceKind,
    pub(super) inputs: (usize, usize),
    pub(super) params: &'static [&'static str],
}

const fn sig(
    name: &'static str,
    kind: SourceKind,
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
    sig("perlin", SourceKind::Perlin, (0, 0), LATTICE),
    sig("value", SourceKind::Value, (0, 0), LATTICE),
    sig("simplex", SourceKind::Simplex, (0, 0), &["seed", "period"]),
    sig(
        "fbm",
        SourceKind::Fractal(FractalKind::Fbm),
        (0, 1),
        FRACTAL,
    ),
    sig(
        "billow",
        SourceKind::Fractal(FractalKind::Billow),
        (0, 1),
        FRACTAL,
    ),
    sig(
        "ridged",
        SourceKind::Fractal(FractalKind::Ridged),
        (0, 1),
        FRACTAL,
    ),
    sig(
        "turbulence",
        SourceKind::Fractal(FractalKind::Turbulence),
        (0, 1),
        FRACTAL,
    ),
    sig(
        "marble",
        SourceKind::Fractal(FractalKind::Marble),
        (0, 1),
        MARBLE,
    ),
    sig(
        "scale_bias",
        SourceKind::ScaleBias,
        (1, 1),
        &["scale", "bias"],
    ),
    sig("abs", SourceKind::Abs, (1, 1), &[]),
    sig("clamp", SourceKind::Clamp, (1, 1), &["lower", "upper"]),
    sig("terrace", SourceKind::Terrace, (1, 1), &["points"]),
    sig("curve", SourceKind::Curve, (1, 1), &["points"]),
    sig("add", SourceKind::Add, (2, 2), &[]),
    sig("multiply", SourceKind::Multiply, (2, 2), &[]),
    sig("min", SourceKind::Min, (2, 2), &[]),
    sig("max", SourceKind::Max, (2, 2), &[]),
    sig("blend", SourceKind::Blend, (3, 3), &[]),
    sig("select", SourceKind::Select, (3, 3), &["threshold", "edge"]),
    sig(
        "warp",
        SourceKind::Warp,
        (2, 2),
        &["amplitude", "iterations"],
    ),
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
