//! The fast grid path: noise along a row from per-cell coefficients.
//!
//! Along a grid row only x varies. Inside one x cell the corner hashes, the
//! gradients and the other axes' offsets and fades are constant, and every
//! lerp is linear in its end points, so the noise is exactly
//!
//! ```text
//! noise(x) = lerp(u, A0·x0 + B0, A1·x1 + B1)      u = fade(x0), x1 = x0 − 1
//! Ai = Σ_corners W·GX[h]      Bi = Σ_corners W·(GY[h]·y + GZ[h]·z + …)
//! ```
//!
//! with `W` the product of the other axes' fade weights and `h` the corner
//! hash for x lattice plane `i` of the cell. `(A, B)` belong to a plane, so
//! adjacent cells share them: each row computes them once per plane, in
//! vectors whose lanes are planes (each lane's operations are the same on
//! every level, so the bits are), and every sample picks its two planes'
//! values by in-register table lookups; the per-sample evaluation is 8
//! vector operations and 4 lookups. It differs from the point path only by
//! rounding (documented ≤ 1e-6).
//!
//! Rows go in blocks of [`BLOCK_ROWS`]: while a block is evaluated, strip by
//! strip of [`STRIP_SAMPLES`] (so the strip's x values stay in L1), the next
//! block's coefficients are computed (their hash chains are latency-bound,
//! the evaluation throughput-bound, so the two overlap). Values are stored
//! (for huge grids streamed out with non-temporal stores, straight from the
//! registers in 3D and 4D, one strip later from scratch in 1D and 2D; see
//! `STREAM_DIRECTLY_FROM`); a fractal folds its octaves' rows afterwards.

use super::bands::{AxisScan, fades};
use super::{
    AxisSamples, BandAxis, Corners, Dims, HashModeKernel, HashModeRef, Noise, WithHashMode,
    store_pack,
};
use crate::Fade;
use crate::scratch::Scratch;
use crate::simd::{Job, MAX_LANES, OutlinedJob, Simd};

/// Grid rows of `D`-dimensional noise use coefficients when x advances at
/// most `MAX_COEFFICIENT_STEP[D - 1]` per sample. Measured against the point
/// kernel along the rows (A/B in one process, AVX-512, 2²⁰-sample grids of
/// 256-sample rows): 3D by cells 2.3× as fast at step 0.34, 1.5× at 0.5,
/// 1.09× at 0.75, 1.05× at 1, 0.89× at 1.28; 2D 1.06× at 0.5, 0.96× at
/// 0.8 (the 2D point kernel is cheap), so 1D and 2D stay at 1/3. In 4D (8
/// corners per plane, short rows) the point kernel won at every step
/// measured, so only extremely fine 4D grids use cells. The bound depends
/// on the dimension only, never on the level, so the bits don't. Beyond
/// about 1/2 a pack of 64 samples uses more planes than a window holds
/// (`PLANE_WINDOW`), and each part of a pack gets a window of its own
/// (`FINE_GRANULE`).
pub(crate) const MAX_COEFFICIENT_STEP: [f64; 4] = [1.0 / 3.0, 1.0 / 3.0, 0.75, 1.0 / 64.0];

/// Per-sample values of the x axis the row evaluation reads, and the x
/// lattice planes the row's samples use (the same on every row).
///
/// Adjacent cells share a plane (the upper plane of one cell is the lower
/// plane of the next), so a row computes each plane's coefficients once:
/// `planes` lists them in the order the samples reach them, and every sample
/// has the indices of its lower and upper plane, relative to the first plane
/// its granule of samples (see `granule`) uses.
pub(crate) struct RowAxis {
    /// Offset in the cell and its fade (padded).
    x0: Scratch<f32>,
    u: Scratch<f32>,
    /// The x lattice planes' cells, padded with zeros to whole packs.
    planes: Scratch<u32>,
    /// The number of planes (before padding).
    plane_count: usize,
    /// Samples that share a window of planes: `MAX_LANES` (one window per
    /// pack), or `FINE_GRANULE` when x advances too far for that (one per
    /// part of a pack: every backend's parts are 1, 8 or 16 lanes). These
    /// windows are empty (and `granule` 0) when `narrow` holds the windows.
    granule: usize,
    /// Per granule of samples: its first plane.
    first_plane: Scratch<usize>,
    /// Per sample: its lower and upper planes minus its granule's first
    /// plane (padded with the last sample's).
    lower: Scratch<u8>,
    upper: Scratch<u8>,
    /// The fades of the other axes' samples, per axis (`other_fades[a]` is
    /// axis `a + 1`).
    other_fades: Vec<Scratch<f32>>,
    /// Windows of [`NARROW_WINDOW`] planes per [`NARROW_GRANULE`] samples,
    /// when every granule's planes fit (x steps up to about ¾): backends
    /// whose parts are at most 8 lanes read them with one 8-entry lookup
    /// instead of a 32-entry one (AVX2: one `vpermps` instead of four and
    /// three blends). Made only for such levels.
    narrow: Option<NarrowWindows>,
}

/// Per [`NARROW_GRANULE`] samples, its first plane; per sample, its lower
/// and upper planes minus its granule's first (all below [`NARROW_WINDOW`]).
struct NarrowWindows {
    first_plane: Scratch<usize>,
    lower: Scratch<u8>,
    upper: Scratch<u8>,
}

/// Samples per narrow window (one AVX2 part).
const NARROW_GRANULE: usize = 8;
/// Planes in a narrow window.
const NARROW_WINDOW: usize = 8;

/// Rows whose coefficients are computed together before they are evaluated.
const BLOCK_ROWS: usize = 8;

/// Samples of a row evaluated at once (a multiple of `MAX_LANES`): the
/// strip's per-sample x values (10 bytes a sample) and two scratch strips
/// (8 bytes a sample) then fit the 32 KiB L1 data cache. Wider 2D rows ran
/// about 20% slower (4096 samples: 3.6 G/s vs 4.6 for 1024).
const STRIP_SAMPLES: usize = 1024;

