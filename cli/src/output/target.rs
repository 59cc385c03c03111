//! What an output path names ([`Target`]), checked before any work, and
//! the checks on a command's output names: extensions that match the data,
//! no two outputs the same file.

use super::refuse;
use crate::Failure;
use std::fs::{self, OpenOptions};
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

/// The longest file name (one path component) accepted, in bytes: `NAME_MAX`
/// of Linux and macOS file systems.
pub const MAX_NAME_BYTES: usize = 255;

/// Refuses a file whose name asks for another kind of data than `kind`
/// (the extensions in `extensions`, lowercase, the first one named in the
/// message), as `render` refuses `--format npy -o a.png`: every
/// subcommand's outputs follow one rule. Standard output, devices and FIFOs
/// have no extension to contradict.
pub fn check_name(
    path: &Path,
    target: &Target,
    option: &str,
    kind: &str,
    extensions: &[&str],
) -> Result<(), Failure> {
    if target.is_stream() {
        return Ok(());
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if ext.as_deref().is_some_and(|e| extensions.contains(&e)) {
        return Ok(());
    }
    let asks = match &ext {
        Some(e) => format!("the extension .{e} does not name {kind}"),
        None => "the name has no extension".to_string(),
    };
    Err(refuse(
        path,
        format!(
            "{option} writes {kind}, and {asks}: name it .{}",
            extensions.join(" or .")
        ),
    ))
}

/// Refuses two outputs of one command that are the same file (`stats
/// --plot x.png --csv x.png`): the second would replace the first. (Two
/// streams, such as `/dev/null` twice, are written side by side.)
pub fn check_distinct(outputs: &[(&str, &Path, &Target)]) -> Result<(), Failure> {
    for (i, (a_option, a_path, a)) in outputs.iter().enumerate() {
        for (b_option, b_path, b) in &outputs[i + 1..] {
            let same = match (a, b) {
                (Target::File(x), Target::File(y)) => x == y || same_file(x, y),
                (Target::Stdout, Target::Stdout) => true,
                _ => false,
            };
            if same {
                return Err(Failure::usage(format!(
                    "{a_option} {} and {b_option} {} are the same file: give each its own",
                    a_path.display(),
                    b_path.display()
                )));
            }
        }
    }
    Ok(())
}

/// Whether two paths name one existing file (hard links, `./x` and `x`).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (fs::metadata(a), fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    // New files: the same path once the directory is resolved.
    let resolved = |p: &Path| {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = fs::canonicalize(dir.unwrap_or(Path::new("."))).ok()?;
        Some(dir.join(p.file_name()?))
    };
    matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// What an output path names, once checked ([`Target::check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `-`: standard output.
    Stdout,
    /// A character device or a FIFO: written directly.
    Stream(PathBuf),
    /// A regular file or a new path (symbolic links resolved): written
    /// through a temporary file and a rename.
    File(PathBuf),
}

/// Whether `path` names this process's standard output (`/dev/stdout`,
/// `/dev/fd/1`, `/proc/self/fd/1`) and it is a pipe, a socket or closed:
/// then it is written as `-` is (the summary goes to stderr, a closed one is
/// an error, a socket cannot be opened by name). Into a regular file or a
/// terminal it is the path it names, as before.
fn names_stdout(path: &Path) -> bool {
    let names = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];
    if !names.iter().any(|n| path.as_os_str() == *n) {
        return false;
    }
    if crate::stdout_closed() {
        return true;
    }
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !io::stdout().is_terminal())
}

