//! The small-step grid path for 2D and 3D: rows in bands of one y cell,
//! from per-column coefficients.
//!
//! Along a band of rows (consecutive rows whose y samples lie in one y cell,
//! on one z row in 3D) every column keeps its x cell, its x offsets and its
//! fade, and the corner values are linear in y. So the noise of a column is
//!
//! ```text
//! noise(y) = T0 + v·(T1 − T0)      T0 = P0 + y0·Q0,  T1 = P1 + y1·Q1
//! Pb = lerp(u, GXlo·x0 + Klo, GXhi·x1 + Khi)     Qb = lerp(u, GYlo, GYhi)
//! ```
//!
//! where `b` is the y lattice plane (0: the band's lower cell, 1: its upper
//! one), `lo`/`hi` the column's x lattice planes, `GX`, `GY` the corner
//! gradient's components (in 3D already blended along z with the z row's
//! fade, with `K` the blended `GZ·z` terms; 0 in 2D). Value noise has no
//! slopes: per column the lerps along x of each y (and z) corner's
//! heights, then per row the lerps along y (and z): the point path's
//! operations, so the point path's bits.
//!
//! Per band: the corner gradients of each x plane of the row (hashed in
//! vectors whose lanes are planes), the column coefficients (each lane
//! reads its planes' terms from its register's window of planes, a table
//! lookup), then every row of the band: 7 vector operations and a store
//! per register of samples. Gradient noise differs from the point path by
//! rounding only (within 4e-7 in `suite/tests/grid.rs`; 4.17e-7 the worst
//! of 10⁹ samples, see `docs/design.md`); the value
//! of a sample depends on its own coordinates alone, never on the window,
//! the tile or the level, so windows and tiles join bit for bit.
//!
//! A 2D window narrower than a register of lanes (and at most
//! [`narrow::NARROW_COLUMNS`] wide) goes by the same bands transposed, its
//! lanes along the rows ([`narrow`]).

use super::grid_rows::AxisSamples;
use super::{Corners, HashModeKernel, HashModeRef, WithHashMode};
use crate::Fade;
use crate::fade::faded;
use crate::scratch::Scratch;
use crate::simd::scalar::Scalar;
use crate::simd::{Job, MAX_LANES, Simd};

mod narrow;

/// Grid rows of `D`-dimensional noise go by bands when both the x and the
/// y step are at most `MAX_BAND_STEP[D - 1]` (0: never).
pub(crate) const MAX_BAND_STEP: [f64; 4] = [0.0, 0.25, 0.25, 0.0];

/// Planes a register's samples use at most at x steps up to ¼ (a window
/// read by `table8`); registers that span more (see `BandAxis::wide`) take
/// their coefficients lane by lane.
const WINDOW: usize = 8;

/// The x axis of a grid by bands, made for registers of `part` lanes: per
/// column its offset and fade, the x lattice planes in order of use, and
/// per register its first plane and per column its two planes relative to
/// it.
pub(crate) struct BandAxis {
    len: usize,
    part: usize,
    /// Per column, x's fade (of the x axis's offsets, padded to whole
    /// packs).
    u: Scratch<f32>,
    /// The planes' cells, padded with zeros to whole packs.
    planes: Scratch<u32>,
    /// The planes used (before padding).
    plane_count: usize,
    /// Per register of columns, its first plane.
    first: Scratch<usize>,
    /// Whether some register spans more than [`WINDOW`] planes.
    wide: bool,
    /// Per column, its lower and upper plane less its register's first.
    lo: Scratch<u8>,
    hi: Scratch<u8>,
    /// Per sample of each other axis (y, then z: empty in 2D), its fade.
    other_fades: [Scratch<f32>; 2],
    /// Per y sample, its band's number (bands in order).
    y_band: Scratch<u32>,
    /// Per band, its end: the first y sample of the next (or the count).
    y_band_end: Scratch<u32>,
}

/// The most floats of corner terms a 3D fill keeps for every y band of a
/// z cell (4 MiB); beyond, each band's terms are hashed again per z row.
const CACHED_TERMS: usize = 1 << 20;

/// The band axis's loops over every column (and y sample), made by the
/// level's plan job: plain loops inlined there, so vectorised at the
/// level's width (at the baseline's, in [`BandAxis::new`], they took some 7
/// instructions a column of a one-row window).
pub(crate) struct AxisScan {
    /// Each axis's fades of its offsets (x, y, z; empty past the grid's).
    faded: [Scratch<f32>; 3],
    /// Whether x's cells rise by at most one per column, each upper cell
    /// the next (every row without a period, or within one): then `lo`,
    /// `hi` and `first` hold each column's planes, numbered from the first
    /// column's cell, and `span` the most planes a register uses.
    rising: bool,
    lo: Scratch<u8>,
    hi: Scratch<u8>,
    first: Scratch<usize>,
    span: usize,
    /// Whether y's cells move by at most one per sample, all one way
    /// (`down`: falling), each upper cell the next.
    y_monotone: bool,
    y_down: bool,
}

