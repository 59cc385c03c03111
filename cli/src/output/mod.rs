//! Where output goes, checked before any work, and the encoders that write
//! fields band by band (PNG rows through a streaming encoder, `.npy` and raw
//! float32 as they come), so memory stays bounded.
//!
//! An output path is one of:
//!
//! ```text
//! -                        standard output, written directly (refused if a terminal)
//! a character device/FIFO  opened for writing and written directly (/dev/null, a pipe)
//! a regular file, new path written to a temporary file beside it, renamed over
//!                          it when complete: nothing partial, nothing clobbered
//! a symbolic link          followed: its target is what is written (atomically if a
//!                          regular file, created if missing); the link stays
//! anything else            refused: a directory, a missing directory, a name longer
//!                          than 255 bytes, a read-only file, a block device, a socket
//! ```
//!
//! Refusals are usage errors (exit code 2), found before the field is computed.
//!
//! The files: `target.rs` what a path names and the checks on it
//! ([`Target`]), `sink.rs` an open output and its atomic replacement
//! ([`Output`]), `format.rs` the `--format` names ([`Format`]), `encoding.rs`
//! the encoders' entry ([`encode`]) and the PNG, `.npy`, raw and r16
//! writing, `pixels.rs` PNG pixels from values, `float32.rs` float32 bytes
//! and the `.npy` header, `blocks.rs` the row blocks of EXR and TIFF,
//! `exr_file.rs` and `tiff_file.rs` their writers.

mod blocks;
mod encoding;
mod exr_file;
mod float32;
mod format;
mod pixels;
mod sink;
mod target;
#[cfg(test)]
mod tests;
mod tiff_file;

pub use blocks::Layout;
pub use encoding::{Band, BandWriter, Encoding, encode};
pub use float32::{npy_header, write_f32_le};
pub use format::Format;
pub use pixels::{Pixels, normal_rgb};
pub use sink::Output;
pub use target::{MAX_NAME_BYTES, Target, check_distinct, check_name};

use crate::Failure;
use std::path::Path;

/// A usage error about output `shown`.
fn refuse(shown: &Path, why: impl std::fmt::Display) -> Failure {
    Failure::usage(format!("cannot write {}: {why}", shown.display()))
}
