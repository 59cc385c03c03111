//! The `noisefield` command against a hostile user and a hostile
//! environment: signals in the middle of a write, a file-size limit, a
//! closed standard output, `/dev/stdout` into a pipe, replaced files'
//! modes, recipes too long for an argument or too costly to run, values
//! that overflow `f32`, two outputs on one path, and messages that must
//! say what is wrong. Each test starts the built binary in a fresh
//! temporary directory and checks what it leaves there.

mod common;

use common::{listing, run_in, temp_dir, words};
use noisefield::prelude::*;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_noisefield");

/// `noisefield args…` run by `sh -c` with `shell` before it (`ulimit -f 1;`)
/// and `redirect` after it (`>&-`).
fn run_sh(dir: &Path, shell: &str, args: &[&str], redirect: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("{shell} exec \"$0\" \"$@\" {redirect}"))
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit 2, a message containing `says`, nothing written.
fn refused(dir: &Path, args: &[&str], says: &str) -> String {
    let before = listing(dir);
    let out = run_in(dir, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err:?} lacks {says:?}");
    assert_eq!(listing(dir), before, "{args:?} wrote something");
    err
}

#[test]
fn interrupts_remove_the_temporary_file_and_keep_the_old_one() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = temp_dir();
        fs::write(dir.path().join("big.raw"), b"OLD\n").unwrap();
        // 64 Mi samples of 32 octaves: seconds of work, well past the moment
        // the temporary file appears.
        let mut child = Command::new(BIN)
            .args(words(
                "render --size 8192x8192 --source fbm(octaves=32) --format raw -o big.raw",
            ))
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let part = loop {
            let part = listing(dir.path())
                .into_iter()
                .find(|n| n.starts_with(".noisefield-") && n.ends_with(".part"));
            if let Some(p) = part
                && fs::metadata(dir.path().join(&p)).is_ok_and(|m| m.len() > 0)
            {
                break p;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no temporary file appeared"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        let kill = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}: {status:?}");
        assert_eq!(
            listing(dir.path()),
            ["big.raw"],
            "SIG{signal} left {part} or more"
        );
        assert_eq!(fs::read(dir.path().join("big.raw")).unwrap(), b"OLD\n");
    }
}

#[test]
fn a_file_size_limit_is_an_error_naming_the_users_path() {
    let dir = temp_dir();
    let out = run_sh(
        dir.path(),
        "ulimit -f 1;",
        &words("render --size 256x256 --format raw -o a.raw"),
        "",
    );
    let err = stderr(&out);
    // Not killed by SIGXFSZ (exit 153 from the shell, or no code at all).
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: cannot write a.raw: "), "{err}");
    assert!(
        !err.contains(".part") && !err.contains(".noisefield-"),
        "{err}"
    );
    assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
}

#[test]
fn a_closed_standard_output_is_an_error() {
    let dir = temp_dir();
    for line in [
        "render --size 8x8 --format raw -o -",
        "render --size 8x8 --format raw -o /dev/stdout",
        "stats --size 8x8",
        "animate --size 8x8 --frames 2 -o -",
    ] {
        let out = run_sh(dir.path(), "", &words(line), ">&-");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{line}: {err}");
        assert!(
            err.contains("standard output is closed") || err.contains("it is closed"),
            "{line}: {err}"
        );
        assert!(!err.contains("wrote"), "{line}: {err}");
        assert!(listing(dir.path()).is_empty(), "{line}");
    }
    // `> /dev/null` is not closed: it works as before; nor is `/dev/null`
    // opened read-write (`1<>`, as Python's `subprocess.DEVNULL` opens it,
    // which is what Rust's runtime puts on a closed descriptor).
    for redirect in [">/dev/null", "1<>/dev/null"] {
        for line in ["render --size 8x8 --format raw -o -", "stats --size 8x8"] {
            let out = run_sh(dir.path(), "", &words(line), redirect);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{line} {redirect}: {}",
                stderr(&out)
            );
        }
    }
}

