//! Uniform grids of sample points, and windows into them.
//!
//! Sample `i` on axis `a` sits at `origin[a] + i as f64 * step[a]`, computed
//! in `f64` from the *global* index `i`. A [`Grid::window`] is a sub-block
//! that keeps the parent's global indices, so filling a window produces
//! exactly the bits of that block of the whole grid, whatever the split, the
//! order, the thread count or the SIMD level.
//!
//! Output layout: row-major with x fastest. For a 3D grid of size
//! `[nx, ny, nz]`, sample `(i, j, k)` (local to the grid or window) is at
//! `out[(k * ny + j) * nx + i]`; 2D: `out[j * nx + i]`; 4D:
//! `out[((l * nz + k) * ny + j) * nx + i]`.

use crate::Error;
use crate::scratch::Scratch;
use crate::simd::{Job, Simd};

/// A `D`-dimensional uniform grid of sample points (or a window into one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid<const D: usize> {
    origin: [f64; D],
    step: [f64; D],
    size: [usize; D],
    offset: [usize; D],
}

/// A 1D grid: `Grid1::new([x0], [dx], [nx])`.
pub type Grid1 = Grid<1>;
/// A 2D grid: `Grid2::new([x0, y0], [dx, dy], [nx, ny])`.
pub type Grid2 = Grid<2>;
/// A 3D grid: `Grid3::new([x0, y0, z0], [dx, dy, dz], [nx, ny, nz])`.
pub type Grid3 = Grid<3>;
/// A 4D grid: `Grid4::new([x0, y0, z0, w0], [dx, dy, dz, dw], [nx, ny, nz, nw])`.
pub type Grid4 = Grid<4>;

/// Axis names in messages: x, y, z, w, then by number.
pub(crate) const AXES: [&str; crate::MAX_DIMENSIONS] = [
    "x", "y", "z", "w", "axis 4", "axis 5", "axis 6", "axis 7", "axis 8", "axis 9", "axis 10",
    "axis 11", "axis 12", "axis 13", "axis 14", "axis 15", "axis 16", "axis 17", "axis 18",
    "axis 19", "axis 20", "axis 21", "axis 22", "axis 23", "axis 24", "axis 25", "axis 26",
    "axis 27", "axis 28", "axis 29", "axis 30", "axis 31",
];

/// A grid with its dimension a value: 1 to [`crate::MAX_DIMENSIONS`] axes,
/// the same sample positions, windows and layout as the [`Grid`] of that
/// many axes. What [`crate::DynSource::fill_grid_dyn`] takes (the command
/// line and Python reach any dimension this way).
#[derive(Debug, Clone, PartialEq)]
pub struct GridNd {
    origin: Vec<f64>,
    step: Vec<f64>,
    size: Vec<usize>,
    offset: Vec<usize>,
}

impl<const D: usize> From<&Grid<D>> for GridNd {
    fn from(grid: &Grid<D>) -> GridNd {
        GridNd {
            origin: grid.origin.to_vec(),
            step: grid.step.to_vec(),
            size: grid.size.to_vec(),
            offset: grid.offset.to_vec(),
        }
    }
}

impl GridNd {
    /// [`Grid::new`] with one value per axis in each slice: `size.len()`
    /// axes, [`Error::InvalidDimension`] for none or more than
    /// [`crate::MAX_DIMENSIONS`], [`Error::InvalidParameter`] (`"origin"`,
    /// `"step"`) for slices of other lengths. The rest is checked by a fill
    /// (as [`Grid::check`]).
    pub fn new(origin: &[f64], step: &[f64], size: &[usize]) -> Result<GridNd, Error> {
        let dims = size.len();
        if !(1..=crate::MAX_DIMENSIONS).contains(&dims) {
            return Err(Error::InvalidDimension(dims));
        }
        same_length(dims, [("origin", origin.len()), ("step", step.len())])?;
        Ok(GridNd {
            origin: origin.to_vec(),
            step: step.to_vec(),
            size: size.to_vec(),
            offset: vec![0; dims],
        })
    }

    /// [`Grid::window`]: the sub-block of `size` samples from local sample
    /// `offset` (one value per axis each), keeping the global positions.
    pub fn window(&self, offset: &[usize], size: &[usize]) -> Result<GridNd, Error> {
        same_length(
            self.dims(),
            [("offset", offset.len()), ("size", size.len())],
        )?;
        fits(offset, size, &self.size)?;
        Ok(GridNd {
            offset: self.offset.iter().zip(offset).map(|(a, b)| a + b).collect(),
            size: size.to_vec(),
            ..self.clone()
        })
    }

    /// The number of axes.
    pub fn dims(&self) -> usize {
        self.size.len()
    }

    /// Samples on each axis (of this window).
    pub fn size(&self) -> &[usize] {
        &self.size
    }

    /// Global index of this window's first sample on each axis.
    pub fn offset(&self) -> &[usize] {
        &self.offset
    }

    /// [`Grid::coord`].
    pub fn coord(&self, axis: usize, index: usize) -> f64 {
        self.origin[axis] + (self.offset[axis] + index) as f64 * self.step[axis]
    }

    /// [`Grid::check`].
    pub fn check(&self) -> Result<usize, Error> {
        check(&self.origin, &self.step, &self.size, &|a, i| {
            self.coord(a, i)
        })
    }

    /// This grid as a [`Grid`] of `D` axes (`D == self.dims()`).
    pub(crate) fn typed<const D: usize>(&self) -> Grid<D> {
        Grid {
            origin: std::array::from_fn(|a| self.origin[a]),
            step: std::array::from_fn(|a| self.step[a]),
            size: std::array::from_fn(|a| self.size[a]),
            offset: std::array::from_fn(|a| self.offset[a]),
        }
    }
}

