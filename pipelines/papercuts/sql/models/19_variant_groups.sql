-- Every campaign's build.config variants (bases of published ratios included): the variants that
-- can share a chart, each with what orders them (queries/variant_groups.sql: the site-wide colours
-- are assigned in that order). Every render process read them from every result (x100: a
-- 10^6-row DISTINCT, 0.03 s a process, three processes in a rebuild); made here once, and for the
-- changed campaigns only in an incremental build (derive/models.py PER_CAMPAIGN). No floats: made
-- on every core.
CREATE TABLE variant_groups AS
WITH v AS (
    SELECT DISTINCT campaign, build, config FROM results
    UNION SELECT DISTINCT campaign, build, config FROM relative
    UNION SELECT DISTINCT campaign, base_build, base_config FROM relative
)
SELECT v.campaign, v.build || '.' || v.config AS variant, b.dbms, b.engine, b.version_key, v.build, v.config
FROM v JOIN builds b ON b.id = v.build
ORDER BY v.campaign, b.dbms, b.engine, b.version_key, v.build, v.config;
