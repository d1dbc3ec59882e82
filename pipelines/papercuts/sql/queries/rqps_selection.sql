-- rQPS rows of one comparison: campaign, server and base variant, every thread count (a chart of
-- one thread count keeps its own; the charts of a comparison share this one query). Each row's
-- variant (build.config) and its build's place in version order (build_version_ranks.sql) are
-- added by the caller (render/selection.py rqps_table) from the few hundred builds: joined here
-- and concatenated per row, they were half this query's time (x100, a campaign's 79 queries:
-- 0.48 CPU s, 0.24 s so).
-- Ordered by the caller (render/selection.py RQPS_ORDER, codes.sorted_by): DuckDB's sort of a
-- comparison's 20,000 rows (x100) was most of this query's time.
SELECT r.microbenchmark, r."range", r."group", r.build, r.config, r.threads, r.rqps, r.qps, r.base_qps, r.origin
FROM rqps r
WHERE r.campaign = $campaign AND r.server = $server AND r.base_build = $base_build AND r.base_config = $base_config;
