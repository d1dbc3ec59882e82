-- Every comparison with rQPS (a campaign on a server against one base) at each thread count,
-- with how many microbenchmarks and thread counts it measured: what a server's and a campaign's
-- pages draw a heatmap for (sql/queries/server_comparisons.sql). Made once here: counted from
-- rqps at each page, it was a scan of all of rqps per page (x100: 138 pages, 1.2 s). Rows campaign
-- by campaign, to the last tie: an incremental build makes the changed campaigns' rows and copies
-- the others' (derive/models.py PER_CAMPAIGN).
CREATE TABLE comparisons AS
WITH measured AS (  -- rqps' 10^6 rows (x100) read once, to the few keys counted here: counting
                    -- (microbenchmark, range) pairs of rqps itself, then its threads again, took
                    -- 0.15 CPU s, this 0.03
    SELECT DISTINCT campaign, server, base_build, base_config, threads, microbenchmark, "range" FROM rqps
), shape AS (
    SELECT campaign, server, base_build, base_config,
           count(DISTINCT (microbenchmark, "range")) AS microbenchmarks,
           count(DISTINCT threads) AS thread_counts
    FROM measured
    GROUP BY ALL
)
SELECT DISTINCT r.campaign, r.server, r.threads, r.base_build, r.base_config, s.microbenchmarks, s.thread_counts
FROM measured r
JOIN shape s ON s.campaign = r.campaign AND s.server = r.server AND s.base_build = r.base_build
            AND s.base_config = r.base_config
ORDER BY r.campaign, r.server, r.threads, r.base_build, r.base_config;
