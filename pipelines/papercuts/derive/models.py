"""Stage 3: derived tables (rQPS, summaries), one SQL model per file, then the version ladders."""
from __future__ import annotations

import duckdb

from ..db import on_threads, sql_files
from .ladders import build_ladders


def derive(con: duckdb.DuckDBPyConnection, kept: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Every derived table; the ladders of `kept` campaigns (unchanged since the last build, whose
    database ingest left attached) are copied from it, not searched again."""
    # On one thread: a parallel aggregate adds a group's floats in the order its threads finish,
    # so avg() and regr_*() could differ in the last bit from one build to the next (the shipped
    # data's rqps_summary did, and its summary charts' CSVs with it). One thread is as fast here
    # (0.60-0.64 s against 0.67-0.73 s at x10): the models are small next to DuckDB's floor.
    with on_threads(con, 1) as cores:
        done = []
        for path in sql_files("models"):
            con.execute(path.read_text())
            done.append(path.stem)
        build_ladders(con, cores, kept)
        done.append("ladders")
        return done
