-- The change points of one ladder, largest first.
SELECT series, kind, "group", position, "before", "after", before_version, after_version, change,
       direction, pvalue
FROM change_points
WHERE ladder = $ladder
ORDER BY kind DESC, abs(ln(1 + change)) DESC, series;
