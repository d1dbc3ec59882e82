"""The heatmaps of one comparison, a thread count each, read one data file (datafile.share): a row
per microbenchmark and variant, a column per thread count. Each chart still draws exactly its own
rows, in the real Vega-Lite under the site's script policy, and its text stays data."""
from __future__ import annotations

import csv
import datetime
import io

import pytest

from papercuts.paths import PROJECT, Paths
from papercuts.publish import vendor
from papercuts.render import datafile, specs
from papercuts.render.columns import Columns
from papercuts.render.registry import KINDS

NAMES = ["microbenchmark", "group", "variant", "rqps", "qps", "base_qps", "origin", "order"]
KEY, VARYING = KINDS["rqps-heatmap"].shares  # (microbenchmark, variant, origin), (rqps, qps, base_qps)


def _chart(rows: list[tuple]) -> tuple[dict, Columns]:
    data = Columns.of_rows([dict(zip(NAMES, r, strict=True)) for r in rows], NAMES)
    return specs.rqps_heatmap("t", data, list(dict.fromkeys(data["variant"]))), data


# At 1 thread: three rows; at 4: one of them gone, one new, one microbenchmark printed (no QPS).
# Text a CSV or a spreadsheet misreads, as names: the guard's quote must come off in the chart.
ONE = [("=cmd|' /C calc'!A0", "point", "a.c", 0.5, 50.0, 100.0, "measured", 0),
       ("b", "point", "a.c", 1.1, 110.0, 100.0, "measured", 1),
       ("b", "point", "'x.c", 0.1 + 0.2, 30.0, 100.0, "measured", 1)]
FOUR = [("=cmd|' /C calc'!A0", "point", "a.c", 0.75, 150.0, 200.0, "measured", 0),
        ("c,\"d\"", "write", "a.c", 1.25, None, None, "published", 2),
        ("b", "point", "'x.c", 1e-7, 1.0, 1e7, "measured", 1)]


def _shared():
    charts = [("t1", *_chart(ONE)), ("t4", *_chart(FOUR))]
    return charts, datafile.share("rqps-x", charts, KEY, VARYING)


def test_one_file_a_row_per_key_and_a_column_per_thread_count():
    _, (spec_list, text, rows) = _shared()
    got = list(csv.DictReader(io.StringIO(text)))
    assert list(got[0]) == ["microbenchmark", "group", "variant", "rqps_t1", "rqps_t4", "qps_t1", "qps_t4",
                            "base_qps_t1", "base_qps_t4", "origin", "order"]
    assert rows == len(got) == 4  # three at 1 thread, one more at 4
    assert [(r["microbenchmark"], r["variant"], r["rqps_t1"], r["rqps_t4"]) for r in got] == [
        ("'=cmd|' /C calc'!A0", "a.c", "0.5", "0.75"), ("b", "a.c", "1.1", ""),
        ("b", "''x.c", repr(0.1 + 0.2), "1e-07"), ('c,"d"', "a.c", "", "1.25")]
    for spec, suffix in zip(spec_list, ("t1", "t4"), strict=True):
        assert spec["data"]["url"] == "rqps-x.csv" and "values" not in spec["data"]
        assert spec["transform"][0] == {"filter": {"field": f"rqps_{suffix}", "valid": True}}
        assert spec["layer"][0]["encoding"]["color"]["field"] == f"rqps_{suffix}"
        assert f"datum['rqps_{suffix}']" in spec["layer"][0]["encoding"]["color"]["condition"]["test"]


def test_a_column_the_charts_disagree_on_is_kept_per_thread_count():
    four = [r[:1] + ("range",) + r[2:] if r[0] == "b" else r for r in FOUR]  # b's group differs at 4 threads
    charts = [("t1", *_chart(ONE)), ("t4", *_chart(four))]
    spec_list, text, _ = datafile.share("rqps-x", charts, KEY, VARYING)
    header = next(csv.reader(io.StringIO(text)))
    assert "group" not in header and {"group_t1", "group_t4"} <= set(header)
    tooltip = spec_list[1]["layer"][0]["encoding"]["tooltip"]
    assert {"field": "group_t4", "title": "group"} in tooltip


def test_a_variant_measured_and_published_keeps_both_rows_and_two_of_one_key_are_refused():
    """A campaign may give one variant's rQPS both measured (results) and published (relative):
    the chart drew both, and so does the shared file; rows of one key would hide each other."""
    both = ONE + [("b", "point", "a.c", 1.2, None, None, "published", 1)]
    charts = [("t1", *_chart(both)), ("t4", *_chart(FOUR))]
    _, text, rows = datafile.share("rqps-x", charts, KEY, VARYING)
    got = [(r["microbenchmark"], r["variant"], r["origin"], r["rqps_t1"]) for r in csv.DictReader(io.StringIO(text))]
    assert rows == 5 and ("b", "a.c", "measured", "1.1") in got and ("b", "a.c", "published", "1.2") in got
    with pytest.raises(ValueError, match="two rows of one microbenchmark/variant/origin"):
        datafile.share("rqps-x", [("t1", *_chart(ONE + ONE[1:2])), ("t4", *_chart(FOUR))], KEY, VARYING)


