"""tables.fmt_each writes each value as tables.fmt does: exact ties away from zero (fixed's own
rule), every other float as format rounds it, anything else as fmt writes it."""
from __future__ import annotations

import math
import random

import pytest

from papercuts.render.tables import fmt, fmt_each

rnd = random.Random(7)
FLOATS = ([k / 8 for k in range(-40, 41)] + [k / 16 for k in range(-40, 41)] + [k / 2 ** 11 for k in range(-99, 99)]
          + [0.125 + 2 ** -60, -0.125 + 2 ** -63, 0.625, -0.625, 2.675, 1e308, -1e308, 5e-324, -0.0, 0.0,
             math.inf, -math.inf, math.nan, 2.0 ** 60]
          + [rnd.lognormvariate(0, 1) for _ in range(2000)] + [round(rnd.uniform(-50, 50), 3) for _ in range(2000)])


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 6])
def test_floats_are_written_as_fmt_writes_each(decimals):
    assert fmt_each(FLOATS, decimals) == [fmt(v, decimals) for v in FLOATS]


def test_floats_with_missing_values_are_written_as_fmt_writes_each():
    """A throughput table's column: floats and Nones (blank cells), ties found among the floats."""
    values = [v for f in FLOATS[:500] for v in (f, None)] + [None, 0.625]
    assert fmt_each(values) == [fmt(v) for v in values]


def test_other_values_are_fmts():
    values = [None, 1, 0.625, "x", True, 2.5]
    assert fmt_each(values) == [fmt(v) for v in values] == ["", "1", "0.63", "x", "True", "2.50"]
    assert fmt_each([]) == []
    assert fmt_each([15.0, 25.0, -35.0], -1) == [fmt(v, -1) for v in (15.0, 25.0, -35.0)] == ["20", "30", "-40"]
