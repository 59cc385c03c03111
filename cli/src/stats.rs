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
use crate::field::Field;
use crate::output::AtomicFile;
use crate::progress::Progress;
use crate::source::SourceKind;
use std::io::Write;
use std::path::Path;

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
    let field = Field::from_args(&args.field, SourceKind::Fbm)?;
    let all = 0..field.slabs();
    let progress = Progress::new("stats", 2 * field.rows_in(&all));
    let mut moments = Moments::new();
    field.for_each_band(all.clone(), &progress, |_, values| {
        moments.add(values);
        Ok(())
    })?;
    let mut histogram = Histogram::new(moments.min, moments.max, args.bins as usize);
    field.for_each_band(all, &progress, |_, values| {
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
    if let Some(path) = &args.plot {
        plot(path, &histogram, &moments)?;
        crate::print_out(&format!("wrote {}\n", path.display()))?;
    }
    Ok(())
}

/// Draws the histogram as bars on white, the mean in red, to a PNG.
fn plot(path: &Path, histogram: &Histogram, moments: &Moments) -> Result<(), Failure> {
    const MARGIN: usize = 20;
    let [width, height] = PLOT_SIZE;
    let (plot_w, plot_h) = (width - 2 * MARGIN, height - 2 * MARGIN);
    let bins = histogram.counts.len();
    let most = histogram.counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let mut rgb = vec![255u8; width * height * 3];
    let mut paint = |x: usize, y: usize, c: [u8; 3]| {
        rgb[(y * width + x) * 3..][..3].copy_from_slice(&c);
    };
    for col in 0..plot_w {
        let bin = col * bins / plot_w;
        let first_col_of_next = ((bin + 1) * plot_w).div_ceil(bins);
        // One white column between bars when they are 4 or more pixels wide.
        let gap = plot_w / bins >= 4 && col + 1 == first_col_of_next;
        let bar = (histogram.counts[bin] as f64 / most * plot_h as f64).round() as usize;
        for row in 0..bar {
            if !gap {
                paint(MARGIN + col, MARGIN + plot_h - 1 - row, [70, 110, 170]);
            }
        }
    }
    for col in 0..plot_w {
        paint(MARGIN + col, MARGIN + plot_h, [0, 0, 0]); // baseline
    }
    let span = f64::from(moments.max) - f64::from(moments.min);
    if span > 0.0 {
        let x = ((moments.mean - f64::from(moments.min)) / span * plot_w as f64) as usize;
        for row in 0..plot_h {
            paint(MARGIN + x.min(plot_w - 1), MARGIN + row, [200, 30, 30]);
        }
    }
    let mut file = AtomicFile::create(path)?;
    let mut encoder = png::Encoder::new(&mut file, width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let result = encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&rgb).and_then(|()| w.finish()));
    result.map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    file.flush().map_err(|e| file.failure(e))?;
    file.commit()
}
