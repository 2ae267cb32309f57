//! Node memory: what planning and execution palloc for the parse tree, the planner's
//! relations, paths and restriction clauses, and the executor's node states, slots and
//! expression steps, where a model needs that memory (its size decides which blocks its
//! context mallocs) but not what the nodes compute.
//!
//! A node is a zeroed chunk (`makeNode` is a `palloc0`), written once. The sizes cycle through
//! [`NODE_MIX`], from a relation's large structs to the list cells and small expression nodes
//! that most of a planner's chunks are; how many bytes a phase pallocs is the caller's figure,
//! measured on the servers with `MemoryContextStats` (the `used` it prints).

use crate::pg::mcxt::{ALLOC_CHUNKHDRSZ, AllocSet, chunk_size, free_index};

/// Requested sizes, cycled: one 512-byte struct to every two 256-byte, three 128-byte, four
/// 64-byte and two 32-byte chunks.
pub const NODE_MIX: [usize; 12] = [512, 256, 128, 64, 64, 32, 256, 128, 64, 128, 64, 32];

/// The smallest size in [`NODE_MIX`] (each is a power of two).
const NODE_MIX_SMALLEST: usize = 32;

/// What a chunk of `size` requested bytes adds to its context's `used`: the power-of-two
/// chunk palloc rounds it to, and the chunk header.
pub const fn used_by(size: usize) -> usize {
    chunk_size(free_index(size)) + ALLOC_CHUNKHDRSZ
}

/// palloc0 node-sized chunks in `cxt` (sizes from [`NODE_MIX`] in turn) until they have added
/// `used` bytes as `MemoryContextStats` counts them; where the next size of the cycle would
/// pass it, the largest smaller size that fits, so the bytes fall short by less than the
/// smallest chunk (40). Returns the chunks allocated. The chunks live until `cxt` is reset or
/// deleted.
pub fn palloc_nodes(cxt: &AllocSet, used: usize) -> usize {
    let mut added = 0;
    let mut n = 0;
    loop {
        let mut size = NODE_MIX[n % NODE_MIX.len()];
        while added + used_by(size) > used {
            size /= 2;
            if size < NODE_MIX_SMALLEST {
                return n;
            }
        }
        let p = cxt.alloc(size);
        // SAFETY: a fresh chunk of `size` bytes.
        unsafe { p.as_ptr().write_bytes(0, size) };
        // The zeroing is the node's work: keep it.
        std::hint::black_box(p);
        added += used_by(size);
        n += 1;
    }
}

/// A PostgreSQL `List` (pg_list.h) as its memory grows: `new_list` pallocs the 24-byte header
/// with its first cells in one chunk, pg_nextpower2(8) - 3 = [`LIST_INLINE_CELLS`] 8-byte
/// cells; an append past them makes `enlarge_list` palloc a separate array of
/// pg_nextpower2(max(16, length)) cells, and past that array repalloc it to the next power of
/// two (aset.c: a new chunk, the old one onto the context's free list). Only the memory is
/// modelled: the cells hold nothing.
#[derive(Debug)]
pub struct PgList {
    len: usize,
    capacity: usize,
    cells: *mut u8,
}

/// The cells a fresh `List`'s own chunk holds.
pub const LIST_INLINE_CELLS: usize = 5;

/// `offsetof(List, initial_elements)` plus the inline cells: `new_list`'s palloc.
pub const LIST_CHUNK: usize = 24 + 8 * LIST_INLINE_CELLS;

impl PgList {
    /// `new_list` of one element in `cxt`.
    pub fn new(cxt: &AllocSet) -> PgList {
        let p = cxt.alloc(LIST_CHUNK);
        // SAFETY: a fresh chunk of LIST_CHUNK bytes.
        unsafe { p.as_ptr().write_bytes(0, LIST_CHUNK) };
        std::hint::black_box(p);
        PgList { len: 1, capacity: LIST_INLINE_CELLS, cells: std::ptr::null_mut() }
    }

    /// `lappend` one element, enlarging the cell array as `enlarge_list` does.
    pub fn append(&mut self, cxt: &AllocSet) {
        self.len += 1;
        if self.len <= self.capacity {
            return;
        }
        let capacity = self.len.max(16).next_power_of_two();
        let p = cxt.alloc(8 * capacity).as_ptr();
        if !self.cells.is_null() {
            // SAFETY: the old array, 8 * self.capacity bytes, palloc'd here in `cxt` and not
            // freed yet; repalloc copies it and frees it.
            unsafe {
                std::ptr::copy_nonoverlapping(self.cells, p, 8 * self.capacity);
                crate::pg::mcxt::pfree(self.cells);
            }
        }
        self.cells = p;
        self.capacity = capacity;
    }

    /// Its length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never: a `List` has an element (NIL is no list).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// What a list of `len` elements holds in its context's `used`, as `MemoryContextStats`
    /// counts it: its own chunk, and past the inline cells its array.
    pub const fn used(len: usize) -> usize {
        let array = if len > LIST_INLINE_CELLS {
            let c = if len > 16 { len.next_power_of_two() } else { 16 };
            used_by(8 * c)
        } else {
            0
        };
        used_by(LIST_CHUNK) + array
    }
}
