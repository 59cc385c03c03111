//! TIFF files: float32 or 16-bit gray pages, one per slice of a volume,
//! in strips of whole rows; BigTIFF when the data needs 64-bit offsets.

use super::blocks::{Blocks, Layout, io_error, parts};
use super::encoding::{Band, BandWriter};
use crate::Failure;
use crate::field::BAND_SAMPLES;
use crate::palette::Scale;
use std::io::{Seek, Write};
use std::ops::Range;

/// Rows per TIFF strip: as many as fit in [`BAND_SAMPLES`] (at least 1).
fn tiff_strip_rows(width: usize) -> usize {
    (BAND_SAMPLES / width).max(1)
}

/// Bytes of sample data above which a TIFF is written as BigTIFF (64-bit
/// offsets): classic TIFF addresses 4 GiB, and its directories and strip
/// tables need room too. 4 GiB − 64 MiB.
pub(super) const BIG_TIFF_BYTES: u64 = (1 << 32) - (1 << 26);

/// TIFF: one page per slice of a volume (or one page), strips of up to
/// [`BAND_SAMPLES`] samples, no compression (every reader reads it).
/// Float pages record their smallest and largest value in
/// SMinSampleValue and SMaxSampleValue; 16-bit pages their range in the
/// ImageDescription, `noisefield range LO..HI`.
pub(super) fn write_tiff<W: Write + Seek, K: tiff::encoder::TiffKind>(
    mut encoder: tiff::encoder::TiffEncoder<W, K>,
    layout: &Layout,
    scale: Option<Scale>,
    slabs: Range<usize>,
    produce: &mut impl FnMut(Range<usize>, &mut BandWriter<'_>) -> Result<(), Failure>,
    shown: &str,
) -> Result<(), Failure> {
    use tiff::encoder::colortype::{Gray16, Gray32Float};
    use tiff::tags::Tag;
    let failed = |e: tiff::TiffError| Failure::Io(format!("cannot write {shown}: {e}"));
    let too_big = || {
        Failure::usage(format!(
            "a TIFF page of {}×{} samples is larger than TIFF allows (2^32 - 1 per side)",
            layout.width, layout.height
        ))
    };
    let w = u32::try_from(layout.width).map_err(|_| too_big())?;
    let h = u32::try_from(layout.height).map_err(|_| too_big())?;
    let strip = tiff_strip_rows(layout.width);
    for (page, slabs) in parts(layout, slabs).into_iter().enumerate() {
        let mut blocks = Blocks::new(layout.width, strip, layout.height);
        let slice = layout
            .slices
            .as_ref()
            .map_or(String::new(), |s| format!(", slice z={}", s.start + page));
        match scale {
            Some(scale) => {
                let mut image = encoder.new_image::<Gray16>(w, h).map_err(failed)?;
                image.rows_per_strip(strip as u32).map_err(failed)?;
                let (lo, hi) = scale.range();
                let text = format!("noisefield range {lo}..{hi}{slice}");
                image
                    .encoder()
                    .write_tag(Tag::ImageDescription, text.as_str())
                    .map_err(failed)?;
                let mut words = Vec::new();
                produce(slabs, &mut |band: Band<'_>| {
                    blocks.push(band.values, &mut |_, block| {
                        words.clear();
                        words.extend(block.iter().map(|&v| scale.word(v)));
                        image.write_strip(&words).map_err(io_error)
                    })
                })?;
                image.finish().map_err(failed)?;
            }
            None => {
                let mut image = encoder.new_image::<Gray32Float>(w, h).map_err(failed)?;
                image.rows_per_strip(strip as u32).map_err(failed)?;
                let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
                produce(slabs, &mut |band: Band<'_>| {
                    blocks.push(band.values, &mut |_, block| {
                        for &v in block {
                            lo = lo.min(v);
                            hi = hi.max(v);
                        }
                        image.write_strip(block).map_err(io_error)
                    })
                })?;
                let text = format!("noisefield values {lo}..{hi}{slice}");
                let tags = image.encoder();
                tags.write_tag(Tag::ImageDescription, text.as_str())
                    .map_err(failed)?;
                tags.write_tag(Tag::SMinSampleValue, lo).map_err(failed)?;
                tags.write_tag(Tag::SMaxSampleValue, hi).map_err(failed)?;
                image.finish().map_err(failed)?;
            }
        }
    }
    Ok(())
}
