"""Noise fields as lazy Dask arrays: any size, any chunking, any scheduler.

:func:`grid` returns a ``dask.array.Array`` whose every chunk is a window of
one grid (the library's ``Grid::window``, which keeps the global sample
indices): a chunk is computed from the whole grid's origin and step and its
own offset, never from a recomputed origin, so the computed array equals
``source.grid(shape, ...)`` bit for bit whatever the chunks, the scheduler,
the number of workers and their CPUs.

A field larger than memory goes straight to a Zarr store, chunk by chunk::

    import noisefield as nf, noisefield.dask as nfd
    field = nfd.grid(nf.Fbm(nf.Perlin(7)), (65536, 65536), chunks=4096, step=1 / 512)
    field.to_zarr("terrain.zarr")          # 16 GiB, a few chunks in memory at a time

On a cluster, the same code runs once a ``dask.distributed.Client`` is made:
sources pickle as their parameters, and each worker computes its chunks.
"""

from __future__ import annotations

import itertools
import numbers
from typing import Optional, Sequence, Union

import numpy as np

from . import Source, _per_axis, _shape, _threads

__all__ = ["grid"]

#: Most chunks one array may have: its graph (a dict entry per chunk, made
#: here at some 100 000 a second) would take minutes and gigabytes past it.
MAX_CHUNKS = 1 << 20


def _block(source: Source, shape: tuple, origin: list, step: list, window: tuple,
           threads: Optional[int]) -> np.ndarray:
    """One chunk: the window ``window`` of the grid."""
    return source.grid(shape, origin=origin, step=step, window=window, threads=threads)


def _chunks(chunks, shape: tuple) -> tuple:
    """``chunks`` normalized by dask (a tuple of chunk sizes per axis),
    checked: sizes positive, at most MAX_CHUNKS chunks, counted before
    dask makes them where the sizes are given as numbers."""
    import dask
    from dask.array.core import normalize_chunks
    from dask.utils import parse_bytes

    def too_many(count):
        return ValueError(f"chunks={chunks!r} cut the grid {shape} into {count} chunks; "
                          f"give larger ones (at most {MAX_CHUNKS} chunks)")

    per_axis = isinstance(chunks, (tuple, list)) and len(chunks) == len(shape)
    count = 1
    for axis, n in enumerate(shape):
        c = chunks[axis] if per_axis else chunks
        if isinstance(c, bool):
            raise TypeError("chunks must be ints, tuples, 'auto' or a byte size, not bool")
        if isinstance(c, numbers.Integral):
            if c == 0 or c < -1:
                raise ValueError(f"chunks={c} on axis {axis}: give a positive size (-1: whole)")
            count *= -(-n // int(c)) if c > 0 else 1
    if isinstance(chunks, str):
        # dask's automatic chunks hold about this many bytes each (a few
        # times more at most): float32 samples over 4 times that.
        limit = chunks if chunks != "auto" else dask.config.get("array.chunk-size")
        try:
            count = int(np.prod(shape, dtype=object)) // parse_bytes(limit)
        except (ValueError, TypeError, ZeroDivisionError):
            pass  # dask says what is wrong with it below
    if count > MAX_CHUNKS:
        raise too_many(count)
    try:
        chunks = normalize_chunks(chunks, shape, dtype=np.float32)
    except (ZeroDivisionError, OverflowError) as e:
        raise ValueError(f"chunks={chunks!r}: {e}") from None
    count = 1
    for axis, (sizes, n) in enumerate(zip(chunks, shape)):
        if any(c < 0 or (c == 0 and n > 0) for c in sizes):
            raise ValueError(f"chunks on axis {axis} include sizes below 1: {sizes[:8]}")
        count *= len(sizes)
    if count > MAX_CHUNKS:
        raise too_many(count)
    return chunks


def grid(source: Source, shape: Sequence[int], chunks: Union[str, int, Sequence] = "auto", *,
         step: Union[float, Sequence[float]], origin: Union[float, Sequence[float]] = 0.0,
         threads: Optional[int] = 1, name: Optional[str] = None):
    """``source.grid(shape, origin=origin, step=step)`` as a lazy
    ``dask.array.Array`` of float32 with chunks ``chunks`` (anything
    ``dask.array`` accepts: ``"auto"``, an int, a tuple per axis, ...).

    ``shape``, ``origin`` and ``step`` are in numpy's axis order, as in
    :meth:`noisefield.Source.grid`. Every chunk is computed as
    ``source.grid(shape, ..., window=<its slices>)``; the arguments are
    checked here, before any chunk is (at most :data:`MAX_CHUNKS` chunks).
    ``threads``: worker threads inside each chunk (default 1: Dask runs
    chunks in parallel; ``None`` for one per core).
    """
    import dask.array as da
    from dask.base import tokenize

    if not isinstance(source, Source):
        raise TypeError(f"source must be a noisefield source, not {type(source).__name__}")
    threads = _threads(threads)
    shape = _shape(shape)
    origin = _per_axis("origin", origin, len(shape))
    step = _per_axis("step", step, len(shape))
    # The whole grid's errors now, not in a worker later.
    source._core.grid_check(list(shape), origin, step, [0] * len(shape), list(shape))
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string or None, not {type(name).__name__}")
    chunks = _chunks(chunks, shape)
    name = name or "noisefield-grid-" + tokenize(source, shape, origin, step, chunks, threads)
    starts = [np.concatenate(([0], np.cumsum(c)[:-1])).astype(int).tolist() for c in chunks]
    graph = {}
    for index in itertools.product(*(range(len(c)) for c in chunks)):
        window = tuple(
            slice(starts[a][i], starts[a][i] + chunks[a][i]) for a, i in enumerate(index))
        graph[(name,) + index] = (_block, source, shape, origin, step, window, threads)
    meta = np.empty((0,) * len(shape), dtype=np.float32)
    return da.Array(graph, name, chunks, meta=meta)
