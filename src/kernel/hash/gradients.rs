//! The coordinates mode's gradient tables: 8 directions in 2D, the
//! cube's and hypercube's diagonals in 3D and 4D.

/// Length of the 2D gradients: 387/256, so the largest |noise2| is just
/// under 1 with the quintic fade (0.99897; unit vectors reach 0.66082;
/// cubic 1.00179, cosine 1.00116, linear 1.00876).
pub(crate) const GRAD2_LENGTH: f32 = 387.0 / 256.0;
const COS_22_5: f32 = 0.923_879_5;
const SIN_22_5: f32 = 0.382_683_43;
/// 2D gradients by component: 8 directions at 22.5° + k·45° (as far from
/// the axes as from the diagonals), index = the hash's top 3 bits.
pub(crate) const GRAD2: [[f32; 8]; 2] = {
    let (c, s) = (COS_22_5 * GRAD2_LENGTH, SIN_22_5 * GRAD2_LENGTH);
    [[c, s, -s, -c, -c, -s, s, c], [s, c, c, s, -s, -c, -c, -s]]
};

/// Component magnitude of the 3D gradients: 341/512 (just under ⅔), so
/// the largest |noise3|, 1.5 · 341/512 = 0.99902 at a cell's centre for
/// every fade, stays below 1.
pub(crate) const GRAD3_COMPONENT: f32 = 341.0 / 512.0;
/// 3D gradients by component: the 8 cube diagonals (±1, ±1, ±1) ·
/// `GRAD3_COMPONENT`; bit `a` of the index (the hash's top 3 bits) set means
/// component `a` is negative (the definition [`CoordinatesMode`]'s gradients
/// and `dot` are tested against; they pick signs by bits, not from this).
///
/// [`CoordinatesMode`]: super::CoordinatesMode
#[cfg(test)]
pub(crate) const GRAD3: [[f32; 8]; 3] = {
    let mut t = [[0.0f32; 8]; 3];
    let mut i = 0;
    while i < 8 {
        let mut a = 0;
        while a < 3 {
            t[a][i] = if (i >> a) & 1 == 1 {
                -GRAD3_COMPONENT
            } else {
                GRAD3_COMPONENT
            };
            a += 1;
        }
        i += 1;
    }
    t
};

/// 4D gradients by component: the 16 hypercube diagonals (±½, ±½, ±½, ±½),
/// whose largest |noise4| is exactly 1 (at a cell's centre, every fade); bit `a` of
/// the index (the hash's top 4 bits) set means component `a` is negative
/// (the definition, as [`GRAD3`]).
#[cfg(test)]
pub(crate) const GRAD4_DIAGONAL: [[f32; 16]; 4] = {
    let mut t = [[0.0f32; 16]; 4];
    let mut i = 0;
    while i < 16 {
        let mut a = 0;
        while a < 4 {
            t[a][i] = if (i >> a) & 1 == 1 { -0.5 } else { 0.5 };
            a += 1;
        }
        i += 1;
    }
    t
};

/// Component magnitude of the diagonal gradients by dimension (3D: every
/// entry of [`GRAD3`], 4D: of [`GRAD4_DIAGONAL`]).
pub(super) const DIAGONAL_COMPONENT: [f32; 5] = [0.0, 0.0, 0.0, GRAD3_COMPONENT, 0.5];
