//! [`PermutationMode`]: Ken Perlin's chain of 256-entry permutation
//! lookups on cells mod 256, his gradients and byte heights.

use super::super::{GRAD1, GRAD3_X, GRAD3_Y, GRAD3_Z, GRAD4};
use super::periodic_cells_f32;
use super::{HashModeKernel, splat_part};
use crate::simd::Simd;

/// Ken Perlin's permutation chain: `P[P[P[X] + Y] + Z]` on cells mod 256.
#[derive(Clone, Copy, Debug, Default)]
pub struct PermutationMode;

/// `2 / 255` in `f32`: hash byte `b` gives height `b · VALUE_SCALE − 1`
/// (0 → −1, 255 → 1 exactly).
pub(crate) const VALUE_SCALE: f32 = 2.0 / 255.0;

/// The lattice index `c` (any `u32`, used mod 256) of every lane.
#[cfg_attr(not(debug_assertions), inline(always))]
fn bytes_of<S: Simd>(s: S, c: &[u32]) -> S::I {
    let mut b = [0u8; crate::simd::MAX_LANES];
    for (b, &c) in b.iter_mut().zip(&c[..S::LANES]) {
        *b = c as u8;
    }
    s.load_cells(&b[..S::LANES])
}

impl HashModeKernel for PermutationMode {
    const NATURAL_PERIOD: u64 = 256;
    type Ready<'a, S: Simd> = S::Perm<'a>;
    type Cell<S: Simd> = S::I;
    type PackWork<S: Simd> = [S::I; 16];
    type Part<S: Simd> = S::H;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells<S: Simd>(s: S, floored: S::F) -> (S::I, S::I) {
        let c0 = s.cell(floored);
        (c0, c0 + s.splat_i(1))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn staged<S: Simd>(s: S, c0: &[u32], c1: &[u32]) -> (S::I, S::I) {
        (bytes_of(s, c0), bytes_of(s, c1))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat_cells<S: Simd>(s: S, c0: u32, c1: u32) -> (S::I, S::I) {
        (s.splat_i((c0 & 255) as i32), s.splat_i((c1 & 255) as i32))
    }

    /// In `f32` ([`periodic_cells_f32`]), then the low byte, as
    /// [`Self::staged`] takes it from the `f64` path's cells.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn periodic_cells<S: Simd>(s: S, floored: S::F, period: u64) -> Option<(S::I, S::I)> {
        let (c0, c1) = periodic_cells_f32(s, floored, period)?;
        Some((s.cell(c0), s.cell(c1)))
    }

    /// Corner `i + 2j + 4k + 8l` hashes `P[P[P[P[X_i] + Y_j] + Z_k] + W_l]`;
    /// 2D is 3D's z = 0 slice (`P[P[P[X_i] + Y_j]]`), 1D `P[X_i]`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn pack_work<S: Simd, const D: usize>(
        s: S,
        p: &S::Perm<'_>,
        cells: &[(S::I, S::I); D],
    ) -> [S::I; 16] {
        let mut h = [cells[0].0; 16];
        h[0] = s.perm(p, cells[0].0);
        h[1] = s.perm(p, cells[0].1);
        for (a, &(c0, c1)) in cells.iter().enumerate().skip(1) {
            let n = 1 << a;
            // Corners of the lower axes are 0..n; extend by the upper cell.
            for i in (0..n).rev() {
                let base = h[i];
                h[i] = s.perm(p, base + c0);
                h[i + n] = s.perm(p, base + c1);
            }
        }
        if D == 2 {
            // The z = 0 slice of 3D: one more lookup, adding Z = 0.
            for c in &mut h[..4] {
                *c = s.perm(p, *c);
            }
        }
        h
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn part_hashes<S: Simd, const D: usize, const NEXT: bool>(
        s: S,
        _: &S::Perm<'_>,
        pack: &[S::I; 16],
        k: usize,
    ) -> [S::H; 16] {
        let mut out = [s.hashes(pack[0], k); 16];
        for i in 1..1 << D {
            out[i] = s.hashes(pack[i], k);
        }
        out
    }

    /// 1D: the 16 slopes; 2D and 3D: Ken's 16 gradients (2D their x, y);
    /// 4D: the 32 hypercube edge midpoints.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn gradient<S: Simd, const D: usize>(s: S, h: S::H) -> [S::P; D] {
        let mut g = [splat_part(s, 0.0); D];
        match D {
            1 => g[0] = s.table16(&GRAD1, h),
            2 | 3 => {
                let tables = [&GRAD3_X, &GRAD3_Y, &GRAD3_Z];
                for a in 0..D {
                    g[a] = s.units16(tables[a], h);
                }
            }
            _ => {
                for a in 0..D {
                    g[a] = s.units32(&GRAD4[a], h);
                }
            }
        }
        g
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn height<S: Simd>(s: S, h: S::H) -> S::P {
        s.byte_value(h) * splat_part(s, VALUE_SCALE) - splat_part(s, 1.0)
    }
}
