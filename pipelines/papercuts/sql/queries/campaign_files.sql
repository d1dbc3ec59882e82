-- The data files behind one campaign, with their row counts.
SELECT file, count(*) AS rows FROM (
    SELECT file FROM results WHERE campaign = $campaign
    UNION ALL SELECT file FROM relative WHERE campaign = $campaign
    UNION ALL SELECT file FROM summaries WHERE campaign = $campaign
    UNION ALL SELECT file FROM observations WHERE campaign = $campaign
) GROUP BY file ORDER BY file;
