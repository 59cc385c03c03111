//! Helpers shared by the command's test binaries (`cli.rs`, `hostile.rs`).

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The words of `line`: the arguments of one command.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Runs `noisefield args…` with `dir` as the working directory and no
/// standard input.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_noisefield"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the noisefield binary runs")
}

/// A fresh empty directory, removed at the end of the test.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// The names of the files in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
