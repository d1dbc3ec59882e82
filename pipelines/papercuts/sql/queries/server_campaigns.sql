-- Campaigns with any row on each server, newest first. The whole site's, server by server (a
-- server's page takes its own, render/site_rows.py).
SELECT DISTINCT f.server, c.id, c.title, c.date, c.sysbench, c.contributor, s.title AS source_title
FROM campaigns c JOIN sources s ON s.id = c.source
JOIN (SELECT DISTINCT server, campaign FROM file_rows) f ON f.campaign = c.id
ORDER BY f.server, c.date DESC, c.id;
