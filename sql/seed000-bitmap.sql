-- Seed 000 ("[PATCH v1] Batch B-tree TIDs when building a bitmap"): David Geier's table3 and
-- his Bitmap Index Scan query, every row through one Bitmap Index Scan on a stock btree index.
-- The thread: 164 ms -> 110 ms for the Bitmap Index Scan node at 10M rows (patched btgetbitmap
-- hands each leaf page's TIDs to one tbm_add_tuples call); the review's refinement (cursor in
-- locals) another 2.24%. Patches: patches/seed000-batch-tids.patch, seed000-local-index.patch.
--
-- By hand (runs the setup, the session SETs and the measured statement once; prefix the
-- statement with EXPLAIN (ANALYZE, BUFFERS) to see the node's time):
--   psql -v rows=10000000 -f sql/seed000-bitmap.sql        (default rows: 1000000)
-- The seed's data is rows=10000000: filler stays NULL, 40-byte heap tuples, 185 a page
-- (54,055 heap pages, 27,323 index leaves at 10M; about 640 MB, hence shared_buffers).
--
-- hl: var rows=1000000 (full: 10000000)
-- hl: server shared_buffers=1GB
-- hl: server max_parallel_workers_per_gather=0

-- hl: setup
\set ON_ERROR_STOP on
\if :{?rows}
\else
  \set rows 1000000
\endif
DROP TABLE IF EXISTS table3;
CREATE TABLE table3 (col0 bigint, col1 bigint, filler char(80));
INSERT INTO table3 SELECT g, g FROM generate_series(0, :rows - 1) AS g;
CREATE INDEX idx_table3_col0 ON table3 (col0);
VACUUM ANALYZE table3;
CHECKPOINT;

-- hl: session
-- The seed's SETs (jit is not the seed's: a build without LLVM ignores it; with LLVM it keeps
-- JIT compilation out of the statement's time).
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = false;
SET enable_indexscan = false;
SET jit = off;

-- hl: measure
-- hl: explain Bitmap Index Scan
SELECT sum(col1) FROM table3 WHERE col0 < 10000000;
