-- Measured throughput per variant; repetitions are averaged. log_var: the spread of their logs
-- (2 or more), which the version ladders read (04_ladder_values) instead of grouping results again.
-- Rows campaign by campaign, each in the order of its first result: an incremental build makes
-- the changed campaigns' rows and copies the others' (derive/models.py PER_CAMPAIGN).
-- Made on every core, each float the same in every build: a variant run once is its one QPS as it
-- is; a variant's repetitions (a few in 10^6 rows) are averaged as a list in file order, as one
-- thread's avg() and var_samp() add them, not in the order parallel threads finish (x100: 0.6 s
-- on one thread, 0.36 s on two).
CREATE TABLE measured_qps AS
WITH runs AS (
    SELECT campaign, server, build, config, microbenchmark, "range", threads,
           count(*) AS repetitions, min(rowid) AS first, min(qps) AS one
    FROM results
    GROUP BY ALL
), repeated AS (
    SELECT r.campaign, r.server, r.build, r.config, r.microbenchmark, r."range", r.threads,
           list(r.qps ORDER BY r.rowid) AS qps
    FROM results r
    SEMI JOIN (SELECT * FROM runs WHERE repetitions > 1) k
      ON k.campaign = r.campaign AND k.server = r.server AND k.build = r.build AND k.config = r.config
     AND k.microbenchmark = r.microbenchmark AND k."range" IS NOT DISTINCT FROM r."range" AND k.threads = r.threads
    GROUP BY ALL
)
SELECT u.campaign, u.server, u.build, u.config, u.microbenchmark, u."range", u.threads,
       CASE WHEN u.repetitions = 1 THEN u.one ELSE list_avg(p.qps) END AS qps, u.repetitions,
       CASE WHEN u.repetitions > 1 THEN list_var_samp(list_transform(p.qps, lambda x: ln(x))) END AS log_var
FROM runs u
LEFT JOIN repeated p
  ON p.campaign = u.campaign AND p.server = u.server AND p.build = u.build AND p.config = u.config
 AND p.microbenchmark = u.microbenchmark AND p."range" IS NOT DISTINCT FROM u."range" AND p.threads = u.threads
ORDER BY u.campaign, u.first;
