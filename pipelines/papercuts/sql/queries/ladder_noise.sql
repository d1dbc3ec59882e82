-- The per-point noise (log units) of one server's campaigns per thread count, measured on their
-- version ladders (derive/ladders.py; the median over a campaign's ladders of that thread count):
-- every rQPS the site shows is muted within 2·√2 of it (render/colours.py), in charts and in the
-- explorer alike.
SELECT campaign, threads, median(noise) AS sigma
FROM ladders
WHERE server = $server
GROUP BY ALL
ORDER BY campaign, threads;
