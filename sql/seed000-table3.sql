-- Seed 000's table and index (David Geier's B-tree bitmap benchmark), to run by hand:
--   psql -v rows=10000000 -f sql/seed000-table3.sql      (rows: 10000000 full, 1000000 quick)
-- The index uses the hl_btree access method (pgext/hl_btree: PostgreSQL's btree with a
-- per-scan amgetbitmap variant); load it first with `make -C pgext/hl_btree with_llvm=no
-- install` and CREATE EXTENSION hl_btree, or run with -v am=btree for a stock index.
-- filler stays NULL as in the seed: 40-byte heap tuples, 185 a page (54,055 pages at 10M).
\set ON_ERROR_STOP on
\if :{?rows}
\else
  \set rows 10000000
\endif
\if :{?am}
\else
  \set am hl_btree
\endif
DROP TABLE IF EXISTS table3;
CREATE TABLE table3 (col0 bigint, col1 bigint, filler char(80));
INSERT INTO table3 SELECT g, g FROM generate_series(0, :rows - 1) AS g;
-- A parallel build would open the index in workers that hl_btree's build hook does not cover.
SET max_parallel_maintenance_workers = 0;
CREATE INDEX idx_table3_col0 ON table3 USING :am (col0);
VACUUM ANALYZE table3;
