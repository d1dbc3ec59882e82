-- The change points of one server's ladders, for the ladder view: the series (a microbenchmark
-- label or a group median), the two variants it sits between, its size and significance, and the
-- two its span runs between (derive/changepoints.py).
SELECT campaign, threads, kind, series, microbenchmark, "range", "group", "before", "after",
       change, pvalue, span_before, span_after
FROM change_points
WHERE server = $server
ORDER BY campaign, threads, ladder, kind, series, position;
