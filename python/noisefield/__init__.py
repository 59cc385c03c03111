"""Perlin and value noise in 1D-4D over numpy arrays, with the same bits on
every SIMD level, thread count and tiling.

The Python face of the Rust library ``noisefield``::

    import numpy as np
    import noisefield as nf

    p = nf.Perlin(7)
    v = p.noise2(np.linspace(0, 4, 1000), 0.5)           # broadcasting, float32 out
    img = p.grid((256, 512), origin=(0, 0), step=(1 / 64, 1 / 64))   # (y, x)
    fbm = nf.Fbm(nf.Perlin(7), octaves=5, normalize=True)
    values, (dy, dx) = fbm.grid_grad((64, 64), step=1 / 32)

Sources: :class:`Perlin`, :class:`Value` (lattice noises), :class:`Simplex` and the fractals
:class:`Fbm`, :class:`Billow`, :class:`Ridged`, :class:`Turbulence`,
:class:`Marble` over either; :class:`Recipe` is any source graph of the
library as text (``"ridged(warp(perlin(seed=7), perlin(seed=8)), octaves=5)"``),
operators and warps included. Objects are immutable; ``with_*`` methods return
new ones. Bad arguments raise ``ValueError`` (the library's own message) or
``TypeError`` before any work (an output too large to allocate is a
``ValueError`` too). Every computation releases the GIL; on the main thread
Ctrl-C (``KeyboardInterrupt``) stops a long one within a fraction of a
second, leaving a given ``out`` partly written.

Axis orders: point functions take coordinates ``x, y, z, w`` (as the Rust
``noise3(x, y, z)``) and ``with_period`` takes periods ``x`` first; grids
take ``shape``, ``origin`` and ``step`` in numpy's axis order, the slowest
axis first (``(H, W)`` is ``(y, x)``, ``(D, H, W)`` is ``(z, y, x)``).

Big fields and clusters: :mod:`noisefield.dask`.
"""

from __future__ import annotations

import numbers
import operator
import sys
from typing import Optional, Sequence, Tuple, Union

import numpy as np

from . import _noisefield
from ._noisefield import available_levels, detect_level

__all__ = [
    "Source",
    "Perlin",
    "Value",
    "Simplex",
    "Fbm",
    "Billow",
    "Ridged",
    "Turbulence",
    "Marble",
    "Recipe",
    "available_levels",
    "detect_level",
    "UNPERIODIC",
]

#: A period that leaves an axis unperiodic (the Rust ``u32::MAX``).
UNPERIODIC = 2**32 - 1

_HASHES = ("coordinates", "permuted")
_FADES = ("quintic", "cubic", "cosine", "linear")

ArrayLike = Union[np.ndarray, float, int, Sequence[float]]
Window = Tuple[slice, ...]


