/*
 * nbtsearch_checkkeys.c: the _bt_readpage -> _bt_checkkeys -> _bt_check_compare per-tuple path
 * (PostgreSQL's nbtsearch.c/nbtutils.c, seed 001), written for hotloops in the shapes of
 * src/study/dir_by_value.rs. _bt_checkkeys is another translation unit than _bt_readpage in
 * PostgreSQL, so it is noinline here; _bt_check_compare is kept out of line as gcc keeps
 * PostgreSQL's (several call sites, a large body), so dir is materialised on every tuple.
 *
 * One source for the crate and the server: built by build.rs against csrc/hl_pg.h (the
 * crate's layouts, keys compared as integers), and by PGXS inside hl_btree against
 * pgext/hl_btree/hl_pg_server.h (the server's structs, keys compared by each scan key's
 * comparison function). The few things that differ go through HLKeyType, HLValue,
 * HL_INDEX_KEYTYPE, HL_TUPLE_KEY and HL_VALUE_LE/GE, which hl_pg.h spells as the crate's
 * code always was.
 */
#include "hl_pg.h"

/* _bt_check_compare: keys *ikey.. on tuple; a failed required key ends the scan. */
__attribute__((noinline)) bool
HL_SYM(hl_bt_check_compare)(IndexScanDesc scan, ScanDirection dir, const char *tuple,
							bool *continuescan, int *ikey)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;

	while (*ikey < so->numberOfKeys)
	{
		ScanKey		key = &so->keyData[*ikey];
		HLValue		value = HL_TUPLE_KEY(HL_INDEX_KEYTYPE(scan), tuple);
		bool		ok;

		if (key->sk_strategy == BTLessEqualStrategyNumber)
			ok = HL_VALUE_LE(HL_INDEX_KEYTYPE(scan), value, key);
		else
			ok = HL_VALUE_GE(HL_INDEX_KEYTYPE(scan), value, key);
		if (!ok)
		{
			if (((key->sk_flags & SK_BT_REQFWD) && ScanDirectionIsForward(dir)) ||
				((key->sk_flags & SK_BT_REQBKWD) && ScanDirectionIsBackward(dir)))
				*continuescan = false;
			return false;
		}
		(*ikey)++;
	}
	return true;
}

/* _bt_checkkeys as in PG18: dir read through scan->opaque on every tuple. */
__attribute__((noinline)) bool
HL_SYM(hl_dir_by_value_c_opaque_checkkeys)(IndexScanDesc scan, BTReadPageState *pstate, const char *tuple)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	ScanDirection dir = so->currPos.dir;
	int			ikey = pstate->startikey;

	return HL_SYM(hl_bt_check_compare)(scan, dir, tuple, &pstate->continuescan, &ikey);
}

/* _bt_checkkeys after 83a26ba59b: dir read from pstate, the caller's pointer. */
__attribute__((noinline)) bool
HL_SYM(hl_dir_by_value_c_by_value_checkkeys)(IndexScanDesc scan, BTReadPageState *pstate, const char *tuple)
{
	ScanDirection dir = pstate->dir;
	int			ikey = pstate->startikey;

	return HL_SYM(hl_bt_check_compare)(scan, dir, tuple, &pstate->continuescan, &ikey);
}

typedef bool (*hl_checkkeys_fn) (IndexScanDesc scan, BTReadPageState *pstate, const char *tuple);

/* _bt_set_startikey: the first key that the page's first or last data tuple fails. */
static inline int
hl_set_startikey(BTScanOpaque so, HLKeyType keytype, const char *page, OffsetNumber minoff, OffsetNumber maxoff)
{
	HLValue		first = HL_TUPLE_KEY(keytype, HL_PageGetItem(page, minoff));
	HLValue		last = HL_TUPLE_KEY(keytype, HL_PageGetItem(page, maxoff));
	int			ikey;

	for (ikey = 0; ikey < so->numberOfKeys; ikey++)
	{
		ScanKey		k = &so->keyData[ikey];
		bool		okf,
					okl;

		if (k->sk_strategy == BTLessEqualStrategyNumber)
		{
			okf = HL_VALUE_LE(keytype, first, k);
			okl = HL_VALUE_LE(keytype, last, k);
		}
		else
		{
			okf = HL_VALUE_GE(keytype, first, k);
			okl = HL_VALUE_GE(keytype, last, k);
		}
		if (!(okf && okl))
			break;
	}
	return ikey;
}

