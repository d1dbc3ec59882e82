-- Every ladder's server and campaign (a ladder is one campaign's builds on one server): what its
-- chart reads and the date it shows, looked up per chart from these rows (render/site_rows.py).
SELECT ladder, server, campaign FROM ladders ORDER BY ladder;
