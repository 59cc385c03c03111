"""Values equal the Rust library's bit for bit: grids against the .npy of
`noisefield render` (the library's grid fill, band by band), points against
coarse grids (whose samples the library computes exactly as its point
fills), and every split (windows, threads, levels) against the whole."""

import numpy as np
import pytest

import noisefield as nf
from conftest import assert_bits


def test_the_issue_example(render):
    expected = render("--source", "perlin", "--seed", "7", "--size", "512x256",
                      "--frequency", "1/64")
    got = nf.Perlin(7).grid((256, 512), origin=(0, 0), step=(1 / 64, 1 / 64))
    assert got.flags.c_contiguous
    assert_bits(got, expected)


FRACTALS = [
    ("fbm", nf.Fbm, {}),
    ("ridged", nf.Ridged, {}),
    ("billow", nf.Billow, {}),
    ("turbulence", nf.Turbulence, {}),
    ("marble", nf.Marble, {"stripes": 3.0, "power": 2.5}),
]


@pytest.mark.parametrize("name,cls,extra", FRACTALS)
def test_fractals_on_2d_grids(render, name, cls, extra):
    flags = ["--source", name, "--seed", "11", "--size", "300x170", "--origin", "-3.5,2.25",
             "--frequency", "1/37", "--octaves", "5", "--lacunarity", "2.5",
             "--persistence", "0.45", "--normalize"]
    for k, v in extra.items():
        flags += [f"--{k}", str(v)]
    source = cls(nf.Perlin(11), octaves=5, lacunarity=2.5, persistence=0.45, normalize=True,
                 **extra)
    got = source.grid((170, 300), origin=(2.25, -3.5), step=1 / 37)
    assert_bits(got, render(*flags))


def test_3d_volume_value_noise_permuted(render):
    expected = render("--source", "value", "--seed", "3", "--hash", "permuted",
                      "--size", "40x30x20", "--origin", "1.5,-2,0.25", "--frequency", "0.1")
    got = nf.Value(3, hash="permuted").grid((20, 30, 40), origin=(0.25, -2, 1.5), step=0.1)
    assert_bits(got, expected)


def test_periodic_tile(render):
    expected = render("--source", "fbm", "--seed", "5", "--size", "96x64", "--period", "6,4")
    source = nf.Fbm(nf.Perlin(5).with_period((6, 4)))
    got = source.grid((64, 96), step=(4 / 64, 6 / 96))
    assert_bits(got, expected)


def test_wide_rows_cut_into_windows(render):
    # Rows wider than the 2^14-sample window: filled in pieces, same bits.
    expected = render("--source", "ridged", "--seed", "2", "--size", "40000x3",
                      "--frequency", "1/300")
    assert nf._noisefield.WINDOW < 40000
    got = nf.Ridged(nf.Perlin(2)).grid((3, 40000), step=1 / 300)
    assert_bits(got, expected)
    got1 = nf.Ridged(nf.Perlin(2)).grid((3, 40000), step=1 / 300, threads=1)
    assert_bits(got1, expected)


def test_tall_grids_cut_into_windows(render):
    # More rows (or a taller y axis in 3D) than a window: cut on that axis.
    assert nf._noisefield.WINDOW < 17000
    expected = render("--source", "billow", "--seed", "6", "--size", "3x20000",
                      "--frequency", "1/300")
    assert_bits(nf.Billow(nf.Perlin(6)).grid((20000, 3), step=1 / 300), expected)
    expected3 = render("--source", "perlin", "--seed", "6", "--size", "3x17000x2",
                       "--frequency", "1/300")
    assert_bits(nf.Perlin(6).grid((2, 17000, 3), step=1 / 300, threads=2), expected3)


