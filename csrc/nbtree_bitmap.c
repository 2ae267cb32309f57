/*
 * nbtree_bitmap.c: btgetbitmap's copy loops (PostgreSQL's nbtree.c), written for hotloops in
 * the shapes of the Rust kernels in src/study/local_index.rs. The page step (_bt_next) and the
 * flush (tbm_add_tuples) live in other translation units, as in PostgreSQL, which builds
 * without LTO: here they are Rust functions (hl_bt_steppage, hl_tid_sink_add_tuples).
 */
#include "hl_pg.h"

/*
 * c-store-each: the cursor lives in so->currPos and the batch flush sits inside the copy
 * loop (today's store-each). The out-of-line call in the loop body is what makes every
 * compiler keep itemIndex in memory, whatever the aliasing flag.
 */
int64
HL_SYM(hotloops_local_index_c_store_each)(IndexScanDesc scan, ItemPointerData *batch, void *sink)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	const HLIndexRelation *rel = scan->indexRelation;
	int			nbatch = 0;
	int64		ntids = 0;

	for (;;)
	{
		while (so->currPos.itemIndex <= so->currPos.lastItem)
		{
			if (nbatch == HL_BATCH_CAPACITY)
			{
				hl_tid_sink_add_tuples(sink, batch, nbatch, false);
				nbatch = 0;
			}
			batch[nbatch++] = so->currPos.items[so->currPos.itemIndex].heapTid;
			ntids++;
			so->currPos.itemIndex++;
		}
		if (!hl_bt_steppage(so, rel))
			break;
	}
	if (nbatch > 0)
		hl_tid_sink_add_tuples(sink, batch, nbatch, false);
	return ntids;
}

/* c-local: the patch; the cursor in locals, written back once per page. */
int64
HL_SYM(hotloops_local_index_c_local)(IndexScanDesc scan, ItemPointerData *batch, void *sink)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	const HLIndexRelation *rel = scan->indexRelation;
	int			nbatch = 0;
	int64		ntids = 0;

	for (;;)
	{
		int			i = so->currPos.itemIndex;
		int			last = so->currPos.lastItem;

		while (i <= last)
		{
			if (nbatch == HL_BATCH_CAPACITY)
			{
				hl_tid_sink_add_tuples(sink, batch, nbatch, false);
				nbatch = 0;
			}
			batch[nbatch++] = so->currPos.items[i].heapTid;
			ntids++;
			i++;
		}
		so->currPos.itemIndex = i;
		if (!hl_bt_steppage(so, rel))
			break;
	}
	if (nbatch > 0)
		hl_tid_sink_add_tuples(sink, batch, nbatch, false);
	return ntids;
}

/*
 * c-span: the cursor in so->currPos, but the copy loop is call-free: a span that does not fit
 * the batch is preceded by a flush (a span is at most MaxTIDsPerBTreePage, the batch's
 * capacity). This is the loop where only the aliasing flag decides whether itemIndex stays in
 * a register. Same TIDs in the same order as c-store-each; the flushes fall at span bounds.
 */
int64
HL_SYM(hotloops_local_index_c_span)(IndexScanDesc scan, ItemPointerData *batch, void *sink)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	const HLIndexRelation *rel = scan->indexRelation;
	int			nbatch = 0;
	int64		ntids = 0;

	for (;;)
	{
		int			span = so->currPos.lastItem - so->currPos.itemIndex + 1;

		if (span > 0 && nbatch + span > HL_BATCH_CAPACITY)
		{
			hl_tid_sink_add_tuples(sink, batch, nbatch, false);
			nbatch = 0;
		}
		while (so->currPos.itemIndex <= so->currPos.lastItem)
		{
			batch[nbatch++] = so->currPos.items[so->currPos.itemIndex].heapTid;
			ntids++;
			so->currPos.itemIndex++;
		}
		if (!hl_bt_steppage(so, rel))
			break;
	}
	if (nbatch > 0)
		hl_tid_sink_add_tuples(sink, batch, nbatch, false);
	return ntids;
}

/*
 * tid-batch c-per-tid: btgetbitmap as in master, one tbm_add_tuples call per TID, the cursor
 * advanced in so->currPos (++itemIndex, then the end-of-page check), into the C TIDBitmap
 * (tidbitmap.c, another translation unit), with array keys' primitive scans.
 */
int64
HL_SYM(hotloops_tid_batch_c_per_tid)(IndexScanDesc scan, void *bs, TIDBitmap *tbm)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	int64		ntids = 0;

	do
	{
		const ItemPointerData *heapTid = hl_tb_bt_first(bs);

		if (heapTid != NULL)
		{
			HL_SYM(hl_tbm_add_tuples)(tbm, heapTid, 1, false);
			ntids++;
			for (;;)
			{
				if (++so->currPos.itemIndex > so->currPos.lastItem)
				{
					if (!hl_tb_bt_next(bs))
						break;
				}
				HL_SYM(hl_tbm_add_tuples)(tbm, &so->currPos.items[so->currPos.itemIndex].heapTid, 1, false);
				ntids++;
			}
		}
	} while (hl_tb_bt_start_prim_scan(bs));
	return ntids;
}

/*
 * tid-batch c-batched: each leaf's span copied into a stack batch with the cursor in locals;
 * a full batch is flushed, the residual once after the last primitive scan.
 */
int64
HL_SYM(hotloops_tid_batch_c_batched)(IndexScanDesc scan, void *bs, TIDBitmap *tbm)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	ItemPointerData batch[HL_TID_BATCH];
	int			nbatch = 0;
	int64		ntids = 0;

	do
	{
		if (hl_tb_bt_first(bs) != NULL)
		{
			for (;;)
			{
				int			i = so->currPos.itemIndex;
				int			last = so->currPos.lastItem;

				while (i <= last)
				{
					if (nbatch == HL_TID_BATCH)
					{
						HL_SYM(hl_tbm_add_tuples)(tbm, batch, nbatch, false);
						nbatch = 0;
					}
					batch[nbatch++] = so->currPos.items[i].heapTid;
					ntids++;
					i++;
				}
				so->currPos.itemIndex = i;
				if (!hl_tb_bt_steppage(bs))
					break;
			}
		}
	} while (hl_tb_bt_start_prim_scan(bs));
	if (nbatch > 0)
		HL_SYM(hl_tbm_add_tuples)(tbm, batch, nbatch, false);
	return ntids;
}
