"""Rows of the small tables that many page units each read a part of, fetched once per process.

A unit asked for its own part: one server's comparisons, calibrations, profiles, published
summaries and ladder pages, one campaign's ladder pages and reproduction score, one source. Each
such query took 1.5-6 ms, most of it DuckDB preparing it, and ran 60-138 times at x100 (about
1.2 s of the render stage's CPU). These tables hold a few hundred to a few thousand rows, so the
whole site's rows cost about one query's time: a rebuild that makes a few units pays no more.
Larger ones (a server's explorer files, every ladder's lines, every comparison's costs) are read
as columns or as Arrow and sliced: their query orders them by the key, so a unit's rows are one
run of them.
A rebuild's process makes a few units, for which the whole site's rows cost more than the units
(x100, a fresh process: ladder_changes 190 ms against 14 ms for one server's, op_costs_selection
132 against 10 ms for one campaign's). So a process's first FIRST calls for a query read only the
key asked, through the query with that filter (one_key.sql), and the whole site only after them;
but a process given more than FIRST units at once (a clean build's) reads the whole site from
the first call (read_whole): at x100, the calls before it were 0.37 s of the workers' 2.05 s
of queries (643 of them; 475 so), in a run the machine slowed.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from itertools import groupby

import duckdb
import pyarrow as pa

from ..db import fetch_columns, fetch_dicts, query
from .columns import arrow_of

_END = re.compile(r";\s*(--[^\n]*)?\s*\Z")  # a query file's last ';', and a comment after it
FIRST = 3  # calls per process and query answered for their key alone (a rebuild makes 1-3 units a process)
_asked: Counter = Counter()
_whole: set = set()  # the connections read_whole was called with


def read_whole(con: duckdb.DuckDBPyConnection) -> None:
    """Many units are made with this connection: each query's whole-site rows are read at its first
    call."""
    _whole.add(con)


def _alone(con: duckdb.DuckDBPyConnection, name: str, column: str, value) -> str | None:
    """The query for `value`'s rows alone, while this process has asked `name` fewer than FIRST
    times; else None (the whole site's rows, read once). Keys are text: a value of another type
    is looked up in the whole site's rows, as Python compares it."""
    _asked[con, name, column] += 1
    if con in _whole or _asked[con, name, column] > FIRST or not isinstance(value, str):
        return None
    return query("one_key").format(query=_END.sub("", query(name)), column=column)


@lru_cache(maxsize=64)  # per process and connection (a worker's lasts for every unit it makes)
def _by(con: duckdb.DuckDBPyConnection, name: str, column: str) -> dict:
    out: dict = {}
    for row in fetch_dicts(con, query(name)):
        out.setdefault(row[column], []).append(row)
    return out


def rows_of(con: duckdb.DuckDBPyConnection, name: str, column: str, value, keep: bool = False) -> list[dict]:
    """The rows of the whole-site query `name` whose `column` is `value`, in the query's order,
    as new dicts (a caller may change them); without that column unless `keep`."""
    alone = _alone(con, name, column, value)
    rows = fetch_dicts(con, alone, {"value": value}) if alone else _by(con, name, column).get(value, [])
    return [dict(r) if keep else {k: v for k, v in r.items() if k != column} for r in rows]


def columns_of(con: duckdb.DuckDBPyConnection, name: str, column: str, value) -> dict[str, list]:
    """As rows_of, as {column: list} (without `column`): a slice of the whole site's columns, no
    object per row. `name` orders its rows by `column` first."""
    if alone := _alone(con, name, column, value):
        return {k: v for k, v in fetch_columns(con, alone, {"value": value}).items() if k != column}
    columns, at = _columns(con, name, column)
    start, stop = at.get(value, (0, 0))
    return {k: v[start:stop] for k, v in columns.items() if k != column}


def table_of(con: duckdb.DuckDBPyConnection, name: str, column: str, value) -> pa.Table:
    """As rows_of, as an Arrow slice of the whole site's table (every column). `name` orders its
    rows by `column` first."""
    if alone := _alone(con, name, column, value):
        return arrow_of(con, alone, {"value": value})
    table, at = _table(con, name, column)
    start, stop = at.get(value, (0, 0))
    return table.slice(start, stop - start)


@lru_cache(maxsize=16)  # per process and connection, as _by
def _columns(con: duckdb.DuckDBPyConnection, name: str, column: str) -> tuple[dict[str, list], dict]:
    columns = fetch_columns(con, query(name))
    return columns, _spans(columns[column], name, column)


@lru_cache(maxsize=16)  # per process and connection, as _by
def _table(con: duckdb.DuckDBPyConnection, name: str, column: str) -> tuple[pa.Table, dict]:
    table = arrow_of(con, query(name), {})
    return table, _spans(table.column(column).to_pylist(), name, column)


def _spans(keys: list, name: str, column: str) -> dict:
    """Where each value's run of rows starts and stops; a value in two runs is the query's error."""
    at: dict = {}
    start = 0
    for key, run in groupby(keys):
        if key in at:
            raise ValueError(f"{name}.sql must order its rows by {column} first")
        at[key] = (start, start := start + sum(1 for _ in run))
    return at