def test_charts_that_cannot_share_are_refused():
    one, four = _chart(ONE), _chart(FOUR)
    with pytest.raises(ValueError, match="different columns"):
        datafile.share("x", [("t1", *one), ("t4", four[0], four[1].without("origin"))], KEY, VARYING)
    with pytest.raises(ValueError, match="not drawn from its rows"):
        datafile.share("x", [("t1", one[0], four[1]), ("t4", *four)], KEY, VARYING)


def test_keys_of_mixed_kinds_are_told_apart_as_python_tells_them():
    """Rows are numbered by key in numpy: a key column Arrow cannot type (here a microbenchmark
    given as a number in one chart and as text in the other) is numbered value by value, where
    1 and 1.0 are one key and 1 and '1' two, as they are for Python's dict and ==."""
    one = [(1, "point", "a.c", 0.5, 50.0, 100.0, "measured", 0),
           ("1", "point", "a.c", 0.7, 70.0, 100.0, "measured", None)]
    four = [(1.0, "point", "a.c", 0.75, 75.0, 100.0, "measured", 0),
            ("1", "point", "a.c", 0.8, 80.0, 100.0, "measured", 1)]
    _, text, rows = datafile.share("rqps-x", [("t1", *_chart(one)), ("t4", *_chart(four))], KEY, VARYING)
    got = [(r["microbenchmark"], r["rqps_t1"], r["rqps_t4"], r["order"]) for r in csv.DictReader(io.StringIO(text))]
    # A column one chart leaves empty where the other fills it is still one column: its value.
    assert rows == 2 and got == [("1", "0.5", "0.75", "0"), ("1", "0.7", "0.8", "1")]


@pytest.mark.parametrize("first, second", [(b"x", "x"), (float("nan"), float("nan")),
                                           (datetime.date(2020, 1, 1), datetime.datetime(2020, 1, 1, 12))])
def test_keys_python_tells_apart_stay_apart(first, second):
    """Keys Arrow would type as one value (bytes and text, two NaNs, a date and a time on it) are
    two rows, as a dict of keys makes them."""
    charts = [(s, {}, Columns({"k": [k], "v": [n]})) for s, k, n in (("a", first, 1), ("b", second, 2))]
    wide, _ = datafile._wide("d", charts, ("k",), ("v",))
    assert len(wide) == 2 and wide["v_a"] == [1, None] and wide["v_b"] == [None, 2]


ORIGIN = "http://papercuts.test"
PAGE = ('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'; '
        'script-src \'self\'"><script src="/vega.min.js"></script><script src="/vega-lite.min.js"></script>'
        '<script src="/vega-embed.min.js"></script><script src="/charts.js"></script><div id="c"></div>')
# Drawn as the site draws (the expression interpreter, no eval); the rows its cells were drawn from.
CELLS = """async ([spec, base]) => {
  const options = {ast: true, defaultStyle: false, actions: false, tooltip: {disableDefaultStyle: true},
                   loader: {baseURL: base}};
  const {view} = await vegaEmbed("#c", spec, options);
  const cells = [];
  const walk = (node) => {
    if (node.marktype === "rect" && node.role === "mark") cells.push(...node.items.map((i) => i.datum));
    for (const child of node.items || []) walk(child);
  };
  walk(view.scenegraph().root);
  return cells.map((d) => Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith("Symbol"))));
}"""


@pytest.mark.browser
def test_each_chart_draws_exactly_its_own_rows_from_the_shared_file(page):
    paths = Paths.make()
    vendor.vendor(paths)
    (_, _, one), (_, _, four) = charts = [("t1", *_chart(ONE)), ("t4", *_chart(FOUR))]
    spec_list, text, _ = datafile.share("rqps-x", charts, KEY, VARYING)
    files = {"/": (PAGE, "text/html"), "/rqps-x.csv": (text, "text/csv"),
             "/charts.js": ((PROJECT / "site/static/js/charts.js").read_text(), "text/javascript"),
             **{f"/{n}": ((paths.vendor / n).read_text(), "text/javascript")
                for n in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")}}
    page.route(ORIGIN + "/**", lambda route: route.fulfill(
        body=files[route.request.url.removeprefix(ORIGIN)][0],
        content_type=files[route.request.url.removeprefix(ORIGIN)][1]))
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.goto(ORIGIN + "/")
    for spec, rows, suffix in ((spec_list[0], one, "t1"), (spec_list[1], four, "t4")):
        cells = page.evaluate(CELLS, [spec, ORIGIN + "/"])
        fields = [f"{n}_{suffix}" if n in VARYING else n for n in NAMES]
        got = {(c["microbenchmark"], c["variant"]): [c[f] for f in fields] for c in cells}
        assert len(cells) == len(rows) and got == {(r["microbenchmark"], r["variant"]): list(r.values()) for r in rows}
    assert errors == []
