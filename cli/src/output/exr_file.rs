//! OpenEXR files: one float32 channel `Y`, uncompressed scan-line blocks,
//! one part per slice of a volume.

use super::blocks::{Blocks, Layout, io_error, parts};
use super::encoding::{Band, BandWriter};
use super::sink::Output;
use crate::Failure;
use std::io;
use std::ops::Range;

/// EXR compression: none. Noise barely compresses (ZIP saved 4% on a
/// 4096² fBm field and took 3.7 s instead of 0.4 s), and uncompressed
/// scan lines are one row per block, so a block is never more than a row.
const EXR_COMPRESSION: exr::compression::Compression = exr::compression::Compression::Uncompressed;

/// OpenEXR: one part (a "layer" of the `exr` crate) per slice of a
/// volume, named `z=K`, or one part; scan-line blocks in increasing y.
pub(super) fn write_exr(
    file: &mut Output,
    layout: &Layout,
    slabs: Range<usize>,
    produce: &mut impl FnMut(Range<usize>, &mut BandWriter<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    use exr::block::{BlockIndex, UncompressedBlock, writer::ChunksWriter};
    use exr::math::Vec2;
    use exr::meta::BlockDescription;
    use exr::meta::attribute::{ChannelDescription, LineOrder, SampleType, Text};
    use exr::meta::header::Header;
    let shown = file.path().display().to_string();
    let failed = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {shown}: {e}"));
    let compression = EXR_COMPRESSION;
    let lines = compression.scan_lines_per_block();
    let names: Vec<String> = match &layout.slices {
        None => vec!["noise".into()],
        Some(slices) => slices.clone().map(|k| format!("z={k}")).collect(),
    };
    let headers = names
        .iter()
        .map(|name| {
            let channel = ChannelDescription::new("Y", SampleType::F32, true);
            Header::new(
                Text::new_or_panic(name),
                (layout.width, layout.height),
                std::iter::once(channel).collect(),
            )
            .with_encoding(
                compression,
                BlockDescription::ScanLines,
                LineOrder::Increasing,
            )
        })
        .collect();
    // The producer's failure, carried out of the exr crate's closure.
    let mut failure = None;
    let written = exr::block::write(&mut *file, headers, true, |meta, writer| {
        for (part, slabs) in parts(layout, slabs).into_iter().enumerate() {
            let mut blocks = Blocks::new(layout.width, lines, layout.height);
            let mut bytes = Vec::new();
            let mut emit = |first_row: usize, block: &[f32]| -> io::Result<()> {
                bytes.clear();
                bytes.extend(block.iter().flat_map(|v| v.to_ne_bytes()));
                let index = BlockIndex {
                    layer: part,
                    pixel_position: Vec2(0, first_row),
                    pixel_size: Vec2(layout.width, block.len() / layout.width),
                    level: Vec2(0, 0),
                };
                let data = std::mem::take(&mut bytes);
                let chunk = UncompressedBlock { index, data }
                    .compress_to_chunk(&meta.headers)
                    .map_err(io_error)?;
                writer
                    .write_chunk(first_row / lines, chunk)
                    .map_err(io_error)
            };
            let result = produce(slabs, &mut |band: Band<'_>| {
                blocks.push(band.values, &mut emit)
            });
            if let Err(e) = result {
                failure = Some(e);
                return Err(exr::error::Error::Aborted);
            }
        }
        Ok(())
    });
    match (failure, written) {
        (Some(e), _) => Err(e),
        (None, Err(e)) => Err(failed(&e)),
        (None, Ok(())) => Ok(()),
    }
}
