//! PNG pixels from values ([`Pixels`]): palette colours, 16-bit heights,
//! and tangent-space normals from the analytic gradient.

use super::encoding::Band;
use crate::palette::{Palette, Scale};

/// How PNG pixels are made from values.
#[derive(Debug, Clone, Copy)]
pub enum Pixels {
    /// 8-bit, gray or RGB in a palette.
    Colour(Palette, Scale),
    /// 16-bit gray heights.
    Height(Scale),
    /// RGB8 tangent-space normals of the surface `z = strength · value(x, y)`
    /// (x, y in lattice cells), from the band's analytic gradient:
    /// `n = normalize(−strength · ∂v/∂x, −strength · ∂v/∂y, 1)`, each
    /// component `c` stored as `round(255 · (c + 1) / 2)`; green is `−n_y`
    /// instead when the flag is set (`--normal-flip-y`).
    Normal(f32, bool),
}

impl Pixels {
    /// The PNG bytes of `band` (whole rows) into `bytes`.
    pub(super) fn encode(&self, band: Band<'_>, bytes: &mut Vec<u8>) {
        bytes.clear();
        let values = band.values;
        match *self {
            Pixels::Colour(palette, scale) if palette.is_gray() => {
                bytes.extend(values.iter().map(|&v| scale.byte(v)));
            }
            Pixels::Colour(palette, scale) => {
                bytes.extend(values.iter().flat_map(|&v| palette.rgb(scale.t(v) as f32)));
            }
            Pixels::Height(scale) => {
                bytes.extend(values.iter().flat_map(|&v| scale.word(v).to_be_bytes()));
            }
            Pixels::Normal(strength, flip_y) => {
                let [dx, dy] = band
                    .gradient
                    .expect("a normal map's band carries its gradient");
                // Flipped, green is the component along −y: that of −dy.
                let sign = if flip_y { -1.0 } else { 1.0 };
                bytes.extend(
                    dx.iter()
                        .zip(dy)
                        .flat_map(|(&dx, &dy)| normal_rgb(strength, dx, sign * dy)),
                );
            }
        }
    }
}

/// The RGB8 of the unit normal `normalize(−s·dx, −s·dy, 1)`: each
/// component `c` in [−1, 1] as `round(255 · (c + 1) / 2)`, in `f64`.
pub fn normal_rgb(strength: f32, dx: f32, dy: f32) -> [u8; 3] {
    let s = f64::from(strength);
    let n = [-s * f64::from(dx), -s * f64::from(dy), 1.0];
    let length = (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
    n.map(|c| (255.0 * (c / length + 1.0) / 2.0).round().clamp(0.0, 255.0) as u8)
}