impl AxisScan {
    /// The scan of the axes' stage 1 `axes` (x first) for registers of
    /// `part` lanes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(axes: &[AxisSamples], fade: Fade, part: usize) -> AxisScan {
        let mut faded: [Scratch<f32>; 3] = Default::default();
        for (faded, axis) in faded.iter_mut().zip(axes) {
            *faded = fades(fade, &axis.t0);
        }
        let x = &axes[0];
        let len = x.len;
        let registers = len.div_ceil(part);
        let padded = registers * part + MAX_LANES;
        let (c0, c1) = (&x.c0[..len], &x.c1[..len]);
        let rising = moves_by_one(c0, c1, 1);
        // (Reused, not zeroed: every value is written here or in
        // `BandAxis::new`.)
        let mut lo = Scratch::reused(padded, 0u8);
        let mut hi = Scratch::reused(padded, 0u8);
        // Whole packs of registers (the padding's first plane is 0).
        let mut first = Scratch::reused(registers.div_ceil(MAX_LANES) * MAX_LANES, 0);
        first[registers..].fill(0);
        let mut span = 0;
        if rising {
            let start = c0.first().copied().unwrap_or(0);
            for (first, cells) in first.iter_mut().zip(c0.chunks(part)) {
                *first = cells[0].wrapping_sub(start) as usize;
            }
            // Each column's plane less its register's first (at most
            // `part - 1`: the cells rise by one at most).
            match part {
                16 => lower_planes::<16>(c0, &mut lo),
                8 => lower_planes::<8>(c0, &mut lo),
                4 => lower_planes::<4>(c0, &mut lo),
                _ => {
                    for (lo, cells) in lo.chunks_mut(part).zip(c0.chunks(part)) {
                        for (lo, &c) in lo.iter_mut().zip(cells) {
                            *lo = c.wrapping_sub(cells[0]) as u8;
                        }
                    }
                }
            }
            for (hi, &lo) in hi.iter_mut().zip(&lo[..len]) {
                *hi = lo + 1;
            }
            span = lo[..len].iter().fold(0, |m, &l| m.max(l)) as usize + 2;
        }
        let y = &axes[1];
        let (yc0, yc1) = (&y.c0[..y.len], &y.c1[..y.len]);
        let start = yc0.first().copied().unwrap_or(0);
        let last = yc0.last().copied().unwrap_or(0);
        let y_down = (last.wrapping_sub(start) as i32) < 0;
        let step = if y_down { u32::MAX } else { 1 };
        AxisScan {
            faded,
            rising,
            lo,
            hi,
            first,
            span,
            y_monotone: moves_by_one(yc0, yc1, step),
            y_down,
        }
    }
}

impl BandAxis {
    /// The band axis of a grid whose axes' stage 1 is `axes` (x first),
    /// from their scan `scan` (made by the level's plan job, with its
    /// vectors), for registers of `part` lanes (at most 16): the planes and
    /// the y bands. Plain loops, once per fill, compiled once, not per
    /// level (inlined into the level's plan job whole, the library's build
    /// took 1.7% longer).
    #[inline(never)]
    pub(crate) fn new(axes: &[AxisSamples], scan: AxisScan, part: usize) -> BandAxis {
        let x = &axes[0];
        let len = x.len;
        let (c0, c1) = (&x.c0[..len], &x.c1[..len]);
        let AxisScan {
            faded,
            rising,
            mut lo,
            mut hi,
            mut first,
            mut span,
            y_monotone: monotone,
            y_down: down,
        } = scan;
        let mut planes: Scratch<u32> = Scratch::with_capacity(2 * len + MAX_LANES + WINDOW);
        if rising {
            // The planes are the cells from the first column's on.
            let start = c0.first().copied().unwrap_or(0);
            let count = c0.last().map_or(0, |&c| c.wrapping_sub(start) as usize + 2);
            planes.extend((0..count as u32).map(|p| start.wrapping_add(p)));
        } else {
            let (lower_of, upper_of) = planes_by_segments(c0, c1, &mut planes);
            let registers = lower_of.chunks(part).zip(upper_of.chunks(part));
            let out = lo
                .chunks_mut(part)
                .zip(hi.chunks_mut(part))
                .zip(first.iter_mut());
            let mut widest = 0;
            for ((lower, upper), ((lo, hi), first)) in registers.zip(out) {
                let low = lower.iter().chain(upper).fold(u32::MAX, |m, &v| m.min(v));
                let high = lower.iter().chain(upper).fold(0, |m, &v| m.max(v));
                widest = widest.max(high as usize - low as usize + 1);
                *first = low as usize;
                for (lo, &l) in lo.iter_mut().zip(lower) {
                    *lo = (l - low) as u8;
                }
                for (hi, &u) in hi.iter_mut().zip(upper) {
                    *hi = (u - low) as u8;
                }
            }
            span = widest;
        }
        lo[len..].fill(0);
        hi[len..].fill(0);
        let wide = span > WINDOW;
        let plane_count = planes.len();
        planes.resize(plane_count.div_ceil(MAX_LANES) * MAX_LANES + WINDOW, 0);
        // x's offsets are its samples' (padded to whole packs of 16 lanes).
        let [u, y_fades, z_fades] = faded;
        let other_fades = [y_fades, z_fades];
        // The y bands: runs of samples in one y cell. (Reused, not zeroed:
        // every value is written.)
        let (yc0, yc1) = (&axes[1].c0[..axes[1].len], &axes[1].c1[..axes[1].len]);
        let ny = yc0.len();
        let mut y_band = Scratch::reused(ny, 0u32);
        // Per band, one past its last sample: every sample writes its
        // band's end (no branch), the last one's stays.
        let mut y_band_end = Scratch::reused(ny + 1, 0u32);
        // Cells that move by at most one per sample, all one way, each
        // upper cell the next (every axis without a period, or within
        // one): a sample's band is its cell less the first's (a vectorised
        // loop). Otherwise bands are counted sample by sample.
        let start = yc0.first().copied().unwrap_or(0);
        let mut band = 0;
        if monotone {
            for (y_band, &c) in y_band.iter_mut().zip(yc0) {
                let d = c.wrapping_sub(start);
                *y_band = if down { d.wrapping_neg() } else { d };
            }
            band = y_band.last().copied().unwrap_or(0);
        } else {
            let mut previous = (start, yc1.first().copied().unwrap_or(0));
            for ((y_band, &c0), &c1) in y_band.iter_mut().zip(yc0).zip(yc1) {
                band += u32::from((c0 != previous.0) | (c1 != previous.1));
                previous = (c0, c1);
                *y_band = band;
            }
        }
        band_ends(&y_band, &mut y_band_end);
        y_band_end.truncate(band as usize + 1);
        if ny == 0 {
            y_band_end[0] = 0;
        }
        BandAxis {
            len,
            part,
            u,
            planes,
            plane_count,
            first,
            wide,
            lo,
            hi,
            other_fades,
            y_band,
            y_band_end,
        }
    }

