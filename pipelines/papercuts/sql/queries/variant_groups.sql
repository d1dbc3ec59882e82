-- Every campaign's build.config variants (bases of published ratios included): the variants that
-- can share a chart. Campaigns oldest first, variants by version, so the site-wide colours that
-- colours.variant_colours assigns in this order keep older campaigns' colours as newer ones land.
WITH v AS (
    SELECT DISTINCT campaign, build, config FROM results
    UNION SELECT DISTINCT campaign, build, config FROM relative
    UNION SELECT DISTINCT campaign, base_build, base_config FROM relative
)
SELECT v.campaign, v.build || '.' || v.config AS variant
FROM v JOIN builds b ON b.id = v.build
ORDER BY v.campaign, b.dbms, b.engine, b.version_key, v.build, v.config;
