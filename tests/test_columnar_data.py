"""A chart's rows held as an Arrow table (render/columns.py) give the same lists, the same CSV
and the same shared data file as the same rows held as Python lists: the table is only a faster
way to the same bytes (datafile.share and tables.to_csv write from it)."""
from __future__ import annotations

import pyarrow as pa
import pytest

from papercuts.render import datafile, specs, tables
from papercuts.render.columns import Columns
from papercuts.render.registry import KINDS

KEY, VARYING = KINDS["rqps-heatmap"].shares
SCHEMA = pa.schema([("microbenchmark", pa.string()), ("group", pa.string()), ("variant", pa.string()),
                    ("rqps", pa.float64()), ("qps", pa.float64()), ("base_qps", pa.float64()),
                    ("origin", pa.string()), ("order", pa.int64())])
NAMES = SCHEMA.names

# Text a spreadsheet reads as a formula (guarded), a number that is not (-5), text that needs
# quotes in a CSV, a QPS left empty, a float with no short decimal form.
ONE = [("=cmd|' /C calc'!A0", "point", "a.c", 0.5, 50.0, 100.0, "measured", 0),
       ("b", "point", "a.c", 1.1, 110.0, 100.0, "measured", 1),
       ("-5", "point", "'x.c", 0.1 + 0.2, 30.0, 100.0, "measured", 2)]
FOUR = [("=cmd|' /C calc'!A0", "point", "a.c", 0.75, 150.0, 200.0, "measured", 0),
        ("c", "write", "a.c", 1.25, None, None, "published", 3),
        ("-5", "point", "'x.c", 1e-7, 1.0, 1e7, "measured", 2)]


def _lists(rows: list[tuple]) -> Columns:
    return Columns.of_rows([dict(zip(NAMES, r, strict=True)) for r in rows], NAMES)


def _table(rows: list[tuple], schema: pa.Schema = SCHEMA) -> Columns:
    return Columns.of_arrow(pa.Table.from_pylist([dict(zip(schema.names, r, strict=True)) for r in rows], schema))


def _charts(make, one=ONE, four=FOUR):
    out = []
    for suffix, rows in (("t1", one), ("t4", four)):
        data = make(rows)
        out.append((suffix, specs.rqps_heatmap("t", data, list(dict.fromkeys(data["variant"]))), data))
    return out


def test_a_table_reads_as_the_same_lists():
    held, table = _lists(ONE + FOUR), _table(ONE + FOUR)
    assert table.names == held.names and len(table) == len(held) == 6
    assert all(table[n] == held[n] for n in NAMES) and list(table) == list(held)
    less = table.without("qps", "origin")
    assert less.table is not None and less.names == [n for n in NAMES if n not in ("qps", "origin")]
    with pytest.raises(KeyError):
        less["qps"]


QUOTED = [("c,\"d\"", "write", "a.c", 1.0, None, None, "x", 1)]


@pytest.mark.parametrize("rows", [ONE, ONE[1:], FOUR, ONE + FOUR, QUOTED])
def test_a_table_writes_the_csv_its_lists_write(rows):
    """The guard's quote, numbers in Arrow's shortest form, empty cells; and a text that needs
    quotes, which Arrow will not write: the csv module's file then, from the lists, as before."""
    held, table = _lists(rows), _table(rows)
    assert tables.guarded_columns(table, NAMES) == tables.guarded_columns(held, NAMES)
    assert datafile._numbers(table, NAMES) == datafile._numbers(held, NAMES)
    assert tables.to_csv(table, NAMES) == tables.to_csv(held, NAMES)


def test_a_tables_columns_are_typed_as_their_values_are():
    """Numbers: whole or float columns, and a column with no value at all (as an empty list is);
    a column of booleans is refused, as its values are."""
    schema = pa.schema([("a", pa.string()), ("n", pa.int32()), ("x", pa.float32()), ("none", pa.string())])
    rows = _table([("x", 1, 0.1, None), ("y", None, None, None)], schema)  # 0.1 as a float32: 0.10000000149011612
    assert datafile._numbers(rows, schema.names) == ["n", "x", "none"]
    assert tables.to_csv(rows, schema.names) == tables.to_csv(Columns({n: rows[n] for n in schema.names}), schema.names)
    flags = Columns.of_arrow(pa.table({"f": pa.array([True, None])}))
    with pytest.raises(ValueError, match="booleans"):
        datafile._numbers(flags, ["f"])


