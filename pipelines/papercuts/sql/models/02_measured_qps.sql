-- Measured throughput per variant; repetitions are averaged.
CREATE TABLE measured_qps AS
SELECT campaign, server, build, config, microbenchmark, "range", threads,
       avg(qps) AS qps, count(*) AS repetitions
FROM results
GROUP BY ALL;
