//! Where output goes, checked before any work, and the encoders that write
//! fields band by band (PNG rows through a streaming encoder, `.npy` and raw
//! float32 as they come), so memory stays bounded.
//!
//! An output path is one of:
//!
//! ```text
//! -                        standard output, written directly (refused if a terminal)
//! a character device/FIFO  opened for writing and written directly (/dev/null, a pipe)
//! a regular file, new path written to a temporary file beside it, renamed over
//!                          it when complete: nothing partial, nothing clobbered
//! a symbolic link          followed: its target is what is written (atomically if a
//!                          regular file, created if missing); the link stays
//! anything else            refused: a directory, a missing directory, a name longer
//!                          than 255 bytes, a read-only file, a block device, a socket
//! ```
//!
//! Refusals are usage errors (exit code 2), found before the field is computed.

use crate::Failure;
use crate::field::BAND_SAMPLES;
use crate::interrupt::Pending;
use crate::palette::{Palette, Scale};
use clap::ValueEnum;
use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use tempfile::TempPath;

/// The longest file name (one path component) accepted, in bytes: `NAME_MAX`
/// of Linux and macOS file systems.
pub const MAX_NAME_BYTES: usize = 255;

/// The `--format` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 8-bit PNG in the palette's colours.
    Png,
    /// 16-bit grayscale PNG, for heightmaps.
    Png16,
    /// NumPy `.npy`, little-endian float32, shape (ny, nx) or (nz, ny, nx).
    Npy,
    /// Little-endian float32, row-major with x fastest, no header.
    Raw,
    /// Little-endian u16 heights, x fastest, no header (Unity, Unreal).
    R16,
    /// OpenEXR, one 32-bit float channel `Y`; a volume is one part per slice.
    Exr,
    /// TIFF, 32-bit float gray; a volume is one page per slice.
    Tiff,
    /// TIFF, 16-bit gray heights; a volume is one page per slice.
    Tiff16,
    /// RGB8 PNG tangent-space normal map from the analytic derivatives.
    Normal,
}

impl Format {
    /// The format a file name asks for: `.png`, `.npy`, `.raw`/`.f32`/`.bin`,
    /// `.r16`, `.exr`, `.tif`/`.tiff`.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "png" => Some(Format::Png),
            "npy" => Some(Format::Npy),
            "raw" | "f32" | "bin" => Some(Format::Raw),
            "r16" => Some(Format::R16),
            "exr" => Some(Format::Exr),
            "tif" | "tiff" => Some(Format::Tiff),
            _ => None,
        }
    }

    /// Whether a file named for `self` ([`Format::from_extension`]) may
    /// hold `format`: a `.png` holds png, png16 or a normal map, a `.raw`
    /// float32 or r16 (Unity's import dialog asks for `.raw`), a `.tif`
    /// either TIFF depth.
    pub fn admits(self, format: Format) -> bool {
        self == format
            || matches!(
                (self, format),
                (Format::Png, Format::Png16 | Format::Normal)
                    | (Format::Raw, Format::R16)
                    | (Format::Tiff, Format::Tiff16)
            )
    }

    /// The name as given to `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Png16 => "png16",
            Format::Npy => "npy",
            Format::Raw => "raw",
            Format::R16 => "r16",
            Format::Exr => "exr",
            Format::Tiff => "tiff",
            Format::Tiff16 => "tiff16",
            Format::Normal => "normal",
        }
    }

    /// The default output file name for this format.
    pub fn default_path(self) -> PathBuf {
        PathBuf::from(match self {
            Format::Png | Format::Png16 => "noise.png",
            Format::Npy => "noise.npy",
            Format::Raw => "noise.raw",
            Format::R16 => "noise.r16",
            Format::Exr => "noise.exr",
            Format::Tiff | Format::Tiff16 => "noise.tif",
            Format::Normal => "normal.png",
        })
    }

    /// Whether the encoder seeks back in its file (EXR's offset tables,
    /// TIFF's directories): a stream is then spooled through a temporary
    /// file ([`Output::open`]).
    pub fn seeks(self) -> bool {
        matches!(self, Format::Exr | Format::Tiff | Format::Tiff16)
    }
}

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

