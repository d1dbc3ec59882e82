"""The tables build_ladders reads beside ladder_values, empty, for tests that make their own values:
known regressions (none), the results papercuts check flags (none, from their schema file) and the
builds campaigns keep off their ladders (campaigns' comparison_only: none)."""
from papercuts.db import SQL

TABLES = """
CREATE TABLE known (id VARCHAR, dbms VARCHAR, introduced_key INTEGER[], servers VARCHAR[],
                    microbenchmarks VARCHAR[], "groups" VARCHAR[]);
CREATE TABLE campaigns (id VARCHAR, comparison_only VARCHAR[]);
""" + (SQL / "schema" / "23_flagged_results.sql").read_text()

# A table of values given as names (ladder_values in its old shape: campaign, server, dbms, engine,
# family, threads, build, config, version, microbenchmark, range, group, value, repetitions,
# log_var; stored in ladder order) made into what the search reads (sql/models/03_*, 04_*):
# the variants in that order, and the values naming their variant and microbenchmark by number.
SPLIT = """
ALTER TABLE ladder_values RENAME TO wide_values;
CREATE TABLE ladder_variants AS
SELECT campaign, server, dbms, engine, family, threads, build, config, version
FROM wide_values GROUP BY ALL ORDER BY min(rowid);
CREATE TABLE IF NOT EXISTS microbenchmarks AS SELECT DISTINCT microbenchmark AS name, "group" FROM wide_values;
CREATE TABLE ladder_values AS
SELECT w.rowid AS variant, v.campaign, m.number AS microbenchmark, v."range", v.value, v.repetitions, v.log_var
FROM wide_values v
JOIN ladder_variants w
  ON w.campaign = v.campaign AND w.server = v.server AND w.dbms = v.dbms AND w.engine = v.engine
 AND w.family = v.family AND w.threads = v.threads AND w.build = v.build AND w.config = v.config
JOIN (SELECT name, row_number() OVER (ORDER BY name) AS number FROM microbenchmarks) m ON m.name = v.microbenchmark;
"""
# The values with their names again, as the ladder_values of SPLIT's input (a site's too).
WIDE = """(
    SELECT w.*, m.name AS microbenchmark, v."range", m."group", v.value, v.repetitions, v.log_var
    FROM ladder_values v
    JOIN ladder_variants w ON w.rowid = v.variant
    JOIN (SELECT name, "group", row_number() OVER (ORDER BY name) AS number FROM microbenchmarks) m
      ON m.number = v.microbenchmark
)"""
