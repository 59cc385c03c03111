//! What the integration tests share: the one table of adversarial `f32`
//! inputs and helpers that run a point or a batch in any
//! dimension and compare every level against the scalar path bit for bit;
//! `f64` batches and grids of any dimension (`FillGrid`, `grid_values`).

// Each test binary uses only part of this module.
#![allow(dead_code)]

use noisefield::prelude::*;
use noisefield::{DynSource, Error, Grid, Grid1, Grid2, Grid3, Grid4, Level, Perlin};

/// The levels every cross-level test runs: those this CPU has. The first
/// call prints them and the ones it lacks (untested here); a level named in
/// `NOISEFIELD_REQUIRE_LEVELS` (comma-separated, e.g. `avx2,avx512`) that
/// this CPU lacks fails the test instead of being skipped in silence.
pub fn levels() -> Vec<Level> {
    static REPORT: std::sync::Once = std::sync::Once::new();
    let missing = missing_required_levels();
    assert!(
        missing.is_empty(),
        "NOISEFIELD_REQUIRE_LEVELS names levels this CPU lacks (or unknown names): {missing:?}"
    );
    REPORT.call_once(|| eprintln!("{}", levels_report()));
    Level::available()
}

/// "levels tested: …; not on this CPU (untested): …".
pub fn levels_report() -> String {
    let names = |available: bool| {
        let names: Vec<&str> = Level::all()
            .iter()
            .filter(|l| l.is_available() == available)
            .map(|l| l.name())
            .collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    format!(
        "levels tested: {}; not on this CPU (untested here): {}",
        names(true),
        names(false)
    )
}

/// The names in `NOISEFIELD_REQUIRE_LEVELS` that are no available level.
pub fn missing_required_levels() -> Vec<String> {
    std::env::var("NOISEFIELD_REQUIRE_LEVELS")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .filter(|w| !w.parse::<Level>().is_ok_and(Level::is_available))
        .map(str::to_string)
        .collect()
}

/// Batch lengths every level is checked at: 0 up to past four 16-lane steps,
/// so every tail length of 8 and 16 lanes occurs, with and without full packs.
pub const MAX_LEN: usize = 67;

/// 2^23: from here on every `f32` is an integer.
pub const TWO_POW_23: f32 = 8_388_608.0;
/// 2^31: the first magnitude an `i32` cannot hold.
pub const TWO_POW_31: f32 = 2_147_483_648.0;

/// A pattern no kernel writes (the only NaN the crate returns is
/// `f32::NAN`), used to prefill outputs so an unwritten slot shows.
pub const SENTINEL_BITS: u32 = 0x7fa5_a5a5;

/// The shared table of adversarial inputs.
pub fn adversarial() -> Vec<f32> {
    let mut t = vec![
        // lattice integers, negative ones included
        0.0,
        1.0,
        2.0,
        3.0,
        -1.0,
        -2.0,
        -7.0,
        100.0,
        255.0,
        256.0,
        257.0,
        -255.0,
        -256.0,
        -257.0,
        1e6,
        -1e6,
        // signed zeros
        -0.0,
        // NaN with several payloads, quiet and signalling, both signs
        f32::NAN,
        f32::from_bits(0x7fc0_0001),
        f32::from_bits(0xffc0_0000),
        f32::from_bits(0x7f80_0001), // signalling
        f32::from_bits(0xff80_0001), // signalling, negative
        f32::from_bits(0x7fff_ffff),
        // infinities
        f32::INFINITY,
        f32::NEG_INFINITY,
        // subnormals and the smallest normal
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x807f_ffff),
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        // halves and ordinary fractions
        0.5,
        -0.5,
        0.25,
        3.1,
        -3.7,
        127.5,
        -127.5,
        // just below / above integers
        1.0f32.next_down(),
        1.0f32.next_up(),
        (-1.0f32).next_down(),
        (-1.0f32).next_up(),
        255.0f32.next_down(),
        255.0f32.next_up(),
        256.0f32.next_down(),
        256.0f32.next_up(),
        // the last fractional f32s and the first integral ones
        8_388_607.5,  // 2^23 - 0.5
        -8_388_607.5, // -(2^23 - 0.5)
        TWO_POW_23,
        TWO_POW_23 + 1.0,
        -TWO_POW_23 - 1.0,
        16_777_216.0, // 2^24
        // around the i32 range
        2_147_483_520.0, // largest f32 below 2^31
        -2_147_483_520.0,
        TWO_POW_31,
        -TWO_POW_31,
        3e9,
        -3e9,
        // huge
        1e30,
        -1e30,
        1e38,
        f32::MAX,
        f32::MIN,
        // -1e-10 - floor(-1e-10) rounds to 1.0: the offset hits the cell's far end
        -1e-10,
        1e-3,
        -1e-3,
        1e4,
        -1e4,
        9_999.999,
    ];
    // 2^23 + 1 and friends must really be the values they claim to be.
    assert_eq!(TWO_POW_23 + 1.0, 8_388_609.0);
    assert_eq!(
        t.len(),
        t.iter()
            .map(|v| v.to_bits())
            .collect::<std::collections::HashSet<_>>()
            .len()
    );
    t.shrink_to_fit();
    t
}