/// A usage error about output `shown`.
fn refuse(shown: &Path, why: impl std::fmt::Display) -> Failure {
    Failure::usage(format!("cannot write {}: {why}", shown.display()))
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
    fn explain(path: &Path, e: &io::Error) -> String {
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

/// How an [`Output`] reaches its target.
enum Sink {
    /// A temporary file, renamed to the path by [`Output::commit`]: written
    /// through the file itself (its errors name no temporary path), removed
    /// when its [`TempPath`] is dropped, and registered for removal on a
    /// signal ([`Pending`]) until then.
    Atomic(BufWriter<fs::File>, TempPath, Pending, PathBuf),
    /// Standard output, a device or a FIFO.
    Direct(BufWriter<Box<dyn Write>>),
    /// A stream for a format that seeks: written to an unnamed temporary
    /// file first, copied to the stream by [`Output::commit`].
    Spool(BufWriter<fs::File>, BufWriter<Box<dyn Write>>),
}

/// An open output: a file that appears at its path only when
/// [`Output::commit`] is called (dropped before that, it is removed), or a
/// stream written directly.
pub struct Output {
    sink: Sink,
    /// The path as the user gave it, for messages.
    shown: PathBuf,
}

impl Output {
    /// Opens the checked `target` of `path` ([`Target::check`]): for a
    /// file, a temporary file in its directory (same file system, so the
    /// final rename is atomic). Call it before any work, so that a path
    /// that cannot be written is refused at once.
    pub fn open(path: &Path, target: &Target) -> Result<Output, Failure> {
        Self::open_for(path, target, false)
    }

    /// [`Output::open`] for an encoder that seeks when `seeks` (EXR, TIFF):
    /// a stream target is then spooled through an unnamed temporary file
    /// (in the system's temporary directory) and copied to the stream when
    /// complete, so it costs disk space the size of the file.
    pub fn open_for(path: &Path, target: &Target, seeks: bool) -> Result<Output, Failure> {
        let shown = path.to_path_buf();
        let mut sink = match target {
            Target::Stdout => {
                Sink::Direct(BufWriter::with_capacity(1 << 16, Box::new(io::stdout())))
            }
            Target::Stream(real) => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(real)
                    .map_err(|e| refuse(path, Target::explain(path, &e)))?;
                Sink::Direct(BufWriter::with_capacity(1 << 16, Box::new(file)))
            }
            Target::File(real) => {
                let dir = match real.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".noisefield-").suffix(".part");
                // Like any new file (the umask applies), not the 0600 of temporary files.
                #[cfg(unix)]
                builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
                let temp = builder.tempfile_in(dir).map_err(|e| {
                    let why = format!(
                        "cannot create a file in {}: {}",
                        dir.display(),
                        Target::explain(dir, &e)
                    );
                    match e.kind() {
                        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
                            refuse(path, why)
                        }
                        _ => Failure::Io(why),
                    }
                })?;
                let pending = Pending::new(temp.path());
                let (file, temp) = temp.into_parts();
                Sink::Atomic(
                    BufWriter::with_capacity(1 << 20, file),
                    temp,
                    pending,
                    real.clone(),
                )
            }
        };
        if let (true, Sink::Direct(_)) = (seeks, &sink) {
            let spool = tempfile::tempfile().map_err(|e| {
                Failure::Io(format!(
                    "cannot create a temporary file for {}: {e}",
                    shown.display()
                ))
            })?;
            let Sink::Direct(stream) = sink else {
                unreachable!("matched above")
            };
            sink = Sink::Spool(BufWriter::with_capacity(1 << 20, spool), stream);
        }
        Ok(Output { sink, shown })
    }

    /// Flushes, and renames a file to its path (replacing any file there).
    pub fn commit(self) -> Result<(), Failure> {
        let shown = self.shown;
        let failed = |e: &dyn std::fmt::Display| {
            Failure::Io(format!("cannot write {}: {e}", shown.display()))
        };
        match self.sink {
            Sink::Atomic(file, temp, pending, real) => {
                let file = match file.into_inner() {
                    Ok(file) => file,
                    Err(e) => return Err(failed(e.error())),
                };
                keep_owner_and_mode(&file, &real);
                file.sync_all().map_err(|e| failed(&e))?;
                pending
                    .persist(|| temp.persist(&real))
                    .map_err(|e| failed(&e.error))?;
            }
            Sink::Direct(mut stream) => stream.flush().map_err(|e| failed(&e))?,
            Sink::Spool(spool, mut stream) => {
                let mut spool = spool.into_inner().map_err(|e| failed(e.error()))?;
                spool.seek(SeekFrom::Start(0)).map_err(|e| failed(&e))?;
                io::copy(&mut spool, &mut stream).map_err(|e| failed(&e))?;
                stream.flush().map_err(|e| failed(&e))?;
            }
        }
        Ok(())
    }

    /// The path as given (`-` for standard output).
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// An I/O error on this output as a [`Failure`].
    pub fn failure(&self, e: impl std::fmt::Display) -> Failure {
        Failure::Io(format!("cannot write {}: {e}", self.shown.display()))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Atomic(file, ..) => file.write(buf),
            Sink::Direct(stream) => stream.write(buf),
            Sink::Spool(spool, _) => spool.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Atomic(file, ..) => file.flush(),
            Sink::Direct(stream) => stream.flush(),
            Sink::Spool(spool, _) => spool.flush(),
        }
    }
}

