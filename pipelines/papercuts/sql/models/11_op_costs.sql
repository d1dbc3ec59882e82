-- Per-operation costs per variant (repetitions averaged), long format, beside the same cost of
-- the campaign's base variant: vmstat/iostat costs from results, perf stat counters per query.
-- relative = value / base value, as rQPS is for throughput (but here lower is better, except IPC).
CREATE TABLE op_costs AS
WITH per_run AS (
    UNPIVOT (SELECT campaign, server, build, config, microbenchmark, "range", threads, repetition,
                    cpu_per_op, cs_per_op, r_per_op, rkb_per_op, wkb_per_op FROM results
             -- the rows with a cost alone (x100: 8,372 of 10^6), as UNPIVOT leaves out NULLs anyway
             WHERE coalesce(cpu_per_op, cs_per_op, r_per_op, rkb_per_op, wkb_per_op) IS NOT NULL)
    ON cpu_per_op, cs_per_op, r_per_op, rkb_per_op, wkb_per_op INTO NAME metric VALUE value
    UNION ALL
    SELECT campaign, server, build, config, microbenchmark, "range", threads, repetition, metric, value
    FROM counters
), per_variant AS (
    SELECT campaign, server, build, config, microbenchmark, "range", threads, metric,
           avg(value) AS value, count(*) AS repetitions
    FROM per_run
    GROUP BY ALL
)
SELECT v.*, b.base_build, b.base_config, base.value AS base_value,
       -- a zero cost (no reads at all) has no ratio a log axis can draw: shown as a value, not a bar
       CASE WHEN base.value > 0 AND v.value > 0 THEN v.value / base.value END AS relative
FROM per_variant v
JOIN builds vb ON vb.id = v.build
JOIN campaign_bases b
  ON b.campaign = v.campaign AND b.server = v.server AND b.dbms = vb.dbms AND b.engine = vb.engine
LEFT JOIN per_variant base
  ON base.campaign = v.campaign AND base.server = v.server AND base.threads = v.threads
 AND base.microbenchmark = v.microbenchmark AND base."range" IS NOT DISTINCT FROM v."range"
 AND base.metric = v.metric AND base.build = b.base_build AND base.config = b.base_config
-- an order of the values alone, whatever plan DuckDB picks (a build that began as a copy of the
-- last database put change_known's rows in another order: ingest/previous.py)
ORDER BY v.campaign, v.server, v.build, v.config, v.microbenchmark, v."range", v.threads, v.metric,
         b.base_build, b.base_config;
