//! Batch calls with their types erased: [`Work`] and [`GradWork`] in `D`
//! dimensions, [`Request`] and [`GradRequest`] in any (what `Field::run`
//! receives), and the casts between a generic dimension and a concrete one.

use crate::grid::{Grid, GridNd};

/// The points of a batch, in either precision (`D` slices of coordinates).
pub enum Points<'a, const D: usize> {
    F32([&'a [f32]; D]),
    F64([&'a [f64]; D]),
}

/// One batch call in `D` dimensions, with its types erased, so that a
/// field can run it through a copy of the kernels compiled for it once
/// ([`Field::run`](super::Field::run)).
pub enum Work<'a, const D: usize> {
    /// `out[i]` = the field at point `i`.
    Fill(Points<'a, D>, &'a mut [f32]),
    /// The field at every sample of the grid (on the rayon pool when `true`).
    Grid(&'a Grid<D>, &'a mut [f32], bool),
}

/// [`Work`] with derivatives: the values, then one output per axis.
pub enum GradWork<'a, const D: usize> {
    Fill(Points<'a, D>, &'a mut [f32], [&'a mut [f32]; D]),
    Grid(&'a Grid<D>, &'a mut [f32], [&'a mut [f32]; D], bool),
}

/// The points of a batch in any number of dimensions (one slice per axis).
pub enum PointsNd<'a> {
    F32(Vec<&'a [f32]>),
    F64(Vec<&'a [f64]>),
}

impl PointsNd<'_> {
    /// The number of axes.
    pub(crate) fn dims(&self) -> usize {
        match self {
            PointsNd::F32(c) => c.len(),
            PointsNd::F64(c) => c.len(),
        }
    }
}

/// A batch call with the dimension a value: how 5 dimensions and more
/// (and the run-time faces' calls) reach a field.
pub enum WorkNd<'a> {
    /// `out[i]` = the field at point `i`.
    Fill(PointsNd<'a>, &'a mut [f32]),
    /// The field at every sample of the grid (on the rayon pool when `true`).
    Grid(GridNd, &'a mut [f32], bool),
}

/// A [`Work`] in any dimension: what [`Field::run`](super::Field::run)
/// receives. 1 to 4 dimensions carry the dimension as a type (each has its
/// compiled kernels); 5 and more ([`WorkNd`]) as a value.
pub enum Request<'a> {
    D1(Work<'a, 1>),
    D2(Work<'a, 2>),
    D3(Work<'a, 3>),
    D4(Work<'a, 4>),
    Nd(WorkNd<'a>),
}

/// A [`GradWork`] in any dimension: what
/// [`GradField::run_grad`](super::GradField::run_grad) receives.
pub enum GradRequest<'a> {
    D1(GradWork<'a, 1>),
    D2(GradWork<'a, 2>),
    D3(GradWork<'a, 3>),
    D4(GradWork<'a, 4>),
    /// 5 dimensions and more.
    Nd(GradWorkNd<'a>),
}

/// [`WorkNd`] with derivatives: the values, then one output per axis.
pub enum GradWorkNd<'a> {
    Fill(PointsNd<'a>, &'a mut [f32], Vec<&'a mut [f32]>),
    Grid(GridNd, &'a mut [f32], Vec<&'a mut [f32]>, bool),
}

/// The dimensions the crate computes: `Dimension::<D>::COMPUTED` fails to
/// compile (when a generic method is instantiated) for any other `D`.
/// Within the range, a source that computes fewer refuses a call with
/// [`crate::Error::InvalidDimension`].
pub(crate) struct Dimension<const D: usize>;

impl<const D: usize> Dimension<D> {
    pub(crate) const COMPUTED: () = assert!(
        1 <= D && D <= crate::MAX_DIMENSIONS,
        "noisefield computes noise in 1 to 32 dimensions"
    );
}

/// `a` as an array of length `E`; called only where `D == E` (the caller
/// matched on `D`), so every element moves across and none is made up.
pub(crate) fn cast<T, const D: usize, const E: usize>(a: [T; D]) -> [T; E] {
    debug_assert_eq!(D, E);
    let mut it = a.into_iter();
    std::array::from_fn(|_| it.next().expect("D == E"))
}

/// `grid` as a grid of dimension `E` (`D == E`, as for [`cast`]).
fn cast_grid<const D: usize, const E: usize>(grid: &Grid<D>) -> &Grid<E> {
    (grid as &dyn std::any::Any).downcast_ref().expect("D == E")
}

impl<'a, const D: usize> Points<'a, D> {
    fn cast<const E: usize>(self) -> Points<'a, E> {
        match self {
            Points::F32(c) => Points::F32(cast(c)),
            Points::F64(c) => Points::F64(cast(c)),
        }
    }
}

impl<'a, const D: usize> Work<'a, D> {
    fn cast<const E: usize>(self) -> Work<'a, E> {
        match self {
            Work::Fill(p, out) => Work::Fill(p.cast(), out),
            Work::Grid(g, out, par) => Work::Grid(cast_grid(g), out, par),
        }
    }
}

impl<'a, const D: usize> GradWork<'a, D> {
    fn cast<const E: usize>(self) -> GradWork<'a, E> {
        match self {
            GradWork::Fill(p, out, g) => GradWork::Fill(p.cast(), out, cast(g)),
            GradWork::Grid(grid, out, g, par) => GradWork::Grid(cast_grid(grid), out, cast(g), par),
        }
    }
}

impl<'a, const D: usize> From<Work<'a, D>> for Request<'a> {
    /// `w`, its dimension a type up to 4, a value beyond ([`WorkNd`]).
    fn from(w: Work<'a, D>) -> Request<'a> {
        let () = Dimension::<D>::COMPUTED;
        match D {
            1 => Request::D1(w.cast()),
            2 => Request::D2(w.cast()),
            3 => Request::D3(w.cast()),
            4 => Request::D4(w.cast()),
            _ => Request::Nd(match w {
                Work::Fill(Points::F32(c), out) => WorkNd::Fill(PointsNd::F32(c.to_vec()), out),
                Work::Fill(Points::F64(c), out) => WorkNd::Fill(PointsNd::F64(c.to_vec()), out),
                Work::Grid(g, out, par) => WorkNd::Grid(GridNd::from(g), out, par),
            }),
        }
    }
}

impl<'a, const D: usize> From<GradWork<'a, D>> for GradRequest<'a> {
    fn from(w: GradWork<'a, D>) -> GradRequest<'a> {
        let () = Dimension::<D>::COMPUTED;
        match D {
            1 => GradRequest::D1(w.cast()),
            2 => GradRequest::D2(w.cast()),
            3 => GradRequest::D3(w.cast()),
            4 => GradRequest::D4(w.cast()),
            _ => GradRequest::Nd(match w {
                GradWork::Fill(Points::F32(c), out, g) => {
                    GradWorkNd::Fill(PointsNd::F32(c.to_vec()), out, g.into_iter().collect())
                }
                GradWork::Fill(Points::F64(c), out, g) => {
                    GradWorkNd::Fill(PointsNd::F64(c.to_vec()), out, g.into_iter().collect())
                }
                GradWork::Grid(grid, out, g, par) => {
                    GradWorkNd::Grid(GridNd::from(grid), out, g.into_iter().collect(), par)
                }
            }),
        }
    }
}
