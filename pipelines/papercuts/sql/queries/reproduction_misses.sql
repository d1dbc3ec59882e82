-- The published ratios that the abs tables do not reproduce exactly, worst first (at most 200).
SELECT file, line, "column", microbenchmark, "range", threads, base, variant, published,
       round(derived, 4) AS derived, status
FROM reproductions
WHERE campaign = $campaign AND status <> 'equal'
ORDER BY CASE status WHEN 'differs' THEN 0 WHEN 'no abs value' THEN 1 ELSE 2 END,
         abs(coalesce(derived, 0) - published) DESC, file, line, "column"
LIMIT 200;