/// The noises every level is checked with: Ken's table, the default
/// coordinates mode, and a seeded permutation table.
pub fn perlins() -> Vec<(String, Perlin)> {
    vec![
        ("reference".to_string(), Perlin::reference()),
        ("seed 0".to_string(), Perlin::new(0)),
        ("permuted 0x5eed".to_string(), Perlin::permuted(0x5eed)),
    ]
}

/// The permutation-mode entries of [`perlins`]: Ken's semantics (his
/// gradients, 2D as the z = 0 slice of 3D, a period of 256).
pub fn table_perlins() -> Vec<(String, Perlin)> {
    perlins()
        .into_iter()
        .filter(|(_, p)| p.permutation().is_some())
        .collect()
}

/// Cells after which `p`'s lattice repeats on an axis given period `period`
/// (`u32::MAX` leaves the axis at the mode's natural period: 256 for the
/// permutation, 2³² for the coordinates mode).
pub fn effective_period(p: &Perlin, period: u32) -> u64 {
    match (period, p.permutation()) {
        (u32::MAX, Some(_)) => 256,
        (u32::MAX, None) => 1 << 32,
        (p, _) => u64::from(p),
    }
}

/// Scalar `noiseN` at one point of `c.len()` (1 to 4) coordinates.
pub fn noise(p: &Perlin, c: &[f32]) -> f32 {
    match *c {
        [x] => noisefield::Source::noise(p, [x]),
        [x, y] => noisefield::Source::noise(p, [x, y]),
        [x, y, z] => noisefield::Source::noise(p, [x, y, z]),
        [x, y, z, w] => noisefield::Source::noise(p, [x, y, z, w]),
        _ => panic!("{} coordinates", c.len()),
    }
}

/// `fillN` with `inputs.len()` (1 to 4) coordinate slices.
pub fn fill(p: &Perlin, inputs: &[&[f32]], out: &mut [f32]) -> Result<(), Error> {
    match *inputs {
        [xs] => noisefield::Source::fill(p, [xs], out),
        [xs, ys] => noisefield::Source::fill(p, [xs, ys], out),
        [xs, ys, zs] => noisefield::Source::fill(p, [xs, ys, zs], out),
        [xs, ys, zs, ws] => noisefield::Source::fill(p, [xs, ys, zs, ws], out),
        _ => panic!("{} coordinate slices", inputs.len()),
    }
}

/// Point `i` of the coordinate slices.
pub fn point(inputs: &[&[f32]], i: usize) -> Vec<f32> {
    inputs.iter().map(|s| s[i]).collect()
}

