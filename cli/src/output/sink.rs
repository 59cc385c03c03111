//! An open output ([`Output`]): a temporary file renamed over its path
//! when complete (keeping the old file's owner and mode), a stream written
//! directly, or a stream spooled through a temporary file for an encoder
//! that seeks.

use super::refuse;
use super::target::Target;
use crate::Failure;
use crate::interrupt::Pending;
use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use tempfile::TempPath;

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
