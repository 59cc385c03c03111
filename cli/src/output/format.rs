//! [`Format`]: the `--format` names, the formats a file name asks for,
//! and their default paths.

use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// The `--format` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 8-bit PNG in the palette's colours.
    Png,
    /// 16-bit grayscale PNG, for heightmaps.
    Png16,
    /// NumPy `.npy`, little-endian float32, shape (ny, nx) or (nz, ny, nx).
    Npy,
    /// Little-endian float32, row-major with x fastest, no header.
    Raw,
    /// Little-endian u16 heights, x fastest, no header (Unity, Unreal).
    R16,
    /// OpenEXR, one 32-bit float channel `Y`; a volume is one part per slice.
    Exr,
    /// TIFF, 32-bit float gray; a volume is one page per slice.
    Tiff,
    /// TIFF, 16-bit gray heights; a volume is one page per slice.
    Tiff16,
    /// RGB8 PNG tangent-space normal map from the analytic derivatives.
    Normal,
}

impl Format {
    /// The format a file name asks for: `.png`, `.npy`, `.raw`/`.f32`/`.bin`,
    /// `.r16`, `.exr`, `.tif`/`.tiff`.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "png" => Some(Format::Png),
            "npy" => Some(Format::Npy),
            "raw" | "f32" | "bin" => Some(Format::Raw),
            "r16" => Some(Format::R16),
            "exr" => Some(Format::Exr),
            "tif" | "tiff" => Some(Format::Tiff),
            _ => None,
        }
    }

    /// Whether a file named for `self` ([`Format::from_extension`]) may
    /// hold `format`: a `.png` holds png, png16 or a normal map, a `.raw`
    /// float32 or r16 (Unity's import dialog asks for `.raw`), a `.tif`
    /// either TIFF depth.
    pub fn admits(self, format: Format) -> bool {
        self == format
            || matches!(
                (self, format),
                (Format::Png, Format::Png16 | Format::Normal)
                    | (Format::Raw, Format::R16)
                    | (Format::Tiff, Format::Tiff16)
            )
    }

    /// The name as given to `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Png16 => "png16",
            Format::Npy => "npy",
            Format::Raw => "raw",
            Format::R16 => "r16",
            Format::Exr => "exr",
            Format::Tiff => "tiff",
            Format::Tiff16 => "tiff16",
            Format::Normal => "normal",
        }
    }

    /// The default output file name for this format.
    pub fn default_path(self) -> PathBuf {
        PathBuf::from(match self {
            Format::Png | Format::Png16 => "noise.png",
            Format::Npy => "noise.npy",
            Format::Raw => "noise.raw",
            Format::R16 => "noise.r16",
            Format::Exr => "noise.exr",
            Format::Tiff | Format::Tiff16 => "noise.tif",
            Format::Normal => "normal.png",
        })
    }

    /// Whether the encoder seeks back in its file (EXR's offset tables,
    /// TIFF's directories): a stream is then spooled through a temporary
    /// file ([`Output::open`]).
    ///
    /// [`Output::open`]: super::Output::open
    pub fn seeks(self) -> bool {
        matches!(self, Format::Exr | Format::Tiff | Format::Tiff16)
    }
}
