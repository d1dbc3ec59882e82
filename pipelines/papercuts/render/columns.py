"""A chart's rows held as columns (name -> list, every list as long), from DuckDB's Arrow result.

A chart of the rQPS of one comparison has a row per microbenchmark, variant and thread count
(20,000 at x100 per server); building a dict per row, and reading each back for its CSV, its
typing and its table, was most of the render stage's time. Columns are read whole instead;
iterating still gives each row as a dict, for code that reads a chart's rows one by one.

Columns made of an Arrow table keep it (`table`): a column becomes a list only when asked for,
and a chart's data file is typed, joined and written from the table itself (datafile.share,
tables.to_csv), with no Python value per cell. The lists are the table's values, as to_pylist
gives them: code that reads them cannot tell the two kinds of Columns apart.
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
        self._lists = data
        self._names = list(data)
        self._rows = lengths.pop() if lengths else 0
        self.table: pa.Table | None = None

    @classmethod
    def of_rows(cls, rows: list[dict], names: list[str]) -> Columns:
        return cls({n: [r.get(n) for r in rows] for n in names})

    @classmethod
    def of_arrow(cls, table: pa.Table, lists: dict[str, list] | None = None) -> Columns:
        """The table's columns, each a list when first read (`lists`: some already made)."""
        out = cls({})
        out.table, out._names, out._rows = table, table.column_names, table.num_rows
        out._lists = {n: v for n, v in (lists or {}).items() if n in out._names}
        return out

    @property
    def names(self) -> list[str]:
        return list(self._names)

    def __len__(self) -> int:
        return self._rows

    def __getitem__(self, name: str) -> list:
        found = self._lists.get(name)
        if found is None:
            if self.table is None or name not in self._names:
                raise KeyError(name)
            found = self._lists[name] = self.table.column(name).to_pylist()
        return found

    def has_none(self, name: str) -> bool:
        """Whether a row leaves this column empty (a table's: counted, no list made)."""
        return self.table.column(name).null_count > 0 if self.table is not None else None in self[name]

    def __contains__(self, name: str) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[dict]:
        names = self.names
        return (dict(zip(names, values, strict=True)) for values in zip(*(self[n] for n in names), strict=True))

    def without(self, *names: str) -> Columns:
        if self.table is not None:
            return Columns.of_arrow(self.table.drop_columns([n for n in names if n in self._names]), self._lists)
        return Columns({n: self._lists[n] for n in self._names if n not in names})


def arrow_of(con: duckdb.DuckDBPyConnection, sql: str, params: dict) -> pa.Table:
    """A query's result as an Arrow table, on a cursor (its own connection to the database): a
    result another query left unread on `con` (fetchone) would refuse a relation's query there."""
    cur = con.cursor()
    try:
        return cur.sql(sql, params=params).to_arrow_table()
    finally:
        cur.close()
