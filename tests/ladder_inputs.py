"""The tables build_ladders reads beside ladder_values, empty, for tests that make their own values:
known regressions (none), the results papercuts check flags (none, from their schema file) and the
builds campaigns keep off their ladders (campaigns' comparison_only: none)."""
from papercuts.db import SQL

TABLES = """
CREATE TABLE known (id VARCHAR, dbms VARCHAR, introduced_key INTEGER[], servers VARCHAR[],
                    microbenchmarks VARCHAR[], "groups" VARCHAR[]);
CREATE TABLE campaigns (id VARCHAR, comparison_only VARCHAR[]);
""" + (SQL / "schema" / "23_flagged_results.sql").read_text()
