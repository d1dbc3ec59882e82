-- Per-operation costs of every comparison (campaign, server, base variant) at every thread count,
-- each with the same cost of the base variant; a chart of one thread count keeps its own. The
-- whole site's, campaign by campaign (render/selection.py comparison_costs slices a comparison's:
-- a query a comparison took 6 ms at x100, and the site's 41,200 rows take 25 ms).
SELECT o.campaign, o.server, o.base_build, o.base_config, o.microbenchmark, o."range", m."group", o.build,
       o.config, o.build || '.' || o.config AS variant, o.threads, o.metric, o.value, o.base_value,
       o.relative, o.repetitions,
       dense_rank() OVER (PARTITION BY o.campaign, o.server, o.base_build, o.base_config
                          ORDER BY b.version_key) AS version_rank
FROM op_costs o
JOIN builds b ON b.id = o.build
JOIN build_order bo ON bo.build = o.build  -- version order, then id
JOIN microbenchmarks m ON m.name = o.microbenchmark
WHERE (o.build, o.config) <> (o.base_build, o.base_config)
ORDER BY o.campaign, o.server, o.base_build, o.base_config,
         m."group", o.microbenchmark, o."range", o.threads, o.metric, bo.rank, o.config;
