//! Grids (`fill_grid1..4` and `_par`): the values of `fillN_f64` at the same
//! `f64` points (bit for bit when |x step| > 1/3 (3/4 in 3D, 1/64 in 4D), within 1e-6 on the
//! coefficient-row path), the same bits for every partition into windows,
//! every level and every thread count, continuous and correctly repeating
//! noise far from the origin, and refused grids and windows (typed errors,
//! nothing written).

use crate::common::levels;
use crate::common::{
    FillGrid, SENTINEL_BITS, bits, count, fill_f64, flatten, grid_values, perlins, points_values,
    unflatten,
};
use noisefield::prelude::*;
use noisefield::{
    Billow, DynSource, Error, Fade, Fbm, Grid, Grid1, Grid2, Grid3, Grid4, HashMode, Level, Marble,
    Perlin, Ridged, Turbulence, Value,
};
use proptest::prelude::*;

/// Grids of dimension D whose |x step| is at most `[D - 1]` take the
/// coefficient-row path (documented on `Source::fill_grid1`).
const MAX_COEFFICIENT_STEP: [f64; 4] = [1.0 / 3.0, 1.0 / 3.0, 0.75, 1.0 / 64.0];

/// The documented bound between the coefficient-row path and `fillN_f64`.
const ROWS_TOLERANCE: f32 = 1e-6;

/// 2^40: a multiple of 256, so the lattice there is the lattice at 0.
const TWO_POW_40: f64 = 1_099_511_627_776.0;

/// One ulp of an `f64` in [2^40, 2^41): 2^-12.
const ULP_AT_2_POW_40: f64 = 1.0 / 4096.0;

/// The largest |∂noiseN/∂x| for any permutation table, N = 1..4.
///
/// In a cell, noise is Σ over corners c of W_c(x, y, …)·(g_c · d_c), with W_c
/// the product of the fades (fade′ ≤ 15/8) and d_c the offset from corner c.
/// Its x derivative is at most Σ_c max over the gradient set of
/// |∂(W_c g·d_c)/∂x|, since a table can pick every corner's gradient. That
/// sum, maximised over the cell on a 201² (2D), 41³ (3D), 13⁴ (4D) grid of
/// positions and refined by hill climbing, is 2.75, 3.75 and 5.625, each
/// reached at the cell centre; for 1D (slopes ±0.25 … ±2, derivative
/// g0 + fade′(t)(g1(t−1) − g0 t) + fade(t)(g1 − g0)) it is 2.6943, at
/// t = 0.2113 between slopes −2 and +2.
const MAX_X_SLOPE: [f64; 4] = [2.6944, 2.75, 3.75, 5.625];

fn coefficient_path<const D: usize>(grid: &Grid<D>) -> bool {
    grid.step()[0].abs() <= MAX_COEFFICIENT_STEP[D - 1]
}

/// The position of sample `k` (layout index) of `grid`.
fn position<const D: usize>(grid: &Grid<D>, k: usize) -> [f64; D] {
    let at = unflatten(k, grid.size());
    std::array::from_fn(|a| grid.coord(a, at[a]))
}

/// The largest |a − b| of two slices of finite values.
fn max_difference(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

// ------------------------------------------------------ grid vs points

/// `fill_gridN` against `fillN_f64` at the grid's own points: bit for bit on
/// the point path, within [`ROWS_TOLERANCE`] on the coefficient path.
/// Returns the largest difference and how many samples differ at all.
fn assert_grid_matches_points<const D: usize>(
    p: &Perlin,
    grid: &Grid<D>,
    context: &str,
) -> (f32, usize)
where
    Grid<D>: FillGrid,
{
    let want = points_values(p, grid);
    let got = grid_values(p, grid, false);
    let rows = coefficient_path(grid);
    let (mut max, mut differ) = (0.0f32, 0);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let ok = if rows {
            (g - w).abs() <= ROWS_TOLERANCE
        } else {
            g.to_bits() == w.to_bits()
        };
        assert!(
            ok,
            "{context}: {grid:?}, sample {:?} at {:?}: fill_grid{D} gave {g:e} ({:#010x}), \
             fill{D}_f64 gave {w:e} ({:#010x})",
            unflatten(k, grid.size()),
            position(grid, k),
            g.to_bits(),
            w.to_bits(),
        );
        max = max.max((g - w).abs());
        differ += usize::from(g.to_bits() != w.to_bits());
    }
    (max, differ)
}

/// x origins: ordinary, 1e6 + 0.3, and ±2^40 with and without a fraction.
fn x_origins() -> Vec<f64> {
    vec![
        0.3,
        -7.61,
        200.0,
        1e6 + 0.3,
        -TWO_POW_40 + 0.5,
        TWO_POW_40,
        TWO_POW_40 + 0.3,
        -TWO_POW_40,
    ]
}

/// x steps on both sides of every dimension's coefficient-path bound (the
/// bounds themselves included; `coefficient_path` tells which path a grid
/// takes), both signs.
fn x_steps() -> (Vec<f64>, Vec<f64>) {
    let small = vec![
        0.01,
        -0.01,
        1.0 / 64.0,
        1.0 / 3.0,
        -1.0 / 3.0,
        0.0625,
        0.25,
        -0.25,
        0.1,
        -0.173,
        1e-4,
        0.0,
        // 3D: a window of planes per 16 samples, not per 64.
        0.6,
        -0.7,
        0.75,
        -0.75,
    ];
    let just_above = f64::from_bits((1.0f64 / 3.0).to_bits() + 1);
    let just_above_3d = f64::from_bits(0.75f64.to_bits() + 1);
    let large = vec![
        just_above,
        -just_above,
        0.37,
        -0.37,
        just_above_3d,
        -just_above_3d,
        1.0,
        2.5,
        -13.7,
        300.1,
    ];
    (small, large)
}

/// (origin, step) of the y, z and w axes: ordinary ones, and far or small
/// steps (the path depends on the x step only).
const OTHER_AXES: [[(f64, f64); 3]; 2] = [
    [(-3.3, 0.21), (17.9, -0.43), (0.77, 0.6)],
    [
        (TWO_POW_40 + 0.25, 0.3),
        (-1e6 - 0.7, 0.05),
        (4.0 * TWO_POW_40 + 0.125, -0.9),
    ],
];

