//! `noisefield animate`: frames of 3D noise along z (time) as an animated GIF.
//!
//! The frames are z slices of one 3D grid `[w, h, frames]` with z step
//! `--time-step`. With `--loop` the source is periodic along z with a
//! period of `P = round(frames · time step)` cells (at least 1), and the time
//! step becomes `P / frames`: frame `frames` would be frame 0 again, so the
//! GIF loops without a jump. An `--origin` of more than 3 coordinates makes
//! the noise N-dimensional: `--axes A,B,T` names the noise axes of the
//! frame's x and y and of time (the render's slice, `field::Embedded`), and
//! `--loop` makes axis `T` periodic. Every frame uses one global 256-colour palette
//! (the palette at `t = i / 255`), so colours do not flicker between frames.
//!
//! Frames are computed and compressed band by band ([`GifStream`]): memory
//! stays a band's, whatever the frame size.

use crate::Failure;
use crate::args::{AnimateArgs, Axes};
use crate::field::{Embedded, SampleGrid, SampledField};
use crate::gif_stream::GifStream;
use crate::output::Output;
use crate::palette::{Palette, Scale};
use crate::progress::Progress;
use crate::source;
use noisefield::{Grid3, MAX_LATTICE_DIMENSIONS};

/// Lattice cells per pixel unless `--frequency` is given: 1/64, so a
/// 256-pixel frame spans 4 cells.
const DEFAULT_FREQUENCY: f64 = 1.0 / 64.0;

/// The largest GIF side, in pixels.
const MAX_SIDE: usize = u16::MAX as usize;

/// Runs `noisefield animate`.
pub fn run(args: AnimateArgs) -> Result<(), Failure> {
    let &[w, h] = args.size.0.as_slice() else {
        return Err(Failure::usage(
            "animate --size takes WxH, the frame size (--frames gives the third axis)",
        ));
    };
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(Failure::usage(format!(
            "a GIF frame is at most {MAX_SIDE}×{MAX_SIDE} pixels, not {w}×{h}"
        )));
    }
    let frames = args.frames as usize;
    let full = args.origin.clone().map_or(vec![0.0; 3], |c| c.0);
    if full.len() < 3 {
        return Err(Failure::usage(
            "animate --origin takes X,Y,Z (or more coordinates, for noise of more dimensions)",
        ));
    }
    let axes = match &args.axes {
        None => vec![0, 1, 2],
        Some(_) if full.len() == 3 => {
            return Err(Failure::usage(
                "--axes picks the axes of a noise of more than 3 dimensions: give --origin \
                 with one coordinate per noise axis",
            ));
        }
        Some(Axes(axes)) if axes.len() != 3 => {
            return Err(Failure::usage(format!(
                "animate --axes takes A,B,T (the frame's x and y, then time), not {} axes",
                axes.len()
            )));
        }
        Some(Axes(axes)) => axes.clone(),
    };
    if let Some(&a) = axes.iter().find(|&&a| a >= full.len()) {
        return Err(Failure::usage(format!(
            "--axes names axis {a} but --origin has {} coordinates (axes 0 to {})",
            full.len(),
            full.len() - 1
        )));
    }
    let time_axis = axes[2];
    if args.looped && time_axis >= MAX_LATTICE_DIMENSIONS {
        return Err(Failure::usage(format!(
            "--loop on axis {time_axis}: periodic noise has at most {MAX_LATTICE_DIMENSIONS} \
             axes (0 to {})",
            MAX_LATTICE_DIMENSIONS - 1
        )));
    }
    let [x0, y0, z0] = [0, 1, 2].map(|k| full[axes[k]]);
    let (time_step, period) = match args.looped {
        false => (args.time_step, None),
        true => {
            let cells = (frames as f64 * args.time_step)
                .round()
                .clamp(1.0, f64::from(u32::MAX - 1));
            let cells = cells as u32;
            (
                f64::from(cells) / frames as f64,
                Some(std::array::from_fn(|a| {
                    if a == time_axis { cells } else { u32::MAX }
                })),
            )
        }
    };
    let mut source = source::build(&args.source, period)?;
    if full.len() > 3 {
        source = Embedded::source(source, full, axes)?;
    }
    let target = crate::output::Target::check(&args.output)?;
    crate::output::check_name(&args.output, &target, "animate", "a GIF", &["gif"])?;
    let f = args.frequency.unwrap_or(DEFAULT_FREQUENCY);
    let grid = Grid3::new([x0, y0, z0], [f, f, time_step], [w, h, frames]);
    let field = SampledField::new(source, SampleGrid::D3(grid))?;
    let palette = args.palette.unwrap_or(Palette::Clouds);

    // Arguments are checked; the output is opened before any work.
    let mut file = Output::open(&args.output, &target)?;
    let all = 0..frames;
    let range_pass = if args.range.is_none() {
        field.rows_in(&all)
    } else {
        0
    };
    let progress = Progress::new("animate", range_pass + field.rows_in(&all));
    let (lo, hi) = match args.range {
        Some(range) => range,
        None => field.min_max(&progress)?,
    };
    let (lo, hi) = palette.display_range(lo, hi);
    let scale = Scale::new(lo, hi);
    let shown = args.output.display().to_string();
    let failed = |e: std::io::Error| Failure::Io(format!("cannot write {shown}: {e}"));
    let delay = (100.0 / f64::from(args.fps)).round() as u16;
    let mut gif =
        GifStream::new(&mut file, w as u16, h as u16, &palette.table(), delay).map_err(failed)?;
    let mut indices = Vec::new();
    field.for_each_band(all, &progress, |values| {
        indices.clear();
        indices.extend(values.iter().map(|&v| scale.byte(v)));
        gif.pixels(&indices).map_err(failed)
    })?;
    gif.finish().map_err(failed)?;
    file.commit()?;
    drop(progress);
    let looped = match period {
        Some(period) if time_axis == 2 => format!(", loops every {} cells of z", period[2]),
        Some(period) => format!(
            ", loops every {} cells of axis {time_axis}",
            period[time_axis]
        ),
        None => String::new(),
    };
    let (lo, hi) = scale.range();
    crate::print_summary(
        &format!("wrote {shown}: {frames} frames of {w}×{h}{looped}, values {lo}..{hi} shown\n"),
        target.is_stdout(),
    )
}
