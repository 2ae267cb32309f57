/*
 * hl_btree: an index access method that is PostgreSQL's own B-tree except for amgetbitmap,
 * which runs the variant that the GUC hl_btree.variant names when the scan starts, so one
 * backend can interleave variants scan by scan over the same index.
 *
 * Written for hotloops (tid-batch study, seed 000). Variants, named with the crate's ids:
 *   tid-batch/server          the server's own btgetbitmap (baseline)
 *   tid-batch/per-tid         the same per-TID loop compiled here (control for code layout)
 *   tid-batch/batched-store   a leaf page's span copied with so->currPos.itemIndex stored every
 *                             TID, one tbm_add_tuples a page (the seed's v1/v2)
 *   tid-batch/batched-local   the same with the cursor in locals (the review's cleanup)
 *   tid-batch/batched         the crate's shape: one stack batch of MaxTIDsPerBTreePage across
 *                             pages and primitive scans, flushed when full and once at the end
 *
 * And, from PostgreSQL 17 on, amgettuple (seed 001):
 *   dir-by-value/server       the server's own btgettuple (baseline)
 *   dir-by-value/c-opaque     forward leaves after the first read by the project's
 *                             _bt_readpage/_bt_checkkeys kernel, dir through scan->opaque
 *   dir-by-value/c-by-value   the same kernel with dir read from its page state (83a26ba59b)
 * The kernels are csrc/nbtsearch_checkkeys.c, the very source of the crate's c-opaque and
 * c-by-value rows, built here against the server's structs (hl_pg_server.h). One GUC names
 * the variant of either study; each callback runs the server's own code for the other's ids.
 *
 * The thread CPU time (CLOCK_THREAD_CPUTIME_ID) of the last amgetbitmap call, its TID count
 * and the variant that ran are kept for hl_btree_last_*() (a gettuple scan counts its tuples
 * and the leaves the kernel read; its CPU time is not taken per call).
 */
#include "postgres.h"

#include <dlfcn.h>
#include <time.h>

#include "access/amapi.h"
#include "access/nbtree.h"
#include "catalog/pg_am_d.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "nodes/tidbitmap.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/rel.h"

PG_MODULE_MAGIC;

typedef enum HlVariant
{
	HL_SERVER,
	HL_PER_TID,
	HL_BATCHED_STORE,
	HL_BATCHED_LOCAL,
	HL_BATCHED,
	HL_DV_SERVER,
	HL_DV_C_OPAQUE,
	HL_DV_C_BY_VALUE
} HlVariant;

static const char *const hl_variant_ids[] = {
	"tid-batch/server",
	"tid-batch/per-tid",
	"tid-batch/batched-store",
	"tid-batch/batched-local",
	"tid-batch/batched",
	"dir-by-value/server",
	"dir-by-value/c-opaque",
	"dir-by-value/c-by-value",
};

/* Full ids first; the short names are accepted but hidden from the listing. */
static const struct config_enum_entry hl_variant_options[] = {
	{"tid-batch/server", HL_SERVER, false},
	{"tid-batch/per-tid", HL_PER_TID, false},
	{"tid-batch/batched-store", HL_BATCHED_STORE, false},
	{"tid-batch/batched-local", HL_BATCHED_LOCAL, false},
	{"tid-batch/batched", HL_BATCHED, false},
	{"dir-by-value/server", HL_DV_SERVER, false},
	{"dir-by-value/c-opaque", HL_DV_C_OPAQUE, false},
	{"dir-by-value/c-by-value", HL_DV_C_BY_VALUE, false},
	{"server", HL_SERVER, true},
	{"per-tid", HL_PER_TID, true},
	{"batched-store", HL_BATCHED_STORE, true},
	{"batched-local", HL_BATCHED_LOCAL, true},
	{"batched", HL_BATCHED, true},
	{NULL, 0, false}
};

static int	hl_variant = HL_SERVER;
static int64 hl_last_ns = -1;
static int64 hl_last_ntids = -1;
static int	hl_last_variant = -1;
static int64 hl_last_kernel_pages = -1;

void		_PG_init(void);

/* The kernels: out of line, exported under stable names (objdump and callgrind find them). */
extern int64 hotloops_tid_batch_per_tid(IndexScanDesc scan, TIDBitmap *tbm);
extern int64 hotloops_tid_batch_batched_store(IndexScanDesc scan, TIDBitmap *tbm);
extern int64 hotloops_tid_batch_batched_local(IndexScanDesc scan, TIDBitmap *tbm);
extern int64 hotloops_tid_batch_batched(IndexScanDesc scan, TIDBitmap *tbm);