@pytest.mark.parametrize("one, four", [
    (ONE, FOUR),
    # b's group differs at 4 threads: group is written per thread count
    (ONE, [r[:1] + ("range",) + r[2:] if r[0] == "-5" else r for r in FOUR]),
    # a QPS that is not a number (NaN equals nothing): per thread count too
    ([r[:4] + (float("nan"),) + r[5:] for r in ONE], [r[:4] + (float("nan"),) + r[5:] for r in FOUR]),
    # one variant measured and published: two rows of one microbenchmark and variant
    (ONE + [("b", "point", "a.c", 1.2, None, None, "published", 1)], FOUR),
])
def test_a_shared_file_of_tables_is_the_shared_file_of_lists(one, four):
    from_lists = datafile.share("rqps-x", _charts(_lists, one, four), KEY, VARYING)
    from_tables = datafile.share("rqps-x", _charts(_table, one, four), KEY, VARYING)
    assert from_tables[1] == from_lists[1] and from_tables[2] == from_lists[2]
    assert from_tables[0] == from_lists[0]


def test_a_shared_file_of_tables_refuses_what_lists_refuse():
    with pytest.raises(ValueError, match="two rows of one microbenchmark/variant/origin"):
        datafile.share("rqps-x", _charts(_table, ONE + ONE[1:2]), KEY, VARYING)
    with pytest.raises(ValueError, match="leaves 'rqps' empty"):
        datafile.share("rqps-x", _charts(_table, [r[:3] + (None,) + r[4:] for r in ONE]), KEY, VARYING)


def test_tables_of_other_schemas_go_the_lists_way():
    """A key column of floats (1 and 1.0, NaN: Arrow and Python disagree on what is one key), or
    charts whose tables differ in type, are joined as lists: the same file."""
    floats = pa.schema([("microbenchmark", pa.float64()), *[SCHEMA.field(n) for n in NAMES[1:]]])
    one = [(1.0, *r[1:]) for r in ONE[:1]]
    charts = [("t1", specs.rqps_heatmap("t", data := _table(one, floats), ["a.c"]), data)]
    assert datafile._joined_table(charts, KEY) is None
    mixed = _charts(_table)
    mixed[1] = ("t4", mixed[1][1], Columns.of_arrow(mixed[1][2].table.cast(
        pa.schema([f.with_type(pa.float32()) if f.name == "qps" else f for f in SCHEMA]))))
    mixed[1] = ("t4", specs.rqps_heatmap("t", mixed[1][2], ["a.c", "'x.c"]), mixed[1][2])
    assert datafile._joined_table(mixed, KEY) is None
    lists = datafile.share("rqps-x", _charts(_lists), KEY, VARYING)
    assert datafile.share("rqps-x", mixed, KEY, VARYING)[1] == lists[1]


@pytest.mark.parametrize("hidden", [0, 3])
def test_a_tables_text_table_is_its_lists_text_table(hidden):
    """tables.pivot_ratios of a table's rows: the same rows in order (ties as given, a later row
    of one cell over an earlier one), the same cells of the variants shown."""
    # rQPS within the larger noise band and outside the smaller: each cell's class is its own row's
    rows = [("m2", "point", "b2.c", 0.9, None, None, "measured", 1), ("m1", "point", "b0.c", 1.1, None, None, "x", 0),
            ("w1", "write", "b1.c", 0.9, None, None, "x", 2), ("m2", "point", "b5.c", 1.1, None, None, "x", 1),
            ("m1", "point", "b2.c", 0.9, None, None, "x", 0), ("m1", "point", "b2.c", 1.1, None, None, "x", 0),
            ("m1", "range", "b5.c", 0.9, None, None, "x", 0)]
    variants = ["b0.c", "b1.c", "b2.c", "b5.c"] + [f"x{i}.c" for i in range(hidden + 12)]
    variants = variants[-(tables.SHOWN_COLUMNS + hidden):]
    noise = pa.array([0.5, 0.01, 0.5, 0.01, 0.5, 0.01, 0.5])
    held = Columns({**{n: [r[i] for r in rows] for i, n in enumerate(NAMES)}, "noise": noise.to_pylist()})
    table = Columns.of_arrow(_table(rows).table.append_column("noise", noise))
    assert tables._pivots_in_arrow(table, "microbenchmark") and not tables._pivots_in_arrow(held, "microbenchmark")
    assert tables.pivot_ratios(table, variants) == tables.pivot_ratios(held, variants)
    assert tables.pivot_ratios(table.without("noise"), variants) == tables.pivot_ratios(held.without("noise"), variants)


def _limits() -> list[float]:
    """Ratios at and one double either side of every limit of colours.ratio_class (the noise bands
    below, 2 ** ±0.15 and 2 ** ±0.5), and others: where numpy's logs and math's could differ."""
    import math

    out = [1.0, 0.0, -1.0, 1e-300, 5e-324, 1e300, 0.1 + 0.2, math.inf, -math.inf, math.nan]
    for limit in [math.exp(math.log1p(b)) for b in (0.03, 0.5, 0.01)] + [2 ** 0.15, 2 ** 0.5]:
        for v in (limit, 1 / limit):
            out += [math.nextafter(v, 0), v, math.nextafter(v, math.inf)]
    return out + [1 + k / 997 for k in range(-900, 3000, 7)]


