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
    # Arrow's writer: a number in its shortest exact form (tables._arrow_csv)
    assert as_columns[1].splitlines()[1:] == ["'=cmd,b1.c,0.9962524334106043,,0",
                                              "point-query_range=100,-5,1,83144.62,1",
                                              "''quoted,b2.c,0.000025,1e+16,2",
                                              ",b3.c,,1.5,3"]


def test_every_double_reads_back_exactly_whichever_writer_wrote_it():
    """to_csv writes through Arrow when it can and the csv module otherwise (text that needs
    quotes, ints beside floats): either way each cell reads back as the very value written."""
    import math
    import random
    import struct

    rnd = random.Random(7)
    doubles = [5e-324, 1e16, 0.1 + 0.2, -0.0, 123456789012.5, 1e-7, 2.0 ** 53, 1.7976931348623157e308, 100.0,
               *(struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0] for _ in range(20000))]
    doubles = [d for d in doubles if math.isfinite(d)]
    for text in ("plain", "needs, quotes"):
        rows = [{"name": text, "x": d, "n": k} for k, d in enumerate(doubles)]
        out = list(csv.reader(io.StringIO(to_csv(rows, ["name", "x", "n"]))))
        assert out[0] == ["name", "x", "n"] and [r[0] for r in out[1:]] == [text] * len(doubles)
        got = [float(r[1]) for r in out[1:]]
        assert [struct.pack("d", g) for g in got] == [struct.pack("d", d) for d in doubles]  # -0.0 too
        assert [int(r[2]) for r in out[1:]] == list(range(len(doubles)))
    assert to_csv([{"a": "x", "b": 1.0}], ["a", "b"]) == "a,b\nx,1\n"  # Arrow's
    assert to_csv([{"a": "x,y", "b": 1.0}], ["a", "b"]) == 'a,b\n"x,y",1.0\n'  # the csv module's
    big = [{"a": "x", "b": 2 ** 60 + 1}, {"a": "y", "b": 0.5}]  # an int beside floats stays exact
    assert to_csv(big, ["a", "b"]).splitlines()[1:] == [f"x,{2 ** 60 + 1}", "y,0.5"]
    huge = [{"a": "x", "b": 2 ** 63}, {"a": "y", "b": -(2 ** 64)}]  # past 64 bits: the csv module's
    assert to_csv(huge, ["a", "b"]).splitlines()[1:] == [f"x,{2 ** 63}", f"y,{-(2 ** 64)}"]
