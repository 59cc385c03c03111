"""Python against Rust, in one process, interleaved: the figures of
BENCHMARKS.md's Python section.

- grid: ``Fbm(Perlin(7)).grid((4096, 4096), step=1/512)`` (6 octaves, a
  new array each call; and into a reused ``out=``) against the library's
  ``fill_grid2_par`` on the same grid (``_bench_grid``: into that same
  ``out`` array; and into a new ``Vec`` per call), both on the rayon pool
  (one thread per core).
- points: ``Perlin(7).noise3(x, y, z, threads=1)`` on 1M float32 points
  (a new array each call) against the library's ``fill3`` on the same
  arrays, one thread.

Each round runs one call of each, in alternating order; the figures are
medians over the rounds. Run: ``python python/bench/bench.py [rounds]``.
"""

import statistics
import sys
import time

import numpy as np

import noisefield as nf
from noisefield import _noisefield


def timed(call):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def rounds(named, n):
    """``{name: median seconds}`` over ``n`` rounds, the calls' order
    alternating each round."""
    times = {name: [] for name in named}
    names = list(named)
    for r in range(n):
        for name in names if r % 2 == 0 else reversed(names):
            times[name].append(named[name]())
    return {name: statistics.median(t) for name, t in times.items()}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    print(f"level {nf.detect_level()}, {n} rounds, medians")

    fbm = nf.Fbm(nf.Perlin(7))
    shape, step = (4096, 4096), (1 / 512, 1 / 512)
    assert np.array_equal(fbm.grid(shape, step=step).view(np.uint32),
                          fbm.grid(shape, step=step, threads=1).view(np.uint32))
    out = np.empty(shape, dtype=np.float32)
    grid = rounds({
        "python grid (new array)": lambda: timed(lambda: fbm.grid(shape, step=step)),
        "python grid (out=)": lambda: timed(lambda: fbm.grid(shape, step=step, out=out)),
        "rust fill_grid2_par (into the same out)":
            lambda: _noisefield._bench_grid(fbm._core, shape, [0, 0], step, 1, out)[0],
        "rust fill_grid2_par (new Vec each call)":
            lambda: _noisefield._bench_grid(fbm._core, shape, [0, 0], step, 1)[0],
    }, n)
    base = grid["rust fill_grid2_par (into the same out)"]
    print("4096² fBm (6 octaves) grid, one thread per core:")
    for name, t in grid.items():
        print(f"  {name:40s} {t * 1e3:8.2f} ms  {t / base:6.3f}× rust (same out)")

    perlin = nf.Perlin(7)
    rng = np.random.default_rng(0)
    x, y, z = rng.uniform(-1000, 1000, size=(3, 1 << 20)).astype(np.float32)
    pts = rounds({
        "python noise3 (threads=1, new array)": lambda: timed(lambda: perlin.noise3(x, y, z, threads=1)),
        "rust fill3 (one thread)": lambda: _noisefield._bench_fill3(perlin._core, x, y, z, 1)[0],
    }, 3 * n)
    base = pts["rust fill3 (one thread)"]
    print("noise3 on 1M float32 points, one thread:")
    for name, t in pts.items():
        print(f"  {name:40s} {t * 1e3:8.2f} ms  {t / base:6.3f}× rust")


if __name__ == "__main__":
    main()
