-- The servers the explorer has data for: measured QPS or published rQPS.
SELECT s.id AS server, count(DISTINCT c.campaign) AS campaigns
FROM servers s
JOIN (SELECT DISTINCT campaign, server FROM measured_qps
      UNION SELECT DISTINCT campaign, server FROM relative) c ON c.server = s.id
GROUP BY s.id
ORDER BY s.id;
