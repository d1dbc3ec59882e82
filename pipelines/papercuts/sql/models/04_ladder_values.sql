-- Every value a version ladder is made of (derive/ladders.py): measured QPS per variant
-- (repetitions averaged, with the spread of their logs), or published rQPS with its base as 1;
-- its variant as its place in ladder_variants (rowid: ladder order), its microbenchmark as its
-- place among the microbenchmarks by name (1, 2, ...: numbers that sort as the names do).
-- A view: the ladder search reads it once, numbers alone, in the order it needs (x100: 0.6 CPU s;
-- stored as a table of names in ladder order, 2.2 CPU s, and 0.8 more to read).
CREATE OR REPLACE VIEW ladder_values AS
WITH runs AS (
    SELECT campaign, server, build, config, microbenchmark, "range", threads,
           qps AS value, repetitions, log_var
    FROM measured_qps
), published AS (
    SELECT campaign, server, build, config, microbenchmark, "range", threads, rqps AS value,
           1 AS repetitions, NULL::DOUBLE AS log_var
    FROM relative
    UNION
    SELECT DISTINCT campaign, server, base_build, base_config, microbenchmark, "range", threads, 1.0, 1,
           NULL::DOUBLE
    FROM relative
), v AS (
    SELECT * FROM runs
    UNION ALL
    SELECT p.* FROM published p
    WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.campaign = p.campaign AND r.server = p.server
                      AND r.threads = p.threads)
)
SELECT w.rowid AS variant, v.campaign, m.number AS microbenchmark, v."range", v.value, v.repetitions, v.log_var
FROM v
JOIN ladder_variants w
  ON w.campaign = v.campaign AND w.server = v.server AND w.threads = v.threads AND w.build = v.build
 AND w.config = v.config
JOIN (SELECT name, row_number() OVER (ORDER BY name) AS number FROM microbenchmarks) m ON m.name = v.microbenchmark;