/// `Err(WindowOutOfBounds)` unless the block of `size` samples from
/// `offset` fits inside `parent` on every axis (slices of one length).
fn fits(offset: &[usize], size: &[usize], parent: &[usize]) -> Result<(), Error> {
    for (axis, ((&offset, &size), &parent)) in offset.iter().zip(size).zip(parent).enumerate() {
        if offset.checked_add(size).is_none_or(|end| end > parent) {
            return Err(Error::WindowOutOfBounds {
                axis,
                offset,
                size,
                parent,
            });
        }
    }
    Ok(())
}

/// `Err(InvalidParameter)` for the first slice whose length is not `dims`.
fn same_length<const N: usize>(dims: usize, lens: [(&'static str, usize); N]) -> Result<(), Error> {
    match lens.iter().find(|(_, len)| *len != dims) {
        Some(&(name, found)) => Err(Error::InvalidParameter {
            name,
            reason: format!("{found} values for a grid of {dims} axes; give one per axis"),
        }),
        None => Ok(()),
    }
}

impl<const D: usize> Grid<D> {
    /// `size[a]` samples along axis `a`, at `origin[a] + i * step[a]`.
    ///
    /// Nothing is checked here; a fill reports a non-finite origin or step,
    /// or a size whose sample count overflows `usize`, as an [`Error`]
    /// (see [`Grid::check`]).
    pub fn new(origin: [f64; D], step: [f64; D], size: [usize; D]) -> Grid<D> {
        Grid {
            origin,
            step,
            size,
            offset: [0; D],
        }
    }

    /// The sub-block of `size` samples starting at local sample `offset`.
    /// It keeps this grid's global sample positions.
    ///
    /// Err([`Error::WindowOutOfBounds`]) if the block does not fit inside this grid.
    pub fn window(&self, offset: [usize; D], size: [usize; D]) -> Result<Grid<D>, Error> {
        fits(&offset, &size, &self.size)?;
        let mut global = self.offset;
        for axis in 0..D {
            global[axis] += offset[axis];
        }
        Ok(Grid {
            offset: global,
            size,
            ..*self
        })
    }

    /// The origin: position of global sample 0 on every axis.
    pub fn origin(&self) -> [f64; D] {
        self.origin
    }

    /// The distance between neighbouring samples on each axis.
    pub fn step(&self) -> [f64; D] {
        self.step
    }

    /// Samples on each axis (of this window).
    pub fn size(&self) -> [usize; D] {
        self.size
    }

    /// Global index of this window's first sample on each axis (0 for a grid
    /// made by [`Grid::new`]).
    pub fn offset(&self) -> [usize; D] {
        self.offset
    }

    /// Position of local sample `index` on axis `axis`:
    /// `origin + (offset + index) as f64 * step`.
    pub fn coord(&self, axis: usize, index: usize) -> f64 {
        self.origin[axis] + (self.offset[axis] + index) as f64 * self.step[axis]
    }

    /// [`Grid::coord`] of every local sample on `axis`, through `i32` where
    /// the global indices fit (a conversion that vectorises and gives the
    /// same `f64`), in a job of `level` (four lanes at AVX2, where the
    /// baseline's two took 3.5 instructions a sample).
    pub(crate) fn coords(&self, axis: usize, level: crate::Level) -> Scratch<f64> {
        let (first, len) = (self.offset[axis], self.size[axis]);
        if i32::try_from(first.saturating_add(len)).is_err() {
            return (0..len).map(|i| self.coord(axis, i)).collect();
        }
        // (Reused, not zeroed: every value is written.)
        let mut out = Scratch::reused(len, 0.0);
        let job = IndexedCoords {
            first: first as i32,
            origin: self.origin[axis],
            step: self.step[axis],
            out: &mut out,
        };
        crate::simd::dispatch(level, job);
        out
    }

    /// The number of samples, after checking that the grid can be filled:
    /// finite origin and step, every sample position finite, and a sample
    /// count that fits in `usize`.
    pub fn check(&self) -> Result<usize, Error> {
        check(&self.origin, &self.step, &self.size, &|a, i| {
            self.coord(a, i)
        })
    }
}

/// [`Grid::check`] of the grid with these origins, steps and sizes, whose
/// local sample `i` on axis `a` is at `coord(a, i)`.
fn check(
    origin: &[f64],
    step: &[f64],
    size: &[usize],
    coord: &dyn Fn(usize, usize) -> f64,
) -> Result<usize, Error> {
    for (axis, name) in AXES.iter().copied().enumerate().take(size.len()) {
        for (what, v) in [("origin", origin[axis]), ("step", step[axis])] {
            if !v.is_finite() {
                return Err(Error::NonFiniteGrid {
                    what,
                    axis: name,
                    value: v,
                });
            }
        }
        if size[axis] > 0 {
            let last = coord(axis, size[axis] - 1);
            if !last.is_finite() {
                return Err(Error::NonFiniteGrid {
                    what: "last sample position",
                    axis: name,
                    value: last,
                });
            }
        }
    }
    if size.contains(&0) {
        return Ok(0);
    }
    size.iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .ok_or_else(|| Error::GridTooLarge {
            size: size.to_vec(),
        })
}

/// `origin + i · step` for the indices `first..` (which fit in `i32`), one
/// per value of `out`: [`Grid::coords`]'s loop, at the level's width.
struct IndexedCoords<'a> {
    first: i32,
    origin: f64,
    step: f64,
    out: &'a mut [f64],
}

impl Job for IndexedCoords<'_> {
    type Output = ();

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn run<S: Simd>(self, _: S) {
        let (origin, step) = (self.origin, self.step);
        let mut i = self.first;
        for out in self.out.iter_mut() {
            *out = origin + f64::from(i) * step;
            i = i.wrapping_add(1);
        }
    }
}
