-- The my.cnf files a server's campaigns ship, for the config diff: names, sizes and where their
-- bytes are stored (ingest/blobs.py).
SELECT e.campaign, e.name, e.size, e.sha256
FROM evidence e
WHERE e.campaign IN (SELECT campaign FROM server_variants WHERE server = $server)
  AND regexp_matches(e.name, '(^|/)my\.cnf([._][^/]*)?$')
ORDER BY e.campaign, e.name;
