//! The noise kernels, written once over the lane trait [`Simd`](crate::simd::Simd) and compiled
//! inside each backend's `#[target_feature]` shim (everything here is
//! `#[cfg_attr(not(debug_assertions), inline(always))]` in optimised builds). Stage 1 turns coordinates into
//! [`Axis`] values; stage 2 (`noiseN_axes`) hashes, takes gradients and
//! blends (the default lattice runs both stages part by part:
//! `noise_parts`); the `Job`s (`field::drivers::FillPoints`, `FillGridRows`,
//! and `rows::FillRowsByCells`) drive them over slices and grids.
//!
//! How corners are hashed and what a hash selects is the lattice's
//! hash mode ([`HashModeKernel`], `hash/`): the coordinates mode (the default)
//! or the permutation mode (Ken's). With the permutation, for one pack of `S::LANES`
//! points, `noise3` is Ken Perlin's 2002 improved noise:
//!
//! ```text
//! X, Y, Z  = floor(x, y, z) mod 256          (lattice cell)
//! x0,y0,z0 = (x, y, z) - floor(x, y, z)      (position in the cell, [0, 1])
//! x1,y1,z1 = x0 - 1, y0 - 1, z0 - 1
//! u, v, w  = fade(x0), fade(y0), fade(z0)    (fade t = t³(t(6t − 15) + 10))
//! hash(i,j,k) = P[P[P[X+i] + Y+j] + Z+k]     (every index mod 256)
//! g(h, a, b, c) = GX[h]·a + GY[h]·b + GZ[h]·c  (Ken's 16 gradients, h mod 16)
//! noise = lerp(w, lerp(v, lerp(u, g000, g100), lerp(u, g010, g110)),
//!                 lerp(v, lerp(u, g001, g101), lerp(u, g011, g111)))
//! lerp(t, a, b) = a + t·(b − a)
//! ```
//!
//! 1D takes one permutation lookup; 2D is 3D's z = 0 slice (three lookups, the
//! last adding Z = 0); 4D takes four. The coordinates mode replaces the
//! chain by a hash of each corner's 32-bit cells and the gradients by sets
//! with no zero component; the lerps are the same.
//! Every operation and its order is fixed here, so every backend produces the
//! same bits; the final NaN is made canonical.
//!
//! The `fill` drivers run the kernel over whole packs and then once more over
//! a zero-padded copy of the last partial pack, so tail points are computed by
//! exactly the same code as the rest.
//!
//! The files, one job each: `axis.rs` stage 1's result per axis ([`Axis`])
//! and per part, `corners.rs` what a corner holds ([`Corners`]), `stage2.rs` the
//! blend of the corners (`noiseN_axes`, [`Dims`]), `parts.rs` both stages
//! part by part for the default lattice, `period.rs` stage 1 in `f64` and
//! periods, `grid_rows.rs` grid rows from per-axis samples, `bands.rs` fine
//! 2D and 3D grids by bands of rows (`bands/narrow.rs`: narrow 2D windows,
//! lanes along the rows), `rows.rs` other fine grids from per-cell
//! coefficients, `nd.rs` the lattice in any number of dimensions (the
//! dimension a run-time value), `hash/` the hash modes (a folder:
//! the trait, each mode, their gradient tables and periodic cells).

mod axis;
mod bands;
mod corners;
mod grid_rows;
mod hash;
mod nd;
mod parts;
mod period;
mod rows;
mod simplex;
mod stage2;

pub use axis::Axis;
pub(crate) use axis::{axis, staged_axis};
pub(crate) use bands::{BandAxis, FillRowsByBands, MAX_BAND_STEP};
pub use corners::{Corners, GradientCorners, ValueCorners};
pub(crate) use grid_rows::{
    AxisSamples, FillGridRows, HashModeRef, WithHashMode, load_padded, store_pack,
};
pub(crate) use hash::{
    CoordinatesMode, HashModeKernel, NaturalCells, PartCells, PeriodicCells, PermutationMode,
    periodic_cells_f32,
};
pub use nd::MAX_LATTICE_DIMENSIONS;
pub(crate) use nd::{BlockInput, blend_blocks, blend_nd, diagonal_component};
pub(crate) use parts::{PartsInMemory, PartsInVectors, noise_parts, remake_lanes_out_of_range};
use period::lattice_mod;
pub(crate) use period::{centre_in_period, centre_pack_in_period, stage1};
pub(crate) use rows::{FillRowsByCells, MAX_COEFFICIENT_STEP, PlanAxes, RowAxis};
pub use simplex::MAX_SIMPLEX_DIMENSIONS;
pub(crate) use simplex::{SIMPLEX_BOUND, SimplexCoords, SimplexPack};
pub use stage2::{Dims, Noise};
pub(crate) use stage2::{stage2, stage2_grad};

