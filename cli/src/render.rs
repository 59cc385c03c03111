//! `noisefield render`: a field (or a band of it) to png, png16, npy, raw,
//! r16, exr, tiff, tiff16 or a normal map.
//!
//! ```text
//! check every option and the output path; pick format (--format, else
//!   the extension, else png); refuse combinations a format cannot hold
//!   (a volume as r16 or a normal map, a normal map of a source without
//!   derivatives)
//! open the output: a temporary file beside the destination, or the stream
//!   (spooled through an unnamed temporary file for exr and tiff, which seek)
//! the range of png/png16/r16/tiff16: --range, else with --tile the
//!   source's fixed bounds, else one pass over the whole field for min and max
//! for each part (a volume's slice in exr/tiff, else all), each band of
//!   the selected rows: fill (with derivatives for a normal map), encode, append
//! rename the temporary file to the destination (a stream: flush)
//! ```
//!
//! A 3D volume as PNG is its z slices stacked vertically (height ny·nz).

use crate::Failure;
use crate::args::RenderArgs;
use crate::field::{SampleGrid, SampledField};
use crate::output::{Encoding, Format, Layout, Output, Pixels, Target, encode};
use crate::palette::{Palette, Scale};
use crate::progress::Progress;
use crate::source::NO_DERIVATIVES;

/// The most slices an EXR volume may have (one part, with its header, each):
/// the headers and offset tables stay in memory while the file is written.
/// Larger volumes: `--rows` bands of slices, or npy or raw.
pub const EXR_MAX_PARTS: usize = 4096;