/// A file that replaces `real` keeps its permission bits, and its owner
/// and group where this process may set them (as root, or a group the user
/// is in); a new file keeps the mode it was created with (0666 less the
/// umask). Best effort: a file that cannot take them is still written.
fn keep_owner_and_mode(file: &fs::File, real: &Path) {
    let Ok(old) = fs::metadata(real) else {
        return;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Owner first: changing it may clear the set-id bits set below.
        if std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
        }
    }
    let _ = file.set_permissions(old.permissions());
}

/// Files and spools seek; a stream opened without spooling does not.
impl Seek for Output {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match &mut self.sink {
            Sink::Atomic(file, ..) => file.seek(to),
            Sink::Spool(spool, _) => spool.seek(to),
            Sink::Direct(_) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a stream cannot seek (opened without spooling)",
            )),
        }
    }
}

/// How PNG pixels are made from values.
#[derive(Debug, Clone, Copy)]
pub enum Pixels {
    /// 8-bit, gray or RGB in a palette.
    Colour(Palette, Scale),
    /// 16-bit gray heights.
    Height(Scale),
    /// RGB8 tangent-space normals of the surface `z = strength · value(x, y)`
    /// (x, y in lattice cells), from the band's analytic gradient:
    /// `n = normalize(−strength · ∂v/∂x, −strength · ∂v/∂y, 1)`, each
    /// component `c` stored as `round(255 · (c + 1) / 2)`; green is `−n_y`
    /// instead when the flag is set (`--normal-flip-y`).
    Normal(f32, bool),
}

/// The shape of a format that stores blocks of whole rows in parts (EXR
/// scan-line blocks in parts, TIFF strips in pages).
#[derive(Debug, Clone)]
pub struct Layout {
    /// Samples per row.
    pub width: usize,
    /// Rows per part: all the rows of a 2D field (or its `--rows` band),
    /// `ny` for a volume.
    pub height: usize,
    /// A volume's z slices, one part (page) each; `None` for a 2D field,
    /// written as one part.
    pub slices: Option<Range<usize>>,
}

impl Layout {
    /// The number of parts: one per slice, or one.
    fn parts(&self) -> usize {
        self.slices.as_ref().map_or(1, |s| s.len())
    }
}

/// What [`encode`] writes.
#[derive(Debug, Clone)]
pub enum Encoding {
    /// A PNG of `width × height` pixels made by `pixels`.
    Png {
        /// Pixels per row (samples per row of the field).
        width: usize,
        /// Rows of pixels.
        height: usize,
        /// Values to pixels.
        pixels: Pixels,
    },
    /// A `.npy` file of float32 with this shape (slowest axis first).
    Npy(Vec<usize>),
    /// Raw little-endian float32.
    Raw,
    /// Raw little-endian u16 heights, `round(65535 · t)` on this scale.
    R16(Scale),
    /// OpenEXR: one float32 channel `Y`, uncompressed scan lines.
    Exr(Layout),
    /// TIFF: float32 gray, or 16-bit heights on the scale when given.
    Tiff(Layout, Option<Scale>),
}

/// A band of samples handed to a [`BandWriter`]: consecutive samples in
/// output order and, for a normal map, their derivatives along x and y.
#[derive(Debug, Clone, Copy)]
pub struct Band<'a> {
    /// The values.
    pub values: &'a [f32],
    /// `[∂v/∂x, ∂v/∂y]` at each sample (in lattice cells), when asked for.
    pub gradient: Option<[&'a [f32]; 2]>,
}

/// A band writer handed to the producer in [`encode`]: appends whole rows.
pub type BandWriter<'w> = dyn FnMut(Band<'_>) -> io::Result<()> + 'w;

