"""Hostile arguments to every public function, class and method: each bad
one raises ``ValueError`` or ``TypeError`` (a subclass is fine), quickly and
before any work; never another exception, a hang or a crash. Odd but valid
arguments (zero-length, strided, narrow dtypes, shapes with a 0) just work.

The cases run in a child interpreter (this file run as a script), each under
a watchdog (``faulthandler.dump_traceback_later(exit=True)``), so a crash or
a hang ends the child, is charged to the case it was running, and the
remaining cases run in a new child. Each case is one test here.
"""

import json
import os
import subprocess
import sys
import time

import pytest

# (id, code, expect): `code` runs with `np`, `nf`, `nfd` (noisefield.dask),
# `p` (a Perlin), `f` (an Fbm over it), `r` (a Ridged over it) and `ro` (a
# read-only float32 array of 3) in scope; `expect` is "error" (ValueError or
# TypeError), "ok" (returns), "attribute" (AttributeError: no such method) or
# "any" (the private extension module: any exception, but no crash or hang).
CASES = []


def case(code, expect="error"):
    CASES.append((code, code, expect))


def cases(template, values, expect="error"):
    for v in values:
        case(template.format(v), expect)


NOT_INT = ['"7"', "None", "1.5", "object()", 'b"7"', "[[7]]", "1j", "True", "np.float64(7.0)",
           "np.array([1, 2])"]
BAD_UINT = ["-1", "2**64", "2**200", "-2**200"]
NOT_REAL = ['"2"', "None", "object()", 'b"2"', "1j", "[[2.0]]", "True", "10**400", "-10**400",
            "np.array([1.0, 2.0])"]
NOT_FINITE = ['float("nan")', 'float("inf")', 'float("-inf")', "1e39"]
NOT_STRING = ["5", "1.5", 'b"quintic"', '["quintic"]', "object()"]
BAD_THREADS = ["0", "-1", "1025", "10**9", "2**64", "2**200", "1.5", '"2"', "True", "[2]",
               "object()", "np.float64(2.0)", "1j"]
BAD_COORD = ['"a"', "None", "object()", 'b"ab"', "[[1, 2], [3]]", "1j", "np.array([1j])",
             "np.zeros(3, np.complex64)", "np.array([1.0, None])", "np.array([1, 2], dtype=object)",
             'np.array(["a"])', 'np.array([1], dtype="datetime64[s]")',
             'np.array([1], dtype="timedelta64[s]")', "10**400", "[1.0, 10**400]", "{1: 2}",
             "{1.0, 2.0}"]
BAD_OUT = ['"x"', "[0.0, 0.0, 0.0]", "np.zeros(3)", "np.zeros(4, np.float32)",
           "np.zeros((3, 1), np.float32)", "np.zeros(6, np.float32)[::2]", "ro",
           'np.zeros(3, ">f4")', "np.zeros(3, np.float16)", "np.zeros(3, np.int32)", "1.0"]
BAD_SHAPE = ["()", "(1,) * 17", "(1,) * 33", "(3, -1)", "(-1,)", "-5", "(2**64,)",
             "(2**200, 2)", "(2**40, 2**40)", "(2**31, 2**31)", "(2**62, 2)", "(10**12,)",
             "(2**20, 2**20)", "(2**16, 2**16, 2**16)", '"abc"', "None", "3.0", "(3.0, 3)",
             "[[3]]", "(True, 3)", "(3, None)", "np.array([3.5, 2])", "1j", "{}", "object()",
             "(3, 1j)", "(3, b'3')"]
BAD_PER_AXIS = ["None", '"0.1"', "1j", "(0.1,)", "(0.1, 0.1, 0.1)", "[[0.1, 0.1]]", "True",
                "10**400", "(0.1, 10**400)", "(0.1, None)", "(0.1, 1j)", 'float("nan")',
                'float("inf")', "(0.1, float('nan'))", "object()", "np.array([[0.1, 0.1]])"]
