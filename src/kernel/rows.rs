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
//! in vectors whose lanes are x lattice planes (each lane's operations are
//! the same on every level, so the bits are), and spread over the row's
//! samples; the per-sample evaluation is 7 vector operations. It differs
//! from the point path only by rounding (documented ≤ 1e-6).

use super::{AxisSamples, Dims, Job, Kind, Noise, store_step};
use crate::Fade;
use crate::fade::fade;
use crate::simd::scalar::Scalar;
use crate::simd::{MAX_LANES, PermTable, Simd};

/// Grid rows of `D`-dimensional noise use coefficients when x advances at
/// most `MAX_COEFFICIENT_STEP[D - 1]` per sample (3 or more samples per cell
/// in 1D–3D). Measured at AVX-512 on 2²⁰-sample grids: 3D rows by cells ran
/// 2.45 G/s for steps 1/50..0.16 and 1.63 G/s at 0.32, the point kernel along
/// rows 1.49 G/s at any step (0.64: 1.24 vs 1.49); 2D 3.2–5.2 G/s vs 2.8.
/// In 4D (8 corners per plane, short rows) the point kernel won at every step
/// measured, so only extremely fine 4D grids use cells. The bound depends on
/// the dimension only, never on the level, so the bits don't. At most 1/3:
/// a step of 64 samples then spans at most 23 runs (`RUN_WINDOW` is 32).
pub(crate) const MAX_COEFFICIENT_STEP: [f64; 4] = [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 64.0];

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
    /// The runs' lower and upper x cells, padded to whole steps.
    run_cells: [Vec<u8>; 2],
}

/// A step of 64 samples at x step ≤ 1/3 spans at most 23 runs; lookups read
/// a window of 32 per-run coefficients.
const RUN_WINDOW: usize = 32;

impl RowAxis {
    pub(crate) fn new(x: &AxisSamples, curve: Fade) -> RowAxis {
        let t0 = x.t0.clone();
        let x1 = t0.iter().map(|t| t - 1.0).collect();
        let u = t0.iter().map(|&t| fade(Scalar, curve, t)).collect();
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
        let padded = runs.len().div_ceil(MAX_LANES) * MAX_LANES;
        let mut run_cells = [vec![0u8; padded], vec![0u8; padded]];
        for (r, &(_, [lo, hi])) in runs.iter().enumerate() {
            run_cells[0][r] = lo;
            run_cells[1][r] = hi;
        }
        RowAxis {
            x0: t0,
            x1,
            u,
            run_of,
            runs,
            run_cells,
        }
    }
}

/// Per row: for every corner of the other axes (bit `a` of the corner index
/// = far on other axis `a`), the product of their fade weights, and each
/// other axis's cells and offsets `[t0, t0 − 1]`. Scalar `f32`, the same for
/// every level.
struct RowCorners {
    weight: [f32; 8],
    cells: [[i32; 2]; 3],
    offsets: [[f32; 2]; 3],
}

fn row_corners<const D: usize>(others: &[(u8, u8, f32); 3], curve: Fade) -> RowCorners {
    let mut w = RowCorners {
        weight: [1.0; 8],
        cells: [[0; 2]; 3],
        offsets: [[0.0; 2]; 3],
    };
    for (axis, &(c0, c1, t0)) in others.iter().enumerate().take(D - 1) {
        let f = fade(Scalar, curve, t0);
        w.cells[axis] = [i32::from(c0), i32::from(c1)];
        w.offsets[axis] = [t0, t0 - 1.0];
        for (corner, weight) in w.weight.iter_mut().enumerate() {
            *weight *= if corner >> axis & 1 == 1 { f } else { 1.0 - f };
        }
    }
    w
}

/// The coefficients `[A, B]` of the x lattice planes `cells` (one per lane)
/// on one row: `A = Σ W·G0[h]`, `B = Σ W·(G1[h]·y + G2[h]·z + …)` over the
/// corners of the other axes, in corner order (value noise: `A = 0`,
/// `B = Σ W·height(h)`).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn planes<S: Simd, K: Kind, const D: usize>(
    s: S,
    p: &S::Perm<'_>,
    cells: S::I,
    w: &RowCorners,
) -> (S::F, S::F) {
    let corners = 1 << (D - 1);
    let mut hash = [s.perm(p, cells); 8];
    for a in 0..D - 1 {
        for corner in (0..1usize << a).rev() {
            let h = hash[corner];
            hash[corner] = s.perm(p, h + s.splat_i(w.cells[a][0]));
            hash[corner | 1 << a] = s.perm(p, h + s.splat_i(w.cells[a][1]));
        }
    }
    if D == 2 {
        // 2D is the z = 0 slice of 3D: one more step, adding Z = 0.
        hash[0] = s.perm(p, hash[0]);
        hash[1] = s.perm(p, hash[1]);
    }
    let zero = s.splat(0.0);
    let (mut a_out, mut b_out) = (zero, zero);
    super::for_each_part!(S, |k| {
        let mut a = s.part(zero, k);
        let mut b = a;
        for corner in 0..corners {
            let h = s.hashes(hash[corner], k);
            let weight = s.part(s.splat(w.weight[corner]), k);
            let (g0, rest) = K::plane_terms(s, h, corner, &w.offsets, D);
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
    pub(crate) table: &'a PermTable,
    pub(crate) curve: Fade,
    /// The corner kind (a zero-sized marker).
    pub(crate) _kind: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) x: &'a RowAxis,
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
    /// Write rows with non-temporal stores (outputs much larger than cache).
    pub(crate) streaming: bool,
}

impl<K: Kind, const D: usize> Job for FillRowsByCells<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let (axes, x, p) = (self.axes, self.x, s.perm_table(self.table));
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
        // Per-run coefficients of two rows: those of the next row are written
        // while the current row is evaluated, so the vector loads of a row's
        // coefficients never wait on scalar stores still in flight (that
        // store-to-load stall cost more than half of the time).
        let width = x.run_cells[0].len() + RUN_WINDOW;
        let mut coeff = [0, 1].map(|_| {
            [
                vec![0.0f32; width],
                vec![0.0; width],
                vec![0.0; width],
                vec![0.0; width],
            ]
        });
        // Rows are computed here, then streamed out, when `streaming`.
        let mut scratch = vec![0.0f32; if self.streaming { nx } else { 0 }];
        let rows = self.out.len() / nx;
        let mut out_rows = self.out.chunks_exact_mut(nx);
        for r in 0..=rows {
            if r < rows {
                let mut others = [(0u8, 0u8, 0.0f32); 3];
                let mut rest = self.first_row + r;
                for d in 1..D {
                    let a = axes[d];
                    let i = rest % a.len;
                    rest /= a.len;
                    others[d - 1] = (a.c0[i], a.c1[i], a.t0[i]);
                }
                let corners = row_corners::<D>(&others, self.curve);
                let coeff = &mut coeff[r % 2];
                for at in (0..x.runs.len()).step_by(n) {
                    let lo = s.load_cells(&x.run_cells[0][at..at + n]);
                    let hi = s.load_cells(&x.run_cells[1][at..at + n]);
                    let (a0, b0) = planes::<S, K, D>(s, &p, lo, &corners);
                    let (a1, b1) = planes::<S, K, D>(s, &p, hi, &corners);
                    for (values, c) in coeff.iter_mut().zip([a0, b0, a1, b1]) {
                        s.store(c, &mut values[at..at + n]);
                    }
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
