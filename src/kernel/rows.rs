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
//! hash for x corner `i`. The coefficients are computed once per cell and row
//! in `f64` (scalar code shared by every level), rounded to `f32`, and spread
//! over the row's samples; the per-sample evaluation is 7 vector operations.
//! It differs from the point path only by rounding (measured ≤ 1e-6).

use super::{
    AxisSamples, Dims, GRAD1, GRAD3_X, GRAD3_Y, GRAD3_Z, GRAD4, Job, Noise, fade, store_step,
};
use crate::simd::scalar::Scalar;
use crate::simd::{PermTable, Simd};

/// Grid rows use coefficients when x advances at most this much per sample
/// (4 or more samples per cell): below that, per-cell work would dominate.
pub(crate) const MAX_COEFFICIENT_STEP: f64 = 0.25;

/// Per-sample values of the x axis the row evaluation reads, and its runs
/// of samples that share an x cell (the same on every row).
pub(crate) struct RowAxis {
    /// Offset in the cell, offset − 1, fade of the offset (padded).
    x0: Vec<f32>,
    x1: Vec<f32>,
    u: Vec<f32>,
    /// Index into `runs` of every sample (padded with the last run).
    run_of: Vec<u32>,
    /// First sample and x cells `[X, X + 1]` of each run.
    runs: Vec<(usize, [u8; 2])>,
    /// The distinct x cells of the runs (lattice planes), and for each run
    /// the indices of its lower and upper plane in that list.
    planes: Vec<u8>,
    run_planes: Vec<[usize; 2]>,
}

/// A step of 64 samples at x step ≤ 1/4 spans at most 17 runs; lookups read
/// a window of 32 per-run coefficients.
const RUN_WINDOW: usize = 32;

impl RowAxis {
    pub(crate) fn new(x: &AxisSamples) -> RowAxis {
        let t0 = x.t0.clone();
        let x1 = t0.iter().map(|t| t - 1.0).collect();
        let u = t0.iter().map(|&t| fade(Scalar, t)).collect();
        let mut runs = Vec::new();
        let mut run_of = vec![0u32; t0.len()];
        for (i, run) in run_of.iter_mut().enumerate().take(x.len) {
            let cells = [x.c0[i], x.c1[i]];
            if runs.last().is_none_or(|&(_, last)| last != cells) {
                runs.push((i, cells));
            }
            *run = (runs.len() - 1) as u32;
        }
        let last = run_of[x.len.saturating_sub(1)];
        run_of[x.len..].fill(last);
        let mut planes = Vec::new();
        let mut index = [usize::MAX; 256];
        let run_planes = runs
            .iter()
            .map(|&(_, cells)| {
                cells.map(|c| {
                    if index[usize::from(c)] == usize::MAX {
                        index[usize::from(c)] = planes.len();
                        planes.push(c);
                    }
                    index[usize::from(c)]
                })
            })
            .collect();
        RowAxis {
            x0: t0,
            x1,
            u,
            run_of,
            runs,
            planes,
            run_planes,
        }
    }
}

/// Rows computed together: consecutive rows whose other axes sit in the same
/// lattice cells share every corner gradient, so their plane coefficients are
/// computed in one pass of plain loops over the rows.
const ROW_GROUP: usize = 64;

/// For each row of a group: the other axes' corner weights (products of
/// fades) and offsets `[t0, t0 − 1]`, in `f64`, row index innermost.
struct GroupWeights {
    weight: [[f64; ROW_GROUP]; 8],
    offsets: [[[f64; ROW_GROUP]; 2]; 3],
}

impl GroupWeights {
    /// Sets row `i` from the other axes' `(c0, c1, t0)`, exactly as one row's
    /// weights were computed before: `1 × (1 − f or f) × …` per axis.
    fn set<const D: usize>(&mut self, i: usize, others: &[(u8, u8, f32); 3]) {
        for corner in 0..8 {
            self.weight[corner][i] = 1.0;
        }
        for (axis, &(_, _, t0)) in others.iter().enumerate().take(D - 1) {
            let f = f64::from(fade(Scalar, t0));
            self.offsets[axis][0][i] = f64::from(t0);
            self.offsets[axis][1][i] = f64::from(t0) - 1.0;
            for corner in 0..8 {
                self.weight[corner][i] *= if corner >> axis & 1 == 1 { f } else { 1.0 - f };
            }
        }
    }
}

