//! User sources (`CustomNoise` through `Custom`): against the user's
//! function called here directly, and against the crate's own sources
//! wrapped as user sources (so `Fbm`, `Warp`, `Combine` over a wrapped
//! `Perlin` must be `Fbm`, `Warp`, `Combine` over `Perlin` bit for bit);
//! the same bits at every level, between batches, one point, grids,
//! threads and windows; the batch sizes the user's code sees; NaN.

use std::sync::{Arc, Mutex};

use crate::common::{
    AnyGrid, Rng, SENTINEL_BITS, adversarial, assert_src_f64_levels_agree,
    assert_src_levels_match_scalar, borrow, borrow64, levels, widen,
};
use noisefield::{
    Combine, Custom, CustomNoise, DynSource, Fbm, Grid2, Level, Map, Perlin, Ridged, Source, Value,
    Warp,
};

/// The coordinates of point `i`, missing axes 0.
fn at(points: &[&[f64]], i: usize) -> [f64; 4] {
    let mut p = [0.0; 4];
    for (p, axis) in p.iter_mut().zip(points) {
        *p = axis[i];
    }
    p
}

/// A smooth user function: `sin(1.3x)·cos(0.7y)·cos(0.45z + 0.3w)`, in
/// `f64`, rounded to `f32` (NaN at non-finite coordinates).
fn waves(p: [f64; 4]) -> f32 {
    let [x, y, z, w] = p;
    ((x * 1.3).sin() * (y * 0.7).cos() * (z * 0.45 + w * 0.3).cos()) as f32
}

#[derive(Clone, Debug)]
struct Waves;

impl CustomNoise for Waves {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        for (i, v) in out.iter_mut().enumerate() {
            *v = waves(at(points, i));
        }
    }
    fn bounds(&self, _: usize) -> (f32, f32) {
        (-1.0, 1.0)
    }
}

/// A hash of the point's exact bits into [−1, 1): any change of a
/// coordinate by one ulp changes it, so it shows which coordinates the
/// user's code was given. NaN at non-finite coordinates; a NaN with a
/// payload (not `f32::NAN`) where the hash's low byte is 7.
fn hashed(p: [f64; 4], dims: usize) -> f32 {
    if p.iter().any(|v| !v.is_finite()) {
        return f32::NAN;
    }
    let mut h = dims as u64;
    for v in p {
        h = (h ^ v.to_bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    if h & 0xff == 7 {
        return f32::from_bits(0x7fc0_1234);
    }
    (h >> 40) as f32 / (1u64 << 23) as f32 - 1.0
}

#[derive(Clone, Debug)]
struct Hashed;

impl CustomNoise for Hashed {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        for (i, v) in out.iter_mut().enumerate() {
            *v = hashed(at(points, i), points.len());
        }
    }
    fn bounds(&self, _: usize) -> (f32, f32) {
        (-1.0, 1.0)
    }
}

/// A crate source as a user's noise: `fill` calls its `fillN_f64`.
#[derive(Clone, Debug)]
struct Wrapped<N>(N);

impl<N: Source> CustomNoise for Wrapped<N> {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        let s = &self.0;
        match *points {
            [x] => s.fill_f64([x], out),
            [x, y] => s.fill_f64([x, y], out),
            [x, y, z] => s.fill_f64([x, y, z], out),
            [x, y, z, w] => s.fill_f64([x, y, z, w], out),
            _ => panic!("{} axes", points.len()),
        }
        .unwrap();
    }
    fn bounds(&self, dimension: usize) -> (f32, f32) {
        self.0.bounds(dimension)
    }
}

fn wrapped<N: Source>(n: N) -> Custom<Wrapped<N>> {
    Custom::new(Wrapped(n))
}

/// Records the size and dimension of every batch `fill` receives (and
/// that every slice has the batch's length); outputs `waves`.
#[derive(Clone, Debug, Default)]
struct Recorder {
    calls: Arc<Mutex<Vec<(usize, usize)>>>,
}

impl Recorder {
    fn take(&self) -> Vec<(usize, usize)> {
        std::mem::take(&mut *self.calls.lock().unwrap())
    }
}

impl CustomNoise for Recorder {
    fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
        for axis in points {
            assert_eq!(axis.len(), out.len(), "a slice of another length");
        }
        self.calls.lock().unwrap().push((out.len(), points.len()));
        Waves.fill(points, out);
    }
    fn bounds(&self, _: usize) -> (f32, f32) {
        (-1.0, 1.0)
    }
}