/// Huge outputs of 3D and 4D rows are streamed out straight from the
/// registers; 1D and 2D rows, whose evaluation is faster, go through two
/// scratch strips copied out a strip later (with direct non-temporal
/// stores they ran 4–7% slower, 3D rows 10–16% faster; 2²⁴-sample grids
/// at step 0.02, AVX-512).
const STREAM_DIRECTLY_FROM: usize = 3;

/// A block of 64 samples at x step ≤ 1/3 spans at most 23 cells, so 24
/// planes; lookups read a window of 32 per-plane coefficients.
const PLANE_WINDOW: usize = 32;

/// The granule of rows whose packs of `MAX_LANES` samples reach more planes
/// than a window holds: 16 samples use at most 32 planes (two each) at any
/// step, since planes are numbered in order of use and cells a row skips
/// take no number.
const FINE_GRANULE: usize = 16;

impl RowAxis {
    /// The row values of the grid axes `axes` (x first). (`None` if a
    /// granule of samples would use more planes than one window holds,
    /// which `FINE_GRANULE` rules out; the caller would use the point path.)
    /// The x offsets are moved out of `axes[0]` (which is left with its
    /// length only) when the row axis is made.
    ///
    /// The windows are those the level that fills the rows reads: narrow
    /// ones where `narrow_parts` (its parts are at most [`NARROW_GRANULE`]
    /// lanes) and every granule's planes fit them, else windows of
    /// [`PLANE_WINDOW`] planes; so a row axis is made at the level its rows
    /// are filled at ([`PlanAxes`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(axes: &mut [AxisSamples], fade: Fade, narrow_parts: bool) -> Option<RowAxis> {
        let x = &axes[0];
        let u = fades(fade, &x.t0);
        let none = || {
            (
                0,
                Scratch::default(),
                Scratch::default(),
                Scratch::default(),
            )
        };
        let (mut planes, (granule, first_plane, lower, upper), narrow) = match consecutive_planes(x)
        {
            Some((planes, lowest)) => {
                let narrow = match narrow_parts {
                    true => consecutive_windows::<NARROW_GRANULE>(x, lowest, NARROW_WINDOW),
                    false => None,
                };
                let windows = match narrow {
                    Some(_) => none(),
                    None => match consecutive_windows::<MAX_LANES>(x, lowest, PLANE_WINDOW) {
                        Some(w) => w,
                        None => consecutive_windows::<FINE_GRANULE>(x, lowest, PLANE_WINDOW)?,
                    },
                };
                (planes, windows, narrow)
            }
            None => {
                let (planes, lower, upper) = planes_in_order_of_use(x);
                let narrow = narrow_parts
                    .then(|| windows_of_use(&lower, &upper, NARROW_GRANULE, NARROW_WINDOW))
                    .flatten();
                let windows = match narrow {
                    Some(_) => none(),
                    None => windows_of_use(&lower, &upper, MAX_LANES, PLANE_WINDOW)
                        .or_else(|| windows_of_use(&lower, &upper, FINE_GRANULE, PLANE_WINDOW))?,
                };
                (planes, windows, narrow)
            }
        };
        let narrow = narrow.map(|(_, first_plane, lower, upper)| NarrowWindows {
            first_plane,
            lower,
            upper,
        });
        let plane_count = planes.len();
        planes.resize(plane_count.div_ceil(MAX_LANES) * MAX_LANES, 0);
        let other_fades = axes[1..].iter().map(|a| fades(fade, &a.t0)).collect();
        let x0 = std::mem::take(&mut axes[0].t0);
        axes[0].keep_length_only();
        Some(RowAxis {
            x0,
            u,
            planes,
            plane_count,
            granule,
            first_plane,
            lower,
            upper,
            other_fades,
            narrow,
        })
    }

    /// Sample `i`'s lower and upper planes (indices into `planes`).
    fn sample_planes(&self, i: usize) -> (usize, usize) {
        let (first, lower, upper) = match &self.narrow {
            Some(w) => (w.first_plane[i / NARROW_GRANULE], w.lower[i], w.upper[i]),
            None => (
                self.first_plane[i / self.granule],
                self.lower[i],
                self.upper[i],
            ),
        };
        (first + usize::from(lower), first + usize::from(upper))
    }
}

/// A lattice's plan of a grid: stage 1 of every sample of each axis
/// ([`AxisSamples`]) and, when rows go by cells, the [`RowAxis`]. Run at the
/// level the rows are filled at, so its loops are compiled (and vectorised)
/// with that level's instructions, and the row axis holds the windows that
/// level reads. Not generic over the dimension: one copy per level.
pub(crate) struct PlanAxes<'a> {
    /// Every sample position of each axis (x first).
    pub(crate) coords: &'a [&'a [f64]],
    /// Each axis's period (2³² for the natural one).
    pub(crate) periods: &'a [u64],
    pub(crate) fade: Fade,
    pub(crate) by_cells: bool,
    pub(crate) by_bands: bool,
}

impl Job for PlanAxes<'_> {
    type Output = (Vec<AxisSamples>, Option<RowAxis>, Option<BandAxis>);

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, _: S) -> Self::Output {
        // Plain loops and branches, no closures: what is not inlined here
        // would be compiled without the level's instructions.
        let mut samples = Vec::with_capacity(self.coords.len());
        for (coords, &period) in self.coords.iter().zip(self.periods) {
            samples.push(AxisSamples::new(coords, period));
        }
        if self.by_bands {
            // The loops over every sample here, in the level's vectors.
            let part = S::LANES / S::PARTS;
            let scan = AxisScan::new(&samples, self.fade, part);
            let bands = BandAxis::new(&samples, scan, part);
            return (samples, None, Some(bands));
        }
        let narrow_parts = S::LANES / S::PARTS <= NARROW_GRANULE;
        let row = if self.by_cells {
            RowAxis::new(&mut samples, self.fade, narrow_parts)
        } else {
            None
        };
        (samples, row, None)
    }
}

