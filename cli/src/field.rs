//! A field: a source sampled on a 2D grid or a 3D volume, computed band by
//! band so that memory stays bounded whatever the field's size.
//!
//! Rows are the x lines of samples, numbered in output order (row
//! `k * ny + j` is `y = j` of slice `z = k`). A band is up to
//! [`BAND_SAMPLES`] consecutive samples in output order (or
//! [`WIDE_BAND_ROWS`] rows, up to 4 · `BAND_SAMPLES`): whole rows (never
//! crossing a z slice) when a row fits, else a piece of one row. It is
//! filled as [`Grid::window`](noisefield::Grid::window)s of the whole grid
//! at most [`WINDOW_WIDTH`] samples wide, so the library's per-row and
//! per-octave data stay small however wide the rows. Windows keep the
//! global sample indices, so the bands concatenate to the whole field bit
//! for bit, and so do the outputs of `--rows` bands.
//!
//! ```text
//! for band in rows A·rows_per_slab .. B·rows_per_slab, BAND_SAMPLES at a time
//!     (rows wider than a window: up to WIDE_BAND_ROWS, WIDE_BAND_SAMPLES):
//!     rows wider than TALL_FROM (a fractal; else WINDOW_WIDTH), several in
//!       the band: windows of up to TALL_ROWS rows, TALL_WIDTH wide (wider
//!       for fewer than 8 rows), on the rayon pool, each filled by one
//!       thread and copied into place from its worker's scratch window
//!     other rows up to WINDOW_WIDTH wide: fill the band's window (rayon tiles inside);
//!       more rows than WINDOW_WIDTH: windows of WINDOW_WIDTH rows on the rayon pool
//!     rows wider than BAND_SAMPLES, several: up to WIDE_BAND_ROWS of them
//!       together, in blocks of columns as above; the first row handed on
//!       block by block, the others written to an unnamed temporary file and
//!       read back after it (SPOOL_SAMPLES at most)
//!     one row wider than BAND_SAMPLES, or rows with derivatives: pieces of
//!       windows of WINDOW_WIDTH × 1 on the rayon pool
//!     hand the band to the writer / statistics, then reuse the buffer
//! ```
//!
//! Memory: the band (4 MiB; up to 32 MiB for rows wider than a window,
//! which go up to [`WIDE_BAND_ROWS`] to a band, or 16 MiB, a block of a
//! spooled band) plus, per worker thread, a scratch window for rows wider
//! than [`TALL_FROM`] (at most 256 KiB) and one window's library data (about 0.7 KiB per
//! sample of width for 32 ridged octaves, so at most 12 MiB per thread),
//! whatever the field's size. Disk: a spooled band's rows after its first,
//! at most [`SPOOL_SAMPLES`] (256 MiB), in a file no other process sees
//! and the system removes however the tool ends.

use crate::Failure;
use crate::args::{Axes, FieldArgs, Periods, Tile, check_size};
use crate::output::Band;
use crate::progress::Progress;
use crate::source;
use noisefield::prelude::*;
use noisefield::{Custom, CustomNoise, DynSource, Grid2, Grid3, MAX_LATTICE_DIMENSIONS};
use std::ops::Range;

/// Samples per band: 2^20 (4 MiB of f32), 16 rayon tiles of the library.
pub const BAND_SAMPLES: usize = 1 << 20;

/// The most rows a band holds when they are wider than [`WINDOW_WIDTH`]
/// (and the band at most [`WIDE_BAND_SAMPLES`]: 64 rows of 2^17, 8 of
/// 2^20; not for normal maps).
/// Per octave a window's setup costs about 21 instructions per x sample (AVX2)
/// and a row 1 to 3 per sample: bands of one or two rows spent most of
/// their time on setup.
pub const WIDE_BAND_ROWS: usize = 64;

/// The widest (and tallest) window filled at once: 2^14 samples. The
/// library keeps data per sample of each axis of a window for every octave
/// (stage 1 of each axis), so this bounds it whatever `--size`.
pub const WINDOW_WIDTH: usize = 1 << 14;

