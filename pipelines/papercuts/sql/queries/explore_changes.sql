-- The change points of one server's ladders, for the ladder view: the series (a microbenchmark
-- label or a group median), the two variants it sits between, its size and significance.
SELECT campaign, threads, kind, series, microbenchmark, "range", "group", "before", "after",
       change, pvalue
FROM change_points
WHERE server = $server
ORDER BY campaign, threads, kind, series, position;
