-- How many of a campaign's published qps.rel ratios the ratios derived from its qps.abs tables
-- reproduce (validate/archive.py), by status; campaign by campaign (a campaign's page takes its
-- own, render/site_rows.py).
SELECT campaign, status, count(*) AS n
FROM reproductions
GROUP BY campaign, status
ORDER BY campaign, CASE status WHEN 'equal' THEN 0 WHEN 'rounding' THEN 1 WHEN 'differs' THEN 2 ELSE 3 END;
