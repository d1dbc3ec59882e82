-- Summary statistics of rQPS per point/range/write group, as the seeds tabulate them.
CREATE TABLE rqps_summary AS
SELECT campaign, server, threads, base_build, base_config, build, config, origin, "group",
       min(rqps) AS min, max(rqps) AS max, avg(rqps) AS avg, median(rqps) AS median,
       count(*) AS n
FROM rqps
GROUP BY ALL
ORDER BY ALL;  -- the key's columns lead: an order of the values alone, whatever the plan (ingest/previous.py)
