-- The results papercuts check warns of (flagged_results: 10x from their peers' median) that each
-- change point of a microbenchmark is measured on, at either of its two builds: a change made by
-- a misplaced decimal point, or by a run that stalled, is marked where it is shown.
CREATE TABLE change_flagged AS
SELECT p.ladder, p.series, p.position,
       list({'variant': f.build || '.' || f.config, 'qps': f.qps, 'median': f.median, 'others': f.others,
             'file': f.file, 'line': f.line} ORDER BY f.build, f.config, f.file, f.line) AS flagged
FROM change_points p
JOIN flagged_results f
  ON f.campaign = p.campaign AND f.server = p.server AND f.threads = p.threads
 AND f.microbenchmark = p.microbenchmark AND f."range" IS NOT DISTINCT FROM p."range"
 AND f.build || '.' || f.config IN (p."before", p."after")
GROUP BY ALL
ORDER BY ladder, series, position;  -- an order of the values alone, whatever the plan (ingest/previous.py)
