//! `noisefield render`: a field (or a band of it) to png, png16, npy or raw.
//!
//! ```text
//! check every option and the output path; pick format (--format, else
//!   the extension, else png)
//! open the output: a temporary file beside the destination, or the stream
//! png/png16 without --range: one pass over the whole field for min and max
//! for each band of the selected rows: fill, encode, append
//! rename the temporary file to the destination (a stream: flush)
//! ```
//!
//! A 3D volume as PNG is its z slices stacked vertically (height ny·nz).

use crate::Failure;
use crate::args::RenderArgs;
use crate::field::{Field, Lattice};
use crate::output::{Encoding, Format, Output, Pixels, Target, encode};
use crate::palette::{Palette, Scale};
use crate::progress::Progress;

/// Runs `noisefield render`.
pub fn run(args: RenderArgs) -> Result<(), Failure> {
    let field = Field::from_args(&args.field)?;
    let target = match &args.output {
        Some(path) => Some(Target::check(path)?),
        None => None,
    };
    let format = match (args.format, &args.output) {
        (Some(format), Some(path)) => match Format::from_extension(path) {
            // A `.png` name holds either PNG format.
            Some(named)
                if named != format && !(named == Format::Png && format == Format::Png16) =>
            {
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
                    "cannot tell the format of {} from its name: give --format png, png16, npy or raw",
                    path.display()
                )));
            }
        },
    };
    let is_png = matches!(format, Format::Png | Format::Png16);
    if args.palette.is_some() && format != Format::Png {
        return Err(Failure::usage("--palette applies to --format png only"));
    }
    if args.range.is_some() && !is_png {
        return Err(Failure::usage(
            "--range applies to --format png and png16 only",
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

    // Arguments are checked; the output is opened before any work.
    let mut file = Output::open(&path, &target)?;
    let range_pass = if is_png && args.range.is_none() {
        field.rows_in(&(0..field.slabs()))
    } else {
        0
    };
    let progress = Progress::new("render", range_pass + rows as u64);
    let (lo, hi) = match (is_png, args.range) {
        (false, _) => (0.0, 0.0),
        (true, Some(range)) => range,
        (true, None) => field.min_max(&progress)?,
    };
    let palette = args.palette.unwrap_or(Palette::Terrain);
    let (lo, hi) = match format {
        Format::Png => palette.display_range(lo, hi),
        _ => (lo, hi),
    };
    let encoding = match format {
        Format::Png => {
            let pixels = Pixels::Colour(palette, Scale::new(lo, hi));
            Encoding::Png {
                width: nx,
                height: rows,
                pixels,
            }
        }
        Format::Png16 => {
            let pixels = Pixels::Height(Scale::new(lo, hi));
            Encoding::Png {
                width: nx,
                height: rows,
                pixels,
            }
        }
        Format::Npy => {
            let mut shape = field.size();
            *shape.last_mut().expect("2 or 3 axes") = slabs.len();
            shape.reverse();
            Encoding::Npy(shape)
        }
        Format::Raw => Encoding::Raw,
    };
    let shown = path.display().to_string();
    encode(&mut file, &encoding, |write| {
        field.for_each_band(slabs.clone(), &progress, |values| {
            write(values).map_err(|e| Failure::Io(format!("cannot write {shown}: {e}")))
        })
    })?;
    file.commit()?;
    drop(progress);

    let size: Vec<String> = field.size().iter().map(|n| n.to_string()).collect();
    let band = match (&args.rows, field.lattice) {
        (None, _) => String::new(),
        (Some(r), Lattice::D2(_)) => format!(", rows {}..{}", r.start, r.end),
        (Some(r), Lattice::D3(_)) => format!(", slices {}..{}", r.start, r.end),
    };
    let values = match &encoding {
        // The range the picture stores (a constant field's is widened).
        Encoding::Png {
            pixels: Pixels::Colour(_, scale) | Pixels::Height(scale),
            ..
        } => {
            let (lo, hi) = scale.range();
            format!(", values {lo}..{hi} shown")
        }
        _ => String::new(),
    };
    crate::print_summary(
        &format!(
            "wrote {shown}: {} {}{band}{values}\n",
            size.join("×"),
            format.name()
        ),
        target.is_stdout(),
    )
}
