"""Chart CSVs are opened in spreadsheets: generated cells never start a formula (the validator
refuses such contributed text too; this is the second guard, for text made from it)."""
from __future__ import annotations

import csv
import io

from papercuts.render.tables import to_csv


def test_formula_like_text_is_prefixed_and_numbers_are_not():
    rows = [{"name": "=HYPERLINK(\"https://evil.example\")", "note": "+cmd|' /C calc'!A0", "qps": -12.5},
            {"name": "@SUM(A1)", "note": "-O2 -fno-omit-frame-pointer", "qps": 3.0},
            {"name": "\tx", "note": "-5", "qps": None}]
    out = list(csv.reader(io.StringIO(to_csv(rows, ["name", "note", "qps"]))))
    assert out == [["name", "note", "qps"],
                   ["'=HYPERLINK(\"https://evil.example\")", "'+cmd|' /C calc'!A0", "-12.5"],
                   ["'@SUM(A1)", "'-O2 -fno-omit-frame-pointer", "3.0"],
                   ["'\tx", "-5", ""]]


def test_a_chart_held_as_columns_writes_the_csv_its_rows_would():
    """Charts of rQPS hold their rows as columns (render/columns.py); the chart's CSV and its
    spec's typing must be what the same rows as dicts give, guard and all."""
    from papercuts.render import datafile
    from papercuts.render.columns import Columns

    rows = [{"microbenchmark": "=cmd", "variant": "b1.c", "rqps": 0.9962524334106043, "qps": None, "order": 0},
            {"microbenchmark": "point-query_range=100", "variant": "-5", "rqps": 1.0, "qps": 83144.62, "order": 1},
            {"microbenchmark": "'quoted", "variant": "b2.c", "rqps": 2.5e-05, "qps": 1e16, "order": 2},
            {"microbenchmark": None, "variant": "b3.c", "rqps": None, "qps": 1.5, "order": 3}]
    names = ["microbenchmark", "variant", "rqps", "qps", "order"]
    cols = Columns.of_rows(rows, names)
    assert list(cols) == rows and len(cols) == 4
    assert to_csv(cols, names) == to_csv(rows, names)
    as_dicts = datafile.refer({"data": {"values": rows}}, "c", rows, names)
    as_columns = datafile.refer({"data": {"values": cols}}, "c", cols, names)
    assert as_columns == as_dicts
    assert as_columns[1].splitlines()[1:] == ["'=cmd,b1.c,0.9962524334106043,,0",
                                              "point-query_range=100,-5,1.0,83144.62,1",
                                              "''quoted,b2.c,2.5e-05,1e+16,2",
                                              ",b3.c,,1.5,3"]
