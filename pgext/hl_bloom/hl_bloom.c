/*
 * hl_bloom: an index access method that is the server's own contrib/bloom (its routine is
 * bloom.so's blhandler's) except for amgetbitmap, which runs the variant that the GUC
 * hl_bloom.variant names when the scan starts, so one backend can interleave variants scan by
 * scan over the same index.
 *
 * Written for hotloops (read-stream study, seed 002: commit 4c910f3bbe, "bloom: Optimize bitmap
 * scan path with streaming read"). Variants, named with the crate's ids:
 *   read-stream/server         the server's own blgetbitmap (baseline; one ReadBufferExtended
 *                              a page in 15, 17 and 18)
 *   read-stream/sync-per-page  the same per-page synchronous loop compiled here (the control
 *                              that separates the loop from its placement)
 *   read-stream/stream         the loop as the seed's commit shapes it: a read stream over
 *                              [BLOOM_HEAD_BLKNO, npages), READ_STREAM_FULL (and from 18
 *                              READ_STREAM_USE_BATCHING), read_stream_next_buffer a page, the
 *                              stream ended after the last; PostgreSQL 17 or later
 *
 * bloom.so exports only blhandler (contrib modules are built with hidden visibility), so its
 * signValue and scan state are out of reach: the two compiled variants build the scan signature
 * themselves from the metapage's options and the index's hash support functions, with bloom's
 * rules (its Park-Miller generator seeded by the column, reseeded by the value's hash; bitSize
 * bits a column), and read bloom's pages by their on-disk format (src/pg/bloom.rs models both).
 *
 * The thread CPU time (CLOCK_THREAD_CPUTIME_ID) of the last amgetbitmap call, its TID count and
 * the variant that ran are kept for hl_bloom_last_*().
 */
#include "postgres.h"

#include <time.h>

#include "access/amapi.h"
#include "access/genam.h"
#include "access/relscan.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/rel.h"
#if PG_VERSION_NUM >= 170000
#include "storage/read_stream.h"
#endif

PG_MODULE_MAGIC;

/*
 * bloom's on-disk format (contrib/bloom/bloom.h), restated: bloom.h is not installed with the
 * server's headers.
 */
#define HL_BLOOM_META			(1 << 0)
#define HL_BLOOM_DELETED		(2 << 0)
#define HL_BLOOM_METAPAGE_BLKNO	0
#define HL_BLOOM_HEAD_BLKNO		1
#define HL_BLOOM_MAGICK_NUMBER	0xDBAC0DED
#define HL_BLOOM_HASH_PROC		1
#define HL_SIGNWORDBITS			16
/* MAX_BLOOM_LENGTH is 256 words' worth of bits */
#define HL_MAX_BLOOM_WORDS		256
/* offsetof(BloomTuple, sign): the heap TID */
#define HL_BLOOMTUPLEHDRSZ		sizeof(ItemPointerData)

typedef uint16 HlSignWord;

/* BloomPageOpaqueData, the special space of every bloom page */
typedef struct HlBloomPageOpaque
{
	OffsetNumber maxoff;
	uint16		flags;
	uint16		unused;
	uint16		bloom_page_id;
} HlBloomPageOpaque;

/* BloomOptions: the index's reloptions as the metapage keeps them */
typedef struct HlBloomOptions
{
	int32		vl_len_;
	int			bloomLength;	/* words */
	int			bitSize[INDEX_MAX_KEYS];
} HlBloomOptions;

/* The head of BloomMetaPageData (the free-page array that follows is not needed) */
typedef struct HlBloomMeta
{
	uint32		magickNumber;
	uint16		nStart;
	uint16		nEnd;
	HlBloomOptions opts;
} HlBloomMeta;

#define HlBloomPageGetOpaque(page) ((HlBloomPageOpaque *) PageGetSpecialPointer(page))

/* What one scan tests every tuple against */
typedef struct HlBloomScan
{
	int			bloomLength;
	Size		tupleSize;		/* sizeOfBloomTuple */
	HlSignWord	sign[HL_MAX_BLOOM_WORDS];
} HlBloomScan;

typedef enum HlVariant
{
	HL_SERVER,
	HL_SYNC_PER_PAGE,
	HL_STREAM
} HlVariant;

static const char *const hl_variant_ids[] = {
	"read-stream/server",
	"read-stream/sync-per-page",
	"read-stream/stream",
};

