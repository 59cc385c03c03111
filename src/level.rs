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
/// Every level computes the same bits as every other for every input, on
/// every architecture; levels differ only in speed. `Scalar` and `Portable`
/// run everywhere; each other level belongs to one architecture and is
/// available where the CPU has its instructions ([`Level::is_available`]).
/// New levels may be added (the enum is `#[non_exhaustive]`). The order
/// (`Ord`) is the declaration order, for sorting; within one architecture it
/// runs from slowest to fastest, across architectures it means nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Level {
    /// One point at a time, plain `f32` arithmetic. Always available.
    Scalar,
    /// `wide::f32x4`, 4 lanes, with the instruction set fixed when the crate
    /// was compiled (SSE2 on a default x86_64 build, NEON on aarch64).
    /// Always available.
    Portable,
    /// aarch64 NEON (Advanced SIMD), 4 lanes, `std::arch` intrinsics; 16
    /// points per kernel pack, permutation lookups with `tbl` over four
    /// 64-byte tables.
    Neon,
    /// x86_64 AVX2, 8 lanes, `std::arch` intrinsics; 32 points per kernel
    /// pack with hashes in byte lanes, permutation lookups by a `vpshufb` tree.
    Avx2,
    /// x86_64 AVX-512 F + BW + VBMI, 16 lanes, 64 points per kernel pack; the
    /// permutation lives in four registers and is read with `vpermi2b`.
    Avx512,
}

/// Every level, in declaration order (bit `i` of [`AVAILABLE`] is `ALL[i]`).
const ALL: [Level; 5] = [
    Level::Scalar,
    Level::Portable,
    Level::Neon,
    Level::Avx2,
    Level::Avx512,
];

/// 0 = not detected yet; otherwise bit 7 set and bit `i` set where `ALL[i]`
/// runs on this CPU.
static AVAILABLE: AtomicU8 = AtomicU8::new(0);

/// The availability bits, detected on first use.
fn available_bits() -> u8 {
    match AVAILABLE.load(Ordering::Relaxed) {
        0 => {
            let bits = ALL
                .iter()
                .enumerate()
                .filter(|(_, l)| crate::simd::cpu_has(**l))
                .fold(0x80, |bits, (i, _)| bits | 1 << i);
            AVAILABLE.store(bits, Ordering::Relaxed);
            bits
        }
        bits => bits,
    }
}

impl Level {
    /// The fastest level this CPU supports. Detected on first use, then cached.
    ///
    /// Safe to call from many threads at once: each racing first caller
    /// computes the same value and stores it.
    pub fn detect() -> Level {
        // The last available level in declaration order: the ISA levels of
        // one architecture are declared slowest first.
        let bits = available_bits() & 0x7f;
        ALL[(u8::BITS - 1 - bits.leading_zeros()) as usize]
    }

    /// Every level usable here, slowest first, best last.
    pub fn available() -> Vec<Level> {
        ALL.iter().copied().filter(|l| l.is_available()).collect()
    }

    /// Every level this crate knows, on any architecture.
    pub fn all() -> &'static [Level] {
        &ALL
    }

    /// Whether this level can run on this CPU (decided per level: an
    /// x86_64 level is never available on aarch64, and the other way round).
    pub fn is_available(self) -> bool {
        available_bits() & 1 << self as u8 != 0
    }

    /// `f32` lanes of one vector register at this level (a kernel pack may
    /// cover several registers: 16 points for NEON, 32 for AVX2, 64 for
    /// AVX-512).
    pub fn lanes(self) -> usize {
        match self {
            Level::Scalar => 1,
            Level::Portable | Level::Neon => 4,
            Level::Avx2 => 8,
            Level::Avx512 => 16,
        }
    }

    /// Lower-case name, as accepted by [`Level::from_str`](FromStr).
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Portable => "portable",
            Level::Neon => "neon",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }
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
            "unknown SIMD level {:?}: expected scalar, portable, neon, avx2 or avx512",
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
