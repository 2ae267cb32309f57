//! Plain values in pages mapped for them alone (`mmap`), never in glibc's heap.
//!
//! alloc-churn measures where glibc's main heap puts its top chunk and whether a query crosses
//! the trim threshold; anything the measurement itself keeps in that heap while the query runs
//! (the timing loop's samples, a replay's bookkeeping) moves the top by its size and changes
//! what is measured. A sample buffer of 2,500 `f64`s is 20 KB: enough to move the top below a
//! query that takes 115 KB and make it fault every call.

use std::ops::{Deref, DerefMut};

/// A fixed-length slice of `T` in its own private anonymous mapping, touched when made (its
/// page faults are the maker's, not those of whatever runs while it is live) and unmapped on
/// drop.
pub struct MappedSlice<T: Copy> {
    ptr: *mut T,
    len: usize,
    bytes: usize,
}

impl<T: Copy> MappedSlice<T> {
    /// `len` copies of `value`.
    pub fn filled(len: usize, value: T) -> std::io::Result<MappedSlice<T>> {
        // mmap refuses a length of 0: map at least one element.
        let bytes = len.max(1).checked_mul(size_of::<T>()).ok_or_else(|| std::io::Error::other("mapped slice too large"))?.max(1);
        assert!(align_of::<T>() <= 4096, "a mapping is page-aligned");
        // SAFETY: a fresh private anonymous mapping, owned by the value and unmapped in Drop.
        let p = unsafe { libc::mmap(std::ptr::null_mut(), bytes, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0) };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let ptr = p.cast::<T>();
        for i in 0..len {
            // SAFETY: i < len slots of the mapping, which is page-aligned.
            unsafe { ptr.add(i).write(value) };
        }
        Ok(MappedSlice { ptr, len, bytes })
    }
}

impl<T: Copy> Deref for MappedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` slots written by `filled`, live until drop.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: Copy> DerefMut for MappedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in deref; `&mut self` is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl<T: Copy> Drop for MappedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `filled`, `bytes` long.
        unsafe { libc::munmap(self.ptr.cast(), self.bytes) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[heap]` mapping (glibc's main heap), from /proc/self/maps.
    fn heap() -> Option<(usize, usize)> {
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        let line = maps.lines().find(|l| l.ends_with("[heap]"))?;
        let (lo, hi) = line.split_whitespace().next()?.split_once('-')?;
        Some((usize::from_str_radix(lo, 16).ok()?, usize::from_str_radix(hi, 16).ok()?))
    }

    #[test]
    fn holds_its_values_outside_the_heap() {
        let mut s = MappedSlice::filled(5000, 1.5f64).unwrap();
        assert_eq!(s.len(), 5000);
        assert!(s.iter().all(|&x| x == 1.5));
        s[4999] = 2.0;
        s.sort_by(|a, b| a.total_cmp(b));
        assert_eq!((s[0], s[4999]), (1.5, 2.0));
        let at = s.as_ptr() as usize;
        assert!(at % 4096 == 0, "page-aligned: {at:#x}");
        // A mapping of its own, not in glibc's main heap.
        if let Some((lo, hi)) = heap() {
            assert!(at + 5000 * 8 <= lo || at >= hi, "{at:#x} in the heap {lo:#x}-{hi:#x}");
        }
        let e: MappedSlice<u64> = MappedSlice::filled(0, 0).unwrap();
        assert!(e.is_empty());
    }
}
