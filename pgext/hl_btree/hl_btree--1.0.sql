-- hl_btree: PostgreSQL's B-tree with a per-scan amgetbitmap variant (hotloops, tid-batch).
-- Through CREATE EXTENSION after `make install`, or by hand: hotloops writes a copy with
-- MODULE_PATHNAME replaced by the absolute path of the built hl_btree.so.
\echo Use "CREATE EXTENSION hl_btree" or the copy hotloops writes \quit

CREATE FUNCTION hl_btree_handler(internal) RETURNS index_am_handler
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
CREATE ACCESS METHOD hl_btree TYPE INDEX HANDLER hl_btree_handler;

-- Thread CPU ns, TIDs and variant of this backend's last hl_btree amgetbitmap call.
CREATE FUNCTION hl_btree_last_ns() RETURNS int8 AS 'MODULE_PATHNAME' LANGUAGE C;
CREATE FUNCTION hl_btree_last_ntids() RETURNS int8 AS 'MODULE_PATHNAME' LANGUAGE C;
CREATE FUNCTION hl_btree_last_variant() RETURNS text AS 'MODULE_PATHNAME' LANGUAGE C;
-- Leaves the dir-by-value kernel read in this backend's last hl_btree index scan.
CREATE FUNCTION hl_btree_last_kernel_pages() RETURNS int8 AS 'MODULE_PATHNAME' LANGUAGE C;
-- Where callgrind dumps (hl_btree_callgrind_boundary, --dump-before): counts queries apart.
CREATE FUNCTION hl_btree_boundary(int8) RETURNS void AS 'MODULE_PATHNAME' LANGUAGE C STRICT;
-- Mark a segment of pgext/hl_alloctrace's allocation trace (true when the tracer is loaded).
CREATE FUNCTION hl_alloctrace_mark(text) RETURNS bool AS 'MODULE_PATHNAME' LANGUAGE C STRICT;

-- int8 with the int8/int4 cross-type operators, as btree's integer_ops has them: seed 000's
-- literal 10000000 is int4, and without int8 < int4 in the family the planner picks a Seq Scan.
-- Sort support and btequalimage keep the build's sort and deduplication as stock btree's.
CREATE OPERATOR FAMILY hl_integer_ops USING hl_btree;
CREATE OPERATOR CLASS hl_int8_ops DEFAULT FOR TYPE int8 USING hl_btree FAMILY hl_integer_ops AS
  OPERATOR 1 < (int8, int8), OPERATOR 2 <= (int8, int8), OPERATOR 3 = (int8, int8),
  OPERATOR 4 >= (int8, int8), OPERATOR 5 > (int8, int8),
  FUNCTION 1 btint8cmp(int8, int8),
  FUNCTION 2 btint8sortsupport(internal),
  FUNCTION 4 btequalimage(oid),
  FUNCTION 3 in_range(int8, int8, int8, boolean, boolean);
ALTER OPERATOR FAMILY hl_integer_ops USING hl_btree ADD
  OPERATOR 1 < (int8, int4), OPERATOR 2 <= (int8, int4), OPERATOR 3 = (int8, int4),
  OPERATOR 4 >= (int8, int4), OPERATOR 5 > (int8, int4),
  FUNCTION 1 (int8, int4) btint84cmp(int8, int4);

-- int4, for pgbench_accounts(aid) in seed 001's range scans, with the int4/int8 cross-type
-- operators and sort support as btree's integer_ops has them.
CREATE OPERATOR CLASS hl_int4_ops DEFAULT FOR TYPE int4 USING hl_btree FAMILY hl_integer_ops AS
  OPERATOR 1 < (int4, int4), OPERATOR 2 <= (int4, int4), OPERATOR 3 = (int4, int4),
  OPERATOR 4 >= (int4, int4), OPERATOR 5 > (int4, int4),
  FUNCTION 1 btint4cmp(int4, int4),
  FUNCTION 2 btint4sortsupport(internal),
  FUNCTION 4 btequalimage(oid),
  FUNCTION 3 in_range(int4, int4, int4, boolean, boolean);
ALTER OPERATOR FAMILY hl_integer_ops USING hl_btree ADD
  OPERATOR 1 < (int4, int8), OPERATOR 2 <= (int4, int8), OPERATOR 3 = (int4, int8),
  OPERATOR 4 >= (int4, int8), OPERATOR 5 > (int4, int8),
  FUNCTION 1 (int4, int8) btint48cmp(int4, int8);
