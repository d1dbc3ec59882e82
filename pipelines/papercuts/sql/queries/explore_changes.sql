-- The change points of each server's ladders, for the ladder view: the series (a microbenchmark
-- label or a group median), the two variants it sits between, its size and significance, and the
-- two its span runs between (derive/changepoints.py). The whole site's, by server first
-- (render/explore.py reads it once per process).
SELECT server, campaign, threads, kind, series, microbenchmark, "range", "group", "before", "after",
       change, pvalue, span_before, span_after
FROM change_points
ORDER BY server, campaign, threads, ladder, kind, series, position;
