-- Per-operation costs of every comparison (campaign, server, base variant) at every thread count,
-- each with the same cost of the base variant, and its variant's rank by version over the
-- comparison's every row: the rows a comparison's cost charts draw (render/selection.py
-- comparison_costs, through queries/op_costs_selection.sql), campaign by campaign. Made here once:
-- every render process ranked and sorted them from op_costs (x100: 35,441 of its 41,200 rows,
-- 25-50 ms a process); for the changed campaigns only in an incremental build (derive/models.py PER_CAMPAIGN).
CREATE TABLE comparison_costs AS
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
