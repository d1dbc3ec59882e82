-- The per-point noise (log units) of each campaign, server and thread count, measured on its
-- version ladders (derive/ladders.py), the median over its ladders (DBMS, engine, config family).
SELECT campaign, server, threads, median(noise) AS sigma, count(*) AS ladders
FROM ladders
WHERE campaign = $campaign AND server = $server
GROUP BY ALL
ORDER BY threads;
