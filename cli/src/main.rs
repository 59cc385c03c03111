//! `noisefield`: render noise fields to pictures and data from the command
//! line. The work is in the library part of this package ([`noisefield_cli`]).

use clap::Parser;
use noisefield_cli::{Failure, args::Cli};
use std::process::ExitCode;

/// Whether standard output is closed, looked at before Rust's runtime puts
/// `/dev/null` on a closed standard descriptor
/// ([`noisefield_cli::record_stdout_at_start`]): an entry of `.init_array`.
#[cfg(target_os = "linux")]
#[used]
// SAFETY: the C runtime calls each `.init_array` entry once, before `main`,
// on the main thread, as an `extern "C"` function (the arguments it passes
// are ignored by this signature under the C calling convention);
// `record_stdout` only looks at two paths in /proc and stores an atomic flag,
// using nothing that Rust's runtime sets up later.
#[unsafe(link_section = ".init_array")]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

#[cfg(target_os = "linux")]
extern "C" fn record_stdout() {
    noisefield_cli::record_stdout_at_start();
}

fn main() -> ExitCode {
    // Clap prints its own usage errors and exits with code 2.
    let cli = Cli::parse();
    // Ctrl-C, `kill` and a closed terminal remove the temporary output file.
    if let Err(e) = noisefield_cli::interrupt::install() {
        eprintln!("error: cannot install the signal handlers: {e}");
        return ExitCode::from(1);
    }
    match noisefield_cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // The style of clap's own errors, so every message reads alike.
            match failure {
                Failure::Usage(_) => {
                    eprintln!("error: {failure}\n\nFor more information, try '--help'.")
                }
                Failure::Io(_) => eprintln!("error: {failure}"),
            }
            ExitCode::from(failure.exit_code())
        }
    }
}
