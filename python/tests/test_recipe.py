"""``noisefield.Recipe``: a source graph from its text, the same bits as the
same graph of classes (points, grids, derivatives, every level), derivatives
exactly where every part has them, the library's errors for bad recipes,
and the identity of the other classes (equality, pickling, Dask)."""

import copy
import pickle

import numpy as np
import pytest

import noisefield as nf
import noisefield.dask as nfd
from conftest import assert_bits

LEVELS = nf.available_levels()

# (recipe, the same graph of classes at `level`)
PAIRS = [
    ("fbm(perlin(seed=3), octaves=4)",
     lambda level: nf.Fbm(nf.Perlin(3), octaves=4, level=level)),
    ("perlin(seed=9)", lambda level: nf.Perlin(9, level=level)),
    ("value(seed=5, hash=permuted, fade=cubic)",
     lambda level: nf.Value(5, hash="permuted", fade="cubic", level=level)),
    ("fbm(value(seed=12, period=[4, 6]), octaves=3, persistence=0.375, normalize=true)",
     lambda level: nf.Fbm(nf.Value(12, period=(4, 6)), octaves=3, persistence=0.375,
                          normalize=True, level=level)),
    ("ridged(perlin(seed=2), octaves=5, lacunarity=2.5, persistence=0.45, normalize=true)",
     lambda level: nf.Ridged(nf.Perlin(2), octaves=5, lacunarity=2.5, persistence=0.45,
                             normalize=True, level=level)),
    ("billow(value(seed=8), octaves=2)",
     lambda level: nf.Billow(nf.Value(8), octaves=2, level=level)),
    ("turbulence(perlin(hash=reference), octaves=3)",
     lambda level: nf.Turbulence(nf.Perlin.reference(), octaves=3, level=level)),
    ("marble(value(seed=4, period=[4, 4]), octaves=3, stripes=3, power=2.5)",
     lambda level: nf.Marble(nf.Value(4).with_period((4, 4)), octaves=3, stripes=3.0,
                             power=2.5, level=level)),
]
PAIR_IDS = [text.split("(")[0] + str(i) for i, (text, _) in enumerate(PAIRS)]

GRIDS = [((101,), (-3.25,), (0.37,)),
         ((37, 53), (2.25, -3.5), (1 / 7, 1 / 9)),
         ((5, 7, 9), (0.5, -1.25, 4.0), (0.3, 0.21, 0.17)),
         ((3, 4, 5, 6), (1.0, 2.0, -3.0, 0.5), (0.4, 0.3, 0.25, 0.2))]


def _points(dimension, dtype, n=257, seed=1):
    rng = np.random.default_rng(seed + dimension)
    return [rng.uniform(-40, 40, n).astype(dtype) for _ in range(dimension)]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("text,same", PAIRS, ids=PAIR_IDS)
def test_recipe_equals_the_classes(text, same, level):
    recipe, source = nf.Recipe(text, level=level), same(level)
    assert recipe.level == source.level == level
    for dimension in range(1, 5):
        assert recipe.bounds(dimension) == source.bounds(dimension)
    for shape, origin, step in GRIDS:
        expected = source.grid(shape, origin=origin, step=step)
        assert_bits(recipe.grid(shape, origin=origin, step=step), expected)
        assert_bits(recipe.grid(shape, origin=origin, step=step, threads=1), expected)
    window = np.s_[3:30, 10:41]
    assert_bits(recipe.grid((37, 53), step=0.1, window=window),
                source.grid((37, 53), step=0.1)[window])
    methods = ["noise1", "noise2", "noise3", "noise4"]
    for dtype in (np.float32, np.float64):
        for dimension in range(1, 5):
            coords = _points(dimension, dtype)
            expected = getattr(source, methods[dimension - 1])(*coords)
            assert_bits(getattr(recipe, methods[dimension - 1])(*coords), expected)
    # Not everything equal: the comparison can fail.
    assert not np.array_equal(recipe.grid((37, 53), step=0.1),
                              nf.Recipe("perlin(seed=1)").grid((37, 53), step=0.1))


