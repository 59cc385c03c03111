"""Ctrl-C stops a long call within half a second: the extension releases
the GIL while it computes, so Python's SIGINT handler only notes the signal;
the call looks for it between blocks (on the main thread) and raises
``KeyboardInterrupt``, with one thread or several.

Each test starts a call sized to run for seconds on the main thread, sends
SIGINT to this process from a timer thread 0.3 s in, and measures the time
from the signal to the exception. Sources are slowed on purpose (32 octaves
in 4D at the scalar level, microseconds a sample) so the arrays stay small
whatever the number of cores.
"""

import os
import signal
import threading
import time

import numpy as np
import pytest

import noisefield as nf

#: Seconds from the start of the call to the signal.
DELAY = 0.3
#: Seconds the uninterrupted call should take at least.
LONG = 2.0
#: Most seconds from the signal to the KeyboardInterrupt.
LATENCY = 0.5

SOURCE = nf.Ridged(nf.Perlin(1), octaves=32, level="scalar")


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Python's own SIGINT handler (raise KeyboardInterrupt), whatever the runner set."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def sized(make_call, unit, threads):
    """``make_call(n)`` with ``n`` a multiple of ``unit`` such that the call
    would take about LONG seconds on ``threads`` threads (timed on a small
    one, on one thread)."""
    n = unit
    while True:
        call = make_call(n)
        t0 = time.perf_counter()
        call()
        seconds = time.perf_counter() - t0
        if seconds > 0.05:
            break
        n *= 2
    per_unit = seconds / (n // unit)
    return make_call(unit * int(np.ceil(LONG * max(1, threads) / per_unit)))


def interrupted(call):
    """Runs ``call`` on this (the main) thread with SIGINT sent DELAY s in;
    returns ``(seconds from the signal to KeyboardInterrupt, seconds the
    call ran)``."""
    assert threading.current_thread() is threading.main_thread()
    sent = []

    def kill():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(DELAY, kill)
    start = time.perf_counter()
    try:
        timer.start()
        call()
    except KeyboardInterrupt:
        stopped = time.perf_counter()
    else:
        stopped = None
    finally:
        timer.cancel()
        timer.join()
    try:
        # A signal that came after the call ended raises here at the latest.
        time.sleep(0.01)
    except KeyboardInterrupt:
        pass
    assert sent, "the signal was never sent"
    assert stopped is not None, (
        f"the call ran {time.perf_counter() - start:.2f} s and ended without KeyboardInterrupt")
    return stopped - sent[0], stopped - start


def check(make_call, unit, threads):
    call = sized(make_call, unit, threads)
    latency, ran = interrupted(call)
    assert latency < LATENCY, f"KeyboardInterrupt came {latency:.3f} s after SIGINT"
    assert ran < DELAY + LATENCY
    # The extension still works after an interrupt.
    assert make_call(unit)() is not None


@pytest.mark.parametrize("threads", [1, 2, None])
def test_grid(threads):
    def make_call(n):
        out = np.empty((n, 4, 16, 16), np.float32)
        return lambda: SOURCE.grid((n, 4, 16, 16), step=1 / 64, out=out, threads=threads)

    check(make_call, 1, threads or os.cpu_count())


def test_grid_2d():
    def make_call(rows):
        out = np.empty((rows, 256), np.float32)
        return lambda: SOURCE.grid((rows, 256), step=1 / 64, out=out, threads=1)

    check(make_call, 16, 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_grid_3d_window(threads):
    # A window of a 3D grid: blocks of whole rows within planes.
    def make_call(planes):
        shape = (planes + 10, 20, 100)
        return lambda: SOURCE.grid(shape, step=1 / 50, window=np.s_[5:5 + planes, :, 10:90],
                                   threads=threads)

    check(make_call, 1, threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_grid_grad(threads):
    source = nf.Fbm(nf.Perlin(1), octaves=32, level="scalar")

    def make_call(n):
        return lambda: source.grid_grad((n, 4, 8, 8), step=1 / 64, threads=threads)

    check(make_call, 1, threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_points(threads):
    rng = np.random.default_rng(0)

    def make_call(n):
        x, y, z, w = rng.uniform(-50, 50, (4, n)).astype(np.float32)
        out = np.empty(n, np.float32)
        return lambda: SOURCE.noise4(x, y, z, w, out=out, threads=threads)

    check(make_call, 1 << 10, threads)


def test_broadcast_points():
    # Broadcast coordinates: gathered block by block on the calling thread.
    def make_call(n):
        x = np.linspace(-50, 50, n)[:, None]
        y = np.linspace(-50, 50, 16)[None, :]
        return lambda: SOURCE.noise4(x, y, 0.5, 0.25, threads=1)

    check(make_call, 64, 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_point_gradients(threads):
    source = nf.Fbm(nf.Perlin(1), octaves=32, level="scalar")
    rng = np.random.default_rng(0)

    def make_call(n):
        x, y, z, w = rng.uniform(-50, 50, (4, n)).astype(np.float32)
        return lambda: source.noise4_grad(x, y, z, w, threads=threads)

    check(make_call, 1 << 10, threads)


def test_blocks_join_bit_for_bit():
    # The blocks a long call is cut into change no bit: threads, windows and
    # a whole call agree (and the CLI tests pin the whole call's bits).
    source = nf.Fbm(nf.Perlin(3), octaves=3)
    shape = (700, 1500)
    whole = source.grid(shape, step=1 / 97, origin=(-3.5, 2.25), threads=1)
    for threads in (2, None):
        parallel = source.grid(shape, step=1 / 97, origin=(-3.5, 2.25), threads=threads)
        assert (parallel.view(np.uint32) == whole.view(np.uint32)).all()
    top = source.grid(shape, step=1 / 97, origin=(-3.5, 2.25), window=np.s_[:350, :])
    bottom = source.grid(shape, step=1 / 97, origin=(-3.5, 2.25), window=np.s_[350:, :])
    assert (np.concatenate([top, bottom]).view(np.uint32) == whole.view(np.uint32)).all()
    x = np.random.default_rng(2).uniform(-9, 9, (2, 300_001)).astype(np.float32)
    one = source.noise2(*x, threads=1)
    assert (source.noise2(*x, threads=3).view(np.uint32) == one.view(np.uint32)).all()
    pieces = np.concatenate([source.noise2(*x[:, :77_777]), source.noise2(*x[:, 77_777:])])
    assert (pieces.view(np.uint32) == one.view(np.uint32)).all()
