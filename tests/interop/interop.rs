//! noise-rs interop (the `noise` feature): every source type's
//! `NoiseFn::get` is `fillN_f64` at that point, bit for bit, in 1D to 4D, at
//! random and adversarial points, against every level's batch; invalid
//! sources give NaN. A noise-rs function as a source (`NoiseFnSource`):
//! its dimension rules, a round trip, and `Fbm` over noise-rs's `Perlin`
//! against an oracle computed from noise-rs calls directly.
use std::sync::{Arc, Mutex};

use crate::common::{Rng, adversarial, borrow64, levels};
use noise::NoiseFn;
use noisefield::{
    Billow, Blend, Combine, Custom, CustomNoise, DynSource, Fbm, Level, Map, Marble, NoiseFnSource,
    Perlin, Ridged, Source, Turbulence, Value, Warp,
};

/// Every `NoiseFn` dimension this crate implements.
trait AllDims: NoiseFn<f64, 1> + NoiseFn<f64, 2> + NoiseFn<f64, 3> + NoiseFn<f64, 4> {}
impl<T: NoiseFn<f64, 1> + NoiseFn<f64, 2> + NoiseFn<f64, 3> + NoiseFn<f64, 4>> AllDims for T {}

/// `get` at a point of 1 to 4 coordinates.
fn get(s: &impl AllDims, p: &[f64]) -> f64 {
    match *p {
        [x] => NoiseFn::<f64, 1>::get(s, [x]),
        [x, y] => NoiseFn::<f64, 2>::get(s, [x, y]),
        [x, y, z] => NoiseFn::<f64, 3>::get(s, [x, y, z]),
        [x, y, z, w] => NoiseFn::<f64, 4>::get(s, [x, y, z, w]),
        _ => panic!("{} coordinates", p.len()),
    }
}

/// `fill_f64` of `s` at `points` (one slice per axis).
fn fill_f64(s: &DynSource, points: &[Vec<f64>]) -> Vec<f32> {
    let mut out = vec![0.0; points[0].len()];
    s.fill_f64_dyn(&borrow64(points), &mut out).unwrap();
    out
}

/// `dims` axes: random `f64` points in [−300, 300) (most not `f32`
/// values), the adversarial `f32` table widened, and `f64` extremes.
fn points(dims: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = Rng(seed);
    let mut extra: Vec<f64> = adversarial().into_iter().map(f64::from).collect();
    extra.extend([
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        1_099_511_627_776.75,
        -0.0,
        0.1,
    ]);
    (0..dims)
        .map(|d| {
            let mut axis: Vec<f64> = (0..600).map(|_| rng.uniform(-300.0, 300.0)).collect();
            // Each extreme once on every axis, the others random.
            for (k, &v) in extra.iter().enumerate() {
                axis[(k * 7 + d * 3) % 600] = v;
            }
            axis
        })
        .collect()
}

/// `get` equals `fillN_f64` bit for bit (as `f64`) for `make()` at every
/// level, in 1D to 4D.
fn check_get<S: Source + AllDims + 'static>(name: &str, make: impl Fn() -> S) {
    for dims in 1..=4 {
        let pts = points(dims, 100 + dims as u64);
        let src = make();
        let got: Vec<u64> = (0..pts[0].len())
            .map(|i| {
                let p: Vec<f64> = pts.iter().map(|a| a[i]).collect();
                get(&src, &p).to_bits()
            })
            .collect();
        for level in levels() {
            let want = fill_f64(&DynSource::new(make()).with_level(level).unwrap(), &pts);
            for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let p: Vec<f64> = pts.iter().map(|a| a[i]).collect();
                assert_eq!(
                    g,
                    f64::from(w).to_bits(),
                    "{name} {dims}D {level} at {p:?}: get {} vs fill_f64 {w}",
                    f64::from_bits(g)
                );
            }
        }
    }
}

/// A user noise for the `Custom` case: a wave pattern, NaN at non-finite
/// coordinates.
#[derive(Clone, Debug)]
struct Waves;

impl CustomNoise for Waves {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        for (i, v) in out.iter_mut().enumerate() {
            let s: f64 = points
                .iter()
                .enumerate()
                .map(|(a, p)| p[i] * (a as f64 + 0.5))
                .sum();
            *v = s.sin() as f32;
        }
    }
    fn bounds(&self, _: usize) -> (f32, f32) {
        (-1.0, 1.0)
    }
}