def test_a_graph_equals_the_command_line_tool(render):
    text = "ridged(warp(perlin(seed=7), perlin(seed=8), amplitude=0.5), octaves=5)"
    expected = render("--source", text, "--size", "120x70", "--origin", "-3.5,2.25",
                      "--frequency", "1/37")
    got = nf.Recipe(text).grid((70, 120), origin=(2.25, -3.5), step=1 / 37)
    assert_bits(got, expected)


@pytest.mark.parametrize("level", LEVELS)
def test_gradients_equal_fbm(level):
    recipe = nf.Recipe("fbm(perlin(seed=3), octaves=4)", level=level)
    fbm = nf.Fbm(nf.Perlin(3), octaves=4, level=level)
    assert recipe.differentiable
    methods = ["noise1_grad", "noise2_grad", "noise3_grad", "noise4_grad"]
    for dimension in range(1, 5):
        coords = _points(dimension, np.float32)
        value, grads = getattr(recipe, methods[dimension - 1])(*coords)
        value_f, grads_f = getattr(fbm, methods[dimension - 1])(*coords)
        assert_bits(value, value_f)
        assert len(grads) == dimension
        for g, g_f in zip(grads, grads_f):
            assert_bits(g, g_f)
        assert any(np.abs(g).max() > 0.1 for g in grads)
    for shape, origin, step in GRIDS:
        values, grads = recipe.grid_grad(shape, origin=origin, step=step)
        values_f, grads_f = fbm.grid_grad(shape, origin=origin, step=step)
        assert_bits(values, values_f)
        for g, g_f in zip(grads, grads_f):
            assert_bits(g, g_f)


def test_gradients_through_operators():
    # scale_bias: v·s + b and its derivatives ·s, in float32 as numpy does.
    recipe = nf.Recipe("scale_bias(fbm(perlin(seed=3), octaves=4), scale=0.5, bias=0.25)")
    fbm = nf.Fbm(nf.Perlin(3), octaves=4)
    assert recipe.differentiable
    x, y = _points(2, np.float32)
    value, (dx, dy) = recipe.noise2_grad(x, y)
    value_f, (dx_f, dy_f) = fbm.noise2_grad(x, y)
    half, quarter = np.float32(0.5), np.float32(0.25)
    assert_bits(value, value_f * half + quarter)
    assert_bits(dx, dx_f * half)
    assert_bits(dy, dy_f * half)
    values, grads = recipe.grid_grad((20, 30), step=0.13)
    values_f, grads_f = fbm.grid_grad((20, 30), step=0.13)
    assert_bits(values, values_f * half + quarter)
    for g, g_f in zip(grads, grads_f):
        assert_bits(g, g_f * half)


def test_warp_has_derivatives_that_match_the_values():
    recipe = nf.Recipe("warp(perlin(seed=7), fbm(perlin(seed=8), octaves=2), amplitude=0.5)")
    assert recipe.differentiable
    x, y = (c.astype(np.float64) for c in _points(2, np.float32, n=64))
    _, (dx, dy) = recipe.noise2_grad(x, y)
    h = 1e-3
    fd_x = (recipe.noise2(x + h, y).astype(np.float64) - recipe.noise2(x - h, y)) / (2 * h)
    fd_y = (recipe.noise2(x, y + h).astype(np.float64) - recipe.noise2(x, y - h)) / (2 * h)
    np.testing.assert_allclose(dx, fd_x, atol=2e-2)
    np.testing.assert_allclose(dy, fd_y, atol=2e-2)
    assert np.abs(dx).max() > 0.1 and np.abs(dy).max() > 0.1


