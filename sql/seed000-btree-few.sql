-- Seed 000's btree-few (Haibo's sparse case): ten widely spaced keys, one primitive index scan
-- each, one TID each (after sql/seed000-table3.sql). Keys: k * rows/10 + rows/20, k = 0..9,
-- rows read from the table.   psql -f sql/seed000-btree-few.sql
\set ON_ERROR_STOP on
SELECT array_agg(k * (n / 10) + n / 20 ORDER BY k)::text AS keys
  FROM (SELECT count(*) AS n FROM table3) t, generate_series(0, 9) AS k \gset
\echo keys :keys
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = false;
SET enable_indexscan = false;
SET jit = off;
SET hl_btree.variant = 'tid-batch/server';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 = ANY (:'keys'::int8[]);
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() AS amgetbitmap_cpu_ns;
SET hl_btree.variant = 'tid-batch/per-tid';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 = ANY (:'keys'::int8[]);
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() AS amgetbitmap_cpu_ns;
SET hl_btree.variant = 'tid-batch/batched-store';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 = ANY (:'keys'::int8[]);
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() AS amgetbitmap_cpu_ns;
SET hl_btree.variant = 'tid-batch/batched-local';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 = ANY (:'keys'::int8[]);
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() AS amgetbitmap_cpu_ns;
SET hl_btree.variant = 'tid-batch/batched';
EXPLAIN (ANALYZE, BUFFERS) SELECT sum(col1) FROM table3 WHERE col0 = ANY (:'keys'::int8[]);
SELECT hl_btree_last_variant() AS variant, hl_btree_last_ntids() AS tids, hl_btree_last_ns() AS amgetbitmap_cpu_ns;