/// The x lattice planes of a row and the lowest of them, where the samples'
/// cells advance by at most one cell per sample, all in one direction, and
/// each upper cell is the next one (every row without a period, and
/// periodic rows that do not wrap): the planes are then the cells from the
/// lowest to one past the highest, in order, and a sample's lower plane is
/// its cell less the lowest, found in one pass of a few operations per
/// sample. `None` otherwise.
#[cfg_attr(not(debug_assertions), inline(always))]
fn consecutive_planes(x: &AxisSamples) -> Option<(Scratch<u32>, u32)> {
    let n = x.len;
    let (c0, c1) = (&x.c0[..n], &x.c1[..n]);
    let (&first, &last) = (c0.first()?, c0.last()?);
    // The direction, from the ends; cells are compared mod 2³² (a row may
    // cross the wrap of the natural period).
    let down = (last.wrapping_sub(first) as i32) < 0;
    let advance = if down { u32::MAX } else { 1 };
    let mut fits = true;
    let mut previous = first;
    for (&a, &b) in c0.iter().zip(c1) {
        let d = a.wrapping_sub(previous);
        fits &= (d == 0) | (d == advance);
        fits &= b == a.wrapping_add(1);
        previous = a;
    }
    if !fits {
        return None;
    }
    let lowest = if down { last } else { first };
    let count = last.wrapping_sub(first).wrapping_mul(advance) + 2;
    let planes = (0..count).map(|k| lowest.wrapping_add(k)).collect();
    Some((planes, lowest))
}

/// A row's windows (see [`RowAxis`]) for granules of `G` samples, where the
/// planes are consecutive cells from `lowest` ([`consecutive_planes`]): a
/// sample's planes are `cell − lowest` and the next, so a granule's planes
/// run between those of its two ends. Per granule its first plane, per
/// (padded: the last sample's) sample its lower and upper plane relative to
/// it; `None` if a granule reaches `window` planes or more.
#[allow(clippy::type_complexity)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn consecutive_windows<const G: usize>(
    x: &AxisSamples,
    lowest: u32,
    window: usize,
) -> Option<(usize, Scratch<usize>, Scratch<u8>, Scratch<u8>)> {
    let (len, padded) = (x.len, x.c0.len());
    let last = x.c0[len - 1];
    // A granule's planes run between those of its ends (cells are
    // monotonic); samples past the last are the last one.
    let mut first_plane = Scratch::with_capacity(padded / G);
    for start in (0..padded).step_by(G) {
        let (a, b) = match start < len {
            true => (x.c0[start], x.c0[(start + G).min(len) - 1]),
            false => (last, last),
        };
        let (a, b) = (a.wrapping_sub(lowest), b.wrapping_sub(lowest));
        let first = a.min(b);
        if (a.max(b) + 1 - first) as usize >= window {
            return None;
        }
        first_plane.push(first as usize);
    }
    // Each sample's lower plane relative to its granule's first: a loop of
    // `G` lanes per granule (vectorised), then the padding.
    let mut lower = Scratch::filled(padded, 0u8);
    let granules = lower.chunks_exact_mut(G).zip(x.c0.chunks_exact(G));
    for ((lower, cells), &first) in granules.zip(first_plane.iter()) {
        let base = lowest.wrapping_add(first as u32);
        for (p, &c) in lower.iter_mut().zip(cells) {
            *p = c.wrapping_sub(base) as u8;
        }
    }
    for (i, p) in lower.iter_mut().enumerate().skip(len) {
        *p = last.wrapping_sub(lowest.wrapping_add(first_plane[i / G] as u32)) as u8;
    }
    let upper = lower.iter().map(|&p| p + 1).collect();
    Some((G, first_plane, lower, upper))
}