#[test]
fn get_is_fill_f64_for_every_source_type() {
    check_get("perlin", || Perlin::new(1));
    check_get("perlin reference", Perlin::reference);
    check_get("value", || Value::new(2));
    check_get("fbm", || Fbm::new(Perlin::new(3)).octaves(4));
    check_get("billow", || Billow::new(Value::new(4)).octaves(3));
    check_get("ridged", || Ridged::new(Perlin::new(5)).octaves(3));
    check_get("turbulence", || Turbulence::new(Value::new(6)).octaves(2));
    check_get("marble", || Marble::new(Perlin::new(7)).octaves(2));
    check_get("map", || {
        Map::terrace(Fbm::new(Perlin::new(8)).octaves(2), &[-0.5, 0.0, 0.5])
    });
    check_get("combine", || Combine::max(Perlin::new(9), Value::new(10)));
    check_get("blend", || {
        Blend::select(Perlin::new(11), Value::new(12), Perlin::new(13), 0.1, 0.2)
    });
    check_get("warp", || {
        Warp::new(Perlin::new(14), Fbm::new(Value::new(15)).octaves(2)).amplitude(0.5)
    });
    check_get("custom", || Custom::new(Waves));
    check_get("fbm over custom", || {
        Fbm::new(Custom::new(Waves)).octaves(3)
    });
}

/// An invalid source gives NaN from `get` (and errors from batches).
#[test]
fn invalid_sources_give_nan() {
    let fbm = Fbm::new(Perlin::new(1)).octaves(0);
    let clamp = Map::clamp(Perlin::new(1), 1.0, -1.0);
    assert!(fbm.check().is_err() && clamp.check().is_err());
    for p in [[0.5, 0.25, 0.125, 3.0], [10.0, -3.0, 7.5, 0.0]] {
        assert!(NoiseFn::<f64, 2>::get(&fbm, [p[0], p[1]]).is_nan());
        assert!(NoiseFn::<f64, 3>::get(&clamp, [p[0], p[1], p[2]]).is_nan());
        assert!(NoiseFn::<f64, 4>::get(&fbm, p).is_nan());
        // The valid ones are not NaN there.
        assert!(!NoiseFn::<f64, 3>::get(&Perlin::new(1), [p[0], p[1], p[2]]).is_nan());
    }
}

/// A noise-rs function in its own dimension, fewer (missing coordinates 0)
/// and more (NaN); a noisefield source round-tripped through `NoiseFn`.
#[test]
fn noise_fn_source_dimensions_and_round_trip() {
    let nrs = noise::Perlin::new(21);
    let src = Custom::new(NoiseFnSource::<_, 3>::new(nrs, (-1.0, 1.0)));
    let pts = points(4, 7);
    let n = pts[0].len();
    let boxed = DynSource::new(src.clone());
    let three = fill_f64(&boxed, &pts[..3]);
    let two = fill_f64(&boxed, &pts[..2]);
    let one = fill_f64(&boxed, &pts[..1]);
    let four = fill_f64(&boxed, &pts);
    // noise-rs's own value, or NaN where it has none: a non-finite
    // coordinate or one beyond ±2⁶³ (where noise-rs's Perlin panics).
    let want = |p: [f64; 3]| {
        if p.iter()
            .any(|c| !c.is_finite() || c.abs() >= 9.223_372_036_854_776e18)
        {
            return f32::NAN;
        }
        let v = nrs.get(p) as f32;
        if v.is_nan() { f32::NAN } else { v }
    };
    let mut outside = 0;
    for i in 0..n {
        let (x, y, z) = (pts[0][i], pts[1][i], pts[2][i]);
        assert_eq!(three[i].to_bits(), want([x, y, z]).to_bits(), "3D {i}");
        assert_eq!(two[i].to_bits(), want([x, y, 0.0]).to_bits(), "2D {i}");
        assert_eq!(one[i].to_bits(), want([x, 0.0, 0.0]).to_bits(), "1D {i}");
        assert_eq!(four[i].to_bits(), f32::NAN.to_bits(), "4D {i}");
        outside += usize::from(three[i].is_nan());
    }
    assert!(outside > 10, "{outside}");
    // Under a fractal, huge but finite inputs give huge octave
    // coordinates: NaN there, no panic.
    let fbm = Fbm::new(src.clone()).octaves(8).lacunarity(400.0);
    let mut out = [0.0f32; 2];
    fbm.fill([&[1e9, 0.5], &[0.5, 0.5], &[0.5, 0.5]], &mut out)
        .unwrap();
    assert!(out[0].is_nan() && !out[1].is_nan(), "{out:?}");
    assert_eq!(src.bounds(2), (-1.0, 1.0));
    assert!(three.iter().filter(|v| **v != 0.0).count() > n / 2);

    // noisefield → NoiseFn → NoiseFnSource → source: the same bits as the
    // 4D source at the point padded with zeros (NaN beyond ±2⁶³).
    let fbm = Fbm::new(Perlin::new(5)).octaves(3);
    let back = Custom::new(NoiseFnSource::<_, 4>::new(fbm.clone(), fbm.bounds(4)));
    for dims in 1..=4 {
        let mut padded = pts[..dims].to_vec();
        padded.resize(4, vec![0.0; n]);
        let mut want = fill_f64(&DynSource::new(fbm.clone()), &padded);
        for (i, w) in want.iter_mut().enumerate() {
            if padded
                .iter()
                .any(|a| a[i].abs() >= 9.223_372_036_854_776e18)
            {
                *w = f32::NAN;
            }
        }
        for level in levels() {
            let back = DynSource::new(back.clone().with_level(level).unwrap());
            let got = fill_f64(&back, &pts[..dims]);
            for i in 0..n {
                assert_eq!(got[i].to_bits(), want[i].to_bits(), "{dims}D {level} {i}");
            }
        }
    }
}