BAD_WINDOW = ["5", '"ab"', "np.s_[0:2]", "np.s_[::2, :]", "np.s_[::0, :]", "np.s_[-1:, :]",
              "np.s_[:, :-1]", "np.s_[0:5, :]", "np.s_[2:1, :]", "np.s_[0:2**70, :]",
              'np.s_["a":, :]', "np.s_[0.5:, :]", "(slice(None), 3)", "(slice(None), None)",
              "np.s_[:, :, :]", "np.s_[2**64:, :]", "object()", "1j"]
HUGE_POINTS = ["np.broadcast_to(np.float32(0), (2**40,))", "np.broadcast_to(0.0, (2**62,))",
               "np.broadcast_to(np.float32(0), (2**20, 2**20))"]

# -- sources ---------------------------------------------------------------
for kind in ("Perlin", "Value"):
    cases(f"nf.{kind}({{}})", NOT_INT + BAD_UINT)
    cases(f"nf.{kind}(1, hash={{}})", NOT_STRING + ["None", '"nope"', '""', '"reference"',
                                                   '"coordinates\\0"'])
    cases(f"nf.{kind}(1, fade={{}})", NOT_STRING + ["None", '"nope"', '""'])
    cases(f"nf.{kind}(1, level={{}})", NOT_STRING + ['"sse9"', '""', '"avx2\\0"'])
    cases(f"nf.{kind}(1, period={{}})",
          ["0", "-1", "2**32", "2**64", "2**200", "1.5", '"ab"', "[]", "[1] * 17", "[1] * 33",
           "[1, None]", "[1.5]", "[[2]]", "True", "1j", "object()", "np.array([[1, 2]])",
           "(4, 0)", "(4, -1)", "(4, 2**40)"])
    case(f"nf.{kind}(1, bogus=1)")
    cases(f"nf.{kind}.reference(fade={{}})", NOT_STRING + ["None", '"nope"'])
    cases(f"nf.{kind}.reference(level={{}})", ["5", '"sse9"'])
    cases(f"nf.{kind}.permuted({{}})", NOT_INT + BAD_UINT)
case("nf.Source()")
case("nf.Source().grid((4, 4), step=0.1)")
cases("p.with_period({})", ["0", "-1", "2**32", "1.5", '"ab"', "[]", "[1] * 17", "[1] * 33", "object()"])
cases("p.with_fade({})", NOT_STRING + ["None", '"nope"'])
cases("p.with_level({})", ["5", "1.5", 'b"avx2"', '["avx2"]', '"sse9"', '""', "object()"])
cases("f.with_level({})", ["5", '"sse9"'])
cases("p.bounds({})", ["0", "33", "-1", "2**64", "2**200", "1.5", "None", '"2"', "True",
                       "object()"])
cases("f.bounds({})", ["0", "33", "None"])

for kind in ("Fbm", "Billow", "Ridged", "Turbulence", "Marble"):
    cases(f"nf.{kind}({{}})", ["None", "5", "nf.Fbm(p)", "object()", '"perlin"', "nf.Perlin",
                               "nf.Marble(p)"])
    cases(f"nf.{kind}(p, octaves={{}})", ["0", "-1", "33", "2**32", "2**64", "2**200", "1.5",
                                          "None", '"6"', "True", "1j", "object()"])
    cases(f"nf.{kind}(p, lacunarity={{}})", NOT_REAL + NOT_FINITE)
    cases(f"nf.{kind}(p, persistence={{}})", NOT_REAL + NOT_FINITE)
    cases(f"nf.{kind}(p, normalize={{}})", ["np.array([1, 2])"])
    cases(f"nf.{kind}(p, level={{}})", ["5", '"sse9"', 'b"avx2"'])
    case(f"nf.{kind}(p.with_period(8), lacunarity=2.5)")
    case(f"nf.{kind}(p, octaves=32, persistence=1e30)")
cases("nf.Marble(p, power={})", NOT_REAL + NOT_FINITE)
cases("nf.Marble(p, stripes={})", NOT_REAL + NOT_FINITE)
case("nf.Fbm(p, power=4.0)")
cases("nf.Recipe({})", NOT_STRING + ["None", '""', '"perlin("', '"fbm(perlin, octaves=40)"',
                                     '"x" * 10**6', '"(" * 10**5', '"perlin(seed=-1)"',
                                     '"\\ud800"', '"perlin\\0"', '"perlin(seed=1e400)"',
                                     '"fbm(fbm(fbm(octaves=32), octaves=32), octaves=32)"',
                                     '"scale_bias(perlin, scale=3e38, bias=3e38)"',
                                     '"warp(perlin, perlin, iterations=1000)"',
                                     '"terrace(perlin, points=[" + "0," * 10**5 + "1])"'])