fn grids_against_points<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let (small, large) = x_steps();
    let (mut max, mut differ, mut samples) = (0.0f32, 0, 0);
    for (name, p) in perlins() {
        // Every level for Ken's table; the others at the detected level.
        let levels = if name == "reference" {
            levels()
        } else {
            vec![Level::detect()]
        };
        for level in levels {
            let p = p.clone().with_level(level).unwrap();
            for x0 in x_origins() {
                for &dx in small.iter().chain(&large) {
                    for others in &OTHER_AXES {
                        for nx in [1, 67, 130] {
                            let origin = std::array::from_fn(|a| match a {
                                0 => x0,
                                _ => others[a - 1].0,
                            });
                            let step = std::array::from_fn(|a| match a {
                                0 => dx,
                                _ => others[a - 1].1,
                            });
                            let size = std::array::from_fn(|a| [nx, 3, 2, 2][a]);
                            let grid = Grid::<D>::new(origin, step, size);
                            let context = format!("{name}, level {level}");
                            let (m, d) = assert_grid_matches_points(&p, &grid, &context);
                            if coefficient_path(&grid) {
                                max = max.max(m);
                                differ += d;
                                samples += count(size);
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{D}D coefficient rows vs fill{D}_f64: max |difference| {max:e}, \
         {differ} of {samples} samples not bit-identical"
    );
}

#[test]
fn grid1_matches_fill1_f64_at_its_points() {
    grids_against_points::<1>();
}

#[test]
fn grid2_matches_fill2_f64_at_its_points() {
    grids_against_points::<2>();
}

#[test]
fn grid3_matches_fill3_f64_at_its_points() {
    grids_against_points::<3>();
}

#[test]
fn grid4_matches_fill4_f64_at_its_points() {
    grids_against_points::<4>();
}

/// `coord` is `origin + (offset + index) as f64 * step`, and the layout is x
/// fastest: a grid of distinct x, y, z points matches `fill3_f64` at the
/// points built by hand, not through the shared helpers.
#[test]
fn layout_is_x_fastest_and_coord_is_as_documented() {
    let p = Perlin::reference();
    // An x step above every coefficient-row bound: the point path, exact.
    let grid = Grid3::new([0.5, -1.25, 3.125], [0.875, 0.625, -0.875], [5, 4, 3]);
    let (mut xs, mut ys, mut zs) = (vec![], vec![], vec![]);
    for k in 0..3 {
        for j in 0..4 {
            for i in 0..5 {
                xs.push(0.5 + i as f64 * 0.875);
                ys.push(-1.25 + j as f64 * 0.625);
                zs.push(3.125 + k as f64 * -0.875);
            }
        }
    }
    let mut want = vec![0.0; 60];
    p.fill_f64([&xs, &ys, &zs], &mut want).unwrap();
    assert_eq!(bits(&grid_values(&p, &grid, false)), bits(&want));
    // ... and the same for a window, which keeps the global indices.
    let w = grid.window([1, 2, 1], [3, 2, 2]).unwrap();
    assert_eq!(w.offset(), [1, 2, 1]);
    assert_eq!(w.origin(), grid.origin());
    assert_eq!(w.step(), grid.step());
    assert_eq!(w.size(), [3, 2, 2]);
    assert_eq!(w.coord(0, 0), 0.5 + 0.875);
    assert_eq!(w.coord(1, 1), -1.25 + 3.0 * 0.625);
    assert_eq!(w.coord(2, 1), 3.125 + 2.0 * -0.875);
    let got = grid_values(&p, &w, false);
    for (k, v) in got.iter().enumerate() {
        let [i, j, l] = unflatten(k, [3, 2, 2]);
        let at = ((l + 1) * 4 + (j + 2)) * 5 + (i + 1);
        assert_eq!(v.to_bits(), want[at].to_bits(), "window sample {k}");
    }
}

// ---------------------------------------------------------------- windows

/// A tiny xorshift for shuffling windows and picking `_par` per window.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, (self.next() % (i as u64 + 1)) as usize);
        }
    }
}

/// `(offset, size)` of the pieces of `0..n` cut at `cuts` (any order; a
/// repeated cut gives an empty piece).
fn pieces(n: usize, cuts: &[usize]) -> Vec<(usize, usize)> {
    let mut bounds: Vec<usize> = cuts.iter().map(|&c| c.min(n)).collect();
    bounds.push(0);
    bounds.push(n);
    bounds.sort_unstable();
    bounds.windows(2).map(|w| (w[0], w[1] - w[0])).collect()
}

/// Fills every window of the partition of `grid` by `cuts` (one list per
/// axis) separately, in an order and with `_par` or not as `seed` says,
/// checks each against the whole grid and that the stitched windows are the
/// whole grid, bit for bit.
fn assert_windows_stitch<const D: usize>(p: &Perlin, grid: &Grid<D>, cuts: &[Vec<usize>], seed: u64)
where
    Grid<D>: FillGrid,
{
    let size = grid.size();
    let full = grid_values(p, grid, false);
    let per_axis: Vec<Vec<(usize, usize)>> = (0..D).map(|a| pieces(size[a], &cuts[a])).collect();
    let shape: [usize; D] = std::array::from_fn(|a| per_axis[a].len());
    let mut windows: Vec<([usize; D], [usize; D])> = (0..count(shape))
        .map(|n| {
            let at = unflatten(n, shape);
            (
                std::array::from_fn(|a| per_axis[a][at[a]].0),
                std::array::from_fn(|a| per_axis[a][at[a]].1),
            )
        })
        .collect();
    let mut rng = Rng(seed | 1);
    rng.shuffle(&mut windows);
    let mut stitched = vec![f32::from_bits(SENTINEL_BITS); full.len()];
    for (offset, wsize) in windows {
        let w = grid.window(offset, wsize).unwrap();
        assert_eq!((w.offset(), w.size()), (offset, wsize));
        let parallel = rng.next() & 1 == 1;
        let mut out = vec![f32::from_bits(SENTINEL_BITS); count(wsize)];
        w.fill_with(p, &mut out, parallel).unwrap();
        for (k, v) in out.iter().enumerate() {
            let local = unflatten(k, wsize);
            let global = std::array::from_fn(|a| offset[a] + local[a]);
            let at = flatten(global, size);
            assert_eq!(
                v.to_bits(),
                full[at].to_bits(),
                "{grid:?}, level {}: window at {offset:?} of size {wsize:?} (par: {parallel}), \
                 sample {global:?} is {v:e}, the whole grid has {:e}",
                p.level(),
                full[at],
            );
            stitched[at] = *v;
        }
    }
    assert_eq!(bits(&stitched), bits(&full), "{grid:?}: stitched windows");
}

/// A grid size in `1..=max` and up to 3 cut points in `0..=size` for each
/// of `dims` axes.
fn sizes_and_cuts(dims: usize, max: usize) -> impl Strategy<Value = Vec<(usize, Vec<usize>)>> {
    prop::collection::vec(
        (1..=max).prop_flat_map(|n| (Just(n), prop::collection::vec(0..=n, 0..=3))),
        dims,
    )
}

/// Ken's table, a seeded one, or a seeded periodic one.
fn any_perlin() -> impl Strategy<Value = Perlin> {
    prop_oneof![
        Just(Perlin::reference()),
        any::<u64>().prop_map(Perlin::new),
        (any::<u64>(), prop::array::uniform4(1u32..=600))
            .prop_map(|(seed, period)| Perlin::permuted(seed).with_period(period).unwrap()),
    ]
}

fn any_level() -> impl Strategy<Value = Level> {
    prop::sample::select(levels())
}

/// An origin: ordinary, or within a few cells of ±2^40.
fn any_origin() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e3f64..1e3,
        (-4.0f64..4.0).prop_map(|t| TWO_POW_40 + t),
        (-4.0f64..4.0).prop_map(|t| -TWO_POW_40 + t),
    ]
}

