/*
 * hl_pg.h: the PostgreSQL structures the C reference kernels read, on the crate's layouts
 * (src/pg/nbtree.rs, src/pg/itemptr.rs: master's BTScanOpaqueData, 27,352 bytes, currPos at
 * 88), written for hotloops from the facts in the reference, not copied from PostgreSQL.
 *
 * Every translation unit is compiled once per named configuration (build.rs) with
 * -DHL_CONFIG=<suffix>; HL_SYM pastes that suffix onto each exported symbol so that all
 * configurations link into one binary: HL_SYM(hotloops_x) -> hotloops_x__gcc12_pg.
 */
#ifndef HL_PG_H
#define HL_PG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef HL_CONFIG
#error "build.rs passes -DHL_CONFIG=<configuration suffix>"
#endif

#define HL_CAT2(a, b) a##__##b
#define HL_CAT(a, b) HL_CAT2(a, b)
#define HL_SYM(name) HL_CAT(name, HL_CONFIG)

typedef int16_t int16;
typedef int32_t int32;
typedef int64_t int64;
typedef uint8_t uint8;
typedef uint16_t uint16;
typedef uint32_t uint32;
typedef uint64_t uint64;

typedef uint32 BlockNumber;
typedef uint16 OffsetNumber;
typedef uint16 LocationIndex;
typedef int Buffer;
typedef uint64 XLogRecPtr;

#define BLCKSZ 8192
#define SizeOfPageHeaderData 24
#define InvalidBlockNumber ((BlockNumber) 0xFFFFFFFF)
#define P_NONE 0
#define P_HIKEY ((OffsetNumber) 1)
/* (8192 - 24 - 16) / 6 */
#define MaxTIDsPerBTreePage 1358
/* The batch the local-index kernels fill: one leaf page's worth (local_index::BATCH_CAPACITY). */
#define HL_BATCH_CAPACITY MaxTIDsPerBTreePage

/* itemptr.h: uint16 halves, so a TID copy is a uint16 store as far as aliasing goes. */
typedef struct BlockIdData
{
	uint16		bi_hi;
	uint16		bi_lo;
} BlockIdData;

typedef struct ItemPointerData
{
	BlockIdData ip_blkid;
	OffsetNumber ip_posid;
} __attribute__((packed, aligned(2))) ItemPointerData;

typedef ItemPointerData *ItemPointer;

/* sdir.h */
typedef enum ScanDirection
{
	BackwardScanDirection = -1,
	NoMovementScanDirection = 0,
	ForwardScanDirection = 1
} ScanDirection;

#define ScanDirectionIsForward(d) ((d) == ForwardScanDirection)
#define ScanDirectionIsBackward(d) ((d) == BackwardScanDirection)

/* The model's ScanKeyData, cut to what _bt_check_compare reads (nbtree.rs ScanKey). */
typedef struct ScanKeyData
{
	int			sk_flags;
	int16		sk_attno;
	uint16		sk_strategy;
	int64		sk_argument;
} ScanKeyData;

typedef ScanKeyData *ScanKey;

#define SK_BT_REQFWD 0x00010000
#define SK_BT_REQBKWD 0x00020000
#define BTLessEqualStrategyNumber 2
#define BTGreaterEqualStrategyNumber 4

typedef struct BTScanPosItem
{
	ItemPointerData heapTid;
	OffsetNumber indexOffset;
	LocationIndex tupleOffset;
} BTScanPosItem;

typedef struct BTScanPosData
{
	Buffer		buf;
	BlockNumber currPage;
	BlockNumber prevPage;
	BlockNumber nextPage;
	XLogRecPtr	lsn;
	ScanDirection dir;
	int			nextTupleOffset;
	bool		moreLeft;
	bool		moreRight;
	int			firstItem;
	int			lastItem;
	int			itemIndex;
	BTScanPosItem items[MaxTIDsPerBTreePage];
} BTScanPosData;

typedef struct BTScanOpaqueData
{
	bool		qual_ok;
	int			numberOfKeys;
	ScanKey		keyData;
	int			numArrayKeys;
	bool		skipScan;
	bool		needPrimScan;
	bool		scanBehind;
	bool		oppositeDirCheck;
	void	   *arrayKeys;
	void	   *orderProcs;
	void	   *arrayContext;
	int		   *killedItems;
	int			numKilled;
	bool		dropPin;
	char	   *currTuples;
	char	   *markTuples;
	int			markItemIndex;
	BTScanPosData currPos;
	BTScanPosData markPos;
} BTScanOpaqueData;

typedef BTScanOpaqueData *BTScanOpaque;

