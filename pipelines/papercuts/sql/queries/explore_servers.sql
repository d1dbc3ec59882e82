-- The servers the explorer has data for: measured QPS or published rQPS.
SELECT s.id AS server, count(DISTINCT c.campaign) AS campaigns
FROM servers s
JOIN server_variants c ON c.server = s.id
GROUP BY s.id
ORDER BY s.id;