/* Full ids first; the short names are accepted but hidden from the listing. */
static const struct config_enum_entry hl_variant_options[] = {
	{"read-stream/server", HL_SERVER, false},
	{"read-stream/sync-per-page", HL_SYNC_PER_PAGE, false},
	{"read-stream/stream", HL_STREAM, false},
	{"server", HL_SERVER, true},
	{"sync-per-page", HL_SYNC_PER_PAGE, true},
	{"stream", HL_STREAM, true},
	{NULL, 0, false}
};

static int	hl_variant = HL_SERVER;
static int64 hl_last_ns = -1;
static int64 hl_last_ntids = -1;
static int	hl_last_variant = -1;

/* bloom's own blgetbitmap, from the routine its handler returned */
static amgetbitmap_function hl_server_getbitmap = NULL;

/*
 * The last index's metapage options, so that a scan reads no page bloom's own scan does not
 * (bloom keeps them in rd_amcache; ours are keyed by relid and relfilenode, which a rebuild
 * changes).
 */
static Oid	hl_opts_relid = InvalidOid;
static Oid	hl_opts_relfilenode = InvalidOid;
static HlBloomOptions hl_opts;

void		_PG_init(void);

/* The variants: out of line, exported under stable names (objdump and callgrind find them). */
extern int64 hotloops_read_stream_sync_per_page(IndexScanDesc scan, TIDBitmap *tbm);
extern int64 hotloops_read_stream_stream(IndexScanDesc scan, TIDBitmap *tbm);

void
_PG_init(void)
{
	DefineCustomEnumVariable("hl_bloom.variant",
							 "amgetbitmap variant of hl_bloom indexes (a hotloops read-stream id).",
							 NULL,
							 &hl_variant,
							 HL_SERVER,
							 hl_variant_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("hl_bloom");
}

/* The index's options from its metapage (cached for the last index). */
static const HlBloomOptions *
hl_bloom_options(Relation index)
{
	Buffer		buffer;
	Page		page;
	HlBloomMeta *meta;

	if (hl_opts_relid == RelationGetRelid(index) && hl_opts_relfilenode == index->rd_rel->relfilenode)
		return &hl_opts;

	buffer = ReadBuffer(index, HL_BLOOM_METAPAGE_BLKNO);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	meta = (HlBloomMeta *) PageGetContents(page);
	if (PageIsNew(page) || !(HlBloomPageGetOpaque(page)->flags & HL_BLOOM_META) ||
		meta->magickNumber != HL_BLOOM_MAGICK_NUMBER)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("hl_bloom: index \"%s\" has no bloom metapage", RelationGetRelationName(index))));
	hl_opts = meta->opts;
	UnlockReleaseBuffer(buffer);
	if (hl_opts.bloomLength < 1 || hl_opts.bloomLength > HL_MAX_BLOOM_WORDS)
	{
		hl_opts_relid = InvalidOid;
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("hl_bloom: index \"%s\" has a signature of %d words", RelationGetRelationName(index), hl_opts.bloomLength)));
	}
	hl_opts_relid = RelationGetRelid(index);
	hl_opts_relfilenode = index->rd_rel->relfilenode;
	return &hl_opts;
}

/* blutils.c's Park-Miller generator (myRand/mySrand), with the state passed in. */
static inline int32
hl_rand(int32 *next)
{
	int32		hi = *next / 127773,
				lo = *next % 127773,
				x = 16807 * lo - 2836 * hi;

	if (x < 0)
		x += 0x7fffffff;
	*next = x;
	return x - 1;
}

static inline void
hl_srand(int32 *next, uint32 seed)
{
	*next = (int32) seed;
	*next = (*next % 0x7ffffffe) + 1;
}

/*
 * bloom's signValue: the generator seeded with the column number, reseeded with the value's
 * hash (the opclass's support function 1, under the index column's collation) xor its next
 * output, then bitSize bits set at myRand() % signature bits.
 */
static void
hl_sign_value(Relation index, const HlBloomOptions *opts, HlSignWord *sign, Datum value, int attno)
{
	FmgrInfo   *hash = index_getprocinfo(index, attno + 1, HL_BLOOM_HASH_PROC);
	int32		next;
	uint32		hashVal;
	int			j;

	hl_srand(&next, attno);
	hashVal = DatumGetInt32(FunctionCall1Coll(hash, index->rd_indcollation[attno], value));
	hl_srand(&next, hashVal ^ hl_rand(&next));
	for (j = 0; j < opts->bitSize[attno]; j++)
	{
		int			nBit = hl_rand(&next) % (opts->bloomLength * HL_SIGNWORDBITS);

		sign[nBit / HL_SIGNWORDBITS] |= (HlSignWord) 1 << (nBit % HL_SIGNWORDBITS);
	}
}

