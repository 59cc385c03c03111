"""Point evaluation over numpy arrays: broadcasting like a ufunc, every real
dtype, any strides, 0-d and empty arrays, ``out=``. The reference for each
case is the same points as plain contiguous float32/float64 arrays, whose
values ``test_values`` ties to the Rust library."""

import numpy as np
import pytest

import noisefield as nf
from conftest import assert_bits

P = nf.Fbm(nf.Perlin(21), octaves=3)


def plain(dtype, *coords):
    """The reference: explicit broadcast, contiguous, of ``dtype``."""
    arrays = np.broadcast_arrays(*(np.asarray(c, dtype=dtype) for c in coords))
    return [np.ascontiguousarray(a) for a in arrays]


def test_broadcast_shapes_and_scalars():
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    y = np.linspace(0, 2, 5, dtype=np.float32)[:, None]
    got = P.noise2(x, y)
    assert got.shape == (5, 7) and got.dtype == np.float32
    assert_bits(got, P.noise2(*plain(np.float32, x, y)))
    # A Python scalar takes the arrays' precision (float32 here).
    assert_bits(P.noise3(x, y, 0.5), P.noise3(*plain(np.float32, x, y, 0.5)))
    s = P.noise2(0.5, 0.25)
    assert isinstance(s, np.float32)
    assert s.view(np.uint32) == P.noise2(np.array([0.5]), np.array([0.25]))[0].view(np.uint32)
    # Lists and tuples are array-likes.
    assert_bits(P.noise1([0.5, 1.5]), P.noise1(np.array([0.5, 1.5])))
    with pytest.raises(ValueError):
        P.noise2(np.zeros(3), np.zeros(4))


def test_strides_and_big_broadcasts_through_blocks():
    rng = np.random.default_rng(3)
    base = rng.uniform(-40, 40, size=(300, 400)).astype(np.float32)
    x = base[::3, ::-2]          # negative and non-unit strides
    y = base.T[:100, :200]       # Fortran-ordered view
    assert not x.flags.c_contiguous and not y.flags.c_contiguous
    assert_bits(P.noise2(x, y), P.noise2(*plain(np.float32, x, y)))
    # More points than one gathering block (2^16), from small inputs.
    x = rng.uniform(-9, 9, size=(1, 700)).astype(np.float32)
    y = rng.uniform(-9, 9, size=(300, 1)).astype(np.float32)
    assert_bits(P.noise2(x, y), P.noise2(*plain(np.float32, x, y)))
    assert_bits(P.noise2(x, y, threads=1), P.noise2(*plain(np.float32, x, y)))


@pytest.mark.parametrize("dtype,path", [
    (np.float16, np.float32), (np.float32, np.float32), (np.float64, np.float64),
    (np.longdouble, np.float64), (np.int8, np.float32), (np.int64, np.float64),
    (np.uint16, np.float32), (np.bool_, np.float32), (">f4", np.float32), (">f8", np.float64),
])
def test_dtypes(dtype, path):
    rng = np.random.default_rng(4)
    x = (rng.uniform(-60, 60, size=500)).astype(dtype)
    y = (rng.uniform(-60, 60, size=500)).astype(dtype)
    got = P.noise2(x, y)
    assert got.dtype == np.float32
    assert_bits(got, P.noise2(*plain(path, x, y)))


def test_float64_and_float32_paths_differ_only_in_precision():
    # A lattice noise gives the same bits for float32 values either way.
    x = np.random.default_rng(5).uniform(-100, 100, 1000).astype(np.float32)
    p = nf.Perlin(8)
    assert_bits(p.noise1(x), p.noise1(x.astype(np.float64)))
    # Far from the origin float64 coordinates keep the offset in the cell.
    far = 2.0**40 + np.linspace(0, 1, 50)
    v = p.noise1(far)
    assert np.unique(v).size > 40


def test_empty_and_zero_d():
    for shape in [(0,), (3, 0), (0, 5, 2)]:
        got = P.noise3(np.zeros(shape), 1.0, 2.0)
        assert got.shape == shape and got.dtype == np.float32
    assert P.noise1(np.array(0.25, dtype=np.float32)).shape == ()


def test_nan_inf_and_huge_give_defined_values():
    x = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 3e38, 5e-45, -0.0], dtype=np.float32)
    got = nf.Perlin(1).noise2(x, 0.5)
    assert np.isnan(got[:3]).all()
    assert np.isfinite(got[3:]).all()
    got64 = nf.Perlin(1).noise2(x.astype(np.float64) * 1e200, 0.5)
    assert got64.dtype == np.float32


def test_out_is_written_in_place():
    x = np.linspace(0, 9, 64).reshape(8, 8)
    out = np.full((8, 8), 7.0, dtype=np.float32)
    got = P.noise2(x, x.T, out=out)
    assert got is out
    assert_bits(out, P.noise2(x, x.T))
    with pytest.raises(TypeError):
        P.noise2(x, x, out=np.empty((8, 8), dtype=np.float64))
    with pytest.raises(ValueError):
        P.noise2(x, x, out=np.empty((8, 9), dtype=np.float32))
    with pytest.raises(ValueError):
        P.noise2(x, x, out=np.empty((8, 16), dtype=np.float32)[:, ::2])
    x32 = x.astype(np.float32)
    with pytest.raises(ValueError, match="overlaps"):
        P.noise2(x32, 0.5, out=x32)


def test_grid_out_and_zero_size():
    out = np.empty((20, 30), dtype=np.float32)
    got = P.grid((20, 30), step=0.1, out=out)
    assert got is out
    assert_bits(out, P.grid((20, 30), step=0.1))
    for shape in [(0,), (0, 10), (4, 0, 3), (1, 1, 1, 0)]:
        g = P.grid(shape, step=0.5)
        assert g.shape == shape and g.dtype == np.float32
    assert P.grid((5, 6), step=0.1, window=np.s_[2:2, 0:6]).shape == (0, 6)
    assert P.grid(7, step=0.1).shape == (7,)
