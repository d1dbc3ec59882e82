-- The profiled tests of each server: campaign, microbenchmark (labelled as the site labels it:
-- `random-points_range=1000` when the profile has a range) and thread count, with the variants
-- that have a profile there (by version, then build and config); server by server (a server's
-- page takes its own, render/site_rows.py).
SELECT p.server, p.campaign, p.microbenchmark || coalesce('_range=' || p."range", '') AS microbenchmark, p.threads,
       list(DISTINCT p.build || '.' || p.config ORDER BY p.build || '.' || p.config) AS variants
FROM (SELECT DISTINCT campaign, server, build, config, microbenchmark, "range", threads FROM profile_symbols) p
GROUP BY ALL
ORDER BY p.server, p.campaign, microbenchmark, p.threads;
