-- The ladder pages a server or a campaign appears on (either parameter may be NULL).
SELECT DISTINCT server, dbms, threads
FROM ladders
WHERE ($server IS NULL OR server = $server) AND ($campaign IS NULL OR campaign = $campaign)
ORDER BY server, dbms, threads;
