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
//! rounding only (within 4e-7, tested in `suite/tests/grid.rs`); the value
//! of a sample depends on its own coordinates alone, never on the window,
//! the tile or the level, so windows and tiles join bit for bit.

use super::grid_rows::AxisSamples;
use super::{Corners, HashModeKernel, HashModeRef, WithHashMode};
use crate::Fade;
use crate::fade::faded;
use crate::scratch::Scratch;
use crate::simd::scalar::Scalar;
use crate::simd::{Job, MAX_LANES, Simd};

/// Grid rows of `D`-dimensional noise go by bands when both the x and the
/// y step are at most `MAX_BAND_STEP[D - 1]` (0: never).
pub(crate) const MAX_BAND_STEP: [f64; 4] = [0.0, 0.25, 0.25, 0.0];

/// Planes a register's samples use at most at x steps up to ¼ (a window
/// read by `table8`); wider windows (32 planes, `table32`) serve the rest.
const WINDOW: usize = 8;

/// The widest window: each segment of a register takes at most two new
/// planes.
const WIDE_WINDOW: usize = 32;

/// The x axis of a grid by bands, made for registers of `part` lanes: per
/// column its offsets and fade, the x lattice planes in order of use, and
/// per register its first plane and per column its two planes relative to
/// it.
pub(crate) struct BandAxis {
    len: usize,
    part: usize,
    x0: Scratch<f32>,
    x1: Scratch<f32>,
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
    /// Per sample of each other axis (y, then z), its fade.
    other_fades: Vec<Scratch<f32>>,
    /// Per y sample, the first later y sample in another cell (or the
    /// count): the end of its band.
    y_band_end: Scratch<u32>,
    /// Per y sample, its band's number (bands in order).
    y_band: Scratch<u32>,
    /// How many bands the y axis has.
    y_bands: usize,
}

/// The most floats of corner terms a 3D fill keeps for every y band of a
/// z cell (4 MiB); beyond, each band's terms are hashed again per z row.
const CACHED_TERMS: usize = 1 << 20;

