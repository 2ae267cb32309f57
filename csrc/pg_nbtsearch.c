/*
 * pg_nbtsearch.c: the model's _bt_compare (nbtsearch.c in PostgreSQL), as C built by the
 * server's compiler with the server's flags, so that the model's descent spends what gcc
 * spends per comparison (rustc's version of the same steps ran 71 instructions a call against
 * PostgreSQL 18.6's 83). Written for hotloops from the facts in the reference, not copied.
 */
#include "hl_pg.h"
#include "pg_itup.h"

/*
 * The scan key against the tuple at offnum: < 0, 0 or > 0 as the key is less than, equal to
 * or greater than it. An internal page's first data item is minus infinity; truncated
 * attributes compare as minus infinity; a forward search treats an equal pivot whose heap TID
 * was truncated as lower. No scantid: a bitmap scan's insertion key has none.
 */
int32
HL_SYM(hl_bt_compare)(const PGIndexRel *rel, const PGBTScanInsertData *key, const char *page, OffsetNumber offnum)
{
	const BTPageOpaqueData *opaque = HL_BTPageGetOpaque(page);
	const PGCompactAttribute *itupdesc = rel->rd_att;
	const PGScanKeyData *scankey;
	const char *itup;
	bool		pivot;
	bool		noheaptid;
	int			ntupatts;
	int			ncmpkey;
	int32		result;

	if (!(opaque->btpo_flags & PG_BTP_LEAF) &&
		offnum == (opaque->btpo_next == P_NONE ? P_HIKEY : PG_P_FIRSTKEY))
		return 1;

	itup = HL_PageGetItem(page, offnum);
	/* BTreeTupleGetNAtts: a pivot keeps its count in t_tid's offset. */
	pivot = tuple_is_pivot(itup);
	ntupatts = pivot ? (tuple_tid_offset(itup) & PG_BT_OFFSET_MASK) : rel->rd_rel->relnatts;
	ncmpkey = ntupatts < key->keysz ? ntupatts : key->keysz;

	scankey = key->scankeys;
	for (int i = 1; i <= ncmpkey; i++)
	{
		bool		isnull;
		Datum		datum = index_getattr(itup, scankey->sk_attno, itupdesc, &isnull);

		if (scankey->sk_flags & PG_SK_ISNULL)
		{
			if (isnull)
				result = 0;
			else if (scankey->sk_flags & PG_SK_BT_NULLS_FIRST)
				result = -1;
			else
				result = 1;
		}
		else if (isnull)
		{
			if (scankey->sk_flags & PG_SK_BT_NULLS_FIRST)
				result = 1;
			else
				result = -1;
		}
		else
		{
			result = (int32) hl_FunctionCall2Coll(&scankey->sk_func, scankey->sk_collation, datum,
												  scankey->sk_argument);
			/* INVERT_COMPARE_RESULT: the proc compares the tuple with the key. */
			if (!(scankey->sk_flags & PG_SK_BT_DESC))
				result = (result < 0) ? 1 : -result;
		}
		if (result != 0)
			return result;
		scankey++;
	}

	if (key->keysz > ntupatts)
		return 1;

	/* BTreeTupleGetHeapTID is null for a pivot whose heap TID was truncated away. */
	noheaptid = pivot && !(tuple_tid_offset(itup) & PG_BT_PIVOT_HEAP_TID_ATTR);
	if (key->scantid == NULL)
	{
		if (!key->backward && key->keysz == ntupatts && noheaptid && key->heapkeyspace)
			return 1;
		return 0;
	}
	hl_pg_not_modelled("_bt_compare with a scantid");
}
