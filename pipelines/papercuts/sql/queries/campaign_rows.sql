-- The contributed rows of each campaign a database holds (derive's file_rows: results, published
-- ratios, summaries, observations): what the next build weighs to start from a copy of it or not
-- (ingest/previous.py SEED_SHARE).
SELECT campaign, sum("rows") AS "rows"
FROM file_rows
GROUP BY campaign
ORDER BY campaign;
