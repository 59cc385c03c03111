//! The encoders' entry, [`encode`]: what it writes ([`Encoding`]), the
//! bands it is handed ([`Band`]), and the PNG, `.npy`, raw and r16 files
//! written as the bands come (EXR and TIFF have their own files).

use super::blocks::Layout;
use super::exr_file::write_exr;
use super::float32::{npy_header, write_f32_le};
use super::pixels::Pixels;
use super::sink::Output;
use super::tiff_file::{BIG_TIFF_BYTES, write_tiff};
use crate::Failure;
use crate::palette::Scale;
use std::io::{self, Write};
use std::ops::Range;

/// What [`encode`] writes.
#[derive(Debug, Clone)]
pub enum Encoding {
    /// A PNG of `width × height` pixels made by `pixels`.
    Png {
        /// Pixels per row (samples per row of the field).
        width: usize,
        /// Rows of pixels.
        height: usize,
        /// Values to pixels.
        pixels: Pixels,
    },
    /// A `.npy` file of float32 with this shape (slowest axis first).
    Npy(Vec<usize>),
    /// Raw little-endian float32.
    Raw,
    /// Raw little-endian u16 heights, `round(65535 · t)` on this scale.
    R16(Scale),
    /// OpenEXR: one float32 channel `Y`, uncompressed scan lines.
    Exr(Layout),
    /// TIFF: float32 gray, or 16-bit heights on the scale when given.
    Tiff(Layout, Option<Scale>),
}

/// A band of samples handed to a [`BandWriter`]: consecutive samples in
/// output order and, for a normal map, their derivatives along x and y.
#[derive(Debug, Clone, Copy)]
pub struct Band<'a> {
    /// The values.
    pub values: &'a [f32],
    /// `[∂v/∂x, ∂v/∂y]` at each sample (in lattice cells), when asked for.
    pub gradient: Option<[&'a [f32]; 2]>,
}

/// A band writer handed to the producer in [`encode`]: appends whole rows.
pub type BandWriter<'w> = dyn FnMut(Band<'_>) -> io::Result<()> + 'w;

/// Writes a field to `file` as `encoding`. `produce` is called once per
/// part of the file (each slice of `slabs` for a volume in EXR or TIFF,
/// else once with all of `slabs`) and hands every band of values of that
/// part, in order, to the [`BandWriter`] it is given; bands are encoded as
/// they come (PNG rows compressed into IDAT chunks, EXR blocks and TIFF
/// strips gathered a few rows at a time), so only about a band is ever
/// held in memory. The range of a PNG's values is recorded in a
/// `noisefield range` text chunk (`lo..hi`), a 16-bit TIFF's in its
/// ImageDescription.
pub fn encode(
    file: &mut Output,
    encoding: &Encoding,
    slabs: Range<usize>,
    mut produce: impl FnMut(Range<usize>, &mut BandWriter<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let shown = file.path().display().to_string();
    let io_failure = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {shown}: {e}"));
    match encoding {
        Encoding::Png {
            width,
            height,
            pixels,
        } => {
            let too_big =
                || Failure::usage(format!("a PNG of {width}×{height} pixels is too large"));
            let w = u32::try_from(*width).map_err(|_| too_big())?;
            let h = u32::try_from(*height).map_err(|_| too_big())?;
            let png_failure = |e: png::EncodingError| io_failure(&e);
            let mut encoder = png::Encoder::new(&mut *file, w, h);
            let (depth, colour) = match *pixels {
                Pixels::Colour(palette, _) if palette.is_gray() => {
                    (png::BitDepth::Eight, png::ColorType::Grayscale)
                }
                Pixels::Colour(..) | Pixels::Normal(..) => {
                    (png::BitDepth::Eight, png::ColorType::Rgb)
                }
                Pixels::Height(_) => (png::BitDepth::Sixteen, png::ColorType::Grayscale),
            };
            encoder.set_depth(depth);
            encoder.set_color(colour);
            // fdeflate: a 4096² terrain map in 0.8 s instead of 5.5 s
            // (Balanced), for a file 7% larger.
            encoder.set_compression(png::Compression::Fast);
            let (key, text) = match *pixels {
                Pixels::Colour(_, scale) | Pixels::Height(scale) => {
                    let (lo, hi) = scale.range();
                    ("noisefield range", format!("{lo}..{hi}"))
                }
                Pixels::Normal(strength, flip_y) => (
                    "noisefield normal",
                    format!(
                        "tangent space, green along {} y (rows {}), strength {strength}",
                        if flip_y { "-" } else { "+" },
                        if flip_y { "towards row 0" } else { "advancing" }
                    ),
                ),
            };
            encoder
                .add_text_chunk(key.into(), text)
                .map_err(png_failure)?;
            let mut writer = encoder.write_header().map_err(png_failure)?;
            let mut stream = writer.stream_writer().map_err(png_failure)?;
            let mut bytes = Vec::new();
            produce(slabs, &mut |band: Band<'_>| {
                pixels.encode(band, &mut bytes);
                stream.write_all(&bytes)
            })?;
            stream.finish().map_err(png_failure)?;
            writer.finish().map_err(png_failure)?;
        }
        Encoding::Npy(shape) => {
            file.write_all(&npy_header(shape))
                .map_err(|e| io_failure(&e))?;
            produce(slabs, &mut |band: Band<'_>| write_f32_le(file, band.values))?;
        }
        Encoding::Raw => produce(slabs, &mut |band: Band<'_>| write_f32_le(file, band.values))?,
        Encoding::R16(scale) => {
            let mut bytes = Vec::new();
            produce(slabs, &mut |band: Band<'_>| {
                bytes.clear();
                bytes.extend(
                    band.values
                        .iter()
                        .flat_map(|&v| scale.word(v).to_le_bytes()),
                );
                file.write_all(&bytes)
            })?;
        }
        Encoding::Exr(layout) => write_exr(file, layout, slabs, &mut produce)?,
        Encoding::Tiff(layout, scale) => {
            let bytes_per_sample = if scale.is_some() { 2 } else { 4 };
            let bytes = (layout.width * layout.height * layout.parts()) as u64 * bytes_per_sample;
            let failed = |e: tiff::TiffError| io_failure(&e);
            if bytes > BIG_TIFF_BYTES {
                let encoder = tiff::encoder::TiffEncoder::new_big(&mut *file).map_err(failed)?;
                write_tiff(encoder, layout, *scale, slabs, &mut produce, &shown)?;
            } else {
                let encoder = tiff::encoder::TiffEncoder::new(&mut *file).map_err(failed)?;
                write_tiff(encoder, layout, *scale, slabs, &mut produce, &shown)?;
            }
        }
    }
    Ok(())
}