/// `f32` points of `dims` axes: 9000 random ones in [−50, 50) (more than
/// two batches of 4096) with the adversarial table spread over them.
fn f32_points(dims: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut p = Rng(seed).points(dims, 9000, -50.0, 50.0);
    for (k, v) in adversarial().into_iter().enumerate() {
        p[k % dims][k * 101 % 9000] = v;
    }
    p
}

/// `f64` points that are not `f32` values (so they tell the two paths apart).
fn f64_points(dims: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = Rng(seed);
    (0..dims)
        .map(|_| (0..5000).map(|_| rng.uniform(-50.0, 50.0) + 1e-9).collect())
        .collect()
}

/// A combinator over user sources and the same over crate sources.
type Pair = (&'static str, DynSource, DynSource);

fn same_bits(a: &[f32], b: &[f32], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.to_bits(), y.to_bits(), "{what}: sample {i}: {x} vs {y}");
    }
}

fn run_fill(s: &DynSource, p: &[Vec<f32>]) -> Vec<f32> {
    let mut out = vec![f32::from_bits(SENTINEL_BITS); p[0].len()];
    s.fill_dyn(&borrow(p), &mut out).unwrap();
    out
}

fn run_fill_f64(s: &DynSource, p: &[Vec<f64>]) -> Vec<f32> {
    let mut out = vec![f32::from_bits(SENTINEL_BITS); p[0].len()];
    s.fill_f64_dyn(&borrow64(p), &mut out).unwrap();
    out
}

/// The canonical form the crate promises: every NaN is `f32::NAN`.
fn canonical(v: f32) -> f32 {
    if v.is_nan() { f32::NAN } else { v }
}

/// A custom source is the user's function at the given points: `fillN` and
/// `noiseN` at the `f32` coordinates widened, `fillN_f64` at the `f64`
/// ones; NaN canonical; at every level.
#[test]
fn custom_is_the_users_function_at_the_given_points() {
    for dims in 1..=4 {
        let p = f32_points(dims, dims as u64);
        let wide = widen(&p);
        let want: Vec<f32> = (0..p[0].len())
            .map(|i| canonical(hashed(at(&borrow64(&wide), i), dims)))
            .collect();
        let src = DynSource::new(Custom::new(Hashed));
        same_bits(&run_fill(&src, &p), &want, "fill");
        // Non-canonical NaNs from the user became f32::NAN above; the
        // function did produce them.
        assert!(
            (0..want.len()).any(|i| hashed(at(&borrow64(&wide), i), dims).to_bits() == 0x7fc0_1234),
            "{dims}D: no payload NaN"
        );
        same_bits(&run_fill_f64(&src, &wide), &want, "fill_f64 of f32 points");
        for i in (0..p[0].len()).step_by(97) {
            let c: Vec<f32> = p.iter().map(|a| a[i]).collect();
            assert_eq!(
                src.noise_dyn(&c).unwrap().to_bits(),
                want[i].to_bits(),
                "noise at {c:?}"
            );
        }
        assert_src_levels_match_scalar(&src, &borrow(&p), "custom");

        let q = f64_points(dims, 10 + dims as u64);
        let want: Vec<f32> = (0..q[0].len())
            .map(|i| canonical(hashed(at(&borrow64(&q), i), dims)))
            .collect();
        same_bits(&run_fill_f64(&src, &q), &want, "fill_f64");
        assert_src_f64_levels_agree(&src, &borrow64(&q), "custom f64");
        // The f64 coordinates are not rounded to f32 on the way.
        let narrowed: Vec<Vec<f32>> = q
            .iter()
            .map(|a| a.iter().map(|&v| v as f32).collect())
            .collect();
        let f32_path = run_fill(&src, &narrowed);
        let differ = f32_path.iter().zip(&want).filter(|(a, b)| a != b).count();
        assert!(differ > 4900, "{dims}D: only {differ} differ");
    }
    // A noise that does not say it computes more is 1D–4D.
    let src = DynSource::new(Custom::new(Hashed));
    assert_eq!(
        src.noise_dyn(&[0.5; 5]),
        Err(noisefield::Error::InvalidDimension(5))
    );
}