/// Rows wider than this, several to a band, of a source of more than one
/// lattice evaluation a sample (a fractal), go in tall windows
/// ([`SampledField::fill_tall_windows`]) rather than the library's tiles of
/// 2^16 samples of whole rows (16 rows of 4096, 4 of 16384), whose per
/// octave x setup serves only a tile's rows. One thread, 6-octave fBm,
/// tiles → tall windows: 5793 × 5792 104 → 76 ms, 4096 × 8192 109 → 84 ms;
/// but 2048 × 16384 78 → 79, 1024 × 32768 74 → 75. Other sources go in
/// tall windows past [`WINDOW_WIDTH`] only (Perlin 5793 × 5792: 26 ms in
/// tiles, 30 in tall windows, whose copy into place then weighs).
pub const TALL_FROM: usize = 2048;

/// The most rows of a tall window: a fractal's blocks of 2^16 samples of
/// whole rows then hold all of them.
pub const TALL_ROWS: usize = 64;

/// The width of a tall window of 8 rows or more. Narrow windows keep each
/// octave's data per column in the caches: 65536 × 512 took 33 instructions
/// a sample (AVX2) in windows 2^14 wide (blocks of 4 rows), 17 in windows
/// of 1024 × 64; 524288 × 64 in bands of 16 rows 165 ms in windows 4096
/// wide, 135 ms 1024 wide.
pub const TALL_WIDTH: usize = 1024;

/// Windows of fewer than 8 rows are [`TALL_WINDOW_SAMPLES`] / rows wide
/// (4096 for 2 rows), so the library's setup per call (some 8000
/// instructions per octave) stays small against their samples: 16777216 ×
/// 2 took 272 ms in windows of 16384, 246 ms of 4096.
pub const TALL_WINDOW_SAMPLES: usize = 8 * TALL_WIDTH;

/// The most samples a band of rows wider than [`WINDOW_WIDTH`] holds (32
/// MiB): at least 8 rows up to 2^20 wide. 1048576 × 32 took 49
/// instructions a sample in bands of 4 rows, 33 in bands of 8.
pub const WIDE_BAND_SAMPLES: usize = 8 * BAND_SAMPLES;

/// The most samples a band keeps in its temporary file: 2^26 (256 MiB).
/// Rows wider than [`BAND_SAMPLES`] (one to a band in memory) are computed
/// up to [`WIDE_BAND_ROWS`] at a time (at most 1 + `SPOOL_SAMPLES / width`),
/// the first row handed on as it is made and the others through the file:
/// 4194304 × 8 took 0.41 s one row at a time, 0.22 to 0.27 s so. For narrower rows
/// (4 to 64 to a band in memory) the file's writing and reading, on one
/// thread, cost more than the setup they save (1048576 × 32: 0.16 s held,
/// 0.27 s spooled in bands of 32).
pub const SPOOL_SAMPLES: usize = 1 << 26;

/// Lattice cells per sample when neither `--frequency` nor `--period` is
/// given: 1/128, so a 1024-wide picture spans 8 cells.
pub const DEFAULT_FREQUENCY: f64 = 1.0 / 128.0;

/// A noise of more dimensions than the field, on the field's axes: the
/// field's point `(x, y[, z])` is the noise's point `origin` with
/// coordinate `axes[k]` replaced by the field's `k`-th. A [`CustomNoise`],
/// so the field's grids and bands run on it unchanged; each sample is the
/// noise's `fill_f64_dyn` at that point.
#[derive(Debug, Clone)]
pub struct Embedded {
    noise: DynSource,
    origin: Vec<f64>,
    axes: Vec<usize>,
}

impl Embedded {
    /// `noise` in `origin.len()` dimensions on `axes`, as a source, or a
    /// usage error if the noise does not compute that many dimensions.
    pub fn source(
        noise: DynSource,
        origin: Vec<f64>,
        axes: Vec<usize>,
    ) -> Result<DynSource, Failure> {
        let probe: Vec<f32> = vec![0.0; origin.len()];
        noise.noise_dyn(&probe).map_err(|e| {
            Failure::usage(format!("--origin has {} coordinates: {e}", origin.len()))
        })?;
        let embedded = Embedded {
            noise,
            origin,
            axes,
        };
        Ok(DynSource::new(Custom::new(embedded)))
    }
}

