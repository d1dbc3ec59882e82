-- The campaigns that published rQPS summaries for each server, with their titles; server by
-- server (a server's page takes its own, render/site_rows.py).
SELECT DISTINCT s.server, s.campaign, c.title FROM summaries s JOIN campaigns c ON c.id = s.campaign
ORDER BY s.server, s.campaign;