/// The user's code sees batches of 1 to 4096 points, every slice of the
/// batch's length: 4096-point chunks for batches, whole-row passes for
/// grids, one kernel pack (the level's lanes) inside a combinator, one
/// point for `noiseN`; a failed call never reaches it.
#[test]
fn batch_sizes_the_user_sees() {
    let rec = Recorder::default();
    let src = Custom::new(rec.clone());
    let p = f32_points(3, 7);
    let mut out = vec![0.0; p[0].len()];
    src.fill([&p[0][..], &p[1][..], &p[2][..]], &mut out)
        .unwrap();
    assert_eq!(rec.take(), vec![(4096, 3), (4096, 3), (808, 3)]);
    let q = f64_points(2, 8);
    let mut out = vec![0.0; q[0].len()];
    src.fill_f64([&q[0][..], &q[1][..]], &mut out).unwrap();
    assert_eq!(rec.take(), vec![(4096, 2), (904, 2)]);
    src.noise([1.0, 2.0, 3.0, 4.0]);
    assert_eq!(rec.take(), vec![(1, 4)]);
    let mut out = vec![0.0; 3];
    assert!(src.fill([&[1.0; 3][..], &[1.0; 2][..]], &mut out).is_err());
    assert!(rec.take().is_empty(), "called on a refused batch");

    // Grids: passes of whole rows, at most 4096 samples (or one row,
    // cut into 4096-point calls when longer).
    for (size, par) in [([301, 77], false), ([301, 77], true), ([5000, 3], false)] {
        let grid = Grid2::new([0.5, -3.0], [0.1, 0.2], size);
        let mut out = vec![0.0; size[0] * size[1]];
        if par {
            src.fill_grid_par(&grid, &mut out).unwrap();
        } else {
            src.fill_grid(&grid, &mut out).unwrap();
        }
        let calls = rec.take();
        assert!(
            calls
                .iter()
                .all(|&(n, d)| (1..=4096).contains(&n) && d == 2)
        );
        assert_eq!(
            calls.iter().map(|c| c.0).sum::<usize>(),
            out.len(),
            "{size:?}"
        );
        if !par && size[0] == 301 {
            // 13 rows of 301 per pass: 6 passes, then 12 rows.
            assert_eq!(calls.len(), 6, "{calls:?}");
            assert!(calls[..5].iter().all(|c| c.0 == 13 * 301));
        }
    }

    // Inside a fractal: one call per kernel pack and octave.
    for level in levels() {
        let fbm = Fbm::new(Custom::new(rec.clone()))
            .octaves(2)
            .with_level(level)
            .unwrap();
        let mut out = vec![0.0; 100];
        fbm.fill([&p[0][..100]], &mut out).unwrap();
        let calls = rec.take();
        // One kernel pack: a whole number of the level's registers, at
        // most 64 points; one point on the scalar level.
        let pack = calls[0].0;
        assert!(
            (1..=64).contains(&pack) && pack % level.lanes() == 0,
            "{level}: {pack}"
        );
        assert!(level != Level::Scalar || pack == 1);
        assert!(
            calls.iter().all(|&(n, d)| n == pack && d == 1),
            "{level}: {calls:?}"
        );
        assert_eq!(calls.len(), 2 * 100usize.div_ceil(pack), "{level}");
    }
}

/// `Fbm`, `Ridged`, `Warp` and `Combine` over wrapped crate lattices give
/// exactly what they give over the lattices themselves, in `f32` and
/// `f64`, at every level: the user path hands over the coordinates the
/// kernels use, bit for bit. (Lattices only: a lattice's `fillN_f64` on
/// `f32` values is its `fillN`; a fractal's is not, as it scales octaves in
/// `f64`.)
#[test]
fn combinators_over_wrapped_sources_equal_them_over_the_sources() {
    let perlin = || Perlin::new(5);
    let value = || Value::new(6);
    let cases: Vec<Pair> = vec![
        (
            "fbm",
            DynSource::new(Fbm::new(wrapped(perlin())).octaves(5)),
            DynSource::new(Fbm::new(perlin()).octaves(5)),
        ),
        (
            "ridged over value",
            DynSource::new(Ridged::new(wrapped(value())).octaves(4)),
            DynSource::new(Ridged::new(value()).octaves(4)),
        ),
        (
            "warp",
            DynSource::new(
                Warp::new(wrapped(perlin()), wrapped(value()))
                    .amplitude(0.75)
                    .iterations(2),
            ),
            DynSource::new(Warp::new(perlin(), value()).amplitude(0.75).iterations(2)),
        ),
        (
            "combine",
            DynSource::new(Combine::add(wrapped(perlin()), Map::abs(wrapped(value())))),
            DynSource::new(Combine::add(perlin(), Map::abs(value()))),
        ),
        (
            "fbm over warp",
            DynSource::new(Fbm::new(Warp::new(wrapped(value()), perlin())).octaves(3)),
            DynSource::new(Fbm::new(Warp::new(value(), perlin())).octaves(3)),
        ),
    ];
    for (name, custom, crate_only) in &cases {
        for dims in [1, 2, 3, 4] {
            let p = f32_points(dims, 20 + dims as u64);
            let q = f64_points(dims, 30 + dims as u64);
            let want = run_fill(crate_only, &p);
            let want64 = run_fill_f64(crate_only, &q);
            for level in levels() {
                let s = custom.clone().with_level(level).unwrap();
                same_bits(&run_fill(&s, &p), &want, &format!("{name} {dims}D {level}"));
                same_bits(
                    &run_fill_f64(&s, &q),
                    &want64,
                    &format!("{name} {dims}D f64 {level}"),
                );
            }
            let c: Vec<f32> = p.iter().map(|a| a[3]).collect();
            assert_eq!(
                custom.noise_dyn(&c).unwrap().to_bits(),
                want[3].to_bits(),
                "{name} noise"
            );
        }
    }
}