impl CustomNoise for Embedded {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        let n = out.len();
        let mut owned: Vec<Vec<f64>> = Vec::new();
        let mut at = vec![None; self.origin.len()];
        for (k, &a) in self.axes.iter().enumerate() {
            at[a] = Some(k);
        }
        for (a, spanned) in at.iter().enumerate() {
            if spanned.is_none() {
                owned.push(vec![self.origin[a]; n]);
            }
        }
        let mut fixed = owned.iter();
        let coords: Vec<&[f64]> = at
            .iter()
            .map(|spanned| match spanned {
                Some(k) => points[*k],
                None => fixed.next().map_or(&[][..], Vec::as_slice),
            })
            .collect();
        if self.noise.fill_f64_dyn(&coords, out).is_err() {
            // Not reached: `Embedded::new` checked the dimension.
            out.fill(f32::NAN);
        }
    }

    fn bounds(&self, _: usize) -> (f32, f32) {
        self.noise.bounds(self.origin.len())
    }
}

/// The grid of a field.
#[derive(Debug, Clone, Copy)]
pub enum SampleGrid {
    /// A picture: `[nx, ny]`.
    D2(Grid2),
    /// A volume: `[nx, ny, nz]`, or frames along z.
    D3(Grid3),
}

/// A source and the grid it is sampled on.
#[derive(Debug, Clone)]
pub struct SampledField {
    /// The noise.
    pub source: DynSource,
    /// Where it is sampled.
    pub grid: SampleGrid,
    /// Rows wider than this, several to a band, go in tall windows:
    /// [`TALL_FROM`], or [`WINDOW_WIDTH`] for a source of one lattice
    /// evaluation a sample ([`SampledField::from_args`]).
    tall_from: usize,
}

impl SampledField {
    /// The field `args` describe.
    /// Checks every option against the others.
    pub fn from_args(args: &FieldArgs) -> Result<SampledField, Failure> {
        let size = &args.size.0;
        let dims = size.len();
        let full = args.origin.clone().map_or(vec![0.0; dims], |c| c.0);
        if full.len() < dims {
            return Err(Failure::usage(format!(
                "--origin has {} coordinates but --size has {dims} axes",
                full.len()
            )));
        }
        // The noise's axes the field spans: all of them, or --axes of a
        // noise of more dimensions than the field has.
        let axes: Vec<usize> = match &args.axes {
            None => (0..dims).collect(),
            Some(_) if full.len() == dims => {
                return Err(Failure::usage(
                    "--axes picks the axes of a noise of more dimensions than --size has: \
                     give --origin with one coordinate per noise axis",
                ));
            }
            Some(Axes(axes)) => axes.clone(),
        };
        if axes.len() != dims {
            return Err(Failure::usage(format!(
                "--axes has {} axes but --size has {dims}",
                axes.len()
            )));
        }
        if let Some(&a) = axes.iter().find(|&&a| a >= full.len()) {
            return Err(Failure::usage(format!(
                "--axes names axis {a} but --origin has {} coordinates (axes 0 to {})",
                full.len(),
                full.len() - 1
            )));
        }
        let origin: Vec<f64> = axes.iter().map(|&a| full[a]).collect();
        // With a period, the field spans exactly `period` cells on each axis.
        let (step, period) = match &args.period {
            None => (
                vec![args.frequency.unwrap_or(DEFAULT_FREQUENCY); dims],
                None,
            ),
            Some(Periods(p)) => {
                if p.len() != 1 && p.len() != dims {
                    return Err(Failure::usage(format!(
                        "--period has {} values but --size has {dims} axes (give 1 or {dims})",
                        p.len()
                    )));
                }
                let cells = |axis: usize| p[if p.len() == 1 { 0 } else { axis }];
                let step = (0..dims)
                    .map(|a| f64::from(cells(a)) / size[a] as f64)
                    .collect();
                // The noise repeats along the axes the field spans (the
                // others, held at the origin, are left unperiodic).
                let mut period = [u32::MAX; MAX_LATTICE_DIMENSIONS];
                for (a, &axis) in axes.iter().enumerate() {
                    let Some(slot) = period.get_mut(axis) else {
                        return Err(Failure::usage(format!(
                            "--period on axis {axis}: periodic noise has at most \
                             {MAX_LATTICE_DIMENSIONS} axes (0 to {})",
                            MAX_LATTICE_DIMENSIONS - 1
                        )));
                    };
                    *slot = cells(a);
                }
                (step, Some(period))
            }
        };
        let mut source = source::build(&args.source, period)?;
        if full.len() > dims {
            source = Embedded::source(source, full, axes)?;
        }
        // A tile is the window of the world grid (global sample 0 at the
        // origin) that starts at sample `index · size` on each axis
        // (`index · (size − 1)` with shared edges), so every sample has one
        // position whichever tile computes it.
        let first: Vec<usize> = match &args.tile {
            None => vec![0; dims],
            Some(Tile(index)) => {
                if index.len() != dims {
                    return Err(Failure::usage(format!(
                        "--tile has {} indices but --size has {dims} axes (give {})",
                        index.len(),
                        if dims == 2 { "X,Y" } else { "X,Y,Z" }
                    )));
                }
                if args.period.is_some() {
                    return Err(Failure::usage(
                        "--tile with --period would make every tile the same one; \
                         give --frequency for a world of tiles",
                    ));
                }
                let shared = usize::from(args.shared_edges);
                if args.shared_edges && size.contains(&1) {
                    return Err(Failure::usage(
                        "--shared-edges needs tiles of 2 or more samples per axis",
                    ));
                }
                index
                    .iter()
                    .zip(size)
                    .map(|(&i, &n)| i as usize * (n - shared))
                    .collect()
            }
        };
        let world = |a: usize| first[a] + size[a];
        let grid = match dims {
            2 => SampleGrid::D2(
                Grid2::new(
                    [origin[0], origin[1]],
                    [step[0], step[1]],
                    [world(0), world(1)],
                )
                .window([first[0], first[1]], [size[0], size[1]])?,
            ),
            _ => SampleGrid::D3(
                Grid3::new(
                    [origin[0], origin[1], origin[2]],
                    [step[0], step[1], step[2]],
                    [world(0), world(1), world(2)],
                )
                .window([first[0], first[1], first[2]], [size[0], size[1], size[2]])?,
            ),
        };
        let mut field = SampledField::new(source, grid)?;
        // One lattice evaluation a sample: the library's tiles of whole
        // rows do better up to WINDOW_WIDTH (5793 × 5792 Perlin, one
        // thread: 26 ms in them, 30 in tall windows, which copy each
        // window into place).
        let octaves = match source::SourceKind::from_name(&args.source.source.to_string()) {
            Some(kind) if kind.is_fractal() => args.source.octaves.map(u64::from),
            _ => None,
        };
        if octaves.unwrap_or(args.source.source.cost()) <= 1 {
            field.tall_from = WINDOW_WIDTH;
        }
        Ok(field)
    }

