-- Which known regression (data/known/) each change point is: same DBMS; the version it was
-- introduced in lies in (before, after], or else in the change's span (span_before, span_after],
-- the builds it lies between with probability 0.9 (a small step is often placed a build off): a
-- known regression of the pair itself is preferred to one only the span holds. Either interval's
-- lower end must be of the same major.minor release (a ladder that jumps from 5.7 to 8.0.43 cannot
-- say the step arrived in 8.0.28). And the change is of a microbenchmark it names
-- ("random-points", or one series: "random-points range 1000"), of one in a group it names, or the
-- median of such a group; servers, when named, must include the change's. A known regression that
-- names neither matches every change at that step.
CREATE TABLE change_known AS
WITH candidates AS (
    SELECT p.ladder, p.series, p.position, k.id,
           bb.version_key < k.introduced_key AND k.introduced_key <= ab.version_key
               AND bb.version_key[1:2] = k.introduced_key[1:2] AS in_pair,
           sb.version_key < k.introduced_key AND k.introduced_key <= sa.version_key
               AND sb.version_key[1:2] = k.introduced_key[1:2] AS in_span
    FROM change_points p
    JOIN builds bb ON bb.id = split_part(p."before", '.', 1)
    JOIN builds ab ON ab.id = split_part(p."after", '.', 1)
    JOIN builds sb ON sb.id = split_part(p.span_before, '.', 1)
    JOIN builds sa ON sa.id = split_part(p.span_after, '.', 1)
    JOIN known k ON k.dbms = p.dbms
    WHERE (coalesce(len(k.servers), 0) = 0 OR list_contains(k.servers, p.server))
      AND (
        (coalesce(len(k.microbenchmarks), 0) = 0 AND coalesce(len(k.groups), 0) = 0)
        OR (p.kind = 'series' AND (list_contains(coalesce(k.microbenchmarks, []), p.microbenchmark)
                                   OR list_contains(coalesce(k.microbenchmarks, []), p.series)
                                   OR list_contains(coalesce(k.groups, []), p."group")))
        OR (p.kind = 'median' AND list_contains(coalesce(k.groups, []), p."group"))
      )
)
SELECT ladder, series, position, coalesce(min(id) FILTER (WHERE in_pair), min(id)) AS known
FROM candidates
WHERE in_pair OR in_span
GROUP BY ALL
ORDER BY ladder, series, position;  -- an order of the values alone, whatever the plan (ingest/previous.py)