/*
 * The index relation is the crate's BTree (a Rust struct): C reads only its key type, a
 * one-byte Rust enum at offset 48 (0 = int4, 1 = int8; checked by a Rust test).
 */
typedef struct HLIndexRelation
{
	char		hl_rust_private[48];
	uint8		keytype;
} HLIndexRelation;

#define HL_KEY_INT4 0
#define HL_KEY_INT8 1

typedef struct IndexScanDescData
{
	void	   *heapRelation;
	const HLIndexRelation *indexRelation;
	void	   *xs_snapshot;
	int			numberOfKeys;
	int			numberOfOrderBys;
	ScanKey		keyData;
	void	   *orderByData;
	bool		xs_want_itup;
	bool		xs_temp_snap;
	bool		kill_prior_tuple;
	bool		ignore_killed_tuples;
	void	   *opaque;
} IndexScanDescData;

typedef IndexScanDescData *IndexScanDesc;

/* nbtree.h (18+): BTReadPageState with dir first (83a26ba59b). */
typedef struct BTReadPageState
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
} BTReadPageState;

/* bufpage.h / itemid.h: line pointers are bit fields, as in PostgreSQL. */
typedef struct ItemIdData
{
	unsigned	lp_off:15,
				lp_flags:2,
				lp_len:15;
} ItemIdData;

typedef struct HLPageHeader
{
	uint64		pd_lsn;
	uint16		pd_checksum;
	uint16		pd_flags;
	LocationIndex pd_lower;
	LocationIndex pd_upper;
	LocationIndex pd_special;
	uint16		pd_pagesize_version;
	uint32		pd_prune_xid;
	ItemIdData	pd_linp[];
} HLPageHeader;

typedef struct BTPageOpaqueData
{
	BlockNumber btpo_prev;
	BlockNumber btpo_next;
	uint32		btpo_level;
	uint16		btpo_flags;
	uint16		btpo_cycleid;
} BTPageOpaqueData;

#define HL_PageGetMaxOffsetNumber(page) \
	((OffsetNumber) ((((const HLPageHeader *) (page))->pd_lower - SizeOfPageHeaderData) / sizeof(ItemIdData)))
#define HL_PageGetItem(page, off) \
	((const char *) (page) + ((const HLPageHeader *) (page))->pd_linp[(off) - 1].lp_off)
#define HL_BTPageGetOpaque(page) \
	((const BTPageOpaqueData *) ((const char *) (page) + ((const HLPageHeader *) (page))->pd_special))

/* IndexTupleData: t_tid first; the key column at IndexInfoFindDataOffset = 8. */
#define HL_TupleTid(tup) (*(const ItemPointerData *) (tup))

static inline int64
hl_tuple_key(uint8 keytype, const char *tup)
{
	if (keytype == HL_KEY_INT4)
		return *(const int32 *) (tup + 8);
	return *(const int64 *) (tup + 8);
}

/*
 * What nbtsearch_checkkeys.c reads through these, so that the server build (PGXS, with
 * pgext/hl_btree/hl_pg_server.h) can compare keys with the scan keys' own functions: here an
 * index's key type, a tuple's key as an integer, and an integer compare with the scan key.
 */
typedef uint8 HLKeyType;
typedef int64 HLValue;
#define HL_INDEX_KEYTYPE(scan) ((scan)->indexRelation->keytype)
#define HL_TUPLE_KEY(keytype, tup) hl_tuple_key(keytype, tup)
#define HL_VALUE_LE(keytype, value, key) ((value) <= (key)->sk_argument)
#define HL_VALUE_GE(keytype, value, key) ((value) >= (key)->sk_argument)

/* Layout checks: the same numbers as the Rust const asserts. */
_Static_assert(sizeof(ItemPointerData) == 6 && _Alignof(ItemPointerData) == 2, "ItemPointerData");
_Static_assert(sizeof(BTScanPosItem) == 10, "BTScanPosItem");
_Static_assert(sizeof(BTScanPosData) == 13632, "BTScanPosData");
_Static_assert(offsetof(BTScanPosData, dir) == 24, "currPos.dir");
_Static_assert(offsetof(BTScanPosData, lastItem) == 40, "lastItem");
_Static_assert(offsetof(BTScanPosData, itemIndex) == 44, "itemIndex");
_Static_assert(offsetof(BTScanPosData, items) == 48, "items");
_Static_assert(sizeof(BTScanOpaqueData) == 27352, "BTScanOpaqueData");
_Static_assert(offsetof(BTScanOpaqueData, currPos) == 88, "currPos");
_Static_assert(offsetof(BTScanOpaqueData, markPos) == 13720, "markPos");
_Static_assert(offsetof(BTScanOpaqueData, currPos) + offsetof(BTScanPosData, itemIndex) == 132, "so+132");
_Static_assert(offsetof(BTScanOpaqueData, currPos) + offsetof(BTScanPosData, dir) == 0x70, "so+0x70");
_Static_assert(offsetof(IndexScanDescData, opaque) == 0x38, "scan->opaque");
_Static_assert(sizeof(BTReadPageState) == 48 && offsetof(BTReadPageState, dir) == 0, "BTReadPageState");
_Static_assert(sizeof(ScanKeyData) == 16, "ScanKeyData");
_Static_assert(sizeof(ItemIdData) == 4 && offsetof(HLPageHeader, pd_linp) == 24, "page header");
_Static_assert(sizeof(BTPageOpaqueData) == 16, "BTPageOpaqueData");

