-- Every change point of a microbenchmark or a group median, largest and most recent first.
SELECT p.ladder, p.campaign, c.date, p.server, p.dbms, p.config AS family, p.threads, p.series, p.kind,
       p."group", p."before", p."after", p.before_version, p.after_version, p.change, p.direction, p.pvalue
FROM change_points p JOIN campaigns c ON c.id = p.campaign
WHERE p.kind IN ('series', 'median')
ORDER BY abs(ln(1 + p.change)) DESC, c.date DESC, p.ladder, p.series;
