-- Summary statistics as a source printed them, with the builds' engines and versions.
SELECT s.threads, s.base_build, s.base_config, s.build, s.config, s."group",
       s.min, s.max, s.avg, s.median, b.engine, b.version, bb.version AS base_version, b.version_key
FROM summaries s
JOIN builds b ON b.id = s.build
JOIN builds bb ON bb.id = s.base_build
WHERE s.campaign = $campaign AND s.server = $server
ORDER BY b.engine, s.threads, b.version_key, s.build, s.config, s.base_build, s.base_config, s."group";
