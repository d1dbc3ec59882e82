-- The data files behind every campaign, with their row counts, campaign by campaign (a campaign's
-- page takes its own, render/site_rows.py; campaign_files.sql is one campaign's, for an investigation).
SELECT campaign, file, sum(rows)::BIGINT AS rows FROM file_rows GROUP BY campaign, file ORDER BY campaign, file;