/// Warp over a user field is not the crate's warp by construction only:
/// compared with an oracle from the user's function and the crate
/// source's `fill3_f64`: `source(c + a · waves(c + oₐ))`.
#[test]
fn fbm_warp_and_add_over_a_user_function_follow_their_definitions() {
    let p = f32_points(3, 40);
    let wide = widen(&p);
    let pts = borrow64(&wide);
    let n = p[0].len();
    let w: Vec<f32> = (0..n).map(|i| waves(at(&pts, i))).collect();

    // Combine::add: waves + the crate's Perlin, in f32.
    let perlin = Perlin::new(9);
    let vp = run_fill(&DynSource::new(perlin.clone()), &p);
    let want: Vec<f32> = w.iter().zip(&vp).map(|(a, b)| canonical(a + b)).collect();
    let add = Combine::add(Custom::new(Waves), perlin.clone());
    for level in levels() {
        same_bits(
            &run_fill(&DynSource::new(add.clone().with_level(level).unwrap()), &p),
            &want,
            "add",
        );
    }

    // Fbm with persistence 0 is octave 0 alone: the function itself
    // (where finite: 0 · NaN of a later octave is NaN).
    let flat = Fbm::new(Custom::new(Waves)).octaves(4).persistence(0.0);
    let got = run_fill(&DynSource::new(flat), &p);
    for i in 0..n {
        if wide.iter().all(|a| a[i].is_finite() && a[i].abs() < 1e6) {
            // Values, not bits: −0 + 0 · n₁ is +0.
            assert_eq!(got[i], w[i], "fbm persistence 0 at {i}");
        }
    }
    // One octave too, everywhere.
    let one = Fbm::new(Custom::new(Waves)).octaves(1);
    let want: Vec<f32> = w.iter().map(|&v| canonical(v)).collect();
    same_bits(&run_fill(&DynSource::new(one), &p), &want, "fbm 1 octave");

    // Warp of the crate's Fbm by the user's waves, one iteration, in f64:
    // axis a moves by amplitude · waves(c + oₐ).
    let q = f64_points(3, 41);
    let qp = borrow64(&q);
    let offsets = [0.0, 41.375, 83.906_25];
    let amplitude = 1.25f32;
    let mut moved = q.clone();
    for (a, m) in moved.iter_mut().enumerate() {
        for (i, m) in m.iter_mut().enumerate() {
            let c = at(&qp, i);
            let shifted = [c[0] + offsets[a], c[1] + offsets[a], c[2] + offsets[a], 0.0];
            *m += f64::from(amplitude) * f64::from(waves(shifted));
        }
    }
    let source = Fbm::new(Perlin::new(3)).octaves(3);
    let want = run_fill_f64(&DynSource::new(source.clone()), &moved);
    let warp = Warp::new(source, Custom::new(Waves)).amplitude(amplitude);
    for level in levels() {
        same_bits(
            &run_fill_f64(&DynSource::new(warp.clone().with_level(level).unwrap()), &q),
            &want,
            "warp",
        );
    }
}

