-- Measured throughput of one campaign on one server, repetitions averaged. A config's settings
-- and a microbenchmark's unit are looked up apart (config_settings, microbenchmark_units): as
-- columns they were repeated on each of a server's 20,000 rows (x100), half of this query's time.
SELECT q.build, q.config, q.build || '.' || q.config AS variant, q.microbenchmark, q."range",
       q.threads, q.qps, q.repetitions
FROM measured_qps q
JOIN build_order b ON b.build = q.build  -- version order, then id
WHERE q.campaign = $campaign AND q.server = $server
ORDER BY b.rank, q.config, q.microbenchmark, q."range", q.threads;
