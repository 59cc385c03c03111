//! `noisefield`: render noise fields to pictures and data from the command line.
//!
//! ```text
//! noisefield render                 noise.png, a 1024×1024 fBm terrain map
//! noisefield render --format npy    the same field as float32 for numpy.load
//! noisefield render -o h.exr         float heights for Godot, Blender (also r16, tiff)
//! noisefield render --format normal  a normal map from the analytic derivatives
//! noisefield render --tile 3,1       tile (3, 1) of an endless world; tiles join
//! noisefield animate --loop         noise.gif, a seamlessly looping animation
//! noisefield stats                  min, max, mean, std dev, histogram
//! noisefield bench                  Mpoints/s per SIMD level
//! ```
//!
//! Layout: `args` (the command line, parsed and checked), `source` (every
//! `--source`, built in one place), `field` (a grid of samples computed band
//! by band with bounded memory), `palette` (values to colours), `output`
//! (atomic files and the png, npy, raw, r16, exr and tiff encoders), one module per subcommand,
//! and `progress` (the bar on stderr).
//!
//! Exit codes: 0 success, 1 the output could not be written, 2 bad arguments
//! (checked before any file is created, so nothing is written).
//!
//! A library as well as the binary, so that the fuzz target
//! (`fuzz/fuzz_targets/cli.rs`) runs the command line in-process: [`run`].

mod animate;
pub mod args;
mod bench;
mod field;
mod gif_stream;
pub mod interrupt;
pub mod output;
mod palette;
mod progress;
mod render;
mod source;
mod stats;

use args::{Cli, Command};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Why a command failed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments, found before anything was written: exit code 2.
    Usage(String),
    /// Reading or writing files failed: exit code 1. A partly written
    /// output is removed, and an existing file of that name is untouched.
    Io(String),
}

impl Failure {
    /// A [`Failure::Usage`] from anything printable.
    pub fn usage(message: impl fmt::Display) -> Failure {
        Failure::Usage(message.to_string())
    }

    /// The exit code: 2 for usage errors, 1 for I/O failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Io(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(message) | Failure::Io(message) => f.write_str(message),
        }
    }
}

/// The library's errors arise while the field is set up from the arguments
/// (an unsupported `--level`, a bad period or fractal parameter): usage errors.
impl From<noisefield::Error> for Failure {
    fn from(e: noisefield::Error) -> Failure {
        Failure::usage(e)
    }
}

/// Whether standard output was closed when the process started, as
/// [`record_stdout_at_start`] found it.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Records whether standard output is closed now (`>&-`): on Linux, whether
/// `/proc/self/fd/1` is missing while `/proc/self/fd` is there. The
/// binary calls it before `main`, from `.init_array`, because Rust's
/// runtime then opens `/dev/null` on a closed standard descriptor, so that
/// writes to it would vanish without an error; a `/dev/null` opened
/// read-write by the caller (Python's `subprocess.DEVNULL`, a shell's
/// `1<>/dev/null`) looks the same afterwards and is not closed.
pub fn record_stdout_at_start() {
    #[cfg(target_os = "linux")]
    {
        use std::io::ErrorKind;
        let fds = std::fs::symlink_metadata("/proc/self/fd").is_ok();
        let closed = fds
            && std::fs::symlink_metadata("/proc/self/fd/1")
                .is_err_and(|e| e.kind() == ErrorKind::NotFound);
        STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
    }
}

/// Whether standard output was closed when the process started (`>&-`), as
/// [`record_stdout_at_start`] recorded it (`false` where it did not run).
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
}

/// Writes `text` to standard output. A closed pipe (`noisefield stats | head
/// -1`) is not a failure: the reader took what it wanted, so the command
/// ends quietly with exit code 0. Standard output closed from the start
/// (`>&-`) is: nothing could be written (exit code 1).
pub fn print_out(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    if stdout_closed() {
        return Err(Failure::Io(
            "cannot write to standard output: it is closed".into(),
        ));
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Io(format!("cannot write to standard output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Prints the closing summary of a command: to standard output, or to
/// standard error when standard output carries the data (`-o -`).
pub fn print_summary(text: &str, data_on_stdout: bool) -> Result<(), Failure> {
    if data_on_stdout {
        eprint!("{text}");
        Ok(())
    } else {
        print_out(text)
    }
}

/// Runs a parsed command line: the work of `noisefield`, without exiting.
pub fn run(cli: Cli) -> Result<(), Failure> {
    args::set_threads(cli.threads).and_then(|()| match cli.command {
        Command::Render(a) => render::run(a),
        Command::Animate(a) => animate::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Bench(a) => bench::run(a),
    })
}