/// The gradients at the corners of one x lattice plane (cell byte `x_cell`)
/// of the other axes' cells: corner `c` (bit `a` = far on axis a) has
/// components `[g_x, g_axis1, g_axis2, g_axis3]`.
fn plane_gradients<const D: usize>(
    perm: &[u8; 256],
    x_cell: u8,
    others: &[(u8, u8, f32); 3],
) -> [[f64; 4]; 8] {
    let mut hash = [0u8; 8];
    hash[0] = perm[usize::from(x_cell)];
    for (a, &(c0, c1, _)) in others.iter().enumerate().take(D - 1) {
        for corner in (0..1usize << a).rev() {
            let h = hash[corner];
            hash[corner] = perm[usize::from(h.wrapping_add(c0))];
            hash[corner | 1 << a] = perm[usize::from(h.wrapping_add(c1))];
        }
    }
    let mut g = [[0.0f64; 4]; 8];
    for (corner, &h) in hash.iter().enumerate().take(1 << (D - 1)) {
        // 2D is the z = 0 slice of 3D: one more step, adding Z = 0.
        let h = usize::from(if D == 2 { perm[usize::from(h)] } else { h });
        for (axis, component) in g[corner].iter_mut().enumerate().take(D) {
            *component = gradient::<D>(h, axis);
        }
    }
    g
}

/// The contribution `[A, B]` of one x lattice plane to rows `0..rows` of a
/// group: `A = Σ W·g_x`, `B = Σ W·(g_1·offset_1 + g_2·offset_2 + …)` over the
/// corners, in that order for every row; written to `a[..rows]`, `b[..rows]`.
fn plane<const D: usize>(
    g: &[[f64; 4]; 8],
    w: &GroupWeights,
    rows: usize,
    a: &mut [f32],
    b: &mut [f32],
) {
    let mut sum_a = [0.0f64; ROW_GROUP];
    let mut sum_b = [0.0f64; ROW_GROUP];
    for (corner, g) in g.iter().enumerate().take(1 << (D - 1)) {
        let mut rest = [0.0f64; ROW_GROUP];
        for axis in 0..D - 1 {
            let offset = &w.offsets[axis][corner >> axis & 1];
            for i in 0..rows {
                rest[i] += g[axis + 1] * offset[i];
            }
        }
        let weight = &w.weight[corner];
        for i in 0..rows {
            sum_a[i] += weight[i] * g[0];
            sum_b[i] += weight[i] * rest[i];
        }
    }
    for i in 0..rows {
        a[i] = sum_a[i] as f32;
        b[i] = sum_b[i] as f32;
    }
}

/// Component `axis` of the gradient for hash `h` in dimension `D`.
fn gradient<const D: usize>(h: usize, axis: usize) -> f64 {
    f64::from(match D {
        1 => GRAD1[h & 15],
        2 | 3 => [&GRAD3_X, &GRAD3_Y, &GRAD3_Z][axis][h & 15],
        _ => GRAD4[axis][h & 31],
    })
}

/// Rows `first_row..` of a grid by coefficients (see the module docs).
pub(crate) struct FillRowsByCells<'a, const D: usize> {
    pub(crate) table: &'a PermTable,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) x: &'a RowAxis,
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
    /// Write rows with non-temporal stores (outputs much larger than cache).
    pub(crate) streaming: bool,
}