    /// An interval that holds every value of the field: the source's
    /// fixed bounds in its dimension (the library's `bounds`).
    pub fn bounds(&self) -> (f32, f32) {
        self.source.bounds(self.size().len())
    }

    /// `source` on `grid`, after checking that the grid can be filled
    /// (finite sample positions, sizes within [`check_size`]'s limits).
    pub fn new(source: DynSource, grid: SampleGrid) -> Result<SampledField, Failure> {
        match &grid {
            SampleGrid::D2(g) => g.check()?,
            SampleGrid::D3(g) => g.check()?,
        };
        let field = SampledField {
            source,
            grid,
            tall_from: TALL_FROM,
        };
        check_size(&field.size()).map_err(Failure::Usage)?;
        Ok(field)
    }

    /// Samples per axis, x first.
    pub fn size(&self) -> Vec<usize> {
        match &self.grid {
            SampleGrid::D2(g) => g.size().to_vec(),
            SampleGrid::D3(g) => g.size().to_vec(),
        }
    }

    /// Samples in one row (x).
    pub fn row_len(&self) -> usize {
        self.size()[0]
    }

    /// Indices along the slowest axis: rows (y) in 2D, slices (z) in 3D.
    pub fn slabs(&self) -> usize {
        *self.size().last().expect("2 or 3 axes")
    }

    /// Rows in one index of the slowest axis: 1 in 2D, `ny` in 3D.
    pub fn rows_per_slab(&self) -> usize {
        match &self.grid {
            SampleGrid::D2(_) => 1,
            SampleGrid::D3(g) => g.size()[1],
        }
    }

