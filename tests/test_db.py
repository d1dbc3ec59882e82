"""Bulk inserts (db.insert_columns): Arrow arrays, or DuckDB's own conversion where Arrow cannot
type a column; either way the table holds the values as DuckDB casts them."""
from __future__ import annotations

import duckdb

from papercuts.db import fetch_columns, insert_columns


def test_typed_and_mixed_columns_insert_the_same_values():
    con = duckdb.connect()
    con.execute("CREATE TABLE t (name VARCHAR, qps DOUBLE, runs INTEGER, key INTEGER[])")
    insert_columns(con, "t", ["name", "qps", "runs", "key"], [["a", "b"], [1.5, None], [3, 1], [[8, 0], [5, 7]]])
    # a column holding text and a number: Arrow refuses to type it, DuckDB casts each value
    insert_columns(con, "t", ["name", "qps", "runs", "key"], [["c", 7], [2, 2.5], [None, 2], [[1], []]])
    assert con.execute("SELECT * FROM t").fetchall() == [
        ("a", 1.5, 3, [8, 0]), ("b", None, 1, [5, 7]), ("c", 2.0, None, [1]), ("7", 2.5, 2, [])]
    insert_columns(con, "t", ["name"], [[]])  # nothing to insert
    assert con.execute("SELECT count(*) FROM t").fetchone() == (4,)


def test_fetch_columns_gives_each_column_as_a_list_and_names_them_when_no_row_comes():
    """db.fetch_columns, the explorer's small queries: a list per column, in the query's order of
    columns and rows; with no row, every column is still named (an empty list, not a missing key)."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1, [2]), ('b', NULL, NULL)) v(s, n, l)")
    assert fetch_columns(con, "SELECT n, s, l FROM t ORDER BY s") == {"n": [1, None], "s": ["a", "b"], "l": [[2], None]}
    assert fetch_columns(con, "SELECT s, n FROM t WHERE s = $s", {"s": "z"}) == {"s": [], "n": []}
