-- The variants (build, config) each campaign holds on each server: measured (results), or in
-- published ratios (relative, their bases included). What the explorer lists per server (its
-- campaigns, variants, my.cnf files) instead of each server's files scanning measured_qps and
-- relative again (x100: four such queries a server, 0.9 s of the render stage's CPU).
-- No floats: made on every core, and for the changed campaigns only in an incremental build
-- (derive/models.py PER_CAMPAIGN).
CREATE TABLE server_variants AS
SELECT campaign, server, build, config, bool_or(measured) AS measured
FROM (
    SELECT DISTINCT campaign, server, build, config, true AS measured FROM measured_qps
    UNION ALL SELECT DISTINCT campaign, server, build, config, false FROM relative
    UNION ALL SELECT DISTINCT campaign, server, base_build, base_config, false FROM relative
)
GROUP BY campaign, server, build, config
ORDER BY campaign, server, build, config;
