/*
 * tidbitmap.c: TIDBitmap's insert path (PostgreSQL's tidbitmap.c on simplehash.h's
 * "pagetable"), written for hotloops from the facts in the reference and the Rust model
 * (src/pg/tidbitmap.rs): tbm_add_tuples with its within-call page cache, tbm_get_pageentry
 * with TBM_EMPTY -> TBM_ONE_PAGE -> TBM_HASH, simplehash's Robin Hood insert and grow,
 * lookup, backward-shift delete and backward iteration, murmurhash32 recomputed on every
 * probe (SH_STORE_HASH is not defined for pagetable), and lossy mode: tbm_page_is_lossy,
 * tbm_mark_page_lossy and tbm_lossify's round-robin walk from lossify_start.
 *
 * Memory comes from calloc/free instead of a memory context. A bad offset, an ERROR in
 * PostgreSQL, stops the call and is recorded for the caller to read.
 */
#include "hl_pg.h"

#include <stdlib.h>
#include <string.h>

#define MaxHeapTuplesPerPage 291
#define PAGES_PER_CHUNK (BLCKSZ / 32)
#define BITS_PER_BITMAPWORD 64
#define WORDNUM(x) ((x) / BITS_PER_BITMAPWORD)
#define BITNUM(x) ((x) % BITS_PER_BITMAPWORD)

#define SH_FILLFACTOR (0.9)
#define SH_MAX_FILLFACTOR (0.98)
#define SH_GROW_MAX_DIB 25
#define SH_GROW_MAX_MOVE 150
#define SH_GROW_MIN_FILLFACTOR 0.1
#define SH_MAX_SIZE (((uint64) 0xFFFFFFFFU) + 1)
#define SH_STATUS_EMPTY 0x00
#define SH_STATUS_IN_USE 0x01

