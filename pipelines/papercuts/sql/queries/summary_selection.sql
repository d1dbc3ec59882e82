-- Summary statistics derived by the pipeline for one comparison.
SELECT s.build || '.' || s.config AS variant, s."group", s.min, s.max, s.avg, s.median, s.n, s.origin
FROM rqps_summary s
WHERE s.campaign = $campaign AND s.server = $server AND s.threads = $threads
  AND s.base_build = $base_build AND s.base_config = $base_config
ORDER BY s.build, s.config, s."group", s.origin;
