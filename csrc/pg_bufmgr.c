/*
 * pg_bufmgr.c: the model's GetPrivateRefCountEntry (bufmgr.c in PostgreSQL), as C built by the
 * server's compiler with the server's flags: a linear search of the eight-entry array, then the
 * overflow hash only if entries ever overflowed into it, moving a found entry back into the
 * array when asked. Written for hotloops from the facts in the reference, not copied.
 */
#include "hl_pg.h"

PGPrivateRefCountEntry *
HL_SYM(hl_GetPrivateRefCountEntry)(PGPrivateRefCount *refs, Buffer buffer, bool do_move)
{
	PGPrivateRefCountEntry *res;

	for (int i = 0; i < PG_REFCOUNT_ARRAY_ENTRIES; i++)
	{
		res = &refs->array[i];
		if (res->buffer == buffer)
			return res;
	}

	/* Not in the array: the hash holds it only if the array ever overflowed. */
	if (refs->overflowed == 0)
		return NULL;
	res = hl_private_refcount_hash_find(refs, &buffer);
	if (res == NULL || !do_move)
		return res;
	return hl_private_refcount_move(refs, res, &buffer);
}