    /// The band `slabs` of the slowest axis, or a usage error if it does
    /// not lie inside the field.
    pub fn check_slabs(&self, slabs: &Range<usize>) -> Result<(), Failure> {
        let n = self.slabs();
        if slabs.start < slabs.end && slabs.end <= n {
            return Ok(());
        }
        let axis = match self.grid {
            SampleGrid::D2(_) => "rows (y)",
            SampleGrid::D3(_) => "slices (z)",
        };
        Err(Failure::usage(format!(
            "--rows {}..{} is outside the field, which has {n} {axis}: 0..{n}",
            slabs.start, slabs.end
        )))
    }

    /// Fills `out` with the samples `x0..x0 + width` of `out.len() / width`
    /// rows starting at output row `first_row`; the rows must lie in one z
    /// slice. Several rows wider than the field's `tall_from` go in tall
    /// windows ([`SampledField::fill_tall_windows`]); other rows wider than
    /// [`WINDOW_WIDTH`] as windows of at most that width, on the rayon pool.
    fn fill_rows(
        &self,
        first_row: usize,
        x0: usize,
        width: usize,
        out: Planes<'_>,
    ) -> Result<(), Failure> {
        use rayon::prelude::*;
        let rows = out.values.len() / width;
        if width > self.tall_from && rows > 1 && out.gradient.is_none() {
            return self.fill_tall_windows(first_row, x0, width, out.values);
        }
        if width <= WINDOW_WIDTH && rows <= WINDOW_WIDTH {
            return self.fill_window(first_row, x0, [width, rows], out, true);
        }
        if width <= WINDOW_WIDTH {
            // Narrow rows, more than a window holds: windows of WINDOW_WIDTH
            // rows, on the rayon pool (a window this narrow is one tile of
            // the library's, so one thread).
            let mut pieces = Vec::new();
            let mut rest = out;
            for r in (0..rows).step_by(WINDOW_WIDTH) {
                let (piece, after) = rest.split_at(WINDOW_WIDTH.min(rows - r) * width);
                rest = after;
                pieces.push((first_row + r, piece));
            }
            return pieces.into_par_iter().try_for_each(|(row, piece)| {
                let n = piece.values.len() / width;
                self.fill_window(row, x0, [width, n], piece, false)
            });
        }
        let mut pieces = Vec::new();
        let mut rest = out;
        for r in 0..rows {
            let (mut row, after) = rest.split_at(width);
            rest = after;
            for k in 0..width.div_ceil(WINDOW_WIDTH) {
                let (piece, after) = row.split_at(WINDOW_WIDTH.min(width - k * WINDOW_WIDTH));
                row = after;
                pieces.push((first_row + r, x0 + k * WINDOW_WIDTH, piece));
            }
        }
        pieces.into_par_iter().try_for_each(|(row, x, piece)| {
            let w = piece.values.len();
            self.fill_window(row, x, [w, 1], piece, false)
        })
    }

    /// [`SampledField::fill_rows`] for rows wider than [`TALL_FROM`], several of
    /// them: windows of up to [`TALL_ROWS`] rows, [`tall_window_width`]
    /// wide, so a window's setup of its x samples (per octave, some 20
    /// instructions each) is shared by all those rows instead of made again
    /// for each. The windows go on the rayon pool, each filled by one
    /// thread into a scratch window of its worker's and its rows copied
    /// into their places in `out` (the window's pieces of the rows, split
    /// off beforehand). Windows join bit for bit, so the values are those
    /// of one window per row.
    fn fill_tall_windows(
        &self,
        first_row: usize,
        x0: usize,
        width: usize,
        out: &mut [f32],
    ) -> Result<(), Failure> {
        use rayon::prelude::*;
        let rows = out.len() / width;
        let high = rows.min(TALL_ROWS);
        let wide = tall_window_width(width, high);
        // Per window: its first row and column, and its piece of each row.
        let mut windows = Vec::new();
        for (g, group) in out.chunks_mut(high * width).enumerate() {
            let mut pieces: Vec<Vec<&mut [f32]>> = Vec::new();
            for row in group.chunks_exact_mut(width) {
                for (k, piece) in row.chunks_mut(wide).enumerate() {
                    match pieces.get_mut(k) {
                        Some(window) => window.push(piece),
                        None => pieces.push(vec![piece]),
                    }
                }
            }
            for (k, window) in pieces.into_iter().enumerate() {
                windows.push((first_row + g * high, x0 + k * wide, window));
            }
        }
        windows.into_par_iter().try_for_each_init(
            || vec![0.0f32; wide * high],
            |scratch, (row, x, mut window)| {
                let w = window[0].len();
                let block = &mut scratch[..w * window.len()];
                let planes = Planes {
                    values: &mut *block,
                    gradient: None,
                };
                self.fill_window(row, x, [w, window.len()], planes, false)?;
                for (piece, values) in window.iter_mut().zip(block.chunks_exact(w)) {
                    piece.copy_from_slice(values);
                }
                Ok(())
            },
        )
    }

