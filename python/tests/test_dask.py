"""Dask arrays of noise equal the one-machine grid bit for bit, whatever the
chunking and scheduler: threads, processes, a two-process LocalCluster on
loopback; and a Zarr store written through Dask reads back equal."""

import dask
import dask.array as da
import numpy as np
import pytest

import noisefield as nf
import noisefield.dask as nfd
from conftest import assert_bits

FBM = nf.Fbm(nf.Perlin(7), octaves=5)


@pytest.mark.parametrize("chunks", ["auto", 37, (50, 129), ((10, 90, 1, 99), (256, 1))])
def test_any_chunking_equals_the_grid(chunks):
    shape, origin, step = (200, 257), (0.1, -3.0), (1 / 61, 1 / 97)
    whole = FBM.grid(shape, origin=origin, step=step)
    lazy = nfd.grid(FBM, shape, chunks=chunks, origin=origin, step=step)
    assert isinstance(lazy, da.Array) and lazy.dtype == np.float32 and lazy.shape == shape
    assert_bits(lazy.compute(scheduler="threads"), whole)
    assert_bits(lazy.compute(scheduler="sync"), whole)


def test_3d_and_4d_and_slicing():
    for shape, chunks in [((20, 30, 40), (7, 11, 13)), ((4, 5, 6, 7), 3)]:
        whole = FBM.grid(shape, step=0.07, origin=1.5)
        lazy = nfd.grid(FBM, shape, chunks=chunks, step=0.07, origin=1.5)
        assert_bits(lazy.compute(), whole)
        assert_bits(lazy[1:3, ::2].compute(), whole[1:3, ::2])


def test_five_and_more_dimensions():
    for source in (nf.Perlin(2), nf.Simplex(3)):
        shape, step = (3, 4, 5, 2, 6), (0.3, 0.2, 0.7, 1.1, 0.15)
        whole = source.grid(shape, step=step, origin=(1.0, -2.0, 0.5, 3.0, 9.0))
        lazy = nfd.grid(source, shape, chunks=(2, 3, 2, 1, 4), step=step,
                        origin=(1.0, -2.0, 0.5, 3.0, 9.0))
        assert lazy.shape == shape
        assert_bits(lazy.compute(), whole)
    with pytest.raises(ValueError, match="17 dimensions"):
        nfd.grid(nf.Perlin(1), (1,) * 17, step=0.1)


def test_processes_scheduler_pickles_sources():
    shape = (128, 96)
    source = nf.Marble(nf.Value(3).with_period((4, 4)), octaves=3, power=2.0)
    lazy = nfd.grid(source, shape, chunks=40, step=4 / 96)
    assert_bits(lazy.compute(scheduler="processes", num_workers=2),
                source.grid(shape, step=4 / 96))


def test_arguments_checked_before_any_chunk():
    with pytest.raises(ValueError, match="grid step on the x axis is NaN"):
        nfd.grid(FBM, (10, 10), chunks=5, step=(0.1, float("nan")))
    with pytest.raises(TypeError):
        nfd.grid("perlin", (10, 10), step=0.1)
    # Same arguments, same name: Dask can reuse results; others differ.
    a = nfd.grid(FBM, (10, 10), chunks=5, step=0.1)
    assert a.name == nfd.grid(FBM, (10, 10), chunks=5, step=0.1).name
    assert a.name != nfd.grid(nf.Fbm(nf.Perlin(8), octaves=5), (10, 10), chunks=5, step=0.1).name


def test_local_cluster_two_worker_processes():
    distributed = pytest.importorskip("distributed")
    shape = (4096, 4096)
    step = (1 / 512, 1 / 512)
    with dask.config.set({"distributed.worker.daemon": False}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            lazy = nfd.grid(FBM, shape, chunks=1024, step=step)
            got = client.compute(lazy).result()
            info = client.scheduler_info()
    assert len(info["workers"]) == 2
    assert all(addr.startswith("tcp://127.0.0.1:") for addr in info["workers"])
    assert_bits(got, FBM.grid(shape, step=step))


def test_zarr_round_trip(tmp_path):
    zarr = pytest.importorskip("zarr")
    shape, step = (600, 700), (1 / 100, 1 / 90)
    lazy = nfd.grid(FBM, shape, chunks=(128, 256), step=step, origin=(5.0, -2.0))
    store = str(tmp_path / "field.zarr")
    lazy.to_zarr(store)
    back = zarr.open(store, mode="r")
    assert back.shape == shape and back.dtype == np.float32
    assert back.chunks == (128, 256)
    assert_bits(back[:], FBM.grid(shape, step=step, origin=(5.0, -2.0)))
    assert_bits(da.from_zarr(store).compute(), back[:])


def test_chunks_are_windows_not_recomputed_origins():
    # Far from the origin, a chunk made as a new grid at origin + k·step
    # rounds its sample positions differently from the whole grid's
    # origin + (k + i)·step: the naive split changes bits, the windows don't.
    # (At 1e5 the difference no longer reaches the f32 offsets of grids by
    # bands; at 1e8 it does.)
    origin, step, shape = (1e8 + 0.1, -3e7 + 0.3), (0.3 / 7, 0.1 / 3), (300, 300)
    whole = FBM.grid(shape, origin=origin, step=step)
    naive_differs = 0
    for r0 in range(1, 295, 13):
        for c0 in range(1, 295, 17):
            start = (origin[0] + r0 * step[0], origin[1] + c0 * step[1])
            naive = FBM.grid((5, 5), origin=start, step=step)
            naive_differs += int((naive.view(np.uint32)
                                  != whole[r0:r0 + 5, c0:c0 + 5].view(np.uint32)).sum())
    assert naive_differs > 0, "this grid no longer tells the two splits apart"
    lazy = nfd.grid(FBM, shape, chunks=(13, 17), origin=origin, step=step)
    assert_bits(lazy.compute(), whole)
