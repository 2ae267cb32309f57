/*
 * pg_itup.h: index tuple access shared by the model's C (csrc/pg_*.c): the flag bits, the
 * tuple header's fields, BTreeTupleIsPivot and index_getattr for a tuple with a cached column
 * offset. Written for hotloops from the facts in the reference, not copied.
 */
#ifndef PG_ITUP_H
#define PG_ITUP_H

#include "hl_pg.h"

#define PG_BTP_LEAF (1 << 0)
#define PG_P_FIRSTKEY ((OffsetNumber) 2)
#define PG_INDEX_ALT_TID_MASK 0x2000
#define PG_INDEX_NULL_MASK 0x8000
#define PG_BT_OFFSET_MASK 0x0FFF
#define PG_BT_PIVOT_HEAP_TID_ATTR 0x1000
#define PG_BT_IS_POSTING 0x2000
#define PG_SK_ISNULL 0x0001
#define PG_SK_BT_DESC (1 << 24)
#define PG_SK_BT_NULLS_FIRST (1 << 25)
/* MAXALIGN(sizeof(IndexTupleData)): where a tuple without nulls keeps its first column. */
#define PG_INDEX_DATA_OFFSET 8

/* IndexTupleData: t_tid (6 bytes), then t_info. */
static inline uint16
tuple_info(const char *itup)
{
	return *(const uint16 *) (itup + 6);
}

static inline uint16
tuple_tid_offset(const char *itup)
{
	return *(const uint16 *) (itup + 4);
}

/* BTreeTupleIsPivot */
static inline bool
tuple_is_pivot(const char *itup)
{
	return (tuple_info(itup) & PG_INDEX_ALT_TID_MASK) != 0 &&
		(tuple_tid_offset(itup) & PG_BT_IS_POSTING) == 0;
}

/*
 * index_getattr for a tuple with a cached column offset; a tuple with nulls or a column
 * without one takes nocache_index_getattr, which the model does not run.
 */
static inline Datum
index_getattr(const char *itup, int attnum, const PGCompactAttribute *tupdesc, bool *isnull)
{
	const PGCompactAttribute *att;
	const char *p;

	*isnull = false;
	if (tuple_info(itup) & PG_INDEX_NULL_MASK)
		hl_pg_not_modelled("index_getattr: a tuple with nulls");
	att = &tupdesc[attnum - 1];
	if (att->attcacheoff < 0)
		hl_pg_not_modelled("index_getattr: nocache_index_getattr");
	p = itup + PG_INDEX_DATA_OFFSET + att->attcacheoff;
	/* fetchatt: by reference, the pointer; by value, by length. */
	if (!att->attbyval)
		return (Datum) p;
	switch (att->attlen)
	{
		case 1:
			return (Datum) *(const char *) p;
		case 2:
			return (Datum) *(const int16 *) p;
		case 4:
			return (Datum) *(const int32 *) p;
		case 8:
			return *(const Datum *) p;
		default:
			hl_pg_not_modelled("fetch_att: unsupported byval length");
	}
}

#endif							/* PG_ITUP_H */
