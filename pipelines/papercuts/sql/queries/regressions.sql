-- Every change point of a microbenchmark or a group median, largest and most recent first, with
-- the known regression it is (data/known/), if any, and the values check warns of it is measured on.
SELECT p.ladder, p.campaign, c.date, p.server, p.dbms, p.config AS family, p.threads, p.series, p.kind,
       p."group", p."before", p."after", p.before_version, p.after_version, p.span_before, p.span_after,
       p.span_before_version, p.span_after_version, p.change, p.direction, p.pvalue,
       k.id AS known, k.title AS known_title, k.status AS known_status, k.investigation AS known_investigation,
       k.bugs[1] AS known_bug, cf.flagged,
       -- the evidence the data holds for a microbenchmark's change: per-op costs of both builds, and
       -- a profile of the test (as the server page labels it)
       p.microbenchmark || coalesce('_range=' || p."range", '') AS label,
       p.microbenchmark IS NOT NULL AND (SELECT count(DISTINCT o.build || '.' || o.config) = 2 FROM op_costs o
           WHERE o.campaign = p.campaign AND o.server = p.server AND o.threads = p.threads
             AND o.microbenchmark = p.microbenchmark AND o."range" IS NOT DISTINCT FROM p."range"
             AND o.build || '.' || o.config IN (p."before", p."after")) AS has_costs,
       EXISTS (SELECT 1 FROM profile_symbols s WHERE s.campaign = p.campaign AND s.server = p.server
               AND s.threads = p.threads AND s.microbenchmark = p.microbenchmark
               AND s."range" IS NOT DISTINCT FROM p."range") AS has_profile
FROM change_points p JOIN campaigns c ON c.id = p.campaign
LEFT JOIN change_known ck ON ck.ladder = p.ladder AND ck.series = p.series AND ck.position = p.position
LEFT JOIN known k ON k.id = ck.known
LEFT JOIN change_flagged cf ON cf.ladder = p.ladder AND cf.series = p.series AND cf.position = p.position
WHERE p.kind IN ('series', 'median')
ORDER BY abs(ln(1 + p.change)) DESC, c.date DESC, p.ladder, p.series, p.position;
