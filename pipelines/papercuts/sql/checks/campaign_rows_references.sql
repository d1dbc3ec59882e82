-- A row of a table of campaign rows (results' own: results_references.sql) whose campaign,
-- server, build, config or microbenchmark is in no catalog (validate reports these to the
-- contributor first; a row here is Papercuts' bug). Checked over the loaded tables, not as
-- REFERENCES: DuckDB neither drops a catalog that a table names nor drops the constraint, so a
-- build could not keep the contract's tables (relative, summaries, observations) in a copy of the
-- last database while it makes the catalogs again, and copied their kept rows instead
-- (ingest/previous.py; x100, one campaign added: 0.07-0.14 s of the rebuild on a loaded
-- machine). A null (observations' server) names nothing.
SELECT 'campaign' AS "column", v AS value FROM (
    SELECT campaign AS v FROM relative UNION ALL SELECT campaign FROM summaries
    UNION ALL SELECT campaign FROM observations UNION ALL SELECT campaign FROM counters
    UNION ALL SELECT campaign FROM profiles UNION ALL SELECT campaign FROM raw_files
    UNION ALL SELECT campaign FROM evidence UNION ALL SELECT campaign FROM reproductions
    UNION ALL SELECT campaign FROM tree_checks
) ANTI JOIN campaigns c ON c.id = v
UNION ALL
SELECT 'server', v FROM (
    SELECT server AS v FROM relative UNION ALL SELECT server FROM summaries
    UNION ALL SELECT server FROM observations WHERE server IS NOT NULL
    UNION ALL SELECT server FROM counters UNION ALL SELECT server FROM profiles
) ANTI JOIN servers s ON s.id = v
UNION ALL
SELECT 'build', v FROM (
    SELECT build AS v FROM relative UNION ALL SELECT base_build FROM relative
    UNION ALL SELECT build FROM summaries UNION ALL SELECT base_build FROM summaries
    UNION ALL SELECT build FROM counters UNION ALL SELECT build FROM profiles
) ANTI JOIN builds b ON b.id = v
UNION ALL
SELECT 'config', v FROM (
    SELECT config AS v FROM relative UNION ALL SELECT base_config FROM relative
    UNION ALL SELECT config FROM summaries UNION ALL SELECT base_config FROM summaries
    UNION ALL SELECT config FROM counters UNION ALL SELECT config FROM profiles
) ANTI JOIN configs c ON c.id = v
UNION ALL
SELECT 'microbenchmark', v FROM (
    SELECT microbenchmark AS v FROM relative UNION ALL SELECT microbenchmark FROM counters
    UNION ALL SELECT microbenchmark FROM profiles
) ANTI JOIN microbenchmarks m ON m.name = v
LIMIT 5;
