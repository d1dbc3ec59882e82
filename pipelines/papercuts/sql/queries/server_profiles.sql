-- The profiled tests of one server: campaign, microbenchmark and thread count, with the
-- variants that have a profile there (by version, then build and config).
SELECT p.campaign, p.microbenchmark, p.threads,
       list(DISTINCT p.build || '.' || p.config ORDER BY p.build || '.' || p.config) AS variants
FROM (SELECT DISTINCT campaign, server, build, config, microbenchmark, threads FROM profile_symbols) p
WHERE p.server = $server
GROUP BY ALL
ORDER BY p.campaign, p.microbenchmark, p.threads;