    /// How many y bands the grid has.
    fn y_bands(&self) -> usize {
        self.y_band_end.len()
    }

    /// Whether a `dims`-D grid on this axis goes transposed ([`narrow`]):
    /// windows narrower than a register (measured: at AVX2 8 columns were
    /// 1.2 times slower transposed, 2 columns 1.4 times faster; at AVX-512
    /// 8 columns 1.4 times faster), unless streamed.
    fn transposed(&self, dims: usize, streaming: bool) -> bool {
        let narrow = self.len < self.part.min(narrow::NARROW_COLUMNS + 1);
        dims == 2 && narrow && !self.wide && !streaming
    }

    /// Whether [`FillRowsByBands`] can add its rows into the output
    /// (`add`): every grid but the transposed ones.
    pub(crate) fn can_add(&self, dims: usize) -> bool {
        !self.transposed(dims, false)
    }
}

/// Per band, one past its last sample, into `ends`, from the samples'
/// bands `band`: numbers from 0 that rise by 0 or 1 per sample. Each run
/// of `END_CHUNK` samples is compared with the next samples at once, and
/// only the bands that end in it are written. A 2-column window's y axis
/// took some 9 instructions a sample when every sample wrote its band's
/// end, this about 3 (callgrind, AVX2: 2 × 16777216 fBm went from 173 to
/// 144 instructions a sample with the narrow path's changes; skipping
/// runs in one band and writing the others' ends without a branch, 159,
/// in the same time).
#[cfg_attr(not(debug_assertions), inline(always))]
fn band_ends(band: &[u32], ends: &mut [u32]) {
    const END_CHUNK: usize = 16;
    let Some(&last) = band.last() else {
        return;
    };
    let mut put = |j: usize| {
        if let Some(end) = ends.get_mut(band[j] as usize) {
            *end = j as u32 + 1;
        }
    };
    // Sample `j` ends its band when the next sample's differs.
    let (this, next) = (&band[..band.len() - 1], &band[1..]);
    let runs = this
        .chunks_exact(END_CHUNK)
        .zip(next.chunks_exact(END_CHUNK));
    let mut at = 0;
    for (this, next) in runs {
        let mut mask = 0u32;
        for (i, (a, b)) in this.iter().zip(next).enumerate() {
            mask |= u32::from(a != b) << i;
        }
        while mask != 0 {
            put(at + mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
        at += END_CHUNK;
    }
    for j in at..this.len() {
        if this[j] != next[j] {
            put(j);
        }
    }
    if let Some(end) = ends.get_mut(last as usize) {
        *end = band.len() as u32;
    }
}

/// Whether cells `c0` stay or move by `step` (1: up, `u32::MAX`: down) from
/// each sample to the next, each upper cell `c1` the next cell. Folds of
/// integer operations over slices, without an early exit or booleans:
/// vectorised (a move `d` is 0 or `step` exactly when `d + bias`, with
/// `bias` 1 going down, is 0 or 1).
#[cfg_attr(not(debug_assertions), inline(always))]
fn moves_by_one(c0: &[u32], c1: &[u32], step: u32) -> bool {
    debug_assert!((step == 1 || step == u32::MAX) && c0.len() == c1.len());
    let bias = u32::from(step == u32::MAX);
    let (Some(&a), Some(&u)) = (c0.last(), c1.last()) else {
        return true;
    };
    // One pass: each sample's pair and its move to the next; the last
    // sample's pair apart.
    let bad = c0
        .iter()
        .zip(&c0[1..])
        .zip(c1)
        .fold(u ^ a.wrapping_add(1), |bad, ((&a, &b), &u)| {
            bad | (u ^ a.wrapping_add(1)) | (b.wrapping_sub(a).wrapping_add(bias) & !1)
        });
    bad == 0
}

/// The x planes of columns whose cells are `c0`, `c1` in order of use,
/// appended to `planes`, and per column its lower and upper planes: a
/// segment (a run of columns in one cell) shares a plane with the one
/// before where their cells meet (either way, or across a period's wrap),
/// else takes new ones.
fn planes_by_segments(
    c0: &[u32],
    c1: &[u32],
    planes: &mut Scratch<u32>,
) -> (Scratch<u32>, Scratch<u32>) {
    let len = c0.len();
    let mut lower_of = Scratch::with_capacity(len);
    let mut upper_of = Scratch::with_capacity(len);
    let (mut lower, mut upper) = (0u32, 0u32);
    for i in 0..len {
        let (a, b) = (c0[i], c1[i]);
        if i == 0 {
            planes.extend([a, b]);
            (lower, upper) = (0, 1);
        } else if (a, b) != (c0[i - 1], c1[i - 1]) {
            let (p0, p1) = (c0[i - 1], c1[i - 1]);
            let next = planes.len() as u32;
            (lower, upper) = if a == p1 {
                planes.push(b);
                (upper, next)
            } else if b == p0 {
                planes.push(a);
                (next, lower)
            } else {
                planes.extend([a, b]);
                (next, next + 1)
            };
        }
        lower_of.push(lower);
        upper_of.push(upper);
    }
    (lower_of, upper_of)
}

/// Per column, its cell less the first cell of its register of `P`
/// columns, for cells that rise by at most one per column (so below `P`):
/// the low bytes of the cells (the difference mod 256 is the difference),
/// then each register's first byte subtracted. Two loops the compiler
/// vectorises (one subtracting in `u32` per register was not: 3
/// instructions a column, now about 1).
#[cfg_attr(not(debug_assertions), inline(always))]
fn lower_planes<const P: usize>(c0: &[u32], lo: &mut [u8]) {
    let lo = &mut lo[..c0.len()];
    for (lo, &c) in lo.iter_mut().zip(c0) {
        *lo = c as u8;
    }
    let mut registers = lo.chunks_exact_mut(P);
    for lo in &mut registers {
        let lo: &mut [u8; P] = lo.try_into().unwrap();
        let base = lo[0];
        for l in lo.iter_mut() {
            *l = l.wrapping_sub(base);
        }
    }
    let tail = registers.into_remainder();
    let base = tail.first().copied().unwrap_or(0);
    for l in tail {
        *l = l.wrapping_sub(base);
    }
}

/// The fade of every offset in `t`, in a loop for each fade (chosen once,
/// so the loop is a few vector operations per 4 or 8 offsets); the row
/// paths' too.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn fades(fade: Fade, t: &[f32]) -> Scratch<f32> {
    // (Reused, not zeroed: every value is written.)
    let mut out = Scratch::reused(t.len(), 0.0);
    let pairs = out.iter_mut().zip(t);
    match fade {
        Fade::Quintic => pairs.for_each(|(o, &t)| *o = faded(Scalar, Fade::Quintic, t)),
        Fade::Cubic => pairs.for_each(|(o, &t)| *o = faded(Scalar, Fade::Cubic, t)),
        Fade::Cosine => pairs.for_each(|(o, &t)| *o = faded(Scalar, Fade::Cosine, t)),
        Fade::Linear => out.copy_from_slice(t),
    }
    out
}

/// Rows `first_row..` of a 2D or 3D grid by bands (see the module docs).
pub(crate) struct FillRowsByBands<'a, K, const D: usize> {
    pub(crate) hash_mode: HashModeRef<'a>,
    /// The corner kind (a zero-sized marker).
    pub(crate) _corners: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) x: &'a BandAxis,
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
    /// Write whole packs with non-temporal stores (outputs much larger
    /// than the caches).
    pub(crate) streaming: bool,
    /// `Some(a)`: add `a ·` each sample to the value in `out` (a fractal's
    /// octave folded in the row pass: the fold's operations, `out + a·v`,
    /// so its bits), not streamed, and only where [`BandAxis::can_add`].
    pub(crate) add: Option<f32>,
}

