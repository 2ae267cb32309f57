-- hl_bloom: contrib/bloom with a per-scan amgetbitmap variant (hotloops, read-stream, seed 002).
-- Through CREATE EXTENSION after `make install`, or by hand: hotloops writes a copy with
-- MODULE_PATHNAME replaced by the library's name (found through dynamic_library_path).
\echo Use "CREATE EXTENSION hl_bloom" or the copy hotloops writes \quit

CREATE FUNCTION hl_bloom_handler(internal) RETURNS index_am_handler
  AS 'MODULE_PATHNAME' LANGUAGE C;
CREATE ACCESS METHOD hl_bloom TYPE INDEX HANDLER hl_bloom_handler;

-- Thread CPU ns, TIDs and variant of this backend's last hl_bloom amgetbitmap call.
CREATE FUNCTION hl_bloom_last_ns() RETURNS int8 AS 'MODULE_PATHNAME' LANGUAGE C;
CREATE FUNCTION hl_bloom_last_ntids() RETURNS int8 AS 'MODULE_PATHNAME' LANGUAGE C;
CREATE FUNCTION hl_bloom_last_variant() RETURNS text AS 'MODULE_PATHNAME' LANGUAGE C;

-- The operator classes of contrib/bloom's own script (bloom--1.0.sql), under this AM.
CREATE OPERATOR CLASS int4_ops DEFAULT FOR TYPE int4 USING hl_bloom AS
  OPERATOR 1 = (int4, int4),
  FUNCTION 1 hashint4(int4);
CREATE OPERATOR CLASS text_ops DEFAULT FOR TYPE text USING hl_bloom AS
  OPERATOR 1 = (text, text),
  FUNCTION 1 hashtext(text);
