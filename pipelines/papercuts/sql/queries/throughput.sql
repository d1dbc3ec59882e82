-- Measured throughput of one campaign on one server, repetitions averaged.
SELECT q.build, q.config, q.build || '.' || q.config AS variant, q.microbenchmark, q."range",
       q.threads, q.qps, q.repetitions, c.settings, m.unit
FROM measured_qps q
JOIN configs c ON c.id = q.config
JOIN microbenchmarks m ON m.name = q.microbenchmark
JOIN builds b ON b.id = q.build
WHERE q.campaign = $campaign AND q.server = $server
ORDER BY b.version_key, q.build, q.config, q.microbenchmark, q."range", q.threads;
