-- rQPS rows of one comparison: campaign, server and base variant, every thread count (a chart of
-- one thread count keeps its own; the charts of a comparison share this one query). A variant's
-- place in version order is a rank, not the version key's list, which costs a Python list per row;
-- ranked among the comparison's builds, not over its rows (x100: 14 ms a query, 10 ms so).
-- Ordered by the caller (render/selection.py RQPS_ORDER, codes.sorted_by): DuckDB's sort of a
-- comparison's 20,000 rows (x100) was most of this query's time.
WITH sel AS (
    SELECT microbenchmark, "range", "group", build, config, threads, rqps, qps, base_qps, origin
    FROM rqps
    WHERE campaign = $campaign AND server = $server AND base_build = $base_build AND base_config = $base_config
), ranked AS (
    SELECT id, dense_rank() OVER (ORDER BY version_key) AS version_rank
    FROM builds WHERE id IN (SELECT build FROM sel)
)
SELECT r.microbenchmark, r."range", r."group", r.build, r.config,
       r.build || '.' || r.config AS variant, r.threads, r.rqps, r.qps, r.base_qps, r.origin, b.version_rank
FROM sel r JOIN ranked b ON b.id = r.build;