/*
 * The scan signature of the scan's keys; false when a key is NULL (bloom's operators are
 * strict, so nothing matches).
 */
static bool
hl_scan_signature(IndexScanDesc scan, HlBloomScan *s)
{
	Relation	index = scan->indexRelation;
	const HlBloomOptions *opts = hl_bloom_options(index);
	ScanKey		skey = scan->keyData;
	int			i;

	s->bloomLength = opts->bloomLength;
	s->tupleSize = HL_BLOOMTUPLEHDRSZ + sizeof(HlSignWord) * opts->bloomLength;
	memset(s->sign, 0, sizeof(HlSignWord) * opts->bloomLength);
	for (i = 0; i < scan->numberOfKeys; i++, skey++)
	{
		if (skey->sk_flags & SK_ISNULL)
			return false;
		hl_sign_value(index, opts, s->sign, skey->sk_argument, skey->sk_attno - 1);
	}
	return true;
}

/*
 * One page of blgetbitmap's loop: unless the page is new or deleted, every tuple whose
 * signature has all the scan's bits goes to the bitmap, one tbm_add_tuples each, to recheck.
 */
static inline int64
hl_check_page(Page page, const HlBloomScan *s, TIDBitmap *tbm)
{
	int64		ntids = 0;
	OffsetNumber offset,
				maxOffset;
	char	   *data;

	if (PageIsNew(page) || (HlBloomPageGetOpaque(page)->flags & HL_BLOOM_DELETED))
		return 0;
	maxOffset = HlBloomPageGetOpaque(page)->maxoff;
	data = PageGetContents(page);
	for (offset = 1; offset <= maxOffset; offset++)
	{
		char	   *itup = data + s->tupleSize * (offset - 1);
		const HlSignWord *sign = (const HlSignWord *) (itup + HL_BLOOMTUPLEHDRSZ);
		bool		res = true;
		int			i;

		for (i = 0; i < s->bloomLength; i++)
		{
			if ((sign[i] & s->sign[i]) != s->sign[i])
			{
				res = false;
				break;
			}
		}
		if (res)
		{
			tbm_add_tuples(tbm, (ItemPointer) itup, 1, true);
			ntids++;
		}
	}
	return ntids;
}

/* What blgetbitmap counts for every scan that reads the index. */
static inline void
hl_count_scan(IndexScanDesc scan)
{
	pgstat_count_index_scan(scan->indexRelation);
#if PG_VERSION_NUM >= 180000
	if (scan->instrument)
		scan->instrument->nsearches++;
#endif
}

/* blgetbitmap before the seed: one synchronous ReadBufferExtended a page, a bulk-read ring. */
pg_noinline int64
hotloops_read_stream_sync_per_page(IndexScanDesc scan, TIDBitmap *tbm)
{
	HlBloomScan s;
	int64		ntids = 0;
	BlockNumber blkno,
				npages;
	BufferAccessStrategy bas;

	if (!hl_scan_signature(scan, &s))
		return 0;
	bas = GetAccessStrategy(BAS_BULKREAD);
	npages = RelationGetNumberOfBlocks(scan->indexRelation);
	hl_count_scan(scan);
	for (blkno = HL_BLOOM_HEAD_BLKNO; blkno < npages; blkno++)
	{
		Buffer		buffer = ReadBufferExtended(scan->indexRelation, MAIN_FORKNUM, blkno, RBM_NORMAL, bas);

		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		ntids += hl_check_page(BufferGetPage(buffer), &s, tbm);
		UnlockReleaseBuffer(buffer);
		CHECK_FOR_INTERRUPTS();
	}
	FreeAccessStrategy(bas);
	return ntids;
}

#if PG_VERSION_NUM >= 170000
/* block_range_read_stream_cb's state (18 exports that callback, 17 does not). */
typedef struct HlBlockRange
{
	BlockNumber current_blocknum;
	BlockNumber last_exclusive;
} HlBlockRange;

/* Every block of the range in order, then InvalidBlockNumber. Takes no locks. */
static BlockNumber
hl_block_range_cb(ReadStream *stream, void *private_data, void *per_buffer_data)
{
	HlBlockRange *p = (HlBlockRange *) private_data;

	(void) stream;
	(void) per_buffer_data;
	if (p->current_blocknum < p->last_exclusive)
		return p->current_blocknum++;
	return InvalidBlockNumber;
}

