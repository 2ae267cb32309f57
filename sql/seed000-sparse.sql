-- Seed 000, the review's sparse case (Haibo: "a B-tree scan returning ten widely spaced keys",
-- +0.85% with the batching patch, 33.195 us -> 33.569 us): ten keys spread evenly over
-- table3's key range, one primitive index scan and one TID each, as a Bitmap Index Scan. The
-- worst case for batching: every leaf page hands one TID to tbm_add_tuples, so the copy into
-- the batch saves no page-entry lookup. Same table as sql/seed000-bitmap.sql.
--
-- The keys are k * (rows / 10) + rows / 20 for k = 0..9 (at 1M: 50000, 150000, ..., 950000),
-- written as expressions of :rows that the planner folds into one constant array.
--
-- By hand (prefix the statement with EXPLAIN (ANALYZE, BUFFERS) to see the node):
--   psql -v rows=10000000 -f sql/seed000-sparse.sql        (default rows: 1000000)
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
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = false;
SET enable_indexscan = false;
SET jit = off;

-- hl: measure
-- hl: explain Bitmap Index Scan
SELECT sum(col1) FROM table3
 WHERE col0 IN ((0 * (:rows / 10) + :rows / 20)::bigint, (1 * (:rows / 10) + :rows / 20)::bigint,
                (2 * (:rows / 10) + :rows / 20)::bigint, (3 * (:rows / 10) + :rows / 20)::bigint,
                (4 * (:rows / 10) + :rows / 20)::bigint, (5 * (:rows / 10) + :rows / 20)::bigint,
                (6 * (:rows / 10) + :rows / 20)::bigint, (7 * (:rows / 10) + :rows / 20)::bigint,
                (8 * (:rows / 10) + :rows / 20)::bigint, (9 * (:rows / 10) + :rows / 20)::bigint);