cases("nf.Recipe({})", ['"  perlin  "', '"warp(fbm(octaves=4), perlin, iterations=2)"'], "ok")
cases("nf.Recipe('perlin', level={})", ["5", '"sse9"', 'b"avx2"', '""'])
case("nf.Recipe('perlin', bogus=1)")
case("nf.Fbm(nf.Recipe('perlin'))")
cases("nf.Recipe('ridged(perlin)').{}", ["noise1_grad(0.5)", "noise2_grad(0.5, 0.5)",
                                         "grid_grad((4, 4), step=0.1)",
                                         "grid_grad((2**40, 2**40), step=0.1)"])
cases("nf.Recipe('fbm(perlin)').noise2_grad(0.5, {})", ["None", '"a"', "1j"])
cases("nf.Recipe('fbm(perlin)').grid_grad({}, step=0.1)", BAD_SHAPE[:12])
case("nf.Recipe('fbm(perlin)').with_level('sse9')")

# -- points ----------------------------------------------------------------
for src in ("p", "f", "r"):
    cases(src + ".noise1({})", BAD_COORD)
cases("p.noise2(0.5, {})", BAD_COORD)
cases("p.noise3(0.5, 0.5, {})", ["None", '"a"', "1j"])
cases("p.noise4(0.5, 0.5, 0.5, {})", ["None", '"a"', "1j"])
cases("p.noise1_grad({})", BAD_COORD)
cases("f.noise2_grad(0.5, {})", ["None", '"a"', "1j", "10**400"])
cases("p.noise4_grad(0.5, 0.5, 0.5, {})", ["None", "object()"])
case("p.noise2(np.zeros(3), np.zeros(4))")
case("p.noise3(np.zeros((2, 3)), np.zeros((3, 2)), 0.0)")
case("p.noise2_grad(np.zeros(3), np.zeros(4))")
cases("p.noise1({})", HUGE_POINTS)
cases("p.noise2({}, 0.5)", HUGE_POINTS)
cases("p.noise1_grad({})", HUGE_POINTS)
cases("f.noise3_grad(0.5, 0.5, {})", HUGE_POINTS)
case("p.noise2(np.zeros((2**20, 1), np.float32), np.zeros((1, 2**20), np.float32))")
case("p.noise1(np.zeros((1,) * 40))")
case("p.noise2(np.zeros((1,) * 33), 0.5)")
case("p.noise2_grad(np.zeros((2**20, 1), np.float32), np.zeros((1, 2**20), np.float32))")
cases("p.noise1(np.zeros(3, np.float32), out={})", BAD_OUT)
cases("p.noise3(np.zeros(3), 0.5, 0.5, out={})", BAD_OUT)
case("x = np.zeros(3, np.float32); p.noise1(x, out=x)")
case("x = np.zeros(3, np.float32); p.noise2(0.5, x, out=x)")
cases("p.noise1(np.zeros(3), threads={})", BAD_THREADS)
cases("p.noise1(0.5, threads={})", ["0", "1.5", "-1"])
cases("p.noise2_grad(np.zeros(3), 0.5, threads={})", BAD_THREADS)
case("p.noise1(0.5, bogus=1)")
case("p.noise1()")
# Valid but odd: these work.
for code in ["p.noise1(np.zeros(0))", "p.noise2(np.zeros(0), np.zeros((3, 0)))",
             "p.noise1(np.zeros(0, np.float32), out=np.zeros(0, np.float32))",
             "p.noise1_grad(np.zeros(0))", "f.noise3_grad(np.zeros((0, 5)), 0.5, 0.5)",
             "p.noise1(np.arange(10.0)[::3])", "p.noise2(np.zeros((4, 6))[:, ::2], 0.5)",
             "p.noise1(np.zeros(3, np.float16))", "p.noise1(np.array([True, False]))",
             "p.noise1(np.arange(5, dtype=np.uint64))", "p.noise1(np.arange(5, dtype=np.int8))",
             "p.noise1(np.zeros(3, np.longdouble))", "p.noise1(2**64)", "p.noise1(2**200)",
             "p.noise1([float('nan'), float('inf'), -float('inf')])",
             "p.noise1(np.zeros((1,) * 32))", "p.noise4(1, 2, 3, 4)", "p.noise1(0.5, threads=64)",
             "f.noise1(np.broadcast_to(np.float32(1), (10**5,)))",
             "p.noise1(np.zeros(3, np.dtype('>f8')))", "p.noise1(np.zeros(3, np.dtype('>f4')))",
             "p.noise1(np.zeros((3, 4), order='F'))", "p.noise1_grad(np.zeros((3, 4), order='F'))"]:
    case(code, "ok")