/// A row's windows (see [`RowAxis`]) for granules of `granule` samples,
/// from every sample's lower and upper plane ([`planes_in_order_of_use`]):
/// per granule its first plane, per sample its planes relative to it;
/// `None` if a granule reaches `window` planes or more.
#[allow(clippy::type_complexity)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn windows_of_use(
    lower: &[u32],
    upper: &[u32],
    granule: usize,
    window: usize,
) -> Option<(usize, Scratch<usize>, Scratch<u8>, Scratch<u8>)> {
    let mut first_plane = Scratch::with_capacity(lower.len() / granule);
    for (lower, upper) in lower.chunks_exact(granule).zip(upper.chunks_exact(granule)) {
        let all = lower.iter().chain(upper);
        let (first, last) = all.fold((u32::MAX, 0), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        if (last - first) as usize >= window {
            return None;
        }
        first_plane.push(first as usize);
    }
    let relative = |planes: &[u32]| {
        let mut relative = Scratch::with_capacity(planes.len());
        for (planes, &first) in planes.chunks_exact(granule).zip(&first_plane) {
            relative.extend(planes.iter().map(|&p| (p - first as u32) as u8));
        }
        relative
    };
    let (lower, upper) = (relative(lower), relative(upper));
    Some((granule, first_plane, lower, upper))
}

/// The x lattice planes of a row in order of first use and every (padded)
/// sample's lower and upper plane, for rows of any cells.
#[cfg_attr(not(debug_assertions), inline(always))]
fn planes_in_order_of_use(x: &AxisSamples) -> (Scratch<u32>, Scratch<u32>, Scratch<u32>) {
    // A sample's planes are usually the last two listed (cells are adjacent
    // for steps < 1).
    let mut planes: Scratch<u32> = Scratch::with_capacity(x.len.min(64));
    let plane_of = |cell: u32, planes: &mut Vec<u32>| -> u32 {
        let recent = planes.len().saturating_sub(4);
        let at = match planes[recent..].iter().rposition(|&c| c == cell) {
            Some(at) => recent + at,
            None => {
                planes.push(cell);
                planes.len() - 1
            }
        };
        at as u32
    };
    let padded = x.c0.len();
    let (mut lower, mut upper) = (Scratch::filled(padded, 0u32), Scratch::filled(padded, 0u32));
    for i in 0..x.len {
        lower[i] = plane_of(x.c0[i], &mut planes);
        upper[i] = plane_of(x.c1[i], &mut planes);
    }
    if x.len > 0 {
        let (lo, hi) = (lower[x.len - 1], upper[x.len - 1]);
        lower[x.len..].fill(lo);
        upper[x.len..].fill(hi);
    }
    (planes, lower, upper)
}

/// Per row: for every corner of the other axes (bit `a` of the corner index
/// = far on other axis `a`), the product of their fade weights, and each
/// other axis's cells and offsets `[t0, t0 − 1]`, broadcast. They are built
/// from scalars in registers: read back from memory, their narrow stores
/// stalled the wider loads that gathered them (store forwarding). Each
/// lane's operations are the same on every level, so the bits are.
struct RowCorners<S: Simd, H: HashModeKernel> {
    weight: [S::P; 8],
    cells: [(H::Cell<S>, H::Cell<S>); 3],
    offsets: [[S::P; 2]; 3],
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn row_corners<S: Simd, H: HashModeKernel, const D: usize>(
    s: S,
    others: &[(u32, u32, f32, f32); 3],
) -> RowCorners<S, H> {
    let one = s.part(s.splat(1.0), 0);
    let mut w = RowCorners {
        weight: [one; 8],
        cells: [H::splat_cells(s, 0, 0); 3],
        offsets: [[one; 2]; 3],
    };
    for (axis, &(c0, c1, t0, f)) in others.iter().enumerate().take(D - 1) {
        w.cells[axis] = H::splat_cells(s, c0, c1);
        let t0 = s.part(s.splat(t0), 0);
        w.offsets[axis] = [t0, t0 - one];
        let far = s.part(s.splat(f), 0);
        let near = one - far;
        for corner in 0..1 << (D - 1) {
            let factor = if corner >> axis & 1 == 1 { far } else { near };
            w.weight[corner] = w.weight[corner] * factor;
        }
    }
    w
}

/// [`row_corners`] of a different row in each lane of part 0 (rows too
/// narrow for lanes along x: [`fill_narrow_rows`]): the other axes' cells,
/// offsets and fades of each lane's row, and the same operations on each.
#[cfg_attr(not(debug_assertions), inline(always))]
fn column_corners<S: Simd, H: HashModeKernel, const D: usize>(
    s: S,
    lanes: &NarrowLanes<'_>,
) -> RowCorners<S, H> {
    let one = s.part(s.splat(1.0), 0);
    let mut w = RowCorners {
        weight: [one; 8],
        cells: [H::splat_cells(s, 0, 0); 3],
        offsets: [[one; 2]; 3],
    };
    for axis in 0..D - 1 {
        w.cells[axis] = H::staged(s, lanes.c0[axis], lanes.c1[axis]);
        let t0 = s.load_part(lanes.t0[axis], 0);
        w.offsets[axis] = [t0, t0 - one];
        let far = s.load_part(lanes.fade[axis], 0);
        let near = one - far;
        for corner in 0..1 << (D - 1) {
            let factor = if corner >> axis & 1 == 1 { far } else { near };
            w.weight[corner] = w.weight[corner] * factor;
        }
    }
    w
}

/// Rows narrower than this many samples go by [`fill_narrow_rows`], lanes
/// along the other axes. (Any bound gives the same bits.) Measured on
/// command-line renders of 2²⁵ samples (AVX-512, 6-octave fBm): 16-wide
/// fields 0.23 s by packs along x, 0.13 s by these; 22 wide 0.27 against
/// 0.21; 24 wide about even (0.16 against 0.18); 31 wide 0.11 against 0.13.
const NARROW_ROWS_BELOW: usize = 24;

/// Blocks of rows (a part's worth each) [`fill_narrow_rows`] evaluates
/// before it stores their rows.
const NARROW_GROUP: usize = 8;

/// The widest part of any backend (AVX-512: 16 of 64 lanes; AVX2 8 of 32,
/// NEON 4 of 16, Portable 8, Scalar 1): [`fill_narrow_rows`]'s buffers hold
/// a part per row block.
const MAX_PART_LANES: usize = MAX_LANES / 4;

/// The other axes' cells, offsets and fades of the rows of one part, a
/// row per lane: per axis, slices whose first `S::LANES` entries are read
/// (the lanes past the block's rows hold other rows, or 0, and are not
/// stored).
struct NarrowLanes<'a> {
    c0: [&'a [u32]; 3],
    c1: [&'a [u32]; 3],
    t0: [&'a [f32]; 3],
    fade: [&'a [f32]; 3],
}

/// [`NarrowLanes`] gathered row by row, where the block's rows are not
/// consecutive samples of one axis (3D and 4D grids, whose rows run
/// through y, then z, …).
struct GatheredLanes {
    c0: [[u32; MAX_LANES]; 3],
    c1: [[u32; MAX_LANES]; 3],
    t0: [[f32; MAX_LANES]; 3],
    fade: [[f32; MAX_LANES]; 3],
}

impl GatheredLanes {
    fn lanes(&self) -> NarrowLanes<'_> {
        NarrowLanes {
            c0: [&self.c0[0], &self.c0[1], &self.c0[2]],
            c1: [&self.c1[0], &self.c1[1], &self.c1[2]],
            t0: [&self.t0[0], &self.t0[1], &self.t0[2]],
            fade: [&self.fade[0], &self.fade[1], &self.fade[2]],
        }
    }
}

/// [`fill_narrow_rows`] as a function of its own per level.
struct NarrowRows<'a, 'r, K, S: Simd, H: HashModeKernel, const D: usize> {
    r: &'a H::Ready<'r, S>,
    x: &'a RowAxis,
    axes: [&'a AxisSamples; D],
    first_row: usize,
    out: &'a mut [f32],
    _corners: std::marker::PhantomData<K>,
}

impl<K: Corners, S: Simd, H: HashModeKernel, const D: usize> OutlinedJob<S>
    for NarrowRows<'_, '_, K, S, H, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run(self, s: S) {
        fill_narrow_rows::<S, K, H, D>(s, self.r, self.x, self.axes, self.first_row, self.out);
    }
}

/// Rows of fewer than [`NARROW_ROWS_BELOW`] samples (a tall, narrow grid),
/// from the same per-plane coefficients as [`FillRowsByCells`] computes,
/// with the same operations on each, so the same bits, but with a row per
/// lane: the coefficients of each plane for a part's worth of rows at once,
/// then each column of samples `lerp(u, A0·x0 + B0, A1·x1 + B1)` (its x
/// values the same for every row), stored row by row. With lanes along x,
/// each row of two samples took a pack of plane coefficients of its own.
#[cfg_attr(not(debug_assertions), inline(always))]
fn fill_narrow_rows<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &RowAxis,
    axes: [&AxisSamples; D],
    first_row: usize,
    out: &mut [f32],
) {
    let nx = axes[0].len;
    let (n, part_lanes) = (S::LANES, S::LANES / S::PARTS);
    const { assert!(S::LANES / S::PARTS <= MAX_PART_LANES) };
    // Each sample's lower and upper plane (absolute indices).
    let mut sample_planes = [(0usize, 0usize); NARROW_ROWS_BELOW];
    for (i, planes) in sample_planes.iter_mut().enumerate().take(nx) {
        *planes = x.sample_planes(i);
    }
    let sample_planes = &sample_planes[..nx];
    let count = x.plane_count;
    // Per plane, its `A` and `B` (lanes: rows), for the block's rows.
    let mut coeff = Vec::with_capacity(count);
    let mut gathered = GatheredLanes {
        c0: [[0; MAX_LANES]; 3],
        c1: [[0; MAX_LANES]; 3],
        t0: [[0.0; MAX_LANES]; 3],
        fade: [[0.0; MAX_LANES]; 3],
    };
    // Per block of a group, per column, its values (lanes: rows), each
    // stored as a whole pack whose lanes past the part the next overwrites.
    let mut columns = [0.0f32; NARROW_GROUP * NARROW_ROWS_BELOW * MAX_PART_LANES + MAX_LANES];
    let group_rows = NARROW_GROUP * part_lanes;
    let mut tile = [0.0f32; NARROW_GROUP * NARROW_ROWS_BELOW * MAX_PART_LANES];
    // The other axes' sample indices of the next row (axis 1 fastest).
    let mut index = [0usize; 3];
    let mut rest = first_row;
    for (o, a) in axes[1..].iter().enumerate() {
        index[o] = rest % a.len;
        rest /= a.len;
    }
    let one = s.part(s.splat(1.0), 0);
    for group in out.chunks_mut(group_rows * nx) {
        for (block, out) in group.chunks_mut(part_lanes * nx).enumerate() {
            let block_rows = out.len() / nx;
            let y = axes[1];
            let corners = if D == 2 && index[0] + n <= y.c0.len() {
                // The block's rows are consecutive samples of y: read in place
                // (every per-sample array of an axis is padded alike).
                let i = index[0];
                index[0] += block_rows;
                column_corners::<S, H, D>(
                    s,
                    &NarrowLanes {
                        c0: [&y.c0[i..]; 3],
                        c1: [&y.c1[i..]; 3],
                        t0: [&y.t0[i..]; 3],
                        fade: [&x.other_fades[0][i..]; 3],
                    },
                )
            } else {
                for j in 0..block_rows {
                    for (o, a) in axes[1..].iter().enumerate() {
                        let i = index[o];
                        gathered.c0[o][j] = a.c0[i];
                        gathered.c1[o][j] = a.c1[i];
                        gathered.t0[o][j] = a.t0[i];
                        gathered.fade[o][j] = x.other_fades[o][i];
                    }
                    // The next row: an odometer over the other axes.
                    for (o, a) in axes[1..].iter().enumerate() {
                        index[o] += 1;
                        if index[o] < a.len {
                            break;
                        }
                        index[o] = 0;
                    }
                }
                column_corners::<S, H, D>(s, &gathered.lanes())
            };
            coeff.clear();
            for &cell in &x.planes[..count] {
                let (cells, _) = H::splat_cells(s, cell, cell);
                let (a, b) = planes::<S, K, H, D>(s, r, cells, &corners, 1);
                coeff.push([s.part(a, 0), s.part(b, 0)]);
            }
            // Each column's x values are the same on every row (lane).
            for (i, &(lo, hi)) in sample_planes.iter().enumerate() {
                let ([a0, b0], [a1, b1]) = (coeff[lo], coeff[hi]);
                let x0 = s.part(s.splat(x.x0[i]), 0);
                let d0 = a0 * x0 + b0;
                let d1 = a1 * (x0 - one) + b1;
                let u = s.part(s.splat(x.u[i]), 0);
                let mut v = s.splat(0.0);
                s.set_part(&mut v, 0, d0 + u * (d1 - d0));
                let at = (block * nx + i) * part_lanes;
                s.store(v, &mut columns[at..at + n]);
            }
        }
        // The group's rows in order, once its columns are stored: per
        // column, its samples into a tile of the group, then the tile into
        // the output. (Read back at once, the narrow loads waited on the
        // wide stores; stored straight into the output column by column,
        // they missed the cache.)
        let tile = &mut tile[..group.len()];
        for (block, tile) in tile.chunks_mut(part_lanes * nx).enumerate() {
            let block_rows = tile.len() / nx;
            for i in 0..nx {
                let at = (block * nx + i) * part_lanes;
                for (j, &c) in columns[at..at + block_rows].iter().enumerate() {
                    tile[j * nx + i] = c;
                }
            }
        }
        group.copy_from_slice(tile);
    }
}

/// The coefficients `[A, B]` of the x lattice planes `cells` (one per lane)
/// on one row: `A = Σ W·G0[h]`, `B = Σ W·(G1[h]·y + G2[h]·z + …)` over the
/// corners of the other axes, in corner order (value noise: `A = 0`,
/// `B = Σ W·height(h)`). Only the first `parts` parts (registers) are
/// computed; the lanes of the others are left 0.
#[allow(clippy::needless_range_loop)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn planes<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    cells: H::Cell<S>,
    w: &RowCorners<S, H>,
    parts: usize,
) -> (S::F, S::F) {
    let corners = 1 << (D - 1);
    // The planes are the lower x cells of `D`-dimensional corners (index
    // bit 0 clear); the upper x cells' hashes are never read.
    let mut all = [(cells, cells); D];
    all[1..D].copy_from_slice(&w.cells[..D - 1]);
    let pack = H::pack_work::<S, D>(s, r, &all);
    let zero = s.splat(0.0);
    let (mut a_out, mut b_out) = (zero, zero);
    super::for_each_part!(S, D, |k| {
        if k >= parts {
            // The remaining parts hold no planes.
            return (a_out, b_out);
        }
        let hash = H::part_hashes::<S, D, false>(s, r, &pack, k);
        let mut a = s.part(zero, k);
        let mut b = a;
        for corner in 0..corners {
            let weight = w.weight[corner];
            let (g0, rest) = K::plane_terms::<S, H, D>(s, hash[corner << 1], corner, &w.offsets);
            a = a + weight * g0;
            b = b + weight * rest;
        }
        s.set_part(&mut a_out, k, a);
        s.set_part(&mut b_out, k, b);
    });
    (a_out, b_out)
}

/// Rows `first_row..` of a grid by coefficients (see the module docs).
pub(crate) struct FillRowsByCells<'a, K, const D: usize> {
    pub(crate) hash_mode: HashModeRef<'a>,
    /// The corner kind (a zero-sized marker).
    pub(crate) _corners: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) x: &'a RowAxis,
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
    /// Write rows with non-temporal stores (outputs much larger than cache;
    /// plain stores only).
    pub(crate) streaming: bool,
}