void
_PG_init(void)
{
	DefineCustomEnumVariable("hl_btree.variant",
							 "amgetbitmap variant of hl_btree indexes (a hotloops tid-batch id).",
							 NULL,
							 &hl_variant,
							 HL_SERVER,
							 hl_variant_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("hl_btree");
}

/*
 * Array keys (= ANY): PostgreSQL 15's btgetbitmap starts them itself and steps them with
 * _bt_advance_array_keys after each primitive scan; from 17 on _bt_first starts them and
 * _bt_start_prim_scan says whether another primitive scan is needed (_bt_advance_array_keys
 * became static). The variants loop the way their server's own btgetbitmap does.
 */
static inline bool
hl_start_arrays(IndexScanDesc scan, BTScanOpaque so)
{
#if PG_VERSION_NUM >= 170000
	(void) scan;
	(void) so;
	return true;
#else
	if (so->numArrayKeys)
	{
		/* an unsatisfiable array key: nothing matches */
		if (so->numArrayKeys < 0)
			return false;
		_bt_start_array_keys(scan, ForwardScanDirection);
	}
	return true;
#endif
}

static inline bool
hl_next_primitive_scan(IndexScanDesc scan, BTScanOpaque so)
{
#if PG_VERSION_NUM >= 170000
	return so->numArrayKeys && _bt_start_prim_scan(scan, ForwardScanDirection);
#else
	return so->numArrayKeys && _bt_advance_array_keys(scan, ForwardScanDirection);
#endif
}

/*
 * The per-TID loop as the server has it (one tbm_add_tuples per TID, itemIndex in the scan
 * opaque), compiled in this object: the control that separates the loop from its placement.
 */
pg_noinline int64
hotloops_tid_batch_per_tid(IndexScanDesc scan, TIDBitmap *tbm)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	int64		ntids = 0;

	if (!hl_start_arrays(scan, so))
		return 0;
	do
	{
		if (_bt_first(scan, ForwardScanDirection))
		{
			tbm_add_tuples(tbm, &scan->xs_heaptid, 1, false);
			ntids++;
			for (;;)
			{
				if (++so->currPos.itemIndex > so->currPos.lastItem)
				{
					/* the page is used up: _bt_next steps to the next one */
					if (!_bt_next(scan, ForwardScanDirection))
						break;
				}
				tbm_add_tuples(tbm, &so->currPos.items[so->currPos.itemIndex].heapTid, 1, false);
				ntids++;
			}
		}
	} while (hl_next_primitive_scan(scan, so));
	return ntids;
}

/*
 * Seed v1/v2: the rest of the current page copied into a stack batch, the cursor advanced in
 * so->currPos.itemIndex itself (a store, and under -fno-strict-aliasing a reload, every TID),
 * one tbm_add_tuples per page.
 */
pg_noinline int64
hotloops_tid_batch_batched_store(IndexScanDesc scan, TIDBitmap *tbm)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	ItemPointerData batch[MaxTIDsPerBTreePage];
	int64		ntids = 0;

	if (!hl_start_arrays(scan, so))
		return 0;
	do
	{
		if (_bt_first(scan, ForwardScanDirection))
		{
			for (;;)
			{
				int			n = 0;

				for (; so->currPos.itemIndex <= so->currPos.lastItem; so->currPos.itemIndex++)
					batch[n++] = so->currPos.items[so->currPos.itemIndex].heapTid;
				tbm_add_tuples(tbm, batch, n, false);
				ntids += n;
				/* itemIndex is past lastItem: _bt_next steps to the next page */
				if (!_bt_next(scan, ForwardScanDirection))
					break;
			}
		}
	} while (hl_next_primitive_scan(scan, so));
	return ntids;
}

/* The review's cleanup of batched-store: the cursor in locals, stored once per page. */
pg_noinline int64
hotloops_tid_batch_batched_local(IndexScanDesc scan, TIDBitmap *tbm)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	ItemPointerData batch[MaxTIDsPerBTreePage];
	int64		ntids = 0;

	if (!hl_start_arrays(scan, so))
		return 0;
	do
	{
		if (_bt_first(scan, ForwardScanDirection))
		{
			for (;;)
			{
				int			i = so->currPos.itemIndex;
				int			last = so->currPos.lastItem;
				int			n = 0;

				for (; i <= last; i++)
					batch[n++] = so->currPos.items[i].heapTid;
				so->currPos.itemIndex = i;
				tbm_add_tuples(tbm, batch, n, false);
				ntids += n;
				if (!_bt_next(scan, ForwardScanDirection))
					break;
			}
		}
	} while (hl_next_primitive_scan(scan, so));
	return ntids;
}

