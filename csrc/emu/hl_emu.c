/*
 * hl_emu.c: the driver of the emulated test program (tests/ckernels_emu.rs). Linked with every kernel source of
 * one configuration, it runs that configuration's C kernels on a case the Rust test wrote
 * (tests/ckernels_emu.rs) and prints one digest per kernel, computed by the formulas the Rust
 * cases use, so that an AArch64 build run under qemu-aarch64 can be compared with the x86-64
 * one. No Rust here: the Rust toolchain of this project has no aarch64 standard library.
 *
 *   hl-emu-<config> CASEFILE VARIANT...     ->  "<variant> <digest as 16 hex digits>" lines
 *
 * The kernels call back into other translation units, which in hotloops are Rust functions
 * (src/ckernels/mod.rs). This file provides C equivalents; none changes what a kernel does:
 *   - hl_bt_steppage: a port of the crate's bt_steppage/bt_readpage_all (every data item of the
 *     right sibling into currPos.items), over the case's leaf pages, byte for byte the crate's;
 *   - hl_tid_sink_add_tuples: the sink the Rust case passes: a port of TidDigest (FNV-1a), or
 *     the C TIDBitmap of csrc/tidbitmap.c at the case's work_mem for the bitmap case;
 *   - hl_tb_bt_first/next/steppage/start_prim_scan: the leaf spans the crate's B-tree scan
 *     delivered on the x86 run (through shared buffers and = ANY arrays, which this driver does
 *     not re-implement), replayed page by page and primitive scan by primitive scan into
 *     currPos exactly as those functions leave it (items, itemIndex, lastItem, xs_heaptid).
 * The test also runs the host build of this driver and checks it against the Rust harness's
 * digests, so a wrong equivalent here fails there first.
 */
#include "hl_pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HL_STUDY_LOCAL_INDEX 1
#define HL_STUDY_DIR_BY_VALUE 2
#define HL_STUDY_TID_BATCH 3

/* ---------------------------------------------------------------------------------------
 * Reading the case file (little-endian, written by tests/ckernels_emu.rs).
 */
static const unsigned char *in_buf;
static size_t in_len;
static size_t in_pos;

static void die(const char *what) __attribute__((noreturn));

static void
die(const char *what)
{
	fprintf(stderr, "hl_emu: %s\n", what);
	exit(2);
}

static const unsigned char *
take(size_t n)
{
	const unsigned char *p;

	if (in_len - in_pos < n)
		die("case file truncated");
	p = in_buf + in_pos;
	in_pos += n;
	return p;
}

static uint32
take_u32(void)
{
	uint32		v;

	memcpy(&v, take(4), 4);
	return v;
}

static int64
take_i64(void)
{
	int64		v;

	memcpy(&v, take(8), 8);
	return v;
}

static void
read_file(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	long		n;
	unsigned char *b;

	if (f == NULL)
		die("cannot open the case file");
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		die("cannot size the case file");
	b = malloc((size_t) n + 1);
	if (b == NULL || fread(b, 1, (size_t) n, f) != (size_t) n)
		die("cannot read the case file");
	fclose(f);
	in_buf = b;
	in_len = (size_t) n;
	in_pos = 0;
}

/* ---------------------------------------------------------------------------------------
 * Digests: the Rust formulas (src/pg/sink.rs TidDigest, src/pg/tidbitmap.rs tidbitmap_digest).
 */
typedef struct HLDigest
{
	uint64		count;
	uint64		hash;
	uint64		calls;
} HLDigest;

static uint64
rotl64(uint64 x, int r)
{
	return r == 0 ? x : (x << r) | (x >> (64 - r));
}

static void
digest_init(HLDigest *d)
{
	d->count = 0;
	d->hash = UINT64_C(0xcbf29ce484222325);
	d->calls = 0;
}

static void
digest_push(HLDigest *d, const ItemPointerData *t, bool recheck)
{
	uint64		block = ((uint64) t->ip_blkid.bi_hi << 16) | t->ip_blkid.bi_lo;
	uint64		key = (block << 16) | t->ip_posid;

	d->count++;
	d->hash = (d->hash ^ ((key << 1) | (uint64) recheck)) * UINT64_C(0x100000001b3);
}

static uint64
digest_value(const HLDigest *d)
{
	return d->hash ^ rotl64(d->count, 32);
}