@pytest.mark.parametrize("name,cls,extra", FRACTALS + [("perlin", None, {}), ("value", None, {})])
def test_float64_points_equal_the_library(render, name, cls, extra):
    # A grid with an x step above 1/3 gives exactly the bits of the
    # library's fill2_f64 at its sample positions origin + i * step.
    x0, y0, step, nx, ny = -7.3, 11.9, 0.61, 64, 48
    flags = ["--source", name, "--seed", "9", "--size", f"{nx}x{ny}",
             "--origin", f"{x0},{y0}", "--frequency", str(step)]
    for k, v in extra.items():
        flags += [f"--{k}", str(v)]
    lattice = nf.Value(9) if name == "value" else nf.Perlin(9)
    source = lattice if cls is None else cls(lattice, **extra)
    xs = x0 + np.arange(nx, dtype=np.float64) * step
    ys = y0 + np.arange(ny, dtype=np.float64) * step
    assert_bits(source.noise2(xs[None, :], ys[:, None]), render(*flags))


def test_float32_points_equal_the_library(render):
    # Positions exact in float32: a lattice noise's fill2 gives fill2_f64's bits.
    expected = render("--source", "perlin", "--seed", "4", "--size", "50x40",
                      "--origin", "-3.25,1.5", "--frequency", "0.5")
    xs = (-3.25 + 0.5 * np.arange(50)).astype(np.float32)
    ys = (1.5 + 0.5 * np.arange(40)).astype(np.float32)
    assert_bits(nf.Perlin(4).noise2(xs, ys[:, None]), expected)
    # 3D (the row path ends at a 3/4 step): z slices of a volume.
    expected3 = render("--source", "perlin", "--seed", "4", "--size", "20x10x6",
                       "--origin", "-3.25,1.5,0.75", "--frequency", "1.25")
    xs = (-3.25 + 1.25 * np.arange(20)).astype(np.float32)
    ys = (1.5 + 1.25 * np.arange(10)).astype(np.float32)
    zs = (0.75 + 1.25 * np.arange(6)).astype(np.float32)
    got = nf.Perlin(4).noise3(xs, ys[:, None], zs[:, None, None])
    assert_bits(got, expected3)


SOURCES = [
    nf.Perlin(1),
    nf.Value(2, fade="cosine"),
    nf.Fbm(nf.Perlin(3), octaves=4),
    nf.Ridged(nf.Value(4)),
    nf.Marble(nf.Perlin(5).with_period(8), octaves=3),
]


@pytest.mark.parametrize("source", SOURCES, ids=repr)
@pytest.mark.parametrize("shape", [(1000,), (37, 53), (9, 17, 21), (3, 4, 5, 6)])
def test_windows_threads_levels_equal_the_whole(source, shape):
    step = [0.07, 0.013, 0.21, 0.05][: len(shape)]
    origin = [-1.5, 2.0, 100.25, 7.0][: len(shape)]
    whole = source.grid(shape, origin=origin, step=step)
    assert_bits(source.grid(shape, origin=origin, step=step, threads=1), whole)
    assert_bits(source.grid(shape, origin=origin, step=step, threads=3), whole)
    rng = np.random.default_rng(len(shape))
    for _ in range(5):
        lo = [int(rng.integers(0, n)) for n in shape]
        hi = [int(rng.integers(a + 1, n + 1)) for a, n in zip(lo, shape)]
        window = tuple(slice(a, b) for a, b in zip(lo, hi))
        assert_bits(source.grid(shape, origin=origin, step=step, window=window), whole[window])
    for level in nf.available_levels():
        assert_bits(source.with_level(level).grid(shape, origin=origin, step=step), whole)


@pytest.mark.parametrize("source", SOURCES, ids=repr)
def test_points_threads_and_levels(source):
    rng = np.random.default_rng(0)
    pts = rng.uniform(-300, 300, size=(3, 100_003)).astype(np.float32)
    one = source.noise3(*pts, threads=1)
    assert_bits(source.noise3(*pts), one)
    assert_bits(source.noise3(*pts, threads=2), one)
    for level in nf.available_levels():
        assert_bits(source.with_level(level).noise3(*pts, threads=1), one)
    # The Rust library's identity for Ken's table: 2D is the z = 0 slice of 3D.
    ken = nf.Perlin.reference()
    np.testing.assert_array_equal(ken.noise2(pts[0], pts[1]), ken.noise3(pts[0], pts[1], 0.0))


