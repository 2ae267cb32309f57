//! A simplified PostgreSQL memory context: aset.c's AllocSet over a pluggable `malloc`.
//!
//! What it keeps from `src/backend/utils/mmgr/aset.c` (reference §1.3, §5):
//! - **Blocks from malloc.** A context mallocs blocks of `initBlockSize` (8 KiB for
//!   `ALLOCSET_DEFAULT_SIZES`), doubling per new block up to `maxBlockSize` (8 MiB), and carves
//!   chunks out of the newest block (the head of the block list). When a chunk no longer fits,
//!   the rest of the old block is cut into power-of-two chunks for the free lists, as
//!   `AllocSetAllocFromNewBlock` does.
//! - **Chunks.** Requests up to `ALLOC_CHUNK_LIMIT` (8192) round up to a power of two from 8
//!   bytes (`AllocSetFreeIndex`, 11 free lists) and carry an 8-byte chunk header; `pfree`
//!   pushes the chunk onto its free list and the next request of that size class pops it.
//!   `palloc0(248)` (an `IndexAmRoutine`) is a 256-byte chunk plus its header.
//! - **Large requests.** Anything over the chunk limit gets a dedicated malloc'd block
//!   (`AllocSetAllocLarge`), linked in under the active block, and `pfree` hands that block
//!   straight back to `free`: the 27,352-byte `BTScanOpaqueData` of every B-tree scan.
//! - **Reset.** `MemoryContextReset` frees every block except the keeper, the first block that
//!   was malloc'd together with the context header, and empties the free lists.
//! - **`CurrentMemoryContext` and `pfree` by header.** `palloc` allocates in the current
//!   context; `pfree` finds the owning context from the chunk header, as PostgreSQL's
//!   `MemoryChunk` lets it.
//!
//! - **Context free lists.** Deleting a context of the two standard sizes (default: 0 / 8 KiB,
//!   small: 0 / 1 KiB) resets it and keeps it, header and keeper block, on aset.c's
//!   `context_freelists` for the next context of that size; when a list already holds
//!   [`MAX_FREE_CONTEXTS`] (100), every context on it is freed first. So a query that creates
//!   and deletes more than 100 such contexts (an `ExprContext` per partition) mallocs and frees
//!   them every time, and one with fewer recycles them.
//!
//! What it simplifies: one method (AllocSet only; no generation, slab or bump contexts), no
//! context tree (parents, children, `MemoryContextDelete` of subtrees), no `repalloc`, no
//! accounting beyond `mem_allocated`, no `MEMORY_CONTEXT_CHECKING` sentinels or Valgrind hooks. The chunk header holds the method
//! id, an external flag, the free-list index and the offset back to the block, like
//! `MemoryChunk`, but in a bit layout of our own. Out of memory aborts, as Rust's own
//! allocation failures do, where PostgreSQL raises `ERROR`.
//!
//! The backend is the point of the study: [`MallocBackend::Libc`] is the C library's malloc
//! (glibc on linux-gnu, whose trim threshold makes the cliff), [`MallocBackend::Mimalloc`] is
//! mimalloc's `mi_malloc`/`mi_free`, which does not give memory back to the kernel on every
//! free. [`glibc`] holds the `mallopt` settings and a probe of whether the heap is trimmed.

use std::cell::Cell;
use std::fmt;
use std::ptr::{self, NonNull};

/// Smallest chunk: 1 << 3 = 8 bytes.
pub const ALLOC_MINBITS: usize = 3;
/// Free lists: chunk sizes 8, 16, ... 8192.
pub const ALLOCSET_NUM_FREELISTS: usize = 11;
/// Largest request served from a free-list chunk: `1 << (11 - 1 + 3)` = 8192.
pub const ALLOC_CHUNK_LIMIT: usize = 1 << (ALLOCSET_NUM_FREELISTS - 1 + ALLOC_MINBITS);
/// A chunk must fit this many times in a max-size block (aset.c lowers the limit otherwise).
pub const ALLOC_CHUNK_FRACTION: usize = 4;
/// `sizeof(AllocBlockData)`: aset, prev, next, freeptr, endptr.
pub const ALLOC_BLOCKHDRSZ: usize = size_of::<AllocBlockData>();
/// `sizeof(MemoryChunk)`: the 8-byte chunk header.
pub const ALLOC_CHUNKHDRSZ: usize = size_of::<u64>();
/// `ALLOCSET_DEFAULT_MINSIZE`.
pub const ALLOCSET_DEFAULT_MINSIZE: usize = 0;
/// `ALLOCSET_DEFAULT_INITSIZE`.
pub const ALLOCSET_DEFAULT_INITSIZE: usize = 8 * 1024;
/// `ALLOCSET_DEFAULT_MAXSIZE`.
pub const ALLOCSET_DEFAULT_MAXSIZE: usize = 8 * 1024 * 1024;
/// `ALLOCSET_SMALL_INITSIZE` (its min size is 0, its max `ALLOCSET_SMALL_MAXSIZE`, 8 KiB).
pub const ALLOCSET_SMALL_INITSIZE: usize = 1024;
/// `ALLOCSET_SMALL_MAXSIZE`.
pub const ALLOCSET_SMALL_MAXSIZE: usize = 8 * 1024;

