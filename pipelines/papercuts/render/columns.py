"""A chart's rows held as columns (name -> list, every list as long), from DuckDB's Arrow result.

A chart of the rQPS of one comparison has a row per microbenchmark, variant and thread count
(20,000 at x100 per server); building a dict per row, and reading each back for its CSV, its
typing and its table, was most of the render stage's time. Columns are read whole instead;
iterating still gives each row as a dict, for code that reads a chart's rows one by one.
"""
from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pyarrow as pa


class Columns:
    def __init__(self, data: dict[str, list]) -> None:
        lengths = {len(v) for v in data.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        self.data = data
        self._rows = lengths.pop() if lengths else 0

    @classmethod
    def of_rows(cls, rows: list[dict], names: list[str]) -> Columns:
        return cls({n: [r.get(n) for r in rows] for n in names})

    @classmethod
    def of_arrow(cls, table: pa.Table) -> Columns:
        return cls({name: table.column(name).to_pylist() for name in table.column_names})

    @property
    def names(self) -> list[str]:
        return list(self.data)

    def __len__(self) -> int:
        return self._rows

    def __getitem__(self, name: str) -> list:
        return self.data[name]

    def __contains__(self, name: str) -> bool:
        return name in self.data

    def __iter__(self) -> Iterator[dict]:
        names = self.names
        return (dict(zip(names, values, strict=True)) for values in zip(*self.data.values(), strict=True))

    def without(self, *names: str) -> Columns:
        return Columns({n: v for n, v in self.data.items() if n not in names})


def arrow_of(con: duckdb.DuckDBPyConnection, sql: str, params: dict) -> pa.Table:
    """A query's result as an Arrow table, on a cursor (its own connection to the database): a
    result another query left unread on `con` (fetchone) would refuse a relation's query there."""
    cur = con.cursor()
    try:
        return cur.sql(sql, params=params).to_arrow_table()
    finally:
        cur.close()
