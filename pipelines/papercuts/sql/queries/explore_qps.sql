-- Measured QPS of one server (repetitions averaged, as every rQPS of the site is computed from).
SELECT campaign, build || '.' || config AS variant, microbenchmark, "range", threads, qps, repetitions
FROM measured_qps
WHERE server = $server
ORDER BY campaign, threads, microbenchmark, "range", build, config;