impl BandAxis {
    /// The band axis of a grid whose axes' stage 1 is `axes` (x first), for
    /// registers of `part` lanes (at most 16).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(axes: &[AxisSamples], fade: Fade, part: usize) -> BandAxis {
        let x = &axes[0];
        let len = x.len;
        let registers = len.div_ceil(part);
        let padded = registers * part + MAX_LANES;
        // The planes in order of use: a segment (a run of columns in one
        // cell) shares a plane with the one before where their cells meet
        // (either way, or across a period's wrap), else takes new ones.
        let mut planes: Scratch<u32> = Scratch::with_capacity(2 * len + MAX_LANES);
        // Per column its lower planes, then its upper ones.
        let mut of = Scratch::filled(2 * len, 0u32);
        let (lower_of, upper_of) = of.split_at_mut(len);
        let (mut lower, mut upper) = (0u32, 0u32);
        for i in 0..len {
            let (c0, c1) = (x.c0[i], x.c1[i]);
            if i == 0 {
                planes.extend([c0, c1]);
                (lower, upper) = (0, 1);
            } else if (c0, c1) != (x.c0[i - 1], x.c1[i - 1]) {
                let (p0, p1) = (x.c0[i - 1], x.c1[i - 1]);
                let next = planes.len() as u32;
                (lower, upper) = if c0 == p1 {
                    planes.push(c1);
                    (upper, next)
                } else if c1 == p0 {
                    planes.push(c0);
                    (next, lower)
                } else {
                    planes.extend([c0, c1]);
                    (next, next + 1)
                };
            }
            (lower_of[i], upper_of[i]) = (lower, upper);
        }
        // Per register its lowest plane, and the widest span: each segment
        // takes at most two new planes, so a register of at most 16 lanes
        // spans at most 32.
        let mut lo = Scratch::filled(padded, 0u8);
        let mut hi = Scratch::filled(padded, 0u8);
        let mut first = Scratch::with_capacity(registers);
        let mut span = 0;
        for (k, (lower, upper)) in lower_of.chunks(part).zip(upper_of.chunks(part)).enumerate() {
            let low = lower.iter().fold(u32::MAX, |m, &v| m.min(v));
            let low = upper.iter().fold(low, |m, &v| m.min(v));
            let high = lower.iter().fold(0, |m, &v| m.max(v));
            let high = upper.iter().fold(high, |m, &v| m.max(v));
            span = span.max(high - low + 1);
            first.push(low as usize);
            let at = k * part;
            let (lo, hi) = (&mut lo[at..at + lower.len()], &mut hi[at..at + lower.len()]);
            for (((lo, hi), &l), &u) in lo.iter_mut().zip(hi.iter_mut()).zip(lower).zip(upper) {
                (*lo, *hi) = ((l - low) as u8, (u - low) as u8);
            }
        }
        let wide = span as usize > WINDOW;
        let plane_count = planes.len();
        planes.resize(plane_count.div_ceil(MAX_LANES) * MAX_LANES + WIDE_WINDOW, 0);
        let mut x0 = Scratch::filled(padded, 0.0f32);
        x0[..len].copy_from_slice(&x.t0[..len]);
        let x1 = x0.iter().map(|&x0| x0 - 1.0).collect();
        let u = fades(fade, &x0);
        let other_fades = axes[1..].iter().map(|a| fades(fade, &a.t0)).collect();
        let y = &axes[1];
        let mut y_band_end = Scratch::filled(y.len, y.len as u32);
        for j in (0..y.len.saturating_sub(1)).rev() {
            let same = y.c0[j] == y.c0[j + 1] && y.c1[j] == y.c1[j + 1];
            y_band_end[j] = if same {
                y_band_end[j + 1]
            } else {
                j as u32 + 1
            };
        }
        let mut y_band = Scratch::with_capacity(y.len);
        let mut band = 0u32;
        for j in 0..y.len {
            if j > 0 && y_band_end[j - 1] as usize == j {
                band += 1;
            }
            y_band.push(band);
        }
        let y_bands = y_band.last().map_or(0, |&b| b as usize + 1);
        BandAxis {
            len,
            part,
            x0,
            x1,
            u,
            planes,
            plane_count,
            first,
            wide,
            lo,
            hi,
            other_fades,
            y_band_end,
            y_band,
            y_bands,
        }
    }
}

/// The fade of every offset in `t`, in a loop for each fade (chosen once,
/// so the loop is a few vector operations per 4 or 8 offsets); the row
/// paths' too.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn fades(fade: Fade, t: &[f32]) -> Scratch<f32> {
    match fade {
        Fade::Quintic => t.iter().map(|&t| faded(Scalar, Fade::Quintic, t)).collect(),
        Fade::Cubic => t.iter().map(|&t| faded(Scalar, Fade::Cubic, t)).collect(),
        Fade::Cosine => t.iter().map(|&t| faded(Scalar, Fade::Cosine, t)).collect(),
        Fade::Linear => t.iter().copied().collect(),
    }
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
}

impl<K: Corners, const D: usize> Job for FillRowsByBands<'_, K, D> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        self.hash_mode.run(s, self)
    }
}