/* Batching (18) is safe: the callback takes no locks and never blocks. */
#if PG_VERSION_NUM >= 180000
#define HL_STREAM_FLAGS (READ_STREAM_FULL | READ_STREAM_USE_BATCHING)
#else
#define HL_STREAM_FLAGS READ_STREAM_FULL
#endif
#endif

/* blgetbitmap after the seed: every page but the metapage through one read stream. */
pg_noinline int64
hotloops_read_stream_stream(IndexScanDesc scan, TIDBitmap *tbm)
{
#if PG_VERSION_NUM < 170000
	(void) scan;
	(void) tbm;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("hl_bloom: read-stream/stream needs read streams, which PostgreSQL 17 introduced; this server is PostgreSQL %s", PG_VERSION),
			 errhint("Use read-stream/server or read-stream/sync-per-page on this server, or run on PostgreSQL 17 or 18.")));
	return 0;
#else
	HlBloomScan s;
	int64		ntids = 0;
	BlockNumber blkno,
				npages;
	BufferAccessStrategy bas;
	HlBlockRange p;
	ReadStream *stream;
	Buffer		extra;

	if (!hl_scan_signature(scan, &s))
		return 0;
	bas = GetAccessStrategy(BAS_BULKREAD);
	npages = RelationGetNumberOfBlocks(scan->indexRelation);
	hl_count_scan(scan);
	p.current_blocknum = HL_BLOOM_HEAD_BLKNO;
	p.last_exclusive = npages;
	stream = read_stream_begin_relation(HL_STREAM_FLAGS, bas, scan->indexRelation, MAIN_FORKNUM,
										hl_block_range_cb, &p, 0);
	for (blkno = HL_BLOOM_HEAD_BLKNO; blkno < npages; blkno++)
	{
		Buffer		buffer = read_stream_next_buffer(stream, NULL);

		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		ntids += hl_check_page(BufferGetPage(buffer), &s, tbm);
		UnlockReleaseBuffer(buffer);
		CHECK_FOR_INTERRUPTS();
	}

	/*
	 * The seed asserts the stream is used up (an assertion, compiled out of these servers);
	 * checked here in every build, one call a scan, so a page left unread is an error.
	 */
	extra = read_stream_next_buffer(stream, NULL);
	if (BufferIsValid(extra))
	{
		ReleaseBuffer(extra);
		elog(ERROR, "hl_bloom: the read stream had a block after the last page %u", npages - 1);
	}
	read_stream_end(stream);
	FreeAccessStrategy(bas);
	return ntids;
#endif
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
		case HL_SYNC_PER_PAGE:
			n = hotloops_read_stream_sync_per_page(scan, tbm);
			break;
		case HL_STREAM:
			n = hotloops_read_stream_stream(scan, tbm);
			break;
		default:
			n = hl_server_getbitmap(scan, tbm);
			break;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	hl_last_ns = (int64) (t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
	hl_last_ntids = n;
	hl_last_variant = v;
	return n;
}

PG_FUNCTION_INFO_V1(hl_bloom_handler);
Datum
hl_bloom_handler(PG_FUNCTION_ARGS)
{
	static PGFunction blhandler = NULL;
	IndexAmRoutine *r;

	/* Loading bloom.so also runs its _PG_init, which registers bloom's reloptions. */
	if (blhandler == NULL)
		blhandler = load_external_function("$libdir/bloom", "blhandler", true, NULL);
	r = (IndexAmRoutine *) DatumGetPointer(DirectFunctionCall1(blhandler, (Datum) 0));
	hl_server_getbitmap = r->amgetbitmap;
	r->amgetbitmap = hl_getbitmap;
	PG_RETURN_POINTER(r);
}

PG_FUNCTION_INFO_V1(hl_bloom_last_ns);
Datum
hl_bloom_last_ns(PG_FUNCTION_ARGS)
{
	if (hl_last_ns < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT64(hl_last_ns);
}

PG_FUNCTION_INFO_V1(hl_bloom_last_ntids);
Datum
hl_bloom_last_ntids(PG_FUNCTION_ARGS)
{
	if (hl_last_ntids < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT64(hl_last_ntids);
}

PG_FUNCTION_INFO_V1(hl_bloom_last_variant);
Datum
hl_bloom_last_variant(PG_FUNCTION_ARGS)
{
	if (hl_last_variant < 0)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(hl_variant_ids[hl_last_variant]));
}
