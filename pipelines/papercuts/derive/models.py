"""Stage 3: derived tables (rQPS, summaries), one SQL model per file, then the version ladders."""
from __future__ import annotations

import duckdb

from ..db import on_threads, sql_files, table_name
from .ladders import build_ladders

# Models made on every core: their rows are ordered in full (ORDER BY to the last tie) and they
# add no floats, so no thread's timing can change a value or a row's place. The others run on one
# thread: a parallel aggregate adds a group's floats in the order its threads finish, so avg() and
# regr_*() could differ in the last bit from one build to the next (the shipped data's
# rqps_summary did, and its summary charts' CSVs with it).
ALL_CORES = ("rqps", "ladder_values")


def derive(con: duckdb.DuckDBPyConnection, kept: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Every derived table; the ladders of `kept` campaigns (unchanged since the last build, whose
    database ingest left attached) are copied from it, not searched again."""
    with on_threads(con, 1) as cores:
        done = []
        for path in sql_files("models"):
            with on_threads(con, cores if table_name(path) in ALL_CORES else None):
                con.execute(path.read_text())
            done.append(path.stem)
        build_ladders(con, cores, kept)
        done.append("ladders")
        return done
