-- How many of a campaign's published qps.rel ratios the ratios derived from its qps.abs tables
-- reproduce (validate/archive.py), by status.
SELECT status, count(*) AS n
FROM reproductions
WHERE campaign = $campaign
GROUP BY status
ORDER BY CASE status WHEN 'equal' THEN 0 WHEN 'rounding' THEN 1 WHEN 'differs' THEN 2 ELSE 3 END;