/* One row of the exported layout table; the table ends with a NULL struct name. */
typedef struct HLLayoutRow
{
	const char *strct;
	const char *field;
	uint32		offset;
	uint32		size;
} HLLayoutRow;

extern const HLLayoutRow HL_SYM(hl_layout)[];

/*
 * Rust-side callees (src/ckernels/mod.rs), the same for every configuration, as PostgreSQL's
 * kernels call into other translation units: _bt_next's page step and tbm_add_tuples.
 */
extern bool hl_bt_steppage(BTScanOpaque so, const HLIndexRelation *rel);
extern void hl_tid_sink_add_tuples(void *sink, const ItemPointerData *tids, int ntids, bool recheck);

/* local-index kernels (nbtree_bitmap.c) */
extern int64 HL_SYM(hotloops_local_index_c_store_each)(IndexScanDesc scan, ItemPointerData *batch, void *sink);
extern int64 HL_SYM(hotloops_local_index_c_local)(IndexScanDesc scan, ItemPointerData *batch, void *sink);
extern int64 HL_SYM(hotloops_local_index_c_span)(IndexScanDesc scan, ItemPointerData *batch, void *sink);

/* dir-by-value kernels (nbtsearch_checkkeys.c) */
extern bool HL_SYM(hotloops_dir_by_value_c_opaque)(IndexScanDesc scan, const char *page, OffsetNumber offnum,
												   bool firstpage, int min_keys);
extern bool HL_SYM(hotloops_dir_by_value_c_by_value)(IndexScanDesc scan, const char *page, OffsetNumber offnum,
													 bool firstpage, int min_keys);
extern bool HL_SYM(hl_bt_check_compare)(IndexScanDesc scan, ScanDirection dir, const char *tuple,
										bool *continuescan, int *ikey);
extern bool HL_SYM(hl_dir_by_value_c_opaque_checkkeys)(IndexScanDesc scan, BTReadPageState *pstate,
													   const char *tuple);
extern bool HL_SYM(hl_dir_by_value_c_by_value_checkkeys)(IndexScanDesc scan, BTReadPageState *pstate,
														 const char *tuple);

/* TIDBitmap (tidbitmap.c): exact and lossy mode. */
typedef uint64 bitmapword;

typedef struct PagetableEntry
{
	BlockNumber blockno;
	char		status;
	bool		ischunk;
	bool		recheck;
	bitmapword	words[5];
} PagetableEntry;

typedef struct pagetable_hash
{
	uint64		size;
	uint32		members;
	uint32		sizemask;
	uint32		grow_threshold;
	PagetableEntry *data;
} pagetable_hash;

typedef enum
{
	TBM_EMPTY,
	TBM_ONE_PAGE,
	TBM_HASH
} TBMStatus;

#define HL_TBM_BAD_OFFSET 1

typedef struct TIDBitmap
{
	TBMStatus	status;
	pagetable_hash *pagetable;
	int			nentries;
	int			maxentries;
	int			npages;
	int			nchunks;
	PagetableEntry entry1;
	/* An ERROR PostgreSQL would raise (HL_TBM_*), the first one. */
	int			error;
	BlockNumber error_block;
	uint32		error_offset;
	/* Where the next tbm_lossify starts its round-robin walk. */
	uint32		lossify_start;
} TIDBitmap;

_Static_assert(sizeof(PagetableEntry) == 48 && offsetof(PagetableEntry, words) == 8, "PagetableEntry");
/* Mirrored by CTbmHead / CPagetableHead in src/ckernels/mod.rs. */
_Static_assert(offsetof(TIDBitmap, entry1) == 32 && offsetof(TIDBitmap, error) == 80 &&
			   offsetof(TIDBitmap, lossify_start) == 92 && sizeof(TIDBitmap) == 96, "TIDBitmap");
