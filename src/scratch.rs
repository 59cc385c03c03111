//! Buffers of grid fills, reused per thread: [`Scratch`] is a vector that,
//! when dropped, goes back to its thread's pool, and the next fill's plan
//! (axis samples, row planes, coefficient blocks, fractal octaves) takes it
//! from there instead of from the allocator.
//!
//! A field filled window by window (the command-line tool's very wide rows:
//! 16384-sample windows of one row) otherwise had the allocator hand out and
//! take back some 4 MiB per window: glibc returned the memory to the system
//! after every window, and touching it again cost a page fault per 4 KiB.
//! For a 16777216 × 2 field that was 900,000 page faults and 2,000 `madvise`
//! calls, more than half of the run.
//!
//! Bounded: a thread keeps at most [`POOLED_BYTES`] in at most
//! [`POOLED_BUFFERS`] buffers per element type; a buffer that would go over
//! is freed as usual. Buffers are handed out without being cleared to zero:
//! every user writes what it reads (`extend`, `resize`, `collect`), and
//! [`Scratch::reused`] keeps a buffer's old values for users that write
//! every value that reaches an output before reading it.
//!
//! Constant work per buffer: a pool keeps its buffers by size class (the
//! class of a capacity `c` is `⌊log₂ c⌋`), so a request for `n` elements
//! looks at the top of a class or two, never scans the pool. A small grid's
//! fill takes some 17 buffers; scanning a pool of them had cost 170
//! instructions per buffer, a sixth of a 64² grid's time.

use std::cell::{Cell, RefCell};
use std::ops::{Deref, DerefMut};

/// The most bytes of buffers one thread keeps for reuse, all element types
/// together.
pub(crate) const POOLED_BYTES: usize = 32 << 20;

/// The most buffers one thread keeps per element type.
const POOLED_BUFFERS: usize = 48;

/// Size classes: capacities below 2^`CLASSES` (more than any allocation can
/// hold) by their highest set bit.
const CLASSES: usize = usize::BITS as usize;

/// New buffers up to this many elements get a power-of-two capacity, so
/// that the class a request looks in first always holds them.
const ROUNDED_UP_TO: usize = 1 << 16;

/// One thread's pools: the bytes of their buffers and a pool per element
/// type, in one thread-local (one lookup per buffer taken or given back).
pub(crate) struct Pools {
    bytes: Cell<usize>,
    f64: RefCell<Pool<f64>>,
    f32: RefCell<Pool<f32>>,
    u32: RefCell<Pool<u32>>,
    u8: RefCell<Pool<u8>>,
    usize: RefCell<Pool<usize>>,
    // Pools of the tests' own.
    #[cfg(test)]
    u16: RefCell<Pool<u16>>,
    #[cfg(test)]
    i16: RefCell<Pool<i16>>,
}

thread_local! {
    static POOLS: Pools = const {
        Pools {
            bytes: Cell::new(0),
            f64: RefCell::new(Pool::new()),
            f32: RefCell::new(Pool::new()),
            u32: RefCell::new(Pool::new()),
            u8: RefCell::new(Pool::new()),
            usize: RefCell::new(Pool::new()),
            #[cfg(test)]
            u16: RefCell::new(Pool::new()),
            #[cfg(test)]
            i16: RefCell::new(Pool::new()),
        }
    };
}

/// A vector that returns to its thread's pool when dropped.
#[derive(Debug, Default)]
pub(crate) struct Scratch<T: Pooled>(Vec<T>);

/// One thread's buffers of one element type, by size class.
pub(crate) struct Pool<T> {
    classes: [Vec<Vec<T>>; CLASSES],
    count: usize,
}

impl<T> Pool<T> {
    pub(crate) const fn new() -> Pool<T> {
        Pool {
            classes: [const { Vec::new() }; CLASSES],
            count: 0,
        }
    }

    /// A buffer with room for `n` elements, if the pool has one: the last
    /// one given back to `n`'s floor class if it is large enough, else one
    /// from the next two classes (each of their buffers is).
    fn take(&mut self, n: usize) -> Option<Vec<T>> {
        let floor = floor_log2(n);
        let found = match self.classes[floor].last() {
            Some(v) if v.capacity() >= n => Some(floor),
            _ => (floor + 1..CLASSES.min(floor + 3)).find(|&c| !self.classes[c].is_empty()),
        };
        let v = self.classes[found?].pop()?;
        self.count -= 1;
        Some(v)
    }