/*
 * _bt_readpage, forward: save the tuples from offnum that pass the keys into currPos.items,
 * stop when a required key fails, then check the high key for moreRight. Inlined into each
 * kernel with its checkkeys, as the Rust generic is.
 */
static inline __attribute__((always_inline)) bool
hl_readpage(IndexScanDesc scan, const char *page, OffsetNumber offnum, bool firstpage, int min_keys,
			hl_checkkeys_fn checkkeys)
{
	BTScanOpaque so = (BTScanOpaque) scan->opaque;
	HLKeyType	keytype = HL_INDEX_KEYTYPE(scan);
	ScanDirection dir = ForwardScanDirection;
	bool		hikey = HL_BTPageGetOpaque(page)->btpo_next != P_NONE;
	OffsetNumber minoff = hikey ? 2 : 1;
	OffsetNumber maxoff = HL_PageGetMaxOffsetNumber(page);
	BTReadPageState pstate;
	BTScanPosItem *items = so->currPos.items;
	int			itemIndex = 0;
	OffsetNumber off;

	so->currPos.dir = dir;
	pstate.dir = dir;
	pstate.minoff = minoff;
	pstate.maxoff = maxoff;
	pstate.finaltup = NULL;
	pstate.page = page;
	pstate.firstpage = firstpage;
	pstate.forcenonrequired = false;
	pstate.startikey = 0;
	pstate.offnum = offnum;
	pstate.skip = 0;
	pstate.continuescan = true;
	pstate.rechecks = 0;
	pstate.targetdistance = 0;
	pstate.nskipadvances = 0;
	if (!firstpage && minoff < maxoff)
	{
		int			cap = so->numberOfKeys - min_keys;
		int			s;

		if (cap < 0)
			cap = 0;
		s = hl_set_startikey(so, keytype, page, minoff, maxoff);
		pstate.startikey = s < cap ? s : cap;
	}
	off = offnum > minoff ? offnum : minoff;
	while (off <= maxoff)
	{
		const char *itup = HL_PageGetItem(page, off);

		pstate.offnum = off;
		if (checkkeys(scan, &pstate, itup))
		{
			items[itemIndex].heapTid = HL_TupleTid(itup);
			items[itemIndex].indexOffset = off;
			items[itemIndex].tupleOffset = 0;
			itemIndex++;
		}
		if (!pstate.continuescan)
			break;
		off++;
	}
	if (pstate.continuescan && hikey)
	{
		pstate.startikey = 0;
		checkkeys(scan, &pstate, HL_PageGetItem(page, P_HIKEY));
	}
	so->currPos.moreRight = pstate.continuescan && hikey;
	so->currPos.firstItem = 0;
	so->currPos.lastItem = itemIndex - 1;
	so->currPos.itemIndex = 0;
	return itemIndex > 0;
}

bool
HL_SYM(hotloops_dir_by_value_c_opaque)(IndexScanDesc scan, const char *page, OffsetNumber offnum,
									   bool firstpage, int min_keys)
{
	return hl_readpage(scan, page, offnum, firstpage, min_keys, HL_SYM(hl_dir_by_value_c_opaque_checkkeys));
}

bool
HL_SYM(hotloops_dir_by_value_c_by_value)(IndexScanDesc scan, const char *page, OffsetNumber offnum,
										 bool firstpage, int min_keys)
{
	return hl_readpage(scan, page, offnum, firstpage, min_keys, HL_SYM(hl_dir_by_value_c_by_value_checkkeys));
}