const _: () = {
    assert!(ALLOC_CHUNK_LIMIT == 8192);
    assert!(ALLOC_BLOCKHDRSZ == 40);
    assert!(ALLOC_CHUNKHDRSZ == 8);
};

/// `MAX_FREE_CONTEXTS`: deleted contexts aset.c keeps for reuse, per standard size.
pub const MAX_FREE_CONTEXTS: usize = 100;

/// The context free list of a context created with these sizes (aset.c: 0 for
/// `ALLOCSET_DEFAULT_SIZES`, 1 for `ALLOCSET_SMALL_SIZES`, matched on the minimum and initial
/// sizes), if any.
const fn free_list_index(min_context_size: usize, init_block_size: usize) -> Option<usize> {
    match (min_context_size, init_block_size) {
        (ALLOCSET_DEFAULT_MINSIZE, ALLOCSET_DEFAULT_INITSIZE) => Some(0),
        (0, ALLOCSET_SMALL_INITSIZE) => Some(1),
        _ => None,
    }
}

/// `MAXALIGN` (8 on x86-64).
#[inline(always)]
const fn maxalign(n: usize) -> usize {
    (n + 7) & !7
}

// ---------------------------------------------------------------------------------------------
// The malloc underneath.

/// Where an AllocSet gets its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MallocBackend {
    /// The C library's `malloc`/`free` (glibc on linux-gnu: what PostgreSQL uses).
    Libc,
    /// mimalloc's `mi_malloc`/`mi_free` (libmimalloc-sys), standing in for an LD_PRELOADed
    /// allocator.
    Mimalloc,
}

impl MallocBackend {
    /// A small index per backend (the context free lists').
    const fn index(self) -> usize {
        match self {
            MallocBackend::Libc => 0,
            MallocBackend::Mimalloc => 1,
        }
    }

    /// `malloc(size)`; null when out of memory.
    ///
    /// # Safety
    /// As C's `malloc`.
    #[inline]
    pub unsafe fn malloc(self, size: usize) -> *mut u8 {
        unsafe {
            match self {
                MallocBackend::Libc => libc::malloc(size).cast(),
                MallocBackend::Mimalloc => libmimalloc_sys::mi_malloc(size).cast(),
            }
        }
    }

    /// `free(p)`.
    ///
    /// # Safety
    /// `p` must come from [`MallocBackend::malloc`] of the same backend and not be freed yet.
    #[inline]
    pub unsafe fn free(self, p: *mut u8) {
        unsafe {
            match self {
                MallocBackend::Libc => libc::free(p.cast()),
                MallocBackend::Mimalloc => libmimalloc_sys::mi_free(p.cast()),
            }
        }
    }
}

impl fmt::Display for MallocBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MallocBackend::Libc if cfg!(target_env = "gnu") => "glibc",
            MallocBackend::Libc => "libc",
            MallocBackend::Mimalloc => "mimalloc",
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The structures.

/// `AllocBlockData`: the header at the start of every malloc'd block.
#[repr(C)]
pub struct AllocBlockData {
    /// The owning set.
    aset: *mut AllocSetData,
    /// Previous block in the set's list (null for the head).
    prev: *mut AllocBlockData,
    /// Next block.
    next: *mut AllocBlockData,
    /// Start of free space in this block.
    freeptr: *mut u8,
    /// End of this block.
    endptr: *mut u8,
}

/// Method id of AllocSet chunks in the header's low bits (`MCTX_ASET_ID`; our value).
const MCTX_ASET_ID: u64 = 3;
const METHOD_BITS: u64 = 4;
const METHOD_MASK: u64 = (1 << METHOD_BITS) - 1;
const EXTERNAL_BIT: u64 = 1 << METHOD_BITS;
const VALUE_SHIFT: u64 = METHOD_BITS + 1;
const VALUE_MASK: u64 = (1 << 30) - 1;
const OFFSET_SHIFT: u64 = VALUE_SHIFT + 30;

