-- The per-point noise (log units) of every server's campaigns per thread count, measured on their
-- version ladders (derive/ladders.py; the median over a campaign's ladders of that thread count):
-- every rQPS the site shows is muted within 2·√2 of it (render/colours.py), in charts and in the
-- explorer alike. The whole site's, read once per process (render/site_rows.py): a few hundred rows.
SELECT server, campaign, threads, median(noise) AS sigma
FROM ladders
GROUP BY ALL
ORDER BY server, campaign, threads;
