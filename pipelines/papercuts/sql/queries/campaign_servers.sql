-- The servers each campaign has rows for, campaign by campaign (a campaign's page takes its own,
-- render/site_rows.py).
SELECT DISTINCT campaign, server FROM file_rows WHERE server IS NOT NULL ORDER BY campaign, server;
