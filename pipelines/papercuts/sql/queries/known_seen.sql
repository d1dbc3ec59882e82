-- Every known regression (data/known/) and where this site shows it: how many change points of
-- the version ladders it labels (known_matches.sql) and the ladder pages they are on.
WITH labelled AS (
    SELECT ck.known, count(*) AS changes,
           list(DISTINCT {'server': l.server, 'dbms': l.dbms, 'threads': l.threads}
                ORDER BY {'server': l.server, 'dbms': l.dbms, 'threads': l.threads}) AS pages
    FROM change_known ck JOIN ladders l ON l.ladder = ck.ladder
    GROUP BY ck.known
)
SELECT k.id, k.title, k.status, k.dbms, k.introduced, k.explanation, k.microbenchmarks, k.groups, k.servers,
       k.bugs, k.investigation, coalesce(lb.changes, 0) AS changes, coalesce(lb.pages, []) AS pages
FROM known k LEFT JOIN labelled lb ON lb.known = k.id
ORDER BY k.dbms, k.introduced_key, k.id;