/*
 * The crate's batched shape (src/study/tid_batch.rs, hl_tid_batch_batched_btree): the batch
 * outlives pages and primitive scans, so ten sparse keys cost one tbm_add_tuples, not ten.
 */
pg_noinline int64
hotloops_tid_batch_batched(IndexScanDesc scan, TIDBitmap *tbm)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	ItemPointerData batch[MaxTIDsPerBTreePage];
	int			nbatch = 0;
	int64		ntids = 0;

	if (!hl_start_arrays(scan, so))
		return 0;
	do
	{
		if (_bt_first(scan, ForwardScanDirection))
		{
			for (;;)
			{
				int			i = so->currPos.itemIndex;
				int			last = so->currPos.lastItem;

				for (; i <= last; i++)
				{
					if (nbatch == MaxTIDsPerBTreePage)
					{
						tbm_add_tuples(tbm, batch, nbatch, false);
						nbatch = 0;
					}
					batch[nbatch++] = so->currPos.items[i].heapTid;
					ntids++;
				}
				so->currPos.itemIndex = i;
				if (!_bt_next(scan, ForwardScanDirection))
					break;
			}
		}
	} while (hl_next_primitive_scan(scan, so));
	if (nbatch > 0)
		tbm_add_tuples(tbm, batch, nbatch, false);
	return ntids;
}

static int64
hl_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	struct timespec t0,
				t1;
	int			v = hl_variant;
	int64		n;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	switch (v)
	{
		case HL_PER_TID:
			n = hotloops_tid_batch_per_tid(scan, tbm);
			break;
		case HL_BATCHED_STORE:
			n = hotloops_tid_batch_batched_store(scan, tbm);
			break;
		case HL_BATCHED_LOCAL:
			n = hotloops_tid_batch_batched_local(scan, tbm);
			break;
		case HL_BATCHED:
			n = hotloops_tid_batch_batched(scan, tbm);
			break;
		default:
			/* tid-batch/server, and the other study's ids */
			v = HL_SERVER;
			n = btgetbitmap(scan, tbm);
			break;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	hl_last_ns = (int64) (t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
	hl_last_ntids = n;
	hl_last_variant = v;
	return n;
}

#if PG_VERSION_NUM >= 170000
typedef bool (*hl_readpage_fn) (IndexScanDesc scan, const char *page, OffsetNumber offnum, bool firstpage, int min_keys);

/*
 * What the kernel covers: forward scans of a single key column with plain keys. Anything else
 * (backward scans, = ANY and skip arrays, row compares, IS [NOT] NULL keys) is the server's
 * own btgettuple, for the whole scan.
 */
static bool
hl_kernel_covers(IndexScanDesc scan, ScanDirection dir)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;

	if (!ScanDirectionIsForward(dir) || IndexRelationGetNumberOfKeyAttributes(scan->indexRelation) != 1 ||
		so->numArrayKeys != 0)
		return false;
	for (int i = 0; i < so->numberOfKeys; i++)
	{
		if (so->keyData[i].sk_flags & (SK_ISNULL | SK_ROW_HEADER | SK_SEARCHARRAY | SK_SEARCHNULL | SK_SEARCHNOTNULL))
			return false;
	}
	return true;
}

/* Whether the leaf pin is dropped once the page is read, as the server decides it. */
static bool
hl_drops_pin(IndexScanDesc scan)
{
#if PG_VERSION_NUM >= 180000
	return ((BTScanOpaque) scan->opaque)->dropPin;
#else
	return IsMVCCSnapshot(scan->xs_snapshot) && RelationNeedsWAL(scan->indexRelation) && !scan->xs_want_itup;
#endif
}

/*
 * Step right from the current leaf and read leaves with `readpage` until one yields items or
 * the scan ends, leaving so->currPos as the server's _bt_steppage and _bt_readpage would:
 * the page's links and LSN, its items (an index-only scan's tuples copied into currTuples as
 * _bt_saveitem does), the pin kept only when the server would keep it.
 */
