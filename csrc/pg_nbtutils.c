/*
 * pg_nbtutils.c: the model's _bt_checkkeys, _bt_check_compare and _bt_tuple_before_array_skeys
 * (nbtutils.c in PostgreSQL 18), as C built by the server's compiler with the server's flags:
 * does an index tuple pass the scan's keys, and is it still before the scan's current required
 * equality keys (the array's current element), in the scan's direction? Written for hotloops
 * from the facts in the reference, not copied.
 */
#include "hl_pg.h"
#include "pg_itup.h"

#define PG_SK_BT_REQFWD 0x00010000
#define PG_SK_BT_REQBKWD 0x00020000
/* 18's skip-array sentinels. */
#define PG_SK_BT_MINVAL 0x00080000
#define PG_SK_BT_MAXVAL 0x00100000
#define PG_SK_BT_NEXT 0x00200000
#define PG_SK_BT_PRIOR 0x00400000
#define PG_BTEqualStrategyNumber 3
#define PG_SK_ROW_HEADER 0x0004
#define PG_SK_SEARCHARRAY 0x0020

/* _bt_compare_array_skey: the tuple's value against the key's (tuple first), DESC flipped. */
static inline int32
compare_array_skey(const PGFmgrInfo *orderproc, Datum tupdatum, bool tupnull, Datum arrdatum,
				   const PGScanKeyData *cur)
{
	int32		result;

	if (tupnull)
	{
		if (cur->sk_flags & PG_SK_ISNULL)
			result = 0;
		else if (cur->sk_flags & PG_SK_BT_NULLS_FIRST)
			result = -1;
		else
			result = 1;
	}
	else if (cur->sk_flags & PG_SK_ISNULL)
	{
		if (cur->sk_flags & PG_SK_BT_NULLS_FIRST)
			result = 1;
		else
			result = -1;
	}
	else
	{
		result = (int32) hl_FunctionCall2Coll(orderproc, cur->sk_collation, tupdatum, arrdatum);
		if (cur->sk_flags & PG_SK_BT_DESC)
			result = (result < 0) ? 1 : -result;
	}
	return result;
}

/*
 * True while the tuple is before the current required equality keys from sktrig on: the
 * caller must not advance the arrays yet. A readpagetup call asks about one key. A high key's
 * truncated attribute counts as >= the keys, with *scanBehind set for callers who ask.
 */
bool
HL_SYM(hl_bt_tuple_before_array_skeys)(const PGBTScanKeys *so, ScanDirection dir, const char *tuple,
									   const PGCompactAttribute *tupdesc, int tupnatts, bool readpagetup,
									   int sktrig, bool *scanBehind)
{
	if (scanBehind)
		*scanBehind = false;

	for (int ikey = sktrig; ikey < so->numberOfKeys; ikey++)
	{
		const PGScanKeyData *cur = so->keyData + ikey;
		Datum		tupdatum;
		bool		tupnull;
		int32		result;

		/* Past the required keys: done. */
		if ((cur->sk_flags & (PG_SK_BT_REQFWD | PG_SK_BT_REQBKWD)) == 0)
			return false;

		if (cur->sk_attno > tupnatts)
		{
			if (scanBehind)
				*scanBehind = true;
			return false;
		}

		if (cur->sk_strategy != PG_BTEqualStrategyNumber)
			hl_pg_not_modelled("_bt_tuple_before_array_skeys: required inequality keys");

		tupdatum = index_getattr(tuple, cur->sk_attno, tupdesc, &tupnull);

		if (__builtin_expect(!(cur->sk_flags & (PG_SK_BT_MINVAL | PG_SK_BT_MAXVAL)), 1))
		{
			result = compare_array_skey(&so->orderProcs[ikey], tupdatum, tupnull, cur->sk_argument, cur);
			/* An equal NEXT/PRIOR sentinel is after/before the tuple. */
			if (result == 0)
			{
				if (cur->sk_flags & PG_SK_BT_NEXT)
					result = -1;
				else if (cur->sk_flags & PG_SK_BT_PRIOR)
					result = 1;
			}
		}
		else
			hl_pg_not_modelled("_bt_tuple_before_array_skeys: skip arrays' MINVAL/MAXVAL");

		if ((ScanDirectionIsForward(dir) && result < 0) ||
			(ScanDirectionIsBackward(dir) && result > 0))
			return true;

		/* Unequal (or the one key of a readpagetup call): the caller advances the arrays. */
		if (readpagetup || result != 0)
			return false;
	}
	return false;
}

