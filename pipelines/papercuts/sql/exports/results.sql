-- Every measured result as loaded: one row per campaign, server, variant, microbenchmark, range,
-- threads and repetition, with the DBMS of its build and the file and line it came from.
SELECT r.campaign, r.server, b.dbms, b.engine, r.build, r.config, r.build || '.' || r.config AS variant,
       r.microbenchmark, r."range", r.threads, r.repetition, r.qps, r.tps, r.latency_avg_ms, r.latency_p95_ms,
       r.cpu_per_op, r.cs_per_op, r.r_per_op, r.rkb_per_op, r.wkb_per_op, r.file, r.line
FROM results r JOIN builds b ON b.id = r.build
ORDER BY r.campaign, r.server, b.dbms, b.version_key, r.build, r.config, r.microbenchmark, r."range",
         r.threads, r.repetition;
