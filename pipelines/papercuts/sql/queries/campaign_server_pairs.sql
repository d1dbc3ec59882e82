-- Every (campaign, server) with a row of that campaign on that server, from every contributed
-- table that names both (what a server's pages can show of a campaign), and each campaign's own
-- server.
SELECT DISTINCT campaign, server FROM (
    SELECT campaign, server FROM results
    UNION ALL SELECT campaign, server FROM relative
    UNION ALL SELECT campaign, server FROM summaries
    UNION ALL SELECT campaign, server FROM counters
    UNION ALL SELECT campaign, server FROM profiles
    UNION ALL SELECT campaign, server FROM observations WHERE server IS NOT NULL
    UNION ALL SELECT id, server FROM campaigns WHERE server IS NOT NULL
) ORDER BY campaign, server;
