//! How a lattice noise turns its corners' cells into hashes, and hashes
//! into gradients or heights: two modes behind one trait, [`HashModeKernel`].
//!
//! - [`CoordinatesMode`] (the default, `Perlin::new`): each corner's hash is
//!   computed from its whole 32-bit lattice coordinates and the seed with
//!   multiplies, xors and shifts on 32-bit lanes, so the lattice repeats
//!   only every 2³² cells along an axis:
//!
//!   ```text
//!   key_a(c) = m ^ (m >> a),  m = c · PRIME[a]       (axis a = 1, 2, 3, …; mod 2³²)
//!   key_0(c) = c · PRIME[0]
//!   v        = seed ^ key_0(X) ^ key_1(Y) ^ …        (the corner's cells X, Y, …)
//!   hash     = (v ^ (v >> 16)) · FINAL                (mod 2³²)
//!   ```
//!
//!   `PRIME[0..4]` are xxHash's 32-bit primes 1 to 4; axes 4 and up (noise
//!   in 5 dimensions and more, `kernel/nd.rs`) take odd multipliers from
//!   SplitMix64 (`axis_multiplier`). The shift by the axis number keeps a
//!   shift by 2³¹ cells on several axes from cancelling in the xor. The hash's top bits pick the gradient (top 3:
//!   one of 8 in 2D and 3D; top 4: one of 16 slopes in 1D, of 16 diagonals
//!   in 4D); value noise takes the top 24 bits as its height. Gradients
//!   have no zero component, so no lattice edge of any axis-aligned integer
//!   slice is identically zero; 2D has its own 8 directions (22.5° off the
//!   axes and the diagonals), 3D the cube's 8 diagonals, 4D the 16 of the
//!   hypercube.
//! - [`PermutationMode`] (`Perlin::reference`, `Perlin::permuted`): Ken
//!   Perlin's chain of 256-entry permutation lookups on cells mod 256, his
//!   16 gradients in 3D (2D is the z = 0 slice) and 32 in 4D. It repeats
//!   every 256 cells.
//!
//! Both are integer arithmetic and table reads, exact on every backend.
//!
//! The files: `permutation.rs` [`PermutationMode`], `coordinates.rs`
//! [`CoordinatesMode`] (its keys, corner hashes and unperiodic cells),
//! `gradients.rs` the coordinates mode's gradient tables, `periodic.rs`
//! the reduction of a pack's cells by a period in vectors, `part_cells.rs`
//! the cells of the default lattice's parts ([`PartCells`]); the trait and
//! the helpers both modes use are here.

mod coordinates;
mod gradients;
mod part_cells;
mod periodic;
mod permutation;
#[cfg(test)]
mod tests;

pub use coordinates::CoordinatesMode;
pub(crate) use coordinates::{axis_key, finish, finish_folded, fold};
pub(crate) use part_cells::{NaturalCells, PartCells, PeriodicCells};
pub(crate) use periodic::{VECTOR_PERIOD_MAX, periodic_cells_f32};
pub use permutation::PermutationMode;

use super::Axis;
use crate::simd::Simd;

/// The lower and upper cells of a pack along each of `D` axes.
pub type CellPairs<S, H, const D: usize> = [(
    <H as HashModeKernel>::Cell<S>,
    <H as HashModeKernel>::Cell<S>,
); D];

