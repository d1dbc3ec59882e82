-- Measured throughput per variant; repetitions are averaged. log_var: the spread of their logs
-- (2 or more), which the version ladders read (04_ladder_values) instead of grouping results again.
-- Rows campaign by campaign, each in the order of its first result: an incremental build makes
-- the changed campaigns' rows and copies the others' (derive/models.py PER_CAMPAIGN).
-- Made on every core, each float the same in every build: a variant run once is its one QPS as it
-- is; a variant's repetitions (a few in 10^6 rows) are averaged as a list in file order, as one
-- thread's avg() and var_samp() add them, not in the order parallel threads finish.
-- Only the runs of more than one row are grouped, found among the rows with a numbered repetition:
-- a campaign's results are unique by server, build, config, microbenchmark, range, threads and
-- repetition (contract.RESULTS; validate refuses a duplicate), so such a run numbers two of its
-- rows, or one and leaves one unnumbered. Every other row is a run of its own. x100, two threads:
-- grouping all 10^6 rows took 0.65-0.8 CPU s, this 0.37-0.39 (its 48 numbered rows), and as
-- much as grouping all where every row is numbered.
CREATE TABLE measured_qps AS
WITH numbered AS (
    SELECT campaign, server, build, config, microbenchmark, "range", threads, count(*) AS rows
    FROM results
    WHERE repetition IS NOT NULL
    GROUP BY ALL
), runs AS (  -- the runs of more than one row
    SELECT campaign, server, build, config, microbenchmark, "range", threads FROM numbered WHERE rows > 1
    UNION ALL
    SELECT k.campaign, k.server, k.build, k.config, k.microbenchmark, k."range", k.threads
    FROM numbered k
    SEMI JOIN results r
      ON r.repetition IS NULL AND r.campaign = k.campaign AND r.server = k.server AND r.build = k.build
     AND r.config = k.config AND r.microbenchmark = k.microbenchmark AND r."range" IS NOT DISTINCT FROM k."range"
     AND r.threads = k.threads
    WHERE k.rows = 1
), repeated AS (
    SELECT r.campaign, r.server, r.build, r.config, r.microbenchmark, r."range", r.threads,
           list_avg(list(r.qps ORDER BY r.rowid)) AS qps, count(*) AS repetitions,
           list_var_samp(list(ln(r.qps) ORDER BY r.rowid)) AS log_var, min(r.rowid) AS first
    FROM results r
    SEMI JOIN runs k
      ON k.campaign = r.campaign AND k.server = r.server AND k.build = r.build AND k.config = r.config
     AND k.microbenchmark = r.microbenchmark AND k."range" IS NOT DISTINCT FROM r."range" AND k.threads = r.threads
    GROUP BY ALL
), once AS (
    SELECT r.campaign, r.server, r.build, r.config, r.microbenchmark, r."range", r.threads,
           r.qps, 1::BIGINT AS repetitions, NULL::DOUBLE AS log_var, r.rowid AS first
    FROM results r
    ANTI JOIN runs k
      ON k.campaign = r.campaign AND k.server = r.server AND k.build = r.build AND k.config = r.config
     AND k.microbenchmark = r.microbenchmark AND k."range" IS NOT DISTINCT FROM r."range" AND k.threads = r.threads
)
SELECT * EXCLUDE (first)
FROM (SELECT * FROM repeated UNION ALL SELECT * FROM once)
ORDER BY campaign, first;
