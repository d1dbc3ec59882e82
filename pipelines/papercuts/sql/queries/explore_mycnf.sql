-- The my.cnf files a server's campaigns ship (as committed), for the config diff.
SELECT e.campaign, e.name, e.bytes
FROM evidence e
WHERE e.campaign IN (SELECT campaign FROM measured_qps WHERE server = $server
                     UNION SELECT campaign FROM relative WHERE server = $server)
  AND regexp_matches(e.name, '(^|/)my\.cnf([._][^/]*)?$')
ORDER BY e.campaign, e.name;
