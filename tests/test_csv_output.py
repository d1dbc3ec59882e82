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
