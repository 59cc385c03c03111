//! `noisefield animate`: frames of 3D noise along z (time) as an animated GIF.
//!
//! The frames are z slices of one 3D grid `[w, h, frames]` with z step
//! `--time-step`. With `--loop` the source is periodic along z with a
//! period of `P = round(frames · time step)` cells (at least 1), and the time
//! step becomes `P / frames`: frame `frames` would be frame 0 again, so the
//! GIF loops without a jump. Every frame uses one global 256-colour palette
//! (the palette at `t = i / 255`), so colours do not flicker between frames.
//!
//! Frames are computed and compressed band by band ([`GifStream`]): memory
//! stays a band's, whatever the frame size.

use crate::Failure;
use crate::args::AnimateArgs;
use crate::field::{SampleGrid, SampledField};
use crate::gif_stream::GifStream;
use crate::output::Output;
use crate::palette::{Palette, Scale};
use crate::progress::Progress;
use crate::source;
use noisefield::Grid3;

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
    let origin = args.origin.clone().map_or(vec![0.0; 3], |c| c.0);
    let &[x0, y0, z0] = origin.as_slice() else {
        return Err(Failure::usage("animate --origin takes X,Y,Z"));
    };
    let (time_step, period) = match args.looped {
        false => (args.time_step, None),
        true => {
            let cells = (frames as f64 * args.time_step)
                .round()
                .clamp(1.0, f64::from(u32::MAX - 1));
            let cells = cells as u32;
            (
                f64::from(cells) / frames as f64,
                Some([u32::MAX, u32::MAX, cells, u32::MAX]),
            )
        }
    };
    let source = source::build(&args.source, period)?;
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
        Some([_, _, cells, _]) => format!(", loops every {cells} cells of z"),
        None => String::new(),
    };
    let (lo, hi) = scale.range();
    crate::print_summary(
        &format!("wrote {shown}: {frames} frames of {w}×{h}{looped}, values {lo}..{hi} shown\n"),
        target.is_stdout(),
    )
}
