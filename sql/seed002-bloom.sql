-- Seed 002 ("bloom: Optimize bitmap scan path with streaming read"): contrib/bloom's
-- documentation example, tbloom (six random int4 columns) with a bloom index on all six, and
-- the documentation's query on i2 and i5, as a Bitmap Index Scan on bloomidx. blgetbitmap reads
-- every index block but the metapage; the patch reads them through a read stream. The thread:
-- about 3x (author) to close to 7x (committer) faster with io_method=io_uring, on indexes of
-- up to 10M rows, i.e. cold reads. Patch: patches/seed002-bloom-read-stream.patch.
--
-- Rows are random, from a fixed seed; the row in the middle gets the documentation's
-- i2 = 898732 and i5 = 123451 so the query finds at least one true match (the rest of its
-- index matches are bloom false positives, removed by the heap recheck). With bloom's
-- defaults (80-bit signatures, 2 bits a column) the index is 19,609 pages (153 MiB) at 10M
-- rows, the heap 63,744 pages (498 MiB; measured on 18.6).
--
-- Warm, as written: the tool prewarms shared buffers, and shared_buffers holds both relations.
-- Cold runs (what the thread measured) are selected with settings, not by editing the query:
--   * cold index, OS cache still warm: add "-- hl: untimed" and
--     SELECT pg_buffercache_evict_relation('bloomidx'); before the measured statement
--     (pg_buffercache 1.6, PostgreSQL 18; needs CREATE EXTENSION pg_buffercache in setup);
--   * cold from storage: also add the server line "hl: server debug_io_direct=data" (written
--     with the "-- " prefix like the lines below), so that reads bypass the kernel's page
--     cache; the eviction above still empties shared buffers before each statement;
--   * the I/O method: add the server line "hl: server io_method=sync", "...=worker" (18's
--     default; io_workers=3 as the committer used) or "...=io_uring" (needs a build
--     --with-liburing, as /work/pgsrc's is; the PyPI wheels refuse it).
-- A cold or io_method variant is thus this file with those lines added (or the same
-- settings given to the tool); the measured statement does not change.
--
-- By hand (default 10M rows take a few minutes to load; -v rows=1000000 for a quick look; to
-- see the node, prefix the statement with EXPLAIN (ANALYZE, BUFFERS)):
--   psql -v rows=10000000 -f sql/seed002-bloom.sql
--
-- hl: var rows=10000000
-- hl: server shared_buffers=1GB
-- hl: server max_parallel_workers_per_gather=0

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
-- hl: explain Bitmap Index Scan
SELECT * FROM tbloom WHERE i2 = 898732 AND i5 = 123451;
