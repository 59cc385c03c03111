//! Operators: fields made point by point from other fields.
//!
//! | type | output at a point (inputs `a`, `b`, control `c`) |
//! |---|---|
//! | [`Map::scale_bias`] | `a · scale + bias` |
//! | [`Map::abs`] | `|a|` |
//! | [`Map::clamp`] | `a` clamped to `[lower, upper]` |
//! | [`Map::terrace`] | `pⱼ + wⱼ·t²` in the interval `[pⱼ, pⱼ₊₁]` of `a`, `t = (a − pⱼ)/wⱼ`, `wⱼ = pⱼ₊₁ − pⱼ` (flat steps, steep risers); clamped to `[p₀, pₙ]` |
//! | [`Map::curve`] | the piecewise-linear curve through the control points `(xᵢ, yᵢ)`, flat outside them |
//! | [`Combine::add`], [`Combine::multiply`] | `a + b`, `a · b` |
//! | [`Combine::min`], [`Combine::max`] | `if a < b { a } else { b }`, `if a > b { a } else { b }` |
//! | [`Blend::new`] | `(1 − t)·a + t·b`, `t = clamp(c/2 + ½, 0, 1)` |
//! | [`Blend::select`] | `(1 − t)·a + t·b`, `t` the smoothstep of `c` over `[threshold − edge, threshold + edge]`; with `edge` 0, `a` where `c ≤ threshold` and `b` where `c > threshold` |
//!
//! Every operator is one pass over its inputs' values, written once over
//! the lane types, so it gives the same bits at every level, on every
//! thread and window split, like the sources under it. Inside a batch or a
//! fractal the inputs are evaluated pack by pack and combined in registers
//! (no intermediate buffer); a grid fills each input's rows through the
//! input's own row path, in blocks of at most 2¹⁶ samples, and combines the
//! blocks, so an operator's grid is the operator applied to its inputs'
//! grids, bit for bit. A NaN input gives NaN, except that `min` and `max`
//! return `b` when the two are unordered (every crate source is NaN exactly
//! at non-finite coordinates, so both inputs of an operator over crate
//! sources are NaN together). Every NaN output is the canonical `f32::NAN`.
//!
//! Parameters are checked when the operator is built; an invalid one makes
//! [`Source::check`] and every batch call return the error (one-point calls
//! give NaN), as the fractals do.
//!
//! The files, one operator each: `map.rs` [`Map`] (its pieces, parameter
//! checks and slopes), `combine.rs` [`Combine`], `blend.rs` [`Blend`] (its
//! weight and slope); `rows.rs` the grid pass the three share. The helpers
//! more than one operator uses are here.
//!
//! [`Source::check`]: crate::Source::check

mod blend;
mod combine;
mod map;
mod rows;

pub use blend::Blend;
pub use combine::Combine;
pub use map::{MAX_CONTROL_POINTS, Map};

use crate::Error;
use crate::simd::{MAX_LANES, Simd};

/// `Err` for a non-finite parameter.
fn finite(name: &'static str, value: f32) -> Result<(), Error> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFiniteParameter { name, value })
    }
}

fn invalid(name: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidParameter {
        name,
        reason: reason.into(),
    }
}

/// `v` clamped to `[lo, hi]`; NaN stays NaN (`min` and `max` return their
/// second operand when unordered).
#[cfg_attr(not(debug_assertions), inline(always))]
fn clamp<S: Simd>(s: S, v: S::F, lo: f32, hi: f32) -> S::F {
    s.max(s.splat(lo), s.min(s.splat(hi), v))
}

/// Lane arrays of `S::F` rows: every row's first `S::LANES` values.
pub(super) type LaneRows = Vec<[f32; MAX_LANES]>;

/// The lanes of each of `rows` (how an operator in 5 dimensions and more
/// hands its inputs' values and derivatives to its rules, which run lane
/// by lane through `Scalar`: compiled once, not once per level).
pub(super) fn store_rows<S: Simd>(s: S, rows: &[S::F]) -> LaneRows {
    rows.iter()
        .map(|v| {
            let mut lanes = [0.0f32; MAX_LANES];
            s.store(*v, &mut lanes[..S::LANES]);
            lanes
        })
        .collect()
}

/// [`store_rows`] back into vectors.
pub(super) fn load_rows<S: Simd>(s: S, lanes: &[[f32; MAX_LANES]], rows: &mut [S::F]) {
    for (v, lanes) in rows.iter_mut().zip(lanes) {
        *v = s.load(&lanes[..S::LANES]);
    }
}

/// One vector's lanes.
pub(super) fn store_one<S: Simd>(s: S, v: S::F) -> [f32; MAX_LANES] {
    let mut lanes = [0.0f32; MAX_LANES];
    s.store(v, &mut lanes[..S::LANES]);
    lanes
}

/// The period shared by every input on an axis: periodic only where all
/// inputs repeat with the same period.
fn shared_period(all: &[Option<u64>]) -> Option<u64> {
    all.iter().all(|p| *p == all[0]).then_some(all[0]).flatten()
}
