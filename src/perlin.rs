//! [`Perlin`]: permutation tables, seeding, one-point `noiseN` and batch `fillN`.

use crate::error::check_lengths;
use crate::grid::{Grid, Grid1, Grid2, Grid3, Grid4};
use crate::kernel::{
    self, AxisSamples, Dims, FillF32, FillGridRows, FillRowsByCells, FillStaged,
    MAX_COEFFICIENT_STEP, NATURAL_PERIOD, Noise, RowAxis,
};
use crate::simd::scalar::Scalar;
use crate::simd::{PermTable, Simd, dispatch};
use crate::{Error, Level};
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;

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

/// Samples per rayon tile of a parallel grid fill: 64 Ki samples, 256 KiB of
/// output, so a tile's output and its row data stay in a core's L2 cache
/// while enough tiles remain to balance threads.
const TILE_SAMPLES: usize = 1 << 16;

/// Grids of at least this many samples (16 MiB of output) stream their rows.
const STREAMING_SAMPLES: usize = 1 << 22;

/// SplitMix64 (Steele, Lea, Flood 2014): the PRNG behind [`Perlin::new`].
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-and-reject; no modulo bias).
    fn below(&mut self, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

/// Gradient noise after Ken Perlin's "Improving Noise" (2002), in 1 to 4
/// dimensions, one point at a time or over slices.
///
/// Cloning is cheap (the table is shared). Every method gives the same bits
/// at every [`Level`] and on every CPU; see the crate docs for the exact
/// semantics, ranges and the handling of NaN, infinities and huge values.
#[derive(Clone)]
pub struct Perlin {
    table: Arc<PermTable>,
    level: Level,
    periods: Option<[u32; 4]>,
}

impl fmt::Debug for Perlin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Perlin")
            .field("permutation_start", &&self.table.bytes[..8])
            .field("level", &self.level)
            .field("period", &self.periods)
            .finish()
    }
}

impl PartialEq for Perlin {
    /// Same permutation and periods (the level does not change any output).
    fn eq(&self, other: &Perlin) -> bool {
        self.table == other.table && self.periods == other.periods
    }
}

impl Perlin {
    fn from_table(p: &[u8; 256]) -> Perlin {
        Perlin {
            table: Arc::new(PermTable::new(p)),
            level: Level::detect(),
            periods: None,
        }
    }

    /// Ken Perlin's published permutation: `noise3` is his `ImprovedNoise`.
    pub fn reference() -> Perlin {
        Perlin::from_table(&KEN_PERMUTATION)
    }

