//! A pack's cells reduced by a period in vectors, in 32-bit lanes or as
//! exact integers in `f32`, for periods up to [`VECTOR_PERIOD_MAX`].

use crate::simd::Simd;

/// Largest period whose cells [`periodic_cells32`] reduces in vectors.
pub(crate) const VECTOR_PERIOD_MAX: u64 = 1 << 24;

/// `(floor mod period, (floor + 1) mod period)` of every lane of an already
/// floored pack, in 32-bit lanes, for `period` ≤ [`VECTOR_PERIOD_MAX`];
/// `None` if the period is larger or a lane is too far from the origin (the
/// quotient below could be off by more than one), NaN or ±inf.
///
/// The quotient is `q = floor((floor + ½) · (1/period))` in `f32`, then
/// `r = cell − q · period` in wrapping 32-bit arithmetic (exact, since the
/// true `r` is small).
/// - While |floor| < 2²¹ (every lane of the pack), `q` is exact:
///   `(floor + ½) / period` lies at least `½ / period` from an integer,
///   and the two roundings (of `1/period` and of the product) move it by
///   under `|q| · 2⁻²³ < ¼ / period`. So `r` is in `[0, period)` at once.
/// - Farther out, while |q| < 2²², `q` is `floor(floor / period)` or one
///   off either way (`floor + ½` may round to a neighbour of `floor`), so
///   `r` lies in `[−period, 2·period)`, and one unsigned `min` each way
///   brings it into `[0, period)`: `min(r, r + period)` adds the period to
///   a negative `r` (as unsigned it is above `2³² − period`),
///   `min(r, r − period)` takes it from an `r` at or above the period
///   (below, `r − period` wraps high).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn periodic_cells32<S: Simd>(s: S, floored: S::F, period: u64) -> Option<(S::U, S::U)> {
    if period > VECTOR_PERIOD_MAX {
        return None;
    }
    let (quotient, exact) = period_quotients(s, floored, period);
    let (cells, cells_in_range) = s.cells32(floored);
    let (quotients, _) = s.cells32(quotient);
    if !exact {
        // |q| < 2²² when q · 2⁹ (an exact product) is in i32 range.
        let (_, quotients_small) = s.cells32(quotient * s.splat(512.0));
        if !(cells_in_range && quotients_small) {
            return None;
        }
    }
    let p = period as u32;
    let (plus, minus) = (s.splat_u32(p), s.splat_u32(p.wrapping_neg()));
    let fix_up = (!exact).then_some(plus);
    let (mut c0, mut c1) = (cells, cells);
    crate::kernel::for_each_part!(S, |k| {
        let (cell, quotient) = (s.u32_part(cells, k), s.u32_part(quotients, k));
        let (r, next) = remainders(s, cell, quotient, minus, fix_up);
        s.set_u32_part(&mut c0, k, r);
        s.set_u32_part(&mut c1, k, next);
    });
    Some((c0, c1))
}

/// The quotient `floor((floor + ½) · (1/period))` of every lane of an
/// already floored pack, in `f32`, and whether it is exact in every lane:
/// whether every |floor| < 2²¹ (see [`periodic_cells32`]), which holds
/// exactly when floor · 2¹⁰ (an exact product) is in i32 range.
#[cfg_attr(not(debug_assertions), inline(always))]
fn period_quotients<S: Simd>(s: S, floored: S::F, period: u64) -> (S::F, bool) {
    let reciprocal = s.splat((1.0 / period as f64) as f32);
    let quotient = s.floor((floored + s.splat(0.5)) * reciprocal);
    let (_, exact) = s.cells32(floored * s.splat(1024.0));
    (quotient, exact)
}

/// `(floor mod period, (floor + 1) mod period)` of every lane of an already
/// floored pack, as exact integers in `f32`, for `period` ≤
/// [`VECTOR_PERIOD_MAX`]; `None` if the period is larger or a lane has
/// |floor| ≥ 2²¹ (NaN and ±inf included).
///
/// The quotient is [`periodic_cells32`]'s, exact below 2²¹. Then `q·period`
/// is an integer below 2²⁴ in magnitude (|q| ≥ 2 only for periods below
/// 2²¹, and |q·period| ≤ |floor| + period), so `floor − q·period` and the
/// rest are exact.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn periodic_cells_f32<S: Simd>(
    s: S,
    floored: S::F,
    period: u64,
) -> Option<(S::F, S::F)> {
    if period > VECTOR_PERIOD_MAX {
        return None;
    }
    let (q, exact) = period_quotients(s, floored, period);
    if !exact {
        return None;
    }
    let p = s.splat(period as f32);
    let whole = floored - q * p;
    // whole + 1, less the period where it reaches it (`wrap` is then 1,
    // elsewhere max(0, a non-positive integer)).
    let next = whole + s.splat(1.0);
    let wrap = s.max(s.splat(0.0), next - p + s.splat(1.0));
    Some((whole, next - wrap * p))
}

/// A part's cells `r = cell − quotient · period` and `(r + 1) mod period`
/// in wrapping 32-bit lanes (`minus`: −period mod 2³²), for a quotient
/// that is `floor(cell / period)`. With `fix_up` (the period itself), the
/// quotient may be one off either way and `r` is brought into
/// `[0, period)` first (see [`periodic_cells32`]).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn remainders<S: Simd>(
    s: S,
    cell: S::UP,
    quotient: S::UP,
    minus: S::UP,
    fix_up: Option<S::UP>,
) -> (S::UP, S::UP) {
    let mut r = s.add_u32(cell, s.mul_u32(quotient, minus));
    if let Some(plus) = fix_up {
        r = s.min_u32(r, s.add_u32(r, plus));
        r = s.min_u32(r, s.add_u32(r, minus));
    }
    let next = s.add_u32(r, s.splat_u32(1));
    (r, s.min_u32(next, s.add_u32(next, minus)))
}