#[test]
fn dev_stdout_and_proc_fd_into_a_pipe_are_written() {
    let dir = temp_dir();
    let want = run_in(dir.path(), &words("render --size 16x4 --format raw -o -"));
    assert!(want.status.success());
    assert_eq!(want.stdout.len(), 16 * 4 * 4);
    for path in ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"] {
        let line = format!("render --size 16x4 --format raw -o {path}");
        let out = run_in(dir.path(), &words(&line));
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        assert!(out.stdout == want.stdout, "{path}: other bytes");
    }
    // Standard error into a pipe, and a FIFO-backed stderr for png.
    let out = run_in(
        dir.path(),
        &words("render --size 16x4 --format raw -o /dev/stderr"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        out.stderr.starts_with(&want.stdout),
        "/dev/stderr: other bytes"
    );
    assert!(listing(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir();
    for (name, mode) in [("a.raw", 0o640), ("b.png", 0o600), ("c.npy", 0o664)] {
        let path = dir.path().join(name);
        fs::write(&path, b"old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let line = format!("render --size 8x8 -o {name}");
        let out = run_in(dir.path(), &words(&line));
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let meta = fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o7777, mode, "{name}");
        assert!(meta.len() > 3, "{name} was not replaced");
    }
}

#[test]
fn a_recipe_comes_from_a_file_or_standard_input() {
    let dir = temp_dir();
    let recipe = "ridged(warp(perlin(seed=7), perlin(seed=8), amplitude=0.5), octaves=5)";
    let inline = run_in(
        dir.path(),
        &[
            "render", "--size", "24x8", "--format", "raw", "-o", "-", "--source", recipe,
        ],
    );
    assert!(inline.status.success(), "{}", stderr(&inline));
    // Over 128 KiB, which no single argument may be: spaces between tokens.
    let long = format!("{}{recipe}{}\n", " ".repeat(100_000), " ".repeat(100_000));
    fs::write(dir.path().join("r.txt"), &long).unwrap();
    let from_file = run_in(
        dir.path(),
        &words("render --size 24x8 --format raw -o - --source @r.txt"),
    );
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    assert!(from_file.stdout == inline.stdout, "@FILE gave other values");
    let mut child = Command::new(BIN)
        .args(words("render --size 24x8 --format raw -o - --source @-"))
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(long.as_bytes())
        .unwrap();
    let from_stdin = child.wait_with_output().unwrap();
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert!(from_stdin.stdout == inline.stdout, "@- gave other values");
    // A missing file, an empty name, bytes that are not text.
    refused(
        dir.path(),
        &words("render --source @missing.txt"),
        "missing.txt",
    );
    refused(
        dir.path(),
        &words("render --source @"),
        "@ needs a file name",
    );
    fs::write(dir.path().join("bin.txt"), b"perlin\xff").unwrap();
    refused(dir.path(), &words("render --source @bin.txt"), "not UTF-8");
}

#[test]
fn an_error_in_a_long_recipe_quotes_only_the_text_around_it() {
    let dir = temp_dir();
    // 130 KB recipes: the error at the very end, in a long number, in a long
    // name, and found while building with the options as defaults.
    let long = 130_000;
    let cases = [
        (
            format!("scale_bias(perlin, scale=0.5{}, bias=x)", "0".repeat(long)),
            "",
            "bias must be a number",
        ),
        (
            format!("scale_bias(perlin, scale=1{})", "0".repeat(long)),
            "",
            "beyond the f32 range",
        ),
        (
            format!("{}(perlin)", "p".repeat(long)),
            "",
            "unknown source",
        ),
        (
            format!("fbm({}fbm(fbm))", " ".repeat(long)),
            " --octaves 32",
            "costs 32768",
        ),
    ];
    for (text, options, says) in cases {
        fs::write(dir.path().join("r.txt"), &text).unwrap();
        let line = format!("render --source @r.txt{options}");
        let err = refused(dir.path(), &words(&line), says);
        assert!(err.len() < 1000, "{says}: {} bytes of message", err.len());
        assert!(err.contains('^'), "{err}");
        // Cut where the text goes on (an error found while building quotes
        // the recipe as printed, its spaces normalised: short here).
        assert_eq!(err.contains('…'), options.is_empty(), "{err}");
    }
}

#[test]
fn recipes_that_cost_too_much_or_overflow_are_refused_before_any_work() {
    let dir = temp_dir();
    let mut deep = "perlin".to_string();
    for _ in 0..10 {
        deep = format!("fbm({deep}, octaves=32)");
    }
    let start = Instant::now();
    let err = refused(
        dir.path(),
        &["render", "--size", "1x1", "--source", &deep],
        "lattice evaluations per sample, more than the 4096 allowed",
    );
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(err.contains("costs 32768"), "{err}");
    for args in [
        [
            "stats",
            "--size",
            "8x8",
            "--source",
            "scale_bias(perlin, scale=3e38, bias=3e38)",
        ],
        [
            "render",
            "--size",
            "8x8",
            "--source",
            "scale_bias(perlin, scale=3e38, bias=3e38)",
        ],
    ] {
        refused(dir.path(), &args, "beyond the f32 range");
    }
}

#[test]
fn two_outputs_on_one_path_and_contradicting_names_are_refused() {
    let dir = temp_dir();
    refused(
        dir.path(),
        &words("stats --size 8x8 --plot x.png --csv x.png"),
        "are the same file",
    );
    refused(
        dir.path(),
        &words("stats --size 8x8 --plot x.png --csv ./x.png"),
        "are the same file",
    );
    refused(
        dir.path(),
        &words("stats --size 8x8 --csv x.png"),
        "name it .csv",
    );
    refused(
        dir.path(),
        &words("stats --size 8x8 --plot x.csv"),
        "name it .png",
    );
    refused(
        dir.path(),
        &words("animate --size 8x8 -o a.png"),
        "name it .gif",
    );
    refused(
        dir.path(),
        &words("animate --size 8x8 -o anim"),
        "name it .gif",
    );
    // The right names work.
    let out = run_in(
        dir.path(),
        &words("stats --size 8x8 --plot x.png --csv x.csv"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(listing(dir.path()), ["x.csv", "x.png"]);
}

#[test]
fn messages_say_what_is_wrong() {
    let dir = temp_dir();
    refused(
        dir.path(),
        &words("render --format normal --normal-strength 1e39"),
        "at most the largest f32",
    );
    refused(
        dir.path(),
        &words("render --source pérlin"),
        "unknown source \"pérlin\"",
    );
    refused(
        dir.path(),
        &["render", "--source", "terrace(perlin, points=[0,0,0])"],
        "3 given, 1 distinct",
    );
    refused(
        dir.path(),
        &words("render --size 16777216x16777216x16777216"),
        "(2^40) accepted",
    );
    refused(
        dir.path(),
        &words("render --period 4294967295"),
        "1 to 4294967294",
    );
    refused(dir.path(), &words("animate --frames 100001"), "100000");
}

/// Very wide fields (rows wider than a window, or than a band): the same
/// bits as the library's grid fill.
#[test]
fn very_wide_fields_are_the_librarys_grid_bit_for_bit() {
    use noisefield::{Fbm, Grid2, Grid3, Perlin};
    let dir = temp_dir();
    let fbm = Fbm::new(Perlin::new(0));
    let step = 1.0 / 128.0;
    // Wider than a band (2^20 samples), a few rows wider than a window
    // (2^14), and many rows wider than a window.
    for [nx, ny] in [[(1 << 20) + 3, 2], [40_000, 3], [17_000, 70]] {
        let line = format!("render --size {nx}x{ny} --format raw -o -");
        let out = run_in(dir.path(), &words(&line));
        assert!(out.status.success(), "{line}: {}", stderr(&out));
        let mut want = vec![0.0f32; nx * ny];
        fbm.fill_grid(&Grid2::new([0.0; 2], [step; 2], [nx, ny]), &mut want)
            .unwrap();
        let got: Vec<f32> = out
            .stdout
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(got.len(), want.len(), "{line}");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.to_bits(), w.to_bits(), "{line}: sample {i}");
        }
    }
    let [nx, ny, nz] = [20_000, 2, 3];
    let line = format!("render --size {nx}x{ny}x{nz} --origin 5,-3,0.5 --format raw -o -");
    let out = run_in(dir.path(), &words(&line));
    assert!(out.status.success(), "{line}: {}", stderr(&out));
    let mut want = vec![0.0f32; nx * ny * nz];
    let grid = Grid3::new([5.0, -3.0, 0.5], [step; 3], [nx, ny, nz]);
    fbm.fill_grid(&grid, &mut want).unwrap();
    let got: Vec<u32> = out
        .stdout
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let want: Vec<u32> = want.iter().map(|v| v.to_bits()).collect();
    assert!(got == want, "{line}: other bits");
}