    /// A permutation shuffled from `seed`, the same on every platform.
    ///
    /// Fisher–Yates over `0, 1, …, 255`: for `i` from 255 down to 1, swap entry
    /// `i` with entry `j`, `j` uniform in `0..=i`, drawn from SplitMix64
    /// seeded with `seed` by Lemire's multiply-and-reject method.
    pub fn new(seed: u64) -> Perlin {
        let mut p: [u8; 256] = std::array::from_fn(|i| i as u8);
        let mut rng = SplitMix64(seed);
        for i in (1..256usize).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            p.swap(i, j);
        }
        Perlin::from_table(&p)
    }

    /// The permutation in use.
    pub fn permutation(&self) -> [u8; 256] {
        self.table.permutation()
    }

    /// The same noise, computed at `level` by the batch methods.
    ///
    /// Err([`Error::Unsupported`]) when this CPU cannot run `level`.
    pub fn with_level(self, level: Level) -> Result<Perlin, Error> {
        if level.is_available() {
            Ok(Perlin { level, ..self })
        } else {
            Err(Error::Unsupported(level))
        }
    }

    /// The level the batch methods run at ([`Level::detect`] unless set).
    pub fn level(&self) -> Level {
        self.level
    }

    /// Periodic (tileable) noise: `noise(.., c + period[a], ..) == noise(.., c, ..)`
    /// exactly on every axis `a`, for every method of this `Perlin`.
    ///
    /// `period[0..4]` are the x, y, z, w periods in lattice cells; a method of
    /// dimension `D` uses the first `D`. The lattice wraps before the table:
    /// cell `X` hashes as `X mod period`, and its neighbour as
    /// `(X + 1) mod period`. A period of 256 is Ken's table's own, so
    /// `with_period([256; 4])` changes nothing. Every period must be at least
    /// 1 (use 256 for axes you don't use); 0 gives [`Error::InvalidPeriod`].
    ///
    /// Periodic noise computes each point's lattice cell in `f64` (exact for
    /// every input); it runs at about a third of the speed of plain noise.
    pub fn with_period(self, period: [u32; 4]) -> Result<Perlin, Error> {
        if let Some(axis) = period.iter().position(|&p| p == 0) {
            return Err(Error::InvalidPeriod { axis });
        }
        let periods = (period != [NATURAL_PERIOD; 4]).then_some(period);
        Ok(Perlin { periods, ..self })
    }

    /// The periods set by [`Perlin::with_period`] (`None`: Ken's 256 on every axis).
    pub fn period(&self) -> Option<[u32; 4]> {
        self.periods
    }

    fn periods_or_natural(&self) -> [u32; 4] {
        self.periods.unwrap_or([NATURAL_PERIOD; 4])
    }

    /// One point through the scalar kernel (staged when periodic).
    fn point<const D: usize>(&self, c: [f32; D]) -> f32
    where
        Noise: Dims<D>,
    {
        let s = Scalar;
        let p = s.perm_table(&self.table);
        match self.periods {
            None => kernel::point_f32(s, &p, c),
            Some(periods) => kernel::point_staged(s, &p, &periods, c.map(f64::from)),
        }
    }

    /// A batch of `f32` points at this `Perlin`'s level.
    fn fill<const D: usize>(&self, inputs: [&[f32]; D], out: &mut [f32]) -> Result<(), Error>
    where
        Noise: Dims<D>,
    {
        check_lengths(inputs, out)?;
        let table = &self.table;
        match self.periods {
            None => dispatch(self.level, FillF32 { table, inputs, out }),
            Some(periods) => dispatch(
                self.level,
                FillStaged {
                    table,
                    periods,
                    inputs,
                    out,
                },
            ),
        }
        Ok(())
    }

    /// A batch of `f64` points at this `Perlin`'s level.
    fn fill_f64<const D: usize>(&self, inputs: [&[f64]; D], out: &mut [f32]) -> Result<(), Error>
    where
        Noise: Dims<D>,
    {
        check_lengths(inputs, out)?;
        let periods = self.periods_or_natural();
        dispatch(
            self.level,
            FillStaged {
                table: &self.table,
                periods,
                inputs,
                out,
            },
        );
        Ok(())
    }

    /// Fills `out` with the noise at every sample of `grid` (layout: see
    /// [`Grid`]); on the rayon pool in tiles of whole rows when `parallel`.
    fn fill_grid<const D: usize>(
        &self,
        grid: &Grid<D>,
        out: &mut [f32],
        parallel: bool,
    ) -> Result<(), Error>
    where
        Noise: Dims<D>,
    {
        let len = grid.check()?;
        if out.len() != len {
            return Err(Error::LengthMismatch {
                name: "out",
                expected: len,
                found: out.len(),
            });
        }
        if len == 0 {
            return Ok(());
        }
        let periods = self.periods_or_natural();
        let size = grid.size();
        let samples: Vec<AxisSamples> = (0..D)
            .map(|a| AxisSamples::new(size[a], periods[a], |i| grid.coord(a, i)))
            .collect();
        let axes: [&AxisSamples; D] = std::array::from_fn(|a| &samples[a]);
        let (table, level, nx) = (&*self.table, self.level, size[0]);
        // The path depends on the grid alone, never on windows or threads.
        let by_cells = grid.step()[0].abs() <= MAX_COEFFICIENT_STEP;
        // Outputs far beyond the caches are written with non-temporal stores
        // (no read of each line before it is overwritten). Speed only: the
        // values are computed the same way either way.
        let streaming = len >= STREAMING_SAMPLES && nx >= 64;
        let x = by_cells.then(|| RowAxis::new(&samples[0]));
        let rows = |first_row: usize, out: &mut [f32]| match &x {
            Some(x) => dispatch(
                level,
                FillRowsByCells {
                    table,
                    axes,
                    x,
                    first_row,
                    out,
                    streaming,
                },
            ),
            None => dispatch(
                level,
                FillGridRows {
                    table,
                    axes,
                    first_row,
                    out,
                },
            ),
        };
        if parallel {
            // Tiles of whole rows, about TILE_SAMPLES samples each.
            let rows_per_tile = (TILE_SAMPLES / nx).max(1);
            out.par_chunks_mut(rows_per_tile * nx)
                .enumerate()
                .for_each(|(t, out)| rows(t * rows_per_tile, out));
        } else {
            rows(0, out);
        }
        Ok(())
    }

    /// 1D noise at `x`, in [-1, 1].
    pub fn noise1(&self, x: f32) -> f32 {
        self.point([x])
    }

    /// 2D noise at `(x, y)`: the `z = 0` slice of [`Perlin::noise3`].
    pub fn noise2(&self, x: f32, y: f32) -> f32 {
        self.point([x, y])
    }

    /// 3D noise at `(x, y, z)`; Ken Perlin's improved noise.
    pub fn noise3(&self, x: f32, y: f32, z: f32) -> f32 {
        self.point([x, y, z])
    }

    /// 4D noise at `(x, y, z, w)`.
    pub fn noise4(&self, x: f32, y: f32, z: f32, w: f32) -> f32 {
        self.point([x, y, z, w])
    }

    /// `out[i] = noise1(xs[i])` for every `i`.
    ///
    /// Err([`Error::LengthMismatch`]) with `out` untouched if lengths differ.
    pub fn fill1(&self, xs: &[f32], out: &mut [f32]) -> Result<(), Error> {
        self.fill([xs], out)
    }

    /// `out[i] = noise2(xs[i], ys[i])` for every `i`.
    ///
    /// Err([`Error::LengthMismatch`]) with `out` untouched if lengths differ.
    pub fn fill2(&self, xs: &[f32], ys: &[f32], out: &mut [f32]) -> Result<(), Error> {
        self.fill([xs, ys], out)
    }

    /// `out[i] = noise3(xs[i], ys[i], zs[i])` for every `i`.
    ///
    /// Err([`Error::LengthMismatch`]) with `out` untouched if lengths differ.
    pub fn fill3(&self, xs: &[f32], ys: &[f32], zs: &[f32], out: &mut [f32]) -> Result<(), Error> {
        self.fill([xs, ys, zs], out)
    }

    /// `out[i] = noise4(xs[i], ys[i], zs[i], ws[i])` for every `i`.
    ///
    /// Err([`Error::LengthMismatch`]) with `out` untouched if lengths differ.
    pub fn fill4(
        &self,
        xs: &[f32],
        ys: &[f32],
        zs: &[f32],
        ws: &[f32],
        out: &mut [f32],
    ) -> Result<(), Error> {
        self.fill([xs, ys, zs, ws], out)
    }

    /// 1D noise at `f64` points: the lattice cell and the offset in it come
    /// from the `f64` value (exact far from the origin), the rest is `f32`.
    /// For `f32`-representable inputs this equals [`Perlin::fill1`] bit for bit.
    pub fn fill1_f64(&self, xs: &[f64], out: &mut [f32]) -> Result<(), Error> {
        self.fill_f64([xs], out)
    }

    /// 2D noise at `f64` points; see [`Perlin::fill1_f64`].
    pub fn fill2_f64(&self, xs: &[f64], ys: &[f64], out: &mut [f32]) -> Result<(), Error> {
        self.fill_f64([xs, ys], out)
    }

    /// 3D noise at `f64` points; see [`Perlin::fill1_f64`].
    pub fn fill3_f64(
        &self,
        xs: &[f64],
        ys: &[f64],
        zs: &[f64],
        out: &mut [f32],
    ) -> Result<(), Error> {
        self.fill_f64([xs, ys, zs], out)
    }

    /// 4D noise at `f64` points; see [`Perlin::fill1_f64`].
    pub fn fill4_f64(
        &self,
        xs: &[f64],
        ys: &[f64],
        zs: &[f64],
        ws: &[f64],
        out: &mut [f32],
    ) -> Result<(), Error> {
        self.fill_f64([xs, ys, zs, ws], out)
    }

    /// Noise at every sample of `grid`, one thread. `out.len()` must be the
    /// grid's sample count; layout and exactness: see [`Grid`] and the crate
    /// docs. Errors (nothing written): [`Error::LengthMismatch`] for `out`,
    /// [`Error::NonFiniteGrid`], [`Error::GridTooLarge`].
    pub fn fill_grid1(&self, grid: &Grid1, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, false)
    }

    /// [`Perlin::fill_grid1`] on the rayon thread pool, in tiles of whole
    /// rows; the same bits whatever the number of threads.
    pub fn fill_grid1_par(&self, grid: &Grid1, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, true)
    }

    /// Noise at every sample of `grid`, one thread. `out.len()` must be the
    /// grid's sample count; layout and exactness: see [`Grid`] and the crate
    /// docs. Errors (nothing written): [`Error::LengthMismatch`] for `out`,
    /// [`Error::NonFiniteGrid`], [`Error::GridTooLarge`].
    pub fn fill_grid2(&self, grid: &Grid2, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, false)
    }

    /// [`Perlin::fill_grid2`] on the rayon thread pool, in tiles of whole
    /// rows; the same bits whatever the number of threads.
    pub fn fill_grid2_par(&self, grid: &Grid2, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, true)
    }

    /// Noise at every sample of `grid`, one thread. `out.len()` must be the
    /// grid's sample count; layout and exactness: see [`Grid`] and the crate
    /// docs. Errors (nothing written): [`Error::LengthMismatch`] for `out`,
    /// [`Error::NonFiniteGrid`], [`Error::GridTooLarge`].
    pub fn fill_grid3(&self, grid: &Grid3, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, false)
    }

    /// [`Perlin::fill_grid3`] on the rayon thread pool, in tiles of whole
    /// rows; the same bits whatever the number of threads.
    pub fn fill_grid3_par(&self, grid: &Grid3, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, true)
    }

    /// Noise at every sample of `grid`, one thread. `out.len()` must be the
    /// grid's sample count; layout and exactness: see [`Grid`] and the crate
    /// docs. Errors (nothing written): [`Error::LengthMismatch`] for `out`,
    /// [`Error::NonFiniteGrid`], [`Error::GridTooLarge`].
    pub fn fill_grid4(&self, grid: &Grid4, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, false)
    }

    /// [`Perlin::fill_grid4`] on the rayon thread pool, in tiles of whole
    /// rows; the same bits whatever the number of threads.
    pub fn fill_grid4_par(&self, grid: &Grid4, out: &mut [f32]) -> Result<(), Error> {
        self.fill_grid(grid, out, true)
    }
}
