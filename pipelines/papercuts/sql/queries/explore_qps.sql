-- Measured QPS of one server (repetitions averaged, as every rQPS of the site is computed from).
-- Ordered by the caller (render/explore.py server_data, codes.sorted_by): DuckDB's sort of a server's
-- 20,000 rows (x100) was 15 ms of this query's 20.
SELECT campaign, build, config, build || '.' || config AS variant, microbenchmark, "range", threads, qps,
       repetitions
FROM measured_qps
WHERE server = $server;