impl<K: Corners, const D: usize> Job for FillRowsByCells<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        self.hash_mode.run(s, self)
    }
}

impl<K: Corners, S: Simd, const D: usize> WithHashMode<S> for FillRowsByCells<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: HashModeKernel>(self, s: S, p: &H::Ready<'_, S>) {
        let (axes, x) = (self.axes, self.x);
        // Huge outputs are streamed out `direct`ly or through scratch
        // (`streaming`); see `STREAM_DIRECTLY_FROM`.
        let stream = self.streaming;
        let direct = stream && D >= STREAM_DIRECTLY_FROM;
        let streaming = stream && !direct;
        let nx = axes[0].len;
        if nx == 0 {
            return;
        }
        if D >= 2 && nx < NARROW_ROWS_BELOW {
            // Outlined: inline, it slowed the rows of every wider grid.
            let (first_row, out) = (self.first_row, self.out);
            let rows = NarrowRows::<K, S, H, D> {
                r: p,
                x,
                axes,
                first_row,
                out,
                _corners: std::marker::PhantomData,
            };
            return s.outlined(rows);
        }
        // Rows go in blocks of `BLOCK_ROWS`, each evaluated strip by strip,
        // so a strip's per-sample x values stay in L1 while its rows are
        // evaluated. The per-plane coefficients of the next block's rows are
        // computed while the first strip is evaluated (their hash chains
        // are latency-bound; the evaluation is throughput-bound).
        let width = x.planes.len() + PLANE_WINDOW;
        let rows = self.out.len() / nx;
        // One allocation (fractal octaves call this per block): per row of a
        // block (fewer for fewer rows), `width` values of `A`, then of `B`.
        let block_len = BLOCK_ROWS.min(rows) * 2 * width;
        let mut coeff = Scratch::filled(2 * block_len, 0.0f32);
        // Strips are computed here, then streamed out, when `streaming`;
        // two of them, so a strip is streamed out after the next one is
        // evaluated and its loads never wait on stores still in flight.
        let scratch_len = if streaming { nx.min(STRIP_SAMPLES) } else { 0 };
        let mut scratch = [0, 1].map(|_| Scratch::filled(scratch_len, 0.0f32));
        // The place in `out` of the strip waiting in `scratch[1 - current]`.
        let mut pending: Option<std::ops::Range<usize>> = None;
        let mut current = 0;
        let out = self.out;
        // Pass `b` evaluates block `b − 1` and computes block `b`'s
        // coefficients (pass 0 only computes, the last only evaluates).
        let blocks = rows.div_ceil(BLOCK_ROWS);
        for pass in 0..=blocks {
            let (even, odd) = coeff.split_at_mut(block_len);
            let (computed, evaluated) = match pass % 2 {
                0 => (even, &*odd),
                _ => (odd, &*even),
            };
            let rows_from = |block: usize| BLOCK_ROWS.min(rows - block * BLOCK_ROWS);
            let new_rows = if pass < blocks { rows_from(pass) } else { 0 };
            let (block, block_rows) = match pass {
                0 => (0, 0),
                _ => ((pass - 1) * BLOCK_ROWS, rows_from(pass - 1)),
            };
            for start in (0..nx).step_by(STRIP_SAMPLES) {
                let len = STRIP_SAMPLES.min(nx - start);
                for r in 0..BLOCK_ROWS {
                    if r < block_rows {
                        let at = (block + r) * nx + start;
                        let [first, second] = &mut scratch;
                        let (current_scratch, waiting) = match current {
                            0 => (first, &*second),
                            _ => (second, &*first),
                        };
                        let target = match streaming {
                            true => &mut current_scratch[..len],
                            false => &mut out[at..at + len],
                        };
                        let row_coeff = &evaluated[r * 2 * width..(r + 1) * 2 * width];
                        evaluate_row(s, x, row_coeff, target, start, direct);
                        if streaming {
                            if let Some(done) = pending.replace(at..at + len) {
                                s.copy_streaming(&waiting[..done.len()], &mut out[done]);
                            }
                            current = 1 - current;
                        }
                    }
                    if start == 0 && r < new_rows {
                        let row = self.first_row + pass * BLOCK_ROWS + r;
                        let row_coeff = &mut computed[r * 2 * width..(r + 1) * 2 * width];
                        row_coefficients::<S, K, H, D>(s, p, x, axes, row, row_coeff);
                    }
                }
                if block_rows == 0 {
                    break;
                }
            }
        }
        if let Some(done) = pending {
            s.copy_streaming(&scratch[1 - current][..done.len()], &mut out[done]);
        }
        if streaming || direct {
            s.store_fence();
        }
    }
}

