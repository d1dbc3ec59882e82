"""The DuckDB file: SQL files run in their declared (file-name) order."""
from __future__ import annotations

from pathlib import Path

import duckdb

SQL = Path(__file__).parent / "sql"


def sql_files(folder: str) -> list[Path]:
    return sorted((SQL / folder).glob("*.sql"))


def query(name: str) -> str:
    return (SQL / "queries" / f"{name}.sql").read_text()


def table_name(path: Path) -> str:
    """'03_rqps.sql' holds the model 'rqps'."""
    return path.stem.split("_", 1)[1]


def fetch_dicts(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
