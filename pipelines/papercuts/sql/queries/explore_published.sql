-- Published rQPS of one server, as printed: explorable against their own base only.
SELECT campaign, base_build || '.' || base_config AS base, build || '.' || config AS variant,
       microbenchmark, "range", threads, rqps
FROM relative
WHERE server = $server
ORDER BY campaign, threads, microbenchmark, "range", base_build, base_config, build, config;