/// Coordinates as `value (bits)` for failure messages.
pub fn show(c: &[f32]) -> String {
    let parts: Vec<String> = c
        .iter()
        .map(|v| format!("{v:e} ({:#010x})", v.to_bits()))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// For every available level, `fillN` of `inputs` equals the scalar `noiseN`
/// of each point, bit for bit, and writes every slot. A failure names the
/// first wrong point of every level that has one.
pub fn assert_every_level_matches_scalar(p: &Perlin, inputs: &[&[f32]], context: &str) {
    let len = inputs[0].len();
    let expected: Vec<u32> = (0..len)
        .map(|i| noise(p, &point(inputs, i)).to_bits())
        .collect();
    let mut out = vec![0.0f32; len];
    let mut failures = Vec::new();
    for level in levels() {
        let at_level = p.clone().with_level(level).unwrap();
        out.fill(f32::from_bits(SENTINEL_BITS));
        fill(&at_level, inputs, &mut out).unwrap();
        let wrong = out
            .iter()
            .zip(&expected)
            .position(|(got, want)| got.to_bits() != *want);
        if let Some(i) = wrong {
            let (got, want) = (out[i], f32::from_bits(expected[i]));
            failures.push(format!(
                "level {level}: index {i} of {len}: fill gave {got:e} ({:#010x}), \
                 scalar noise gave {want:e} ({:#010x}) at {}",
                got.to_bits(),
                want.to_bits(),
                show(&point(inputs, i)),
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{context}, {}D:\n{}",
        inputs.len(),
        failures.join("\n")
    );
}

/// Owned coordinate slices as the borrowed form the helpers take.
pub fn borrow(inputs: &[Vec<f32>]) -> Vec<&[f32]> {
    inputs.iter().map(Vec::as_slice).collect()
}

// ------------------------------------------------------- f64 points, grids

/// `fillN_f64` with `inputs.len()` (1 to 4) coordinate slices.
pub fn fill_f64(p: &Perlin, inputs: &[&[f64]], out: &mut [f32]) -> Result<(), Error> {
    match *inputs {
        [xs] => p.fill_f64([xs], out),
        [xs, ys] => p.fill_f64([xs, ys], out),
        [xs, ys, zs] => p.fill_f64([xs, ys, zs], out),
        [xs, ys, zs, ws] => p.fill_f64([xs, ys, zs, ws], out),
        _ => panic!("{} coordinate slices", inputs.len()),
    }
}

/// `fill_gridN` or `fill_gridN_par` for a grid of any dimension, so tests
/// can be written once over `Grid<D>` (`where Grid<D>: FillGrid`).
pub trait FillGrid {
    /// `fill_gridN(self, out)`, or `fill_gridN_par` when `parallel`.
    fn fill_with(&self, p: &Perlin, out: &mut [f32], parallel: bool) -> Result<(), Error>;
}

impl FillGrid for Grid1 {
    fn fill_with(&self, p: &Perlin, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        if parallel {
            p.fill_grid_par(self, out)
        } else {
            p.fill_grid(self, out)
        }
    }
}

impl FillGrid for Grid2 {
    fn fill_with(&self, p: &Perlin, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        if parallel {
            p.fill_grid_par(self, out)
        } else {
            p.fill_grid(self, out)
        }
    }
}

impl FillGrid for Grid3 {
    fn fill_with(&self, p: &Perlin, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        if parallel {
            p.fill_grid_par(self, out)
        } else {
            p.fill_grid(self, out)
        }
    }
}

impl FillGrid for Grid4 {
    fn fill_with(&self, p: &Perlin, out: &mut [f32], parallel: bool) -> Result<(), Error> {
        if parallel {
            p.fill_grid_par(self, out)
        } else {
            p.fill_grid(self, out)
        }
    }
}

/// The number of samples of a block of `size` (no overflow check).
pub fn count<const D: usize>(size: [usize; D]) -> usize {
    size.iter().product()
}

/// The multi-index of entry `index` of the grid layout (x fastest).
pub fn unflatten<const D: usize>(mut index: usize, size: [usize; D]) -> [usize; D] {
    std::array::from_fn(|a| {
        let i = index % size[a];
        index /= size[a];
        i
    })
}

/// The layout index of multi-index `at` in a block of `size` (x fastest):
/// `((l * nz + k) * ny + j) * nx + i`.
pub fn flatten<const D: usize>(at: [usize; D], size: [usize; D]) -> usize {
    (0..D).rev().fold(0, |acc, a| acc * size[a] + at[a])
}

/// The position of every sample of `grid`, one `Vec` per axis, in the
/// output layout, each from [`Grid::coord`].
pub fn grid_points<const D: usize>(grid: &Grid<D>) -> Vec<Vec<f64>> {
    let size = grid.size();
    let n = count(size);
    (0..D)
        .map(|a| {
            (0..n)
                .map(|k| grid.coord(a, unflatten(k, size)[a]))
                .collect()
        })
        .collect()
}

/// `fill_gridN` (or `_par`) into a fresh output prefilled with the sentinel;
/// panics if the call fails or leaves a slot unwritten.
pub fn grid_values<const D: usize>(p: &Perlin, grid: &Grid<D>, parallel: bool) -> Vec<f32>
where
    Grid<D>: FillGrid,
{
    let mut out = vec![f32::from_bits(SENTINEL_BITS); count(grid.size())];
    grid.fill_with(p, &mut out, parallel)
        .unwrap_or_else(|e| panic!("{grid:?}: {e}"));
    if let Some(i) = out.iter().position(|v| v.to_bits() == SENTINEL_BITS) {
        panic!("{grid:?}: sample {i} was not written");
    }
    out
}

/// `fillN_f64` at every sample position of `grid` (from [`grid_points`]).
pub fn points_values<const D: usize>(p: &Perlin, grid: &Grid<D>) -> Vec<f32> {
    let points = grid_points(grid);
    let inputs: Vec<&[f64]> = points.iter().map(Vec::as_slice).collect();
    let mut out = vec![0.0f32; count(grid.size())];
    fill_f64(p, &inputs, &mut out).unwrap();
    out
}

/// The bit patterns of `values`, for whole-slice bitwise comparisons.
pub fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// `fillN_f64` of the `f32` inputs (widened) equals `fillN` bit for bit at
/// every level.
pub fn assert_fill_f64_matches_fill(p: &Perlin, inputs: &[Vec<f32>]) {
    let wide: Vec<Vec<f64>> = inputs
        .iter()
        .map(|s| s.iter().map(|&v| f64::from(v)).collect())
        .collect();
    let len = inputs[0].len();
    for level in levels() {
        let p = p.clone().with_level(level).unwrap();
        let (mut a, mut b) = (vec![0.0; len], vec![0.0; len]);
        fill(&p, &borrow(inputs), &mut a).unwrap();
        let slices: Vec<&[f64]> = wide.iter().map(Vec::as_slice).collect();
        fill_f64(&p, &slices, &mut b).unwrap();
        if let Some(i) = (0..len).find(|&i| a[i].to_bits() != b[i].to_bits()) {
            panic!(
                "level {level}, periods {:?}: fill{}_f64 gave {:e}, fill{} gave {:e} at {}",
                p.period(),
                inputs.len(),
                b[i],
                inputs.len(),
                a[i],
                show(&point(&borrow(inputs), i))
            );
        }
    }
}

/// Ken's table or a seeded table (proptest strategy): the permutation mode.
pub fn any_table_perlin() -> impl proptest::strategy::Strategy<Value = Perlin> {
    use proptest::prelude::*;
    prop_oneof![
        Just(Perlin::reference()),
        any::<u64>().prop_map(Perlin::permuted)
    ]
}

/// Ken's table, a seeded table or the coordinates mode with a seed (proptest
/// strategy).
pub fn any_perlin() -> impl proptest::strategy::Strategy<Value = Perlin> {
    use proptest::prelude::*;
    prop_oneof![
        Just(Perlin::reference()),
        any::<u64>().prop_map(Perlin::new),
        any::<u64>().prop_map(Perlin::permuted)
    ]
}

/// `dims` coordinate slices of one length in 0..=67, every `f32` bit pattern
/// (NaNs, infinities, subnormals, huge values) equally likely per bit.
pub fn bit_pattern_slices(dims: usize) -> impl proptest::strategy::Strategy<Value = Vec<Vec<f32>>> {
    use proptest::prelude::*;
    (0..=MAX_LEN).prop_flat_map(move |len| {
        prop::collection::vec(
            prop::collection::vec(any::<u32>().prop_map(f32::from_bits), len),
            dims,
        )
    })
}

// ------------------------------------------------------------ any source
//
// Tests written over any source and dimension take a `DynSource`
// (`DynSource::new`, or `DynSource::differentiable` for derivatives) and
// its `*_dyn` methods; a grid of a run-time dimension is an `AnyGrid`.

/// `s.noise_grad_dyn(c, ..)`: the value and one derivative per axis
/// (panics if `s` refuses: a dimension outside 1..=4, no derivatives or
/// invalid parameters).
pub fn grad_at(s: &DynSource, c: &[f32]) -> (f32, Vec<f32>) {
    let mut d = vec![f32::from_bits(SENTINEL_BITS); c.len()];
    let v = s
        .noise_grad_dyn(c, &mut d)
        .unwrap_or_else(|e| panic!("{s:?} at {}: {e}", show(c)));
    (v, d)
}

/// A grid of any dimension 1 to 4.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AnyGrid {
    G1(Grid1),
    G2(Grid2),
    G3(Grid3),
    G4(Grid4),
}

impl AnyGrid {
    /// `Grid::new` of `origin.len()` dimensions.
    pub fn new(origin: &[f64], step: &[f64], size: &[usize]) -> AnyGrid {
        match origin.len() {
            1 => AnyGrid::G1(Grid::new([origin[0]], [step[0]], [size[0]])),
            2 => AnyGrid::G2(Grid::new(
                std::array::from_fn(|a| origin[a]),
                std::array::from_fn(|a| step[a]),
                std::array::from_fn(|a| size[a]),
            )),
            3 => AnyGrid::G3(Grid::new(
                std::array::from_fn(|a| origin[a]),
                std::array::from_fn(|a| step[a]),
                std::array::from_fn(|a| size[a]),
            )),
            4 => AnyGrid::G4(Grid::new(
                std::array::from_fn(|a| origin[a]),
                std::array::from_fn(|a| step[a]),
                std::array::from_fn(|a| size[a]),
            )),
            d => panic!("{d} dimensions"),
        }
    }

    pub fn dims(&self) -> usize {
        match self {
            AnyGrid::G1(_) => 1,
            AnyGrid::G2(_) => 2,
            AnyGrid::G3(_) => 3,
            AnyGrid::G4(_) => 4,
        }
    }

    pub fn size(&self) -> Vec<usize> {
        match self {
            AnyGrid::G1(g) => g.size().to_vec(),
            AnyGrid::G2(g) => g.size().to_vec(),
            AnyGrid::G3(g) => g.size().to_vec(),
            AnyGrid::G4(g) => g.size().to_vec(),
        }
    }

    pub fn len(&self) -> usize {
        self.size().iter().product()
    }

    /// The window at `offset` of `size` (panics if it does not fit).
    pub fn window(&self, offset: &[usize], size: &[usize]) -> AnyGrid {
        match self {
            AnyGrid::G1(g) => AnyGrid::G1(g.window([offset[0]], [size[0]]).unwrap()),
            AnyGrid::G2(g) => AnyGrid::G2(
                g.window(
                    std::array::from_fn(|a| offset[a]),
                    std::array::from_fn(|a| size[a]),
                )
                .unwrap(),
            ),
            AnyGrid::G3(g) => AnyGrid::G3(
                g.window(
                    std::array::from_fn(|a| offset[a]),
                    std::array::from_fn(|a| size[a]),
                )
                .unwrap(),
            ),
            AnyGrid::G4(g) => AnyGrid::G4(
                g.window(
                    std::array::from_fn(|a| offset[a]),
                    std::array::from_fn(|a| size[a]),
                )
                .unwrap(),
            ),
        }
    }

    /// The position of every sample, one `Vec` per axis, in the output
    /// layout (x fastest), from `Grid::coord`.
    pub fn points(&self) -> Vec<Vec<f64>> {
        match self {
            AnyGrid::G1(g) => grid_points(g),
            AnyGrid::G2(g) => grid_points(g),
            AnyGrid::G3(g) => grid_points(g),
            AnyGrid::G4(g) => grid_points(g),
        }
    }

    /// `fill_grid` (or `fill_grid_par`) of `s` into `out`.
    pub fn fill(&self, s: &DynSource, out: &mut [f32], par: bool) -> Result<(), Error> {
        fn fill<const D: usize>(
            s: &DynSource,
            g: &Grid<D>,
            out: &mut [f32],
            par: bool,
        ) -> Result<(), Error> {
            if par {
                s.fill_grid_par(g, out)
            } else {
                s.fill_grid(g, out)
            }
        }
        match self {
            AnyGrid::G1(g) => fill(s, g, out, par),
            AnyGrid::G2(g) => fill(s, g, out, par),
            AnyGrid::G3(g) => fill(s, g, out, par),
            AnyGrid::G4(g) => fill(s, g, out, par),
        }
    }

    /// `fill_grid_grad` (or `fill_grid_grad_par`) of `s`: values into
    /// `out`, the derivative along axis `a` into `grad[a]` (one slice per
    /// axis of the grid; panics otherwise).
    pub fn fill_grad(
        &self,
        s: &DynSource,
        out: &mut [f32],
        grad: &mut [&mut [f32]],
        par: bool,
    ) -> Result<(), Error> {
        fn fill<const D: usize>(
            s: &DynSource,
            g: &Grid<D>,
            out: &mut [f32],
            grad: &mut [&mut [f32]],
            par: bool,
        ) -> Result<(), Error> {
            assert_eq!(
                grad.len(),
                D,
                "{D} dimensions, {} derivative slices",
                grad.len()
            );
            let mut it = grad.iter_mut();
            let grad: [&mut [f32]; D] = std::array::from_fn(|_| &mut **it.next().unwrap());
            if par {
                s.fill_grid_grad_par(g, out, grad)
            } else {
                s.fill_grid_grad(g, out, grad)
            }
        }
        match self {
            AnyGrid::G1(g) => fill(s, g, out, grad, par),
            AnyGrid::G2(g) => fill(s, g, out, grad, par),
            AnyGrid::G3(g) => fill(s, g, out, grad, par),
            AnyGrid::G4(g) => fill(s, g, out, grad, par),
        }
    }

    /// `fill_gridN` (or `_par`) into a fresh output prefilled with the
    /// sentinel; panics if the call fails or leaves a slot unwritten.
    pub fn values(&self, s: &DynSource, par: bool) -> Vec<f32> {
        let mut out = vec![f32::from_bits(SENTINEL_BITS); self.len()];
        self.fill(s, &mut out, par)
            .unwrap_or_else(|e| panic!("{self:?}: {e}"));
        if let Some(i) = out.iter().position(|v| v.to_bits() == SENTINEL_BITS) {
            panic!("{self:?}: sample {i} was not written");
        }
        out
    }

    /// `fill_f64` of `s` at every sample position.
    pub fn point_values(&self, s: &DynSource) -> Vec<f32> {
        let points = self.points();
        let inputs: Vec<&[f64]> = points.iter().map(Vec::as_slice).collect();
        let mut out = vec![0.0f32; self.len()];
        s.fill_f64_dyn(&inputs, &mut out).unwrap();
        out
    }
}

/// SplitMix64: reproducible random numbers for sampling points.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// `n` points of `dims` coordinates in `[lo, hi)`, as `f32` slices.
    pub fn points(&mut self, dims: usize, n: usize, lo: f64, hi: f64) -> Vec<Vec<f32>> {
        (0..dims)
            .map(|_| (0..n).map(|_| self.uniform(lo, hi) as f32).collect())
            .collect()
    }
}

/// `f32` slices widened to `f64`.
pub fn widen(inputs: &[Vec<f32>]) -> Vec<Vec<f64>> {
    inputs
        .iter()
        .map(|s| s.iter().map(|&v| f64::from(v)).collect())
        .collect()
}

/// Owned `f64` slices as the borrowed form.
pub fn borrow64(inputs: &[Vec<f64>]) -> Vec<&[f64]> {
    inputs.iter().map(Vec::as_slice).collect()
}

/// `src` at every available level: `fillN` equals the scalar `noiseN` of
/// each point bit for bit and writes every slot; every non-finite point
/// gives exactly `f32::NAN`. Panics naming the first wrong point.
pub fn assert_src_levels_match_scalar(src: &DynSource, inputs: &[&[f32]], context: &str) {
    let len = inputs[0].len();
    let expected: Vec<u32> = (0..len)
        .map(|i| src.noise_dyn(&point(inputs, i)).unwrap().to_bits())
        .collect();
    for (i, want) in expected.iter().enumerate() {
        let c = point(inputs, i);
        if c.iter().any(|v| !v.is_finite()) {
            assert_eq!(
                *want,
                f32::NAN.to_bits(),
                "{context}: noise{} at {} is {:e} ({want:#010x}), not f32::NAN",
                inputs.len(),
                show(&c),
                f32::from_bits(*want)
            );
        }
    }
    let mut out = vec![0.0f32; len];
    for level in levels() {
        let at = src.clone().with_level(level).unwrap();
        assert_eq!(at.level(), level);
        out.fill(f32::from_bits(SENTINEL_BITS));
        at.fill_dyn(inputs, &mut out).unwrap();
        if let Some(i) = (0..len).find(|&i| out[i].to_bits() != expected[i]) {
            panic!(
                "{context}, {}D, level {level}: index {i} of {len}: fill gave {:e} ({:#010x}), \
                 noise gave {:e} ({:#010x}) at {}",
                inputs.len(),
                out[i],
                out[i].to_bits(),
                f32::from_bits(expected[i]),
                expected[i],
                show(&point(inputs, i)),
            );
        }
    }
}

/// `src.fill_f64` gives the same bits at every level (the scalar level's
/// are the reference); non-finite points give exactly `f32::NAN`.
/// Returns the scalar level's values.
pub fn assert_src_f64_levels_agree(src: &DynSource, inputs: &[&[f64]], context: &str) -> Vec<f32> {
    let len = inputs[0].len();
    let mut want = vec![f32::from_bits(SENTINEL_BITS); len];
    src.clone()
        .with_level(Level::Scalar)
        .unwrap()
        .fill_f64_dyn(inputs, &mut want)
        .unwrap();
    for (i, w) in want.iter().enumerate() {
        let c: Vec<f64> = inputs.iter().map(|s| s[i]).collect();
        if c.iter().any(|v| !v.is_finite()) {
            assert_eq!(
                w.to_bits(),
                f32::NAN.to_bits(),
                "{context}: fill{}_f64 at {c:?} is {w:e}, not f32::NAN",
                inputs.len()
            );
        }
        assert_ne!(
            w.to_bits(),
            SENTINEL_BITS,
            "{context}: slot {i} not written"
        );
    }
    let mut out = vec![0.0f32; len];
    for level in levels() {
        out.fill(f32::from_bits(SENTINEL_BITS));
        src.clone()
            .with_level(level)
            .unwrap()
            .fill_f64_dyn(inputs, &mut out)
            .unwrap();
        if let Some(i) = (0..len).find(|&i| out[i].to_bits() != want[i].to_bits()) {
            let c: Vec<f64> = inputs.iter().map(|s| s[i]).collect();
            panic!(
                "{context}, {}D, level {level}: fill_f64 index {i} of {len} gave {:e} ({:#010x}), \
                 the scalar level gave {:e} ({:#010x}) at {c:?}",
                inputs.len(),
                out[i],
                out[i].to_bits(),
                want[i],
                want[i].to_bits(),
            );
        }
    }
    want
}

/// `f64` slices of one length in 0..=67, every `f64` bit pattern equally
/// likely per bit (NaNs, infinities, subnormals, huge values), mixed with
/// ordinary values.
pub fn f64_slices(dims: usize) -> impl proptest::strategy::Strategy<Value = Vec<Vec<f64>>> {
    use proptest::prelude::*;
    let value = prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        -1e3f64..1e3,
        (-1e3f64..1e3).prop_map(|v| v + 1_099_511_627_776.0),
    ];
    (0..=MAX_LEN).prop_flat_map(move |len| {
        prop::collection::vec(prop::collection::vec(value.clone(), len), dims)
    })
}

/// Table-driven inputs of `dims` axes: for each length 0..=`MAX_LEN` a batch
/// cycling through the adversarial table (axis `d` with stride 1, 7, 11, 13,
/// starting at `len · shift`, so each file can see its own mix), and one
/// long batch of every pair of table values on x and y.
pub fn table_inputs(dims: usize, shift: usize) -> Vec<Vec<Vec<f32>>> {
    let t = adversarial();
    let n = t.len();
    let strides = [1usize, 7, 11, 13];
    let mut sets: Vec<Vec<Vec<f32>>> = (0..=MAX_LEN)
        .map(|len| {
            (0..dims)
                .map(|d| {
                    (0..len)
                        .map(|i| t[(len * shift + i * strides[d] + d) % n])
                        .collect()
                })
                .collect()
        })
        .collect();
    sets.push(
        (0..dims)
            .map(|d| {
                (0..n * n)
                    .map(|i| match d {
                        0 => t[i % n],
                        1 => t[i / n],
                        _ => t[(i * strides[d] + d) % n],
                    })
                    .collect()
            })
            .collect(),
    );
    sets
}
