-- Seed 004 (the skip-scan / IndexAmRoutine thread): pgbench_accounts at scale 1 split into
-- :partitions range partitions on aid as `pgbench -i -s 1 --partitions N` lays it out, plus
-- the index on bid without which every partition is a Seq Scan and there is no cliff
-- (-v bid_index=off leaves it out: the seed's query then scans every partition sequentially).
--   psql -v partitions=100 -f sql/seed004-partitions.sql
--   pgbench -n -f sql/seed004-query.sql -T 10     (the seed's query)
-- (`pgbench -i -s 1 --partitions N` followed by the CREATE INDEX below builds the same.)
\set ON_ERROR_STOP on
\if :{?partitions}
\else
  \set partitions 100
\endif
\if :{?bid_index}
\else
  \set bid_index on
\endif
DROP TABLE IF EXISTS pgbench_accounts;
CREATE TABLE pgbench_accounts (aid int NOT NULL, bid int, abalance int, filler char(84))
  PARTITION BY RANGE (aid);
-- Partition i holds aids ((i-1)*size, i*size], size = ceil(100000 / N); the first starts at
-- MINVALUE and the last ends at MAXVALUE, as pgbench makes them.
SELECT format('CREATE TABLE pgbench_accounts_%s PARTITION OF pgbench_accounts FOR VALUES FROM (%s) TO (%s) WITH (fillfactor = 100)',
              i,
              CASE WHEN i = 1 THEN 'MINVALUE' ELSE ((i - 1) * sz + 1)::text END,
              CASE WHEN i = :partitions THEN 'MAXVALUE' ELSE (i * sz + 1)::text END)
  FROM (SELECT (100000 + :partitions - 1) / :partitions AS sz) s, generate_series(1, :partitions) AS i
\gexec
INSERT INTO pgbench_accounts SELECT aid, (aid - 1) / 100000 + 1, 0, '' FROM generate_series(1, 100000) AS aid;
ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid);
\if :bid_index
CREATE INDEX ON pgbench_accounts (bid);
\endif
VACUUM ANALYZE pgbench_accounts;
