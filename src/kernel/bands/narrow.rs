//! Narrow 2D windows by bands, transposed: a window narrower than a
//! register of lanes and many rows tall (the command-line tool's windows of a field 2 or
//! 4 samples wide) has lanes along its rows instead of its columns.
//!
//! The band path spends per band (hashing the x planes for the band's y
//! cells, the coefficients of each register of columns) and per row (a
//! register, mostly empty when a row has 2 samples); a window 2 columns
//! wide paid some 70 instructions per sample and octave there (callgrind,
//! AVX2, plan included). So:
//!
//! ```text
//! for each chunk of up to 256 rows:
//!     the y cells of each band in it                 (a band: rows in one y cell)
//!     per x plane, its corner terms for every band   (lanes = bands, hashed in packs)
//!     per column, its coefficients for every band    (lanes = bands)
//!     per register of rows: each lane's band's coefficients (a table lookup),
//!         the rows' y offsets and fades (loads), `sample` per column,
//!         written row by row
//! ```
//!
//! Every value is the band path's: the same terms (the same hashes of the
//! same cells), the coefficients by the same operations with the column's
//! offset and fade on every lane, and `sample` on the same inputs. Only
//! the lanes are arranged otherwise, so the bits are the same, and a
//! narrow window joins its neighbours bit for bit.

use super::{BandAxis, WINDOW, sample, splat};
use crate::kernel::grid_rows::AxisSamples;
use crate::kernel::{Corners, HashModeKernel, HashModeRef, WithHashMode};
use crate::scratch::Scratch;
use crate::simd::{MAX_LANES, Simd};

/// 2D windows of at most this many columns, and fewer than a register's
/// lanes, go transposed.
pub(crate) const NARROW_COLUMNS: usize = 15;

/// Rows whose bands have their terms and coefficients made together.
const CHUNK_ROWS: usize = 256;

/// Rows `first_row..` (y samples) of a narrow 2D window (`x.len` at most
/// [`NARROW_COLUMNS`], no register of columns spanning more than a window
/// of planes) into `out`. Any width up to that gives the band path's
/// bits; the caller picks this path where it is the faster.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn narrow_rows<S: Simd, K: Corners>(
    s: S,
    (hash_mode, corners): (HashModeRef<'_>, K),
    x: &BandAxis,
    [xs, y]: [&AxisSamples; 2],
    first_row: usize,
    out: &mut [f32],
) {
    let nx = x.len;
    let n = S::LANES / S::PARTS;
    debug_assert!(nx > 0 && nx <= NARROW_COLUMNS && !x.wide);
    // The x planes of each column, and the lowest and highest of them.
    let plane = |i: usize, p: u8| x.first[i / n] + p as usize;
    // (Either may be the lower: a period's wrap can number a column's
    // upper plane before its lower one.)
    let both = |i: usize| [plane(i, x.lo[i]), plane(i, x.hi[i])];
    let low = (0..nx).flat_map(both).min().unwrap_or(0);
    let high = (0..nx).flat_map(both).max().unwrap_or(0);
    let comps = if K::SLOPED { 2 } else { 1 };
    // Each per-band array: whole packs of bands, and a table's window past
    // the last band.
    let stride = CHUNK_ROWS.div_ceil(S::LANES) * S::LANES + WINDOW;
    // (Reused, not zeroed: lanes past the chunk's bands are computed from
    // whatever they hold, never read into an output.)
    let mut cells = Scratch::reused(2 * stride, 0u32);
    let mut terms = Scratch::reused((high - low + 1) * 2 * comps * stride, 0.0f32);
    let mut coefficients = Scratch::reused(nx * 4 * stride, 0.0f32);
    let (t, fades) = (&y.t0[..y.len], &x.other_fades[0][..y.len]);
    let rows = out.len() / nx;
    let mut r = 0;
    while r < rows {
        let len = CHUNK_ROWS.min(rows - r);
        let j = first_row + r;
        let b0 = x.y_band[j] as usize;
        let bands = x.y_band[j + len - 1] as usize - b0 + 1;
        // Each band's y cells, from its first row in the chunk.
        let (lower, upper) = cells.split_at_mut(stride);
        for k in 0..bands {
            let b = b0 + k;
            let start = if b == 0 {
                0
            } else {
                x.y_band_end[b - 1] as usize
            };
            let row = start.max(j);
            (lower[k], upper[k]) = (y.c0[row], y.c1[row]);
        }
        let job = NarrowTerms::<K> {
            _corners: corners,
            x,
            planes: (low, high),
            cells: (lower, upper),
            bands,
            stride,
            terms: &mut terms,
        };
        hash_mode.run(s, job);
        for i in 0..nx {
            let (lo, hi) = (plane(i, x.lo[i]) - low, plane(i, x.hi[i]) - low);
            let column = &mut coefficients[i * 4 * stride..(i + 1) * 4 * stride];
            band_coefficients::<S, K>(
                s,
                (&terms, stride),
                (lo, hi),
                (xs.t0[i], x.u[i]),
                bands,
                column,
            );
        }
        let out = &mut out[r * nx..(r + len) * nx];
        chunk_rows::<S, K>(
            s,
            (&coefficients, stride),
            (&t[j..j + len], &fades[j..j + len]),
            &x.y_band[j..j + len],
            nx,
            out,
        );
        r += len;
    }
}