impl<K: Corners, S: Simd, const D: usize> WithHashMode<S> for FillRowsByBands<'_, K, D> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: HashModeKernel>(self, s: S, r: &H::Ready<'_, S>) {
        const { assert!(D == 2 || D == 3) };
        let (x, axes) = (self.x, self.axes);
        let nx = x.len;
        let n = S::LANES / S::PARTS;
        debug_assert_eq!(x.part, n);
        if nx == 0 || self.out.is_empty() {
            return;
        }
        let rows = self.out.len() / nx;
        let planes = x.planes.len();
        let corners = 1 << (D - 1);
        // One buffer: the corner terms, in 3D those blended along z, and
        // per register of columns its coefficients (`[P0, Q0, P1, Q1]`,
        // `n` lanes each).
        let terms_len = corners * 3 * planes;
        // 3D: the terms of every y band of the current z cell, when they fit.
        let slots = match D == 3 && x.y_bands * terms_len <= CACHED_TERMS {
            true => x.y_bands,
            false => 1,
        };
        let blended_len = if D == 3 && K::SLOPED {
            2 * 3 * planes
        } else {
            0
        };
        let registers = nx.div_ceil(n);
        let all_terms = slots * terms_len;
        let mut buffer = Scratch::filled(all_terms + blended_len + registers * 4 * n, 0.0f32);
        let (all, rest) = buffer.split_at_mut(all_terms);
        let (blended, columns) = rest.split_at_mut(blended_len);
        let ny = axes[1].len;
        let y = axes[1];
        // Per slot, the cells its terms were hashed for.
        let mut cached = vec![None; slots];
        let mut r0 = 0;
        while r0 < rows {
            let row = self.first_row + r0;
            let j = row % ny;
            let k = if D == 3 { (row / ny) % axes[2].len } else { 0 };
            // The band: the following rows of this z row in the same y cell.
            let r1 = rows.min(r0 + (x.y_band_end[j] as usize - j));
            let (cz0, cz1) = if D == 3 {
                (axes[2].c0[k], axes[2].c1[k])
            } else {
                (0, 0)
            };
            let key = [y.c0[j], y.c1[j], cz0, cz1];
            let slot = if slots > 1 { x.y_band[j] as usize } else { 0 };
            let terms = &mut all[slot * terms_len..(slot + 1) * terms_len];
            if cached[slot] != Some(key) {
                plane_terms::<S, K, H, D>(s, r, x, key, terms);
                cached[slot] = Some(key);
            }
            // z's fade: value noise blends along z last, row by row, in the
            // point path's order; gradient noise's terms are blended here.
            let w = if D == 3 { x.other_fades[1][k] } else { 0.0 };
            let terms: &[f32] = if D == 3 && K::SLOPED {
                blend_along_z(terms, planes, x.plane_count, axes[2].t0[k], w, blended);
                blended
            } else {
                terms
            };
            match x.wide {
                false => column_coefficients::<S, K, D, false>(s, x, terms, columns),
                true => column_coefficients::<S, K, D, true>(s, x, terms, columns),
            }
            let band = &mut self.out[r0 * nx..r1 * nx];
            let (t, f) = (&y.t0[j..j + r1 - r0], &x.other_fades[0][j..j + r1 - r0]);
            band_rows::<S, K, D>(s, nx, columns, (t, f), w, band, self.streaming);
            r0 = r1;
        }
        if self.streaming {
            s.store_fence();
        }
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
/// `plane_terms`: `[b][x slope, y slope, rest]`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn blend_along_z(terms: &[f32], planes: usize, used: usize, t: f32, w: f32, blended: &mut [f32]) {
    let at = |corner: usize, component: usize| {
        let start = (corner * 3 + component) * planes;
        &terms[start..start + used]
    };
    let t1 = t - 1.0;
    for b in 0..2 {
        let out = &mut blended[b * 3 * planes..(b + 1) * 3 * planes];
        let (gx, rest) = out.split_at_mut(planes);
        let (gy, rest) = rest.split_at_mut(planes);
        let (near, far) = (b, b + 2);
        let (nx, ny, nz) = (at(near, 0), at(near, 1), at(near, 2));
        let (fx, fy, fz) = (at(far, 0), at(far, 1), at(far, 2));
        for p in 0..used {
            gx[p] = nx[p] + w * (fx[p] - nx[p]);
            gy[p] = ny[p] + w * (fy[p] - ny[p]);
            let (a, c) = (nz[p] * t, fz[p] * t1);
            rest[p] = a + w * (c - a);
        }
    }
}

