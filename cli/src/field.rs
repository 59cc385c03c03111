//! A field: a source sampled on a 2D grid or a 3D volume, computed band by
//! band so that memory stays bounded whatever the field's size.
//!
//! Rows are the x lines of samples, numbered in output order (row
//! `k * ny + j` is `y = j` of slice `z = k`). A band is up to
//! [`BAND_SAMPLES`] samples of whole rows, never crossing a z slice, and is
//! filled as a [`Grid::window`](noisefield::Grid::window) of the whole grid.
//! Windows keep the global sample indices, so the bands concatenate to
//! the whole field bit for bit, and so do the outputs of `--rows` bands.
//!
//! ```text
//! for band in rows A·rows_per_slab .. B·rows_per_slab, BAND_SAMPLES at a time:
//!     fill the band's window of the grid (rayon tiles inside)
//!     hand the band to the writer / statistics, then reuse the buffer
//! ```

use crate::Failure;
use crate::args::{FieldArgs, Periods, check_size};
use crate::progress::Progress;
use crate::source::{self, AnySource};
use noisefield::{Grid2, Grid3};
use std::ops::Range;

/// Samples per band: 2^20 (4 MiB of f32), 16 rayon tiles of the library.
pub const BAND_SAMPLES: usize = 1 << 20;

/// Lattice cells per sample when neither `--frequency` nor `--period` is
/// given: 1/128, so a 1024-wide picture spans 8 cells.
pub const DEFAULT_FREQUENCY: f64 = 1.0 / 128.0;

/// The grid of a field.
#[derive(Debug, Clone, Copy)]
pub enum Lattice {
    /// A picture: `[nx, ny]`.
    D2(Grid2),
    /// A volume: `[nx, ny, nz]`, or frames along z.
    D3(Grid3),
}

/// A source and the grid it is sampled on.
#[derive(Debug, Clone)]
pub struct Field {
    /// The noise.
    pub source: AnySource,
    /// Where it is sampled.
    pub lattice: Lattice,
}

impl Field {
    /// The field `args` describe.
    /// Checks every option against the others.
    pub fn from_args(args: &FieldArgs) -> Result<Field, Failure> {
        let size = &args.size.0;
        let dims = size.len();
        let origin = args.origin.clone().map_or(vec![0.0; dims], |c| c.0);
        if origin.len() != dims {
            return Err(Failure::usage(format!(
                "--origin has {} coordinates but --size has {dims} axes",
                origin.len()
            )));
        }
        // With a period, the field spans exactly `period` cells on each axis.
        let (step, period) = match &args.period {
            None => (
                vec![args.frequency.unwrap_or(DEFAULT_FREQUENCY); dims],
                None,
            ),
            Some(Periods(p)) => {
                if p.len() != 1 && p.len() != dims {
                    return Err(Failure::usage(format!(
                        "--period has {} values but --size has {dims} axes (give 1 or {dims})",
                        p.len()
                    )));
                }
                let cells = |axis: usize| p[if p.len() == 1 { 0 } else { axis }];
                let step = (0..dims)
                    .map(|a| f64::from(cells(a)) / size[a] as f64)
                    .collect();
                // Axes beyond `dims` are not used by a `dims`-D field.
                let period = std::array::from_fn(|a| if a < dims { cells(a) } else { u32::MAX });
                (step, Some(period))
            }
        };
        let source = source::build(&args.source, period)?;
        let lattice = match dims {
            2 => Lattice::D2(Grid2::new(
                [origin[0], origin[1]],
                [step[0], step[1]],
                [size[0], size[1]],
            )),
            _ => Lattice::D3(Grid3::new(
                [origin[0], origin[1], origin[2]],
                [step[0], step[1], step[2]],
                [size[0], size[1], size[2]],
            )),
        };
        Field::new(source, lattice)
    }

    /// `source` on `lattice`, after checking that the grid can be filled
    /// (finite sample positions, sizes within [`check_size`]'s limits).
    pub fn new(source: AnySource, lattice: Lattice) -> Result<Field, Failure> {
        match &lattice {
            Lattice::D2(g) => g.check()?,
            Lattice::D3(g) => g.check()?,
        };
        let field = Field { source, lattice };
        check_size(&field.size()).map_err(Failure::Usage)?;
        Ok(field)
    }