/// Runs `$body` once per part with `$k` a constant (0, or 0..4): a `for`
/// loop over `S::PARTS` is not reliably unrolled, and a variable `k` turns
/// part selection into memory traffic. Every backend has 1 or 4 parts.
///
/// With a dimension `$d`, [`PARTS_LOOP_FROM`] and up run the parts in a loop instead (`$k` a
/// variable): a 4D part's 16 corners dwarf its selection, and one copy of
/// the body is a quarter of the machine code (the library's build took 40%
/// less CPU time with every site a loop, most of it in 4D; in 1D to 3D the
/// loop cost up to 88% more instructions, docs/design.md).
macro_rules! for_each_part {
    ($s:ty, |$k:ident| $body:block) => {{
        const { assert!(<$s as Simd>::PARTS == 1 || <$s as Simd>::PARTS == 4) };
        {
            let $k = 0;
            $body
        }
        if <$s as Simd>::PARTS == 4 {
            {
                let $k = 1;
                $body
            }
            {
                let $k = 2;
                $body
            }
            {
                let $k = 3;
                $body
            }
        }
    }};
    ($s:ty, $d:expr, |$k:ident| $body:block) => {{
        if const { $d < $crate::kernel::PARTS_LOOP_FROM } {
            $crate::kernel::for_each_part!($s, |$k| $body)
        } else {
            for $k in 0..<$s as Simd>::PARTS $body
        }
    }};
}
pub(crate) use for_each_part;

/// The first dimension whose pack parts run in a loop, not written out
/// ([`for_each_part!`] with a dimension; `noise_parts`, grid rows).
pub(crate) const PARTS_LOOP_FROM: usize = 4;

/// Ken Perlin's 16 gradients (12 cube edges, 4 repeated) by component.
/// Entry h is what his `grad(h, x, y, z)` selects.
pub(crate) const GRAD3_X: [f32; 16] = [
    1., -1., 1., -1., 1., -1., 1., -1., 0., 0., 0., 0., 1., 0., -1., 0.,
];
pub(crate) const GRAD3_Y: [f32; 16] = [
    1., 1., -1., -1., 0., 0., 0., 0., 1., -1., 1., -1., 1., -1., 1., -1.,
];
pub(crate) const GRAD3_Z: [f32; 16] = [
    0., 0., 0., 0., 1., 1., -1., -1., 1., 1., -1., -1., 0., 1., 0., -1.,
];

/// 1D slopes: ±0.25, ±0.5, …, ±2 (h bit 3 is the sign). Never 0; the
/// largest, ±2, bound |noise1| by 1 (reached at x = n + ½ between opposite ±2).
pub(crate) const GRAD1: [f32; 16] = {
    let mut t = [0.0f32; 16];
    let mut h = 0;
    while h < 16 {
        let magnitude = 0.25 * (1 + (h & 7)) as f32;
        t[h] = if h & 8 == 0 { magnitude } else { -magnitude };
        h += 1;
    }
    t
};

/// 4D gradients: the 32 edge midpoints of the hypercube, permutations of
/// (0, ±1, ±1, ±1). For h mod 32, axis `h >> 3` is the zero one; bits 0, 1, 2
/// give the signs (set = −1) of the other three axes in x, y, z, w order.
pub(crate) const GRAD4: [[f32; 32]; 4] = {
    let mut t = [[0.0f32; 32]; 4];
    let mut h = 0;
    while h < 32 {
        let zero_axis = h >> 3;
        let mut bit = 0;
        let mut axis = 0;
        while axis < 4 {
            if axis != zero_axis {
                t[axis][h] = if (h >> bit) & 1 == 0 { 1.0 } else { -1.0 };
                bit += 1;
            }
            axis += 1;
        }
        h += 1;
    }
    t
};
