-- The per-point noise (log units) of one server's campaigns per thread count, measured on their
-- version ladders (the median over ladders), as the site's charts mute rQPS with it.
SELECT campaign, threads, median(noise) AS sigma
FROM ladders
WHERE server = $server
GROUP BY ALL
ORDER BY campaign, threads;
