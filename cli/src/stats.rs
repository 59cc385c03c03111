//! `noisefield stats`: min, max, mean, standard deviation and a histogram of
//! a field, computed band by band (two passes, bounded memory).
//!
//! ```text
//! pass 1: per band, mean and squared deviations in f64; merged into the
//!         running totals (Chan, Golub and LeVeque's pairwise update)
//! pass 2: histogram of `bins` equal bins from min to max:
//!         bin = floor(bins · (v - min) / (max - min)), the max in the last
//! print; draw the histogram to --plot
//! ```

use crate::Failure;
use crate::args::StatsArgs;
use crate::field::SampledField;
use crate::output::{Output, Target, check_distinct, check_name};
use crate::progress::Progress;
use std::io::Write;
use std::path::PathBuf;

/// Width of the histogram's text bars, in characters.
const BAR_WIDTH: usize = 50;

/// Size of the `--plot` picture, in pixels.
const PLOT_SIZE: [usize; 2] = [640, 360];

/// Count, extremes, mean and sum of squared deviations of the values seen.
#[derive(Debug, Clone, Copy)]
struct Moments {
    n: u64,
    min: f32,
    max: f32,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn new() -> Moments {
        Moments {
            n: 0,
            min: f32::INFINITY,
            max: f32::NEG_INFINITY,
            mean: 0.0,
            m2: 0.0,
        }
    }

    /// Adds a band: its own mean and squared deviations, then merged.
    fn add(&mut self, values: &[f32]) {
        let nb = values.len() as f64;
        let band_mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / nb;
        let band_m2: f64 = values
            .iter()
            .map(|&v| (f64::from(v) - band_mean).powi(2))
            .sum();
        for &v in values {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        let n = self.n as f64;
        let total = n + nb;
        let delta = band_mean - self.mean;
        self.mean += delta * nb / total;
        self.m2 += band_m2 + delta * delta * n * nb / total;
        self.n += values.len() as u64;
    }

    /// The population standard deviation.
    fn std_dev(&self) -> f64 {
        (self.m2 / self.n as f64).sqrt()
    }
}

/// Equal bins from `min` to `max`.
struct Histogram {
    min: f64,
    width: f64,
    counts: Vec<u64>,
}

impl Histogram {
    fn new(min: f32, max: f32, bins: usize) -> Histogram {
        let (min, max) = (f64::from(min), f64::from(max));
        Histogram {
            min,
            width: (max - min) / bins as f64,
            counts: vec![0; bins],
        }
    }

