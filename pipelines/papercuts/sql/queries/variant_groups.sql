-- Every campaign's build.config variants (bases of published ratios included): the variants that
-- can share a chart (models/19_variant_groups.sql). Campaigns oldest first, variants by version, so
-- the site-wide colours that colours.variant_colours assigns in this order keep older campaigns'
-- colours as newer ones land.
SELECT campaign, variant FROM variant_groups
ORDER BY campaign, dbms, engine, version_key, build, config;