/// `AllocSetContext`: lives at the start of the keeper block's malloc, as in aset.c.
#[repr(C)]
pub struct AllocSetData {
    /// Head of the block list: the block chunks are carved from.
    blocks: *mut AllocBlockData,
    /// Free chunk lists by size class; each free chunk's data holds the next link.
    freelist: [*mut u8; ALLOCSET_NUM_FREELISTS],
    /// `initBlockSize`.
    init_block_size: usize,
    /// `maxBlockSize`.
    max_block_size: usize,
    /// `nextBlockSize`.
    next_block_size: usize,
    /// `allocChunkLimit`.
    alloc_chunk_limit: usize,
    /// The keeper block, never freed by reset.
    keeper: *mut AllocBlockData,
    /// `mem_allocated`: bytes of all blocks (keeper included).
    mem_allocated: usize,
    /// Where blocks come from.
    backend: MallocBackend,
    /// Context name.
    name: &'static str,
    /// Calls to the backend's malloc / free since creation (a context taken from a free list
    /// starts again at 0: its keeper was malloc'd by an earlier context).
    mallocs: u64,
    frees: u64,
    /// Its context free list ([`free_list_index`]).
    free_list_index: Option<usize>,
    /// The next context on that list while this one waits there (aset.c links them through
    /// `nextchild`).
    next_free: *mut AllocSetData,
}

/// Counters of one context, for tests and reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContextStats {
    /// Blocks now held (keeper and dedicated blocks included).
    pub blocks: usize,
    /// Of which dedicated (large-chunk) blocks.
    pub dedicated_blocks: usize,
    /// `mem_allocated`.
    pub mem_allocated: usize,
    /// malloc calls since creation (the keeper's included).
    pub mallocs: u64,
    /// free calls since creation.
    pub frees: u64,
    /// Chunks on each free list.
    pub free_chunks: [usize; ALLOCSET_NUM_FREELISTS],
    /// Bytes of each block, oldest first (the keeper's counts the context header too).
    pub block_sizes: Vec<usize>,
    /// Free bytes: each block's unused tail, and the chunks on the free lists with their
    /// headers (what `AllocSetStats` counts as free).
    pub free_bytes: usize,
}

impl ContextStats {
    /// Bytes held in blocks: `MemoryContextStats`'s "total".
    pub fn total(&self) -> usize {
        self.block_sizes.iter().sum()
    }

    /// Bytes in use: total less free, as `MemoryContextStats` prints "used".
    pub fn used(&self) -> usize {
        self.total() - self.free_bytes
    }
}

/// `AllocSetFreeIndex`: the free list of a request of `size` bytes (<= chunk limit).
#[inline(always)]
pub const fn free_index(size: usize) -> usize {
    if size > (1 << ALLOC_MINBITS) {
        // pg_leftmost_one_pos32((size - 1) >> ALLOC_MINBITS) + 1
        (usize::BITS - ((size - 1) >> ALLOC_MINBITS).leading_zeros()) as usize
    } else {
        0
    }
}

/// Chunk size of free list `fidx`.
#[inline(always)]
pub const fn chunk_size(fidx: usize) -> usize {
    1 << (fidx + ALLOC_MINBITS)
}

const _: () = {
    assert!(free_index(1) == 0 && free_index(8) == 0 && free_index(9) == 1);
    assert!(chunk_size(free_index(248)) == 256);
    assert!(chunk_size(free_index(8192)) == 8192 && free_index(8192) == ALLOCSET_NUM_FREELISTS - 1);
};

/// An AllocSet memory context. Dropping it deletes the context (every block, keeper too).
pub struct AllocSet {
    set: NonNull<AllocSetData>,
}

thread_local! {
    /// `CurrentMemoryContext`: where [`palloc`] allocates.
    static CURRENT_MEMORY_CONTEXT: Cell<*mut AllocSetData> = const { Cell::new(ptr::null_mut()) };
}

#[cold]
#[inline(never)]
fn out_of_memory(size: usize) -> ! {
    std::alloc::handle_alloc_error(std::alloc::Layout::from_size_align(size.max(1), 8).unwrap_or(std::alloc::Layout::new::<u64>()))
}

impl AllocSet {
    /// `AllocSetContextCreate(parent, name, minContextSize, initBlockSize, maxBlockSize)`:
    /// one malloc holds the context header and the keeper block.
    pub fn new(name: &'static str, backend: MallocBackend, min_context_size: usize, init_block_size: usize, max_block_size: usize) -> AllocSet {
        assert!(init_block_size >= 1024 && max_block_size >= init_block_size, "AllocSet {name}: bad block sizes {init_block_size}/{max_block_size}");
        let hdr = maxalign(size_of::<AllocSetData>());
        let first = if min_context_size != 0 {
            (hdr + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ).max(min_context_size)
        } else {
            (hdr + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ).max(init_block_size)
        };
        let free_list_index = free_list_index(min_context_size, init_block_size);
        if let Some(set) = free_list_index.and_then(|i| take_free_context(i, backend)) {
            // A deleted context of the same sizes: aset.c sets its maxBlockSize and name anew
            // and keeps the rest (its keeper, and the allocChunkLimit it was created with).
            // SAFETY: a context on a free list is reset and owned by nobody else.
            unsafe {
                let s = &mut *set.as_ptr();
                s.max_block_size = max_block_size;
                s.name = name;
                s.mallocs = 0;
                s.frees = 0;
            }
            return AllocSet { set };
        }
        // allocChunkLimit shrinks until a chunk fits ALLOC_CHUNK_FRACTION times in a block.
        let mut limit = ALLOC_CHUNK_LIMIT;
        while limit + ALLOC_CHUNKHDRSZ > (max_block_size - ALLOC_BLOCKHDRSZ) / ALLOC_CHUNK_FRACTION {
            limit >>= 1;
        }
        unsafe {
            let base = backend.malloc(first);
            if base.is_null() {
                out_of_memory(first);
            }
            let set = base.cast::<AllocSetData>();
            let keeper = base.add(hdr).cast::<AllocBlockData>();
            keeper.write(AllocBlockData {
                aset: set,
                prev: ptr::null_mut(),
                next: ptr::null_mut(),
                freeptr: keeper.cast::<u8>().add(ALLOC_BLOCKHDRSZ),
                endptr: base.add(first),
            });
            set.write(AllocSetData {
                blocks: keeper,
                freelist: [ptr::null_mut(); ALLOCSET_NUM_FREELISTS],
                init_block_size,
                max_block_size,
                next_block_size: init_block_size,
                alloc_chunk_limit: limit,
                keeper,
                mem_allocated: first,
                backend,
                name,
                mallocs: 1,
                frees: 0,
                free_list_index,
                next_free: ptr::null_mut(),
            });
            AllocSet { set: NonNull::new_unchecked(set) }
        }
    }

