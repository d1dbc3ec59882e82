-- Measured throughput of one campaign on one server, repetitions averaged. A config's settings
-- and a microbenchmark's unit are looked up apart (config_settings, microbenchmark_units): as
-- columns they were repeated on each of a server's 20,000 rows (x100), half of this query's time.
-- Ordered by the caller (render/selection.py THROUGHPUT_ORDER, codes.sorted_by): DuckDB's sort
-- of these rows was most of this query's time.
SELECT q.build, q.config, q.build || '.' || q.config AS variant, q.microbenchmark, q."range",
       q.threads, q.qps, q.repetitions, b.rank AS build_rank  -- version order, then id
FROM measured_qps q
JOIN build_order b ON b.build = q.build
WHERE q.campaign = $campaign AND q.server = $server;