def test_derivatives_match_values_and_slopes():
    for source in (nf.Perlin(3), nf.Value(3), nf.Fbm(nf.Perlin(3), octaves=3)):
        rng = np.random.default_rng(1)
        x, y, z = rng.uniform(-50, 50, size=(3, 2000)).astype(np.float32)
        v, (dx, dy, dz) = source.noise3_grad(x, y, z)
        assert_bits(v, source.noise3(x, y, z))
        h = 1e-3
        x64, y64, z64 = (a.astype(np.float64) for a in (x, y, z))
        slope = (source.noise3(x64 + h, y64, z64) - source.noise3(x64 - h, y64, z64)) / (2 * h)
        assert np.median(np.abs(slope - dx)) < 1e-2
        values, (gy, gx) = source.grid_grad((40, 50), origin=(0.5, -1.0), step=(0.05, 0.02))
        assert_bits(values, source.noise2(-1.0 + 0.02 * np.arange(50.0),
                                          (0.5 + 0.05 * np.arange(40.0))[:, None]))
        num_x = (values[:, 2:] - values[:, :-2]) / 0.04
        assert np.median(np.abs(num_x - gx[:, 1:-1])) < 0.05
        wv, (wgy, wgx) = source.grid_grad((40, 50), origin=(0.5, -1.0), step=(0.05, 0.02),
                                          window=np.s_[5:30, 7:9])
        assert_bits(wv, values[5:30, 7:9])
        assert_bits(wgx, gx[5:30, 7:9])
        assert_bits(wgy, gy[5:30, 7:9])


def test_noise_in_any_dimension_matches_the_fixed_methods_and_reaches_six():
    rng = np.random.default_rng(6)
    p = nf.Perlin(3)
    xs = [rng.uniform(-50, 50, 1000).astype(np.float32) for _ in range(6)]
    assert np.array_equal(p.noise(*xs[:3]).view(np.uint32), p.noise3(*xs[:3]).view(np.uint32))
    assert np.array_equal(p.noise(*xs[:4]).view(np.uint32), p.noise4(*xs[:4]).view(np.uint32))
    six = p.noise(*xs)
    assert six.shape == (1000,) and six.dtype == np.float32
    lo, hi = p.bounds(6)
    assert np.all(np.abs(six) <= hi) and np.std(six) > 0.05
    # float64 coordinates give the float32 ones' bits on float32 values.
    wide = p.noise(*[x.astype(np.float64) for x in xs])
    assert np.array_equal(wide.view(np.uint32), six.view(np.uint32))
    # Broadcasting: a scalar for the extra axes.
    assert np.array_equal(p.noise(*xs[:5], 0.0), p.noise(*xs[:5], np.zeros(1000, np.float32)))
    # Derivatives against central differences.
    value, grads = p.noise_grad(*xs)
    assert np.array_equal(value.view(np.uint32), six.view(np.uint32))
    assert len(grads) == 6
    h = 1e-3
    for a in range(6):
        up = [x.astype(np.float64) + (h if b == a else 0.0) for b, x in enumerate(xs)]
        down = [x.astype(np.float64) - (h if b == a else 0.0) for b, x in enumerate(xs)]
        fd = (p.noise(*up).astype(np.float64) - p.noise(*down).astype(np.float64)) / (2 * h)
        assert np.all(np.abs(fd - grads[a]) < 2e-3 * (1 + np.abs(grads[a])))


def test_dimensions_a_source_does_not_compute_are_refused():
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="5 dimensions"):
        nf.Perlin.reference().noise(x, x, x, x, x)
    with pytest.raises(ValueError, match="17 dimensions"):
        nf.Perlin(1).noise(*[x] * 17)
    with pytest.raises(ValueError):
        nf.Perlin(1).noise()