@pytest.mark.parametrize("text", [
    "ridged(perlin(seed=7), octaves=5)",
    "marble",
    "add(perlin, warp(perlin, billow(octaves=2)))",
    "scale_bias(turbulence(value(seed=1), octaves=2), scale=2)",
])
def test_a_recipe_without_derivatives_refuses_them_before_any_work(text):
    recipe = nf.Recipe(text)
    assert not recipe.differentiable
    assert isinstance(recipe, nf.Differentiable)
    message = "the recipe .* has no analytic derivatives"
    for call in (lambda: recipe.noise1_grad(0.5), lambda: recipe.noise2_grad([0.5, 1.0], 2.0),
                 lambda: recipe.noise3_grad(0.5, 0.5, 0.5),
                 lambda: recipe.noise4_grad(0.5, 0.5, 0.5, 0.5),
                 lambda: recipe.grid_grad((4, 5), step=0.1),
                 lambda: recipe.grid_grad((2**20, 2**20), step=0.1)):  # before allocating
        with pytest.raises(TypeError, match=message):
            call()
    # The extension module's calls write nothing.
    n = 1000
    coords = [np.linspace(0, 10, n, dtype=np.float32)] * 2
    out = np.full(n, np.nan, np.float32)
    grads = [np.full(n, np.nan, np.float32) for _ in range(2)]
    with pytest.raises(TypeError, match=message):
        recipe._core.fill_grad(coords, out, grads)
    with pytest.raises(TypeError, match=message):
        recipe._core.fill_grad(coords, out, grads, threads=1)
    shape = [30, 40]
    out2 = np.full(shape, np.nan, np.float32)
    grads2 = [np.full(shape, np.nan, np.float32) for _ in range(2)]
    with pytest.raises(TypeError, match=message):
        recipe._core.fill_grid_grad(shape, [0.0, 0.0], [0.1, 0.1], [0, 0], shape, out2, grads2)
    for a in [out, out2, *grads, *grads2]:
        assert np.isnan(a).all()
    # Values work as for any source.
    assert np.isfinite(recipe.grid((30, 40), step=0.1)).all()


def test_the_classes_keep_their_message():
    core = nf.Ridged(nf.Perlin(1))._core
    assert not core.differentiable and nf.Fbm(nf.Perlin(1))._core.differentiable
    with pytest.raises(TypeError, match="^Ridged has no analytic derivatives; Perlin, Value and "
                                        "Fbm over them have$"):
        core.fill_grad([np.zeros(3, np.float32)], np.zeros(3, np.float32),
                       [np.zeros(3, np.float32)])


def test_a_long_recipe_is_shortened_in_the_message():
    text = "add(" + "scale_bias(" * 20 + "ridged" + ")" * 20 + ", perlin(seed=123456789))"
    with pytest.raises(TypeError) as info:
        nf.Recipe(text).noise1_grad(0.5)
    assert "…" in str(info.value) and len(str(info.value)) < 300


@pytest.mark.parametrize("text,column,message", [
    ("fbm(perlin, octaves=40)", 13, "octave"),
    ("fbm(perlin", 11, ""),
    ("perlinn(seed=1)", 1, "perlinn"),
    ("perlin(seed=1, bogus=2)", 16, "bogus"),
    ("add(perlin)", 1, "input"),
    ("perlin(seed=1) extra", 16, "after the recipe"),
    ("", 1, ""),
])
def test_a_bad_recipe_names_the_column(text, column, message):
    with pytest.raises(ValueError, match=f"^column {column}: .*{message}") as info:
        nf.Recipe(text)
    lines = str(info.value).split("\n")
    assert len(lines) == 3, lines
    # The excerpt, and a caret under the column.
    assert lines[1] == "  " + text
    assert lines[2] == "  " + " " * (column - 1) + "^"