impl<K: Corners, const D: usize> Job for FillRowsByBands<'_, K, D> {
    type Output = ();

    /// The band loop: generic over the level, the corner kind and the
    /// dimension; the hash mode enters in [`PlaneTerms`] alone, so the
    /// rows and the coefficients are compiled once for both modes.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        const { assert!(D == 2 || D == 3) };
        let (x, axes) = (self.x, self.axes);
        let nx = x.len;
        let n = S::LANES / S::PARTS;
        debug_assert_eq!(x.part, n);
        if nx == 0 || self.out.is_empty() {
            return;
        }
        debug_assert!(self.add.is_none() || (x.can_add(D) && !self.streaming));
        if x.transposed(D, self.streaming) {
            let modes = (self.hash_mode, self._corners);
            let axes = [axes[0], axes[1]];
            return narrow::narrow_rows::<S, K>(s, modes, x, axes, self.first_row, self.out);
        }
        let rows = self.out.len() / nx;
        let planes = x.planes.len();
        let corners = 1 << (D - 1);
        // One buffer: the corner terms, in 3D those blended along z, and
        // per register of columns its coefficients (`[P0, Q0, P1, Q1]`,
        // `n` lanes each).
        let terms_len = corners * 3 * planes;
        // 3D: the terms of every y band of the current z cell, when they fit.
        let slots = match D == 3 && x.y_bands() * terms_len <= CACHED_TERMS {
            true => x.y_bands(),
            false => 1,
        };
        let blended_len = if D == 3 && K::SLOPED {
            2 * 3 * planes
        } else {
            0
        };
        let registers = nx.div_ceil(n);
        let all_terms = slots * terms_len;
        // (Reused, not zeroed: every value a sample reads is written first;
        // what lies past the planes used only fills lanes never stored.)
        let ny = axes[1].len;
        let mut buffer = Scratch::reused(
            all_terms + blended_len + registers.div_ceil(S::PARTS) * S::PARTS * 4 * n,
            0.0f32,
        );
        let (all, rest) = buffer.split_at_mut(all_terms);
        let (blended, columns) = rest.split_at_mut(blended_len);
        let y = axes[1];
        // Per slot, the cells its terms were hashed for.
        // (One slot on the stack: no allocation in 2D.)
        let (mut one, mut many) = ([None], Vec::new());
        let cached: &mut [Option<[u32; 4]>] = match slots {
            1 => &mut one,
            _ => {
                many.resize(slots, None);
                &mut many
            }
        };
        let mut r0 = 0;
        while r0 < rows {
            let row = self.first_row + r0;
            let j = row % ny;
            let k = if D == 3 { (row / ny) % axes[2].len } else { 0 };
            // The band: the following rows of this z row in the same y cell.
            let r1 = rows.min(r0 + (x.y_band_end[x.y_band[j] as usize] as usize - j));
            let (cz0, cz1) = if D == 3 {
                (axes[2].c0[k], axes[2].c1[k])
            } else {
                (0, 0)
            };
            let key = [y.c0[j], y.c1[j], cz0, cz1];
            let slot = if slots > 1 { x.y_band[j] as usize } else { 0 };
            let terms = &mut all[slot * terms_len..(slot + 1) * terms_len];
            if cached[slot] != Some(key) {
                let job = PlaneTerms::<K, D> {
                    _corners: self._corners,
                    x,
                    key,
                    terms,
                };
                self.hash_mode.run(s, job);
                cached[slot] = Some(key);
            }
            let terms = &all[slot * terms_len..(slot + 1) * terms_len];
            // z's fade: value noise blends along z last, row by row, in the
            // point path's order; gradient noise's terms are blended here.
            let w = if D == 3 { x.other_fades[1][k] } else { 0.0 };
            let terms: &[f32] = if D == 3 && K::SLOPED {
                blend_along_z(s, terms, (planes, x.plane_count), axes[2].t0[k], w, blended);
                blended
            } else {
                terms
            };
            match x.wide {
                false => column_coefficients::<S, K, D>(s, (x, &axes[0].t0), terms, columns),
                true => column_coefficients_by_lanes::<K, D>((x, &axes[0].t0), terms, columns),
            }
            let band = &mut self.out[r0 * nx..r1 * nx];
            let (t, f) = (&y.t0[j..j + r1 - r0], &x.other_fades[0][j..j + r1 - r0]);
            let store = match (self.streaming, self.add) {
                (true, _) => Store::Streamed,
                (false, None) => Store::Plain,
                (false, Some(a)) => Store::Add(splat(s, a)),
            };
            band_rows::<S, K, D>(s, nx, columns, (t, f, w), band, store);
            r0 = r1;
        }
        if self.streaming {
            s.store_fence();
        }
    }
}

