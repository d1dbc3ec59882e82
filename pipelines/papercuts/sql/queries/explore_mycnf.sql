-- The my.cnf files a server's campaigns ship, for the config diff: names and sizes, not bytes
-- (reading the bytes column scans every file's blob, 25-70 ms a server at x100; the chosen
-- files' bytes are read one by one by their key: sql/queries/evidence_bytes.sql).
SELECT e.campaign, e.name, e.size
FROM evidence e
WHERE e.campaign IN (SELECT campaign FROM measured_qps WHERE server = $server
                     UNION SELECT campaign FROM relative WHERE server = $server)
  AND regexp_matches(e.name, '(^|/)my\.cnf([._][^/]*)?$')
ORDER BY e.campaign, e.name;
