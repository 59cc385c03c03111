//! From values to colours.
//!
//! A [`Scale`] maps the displayed range `lo..hi` to `t` in `[0, 1]`
//! (clamped); a [`Palette`] maps `t` to a colour. Gray levels are
//! `round(255 · t)`, 16-bit heights `round(65535 · t)`.
//!
//! The perceptual maps (`viridis`, `magma`, `inferno`, `plasma`,
//! `cividis`, `turbo`) are the `colorous` crate's (d3-scale-chromatic's
//! published fits), evaluated at `t`: no tables of ours to get wrong.

use clap::ValueEnum;

/// The `--palette` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Palette {
    /// Black (low) to white (high), an 8-bit grayscale PNG.
    Gray,
    /// Green for positive values, red for negative, black at 0; the range
    /// is made symmetric about 0.
    Signed,
    /// Deep water, shallows, beach, grass, forest, rock, snow; the coast at
    /// 46% of the range (about half land for noise centred on 0).
    Terrain,
    /// White clouds on a blue sky; the lower 40% of the range is clear sky.
    Clouds,
    /// Viridis: dark blue through green to yellow, perceptually uniform.
    Viridis,
    /// Magma: black through purple and orange to pale yellow.
    Magma,
    /// Inferno: black through purple and red to yellow.
    Inferno,
    /// Plasma: blue through magenta to yellow.
    Plasma,
    /// Cividis: blue to yellow, readable with colour-vision deficiency.
    Cividis,
    /// Turbo: an improved rainbow, dark blue through green to dark red.
    Turbo,
}

/// Terrain colour stops `(t, rgb)`, linear between them.
const TERRAIN: [(f32, [u8; 3]); 10] = [
    (0.0, [8, 28, 90]),       // deep water
    (0.38, [30, 90, 170]),    // open water
    (0.46, [95, 165, 215]),   // shallows
    (0.465, [222, 206, 150]), // beach
    (0.49, [110, 170, 70]),   // grass
    (0.62, [48, 122, 44]),    // forest
    (0.75, [116, 100, 80]),   // rock
    (0.87, [152, 142, 136]),  // high rock
    (0.93, [244, 244, 244]),  // snow line
    (1.0, [255, 255, 255]),   // peaks
];

impl Palette {
    /// Whether the palette is gray, so an image needs one channel, not three.
    pub fn is_gray(self) -> bool {
        self == Palette::Gray
    }

    /// The range to display for values in `lo..hi`: `signed` widens it to be
    /// symmetric about 0, so that 0 is black between red and green.
    pub fn display_range(self, lo: f32, hi: f32) -> (f32, f32) {
        match self {
            Palette::Signed => {
                let m = lo.abs().max(hi.abs());
                (-m, m)
            }
            _ => (lo, hi),
        }
    }

    /// The colour at `t` in `[0, 1]`.
    pub fn rgb(self, t: f32) -> [u8; 3] {
        match self {
            Palette::Gray => [to_byte(t); 3],
            Palette::Signed => {
                let s = 2.0 * t - 1.0;
                if s >= 0.0 {
                    [0, to_byte(s), 0]
                } else {
                    [to_byte(-s), 0, 0]
                }
            }
            Palette::Terrain => {
                let upper = TERRAIN
                    .iter()
                    .position(|&(at, _)| at >= t)
                    .unwrap_or(9)
                    .max(1);
                let (t0, c0) = TERRAIN[upper - 1];
                let (t1, c1) = TERRAIN[upper];
                mix(c0, c1, ((t - t0) / (t1 - t0)).clamp(0.0, 1.0))
            }
            Palette::Clouds => {
                let sky = mix([40, 90, 180], [100, 160, 230], t);
                // smoothstep from t = 0.4 (clear) to 0.9 (white)
                let c = ((t - 0.4) / 0.5).clamp(0.0, 1.0);
                mix(sky, [255, 255, 255], c * c * (3.0 - 2.0 * c))
            }
            Palette::Viridis => perceptual(colorous::VIRIDIS, t),
            Palette::Magma => perceptual(colorous::MAGMA, t),
            Palette::Inferno => perceptual(colorous::INFERNO, t),
            Palette::Plasma => perceptual(colorous::PLASMA, t),
            Palette::Cividis => perceptual(colorous::CIVIDIS, t),
            Palette::Turbo => perceptual(colorous::TURBO, t),
        }
    }

    /// The 256 colours at `t = i / 255`, as `r, g, b, r, g, b, …` (a GIF palette).
    pub fn table(self) -> Vec<u8> {
        (0..256).flat_map(|i| self.rgb(i as f32 / 255.0)).collect()
    }
}

