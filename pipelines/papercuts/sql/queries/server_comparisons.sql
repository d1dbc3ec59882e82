-- Every comparison with rQPS on one server: one heatmap each.
SELECT DISTINCT r.campaign, c.title AS campaign_title, c.date, r.threads, r.base_build, r.base_config
FROM rqps r JOIN campaigns c ON c.id = r.campaign
WHERE r.server = $server
ORDER BY c.date DESC, r.campaign, r.threads, r.base_build, r.base_config;
