//! The command line in-process: argument parsing and output path handling.
//!
//! The fuzzer's bytes are split at `\n` into arguments; an argument of one
//! byte below `VOCAB.len()` is that word of [`VOCAB`] (subcommands, options,
//! values and the prepared paths), anything else is its text. The command
//! runs in a scratch directory holding a directory, a file, a read-only
//! file, symbolic links (to a file and to a missing directory) and a
//! too-long name's neighbour. Checked for every input:
//!
//! - nothing panics; clap's refusals and the tool's are both fine;
//! - a refused command (exit 2) leaves the scratch directory exactly as it was;
//! - no temporary `.noisefield-*.part` file is ever left behind;
//! - recipes come inline or from the scratch directory's files (`@FILE`);
//!   one over the cost limit or f32's range is refused before any work;
//! - a successful render to a new regular file leaves that file.
//!
//! Commands that would run long (more than 4096 samples, `bench`) are
//! skipped, and so is any path outside the scratch directory (absolute or
//! with `..`) other than `/dev/null` and `/dev/full`: the fuzzer must not
//! write over the machine's files.

#![no_main]

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use noisefield_cli::args::{Cli, Command};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const VOCAB: [&str; 56] = [
    "render",
    "animate",
    "stats",
    "bench",
    "-o",
    "--output",
    "--format",
    "png",
    "png16",
    "npy",
    "raw",
    "--size",
    "4x4",
    "16x8",
    "3x3x3",
    "0x4",
    "--source",
    "ridged",
    "marble",
    "--octaves",
    "32",
    "-1",
    "--persistence",
    "1e30",
    "--range",
    "1e39..2e39",
    "-",
    "dir",
    "dir/",
    "file.raw",
    "ro.png",
    "link.png",
    "dangling.npy",
    "new.npy",
    "missing/x.png",
    "/dev/null",
    "/dev/full",
    "--plot",
    "--csv",
    "--rows",
    "0..2",
    "--threads",
    "100000",
    "--frames",
    "2",
    "--normalize",
    "--period",
    "8",
    "@recipe.txt",
    "@costly.txt",
    "@overflow.txt",
    "@missing.txt",
    "@file.raw",
    "x.csv",
    "fbm(fbm(fbm))",
    "4294967295",
];

/// The words of [`VOCAB`] that read a recipe file of the scratch directory.
const RECIPE_FILES: std::ops::Range<usize> = 48..53;

/// The scratch directory, made once, and the current directory from then on.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("noisefield-fuzz-cli-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("dir")).unwrap();
        fs::write(dir.join("dir/inside"), b"x").unwrap();
        fs::write(dir.join("file.raw"), b"file").unwrap();
        // Recipe files for `--source @FILE`: a long valid one (more than an
        // argument may hold), one over the cost limit, one over f32's range.
        let spaces = " ".repeat(1 << 17);
        let long = format!("{spaces}ridged(warp(perlin, value)){spaces}");
        fs::write(dir.join("recipe.txt"), long).unwrap();
        fs::write(dir.join("costly.txt"), "fbm(fbm(fbm(octaves=32)))").unwrap();
        let overflow = "scale_bias(perlin, scale=3e38, bias=3e38)";
        fs::write(dir.join("overflow.txt"), overflow).unwrap();
        fs::write(dir.join("ro.png"), b"read-only").unwrap();
        let mut perms = fs::metadata(dir.join("ro.png")).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(dir.join("ro.png"), perms).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("file.raw", dir.join("link.png")).unwrap();
            std::os::unix::fs::symlink("nowhere/x.npy", dir.join("dangling.npy")).unwrap();
        }
        std::env::set_current_dir(&dir).unwrap();
        dir
    })
}

/// Every entry under `dir` (not following links) with its contents.
fn snapshot(dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        let contents = if kind.is_symlink() {
            fs::read_link(&path)
                .unwrap()
                .into_os_string()
                .into_encoded_bytes()
        } else if kind.is_dir() {
            snapshot(&path, into);
            b"<dir>".to_vec()
        } else {
            fs::read(&path).unwrap()
        };
        into.insert(path, contents);
    }
}

fn args_of(data: &[u8]) -> Vec<String> {
    let mut args = vec!["noisefield".to_string()];
    for part in data.split(|&b| b == b'\n').take(16) {
        match part {
            [b] if usize::from(*b) < VOCAB.len() => args.push(VOCAB[usize::from(*b)].into()),
            _ => args.push(String::from_utf8_lossy(part).into_owned()),
        }
    }
    args
}

/// Whether the command is quick and writes inside the scratch directory only.
fn safe(cli: &Cli, args: &[String]) -> bool {
    let outside = |a: &String| {
        (a.starts_with('/') && a != "/dev/null" && a != "/dev/full")
            || a.contains("..")
                && !a
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '-' || c == 'e')
            || a.starts_with('~')
    };
    if args.iter().any(outside) {
        return false;
    }
    let small = |size: &[usize]| size.iter().product::<usize>() <= 4096;
    match &cli.command {
        Command::Render(a) => small(&a.field.size.0),
        Command::Stats(a) => small(&a.field.size.0),
        Command::Animate(a) => small(&a.size.0) && a.frames <= 4,
        Command::Bench(_) => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let dir = scratch();
    let args = args_of(data);
    // `--source @FILE` reads while the arguments are parsed: only the
    // scratch directory's recipe files (not `@-` or `@/dev/stdin`, which
    // would wait for input).
    let files = &VOCAB[RECIPE_FILES];
    if args
        .iter()
        .any(|a| a.contains('@') && !files.contains(&a.as_str()))
    {
        return;
    }
    let Ok(cli) = Cli::try_parse_from(&args) else {
        return;
    };
    if !safe(&cli, &args) {
        return;
    }
    let new_output = match &cli.command {
        Command::Render(a) => a
            .output
            .clone()
            .filter(|p| !p.exists() && p.extension().is_some() && p.as_os_str() != "-"),
        _ => None,
    };
    let mut before = BTreeMap::new();
    snapshot(dir, &mut before);
    let result = noisefield_cli::run(cli);
    let mut after = BTreeMap::new();
    snapshot(dir, &mut after);
    for path in after.keys() {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(!name.ends_with(".part"), "{args:?} left {}", path.display());
    }
    match &result {
        Err(f) if f.exit_code() == 2 => {
            assert_eq!(
                before, after,
                "{args:?} was refused ({f}) but changed files"
            )
        }
        Ok(()) => {
            if let Some(p) = &new_output {
                let real = dir.join(p);
                assert!(
                    after.contains_key(&real) || fs::metadata(&real).is_ok(),
                    "{args:?} succeeded without writing {}",
                    p.display()
                );
            }
        }
        Err(_) => {}
    }
    // Restore the scratch directory for the next input.
    for path in after.keys().rev() {
        if !before.contains_key(path) {
            let _ = fs::remove_file(path).or_else(|_| fs::remove_dir_all(path));
        }
    }
    for (path, contents) in &before {
        if after.get(path) != Some(contents)
            && fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
        {
            let mut perms = fs::metadata(path).unwrap().permissions();
            let ro = perms.readonly();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            fs::set_permissions(path, perms.clone()).unwrap();
            fs::write(path, contents).unwrap();
            perms.set_readonly(ro);
            fs::set_permissions(path, perms).unwrap();
        }
    }
});
