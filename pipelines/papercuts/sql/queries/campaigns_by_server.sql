-- Every campaign under each server and DBMS it measured, newest first: the home page's index.
WITH measured AS (
    SELECT campaign, server, build FROM results
    UNION SELECT campaign, server, build FROM relative
    UNION SELECT campaign, server, build FROM summaries
)
SELECT DISTINCT m.server, b.dbms, c.id, c.title, c.date
FROM measured m JOIN builds b ON b.id = m.build JOIN campaigns c ON c.id = m.campaign
ORDER BY m.server, b.dbms, c.date DESC, c.id;
