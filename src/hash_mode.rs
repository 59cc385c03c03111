//! [`HashMode`]: how a lattice noise hashes its corners.

use std::fmt;
use std::str::FromStr;

/// How [`crate::Perlin`] and [`crate::Value`] hash their lattice corners.
///
/// - `Coordinates` (the default, `new(seed)`): each corner's hash comes from
///   its whole 32-bit lattice coordinates and the seed. The noise repeats
///   only every 2³² cells along an axis, any period works, and the
///   gradients have no zero component (no straight zero lines).
/// - `Permutation` (`permuted(seed)`, `reference()`): Ken Perlin's chain of
///   lookups in a 256-entry permutation. Repeats every 256 cells; kept
///   bit for bit for Ken's reference and for worlds stored before the
///   coordinates mode became the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HashMode {
    /// The coordinates mode (the default).
    #[default]
    Coordinates,
    /// Ken Perlin's permutation table.
    Permutation,
}

impl HashMode {
    /// Both modes, the default first.
    pub const ALL: [HashMode; 2] = [HashMode::Coordinates, HashMode::Permutation];

    /// The name `FromStr` accepts: `coordinates` or `permuted`.
    pub fn name(self) -> &'static str {
        match self {
            HashMode::Coordinates => "coordinates",
            HashMode::Permutation => "permuted",
        }
    }
}

impl fmt::Display for HashMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`HashMode`]: the text was neither name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseHashModeError(String);

impl fmt::Display for ParseHashModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown hash mode '{}': expected 'coordinates' or 'permuted'",
            self.0
        )
    }
}

impl std::error::Error for ParseHashModeError {}

impl FromStr for HashMode {
    type Err = ParseHashModeError;

    /// `coordinates` (or `coords`) and `permuted` (or `permutation`), any case.
    fn from_str(s: &str) -> Result<HashMode, ParseHashModeError> {
        match s.to_ascii_lowercase().as_str() {
            "coordinates" | "coords" => Ok(HashMode::Coordinates),
            "permuted" | "permutation" => Ok(HashMode::Permutation),
            _ => Err(ParseHashModeError(s.to_string())),
        }
    }
}
