-- "Data as of" on a page's embeds (render/embeds.py): the newest date of the data the page draws.
-- A campaign's page ($campaign): its campaign's date. A server's pages ($server): the newest of
-- its campaigns' (every campaign with a row on it, as campaign_server_pairs) and its
-- calibrations'. Neither (an investigation, the calibration page): the newest of the whole site.
SELECT coalesce(greatest(c, k), c, k)::VARCHAR AS as_of FROM (SELECT
    (SELECT max(date) FROM campaigns
     WHERE ($campaign IS NULL AND $server IS NULL) OR id = $campaign OR id IN (
         SELECT campaign FROM results WHERE server = $server
         UNION ALL SELECT campaign FROM relative WHERE server = $server
         UNION ALL SELECT campaign FROM summaries WHERE server = $server
         UNION ALL SELECT campaign FROM counters WHERE server = $server
         UNION ALL SELECT campaign FROM profiles WHERE server = $server
         UNION ALL SELECT campaign FROM observations WHERE server = $server
         UNION ALL SELECT id FROM campaigns WHERE server = $server)) AS c,
    (SELECT max(date) FROM calibrations
     WHERE ($campaign IS NULL AND $server IS NULL) OR server = $server) AS k);
