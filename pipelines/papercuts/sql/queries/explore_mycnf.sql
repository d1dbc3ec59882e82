-- The my.cnf files each server's campaigns ship, for the config diff: names, sizes and where their
-- bytes are stored (ingest/blobs.py). The whole site's, by server first (render/explore.py reads it
-- once per process).
SELECT s.server, e.campaign, e.name, e.size, e.sha256
FROM evidence e
JOIN (SELECT DISTINCT server, campaign FROM server_variants) s ON s.campaign = e.campaign
WHERE regexp_matches(e.name, '(^|/)my\.cnf([._][^/]*)?$')
ORDER BY s.server, e.campaign, e.name;
