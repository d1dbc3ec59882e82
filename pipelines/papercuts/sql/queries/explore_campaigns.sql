-- The campaigns of one server the explorer offers, newest first, each with its base variant per
-- DBMS and engine (as every chart of the site uses it) and whether it holds measured QPS.
WITH c AS (
    SELECT campaign, bool_or(measured) AS measured FROM server_variants WHERE server = $server GROUP BY campaign
), b AS (
    SELECT campaign, list(base ORDER BY base) AS bases
    FROM (SELECT DISTINCT campaign, base_build || '.' || base_config AS base
          FROM campaign_bases WHERE server = $server AND base_build IS NOT NULL)
    GROUP BY campaign
)
SELECT k.id, k.title, k.date, c.measured, b.bases
FROM c JOIN campaigns k ON k.id = c.campaign
LEFT JOIN b ON b.campaign = c.campaign
ORDER BY k.date DESC, k.id;
