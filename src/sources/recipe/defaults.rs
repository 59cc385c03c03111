//! [`RecipeDefaults`]: what a recipe's unwritten parameters default to.

use crate::HashMode;

/// Defaults for what a recipe leaves out: the command-line tool's `--seed`,
/// `--hash`, `--period` and fractal options apply this way. A parameter the
/// recipe gives always wins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecipeDefaults {
    /// The seed of every `perlin` and `value` without `seed=` (and of the
    /// Perlin noise under a fractal written without an input).
    pub seed: u64,
    /// Their hash mode, without `hash=`.
    pub hash: HashMode,
    /// Their periods (x, y, z, w cells; `u32::MAX`: unperiodic), without
    /// `period=` (which may give more axes).
    pub period: Option<[u32; 4]>,
    /// Octaves of every fractal without `octaves=`.
    pub octaves: Option<u32>,
    /// Lacunarity of every fractal without `lacunarity=`.
    pub lacunarity: Option<f32>,
    /// Persistence of every fractal without `persistence=`.
    pub persistence: Option<f32>,
    /// Every fractal normalised, unless it says `normalize=false`.
    pub normalize: bool,
    /// Stripes of every `marble` without `stripes=`.
    pub stripes: Option<f32>,
    /// Power of every `marble` without `power=`.
    pub power: Option<f32>,
}
