-- The data files behind every campaign, with their row counts, campaign by campaign (a campaign's
-- page and an investigation's data files take a campaign's own: render/site_rows.py).
SELECT campaign, file, sum(rows)::BIGINT AS rows FROM file_rows GROUP BY campaign, file ORDER BY campaign, file;
