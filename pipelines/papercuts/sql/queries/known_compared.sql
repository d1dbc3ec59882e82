-- The comparisons that span a known regression where no version ladder can show it: a variant of
-- a version at or after `introduced` measured against a base before it (of the same major.minor
-- release, as a change point must be: known_matches.sql), of a microbenchmark, series or group the
-- known regression names (any, when it names none), on a server it names (any, when none), in a
-- campaign, server and thread count with no ladder of its DBMS (derive/ladders.py: a campaign of
-- two versions is a comparison, not a ladder). A row per variant: the median rQPS of the
-- microbenchmarks it names, how many, and their lowest and highest. The rQPS rows are found by
-- (microbenchmark, build) pairs first: x100, a scan of every row of the builds spanning it took 0.24 s.
WITH named AS (  -- the microbenchmarks each names, by name, series ("<name> range <n>") or group
    SELECT k.id AS known, m.name AS microbenchmark
    FROM known k JOIN microbenchmarks m
      ON (coalesce(len(k.microbenchmarks), 0) = 0 AND coalesce(len(k.groups), 0) = 0)
      OR list_contains(coalesce(k.groups, []), m."group")
      OR len(list_filter(coalesce(k.microbenchmarks, []),
                         lambda s: s = m.name OR starts_with(s, m.name || ' range '))) > 0
), spanning AS (  -- the builds at or after the version it arrived in
    SELECT k.id AS known, b.id AS build, b.version, b.version_key
    FROM known k JOIN builds b ON b.dbms = k.dbms AND k.introduced_key <= b.version_key
)
SELECT k.id AS known, r.campaign, r.server, r.threads, r.base_build, r.base_config, bb.version AS base_version,
       r.build, r.config, s.version, s.version_key, r.origin,
       median(r.rqps) AS rqps, min(r.rqps) AS lowest, max(r.rqps) AS highest, count(*) AS n,
       list(r.microbenchmark || coalesce(' range ' || r."range", '') ORDER BY r.microbenchmark, r."range") AS series
FROM known k
JOIN named n ON n.known = k.id
JOIN spanning s ON s.known = k.id
JOIN rqps r ON r.microbenchmark = n.microbenchmark AND r.build = s.build
JOIN builds bb ON bb.id = r.base_build
    AND bb.version_key < k.introduced_key AND bb.version_key[1:2] = k.introduced_key[1:2]
WHERE (coalesce(len(k.servers), 0) = 0 OR list_contains(k.servers, r.server))
  AND ((coalesce(len(k.microbenchmarks), 0) = 0 AND coalesce(len(k.groups), 0) = 0)
       OR list_contains(coalesce(k.microbenchmarks, []), r.microbenchmark)
       OR list_contains(coalesce(k.microbenchmarks, []), r.microbenchmark || ' range ' || r."range")
       OR list_contains(coalesce(k.groups, []), r."group"))
  AND NOT EXISTS (SELECT 1 FROM ladders l WHERE l.campaign = r.campaign AND l.server = r.server
                  AND l.threads = r.threads AND l.dbms = k.dbms)
GROUP BY ALL
ORDER BY known, r.campaign, r.server, r.threads, s.version_key, r.build, r.config;  -- to the last tie: one row per variant
