"""Bad arguments: a TypeError or a ValueError with the Rust library's
message, raised before any work; never a crash."""

import numpy as np
import pytest

import noisefield as nf


def test_library_messages_come_through():
    with pytest.raises(ValueError, match=r"^40 octaves requested; a fractal sums 1 to 32 octaves$"):
        nf.Fbm(nf.Perlin(1), octaves=40)
    with pytest.raises(ValueError, match=r"^0 octaves requested"):
        nf.Ridged(nf.Perlin(1), octaves=0)
    with pytest.raises(ValueError, match=r"^lacunarity is NaN; it must be a finite number$"):
        nf.Billow(nf.Perlin(1), lacunarity=float("nan"))
    with pytest.raises(ValueError, match=r"^persistence is inf"):
        nf.Fbm(nf.Perlin(1), persistence=1e39)   # beyond float32: infinite
    with pytest.raises(ValueError, match=r"^lacunarity 2\.5 over a periodic source"):
        nf.Fbm(nf.Perlin(1).with_period(8), lacunarity=2.5)
    with pytest.raises(ValueError, match=r"^the octave amplitude overflows f32"):
        nf.Fbm(nf.Perlin(1), octaves=32, persistence=1e30)
    with pytest.raises(ValueError, match=r"^the period of the y axis is 0"):
        nf.Perlin(1).with_period((4, 0))
    with pytest.raises(ValueError, match=r"^grid step on the y axis is NaN; grid origins"):
        nf.Perlin(1).grid((4, 4), step=(np.nan, 0.1))
    with pytest.raises(ValueError, match=r"^grid origin on the x axis is inf"):
        nf.Perlin(1).grid((4, 4), step=0.1, origin=(0, np.inf))
    with pytest.raises(ValueError, match=r"^grid last sample position on the x axis is inf"):
        nf.Perlin(1).grid((1, 3), step=1e308, origin=1e308)
    with pytest.raises(ValueError, match=r"^grid of size .* has more samples than fit"):
        nf.Perlin(1).grid((2**62, 2**62), step=0.1)
    with pytest.raises(ValueError, match=r"^window does not fit in its grid: on the x axis"):
        nf.Perlin(1).grid((4, 4), step=0.1, window=np.s_[0:4, 2:9])
    with pytest.raises(ValueError, match=r"^unknown SIMD level|^unknown level"):
        nf.Perlin(1, level="sse9")


def test_unsupported_level_names_the_available_ones():
    missing = [lv for lv in ("avx512", "neon", "avx2") if lv not in nf.available_levels()]
    assert missing, "some level is always missing (neon on x86, the x86 levels on ARM)"
    with pytest.raises(ValueError, match=r"is not supported on this CPU; available here: "):
        nf.Perlin(1, level=missing[0])


def test_type_errors():
    with pytest.raises(TypeError):
        nf.Perlin("7")
    with pytest.raises(TypeError):
        nf.Perlin(1.5)
    with pytest.raises(ValueError):
        nf.Perlin(-1)
    with pytest.raises(ValueError):
        nf.Perlin(2**64)
    with pytest.raises(TypeError, match="a Perlin, a Value or a Simplex"):
        nf.Fbm(nf.Ridged(nf.Perlin(1)))
    with pytest.raises(TypeError, match="real numbers"):
        nf.Perlin(1).noise1(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="real numbers"):
        nf.Perlin(1).noise1(np.array([1 + 2j]))
    with pytest.raises(TypeError, match="no analytic derivatives"):
        nf._noisefield.fractal("ridged", nf.Perlin(1)._core, 3, 2.0, 0.5, False, 4.0, 1.0, None) \
            .fill_grad([np.zeros(3, np.float32)], np.zeros(3, np.float32), [np.zeros(3, np.float32)])
    assert not hasattr(nf.Ridged(nf.Perlin(1)), "grid_grad")


def test_shapes_threads_windows():
    p = nf.Perlin(1)
    for bad in [(), (1,) * 33]:
        with pytest.raises(ValueError, match="1 to 32"):
            p.grid(bad, step=0.1)
    # Perlin computes 16 dimensions; the library says so before any work.
    with pytest.raises(ValueError, match="17 dimensions"):
        p.grid((1,) * 17, step=0.1)
    with pytest.raises(ValueError, match="negative"):
        p.grid((3, -1), step=0.1)
    with pytest.raises(ValueError, match="step has 3 values"):
        p.grid((3, 3), step=(0.1, 0.1, 0.1))
    for threads in (0, -2, 1025):
        with pytest.raises(ValueError, match="give 1 to 1024"):
            p.grid((3, 3), step=0.1, threads=threads)
        with pytest.raises(ValueError, match="give 1 to 1024"):
            p.noise1([0.5], threads=threads)
    with pytest.raises(ValueError, match="ends before it starts"):
        p.grid((3, 3), step=0.1, window=np.s_[2:1, :])
    with pytest.raises(TypeError, match="step 1"):
        p.grid((3, 3), step=0.1, window=np.s_[::2, :])
    with pytest.raises(ValueError, match="must not be negative"):
        p.grid((3, 3), step=0.1, window=np.s_[-1:, :])


def test_huge_grid_is_refused_before_allocation():
    # Fits in usize but not in memory: numpy's MemoryError, not a crash.
    with pytest.raises((MemoryError, ValueError)):
        nf.Perlin(1).grid((2**40, 2**20), step=0.1)
