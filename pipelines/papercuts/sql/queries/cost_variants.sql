-- The variants of one comparison that have per-operation costs beside their rQPS.
SELECT DISTINCT o.build || '.' || o.config AS variant, b.version_key, o.build, o.config
FROM op_costs o JOIN builds b ON b.id = o.build
WHERE o.campaign = $campaign AND o.server = $server AND o.threads = $threads
  AND o.base_build = $base_build AND o.base_config = $base_config AND o.relative IS NOT NULL
  AND (o.build, o.config) <> (o.base_build, o.base_config)
ORDER BY b.version_key, o.build, o.config;
