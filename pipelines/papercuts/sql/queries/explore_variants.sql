-- Every build.config of one server's results and published ratios (base variants included),
-- with what the config diff shows: the build's DBMS, version, compiler, flags and git hash, and
-- the config's settings from configs.csv.
WITH v AS (
    SELECT DISTINCT build, config FROM server_variants WHERE server = $server
)
SELECT v.build || '.' || v.config AS variant, v.build, v.config, b.dbms, b.engine, b.version,
       b.compiler, b.flags, b.git_hash, b.notes AS build_notes, c.settings, c.notes AS config_notes
FROM v JOIN builds b ON b.id = v.build JOIN configs c ON c.id = v.config
ORDER BY b.dbms, b.engine, b.version_key, v.build, v.config;
