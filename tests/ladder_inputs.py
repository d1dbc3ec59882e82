"""The tables build_ladders reads beside ladder_values, empty, for tests that make their own values:
known regressions (none) and the results papercuts check flags (none, from their schema file)."""
from papercuts.db import SQL

TABLES = """
CREATE TABLE known (id VARCHAR, dbms VARCHAR, introduced_key INTEGER[], servers VARCHAR[],
                    microbenchmarks VARCHAR[], "groups" VARCHAR[]);
""" + (SQL / "schema" / "23_flagged_results.sql").read_text()