# -- grids -----------------------------------------------------------------
for method in ("grid", "grid_grad"):
    src = "p." + method
    cases(src + "({}, step=0.1)", BAD_SHAPE)
    cases(src + "((4, 4), step={})", BAD_PER_AXIS)
    cases(src + "((4, 4), step=0.1, origin={})", BAD_PER_AXIS)
    case(src + "((1, 3), step=1e308, origin=1e308)")
    cases(src + "((4, 4), step=0.1, window={})", BAD_WINDOW)
    cases(src + "((4, 4), step=0.1, threads={})", BAD_THREADS)
    case(src + "((4, 4))")
    case(src + "((4, 4), 0.1)")
    case(src + "((4, 4), step=0.1, bogus=1)")
    case(src + "((2**40, 2**20), step=0.1)")
    case(src + "((2**20, 2**20), step=0.1, window=np.s_[0:2**20, 0:2**19])")
    for code in ["((0, 5), step=0.1)", "((5, 0), step=0.1, threads=2)", "((0,), step=0.1)",
                 "((4, 4), step=0.1, window=np.s_[1:1, :])", "((4, 4), step=(0, -1))",
                 "((2**62,), step=1, window=np.s_[2**62 - 3:])",
                 "((4, 4), step=0.1, window=[slice(0, 2), slice(1, 3)])",
                 "((4, 4), step=0.1, window=np.s_[:, 1:])", "((1, 1, 1, 1), step=0.1)",
                 "(np.array([4, 4]), step=np.float32(0.1), origin=np.array([1, 2]))",
                 "(5, step=0.1)", "((4, 4), step=0.1, threads=64)"]:
        case(src + code, "ok")
cases("p.grid((3, 3), step=0.1, out={})",
      ['"x"', "np.zeros((3, 3))", "np.zeros((3, 4), np.float32)", "np.zeros(9, np.float32)",
       "np.zeros((3, 6), np.float32)[:, ::2]", "np.zeros((3, 3), np.float32, order='F')",
       "np.zeros((3, 3), '>f4')", "np.zeros((3, 3), np.int32)", "[[0.0] * 3] * 3",
       "np.broadcast_to(np.float32(0), (3, 3))", "np.zeros((3, 3), np.float32)[None]"])
case("o = np.zeros((3, 3), np.float32); o.flags.writeable = False; p.grid((3, 3), step=0.1, out=o)")
case("p.grid((3, 3), step=0.1, window=np.s_[0:2, :], out=np.zeros((3, 3), np.float32))")
case("p.grid((2**40, 2**40), step=0.1, out=np.zeros((3, 3), np.float32))")
case("p.grid((2**20, 2**20), step=0.1, out=np.zeros((3, 3), np.float32))")
case("p.grid((3, 3), step=0.1, out=np.zeros((3, 3), np.float32))", "ok")
case("r.grid_grad")  # AttributeError is right: Ridged has no derivatives
CASES[-1] = ("r.grid_grad", "r.grid_grad", "attribute")