static uint64
mix64(uint64 z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* tidbitmap_digest over the entries in use (entry1 in one-page state, the used slots). */
static uint64
tbm_digest(const TIDBitmap *tbm)
{
	uint64		n = 0;
	const PagetableEntry *e = HL_SYM(hl_tbm_buckets)(tbm, &n);
	uint64		acc = 0;
	uint64		i;

	for (i = 0; e != NULL && i < n; i++)
	{
		bool		recheck;
		uint64		h;
		int			w;

		if (tbm->status == TBM_HASH && e[i].status != 1)
			continue;
		recheck = e[i].recheck && !e[i].ischunk;
		h = mix64((uint64) e[i].blockno | ((uint64) e[i].ischunk << 32) | ((uint64) recheck << 33));
		for (w = 0; w < 5; w++)
			h = mix64(h ^ e[i].words[w]);
		acc += h;
	}
	return mix64(acc ^ mix64(((uint64) (int64) tbm->nentries << 32) | (uint64) (int64) tbm->npages) ^
				 ((uint64) (int64) tbm->nchunks << 17)) ^
		rotl64((uint64) (int64) tbm->maxentries, 40);
}

/* ---------------------------------------------------------------------------------------
 * The index's pages and the C versions of the Rust callees.
 */
typedef struct HLPageRef
{
	BlockNumber block;
	const char *page;
} HLPageRef;

static HLPageRef *pages;
static uint32 npages;

static const char *
page_at(BlockNumber block)
{
	uint32		i;

	for (i = 0; i < npages; i++)
		if (pages[i].block == block)
			return pages[i].page;
	die("a kernel asked for a block the case does not hold");
	return NULL;
}

/* The crate's bt_readpage_all: every data item of `block`, forward. */
static bool
readpage_all(BTScanOpaque so, BlockNumber block)
{
	const char *page = page_at(block);
	const BTPageOpaqueData *op = HL_BTPageGetOpaque(page);
	OffsetNumber first = op->btpo_next == P_NONE ? P_HIKEY : P_HIKEY + 1;
	OffsetNumber maxoff = HL_PageGetMaxOffsetNumber(page);
	OffsetNumber off;
	int			n = 0;

	so->currPos.currPage = block;
	so->currPos.nextPage = op->btpo_next;
	so->currPos.prevPage = op->btpo_prev;
	so->currPos.dir = ForwardScanDirection;
	so->currPos.moreRight = op->btpo_next != P_NONE;
	for (off = first; off <= maxoff; off++)
	{
		so->currPos.items[n].heapTid = HL_TupleTid(HL_PageGetItem(page, off));
		so->currPos.items[n].indexOffset = off;
		so->currPos.items[n].tupleOffset = 0;
		n++;
	}
	so->currPos.firstItem = 0;
	so->currPos.lastItem = n - 1;
	so->currPos.itemIndex = 0;
	return n > 0;
}

bool
hl_bt_steppage(BTScanOpaque so, const HLIndexRelation *rel)
{
	(void) rel;
	for (;;)
	{
		BlockNumber next = so->currPos.nextPage;

		if (next == P_NONE || next == InvalidBlockNumber)
			return false;
		if (readpage_all(so, next))
			return true;
	}
}

/* The local-index sink: a TidDigest, or the C TIDBitmap. */
typedef struct HLSink
{
	HLDigest	digest;
	TIDBitmap  *tbm;
} HLSink;

void
hl_tid_sink_add_tuples(void *sink, const ItemPointerData *tids, int ntids, bool recheck)
{
	HLSink	   *s = sink;
	int			i;

	if (s->tbm != NULL)
	{
		HL_SYM(hl_tbm_add_tuples)(s->tbm, tids, ntids, recheck);
		return;
	}
	s->digest.calls++;
	for (i = 0; i < ntids; i++)
		digest_push(&s->digest, &tids[i], recheck);
}

/* tid-batch: the recorded leaf spans, primitive scan by primitive scan. */
typedef struct HLSpan
{
	int32		itemIndex;
	int32		lastItem;
	const unsigned char *tids;	/* lastItem - itemIndex + 1 TIDs, 6 bytes each */
} HLSpan;

typedef struct HLPrim
{
	uint32		nspans;
	HLSpan	   *spans;
} HLPrim;

typedef struct HLReplay
{
	BTScanOpaque so;
	uint32		nprims;
	HLPrim	   *prims;
	uint32		prim;			/* the primitive scan now */
	uint32		span;			/* its span now */
	ItemPointerData xs_heaptid;
} HLReplay;

/* Put span `r->span` of primitive scan `r->prim` into currPos, as _bt_readpage leaves it. */
static void
load_span(HLReplay *r)
{
	const HLSpan *s = &r->prims[r->prim].spans[r->span];
	int			i;

	for (i = s->itemIndex; i <= s->lastItem; i++)
		memcpy(&r->so->currPos.items[i].heapTid, s->tids + 6 * (size_t) (i - s->itemIndex), 6);
	r->so->currPos.firstItem = 0;
	r->so->currPos.itemIndex = s->itemIndex;
	r->so->currPos.lastItem = s->lastItem;
	r->xs_heaptid = r->so->currPos.items[s->itemIndex].heapTid;
}

const ItemPointerData *
hl_tb_bt_first(void *bs)
{
	HLReplay   *r = bs;

	if (r->prim >= r->nprims)
		die("_bt_first past the recorded primitive scans");
	r->span = 0;
	if (r->prims[r->prim].nspans == 0)
		return NULL;
	load_span(r);
	return &r->xs_heaptid;
}

bool
hl_tb_bt_steppage(void *bs)
{
	HLReplay   *r = bs;

	if (r->span + 1 >= r->prims[r->prim].nspans)
		return false;
	r->span++;
	load_span(r);
	return true;
}

bool
hl_tb_bt_next(void *bs)
{
	return hl_tb_bt_steppage(bs);
}

bool
hl_tb_bt_start_prim_scan(void *bs)
{
	HLReplay   *r = bs;

	if (r->prim + 1 >= r->nprims)
		return false;
	r->prim++;
	return true;
}

/* ---------------------------------------------------------------------------------------
 * The Rust callees of the model's own C (csrc/pg_*.c: _bt_compare, _bt_checkkeys, GetPrivateRefCountEntry),
 * linked in with every kernel source. No kernel reaches that C, so none of these runs here.
 */
Datum
hl_FunctionCall2Coll(const PGFmgrInfo *flinfo, Oid collation, Datum arg1, Datum arg2)
{
	(void) flinfo;
	(void) collation;
	(void) arg1;
	(void) arg2;
	die("hl_FunctionCall2Coll: the model's C is not run by this driver");
}

PGPrivateRefCountEntry *
hl_private_refcount_hash_find(PGPrivateRefCount *refs, const Buffer *buffer)
{
	(void) refs;
	(void) buffer;
	die("hl_private_refcount_hash_find: the model's C is not run by this driver");
}

PGPrivateRefCountEntry *
hl_private_refcount_move(PGPrivateRefCount *refs, PGPrivateRefCountEntry *res, const Buffer *buffer)
{
	(void) refs;
	(void) res;
	(void) buffer;
	die("hl_private_refcount_move: the model's C is not run by this driver");
}

bool
hl_bt_advance_array_keys(const PGNbtScan *scan, PGBTReadPageState *pstate, const char *tuple, int tupnatts, int sktrig)
{
	(void) scan;
	(void) pstate;
	(void) tuple;
	(void) tupnatts;
	(void) sktrig;
	die("hl_bt_advance_array_keys: the model's C is not run by this driver");
}

void
hl_pg_not_modelled(const char *what)
{
	fprintf(stderr, "hl_emu: not modelled: %s\n", what);
	exit(2);
}

/* ---------------------------------------------------------------------------------------
 * The kernels, by variant name (the Rust test passes the names of its rows).
 */
typedef struct HLKernel
{
	const char *variant;
	int			study;
	void		(*fn) (void);
} HLKernel;

#define HL_K(v, s, f) {v, s, (void (*) (void)) f}
static const HLKernel kernels[] = {
	HL_K("c-store-each", HL_STUDY_LOCAL_INDEX, HL_SYM(hotloops_local_index_c_store_each)),
	HL_K("c-local", HL_STUDY_LOCAL_INDEX, HL_SYM(hotloops_local_index_c_local)),
	HL_K("c-span", HL_STUDY_LOCAL_INDEX, HL_SYM(hotloops_local_index_c_span)),
	HL_K("c-opaque", HL_STUDY_DIR_BY_VALUE, HL_SYM(hotloops_dir_by_value_c_opaque)),
	HL_K("c-by-value", HL_STUDY_DIR_BY_VALUE, HL_SYM(hotloops_dir_by_value_c_by_value)),
	HL_K("c-per-tid", HL_STUDY_TID_BATCH, HL_SYM(hotloops_tid_batch_c_per_tid)),
	HL_K("c-batched", HL_STUDY_TID_BATCH, HL_SYM(hotloops_tid_batch_c_batched)),
};

typedef int64 (*local_index_fn) (IndexScanDesc, ItemPointerData *, void *);
typedef bool (*dir_by_value_fn) (IndexScanDesc, const char *, OffsetNumber, bool, int);
typedef int64 (*tid_batch_fn) (IndexScanDesc, void *, TIDBitmap *);

/* BTScanPos::invalid() */
static void
invalidate(BTScanPosData *pos)
{
	memset(pos, 0, sizeof(*pos));
	pos->currPage = InvalidBlockNumber;
	pos->prevPage = InvalidBlockNumber;
	pos->nextPage = InvalidBlockNumber;
	pos->lastItem = -1;
}

/* The case's pages: npages x (block, 8 KiB). */
static void
read_pages(void)
{
	uint32		i;

	npages = take_u32();
	pages = calloc(npages ? npages : 1, sizeof(HLPageRef));
	if (pages == NULL)
		die("out of memory");
	for (i = 0; i < npages; i++)
	{
		pages[i].block = take_u32();
		pages[i].page = (const char *) take(BLCKSZ);
	}
}

/* ScanCase::outcome_with: position (bt_first_all), run, digest. */
static uint64
run_local_index(local_index_fn f, BTScanOpaque so, IndexScanDesc scan, BlockNumber first, int64 work_mem, ItemPointerData *batch)
{
	HLSink		sink;
	int64		ntids;
	uint64		bitmap = 0;
	HLDigest	empty;

	invalidate(&so->currPos);
	if (npages > 0 && !readpage_all(so, first))
		hl_bt_steppage(so, scan->indexRelation);
	digest_init(&sink.digest);
	sink.tbm = work_mem > 0 ? HL_SYM(hl_tbm_create)(work_mem) : NULL;
	ntids = f(scan, batch, &sink);
	if (sink.tbm != NULL)
	{
		if (sink.tbm->error)
			die("the bitmap raised ERROR");
		bitmap = tbm_digest(sink.tbm);
		HL_SYM(hl_tbm_free)(sink.tbm);
		/* The bitmap case's digest sink is never fed. */
		digest_init(&empty);
		sink.digest = empty;
	}
	return digest_value(&sink.digest) ^ rotl64(bitmap, 29) ^ rotl64((uint64) ntids, 7) ^
		((uint64) (int64) so->currPos.itemIndex << 40) ^ ((uint64) (int64) so->currPos.lastItem << 20) ^
		(uint64) so->currPos.currPage;
}

typedef struct HLRange
{
	ScanKeyData keys[2];
	uint32		leaf;
	OffsetNumber off;
} HLRange;

/* RangeCase::outcome_with: every range from its first leaf, right while moreRight. */
static uint64
run_dir_by_value(dir_by_value_fn f, BTScanOpaque so, IndexScanDesc scan, const HLRange *ranges, uint32 nranges,
				 int min_keys, ScanKeyData *keys)
{
	HLDigest	d;
	uint64		npages_read = 0;
	uint32		r;

	digest_init(&d);
	for (r = 0; r < nranges; r++)
	{
		uint32		leaf = ranges[r].leaf;
		OffsetNumber off = ranges[r].off;
		bool		firstpage = true;

		keys[0] = ranges[r].keys[0];
		keys[1] = ranges[r].keys[1];
		so->keyData = keys;
		invalidate(&so->currPos);
		/* A range with no leaf holding lo: the Rust case resets currPos and moves on. */
		if (leaf == UINT32_MAX)
			continue;
		for (;;)
		{
			int			i;

			f(scan, pages[leaf].page, off, firstpage, min_keys);
			npages_read++;
			for (i = so->currPos.firstItem; i <= so->currPos.lastItem; i++)
				digest_push(&d, &so->currPos.items[i].heapTid, false);
			if (!so->currPos.moreRight || leaf + 1 == npages)
				break;
			leaf++;
			off = 1;
			firstpage = false;
		}
	}
	return digest_value(&d) ^ rotl64(npages_read, 17) ^ ((uint64) (int64) so->currPos.lastItem << 32) ^
		(uint64) so->currPos.moreRight;
}

int
main(int argc, char **argv)
{
	BTScanOpaque so;
	IndexScanDescData scan;
	HLIndexRelation rel;
	uint32		study;
	int			a;
	size_t		body;

	if (argc < 3)
	{
		fprintf(stderr, "usage: %s CASEFILE VARIANT...\n", argv[0]);
		return 2;
	}
	read_file(argv[1]);
	if (memcmp(take(8), "HLCASE1", 8) != 0)
		die("not a case file (magic)");
	study = take_u32();
	so = calloc(1, sizeof(BTScanOpaqueData));
	if (so == NULL)
		die("out of memory");
	so->qual_ok = true;
	memset(&scan, 0, sizeof(scan));
	memset(&rel, 0, sizeof(rel));
	scan.opaque = so;
	scan.indexRelation = &rel;
	rel.keytype = (uint8) take_u32();
	body = in_pos;
	for (a = 2; a < argc; a++)
	{
		const HLKernel *k = NULL;
		size_t		i;
		uint64		v;

		for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
			if (strcmp(kernels[i].variant, argv[a]) == 0)
				k = &kernels[i];
		if (k == NULL || k->study != (int) study)
		{
			fprintf(stderr, "hl_emu: no kernel `%s` for this case's study\n", argv[a]);
			return 2;
		}
		/* Each kernel reads the case afresh. */
		in_pos = body;
		if (study == HL_STUDY_LOCAL_INDEX)
		{
			BlockNumber first = take_u32();
			int64		work_mem = take_i64();
			ItemPointerData *batch = calloc(HL_BATCH_CAPACITY, sizeof(ItemPointerData));

			read_pages();
			v = run_local_index((local_index_fn) k->fn, so, &scan, first, work_mem, batch);
			free(batch);
		}
		else if (study == HL_STUDY_DIR_BY_VALUE)
		{
			int			min_keys = (int) take_u32();
			uint32		nranges;
			HLRange    *ranges;
			ScanKeyData keys[2];
			uint32		r;

			read_pages();
			nranges = take_u32();
			ranges = calloc(nranges ? nranges : 1, sizeof(HLRange));
			if (ranges == NULL)
				die("out of memory");
			for (r = 0; r < nranges; r++)
			{
				memcpy(&ranges[r].keys[0], take(sizeof(ScanKeyData)), sizeof(ScanKeyData));
				memcpy(&ranges[r].keys[1], take(sizeof(ScanKeyData)), sizeof(ScanKeyData));
				ranges[r].leaf = take_u32();
				ranges[r].off = (OffsetNumber) take_u32();
			}
			so->numberOfKeys = 2;
			v = run_dir_by_value((dir_by_value_fn) k->fn, so, &scan, ranges, nranges, min_keys, keys);
			free(ranges);
		}
		else
		{
			int64		work_mem = take_i64();
			HLReplay	rep;
			TIDBitmap  *tbm;
			int64		ntids;
			uint32		p;

			memset(&rep, 0, sizeof(rep));
			rep.so = so;
			rep.nprims = take_u32();
			rep.prims = calloc(rep.nprims ? rep.nprims : 1, sizeof(HLPrim));
			if (rep.prims == NULL)
				die("out of memory");
			for (p = 0; p < rep.nprims; p++)
			{
				uint32		s;

				rep.prims[p].nspans = take_u32();
				rep.prims[p].spans = calloc(rep.prims[p].nspans ? rep.prims[p].nspans : 1, sizeof(HLSpan));
				if (rep.prims[p].spans == NULL)
					die("out of memory");
				for (s = 0; s < rep.prims[p].nspans; s++)
				{
					HLSpan	   *sp = &rep.prims[p].spans[s];

					sp->itemIndex = (int32) take_u32();
					sp->lastItem = (int32) take_u32();
					if (sp->itemIndex < 0 || sp->lastItem < sp->itemIndex || sp->lastItem >= MaxTIDsPerBTreePage)
						die("a recorded span out of range");
					sp->tids = take(6 * (size_t) (sp->lastItem - sp->itemIndex + 1));
				}
			}
			invalidate(&so->currPos);
			tbm = HL_SYM(hl_tbm_create)(work_mem);
			ntids = ((tid_batch_fn) k->fn) (&scan, &rep, tbm);
			if (tbm->error)
			{
				fprintf(stderr, "hl_emu: %s: the C bitmap raised ERROR: tuple offset out of range: %u (block %u)\n", argv[a],
						tbm->error_offset, tbm->error_block);
				return 1;
			}
			if (rep.prim + 1 != rep.nprims)
				die("the kernel ended before the last recorded primitive scan");
			v = tbm_digest(tbm) ^ ((uint64) ntids * UINT64_C(0x9e3779b97f4a7c15));
			HL_SYM(hl_tbm_free)(tbm);
			for (p = 0; p < rep.nprims; p++)
				free(rep.prims[p].spans);
			free(rep.prims);
		}
		printf("%s %016llx\n", argv[a], (unsigned long long) v);
	}
	free(so);
	return 0;
}