/// [`plane_terms`] as a job of the hash mode: the band loop's one part
/// compiled per hash mode.
struct PlaneTerms<'a, K, const D: usize> {
    _corners: K,
    x: &'a BandAxis,
    key: [u32; 4],
    terms: &'a mut [f32],
}

impl<K: Corners, S: Simd, const D: usize> WithHashMode<S> for PlaneTerms<'_, K, D> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: HashModeKernel>(self, s: S, r: &H::Ready<'_, S>) {
        plane_terms::<S, K, H, D>(s, r, self.x, self.key, self.terms);
    }
}

/// The corner terms of every x plane for the y cells `key[0..2]` and z
/// cells `key[2..4]`, hashed in packs of planes, into `terms`:
/// `[corner][component][plane]` (`corner = b + 2c`, `b` the y plane, `c`
/// the z plane; components x, y, z of the gradient, or the height first).
#[cfg_attr(not(debug_assertions), inline(always))]
fn plane_terms<S: Simd, K: Corners, H: HashModeKernel, const D: usize>(
    s: S,
    r: &H::Ready<'_, S>,
    x: &BandAxis,
    key: [u32; 4],
    terms: &mut [f32],
) {
    let n = S::LANES;
    let part_lanes = n / S::PARTS;
    let planes = x.planes.len();
    let used = x.plane_count;
    let y = H::splat_cells(s, key[0], key[1]);
    let z = H::splat_cells(s, key[2], key[3]);
    for at in (0..used).step_by(n) {
        let cells = &x.planes[at..at + n];
        let (c, _) = H::staged(s, cells, cells);
        let mut pairs = [y; D];
        pairs[0] = (c, c);
        if D == 3 {
            pairs[2] = z;
        }
        let pack = H::pack_work::<S, D>(s, r, &pairs);
        let parts = (used - at).div_ceil(part_lanes);
        super::for_each_part!(S, |q| {
            if q < parts {
                let hashes = H::part_hashes::<S, D, false>(s, r, &pack, q);
                for corner in 0..1 << (D - 1) {
                    let h = hashes[corner << 1];
                    let start = corner * 3 * planes + at;
                    if K::SLOPED {
                        let g = H::gradient::<S, D>(s, h);
                        for (a, &g) in g.iter().enumerate() {
                            let dst = &mut terms[start + a * planes..start + a * planes + n];
                            s.store_part(g, dst, q);
                        }
                    } else {
                        s.store_part(H::height(s, h), &mut terms[start..start + n], q);
                    }
                }
            }
        });
    }
}

/// Per y plane `b`, the gradient terms of the first `used` x planes of a
/// 3D band blended along z at offset `t` and fade `w`, in the layout of
/// `plane_terms`: `[b][x slope, y slope, rest]` (whole registers: the
/// planes past `used` hold whatever their terms make).
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_along_z<S: Simd>(
    s: S,
    terms: &[f32],
    (planes, used): (usize, usize),
    t: f32,
    w: f32,
    blended: &mut [f32],
) {
    let n = S::LANES / S::PARTS;
    let component = |corner: usize, c: usize| &terms[(corner * 3 + c) * planes..][..planes];
    let (t0, t1, w) = (splat(s, t), splat(s, t - 1.0), splat(s, w));
    for b in 0..2 {
        let out = &mut blended[b * 3 * planes..(b + 1) * 3 * planes];
        let (gx, rest) = out.split_at_mut(planes);
        let (gy, rest) = rest.split_at_mut(planes);
        let (near, far) = (b, b + 2);
        let (nx, ny, nz) = (component(near, 0), component(near, 1), component(near, 2));
        let (fx, fy, fz) = (component(far, 0), component(far, 1), component(far, 2));
        for p in (0..used).step_by(n) {
            let (a, c) = (s.load_one(&nx[p..]), s.load_one(&fx[p..]));
            s.store_one(a + w * (c - a), &mut gx[p..]);
            let (a, c) = (s.load_one(&ny[p..]), s.load_one(&fy[p..]));
            s.store_one(a + w * (c - a), &mut gy[p..]);
            let (a, c) = (s.load_one(&nz[p..]) * t0, s.load_one(&fz[p..]) * t1);
            s.store_one(a + w * (c - a), &mut rest[p..]);
        }
    }
}