# -- dask ------------------------------------------------------------------
cases("nfd.grid({}, (8, 8), step=0.1)", ["None", "5", "nf.Perlin", "object()", '"perlin"'])
LAZY = ["(10**12,)", "(2**20, 2**20)"]  # fine as lazy arrays: never computed here
cases("nfd.grid(p, {}, step=0.1)", [s for s in BAD_SHAPE if s not in LAZY])
cases("nfd.grid(p, {}, step=0.1)", LAZY, "ok")
cases("nfd.grid(p, (8, 8), step={})", BAD_PER_AXIS)
cases("nfd.grid(p, (8, 8), step=0.1, origin={})", ["None", '"0"', "10**400", 'float("nan")'])
cases("nfd.grid(p, (8, 8), step=0.1, threads={})", BAD_THREADS)
cases("nfd.grid(p, (8, 8), {}, step=0.1)",
      ["0", "-5", "1.5", '"bogus"', "(4,)", "((4, 5), (8,))", "((4, 4), (4, 4), (4, 4))",
       "2**70", "object()", "1j", "(0, 4)", "(4, -3)"])
cases("nfd.grid(p, {}, 1, step=0.1)", ["(2**31, 2**31)", "(10**6, 10**6)", "(2**40,)"])
cases("nfd.grid(p, {}, step=0.1)", ["(2**31, 2**31)", "(2**62,)", "(2**40, 2**20)"])
case("nfd.grid(p, (8, 8), 4, step=0.1, name=5)")
case("nfd.grid(p, (8, 8), 4, step=0.1).compute()", "ok")
case("nfd.grid(p, (0, 8), 4, step=0.1).compute()", "ok")

# -- the extension module directly (private, but must not crash) -----------
CORE = "p._core"
for code in [CORE + ".fill([], np.zeros(3, np.float32))",
             CORE + ".fill([np.zeros(3)] * 5, np.zeros(3, np.float32))",
             CORE + ".fill([np.zeros(3)], np.zeros(4, np.float32))",
             CORE + ".fill([np.zeros(3, np.float32), np.zeros(3)], np.zeros(3, np.float32))",
             CORE + ".fill([np.zeros(3)], ro)",
             CORE + ".fill([np.zeros(6)], np.zeros(6, np.float32)[::2])",
             CORE + ".fill([np.zeros(3)], np.zeros(3, np.float32), threads=0)",
             CORE + ".fill_grad([np.zeros(3, np.float32)], np.zeros(3, np.float32), [])",
             CORE + ".fill_grad([np.zeros(3, np.float32)], np.zeros(4, np.float32),"
                    " [np.zeros(3, np.float32)])",
             CORE + ".fill_grad([np.zeros(3, np.float32)], np.zeros(3, np.float32),"
                    " [np.zeros(4, np.float32)])",
             CORE + ".grid_check([4, 4], [0.0, 0.0], [0.1, 0.1], [0, 0], [5, 4])",
             CORE + ".grid_check([4, 4], [0.0], [0.1, 0.1], [0, 0], [4, 4])",
             CORE + ".grid_check([-1], [0.0], [0.1], [0], [1])",
             CORE + ".grid_check([2**64], [0.0], [0.1], [0], [1])",
             CORE + ".grid_check([], [], [], [], [])",
             CORE + ".fill_grid([4, 4], [0.0, 0.0], [0.1, 0.1], [0, 0], [4, 4],"
                    " np.zeros((4, 5), np.float32))",
             CORE + ".fill_grid([4, 4], [0.0, 0.0], [0.1, 0.1], [0, 0], [4, 4], ro)",
             CORE + ".fill_grid([2**40, 2**40], [0.0, 0.0], [0.1, 0.1], [0, 0], [2**40, 2**40],"
                    " np.zeros((4, 4), np.float32))",
             CORE + ".fill_grid_grad([4, 4], [0.0, 0.0], [0.1, 0.1], [0, 0], [4, 4],"
                    " np.zeros((4, 4), np.float32), [np.zeros((4, 4), np.float32)])",
             "r._core.fill_grid_grad([4], [0.0], [0.1], [0], [4], np.zeros(4, np.float32),"
             " [np.zeros(4, np.float32)])",
             "nf._noisefield.lattice('nope', 1, 'coordinates', None, 'quintic', None)",
             "nf._noisefield.lattice('perlin', -1, 'coordinates', None, 'quintic', None)",
             "nf._noisefield.lattice('perlin', 1, 'nope', None, 'quintic', None)",
             "nf._noisefield.lattice('perlin', 1, 'coordinates', [1, 2], 'quintic', None)",
             "nf._noisefield.fractal('nope', p._core, 3, 2.0, 0.5, False, 4.0, 1.0, None)",
             "nf._noisefield.fractal('fbm', f._core, 3, 2.0, 0.5, False, 4.0, 1.0, None)",
             "nf._noisefield.fractal('fbm', p._core, -3, 2.0, 0.5, False, 4.0, 1.0, None)",
             "nf._noisefield.fractal('fbm', nf.Recipe('perlin')._core, 3, 2.0, 0.5, False, 4.0,"
             " 1.0, None)",
             "nf._noisefield.recipe(None, None)",
             "nf._noisefield.recipe('perlin', 5)",
             "nf._noisefield.recipe('perlin(', None)",
             "nf._noisefield.recipe('\\ud800', None)",
             "nf.Recipe('ridged(perlin)')._core.fill_grad([np.zeros(3, np.float32)],"
             " np.zeros(3, np.float32), [np.zeros(3, np.float32)])",
             "nf.Recipe('ridged(perlin)')._core.grad_check()",
             "p._core.grad_check()"]:
    CASES.append((code, code, "any"))


