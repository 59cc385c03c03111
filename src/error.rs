//! The crate's one error type.

use crate::Level;
use std::fmt;

/// Why a call was refused. A call that returns `Err` has written nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Coordinate and output slices of a batch call have different lengths.
    ///
    /// `expected` is the length of the first coordinate slice (`xs`); `name`
    /// is the slice whose length `found` differs from it.
    LengthMismatch {
        /// The slice that disagrees: `"ys"`, `"zs"`, `"ws"` or `"out"`.
        name: &'static str,
        /// Length of `xs`.
        expected: usize,
        /// Length of the slice called `name`.
        found: usize,
    },
    /// The requested SIMD level cannot run on this CPU (or this build).
    Unsupported(Level),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::LengthMismatch {
                name,
                expected,
                found,
            } => write!(
                f,
                "slice lengths differ: xs has {expected} points but {name} has {found}; \
                 every coordinate slice and the output slice must have the same length"
            ),
            Error::Unsupported(level) => {
                let available: Vec<&str> = Level::available().iter().map(|l| l.name()).collect();
                write!(
                    f,
                    "SIMD level {} is not supported on this CPU; available here: {}",
                    level.name(),
                    available.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// Checks that every slice in `others` has the length of `xs`.
pub(crate) fn check_lengths(xs: usize, others: &[(&'static str, usize)]) -> Result<(), Error> {
    for &(name, found) in others {
        if found != xs {
            return Err(Error::LengthMismatch {
                name,
                expected: xs,
                found,
            });
        }
    }
    Ok(())
}
