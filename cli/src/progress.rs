//! A progress bar on stderr, drawn only when stderr is a terminal (pipes,
//! logs and tests see nothing), and cleared when the work is done.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Progress through `total` units of work (rows, frames, runs).
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar labelled `what`, hidden unless stderr is a terminal.
    pub fn new(what: &str, total: u64) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress {
                bar: ProgressBar::hidden(),
            };
        }
        let style = ProgressStyle::with_template("{prefix} [{bar:40}] {percent:>3}% eta {eta}")
            .expect("the template is valid")
            .progress_chars("=> ");
        let bar = ProgressBar::new(total)
            .with_style(style)
            .with_prefix(what.to_string());
        Progress { bar }
    }

    /// `units` more units are done.
    pub fn advance(&self, units: u64) {
        self.bar.inc(units);
    }

    /// Prints `line` to stdout, above the bar.
    pub fn print_line(&self, line: &str) -> Result<(), crate::Failure> {
        self.bar.suspend(|| crate::print_out(&format!("{line}\n")))
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