    /// Keeps `v` unless the pool holds [`POOLED_BUFFERS`] already (then
    /// gives it back).
    fn give(&mut self, v: Vec<T>) -> Result<(), Vec<T>> {
        if self.count >= POOLED_BUFFERS {
            return Err(v);
        }
        self.count += 1;
        self.classes[floor_log2(v.capacity())].push(v);
        Ok(())
    }
}

/// `⌊log₂ n⌋` (0 for 0).
fn floor_log2(n: usize) -> usize {
    n.checked_ilog2().unwrap_or(0) as usize
}

/// An element type with a pool of buffers per thread.
pub(crate) trait Pooled: Copy + std::fmt::Debug + 'static {
    /// This type's pool among a thread's pools.
    fn pool(pools: &Pools) -> &RefCell<Pool<Self>>;
}

macro_rules! pooled {
    ($($t:ident),*) => {$(
        impl Pooled for $t {
            fn pool(pools: &Pools) -> &RefCell<Pool<$t>> {
                &pools.$t
            }
        }
    )*};
}

pooled!(f64, f32, u32, u8, usize);

/// The bytes a buffer holds.
fn bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * size_of::<T>()
}

impl<T: Pooled> Scratch<T> {
    /// An empty vector with room for at least `n` elements: a pooled
    /// buffer that has it, else a new one.
    pub(crate) fn with_capacity(n: usize) -> Scratch<T> {
        let mut v = Scratch::pooled(n);
        v.0.clear();
        v
    }

    /// `n` values that are initialised but otherwise unspecified (a pooled
    /// buffer's old values, then `fill`): for buffers whose users write
    /// every value that reaches an output before reading it, which saves
    /// the zeroing of [`Scratch::filled`].
    pub(crate) fn reused(n: usize, fill: T) -> Scratch<T> {
        let mut v = Scratch::pooled(n);
        v.0.truncate(n);
        v.0.resize(n, fill);
        v
    }

    /// A pooled buffer with room for `n` elements, with its old values,
    /// else a new, empty one. (No pool while the thread is being torn
    /// down, or while its pool is in use.)
    fn pooled(n: usize) -> Scratch<T> {
        let taken = POOLS.try_with(|pools| {
            let v = T::pool(pools).try_borrow_mut().ok()?.take(n)?;
            pools.bytes.set(pools.bytes.get() - bytes(&v));
            Some(v)
        });
        match taken.ok().flatten() {
            Some(v) => Scratch(v),
            None if n <= ROUNDED_UP_TO => Scratch(Vec::with_capacity(n.next_power_of_two())),
            None => Scratch(Vec::with_capacity(n)),
        }
    }

    /// `n` copies of `value`.
    pub(crate) fn filled(n: usize, value: T) -> Scratch<T> {
        let mut v = Scratch::with_capacity(n);
        v.0.resize(n, value);
        v
    }
}

impl<T: Pooled> Drop for Scratch<T> {
    fn drop(&mut self) {
        let v = std::mem::take(&mut self.0);
        let b = bytes(&v);
        if b == 0 {
            return;
        }
        // (A buffer that is not kept is freed as usual.)
        let _ = POOLS.try_with(|pools| {
            let total = pools.bytes.get();
            if total + b > POOLED_BYTES {
                return;
            }
            let Ok(mut pool) = T::pool(pools).try_borrow_mut() else {
                return;
            };
            if pool.give(v).is_ok() {
                pools.bytes.set(total + b);
            }
        });
    }
}

impl<T: Pooled> Deref for Scratch<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Pooled> DerefMut for Scratch<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<'a, T: Pooled> IntoIterator for &'a Scratch<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> std::slice::Iter<'a, T> {
        self.0.iter()
    }
}

impl<'a, T: Pooled> IntoIterator for &'a mut Scratch<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> std::slice::IterMut<'a, T> {
        self.0.iter_mut()
    }
}

impl<T: Pooled> Clone for Scratch<T> {
    fn clone(&self) -> Scratch<T> {
        self.iter().copied().collect()
    }
}

impl<T: Pooled> FromIterator<T> for Scratch<T> {
    /// Inlined, so that a collecting loop in a kernel job is compiled with
    /// the job's level's instructions.
    #[inline(always)]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Scratch<T> {
        let iter = iter.into_iter();
        let mut v = Scratch::with_capacity(iter.size_hint().0);
        v.0.extend(iter);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::{POOLED_BYTES, POOLS, Pool, Pooled, Pools, Scratch};
    use std::cell::RefCell;

    // u16: a pool no other code uses, so the buffers below are its only
    // ones, whichever thread runs the test (the emulated CI runs every test
    // on one thread and cannot start another).
    pooled!(u16, i16);