/*
 * _bt_check_compare: the keys from *ikey on against the tuple, each through its operator's
 * function. A key the tuple fails ends the call; one required in the scan's direction also
 * clears *continuescan (no later tuple can pass). A truncated high-key attribute passes.
 * Static with several callers in nbtutils.c, out of line in the server's build: so here;
 * exported for the model's _bt_advance_array_keys, which stays in Rust.
 */
__attribute__((noinline)) bool
HL_SYM(hl_pg_bt_check_compare)(const PGBTScanKeys *so, ScanDirection dir, const char *tuple, int tupnatts,
							   const PGCompactAttribute *tupdesc, bool advancenonrequired, bool forcenonrequired,
							   bool *continuescan, int *ikey)
{
	*continuescan = true;

	for (; *ikey < so->numberOfKeys; (*ikey)++)
	{
		const PGScanKeyData *key = so->keyData + *ikey;
		bool		requiredSameDir = false;
		Datum		datum;
		bool		isNull;

		if (!forcenonrequired &&
			(((key->sk_flags & PG_SK_BT_REQFWD) && ScanDirectionIsForward(dir)) ||
			 ((key->sk_flags & PG_SK_BT_REQBKWD) && ScanDirectionIsBackward(dir))))
			requiredSameDir = true;

		if (key->sk_attno > tupnatts)
			continue;

		if (key->sk_flags & (PG_SK_BT_MINVAL | PG_SK_BT_MAXVAL | PG_SK_BT_NEXT | PG_SK_BT_PRIOR))
			hl_pg_not_modelled("_bt_check_compare: skip arrays' sentinels");
		if (key->sk_flags & PG_SK_ROW_HEADER)
			hl_pg_not_modelled("_bt_check_compare: row compares");

		datum = index_getattr(tuple, key->sk_attno, tupdesc, &isNull);

		if (key->sk_flags & PG_SK_ISNULL)
			hl_pg_not_modelled("_bt_check_compare: IS [NOT] NULL keys");
		if (isNull)
			hl_pg_not_modelled("_bt_check_compare: null index values");

		if (!(bool) hl_FunctionCall2Coll(&key->sk_func, key->sk_collation, datum, key->sk_argument))
		{
			if (requiredSameDir)
				*continuescan = false;
			else if (advancenonrequired && key->sk_strategy == PG_BTEqualStrategyNumber &&
					 (key->sk_flags & PG_SK_SEARCHARRAY))
				hl_pg_not_modelled("_bt_check_compare: non-required arrays");
			return false;
		}
	}
	return true;
}

/*
 * _bt_checkkeys: _bt_check_compare from the page's startikey; with array keys, a tuple that
 * failed a required key is either still before the current element (keep reading) or makes
 * the arrays advance (_bt_advance_array_keys, in Rust). Exported: _bt_readpage calls it from
 * nbtsearch.c.
 */
bool
HL_SYM(hl_pg_bt_checkkeys)(const PGNbtScan *scan, PGBTReadPageState *pstate, bool arrayKeys,
						   const char *tuple, int tupnatts)
{
	const PGCompactAttribute *tupdesc = scan->rel->rd_att;
	ScanDirection dir = scan->so->currPos.dir;
	int			ikey = pstate->startikey;
	bool		res;

	res = HL_SYM(hl_pg_bt_check_compare)(scan->keys, dir, tuple, tupnatts, tupdesc, arrayKeys,
										 pstate->forcenonrequired, &pstate->continuescan, &ikey);

	if (!arrayKeys || pstate->continuescan)
		return res;

	if (HL_SYM(hl_bt_tuple_before_array_skeys)(scan->keys, dir, tuple, tupdesc, tupnatts, true, ikey, NULL))
	{
		/* Still before the current element: override _bt_check_compare, keep reading. */
		pstate->continuescan = true;
		/* From the third such tuple 18 looks ahead on the page (fewer compares only): not modelled. */
		pstate->rechecks++;
		return false;
	}

	return hl_bt_advance_array_keys(scan, pstate, tuple, tupnatts, ikey);
}