/* common/hashfn.h: the murmur3 32-bit finaliser. */
static inline uint32
murmurhash32(uint32 data)
{
	uint32		h = data;

	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

static inline uint64
sh_pow2(uint64 num)
{
	uint64		p = 1;

	while (p < num)
		p <<= 1;
	return p;
}

static inline uint32
pagetable_hash_key(BlockNumber key)
{
	return murmurhash32(key);
}

static void
pagetable_compute_parameters(pagetable_hash *tb, uint64 newsize)
{
	uint64		size = newsize < 2 ? 2 : newsize;

	size = sh_pow2(size);
	tb->size = size;
	tb->sizemask = (uint32) (size - 1);
	if (tb->size == SH_MAX_SIZE)
		tb->grow_threshold = ((double) tb->size) * SH_MAX_FILLFACTOR;
	else
		tb->grow_threshold = ((double) tb->size) * SH_FILLFACTOR;
}

static inline uint32
pagetable_initial_bucket(pagetable_hash *tb, uint32 hash)
{
	return hash & tb->sizemask;
}

static inline uint32
pagetable_next(pagetable_hash *tb, uint32 curelem)
{
	return (curelem + 1) & tb->sizemask;
}

static inline uint32
pagetable_prev(pagetable_hash *tb, uint32 curelem)
{
	return (curelem - 1) & tb->sizemask;
}

static inline uint32
pagetable_distance(pagetable_hash *tb, uint32 optimal, uint32 bucket)
{
	if (optimal <= bucket)
		return bucket - optimal;
	return (uint32) ((tb->size + bucket) - optimal);
}

static pagetable_hash *
pagetable_create(uint32 nelements)
{
	pagetable_hash *tb = calloc(1, sizeof(pagetable_hash));
	uint64		size;

	if (tb == NULL)
		abort();
	size = (uint64) ((((double) nelements) / SH_FILLFACTOR) < (double) SH_MAX_SIZE ? ((double) nelements) / SH_FILLFACTOR : (double) SH_MAX_SIZE);
	pagetable_compute_parameters(tb, size);
	tb->data = calloc(tb->size, sizeof(PagetableEntry));
	if (tb->data == NULL)
		abort();
	return tb;
}

/* SH_GROW: rehash into twice the buckets, starting at an unwrapped bucket. */
static __attribute__((noinline, cold)) void
pagetable_grow(pagetable_hash *tb, uint64 newsize)
{
	uint64		oldsize = tb->size;
	PagetableEntry *olddata = tb->data;
	PagetableEntry *newdata;
	uint32		i;
	uint32		startelem = 0;
	uint32		copyelem;

	pagetable_compute_parameters(tb, newsize);
	tb->data = calloc(tb->size, sizeof(PagetableEntry));
	if (tb->data == NULL)
		abort();
	newdata = tb->data;
	/* The optimal position is computed with the new mask, as simplehash does. */
	for (i = 0; i < oldsize; i++)
	{
		PagetableEntry *oldentry = &olddata[i];
		uint32		hash;
		uint32		optimal;

		if (oldentry->status != SH_STATUS_IN_USE)
		{
			startelem = i;
			break;
		}
		hash = pagetable_hash_key(oldentry->blockno);
		optimal = pagetable_initial_bucket(tb, hash);
		if (optimal == i)
		{
			startelem = i;
			break;
		}
	}
	copyelem = startelem;
	for (i = 0; i < oldsize; i++)
	{
		PagetableEntry *oldentry = &olddata[copyelem];

		if (oldentry->status == SH_STATUS_IN_USE)
		{
			uint32		hash = pagetable_hash_key(oldentry->blockno);
			uint32		curelem = pagetable_initial_bucket(tb, hash);

			while (newdata[curelem].status != SH_STATUS_EMPTY)
				curelem = pagetable_next(tb, curelem);
			memcpy(&newdata[curelem], oldentry, sizeof(PagetableEntry));
		}
		copyelem++;
		if (copyelem >= oldsize)
			copyelem = 0;
	}
	free(olddata);
}

/* SH_INSERT_HASH_INTERNAL: linear probing with Robin Hood displacement. */
static inline PagetableEntry *
pagetable_insert(pagetable_hash *tb, BlockNumber key, bool *found)
{
	uint32		hash = pagetable_hash_key(key);
	uint32		startelem;
	uint32		curelem;
	PagetableEntry *data;
	uint32		insertdist;

restart:
	insertdist = 0;
	/* The grow check runs even when the key is present. */
	if (tb->members >= tb->grow_threshold)
	{
		if (tb->size == SH_MAX_SIZE)
			abort();
		pagetable_grow(tb, tb->size * 2);
	}
	data = tb->data;
	startelem = pagetable_initial_bucket(tb, hash);
	curelem = startelem;
	for (;;)
	{
		uint32		curdist;
		uint32		curhash;
		uint32		curoptimal;
		PagetableEntry *entry = &data[curelem];

		if (entry->status == SH_STATUS_EMPTY)
		{
			tb->members++;
			entry->blockno = key;
			entry->status = SH_STATUS_IN_USE;
			*found = false;
			return entry;
		}
		if (entry->blockno == key)
		{
			*found = true;
			return entry;
		}
		curhash = pagetable_hash_key(entry->blockno);
		curoptimal = pagetable_initial_bucket(tb, curhash);
		curdist = pagetable_distance(tb, curoptimal, curelem);
		if (insertdist > curdist)
		{
			PagetableEntry *lastentry = entry;
			uint32		emptyelem = curelem;
			uint32		moveelem;
			int32		emptydist = 0;

			for (;;)
			{
				PagetableEntry *emptyentry;

				emptyelem = pagetable_next(tb, emptyelem);
				emptyentry = &data[emptyelem];
				if (emptyentry->status == SH_STATUS_EMPTY)
				{
					lastentry = emptyentry;
					break;
				}
				if (++emptydist > SH_GROW_MAX_MOVE &&
					((double) tb->members / tb->size) >= SH_GROW_MIN_FILLFACTOR)
				{
					tb->grow_threshold = 0;
					goto restart;
				}
			}
			moveelem = emptyelem;
			while (moveelem != curelem)
			{
				PagetableEntry *moveentry;

				moveelem = pagetable_prev(tb, moveelem);
				moveentry = &data[moveelem];
				memcpy(lastentry, moveentry, sizeof(PagetableEntry));
				lastentry = moveentry;
			}
			tb->members++;
			entry->blockno = key;
			entry->status = SH_STATUS_IN_USE;
			*found = false;
			return entry;
		}
		curelem = pagetable_next(tb, curelem);
		insertdist++;
		if (insertdist > SH_GROW_MAX_DIB &&
			((double) tb->members / tb->size) >= SH_GROW_MIN_FILLFACTOR)
		{
			tb->grow_threshold = 0;
			goto restart;
		}
	}
}

/* SH_LOOKUP. */
static inline PagetableEntry *
pagetable_lookup(pagetable_hash *tb, BlockNumber key)
{
	uint32		curelem = pagetable_initial_bucket(tb, pagetable_hash_key(key));

	for (;;)
	{
		PagetableEntry *entry = &tb->data[curelem];

		if (entry->status == SH_STATUS_EMPTY)
			return NULL;
		if (entry->blockno == key)
			return entry;
		curelem = pagetable_next(tb, curelem);
	}
}

/* SH_DELETE: backward-shift deletion. */
static bool
pagetable_delete(pagetable_hash *tb, BlockNumber key)
{
	uint32		curelem = pagetable_initial_bucket(tb, pagetable_hash_key(key));

	for (;;)
	{
		PagetableEntry *entry = &tb->data[curelem];

		if (entry->status == SH_STATUS_EMPTY)
			return false;
		if (entry->status == SH_STATUS_IN_USE && entry->blockno == key)
		{
			PagetableEntry *lastentry = entry;

			tb->members--;
			for (;;)
			{
				PagetableEntry *curentry;
				uint32		curoptimal;

				curelem = pagetable_next(tb, curelem);
				curentry = &tb->data[curelem];
				if (curentry->status != SH_STATUS_IN_USE)
				{
					lastentry->status = SH_STATUS_EMPTY;
					break;
				}
				curoptimal = pagetable_initial_bucket(tb, pagetable_hash_key(curentry->blockno));
				if (curoptimal == curelem)
				{
					lastentry->status = SH_STATUS_EMPTY;
					break;
				}
				memcpy(lastentry, curentry, sizeof(PagetableEntry));
				lastentry = curentry;
			}
			return true;
		}
		curelem = pagetable_next(tb, curelem);
	}
}

typedef struct pagetable_iterator
{
	uint32		cur;
	uint32		end;
	bool		done;
} pagetable_iterator;

/* SH_START_ITERATE_AT. */
static inline void
pagetable_start_iterate_at(pagetable_hash *tb, pagetable_iterator *iter, uint32 at)
{
	iter->cur = at & tb->sizemask;
	iter->end = iter->cur;
	iter->done = false;
}

/* SH_ITERATE: backwards, so that the current element may be deleted. */
static inline PagetableEntry *
pagetable_iterate(pagetable_hash *tb, pagetable_iterator *iter)
{
	while (!iter->done)
	{
		PagetableEntry *elem = &tb->data[iter->cur & tb->sizemask];

		iter->cur = (iter->cur - 1) & tb->sizemask;
		if ((iter->cur & tb->sizemask) == (iter->end & tb->sizemask))
			iter->done = true;
		if (elem->status == SH_STATUS_IN_USE)
			return elem;
	}
	return NULL;
}

/* tbm_calculate_entries: maxbytes / (entry + two iteration pointers), clamped. */
static int
tbm_calculate_entries(int64 maxbytes)
{
	int64		nbuckets = maxbytes / (int64) (sizeof(PagetableEntry) + sizeof(void *) + sizeof(void *));

	if (nbuckets > INT32_MAX - 1)
		nbuckets = INT32_MAX - 1;
	if (nbuckets < 16)
		nbuckets = 16;
	return (int) nbuckets;
}

TIDBitmap *
HL_SYM(hl_tbm_create)(int64 maxbytes)
{
	TIDBitmap  *tbm = calloc(1, sizeof(TIDBitmap));

	if (tbm == NULL)
		abort();
	tbm->status = TBM_EMPTY;
	tbm->maxentries = tbm_calculate_entries(maxbytes);
	return tbm;
}

void
HL_SYM(hl_tbm_free)(TIDBitmap *tbm)
{
	if (tbm->pagetable)
	{
		free(tbm->pagetable->data);
		free(tbm->pagetable);
	}
	free(tbm);
}

/* tbm_create_pagetable: build the hash table and move entry1 into it. */
static __attribute__((noinline, cold)) void
tbm_create_pagetable(TIDBitmap *tbm)
{
	tbm->pagetable = pagetable_create(128);
	if (tbm->status == TBM_ONE_PAGE)
	{
		PagetableEntry *page;
		bool		found;
		char		oldstatus;

		page = pagetable_insert(tbm->pagetable, tbm->entry1.blockno, &found);
		oldstatus = page->status;
		memcpy(page, &tbm->entry1, sizeof(PagetableEntry));
		page->status = oldstatus;
	}
	tbm->status = TBM_HASH;
}

/* tbm_get_pageentry: find or create the exact entry for pageno. */
static PagetableEntry *
tbm_get_pageentry(TIDBitmap *tbm, BlockNumber pageno)
{
	PagetableEntry *page;
	bool		found;

	if (tbm->status == TBM_EMPTY)
	{
		page = &tbm->entry1;
		found = false;
		tbm->status = TBM_ONE_PAGE;
	}
	else
	{
		if (tbm->status == TBM_ONE_PAGE)
		{
			page = &tbm->entry1;
			if (page->blockno == pageno)
				return page;
			tbm_create_pagetable(tbm);
		}
		page = pagetable_insert(tbm->pagetable, pageno, &found);
	}
	if (!found)
	{
		char		oldstatus = page->status;

		memset(page, 0, sizeof(PagetableEntry));
		page->status = oldstatus;
		page->blockno = pageno;
		tbm->nentries++;
		tbm->npages++;
	}
	return page;
}

/* tbm_page_is_lossy: is pageno's bit set in its chunk's entry? */
static inline bool
tbm_page_is_lossy(const TIDBitmap *tbm, BlockNumber pageno)
{
	PagetableEntry *page;
	BlockNumber chunk_pageno;
	int			bitno;

	if (tbm->nchunks == 0)
		return false;
	bitno = pageno % PAGES_PER_CHUNK;
	chunk_pageno = pageno - bitno;
	page = pagetable_lookup(tbm->pagetable, chunk_pageno);
	if (page != NULL && page->ischunk)
	{
		int			wordnum = WORDNUM(bitno);
		int			bitnum = BITNUM(bitno);

		if ((page->words[wordnum] & ((bitmapword) 1 << bitnum)) != 0)
			return true;
	}
	return false;
}

/* tbm_mark_page_lossy: drop pageno's exact entry and set its bit in its chunk. */
static void
tbm_mark_page_lossy(TIDBitmap *tbm, BlockNumber pageno)
{
	PagetableEntry *page;
	bool		found;
	BlockNumber chunk_pageno;
	int			bitno;
	int			wordnum;
	int			bitnum;

	if (tbm->status != TBM_HASH)
		tbm_create_pagetable(tbm);
	bitno = pageno % PAGES_PER_CHUNK;
	chunk_pageno = pageno - bitno;
	/* A chunk header page is its own chunk's entry: not deleted. */
	if (bitno != 0)
	{
		if (pagetable_delete(tbm->pagetable, pageno))
		{
			tbm->nentries--;
			tbm->npages--;
		}
	}
	page = pagetable_insert(tbm->pagetable, chunk_pageno, &found);
	if (!found)
	{
		char		oldstatus = page->status;

		memset(page, 0, sizeof(PagetableEntry));
		page->status = oldstatus;
		page->blockno = chunk_pageno;
		page->ischunk = true;
		tbm->nentries++;
		tbm->nchunks++;
	}
	else if (!page->ischunk)
	{
		/* The header page was exact: it becomes the chunk, itself lossy. */
		char		oldstatus = page->status;

		memset(page, 0, sizeof(PagetableEntry));
		page->status = oldstatus;
		page->blockno = chunk_pageno;
		page->ischunk = true;
		page->words[0] = ((bitmapword) 1 << 0);
		tbm->nchunks++;
		tbm->npages--;
	}
	wordnum = WORDNUM(bitno);
	bitnum = BITNUM(bitno);
	page->words[wordnum] |= ((bitmapword) 1 << bitnum);
}

/*
 * tbm_lossify: convert exact pages to lossy chunks, round-robin from lossify_start, until
 * nentries <= maxentries / 2; failing that, double maxentries.
 */
static __attribute__((noinline, cold)) void
tbm_lossify(TIDBitmap *tbm)
{
	pagetable_iterator i;
	PagetableEntry *page;

	pagetable_start_iterate_at(tbm->pagetable, &i, tbm->lossify_start);
	while ((page = pagetable_iterate(tbm->pagetable, &i)) != NULL)
	{
		if (page->ischunk)
			continue;
		if ((page->blockno % PAGES_PER_CHUNK) == 0)
			continue;
		tbm_mark_page_lossy(tbm, page->blockno);
		if (tbm->nentries <= tbm->maxentries / 2)
		{
			tbm->lossify_start = i.cur;
			break;
		}
	}
	if (tbm->nentries > tbm->maxentries / 2)
		tbm->maxentries = (tbm->nentries < (INT32_MAX - 1) / 2 ? tbm->nentries : (INT32_MAX - 1) / 2) * 2;
}

void
HL_SYM(hl_tbm_add_tuples)(TIDBitmap *tbm, const ItemPointerData *tids, int ntids, bool recheck)
{
	BlockNumber currblk = InvalidBlockNumber;
	PagetableEntry *page = NULL;
	int			i;

	for (i = 0; i < ntids; i++)
	{
		BlockNumber blk = ((BlockNumber) tids[i].ip_blkid.bi_hi << 16) | tids[i].ip_blkid.bi_lo;
		OffsetNumber off = tids[i].ip_posid;
		int			wordnum,
					bitnum;

		if (off < 1 || off > MaxHeapTuplesPerPage)
		{
			/* PostgreSQL: elog(ERROR, "tuple offset out of range: %u", off) */
			if (!tbm->error)
			{
				tbm->error = HL_TBM_BAD_OFFSET;
				tbm->error_block = blk;
				tbm->error_offset = off;
			}
			return;
		}
		if (blk != currblk)
		{
			if (tbm_page_is_lossy(tbm, blk))
				page = NULL;
			else
				page = tbm_get_pageentry(tbm, blk);
			currblk = blk;
		}
		if (page == NULL)
			continue;
		if (page->ischunk)
		{
			wordnum = 0;
			bitnum = 0;
		}
		else
		{
			wordnum = WORDNUM(off - 1);
			bitnum = BITNUM(off - 1);
		}
		page->words[wordnum] |= ((bitmapword) 1 << bitnum);
		page->recheck |= recheck;
		if (tbm->nentries > tbm->maxentries)
		{
			tbm_lossify(tbm);
			/* The page may have gone lossy: look it up again. */
			currblk = InvalidBlockNumber;
		}
	}
}

const PagetableEntry *
HL_SYM(hl_tbm_buckets)(const TIDBitmap *tbm, uint64 *nbuckets)
{
	switch (tbm->status)
	{
		case TBM_EMPTY:
			*nbuckets = 0;
			return NULL;
		case TBM_ONE_PAGE:
			*nbuckets = 1;
			return &tbm->entry1;
		case TBM_HASH:
			break;
	}
	*nbuckets = tbm->pagetable->size;
	return tbm->pagetable->data;
}