    fn add(&mut self, values: &[f32]) {
        let last = self.counts.len() - 1;
        for &v in values {
            let bin = if self.width > 0.0 {
                ((f64::from(v) - self.min) / self.width) as usize
            } else {
                0
            };
            self.counts[bin.min(last)] += 1;
        }
    }
}

/// Runs `noisefield stats`.
pub fn run(args: StatsArgs) -> Result<(), Failure> {
    let field = SampledField::from_args(&args.field)?;
    // The files are checked and opened before any work.
    if crate::stdout_closed() {
        return Err(Failure::Io(
            "cannot write the report: standard output is closed".into(),
        ));
    }
    let check = |path: &Option<PathBuf>, option: &str| -> Result<Option<Target>, Failure> {
        let Some(path) = path else { return Ok(None) };
        let target = Target::check(path)?;
        if target.is_stdout() {
            return Err(Failure::usage(format!(
                "{option} - : standard output carries the report; give a file name"
            )));
        }
        Ok(Some(target))
    };
    let plot_target = check(&args.plot, "--plot")?;
    let csv_target = check(&args.csv, "--csv")?;
    if let (Some(p), Some(c), Some(plot), Some(csv)) =
        (&args.plot, &args.csv, &plot_target, &csv_target)
    {
        check_distinct(&[("--plot", p, plot), ("--csv", c, csv)])?;
    }
    if let (Some(path), Some(target)) = (&args.plot, &plot_target) {
        check_name(path, target, "--plot", "a PNG picture", &["png"])?;
    }
    if let (Some(path), Some(target)) = (&args.csv, &csv_target) {
        check_name(path, target, "--csv", "CSV text", &["csv", "txt"])?;
    }
    let open = |path: &Option<PathBuf>, target: Option<Target>| match (path, target) {
        (Some(path), Some(target)) => Output::open(path, &target).map(Some),
        _ => Ok(None),
    };
    let plot_file = open(&args.plot, plot_target)?;
    let csv_file = open(&args.csv, csv_target)?;
    let all = 0..field.slabs();
    let progress = Progress::new("stats", 2 * field.rows_in(&all));
    let mut moments = Moments::new();
    field.for_each_band(all.clone(), &progress, |values| {
        moments.add(values);
        Ok(())
    })?;
    let mut histogram = Histogram::new(moments.min, moments.max, args.bins as usize);
    field.for_each_band(all, &progress, |values| {
        histogram.add(values);
        Ok(())
    })?;
    drop(progress);

    let size: Vec<String> = field.size().iter().map(|n| n.to_string()).collect();
    let mut report = format!(
        "size      {}\nsamples   {}\nmin       {}\nmax       {}\nmean      {}\nstd dev   {}\n\
         histogram ({} bins, from min to max):\n",
        size.join("×"),
        moments.n,
        moments.min,
        moments.max,
        moments.mean,
        moments.std_dev(),
        histogram.counts.len()
    );
    let most = histogram.counts.iter().copied().max().unwrap_or(0).max(1);
    for (i, &count) in histogram.counts.iter().enumerate() {
        let lo = histogram.min + i as f64 * histogram.width;
        let bar = "#".repeat((count as usize * BAR_WIDTH).div_ceil(most as usize));
        report += &format!(
            "  {lo:>10.4} .. {:<10.4} {count:>12} {bar}\n",
            lo + histogram.width
        );
    }
    crate::print_out(&report)?;
    if let Some(file) = plot_file {
        let shown = file.path().display().to_string();
        plot(file, &histogram, &moments)?;
        crate::print_out(&format!("wrote {shown}\n"))?;
    }
    if let Some(file) = csv_file {
        let shown = file.path().display().to_string();
        csv(file, &histogram)?;
        crate::print_out(&format!("wrote {shown}\n"))?;
    }
    Ok(())
}

/// Writes the histogram as CSV: `lo,hi,count` per bin, edges in full
/// precision.
fn csv(mut file: Output, histogram: &Histogram) -> Result<(), Failure> {
    let mut text = String::from("lo,hi,count\n");
    for (i, &count) in histogram.counts.iter().enumerate() {
        let lo = histogram.min + i as f64 * histogram.width;
        text += &format!("{lo},{},{count}\n", lo + histogram.width);
    }
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| file.failure(e))?;
    file.commit()
}

/// A 3×5 pixel font for the plot's numbers: each row's 3 bits, left first.
const GLYPHS: [(char, [u8; 5]); 14] = [
    ('0', [7, 5, 5, 5, 7]),
    ('1', [2, 6, 2, 2, 7]),
    ('2', [7, 1, 7, 4, 7]),
    ('3', [7, 1, 7, 1, 7]),
    ('4', [5, 5, 7, 1, 1]),
    ('5', [7, 4, 7, 1, 7]),
    ('6', [7, 4, 7, 5, 7]),
    ('7', [7, 1, 1, 1, 1]),
    ('8', [7, 5, 7, 5, 7]),
    ('9', [7, 5, 7, 1, 7]),
    ('.', [0, 0, 0, 0, 2]),
    ('-', [0, 0, 7, 0, 0]),
    ('e', [0, 7, 7, 4, 7]),
    ('+', [0, 2, 7, 2, 0]),
];

/// Pixels per font pixel.
const FONT_SCALE: usize = 2;

/// The width of `text` drawn in the plot's font, in pixels.
fn text_width(text: &str) -> usize {
    text.chars().count() * 4 * FONT_SCALE
}

/// Draws `s` in black with its top left corner at `(x, y)`.
fn draw_text(paint: &mut impl FnMut(usize, usize, [u8; 3]), x: usize, y: usize, s: &str) {
    for (i, ch) in s.chars().enumerate() {
        let Some((_, rows)) = GLYPHS.iter().find(|(c, _)| *c == ch) else {
            continue;
        };
        for (r, bits) in rows.iter().enumerate() {
            for b in 0..3 {
                if bits >> (2 - b) & 1 == 1 {
                    for dy in 0..FONT_SCALE {
                        for dx in 0..FONT_SCALE {
                            let px = x + (i * 4 + b) * FONT_SCALE + dx;
                            paint(px, y + r * FONT_SCALE + dy, [0, 0, 0]);
                        }
                    }
                }
            }
        }
    }
}

