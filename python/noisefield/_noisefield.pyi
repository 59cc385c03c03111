"""Type stubs of the extension module ``noisefield._noisefield`` (Rust).

The public API is the Python classes of ``noisefield``; this module is what
they call. Grid arguments are in numpy's axis order (slowest axis first).
"""

from typing import List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

#: The widest window (samples per axis) a grid fill computes at once.
WINDOW: int

class Core:
    """A library source, ready to fill points and grids."""

    @property
    def level(self) -> str: ...
    @property
    def differentiable(self) -> bool: ...
    def bounds(self, dimension: int) -> Tuple[float, float]: ...
    def grad_check(self) -> None: ...
    def fill(
        self,
        coords: Sequence[npt.NDArray[np.floating]],
        out: npt.NDArray[np.float32],
        threads: Optional[int] = None,
    ) -> None: ...
    def fill_grad(
        self,
        coords: Sequence[npt.NDArray[np.float32]],
        out: npt.NDArray[np.float32],
        grads: Sequence[npt.NDArray[np.float32]],
        threads: Optional[int] = None,
    ) -> None: ...
    def grid_check(
        self,
        shape: Sequence[int],
        origin: Sequence[float],
        step: Sequence[float],
        offset: Sequence[int],
        size: Sequence[int],
    ) -> int: ...
    def fill_grid(
        self,
        shape: Sequence[int],
        origin: Sequence[float],
        step: Sequence[float],
        offset: Sequence[int],
        size: Sequence[int],
        out: npt.NDArray[np.float32],
        threads: Optional[int] = None,
    ) -> None: ...
    def fill_grid_grad(
        self,
        shape: Sequence[int],
        origin: Sequence[float],
        step: Sequence[float],
        offset: Sequence[int],
        size: Sequence[int],
        out: npt.NDArray[np.float32],
        grads: Sequence[npt.NDArray[np.float32]],
        threads: Optional[int] = None,
    ) -> None: ...

def lattice(
    kind: str,
    seed: int,
    hash: str,
    period: Optional[Sequence[int]],
    fade: str,
    level: Optional[str],
) -> Core: ...
def simplex(seed: int, level: Optional[str]) -> Core: ...
def simplex_period() -> ValueError: ...
def fractal(
    kind: str,
    base: Core,
    octaves: int,
    lacunarity: float,
    persistence: float,
    normalize: bool,
    power: float,
    stripes: float,
    level: Optional[str],
) -> Core: ...
def recipe(text: str, level: Optional[str]) -> Tuple[Core, str]: ...
def available_levels() -> List[str]: ...
def detect_level() -> str: ...
def _bench_grid(
    core: Core,
    shape: Sequence[int],
    origin: Sequence[float],
    step: Sequence[float],
    repeats: int,
    out: Optional[npt.NDArray[np.float32]] = None,
) -> List[float]: ...
def _bench_fill3(
    core: Core,
    xs: npt.NDArray[np.float32],
    ys: npt.NDArray[np.float32],
    zs: npt.NDArray[np.float32],
    repeats: int,
) -> List[float]: ...