/// The corner terms of the x planes `planes` (inclusive) for the y cells
/// of each of `bands` bands, at `terms[((plane · 2 + b) · comps + a) ·
/// stride + band]`: `b` the band's lower or upper y plane, `a` the
/// gradient's component (or the height).
struct NarrowTerms<'a, K> {
    _corners: K,
    x: &'a BandAxis,
    planes: (usize, usize),
    cells: (&'a [u32], &'a [u32]),
    bands: usize,
    stride: usize,
    terms: &'a mut [f32],
}

impl<K: Corners, S: Simd> WithHashMode<S> for NarrowTerms<'_, K> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: HashModeKernel>(self, s: S, r: &H::Ready<'_, S>) {
        let n = S::LANES;
        let part = n / S::PARTS;
        let comps = if K::SLOPED { 2 } else { 1 };
        let (lower, upper) = self.cells;
        for p in self.planes.0..=self.planes.1 {
            let cell = self.x.planes[p];
            let at_plane = (p - self.planes.0) * 2 * comps;
            for at in (0..self.bands).step_by(n) {
                let pairs = [
                    H::splat_cells(s, cell, cell),
                    H::staged(s, &lower[at..at + n], &upper[at..at + n]),
                ];
                let pack = H::pack_work::<S, 2>(s, r, &pairs);
                let parts = (self.bands - at).div_ceil(part);
                crate::kernel::for_each_part!(S, |q| {
                    if q < parts {
                        let hashes = H::part_hashes::<S, 2, false>(s, r, &pack, q);
                        for b in 0..2 {
                            let h = hashes[b << 1];
                            let start = (at_plane + b * comps) * self.stride + at;
                            if K::SLOPED {
                                let g = H::gradient::<S, 2>(s, h);
                                for (a, &g) in g.iter().enumerate() {
                                    let dst = &mut self.terms[start + a * self.stride..][..n];
                                    s.store_part(g, dst, q);
                                }
                            } else {
                                let dst = &mut self.terms[start..][..n];
                                s.store_part(H::height(s, h), dst, q);
                            }
                        }
                    }
                });
            }
        }
    }
}

/// One column's coefficients for every band (`column[k · stride + band]`,
/// `k` as in `column_coefficients`), from the terms of its planes `lo`,
/// `hi` at its x offset `x0` and fade `u`: `column_coefficients`'
/// operations, with the column on every lane.
#[cfg_attr(not(debug_assertions), inline(always))]
fn band_coefficients<S: Simd, K: Corners>(
    s: S,
    (terms, stride): (&[f32], usize),
    (lo, hi): (usize, usize),
    (x0, u): (f32, f32),
    bands: usize,
    column: &mut [f32],
) {
    let n = S::LANES / S::PARTS;
    let comps = if K::SLOPED { 2 } else { 1 };
    let term =
        |p: usize, b: usize, a: usize| &terms[((p * 2 + b) * comps + a) * stride..][..stride];
    let (x0, u) = (splat(s, x0), splat(s, u));
    let x1 = x0 - splat(s, 1.0);
    for at in (0..bands).step_by(n) {
        if K::SLOPED {
            for b in 0..2 {
                let a = s.load_one(&term(lo, b, 0)[at..]) * x0;
                let c = s.load_one(&term(hi, b, 0)[at..]) * x1;
                let p = a + u * (c - a);
                let (g0, g1) = (
                    s.load_one(&term(lo, b, 1)[at..]),
                    s.load_one(&term(hi, b, 1)[at..]),
                );
                let q = g0 + u * (g1 - g0);
                s.store_one(p, &mut column[2 * b * stride + at..]);
                s.store_one(q, &mut column[(2 * b + 1) * stride + at..]);
            }
        } else {
            let (a, b) = (
                s.load_one(&term(lo, 0, 0)[at..]),
                s.load_one(&term(hi, 0, 0)[at..]),
            );
            let l0 = a + u * (b - a);
            let (a, b) = (
                s.load_one(&term(lo, 1, 0)[at..]),
                s.load_one(&term(hi, 1, 0)[at..]),
            );
            let l1 = a + u * (b - a);
            s.store_one(l0, &mut column[at..]);
            s.store_one(l1 - l0, &mut column[stride + at..]);
        }
    }
}

