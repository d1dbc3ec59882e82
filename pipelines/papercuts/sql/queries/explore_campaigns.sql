-- The campaigns of one server the explorer offers, newest first, each with its base variant per
-- DBMS and engine (as every chart of the site uses it) and whether it holds measured QPS.
WITH c AS (
    SELECT DISTINCT campaign, true AS measured FROM measured_qps WHERE server = $server
    UNION ALL
    SELECT DISTINCT campaign, false FROM relative WHERE server = $server
    AND campaign NOT IN (SELECT campaign FROM measured_qps WHERE server = $server)
)
SELECT k.id, k.title, k.date, c.measured,
       list(DISTINCT b.base_build || '.' || b.base_config ORDER BY b.base_build || '.' || b.base_config)
           FILTER (WHERE b.base_build IS NOT NULL) AS bases
FROM c JOIN campaigns k ON k.id = c.campaign
LEFT JOIN campaign_bases b ON b.campaign = c.campaign AND b.server = $server
GROUP BY ALL
ORDER BY k.date DESC, k.id;
