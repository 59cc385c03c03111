//! Signals: a command stopped by Ctrl-C, `kill` or a closed terminal leaves
//! no temporary file behind, and a file-size limit is an error, not a death.
//!
//! ```text
//! SIGINT, SIGTERM, SIGHUP   a thread removes every temporary output file still
//!                           open (Pending), then exits 128 + the signal: 130, 143, 129
//! SIGXFSZ (ulimit -f)       ignored: the write past the limit fails with EFBIG,
//!                           reported as an I/O error (exit 1), the temporary removed
//! SIGKILL                   cannot be caught: a `.noisefield-*.part` file may stay
//! ```
//!
//! A temporary file is registered while it is written ([`Pending::new`]) and
//! leaves the register when it is renamed to its path or removed. The rename
//! happens under the register's lock ([`Pending::persist`]), so a signal
//! either finds the temporary file and removes it, or comes after the rename
//! and finds the finished output: never half of each.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// The temporary files being written, by path.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The register, whatever a panicking holder left (a list of paths stays
/// valid).
fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Installs the handlers: a thread that waits for SIGINT, SIGTERM and
/// SIGHUP, and SIGXFSZ caught and ignored. Called once by `main` (not by
/// [`crate::run`], which the fuzz target calls in-process).
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
    // A flag nobody reads: catching the signal is what matters, so that the
    // default action (ending the process) does not happen.
    signal_hook::flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false)))?;
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the exit: no rename can start after this.
                let paths = pending();
                for path in paths.iter() {
                    let _ = std::fs::remove_file(path);
                }
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// A temporary file in the register until it is renamed or dropped.
#[derive(Debug)]
pub struct Pending {
    path: PathBuf,
}

impl Pending {
    /// Registers `path`, a temporary file just created.
    pub fn new(path: &Path) -> Pending {
        pending().push(path.to_path_buf());
        Pending {
            path: path.to_path_buf(),
        }
    }

    /// Runs `rename` (which moves the temporary file to its final path)
    /// with the register locked, and takes the file out of the register.
    pub fn persist<T>(self, rename: impl FnOnce() -> T) -> T {
        let mut paths = pending();
        let result = rename();
        paths.retain(|p| *p != self.path);
        result
    }
}

/// Dropped without [`Pending::persist`]: the file is being removed (the
/// temporary file's own drop does it), so it leaves the register.
impl Drop for Pending {
    fn drop(&mut self) {
        pending().retain(|p| *p != self.path);
    }
}
