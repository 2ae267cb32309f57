/*
 * hl_pg_server.h: what csrc/nbtsearch_checkkeys.c needs, spelled for a real server (17 and
 * later), so that hl_btree compiles the very source the crate's dir-by-value/c-opaque and
 * c-by-value rows are built from. The Makefile force-includes it (-include) in every object
 * and finds the kernel's source in ../../csrc (hotloops copies both beside it); it defines
 * HL_PG_H, so the kernel's own #include "hl_pg.h" (the crate's header) is skipped.
 *
 * What differs from the crate's csrc/hl_pg.h:
 * - the structs are the server's own (IndexScanDescData, BTScanOpaqueData with currPos.dir,
 *   ScanKeyData, BTScanPosItem, pages and index tuples through bufpage.h and itup.h);
 * - a tuple's key is the index's first attribute (index_getattr) and is compared with each
 *   scan key's own comparison function (sk_func, as _bt_check_compare does) instead of as an
 *   integer; hl_btree runs these kernels only on single-key-column indexes;
 * - BTReadPageState is the kernels' own (dir first, as 83a26ba59b made it after 18): 17 and 18
 *   have one without dir, which the kernels never see.
 * Written for hotloops; nothing copied from PostgreSQL.
 */
#ifndef HL_PG_SERVER_H
#define HL_PG_SERVER_H

#include "postgres.h"

/* 15 has no so->currPos.dir: the kernels are not built there (Makefile), and this is empty. */
#if PG_VERSION_NUM >= 170000
#define HL_PG_H

#include "access/itup.h"
#include "access/nbtree.h"
#include "access/relscan.h"
#include "fmgr.h"
#include "storage/bufpage.h"
#include "utils/rel.h"

#define HL_SYM(name) name##__server

/* The kernels' page state: master's BTReadPageState, dir first. */
typedef struct HLReadPageState
{
	ScanDirection dir;
	OffsetNumber minoff;
	OffsetNumber maxoff;
	const char *finaltup;
	const char *page;
	bool		firstpage;
	bool		forcenonrequired;
	int			startikey;
	OffsetNumber offnum;
	OffsetNumber skip;
	bool		continuescan;
	int16		rechecks;
	int16		targetdistance;
	int16		nskipadvances;
} HLReadPageState;

#define BTReadPageState HLReadPageState

/* A tuple's key: the first attribute's Datum, or NULL. */
typedef struct HLValue
{
	Datum		datum;
	bool		isnull;
} HLValue;

/* The key type is the scan itself: the descriptor and the keys' functions hang off it. */
typedef IndexScanDesc HLKeyType;

#define HL_INDEX_KEYTYPE(scan) (scan)

static inline HLValue
hl_server_key(IndexScanDesc scan, const char *tup)
{
	HLValue		v;

	v.datum = index_getattr((IndexTuple) tup, 1, RelationGetDescr(scan->indexRelation), &v.isnull);
	return v;
}

/* sk_func is the operator's own support function (<= for a <= key): both compares call it. */
static inline bool
hl_server_test(IndexScanDesc scan, HLValue v, ScanKey key)
{
	(void) scan;
	if (v.isnull)
		return false;
	return DatumGetBool(FunctionCall2Coll(&key->sk_func, key->sk_collation, v.datum, key->sk_argument));
}

#define HL_TUPLE_KEY(keytype, tup) hl_server_key(keytype, tup)
#define HL_VALUE_LE(keytype, value, key) hl_server_test(keytype, value, key)
#define HL_VALUE_GE(keytype, value, key) hl_server_test(keytype, value, key)

#define HL_PageGetMaxOffsetNumber(page) PageGetMaxOffsetNumber((Page) (page))
#define HL_PageGetItem(page, off) ((const char *) PageGetItem((Page) (page), PageGetItemId((Page) (page), (off))))
#define HL_BTPageGetOpaque(page) BTPageGetOpaque((Page) (page))
#define HL_TupleTid(tup) (((IndexTuple) (tup))->t_tid)

/* The kernels, as hl_btree calls them. */
extern bool hotloops_dir_by_value_c_opaque__server(IndexScanDesc scan, const char *page, OffsetNumber offnum,
												   bool firstpage, int min_keys);
extern bool hotloops_dir_by_value_c_by_value__server(IndexScanDesc scan, const char *page, OffsetNumber offnum,
													 bool firstpage, int min_keys);
extern bool hl_bt_check_compare__server(IndexScanDesc scan, ScanDirection dir, const char *tuple,
										bool *continuescan, int *ikey);
extern bool hl_dir_by_value_c_opaque_checkkeys__server(IndexScanDesc scan, HLReadPageState *pstate, const char *tuple);
extern bool hl_dir_by_value_c_by_value_checkkeys__server(IndexScanDesc scan, HLReadPageState *pstate, const char *tuple);

#endif							/* PG_VERSION_NUM >= 170000 */
#endif