/// Every register of columns' coefficients, each lane's plane terms read
/// from its register's window of planes: `[P0, Q0, P1, Q1]` (gradients;
/// in 3D with the blended `GZ·z` terms), or the point path's lerps along x
/// of the heights at each corner `(b, c)` of y and z, `L_bc`, as `[L_00,
/// L_10 − L_00, L_01, L_11 − L_01]` (value noise; 2D: the first two).
#[cfg_attr(not(debug_assertions), inline(always))]
fn column_coefficients<S: Simd, K: Corners, const D: usize>(
    s: S,
    (x, t0): (&BandAxis, &[f32]),
    terms: &[f32],
    columns: &mut [f32],
) {
    let n = S::LANES / S::PARTS;
    let planes = x.planes.len();
    let registers = x.len.div_ceil(n);
    // The terms each register reads, as slices of one length, `planes` (so
    // one bounds check covers a register's windows): gradients the x
    // slope, y slope and rest of y planes 0 and 1; heights those of the
    // corners `b + 2c` (past the corners there are, the first again).
    let used = if K::SLOPED { 6 } else { 2 * (D - 1) };
    let component = |i: usize| {
        let i = if i < used { i } else { 0 };
        let c = if K::SLOPED { i } else { 3 * i };
        &terms[c * planes..][..planes]
    };
    let slices: [&[f32]; 6] = std::array::from_fn(component);
    // Per pack of registers, its slices (each checked once; a part's
    // offsets in them are constants).
    let packs = (x.lo.chunks_exact(S::LANES).zip(x.hi.chunks_exact(S::LANES)))
        .zip(x.u.chunks_exact(S::LANES).zip(t0.chunks_exact(S::LANES)))
        .zip(
            x.first
                .chunks_exact(S::PARTS)
                .zip(columns.chunks_exact_mut(S::PARTS * 4 * n)),
        )
        .take(registers.div_ceil(S::PARTS))
        .enumerate();
    for (pack, (((lo, hi), (us, x0s)), (firsts, outs))) in packs {
        let lower = s.load_cells(lo);
        let upper = s.load_cells(hi);
        super::for_each_part!(S, |q| {
            if pack * S::PARTS + q < registers {
                let first = firsts[q];
                let (lo, hi) = (s.hashes(lower, q), s.hashes(upper, q));
                let out = &mut outs[q * 4 * n..(q + 1) * 4 * n];
                let u = s.load_one(&us[q * n..]);
                if K::SLOPED {
                    let x0 = s.load_one(&x0s[q * n..]);
                    let x1 = x0 - splat(s, 1.0);
                    for b in 0..2 {
                        let gx = window(slices[3 * b], first);
                        let mut a = s.table8(gx, lo) * x0;
                        let mut c = s.table8(gx, hi) * x1;
                        if D == 3 {
                            let rest = window(slices[3 * b + 2], first);
                            a = a + s.table8(rest, lo);
                            c = c + s.table8(rest, hi);
                        }
                        let p = a + u * (c - a);
                        let gy = window(slices[3 * b + 1], first);
                        let (g0, g1) = (s.table8(gy, lo), s.table8(gy, hi));
                        let q = g0 + u * (g1 - g0);
                        s.store_one(p, &mut out[2 * b * n..]);
                        s.store_one(q, &mut out[(2 * b + 1) * n..]);
                    }
                } else {
                    for c in 0..D - 1 {
                        let (h0, h1) = (
                            window(slices[2 * c], first),
                            window(slices[2 * c + 1], first),
                        );
                        let (a, b) = (s.table8(h0, lo), s.table8(h0, hi));
                        let l0 = a + u * (b - a);
                        let (a, b) = (s.table8(h1, lo), s.table8(h1, hi));
                        let l1 = a + u * (b - a);
                        s.store_one(l0, &mut out[2 * c * n..]);
                        s.store_one(l1 - l0, &mut out[(2 * c + 1) * n..]);
                    }
                }
            }
        });
    }
}

/// The [`WINDOW`] planes of a component's terms from `first` on.
#[cfg_attr(not(debug_assertions), inline(always))]
fn window(terms: &[f32], first: usize) -> &[f32; WINDOW] {
    terms[first..first + WINDOW].try_into().unwrap()
}

/// [`column_coefficients`] lane by lane, for x axes where some register
/// spans more planes than a window holds (coordinates so far out that
/// consecutive samples skip cells, or periods of one or two cells): the
/// same operations on the same terms, so the same values, in code compiled
/// once per corner kind and dimension rather than per level.
fn column_coefficients_by_lanes<K: Corners, const D: usize>(
    (x, t0): (&BandAxis, &[f32]),
    terms: &[f32],
    columns: &mut [f32],
) {
    let n = x.part;
    let planes = x.planes.len();
    for (i, &x0) in t0.iter().enumerate().take(x.len) {
        let (k, lane) = (i / n, i % n);
        let first = x.first[k];
        let at =
            |corner: usize, c: usize, p: u8| terms[(corner * 3 + c) * planes + first + p as usize];
        let (lo, hi, u) = (x.lo[i], x.hi[i], x.u[i]);
        let out = &mut columns[k * 4 * n..(k + 1) * 4 * n];
        if K::SLOPED {
            let x1 = x0 - 1.0;
            for b in 0..2 {
                let mut a = at(b, 0, lo) * x0;
                let mut c = at(b, 0, hi) * x1;
                if D == 3 {
                    a += at(b, 2, lo);
                    c += at(b, 2, hi);
                }
                let (g0, g1) = (at(b, 1, lo), at(b, 1, hi));
                out[2 * b * n + lane] = a + u * (c - a);
                out[(2 * b + 1) * n + lane] = g0 + u * (g1 - g0);
            }
        } else {
            for c in 0..D - 1 {
                let (a, b) = (at(2 * c, 0, lo), at(2 * c, 0, hi));
                let l0 = a + u * (b - a);
                let (a, b) = (at(2 * c + 1, 0, lo), at(2 * c + 1, 0, hi));
                let l1 = a + u * (b - a);
                out[2 * c * n + lane] = l0;
                out[(2 * c + 1) * n + lane] = l1 - l0;
            }
        }
    }
}

