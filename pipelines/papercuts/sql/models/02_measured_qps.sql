-- Measured throughput per variant; repetitions are averaged. log_var: the spread of their logs
-- (2 or more), which the version ladders read (03_ladder_values) instead of grouping results again.
-- Rows campaign by campaign, each in the order of its first result: an incremental build makes
-- the changed campaigns' rows and copies the others' (derive/models.py PER_CAMPAIGN).
CREATE TABLE measured_qps AS
SELECT campaign, server, build, config, microbenchmark, "range", threads,
       avg(qps) AS qps, count(*) AS repetitions,
       CASE WHEN count(*) > 1 THEN var_samp(ln(qps)) END AS log_var
FROM results
GROUP BY ALL
ORDER BY campaign, min(rowid);