_Static_assert(offsetof(pagetable_hash, grow_threshold) == 16, "pagetable_hash");

extern TIDBitmap *HL_SYM(hl_tbm_create)(int64 maxbytes);
extern void HL_SYM(hl_tbm_free)(TIDBitmap *tbm);
extern void HL_SYM(hl_tbm_add_tuples)(TIDBitmap *tbm, const ItemPointerData *tids, int ntids, bool recheck);
extern const PagetableEntry *HL_SYM(hl_tbm_buckets)(const TIDBitmap *tbm, uint64 *nbuckets);

/*
 * tid-batch kernels (nbtree_bitmap.c), sinking into the C TIDBitmap. `bs` is the crate's
 * B-tree bitmap scan (opaque to C) that the Rust callees below step: _bt_first (returning
 * &scan->xs_heaptid, or NULL), _bt_next, _bt_steppage and _bt_start_prim_scan, through shared
 * buffers, the very functions the Rust tid-batch kernels call.
 */
#define HL_TID_BATCH MaxTIDsPerBTreePage
extern const ItemPointerData *hl_tb_bt_first(void *bs);
extern bool hl_tb_bt_next(void *bs);
extern bool hl_tb_bt_steppage(void *bs);
extern bool hl_tb_bt_start_prim_scan(void *bs);
extern int64 HL_SYM(hotloops_tid_batch_c_per_tid)(IndexScanDesc scan, void *bs, TIDBitmap *tbm);
extern int64 HL_SYM(hotloops_tid_batch_c_batched)(IndexScanDesc scan, void *bs, TIDBitmap *tbm);

/* ---------------------------------------------------------------------------------------
 * The model's PostgreSQL layer (src/pg/), where a server function runs as C: the shapes the
 * crate's #[repr(C)] structs have (src/pg/nbtsearch.rs, src/pg/fmgr.rs, src/pg/bufmgr.rs),
 * checked field by field by tests/ckernels.rs. Built under every configuration like the
 * kernels; the model calls the gcc12-upstream build (PostgreSQL 18's wheels are built with
 * gcc 12.2 and upstream's flags, `pg_config --cflags`).
 */
typedef uint32 Oid;
typedef uintptr_t Datum;

/* fmgr.h: 48 bytes; the C only takes its address and hands it to FunctionCall2Coll. */
typedef struct PGFmgrInfo
{
	Datum		(*fn_addr) (void *fcinfo);
	Oid			fn_oid;
	int16		fn_nargs;
	bool		fn_strict;
	bool		fn_retset;
	uint8		fn_stats;
	void	   *fn_extra;
	void	   *fn_mcxt;
	void	   *fn_expr;
} PGFmgrInfo;

/* tupdesc.h's CompactAttribute, cut to what index_getattr reads. */
typedef struct PGCompactAttribute
{
	int32		attcacheoff;
	int16		attlen;
	bool		attbyval;
} PGCompactAttribute;

/* pg_class's row, as far as an index scan reads it through rd_rel. */
typedef struct PGRelForm
{
	int16		relnatts;
	uint8		relpersistence;
} PGRelForm;

/* The index Relation (nbtsearch.rs IndexRel): C reads rd_rel and rd_att, nothing after. */
typedef struct PGIndexRel
{
	uint32		hl_locator[3];
	const PGRelForm *rd_rel;
	int32		nkeyatts;
	const PGCompactAttribute *rd_att;
} PGIndexRel;

/* skey.h: the insertion scan key's ScanKeyData, 72 bytes. */
typedef struct PGScanKeyData
{
	int			sk_flags;
	int16		sk_attno;
	uint16		sk_strategy;
	Oid			sk_subtype;
	Oid			sk_collation;
	PGFmgrInfo	sk_func;
	Datum		sk_argument;
} PGScanKeyData;

/* nbtree.h's BTScanInsertData with the model's one key. */
typedef struct PGBTScanInsertData
{
	bool		heapkeyspace;
	bool		allequalimage;
	bool		anynullkeys;
	bool		nextkey;
	bool		backward;
	const ItemPointerData *scantid;
	int			keysz;
	PGScanKeyData scankeys[1];
} PGBTScanInsertData;

/*
 * The scan's preprocessed keys (nbtreadpage.rs BTScanKeys): so->numberOfKeys, the input key,
 * so->keyData and so->orderProcs; C reads nothing after orderProcs.
 */