/// Every register of columns' coefficients, each lane's plane terms read
/// from its register's window of planes: `[P0, Q0, P1, Q1]` (gradients;
/// in 3D with the blended `GZ·z` terms), or the point path's lerps along x of the heights at each
/// corner `(b, c)` of y and z, `L_bc`, as `[L_00, L_10 − L_00, L_01,
/// L_11 − L_01]` (value noise; 2D: the first two).
#[cfg_attr(not(debug_assertions), inline(always))]
fn column_coefficients<S: Simd, K: Corners, const D: usize, const WIDE: bool>(
    s: S,
    x: &BandAxis,
    terms: &[f32],
    columns: &mut [f32],
) {
    let n = S::LANES / S::PARTS;
    let planes = x.planes.len();
    let registers = x.len.div_ceil(n);
    for pack in 0..registers.div_ceil(S::PARTS) {
        let at = pack * S::LANES;
        let lower = s.load_cells(&x.lo[at..at + S::LANES]);
        let upper = s.load_cells(&x.hi[at..at + S::LANES]);
        super::for_each_part!(S, |q| {
            let k = pack * S::PARTS + q;
            if k < registers {
                let first = x.first[k];
                let window = |b: usize, c: usize| {
                    let start = (b * 3 + c) * planes + first;
                    &terms[start..start + WIDE_WINDOW]
                };
                let (lo, hi) = (s.hashes(lower, q), s.hashes(upper, q));
                let i = k * n;
                let out = &mut columns[k * 4 * n..(k + 1) * 4 * n];
                let u = s.load_one(&x.u[i..]);
                if K::SLOPED {
                    let x0 = s.load_one(&x.x0[i..]);
                    let x1 = s.load_one(&x.x1[i..]);
                    for b in 0..2 {
                        let (gx, gy) = (window(b, 0), window(b, 1));
                        let mut a = lookup::<S, WIDE>(s, gx, lo) * x0;
                        let mut c = lookup::<S, WIDE>(s, gx, hi) * x1;
                        if D == 3 {
                            let rest = window(b, 2);
                            a = a + lookup::<S, WIDE>(s, rest, lo);
                            c = c + lookup::<S, WIDE>(s, rest, hi);
                        }
                        let p = a + u * (c - a);
                        let (g0, g1) = (lookup::<S, WIDE>(s, gy, lo), lookup::<S, WIDE>(s, gy, hi));
                        let q = g0 + u * (g1 - g0);
                        s.store_one(p, &mut out[2 * b * n..]);
                        s.store_one(q, &mut out[(2 * b + 1) * n..]);
                    }
                } else {
                    for c in 0..D - 1 {
                        let (h0, h1) = (window(2 * c, 0), window(2 * c + 1, 0));
                        let (a, b) = (lookup::<S, WIDE>(s, h0, lo), lookup::<S, WIDE>(s, h0, hi));
                        let l0 = a + u * (b - a);
                        let (a, b) = (lookup::<S, WIDE>(s, h1, lo), lookup::<S, WIDE>(s, h1, hi));
                        let l1 = a + u * (b - a);
                        s.store_one(l0, &mut out[2 * c * n..]);
                        s.store_one(l1 - l0, &mut out[(2 * c + 1) * n..]);
                    }
                }
            }
        });
    }
}

/// `v` on every lane of a part.
#[cfg_attr(not(debug_assertions), inline(always))]
fn splat<S: Simd>(s: S, v: f32) -> S::P {
    s.part(s.splat(v), 0)
}

