"""Shared fixtures: the command-line tool, whose .npy files are the Rust
library's own output (the reference the Python package must match bit for
bit), written by a separate program the Python package does not call."""

import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _find_cli():
    named = os.environ.get("NOISEFIELD_CLI")
    if named:
        return named
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for candidate in (target / "release" / "noisefield", REPO / "target" / "release" / "noisefield"):
        if candidate.is_file():
            return str(candidate)
    return shutil.which("noisefield")


@pytest.fixture(scope="session")
def render(tmp_path_factory):
    """``render(*flags)``: the array ``noisefield render ... --format npy`` writes."""
    cli = _find_cli()
    if cli is None:
        pytest.fail(
            "the noisefield command-line tool was not found: build it with "
            "`cargo build --release -p noisefield-cli` or set NOISEFIELD_CLI"
        )
    folder = tmp_path_factory.mktemp("render")
    count = [0]

    def run(*flags):
        count[0] += 1
        path = folder / f"field{count[0]}.npy"
        subprocess.run([cli, "render", *flags, "--format", "npy", "-o", str(path)],
                       check=True, capture_output=True)
        return np.load(path)

    return run


def assert_bits(actual, expected):
    """Equal bit for bit: same shape, float32, every value's bits (NaN too)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == np.float32 and expected.dtype == np.float32
    assert actual.shape == expected.shape
    differ = actual.view(np.uint32) != expected.view(np.uint32)
    if differ.any():
        where = tuple(np.argwhere(differ)[0])
        raise AssertionError(
            f"{differ.sum()} of {differ.size} values differ; first at {where}: "
            f"{actual[where]!r} != {expected[where]!r}")
