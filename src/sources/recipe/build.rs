//! A parsed recipe built into sources: each call into its node, checked
//! by the library, for its bounds and for its cost in lattice evaluations.

use super::MAX_RECIPE_COST;
use super::defaults::RecipeDefaults;
use super::error::{RecipeError, clip};
use super::names::{FractalKind, SourceKind};
use super::params::{Reader, pad_period, param, period};
use super::tree::{Call, Val};
use crate::Source;
use crate::{
    Billow, Blend, Combine, DynSource, Fade, Fbm, HashMode, Level, Map, Marble, Perlin, Ridged,
    Simplex, Turbulence, Value, Warp,
};

/// Axes a warp field is sampled for, per iteration, in the cost of a
/// `warp` (the most a field has: 4D).
const WARP_AXES: u64 = 4;

/// A built node and its cost: lattice evaluations per sample. Every node is
/// boxed, lattices too: a fractal over a lattice is `Fractal<DynSource>`,
/// one virtual call per pack and octave into the lattice's own kernel.
/// Boxed as `Fbm<Perlin>`, `Fbm<Value>`, the library compiled their boxed
/// per-pack jobs (values and derivatives, every level) once more per
/// lattice type (11 of its 189 CPU-seconds of build), for no measurable
/// speed (CLI `render` of fBm, 4096² and 16777216×2, and `bench --source
/// fbm`: the same times within 1–2%).
pub(super) struct Built {
    node: DynSource,
    pub(super) cost: u64,
}

/// Builds `call` and checks it with the library's own check, its bounds
/// (every value within `f32`'s range) and its cost ([`MAX_RECIPE_COST`]).
pub(super) fn build(
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
        Ok(built.node)
    };
    let checked = |s: DynSource| -> Result<DynSource, RecipeError> {
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
        Ok(s)
    };
    // An operator costs its inputs and one evaluation of its own.
    let operator = |node: Result<DynSource, RecipeError>| -> Result<Built, RecipeError> {
        Ok(Built {
            node: node?,
            cost: inputs_cost.get().saturating_add(1),
        })
    };
    let built = match call.kind {
        SourceKind::Perlin | SourceKind::Value => {
            let seed = r.integer("seed", u64::MAX)?.unwrap_or(defaults.seed);
            let hash = r.word("hash", &["coordinates", "permuted", "reference"])?;
            let period = period(&r)?.or(defaults.period.map(pad_period));
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
            let node = if call.kind == SourceKind::Perlin {
                DynSource::differentiable(lattice!(Perlin))
            } else {
                DynSource::differentiable(lattice!(Value))
            };
            Built { node, cost: 1 }
        }
        SourceKind::Simplex => {
            let seed = r.integer("seed", u64::MAX)?.unwrap_or(defaults.seed);
            // A period (given here, or the defaults' for every lattice) is
            // refused: the library's error, at the parameter.
            if period(&r)?.or(defaults.period.map(pad_period)).is_some() {
                return Err(r.library(crate::Error::NotPeriodic));
            }
            Built {
                node: DynSource::differentiable(Simplex::new(seed)),
                cost: 1,
            }
        }
        SourceKind::Fractal(kind) => {
            let (source, source_cost) = match call.inputs.first() {
                Some(c) => {
                    let built = build(text, c, users, defaults)?;
                    (built.node, built.cost)
                }
                None => (
                    DynSource::differentiable(
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
            let (octaves, f) = fractal!(source);
            Built {
                node: checked(f)?,
                cost: u64::from(octaves).saturating_mul(source_cost),
            }
        }
        SourceKind::ScaleBias => operator(checked(DynSource::differentiable(Map::scale_bias(
            input(0)?,
            r.float("scale")?.unwrap_or(1.0),
            r.float("bias")?.unwrap_or(0.0),
        ))))?,
        SourceKind::Abs => operator(checked(DynSource::differentiable(Map::abs(input(0)?))))?,
        SourceKind::Clamp => operator(checked(DynSource::differentiable(Map::clamp(
            input(0)?,
            r.float("lower")?.unwrap_or(-1.0),
            r.float("upper")?.unwrap_or(1.0),
        ))))?,
        SourceKind::Terrace => {
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
        SourceKind::Curve => {
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
        SourceKind::Add => operator(checked(DynSource::differentiable(Combine::add(
            input(0)?,
            input(1)?,
        ))))?,
        SourceKind::Multiply => operator(checked(DynSource::differentiable(Combine::multiply(
            input(0)?,
            input(1)?,
        ))))?,
        SourceKind::Min => operator(checked(DynSource::differentiable(Combine::min(
            input(0)?,
            input(1)?,
        ))))?,
        SourceKind::Max => operator(checked(DynSource::differentiable(Combine::max(
            input(0)?,
            input(1)?,
        ))))?,
        SourceKind::Blend => operator(checked(DynSource::differentiable(Blend::new(
            input(0)?,
            input(1)?,
            input(2)?,
        ))))?,
        SourceKind::Select => operator(checked(DynSource::differentiable(Blend::select(
            input(0)?,
            input(1)?,
            input(2)?,
            r.float("threshold")?.unwrap_or(0.0),
            r.float("edge")?.unwrap_or(0.0),
        ))))?,
        SourceKind::Warp => {
            let source = build(text, &call.inputs[0], users, defaults)?;
            let field = build(text, &call.inputs[1], users, defaults)?;
            let mut w = Warp::new(source.node, field.node);
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
        SourceKind::User(i) => Built {
            node: users[i].1.clone(),
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
pub(super) fn finished(built: Built) -> DynSource {
    built
        .node
        .with_level(Level::detect())
        .expect("the detected level is available")
}