/// Both x paths for every partition: a step in (0, 1/64] (coefficients in
/// every dimension) and one in (1/3, 4) (points), each with a random sign.
fn windows_case<const D: usize>(
    p: &Perlin,
    sizes_cuts: &[(usize, Vec<usize>)],
    origins: &[f64],
    steps: &[f64],
    x_steps: (f64, f64),
    seed: u64,
) where
    Grid<D>: FillGrid,
{
    let size = std::array::from_fn(|a| sizes_cuts[a].0);
    let cuts: Vec<Vec<usize>> = sizes_cuts.iter().map(|(_, c)| c.clone()).collect();
    for dx in [x_steps.0, x_steps.1] {
        let step = std::array::from_fn(|a| if a == 0 { dx } else { steps[a] });
        let grid = Grid::<D>::new(std::array::from_fn(|a| origins[a]), step, size);
        assert_windows_stitch(p, &grid, &cuts, seed);
    }
}

fn x_step_pair() -> impl Strategy<Value = (f64, f64)> {
    (
        1e-3f64..=MAX_COEFFICIENT_STEP[1],
        0.3334f64..4.0,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(s, l, ns, nl)| (if ns { -s } else { s }, if nl { -l } else { l }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn windows_of_a_1d_grid_stitch_to_the_grid(
        p in any_perlin(), level in any_level(), sc in sizes_and_cuts(1, 300),
        origins in prop::collection::vec(any_origin(), 1), xs in x_step_pair(), seed in any::<u64>(),
    ) {
        let p = p.with_level(level).unwrap();
        windows_case::<1>(&p, &sc, &origins, &[0.0], xs, seed);
    }

    #[test]
    fn windows_of_a_2d_grid_stitch_to_the_grid(
        p in any_perlin(), level in any_level(), sc in sizes_and_cuts(2, 70),
        origins in prop::collection::vec(any_origin(), 2),
        steps in prop::collection::vec(-2.0f64..2.0, 2), xs in x_step_pair(), seed in any::<u64>(),
    ) {
        let p = p.with_level(level).unwrap();
        windows_case::<2>(&p, &sc, &origins, &steps, xs, seed);
    }

    #[test]
    fn windows_of_a_3d_grid_stitch_to_the_grid(
        p in any_perlin(), level in any_level(), sc in sizes_and_cuts(3, 40),
        origins in prop::collection::vec(any_origin(), 3),
        steps in prop::collection::vec(-2.0f64..2.0, 3), xs in x_step_pair(), seed in any::<u64>(),
    ) {
        let p = p.with_level(level).unwrap();
        windows_case::<3>(&p, &sc, &origins, &steps, xs, seed);
    }
}

/// 4D once: a fixed uneven partition with empty pieces, at every level.
#[test]
fn windows_of_a_4d_grid_stitch_to_the_grid() {
    let cuts = vec![vec![3, 3, 11], vec![2], vec![1, 4], vec![2, 0]];
    for level in levels() {
        let p = Perlin::permuted(77).with_level(level).unwrap();
        for dx in [0.07, -0.31] {
            let grid = Grid4::new(
                [TWO_POW_40 + 0.3, -2.6, 9.1, 0.45],
                [dx, 0.33, -0.27, 0.71],
                [19, 6, 5, 4],
            );
            assert_windows_stitch(&p, &grid, &cuts, 0x5eed);
        }
    }
}

/// A window of a window is the window of the grid at the summed offset, and
/// fills the same bits; windows of every size 1 on x of a row give the row.
#[test]
fn nested_windows_keep_global_indices() {
    let p = Perlin::reference();
    for dx in [0.05, 0.55] {
        let grid = Grid3::new([-0.4, 2.2, 5.5], [dx, 0.3, -0.2], [40, 7, 5]);
        let outer = grid.window([5, 1, 2], [30, 5, 3]).unwrap();
        let inner = outer.window([7, 2, 1], [11, 3, 2]).unwrap();
        let direct = grid.window([12, 3, 3], [11, 3, 2]).unwrap();
        assert_eq!(inner, direct);
        assert_eq!(inner.offset(), [12, 3, 3]);
        assert_eq!(
            bits(&grid_values(&p, &inner, false)),
            bits(&grid_values(&p, &direct, true))
        );
        // Single samples: every x on one row.
        let full = grid_values(&p, &grid, false);
        for i in 0..40 {
            let w = grid.window([i, 4, 3], [1, 1, 1]).unwrap();
            let v = grid_values(&p, &w, i % 2 == 0)[0];
            assert_eq!(v.to_bits(), full[flatten([i, 4, 3], [40, 7, 5])].to_bits());
        }
    }
}

// ------------------------------------------------------ levels and threads

/// Grids large enough for several rayon tiles (64 Ki samples each), for
/// each dimension, on both x paths.
fn tiled_grids<const D: usize>(dx: f64) -> Grid<D> {
    let origin = std::array::from_fn(|a| [-3.7, 12.3, 0.45, -100.2][a]);
    let step = std::array::from_fn(|a| [dx, 0.21, -0.17, 0.33][a]);
    // 1D: one row; 2D: 4 tiles; 3D: 3 tiles (the last one partial); 4D: 5.
    let size = std::array::from_fn(|a| match D {
        1 => [200_001][a],
        2 => [300, 700][a],
        3 => [97, 40, 40][a],
        _ => [33, 20, 20, 20][a],
    });
    Grid::new(origin, step, size)
}

fn every_level_serial_and_par<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let plain = Perlin::permuted(3).with_level(Level::Scalar).unwrap();
    let periodic = plain.clone().with_period([5, 300, 7, 2]).unwrap();
    for p in [plain, periodic] {
        for dx in [0.05, -0.7] {
            let grid = tiled_grids::<D>(dx);
            let want = bits(&grid_values(&p, &grid, false));
            for level in levels() {
                let p = p.clone().with_level(level).unwrap();
                for parallel in [false, true] {
                    assert!(
                        bits(&grid_values(&p, &grid, parallel)) == want,
                        "{D}D, periods {:?}, x step {dx}, level {level}, par: {parallel} \
                         differs from scalar serial",
                        p.period()
                    );
                }
            }
        }
    }
}

#[test]
fn every_level_and_par_give_the_same_bits_1d() {
    every_level_serial_and_par::<1>();
}

#[test]
fn every_level_and_par_give_the_same_bits_2d() {
    every_level_serial_and_par::<2>();
}

#[test]
fn every_level_and_par_give_the_same_bits_3d() {
    every_level_serial_and_par::<3>();
}

#[test]
fn every_level_and_par_give_the_same_bits_4d() {
    every_level_serial_and_par::<4>();
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn par_gives_the_same_bits_in_pools_of_1_2_3_and_7_threads() {
    let p = Perlin::reference();
    for dx in [0.05, -0.7] {
        let grid3 = tiled_grids::<3>(dx);
        // Rows longer than a tile: one row per tile.
        let grid2 = Grid2::new([5.5, -0.3], [dx, 0.4], [70_001, 5]);
        let want3 = bits(&grid_values(&p, &grid3, false));
        let want2 = bits(&grid_values(&p, &grid2, false));
        for threads in [1, 2, 3, 7] {
            let got3 = in_pool(threads, || grid_values(&p, &grid3, true));
            assert!(bits(&got3) == want3, "3D, x step {dx}, {threads} threads");
            let got2 = in_pool(threads, || grid_values(&p, &grid2, true));
            assert!(bits(&got2) == want2, "2D, x step {dx}, {threads} threads");
        }
    }
}

// ------------------------------------------------------------ large worlds

/// Along every x row of `grid`: neighbouring samples differ by at most the
/// slope bound times their real distance (from the `f64` positions) plus
/// the coefficient path's error, and by less than `max_step_change`; each
/// row spans more than 0.1. Returns the largest neighbour difference.
fn assert_continuous_along_x<const D: usize>(
    p: &Perlin,
    grid: &Grid<D>,
    max_step_change: f32,
) -> f32
where
    Grid<D>: FillGrid,
{
    let v = grid_values(p, grid, false);
    let nx = grid.size()[0];
    let mut largest = 0.0f32;
    for (r, row) in v.chunks_exact(nx).enumerate() {
        for i in 1..nx {
            let delta = (row[i] - row[i - 1]).abs();
            let distance = (grid.coord(0, i) - grid.coord(0, i - 1)).abs();
            let bound = MAX_X_SLOPE[D - 1] * distance + 2.0 * f64::from(ROWS_TOLERANCE);
            assert!(
                f64::from(delta) <= bound && delta < max_step_change,
                "{grid:?}, row {r}: samples {} and {i} differ by {delta} over {distance} \
                 (bound {bound}, {max_step_change})",
                i - 1,
            );
            largest = largest.max(delta);
        }
        let (lo, hi) = row
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        assert!(
            hi - lo > 0.1,
            "{grid:?}, row {r}: values only span {lo}..{hi}"
        );
    }
    largest
}

/// At x = ±2^40 (+ 0.3) with step 0.01 the field is continuous and varies.
/// Positions there are multiples of 2^-12, so neighbours are 0.01 ± 2^-12
/// apart; with the largest x slope (3.75 in 3D) a step changes the noise by
/// at most 3.75 × 0.01025 ≈ 0.038, under the 0.05 asserted.
#[test]
fn far_from_the_origin_the_field_is_continuous_and_varies() {
    for (name, p) in perlins() {
        let mut largest = [0.0f32; 3];
        for x0 in [TWO_POW_40, -TWO_POW_40, TWO_POW_40 + 0.3, -TWO_POW_40 + 0.3] {
            let g1 = Grid1::new([x0], [0.01], [1000]);
            largest[0] = largest[0].max(assert_continuous_along_x(&p, &g1, 0.05));
            let g2 = Grid2::new([x0, 0.5], [0.01, 0.37], [1000, 3]);
            largest[1] = largest[1].max(assert_continuous_along_x(&p, &g2, 0.05));
            let g3 = Grid3::new(
                [x0, 0.5, -TWO_POW_40 + 0.25],
                [0.01, 0.37, 0.29],
                [1000, 3, 2],
            );
            largest[2] = largest[2].max(assert_continuous_along_x(&p, &g3, 0.05));
        }
        eprintln!("{name}: largest neighbour difference at ±2^40, step 0.01: {largest:?}");
    }
}

/// `fill1_f64` at 2^40 + i·0.01 is smooth noise, not `f32` stair steps:
/// almost every neighbour pair differs, never three in a row are equal,
/// while the same points rounded to `f32` all collapse onto 2^40 (a lattice
/// point: 0).
#[test]
fn fill1_f64_far_out_is_not_piecewise_constant() {
    let p = Perlin::reference();
    for x0 in [TWO_POW_40, -TWO_POW_40 + 0.3] {
        let xs: Vec<f64> = (0..1000).map(|i| x0 + i as f64 * 0.01).collect();
        let mut out = vec![0.0; 1000];
        p.fill_f64([&xs], &mut out).unwrap();
        let equal = out.windows(2).filter(|w| w[0] == w[1]).count();
        assert!(equal <= 10, "x0 {x0}: {equal} of 999 neighbours are equal");
        let longest_run = out
            .windows(3)
            .filter(|w| w[0] == w[1] && w[1] == w[2])
            .count();
        assert_eq!(longest_run, 0, "x0 {x0}: three equal samples in a row");
        let distinct: std::collections::HashSet<u32> = out.iter().map(|v| v.to_bits()).collect();
        assert!(
            distinct.len() > 900,
            "x0 {x0}: {} distinct values",
            distinct.len()
        );
        // The f32 path cannot see these points apart.
        let xs32: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        let mut out32 = vec![1.0; 1000];
        p.fill([&xs32], &mut out32).unwrap();
        assert!(out32.iter().all(|&v| v == 0.0), "x0 {x0}: f32 points");
    }
}

/// 2^40 is a multiple of 256: at exactly representable positions (dyadic
/// origin and step) the grid at 2^40 + t has exactly the bits of the grid at
/// t, on both paths and on every axis, at every level.
#[test]
fn the_pattern_at_2_pow_40_plus_t_is_the_pattern_at_t_exactly() {
    let t = 0.296_875; // 38/128
    for level in levels() {
        let p = Perlin::permuted(11).with_level(level).unwrap();
        for shift in [TWO_POW_40, -TWO_POW_40, 3.0 * TWO_POW_40] {
            // Coefficient rows (a window per pack, per part at -0.625) and points.
            for dx in [1.0 / 128.0, 0.375, -1.0 / 64.0, -0.625, -0.875] {
                let near = Grid3::new([t, -t, 2.0 * t], [dx, 0.25, -0.125], [300, 3, 2]);
                let want = bits(&grid_values(&p, &near, false));
                for axis in 0..3 {
                    let mut origin = near.origin();
                    origin[axis] += shift;
                    let far = Grid3::new(origin, near.step(), near.size());
                    // The shifted positions are exact.
                    for i in 0..far.size()[axis] {
                        assert_eq!(far.coord(axis, i) - shift, near.coord(axis, i));
                    }
                    assert!(
                        bits(&grid_values(&p, &far, false)) == want,
                        "level {level}, x step {dx}, axis {axis} shifted by {shift}"
                    );
                }
            }
        }
    }
}

/// With step 0.01 the positions 2^40 + 0.3 + i·0.01 round to multiples of
/// 2^-12: the same pattern as at those exact positions minus 2^40, so the
/// grid there equals `fillN_f64` at `coord − 2^40` (exact subtraction)
/// within 1e-6, and bit for bit on the point path (x step 0.37).
#[test]
fn the_pattern_at_2_pow_40_plus_t_is_fill_f64_at_t() {
    let mut max = [0.0f32; 3];
    for (_, p) in perlins() {
        for x0 in [TWO_POW_40 + 0.3, -TWO_POW_40 + 0.3] {
            let shift = if x0 > 0.0 { TWO_POW_40 } else { -TWO_POW_40 };
            for dx in [0.01, 0.37] {
                let g1 = Grid1::new([x0], [dx], [1000]);
                let g2 = Grid2::new([x0, 0.5], [dx, 0.37], [500, 2]);
                let g3 = Grid3::new([x0, 0.5, 1.7], [dx, 0.37, -0.2], [300, 2, 2]);
                let m1 = assert_shifted_matches(&p, &g1, shift);
                let m2 = assert_shifted_matches(&p, &g2, shift);
                let m3 = assert_shifted_matches(&p, &g3, shift);
                for (m, d) in max.iter_mut().zip([m1, m2, m3]) {
                    *m = m.max(d);
                }
            }
        }
    }
    eprintln!("grid at ±2^40 + t vs fillN_f64 at t, step 0.01: max |difference| {max:?}");
}

/// The grid against `fillN_f64` at its x positions minus `shift`.
fn assert_shifted_matches<const D: usize>(p: &Perlin, grid: &Grid<D>, shift: f64) -> f32
where
    Grid<D>: FillGrid,
{
    let mut points = crate::common::grid_points(grid);
    for x in &mut points[0] {
        let near = *x - shift;
        assert_eq!(near + shift, *x, "the subtraction should be exact");
        *x = near;
    }
    let inputs: Vec<&[f64]> = points.iter().map(Vec::as_slice).collect();
    let mut want = vec![0.0; count(grid.size())];
    fill_f64(p, &inputs, &mut want).unwrap();
    let got = grid_values(p, grid, false);
    if coefficient_path(grid) {
        let m = max_difference(&got, &want);
        assert!(m <= ROWS_TOLERANCE, "{grid:?}: {m}");
        m
    } else {
        assert!(bits(&got) == bits(&want), "{grid:?}");
        0.0
    }
}

/// The grid at 2^40 + 0.3 against the grid at 0.3, same step 0.01: the
/// positions differ by the rounding at 2^40 (under 2^-12, ~2.4e-4), so the
/// values differ by at most the slope bound times that distance (plus the
/// coefficient path's error twice); 1e-6 is not reachable here.
#[test]
fn the_grid_at_2_pow_40_plus_0_3_is_near_the_grid_at_0_3() {
    let p = Perlin::reference();
    let mut worst = 0.0f32;
    for dx in [0.01, -0.01] {
        let far = Grid2::new([TWO_POW_40 + 0.3, 0.5], [dx, 0.37], [1000, 3]);
        let near = Grid2::new([0.3, 0.5], [dx, 0.37], [1000, 3]);
        let (a, b) = (grid_values(&p, &far, false), grid_values(&p, &near, false));
        for (k, (va, vb)) in a.iter().zip(&b).enumerate() {
            let i = unflatten(k, far.size())[0];
            let moved = (far.coord(0, i) - TWO_POW_40 - near.coord(0, i)).abs();
            // Each of the two roundings at 2^40 is at most half an ulp.
            assert!(moved <= ULP_AT_2_POW_40 * 1.001, "{moved}");
            let bound = MAX_X_SLOPE[1] * moved + 2.0 * f64::from(ROWS_TOLERANCE);
            let d = (va - vb).abs();
            assert!(f64::from(d) <= bound, "sample {k}: {d} > {bound}");
            worst = worst.max(d);
        }
    }
    eprintln!("grid at 2^40 + 0.3 vs grid at 0.3, step ±0.01: max |difference| {worst:e}");
}

// -------------------------------------------------- errors, nothing written

/// Runs `fill_gridN` and `_par` at every level with `out` of `out_len`
/// prefilled with the sentinel: all give the same error and leave `out`
/// untouched. Returns the error.
fn refused<const D: usize>(p: &Perlin, grid: &Grid<D>, out_len: usize) -> Error
where
    Grid<D>: FillGrid,
{
    let mut first: Option<Error> = None;
    for level in levels() {
        let p = p.clone().with_level(level).unwrap();
        for parallel in [false, true] {
            let mut out = vec![f32::from_bits(SENTINEL_BITS); out_len];
            let Err(err) = grid.fill_with(&p, &mut out, parallel) else {
                panic!("{grid:?}: level {level}, par {parallel} accepted");
            };
            assert!(
                out.iter().all(|v| v.to_bits() == SENTINEL_BITS),
                "{grid:?}: level {level}, par {parallel}: refused but wrote to out"
            );
            // NaN fields compare unequal: compare the messages.
            if let Some(e) = &first {
                assert_eq!(e.to_string(), err.to_string());
            }
            first = Some(err);
        }
    }
    first.unwrap()
}

/// Neither a type name nor a Debug dump: words a user can read.
fn assert_readable(msg: &str) {
    for debug in [
        "LengthMismatch",
        "NonFiniteGrid",
        "GridTooLarge",
        "WindowOutOfBounds",
        "{",
    ] {
        assert!(!msg.contains(debug), "not human readable: {msg}");
    }
}

fn wrong_out_length<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let size: [usize; D] = std::array::from_fn(|a| [5, 4, 3, 2][a]);
    let n = count(size);
    for dx in [0.1, 0.6] {
        let step = std::array::from_fn(|a| if a == 0 { dx } else { 0.3 });
        let grid = Grid::<D>::new([0.5; D], step, size);
        for found in [0, 1, n - 1, n + 1, 10 * n] {
            let err = refused(&Perlin::reference(), &grid, found);
            assert_eq!(
                err,
                Error::LengthMismatch {
                    name: "out",
                    expected: n,
                    found
                }
            );
            let msg = err.to_string();
            assert!(msg.contains("out") && msg.contains(&n.to_string()), "{msg}");
            assert!(msg.contains(&found.to_string()), "{msg}");
            assert_readable(&msg);
        }
        // Also for a window: its own sample count.
        let w = grid
            .window([1; D], std::array::from_fn(|a| size[a] - 1))
            .unwrap();
        let m = count(w.size());
        assert_eq!(
            refused(&Perlin::reference(), &w, n),
            Error::LengthMismatch {
                name: "out",
                expected: m,
                found: n
            }
        );
    }
}

#[test]
fn wrong_out_length_is_refused_and_nothing_written() {
    wrong_out_length::<1>();
    wrong_out_length::<2>();
    wrong_out_length::<3>();
    wrong_out_length::<4>();
}

const AXIS_NAMES: [&str; 4] = ["x", "y", "z", "w"];

/// `NonFiniteGrid { what, axis, value }` with `value` matching `want`
/// (NaN matches NaN) and a message naming all three.
fn assert_non_finite(err: &Error, what: &str, axis: usize, want: f64) {
    match err {
        Error::NonFiniteGrid {
            what: w,
            axis: a,
            value,
        } => {
            assert_eq!((*w, *a), (what, AXIS_NAMES[axis]), "{err:?}");
            assert!(
                value.to_bits() == want.to_bits() || (value.is_nan() && want.is_nan()),
                "{err:?}: value should be {want}"
            );
        }
        other => panic!("expected NonFiniteGrid {{ {what}, axis {axis} }}, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains(what), "{msg}");
    assert!(msg.contains(&format!("{} axis", AXIS_NAMES[axis])), "{msg}");
    assert!(msg.contains(&want.to_string()), "{msg}");
    assert_readable(&msg);
}

fn non_finite<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let p = Perlin::reference();
    let size: [usize; D] = std::array::from_fn(|a| [6, 3, 2, 2][a]);
    let n = count(size);
    for axis in 0..D {
        for dx in [0.1, 0.6] {
            let step: [f64; D] = std::array::from_fn(|a| if a == 0 { dx } else { 0.3 });
            for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                let mut origin = [0.5; D];
                origin[axis] = bad;
                let err = refused(&p, &Grid::new(origin, step, size), n);
                assert_non_finite(&err, "origin", axis, bad);

                let mut s = step;
                s[axis] = bad;
                let err = refused(&p, &Grid::new([0.5; D], s, size), n);
                assert_non_finite(&err, "step", axis, bad);
            }
            // The last position overflows to ±infinity.
            for sign in [1.0, -1.0] {
                let mut origin = [0.5; D];
                let mut s = step;
                let mut sz = size;
                origin[axis] = sign * 1e308;
                s[axis] = sign * 1e308;
                sz[axis] = 3;
                let grid = Grid::new(origin, s, sz);
                let err = refused(&p, &grid, count(sz));
                assert_non_finite(&err, "last sample position", axis, sign * f64::INFINITY);
                // One sample sits at the origin, which is finite: fine,
                // and so is a window that stops before the overflow.
                sz[axis] = 1;
                let one = Grid::new(origin, s, sz);
                assert_eq!(one.check(), Ok(count(sz)));
                grid_values(&p, &one, false);
                let mut wsize = grid.size();
                wsize[axis] = 1;
                let w = grid.window([0; D], wsize).unwrap();
                assert_eq!(w.check(), Ok(count(wsize)));
                // ... but not one that contains it.
                let mut offset = [0; D];
                offset[axis] = 2;
                let w = grid.window(offset, wsize).unwrap();
                let err = refused(&p, &w, count(wsize));
                assert_non_finite(&err, "last sample position", axis, sign * f64::INFINITY);
            }
        }
    }
}

#[test]
fn non_finite_origin_step_or_last_position_is_refused() {
    non_finite::<1>();
    non_finite::<2>();
    non_finite::<3>();
    non_finite::<4>();
}

#[test]
fn sample_counts_overflowing_usize_are_refused() {
    let p = Perlin::reference();
    let cases: Vec<Vec<usize>> = vec![
        vec![usize::MAX, 2, 1],
        vec![2, usize::MAX, 1],
        vec![1, 3, usize::MAX / 2],
        vec![1 << 32, 1 << 32, 1],
    ];
    for size in cases {
        let grid = Grid3::new(
            [0.5; 3],
            [0.01, 1.0, 1e-3],
            size.clone().try_into().unwrap(),
        );
        let err = refused(&p, &grid, 6);
        assert_eq!(err, Error::GridTooLarge { size: size.clone() });
        assert_eq!(grid.check(), Err(err.clone()));
        let msg = err.to_string();
        assert!(
            msg.contains("usize") && msg.contains(&size[0].to_string()),
            "{msg}"
        );
        assert_readable(&msg);
    }
    let g2 = Grid2::new([0.5; 2], [0.5; 2], [usize::MAX / 2 + 1, 2]);
    assert_eq!(
        refused(&p, &g2, 1),
        Error::GridTooLarge {
            size: vec![usize::MAX / 2 + 1, 2]
        }
    );
    let g4 = Grid4::new([0.5; 4], [0.5; 4], [1 << 16; 4]);
    assert_eq!(
        refused(&p, &g4, 1),
        Error::GridTooLarge {
            size: vec![1 << 16; 4]
        }
    );
    // The largest count that fits is accepted by `check`.
    let g = Grid2::new([0.5; 2], [1e-3; 2], [usize::MAX, 1]);
    assert_eq!(g.check(), Ok(usize::MAX));
}

#[test]
fn windows_out_of_bounds_are_refused() {
    let grid = Grid3::new([0.5; 3], [0.1; 3], [10, 8, 6]);
    let cases: [([usize; 3], [usize; 3], Error); 6] = [
        ([0, 0, 5], [10, 8, 2], oob(2, 5, 2, 6)),
        ([0, 0, 0], [11, 1, 1], oob(0, 0, 11, 10)),
        ([0, 8, 0], [1, 1, 1], oob(1, 8, 1, 8)),
        ([usize::MAX, 0, 0], [2, 1, 1], oob(0, usize::MAX, 2, 10)),
        ([0, 3, 0], [1, usize::MAX, 1], oob(1, 3, usize::MAX, 8)),
        (
            [1, 1, usize::MAX],
            [1, 1, usize::MAX],
            oob(2, usize::MAX, usize::MAX, 6),
        ),
    ];
    for (offset, size, want) in cases {
        let err = grid.window(offset, size).unwrap_err();
        assert_eq!(err, want, "window({offset:?}, {size:?})");
        let msg = err.to_string();
        let Error::WindowOutOfBounds {
            axis,
            offset,
            size,
            parent,
        } = err
        else {
            unreachable!()
        };
        for part in [
            format!("{} axis", AXIS_NAMES[axis]),
            offset.to_string(),
            size.to_string(),
            parent.to_string(),
        ] {
            assert!(msg.contains(&part), "{msg} should contain {part}");
        }
        assert_readable(&msg);
    }
    // Fitting exactly, empty at the far end, and windows of windows checked
    // against the window, not the grid.
    assert!(grid.window([0; 3], [10, 8, 6]).is_ok());
    assert!(grid.window([10, 8, 6], [0, 0, 0]).is_ok());
    assert!(grid.window([9, 0, 0], [1, 8, 6]).is_ok());
    let w = grid.window([2, 2, 2], [5, 5, 3]).unwrap();
    assert_eq!(w.window([0, 0, 0], [6, 1, 1]), Err(oob(0, 0, 6, 5)));
    assert_eq!(w.window([0, 0, 1], [1, 1, 3]), Err(oob(2, 1, 3, 3)));
    assert!(w.window([4, 4, 2], [1, 1, 1]).is_ok());
    // 1D, 2D and 4D name their axes the same way.
    let g1 = Grid1::new([0.0], [1.0], [4]);
    assert_eq!(g1.window([3], [2]), Err(oob(0, 3, 2, 4)));
    let g4 = Grid4::new([0.0; 4], [1.0; 4], [2, 3, 4, 5]);
    let err = g4.window([0, 0, 0, 4], [1, 1, 1, 2]).unwrap_err();
    assert_eq!(err, oob(3, 4, 2, 5));
    assert!(err.to_string().contains("w axis"), "{err}");
}

fn oob(axis: usize, offset: usize, size: usize, parent: usize) -> Error {
    Error::WindowOutOfBounds {
        axis,
        offset,
        size,
        parent,
    }
}

fn empty_grids<const D: usize>()
where
    Grid<D>: FillGrid,
{
    let p = Perlin::reference();
    for empty_axis in 0..D {
        for dx in [0.1, 0.6] {
            let step = std::array::from_fn(|a| if a == 0 { dx } else { 0.3 });
            let mut size: [usize; D] = std::array::from_fn(|a| [7, 3, 2, 2][a]);
            size[empty_axis] = 0;
            let grid = Grid::<D>::new([0.5; D], step, size);
            assert_eq!(grid.check(), Ok(0));
            for level in levels() {
                let p = p.clone().with_level(level).unwrap();
                for parallel in [false, true] {
                    assert_eq!(grid.fill_with(&p, &mut [], parallel), Ok(()));
                }
            }
            // `out` must still have the right length: 0.
            assert_eq!(
                refused(&p, &grid, 1),
                Error::LengthMismatch {
                    name: "out",
                    expected: 0,
                    found: 1
                }
            );
            // An empty window of a non-empty grid.
            let full = Grid::<D>::new([0.5; D], step, std::array::from_fn(|a| [7, 3, 2, 2][a]));
            let offset = std::array::from_fn(|a| usize::from(a == empty_axis));
            let w = full.window(offset, size).unwrap();
            assert_eq!(w.fill_with(&p, &mut [], true), Ok(()));
        }
    }
}

#[test]
fn empty_grids_are_fine_and_write_nothing() {
    empty_grids::<1>();
    empty_grids::<2>();
    empty_grids::<3>();
    empty_grids::<4>();
}

/// A grid with a 0 on one axis has 0 samples, which fits in `usize`, however
/// large the other axes are.
#[test]
fn an_empty_grid_with_huge_other_axes_has_zero_samples() {
    let p = Perlin::reference();
    for size in [[0, usize::MAX, usize::MAX], [usize::MAX, usize::MAX, 0]] {
        let grid = Grid3::new([0.5; 3], [1e-3; 3], size);
        assert_eq!(grid.check(), Ok(0), "{size:?}");
        assert_eq!(p.fill_grid(&grid, &mut []), Ok(()), "{size:?}");
    }
}

/// Rows narrower than 24 samples of a fine grid (coefficients, computed with
/// lanes along the other axes instead of along x) are the columns of the
/// wider grid (lanes along x), bit for bit: windows 1 to 23 samples wide (and
/// 24, the first on the wide path) at several x offsets, 2D to 4D, Perlin
/// and Value, both hash modes, every fade, with and without a period, every
/// level, `_par` or not; tall enough for several groups of blocks of rows,
/// and in 3D for blocks that cross from one z slice to the next.
#[test]
fn narrow_windows_of_fine_grids_are_their_columns() {
    fn check<S: Source, const D: usize>(source: &S, grid: &Grid<D>, what: &str) {
        let size = grid.size();
        let mut full = vec![0.0f32; grid.check().unwrap()];
        source.fill_grid(grid, &mut full).unwrap();
        for (x0, width) in [
            (0, 1),
            (3, 2),
            (10, 3),
            (7, 8),
            (31, 15),
            (2, 16),
            (5, 23),
            (1, 24),
        ] {
            let mut wsize = size;
            wsize[0] = width;
            let offset = std::array::from_fn(|a| if a == 0 { x0 } else { 0 });
            let window = grid.window(offset, wsize).unwrap();
            let mut out = vec![f32::from_bits(SENTINEL_BITS); count(wsize)];
            if x0 % 2 == 0 {
                source.fill_grid(&window, &mut out).unwrap();
            } else {
                source.fill_grid_par(&window, &mut out).unwrap();
            }
            for (k, v) in out.iter().enumerate() {
                let mut global = unflatten(k, wsize);
                global[0] += x0;
                let want = full[flatten(global, size)];
                assert_eq!(
                    v.to_bits(),
                    want.to_bits(),
                    "{what}, {grid:?}: window x {x0}, width {width}, sample {global:?}: {v:e}, \
                     the whole grid has {want:e}"
                );
            }
        }
    }
    let fades = [Fade::Quintic, Fade::Cubic, Fade::Cosine, Fade::Linear];
    for level in levels() {
        for (f, &fade) in fades.iter().enumerate() {
            let mode = if f % 2 == 0 {
                HashMode::Coordinates
            } else {
                HashMode::Permutation
            };
            let perlin = Perlin::with_hash(9 + f as u64, mode).with_fade(fade);
            let value = Value::with_hash(5 + f as u64, mode).with_fade(fade);
            let periodic = perlin.clone().with_period([7, 5, 3, 4]).unwrap();
            for (name, p, v) in [
                ("perlin/value", perlin.clone(), value.clone()),
                ("periodic perlin", periodic.clone(), value),
            ] {
                let (p, v) = (p.with_level(level).unwrap(), v.with_level(level).unwrap());
                let what = format!("{name}, {fade:?}, {mode:?}, {level:?}");
                let g2 = Grid2::new([-3.3, 1.7], [0.05, 0.37], [48, 23]);
                let g3 = Grid3::new([0.4, -2.2, 8.1], [-0.11, 0.29, -0.6], [48, 9, 4]);
                let g4 = Grid4::new(
                    [1.1, 0.2, -0.7, 3.3],
                    [1.0 / 80.0, 0.4, 0.3, -0.2],
                    [48, 3, 3, 3],
                );
                check(&p, &g2, &what);
                check(&v, &g2, &what);
                check(&p, &g3, &what);
                check(&v, &g3, &what);
                check(&p, &g4, &what);
                check(&v, &g4, &what);
                let tall2 = Grid2::new([0.3, -5.0], [0.04, 0.11], [48, 300]);
                let tall3 = Grid3::new([2.5, 0.6, -1.2], [-0.07, 0.13, 0.5], [48, 70, 3]);
                check(&p, &tall2, &what);
                check(&v, &tall3, &what);
            }
        }
    }
}

// ------------------------------------------------------ rows by bands

/// Issue 39's bound between a grid filled by bands (2D and 3D grids whose
/// x and y steps are at most ¼: another order of operations) and
/// `fillN_f64` at the grid's points, for one octave.
const BANDS_TOLERANCE: f32 = 4e-7;

/// The largest |grid − fill_f64| over `grid`'s samples.
fn band_difference<S: Source, const D: usize>(src: &S, grid: &Grid<D>) -> f32 {
    let points = crate::common::grid_points(grid);
    let inputs: [&[f64]; D] = std::array::from_fn(|a| points[a].as_slice());
    let mut want = vec![0.0f32; count(grid.size())];
    src.fill_f64(inputs, &mut want).unwrap();
    let mut got = vec![0.0f32; want.len()];
    src.fill_grid(grid, &mut got).unwrap();
    max_difference(&got, &want)
}

/// Grids by bands stay within [`BANDS_TOLERANCE`] of the points: Perlin
/// and value noise, both hash modes, every fade, x and y steps from 1/256
/// to ¼ (both signs), origins near 0 and far out, 2D and 3D. Value noise
/// takes the point path's operations: its bits.
#[test]
fn grids_by_bands_are_within_4e_7_of_the_points() {
    let steps = [
        1.0 / 256.0,
        0.013,
        1.0 / 64.0,
        0.05,
        -0.07,
        0.125,
        0.19,
        0.25,
        -0.25,
    ];
    let origins = [0.37, -55.2, 1e5 + 0.61, -TWO_POW_40 + 0.3];
    let (mut perlin_max, mut value_max) = ([0.0f32; 2], [0.0f32; 2]);
    let mut samples = 0;
    for fade in Fade::ALL {
        for seed in [0, 9] {
            let perlins = [
                Perlin::new(seed).with_fade(fade),
                Perlin::permuted(seed).with_fade(fade),
            ];
            let values = [
                Value::new(seed).with_fade(fade),
                Value::permuted(seed).with_fade(fade),
            ];
            for (k, (&dx, &x0)) in steps.iter().zip(origins.iter().cycle()).enumerate() {
                let dy = steps[(k + 3) % steps.len()];
                let grid2 = Grid2::new([x0, -x0 * 0.5 + 0.2], [dx, dy], [67, 41]);
                let dz = steps[(k + 5) % steps.len()] * 3.0;
                let grid3 = Grid3::new([x0, 3.3, x0 + 0.7], [dx, dy, dz], [37, 19, 6]);
                samples += 67 * 41 + 37 * 19 * 6;
                for (p, v) in perlins.iter().zip(&values) {
                    perlin_max[0] = perlin_max[0].max(band_difference(p, &grid2));
                    perlin_max[1] = perlin_max[1].max(band_difference(p, &grid3));
                    let value = [band_difference(v, &grid2), band_difference(v, &grid3)];
                    assert_eq!(
                        value, [0.0; 2],
                        "value noise, {grid2:?}, {grid3:?}, {fade:?}"
                    );
                    value_max = [value_max[0].max(value[0]), value_max[1].max(value[1])];
                }
            }
        }
    }
    eprintln!(
        "grids by bands vs fill_f64 ({samples} samples per source): Perlin 2D {:e}, 3D {:e}; \
         value 2D {:e}, 3D {:e}",
        perlin_max[0], perlin_max[1], value_max[0], value_max[1]
    );
    for m in perlin_max.iter().chain(&value_max) {
        assert!(*m <= BANDS_TOLERANCE, "{m:e} > {BANDS_TOLERANCE:e}");
    }
}

// ------------------------------------------------------- narrow windows

/// The columns `x0..x0 + width` of every row of `wide` (`nx` columns).
fn columns(wide: &[f32], nx: usize, x0: usize, width: usize) -> Vec<f32> {
    wide.chunks_exact(nx)
        .flat_map(|row| row[x0..x0 + width].iter().copied())
        .collect()
}

/// A 2D window a few columns wide (the command-line tool's windows of a
/// field 2 or 4 samples wide, which go by bands transposed: lanes along
/// the rows) gives the bits of the same columns of a wide window, for
/// every width up to and past the transposed path's limit, every level,
/// both hash modes, every fade, value and gradient noise, periods, steps
/// from 1/128 to 1/4 and coordinates far from the origin; a fractal over
/// it too.
#[test]
fn narrow_windows_are_the_columns_of_wide_ones() {
    let (nx, ny) = (40, 300);
    let lattices: Vec<(String, DynSource)> = vec![
        ("perlin".into(), DynSource::new(Perlin::new(7))),
        (
            "perlin permuted".into(),
            DynSource::new(Perlin::permuted(9)),
        ),
        (
            "perlin cubic, period".into(),
            DynSource::new(
                Perlin::new(2)
                    .with_fade(Fade::Cubic)
                    .with_period([5, 3, 5, 3])
                    .unwrap(),
            ),
        ),
        ("value".into(), DynSource::new(Value::new(4))),
        (
            "value permuted, linear".into(),
            DynSource::new(Value::permuted(4).with_fade(Fade::Linear)),
        ),
        (
            "fbm".into(),
            DynSource::new(Fbm::new(Perlin::new(3)).octaves(4)),
        ),
        // fBm's wide windows add their later octaves in the band rows'
        // pass, its narrow ones fold them in a pass of their own: the same
        // bits. The other fractals fold in a pass on both (their rows by
        // row and by pairs of registers).
        (
            "billow".into(),
            DynSource::new(Billow::new(Perlin::permuted(5)).octaves(3)),
        ),
        (
            "turbulence".into(),
            DynSource::new(Turbulence::new(Value::new(6)).octaves(3)),
        ),
        (
            "marble".into(),
            DynSource::new(Marble::new(Perlin::new(8)).octaves(3)),
        ),
        (
            "ridged".into(),
            DynSource::new(Ridged::new(Perlin::new(9)).octaves(3)),
        ),
    ];
    let grids = [
        ([0.0, 0.0], [1.0 / 128.0, 1.0 / 128.0]),
        ([0.3, -7.1], [0.25, 0.25]),
        ([-1000.25, 17.3], [1.0 / 7.0, 0.2]),
        ([3.0e6, -2.5e6], [0.125, -0.25]),
        // Falling x across the period's wrap: planes numbered downwards.
        ([2.0, 1.0], [-0.25, 0.125]),
    ];
    let mut checked = 0;
    for (name, source) in &lattices {
        for level in levels() {
            let source = source.clone().with_level(level).unwrap();
            for (origin, step) in grids {
                let grid = Grid2::new(origin, step, [nx, ny]);
                let mut wide = vec![0.0f32; nx * ny];
                source.fill_grid(&grid, &mut wide).unwrap();
                for (x0, width) in [
                    (0, 1),
                    (3, 2),
                    (1, 3),
                    (8, 4),
                    (5, 7),
                    (16, 8),
                    (2, 15),
                    (9, 16),
                    (20, 17),
                ] {
                    let window = grid.window([x0, 0], [width, ny]).unwrap();
                    let mut narrow = vec![f32::from_bits(SENTINEL_BITS); width * ny];
                    source.fill_grid(&window, &mut narrow).unwrap();
                    assert!(
                        bits(&narrow) == bits(&columns(&wide, nx, x0, width)),
                        "{name}, level {level}, origin {origin:?}, step {step:?}: the window of \
                         columns {x0}..{} differs from those columns of the wide grid",
                        x0 + width
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 6 * 5 * 9, "{checked} windows checked");
}