def test_simplex_in_any_dimension_equals_its_recipe_and_the_cli(render):
    # A 2D grid against `noisefield render --source simplex`.
    expected = render("--source", "simplex(seed=5)", "--size", "96x64", "--frequency", "1/16")
    got = nf.Simplex(5).grid((64, 96), origin=(0, 0), step=(1 / 16, 1 / 16))
    assert_bits(got, expected)
    rng = np.random.default_rng(8)
    for d in (2, 3, 7, 32):
        xs = [rng.uniform(-20, 20, 500).astype(np.float32) for _ in range(d)]
        s = nf.Simplex(9)
        v = s.noise(*xs)
        assert v.shape == (500,) and v.dtype == np.float32
        assert np.array_equal(v.view(np.uint32), nf.Recipe("simplex(seed=9)").noise(*xs).view(np.uint32))
        lo, hi = s.bounds(d)
        assert np.all(np.abs(v) <= hi) and hi < 1.001
        value, grads = s.noise_grad(*xs)
        assert np.array_equal(value.view(np.uint32), v.view(np.uint32)) and len(grads) == d
        for level in nf.available_levels():
            again = s.with_level(level).noise(*xs)
            assert np.array_equal(again.view(np.uint32), v.view(np.uint32))
    assert np.std(nf.Simplex(9).noise(*[rng.uniform(-20, 20, 500) for _ in range(3)])) > 0.2
    fbm = nf.Fbm(nf.Simplex(2), octaves=4)
    pts = [rng.uniform(-5, 5, 100).astype(np.float32) for _ in range(3)]
    assert np.array_equal(fbm.noise(*pts).view(np.uint32),
                          nf.Recipe("fbm(simplex(seed=2), octaves=4)").noise(*pts).view(np.uint32))
    with pytest.raises(ValueError, match="cannot be periodic"):
        nf.Simplex(1).with_period(8)
    with pytest.raises(ValueError, match="33"):
        nf.Simplex(1).noise(*[np.zeros(3, np.float32)] * 33)


@pytest.mark.parametrize("source", [nf.Perlin(3), nf.Fbm(nf.Value(4), octaves=3), nf.Simplex(5)],
                         ids=repr)
def test_grids_in_any_dimension_are_their_points(source):
    # numpy axis order: shape (3, 4, 2, 5, 6) has x (fastest) 6 samples.
    shape = (3, 4, 2, 5, 6)
    origin = (0.25, -3.0, 7.5, 100.0, -0.4)
    step = (0.5, 0.3, 1.25, 0.07, 0.19)
    whole = source.grid(shape, origin=origin, step=step)
    assert whole.shape == shape and whole.dtype == np.float32
    axes = np.meshgrid(*[o + s * np.arange(n) for o, s, n in zip(origin, step, shape)],
                       indexing="ij")
    # The point functions take x first: numpy's last axis.
    points = source.noise(*[a.ravel() for a in reversed(axes)]).reshape(shape)
    assert_bits(whole, points)
    assert_bits(source.grid(shape, origin=origin, step=step, threads=3), whole)
    window = np.s_[1:3, 0:4, 1:2, 2:5, 3:6]
    assert_bits(source.grid(shape, origin=origin, step=step, window=window), whole[window])
    for level in nf.available_levels():
        assert_bits(source.with_level(level).grid(shape, origin=origin, step=step), whole)
    values, grads = source.grid_grad(shape, origin=origin, step=step)
    assert_bits(values, whole)
    assert len(grads) == 5
    # grid_grad's derivatives are numpy-ordered (the slowest axis first).
    # (noise_grad takes float32 points: the grid's, rounded, hence the
    # tolerance, far below the derivatives' spread across axes.)
    value, point_grads = source.noise_grad(*[a.ravel() for a in reversed(axes)])
    for g, p in zip(grads, reversed(point_grads)):
        assert np.std(g) > 0.05
        np.testing.assert_allclose(g, p.reshape(shape), rtol=0, atol=2e-4)
    # Seven dimensions in a grid of one sample on most axes: a slice.
    seven = source.grid((1, 1, 1, 1, 1, 8, 9), step=0.37)
    assert seven.shape == (1, 1, 1, 1, 1, 8, 9) and np.std(seven) > 0.01