/// Runs `noisefield render`.
pub fn run(args: RenderArgs) -> Result<(), Failure> {
    let field = SampledField::from_args(&args.field)?;
    let target = match &args.output {
        Some(path) => Some(Target::check(path)?),
        None => None,
    };
    let format = match (args.format, &args.output) {
        (Some(format), Some(path)) => match Format::from_extension(path) {
            // A `.png` name holds either PNG format, a `.raw` r16, ….
            Some(named) if !named.admits(format) => {
                return Err(Failure::usage(format!(
                    "--format {} does not match the name {}, which asks for {}: \
                     change the extension or the format",
                    format.name(),
                    path.display(),
                    named.name()
                )));
            }
            _ => format,
        },
        (Some(format), None) => format,
        (None, None) => Format::Png,
        (None, Some(path)) => match Format::from_extension(path) {
            Some(format) => format,
            // Standard output, a device or a FIFO: png unless told.
            None if target.as_ref().is_some_and(Target::is_stream) => Format::Png,
            None => {
                return Err(Failure::usage(format!(
                    "cannot tell the format of {} from its name: give --format png, png16, \
                     npy, raw, r16, exr, tiff, tiff16 or normal",
                    path.display()
                )));
            }
        },
    };
    let volume = matches!(field.grid, SampleGrid::D3(_));
    if volume && matches!(format, Format::R16 | Format::Normal) {
        return Err(Failure::usage(format!(
            "--format {} writes a 2D map, and --size {} is a 3D volume: give WxH, \
             or write the volume as exr, tiff, npy or raw",
            format.name(),
            field
                .size()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join("x")
        )));
    }
    if format == Format::Normal && !field.source.is_differentiable() {
        return Err(Failure::usage(NO_DERIVATIVES));
    }
    if args.normal_strength.is_some() && format != Format::Normal {
        return Err(Failure::usage(
            "--normal-strength applies to --format normal only",
        ));
    }
    if args.normal_flip_y && format != Format::Normal {
        return Err(Failure::usage(
            "--normal-flip-y applies to --format normal only",
        ));
    }
    let is_png = matches!(format, Format::Png | Format::Png16 | Format::Normal);
    let scaled = matches!(
        format,
        Format::Png | Format::Png16 | Format::R16 | Format::Tiff16
    );
    if args.palette.is_some() && format != Format::Png {
        return Err(Failure::usage("--palette applies to --format png only"));
    }
    if args.range.is_some() && !scaled {
        return Err(Failure::usage(
            "--range applies to --format png, png16, r16 and tiff16 only \
             (the other formats store the values themselves)",
        ));
    }
    let slabs = args.rows.clone().unwrap_or(0..field.slabs());
    field.check_slabs(&slabs)?;
    let path = args.output.clone().unwrap_or_else(|| format.default_path());
    let target = match target {
        Some(target) => target,
        None => Target::check(&path)?,
    };
    let (nx, rows) = (field.row_len(), field.rows_in(&slabs) as usize);
    if is_png && (nx >= 1 << 31 || rows >= 1 << 31) {
        return Err(Failure::usage(format!(
            "a PNG of {nx}×{rows} pixels is larger than PNG allows (2^31 - 1 per side); \
             use --format npy or raw, or --rows for a band"
        )));
    }

    if format == Format::Exr && volume && slabs.len() > EXR_MAX_PARTS {
        return Err(Failure::usage(format!(
            "an EXR volume is one part per slice, at most {EXR_MAX_PARTS}; this one has {}: \
             write --rows bands of slices, or npy or raw",
            slabs.len()
        )));
    }

    // Arguments are checked; the output is opened before any work.
    let mut file = Output::open_for(&path, &target, format.seeks())?;
    let tiled = args.field.tile.is_some();
    let range_pass = if scaled && args.range.is_none() && !tiled {
        field.rows_in(&(0..field.slabs()))
    } else {
        0
    };
    let progress = Progress::new("render", range_pass + rows as u64);
    let (lo, hi) = match (scaled, args.range) {
        (false, _) => (0.0, 0.0),
        (true, Some(range)) => range,
        // Every tile of a world the same range, so heights join.
        (true, None) if tiled => field.bounds(),
        (true, None) => field.min_max(&progress)?,
    };
    let palette = args.palette.unwrap_or(Palette::Terrain);
    let (lo, hi) = match format {
        Format::Png => palette.display_range(lo, hi),
        _ => (lo, hi),
    };
    let layout = || {
        let size = field.size();
        match field.grid {
            SampleGrid::D2(_) => Layout {
                width: nx,
                height: rows,
                slices: None,
            },
            SampleGrid::D3(_) => Layout {
                width: nx,
                height: size[1],
                slices: Some(slabs.clone()),
            },
        }
    };
    let png = |pixels| Encoding::Png {
        width: nx,
        height: rows,
        pixels,
    };
    let scale = Scale::new(lo, hi);
    let encoding = match format {
        Format::Png => png(Pixels::Colour(palette, scale)),
        Format::Png16 => png(Pixels::Height(scale)),
        Format::Normal => png(Pixels::Normal(
            args.normal_strength.unwrap_or(1.0),
            args.normal_flip_y,
        )),
        Format::Npy => {
            let mut shape = field.size();
            *shape.last_mut().expect("2 or 3 axes") = slabs.len();
            shape.reverse();
            Encoding::Npy(shape)
        }
        Format::Raw => Encoding::Raw,
        Format::R16 => Encoding::R16(scale),
        Format::Exr => Encoding::Exr(layout()),
        Format::Tiff => Encoding::Tiff(layout(), None),
        Format::Tiff16 => Encoding::Tiff(layout(), Some(scale)),
    };
    let shown = path.display().to_string();
    let gradient = format == Format::Normal;
    encode(&mut file, &encoding, slabs.clone(), |part, write| {
        field.for_each_band_with(part, &progress, gradient, |band| {
            write(band).map_err(|e| Failure::Io(format!("cannot write {shown}: {e}")))
        })
    })?;
    file.commit()?;
    drop(progress);

    let size: Vec<String> = field.size().iter().map(|n| n.to_string()).collect();
    let band = match (&args.rows, field.grid) {
        (None, _) => String::new(),
        (Some(r), SampleGrid::D2(_)) => format!(", rows {}..{}", r.start, r.end),
        (Some(r), SampleGrid::D3(_)) => format!(", slices {}..{}", r.start, r.end),
    };
    let tile = match &args.field.tile {
        Some(t) => format!(
            ", tile {}",
            t.0.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        None => String::new(),
    };
    let values = if scaled {
        // The range the file stores (a constant field's is widened).
        let (lo, hi) = scale.range();
        format!(", values {lo}..{hi} shown")
    } else {
        String::new()
    };
    crate::print_summary(
        &format!(
            "wrote {shown}: {} {}{tile}{band}{values}\n",
            size.join("×"),
            format.name()
        ),
        target.is_stdout(),
    )
}