impl Target {
    /// What `path` names, or a usage error if it cannot be written. Touches
    /// nothing: an existing file is opened for writing (not truncated) only
    /// to learn whether the user may write it.
    pub fn check(path: &Path) -> Result<Target, Failure> {
        if path.as_os_str() == "-" || names_stdout(path) {
            if crate::stdout_closed() {
                return Err(Failure::Io(format!(
                    "cannot write {}: standard output is closed",
                    path.display()
                )));
            }
            if io::stdout().is_terminal() {
                return Err(refuse(
                    path,
                    "standard output is a terminal; redirect it to a file or a pipe",
                ));
            }
            return Ok(Target::Stdout);
        }
        if path.as_os_str().is_empty() {
            return Err(Failure::usage("the output name is empty"));
        }
        // `dir/` or `dir/.` can only name a directory.
        let text = path.as_os_str().as_encoded_bytes();
        if text.ends_with(b"/") || path.file_name().is_none() {
            return Err(refuse(path, "it names a directory; give a file name"));
        }
        let name = path.file_name().expect("checked above");
        if name.len() > MAX_NAME_BYTES {
            return Err(refuse(
                path,
                format!(
                    "the file name is {} bytes long, more than the {MAX_NAME_BYTES} allowed",
                    name.len()
                ),
            ));
        }
        let (real, meta) = match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(path) {
                // Followed: the target is what gets written.
                Ok(real) => {
                    let meta = fs::metadata(&real).map_err(|e| refuse(path, e))?;
                    (real, Some(meta))
                }
                // A link the kernel follows to a file that has no name:
                // `/dev/stdout` or `/proc/self/fd/1` to a pipe. Written
                // through the link, as a FIFO (or refused, if not a stream).
                Err(e) if e.kind() == io::ErrorKind::NotFound && fs::metadata(path).is_ok() => {
                    let meta = fs::metadata(path).map_err(|e| refuse(path, e))?;
                    (path.to_path_buf(), Some(meta))
                }
                // A link to a file yet to be written: that file is created.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    let link = fs::read_link(path).map_err(|e| refuse(path, e))?;
                    let real = path.parent().unwrap_or(Path::new("")).join(link);
                    if fs::symlink_metadata(&real).is_ok() {
                        return Err(refuse(path, "it is a symbolic link to a broken link"));
                    }
                    Self::check_parent(&real).map_err(|_| {
                        refuse(path, "it is a symbolic link into a missing directory")
                    })?;
                    (real, None)
                }
                Err(e) => {
                    return Err(refuse(
                        path,
                        format!("it is a symbolic link that cannot be followed ({e})"),
                    ));
                }
            },
            Ok(meta) => (path.to_path_buf(), Some(meta)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
            Err(e) => {
                // `file/name`: say which part is not a directory.
                Self::check_parent(path)?;
                return Err(refuse(path, Self::explain(path, &e)));
            }
        };
        let Some(meta) = meta else {
            Self::check_parent(&real)?;
            return Ok(Target::File(real));
        };
        let kind = meta.file_type();
        if kind.is_dir() {
            return Err(refuse(path, "it is a directory; give a file name"));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_char_device() || kind.is_fifo() {
                return Ok(Target::Stream(real));
            }
        }
        if !kind.is_file() {
            return Err(refuse(
                path,
                "it is neither a regular file, a character device nor a FIFO",
            ));
        }
        // Not replaced when the user may not write it (even as root: the
        // read-only mode is the owner's wish).
        if meta.permissions().readonly() {
            return Err(refuse(path, "the file is read-only; it is left as it is"));
        }
        if let Err(e) = OpenOptions::new().write(true).open(&real) {
            return Err(refuse(path, Self::explain(path, &e)));
        }
        Ok(Target::File(real))
    }

    /// A new file's directory must exist and be a directory.
    fn check_parent(path: &Path) -> Result<(), Failure> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => return Ok(()),
        };
        match fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => Ok(()),
            Ok(_) => Err(refuse(
                path,
                format!("{} is not a directory", dir.display()),
            )),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(refuse(
                path,
                format!("the directory {} does not exist", dir.display()),
            )),
            Err(e) => Err(refuse(path, Self::explain(dir, &e))),
        }
    }

    /// An I/O error about `path` in words.
    pub(super) fn explain(path: &Path, e: &io::Error) -> String {
        match e.kind() {
            io::ErrorKind::NotADirectory => {
                format!("a part of {} is not a directory", path.display())
            }
            io::ErrorKind::PermissionDenied => "permission denied".into(),
            _ => e.to_string(),
        }
    }

    /// Whether this is standard output (the data's channel: messages then
    /// go to standard error).
    pub fn is_stdout(&self) -> bool {
        *self == Target::Stdout
    }

    /// Whether the output is written as it is produced (not a file).
    pub fn is_stream(&self) -> bool {
        !matches!(self, Target::File(_))
    }
}
