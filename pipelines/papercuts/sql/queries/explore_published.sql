-- Published rQPS of each server, as printed: explorable against their own base only. The whole
-- site's, by server first (render/explore.py reads it once per process).
SELECT server, campaign, base_build || '.' || base_config AS base, build || '.' || config AS variant,
       microbenchmark, "range", threads, rqps
FROM relative
ORDER BY server, campaign, threads, microbenchmark, "range", base_build, base_config, build, config;
