-- Every (campaign, server) with a row of that campaign on that server, from every contributed
-- table that names both (what a server's pages can show of a campaign), and each campaign's own
-- server. The measured results, ratios, summaries and observations are read through file_rows
-- (derive's counts of them per campaign, server and file: x100, 1-2 ms, where reading those tables
-- took 6-13 ms a process); an observation names no server or one.
SELECT DISTINCT campaign, server FROM (
    SELECT campaign, server FROM file_rows WHERE server IS NOT NULL
    UNION ALL SELECT campaign, server FROM counters
    UNION ALL SELECT campaign, server FROM profiles
    UNION ALL SELECT id, server FROM campaigns WHERE server IS NOT NULL
) ORDER BY campaign, server;