    /// `ALLOCSET_DEFAULT_SIZES` (0, 8 KiB, 8 MiB): ExecutorState, MessageContext.
    pub fn with_default_sizes(name: &'static str, backend: MallocBackend) -> AllocSet {
        Self::new(name, backend, ALLOCSET_DEFAULT_MINSIZE, ALLOCSET_DEFAULT_INITSIZE, ALLOCSET_DEFAULT_MAXSIZE)
    }

    /// `ALLOCSET_SMALL_SIZES` (0, 1 KiB, 8 KiB): contexts expected to stay small (a B-tree
    /// scan's array context).
    pub fn with_small_sizes(name: &'static str, backend: MallocBackend) -> AllocSet {
        Self::new(name, backend, 0, ALLOCSET_SMALL_INITSIZE, ALLOCSET_SMALL_MAXSIZE)
    }

    /// The raw context, for `MemoryContextSwitchTo`.
    pub fn as_ptr(&self) -> *mut AllocSetData {
        self.set.as_ptr()
    }

    /// Context name.
    pub fn name(&self) -> &'static str {
        unsafe { (*self.set.as_ptr()).name }
    }

    /// The backend its blocks come from.
    pub fn backend(&self) -> MallocBackend {
        unsafe { (*self.set.as_ptr()).backend }
    }

    /// `MemoryContextAlloc(cxt, size)`.
    #[inline(never)]
    pub fn alloc(&self, size: usize) -> NonNull<u8> {
        // SAFETY: self.set is a live context owned by self.
        unsafe { alloc_set_alloc(self.set.as_ptr(), size) }
    }

    /// `MemoryContextReset`: free every block but the keeper, empty the free lists.
    pub fn reset(&self) {
        // SAFETY: as alloc; the caller gives up every chunk of this context.
        unsafe { alloc_set_reset(self.set.as_ptr()) }
    }

    /// malloc calls since creation ([`ContextStats::mallocs`] without walking the blocks).
    pub fn mallocs(&self) -> u64 {
        unsafe { (*self.set.as_ptr()).mallocs }
    }

    /// `mem_allocated`.
    pub fn mem_allocated(&self) -> usize {
        unsafe { (*self.set.as_ptr()).mem_allocated }
    }

    /// Counters: blocks held, bytes, malloc/free calls, free-list lengths.
    pub fn stats(&self) -> ContextStats {
        unsafe {
            let set = &*self.set.as_ptr();
            let mut s = ContextStats { mem_allocated: set.mem_allocated, mallocs: set.mallocs, frees: set.frees, ..Default::default() };
            let mut b = set.blocks;
            while !b.is_null() {
                s.blocks += 1;
                if is_dedicated(b) {
                    s.dedicated_blocks += 1;
                }
                let start = if b == set.keeper { self.set.as_ptr().cast::<u8>() } else { b.cast::<u8>() };
                s.block_sizes.push((*b).endptr.offset_from(start) as usize);
                s.free_bytes += (*b).endptr.offset_from((*b).freeptr) as usize;
                b = (*b).next;
            }
            s.block_sizes.reverse();
            for (i, &head) in set.freelist.iter().enumerate() {
                let mut c = head;
                while !c.is_null() {
                    s.free_chunks[i] += 1;
                    s.free_bytes += chunk_size(i) + ALLOC_CHUNKHDRSZ;
                    c = *chunk_data(c).cast::<*mut u8>();
                }
            }
            s
        }
    }
}

