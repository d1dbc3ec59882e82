-- The thread counts of one campaign and server, measured or published.
SELECT DISTINCT threads FROM rqps WHERE campaign = $campaign AND server = $server ORDER BY threads;