# -- the child -------------------------------------------------------------

def child(start):
    """Runs CASES[start:], one JSON line per case on stdout: first
    ``{"start": i}``, then ``{"i": i, "result": ..., "seconds": ...}``."""
    import faulthandler

    import numpy as np

    import noisefield as nf
    import noisefield.dask as nfd

    ro = np.zeros(3, np.float32)
    ro.flags.writeable = False
    env = {"np": np, "nf": nf, "nfd": nfd, "p": nf.Perlin(1), "f": nf.Fbm(nf.Perlin(1)),
           "r": nf.Ridged(nf.Perlin(1)), "ro": ro}
    for i in range(start, len(CASES)):
        print(json.dumps({"start": i}), flush=True)
        faulthandler.dump_traceback_later(WATCHDOG, exit=True)
        t0 = time.perf_counter()
        try:
            exec(CASES[i][1], dict(env))
            result = "ok"
        except (ValueError, TypeError) as e:
            result = "error:" + type(e).__name__ + ": " + str(e)[:200]
        except BaseException as e:  # noqa: BLE001 - every other outcome is reported
            result = "other:" + type(e).__name__ + ": " + str(e)[:200]
        seconds = time.perf_counter() - t0
        faulthandler.cancel_dump_traceback_later()
        print(json.dumps({"i": i, "result": result, "seconds": seconds}), flush=True)


#: Seconds after which a case counts as hung (the child is ended).
WATCHDOG = 20.0
#: Seconds a case may take.
QUICK = 3.0


def run_all():
    """Every case's ``(result, seconds)``, crashes and hangs included."""
    results = {}
    start = 0
    while start < len(CASES):
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), str(start)],
                              capture_output=True, text=True, timeout=WATCHDOG * 10)
        running = None
        for line in proc.stdout.splitlines():
            if not line.startswith("{"):
                continue
            record = json.loads(line)
            if "start" in record:
                running = record["start"]
            else:
                results[record["i"]] = (record["result"], record["seconds"])
                running = None
        if running is None:
            if proc.returncode != 0 and len(results) < len(CASES):
                raise RuntimeError(f"the child failed outside any case:\n{proc.stderr[-3000:]}")
            break
        results[running] = (f"crash: exit {proc.returncode}: {proc.stderr[-500:]}", None)
        start = running + 1
    return results


@pytest.fixture(scope="module")
def results():
    return run_all()


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_hostile(results, index):
    _, code, expect = CASES[index]
    result, seconds = results[index]
    assert not result.startswith("crash"), f"{code}: {result}"
    assert seconds < QUICK, f"{code}: took {seconds:.2f} s ({result})"
    if expect == "error":
        assert result.startswith("error:"), f"{code}: {result}"
    elif expect == "ok":
        assert result == "ok", f"{code}: {result}"
    elif expect == "attribute":
        assert result.startswith("other:AttributeError"), f"{code}: {result}"
    # "any": the private module may raise anything but must not crash or hang


if __name__ == "__main__":
    child(int(sys.argv[1]))
