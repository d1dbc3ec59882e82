-- The profiled tests of one server: campaign, microbenchmark (labelled as the site labels it:
-- `random-points_range=1000` when the profile has a range) and thread count, with the variants
-- that have a profile there (by version, then build and config).
SELECT p.campaign, p.microbenchmark || coalesce('_range=' || p."range", '') AS microbenchmark, p.threads,
       list(DISTINCT p.build || '.' || p.config ORDER BY p.build || '.' || p.config) AS variants
FROM (SELECT DISTINCT campaign, server, build, config, microbenchmark, "range", threads FROM profile_symbols) p
WHERE p.server = $server
GROUP BY ALL
ORDER BY p.campaign, microbenchmark, p.threads;
