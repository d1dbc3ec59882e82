-- Every change point of a microbenchmark or a group median, largest and most recent first, with
-- the known regression it is (data/known/), if any.
SELECT p.ladder, p.campaign, c.date, p.server, p.dbms, p.config AS family, p.threads, p.series, p.kind,
       p."group", p."before", p."after", p.before_version, p.after_version, p.change, p.direction, p.pvalue,
       k.id AS known, k.title AS known_title, k.status AS known_status, k.investigation AS known_investigation,
       k.bugs[1] AS known_bug
FROM change_points p JOIN campaigns c ON c.id = p.campaign
LEFT JOIN change_known ck ON ck.ladder = p.ladder AND ck.series = p.series AND ck.position = p.position
LEFT JOIN known k ON k.id = ck.known
WHERE p.kind IN ('series', 'median')
ORDER BY abs(ln(1 + p.change)) DESC, c.date DESC, p.ladder, p.series;
