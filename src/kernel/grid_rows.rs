//! Grid rows from per-axis stage-1 samples ([`AxisSamples`],
//! [`FillGridRows`]), the hash mode a job picks once ([`HashModeRef`]), and the
//! padded pack loads and stores the batch and row jobs share.

use super::{
    Axis, CoordinatesMode, Corners, Dims, HashModeKernel, Noise, PARTS_LOOP_FROM, PermutationMode,
    stage1, stage2, staged_axis,
};
use crate::Fade;
use crate::fade::faded;
use crate::scratch::Scratch;
use crate::simd::{Job, MAX_LANES, PermTable, Simd};

/// Loads `src[at..at + LANES]`, zero-padded past its end (or zeros when
/// `src` is empty).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn load_padded<S: Simd>(s: S, src: &[f32], at: usize) -> S::F {
    if at + S::LANES <= src.len() {
        s.load(&src[at..at + S::LANES])
    } else {
        let mut padded = [0.0f32; MAX_LANES];
        let rest = src.get(at..).unwrap_or(&[]);
        padded[..rest.len()].copy_from_slice(rest);
        s.load(&padded[..S::LANES])
    }
}

/// Stores a pack into `dst`: `LANES` values, or fewer for the last, partial
/// pack (through a padded buffer).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn store_pack<S: Simd>(s: S, v: S::F, dst: &mut [f32]) {
    if dst.len() == S::LANES {
        s.store(v, dst);
    } else {
        let mut result = [0.0f32; MAX_LANES];
        s.store(v, &mut result[..S::LANES]);
        let len = dst.len();
        dst.copy_from_slice(&result[..len]);
    }
}

/// How a lattice hashes its corners, as a kernel job receives it: the mode
/// is chosen once per job ([`HashModeRef::run`]), never per point.
#[derive(Clone, Copy)]
pub(crate) enum HashModeRef<'a> {
    /// Ken's permutation chain ([`PermutationMode`]).
    Permutation(&'a PermTable),
    /// The full-coordinate hash with this seed key ([`CoordinatesMode`]).
    Coordinates(u32),
}

/// Code that runs with a hash mode and its loaded state.
pub(crate) trait WithHashMode<S: Simd> {
    type Output;
    fn run<H: HashModeKernel>(self, s: S, r: &H::Ready<'_, S>) -> Self::Output;
}

impl HashModeRef<'_> {
    /// Runs `f` with this mode's [`HashModeKernel`] type and loaded state.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn run<S: Simd, W: WithHashMode<S>>(self, s: S, f: W) -> W::Output {
        match self {
            HashModeRef::Permutation(t) => f.run::<PermutationMode>(s, &s.perm_table(t)),
            HashModeRef::Coordinates(seed) => f.run::<CoordinatesMode>(s, &s.splat_u32(seed)),
        }
    }
}

/// Stage 1 of every sample of one grid axis (computed once per fill, in
/// `f64`, by [`stage1`]), padded with zeros to a whole number of packs.
pub(crate) struct AxisSamples {
    pub(crate) len: usize,
    pub(crate) c0: Scratch<u32>,
    pub(crate) c1: Scratch<u32>,
    pub(crate) t0: Scratch<f32>,
}

impl AxisSamples {
    /// Stage 1 of the positions `coords` on an axis with period `period`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new(coords: &[f64], period: u64) -> AxisSamples {
        /// Below 2⁵¹ adding `ROUND` rounds to an integer, exactly.
        const SMALL: f64 = 2_251_799_813_685_248.0;
        /// 1.5 · 2⁵²: `c + ROUND` is the integer nearest `c` (ties to even)
        /// plus `ROUND`, with that integer mod 2³² in its low 32 bits.
        const ROUND: f64 = 6_755_399_441_055_744.0;
        let len = coords.len();
        let padded = len.div_ceil(MAX_LANES) * MAX_LANES;
        // (Reused, not zeroed: every sample is written below, the padding
        // after it.)
        let (mut c0, mut c1, mut t0) = (
            Scratch::reused(padded, 0),
            Scratch::reused(padded, 0),
            Scratch::reused(padded, 0.0),
        );
        for v in [&mut c0[len..], &mut c1[len..]] {
            v.fill(0);
        }
        t0[len..].fill(0.0);
        // `stage1` for the usual case (a period that is a power of two, the
        // natural 2³² included, and coordinates below 2⁵¹), without the
        // checks of its float-to-integer casts: a loop that the compiler
        // vectorises, which also finds whether every coordinate is that
        // small (a fold without an early exit; a pass of its own cost 1.5
        // instructions a sample at AVX2). The same values:
        // `floor` and the cell mod 2³² exactly (`floor + ROUND` holds the
        // cell in its low 32 bits; a period that divides 2³², or that 2³²
        // divides, leaves the low bits alone), and the same offset (`+ 0.0`
        // makes the −0 of `c = −0` the +0 `stage1` gives).
        let mut small = period.is_power_of_two();
        if small {
            let mask = u32::try_from(period - 1).unwrap_or(u32::MAX);
            let samples = (c0.iter_mut().zip(c1.iter_mut()))
                .zip(t0.iter_mut())
                .zip(coords);
            for (((c0, c1), t0), &c) in samples {
                small &= c.abs() < SMALL;
                let nearest = (c + ROUND) - ROUND;
                let floor = if nearest > c { nearest - 1.0 } else { nearest };
                let cell = ((floor + ROUND).to_bits() as u32) & mask;
                *c0 = cell;
                *c1 = cell.wrapping_add(1) & mask;
                *t0 = ((c - floor) + 0.0) as f32;
            }
        }
        if !small {
            // Written again, every value by `stage1`.
            let samples = (c0.iter_mut().zip(c1.iter_mut()))
                .zip(t0.iter_mut())
                .zip(coords);
            for (((c0, c1), t0), &c) in samples {
                (*c0, *c1, *t0) = stage1(c, period);
            }
        }
        AxisSamples { len, c0, c1, t0 }
    }

    /// Frees the samples and keeps their count (for an x axis that rows by
    /// cells read through their [`RowAxis`](super::RowAxis) instead).
    pub(crate) fn keep_length_only(&mut self) {
        (self.c0, self.c1, self.t0) = Default::default();
    }

    /// Sample `i` as the same value on every lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat<S: Simd, H: HashModeKernel>(&self, s: S, i: usize, fade: Fade) -> Axis<S, H> {
        let t = s.splat(self.t0[i]);
        let (c0, c1) = H::splat_cells(s, self.c0[i], self.c1[i]);
        Axis {
            c0,
            c1,
            t0: t,
            t1: t - s.splat(1.0),
            fade: faded(s, fade, t),
        }
    }
}