    /// Fills the window of `size = [width, rows]` at sample `x0` of output
    /// row `first_row` (rows in one z slice); on the rayon pool when `parallel`.
    fn fill_window(
        &self,
        first_row: usize,
        x0: usize,
        [width, rows]: [usize; 2],
        out: Planes<'_>,
        parallel: bool,
    ) -> Result<(), Failure> {
        match (&self.grid, out.gradient) {
            (SampleGrid::D2(g), None) => {
                let window = g.window([x0, first_row], [width, rows])?;
                source::fill_grid(&self.source, &window, out.values, parallel)?;
            }
            (SampleGrid::D2(g), Some([dx, dy])) => {
                let window = g.window([x0, first_row], [width, rows])?;
                source::fill_grid_grad(&self.source, &window, out.values, [dx, dy], parallel)?;
            }
            (SampleGrid::D3(g), None) => {
                let [_, ny, _] = g.size();
                let (k, j) = (first_row / ny, first_row % ny);
                let window = g.window([x0, j, k], [width, rows, 1])?;
                source::fill_grid(&self.source, &window, out.values, parallel)?;
            }
            (SampleGrid::D3(_), Some(_)) => {
                return Err(Failure::usage(
                    "derivatives (a normal map) are for 2D fields, not volumes",
                ));
            }
        }
        Ok(())
    }

    /// Calls `visit(values)` for every band of the slabs `slabs` in order:
    /// consecutive samples in output order, whole rows when a row fits in
    /// [`BAND_SAMPLES`], else pieces of a row. Advances `progress` by rows.
    pub fn for_each_band(
        &self,
        slabs: Range<usize>,
        progress: &Progress,
        mut visit: impl FnMut(&[f32]) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        self.for_each_band_with(slabs, progress, false, |band| visit(band.values))
    }

