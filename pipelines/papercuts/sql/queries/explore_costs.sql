-- Per-operation costs of one server (repetitions averaged), long format.
SELECT campaign, build || '.' || config AS variant, microbenchmark, "range", threads, metric, value
FROM op_costs
WHERE server = $server
ORDER BY campaign, metric, threads, microbenchmark, "range", build, config;
