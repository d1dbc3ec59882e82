-- The variants of every comparison (campaign, server, base variant) with a per-operation cost
-- beside their rQPS, per thread count, ranked by version as their costs are (20_comparison_costs):
-- a server page's cost charts name them (render/servers.py). Made here once: every render process
-- ranked them over op_costs (x100: 24 ms a process, on both of a rebuild's longest paths, its
-- campaign's page and its server's); for the changed campaigns only in an incremental build.
CREATE TABLE cost_variants AS
SELECT DISTINCT campaign, server, base_build, base_config, threads, version_rank, build, config, variant
FROM comparison_costs
WHERE relative IS NOT NULL
ORDER BY ALL;  -- campaign first, every column after it: no tie