    /// [`SampledField::for_each_band`] with each band's derivatives along x and y
    /// when `gradient` (a 2D field of a differentiable source: the
    /// library's `fill_grid2_grad`); three planes of [`BAND_SAMPLES`] then.
    pub fn for_each_band_with(
        &self,
        slabs: Range<usize>,
        progress: &Progress,
        gradient: bool,
        mut visit: impl FnMut(Band<'_>) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let nx = self.row_len();
        let per_slab = self.rows_per_slab();
        // Bands never cross a z slice (a window is one slice of rows).
        let rows_per_slice = self.size()[1];
        let (mut row, end) = (slabs.start * per_slab, slabs.end * per_slab);
        let planes = if gradient { 3 } else { 1 };
        // Rows held in memory per band. Narrow rows: BAND_SAMPLES at a time,
        // filled as windows of at most WINDOW_WIDTH rows (the library's
        // data per window grows with its height too). Rows wider than a
        // window go up to WIDE_BAND_ROWS to a band (at most 4 ·
        // BAND_SAMPLES samples), so that each window's x setup serves more
        // rows; rows wider than BAND_SAMPLES go in pieces, one at a time.
        let held = if nx > BAND_SAMPLES {
            1
        } else if gradient || nx <= WINDOW_WIDTH {
            BAND_SAMPLES / nx
        } else {
            (BAND_SAMPLES / nx).max(WIDE_BAND_ROWS.min(WIDE_BAND_SAMPLES / nx))
        };
        let mut buffer = vec![0.0f32; held.min(end - row).max(1) * nx.min(BAND_SAMPLES) * planes];
        // Rows wider than BAND_SAMPLES, several of them: bands of up to
        // WIDE_BAND_ROWS rows through a temporary file (SpooledRows),
        // created at the first such band (`Some(None)`: none could be
        // made, so one row at a time as above).
        let mut spool: Option<Option<SpooledRows>> = None;
        while row < end {
            let slice_end = (row / rows_per_slice + 1) * rows_per_slice;
            let left = (end - row).min(slice_end - row);
            let spooled = if nx > BAND_SAMPLES && !gradient {
                WIDE_BAND_ROWS.min(left).min(1 + SPOOL_SAMPLES / nx)
            } else {
                1
            };
            if spooled > 1 {
                let file = spool.get_or_insert_with(SpooledRows::new);
                if let Some(file) = file {
                    self.fill_spooled_band(row, spooled, file, progress, &mut visit)?;
                    row += spooled;
                    continue;
                }
            }
            if nx > BAND_SAMPLES {
                // Each row in pieces.
                for x0 in (0..nx).step_by(BAND_SAMPLES) {
                    let n = BAND_SAMPLES.min(nx - x0);
                    self.fill_rows(row, x0, n, Planes::of(&mut buffer, n, gradient))?;
                    visit(Band::of(&buffer, n, gradient))?;
                }
                progress.advance(1);
                row += 1;
                continue;
            }
            let rows = held.min(left);
            let n = rows * nx;
            self.fill_rows(row, 0, nx, Planes::of(&mut buffer, n, gradient))?;
            visit(Band::of(&buffer, n, gradient))?;
            progress.advance(rows as u64);
            row += rows;
        }
        Ok(())
    }

    /// The `rows` rows from output row `first_row` on (in one z slice,
    /// wider than [`WINDOW_WIDTH`]), computed together and handed to
    /// `visit` in order: blocks of columns of every row, as windows on the
    /// rayon pool ([`SampledField::fill_tall_windows`]; at most 4 ·
    /// [`BAND_SAMPLES`] samples a block), the first row's pieces handed on
    /// as they come and the other rows' written to the spool, then read
    /// back. So a window's x setup serves all the rows however wide they
    /// are, and memory stays that of one block.
    fn fill_spooled_band(
        &self,
        first_row: usize,
        rows: usize,
        spool: &mut SpooledRows,
        progress: &Progress,
        visit: &mut impl FnMut(Band<'_>) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let nx = self.row_len();
        let block = (4 * BAND_SAMPLES / rows / WINDOW_WIDTH).max(1) * WINDOW_WIDTH;
        let buffer = &mut spool.block;
        buffer.resize(rows * block.min(nx), 0.0);
        let row_at = |r: usize, x: usize| ((r - 1) * nx + x) as u64;
        for x0 in (0..nx).step_by(block) {
            let w = block.min(nx - x0);
            let band = &mut buffer[..rows * w];
            self.fill_tall_windows(first_row, x0, w, band)?;
            visit(Band {
                values: &band[..w],
                gradient: None,
            })?;
            for (r, values) in band.chunks_exact(w).enumerate().skip(1) {
                spool.file.write(row_at(r, x0), values)?;
            }
        }
        progress.advance(1);
        // The other rows, consecutive in the file: read back a block at a
        // time.
        let total = (rows - 1) * nx;
        let mut done = 0;
        while done < total {
            let n = buffer.len().min(total - done);
            spool.file.read(done as u64, &mut buffer[..n])?;
            visit(Band {
                values: &buffer[..n],
                gradient: None,
            })?;
            progress.advance(((done + n) / nx - done / nx) as u64);
            done += n;
        }
        Ok(())
    }

    /// Rows in the slabs `slabs` (for sizing progress bars).
    pub fn rows_in(&self, slabs: &Range<usize>) -> u64 {
        (slabs.len() * self.rows_per_slab()) as u64
    }

    /// The smallest and largest value of the whole field, in one pass.
    pub fn min_max(&self, progress: &Progress) -> Result<(f32, f32), Failure> {
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        self.for_each_band(0..self.slabs(), progress, |values| {
            for &v in values {
                lo = lo.min(v);
                hi = hi.max(v);
            }
            Ok(())
        })?;
        Ok((lo, hi))
    }
}

/// The planes a window is filled into: values, and derivatives when asked.
struct Planes<'a> {
    values: &'a mut [f32],
    gradient: Option<[&'a mut [f32]; 2]>,
}

impl<'a> Planes<'a> {
    /// The first `n` samples of each plane of `buffer`, which holds one
    /// plane (values) or three (values, d/dx, d/dy) of equal length.
    fn of(buffer: &'a mut [f32], n: usize, gradient: bool) -> Planes<'a> {
        if !gradient {
            return Planes {
                values: &mut buffer[..n],
                gradient: None,
            };
        }
        let plane = buffer.len() / 3;
        let (values, rest) = buffer.split_at_mut(plane);
        let (dx, dy) = rest.split_at_mut(plane);
        Planes {
            values: &mut values[..n],
            gradient: Some([&mut dx[..n], &mut dy[..n]]),
        }
    }

    /// The first `n` samples of each plane, and the rest.
    fn split_at(self, n: usize) -> (Planes<'a>, Planes<'a>) {
        let (values, rest) = self.values.split_at_mut(n);
        match self.gradient {
            None => (
                Planes {
                    values,
                    gradient: None,
                },
                Planes {
                    values: rest,
                    gradient: None,
                },
            ),
            Some([dx, dy]) => {
                let (dx, dx_rest) = dx.split_at_mut(n);
                let (dy, dy_rest) = dy.split_at_mut(n);
                (
                    Planes {
                        values,
                        gradient: Some([dx, dy]),
                    },
                    Planes {
                        values: rest,
                        gradient: Some([dx_rest, dy_rest]),
                    },
                )
            }
        }
    }
}

impl<'a> Band<'a> {
    /// The first `n` samples of each plane of `buffer` ([`Planes::of`]).
    fn of(buffer: &'a [f32], n: usize, gradient: bool) -> Band<'a> {
        if !gradient {
            return Band {
                values: &buffer[..n],
                gradient: None,
            };
        }
        let plane = buffer.len() / 3;
        Band {
            values: &buffer[..n],
            gradient: Some([&buffer[plane..plane + n], &buffer[2 * plane..2 * plane + n]]),
        }
    }
}

/// The rows of a spooled band after its first ([`SampledField::fill_spooled_band`]): an
/// unnamed temporary file (gone when closed, whatever ends the process)
/// and the band's block of samples.
struct SpooledRows {
    file: SpoolFile,
    block: Vec<f32>,
}

impl SpooledRows {
    /// A new spool, or `None` when no temporary file can be made.
    fn new() -> Option<SpooledRows> {
        let file = tempfile::tempfile().ok()?;
        Some(SpooledRows {
            file: SpoolFile(file),
            block: Vec::new(),
        })
    }
}

/// The width of the windows [`SampledField::fill_tall_windows`] fills `rows` rows of
/// `width` samples in: [`TALL_WIDTH`], or [`TALL_WINDOW_SAMPLES`] / `rows`
/// for fewer than 8 rows (at most [`WINDOW_WIDTH`]), the windows equal but
/// for rounding (to whole 64-sample registers).
fn tall_window_width(width: usize, rows: usize) -> usize {
    let widest = (TALL_WINDOW_SAMPLES / rows.max(1)).clamp(TALL_WIDTH, WINDOW_WIDTH);
    let windows = width.div_ceil(widest);
    width.div_ceil(windows).next_multiple_of(64).min(widest)
}

/// A temporary file of `f32` samples in native byte order.
struct SpoolFile(std::fs::File);

impl SpoolFile {
    /// The file, its position at sample `at`.
    fn at(&mut self, at: u64) -> Result<&mut std::fs::File, Failure> {
        use std::io::{Seek, SeekFrom};
        self.0
            .seek(SeekFrom::Start(4 * at))
            .map_err(spool_failure)?;
        Ok(&mut self.0)
    }

    /// Writes `values` at sample `at`.
    fn write(&mut self, at: u64, values: &[f32]) -> Result<(), Failure> {
        use std::io::Write;
        let bytes = bytemuck::cast_slice(values);
        self.at(at)?.write_all(bytes).map_err(spool_failure)
    }

    /// Reads `out.len()` samples from sample `at`.
    fn read(&mut self, at: u64, out: &mut [f32]) -> Result<(), Failure> {
        use std::io::Read;
        let bytes = bytemuck::cast_slice_mut(out);
        self.at(at)?.read_exact(bytes).map_err(spool_failure)
    }
}

fn spool_failure(e: std::io::Error) -> Failure {
    Failure::Io(format!(
        "cannot use the temporary file for very wide rows (set TMPDIR to a directory with room): {e}"
    ))
}