/// The per-plane coefficients `[A, B]` of grid row `row` (see [`planes`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn row_coefficients<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &RowAxis,
    axes: [&AxisSamples; D],
    row: usize,
    coeff: &mut [f32],
) {
    let (a_out, b_out) = coeff.split_at_mut(coeff.len() / 2);
    let mut others = [(0u32, 0u32, 0.0f32, 0.0f32); 3];
    let mut rest = row;
    for d in 1..D {
        let a = axes[d];
        let i = rest % a.len;
        rest /= a.len;
        others[d - 1] = (a.c0[i], a.c1[i], a.t0[i], x.other_fades[d - 1][i]);
    }
    let corners = row_corners::<S, H, D>(s, &others);
    let (n, part_lanes) = (S::LANES, S::LANES / S::PARTS);
    for at in (0..x.plane_count).step_by(n) {
        let cells = &x.planes[at..at + n];
        let (cells, _) = H::staged(s, cells, cells);
        let parts = (x.plane_count - at).div_ceil(part_lanes);
        let (a, b) = planes::<S, K, H, D>(s, r, cells, &corners, parts);
        s.store(a, &mut a_out[at..at + n]);
        s.store(b, &mut b_out[at..at + n]);
    }
}

/// The `PLANE_WINDOW` per-plane values starting at plane `first`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn window(values: &[f32], first: usize) -> &[f32; PLANE_WINDOW] {
    values[first..first + PLANE_WINDOW].try_into().unwrap()
}