impl Drop for AllocSet {
    fn drop(&mut self) {
        // AllocSetDelete: every block but the keeper; then the context goes on its free list
        // if it has one, else the keeper's malloc, which holds the header, is freed.
        unsafe {
            let set = self.set.as_ptr();
            if CURRENT_MEMORY_CONTEXT.with(|c| c.get()) == set {
                CURRENT_MEMORY_CONTEXT.with(|c| c.set(ptr::null_mut()));
            }
            alloc_set_reset(set);
            match (*set).free_list_index {
                Some(i) => keep_free_context(i, set),
                None => (*set).backend.free(set.cast()),
            }
        }
    }
}

/// One of aset.c's `context_freelists`: deleted contexts linked through their own headers, so
/// keeping and taking one allocates nothing.
struct FreeList {
    head: Cell<*mut AllocSetData>,
    len: Cell<usize>,
}

/// What the context free lists did, since the thread started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeListCounts {
    /// Contexts created from a free list (no malloc).
    pub reused: u64,
    /// Contexts deleted onto a free list.
    pub kept: u64,
    /// Contexts freed because their list was full ([`MAX_FREE_CONTEXTS`]).
    pub flushed: u64,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_FREE_LIST: FreeList = FreeList { head: Cell::new(ptr::null_mut()), len: Cell::new(0) };

thread_local! {
    /// Per malloc backend ([`MallocBackend::index`]; a PostgreSQL process has one malloc, this
    /// crate's tests use two in a thread) and standard size. Per thread, as contexts are; no
    /// destructor (registering one could malloc inside a kernel), so what waits on a thread's
    /// lists when it exits stays allocated, as a backend's does until it exits.
    static CONTEXT_FREELISTS: [[FreeList; 2]; 2] = const { [[EMPTY_FREE_LIST, EMPTY_FREE_LIST], [EMPTY_FREE_LIST, EMPTY_FREE_LIST]] };
    static FREE_LIST_COUNTS: Cell<FreeListCounts> = const { Cell::new(FreeListCounts { reused: 0, kept: 0, flushed: 0 }) };
}

fn count(f: impl FnOnce(&mut FreeListCounts)) {
    FREE_LIST_COUNTS.with(|c| {
        let mut x = c.get();
        f(&mut x);
        c.set(x);
    });
}

/// The newest context on list `i` of `backend`, if any.
fn take_free_context(i: usize, backend: MallocBackend) -> Option<NonNull<AllocSetData>> {
    CONTEXT_FREELISTS.with(|l| {
        let fl = &l[backend.index()][i];
        let set = NonNull::new(fl.head.get())?;
        // SAFETY: a context on a list is live, reset, and owned by the list alone.
        fl.head.set(unsafe { (*set.as_ptr()).next_free });
        fl.len.set(fl.len.get() - 1);
        count(|c| c.reused += 1);
        Some(set)
    })
}

/// Keep the reset context `set` on list `i` of its backend, first freeing every context there
/// if the list holds [`MAX_FREE_CONTEXTS`] (aset.c's `AllocSetDelete`).
///
/// # Safety
/// `set` must be a live, reset context that nothing else refers to.
unsafe fn keep_free_context(i: usize, set: *mut AllocSetData) {
    unsafe {
        let backend = (*set).backend;
        CONTEXT_FREELISTS.with(|l| {
            let fl = &l[backend.index()][i];
            if fl.len.get() >= MAX_FREE_CONTEXTS {
                let mut old = fl.head.get();
                while !old.is_null() {
                    let next = (*old).next_free;
                    backend.free(old.cast());
                    old = next;
                }
                count(|c| c.flushed += fl.len.get() as u64);
                fl.head.set(ptr::null_mut());
                fl.len.set(0);
            }
            (*set).next_free = fl.head.get();
            fl.head.set(set);
            fl.len.set(fl.len.get() + 1);
            count(|c| c.kept += 1);
        });
    }
}

/// What this thread's context free lists have done so far.
pub fn context_free_list_counts() -> FreeListCounts {
    FREE_LIST_COUNTS.with(|c| c.get())
}

/// Contexts on this thread's free lists of `backend`: (default sizes, small sizes).
pub fn context_free_list_lengths(backend: MallocBackend) -> (usize, usize) {
    CONTEXT_FREELISTS.with(|l| (l[backend.index()][0].len.get(), l[backend.index()][1].len.get()))
}

/// Is `b` a dedicated block (holds one external chunk)?
///
/// # Safety
/// `b` must be a live block.
unsafe fn is_dedicated(b: *mut AllocBlockData) -> bool {
    unsafe {
        let first = b.cast::<u8>().add(ALLOC_BLOCKHDRSZ);
        b != (*(*b).aset).keeper && (*b).freeptr == (*b).endptr && (first.cast::<u64>().read() & EXTERNAL_BIT) != 0
    }
}

#[inline(always)]
unsafe fn chunk_data(hdr: *mut u8) -> *mut u8 {
    unsafe { hdr.add(ALLOC_CHUNKHDRSZ) }
}

