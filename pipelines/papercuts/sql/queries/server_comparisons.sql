-- Every comparison with rQPS on one server (one heatmap each), with how many microbenchmarks
-- and thread counts its campaign measured against that base.
WITH shape AS (
    SELECT campaign, base_build, base_config,
           count(DISTINCT (microbenchmark, "range")) AS microbenchmarks,
           count(DISTINCT threads) AS thread_counts
    FROM rqps WHERE server = $server
    GROUP BY ALL
)
SELECT DISTINCT r.campaign, c.title AS campaign_title, c.date, r.threads, r.base_build, r.base_config,
       s.microbenchmarks, s.thread_counts
FROM rqps r
JOIN campaigns c ON c.id = r.campaign
JOIN shape s ON s.campaign = r.campaign AND s.base_build = r.base_build AND s.base_config = r.base_config
WHERE r.server = $server
ORDER BY c.date DESC, r.campaign, r.threads, r.base_build, r.base_config;
