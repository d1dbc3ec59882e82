-- Every comparison with rQPS on each server (one heatmap each), with how many microbenchmarks
-- and thread counts its campaign measured against that base (sql/models/15_comparisons.sql);
-- server by server (a server's page takes its own, render/site_rows.py).
SELECT r.server, r.campaign, c.title AS campaign_title, c.date, r.threads, r.base_build, r.base_config,
       r.microbenchmarks, r.thread_counts
FROM comparisons r
JOIN campaigns c ON c.id = r.campaign
ORDER BY r.server, c.date DESC, r.campaign, r.threads, r.base_build, r.base_config;
