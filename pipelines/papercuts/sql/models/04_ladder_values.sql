-- Every value a version ladder is made of (derive/ladders.py): measured QPS per variant
-- (repetitions averaged, with the spread of their logs), or published rQPS with its base as 1;
-- its variant as its place in ladder_variants (rowid: ladder order), its microbenchmark as its
-- place among the microbenchmarks by name (1, 2, ...: numbers that sort as the names do). Which of
-- the two a variant's values are is ladder_variants' origin (03_ladder_variants says when).
-- A view: the ladder search reads it once, numbers alone, in the order it needs (x100: 0.6 CPU s;
-- stored as a table of names in ladder order, 2.2 CPU s, and 0.8 more to read).
CREATE OR REPLACE VIEW ladder_values AS
WITH v AS (
    SELECT campaign, server, build, config, microbenchmark, "range", threads,
           qps AS value, repetitions, log_var, 'measured' AS origin
    FROM measured_qps
    UNION ALL
    (SELECT campaign, server, build, config, microbenchmark, "range", threads, rqps, 1, NULL::DOUBLE, 'published'
     FROM relative
     UNION
     SELECT DISTINCT campaign, server, base_build, base_config, microbenchmark, "range", threads, 1.0, 1,
            NULL::DOUBLE, 'published'
     FROM relative)
)
SELECT w.rowid AS variant, v.campaign, m.number AS microbenchmark, v."range", v.value, v.repetitions, v.log_var
FROM v
JOIN ladder_variants w
  ON w.campaign = v.campaign AND w.server = v.server AND w.threads = v.threads AND w.build = v.build
 AND w.config = v.config AND w.origin = v.origin
JOIN (SELECT name, row_number() OVER (ORDER BY name) AS number FROM microbenchmarks) m ON m.name = v.microbenchmark;
