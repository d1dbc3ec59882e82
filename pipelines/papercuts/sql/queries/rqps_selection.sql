-- rQPS rows of one comparison: campaign, server and base variant, every thread count (a chart of
-- one thread count keeps its own; the charts of a comparison share this one query). A variant's
-- place in version order is a rank, not the version key's list, which costs a Python list per row.
SELECT r.microbenchmark, r."range", r."group", r.build, r.config,
       r.build || '.' || r.config AS variant, r.threads, r.rqps, r.qps, r.base_qps, r.origin,
       dense_rank() OVER (ORDER BY b.version_key) AS version_rank
FROM rqps r JOIN builds b ON b.id = r.build
WHERE r.campaign = $campaign AND r.server = $server
  AND r.base_build = $base_build AND r.base_config = $base_config
ORDER BY r."group", r.microbenchmark, r."range", r.threads, b.version_key, r.build, r.config;