    fn pooled() -> usize {
        POOLS.with(|pools| pools.bytes.get())
    }

    /// A dropped buffer is handed out again (the same memory, no
    /// allocation), to a request it can hold; a larger request gets a new
    /// one; the bytes pooled never pass `POOLED_BYTES`.
    #[test]
    fn buffers_are_reused_within_the_bound() {
        let start = pooled();
        let a: Scratch<u16> = Scratch::filled(1000, 7);
        let (at, bytes) = (a.as_ptr(), a.capacity() * 2);
        drop(a);
        assert_eq!(pooled(), start + bytes);
        let b: Scratch<u16> = Scratch::with_capacity(500);
        assert_eq!(b.as_ptr(), at, "the pooled buffer is reused");
        assert!(b.is_empty(), "a reused buffer starts empty");
        assert_eq!(pooled(), start);
        let c: Scratch<u16> = Scratch::with_capacity(2000);
        assert_ne!(c.as_ptr(), at, "too small a buffer is not handed out");
        drop((b, c));
        let small = pooled();
        // Three buffers of half the bound each (capacity only: no page is
        // touched): at most one is kept, and one is when there is room.
        let big: Vec<Scratch<u16>> = (0..3)
            .map(|_| Scratch::with_capacity(POOLED_BYTES / 4))
            .collect();
        drop(big);
        let kept = pooled();
        assert!(kept <= POOLED_BYTES, "{kept} bytes kept");
        if small + POOLED_BYTES / 2 <= POOLED_BYTES {
            assert_eq!(kept, small + POOLED_BYTES / 2, "one half-bound buffer kept");
        } else {
            assert_eq!(kept, small);
        }
    }

    /// `reused` hands out a pooled buffer at the length asked for, with the
    /// values it held (values some user wrote, never uninitialised memory)
    /// and `fill` past them; `with_capacity` still starts empty. (`i16`: a
    /// pool of this test's alone.)
    #[test]
    fn reused_buffers_keep_their_values_and_fill_the_rest() {
        let a: Scratch<i16> = Scratch::filled(1000, 7);
        let at = a.as_ptr();
        drop(a);
        let b: Scratch<i16> = Scratch::reused(400, 3);
        assert_eq!((b.as_ptr(), b.len()), (at, 400));
        assert!(b.iter().all(|&v| v == 7), "the old values are kept");
        drop(b);
        let c: Scratch<i16> = Scratch::reused(900, 3);
        assert_eq!((c.as_ptr(), c.len()), (at, 900));
        assert!(c[..400].iter().all(|&v| v == 7));
        assert!(
            c[400..].iter().all(|&v| v == 3),
            "past the old values, the fill"
        );
        drop(c);
        let d: Scratch<i16> = Scratch::with_capacity(300);
        assert_eq!(d.as_ptr(), at);
        assert!(d.is_empty());
    }

    /// A pool hands out a buffer with room for the request, from the
    /// request's class or the two above it (never one from further up); it
    /// keeps at most `POOLED_BUFFERS`.
    #[test]
    fn pools_hand_out_buffers_by_class() {
        let mut pool: Pool<u8> = Pool::new();
        for capacity in [3, 100, 5000, 1 << 20] {
            pool.give(Vec::with_capacity(capacity)).unwrap();
        }
        let capacity = |v: Option<Vec<u8>>| v.map(|v| v.capacity());
        assert_eq!(capacity(pool.take(6000)), None, "no buffer that large");
        assert_eq!(capacity(pool.take(1000)), None, "5000 is 3 classes up");
        let taken = capacity(pool.take(90)).unwrap();
        assert!((100..128).contains(&taken), "{taken}");
        assert!(capacity(pool.take(4000)).unwrap() >= 5000);
        assert!(capacity(pool.take(1)).unwrap() >= 3);
        assert!(capacity(pool.take(300_000)).unwrap() >= 1 << 20);
        assert_eq!(pool.count, 0);
        for _ in 0..super::POOLED_BUFFERS {
            pool.give(Vec::with_capacity(8)).unwrap();
        }
        assert!(
            pool.give(Vec::with_capacity(8)).is_err(),
            "the pool is full"
        );
    }

    /// Collecting and cloning give the values, whatever buffer they land in.
    #[test]
    fn collected_and_cloned_values() {
        drop(Scratch::<f32>::filled(64, 9.0));
        let v: Scratch<f32> = (0..10).map(|i| i as f32).collect();
        assert_eq!(&v[..], &[0., 1., 2., 3., 4., 5., 6., 7., 8., 9.]);
        assert_eq!(&v.clone()[..], &v[..]);
    }
}
