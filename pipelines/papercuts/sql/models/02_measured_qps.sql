-- Measured throughput per variant; repetitions are averaged. log_var: the spread of their logs
-- (2 or more), which the version ladders read (04_ladder_values) instead of grouping results again.
-- Rows campaign by campaign, each in the order of its first result: an incremental build makes
-- the changed campaigns' rows and copies the others' (derive/models.py PER_CAMPAIGN).
-- Made on every core, each float the same in every build: a variant run once is its one QPS as it
-- is; a variant's repetitions (a few in 10^6 rows) are averaged as a list in file order, as one
-- thread's avg() and var_samp() add them, not in the order parallel threads finish (x100: 0.6 s
-- on one thread, 0.36 s on two).
-- Only the runs with a numbered repetition are grouped: a campaign's results are unique by
-- server, build, config, microbenchmark, range, threads and repetition (contract.RESULTS; validate
-- refuses a duplicate), so a run of two or more rows numbers all of them but one at least, and
-- every other row is a run of its own (x100: grouping all 10^6 rows took 0.69 CPU s, this 0.36).
CREATE TABLE measured_qps AS
WITH numbered AS (
    SELECT DISTINCT campaign, server, build, config, microbenchmark, "range", threads
    FROM results
    WHERE repetition IS NOT NULL
), repeated AS (
    SELECT r.campaign, r.server, r.build, r.config, r.microbenchmark, r."range", r.threads,
           list_avg(list(r.qps ORDER BY r.rowid)) AS qps, count(*) AS repetitions,
           CASE WHEN count(*) > 1 THEN list_var_samp(list(ln(r.qps) ORDER BY r.rowid)) END AS log_var,
           min(r.rowid) AS first
    FROM results r
    SEMI JOIN numbered k
      ON k.campaign = r.campaign AND k.server = r.server AND k.build = r.build AND k.config = r.config
     AND k.microbenchmark = r.microbenchmark AND k."range" IS NOT DISTINCT FROM r."range" AND k.threads = r.threads
    GROUP BY ALL
), once AS (
    SELECT r.campaign, r.server, r.build, r.config, r.microbenchmark, r."range", r.threads,
           r.qps, 1::BIGINT AS repetitions, NULL::DOUBLE AS log_var, r.rowid AS first
    FROM results r
    ANTI JOIN numbered k
      ON k.campaign = r.campaign AND k.server = r.server AND k.build = r.build AND k.config = r.config
     AND k.microbenchmark = r.microbenchmark AND k."range" IS NOT DISTINCT FROM r."range" AND k.threads = r.threads
)
SELECT * EXCLUDE (first)
FROM (SELECT * FROM repeated UNION ALL SELECT * FROM once)
ORDER BY campaign, first;
