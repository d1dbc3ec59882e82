-- A results row whose campaign, server, build, config or microbenchmark is in no catalog (validate
-- reports these to the contributor first; a row here is Papercuts' bug). One anti-join per
-- reference over the whole table, instead of a lookup per inserted row.
SELECT 'campaign' AS "column", r.campaign AS value FROM results r ANTI JOIN campaigns c ON c.id = r.campaign
UNION ALL
SELECT 'server', r.server FROM results r ANTI JOIN servers s ON s.id = r.server
UNION ALL
SELECT 'build', r.build FROM results r ANTI JOIN builds b ON b.id = r.build
UNION ALL
SELECT 'config', r.config FROM results r ANTI JOIN configs c ON c.id = r.config
UNION ALL
SELECT 'microbenchmark', r.microbenchmark FROM results r ANTI JOIN microbenchmarks m ON m.name = r.microbenchmark
LIMIT 5;