static bool
hl_step_right(IndexScanDesc scan, hl_readpage_fn readpage)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	Relation	rel = scan->indexRelation;
	BlockNumber blkno = so->currPos.nextPage;
	bool		more = so->currPos.moreRight;

	if (so->numKilled > 0)
		_bt_killitems(scan);
	BTScanPosUnpinIfPinned(so->currPos);
	for (;;)
	{
		Buffer		buf;
		Page		page;
		BTPageOpaque opaque;
		OffsetNumber off,
					maxoff;
		bool		found;

		if (!more || blkno == P_NONE)
		{
			BTScanPosInvalidate(so->currPos);
			return false;
		}
		CHECK_FOR_INTERRUPTS();
		buf = _bt_getbuf(rel, blkno, BT_READ);
		page = BufferGetPage(buf);
		opaque = BTPageGetOpaque(page);
		if (P_IGNORE(opaque))
		{
			blkno = opaque->btpo_next;
			_bt_relbuf(rel, buf);
			continue;
		}
		maxoff = PageGetMaxOffsetNumber(page);
		for (off = P_FIRSTDATAKEY(opaque); off <= maxoff; off++)
		{
			if (BTreeTupleIsPosting((IndexTuple) PageGetItem(page, PageGetItemId(page, off))))
			{
				_bt_relbuf(rel, buf);
				ereport(ERROR,
						(errmsg("hl_btree's dir-by-value kernels save one TID a tuple, and block %u of \"%s\" holds posting lists",
								blkno, RelationGetRelationName(rel)),
						 errhint("Use a unique index or one built WITH (deduplicate_items = off).")));
			}
		}
		so->currPos.currPage = blkno;
#if PG_VERSION_NUM >= 180000
		so->currPos.prevPage = opaque->btpo_prev;
#endif
		so->currPos.nextPage = opaque->btpo_next;
		so->currPos.lsn = BufferGetLSNAtomic(buf);
		so->currPos.nextTupleOffset = 0;
		so->currPos.moreLeft = true;
		found = readpage(scan, (const char *) page, P_FIRSTDATAKEY(opaque), false, 0);
		hl_last_kernel_pages++;
		if (found && so->currTuples)
		{
			for (int i = so->currPos.firstItem; i <= so->currPos.lastItem; i++)
			{
				BTScanPosItem *it = &so->currPos.items[i];
				IndexTuple	itup = (IndexTuple) PageGetItem(page, PageGetItemId(page, it->indexOffset));
				Size		sz = IndexTupleSize(itup);

				it->tupleOffset = so->currPos.nextTupleOffset;
				memcpy(so->currTuples + so->currPos.nextTupleOffset, itup, sz);
				so->currPos.nextTupleOffset += MAXALIGN(sz);
			}
		}
		if (found && !hl_drops_pin(scan))
		{
			_bt_unlockbuf(rel, buf);
			so->currPos.buf = buf;
		}
		else
		{
			_bt_relbuf(rel, buf);
			so->currPos.buf = InvalidBuffer;
		}
		if (found)
			return true;
		more = so->currPos.moreRight;
		blkno = so->currPos.nextPage;
	}
}

/*
 * amgettuple of the dir-by-value variants: the server positions the scan and reads its first
 * leaf (btgettuple's first call); then items are returned from so->currPos and the next leaves
 * read by the kernel. Killed tuples are not marked (the kernels do not track them).
 */
static bool
hl_gettuple_kernel(IndexScanDesc scan, ScanDirection dir, hl_readpage_fn readpage)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	BTScanPosItem *it;

	if (!BTScanPosIsValid(so->currPos) || !hl_kernel_covers(scan, dir))
	{
		if (!BTScanPosIsValid(so->currPos))
			hl_last_kernel_pages = hl_last_ntids = 0;
		if (!btgettuple(scan, dir))
			return false;
		hl_last_ntids++;
		return true;
	}
	if (++so->currPos.itemIndex > so->currPos.lastItem && !hl_step_right(scan, readpage))
		return false;
	it = &so->currPos.items[so->currPos.itemIndex];
	scan->xs_heaptid = it->heapTid;
	if (so->currTuples)
		scan->xs_itup = (IndexTuple) (so->currTuples + it->tupleOffset);
	hl_last_ntids++;
	return true;
}
#endif

