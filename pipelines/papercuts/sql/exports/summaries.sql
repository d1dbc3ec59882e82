-- Per point/range/write group: min, max, mean and median rQPS of each variant against its base
-- (derived from rqps), with how many microbenchmarks each summarises.
SELECT s.campaign, s.server, b.dbms, s.threads, s.build || '.' || s.config AS variant,
       s.base_build || '.' || s.base_config AS base_variant, s."group", s.origin,
       s.min, s.max, s.avg, s.median, s.n
FROM rqps_summary s JOIN builds b ON b.id = s.build
ORDER BY s.campaign, s.server, b.dbms, s.threads, s.base_build, s.base_config, b.version_key, s.build,
         s.config, s."group", s.origin;
