-- Every change point found along a version ladder (derive/ladders.py): the series (a
-- microbenchmark, a group median or the shared drift), the two builds it sits between
-- (build.config), its relative size, direction, Bonferroni-corrected p-value, its span (the builds
-- it lies between with probability 0.9: span_before and span_after are before and after when its
-- place is sure) and the known regression (data/known/) it is, if any.
SELECT p.campaign, p.server, p.dbms, p.config AS config_family, p.threads, p.kind, p.series, p.microbenchmark,
       p."range", p."group", p."before", p."after", p.before_version, p.after_version, p.change, p.direction,
       p.pvalue, p.span_before, p.span_after, p.span_before_version, p.span_after_version, ck.known
FROM change_points p
LEFT JOIN change_known ck ON ck.ladder = p.ladder AND ck.series = p.series AND ck.position = p.position
ORDER BY p.campaign, p.server, p.dbms, p.config, p.threads, p.kind, p.series, p.position, p.ladder;
