-- Every change point found along a version ladder (derive/ladders.py): the series (a
-- microbenchmark, a group median or the shared drift), the two builds it sits between
-- (build.config), its relative size, direction and Bonferroni-corrected p-value.
SELECT campaign, server, dbms, config AS config_family, threads, kind, series, microbenchmark, "range",
       "group", "before", "after", before_version, after_version, change, direction, pvalue
FROM change_points
ORDER BY campaign, server, dbms, config, threads, kind, series, position;
