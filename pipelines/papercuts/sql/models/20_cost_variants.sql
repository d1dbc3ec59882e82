-- The variants of every comparison (campaign, server, base variant) with a per-operation cost
-- beside their rQPS, per thread count: a server page's cost charts name them (render/servers.py).
-- version_rank as op_costs_selection.sql ranks them (over the comparison's every row), so that
-- both order them alike. Made here once: every render process ranked them over op_costs (x100:
-- 24 ms a process, on both of a rebuild's longest paths, its campaign's page and its server's);
-- for the changed campaigns only in an incremental build (derive/models.py PER_CAMPAIGN).
CREATE TABLE cost_variants AS
SELECT DISTINCT campaign, server, base_build, base_config, threads, version_rank, build, config, variant
FROM (
    SELECT o.campaign, o.server, o.base_build, o.base_config, o.threads, o.build, o.config,
           o.build || '.' || o.config AS variant, o.relative,
           dense_rank() OVER (PARTITION BY o.campaign, o.server, o.base_build, o.base_config
                              ORDER BY b.version_key) AS version_rank
    FROM op_costs o
    JOIN builds b ON b.id = o.build
    JOIN build_order bo ON bo.build = o.build
    JOIN microbenchmarks m ON m.name = o.microbenchmark
    WHERE (o.build, o.config) <> (o.base_build, o.base_config)
)
WHERE relative IS NOT NULL
ORDER BY ALL;  -- campaign first, every column after it: no tie
