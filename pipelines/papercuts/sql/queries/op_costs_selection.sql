-- Per-operation costs of one comparison (campaign, server, base variant) at every thread count,
-- each with the same cost of the base variant; a chart of one thread count keeps its own.
SELECT o.microbenchmark, o."range", m."group", o.build, o.config,
       o.build || '.' || o.config AS variant, o.threads, o.metric, o.value, o.base_value,
       o.relative, o.repetitions, dense_rank() OVER (ORDER BY b.version_key) AS version_rank
FROM op_costs o
JOIN builds b ON b.id = o.build
JOIN build_order bo ON bo.build = o.build  -- version order, then id
JOIN microbenchmarks m ON m.name = o.microbenchmark
WHERE o.campaign = $campaign AND o.server = $server
  AND o.base_build = $base_build AND o.base_config = $base_config
  AND (o.build, o.config) <> (o.base_build, o.base_config)
ORDER BY m."group", o.microbenchmark, o."range", o.threads, o.metric, bo.rank, o.config;