/// Samples `start..start + out.len()` of one row from the row's per-plane
/// coefficients: `lerp(u, A0·x0 + B0, A1·x1 + B1)`, each lane's coefficients
/// picked by its planes relative to its block's first, stored into `out`
/// (whole packs with non-temporal stores when `streaming`). `start` is a
/// multiple of `MAX_LANES`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn evaluate_row<S: Simd>(
    s: S,
    x: &RowAxis,
    coeff: &[f32],
    out: &mut [f32],
    start: usize,
    streaming: bool,
) {
    let (a_all, b_all) = coeff.split_at(coeff.len() / 2);
    // One loop per window granule, so each keeps its values in registers.
    if let (Some(narrow), true) = (&x.narrow, S::LANES / S::PARTS <= NARROW_GRANULE) {
        let n = S::LANES;
        for (k, dst) in out.chunks_mut(n).enumerate() {
            let at = start + k * n;
            let v = narrow_pack_values(s, x, narrow, a_all, b_all, at);
            if streaming && dst.len() == n {
                s.store_streaming(v, dst);
            } else {
                store_pack(s, v, dst);
            }
        }
    } else if x.granule == MAX_LANES {
        row_packs::<S, false>(s, x, a_all, b_all, out, start, streaming);
    } else {
        row_packs::<S, true>(s, x, a_all, b_all, out, start, streaming);
    }
}

/// [`evaluate_row`]'s loop over the packs, with one window per part when
/// `FINE` (see [`pack_values`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn row_packs<S: Simd, const FINE: bool>(
    s: S,
    x: &RowAxis,
    a_all: &[f32],
    b_all: &[f32],
    out: &mut [f32],
    start: usize,
    streaming: bool,
) {
    let n = S::LANES;
    for (k, dst) in out.chunks_mut(n).enumerate() {
        let at = start + k * n;
        let v = pack_values::<S, FINE>(s, x, a_all, b_all, at);
        if streaming && dst.len() == n {
            s.store_streaming(v, dst);
        } else {
            store_pack(s, v, dst);
        }
    }
}

/// Samples `at..at + S::LANES` of a row from its per-plane coefficients
/// `a_all`, `b_all`: `lerp(u, A0·x0 + B0, A1·x1 + B1)`, each lane's
/// coefficients picked by its planes relative to its granule's first, from
/// one window per pack, or per part when `FINE`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn pack_values<S: Simd, const FINE: bool>(
    s: S,
    x: &RowAxis,
    a_all: &[f32],
    b_all: &[f32],
    at: usize,
) -> S::F {
    let n = S::LANES;
    // The granule is `FINE_GRANULE` exactly when `FINE`: constant divisors.
    let granule = if FINE { FINE_GRANULE } else { MAX_LANES };
    let first = x.first_plane[at / granule];
    let (mut a, mut b) = (window(a_all, first), window(b_all, first));
    let lower = s.load_cells(&x.lower[at..at + n]);
    let upper = s.load_cells(&x.upper[at..at + n]);
    let x0 = s.load(&x.x0[at..at + n]);
    let x1 = x0 - s.splat(1.0);
    let mut v = s.load(&x.u[at..at + n]);
    let part_lanes = n / S::PARTS;
    super::for_each_part!(S, |q| {
        if FINE {
            let first = x.first_plane[(at + q * part_lanes) / FINE_GRANULE];
            (a, b) = (window(a_all, first), window(b_all, first));
        }
        let (lo, hi) = (s.hashes(lower, q), s.hashes(upper, q));
        let d0 = s.table32(a, lo) * s.part(x0, q) + s.table32(b, lo);
        let d1 = s.table32(a, hi) * s.part(x1, q) + s.table32(b, hi);
        let u = s.part(v, q);
        s.set_part(&mut v, q, d0 + u * (d1 - d0));
    });
    v
}