/// The rows of one band: `out` holds whole rows, at y offsets `t` with
/// fades `fades` (one each per row), and in 3D z's fade `w`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn band_rows<S: Simd, K: Corners, const D: usize>(
    s: S,
    nx: usize,
    columns: &[f32],
    (t, fades): (&[f32], &[f32]),
    w: f32,
    out: &mut [f32],
    streaming: bool,
) {
    let w = splat(s, w);
    let n = S::LANES / S::PARTS;
    let whole = nx / n;
    let (body_columns, tail_columns) = columns.split_at(whole * 4 * n);
    for ((row, &t), &f) in out.chunks_exact_mut(nx).zip(t).zip(fades) {
        let (y0, y1, v) = (splat(s, t), splat(s, t - 1.0), splat(s, f));
        let (body, tail) = row.split_at_mut(whole * n);
        if streaming {
            // Whole packs of registers, streamed out; the rest as usual.
            let packs = whole / S::PARTS;
            for (g, dst) in body.chunks_exact_mut(S::LANES).enumerate() {
                let mut pack = s.splat(0.0);
                super::for_each_part!(S, |q| {
                    let k = g * S::PARTS + q;
                    let c = &body_columns[k * 4 * n..(k + 1) * 4 * n];
                    s.set_part(&mut pack, q, sample::<S, K, D>(s, c, [y0, y1, v, w]));
                });
                s.store_streaming(pack, dst);
            }
            let done = packs * S::PARTS;
            let rest = &mut body[done * n..];
            for (dst, c) in rest
                .chunks_exact_mut(n)
                .zip(body_columns[done * 4 * n..].chunks_exact(4 * n))
            {
                s.store_one(sample::<S, K, D>(s, c, [y0, y1, v, w]), dst);
            }
        } else {
            for (dst, c) in body
                .chunks_exact_mut(n)
                .zip(body_columns.chunks_exact(4 * n))
            {
                s.store_one(sample::<S, K, D>(s, c, [y0, y1, v, w]), dst);
            }
        }
        if !tail.is_empty() {
            // The last, partial register, through a padded buffer.
            let mut padded = [0.0f32; MAX_LANES];
            s.store_one(
                sample::<S, K, D>(s, tail_columns, [y0, y1, v, w]),
                &mut padded,
            );
            tail.copy_from_slice(&padded[..tail.len()]);
        }
    }
}

/// One register of a row from its columns' coefficients `c` (`n` lanes
/// each, see `column_coefficients`) at y offsets `y0`, `y1`, y's fade `v`
/// and (value noise in 3D) z's fade `w`. (A function, not a closure:
/// closures do not take the level's target features, and their intrinsics
/// would be calls.)
#[cfg_attr(not(debug_assertions), inline(always))]
fn sample<S: Simd, K: Corners, const D: usize>(s: S, c: &[f32], [y0, y1, v, w]: [S::P; 4]) -> S::P {
    let n = S::LANES / S::PARTS;
    let c = &c[..4 * n];
    let (c0, c1) = (s.load_one(&c[..n]), s.load_one(&c[n..2 * n]));
    if K::SLOPED {
        let t0 = c0 + y0 * c1;
        let t1 = s.load_one(&c[2 * n..3 * n]) + y1 * s.load_one(&c[3 * n..]);
        t0 + v * (t1 - t0)
    } else if D == 3 {
        let near = c0 + v * c1;
        let far = s.load_one(&c[2 * n..3 * n]) + v * s.load_one(&c[3 * n..]);
        near + w * (far - near)
    } else {
        c0 + v * c1
    }
}

/// `t[h]` per lane, from a window of [`WINDOW`] planes (`table8`) or, when
/// `WIDE`, of [`WIDE_WINDOW`] (`table32`): the same values either way.
#[cfg_attr(not(debug_assertions), inline(always))]
fn lookup<S: Simd, const WIDE: bool>(s: S, t: &[f32], h: S::H) -> S::P {
    if WIDE {
        s.table32(t[..WIDE_WINDOW].try_into().unwrap(), h)
    } else {
        s.table8(t[..WINDOW].try_into().unwrap(), h)
    }
}
