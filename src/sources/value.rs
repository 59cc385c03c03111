//! [`Value`]: value noise on the same lattice, hashing and SIMD paths as
//! [`crate::Perlin`].

use crate::kernel::ValueCorners;
use crate::sources::lattice::{Lattice, lattice_source};
use crate::sources::perlin::{KEN_PERMUTATION, shuffled};
use crate::{Error, Fade, HashMode, Level};

/// Value noise: every lattice point carries a pseudo-random height, and the
/// field blends the heights of a cell's corners with the fade curve.
///
/// The height of a corner comes from its hash, as in [`crate::Perlin`]: with
/// the coordinates mode ([`Value::new`]) the hash's top 24 bits `t` give
/// `t · 2/(2²⁴ − 1) − 1`; in the permutation mode ([`Value::permuted`],
/// [`Value::reference`]) the chain `P[P[P[X] + Y] + Z]` (3D) gives one of
/// 256 evenly spaced values, `h · 2/255 − 1`. Both run from −1 to 1, so
/// outputs lie in [−1, 1]
/// (every blend is a convex combination), and unlike gradient noise the
/// field is not 0 at lattice points. Blockier than Perlin noise, with
/// visible grid alignment; the seeds' "value noise" (Fade::Cosine or
/// Fade::Linear give the classic looks; the default is Fade::Quintic).
///
/// All [`crate::Source`] and [`crate::Differentiable`] methods, builder
/// methods as on [`crate::Perlin`] (`with_level`, `with_period`,
/// `with_fade`), and the same guarantees: same bits on every level.
#[derive(Clone, PartialEq)]
pub struct Value(pub(crate) Lattice<ValueCorners>);

impl Value {
    /// Value noise over Ken Perlin's published permutation.
    pub fn reference() -> Value {
        Value(Lattice::permuted(&KEN_PERMUTATION))
    }

    /// Value noise of `seed` in the coordinates mode (the default
    /// mode; the same corner hashes as [`crate::Perlin::new`]`(seed)`).
    pub fn new(seed: u64) -> Value {
        Value(Lattice::coordinates(seed))
    }

    /// Value noise over the permutation [`crate::Perlin::permuted`] shuffles
    /// from `seed`: exactly what `Value::new(seed)` computed before the
    /// coordinates mode became the default.
    pub fn permuted(seed: u64) -> Value {
        Value(Lattice::permuted(&shuffled(seed)))
    }
}

lattice_source!(Value, "Value", ValueCorners);
