-- Seed 000's query, btree-many: every row through one Bitmap Index Scan (after
-- sql/seed000-table3.sql). Runs the query once per hl_btree variant and prints the Bitmap Index
-- Scan node and the extension's thread CPU time of amgetbitmap:
--   psql -f sql/seed000-btree-many.sql
\set ON_ERROR_STOP on
-- The seed's SET lines.
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = false;
SET enable_indexscan = false;
SET jit = off;
SET hl_btree.variant = 'tid-batch/server';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 < 10000000;
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() / 1e6 AS amgetbitmap_cpu_ms;
SET hl_btree.variant = 'tid-batch/per-tid';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 < 10000000;
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() / 1e6 AS amgetbitmap_cpu_ms;
SET hl_btree.variant = 'tid-batch/batched-store';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 < 10000000;
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() / 1e6 AS amgetbitmap_cpu_ms;
SET hl_btree.variant = 'tid-batch/batched-local';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 < 10000000;
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() / 1e6 AS amgetbitmap_cpu_ms;
SET hl_btree.variant = 'tid-batch/batched';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 < 10000000;
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() / 1e6 AS amgetbitmap_cpu_ms;
