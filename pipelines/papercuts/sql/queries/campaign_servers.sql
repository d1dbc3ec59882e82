-- The servers a campaign has rows for.
SELECT DISTINCT server FROM (
    SELECT server FROM results WHERE campaign = $campaign
    UNION ALL SELECT server FROM relative WHERE campaign = $campaign
    UNION ALL SELECT server FROM summaries WHERE campaign = $campaign
    UNION ALL SELECT server FROM observations WHERE campaign = $campaign AND server IS NOT NULL
) ORDER BY server;
