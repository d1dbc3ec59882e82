-- The headline lines of the ladders of some campaigns ($campaigns), made once in derive for the
-- ladder charts (each read them per server from ladder_values: x100, 57 queries of 23 ms): per
-- ladder and build, the median rQPS (against the ladder's first build) of each group's
-- microbenchmarks, and the drift shared by all of them; n = microbenchmarks. A median and a ratio
-- add no floats, so any number of threads gives the same values. Rows campaign by campaign.
INSERT INTO ladder_lines
WITH l AS (SELECT * FROM ladders WHERE campaign IN (SELECT unnest($campaigns::VARCHAR[]))),
v AS (
    SELECT l.campaign, l.server, l.ladder, lv.microbenchmark, lv."range", lv."group", lv.value, lb.position,
           lb.build, lb.config, lb.version
    FROM ladder_values lv
    JOIN l ON l.campaign = lv.campaign AND l.server = lv.server AND l.dbms = lv.dbms
          AND l.engine = lv.engine AND l.family = lv.family AND l.threads = lv.threads
    JOIN ladder_builds lb ON lb.ladder = l.ladder AND lb.build = lv.build AND lb.config = lv.config
), rel AS (
    SELECT v.*, v.value / f.value AS rqps
    FROM v JOIN v f ON f.ladder = v.ladder AND f.position = 0 AND f.microbenchmark = v.microbenchmark
                   AND f."range" IS NOT DISTINCT FROM v."range"
), lines AS (
    SELECT campaign, server, ladder, position, build || '.' || config AS variant, version,
           'median: ' || "group" AS series, median(rqps) AS rqps, count(*) AS n
    FROM rel GROUP BY ALL
    UNION ALL
    SELECT l.campaign, l.server, lb.ladder, lb.position, lb.build || '.' || lb.config, lb.version, 'drift: all',
           exp(lb.drift), l.series
    FROM ladder_builds lb JOIN l ON l.ladder = lb.ladder
)
SELECT * FROM lines ORDER BY campaign, ladder, series, position;
