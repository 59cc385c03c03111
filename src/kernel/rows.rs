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

use super::{AxisSamples, Dims, GRAD1, GRAD3_X, GRAD3_Y, GRAD3_Z, GRAD4, Job, Noise, fade};
use crate::simd::scalar::Scalar;
use crate::simd::{MAX_LANES, PermTable, Simd};

/// Grid rows use coefficients when x advances at most this much per sample
/// (4 or more samples per cell): below that, per-cell work would dominate.
pub(crate) const MAX_COEFFICIENT_STEP: f64 = 0.25;

/// Per-sample values of the x axis the row evaluation reads.
pub(crate) struct RowAxis {
    /// Offset in the cell, offset − 1, fade of the offset (padded).
    x0: Vec<f32>,
    x1: Vec<f32>,
    u: Vec<f32>,
}

impl RowAxis {
    pub(crate) fn new(x: &AxisSamples) -> RowAxis {
        let t0 = x.t0.clone();
        let x1 = t0.iter().map(|t| t - 1.0).collect();
        let u = t0.iter().map(|&t| fade(Scalar, t)).collect();
        RowAxis { x0: t0, x1, u }
    }
}

/// The coefficients of one x cell on one row: `[A0, B0, A1, B1]`.
fn cell_coefficients<const D: usize>(
    perm: &[u8; 512],
    x_cells: [u8; 2],
    others: &[(u8, u8, f32); 3],
) -> [f32; 4]
where
    Noise: Dims<D>,
{
    let hash = |start: u8, corner: usize| {
        let mut h = perm[usize::from(start)];
        for (a, &(c0, c1, _)) in others.iter().enumerate().take(D - 1) {
            let c = if corner >> a & 1 == 0 { c0 } else { c1 };
            h = perm[usize::from(h.wrapping_add(c))];
        }
        if D == 2 {
            // 2D is the z = 0 slice of 3D: one more step, adding Z = 0.
            h = perm[usize::from(h)];
        }
        usize::from(h)
    };
    let mut coefficients = [0.0f64; 4];
    for (i, &x_cell) in x_cells.iter().enumerate() {
        let (mut a, mut b) = (0.0f64, 0.0f64);
        for corner in 0..1usize << (D - 1) {
            let h = hash(x_cell, corner);
            let mut weight = 1.0f64;
            let mut rest = 0.0f64;
            for (axis, &(_, _, t0)) in others.iter().enumerate().take(D - 1) {
                let t0 = f64::from(t0);
                let far = corner >> axis & 1 == 1;
                let f = f64::from(fade(Scalar, t0 as f32));
                weight *= if far { f } else { 1.0 - f };
                let offset = if far { t0 - 1.0 } else { t0 };
                rest += gradient::<D>(h, axis + 1) * offset;
            }
            a += weight * gradient::<D>(h, 0);
            b += weight * rest;
        }
        coefficients[2 * i] = a;
        coefficients[2 * i + 1] = b;
    }
    coefficients.map(|c| c as f32)
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
        let padded = x.x0.len();
        // One row of coefficients, reused for every row of this call.
        let mut coeff = [
            vec![0.0f32; padded],
            vec![0.0; padded],
            vec![0.0; padded],
            vec![0.0; padded],
        ];
        for (r, row) in self.out.chunks_exact_mut(nx).enumerate() {
            let mut others = [(0u8, 0u8, 0.0f32); 3];
            let mut rest = self.first_row + r;
            for d in 1..D {
                let a = axes[d];
                let i = rest % a.len;
                rest /= a.len;
                others[d - 1] = (a.c0[i], a.c1[i], a.t0[i]);
            }
            // Coefficients per run of samples in one x cell.
            let mut start = 0;
            while start < nx {
                let cells = [axes[0].c0[start], axes[0].c1[start]];
                let mut end = start + 1;
                while end < nx && [axes[0].c0[end], axes[0].c1[end]] == cells {
                    end += 1;
                }
                let c = cell_coefficients::<D>(&self.table.bytes, cells, &others);
                for (k, values) in coeff.iter_mut().enumerate() {
                    values[start..end].fill(c[k]);
                }
                start = end;
            }
            evaluate_row(s, x, &coeff, row);
        }
    }
}

/// `out[i] = lerp(u, A0·x0 + B0, A1·x1 + B1)` at every sample of a row.
#[inline(always)]
fn evaluate_row<S: Simd>(s: S, x: &RowAxis, coeff: &[Vec<f32>; 4], out: &mut [f32]) {
    let n = S::LANES;
    for (k, dst) in out.chunks_mut(n).enumerate() {
        let at = k * n;
        let [a0, b0, a1, b1] = [&coeff[0], &coeff[1], &coeff[2], &coeff[3]];
        let d0 = s.load(&a0[at..at + n]) * s.load(&x.x0[at..at + n]) + s.load(&b0[at..at + n]);
        let d1 = s.load(&a1[at..at + n]) * s.load(&x.x1[at..at + n]) + s.load(&b1[at..at + n]);
        let v = d0 + s.load(&x.u[at..at + n]) * (d1 - d0);
        if dst.len() == n {
            s.store(v, dst);
        } else {
            let mut result = [0.0f32; MAX_LANES];
            s.store(v, &mut result[..n]);
            let len = dst.len();
            dst.copy_from_slice(&result[..len]);
        }
    }
}