impl<const D: usize> Job for FillRowsByCells<'_, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let (axes, x) = (self.axes, self.x);
        let nx = axes[0].len;
        if nx == 0 {
            return;
        }
        // Per step: its first run, and each lane's run relative to it.
        let n = S::LANES;
        let steps = nx.div_ceil(n);
        let first_run: Vec<usize> = (0..steps).map(|k| x.run_of[k * n] as usize).collect();
        let relative: Vec<u8> = (0..steps * n)
            .map(|i| (x.run_of[i] as usize - first_run[i / n]) as u8)
            .collect();
        // Per plane, the coefficients of every row of a group of rows in the
        // same cells of the other axes.
        let rows = self.out.len() / nx;
        let cap = rows.min(ROW_GROUP);
        let mut plane_a = vec![0.0f32; x.planes.len() * cap];
        let mut plane_b = vec![0.0f32; x.planes.len() * cap];
        let mut weights = GroupWeights {
            weight: [[0.0; ROW_GROUP]; 8],
            offsets: [[[0.0; ROW_GROUP]; 2]; 3],
        };
        // Per-run coefficients of two rows: those of the next row are written
        // while the current row is evaluated, so the vector loads of a row's
        // coefficients never wait on scalar stores still in flight.
        let width = x.runs.len() + RUN_WINDOW;
        let mut coeff = [0, 1].map(|_| {
            [
                vec![0.0f32; width],
                vec![0.0; width],
                vec![0.0; width],
                vec![0.0; width],
            ]
        });
        // Other-axis indices of the next row to set up, advanced like an odometer.
        let mut index = [0usize; 4];
        let mut rest = self.first_row;
        for d in 1..D {
            index[d] = rest % axes[d].len;
            rest /= axes[d].len;
        }
        let others_at = |index: &[usize; 4]| {
            let mut others = [(0u8, 0u8, 0.0f32); 3];
            for d in 1..D {
                let (a, i) = (axes[d], index[d]);
                others[d - 1] = (a.c0[i], a.c1[i], a.t0[i]);
            }
            others
        };
        let cells = |o: &[(u8, u8, f32); 3]| o.map(|(c0, c1, _)| [c0, c1]);
        // Rows are computed here, then streamed out, when `streaming`.
        let mut scratch = vec![0.0f32; if self.streaming { nx } else { 0 }];
        let mut out_rows = self.out.chunks_exact_mut(nx);
        let (mut group_start, mut group_len) = (0, 0);
        for r in 0..=rows {
            if r < rows {
                if r == group_start + group_len {
                    // The next group of rows: plane coefficients for all of it.
                    let first = others_at(&index);
                    (group_start, group_len) = (r, 0);
                    while r + group_len < rows && group_len < cap {
                        let others = others_at(&index);
                        if cells(&others) != cells(&first) {
                            break;
                        }
                        weights.set::<D>(group_len, &others);
                        group_len += 1;
                        for d in 1..D {
                            index[d] += 1;
                            if index[d] < axes[d].len {
                                break;
                            }
                            index[d] = 0;
                        }
                    }
                    for (q, &cell) in x.planes.iter().enumerate() {
                        let g = plane_gradients::<D>(&self.table.bytes, cell, &first);
                        let at = q * cap;
                        let (a, b) = (&mut plane_a[at..at + cap], &mut plane_b[at..at + cap]);
                        plane::<D>(&g, &weights, group_len, a, b);
                    }
                }
                let i = r - group_start;
                let coeff = &mut coeff[r % 2];
                for (run, &[lo, hi]) in x.run_planes.iter().enumerate() {
                    let (lo, hi) = (lo * cap + i, hi * cap + i);
                    coeff[0][run] = plane_a[lo];
                    coeff[1][run] = plane_b[lo];
                    coeff[2][run] = plane_a[hi];
                    coeff[3][run] = plane_b[hi];
                }
            }
            if r == 0 {
                continue;
            }
            // Evaluate the previous row.
            let row = out_rows.next().unwrap();
            let target: &mut [f32] = if self.streaming {
                &mut scratch
            } else {
                &mut *row
            };
            evaluate_row(s, x, &first_run, &relative, &coeff[(r - 1) % 2], target);
            if self.streaming {
                s.copy_streaming(&scratch, row);
            }
        }
        if self.streaming {
            s.store_fence();
        }
    }
}

/// The `RUN_WINDOW` per-run values starting at run `first`.
#[inline(always)]
fn window(values: &[f32], first: usize) -> &[f32; RUN_WINDOW] {
    values[first..first + RUN_WINDOW].try_into().unwrap()
}

/// One row from its per-run coefficients: `lerp(u, A0·x0 + B0, A1·x1 + B1)`,
/// each lane's coefficients picked by its run relative to the step's first.
#[inline(always)]
fn evaluate_row<S: Simd>(
    s: S,
    x: &RowAxis,
    first_run: &[usize],
    relative: &[u8],
    coeff: &[Vec<f32>; 4],
    out: &mut [f32],
) {
    let n = S::LANES;
    for (k, dst) in out.chunks_mut(n).enumerate() {
        let at = k * n;
        let (first, rel) = (first_run[k], s.load_cells(&relative[at..at + n]));
        let (x0, x1) = (s.load(&x.x0[at..at + n]), s.load(&x.x1[at..at + n]));
        let mut v = s.load(&x.u[at..at + n]);
        super::for_each_part!(S, |q| {
            let h = s.hashes(rel, q);
            let a0 = s.table32(window(&coeff[0], first), h);
            let b0 = s.table32(window(&coeff[1], first), h);
            let a1 = s.table32(window(&coeff[2], first), h);
            let b1 = s.table32(window(&coeff[3], first), h);
            let d0 = a0 * s.part(x0, q) + b0;
            let d1 = a1 * s.part(x1, q) + b1;
            let u = s.part(v, q);
            s.set_part(&mut v, q, d0 + u * (d1 - d0));
        });
        store_step(s, v, dst);
    }
}
