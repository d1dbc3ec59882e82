-- What each raw campaign's outputs gave: files parsed per tool, and the gaps (files missing or
-- empty, counters the machine could not count), each with how many files and one example;
-- campaign by campaign (a campaign's page takes its own, render/site_rows.py).
SELECT campaign, tool, status, coalesce(detail, '') AS detail, count(*) AS files, min(file) AS example
FROM raw_files
GROUP BY ALL
ORDER BY campaign, tool, status, detail;
