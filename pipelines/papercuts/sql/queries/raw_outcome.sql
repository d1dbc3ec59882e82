-- What a raw campaign's outputs gave: files parsed per tool, and the gaps (files missing or
-- empty, counters the machine could not count), each with how many files and one example.
SELECT tool, status, coalesce(detail, '') AS detail, count(*) AS files, min(file) AS example
FROM raw_files
WHERE campaign = $campaign
GROUP BY ALL
ORDER BY tool, status, detail;
