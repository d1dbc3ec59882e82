-- "Data as of" on a page's embeds (render/embeds.py), for every page in one query: the newest date
-- of the data the page draws. A campaign's page: its campaign's date ('campaign', its id). A
-- server's pages: the newest of its campaigns' (every campaign with a row on it, as
-- campaign_server_pairs) and its calibrations' ('server', its id). A page whose charts name what
-- they draw (an investigation, the calibration page): the newest of the campaigns' and the
-- calibrations' ('calibration', its id) they name; the newest of the whole site ('site', '')
-- only when they name none.
-- `pairs` is campaign_server_pairs.sql, given by render/embeds.py: one list of what a server's
-- pages show, here and in the page units' keys (render/reuse.py).
WITH dated AS (
    SELECT p.server, c.date FROM pairs p JOIN campaigns c ON c.id = p.campaign
    UNION ALL SELECT server, date FROM calibrations
)
SELECT 'server' AS kind, server AS key, max(date)::VARCHAR AS as_of FROM dated WHERE server IS NOT NULL GROUP BY server
UNION ALL SELECT 'campaign', id, date::VARCHAR FROM campaigns
UNION ALL SELECT 'calibration', id, date::VARCHAR FROM calibrations
UNION ALL SELECT 'site', '', coalesce(greatest(c, k), c, k)::VARCHAR
FROM (SELECT (SELECT max(date) FROM campaigns) AS c, (SELECT max(date) FROM calibrations) AS k);
