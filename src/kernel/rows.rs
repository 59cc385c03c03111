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
    AxisSamples, Dims, GRAD1, GRAD3_X, GRAD3_Y, GRAD3_Z, GRAD4, Job, Noise, VALUE_SCALE, store_step,
};
use crate::Fade;
use crate::fade::fade;
use crate::simd::scalar::Scalar;
use crate::simd::{PermTable, Simd};

/// Grid rows of `D`-dimensional noise use coefficients when x advances at
/// most `MAX_COEFFICIENT_STEP[D - 1]` per sample (64, 64, 24 and 16 or more
/// samples per cell). The per-cell plane sums are scalar `f64` work (tens of
/// nanoseconds per cell), so coarser rows are faster per sample; these
/// bounds are where the AVX-512 point path overtook the rows on this
/// project's machines (a 256×256×16 3D grid: 1.9 G/s by cells at 1/50,
/// 1.3 G/s by samples; 2D by samples was faster even at 1/50). The bound
/// depends on the dimension only, never on the level, so the bits don't.
pub(crate) const MAX_COEFFICIENT_STEP: [f64; 4] = [1.0 / 64.0, 1.0 / 64.0, 1.0 / 24.0, 1.0 / 16.0];

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
}

/// A step of 64 samples at x step ≤ 1/16 spans at most 5 runs (17 at 1/4);
/// lookups read a window of 32 per-run coefficients.
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
        RowAxis {
            x0: t0,
            x1,
            u,
            run_of,
            runs,
        }
    }
}

/// Per row: for every corner of the other axes, the product of their fade
/// weights, and each other axis's offsets `[t0, t0 − 1]` (all in `f64`).
pub(crate) struct CornerWeights {
    weight: [f64; 8],
    offsets: [[f64; 2]; 3],
}

fn corner_weights<const D: usize>(others: &[(u8, u8, f32); 3], curve: Fade) -> CornerWeights {
    let mut w = CornerWeights {
        weight: [1.0; 8],
        offsets: [[0.0; 2]; 3],
    };
    for (axis, &(_, _, t0)) in others.iter().enumerate().take(D - 1) {
        let f = f64::from(fade(Scalar, curve, t0));
        w.offsets[axis] = [f64::from(t0), f64::from(t0) - 1.0];
        for (corner, weight) in w.weight.iter_mut().enumerate() {
            *weight *= if corner >> axis & 1 == 1 { f } else { 1.0 - f };
        }
    }
    w
}

/// The contribution `[A, B]` of one x lattice plane (cell byte `x_cell`) on
/// one row: `Σ W·GX[h]` and `Σ W·(GY[h]·y + GZ[h]·z + …)` over the corners of
/// the other axes. A run's coefficients are `[A0, B0]` of its lower plane and
/// `[A1, B1]` of its upper plane. Value noise (`value`) has `A = 0` and
/// `B = Σ W·height(h)`.
fn plane<const D: usize>(
    perm: &[u8; 256],
    x_cell: u8,
    others: &[(u8, u8, f32); 3],
    w: &CornerWeights,
    value: bool,
) -> [f32; 2] {
    // Corner hashes, one axis at a time: bit `a` of a corner = far on axis a.
    let mut hash = [0u8; 8];
    hash[0] = perm[usize::from(x_cell)];
    for (a, &(c0, c1, _)) in others.iter().enumerate().take(D - 1) {
        for corner in (0..1usize << a).rev() {
            let h = hash[corner];
            hash[corner] = perm[usize::from(h.wrapping_add(c0))];
            hash[corner | 1 << a] = perm[usize::from(h.wrapping_add(c1))];
        }
    }
    let (mut a, mut b) = (0.0f64, 0.0f64);
    for (corner, &h) in hash.iter().enumerate().take(1 << (D - 1)) {
        // 2D is the z = 0 slice of 3D: one more step, adding Z = 0.
        let h = usize::from(if D == 2 { perm[usize::from(h)] } else { h });
        if value {
            b += w.weight[corner] * f64::from(h as f32 * VALUE_SCALE - 1.0);
            continue;
        }
        let mut rest = 0.0f64;
        for axis in 0..D - 1 {
            let far = corner >> axis & 1;
            rest += gradient::<D>(h, axis + 1) * w.offsets[axis][far];
        }
        a += w.weight[corner] * gradient::<D>(h, 0);
        b += w.weight[corner] * rest;
    }
    [a as f32, b as f32]
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
    pub(crate) curve: Fade,
    /// Value noise (else gradient noise).
    pub(crate) value: bool,
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
        // Per-run coefficients of two rows: those of the next row are written
        // while the current row is evaluated, so the vector loads of a row's
        // coefficients never wait on scalar stores still in flight (that
        // store-to-load stall cost more than half of the time).
        let width = x.runs.len() + RUN_WINDOW;
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
                let weights = corner_weights::<D>(&others, self.curve);
                let coeff = &mut coeff[r % 2];
                // Neighbouring runs share a plane: reuse the upper one.
                let mut upper: Option<(u8, [f32; 2])> = None;
                for (run, &(_, [lo, hi])) in x.runs.iter().enumerate() {
                    let low = match upper {
                        Some((cell, ab)) if cell == lo => ab,
                        _ => plane::<D>(&self.table.bytes, lo, &others, &weights, self.value),
                    };
                    let high = plane::<D>(&self.table.bytes, hi, &others, &weights, self.value);
                    upper = Some((hi, high));
                    for (values, c) in coeff.iter_mut().zip([low[0], low[1], high[0], high[1]]) {
                        values[run] = c;
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
