//! [`Perlin`]: gradient noise; Ken's permutation and seeded ones.

use crate::kernel::GradientCorners;
use crate::sources::lattice::{Lattice, lattice_source};
use crate::{Error, Fade, HashMode, Level};

/// Ken Perlin's published permutation (`ImprovedNoise.java`, 2002).
pub(crate) const KEN_PERMUTATION: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

/// SplitMix64 (Steele, Lea, Flood 2014): the PRNG behind [`Perlin::new`].
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-and-reject; no modulo bias).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

/// The permutation [`Perlin::new`] and [`crate::Value::new`] shuffle from
/// `seed`: Fisher–Yates over `0, 1, …, 255`; for `i` from 255 down to 1,
/// swap entry `i` with entry `j`, `j` uniform in `0..=i`, drawn from
/// SplitMix64 seeded with `seed` by Lemire's multiply-and-reject method.
pub(crate) fn shuffled(seed: u64) -> [u8; 256] {
    let mut p: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut rng = SplitMix64(seed);
    for i in (1..256usize).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        p.swap(i, j);
    }
    p
}

/// Gradient noise after Ken Perlin's "Improving Noise" (2002), in 1 to 4
/// dimensions, one point at a time or over slices and grids.
///
/// [`Perlin::new`] hashes each lattice corner's whole 32-bit coordinates with
/// the seed (the coordinates mode): the noise repeats only every 2³²
/// cells along an axis, and its gradients (2D: 8 directions off the axes;
/// 3D: the cube's diagonals; 4D: the hypercube's) leave no lattice line of
/// zeros. [`Perlin::reference`] is Ken's noise bit for bit, and
/// [`Perlin::permuted`] the seeded permutation-table noise that `new`
/// computed before version 0.2 (repeating every 256 cells).
///
/// Cloning is cheap (the table is shared). Every method gives the same bits
/// at every [`Level`] and on every CPU; see the crate docs for the exact
/// semantics, ranges and the handling of NaN, infinities and huge values.
/// The methods are those of [`crate::Source`] and [`crate::Differentiable`],
/// also callable without importing the traits.
#[derive(Clone, PartialEq)]
pub struct Perlin(pub(crate) Lattice<GradientCorners>);

impl Perlin {
    /// Ken Perlin's published permutation: 3D `noise` is his `ImprovedNoise`
    /// (the permutation mode; repeats every 256 cells).
    pub fn reference() -> Perlin {
        Perlin(Lattice::permuted(&KEN_PERMUTATION))
    }

    /// Seeded gradient noise with the coordinates mode (the default
    /// mode, [`HashMode::Coordinates`]): every corner's hash comes from its
    /// 32-bit lattice coordinates and a key drawn from `seed`, the same on
    /// every platform. Repeats every 2³² cells along each axis, and only
    /// there. See the README for the hash and the gradient sets.
    pub fn new(seed: u64) -> Perlin {
        Perlin(Lattice::coordinates(seed))
    }

    /// Seeded permutation-table noise ([`HashMode::Permutation`]): Ken's
    /// algorithm over a permutation shuffled from `seed`, exactly the output
    /// of `Perlin::new(seed)` before the coordinates mode became the
    /// default, so stored worlds stay valid. Repeats every 256 cells.
    ///
    /// The permutation: Fisher–Yates over `0, 1, …, 255`: for `i` from 255
    /// down to 1, swap entry `i` with entry `j`, `j` uniform in `0..=i`,
    /// drawn from SplitMix64 seeded with `seed` by Lemire's
    /// multiply-and-reject method.
    pub fn permuted(seed: u64) -> Perlin {
        Perlin(Lattice::permuted(&shuffled(seed)))
    }
}

lattice_source!(Perlin, "Perlin", GradientCorners);
