-- rQPS of every variant against its base, at full precision: measured (QPS / base QPS) or
-- published (as printed, qps and base_qps empty). variant = build.config, as the site labels it.
SELECT q.campaign, q.server, b.dbms, q.threads, q.microbenchmark, q."range", q."group",
       q.build || '.' || q.config AS variant, q.base_build || '.' || q.base_config AS base_variant,
       q.qps, q.base_qps, q.rqps, q.origin
FROM rqps q JOIN builds b ON b.id = q.build
ORDER BY q.campaign, q.server, b.dbms, q.threads, q.base_build, q.base_config, b.version_key, q.build,
         q.config, q.microbenchmark, q."range", q.origin;