/// A tick label: short, and the same for the same value.
fn label(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e5 || v.abs() < 1e-3) {
        format!("{v:.2e}")
    } else {
        let s = format!("{v:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" { "0".into() } else { s.into() }
    }
}

/// Draws the histogram as bars on white with labelled axes: values along
/// the bottom (min, quarters, max), counts at the left (0, half, most),
/// the mean as a red line; to a PNG.
fn plot(mut file: Output, histogram: &Histogram, moments: &Moments) -> Result<(), Failure> {
    const TOP: usize = 20;
    const RIGHT: usize = 30;
    const LEFT: usize = 90;
    const BOTTOM: usize = 40;
    const TICK: usize = 5;
    let [width, height] = PLOT_SIZE;
    let (plot_w, plot_h) = (width - LEFT - RIGHT, height - TOP - BOTTOM);
    let bins = histogram.counts.len();
    let most_count = histogram.counts.iter().copied().max().unwrap_or(0);
    let most = most_count.max(1) as f64;
    let mut rgb = vec![255u8; width * height * 3];
    let mut paint = |x: usize, y: usize, c: [u8; 3]| {
        if x < width && y < height {
            rgb[(y * width + x) * 3..][..3].copy_from_slice(&c);
        }
    };
    for col in 0..plot_w {
        let bin = col * bins / plot_w;
        let first_col_of_next = ((bin + 1) * plot_w).div_ceil(bins);
        // One white column between bars when they are 4 or more pixels wide.
        let gap = plot_w / bins >= 4 && col + 1 == first_col_of_next;
        let bar = (histogram.counts[bin] as f64 / most * plot_h as f64).round() as usize;
        for row in 0..bar {
            if !gap {
                paint(LEFT + col, TOP + plot_h - 1 - row, [70, 110, 170]);
            }
        }
    }
    let black = [0, 0, 0];
    // Axes.
    for col in 0..plot_w {
        paint(LEFT + col, TOP + plot_h, black);
    }
    for row in 0..=plot_h {
        paint(LEFT - 1, TOP + row, black);
    }
    // Value ticks along the bottom: min, the quarters, max.
    let span = histogram.width * bins as f64;
    for q in 0..=4 {
        let x = LEFT + (q * (plot_w - 1)) / 4;
        for t in 0..TICK {
            paint(x, TOP + plot_h + 1 + t, black);
        }
        let s = label(histogram.min + span * q as f64 / 4.0);
        let w = text_width(&s);
        let left = x.saturating_sub(w / 2).min(width - w);
        draw_text(&mut paint, left, TOP + plot_h + TICK + 6, &s);
    }
    // Count ticks at the left: 0, half the tallest bar, the tallest.
    for (count, frac) in [(0, 0.0), (most_count / 2, 0.5), (most_count, 1.0)] {
        let frac = if frac == 0.5 {
            count as f64 / most
        } else {
            frac
        };
        let y = TOP + plot_h - (frac * plot_h as f64).round() as usize;
        for t in 0..TICK {
            paint(LEFT - 2 - t, y, black);
        }
        let s = count.to_string();
        let w = text_width(&s);
        draw_text(
            &mut paint,
            LEFT - TICK - 6 - w,
            y.saturating_sub(5 * FONT_SCALE / 2),
            &s,
        );
    }
    let span = f64::from(moments.max) - f64::from(moments.min);
    if span > 0.0 {
        let x = ((moments.mean - f64::from(moments.min)) / span * plot_w as f64) as usize;
        for row in 0..plot_h {
            paint(LEFT + x.min(plot_w - 1), TOP + row, [200, 30, 30]);
        }
    }
    let mut encoder = png::Encoder::new(&mut file, width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let result = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&rgb).and_then(|()| w.finish()));
    result.map_err(|e| file.failure(e))?;
    file.flush().map_err(|e| file.failure(e))?;
    file.commit()
}