/// Rows `first_row..` of a grid (as many as `out` holds): row `r` is the run
/// of x samples at the other axes' indices `r` in mixed radix (y fastest).
/// Stage 2 sees the x axis from its samples and the other axes broadcast, so
/// every sample is computed exactly as the `f64` point path computes it.
pub(crate) struct FillGridRows<'a, K, const D: usize> {
    pub(crate) hash_mode: HashModeRef<'a>,
    pub(crate) fade: Fade,
    /// The corner kind (a zero-sized marker).
    pub(crate) _corners: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
}

impl<K: Corners, const D: usize> Job for FillGridRows<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        self.hash_mode.run(s, self)
    }
}

impl<K: Corners, S: Simd, const D: usize> WithHashMode<S> for FillGridRows<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: HashModeKernel>(self, s: S, r: &H::Ready<'_, S>) {
        let (axes, fade) = (self.axes, self.fade);
        let (n, x) = (S::LANES, axes[0]);
        if x.len == 0 {
            return;
        }
        for (row_index, row) in self.out.chunks_exact_mut(x.len).enumerate() {
            let mut all = [x.splat::<S, H>(s, 0, fade); D];
            let mut rest = self.first_row + row_index;
            for d in 1..D {
                all[d] = axes[d].splat(s, rest % axes[d].len, fade);
                rest /= axes[d].len;
            }
            for (k, dst) in row.chunks_mut(n).enumerate() {
                let at = k * n;
                all[0] = staged_axis(s, &x.c0[at..], &x.c1[at..], &x.t0[at..], fade, false);
                // Inline in 1D to 3D: the call and the axes through memory
                // cost a fractal grid's coarse octaves 8% (four-octave 2D
                // fBm). In 4D the points' outlined copy.
                let v = if const { D < PARTS_LOOP_FROM } {
                    Noise::eval::<S, K, H, false, false>(s, r, &all)
                } else {
                    stage2::<S, K, H, false, false, D>(s, r, &all)
                };
                store_pack(s, v, dst);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AxisSamples, stage1};
    use crate::simd::MAX_LANES;

    /// `AxisSamples::new` gives `stage1` of every coordinate, bit for bit,
    /// on its fast path (periods that are powers of two, coordinates below
    /// 2⁵¹) and off it: ±0, ties, the edges of the fast path, huge and
    /// non-finite coordinates, and random ones at every magnitude; its
    /// padding is zeros.
    #[test]
    fn axis_samples_are_stage1() {
        let mut coords = vec![
            0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1.0, -1.0, 0.3, -0.3,
        ];
        for e in [31, 32, 50, 51] {
            let p = f64::from(e).exp2();
            for v in [p - 0.5, p - 1.0, p - 1.5, p - 0.25] {
                coords.extend([v, -v]);
            }
        }
        let mut bits = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            // Multiples of 1/64 up to 2^50, and every exponent below 2^51.
            coords.push((bits >> 8) as i64 as f64 / 16384.0);
            let e = (bits % 51) as i32;
            coords.push(f64::from(e).exp2() * ((bits >> 8) as i32 as f64 / i32::MAX as f64));
        }
        // Off the fast path: 2^51 and beyond, and non-finite values.
        let mut special = vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, 1e300];
        for e in [51, 52, 53, 60, 63, 64] {
            let p = f64::from(e).exp2();
            for v in [p, p + 1.0, p + 2.0, p - 1.0, p - 0.5] {
                special.extend([v, -v]);
            }
        }
        for period in [
            1u64 << 32,
            1,
            2,
            256,
            1 << 40,
            1 << 62,
            3,
            300,
            (1 << 32) - 1,
        ] {
            for with_special in [false, true] {
                let mut all = coords.clone();
                if with_special {
                    all.extend(&special);
                }
                let a = AxisSamples::new(&all, period);
                assert_eq!(a.len, all.len());
                assert_eq!(a.c0.len(), all.len().div_ceil(MAX_LANES) * MAX_LANES);
                for (i, &c) in all.iter().enumerate() {
                    let (c0, c1, t0) = stage1(c, period);
                    assert_eq!(
                        (a.c0[i], a.c1[i], a.t0[i].to_bits()),
                        (c0, c1, t0.to_bits()),
                        "{c:e}, period {period}"
                    );
                }
                assert!(a.c0[all.len()..].iter().all(|&c| c == 0));
                assert!(a.t0[all.len()..].iter().all(|&t| t.to_bits() == 0));
            }
        }
    }
}
