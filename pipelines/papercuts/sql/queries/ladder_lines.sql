-- The headline lines of one server's ladders (one query per server, not per ladder: each reads
-- ladder_values): per ladder and build, the median rQPS (against the ladder's first build) of each
-- group's microbenchmarks, and the drift shared by all of them; n = microbenchmarks.
WITH l AS (SELECT * FROM ladders WHERE server = $server),
v AS (
    SELECT l.ladder, lv.microbenchmark, lv."range", lv."group", lv.value, lb.position, lb.build, lb.config,
           lb.version
    FROM ladder_values lv
    JOIN l ON l.campaign = lv.campaign AND l.server = lv.server AND l.dbms = lv.dbms
          AND l.engine = lv.engine AND l.family = lv.family AND l.threads = lv.threads
    JOIN ladder_builds lb ON lb.ladder = l.ladder AND lb.build = lv.build AND lb.config = lv.config
    WHERE lv.server = $server
), rel AS (
    SELECT v.*, v.value / f.value AS rqps
    FROM v JOIN v f ON f.ladder = v.ladder AND f.position = 0 AND f.microbenchmark = v.microbenchmark
                   AND f."range" IS NOT DISTINCT FROM v."range"
)
SELECT ladder, position, build || '.' || config AS variant, version, 'median: ' || "group" AS series,
       median(rqps) AS rqps, count(*) AS n
FROM rel GROUP BY ALL
UNION ALL
SELECT lb.ladder, lb.position, lb.build || '.' || lb.config, lb.version, 'drift: all', exp(lb.drift), l.series
FROM ladder_builds lb JOIN l ON l.ladder = lb.ladder
ORDER BY ladder, series, position;