/// `v` on every lane of a part.
#[cfg_attr(not(debug_assertions), inline(always))]
fn splat<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}

/// The most rows of a band a chunk spans.
const ROWS: usize = 64;

/// Bytes of output a chunk of rows spans at most (half of a 32 KiB L1).
const CHUNK_BYTES: usize = 16 << 10;

/// How a band's rows reach the output.
#[derive(Clone, Copy)]
enum Store<P> {
    /// Stored.
    Plain,
    /// Streamed out with non-temporal stores, whole packs at a time.
    Streamed,
    /// `a ·` each sample added to the value there ([`put`]).
    Add(P),
}

/// Puts one register of samples `v` into `dst` as `store` says (not
/// streamed): stored, or `dst + a·v` (a fractal's fold, in its order).
#[cfg_attr(not(debug_assertions), inline(always))]
fn put<S: Simd>(s: S, v: S::P, dst: &mut [f32], store: Store<S::P>) {
    match store {
        Store::Add(a) => s.store_one(s.load_one(dst) + a * v, dst),
        _ => s.store_one(v, dst),
    }
}

/// The rows of one band: `out` holds whole rows, at y offsets `t` with
/// fades `fades` (one each per row), and in 3D z's fade `w`. Four
/// registers of columns at a time, their coefficients held down the band's
/// rows (in chunks of at most [`ROWS`]), each row's offsets and fade
/// broadcast once per group; streamed outputs go row by row instead, whole
/// packs at a time.
#[cfg_attr(not(debug_assertions), inline(always))]
fn band_rows<S: Simd, K: Corners, const D: usize>(
    s: S,
    nx: usize,
    columns: &[f32],
    (t, fades, w): (&[f32], &[f32], f32),
    out: &mut [f32],
    store: Store<S::P>,
) {
    if let Store::Streamed = store {
        return streamed_rows::<S, K, D>(s, nx, columns, (t, fades), w, out);
    }
    let w = splat(s, w);
    let n = S::LANES / S::PARTS;
    let whole = nx / n;
    // Rows per chunk: as many as keep a chunk's output within
    // `CHUNK_BYTES` (a column of registers down more rows than that reaches
    // too many lines at once, and wide rows go faster in row order).
    let rows = (CHUNK_BYTES / (4 * nx)).clamp(1, ROWS);
    let chunks = out
        .chunks_mut(rows * nx)
        .zip(t.chunks(rows).zip(fades.chunks(rows)));
    for (chunk, y) in chunks {
        let mut k = 0;
        // Chunks of few rows (rows wider than `CHUNK_BYTES / 8`) go row by
        // row, each register's coefficients loaded where they are used:
        // holding registers down the rows costs some 50 instructions per
        // group to set up (loads, checks, the rows' count), more than the
        // four loads per register it saves over fewer than 8 rows.
        if y.0.len() < 8 {
            for (row, (&t, &f)) in chunk.chunks_exact_mut(nx).zip(y.0.iter().zip(y.1)) {
                let y = row_inputs(s, t, f, w);
                let registers = row[..whole * n].chunks_exact_mut(n);
                for (dst, c) in registers.zip(columns.chunks_exact(4 * n)) {
                    put(s, sample::<S, K, D>(coefficients(s, c), y), dst, store);
                }
            }
            k = whole;
        }
        // Groups of 4 registers down the rows, then single ones: per row
        // its broadcast inputs are made once per group, and
        // coefficients that do not fit the registers are read as the
        // operations' memory operands.
        while k + 4 <= whole {
            register_group::<S, K, D, 4>(s, k, nx, columns, chunk, y, w, store);
            k += 4;
        }
        while k < whole {
            register_group::<S, K, D, 1>(s, k, nx, columns, chunk, y, w, store);
            k += 1;
        }
        if !nx.is_multiple_of(n) {
            // The last, partial register, through a padded buffer.
            let a = coefficients(s, &columns[whole * 4 * n..]);
            for (row, (&t, &f)) in chunk.chunks_exact_mut(nx).zip(y.0.iter().zip(y.1)) {
                let y = row_inputs(s, t, f, w);
                let mut padded = [0.0f32; MAX_LANES];
                let tail = &mut row[whole * n..];
                let len = tail.len();
                padded[..len].copy_from_slice(tail);
                put(s, sample::<S, K, D>(a, y), &mut padded, store);
                tail.copy_from_slice(&padded[..len]);
            }
        }
    }
}

