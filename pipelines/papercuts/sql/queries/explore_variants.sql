-- Every build.config of each server's results and published ratios (base variants included),
-- with what the config diff shows: the build's DBMS, version, compiler, flags and git hash, and
-- the config's settings from configs.csv. The whole site's, by server first (render/explore.py
-- reads it once per process).
WITH v AS (
    SELECT DISTINCT server, build, config FROM server_variants
)
SELECT v.server, v.build || '.' || v.config AS variant, v.build, v.config, b.dbms, b.engine, b.version,
       b.compiler, b.flags, b.git_hash, b.notes AS build_notes, c.settings, c.notes AS config_notes
FROM v JOIN builds b ON b.id = v.build JOIN configs c ON c.id = v.config
ORDER BY v.server, b.dbms, b.engine, b.version_key, v.build, v.config;
