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
    monkeypatch.setattr(site_rows, "query", lambda name: {"rows": "SELECT * FROM t ORDER BY server, n DESC"}[name])
    yield con
    site_rows._by.cache_clear()


def test_a_units_rows_are_its_own_in_the_querys_order(con):
    assert site_rows.rows_of(con, "rows", "server", "s2") == [{"x": "c", "n": 3}, {"x": "a", "n": 1}]
    assert site_rows.rows_of(con, "rows", "server", "s1", keep=True) == [{"server": "s1", "x": "b", "n": 2}]
    assert site_rows.rows_of(con, "rows", "server", "none") == []


def test_a_caller_changing_its_rows_changes_no_other_units(con):
    site_rows.rows_of(con, "rows", "server", "s2", keep=True)[0]["x"] = "changed"
    assert site_rows.rows_of(con, "rows", "server", "s2", keep=True)[0]["x"] == "c"
