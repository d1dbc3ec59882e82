-- rQPS rows of one comparison: campaign, server and base variant, every thread count (a chart of
-- one thread count keeps its own; the charts of a comparison share this one query).
SELECT r.microbenchmark, r."range", r."group", r.build, r.config,
       r.build || '.' || r.config AS variant, r.threads, r.rqps, r.qps, r.base_qps, r.origin,
       b.version_key
FROM rqps r JOIN builds b ON b.id = r.build
WHERE r.campaign = $campaign AND r.server = $server
  AND r.base_build = $base_build AND r.base_config = $base_config
ORDER BY r."group", r.microbenchmark, r."range", r.threads, b.version_key, r.build, r.config;
