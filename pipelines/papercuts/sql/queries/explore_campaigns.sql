-- The campaigns of each server the explorer offers, newest first, each with its base variant per
-- DBMS and engine (as every chart of the site uses it) and whether it holds measured QPS.
-- The whole site's, by server first (render/explore.py reads it once per process).
WITH c AS (
    SELECT server, campaign, bool_or(measured) AS measured FROM server_variants GROUP BY server, campaign
), b AS (
    SELECT server, campaign, list(base ORDER BY base) AS bases
    FROM (SELECT DISTINCT server, campaign, base_build || '.' || base_config AS base
          FROM campaign_bases WHERE base_build IS NOT NULL)
    GROUP BY server, campaign
)
SELECT c.server, k.id, k.title, k.date, c.measured, b.bases
FROM c JOIN campaigns k ON k.id = c.campaign
LEFT JOIN b ON b.server = c.server AND b.campaign = c.campaign
ORDER BY c.server, k.date DESC, k.id;
