//! [`Value`]: value noise on the same lattice, hashing and SIMD paths as
//! [`crate::Perlin`].

use crate::kernel::ValueKind;
use crate::lattice::{Lattice, lattice_source};
use crate::perlin::{KEN_PERMUTATION, shuffled};
use crate::{Error, Fade, Level};

/// Value noise: every lattice point carries a pseudo-random height, and the
/// field blends the heights of a cell's corners with the fade curve.
///
/// The height of a corner is its hash (the same permutation chain as
/// [`crate::Perlin`]: `P[P[P[X] + Y] + Z]` in 3D) mapped to one of 256 evenly
/// spaced values: `h · 2/255 − 1`, from −1 to 1. So outputs lie in [−1, 1]
/// (every blend is a convex combination), and unlike gradient noise the
/// field is not 0 at lattice points. Blockier than Perlin noise, with
/// visible grid alignment; the seeds' "value noise" (Fade::Cosine or
/// Fade::Linear give the classic looks; the default is Fade::Quintic).
///
/// All [`crate::Source`] and [`crate::Differentiable`] methods, builder
/// methods as on [`crate::Perlin`] (`with_level`, `with_period`,
/// `with_fade`), and the same guarantees: same bits on every level.
#[derive(Clone, PartialEq)]
pub struct Value(pub(crate) Lattice<ValueKind>);

impl Value {
    /// Value noise over Ken Perlin's published permutation.
    pub fn reference() -> Value {
        Value(Lattice::new(&KEN_PERMUTATION))
    }

    /// Value noise over the permutation [`crate::Perlin::new`] shuffles from
    /// `seed` (the same table, so both share a lattice).
    pub fn new(seed: u64) -> Value {
        Value(Lattice::new(&shuffled(seed)))
    }
}

lattice_source!(Value, "Value", ValueKind);