/// `AllocSetAlloc`.
///
/// # Safety
/// `set` must be a live context.
#[inline]
unsafe fn alloc_set_alloc(set: *mut AllocSetData, size: usize) -> NonNull<u8> {
    unsafe {
        let s = &mut *set;
        if size > s.alloc_chunk_limit {
            return alloc_set_alloc_large(set, size);
        }
        let fidx = free_index(size);
        let head = s.freelist[fidx];
        if !head.is_null() {
            // Pop the free list; the link lives in the chunk's data.
            s.freelist[fidx] = *chunk_data(head).cast::<*mut u8>();
            return NonNull::new_unchecked(chunk_data(head));
        }
        let csize = chunk_size(fidx);
        let block = s.blocks;
        if (*block).endptr.offset_from((*block).freeptr) as usize >= csize + ALLOC_CHUNKHDRSZ {
            return carve(block, fidx);
        }
        alloc_set_alloc_from_new_block(set, fidx)
    }
}

/// Carve a chunk of free list `fidx` at `block`'s free pointer.
#[inline(always)]
unsafe fn carve(block: *mut AllocBlockData, fidx: usize) -> NonNull<u8> {
    unsafe {
        let hdr = (*block).freeptr;
        (*block).freeptr = hdr.add(chunk_size(fidx) + ALLOC_CHUNKHDRSZ);
        let offset = hdr.offset_from(block.cast::<u8>()) as u64;
        hdr.cast::<u64>().write(MCTX_ASET_ID | ((fidx as u64) << VALUE_SHIFT) | (offset << OFFSET_SHIFT));
        NonNull::new_unchecked(chunk_data(hdr))
    }
}

/// The active block is full: put its tail on the free lists, malloc the next block (doubling
/// up to `maxBlockSize`) as the new head, and carve from it.
#[cold]
#[inline(never)]
unsafe fn alloc_set_alloc_from_new_block(set: *mut AllocSetData, fidx: usize) -> NonNull<u8> {
    unsafe {
        let s = &mut *set;
        let old = s.blocks;
        let mut avail = (*old).endptr.offset_from((*old).freeptr) as usize;
        while avail >= (1 << ALLOC_MINBITS) + ALLOC_CHUNKHDRSZ {
            let mut a_fidx = free_index(avail - ALLOC_CHUNKHDRSZ);
            if chunk_size(a_fidx) != avail - ALLOC_CHUNKHDRSZ {
                a_fidx -= 1;
            }
            let c = carve(old, a_fidx).as_ptr().sub(ALLOC_CHUNKHDRSZ);
            *chunk_data(c).cast::<*mut u8>() = s.freelist[a_fidx];
            s.freelist[a_fidx] = c;
            avail -= chunk_size(a_fidx) + ALLOC_CHUNKHDRSZ;
        }
        let mut blksize = s.next_block_size;
        s.next_block_size = (s.next_block_size << 1).min(s.max_block_size);
        let required = chunk_size(fidx) + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ;
        while blksize < required {
            blksize <<= 1;
        }
        let block = s.backend.malloc(blksize).cast::<AllocBlockData>();
        if block.is_null() {
            out_of_memory(blksize);
        }
        s.mallocs += 1;
        s.mem_allocated += blksize;
        block.write(AllocBlockData {
            aset: set,
            prev: ptr::null_mut(),
            next: old,
            freeptr: block.cast::<u8>().add(ALLOC_BLOCKHDRSZ),
            endptr: block.cast::<u8>().add(blksize),
        });
        (*old).prev = block;
        s.blocks = block;
        carve(block, fidx)
    }
}

/// `AllocSetAllocLarge`: a dedicated block for one chunk, linked under the active block.
#[inline(never)]
unsafe fn alloc_set_alloc_large(set: *mut AllocSetData, size: usize) -> NonNull<u8> {
    unsafe {
        let s = &mut *set;
        let csize = maxalign(size);
        let blksize = csize + ALLOC_BLOCKHDRSZ + ALLOC_CHUNKHDRSZ;
        let block = s.backend.malloc(blksize).cast::<AllocBlockData>();
        if block.is_null() {
            out_of_memory(blksize);
        }
        s.mallocs += 1;
        s.mem_allocated += blksize;
        let end = block.cast::<u8>().add(blksize);
        let head = s.blocks;
        block.write(AllocBlockData { aset: set, prev: head, next: (*head).next, freeptr: end, endptr: end });
        if !(*head).next.is_null() {
            (*(*head).next).prev = block;
        }
        (*head).next = block;
        let hdr = block.cast::<u8>().add(ALLOC_BLOCKHDRSZ);
        hdr.cast::<u64>().write(MCTX_ASET_ID | EXTERNAL_BIT);
        NonNull::new_unchecked(chunk_data(hdr))
    }
}

