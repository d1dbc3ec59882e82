-- rQPS rows of one comparison: campaign, server and base variant, every thread count (a chart of
-- one thread count keeps its own; the charts of a comparison share this one query). A variant's
-- place in version order is a rank, not the version key's list, which costs a Python list per row;
-- ranked among every build (a few hundred), not over the rows (x100: 14 ms a query, 10 ms so),
-- nor among the comparison's builds only, whose filter cost more than the rank (x100: 7.3 ms, 5.4
-- ms so): only the order of the ranks is read (render/selection.py), never their values.
-- Ordered by the caller (render/selection.py RQPS_ORDER, codes.sorted_by): DuckDB's sort of a
-- comparison's 20,000 rows (x100) was most of this query's time.
SELECT r.microbenchmark, r."range", r."group", r.build, r.config,
       r.build || '.' || r.config AS variant, r.threads, r.rqps, r.qps, r.base_qps, r.origin, b.version_rank
FROM rqps r
JOIN (SELECT id, dense_rank() OVER (ORDER BY version_key) AS version_rank FROM builds) b ON b.id = r.build
WHERE r.campaign = $campaign AND r.server = $server AND r.base_build = $base_build AND r.base_config = $base_config;