/// A lattice's hash mode: cells (stage 1), corner hashes (stage 2) and
/// the corner gradient or height a hash selects.
pub trait HashModeKernel: Copy + Send + Sync + 'static {
    /// Cells along an axis after which the lattice repeats (no period set).
    const NATURAL_PERIOD: u64;
    /// What a kernel loads once per call (the permutation, the seed).
    type Ready<'a, S: Simd>: Copy;
    /// A pack's lattice cells along one axis.
    type Cell<S: Simd>: Copy;
    /// What the whole pack computes before its parts are blended.
    type PackWork<S: Simd>: Copy;
    /// One part's hash of one corner.
    type Part<S: Simd>: Copy;

    /// Stage 1 in `f32` without a period: the cell of each already floored
    /// coordinate and its upper neighbour.
    fn cells<S: Simd>(s: S, floored: S::F) -> (Self::Cell<S>, Self::Cell<S>);
    /// Cells computed elsewhere (`f64` stage 1, periods): lane `i` of
    /// `c0[..LANES]`, `c1[..LANES]` (already reduced by the natural period).
    fn staged<S: Simd>(s: S, c0: &[u32], c1: &[u32]) -> (Self::Cell<S>, Self::Cell<S>);
    /// One cell pair on every lane.
    fn splat_cells<S: Simd>(s: S, c0: u32, c1: u32) -> (Self::Cell<S>, Self::Cell<S>);
    /// Stage 1 in `f32` with a period: `floor mod period` of each already
    /// floored coordinate and the next cell mod `period`, when this mode
    /// computes them in vectors for this pack; `None` sends the pack to the
    /// exact lane-by-lane `f64` path.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn periodic_cells<S: Simd>(
        _: S,
        _floored: S::F,
        _period: u64,
    ) -> Option<(Self::Cell<S>, Self::Cell<S>)> {
        None
    }
    /// The whole-pack work for the `2^D` corners of cells `cells[a]` (lower,
    /// upper) on each axis `a`.
    fn pack_work<S: Simd, const D: usize>(
        s: S,
        r: &Self::Ready<'_, S>,
        cells: &CellPairs<S, Self, D>,
    ) -> Self::PackWork<S>;
    /// Part `k`'s hashes of the `2^D` corners (corner index bit `a` = upper
    /// cell on axis `a`); the remaining entries are unspecified. With
    /// `NEXT`, the caller promises that every upper cell is its lower cell
    /// plus one (see [`Dims::eval`](super::Dims::eval)), and a mode may
    /// compute them here instead of reading them.
    fn part_hashes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        r: &Self::Ready<'_, S>,
        pack: &Self::PackWork<S>,
        k: usize,
    ) -> [Self::Part<S>; 16];
    /// [`HashModeKernel::part_hashes`] with the pack's axes at hand: a
    /// mode whose pack work only gathers the cells reads them from the axes
    /// instead (in a loop over the parts, the gathered copy is two `memcpy`
    /// per pack).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_hashes_of_axes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        r: &Self::Ready<'_, S>,
        pack: &Self::PackWork<S>,
        axes: &[super::Axis<S, Self>; D],
        k: usize,
    ) -> [Self::Part<S>; 16] {
        let _ = axes;
        Self::part_hashes::<S, D, NEXT>(s, r, pack, k)
    }
    /// The gradient a hash picks in `D` dimensions, by component.
    fn gradient<S: Simd, const D: usize>(s: S, h: Self::Part<S>) -> [S::P; D];
    /// `gradient · c`, summed `((g0·c0 + g1·c1) + g2·c2) + g3·c3`: the
    /// corner value of gradient noise. A mode may compute it another way
    /// only with the same bits.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn dot<S: Simd, const D: usize>(s: S, h: Self::Part<S>, c: [S::P; D]) -> S::P {
        gradient_dot::<Self, S, D>(s, h, c)
    }
    /// The height (−1 to 1) a hash picks, for value noise.
    fn height<S: Simd>(s: S, h: Self::Part<S>) -> S::P;
}

/// [`HashModeKernel::dot`] from the gradient's components.
#[cfg_attr(not(debug_assertions), inline(always))]
fn gradient_dot<H: HashModeKernel, S: Simd, const D: usize>(
    s: S,
    h: H::Part<S>,
    c: [S::P; D],
) -> S::P {
    let g = H::gradient::<S, D>(s, h);
    let mut v = g[0] * c[0];
    for a in 1..D {
        v = v + g[a] * c[a];
    }
    v
}

/// The cells of every axis of a pack of points, as `(lower, upper)` pairs.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn axis_cells<S: Simd, H: HashModeKernel, const D: usize>(
    axes: &[Axis<S, H>; D],
) -> CellPairs<S, H, D> {
    let mut cells = [(axes[0].c0, axes[0].c1); D];
    for (cell, axis) in cells.iter_mut().zip(axes).skip(1) {
        *cell = (axis.c0, axis.c1);
    }
    cells
}

/// `v` on every lane of a part.
#[cfg_attr(not(debug_assertions), inline(always))]
fn splat_part<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}
