-- Campaigns with any row on one server, newest first.
SELECT DISTINCT c.id, c.title, c.date, c.sysbench, c.contributor, s.title AS source_title
FROM campaigns c JOIN sources s ON s.id = c.source
WHERE c.id IN (SELECT campaign FROM file_rows WHERE server = $server)
ORDER BY c.date DESC, c.id;