def test_periods_on_every_axis_in_many_dimensions():
    rng = np.random.default_rng(11)
    period = (3, 5, 7, 2, 4, 6)
    p = nf.Perlin(3, period=period)
    assert p.period == period
    xs = [np.floor(rng.uniform(-20, 20, 700) * 64) / 64 for _ in range(6)]
    base = p.noise(*xs)
    for a in range(6):
        moved = [x + (period[a] if b == a else 0) for b, x in enumerate(xs)]
        assert_bits(p.noise(*moved), base)
        once = [x + (1 if b == a else 0) for b, x in enumerate(xs)]
        assert np.mean(p.noise(*once) == base) < 0.25
    # An int is every axis, a grid spanning whole periods tiles.
    q = nf.Value(2).with_period(4)
    grid = q.grid((8, 8, 8, 8, 8), step=0.5)
    shifted = q.grid((8, 8, 8, 8, 8), origin=(4, -8, 12, 4, 400), step=0.5)
    assert_bits(shifted, grid)
    with pytest.raises(ValueError, match="1 to 32"):
        nf.Perlin(1, period=(8,) * 33)
    with pytest.raises(ValueError, match="17 dimensions"):
        nf.Perlin(1, period=(8,) * 17)


def test_operators_and_warps_in_many_dimensions():
    rng = np.random.default_rng(12)
    xs = [rng.uniform(-20, 20, 400).astype(np.float32) for _ in range(6)]
    a, b = nf.Perlin(1).noise(*xs), nf.Value(2).noise(*xs)
    added = nf.Recipe("add(perlin(seed=1), value(seed=2))").noise(*xs)
    assert_bits(added, a + b)
    warped = nf.Recipe("warp(fbm(perlin(seed=3), octaves=3), simplex(seed=4), amplitude=0.5)")
    v = warped.noise(*xs)
    assert v.shape == (400,) and np.std(v) > 0.05
    value, grads = warped.noise_grad(*xs)
    assert_bits(value, v)
    assert len(grads) == 6
    grid = warped.grid((3, 4, 2, 5, 6, 7), step=0.3)
    assert grid.shape == (3, 4, 2, 5, 6, 7) and np.all(np.isfinite(grid))


def _angular_spread(img):
    """Percent spread (max / min − 1) of the power spectrum's mean over 24
    angle bins, in three rings of frequency (low, mid, high)."""
    n = img.shape[0]
    f = np.abs(np.fft.fftshift(np.fft.fft2(img - img.mean()))) ** 2
    ky, kx = np.indices(f.shape) - n // 2
    r, th = np.hypot(kx, ky), np.mod(np.arctan2(ky, kx), np.pi)
    out = []
    for lo, hi in ((20, 40), (40, 80), (80, 140)):
        ring = (r >= lo) & (r < hi)
        bins = np.floor(th[ring] / np.pi * 24).astype(int)
        p = np.bincount(bins, weights=f[ring], minlength=24) / np.bincount(bins, minlength=24)
        out.append((p.max() / p.min() - 1) * 100)
    return np.array(out)


def test_simplex_slices_show_no_lattice_orientation():
    # 2D slices of 3D and 4D simplex noise (the terrain and animation use):
    # their spectra are as even over angles as 2D simplex noise's own; the
    # same measure finds Perlin noise's axis-aligned lattice at once.
    n = 1024

    def spread(source, extra):
        total = np.zeros(3)
        for k in range(4):
            img = source.grid((1,) * extra + (n, n), origin=(0.37,) * extra + (k * 100.0, 0.0),
                              step=(1.0,) * extra + (1 / 16, 1 / 16)).reshape(n, n)
            total += _angular_spread(img)
        return total / 4

    plain = spread(nf.Simplex(7), 0)
    for extra in (1, 2):
        sliced = spread(nf.Simplex(7), extra)
        assert np.all(sliced < 1.6 * plain + 10), (extra, sliced, plain)
    perlin = spread(nf.Perlin(7), 1)
    assert perlin[2] > 10 * plain[2], (perlin, plain)
