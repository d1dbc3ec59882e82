"""render/site_rows.py: a unit's part of a whole-site query is what the query for that unit alone
gave: its rows, in order, as new dicts; and a process's first calls, which read their key alone,
give what the whole site's rows give."""
from __future__ import annotations

import re

import duckdb
import pytest

from papercuts.db import query
from papercuts.paths import PROJECT
from papercuts.render import site_rows

QUERIES = {"rows": "SELECT * FROM t ORDER BY server, n DESC", "unordered": "SELECT * FROM t ORDER BY n"}


def _forget():
    site_rows._asked.clear()
    for cached in (site_rows._by, site_rows._columns, site_rows._table):
        cached.cache_clear()


@pytest.fixture
def con(monkeypatch):
    """The whole site's rows from the first call (FIRST 0), unless a test sets FIRST."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('s2', 'a', 1), ('s1', 'b', 2), ('s2', 'c', 3)) "
                "v(server, x, n)")
    monkeypatch.setattr(site_rows, "query", lambda name: query(name) if name == "one_key" else QUERIES[name])
    monkeypatch.setattr(site_rows, "FIRST", 0)
    yield con
    _forget()


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


def test_a_processs_first_calls_read_their_key_alone(con, monkeypatch):
    """An unordered query cannot be sliced, so the first calls' rows are their key's query's: in
    its order; the call after them reads the whole site, and refuses it."""
    monkeypatch.setattr(site_rows, "FIRST", 3)
    assert site_rows.columns_of(con, "unordered", "server", "s2") == {"x": ["a", "c"], "n": [1, 3]}
    assert site_rows.table_of(con, "unordered", "server", "s1").to_pylist() == [{"server": "s1", "x": "b", "n": 2}]
    assert site_rows.columns_of(con, "unordered", "server", "none") == {"x": [], "n": []}
    with pytest.raises(ValueError, match="unordered.sql must order its rows by server first"):
        site_rows.columns_of(con, "unordered", "server", "s2")


def test_a_process_given_more_units_than_its_first_calls_reads_the_whole_site_at_once(con, monkeypatch):
    """render/units.py: a batch of more than FIRST units (a clean build's) reads each query's whole
    site at its first call, which refuses an unordered query; a batch of FIRST (a rebuild's) reads
    each unit's key alone."""
    from papercuts.render.units import Workers

    monkeypatch.setattr(site_rows, "FIRST", 3)
    made = []

    def make(c, root, server):
        made.append(site_rows.columns_of(c, "unordered", "server", server))
        return 1

    with Workers(con) as workers:
        assert workers.make([(make, PROJECT, ("s2",))] * 3) == [1, 1, 1]
    assert made == [{"x": ["a", "c"], "n": [1, 3]}] * 3
    _forget()
    made.clear()
    with Workers(duckdb.connect()) as workers:  # another connection: read_whole is a connection's
        workers.con.execute("CREATE TABLE t AS SELECT 's2' AS server, 'a' AS x, 1 AS n")
        assert workers.make([(make, PROJECT, ("s2",))] * 3) == [1, 1, 1]
    with Workers(con) as workers, pytest.raises(ValueError, match="unordered.sql must order its rows by server"):
        workers.make([(make, PROJECT, ("s2",))] * 4)
    assert len(made) == 3  # the other connection's alone: the first of the four read the whole site


# Every whole-site read of the render package: (function, query, key column).
CALLS = sorted(set(re.findall(r'\b(rows_of|columns_of|table_of)\(con, "(\w+)", "(\w+)"', "".join(
    p.read_text() for p in (PROJECT / "pipelines" / "papercuts" / "render").glob("*.py")))))


def test_every_query_gives_a_key_alone_what_the_whole_site_gives(site):
    """On the shipped site's database, for every key each query holds and one it does not: the
    rows read for the key alone (a rebuild's) are the whole site's rows of that key (a full
    build's), in the same order."""
    assert len(CALLS) >= 20, CALLS
    con = duckdb.connect(str(site.db), read_only=True)
    try:
        for function, name, column in CALLS:
            read = getattr(site_rows, function)
            keys = con.execute(f'SELECT DISTINCT "{column}" FROM ({site_rows._END.sub("", query(name))}\n)').fetchall()
            assert keys, name
            for (key,) in [*keys, ("no such key",)]:
                _forget()
                alone = read(con, name, column, key)
                site_rows._asked[con, name, column] = site_rows.FIRST
                whole = read(con, name, column, key)
                if function == "table_of":
                    alone, whole = alone.to_pylist(), whole.to_pylist()
                assert alone == whole, (name, key)
    finally:
        _forget()
        con.close()
