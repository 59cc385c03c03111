//! SIMD levels, CPU detection and its cache.
//!
//! Detection runs at most a few times (once per racing thread at start-up, each
//! computing the same answer) and is then read from one atomic byte. The kernel
//! for a batch call is chosen once per call, from the `Perlin`'s level, outside
//! every loop.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

/// An instruction-set level the batch kernels can run at.
///
/// Every level computes the same bits as every other for every input; levels
/// differ only in speed. Ordered from slowest to fastest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// One point at a time, plain `f32` arithmetic. Always available.
    Scalar,
    /// `wide::f32x8`, 8 lanes, with the instruction set fixed when the crate
    /// was compiled (SSE2 on a default x86_64 build). Always available.
    Portable,
    /// AVX2, 8 lanes, `std::arch` intrinsics; 32 points per kernel step with
    /// hashes in byte lanes, permutation lookups by a `vpshufb` tree.
    Avx2,
    /// AVX-512 F + BW + VBMI, 16 lanes, 64 points per kernel step; the
    /// permutation lives in four registers and is read with `vpermi2b`.
    Avx512,
}

const ALL: [Level; 4] = [Level::Scalar, Level::Portable, Level::Avx2, Level::Avx512];

/// 0 = not detected yet; otherwise 1 + the index of the best level in `ALL`.
static BEST: AtomicU8 = AtomicU8::new(0);

impl Level {
    /// The fastest level this CPU supports. Detected on first use, then cached.
    ///
    /// Safe to call from many threads at once: each racing first caller
    /// computes the same value and stores it.
    pub fn detect() -> Level {
        match BEST.load(Ordering::Relaxed) {
            0 => {
                let best = detect_uncached();
                BEST.store(best as u8 + 1, Ordering::Relaxed);
                best
            }
            n => ALL[(n - 1) as usize],
        }
    }

    /// Every level usable here, slowest first, best last.
    pub fn available() -> Vec<Level> {
        ALL.iter().copied().filter(|l| l.is_available()).collect()
    }

    /// Whether this level can run on this CPU.
    pub fn is_available(self) -> bool {
        self <= Level::detect()
    }

    /// `f32` lanes of one vector register at this level (a kernel step may
    /// cover several registers: 32 points for AVX2, 64 for AVX-512).
    pub fn lanes(self) -> usize {
        match self {
            Level::Scalar => 1,
            Level::Portable | Level::Avx2 => 8,
            Level::Avx512 => 16,
        }
    }

    /// Lower-case name, as accepted by [`Level::from_str`](FromStr).
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Portable => "portable",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn detect_uncached() -> Level {
    if std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("avx2")
    {
        Level::Avx512
    } else if std::is_x86_feature_detected!("avx2") {
        Level::Avx2
    } else {
        Level::Portable
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_uncached() -> Level {
    Level::Portable
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Level`] from a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLevelError(String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown SIMD level {:?}: expected scalar, portable, avx2 or avx512",
            self.0
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        ALL.iter()
            .copied()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}