def test_recipe_limits_come_from_the_library():
    # 32 * 32 * 32 lattice evaluations per sample: refused, with the cost.
    with pytest.raises(ValueError, match="32768 lattice evaluations per sample, more than the "
                                         "4096 allowed"):
        nf.Recipe("fbm(fbm(fbm(octaves=32), octaves=32), octaves=32)")
    nf.Recipe("fbm(fbm(octaves=32), octaves=32)")  # 1024: fine
    with pytest.raises(ValueError, match="column 1: "):
        nf.Recipe("scale_bias(perlin, scale=3e38, bias=3e38)")
    with pytest.raises(ValueError, match="column 1"):
        nf.Recipe("(" * 100_000)
    with pytest.raises(ValueError) as info:  # a huge text: a short excerpt
        nf.Recipe("perlin(seed=" + "9" * 1_000_000 + ")")
    assert len(str(info.value)) < 1000
    with pytest.raises(TypeError, match="a recipe is a string"):
        nf.Recipe(b"perlin")
    with pytest.raises(TypeError):
        nf.Recipe(None)
    missing = [lv for lv in ("avx512", "neon", "avx2") if lv not in LEVELS]
    with pytest.raises(ValueError, match="is not supported on this CPU"):
        nf.Recipe("fbm(perlin)", level=missing[0])
    with pytest.raises(ValueError):
        nf.Recipe("fbm(perlin)", level="sse9")
    with pytest.raises(TypeError, match="a Perlin, a Value or a Simplex"):
        nf.Fbm(nf.Recipe("perlin"))


def test_identity_pickling_and_levels():
    a = nf.Recipe("fbm( perlin(seed=3) ,octaves=4 )")
    b = nf.Recipe("fbm(perlin(seed=3), octaves=4)")
    assert a.text == b.text == "fbm(perlin(seed=3), octaves=4)"
    assert a == b and hash(a) == hash(b)
    assert a != nf.Recipe("fbm(perlin(seed=3), octaves=5)")
    assert a != nf.Fbm(nf.Perlin(3), octaves=4)  # the same bits, another class
    assert repr(a) == "Recipe('fbm(perlin(seed=3), octaves=4)')"
    scalar = a.with_level("scalar")
    assert scalar.level == "scalar" and scalar != a
    assert repr(scalar) == "Recipe('fbm(perlin(seed=3), octaves=4)', level='scalar')"
    assert scalar.with_level(None) == a and scalar.with_level(None).level == nf.detect_level()
    for r in (a, scalar, nf.Recipe("marble(octaves=2)")):
        for back in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r),
                     eval(repr(r), {"Recipe": nf.Recipe})):
            assert type(back) is nf.Recipe and back == r and hash(back) == hash(r)
            assert back.level == r.level and back.differentiable == r.differentiable
            assert_bits(back.grid((16, 16), step=0.3), r.grid((16, 16), step=0.3))
    assert_bits(scalar.grid((40, 50), step=0.11), a.grid((40, 50), step=0.11))
    with pytest.raises(AttributeError):
        a.text = "perlin"


def test_dask_grid_equals_the_grid():
    from dask.base import tokenize

    recipe = nf.Recipe("ridged(warp(perlin(seed=7), perlin(seed=8)), octaves=5)")
    shape, origin, step = (90, 130), (0.1, -3.0), (1 / 61, 1 / 97)
    whole = recipe.grid(shape, origin=origin, step=step)
    for chunks in (37, (50, 129)):
        lazy = nfd.grid(recipe, shape, chunks=chunks, origin=origin, step=step)
        assert_bits(lazy.compute(scheduler="threads"), whole)
        assert_bits(lazy.compute(scheduler="sync"), whole)
    assert_bits(nfd.grid(recipe, shape, chunks=40, origin=origin, step=step)
                .compute(scheduler="processes", num_workers=2), whole)
    same = nf.Recipe("ridged(warp(perlin(seed=7), perlin(seed=8)),octaves=5)")
    other = nf.Recipe("ridged(warp(perlin(seed=7), perlin(seed=9)), octaves=5)")
    assert tokenize(recipe) == tokenize(same) != tokenize(other)
    assert (nfd.grid(recipe, shape, chunks=37, step=step).name
            != nfd.grid(other, shape, chunks=37, step=step).name)