/// The rows of a chunk (y offsets `t`, fades `fades`, bands `band`, one
/// each per row) in registers of rows: each lane takes its band's
/// coefficients from its column's by a table lookup.
#[cfg_attr(not(debug_assertions), inline(always))]
fn chunk_rows<S: Simd, K: Corners>(
    s: S,
    (coefficients, stride): (&[f32], usize),
    (t, fades): (&[f32], &[f32]),
    band: &[u32],
    nx: usize,
    out: &mut [f32],
) {
    let n = S::LANES / S::PARTS;
    let b0 = band[0];
    let used = if K::SLOPED { 4 } else { 2 };
    let zero = splat(s, 0.0);
    // Each lane's band less its register's first (below 8: at steps of at
    // most ¼ a register's rows span at most 5 cells), written a register
    // ahead: AVX-512 loads all 64 bytes at once, and a load that a recent
    // store covers only in part waits for it (a fifth of a 2-column
    // window's time when it was written just before).
    let mut index = [0u8; MAX_LANES];
    if !t.is_empty() {
        lane_bands(&band[..n.min(t.len())], &mut index);
    }
    let (mut t_padded, mut fades_padded) = ([0.0f32; MAX_LANES], [0.0f32; MAX_LANES]);
    // Per column, its register of the rows' samples (at most 16 lanes).
    let mut lanes = [[0.0f32; 16]; NARROW_COLUMNS];
    for (at, dst) in (0..t.len()).step_by(n).zip(out.chunks_mut(n * nx)) {
        let count = (t.len() - at).min(n);
        let first = band[at];
        let h = s.hashes(s.load_cells(&index), 0);
        if at + n < t.len() {
            lane_bands(&band[at + n..t.len().min(at + 2 * n)], &mut index);
        }
        let (y0, v) = if count == n {
            (s.load_one(&t[at..]), s.load_one(&fades[at..]))
        } else {
            t_padded[..count].copy_from_slice(&t[at..at + count]);
            fades_padded[..count].copy_from_slice(&fades[at..at + count]);
            (s.load_one(&t_padded), s.load_one(&fades_padded))
        };
        let inputs = [y0, y0 - splat(s, 1.0), v, zero];
        let base = (first - b0) as usize;
        for (lanes, column) in lanes.iter_mut().zip(coefficients.chunks_exact(4 * stride)) {
            let mut c = [zero; 4];
            for (c, k) in c.iter_mut().zip(column.chunks_exact(stride)).take(used) {
                let window = k[base..].first_chunk::<WINDOW>().unwrap();
                *c = s.table8(window, h);
            }
            s.store_one(sample::<S, K, 2>(c, inputs), lanes);
        }
        match nx {
            1 => interleave::<1>(&lanes, dst),
            2 => interleave::<2>(&lanes, dst),
            3 => interleave::<3>(&lanes, dst),
            4 => interleave::<4>(&lanes, dst),
            _ => {
                for (row, l) in dst.chunks_exact_mut(nx).zip(0..16) {
                    for (o, lanes) in row.iter_mut().zip(&lanes) {
                        *o = lanes[l];
                    }
                }
            }
        }
    }
}

/// Each of a register's rows' band, `bands`, less the first's, into
/// `index`. (A function, not a closure: closures do not take the level's
/// target features.)
#[cfg_attr(not(debug_assertions), inline(always))]
fn lane_bands(bands: &[u32], index: &mut [u8; MAX_LANES]) {
    let first = bands[0];
    for (i, &b) in index.iter_mut().zip(bands) {
        *i = (b - first) as u8;
    }
}

/// [`interleave`] for `R` rows.
#[cfg_attr(not(debug_assertions), inline(always))]
fn interleave_fixed<const C: usize, const R: usize>(
    lanes: &[[f32; 16]; NARROW_COLUMNS],
    rows: &mut [[f32; C]; R],
) {
    for (l, row) in rows.iter_mut().enumerate() {
        for (i, o) in row.iter_mut().enumerate() {
            *o = lanes[i][l];
        }
    }
}

/// Rows of `C` samples from per-column registers (column `i` in
/// `lanes[i]`), one row per lane.
#[cfg_attr(not(debug_assertions), inline(always))]
fn interleave<const C: usize>(lanes: &[[f32; 16]; NARROW_COLUMNS], dst: &mut [f32]) {
    let (rows, _) = dst.as_chunks_mut::<C>();
    // Whole registers of 8 or 16 rows: loops of fixed counts, which the
    // compiler turns into shuffles.
    if let Ok(rows) = <&mut [[f32; C]; 8]>::try_from(&mut *rows) {
        return interleave_fixed(lanes, rows);
    }
    if let Ok(rows) = <&mut [[f32; C]; 16]>::try_from(&mut *rows) {
        return interleave_fixed(lanes, rows);
    }
    for (row, l) in dst.chunks_exact_mut(C).zip(0..16) {
        let row: &mut [f32; C] = row.try_into().unwrap();
        for (o, lanes) in row.iter_mut().zip(lanes) {
            *o = lanes[l];
        }
    }
}
