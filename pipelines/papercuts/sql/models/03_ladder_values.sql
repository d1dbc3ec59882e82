-- Every value a version ladder is made of (derive/ladders.py): measured QPS per variant
-- (repetitions averaged, with the spread of their logs), or published rQPS with its base as 1.
-- A ladder is one campaign, server, DBMS, engine, config family and thread count; the config
-- family is the config id without mytools' template token (z12a_c8r32 and z12b_c8r32 are one
-- family, z12a_gtid_c32r128 another), so that a template bump does not split a ladder.
-- Rows in ladder order, to the last tie: ladder by ladder (campaign first), builds by version,
-- then microbenchmarks, as derive/ladders.py reads them (by rowid: x100 on two threads, 0.19 s
-- against 0.8-1.0 s for its own sort). Made on every core and, in an incremental build, for the
-- changed campaigns only, appended (derive/models.py): each campaign's rows are in this order,
-- the campaigns in any. Builds by version are by their rank (00_build_order: version key, then id).
CREATE TABLE ladder_values AS
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
SELECT v.*, b.dbms, b.engine, b.version, b.version_key, m."group",
       regexp_replace(v.config, '^[xz][0-9]+[a-z]*_', '') AS family
FROM v
JOIN builds b ON b.id = v.build
JOIN build_order o ON o.build = v.build
JOIN microbenchmarks m ON m.name = v.microbenchmark
ORDER BY v.campaign, v.server, b.dbms, b.engine, family, v.threads, o.rank, v.config,
         v.microbenchmark, v."range", v.value, v.repetitions, v.log_var;
