"""Rows of the small tables that many page units each read a part of, fetched once per process.

A unit asked for its own part: one server's comparisons, calibrations, profiles, published
summaries and ladder pages, one campaign's ladder pages and reproduction score, one source. Each
such query took 1.5-6 ms, most of it DuckDB preparing it, and ran 60-138 times at x100 (about
1.2 s of the render stage's CPU). These tables hold a few hundred to a few thousand rows, so the
whole site's rows cost about one query's time: a rebuild that makes a few units pays no more.
"""
from __future__ import annotations

from functools import lru_cache

import duckdb

from ..db import fetch_dicts, query


@lru_cache(maxsize=64)  # per process and connection (a worker's lasts for every unit it makes)
def _by(con: duckdb.DuckDBPyConnection, name: str, column: str) -> dict:
    out: dict = {}
    for row in fetch_dicts(con, query(name)):
        out.setdefault(row[column], []).append(row)
    return out


def rows_of(con: duckdb.DuckDBPyConnection, name: str, column: str, value, keep: bool = False) -> list[dict]:
    """The rows of the whole-site query `name` whose `column` is `value`, in the query's order,
    as new dicts (a caller may change them); without that column unless `keep`."""
    return [dict(r) if keep else {k: v for k, v in r.items() if k != column}
            for r in _by(con, name, column).get(value, [])]