static bool
hl_gettuple(IndexScanDesc scan, ScanDirection dir)
{
	int			v = hl_variant;

	hl_last_ns = -1;
#if PG_VERSION_NUM >= 170000
	if (v == HL_DV_C_OPAQUE || v == HL_DV_C_BY_VALUE)
	{
		hl_last_variant = v;
		return hl_gettuple_kernel(scan, dir, v == HL_DV_C_OPAQUE ? hotloops_dir_by_value_c_opaque__server
								  : hotloops_dir_by_value_c_by_value__server);
	}
#else
	if (v == HL_DV_C_OPAQUE || v == HL_DV_C_BY_VALUE)
		ereport(ERROR,
				(errmsg("hl_btree.variant %s needs PostgreSQL 17 or later (the kernels read so->currPos.dir)", hl_variant_ids[v])));
#endif
	if (!BTScanPosIsValid(((BTScanOpaque) scan->opaque)->currPos))
		hl_last_kernel_pages = hl_last_ntids = 0;
	hl_last_variant = HL_DV_SERVER;
	if (!btgettuple(scan, dir))
		return false;
	hl_last_ntids++;
	return true;
}

/*
 * The index build's sort (PrepareSortSupportFromIndexRel) refuses an index whose pg_class.relam
 * is not btree's, although the on-disk format is btree's. So btbuild runs with the relcache
 * entry's relam shown as BTREE_AM_OID and restored after, also on error. Parallel builds are
 * not covered (workers open the index themselves): run with max_parallel_maintenance_workers=0.
 */
static IndexBuildResult *
hl_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	Oid			saved = index->rd_rel->relam;
	IndexBuildResult *result;

	index->rd_rel->relam = BTREE_AM_OID;
	PG_TRY();
	{
		result = btbuild(heap, index, indexInfo);
	}
	PG_FINALLY();
	{
		index->rd_rel->relam = saved;
	}
	PG_END_TRY();
	return result;
}

PG_FUNCTION_INFO_V1(hl_btree_handler);
Datum
hl_btree_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *r = (IndexAmRoutine *) DatumGetPointer(DirectFunctionCall1(bthandler, (Datum) 0));

	r->ambuild = hl_build;
	r->amgetbitmap = hl_getbitmap;
	r->amgettuple = hl_gettuple;
	/* Parallel index scans share btree's state; bitmap scans never use them. */
	PG_RETURN_POINTER(r);
}

PG_FUNCTION_INFO_V1(hl_btree_last_ns);
Datum
hl_btree_last_ns(PG_FUNCTION_ARGS)
{
	if (hl_last_ns < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT64(hl_last_ns);
}

PG_FUNCTION_INFO_V1(hl_btree_last_ntids);
Datum
hl_btree_last_ntids(PG_FUNCTION_ARGS)
{
	if (hl_last_ntids < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT64(hl_last_ntids);
}

PG_FUNCTION_INFO_V1(hl_btree_last_variant);
Datum
hl_btree_last_variant(PG_FUNCTION_ARGS)
{
	if (hl_last_variant < 0)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(hl_variant_ids[hl_last_variant]));
}

PG_FUNCTION_INFO_V1(hl_btree_last_kernel_pages);
Datum
hl_btree_last_kernel_pages(PG_FUNCTION_ARGS)
{
	if (hl_last_kernel_pages < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT64(hl_last_kernel_pages);
}

/*
 * Mark a segment of the allocation trace (pgext/hl_alloctrace, preloaded into a single-user
 * backend for seed 004's "who allocates"); does nothing when the tracer is not loaded.
 */
PG_FUNCTION_INFO_V1(hl_alloctrace_mark);
Datum
hl_alloctrace_mark(PG_FUNCTION_ARGS)
{
	void		(*mark) (const char *) = (void (*) (const char *)) dlsym(RTLD_DEFAULT, "hl_alloctrace_segment");

	if (mark)
		mark(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	PG_RETURN_BOOL(mark != NULL);
}

/*
 * Callgrind dumps its counts on entering this function (--dump-before), so one valgrind'ed
 * single-user backend counts several queries apart: SELECT hl_btree_boundary(n) between them.
 */
extern PGDLLEXPORT pg_noinline void hl_btree_callgrind_boundary(int64 n);

pg_noinline void
hl_btree_callgrind_boundary(int64 n)
{
	/* an empty asm with n as input: the call is never optimised away */
	__asm__ __volatile__("" : : "r"(n));
}

PG_FUNCTION_INFO_V1(hl_btree_boundary);
Datum
hl_btree_boundary(PG_FUNCTION_ARGS)
{
	hl_btree_callgrind_boundary(PG_GETARG_INT64(0));
	PG_RETURN_VOID();
}
