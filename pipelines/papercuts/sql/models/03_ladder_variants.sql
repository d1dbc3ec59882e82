-- The variants (build, config) of every version ladder (derive/ladders.py), ladder by ladder
-- (campaign first), builds by version, to the last tie: a ladder's builds are read from here, and
-- its values (04_ladder_values) name their variant by its place here (rowid). A ladder is one
-- campaign, server, DBMS, engine, config family and thread count; the config family is the
-- config id without mytools' template token (z12a_c8r32 and z12b_c8r32 are one family,
-- z12a_gtid_c32r128 another), so that a template bump does not split a ladder. A variant is
-- measured, or, where the campaign measured nothing on that server at that thread count, in
-- published ratios (their bases too): its origin, which 04_ladder_values joins on, so that this
-- rule is written here alone. Builds by version are by their rank (00_build_order).
-- Made in ladder order here, for its 25,000 variants (x100), not for its 10^6 values: sorting the
-- values on these keys and storing them took 2.2 of derive's 8 CPU s. In an incremental build,
-- made for the changed campaigns only, appended (derive/models.py PER_CAMPAIGN).
CREATE TABLE ladder_variants AS
WITH measured AS (
    SELECT DISTINCT campaign, server, threads, build, config, 'measured' AS origin FROM measured_qps
), published AS (
    SELECT campaign, server, threads, build, config, 'published' AS origin FROM relative
    UNION
    SELECT campaign, server, threads, base_build, base_config, 'published' FROM relative
), v AS (
    SELECT * FROM measured
    UNION ALL
    SELECT p.* FROM published p
    WHERE NOT EXISTS (SELECT 1 FROM measured m WHERE m.campaign = p.campaign AND m.server = p.server
                      AND m.threads = p.threads)
)
SELECT v.campaign, v.server, b.dbms, b.engine, regexp_replace(v.config, '^[xz][0-9]+[a-z]*_', '') AS family,
       v.threads, v.build, v.config, b.version, v.origin
FROM v
JOIN builds b ON b.id = v.build
JOIN build_order o ON o.build = v.build
ORDER BY v.campaign, v.server, b.dbms, b.engine, family, v.threads, o.rank, v.config;
