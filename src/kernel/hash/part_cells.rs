//! [`PartCells`]: how the default lattice makes each part's cells and
//! corner hashes, with the natural period ([`NaturalCells`]) or a period
//! per axis ([`PeriodicCells`]).

use super::periodic::remainders;
use super::{CoordinatesMode, HashModeKernel, VECTOR_PERIOD_MAX, splat_part};
use crate::simd::Simd;

/// How [`super::super::noise_parts`] makes a part's cells from its floored
/// coordinates, and its corners' hashes from the cells: with the lattice's
/// natural period ([`NaturalCells`]) or with a period per axis
/// ([`PeriodicCells`]).
pub(crate) trait PartCells<S: Simd, const D: usize> {
    /// A part's cells on every axis, as the hashes need them.
    type Cells: Copy;
    /// The cells of `D` floored parts, right in every lane this form can
    /// make exactly; the others are recorded in `check` (see
    /// [`Simd::cells32_parts_checked`]).
    fn cells(&self, s: S, floored: &[S::P; D], check: &mut S::UP) -> Self::Cells;
    /// The hashes of the part's corners (as [`CoordinatesMode::part_hashes`]).
    fn hashes(&self, s: S, key: &S::UP, cells: &Self::Cells) -> [S::UP; 16];
}

/// Cells with the natural period 2³²: each axis's lower cell by conversion
/// (right while |floor| < 2³¹), the upper one made with the hashes.
pub(crate) struct NaturalCells;

impl<S: Simd, const D: usize> PartCells<S, D> for NaturalCells {
    type Cells = [S::UP; D];

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells(&self, s: S, floored: &[S::P; D], check: &mut S::UP) -> [S::UP; D] {
        s.cells32_parts_checked(floored, check)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(&self, s: S, key: &S::UP, cells: &[S::UP; D]) -> [S::UP; 16] {
        CoordinatesMode::hashes_of_cells::<S, D>(s, key, cells)
    }
}

/// Cells reduced by a period per axis, part by part: the exact case of
/// [`periodic_cells32`] (the same operations, so the same bits), right in
/// the lanes of a periodic axis with |floor| < 2²¹ and of an unperiodic
/// one with |floor| < 2³¹. Others are recorded in the check (the caller
/// then makes the pack by [`periodic_cells32`]'s whole-pack path).
///
/// An unperiodic axis runs the same operations with quotient 0 and period
/// 0 (2³² wrapped): `1/period` is 0, so the cell is the floor's and the
/// upper cell its wrapping successor, as [`CoordinatesMode::cells`] makes.
///
/// [`periodic_cells32`]: super::periodic::periodic_cells32
pub(crate) struct PeriodicCells<S: Simd, const D: usize> {
    /// 2¹⁰ on a periodic axis (|floor · 2¹⁰| < 2³¹ exactly when
    /// |floor| < 2²¹), 1 on another.
    range_scale: [S::P; D],
    /// `1/period` in `f32` (0 on an unperiodic axis).
    reciprocal: [S::P; D],
    /// `−period` mod 2³² (0 on an unperiodic axis).
    minus_period: [S::UP; D],
}

impl<S: Simd, const D: usize> PeriodicCells<S, D> {
    /// The reductions for `periods` (cells per axis, [`CoordinatesMode::NATURAL_PERIOD`]
    /// on an unperiodic axis), or `None` if an axis's period is over
    /// [`VECTOR_PERIOD_MAX`] (and not natural).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(s: S, periods: &[u64; 4]) -> Option<PeriodicCells<S, D>> {
        let mut cells = PeriodicCells {
            range_scale: [splat_part(s, 1.0); D],
            reciprocal: [splat_part(s, 0.0); D],
            minus_period: [s.splat_u32(0); D],
        };
        for (a, &period) in periods.iter().take(D).enumerate() {
            if period == CoordinatesMode::NATURAL_PERIOD {
                continue;
            }
            if period > VECTOR_PERIOD_MAX {
                return None;
            }
            cells.range_scale[a] = splat_part(s, 1024.0);
            cells.reciprocal[a] = splat_part(s, (1.0 / period as f64) as f32);
            cells.minus_period[a] = s.splat_u32((period as u32).wrapping_neg());
        }
        Some(cells)
    }
}

impl<S: Simd, const D: usize> PartCells<S, D> for PeriodicCells<S, D> {
    type Cells = [(S::UP, S::UP); D];

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn cells(&self, s: S, floored: &[S::P; D], check: &mut S::UP) -> [(S::UP, S::UP); D] {
        // Conversions whose range `check` need not record (the scaled
        // floors' conversion records it for them).
        let mut unrecorded = s.cells_check();
        let cells = s.cells32_parts_checked(floored, &mut unrecorded);
        let mut scaled = *floored;
        let mut quotients = *floored;
        for a in 0..D {
            scaled[a] = floored[a] * self.range_scale[a];
            quotients[a] = s.floor_part((floored[a] + splat_part(s, 0.5)) * self.reciprocal[a]);
        }
        s.cells32_parts_checked(&scaled, check);
        let quotients = s.cells32_parts_checked(&quotients, &mut unrecorded);
        let mut out = [(cells[0], cells[0]); D];
        for a in 0..D {
            out[a] = remainders(s, cells[a], quotients[a], self.minus_period[a], None);
        }
        out
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hashes(&self, s: S, key: &S::UP, cells: &[(S::UP, S::UP); D]) -> [S::UP; 16] {
        CoordinatesMode::corner_hashes::<S, D>(s, key, cells)
    }
}