/// Records the points `fill` is called with (one per call at the scalar
/// level); outputs 0.
#[derive(Clone, Debug, Default)]
struct Probe {
    seen: Arc<Mutex<Vec<[f64; 3]>>>,
}

impl CustomNoise for Probe {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        for (i, v) in out.iter_mut().enumerate() {
            self.seen
                .lock()
                .unwrap()
                .push([points[0][i], points[1][i], points[2][i]]);
            *v = 0.0;
        }
    }
    fn bounds(&self, _: usize) -> (f32, f32) {
        (0.0, 0.0)
    }
}

/// `Fbm` over noise-rs's `Perlin` is `Σ ½ⁱ · perlin(c · 2ⁱ + oᵢ)` summed
/// in `f32` in octave order, with noise-rs called here directly. The
/// octave offsets `oᵢ` are measured with a probe source (at the origin),
/// after checking they are per-octave constants (the same at another
/// point, 0 for octave 0).
#[test]
fn fbm_over_noise_rs_perlin_is_the_octave_sum_of_its_calls() {
    const OCTAVES: usize = 5;
    let probe = Probe::default();
    let fbm = Fbm::new(Custom::new(probe.clone()))
        .octaves(OCTAVES as u32)
        .with_level(Level::Scalar)
        .unwrap();
    let seen_at = |c: [f64; 3]| {
        let mut out = [0.0f32];
        fbm.fill_f64([&[c[0]], &[c[1]], &[c[2]]], &mut out).unwrap();
        std::mem::take(&mut *probe.seen.lock().unwrap())
    };
    let offsets = seen_at([0.0; 3]);
    assert_eq!(offsets.len(), OCTAVES);
    assert_eq!(offsets[0], [0.0; 3]);
    let c = [1.5, -2.25, 3.0];
    let seen = seen_at(c);
    for (i, (p, o)) in seen.iter().zip(&offsets).enumerate() {
        let f = (1u64 << i) as f64;
        for a in 0..3 {
            assert_eq!(p[a], c[a] * f + o[a], "octave {i} axis {a}");
        }
    }

    let nrs = noise::Perlin::new(33);
    let fbm = Fbm::new(Custom::new(NoiseFnSource::<_, 3>::new(nrs, (-1.0, 1.0))))
        .octaves(OCTAVES as u32)
        .persistence(0.5);
    let pts = Rng(9).points(3, 3000, -100.0, 100.0);
    let p64: Vec<Vec<f64>> = pts
        .iter()
        .map(|a| a.iter().map(|&v| f64::from(v) + 1e-7).collect())
        .collect();
    let (mut want, mut want32) = (vec![0.0f32; 3000], vec![0.0f32; 3000]);
    for k in 0..3000 {
        let (mut acc, mut acc32) = (0.0f32, 0.0f32);
        for (i, o) in offsets.iter().enumerate() {
            let amplitude = 0.5f32.powi(i as i32);
            // f64 points: octave coordinates in f64.
            let f = (1u64 << i) as f64;
            let n = nrs.get([
                p64[0][k] * f + o[0],
                p64[1][k] * f + o[1],
                p64[2][k] * f + o[2],
            ]);
            let v = amplitude * n as f32;
            acc = if i == 0 { v } else { acc + v };
            // f32 points: octave coordinates in f32, then widened.
            let f32c = |a: usize| f64::from(pts[a][k] * f as f32 + o[a] as f32);
            let n = nrs.get([f32c(0), f32c(1), f32c(2)]);
            let v = amplitude * n as f32;
            acc32 = if i == 0 { v } else { acc32 + v };
        }
        want[k] = acc;
        want32[k] = acc32;
    }
    for level in levels() {
        let fbm = fbm.clone().with_level(level).unwrap();
        let got = fill_f64(&DynSource::new(fbm.clone()), &p64);
        let mut got32 = vec![0.0f32; 3000];
        fbm.fill([&pts[0], &pts[1], &pts[2]], &mut got32).unwrap();
        for k in 0..3000 {
            assert_eq!(got[k].to_bits(), want[k].to_bits(), "{level} f64 {k}");
            assert_eq!(got32[k].to_bits(), want32[k].to_bits(), "{level} f32 {k}");
        }
    }
    // Not a degenerate field.
    assert!(want.iter().filter(|v| v.abs() > 0.05).count() > 1000);
}
