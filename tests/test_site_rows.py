"""render/site_rows.py: a unit's part of a whole-site query is what the query for that unit alone
gave: its rows, in order, as new dicts."""
from __future__ import annotations

import duckdb
import pytest

from papercuts.render import site_rows


@pytest.fixture
def con(monkeypatch):
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('s2', 'a', 1), ('s1', 'b', 2), ('s2', 'c', 3)) "
                "v(server, x, n)")
    monkeypatch.setattr(site_rows, "query", lambda name: {"rows": "SELECT * FROM t ORDER BY server, n DESC",
                                                          "unordered": "SELECT * FROM t ORDER BY n"}[name])
    yield con
    for cached in (site_rows._by, site_rows._columns, site_rows._table):
        cached.cache_clear()


def test_a_units_rows_are_its_own_in_the_querys_order(con):
    assert site_rows.rows_of(con, "rows", "server", "s2") == [{"x": "c", "n": 3}, {"x": "a", "n": 1}]
    assert site_rows.rows_of(con, "rows", "server", "s1", keep=True) == [{"server": "s1", "x": "b", "n": 2}]
    assert site_rows.rows_of(con, "rows", "server", "none") == []


def test_a_caller_changing_its_rows_changes_no_other_units(con):
    site_rows.rows_of(con, "rows", "server", "s2", keep=True)[0]["x"] = "changed"
    assert site_rows.rows_of(con, "rows", "server", "s2", keep=True)[0]["x"] == "c"


def test_a_units_columns_and_arrow_slice_are_its_rows(con):
    """columns_of and table_of slice the whole site's rows, which the query orders by the key."""
    assert site_rows.columns_of(con, "rows", "server", "s2") == {"x": ["c", "a"], "n": [3, 1]}
    assert site_rows.columns_of(con, "rows", "server", "none") == {"x": [], "n": []}
    assert site_rows.table_of(con, "rows", "server", "s2").to_pylist() == [
        {"server": "s2", "x": "c", "n": 3}, {"server": "s2", "x": "a", "n": 1}]
    assert site_rows.table_of(con, "rows", "server", "s1").to_pylist() == [{"server": "s1", "x": "b", "n": 2}]
    assert site_rows.table_of(con, "rows", "server", "none").num_rows == 0


def test_a_query_that_does_not_order_by_the_key_is_refused(con):
    """s2's rows apart (n 1, 2, 3: s2, s1, s2): a slice would give s2 one of its rows only."""
    with pytest.raises(ValueError, match="unordered.sql must order its rows by server first"):
        site_rows.columns_of(con, "unordered", "server", "s2")
    with pytest.raises(ValueError, match="unordered.sql must order its rows by server first"):
        site_rows.table_of(con, "unordered", "server", "s2")