/// EXR compression: none. Noise barely compresses (ZIP saved 4% on a
/// 4096² fBm field and took 3.7 s instead of 0.4 s), and uncompressed
/// scan lines are one row per block, so a block is never more than a row.
const EXR_COMPRESSION: exr::compression::Compression = exr::compression::Compression::Uncompressed;

/// Rows per TIFF strip: as many as fit in [`BAND_SAMPLES`] (at least 1).
fn tiff_strip_rows(width: usize) -> usize {
    (BAND_SAMPLES / width).max(1)
}

/// Bytes of sample data above which a TIFF is written as BigTIFF (64-bit
/// offsets): classic TIFF addresses 4 GiB, and its directories and strip
/// tables need room too. 4 GiB − 64 MiB.
const BIG_TIFF_BYTES: u64 = (1 << 32) - (1 << 26);

/// Writes a field to `file` as `encoding`. `produce` is called once per
/// part of the file (each slice of `slabs` for a volume in EXR or TIFF,
/// else once with all of `slabs`) and hands every band of values of that
/// part, in order, to the [`BandWriter`] it is given; bands are encoded as
/// they come (PNG rows compressed into IDAT chunks, EXR blocks and TIFF
/// strips gathered a few rows at a time), so only about a band is ever
/// held in memory. The range of a PNG's values is recorded in a
/// `noisefield range` text chunk (`lo..hi`), a 16-bit TIFF's in its
/// ImageDescription.
pub fn encode(
    file: &mut Output,
    encoding: &Encoding,
    slabs: Range<usize>,
    mut produce: impl FnMut(Range<usize>, &mut BandWriter<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let shown = file.path().display().to_string();
    let io_failure = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {shown}: {e}"));
    match encoding {
        Encoding::Png {
            width,
            height,
            pixels,
        } => {
            let too_big =
                || Failure::usage(format!("a PNG of {width}×{height} pixels is too large"));
            let w = u32::try_from(*width).map_err(|_| too_big())?;
            let h = u32::try_from(*height).map_err(|_| too_big())?;
            let png_failure = |e: png::EncodingError| io_failure(&e);
            let mut encoder = png::Encoder::new(&mut *file, w, h);
            let (depth, colour) = match *pixels {
                Pixels::Colour(palette, _) if palette.is_gray() => {
                    (png::BitDepth::Eight, png::ColorType::Grayscale)
                }
                Pixels::Colour(..) | Pixels::Normal(..) => {
                    (png::BitDepth::Eight, png::ColorType::Rgb)
                }
                Pixels::Height(_) => (png::BitDepth::Sixteen, png::ColorType::Grayscale),
            };
            encoder.set_depth(depth);
            encoder.set_color(colour);
            // fdeflate: a 4096² terrain map in 0.8 s instead of 5.5 s
            // (Balanced), for a file 7% larger.
            encoder.set_compression(png::Compression::Fast);
            let (key, text) = match *pixels {
                Pixels::Colour(_, scale) | Pixels::Height(scale) => {
                    let (lo, hi) = scale.range();
                    ("noisefield range", format!("{lo}..{hi}"))
                }
                Pixels::Normal(strength, flip_y) => (
                    "noisefield normal",
                    format!(
                        "tangent space, green along {} y (rows {}), strength {strength}",
                        if flip_y { "-" } else { "+" },
                        if flip_y { "towards row 0" } else { "advancing" }
                    ),
                ),
            };
            encoder
                .add_text_chunk(key.into(), text)
                .map_err(png_failure)?;
            let mut writer = encoder.write_header().map_err(png_failure)?;
            let mut stream = writer.stream_writer().map_err(png_failure)?;
            let mut bytes = Vec::new();
            produce(slabs, &mut |band: Band<'_>| {
                pixels.encode(band, &mut bytes);
                stream.write_all(&bytes)
            })?;
            stream.finish().map_err(png_failure)?;
            writer.finish().map_err(png_failure)?;
        }
        Encoding::Npy(shape) => {
            file.write_all(&npy_header(shape))
                .map_err(|e| io_failure(&e))?;
            produce(slabs, &mut |band: Band<'_>| write_f32_le(file, band.values))?;
        }
        Encoding::Raw => produce(slabs, &mut |band: Band<'_>| write_f32_le(file, band.values))?,
        Encoding::R16(scale) => {
            let mut bytes = Vec::new();
            produce(slabs, &mut |band: Band<'_>| {
                bytes.clear();
                bytes.extend(
                    band.values
                        .iter()
                        .flat_map(|&v| scale.word(v).to_le_bytes()),
                );
                file.write_all(&bytes)
            })?;
        }
        Encoding::Exr(layout) => write_exr(file, layout, slabs, &mut produce)?,
        Encoding::Tiff(layout, scale) => {
            let bytes_per_sample = if scale.is_some() { 2 } else { 4 };
            let bytes = (layout.width * layout.height * layout.parts()) as u64 * bytes_per_sample;
            let failed = |e: tiff::TiffError| io_failure(&e);
            if bytes > BIG_TIFF_BYTES {
                let encoder = tiff::encoder::TiffEncoder::new_big(&mut *file).map_err(failed)?;
                write_tiff(encoder, layout, *scale, slabs, &mut produce, &shown)?;
            } else {
                let encoder = tiff::encoder::TiffEncoder::new(&mut *file).map_err(failed)?;
                write_tiff(encoder, layout, *scale, slabs, &mut produce, &shown)?;
            }
        }
    }
    Ok(())
}

/// The parts of `layout` over `slabs` with the slabs each covers.
fn parts(layout: &Layout, slabs: Range<usize>) -> Vec<Range<usize>> {
    match &layout.slices {
        None => vec![slabs],
        Some(slices) => slices.clone().map(|k| k..k + 1).collect(),
    }
}

/// Bands regrouped into blocks of `rows` whole rows (EXR scan-line blocks,
/// TIFF strips); the last block of a part may be shorter. A band that
/// holds a whole block is passed on without a copy.
struct Blocks {
    width: usize,
    /// Rows per block.
    rows: usize,
    /// Rows in the part.
    height: usize,
    /// Rows of the part already passed on.
    done: usize,
    buffer: Vec<f32>,
}

impl Blocks {
    fn new(width: usize, rows: usize, height: usize) -> Blocks {
        Blocks {
            width,
            rows,
            height,
            done: 0,
            buffer: Vec::new(),
        }
    }

    /// Takes `values`, calling `emit(first_row, block)` for every block completed.
    fn push(
        &mut self,
        mut values: &[f32],
        emit: &mut impl FnMut(usize, &[f32]) -> io::Result<()>,
    ) -> io::Result<()> {
        while !values.is_empty() {
            let rows = self.rows.min(self.height - self.done);
            let block = rows * self.width;
            if self.buffer.is_empty() && values.len() >= block {
                emit(self.done, &values[..block])?;
                values = &values[block..];
            } else {
                let take = (block - self.buffer.len()).min(values.len());
                self.buffer.extend_from_slice(&values[..take]);
                values = &values[take..];
                if self.buffer.len() < block {
                    continue;
                }
                emit(self.done, &self.buffer)?;
                self.buffer.clear();
            }
            self.done += rows;
        }
        Ok(())
    }
}

/// An encoder's error as an I/O error, to pass through a [`BandWriter`].
fn io_error(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

/// OpenEXR: one part (a "layer" of the `exr` crate) per slice of a
/// volume, named `z=K`, or one part; scan-line blocks in increasing y.
fn write_exr(
    file: &mut Output,
    layout: &Layout,
    slabs: Range<usize>,
    produce: &mut impl FnMut(Range<usize>, &mut BandWriter<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    use exr::block::{BlockIndex, UncompressedBlock, writer::ChunksWriter};
    use exr::math::Vec2;
    use exr::meta::BlockDescription;
    use exr::meta::attribute::{ChannelDescription, LineOrder, SampleType, Text};
    use exr::meta::header::Header;
    let shown = file.path().display().to_string();
    let failed = |e: &dyn std::fmt::Display| Failure::Io(format!("cannot write {shown}: {e}"));
    let compression = EXR_COMPRESSION;
    let lines = compression.scan_lines_per_block();
    let names: Vec<String> = match &layout.slices {
        None => vec!["noise".into()],
        Some(slices) => slices.clone().map(|k| format!("z={k}")).collect(),
    };
    let headers = names
        .iter()
        .map(|name| {
            let channel = ChannelDescription::new("Y", SampleType::F32, true);
            Header::new(
                Text::new_or_panic(name),
                (layout.width, layout.height),
                std::iter::once(channel).collect(),
            )
            .with_encoding(
                compression,
                BlockDescription::ScanLines,
                LineOrder::Increasing,
            )
        })
        .collect();
    // The producer's failure, carried out of the exr crate's closure.
    let mut failure = None;
    let written = exr::block::write(&mut *file, headers, true, |meta, writer| {
        for (part, slabs) in parts(layout, slabs).into_iter().enumerate() {
            let mut blocks = Blocks::new(layout.width, lines, layout.height);
            let mut bytes = Vec::new();
            let mut emit = |first_row: usize, block: &[f32]| -> io::Result<()> {
                bytes.clear();
                bytes.extend(block.iter().flat_map(|v| v.to_ne_bytes()));
                let index = BlockIndex {
                    layer: part,
                    pixel_position: Vec2(0, first_row),
                    pixel_size: Vec2(layout.width, block.len() / layout.width),
                    level: Vec2(0, 0),
                };
                let data = std::mem::take(&mut bytes);
                let chunk = UncompressedBlock { index, data }
                    .compress_to_chunk(&meta.headers)
                    .map_err(io_error)?;
                writer
                    .write_chunk(first_row / lines, chunk)
                    .map_err(io_error)
            };
            let result = produce(slabs, &mut |band: Band<'_>| {
                blocks.push(band.values, &mut emit)
            });
            if let Err(e) = result {
                failure = Some(e);
                return Err(exr::error::Error::Aborted);
            }
        }
        Ok(())
    });
    match (failure, written) {
        (Some(e), _) => Err(e),
        (None, Err(e)) => Err(failed(&e)),
        (None, Ok(())) => Ok(()),
    }
}

/// TIFF: one page per slice of a volume (or one page), strips of up to
/// [`BAND_SAMPLES`] samples, no compression (every reader reads it).
/// Float pages record their smallest and largest value in
/// SMinSampleValue and SMaxSampleValue; 16-bit pages their range in the
/// ImageDescription, `noisefield range LO..HI`.
fn write_tiff<W: Write + Seek, K: tiff::encoder::TiffKind>(
    mut encoder: tiff::encoder::TiffEncoder<W, K>,
    layout: &Layout,
    scale: Option<Scale>,
    slabs: Range<usize>,
    produce: &mut impl FnMut(Range<usize>, &mut BandWriter<'_>) -> Result<(), Failure>,
    shown: &str,
) -> Result<(), Failure> {
    use tiff::encoder::colortype::{Gray16, Gray32Float};
    use tiff::tags::Tag;
    let failed = |e: tiff::TiffError| Failure::Io(format!("cannot write {shown}: {e}"));
    let too_big = || {
        Failure::usage(format!(
            "a TIFF page of {}×{} samples is larger than TIFF allows (2^32 - 1 per side)",
            layout.width, layout.height
        ))
    };
    let w = u32::try_from(layout.width).map_err(|_| too_big())?;
    let h = u32::try_from(layout.height).map_err(|_| too_big())?;
    let strip = tiff_strip_rows(layout.width);
    for (page, slabs) in parts(layout, slabs).into_iter().enumerate() {
        let mut blocks = Blocks::new(layout.width, strip, layout.height);
        let slice = layout
            .slices
            .as_ref()
            .map_or(String::new(), |s| format!(", slice z={}", s.start + page));
        match scale {
            Some(scale) => {
                let mut image = encoder.new_image::<Gray16>(w, h).map_err(failed)?;
                image.rows_per_strip(strip as u32).map_err(failed)?;
                let (lo, hi) = scale.range();
                let text = format!("noisefield range {lo}..{hi}{slice}");
                image
                    .encoder()
                    .write_tag(Tag::ImageDescription, text.as_str())
                    .map_err(failed)?;
                let mut words = Vec::new();
                produce(slabs, &mut |band: Band<'_>| {
                    blocks.push(band.values, &mut |_, block| {
                        words.clear();
                        words.extend(block.iter().map(|&v| scale.word(v)));
                        image.write_strip(&words).map_err(io_error)
                    })
                })?;
                image.finish().map_err(failed)?;
            }
            None => {
                let mut image = encoder.new_image::<Gray32Float>(w, h).map_err(failed)?;
                image.rows_per_strip(strip as u32).map_err(failed)?;
                let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
                produce(slabs, &mut |band: Band<'_>| {
                    blocks.push(band.values, &mut |_, block| {
                        for &v in block {
                            lo = lo.min(v);
                            hi = hi.max(v);
                        }
                        image.write_strip(block).map_err(io_error)
                    })
                })?;
                let text = format!("noisefield values {lo}..{hi}{slice}");
                let tags = image.encoder();
                tags.write_tag(Tag::ImageDescription, text.as_str())
                    .map_err(failed)?;
                tags.write_tag(Tag::SMinSampleValue, lo).map_err(failed)?;
                tags.write_tag(Tag::SMaxSampleValue, hi).map_err(failed)?;
                image.finish().map_err(failed)?;
            }
        }
    }
    Ok(())
}

impl Pixels {
    /// The PNG bytes of `band` (whole rows) into `bytes`.
    fn encode(&self, band: Band<'_>, bytes: &mut Vec<u8>) {
        bytes.clear();
        let values = band.values;
        match *self {
            Pixels::Colour(palette, scale) if palette.is_gray() => {
                bytes.extend(values.iter().map(|&v| scale.byte(v)));
            }
            Pixels::Colour(palette, scale) => {
                bytes.extend(values.iter().flat_map(|&v| palette.rgb(scale.t(v) as f32)));
            }
            Pixels::Height(scale) => {
                bytes.extend(values.iter().flat_map(|&v| scale.word(v).to_be_bytes()));
            }
            Pixels::Normal(strength, flip_y) => {
                let [dx, dy] = band
                    .gradient
                    .expect("a normal map's band carries its gradient");
                // Flipped, green is the component along −y: that of −dy.
                let sign = if flip_y { -1.0 } else { 1.0 };
                bytes.extend(
                    dx.iter()
                        .zip(dy)
                        .flat_map(|(&dx, &dy)| normal_rgb(strength, dx, sign * dy)),
                );
            }
        }
    }
}

/// The RGB8 of the unit normal `normalize(−s·dx, −s·dy, 1)`: each
/// component `c` in [−1, 1] as `round(255 · (c + 1) / 2)`, in `f64`.
pub fn normal_rgb(strength: f32, dx: f32, dy: f32) -> [u8; 3] {
    let s = f64::from(strength);
    let n = [-s * f64::from(dx), -s * f64::from(dy), 1.0];
    let length = (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
    n.map(|c| (255.0 * (c / length + 1.0) / 2.0).round().clamp(0.0, 255.0) as u8)
}

/// `values` as little-endian float32 bytes.
pub fn write_f32_le(out: &mut impl Write, values: &[f32]) -> io::Result<()> {
    if cfg!(target_endian = "little") {
        out.write_all(bytemuck::cast_slice(values))
    } else {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        out.write_all(&bytes)
    }
}

/// The header of a version 1.0 `.npy` file of little-endian float32 in C
/// order with this `shape`: the magic, the header length, and a Python
/// dict literal padded with spaces and a newline to a multiple of 64 bytes.
pub fn npy_header(shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
    // A 1-tuple needs its trailing comma: (5,).
    let tuple = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {tuple}, }}");
    // magic (6) + version (2) + length (2) + dict + padding + '\n'
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut header = b"\x93NUMPY\x01\x00".to_vec();
    header.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    header.extend_from_slice(dict.as_bytes());
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_header_is_padded_and_describes_the_shape() {
        let h = npy_header(&[3, 4]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert!(text.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"));
        assert!(text.ends_with(" \n"));
        assert!(
            std::str::from_utf8(&npy_header(&[5])[10..])
                .unwrap()
                .contains("(5,)")
        );
    }

    #[test]
    fn formats_from_extensions() {
        assert_eq!(
            Format::from_extension(Path::new("a/b.NPY")),
            Some(Format::Npy)
        );
        assert_eq!(
            Format::from_extension(Path::new("x.f32")),
            Some(Format::Raw)
        );
        assert_eq!(
            Format::from_extension(Path::new("x.TIFF")),
            Some(Format::Tiff)
        );
        assert_eq!(
            Format::from_extension(Path::new("x.r16")),
            Some(Format::R16)
        );
        assert_eq!(
            Format::from_extension(Path::new("x.exr")),
            Some(Format::Exr)
        );
        assert_eq!(Format::from_extension(Path::new("x.tga")), None);
        assert!(Format::Raw.admits(Format::R16) && !Format::Raw.admits(Format::Npy));
        assert!(Format::Png.admits(Format::Normal) && !Format::Exr.admits(Format::Tiff));
        assert_eq!(Format::from_extension(Path::new("x")), None);
    }
}