typedef struct PGBTScanKeys
{
	int32		numberOfKeys;
	PGScanKeyData input[1];
	PGScanKeyData keyData[1];
	const PGFmgrInfo *orderProcs;
} PGBTScanKeys;

/*
 * The model's IndexScanDesc (nbtreadpage.rs NbtScan): scan->opaque, the keys _bt_preprocess_keys
 * output (so->keyData and its company, kept beside the opaque by the model) and
 * scan->indexRelation.
 */
typedef struct PGNbtScan
{
	BTScanOpaque so;
	PGBTScanKeys *keys;
	const PGIndexRel *rel;
} PGNbtScan;

/* nbtree.h's BTReadPageState in 18 (nbtreadpage.rs BTReadPageState). */
typedef struct PGBTReadPageState
{
	OffsetNumber minoff;
	OffsetNumber maxoff;
	const char *finaltup;
	bool		firstpage;
	bool		forcenonrequired;
	int			startikey;
	OffsetNumber offnum;
	OffsetNumber skip;
	bool		continuescan;
	int16		rechecks;
	int16		targetdistance;
	int16		nskipadvances;
} PGBTReadPageState;

/* bufmgr.c's PrivateRefCountEntry. */
typedef struct PGPrivateRefCountEntry
{
	Buffer		buffer;
	int32		refcount;
} PGPrivateRefCountEntry;

#define PG_REFCOUNT_ARRAY_ENTRIES 8

/*
 * bufmgr.c's backend-private pin bookkeeping, kept by the model in its BufMgr (globals in
 * PostgreSQL): the array and the count of entries overflowed into PrivateRefCountHash.
 */
typedef struct PGPrivateRefCount
{
	PGPrivateRefCountEntry array[PG_REFCOUNT_ARRAY_ENTRIES];
	int32		overflowed;
} PGPrivateRefCount;

_Static_assert(sizeof(PGFmgrInfo) == 48, "FmgrInfo");
_Static_assert(sizeof(PGScanKeyData) == 72, "ScanKeyData (insertion)");
_Static_assert(sizeof(PGPrivateRefCountEntry) == 8, "PrivateRefCountEntry");

/*
 * Rust-side callees of the model's C (src/pg/): fmgr.c's FunctionCall2Coll; the private
 * refcounts' overflow hash (hash_search on PrivateRefCountHash, and moving an entry from it
 * back into the array), which the model never fills; and an ERROR the model does not run (it
 * names what; never returns).
 */
extern Datum hl_FunctionCall2Coll(const PGFmgrInfo *flinfo, Oid collation, Datum arg1, Datum arg2);
extern PGPrivateRefCountEntry *hl_private_refcount_hash_find(PGPrivateRefCount *refs, const Buffer *buffer);
extern PGPrivateRefCountEntry *hl_private_refcount_move(PGPrivateRefCount *refs, PGPrivateRefCountEntry *res,
														 const Buffer *buffer);
extern void hl_pg_not_modelled(const char *what) __attribute__((noreturn));
/* nbtutils.c's _bt_advance_array_keys, which stays in Rust (nbtreadpage.rs). */
extern bool hl_bt_advance_array_keys(const PGNbtScan *scan, PGBTReadPageState *pstate, const char *tuple, int tupnatts,
									 int sktrig);

/* nbtsearch.c (pg_nbtsearch.c) */
extern int32 HL_SYM(hl_bt_compare)(const PGIndexRel *rel, const PGBTScanInsertData *key, const char *page,
								   OffsetNumber offnum);

/* nbtutils.c (pg_nbtutils.c) */
extern bool HL_SYM(hl_bt_tuple_before_array_skeys)(const PGBTScanKeys *so, ScanDirection dir, const char *tuple,
												   const PGCompactAttribute *tupdesc, int tupnatts,
												   bool readpagetup, int sktrig, bool *scanBehind);
extern bool HL_SYM(hl_pg_bt_check_compare)(const PGBTScanKeys *so, ScanDirection dir, const char *tuple, int tupnatts,
										   const PGCompactAttribute *tupdesc, bool advancenonrequired,
										   bool forcenonrequired, bool *continuescan, int *ikey);
extern bool HL_SYM(hl_pg_bt_checkkeys)(const PGNbtScan *scan, PGBTReadPageState *pstate, bool arrayKeys,
									   const char *tuple, int tupnatts);

/* bufmgr.c (pg_bufmgr.c) */
extern PGPrivateRefCountEntry *HL_SYM(hl_GetPrivateRefCountEntry)(PGPrivateRefCount *refs, Buffer buffer,
																 bool do_move);

#endif							/* HL_PG_H */
