-- The data files behind one campaign, with their row counts.
SELECT file, sum(rows)::BIGINT AS rows FROM file_rows WHERE campaign = $campaign GROUP BY file ORDER BY file;
