"""codes.sorted_by orders a query's rows in numpy as DuckDB's ORDER BY would have (the render
queries of 20,000 rows a unit are no longer sorted by DuckDB): ascending, nulls last, text by its
bytes (upper case before lower, 'Z' before 'a', accents after ASCII), numbers as numbers."""
from __future__ import annotations

import random

import duckdb
import pyarrow as pa
import pytest

from papercuts.codes import ranks, sorted_by

TEXTS = ["", "a", "B", "b", "Z", "é", "e", "10", "9", "a b", "ä", "日本", "x.y", "x-y", None]
INTS = [-(2 ** 40), -3, 0, 1, 2, 9, 10, 2 ** 40, None]


def _table(rows: int, seed: int) -> pa.Table:
    rnd = random.Random(seed)
    return pa.table({"t": pa.array([rnd.choice(TEXTS) for _ in range(rows)], pa.string()),
                     "i": pa.array([rnd.choice(INTS) for _ in range(rows)], pa.int64()),
                     "s": pa.array([rnd.choice(INTS[1:6]) for _ in range(rows)], pa.int32()),
                     "u": pa.array(range(rows), pa.int64())})  # a last key: no two rows tie


@pytest.mark.parametrize("order", [["t", "u"], ["i", "u"], ["s", "t", "i", "u"], ["i", "t", "s", "u"]])
@pytest.mark.parametrize("seed", [1, 2])
def test_rows_come_in_the_order_duckdb_gives_them(order, seed):
    table = _table(400, seed)
    con = duckdb.connect()
    con.register("rows", table.take(pa.array(random.Random(seed).sample(range(400), 400))))  # shuffled
    expected = con.sql(f"SELECT * FROM rows ORDER BY {', '.join(order)}").to_arrow_table()
    shuffled = con.sql("SELECT * FROM rows").to_arrow_table()
    assert sorted_by(shuffled, order).equals(expected)


def test_ties_keep_their_order_and_odd_columns_are_refused():
    table = pa.table({"k": pa.array(["b", "a", "b", None, "a"]), "n": [0, 1, 2, 3, 4]})
    assert sorted_by(table, ["k"]).column("n").to_pylist() == [1, 4, 0, 2, 3]
    nulls = pa.table({"k": pa.array([None, None], pa.string()), "n": [1, 0]})
    assert sorted_by(nulls, ["k", "n"]).column("n").to_pylist() == [0, 1]
    assert sorted_by(table.slice(0, 0), ["k"]).num_rows == 0
    with pytest.raises(TypeError, match="not text or whole numbers"):
        sorted_by(pa.table({"x": [0.5, 0.25]}), ["x"])


@pytest.mark.parametrize(("values", "kind"), [
    ([-100, 100, None, 5, -100, 27], pa.int8()),  # counted: the offsets must not wrap in int8
    ([2 ** 64 - 1, 2 ** 64 - 3, None, 2 ** 64 - 1], pa.uint64()),  # counted, near the top of uint64
    ([-(2 ** 40), 7, None, 2 ** 40, 7], pa.int64()),  # too wide to count: sorted
    ([None, None], pa.int32()), ([], pa.int16()), ([3, 1, 2, 3], pa.int32())])
def test_whole_numbers_rank_as_their_distinct_values_sort(values, kind):
    distinct = sorted({v for v in values if v is not None})
    expected = [distinct.index(v) if v is not None else len(distinct) for v in values]
    assert ranks(pa.array(values, kind)).tolist() == expected
    assert ranks(pa.chunked_array([pa.array(values, kind)])).tolist() == expected


# The ORDER BY each render query had before it was sorted in numpy (git show 70c777a^:...).
ORDERED = {
    "explore_qps": ('ORDER BY campaign, threads, microbenchmark, "range", build, config',
                    ["campaign", "threads", "microbenchmark", "range", "build", "config"]),
    "rqps_selection": ('ORDER BY "group", microbenchmark, "range", threads, version_rank, build, config, origin',
                       None),
    "throughput": ('ORDER BY build_rank, config, microbenchmark, "range", threads', None),
}

# rqps_selection as it was before its variant and version rank were added in Arrow (git show
# 781d8d4:pipelines/papercuts/sql/queries/rqps_selection.sql): the rows rqps_table must give.
RQPS_JOINED = """SELECT r.microbenchmark, r."range", r."group", r.build, r.config,
       r.build || '.' || r.config AS variant, r.threads, r.rqps, r.qps, r.base_qps, r.origin, b.version_rank
FROM rqps r
JOIN (SELECT id, dense_rank() OVER (ORDER BY version_key) AS version_rank FROM builds) b ON b.id = r.build
WHERE r.campaign = $campaign AND r.server = $server AND r.base_build = $base_build AND r.base_config = $base_config"""


def test_the_render_queries_come_in_the_order_their_order_by_gave(site):
    """On the shipped site's database (ranges left out, published and measured rQPS, several
    DBMS): every server's explorer rows, every comparison's rQPS and every campaign's throughput
    in the order DuckDB's ORDER BY gave them, and no two rows equal in the columns sorted by."""
    from papercuts.db import query
    from papercuts.render.selection import RQPS_ORDER, THROUGHPUT_ORDER, rqps_table

    keys = {"explore_qps": ORDERED["explore_qps"][1], "rqps_selection": RQPS_ORDER, "throughput": THROUGHPUT_ORDER}
    con = duckdb.connect(str(site.db), read_only=True)
    servers = con.execute("SELECT DISTINCT server FROM measured_qps").fetchall()
    cases = [("explore_qps", {"server": s}) for (s,) in servers]
    cases += [("rqps_selection", dict(zip(("campaign", "server", "base_build", "base_config"), r, strict=True)))
              for r in con.execute("SELECT DISTINCT campaign, server, base_build, base_config FROM rqps").fetchall()]
    cases += [("throughput", {"campaign": c, "server": s})
              for c, s in con.execute("SELECT DISTINCT campaign, server FROM measured_qps").fetchall()]
    assert {name for name, _ in cases} == set(ORDERED)
    for name, params in cases:
        sql = query(name).rstrip().removesuffix(";")
        if name == "rqps_selection":  # its variant and version rank are added in Arrow (rqps_table)
            sql, rows = RQPS_JOINED, rqps_table(con, **params)
        else:
            rows = con.sql(sql, params=params).to_arrow_table()
        expected = con.sql(f"SELECT * FROM ({sql}) {ORDERED[name][0]}", params=params).to_arrow_table()
        got = sorted_by(rows, keys[name]).select(expected.column_names)
        assert got.equals(expected), (name, params)
        assert got.group_by(keys[name]).aggregate([]).num_rows == got.num_rows, (name, params)
