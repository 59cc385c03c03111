//! The formats that store blocks of whole rows in parts (EXR, TIFF): their
//! [`Layout`], the parts of a field, and bands regrouped into blocks.

use std::io;
use std::ops::Range;

/// The shape of a format that stores blocks of whole rows in parts (EXR
/// scan-line blocks in parts, TIFF strips in pages).
#[derive(Debug, Clone)]
pub struct Layout {
    /// Samples per row.
    pub width: usize,
    /// Rows per part: all the rows of a 2D field (or its `--rows` band),
    /// `ny` for a volume.
    pub height: usize,
    /// A volume's z slices, one part (page) each; `None` for a 2D field,
    /// written as one part.
    pub slices: Option<Range<usize>>,
}

impl Layout {
    /// The number of parts: one per slice, or one.
    pub(super) fn parts(&self) -> usize {
        self.slices.as_ref().map_or(1, |s| s.len())
    }
}

/// The parts of `layout` over `slabs` with the slabs each covers.
pub(super) fn parts(layout: &Layout, slabs: Range<usize>) -> Vec<Range<usize>> {
    match &layout.slices {
        None => vec![slabs],
        Some(slices) => slices.clone().map(|k| k..k + 1).collect(),
    }
}

/// Bands regrouped into blocks of `rows` whole rows (EXR scan-line blocks,
/// TIFF strips); the last block of a part may be shorter. A band that
/// holds a whole block is passed on without a copy.
pub(super) struct Blocks {
    width: usize,
    /// Rows per block.
    rows: usize,
    /// Rows in the part.
    height: usize,
    /// Rows of the part already passed on.
    done: usize,
    buffer: Vec<f32>,
}

impl Blocks {
    pub(super) fn new(width: usize, rows: usize, height: usize) -> Blocks {
        Blocks {
            width,
            rows,
            height,
            done: 0,
            buffer: Vec::new(),
        }
    }

    /// Takes `values`, calling `emit(first_row, block)` for every block completed.
    pub(super) fn push(
        &mut self,
        mut values: &[f32],
        emit: &mut impl FnMut(usize, &[f32]) -> io::Result<()>,
    ) -> io::Result<()> {
        while !values.is_empty() {
            let rows = self.rows.min(self.height - self.done);
            let block = rows * self.width;
            if self.buffer.is_empty() && values.len() >= block {
                emit(self.done, &values[..block])?;
                values = &values[block..];
            } else {
                let take = (block - self.buffer.len()).min(values.len());
                self.buffer.extend_from_slice(&values[..take]);
                values = &values[take..];
                if self.buffer.len() < block {
                    continue;
                }
                emit(self.done, &self.buffer)?;
                self.buffer.clear();
            }
            self.done += rows;
        }
        Ok(())
    }
}

/// An encoder's error as an I/O error, to pass through a [`BandWriter`].
///
/// [`BandWriter`]: super::BandWriter
pub(super) fn io_error(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}
