"""The DuckDB file: SQL files run in their declared (file-name) order."""
from __future__ import annotations

from contextlib import contextmanager
from functools import cache
from pathlib import Path

import duckdb
import pyarrow as pa

SQL = Path(__file__).parent / "sql"


def sql_files(folder: str) -> list[Path]:
    return sorted((SQL / folder).glob("*.sql"))


def tables_of(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables of the database `con` has in use (its main schema), not of one it attached."""
    return {name for (name,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main'").fetchall()}


@cache
def query(name: str) -> str:
    """sql/queries/<name>.sql, read once per process (it is part of the code), not at every chart
    and page; a process that builds again after its SQL files are edited must cache_clear() it."""
    return (SQL / "queries" / f"{name}.sql").read_text()


@contextmanager
def on_threads(con: duckdb.DuckDBPyConnection, n: int | None):
    """DuckDB on n threads within the block (None: as it was), then as it was before."""
    before = con.execute("SELECT current_setting('threads')").fetchone()[0]
    con.execute(f"SET threads = {int(n or before)}")
    try:
        yield int(before)
    finally:
        con.execute(f"SET threads = {int(before)}")


def table_name(path: Path) -> str:
    """'04_rqps.sql' holds the model 'rqps'."""
    return path.stem.split("_", 1)[1]


def fetch_dicts(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def fetch_columns(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> dict[str, list]:
    """A small result as {column: list}: fetched as tuples, which for a few hundred rows is faster
    than through Arrow (x100: 1-1.5 ms less a query, six queries a server's explorer file)."""
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    rows = cur.fetchall()
    return dict(zip(names, map(list, zip(*rows, strict=True)), strict=True)) if rows else {n: [] for n in names}


def release_arrow_memory() -> None:
    """Give back what Arrow's allocator (mimalloc) kept of the columns ingest and derive made:
    it keeps freed memory for reuse, and the forked render workers and Hugo come after (x100: the
    build's process held 442 MB with nothing live in it, 198 MB once released)."""
    pa.default_memory_pool().release_unused()


def insert_columns(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], values: list[list]) -> None:
    """Insert rows given column by column, in bulk: each column becomes an Arrow array (typed in C,
    from the Python values as they are) that DuckDB reads and casts to the table's types, as it
    would the Python values. A column Arrow cannot type (mixed kinds of value) goes through
    DuckDB's own conversion, in one statement through unnest (never executemany, one statement
    per row: 6 s for the ladders of 10^5 results)."""
    if not values or not values[0]:
        return
    try:
        incoming = pa.table({f"c{i}": pa.array(v) for i, v in enumerate(values)})
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        selects = ", ".join(f"unnest(${i + 1})" for i in range(len(columns)))
        con.execute(f"INSERT INTO {table} ({_quoted(columns)}) SELECT {selects}", values)
        return
    insert_arrow(con, table, columns, incoming)


def insert_arrow(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], incoming: pa.Table) -> None:
    """Insert an Arrow table's rows, its columns in the order of `columns` (DuckDB casts each to
    the table's type)."""
    con.register("_incoming", incoming)
    try:
        con.execute(f"INSERT INTO {table} ({_quoted(columns)}) SELECT * FROM _incoming")
    finally:
        con.unregister("_incoming")


def arrow_schema(con: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> pa.Schema:
    """The Arrow types DuckDB gives these columns of a table."""
    return con.sql(f"SELECT {_quoted(columns)} FROM {table} LIMIT 0").to_arrow_table().schema


def _quoted(columns: list[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)
