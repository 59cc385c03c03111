//! The grid pass of every operator: the inputs' rows filled in blocks of
//! at most [`BLOCK_SAMPLES`] samples, then combined lane by lane in one
//! [`Job`] ([`Rows`]).

use super::blend::{Weight, blend_pack};
use super::combine::{CombineOp, combine_pack};
use super::map::{MapOp, Pieces, map_pack};
use crate::field::canonical;
use crate::kernel::{load_padded, store_pack};
use crate::scratch::Scratch;
use crate::simd::{Job, Simd};

/// Rows of at most this many samples are combined per pass of a grid fill.
const BLOCK_SAMPLES: usize = 1 << 16;

/// Rows `first_row..` of a grid with rows of `nx` samples, in blocks of
/// at most [`BLOCK_SAMPLES`] (whole rows): `each(row, block, scratch)` gets
/// a block's first row, the block of `out`, and `N` scratch blocks of its
/// length for the other inputs' values.
pub(super) fn in_blocks<const N: usize>(
    nx: usize,
    first_row: usize,
    out: &mut [f32],
    mut each: impl FnMut(usize, &mut [f32], [&mut [f32]; N]),
) {
    if nx == 0 || out.is_empty() {
        return;
    }
    let rows_per_block = (BLOCK_SAMPLES / nx).max(1);
    let len = (rows_per_block * nx).min(out.len());
    let mut scratch = Scratch::filled(N * len, 0.0f32);
    for (k, block) in out.chunks_mut(rows_per_block * nx).enumerate() {
        let mut parts = scratch.chunks_mut(len);
        let others = std::array::from_fn(|_| &mut parts.next().unwrap()[..block.len()]);
        each(first_row + k * rows_per_block, block, others);
    }
}

/// What a [`Rows`] pass computes.
#[derive(Clone, Copy)]
pub(super) enum How<'a> {
    Map(MapOp, &'a Pieces),
    Combine(CombineOp),
    Blend(Weight),
    Nan,
}

/// One operator pass over a block of grid samples: `dst` holds the first
/// input's values and receives the result; `b`, `c` the other inputs'.
pub(super) struct Rows<'a> {
    pub(super) how: How<'a>,
    pub(super) dst: &'a mut [f32],
    pub(super) b: &'a [f32],
    pub(super) c: &'a [f32],
}

impl Job for Rows<'_> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        let n = S::LANES;
        for (k, dst) in self.dst.chunks_mut(n).enumerate() {
            let at = k * n;
            let a = load_padded(s, dst, 0);
            let v = match self.how {
                How::Map(op, pieces) => map_pack(s, op, pieces, a),
                How::Combine(op) => combine_pack(s, op, a, load_padded(s, self.b, at)),
                How::Blend(w) => blend_pack(
                    s,
                    w,
                    a,
                    load_padded(s, self.b, at),
                    load_padded(s, self.c, at),
                ),
                How::Nan => s.splat(f32::NAN),
            };
            store_pack(s, canonical(s, v), dst);
        }
    }
}
