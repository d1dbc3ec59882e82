-- The change points of every server's ladders, each ladder's largest first (ties by series, then
-- by position: a total order), with the known regression each is, if any, and its flagged values.
-- The whole site's, read once per process and looked up by server (render/site_rows.py).
SELECT p.server, p.ladder, p.series, p.kind, p."group", p.position, p."before", p."after", p.before_version,
       p.after_version, p.span_before, p.span_after, p.span_before_version, p.span_after_version, p.change,
       p.direction, p.pvalue, k.id AS known, k.title AS known_title, k.status AS known_status, cf.flagged
FROM change_points p
LEFT JOIN change_known ck ON ck.ladder = p.ladder AND ck.series = p.series AND ck.position = p.position
LEFT JOIN known k ON k.id = ck.known
LEFT JOIN change_flagged cf ON cf.ladder = p.ladder AND cf.series = p.series AND cf.position = p.position
ORDER BY p.ladder, p.kind DESC, abs(ln(1 + p.change)) DESC, p.series, p.position;