def _int_in(name: str, value: object, lo: int, hi: int, what: str) -> int:
    """``value`` as an int in ``lo..=hi``, or a TypeError/ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer ({what}), not {type(value).__name__}")
    value = int(value)
    if not lo <= value <= hi:
        raise ValueError(f"{name}={value}: {what}")
    return value


def _real(name: str, value: object) -> float:
    """``value`` as a Python float, or a TypeError/ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, not {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large for a float") from None


def _empty(shape: tuple, count: int = 1) -> list:
    """``count`` new float32 arrays of ``shape``; a ValueError, not a
    MemoryError, when they cannot all be allocated."""
    nbytes = 4 * count
    for n in shape:
        nbytes *= n
    if nbytes > sys.maxsize:
        raise ValueError(f"an output of shape {tuple(shape)} ({nbytes} bytes) is too large to allocate")
    try:
        return [np.empty(shape, dtype=np.float32) for _ in range(count)]
    except MemoryError:
        raise ValueError(f"an output of shape {tuple(shape)} ({nbytes} bytes) does not fit in "
                         "memory; compute it in windows (window=, noisefield.dask)") from None


def _threads(threads: Optional[int]) -> Optional[int]:
    if threads is None:
        return None
    return _int_in("threads", threads, 1, 1024, "give 1 to 1024 (None: one per core)")


def _level(level: Optional[str]) -> Optional[str]:
    if level is not None and not isinstance(level, str):
        raise TypeError(f"level must be a string such as 'avx2' or None, not {type(level).__name__}")
    return level


class Source:
    """A noise source: points over numpy arrays, and uniform grids.

    Not made directly: use :class:`Perlin`, :class:`Value` or a fractal.
    """

    __slots__ = ("_core", "_params")
    _kind = ""

    _core: _noisefield.Core
    _params: dict

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError(f"{type(self).__name__} is not made directly: use Perlin, Value, a fractal "
                        "or a Recipe")

    # -- identity ---------------------------------------------------------

    def _state(self) -> tuple:
        return (type(self).__name__,) + tuple(
            (k, v._state() if isinstance(v, Source) else v) for k, v in sorted(self._params.items())
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Source) and self._state() == other._state()

    def __hash__(self) -> int:
        return hash(self._state())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple:
        return (_rebuild, (type(self), self._params))

    def __dask_tokenize__(self) -> tuple:
        return self._state()

    # -- properties -------------------------------------------------------

    @property
    def level(self) -> str:
        """The SIMD level the computations run at (``"avx2"``, ...)."""
        return self._core.level

    def bounds(self, dimension: int) -> Tuple[float, float]:
        """An interval ``(lo, hi)`` holding every output of the
        ``dimension``-D noise (1 to 32) at finite inputs."""
        return self._core.bounds(_int_in("dimension", dimension, 1, 32, "noise has 1 to 32 dimensions"))

    def with_level(self, level: Optional[str]) -> "Source":
        """The same source computed at ``level`` (``None``: the best this
        CPU has). Every level gives the same bits; only speed differs.
        ``ValueError`` if this CPU cannot run it."""
        return _rebuild(type(self), {**self._params, "level": _level(level)})

    # -- points -----------------------------------------------------------

    def _points(self, coords: tuple, out: Optional[np.ndarray], threads: Optional[int]):
        threads = _threads(threads)
        arrays, shape = _coordinates(coords)
        given = out is not None
        out = _output(out, shape, arrays)
        self._core.fill(arrays, out, threads)
        return out if given or out.ndim else out[()]

    def noise(self, *coords: ArrayLike, out: Optional[np.ndarray] = None,
              threads: Optional[int] = None):
        """Noise at the points whose coordinates are ``coords``, one
        array-like per axis, as many as the dimension: ``noise(x, y)`` is 2D,
        ``noise(x, y, z, w, v, u)`` 6D (Perlin and Value noise, and fractals
        over them, compute up to 16 dimensions, at ``2**D`` corners per
        point; :class:`Simplex` up to 32, at ``D + 1``; everything else 1
        to 4). Broadcasting, dtypes, ``out`` and
        ``threads`` as :meth:`noise3`; ``noise(x, y, z)`` equals
        ``noise3(x, y, z)`` bit for bit. ``ValueError`` for a dimension the
        source does not compute."""
        if not coords:
            raise ValueError("noise() needs one coordinate array per axis (1 or more)")
        return self._points(coords, out, threads)

    def noise_grad(self, *coords: ArrayLike, threads: Optional[int] = None):
        """``(value, (d/dx, d/dy, ...))`` at the points ``coords`` (one
        array-like per axis, any dimension :meth:`noise` computes); see
        :meth:`noise3_grad`."""
        if not coords:
            raise ValueError("noise_grad() needs one coordinate array per axis (1 or more)")
        return self._points_grad(coords, threads)

    def noise1(self, x: ArrayLike, *, out: Optional[np.ndarray] = None, threads: Optional[int] = None):
        """1D noise at ``x``: a float32 array of ``x``'s shape (a float32
        scalar for a scalar). See :meth:`noise3` for dtypes and arguments."""
        return self._points((x,), out, threads)

    def noise2(self, x: ArrayLike, y: ArrayLike, *, out: Optional[np.ndarray] = None,
               threads: Optional[int] = None):
        """2D noise at ``(x, y)``, broadcast together. See :meth:`noise3`."""
        return self._points((x, y), out, threads)

    def noise3(self, x: ArrayLike, y: ArrayLike, z: ArrayLike, *, out: Optional[np.ndarray] = None,
               threads: Optional[int] = None):
        """3D noise at ``(x, y, z)``.

        The coordinates are array-likes of any shape and strides,
        broadcast together as a numpy ufunc does; the result is float32 of
        the broadcast shape (a float32 scalar when every input is a scalar).

        dtypes: float32 (and float16, small integers) coordinates run the
        library's ``fill3``; float64 (and wider integers, long double,
        rounded to float64) run ``fill3_f64``: the lattice cell and offset
        come from the float64 value, exact far from the origin (for a
        lattice noise the two agree bit for bit on float32 values).

        ``out``: a C-contiguous float32 array of the broadcast shape to
        write into (not overlapping the inputs). ``threads``: worker
        threads (``None``: one per core; ``1``: the calling thread). The
        result is the same bits for any ``threads``.
        """
        return self._points((x, y, z), out, threads)

    def noise4(self, x: ArrayLike, y: ArrayLike, z: ArrayLike, w: ArrayLike, *,
               out: Optional[np.ndarray] = None, threads: Optional[int] = None):
        """4D noise at ``(x, y, z, w)``. See :meth:`noise3`."""
        return self._points((x, y, z, w), out, threads)

    # -- grids ------------------------------------------------------------

    def _grid_args(self, shape, origin, step, window):
        shape = _shape(shape)
        origin = _per_axis("origin", origin, len(shape))
        step = _per_axis("step", step, len(shape))
        offset, size = _window(window, shape)
        self._core.grid_check(list(shape), origin, step, offset, size)
        return shape, origin, step, offset, size

    def grid(self, shape: Sequence[int], *, step: Union[float, Sequence[float]],
             origin: Union[float, Sequence[float]] = 0.0, window: Optional[Window] = None,
             out: Optional[np.ndarray] = None, threads: Optional[int] = None) -> np.ndarray:
        """Noise at every sample of a uniform grid: a C-ordered float32
        array of ``shape`` (1 to 32 axes: Perlin and Value noise compute up
        to 16, Simplex noise 32; past 4 a sample costs its point's ``2^D``
        corners, simplex ``D + 1``).

        ``shape``, ``origin`` and ``step`` are in numpy's axis order, the
        slowest axis first: for ``(H, W)``, ``origin=(y0, x0)`` and
        ``step=(dy, dx)``; sample ``[j, i]`` sits at ``x = x0 + i·dx``,
        ``y = y0 + j·dy`` (computed in float64). A number for ``origin`` or
        ``step`` applies to every axis.

        ``window``: a tuple of slices (``np.s_[100:200, 0:512]``) to compute
        only that block of the grid; it equals ``grid(shape, ...)[window]``
        bit for bit, as any split of a grid into windows does (the
        library's ``Grid::window``, which keeps the global sample indices).

        ``Perlin(7).grid((256, 512), origin=(0, 0), step=(1/64, 1/64))`` is
        bit for bit what ``noisefield render --source perlin --seed 7
        --size 512x256 --frequency 1/64 --format npy`` writes.
        """
        threads = _threads(threads)
        shape, origin, step, offset, size = self._grid_args(shape, origin, step, window)
        if out is None:
            (out,) = _empty(size)
        else:
            _check_out(out, tuple(size))
        self._core.fill_grid(list(shape), origin, step, offset, size, out, threads)
        return out


class Differentiable(Source):
    """A source with analytic derivatives (Perlin, Value, Fbm; a
    :class:`Recipe` where every part of it has them)."""

    __slots__ = ()

    def _points_grad(self, coords: tuple, threads: Optional[int]):
        threads = _threads(threads)
        arrays, shape = _coordinates(coords, np.float32)
        self._core.grad_check()  # before allocating outputs
        out, *grads = _empty(shape, 1 + len(arrays))
        try:
            arrays = [np.ascontiguousarray(np.broadcast_to(a, shape)) for a in arrays]
        except MemoryError:
            raise ValueError(f"coordinates of shape {shape} do not fit in memory") from None
        self._core.fill_grad(arrays, out, grads, threads)
        if out.ndim == 0:
            return out[()], tuple(g[()] for g in grads)
        return out, tuple(grads)

    def noise1_grad(self, x: ArrayLike, *, threads: Optional[int] = None):
        """``(value, (d/dx,))`` at ``x``; see :meth:`noise3_grad`."""
        return self._points_grad((x,), threads)

    def noise2_grad(self, x: ArrayLike, y: ArrayLike, *, threads: Optional[int] = None):
        """``(value, (d/dx, d/dy))`` at ``(x, y)``; see :meth:`noise3_grad`."""
        return self._points_grad((x, y), threads)

    def noise3_grad(self, x: ArrayLike, y: ArrayLike, z: ArrayLike, *, threads: Optional[int] = None):
        """``(value, (d/dx, d/dy, d/dz))``: the noise and its analytic
        gradient at float32 points (float64 coordinates are rounded to
        float32), broadcast like :meth:`noise3`. ``value`` equals
        ``noise3`` at the float32 coordinates bit for bit."""
        return self._points_grad((x, y, z), threads)

    def noise4_grad(self, x: ArrayLike, y: ArrayLike, z: ArrayLike, w: ArrayLike, *,
                    threads: Optional[int] = None):
        """``(value, (d/dx, d/dy, d/dz, d/dw))``; see :meth:`noise3_grad`."""
        return self._points_grad((x, y, z, w), threads)

    def grid_grad(self, shape: Sequence[int], *, step: Union[float, Sequence[float]],
                  origin: Union[float, Sequence[float]] = 0.0, window: Optional[Window] = None,
                  threads: Optional[int] = None):
        """``(values, grads)`` over a grid (arguments as :meth:`grid`):
        ``grads`` has one float32 array per axis in numpy's axis order, as
        ``numpy.gradient`` (for ``(H, W)``: ``(d/dy, d/dx)``), derivatives
        with respect to position. Each sample is computed as the float64
        point path computes it."""
        threads = _threads(threads)
        shape, origin, step, offset, size = self._grid_args(shape, origin, step, window)
        self._core.grad_check()  # before allocating outputs
        out, *grads = _empty(size, 1 + len(size))
        self._core.fill_grid_grad(list(shape), origin, step, offset, size, out, grads, threads)
        return out, tuple(grads)


class _Lattice(Differentiable):
    __slots__ = ()

    def __init__(self, seed: int, *, hash: str = "coordinates",
                 period: Optional[Union[int, Sequence[int]]] = None, fade: str = "quintic",
                 level: Optional[str] = None) -> None:
        seed = _int_in("seed", seed, 0, 2**64 - 1, "seeds are integers from 0 to 2**64 - 1")
        if hash not in _HASHES:
            raise ValueError(f"unknown hash {hash!r}: expected 'coordinates' or 'permuted'")
        self._init(seed=seed, hash=hash, period=period, fade=fade, level=level)

    def _init(self, *, seed: int, hash: str, period, fade: str, level: Optional[str]) -> None:
        if not isinstance(fade, str) or fade not in _FADES:
            raise ValueError(f"unknown fade {fade!r}: expected one of {', '.join(_FADES)}")
        period = _period(period)
        self._params = {"seed": seed, "hash": hash, "period": period, "fade": fade,
                        "level": _level(level)}
        self._core = _noisefield.lattice(self._kind, seed, hash, _period_list(period), fade, level)

    @classmethod
    def reference(cls, *, fade: str = "quintic", level: Optional[str] = None):
        """Ken Perlin's published permutation (``ImprovedNoise``; repeats
        every 256 cells)."""
        obj = cls.__new__(cls)
        obj._init(seed=0, hash="reference", period=None, fade=fade, level=level)
        return obj

    @classmethod
    def permuted(cls, seed: int, **kwargs):
        """Seeded permutation-table noise (repeats every 256 cells): the
        values ``new(seed)`` gave before version 0.2."""
        return cls(seed, hash="permuted", **kwargs)

    @property
    def seed(self) -> int:
        return self._params["seed"]

    @property
    def period(self) -> Optional[Tuple[int, ...]]:
        """The periods set by :meth:`with_period`, x first."""
        return self._params["period"]

    def with_period(self, period: Optional[Union[int, Sequence[int]]]):
        """Periodic (tileable) noise: ``noise(.., c + period[a], ..) ==
        noise(.., c, ..)`` exactly on every axis ``a``.

        ``period``: lattice cells per axis, **x first** (the order of the
        point functions' coordinates, not numpy's axis order): an int for
        every axis, or one value per axis for as many axes as you like (1 to
        32; axes not given stay unperiodic, :data:`UNPERIODIC` leaves one
        unperiodic; noise in ``D`` dimensions reads the first ``D``).
        ``None`` removes it."""
        return _rebuild(type(self), {**self._params, "period": period})

    def with_fade(self, fade: str):
        """The same noise with another fade curve: ``"quintic"`` (default),
        ``"cubic"``, ``"cosine"`` or ``"linear"``."""
        return _rebuild(type(self), {**self._params, "fade": fade})


class Perlin(_Lattice):
    """Perlin gradient noise ("improved noise", Ken Perlin 2002), seeded.

    ``Perlin(seed)`` hashes each lattice corner's whole coordinates with the
    seed (repeats only every 2**32 cells); ``hash="permuted"`` (or
    :meth:`permuted`) is the seeded permutation table, :meth:`reference`
    Ken's own. ``period``: see :meth:`with_period`; ``fade``: see
    :meth:`with_fade`; ``level``: a SIMD level name (``None``: the best).
    """

    __slots__ = ()
    _kind = "perlin"


class Value(_Lattice):
    """Value noise: random heights at the lattice points, blended by the
    fade curve; outputs in [-1, 1]. Arguments as :class:`Perlin`."""

    __slots__ = ()
    _kind = "value"


class Simplex(Differentiable):
    """Simplex noise (Ken Perlin, 2001) of ``seed``, in 1 to 32 dimensions:
    ``D + 1`` corners per point on the skewed simplex lattice, gradients
    under a radially symmetric falloff, values within ``bounds(D)`` (±1 and
    a rounding margin), derivatives everywhere (``noise_grad``,
    ``grid_grad``). No period: :meth:`with_period` raises ``ValueError``
    (a skewed lattice does not tile a box). From 8 dimensions on, the
    falloff that keeps it continuous leaves a growing share of space at 0
    (41% at 8D, 93% at 12D, nearly all from 20D): the Rust ``Simplex``
    docs have the figures. ``level``: a SIMD level name (``None``: the
    best)."""

    __slots__ = ()

    def __init__(self, seed: int, *, level: Optional[str] = None) -> None:
        seed = _int_in("seed", seed, 0, 2**64 - 1, "seeds are integers from 0 to 2**64 - 1")
        level = _level(level)
        self._params = {"seed": seed, "level": level}
        self._core = _noisefield.simplex(seed, level)

    @property
    def seed(self) -> int:
        return self._params["seed"]

    def with_period(self, period) -> "Simplex":
        """Always ``ValueError``: simplex noise cannot be periodic (use
        :class:`Perlin` or :class:`Value` for tiles)."""
        raise _noisefield.simplex_period()


class _Fractal(Source):
    __slots__ = ()

    def __init__(self, source: Source, *, octaves: int = 6, lacunarity: float = 2.0,
                 persistence: float = 0.5, normalize: bool = False,
                 level: Optional[str] = None, **extra: float) -> None:
        if not isinstance(source, (_Lattice, Simplex)):
            raise TypeError(
                "a fractal's source must be a Perlin, a Value or a Simplex noise, "
                f"not {type(source).__name__}")
        octaves = _int_in("octaves", octaves, 0, 2**32 - 1, "a fractal sums 1 to 32 octaves")
        params = {"source": source, "octaves": octaves,
                  "lacunarity": _real("lacunarity", lacunarity),
                  "persistence": _real("persistence", persistence),
                  "normalize": bool(normalize), "level": _level(level)}
        for k, v in extra.items():
            params[k] = _real(k, v)
        self._params = params
        self._core = _noisefield.fractal(
            self._kind, source._core, octaves, params["lacunarity"], params["persistence"],
            params["normalize"], params.get("power", 4.0), params.get("stripes", 1.0), level)

    @property
    def source(self) -> Source:
        """The noise the octaves sample."""
        return self._params["source"]

    @property
    def octaves(self) -> int:
        return self._params["octaves"]


_FRACTAL_DOC = """

    ``source``: a :class:`Perlin` or :class:`Value` (periodic too: then the
    lacunarity must be a whole number). ``octaves`` (1 to 32, default 6),
    ``lacunarity`` (frequency ratio, default 2), ``persistence`` (amplitude
    ratio, default 0.5), ``normalize`` (map the output to [-1, 1]),
    ``level``. Octave ``i`` samples the source at ``c·lacunarity^i + o_i``
    with a fixed per-octave offset ``o_i``. Bad settings raise
    ``ValueError`` here, with the library's message.
    """


class Fbm(_Fractal, Differentiable):
    __slots__ = ()
    _kind = "fbm"
    __doc__ = "Fractal Brownian motion: ``sum persistence^i * source(...)``." + _FRACTAL_DOC

    def __init__(self, source: Source, *, octaves: int = 6, lacunarity: float = 2.0,
                 persistence: float = 0.5, normalize: bool = False,
                 level: Optional[str] = None) -> None:
        super().__init__(source, octaves=octaves, lacunarity=lacunarity,
                         persistence=persistence, normalize=normalize, level=level)


class Billow(_Fractal):
    __slots__ = ()
    _kind = "billow"
    __doc__ = "Billowy noise: ``sum a_i * (2|n_i| - 1)`` (clouds, hills)." + _FRACTAL_DOC

    def __init__(self, source: Source, *, octaves: int = 6, lacunarity: float = 2.0,
                 persistence: float = 0.5, normalize: bool = False,
                 level: Optional[str] = None) -> None:
        super().__init__(source, octaves=octaves, lacunarity=lacunarity,
                         persistence=persistence, normalize=normalize, level=level)


class Ridged(_Fractal):
    __slots__ = ()
    _kind = "ridged"
    __doc__ = "Ridged multifractal (Musgrave): sharp ridges, smooth valleys." + _FRACTAL_DOC

    def __init__(self, source: Source, *, octaves: int = 6, lacunarity: float = 2.0,
                 persistence: float = 0.5, normalize: bool = False,
                 level: Optional[str] = None) -> None:
        super().__init__(source, octaves=octaves, lacunarity=lacunarity,
                         persistence=persistence, normalize=normalize, level=level)


class Turbulence(_Fractal):
    __slots__ = ()
    _kind = "turbulence"
    __doc__ = "Turbulence (Perlin 1985): ``sum a_i * |n_i|`` (fire, smoke)." + _FRACTAL_DOC

    def __init__(self, source: Source, *, octaves: int = 6, lacunarity: float = 2.0,
                 persistence: float = 0.5, normalize: bool = False,
                 level: Optional[str] = None) -> None:
        super().__init__(source, octaves=octaves, lacunarity=lacunarity,
                         persistence=persistence, normalize=normalize, level=level)


class Marble(_Fractal):
    __slots__ = ()
    _kind = "marble"
    __doc__ = ("Marble: ``sin(stripes·x + power·turbulence)``, in [-1, 1]; ``power`` "
               "(default 4) and ``stripes`` (default 1, radians per unit)." + _FRACTAL_DOC)

    def __init__(self, source: Source, *, octaves: int = 6, lacunarity: float = 2.0,
                 persistence: float = 0.5, normalize: bool = False, power: float = 4.0,
                 stripes: float = 1.0, level: Optional[str] = None) -> None:
        super().__init__(source, octaves=octaves, lacunarity=lacunarity,
                         persistence=persistence, normalize=normalize, level=level,
                         power=power, stripes=stripes)


class Recipe(Differentiable):
    """Any source graph of the library, from its text (the Rust
    ``noisefield::Recipe``)::

        terrain = Recipe("ridged(warp(perlin(seed=7), perlin(seed=8)), octaves=5)")
        img = terrain.grid((512, 512), step=1 / 128)

    Names: ``perlin``, ``value`` (``seed``, ``hash``, ``fade``,
    ``period``), the fractals ``fbm``, ``billow``, ``ridged``,
    ``turbulence``, ``marble`` (``octaves``, ``lacunarity``,
    ``persistence``, ``normalize``; ``stripes`` and ``power`` for marble)
    over one input (Perlin by default), the operators ``scale_bias``,
    ``abs``, ``clamp``, ``terrace``, ``curve``, ``add``, ``multiply``,
    ``min``, ``max``, ``blend``, ``select``, and ``warp(source, field,
    amplitude=, iterations=)``; the Rust ``Recipe`` documents each. A
    recipe gives the same bits as the same graph of classes
    (``Recipe("fbm(perlin(seed=3), octaves=4)")`` is ``Fbm(Perlin(3),
    octaves=4)``) and of ``noisefield render --source '<recipe>'``.

    The same methods as :class:`Perlin`: points, grids, ``bounds``,
    :mod:`noisefield.dask`, and derivatives (``noise2_grad``,
    ``grid_grad``, ...) where every part of the graph has them
    (:attr:`differentiable`: perlin, value, fbm, the operators and warp
    over them; ridged, billow, turbulence and marble have none, and there
    those methods raise ``TypeError`` before any work).

    A recipe the library refuses raises ``ValueError`` here with its
    message, the column and an excerpt of the text: bad syntax, an unknown
    name or parameter, a value out of range, a graph costing more than
    4096 lattice evaluations per sample, or values that could leave
    float32's range. ``level``: a SIMD level name for every part (``None``:
    the best this CPU has).
    """

    __slots__ = ()

    def __init__(self, text: str, *, level: Optional[str] = None) -> None:
        if not isinstance(text, str):
            raise TypeError(f"a recipe is a string such as 'fbm(perlin(seed=7))', "
                            f"not {type(text).__name__}")
        level = _level(level)
        self._core, printed = _noisefield.recipe(text, level)
        self._params = {"text": printed, "level": level}

    @property
    def text(self) -> str:
        """The recipe as the library prints it (whitespace normalised,
        parameters and numbers as written); it parses to the same recipe."""
        return self._params["text"]

    @property
    def differentiable(self) -> bool:
        """Whether the derivative methods work: every part of the graph has
        analytic derivatives."""
        return self._core.differentiable

    def __repr__(self) -> str:
        level = self._params["level"]
        return f"Recipe({self.text!r}" + ("" if level is None else f", level={level!r}") + ")"


# -- helpers -------------------------------------------------------------


def _rebuild(cls: type, params: dict) -> Source:
    """``cls`` made again from its parameters (pickling, ``with_*``)."""
    params = dict(params)
    if issubclass(cls, Recipe):
        return cls(params["text"], level=params["level"])
    if issubclass(cls, Simplex):
        return cls(params["seed"], level=params["level"])
    if issubclass(cls, _Lattice):
        obj = cls.__new__(cls)
        if params["hash"] not in _HASHES + ("reference",):
            raise ValueError(f"unknown hash {params['hash']!r}")
        obj._init(**params)
        return obj
    source = params.pop("source")
    return cls(source, **params)


#: Periods a lattice takes: one per axis of the most dimensions it computes.
_PERIOD_AXES = 16


def _period(period) -> Optional[Tuple[int, ...]]:
    """Periods as a tuple of 1 to 32 ints (x first; an int: every axis), or None."""
    if period is None:
        return None
    what = "periods are lattice cells from 1 to 2**32 - 1 (2**32 - 1: unperiodic)"
    if isinstance(period, numbers.Integral) and not isinstance(period, bool):
        # 0 is passed on: the library names the axis in its message.
        return (_int_in("period", period, 0, UNPERIODIC, what),) * _PERIOD_AXES
    try:
        values = tuple(period)
    except TypeError:
        raise TypeError(f"period must be an int or a sequence of 1 to 32 ints, not {type(period).__name__}") from None
    if not 1 <= len(values) <= 32:
        raise ValueError(f"period has {len(values)} values; give 1 to 32 (x first)")
    return tuple(_int_in("period", p, 0, UNPERIODIC, what) for p in values)


def _period_list(period: Optional[Tuple[int, ...]]) -> Optional[list]:
    return None if period is None else list(period)


def _coordinates(coords: tuple, dtype=None):
    """The coordinates as numpy arrays of one dtype (float32 or float64)
    and their broadcast shape."""
    kinds = []
    for c in coords:
        if isinstance(c, (bool, int, float)):
            kinds.append(c)  # Python scalars take the arrays' precision
            continue
        a = np.asarray(c)
        if a.dtype.kind not in "fiub":
            raise TypeError(f"coordinates must be real numbers, got an array of dtype {a.dtype}")
        kinds.append(a.dtype)
    try:
        if dtype is None:
            common = np.result_type(*kinds, np.float32)
            dtype = np.float32 if common == np.float32 else np.float64
        arrays = [np.asarray(c, dtype=dtype) for c in coords]
    except OverflowError:
        raise ValueError("a coordinate is too large for a float") from None
    if any(a.ndim > 32 for a in arrays):
        raise ValueError("coordinate arrays have at most 32 axes (numpy's broadcasting limit)")
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    return arrays, shape


def _check_out(out: object, shape: tuple) -> None:
    if not isinstance(out, np.ndarray) or out.dtype != np.float32:
        raise TypeError("out must be a numpy float32 array")
    if out.shape != shape:
        raise ValueError(f"out has shape {out.shape} but the result has shape {shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be C-contiguous and writeable")


def _output(out, shape: tuple, arrays: list) -> np.ndarray:
    if out is None:
        return _empty(shape)[0]
    _check_out(out, shape)
    if any(np.may_share_memory(out, a) for a in arrays):
        raise ValueError("out overlaps a coordinate array; give a separate array")
    return out


def _shape(shape) -> Tuple[int, ...]:
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError(f"shape must be a tuple of 1 to 32 ints, not {type(shape).__name__}") from None
    if not 1 <= len(shape) <= 32:
        raise ValueError(f"grid shape {shape} has {len(shape)} axes; noisefield grids have 1 to 32")
    return tuple(_int_in("shape", n, 0, 2**63 - 1, f"grid shape {shape} has a negative or huge size")
                 for n in shape)


def _per_axis(name: str, value, ndim: int) -> list:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return [_real(name, value)] * ndim
    try:
        values = [_real(name, v) for v in value]
    except TypeError:
        raise TypeError(f"{name} must be a number or a sequence of {ndim} numbers") from None
    if len(values) != ndim:
        raise ValueError(f"{name} has {len(values)} values but the grid shape has {ndim} axes")
    return values


def _window(window, shape: tuple):
    """A window (tuple of slices) as (offset, size) lists, numpy order."""
    if window is None:
        return [0] * len(shape), list(shape)
    if isinstance(window, slice):
        window = (window,)
    window = tuple(window)
    if len(window) != len(shape):
        raise ValueError(f"window has {len(window)} slices but the grid shape has {len(shape)} axes")
    offset, size = [], []
    for axis, (s, n) in enumerate(zip(window, shape)):
        if not isinstance(s, slice) or s.step not in (None, 1):
            raise TypeError("window must be a tuple of slices with step 1, e.g. np.s_[0:128, 256:512]")
        start = 0 if s.start is None else _int_in("window start", s.start, 0, 2**63 - 1,
                                                  "window bounds must not be negative")
        stop = n if s.stop is None else _int_in("window stop", s.stop, 0, 2**63 - 1,
                                                "window bounds must not be negative")
        if stop < start:
            raise ValueError(f"window slice {start}:{stop} on axis {axis} ends before it starts")
        offset.append(start)
        size.append(stop - start)
    return offset, size
