"""Runs of equal rows in Arrow (papercuts/runs.py), which the ladders and the comparison charts
read their rows in."""
from __future__ import annotations

import duckdb
import numpy as np
import pyarrow as pa

from papercuts.render import selection
from papercuts.runs import run_starts


def test_a_run_ends_where_any_column_changes_and_a_null_equals_a_null():
    t = pa.table({"name": ["a", "a", "a", "a", "b", "b"], "range": [None, None, 10, 10, 10, None]})
    assert run_starts(t, ("name", "range")).tolist() == [True, False, True, False, True, True]
    assert run_starts(t, ("name",)).tolist() == [True, False, False, False, True, False]
    assert run_starts(t.slice(0, 0), ("name",)).tolist() == []


def test_a_comparisons_rows_are_labelled_and_ranked_by_group_then_label():
    """selection._Rows: every row of a microbenchmark gets its label (name and range) and the rank
    of (group in GROUP_ORDER, label) among the comparison's; variants are numbered as first met."""
    con = duckdb.connect()
    t = con.sql("""SELECT * FROM (VALUES
        ('point', 'point-query', 10, 1, 'b.c', 1, 'b', 'c'), ('point', 'point-query', 10, 8, 'a.c', 2, 'a', 'c'),
        ('point', 'point-query', NULL, 1, 'b.c', 1, 'b', 'c'), ('range', 'scan', NULL, 1, 'a.c', 2, 'a', 'c'),
        ('write', 'insert', NULL, 1, 'b.c', 1, 'b', 'c'), ('write', 'insert', NULL, 8, 'b.c', 1, 'b', 'c'))
        AS v("group", microbenchmark, "range", threads, variant, version_rank, build, config)""").to_arrow_table()
    rows = selection._Rows(t, {"point-query": "queries/s", "scan": "krows/s", "insert": "queries/s"})
    assert rows.units.take(pa.array(rows.run)).to_pylist() == [
        "queries/s", "queries/s", "queries/s", "krows/s", "queries/s", "queries/s"]
    assert rows.name.tolist() == ["point-query_range=10", "point-query_range=10", "point-query", "scan",
                                  "insert", "insert"]
    assert rows.microbenchmark_rank.tolist() == [1, 1, 0, 2, 3, 3]  # 'point-query' < 'point-query_range=10'
    assert rows.group.tolist() == ["point", "point", "point", "range", "write", "write"]
    assert rows.variants == ["b.c", "a.c"] and rows.variant_code.tolist() == [0, 1, 0, 1, 0, 0]
    assert rows.threads.tolist() == [1, 8, 1, 1, 1, 8]
    # by version (b.c's rank 1 before a.c's 2), never by name; of the rows asked for only
    assert selection._by_version(rows, np.arange(rows.n)) == ["b.c", "a.c"]
    assert selection._by_version(rows, np.array([1, 3])) == ["a.c"]


def test_a_columns_values_in_the_order_the_rows_first_give_them():
    """selection.in_order: a server page's throughput variants come by version as the query
    orders its rows, never by their names (b10 before b9 here)."""
    column = pa.chunked_array([["b10", "b9"], ["b10", "a"]])
    assert selection.in_order(column) == ["b10", "b9", "a"]