/// `gradient` at `t` in `[0, 1]`.
fn perceptual(gradient: colorous::Gradient, t: f32) -> [u8; 3] {
    let colorous::Color { r, g, b } = gradient.eval_continuous(f64::from(t.clamp(0.0, 1.0)));
    [r, g, b]
}

/// `a` to `b` by `t` in `[0, 1]`, per channel.
fn mix(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    std::array::from_fn(|i| {
        let (a, b) = (f32::from(a[i]), f32::from(b[i]));
        (a + (b - a) * t).round() as u8
    })
}

/// `round(255 · t)` for `t` in `[0, 1]`.
fn to_byte(t: f32) -> u8 {
    (t * 255.0).round() as u8
}

/// Maps values in `lo..hi` to `[0, 1]`.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    lo: f64,
    hi: f64,
}

impl Scale {
    /// The scale for `lo..hi`. A field with one value throughout
    /// (`lo == hi`) gets `lo - 1 .. hi + 1`, so it shows mid-gray.
    pub fn new(lo: f32, hi: f32) -> Scale {
        let (lo, hi) = (f64::from(lo), f64::from(hi));
        if lo < hi {
            Scale { lo, hi }
        } else {
            Scale {
                lo: lo - 1.0,
                hi: hi + 1.0,
            }
        }
    }

    /// The ends of the range.
    pub fn range(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// `(v - lo) / (hi - lo)`, clamped to `[0, 1]`.
    pub fn t(&self, v: f32) -> f64 {
        ((f64::from(v) - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
    }

    /// `round(255 · t)`: a gray level or a palette index.
    pub fn byte(&self, v: f32) -> u8 {
        (self.t(v) * 255.0).round() as u8
    }

    /// `round(65535 · t)`: a 16-bit height.
    pub fn word(&self, v: f32) -> u16 {
        (self.t(v) * 65535.0).round() as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_ends_and_middle() {
        let s = Scale::new(-2.0, 2.0);
        assert_eq!((s.byte(-2.0), s.byte(0.0), s.byte(2.0)), (0, 128, 255));
        assert_eq!((s.word(-9.0), s.word(9.0)), (0, 65535));
        assert_eq!(Scale::new(3.0, 3.0).byte(3.0), 128);
    }

    #[test]
    fn signed_is_green_above_red_below() {
        let (lo, hi) = Palette::Signed.display_range(-0.5, 0.25);
        assert_eq!((lo, hi), (-0.5, 0.5));
        let s = Scale::new(lo, hi);
        let rgb = |v: f32| Palette::Signed.rgb(s.t(v) as f32);
        assert_eq!(rgb(0.5), [0, 255, 0]);
        assert_eq!(rgb(-0.5), [255, 0, 0]);
        assert_eq!(rgb(0.0), [0, 0, 0]);
    }

    #[test]
    fn terrain_goes_from_water_to_snow() {
        let water = Palette::Terrain.rgb(0.2);
        assert!(water[2] > water[0] && water[2] > water[1], "{water:?}");
        let grass = Palette::Terrain.rgb(0.6);
        assert!(grass[1] > grass[0] && grass[1] > grass[2], "{grass:?}");
        assert_eq!(Palette::Terrain.rgb(1.0), [255, 255, 255]);
        assert_eq!(Palette::Terrain.rgb(0.0), TERRAIN[0].1);
    }

    /// The published end colours of the matplotlib maps (viridis #440154
    /// to #fde725, magma #000004 to #fcfdbf) and turbo's d3 fit, #23171b to #900c00, blue on the way up.
    #[test]
    fn perceptual_maps_have_their_published_ends() {
        let close =
            |got: [u8; 3], want: [u8; 3]| got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 2);
        assert!(close(Palette::Viridis.rgb(0.0), [0x44, 0x01, 0x54]));
        assert!(close(Palette::Viridis.rgb(1.0), [0xfd, 0xe7, 0x25]));
        assert!(close(Palette::Magma.rgb(0.0), [0x00, 0x00, 0x04]));
        assert!(close(Palette::Magma.rgb(1.0), [0xfc, 0xfd, 0xbf]));
        assert!(close(Palette::Turbo.rgb(0.0), [0x23, 0x17, 0x1b]));
        assert!(close(Palette::Turbo.rgb(1.0), [0x90, 0x0c, 0x00]));
        let [r, g, b] = Palette::Turbo.rgb(0.15);
        assert!(b > r && b > g, "turbo is blue low: {:?}", [r, g, b]);
    }
}
