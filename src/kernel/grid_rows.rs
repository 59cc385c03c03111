//! Grid rows from per-axis stage-1 samples ([`AxisSamples`],
//! [`FillGridRows`]), the hash mode a job picks once ([`Hashing`]), and the
//! padded step loads and stores the batch and row jobs share.

use super::{
    Axis, CoordinateHash, Dims, Kind, LatticeHash, Noise, PermutationHash, stage1, staged_axis,
};
use crate::Fade;
use crate::fade::fade;
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

/// Stores a step into `dst`: `LANES` values, or fewer for the last, partial
/// step (through a padded buffer).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn store_step<S: Simd>(s: S, v: S::F, dst: &mut [f32]) {
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
/// is chosen once per job ([`Hashing::run`]), never per point.
#[derive(Clone, Copy)]
pub(crate) enum Hashing<'a> {
    /// Ken's permutation chain ([`PermutationHash`]).
    Table(&'a PermTable),
    /// The full-coordinate hash with this seed key ([`CoordinateHash`]).
    Coordinates(u32),
}

/// Code that runs with a hash mode and its loaded state.
pub(crate) trait WithHash<S: Simd> {
    type Output;
    fn run<H: LatticeHash>(self, s: S, r: &H::Ready<'_, S>) -> Self::Output;
}

impl Hashing<'_> {
    /// Runs `f` with this mode's [`LatticeHash`] type and loaded state.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn run<S: Simd, W: WithHash<S>>(self, s: S, f: W) -> W::Output {
        match self {
            Hashing::Table(t) => f.run::<PermutationHash>(s, &s.perm_table(t)),
            Hashing::Coordinates(seed) => f.run::<CoordinateHash>(s, &s.splat_u32(seed)),
        }
    }
}

/// Stage 1 of every sample of one grid axis (computed once per fill, in
/// `f64`, by [`stage1`]), padded with zeros to a whole number of steps.
pub(crate) struct AxisSamples {
    pub(crate) len: usize,
    pub(crate) c0: Vec<u32>,
    pub(crate) c1: Vec<u32>,
    pub(crate) t0: Vec<f32>,
}

impl AxisSamples {
    /// Stage 1 of the positions `coords` on an axis with period `period`.
    pub(crate) fn new(coords: &[f64], period: u64) -> AxisSamples {
        let len = coords.len();
        let padded = len.div_ceil(MAX_LANES) * MAX_LANES;
        let mut a = AxisSamples {
            len,
            c0: vec![0; padded],
            c1: vec![0; padded],
            t0: vec![0.0; padded],
        };
        for (i, &c) in coords.iter().enumerate() {
            (a.c0[i], a.c1[i], a.t0[i]) = stage1(c, period);
        }
        a
    }

    /// Sample `i` as the same value on every lane.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn splat<S: Simd, H: LatticeHash>(&self, s: S, i: usize, curve: Fade) -> Axis<S, H> {
        let t = s.splat(self.t0[i]);
        let (c0, c1) = H::splat_cells(s, self.c0[i], self.c1[i]);
        Axis {
            c0,
            c1,
            t0: t,
            t1: t - s.splat(1.0),
            fade: fade(s, curve, t),
        }
    }
}

/// Rows `first_row..` of a grid (as many as `out` holds): row `r` is the run
/// of x samples at the other axes' indices `r` in mixed radix (y fastest).
/// Stage 2 sees the x axis from its samples and the other axes broadcast, so
/// every sample is computed exactly as the `f64` point path computes it.
pub(crate) struct FillGridRows<'a, K, const D: usize> {
    pub(crate) hashing: Hashing<'a>,
    pub(crate) curve: Fade,
    /// The corner kind (a zero-sized marker).
    pub(crate) _kind: K,
    pub(crate) axes: [&'a AxisSamples; D],
    pub(crate) first_row: usize,
    pub(crate) out: &'a mut [f32],
}

impl<K: Kind, const D: usize> Job for FillGridRows<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, s: S) {
        self.hashing.run(s, self)
    }
}

impl<K: Kind, S: Simd, const D: usize> WithHash<S> for FillGridRows<'_, K, D>
where
    Noise: Dims<D>,
{
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<H: LatticeHash>(self, s: S, r: &H::Ready<'_, S>) {
        let (axes, curve) = (self.axes, self.curve);
        let (n, x) = (S::LANES, axes[0]);
        if x.len == 0 {
            return;
        }
        for (row_index, row) in self.out.chunks_exact_mut(x.len).enumerate() {
            let mut all = [x.splat::<S, H>(s, 0, curve); D];
            let mut rest = self.first_row + row_index;
            for d in 1..D {
                all[d] = axes[d].splat(s, rest % axes[d].len, curve);
                rest /= axes[d].len;
            }
            for (k, dst) in row.chunks_mut(n).enumerate() {
                let at = k * n;
                all[0] = staged_axis(s, &x.c0[at..], &x.c1[at..], &x.t0[at..], curve, false);
                // Inline: the call and the axes through memory cost a
                // fractal grid's coarse octaves 8% (four-octave 2D fBm).
                let v = Noise::eval::<S, K, H, false, false>(s, r, &all);
                store_step(s, v, dst);
            }
        }
    }
}