/// `AllocSetReset`.
unsafe fn alloc_set_reset(set: *mut AllocSetData) {
    unsafe {
        let s = &mut *set;
        let mut b = s.blocks;
        while !b.is_null() {
            let next = (*b).next;
            if b == s.keeper {
                (*b).freeptr = b.cast::<u8>().add(ALLOC_BLOCKHDRSZ);
                (*b).prev = ptr::null_mut();
                (*b).next = ptr::null_mut();
            } else {
                s.mem_allocated -= (*b).endptr.offset_from(b.cast::<u8>()) as usize;
                s.frees += 1;
                s.backend.free(b.cast());
            }
            b = next;
        }
        s.blocks = s.keeper;
        s.freelist = [ptr::null_mut(); ALLOCSET_NUM_FREELISTS];
        s.next_block_size = s.init_block_size;
    }
}

/// `MemoryContextSwitchTo`: make `cxt` current, return the previous one.
pub fn memory_context_switch_to(cxt: *mut AllocSetData) -> *mut AllocSetData {
    CURRENT_MEMORY_CONTEXT.with(|c| c.replace(cxt))
}

/// `CurrentMemoryContext`.
pub fn current_memory_context() -> *mut AllocSetData {
    CURRENT_MEMORY_CONTEXT.with(|c| c.get())
}

/// The backend the current context takes its blocks from (a child context takes its parent's;
/// libc when none is current).
pub fn current_backend() -> MallocBackend {
    let c = current_memory_context();
    // SAFETY: a current context is live (cleared when its AllocSet is dropped).
    if c.is_null() { MallocBackend::Libc } else { unsafe { (*c).backend } }
}

#[cold]
#[inline(never)]
fn no_current_context() -> ! {
    panic!("palloc with no CurrentMemoryContext: switch to a context first (memory_context_switch_to)")
}

/// `palloc(size)` in `CurrentMemoryContext`. Out of line, as mcxt.c's is to its callers
/// (PostgreSQL builds without LTO).
///
/// # Safety
/// The current context must be live (it is cleared when its [`AllocSet`] is dropped).
#[inline(never)]
pub unsafe fn palloc(size: usize) -> *mut u8 {
    let cxt = current_memory_context();
    if cxt.is_null() {
        no_current_context();
    }
    unsafe { alloc_set_alloc(cxt, size).as_ptr() }
}

/// `palloc0(size)`: allocate and zero inside one out-of-line call, so a caller that then
/// assigns every field (`makeNode`) still pays for the zeroing, as in C.
///
/// # Safety
/// As [`palloc`].
#[inline(never)]
pub unsafe fn palloc0(size: usize) -> *mut u8 {
    unsafe {
        let cxt = current_memory_context();
        if cxt.is_null() {
            no_current_context();
        }
        let p = alloc_set_alloc(cxt, size).as_ptr();
        ptr::write_bytes(p, 0, size);
        p
    }
}

#[cold]
#[inline(never)]
fn bad_pfree(p: *mut u8, hdr: u64) -> ! {
    panic!("pfree({p:p}): chunk header {hdr:#x} is not an AllocSet chunk; the pointer was not palloc'd or was freed twice")
}

/// `pfree(p)`: find the owning context from the chunk header and give the chunk back
/// (dedicated blocks go straight back to the backend's `free`). Out of line, as in C.
///
/// # Safety
/// `p` must come from [`palloc`]/[`AllocSet::alloc`] of a live context, not freed since, and
/// not from before that context's last reset.
#[inline(never)]
pub unsafe fn pfree(p: *mut u8) {
    unsafe {
        let hdr = p.sub(ALLOC_CHUNKHDRSZ);
        let word = hdr.cast::<u64>().read();
        if word & METHOD_MASK != MCTX_ASET_ID {
            bad_pfree(p, word);
        }
        if word & EXTERNAL_BIT != 0 {
            let block = hdr.sub(ALLOC_BLOCKHDRSZ).cast::<AllocBlockData>();
            let s = &mut *(*block).aset;
            if (*block).freeptr != (*block).endptr {
                bad_pfree(p, word);
            }
            // Unlink and free the dedicated block.
            if (*block).prev.is_null() {
                s.blocks = (*block).next;
            } else {
                (*(*block).prev).next = (*block).next;
            }
            if !(*block).next.is_null() {
                (*(*block).next).prev = (*block).prev;
            }
            s.mem_allocated -= (*block).endptr.offset_from(block.cast::<u8>()) as usize;
            s.frees += 1;
            s.backend.free(block.cast());
        } else {
            let fidx = ((word >> VALUE_SHIFT) & VALUE_MASK) as usize;
            let block = hdr.sub((word >> OFFSET_SHIFT) as usize).cast::<AllocBlockData>();
            let s = &mut *(*block).aset;
            *p.cast::<*mut u8>() = s.freelist[fidx];
            s.freelist[fidx] = hdr;
        }
    }
}