/// [`pack_values`] from narrow windows (parts of at most 8 lanes): each
/// part's granules of 8 samples look their coefficients up in a window of
/// 8 planes. The same coefficients, the same arithmetic: the same bits.
#[cfg_attr(not(debug_assertions), inline(always))]
fn narrow_pack_values<S: Simd>(
    s: S,
    x: &RowAxis,
    narrow: &NarrowWindows,
    a_all: &[f32],
    b_all: &[f32],
    at: usize,
) -> S::F {
    let n = S::LANES;
    let lower = s.load_cells(&narrow.lower[at..at + n]);
    let upper = s.load_cells(&narrow.upper[at..at + n]);
    let x0 = s.load(&x.x0[at..at + n]);
    let x1 = x0 - s.splat(1.0);
    let mut v = s.load(&x.u[at..at + n]);
    let part_lanes = n / S::PARTS;
    super::for_each_part!(S, |q| {
        let first = narrow.first_plane[(at + q * part_lanes) / NARROW_GRANULE];
        let a: &[f32; NARROW_WINDOW] = a_all[first..first + NARROW_WINDOW].try_into().unwrap();
        let b: &[f32; NARROW_WINDOW] = b_all[first..first + NARROW_WINDOW].try_into().unwrap();
        let (lo, hi) = (s.hashes(lower, q), s.hashes(upper, q));
        let d0 = s.table8(a, lo) * s.part(x0, q) + s.table8(b, lo);
        let d1 = s.table8(a, hi) * s.part(x1, q) + s.table8(b, hi);
        let u = s.part(v, q);
        s.set_part(&mut v, q, d0 + u * (d1 - d0));
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row axis of a 3D grid with `nx` samples at x step `step`, on an
    /// axis of period `period` (2³²: the full-coordinate hash's natural one).
    /// With narrow windows where `narrow_parts` (and they fit).
    fn row_axis(step: f64, nx: usize, period: u64, narrow_parts: bool) -> Option<RowAxis> {
        let xs: Vec<f64> = (0..nx).map(|i| 0.3 + i as f64 * step).collect();
        let mut axes = [xs, vec![0.1, 0.2], vec![0.7]].map(|c| AxisSamples::new(&c, period));
        RowAxis::new(&mut axes, Fade::Quintic, narrow_parts)
    }

    /// Each granule's window holds the planes of its samples: one window per
    /// pack while 64 samples fit, else one per 16 samples, at any step; and
    /// narrow windows of 8 planes per 8 samples up to a step of ¾. Rows whose
    /// cells advance one at a time (planes numbered as consecutive cells)
    /// and rows that skip cells or wrap around a period (planes in order of
    /// use) alike.
    #[test]
    fn windows_cover_their_samples_planes() {
        for (step, period, granule, narrow) in [
            (0.02, 1 << 32, Some(64), true),
            (-0.55, 1 << 32, Some(16), true),
            (0.75, 1 << 32, Some(16), true),
            (-0.75, 1 << 32, Some(16), true),
            (1.9, 1 << 32, Some(16), false),
            (-300.1, 1 << 32, Some(16), false),
            (0.3, 7, Some(64), true),
            (-0.3, 7, Some(64), true),
            (0.75, 5, Some(16), true),
            (-0.02, 3, Some(64), true),
        ] {
            // Levels with wide parts: windows of PLANE_WINDOW planes only.
            let x = row_axis(step, 300, period, false);
            assert_eq!(x.as_ref().map(|x| x.granule), granule, "step {step}");
            let Some(x) = x else { continue };
            assert!(x.narrow.is_none(), "step {step}");
            // Levels with narrow parts: narrow windows where they fit, and
            // then no others.
            let with_narrow = row_axis(step, 300, period, true).unwrap();
            assert_eq!(with_narrow.narrow.is_some(), narrow, "step {step}");
            let expected = if narrow { 0 } else { x.granule };
            assert_eq!(with_narrow.granule, expected, "step {step}");
            assert_eq!(with_narrow.first_plane.is_empty(), narrow, "step {step}");
            for i in 0..300 {
                let cell = (0.3 + i as f64 * step).floor() as i64;
                let cell = cell.rem_euclid(period as i64) as u32;
                let next = ((u64::from(cell) + 1) % period) as u32;
                if let Some(w) = &with_narrow.narrow {
                    let first = w.first_plane[i / NARROW_GRANULE];
                    let planes = [w.lower[i], w.upper[i]].map(|rel| {
                        assert!(usize::from(rel) < NARROW_WINDOW, "step {step}, sample {i}");
                        with_narrow.planes[first + usize::from(rel)]
                    });
                    assert_eq!(planes, [cell, next], "narrow: step {step}, sample {i}");
                }
                let first = x.first_plane[i / x.granule];
                for rel in [x.lower[i], x.upper[i]] {
                    assert!(usize::from(rel) < PLANE_WINDOW, "step {step}, sample {i}");
                    assert!(
                        first + usize::from(rel) < x.plane_count,
                        "step {step}, sample {i}"
                    );
                }
                // The planes are the sample's cells.
                let cells = [
                    x.planes[first + usize::from(x.lower[i])],
                    x.planes[first + usize::from(x.upper[i])],
                ];
                assert_eq!(cells, [cell, next], "step {step}, sample {i}");
            }
        }
    }
}