/// Registers `k..k + G` of a chunk's rows, each row's from the columns'
/// coefficients held across the rows.
#[allow(clippy::too_many_arguments)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn register_group<S: Simd, K: Corners, const D: usize, const G: usize>(
    s: S,
    k: usize,
    nx: usize,
    columns: &[f32],
    chunk: &mut [f32],
    (t, fades): (&[f32], &[f32]),
    w: S::P,
    store: Store<S::P>,
) {
    let n = S::LANES / S::PARTS;
    // (`w` only fills the array until the loads below.)
    let mut c = [[w; 4]; G];
    for (g, c) in c.iter_mut().enumerate() {
        *c = coefficients(s, &columns[(k + g) * 4 * n..]);
    }
    for (row, (&t, &f)) in chunk.chunks_exact_mut(nx).zip(t.iter().zip(fades)) {
        let y = row_inputs(s, t, f, w);
        let dst = &mut row[k * n..(k + G) * n];
        for (dst, &c) in dst.chunks_exact_mut(n).zip(&c) {
            put(s, sample::<S, K, D>(c, y), dst, store);
        }
    }
}

/// [`band_rows`] for outputs much larger than the caches: row by row, whole
/// packs of registers streamed out with non-temporal stores.
#[cfg_attr(not(debug_assertions), inline(always))]
fn streamed_rows<S: Simd, K: Corners, const D: usize>(
    s: S,
    nx: usize,
    columns: &[f32],
    (t, fades): (&[f32], &[f32]),
    w: f32,
    out: &mut [f32],
) {
    let w = splat(s, w);
    let n = S::LANES / S::PARTS;
    let whole = nx / n;
    let packs = whole / S::PARTS;
    let (body_columns, tail_columns) = columns.split_at(whole * 4 * n);
    for ((row, &t), &f) in out.chunks_exact_mut(nx).zip(t).zip(fades) {
        let y = row_inputs(s, t, f, w);
        let (body, tail) = row.split_at_mut(whole * n);
        for (g, dst) in body.chunks_exact_mut(S::LANES).enumerate() {
            let mut pack = s.splat(0.0);
            super::for_each_part!(S, |q| {
                let k = g * S::PARTS + q;
                let c = coefficients(s, &body_columns[k * 4 * n..]);
                s.set_part(&mut pack, q, sample::<S, K, D>(c, y));
            });
            s.store_streaming(pack, dst);
        }
        let done = packs * S::PARTS;
        let rest = body[done * n..].chunks_exact_mut(n);
        for (dst, c) in rest.zip(body_columns[done * 4 * n..].chunks_exact(4 * n)) {
            s.store_one(sample::<S, K, D>(coefficients(s, c), y), dst);
        }
        if !tail.is_empty() {
            let mut padded = [0.0f32; MAX_LANES];
            let c = coefficients(s, tail_columns);
            s.store_one(sample::<S, K, D>(c, y), &mut padded);
            let len = tail.len();
            tail.copy_from_slice(&padded[..len]);
        }
    }
}

/// A row's inputs to [`sample`]: its y offsets `t`, `t − 1` and fade `f`
/// broadcast, and z's fade `w`. (Broadcast from memory where they are
/// used: as cheap as loading them broadcast already.)
#[cfg_attr(not(debug_assertions), inline(always))]
fn row_inputs<S: Simd>(s: S, t: f32, f: f32, w: S::P) -> [S::P; 4] {
    [splat(s, t), splat(s, t - 1.0), splat(s, f), w]
}

/// A register of columns' coefficients (see `column_coefficients`), loaded.
#[cfg_attr(not(debug_assertions), inline(always))]
fn coefficients<S: Simd>(s: S, c: &[f32]) -> [S::P; 4] {
    let n = S::LANES / S::PARTS;
    let c = &c[..4 * n];
    [
        s.load_one(c),
        s.load_one(&c[n..]),
        s.load_one(&c[2 * n..]),
        s.load_one(&c[3 * n..]),
    ]
}

/// One register of a row from its columns' coefficients `c` at y offsets
/// `y0`, `y1`, y's fade `v` and (value noise in 3D) z's fade `w`. (A
/// function, not a closure: closures do not take the level's target
/// features, and their intrinsics would be calls.)
#[cfg_attr(not(debug_assertions), inline(always))]
fn sample<S: Simd, K: Corners, const D: usize>(c: [S::P; 4], [y0, y1, v, w]: [S::P; 4]) -> S::P {
    let [c0, c1, c2, c3] = c;
    if K::SLOPED {
        let t0 = c0 + y0 * c1;
        let t1 = c2 + y1 * c3;
        t0 + v * (t1 - t0)
    } else if D == 3 {
        let near = c0 + v * c1;
        let far = c2 + v * c3;
        near + w * (far - near)
    } else {
        c0 + v * c1
    }
}

#[cfg(test)]
mod tests {
    use super::band_ends;

    /// `band_ends` gives, per band, one past its last sample: the same as
    /// every sample writing its band's end, for bands of every length from
    /// 1 to 40 (ending inside runs of 16 and at their edges), mixed.
    #[test]
    fn band_ends_are_one_past_each_bands_last_sample() {
        let mut shapes: Vec<Vec<usize>> = (1..=40).map(|len| vec![len; 5]).collect();
        shapes.push(vec![16, 1, 15, 17, 3, 32, 1, 1, 1, 48]);
        shapes.push(vec![1]);
        shapes.push(vec![7]);
        shapes.push(vec![]);
        for lengths in shapes {
            let band: Vec<u32> = (lengths.iter().enumerate())
                .flat_map(|(b, &len)| std::iter::repeat_n(b as u32, len))
                .collect();
            let mut expected = vec![0u32; band.len() + 1];
            for (j, &b) in band.iter().enumerate() {
                expected[b as usize] = j as u32 + 1;
            }
            let mut ends = vec![u32::MAX; band.len() + 1];
            band_ends(&band, &mut ends);
            let bands = lengths.len();
            assert_eq!(
                ends[..bands],
                expected[..bands],
                "bands of lengths {lengths:?}"
            );
        }
    }
}