/// Grids of a user source (and of a fractal and an operator over one) are
/// `fillN_f64` at the grid's sample positions, bit for bit, on one thread
/// and on the pool, whole or in windows, at every level; an operator's
/// grid is the operator on its inputs' grids.
#[test]
fn grids_are_f64_points_at_the_sample_positions() {
    let grids = [
        AnyGrid::new(&[-3.3], &[0.37], &[5000]),
        AnyGrid::new(&[0.5, -7.0], &[0.05, 0.3], &[301, 41]),
        AnyGrid::new(&[1.0, 2.0, -1.0], &[0.9, 0.02, 0.5], &[17, 9, 6]),
        AnyGrid::new(
            &[0.0, 0.0, 0.0, 1e6],
            &[0.25, 1.0, 0.5, 1e-3],
            &[40, 3, 4, 5],
        ),
    ];
    let sources: Vec<(&str, DynSource)> = vec![
        ("hashed", DynSource::new(Custom::new(Hashed))),
        (
            "fbm over waves",
            DynSource::new(Fbm::new(Custom::new(Waves)).octaves(4)),
        ),
        (
            "ridged over hashed",
            DynSource::new(Ridged::new(Custom::new(Hashed)).octaves(3)),
        ),
    ];
    for grid in &grids {
        for (name, src) in &sources {
            let want = grid.point_values(src);
            for level in levels() {
                let s = src.clone().with_level(level).unwrap();
                same_bits(
                    &grid.values(&s, false),
                    &want,
                    &format!("{name} {grid:?} {level}"),
                );
                same_bits(
                    &grid.values(&s, true),
                    &want,
                    &format!("{name} {grid:?} {level} par"),
                );
            }
            // A window is its part of the whole.
            let size = grid.size();
            let offset: Vec<usize> = size.iter().map(|&n| n / 3).collect();
            let wsize: Vec<usize> = size.iter().map(|&n| n - n / 3).collect();
            let window = grid.window(&offset, &wsize).values(src, false);
            let whole_at = |k: usize| {
                let (mut rest, mut index, mut stride) = (k, 0, 1);
                for a in 0..size.len() {
                    index += (offset[a] + rest % wsize[a]) * stride;
                    rest /= wsize[a];
                    stride *= size[a];
                }
                want[index]
            };
            for (k, v) in window.iter().enumerate() {
                assert_eq!(v.to_bits(), whole_at(k).to_bits(), "{name} window {k}");
            }
        }
    }
    // Map over a user source: the map of its grid; Combine: the sum of
    // the inputs' grids (the Perlin through its own row path).
    let g = AnyGrid::new(&[0.3, -2.0], &[0.01, 0.07], &[257, 33]);
    let user = g.values(&DynSource::new(Custom::new(Waves)), false);
    let perlin = Perlin::new(4);
    let vp = g.values(&DynSource::new(perlin.clone()), false);
    let abs = g.values(&DynSource::new(Map::abs(Custom::new(Waves))), true);
    let want: Vec<f32> = user.iter().map(|v| v.abs()).collect();
    same_bits(&abs, &want, "abs grid");
    let sum = g.values(
        &DynSource::new(Combine::add(Custom::new(Waves), perlin)),
        true,
    );
    let want: Vec<f32> = user.iter().zip(&vp).map(|(a, b)| a + b).collect();
    same_bits(&sum, &want, "add grid");
}

/// Bounds come from the user and flow through combinators; NaN from the
/// user is canonical everywhere, also under operators and fractals.
#[test]
fn bounds_and_nan() {
    #[derive(Clone, Debug)]
    struct Half;
    impl CustomNoise for Half {
        fn fill(&self, points: &[&[f64]], out: &mut [f32]) {
            for (i, v) in out.iter_mut().enumerate() {
                *v = (waves(at(points, i)) * 0.5).max(-0.25);
            }
        }
        fn bounds(&self, dimension: usize) -> (f32, f32) {
            (-0.25, 0.5 + dimension as f32)
        }
    }
    let half = Custom::new(Half);
    assert_eq!(half.bounds(3), (-0.25, 3.5));
    let fbm = Fbm::new(half.clone()).octaves(3).normalize(true);
    let p = f32_points(2, 50);
    let (lo, hi) = Fbm::new(half).octaves(3).bounds(2);
    assert!(lo <= -0.25 * 1.75 && hi >= 2.5 * 1.75, "{lo} {hi}");
    for v in run_fill(&DynSource::new(fbm), &p) {
        assert!(v.is_nan() || (-1.0..=1.0).contains(&v), "{v}");
    }

    // The hashed noise returns a payload NaN at some points.
    let p = f32_points(2, 51);
    let wide = widen(&p);
    let payload: Vec<usize> = (0..p[0].len())
        .filter(|&i| hashed(at(&borrow64(&wide), i), 2).to_bits() == 0x7fc0_1234)
        .collect();
    assert!(payload.len() > 10);
    for level in levels() {
        let abs = Map::abs(Custom::new(Hashed)).with_level(level).unwrap();
        let fbm = Fbm::new(Custom::new(Hashed))
            .octaves(1)
            .with_level(level)
            .unwrap();
        for s in [DynSource::new(abs), DynSource::new(fbm)] {
            let out = run_fill(&s, &p);
            for &i in &payload {
                assert_eq!(out[i].to_bits(), f32::NAN.to_bits(), "{level} {s:?}");
            }
        }
    }
}
