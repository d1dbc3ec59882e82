-- Every measured repetition of one campaign and server, with its source file and line.
SELECT r.microbenchmark, r."range", r.build, r.config, r.build || '.' || r.config AS variant,
       r.threads, r.repetition, r.qps, r.file, r.line, m.unit, b.version_key
FROM results r
JOIN builds b ON b.id = r.build
JOIN microbenchmarks m ON m.name = r.microbenchmark
WHERE r.campaign = $campaign AND r.server = $server
ORDER BY m."group", r.microbenchmark, r."range", r.threads, b.version_key, r.build, r.config, r.repetition;
