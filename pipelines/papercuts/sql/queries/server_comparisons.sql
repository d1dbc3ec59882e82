-- Every comparison with rQPS on one server (one heatmap each), with how many microbenchmarks
-- and thread counts its campaign measured against that base (sql/models/15_comparisons.sql).
SELECT r.campaign, c.title AS campaign_title, c.date, r.threads, r.base_build, r.base_config,
       r.microbenchmarks, r.thread_counts
FROM comparisons r
JOIN campaigns c ON c.id = r.campaign
WHERE r.server = $server
ORDER BY c.date DESC, r.campaign, r.threads, r.base_build, r.base_config;
