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

/// What a chunk of `size` requested bytes adds to its context's `used`: the power-of-two
/// chunk palloc rounds it to, and the chunk header.
pub const fn used_by(size: usize) -> usize {
    chunk_size(free_index(size)) + ALLOC_CHUNKHDRSZ
}

/// palloc0 node-sized chunks in `cxt` (sizes from [`NODE_MIX`] in turn) until they have added
/// `used` bytes as `MemoryContextStats` counts them, or the last chunk would pass it. Returns
/// the chunks allocated. The chunks live until `cxt` is reset or deleted.
pub fn palloc_nodes(cxt: &AllocSet, used: usize) -> usize {
    let mut added = 0;
    let mut n = 0;
    loop {
        let size = NODE_MIX[n % NODE_MIX.len()];
        if added + used_by(size) > used {
            return n;
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
