-- How each symbol's share of samples changed from the campaign's base variant to each other
-- variant profiled at the same microbenchmark, range and thread count (in share points, target -
-- base). A symbol absent from one side has share 0 there.
CREATE TABLE profile_change AS
WITH variants AS (
    SELECT DISTINCT s.campaign, s.server, s.build, s.config, s.microbenchmark, s."range", s.threads,
           b.base_build, b.base_config
    FROM profile_symbols s
    JOIN builds sb ON sb.id = s.build
    JOIN campaign_bases b
      ON b.campaign = s.campaign AND b.server = s.server AND b.dbms = sb.dbms AND b.engine = sb.engine
    WHERE (s.build, s.config) <> (b.base_build, b.base_config)
      AND EXISTS (SELECT 1 FROM profile_symbols x WHERE x.campaign = s.campaign
                    AND x.build = b.base_build AND x.config = b.base_config
                    AND x.microbenchmark = s.microbenchmark AND x."range" IS NOT DISTINCT FROM s."range"
                    AND x.threads = s.threads)
), symbols AS (  -- every symbol seen in either profile of a pair
    SELECT DISTINCT v.*, s.symbol
    FROM variants v
    JOIN profile_symbols s
      ON s.campaign = v.campaign AND s.microbenchmark = v.microbenchmark
     AND s."range" IS NOT DISTINCT FROM v."range" AND s.threads = v.threads
     AND ((s.build = v.build AND s.config = v.config)
          OR (s.build = v.base_build AND s.config = v.base_config))
), pairs AS (
    SELECT v.*,
           coalesce(t.self_share, 0) AS self_share, coalesce(base.self_share, 0) AS base_self_share,
           coalesce(t.total_share, 0) AS total_share, coalesce(base.total_share, 0) AS base_total_share
    FROM symbols v
    LEFT JOIN profile_symbols t
      ON t.campaign = v.campaign AND t.build = v.build AND t.config = v.config
     AND t.microbenchmark = v.microbenchmark AND t."range" IS NOT DISTINCT FROM v."range"
     AND t.threads = v.threads AND t.symbol = v.symbol
    LEFT JOIN profile_symbols base
      ON base.campaign = v.campaign AND base.build = v.base_build AND base.config = v.base_config
     AND base.microbenchmark = v.microbenchmark AND base."range" IS NOT DISTINCT FROM v."range"
     AND base.threads = v.threads AND base.symbol = v.symbol
)
SELECT *, self_share - base_self_share AS self_delta, total_share - base_total_share AS total_delta
FROM pairs
-- an order of the values alone, whatever the plan (ingest/previous.py)
ORDER BY campaign, server, build, config, microbenchmark, "range", threads, base_build, base_config, symbol;
