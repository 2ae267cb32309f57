-- Seed 002, cold: sql/seed002-bloom.sql with every index page read from storage, as the
-- thread measured it. Two lines differ from the warm file: the server reads with
-- debug_io_direct=data (no page cache), and the index's buffers are evicted, untimed, before
-- every scan (pg_buffercache_evict_relation, 18 and later). The setup is the warm file's, so
-- both share one loaded data directory. io_method is the caller's: `--set io_method=io_uring`
-- (a build --with-liburing), `worker` (PostgreSQL 18's default) or `sync`.
--
-- By hand, after loading with sql/seed002-bloom.sql:
--   postgres -c debug_io_direct=data ...; then, per scan:
--   SELECT pg_buffercache_evict_relation('bloomidx'); EXPLAIN (ANALYZE, BUFFERS) SELECT ...;
--
-- hl: var rows=10000000
-- hl: server shared_buffers=1GB
-- hl: server max_parallel_workers_per_gather=0
-- hl: server debug_io_direct=data

-- hl: setup
\set ON_ERROR_STOP on
\if :{?rows}
\else
  \set rows 10000000
\endif
CREATE EXTENSION IF NOT EXISTS bloom;
CREATE EXTENSION IF NOT EXISTS pg_buffercache;
DROP TABLE IF EXISTS tbloom;
SELECT setseed(0.002) \g /dev/null
CREATE TABLE tbloom AS
  SELECT (random() * 1000000)::int AS i1,
         CASE WHEN g = :rows / 2 THEN 898732 ELSE (random() * 1000000)::int END AS i2,
         (random() * 1000000)::int AS i3,
         (random() * 1000000)::int AS i4,
         CASE WHEN g = :rows / 2 THEN 123451 ELSE (random() * 1000000)::int END AS i5,
         (random() * 1000000)::int AS i6
  FROM generate_series(1, :rows) AS g;
CREATE INDEX bloomidx ON tbloom USING bloom (i1, i2, i3, i4, i5, i6);
VACUUM ANALYZE tbloom;
CHECKPOINT;

-- hl: session
-- bloom has only bitmap scans: enable_seqscan = off leaves the planner that plan at any size.
SET max_parallel_workers_per_gather = 0;
SET enable_seqscan = off;
SET jit = off;

-- hl: measure
-- hl: untimed
SELECT count(*) FROM pg_buffercache_evict_relation('bloomidx');
-- hl: explain Bitmap Index Scan
SELECT * FROM tbloom WHERE i2 = 898732 AND i5 = 123451;
