//! The executor's per-node expression state: `ExprContext` (nodes/execnodes.h) and
//! `CreateExprContext` (executor/execUtils.c), as every plan node that evaluates expressions
//! gets one at `ExecInitNode` (`ExecAssignExprContext`) and `FreeExecutorState` deletes them.
//!
//! What matters to the hot loops is its memory: the struct is a small chunk of the query's
//! context (`ExecutorState`), and its per-tuple memory is a context of its own with the default
//! sizes, one 8 KiB malloc unless a deleted context is waiting on aset.c's free list
//! ([`crate::pg::mcxt::MAX_FREE_CONTEXTS`]). A query over N partitions has N + 4 of them (an
//! Index Only Scan's per partition, an Agg's three), so past about 100 partitions they are
//! malloc'd and freed on every query.

use crate::pg::mcxt::{AllocSet, AllocSetData, MallocBackend};
use std::ptr;

/// `ExprContext` as PostgreSQL 15 to 17 lay it out (18 adds two slot pointers for `RETURNING
/// OLD/NEW`); slots, parameters and callbacks are opaque here.
#[repr(C)]
pub struct ExprContext {
    /// `NodeTag`.
    pub type_: u32,
    /// `ecxt_scantuple`, `ecxt_innertuple`, `ecxt_outertuple`.
    pub ecxt_tuples: [*mut (); 3],
    /// `ecxt_per_query_memory`: the query's context.
    pub ecxt_per_query_memory: *mut AllocSetData,
    /// `ecxt_per_tuple_memory`: reset for every tuple.
    pub ecxt_per_tuple_memory: *mut AllocSetData,
    /// `ecxt_param_exec_vals`, `ecxt_param_list_info`, `ecxt_aggvalues`, `ecxt_aggnulls`.
    pub ecxt_params_and_aggs: [*mut (); 4],
    /// `caseValue_datum`.
    pub case_value_datum: usize,
    /// `caseValue_isNull`.
    pub case_value_is_null: bool,
    /// `domainValue_datum`.
    pub domain_value_datum: usize,
    /// `domainValue_isNull`.
    pub domain_value_is_null: bool,
    /// `ecxt_estate`.
    pub ecxt_estate: *mut (),
    /// `ecxt_callbacks`.
    pub ecxt_callbacks: *mut (),
}

const _: () = assert!(size_of::<ExprContext>() == 128);

/// `T_ExprContext`'s tag (its value does not matter here).
const T_EXPR_CONTEXT: u32 = 1;

/// `CreateExprContext(estate)`: the struct palloc'd in the query's context `query_cxt`, then
/// its per-tuple context (`ALLOCSET_DEFAULT_SIZES`, from the context free list when one is
/// there); the caller keeps the context until `FreeExecutorState` deletes it.
pub fn create_expr_context(query_cxt: &AllocSet, backend: MallocBackend) -> (*mut ExprContext, AllocSet) {
    let e = query_cxt.alloc(size_of::<ExprContext>()).as_ptr().cast::<ExprContext>();
    let per_tuple = AllocSet::with_default_sizes("ExprContext", backend);
    // SAFETY: a fresh chunk of the struct's size, 8-aligned as every palloc chunk.
    unsafe {
        e.write(ExprContext {
            type_: T_EXPR_CONTEXT,
            ecxt_tuples: [ptr::null_mut(); 3],
            ecxt_per_query_memory: query_cxt.as_ptr(),
            ecxt_per_tuple_memory: per_tuple.as_ptr(),
            ecxt_params_and_aggs: [ptr::null_mut(); 4],
            case_value_datum: 0,
            case_value_is_null: true,
            domain_value_datum: 0,
            domain_value_is_null: true,
            ecxt_estate: ptr::null_mut(),
            ecxt_callbacks: ptr::null_mut(),
        });
    }
    (e, per_tuple)
}
