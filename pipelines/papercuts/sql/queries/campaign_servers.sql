-- The servers a campaign has rows for.
SELECT DISTINCT server FROM file_rows WHERE campaign = $campaign AND server IS NOT NULL ORDER BY server;
