-- rQPS = QPS(variant) / QPS(base), per server, threads and microbenchmark.
-- Measured ratios are computed here; published ratios are taken as printed. Rows campaign by
-- campaign, measured first, each in its source's order, to the last tie: made on every core and,
-- in an incremental build, for the changed campaigns only (derive/models.py).
CREATE TABLE rqps AS
WITH bases AS (  -- the base variants' rows alone, what the join below looks bases up in: joined with
                 -- all of measured_qps, it built a table of every row (x100: 1.7-2.1 CPU s, 1.1 so)
    SELECT q.campaign, q.server, q.threads, q.microbenchmark, q."range", q.build, q.config, q.qps
    FROM measured_qps q
    WHERE EXISTS (SELECT 1 FROM campaign_bases b WHERE b.campaign = q.campaign AND b.server = q.server
                  AND b.base_build = q.build AND b.base_config = q.config)
), measured AS (
    SELECT q.campaign, q.server, q.threads, b.base_build, b.base_config, q.build, q.config,
           q.microbenchmark, q."range", q.qps / base.qps AS rqps, q.qps, base.qps AS base_qps,
           'measured' AS origin, q.rowid AS pos
    FROM measured_qps q
    JOIN builds qb ON qb.id = q.build
    JOIN campaign_bases b
      ON b.campaign = q.campaign AND b.server = q.server AND b.dbms = qb.dbms AND b.engine = qb.engine
    JOIN bases base
      ON base.campaign = q.campaign AND base.server = q.server AND base.threads = q.threads
     AND base.microbenchmark = q.microbenchmark AND base."range" IS NOT DISTINCT FROM q."range"
     AND base.build = b.base_build AND base.config = b.base_config
    WHERE (q.build, q.config) <> (b.base_build, b.base_config)
), published AS (
    SELECT campaign, server, threads, base_build, base_config, build, config,
           microbenchmark, "range", rqps, NULL::DOUBLE AS qps, NULL::DOUBLE AS base_qps,
           'published' AS origin, rowid AS pos
    FROM relative
)
SELECT u.* EXCLUDE (pos), m."group", m.group4
FROM (SELECT * FROM measured UNION ALL SELECT * FROM published) u
JOIN microbenchmarks m ON m.name = u.microbenchmark
ORDER BY u.campaign, u.origin, u.pos;