def test_ratio_classes_are_ratio_class_of_each():
    from papercuts.render.colours import ratio_class

    values = _limits()
    for band in (0.03, 0.5, 0.01, 0.0, 1e-12):
        bands = [band] * len(values)
        assert tables.ratio_classes(values, bands) == [ratio_class(v, band) for v in values], band
    with pytest.raises(ValueError):  # a band log1p refuses, as ratio_class refuses it
        tables.ratio_classes([1.2], [-2.0])


@pytest.mark.parametrize("noise", [True, False])
def test_a_pivot_of_distinct_cells_is_made_in_numpy_as_its_lists_make_it(noise):
    """pivot_ratios' numpy columns (_pivot_columns: no cell given twice) give what the lists give:
    the rows in order (ties as given), each cell's text and class at the ratio limits; and a table
    it cannot pivot so (an rQPS missing, a cell given twice, a variant named twice) the old way."""
    values = _limits()
    variants = [f"b{i}.c" for i in range(20)]  # each row a cell of its own: a microbenchmark's 20 variants
    rows = [(f"m{i // 20}", ("point", "range", "write")[i // 20 % 3], variants[i % 20], v, None, None, "measured",
             (i // 20 * 7) % 11) for i, v in enumerate(values)]
    bands = pa.array([(0.03, 0.5, 0.01)[i % 3] for i in range(len(rows))])
    held = _lists(rows)
    table = _table(rows)
    if noise:
        held = Columns({**{n: held[n] for n in held.names}, "noise": bands.to_pylist()})
        table = Columns.of_arrow(table.table.append_column("noise", bands))
    assert tables._pivot_columns(table, "microbenchmark", variants[-16:], tables.cell("")) is not None
    assert tables.pivot_ratios(table, variants) == tables.pivot_ratios(held, variants)
    again = (*rows[25][:3], 0.77, *rows[25][4:])  # a drawn cell given twice: the later row's value
    for odd in ([*rows, ("m1", "point", "b19.c", None, None, None, "x", 3)], [*rows, again]):
        assert tables._pivot_columns(_table(odd), "microbenchmark", variants[-16:], tables.cell("")) is None
        assert tables.pivot_ratios(_table(odd), variants) == tables.pivot_ratios(_lists(odd), variants)
    assert tables._pivot_columns(table, "microbenchmark", ["b1.c", "b1.c"], tables.cell("")) is None


def test_tables_of_other_types_give_what_their_lists_give():
    """A whole number past int64 (the csv module's file then, floats as repr), numbers held as a
    dictionary (numbers for the spec's parse), a list per row (compared as Python compares)."""
    big = Columns.of_arrow(pa.table({"n": pa.array([2 ** 63, 1], pa.uint64()), "x": [1.0, 0.5]}))
    assert tables.to_csv(big, ["n", "x"]) == tables.to_csv(Columns({"n": big["n"], "x": big["x"]}), ["n", "x"])
    assert tables.to_csv(big, ["n", "x"]).splitlines()[1] == f"{2 ** 63},1.0"
    coded = Columns.of_arrow(pa.table({"d": pa.array([3, 4, 3]).dictionary_encode(), "t": ["a", "b", "c"]}))
    assert datafile._numbers(coded, ["d", "t"]) == datafile._numbers(Columns({"d": [3, 4, 3], "t": ["a"] * 3}),
                                                                     ["d", "t"]) == ["d"]
    charts = []
    for suffix, values in (("t0", [1.0]), ("t1", [2.0])):
        table = pa.table({"k": ["a"], "v": values, "s": pa.array([[1, 2]])})
        charts.append((suffix, {}, Columns.of_arrow(table)))
    lists = [(s, {}, Columns({n: rows[n] for n in rows.names})) for s, _, rows in charts]
    wide, _ = datafile._wide("d", charts, ("k",), ("v",))
    assert list(wide) == list(datafile._wide("d", lists, ("k",), ("v",))[0]) == [
        {"k": "a", "v_t0": 1.0, "v_t1": 2.0, "s": [1, 2]}]


@pytest.mark.parametrize("start", tables.GUARDED_START)
def test_every_start_the_guard_quotes_is_found_in_a_table(start):
    rows = [("b", "point", f"{start}x.c", 1.0, None, None, "measured", 0)]
    held, table = _lists(rows), _table(rows)
    assert tables.guarded_columns(table, NAMES) == tables.guarded_columns(held, NAMES) == ["variant"]
    assert tables.to_csv(table, NAMES) == tables.to_csv(held, NAMES)