/// `GetMemoryChunkSpace`-like: the usable size of a chunk (its size class, or the dedicated
/// block's chunk).
///
/// # Safety
/// As [`pfree`].
pub unsafe fn chunk_space(p: *mut u8) -> usize {
    unsafe {
        let hdr = p.sub(ALLOC_CHUNKHDRSZ);
        let word = hdr.cast::<u64>().read();
        if word & EXTERNAL_BIT != 0 {
            let block = hdr.sub(ALLOC_BLOCKHDRSZ).cast::<AllocBlockData>();
            (*block).endptr.offset_from(p) as usize
        } else {
            chunk_size(((word >> VALUE_SHIFT) & VALUE_MASK) as usize)
        }
    }
}

/// glibc's heap settings and an observation of whether it trims.
pub mod glibc {
    use anyhow::{Result, bail};

    /// `mallopt` settings. Each call also switches off glibc's dynamic adjustment of the
    /// mmap and trim thresholds for the rest of the process: a process that took these can
    /// never go back to the defaults.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct Mallopt {
        /// `M_TRIM_THRESHOLD` (default 128 KiB, adjusted dynamically).
        pub trim_threshold: Option<i32>,
        /// `M_TOP_PAD` (bytes kept at the top of the heap when it is grown or trimmed).
        pub top_pad: Option<i32>,
    }

    /// Apply `m` to this process.
    pub fn apply(m: &Mallopt) -> Result<()> {
        if !cfg!(all(target_os = "linux", target_env = "gnu")) {
            bail!("mallopt settings need glibc; this build's C library is not glibc");
        }
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            for (param, name, v) in [(libc::M_TRIM_THRESHOLD, "M_TRIM_THRESHOLD", m.trim_threshold), (libc::M_TOP_PAD, "M_TOP_PAD", m.top_pad)] {
                if let Some(v) = v {
                    // SAFETY: mallopt takes any int; it returns 0 when it rejects the value.
                    if unsafe { libc::mallopt(param, v) } != 1 {
                        bail!("mallopt({name}, {v}) was refused by glibc");
                    }
                }
            }
        }
        Ok(())
    }

    /// What [`probe`] saw.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct TrimProbe {
        /// Bytes the probe allocated (and freed) on the heap.
        pub probe_bytes: usize,
        /// `mallinfo2().arena` (bytes obtained with brk) while the probe's blocks were live.
        pub arena_peak: usize,
        /// The same after freeing them.
        pub arena_after: usize,
        /// Did the heap grow by [`PROBE_TOP_BYTES`]? (No: it already had that much free at the
        /// top, which a trimming heap does not keep; the probe gave up after 27 MB.)
        pub heap_grew: bool,
        /// Did freeing the blocks shrink the heap?
        pub trimmed: bool,
    }

    /// Bytes the probe adds at the top of the heap: eight `BTScanOpaqueData`s (219 KB), over
    /// the default 128 KiB trim threshold, each block under the 128 KiB mmap threshold.
    pub const PROBE_TOP_BYTES: usize = 8 * size_of::<crate::pg::nbtree::BTScanOpaque>();

    /// Most blocks the probe takes (27 MB) before it gives up finding the top of the heap.
    const PROBE_MAX_BLOCKS: usize = 1000;

    /// Does this process's heap give freed memory back? Allocate and touch 27,352-byte blocks
    /// until the heap has grown by [`PROBE_TOP_BYTES`] (blocks that land in free holes lower
    /// down do not count), free them all, and see whether glibc shrank the heap (brk). A
    /// process in glibc's default state does; one where `mallopt` raised the trim threshold
    /// or the top pad, or where freeing an mmap'd chunk raised the threshold dynamically, does
    /// not. Run it on the main thread: other threads have arenas of their own. None where the
    /// C library is not glibc.
    pub fn probe() -> Option<TrimProbe> {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            const SZ: usize = size_of::<crate::pg::nbtree::BTScanOpaque>();
            let mut blocks: Vec<*mut libc::c_void> = Vec::with_capacity(PROBE_MAX_BLOCKS);
            // SAFETY: plain malloc/free pairs; every block is touched within its size.
            unsafe {
                let start = libc::mallinfo2().arena;
                let mut peak = start;
                while peak < start + PROBE_TOP_BYTES && blocks.len() < PROBE_MAX_BLOCKS {
                    // black_box: LLVM deletes malloc/free pairs whose memory does not escape.
                    let b = std::hint::black_box(libc::malloc(SZ));
                    if b.is_null() {
                        break;
                    }
                    std::ptr::write_bytes(b.cast::<u8>(), 0x5a, SZ);
                    blocks.push(b);
                    peak = libc::mallinfo2().arena;
                }
                let grew = peak >= start + PROBE_TOP_BYTES;
                for &b in std::hint::black_box(&blocks) {
                    libc::free(b);
                }
                let after = libc::mallinfo2().arena;
                Some(TrimProbe { probe_bytes: SZ * blocks.len(), arena_peak: peak, arena_after: after, heap_grew: grew, trimmed: grew && after < peak })
            }
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        {
            None
        }
    }
}
