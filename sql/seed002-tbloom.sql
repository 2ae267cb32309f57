-- Seed 002's table and index (contrib/bloom's documentation example, the seed's "test cases up
-- to 10M rows"), to run by hand:
--   psql -v rows=10000000 -f sql/seed002-tbloom.sql      (rows: 10000000 full, 1000000 quick)
-- The index uses the hl_bloom access method (pgext/hl_bloom: contrib/bloom with a per-scan
-- amgetbitmap variant); load it first with `make -C pgext/hl_bloom with_llvm=no install` and
-- CREATE EXTENSION hl_bloom, or run with -v am=bloom (after CREATE EXTENSION bloom) for a stock
-- index. Six int4 columns, 48-byte heap tuples, 157 a page; the index with bloom's defaults
-- (80-bit signatures, 2 bits a column): 510 tuples a page, 19,609 pages (153 MiB) at 10M rows.
\set ON_ERROR_STOP on
\if :{?rows}
\else
  \set rows 10000000
\endif
\if :{?am}
\else
  \set am hl_bloom
\endif
DROP TABLE IF EXISTS tbloom, tbloom_probe;
-- A fixed seed: every server version loads the same rows (random() is pg_prng's since 15).
SELECT setseed(0.002) \g /dev/null
CREATE TABLE tbloom AS
  SELECT (random() * 1000000)::int AS i1, (random() * 1000000)::int AS i2,
         (random() * 1000000)::int AS i3, (random() * 1000000)::int AS i4,
         (random() * 1000000)::int AS i5, (random() * 1000000)::int AS i6
  FROM generate_series(1, :rows);
CREATE INDEX bloomidx ON tbloom USING :am (i1, i2, i3, i4, i5, i6);
-- The query's values, from the middle row so that at least one row truly matches: the query is
-- the documentation's `i2 = a AND i5 = b`, 4 of the 80 signature bits.
CREATE TABLE tbloom_probe AS SELECT i2 AS a, i5 AS b FROM tbloom OFFSET :rows / 2 LIMIT 1;
VACUUM ANALYZE tbloom, tbloom_probe;