    /// Samples per axis, x first.
    pub fn size(&self) -> Vec<usize> {
        match &self.lattice {
            Lattice::D2(g) => g.size().to_vec(),
            Lattice::D3(g) => g.size().to_vec(),
        }
    }

    /// Samples in one row (x).
    pub fn row_len(&self) -> usize {
        self.size()[0]
    }

    /// Indices along the slowest axis: rows (y) in 2D, slices (z) in 3D.
    pub fn slabs(&self) -> usize {
        *self.size().last().expect("2 or 3 axes")
    }

    /// Rows in one index of the slowest axis: 1 in 2D, `ny` in 3D.
    pub fn rows_per_slab(&self) -> usize {
        match &self.lattice {
            Lattice::D2(_) => 1,
            Lattice::D3(g) => g.size()[1],
        }
    }

    /// The band `slabs` of the slowest axis, or a usage error if it does
    /// not lie inside the field.
    pub fn check_slabs(&self, slabs: &Range<usize>) -> Result<(), Failure> {
        let n = self.slabs();
        if slabs.start < slabs.end && slabs.end <= n {
            return Ok(());
        }
        let axis = match self.lattice {
            Lattice::D2(_) => "rows (y)",
            Lattice::D3(_) => "slices (z)",
        };
        Err(Failure::usage(format!(
            "--rows {}..{} is outside the field, which has {n} {axis}: 0..{n}",
            slabs.start, slabs.end
        )))
    }

    /// Fills `out` with `out.len() / row_len` rows starting at output row
    /// `first_row`; the rows must lie in one z slice.
    fn fill_rows(&self, first_row: usize, out: &mut [f32]) -> Result<(), Failure> {
        let rows = out.len() / self.row_len();
        match &self.lattice {
            Lattice::D2(g) => {
                let window = g.window([0, first_row], [g.size()[0], rows])?;
                self.source.fill_grid2(&window, out, true)?;
            }
            Lattice::D3(g) => {
                let [nx, ny, _] = g.size();
                let (k, j) = (first_row / ny, first_row % ny);
                let window = g.window([0, j, k], [nx, rows, 1])?;
                self.source.fill_grid3(&window, out, true)?;
            }
        }
        Ok(())
    }

    /// Calls `visit(first_row, values)` for every band of the slabs `slabs`
    /// in order, `values` holding whole rows; advances `progress` by rows.
    pub fn for_each_band(
        &self,
        slabs: Range<usize>,
        progress: &Progress,
        mut visit: impl FnMut(usize, &[f32]) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let nx = self.row_len();
        let per_slab = self.rows_per_slab();
        // Bands never cross a z slice (a window is one slice of rows).
        let rows_per_slice = self.size()[1];
        let max_rows = (BAND_SAMPLES / nx).max(1);
        let mut buffer = vec![0.0f32; max_rows.min(slabs.len() * per_slab) * nx];
        let (mut row, end) = (slabs.start * per_slab, slabs.end * per_slab);
        while row < end {
            let slice_end = (row / rows_per_slice + 1) * rows_per_slice;
            let rows = max_rows.min(end - row).min(slice_end - row);
            let band = &mut buffer[..rows * nx];
            self.fill_rows(row, band)?;
            visit(row, band)?;
            progress.advance(rows as u64);
            row += rows;
        }
        Ok(())
    }

    /// Rows in the slabs `slabs` (for sizing progress bars).
    pub fn rows_in(&self, slabs: &Range<usize>) -> u64 {
        (slabs.len() * self.rows_per_slab()) as u64
    }

    /// The smallest and largest value of the whole field, in one pass.
    pub fn min_max(&self, progress: &Progress) -> Result<(f32, f32), Failure> {
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        self.for_each_band(0..self.slabs(), progress, |_, values| {
            for &v in values {
                lo = lo.min(v);
                hi = hi.max(v);
            }
            Ok(())
        })?;
        Ok((lo, hi))
    }
}
