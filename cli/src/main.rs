//! `noisefield`: render noise fields to pictures and data from the command
//! line. The work is in the library part of this package ([`noisefield_cli`]).

use clap::Parser;
use noisefield_cli::{Failure, args::Cli};
use std::process::ExitCode;

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
