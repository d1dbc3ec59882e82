-- The campaigns with measured results on each server. The whole site's, server by server (a
-- server's page takes its own, render/site_rows.py).
SELECT DISTINCT server, campaign FROM file_rows WHERE measured ORDER BY server, campaign;
