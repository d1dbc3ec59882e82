"""A chart's data is written once, as the CSV its spec reads (render/datafile.py), and that CSV
gives back exactly the rows the chart was drawn from: in Python's csv module, and in the real
Vega-Lite and Vega reading it through charts.js's CSP-safe reader in Chromium."""
from __future__ import annotations

import csv
import io

import pytest

from papercuts.paths import PROJECT, Paths
from papercuts.publish import vendor
from papercuts.render import datafile, specs
from papercuts.render.columns import Columns

# Text a CSV or a spreadsheet could misread: separators, quotes, line breaks, formula starts, a
# leading quote (so the guard's own quote is told apart), numbers as text, and awkward floats.
ROWS = [
    {"microbenchmark": 'a,"b"', "group": "point", "variant": "=HYPERLINK(\"x\")", "rqps": 0.1 + 0.2,
     "qps": None, "order": 1},
    {"microbenchmark": "line\nbreak\r\nx", "group": "range", "variant": "'quoted", "rqps": 1e-7,
     "qps": 12345678901, "order": 2},
    {"microbenchmark": "-5", "group": "write", "variant": "-O2 -fno-omit-frame-pointer", "rqps": -0.0,
     "qps": 3.0, "order": 3},
    {"microbenchmark": "", "group": "other", "variant": "''", "rqps": 2.5, "qps": None, "order": 4},
]
COLUMNS = ["microbenchmark", "group", "variant", "rqps", "qps"]  # 'order' only in the rows
CHART = Columns.of_rows(ROWS, [*COLUMNS, "order"])  # as an rQPS chart holds its rows (render/columns.py)


def _spec():
    return specs.rqps_bars("t", CHART, list(dict.fromkeys(r["variant"] for r in ROWS)))


def test_the_spec_reads_its_csv_and_holds_no_rows():
    spec, text = datafile.refer(_spec(), "c1", CHART, COLUMNS)
    assert spec["data"] == {"name": "table", "url": "c1.csv",
                            "format": {"type": "csv", "parse": {"rqps": "number", "qps": "number",
                                                                "order": "number"}}}
    header = next(csv.reader(io.StringIO(text)))
    assert header == COLUMNS + ["order"]  # a field the spec may draw is in the file
    # only the text columns where the guard quoted a value are unquoted by the spec
    assert [t["as"] for t in spec["transform"][:1]] == ["variant"]


def test_the_csv_is_the_rows_for_a_spreadsheet_reader_too():
    _, text = datafile.refer(_spec(), "c1", CHART, COLUMNS)
    got = list(csv.DictReader(io.StringIO(text)))
    assert [r["microbenchmark"] for r in got] == [r["microbenchmark"] for r in ROWS]
    assert [r["variant"] for r in got] == ["'=HYPERLINK(\"x\")", "''quoted", "'-O2 -fno-omit-frame-pointer", "'''"]
    assert [float(r["rqps"]) for r in got] == [r["rqps"] for r in ROWS]  # repr: the same doubles


def test_a_spec_not_drawn_from_the_rows_and_booleans_are_refused():
    with pytest.raises(ValueError, match="not drawn from its rows"):
        datafile.refer(_spec(), "c1", Columns.of_rows(ROWS[:2], [*COLUMNS, "order"]), COLUMNS)
    rows = [{"x": True}]
    with pytest.raises(ValueError, match="booleans"):
        datafile.refer({"data": {"values": rows}}, "c1", rows, ["x"])


ORIGIN = "http://papercuts.test"
# A page under the site's script policy (no unsafe-eval), loading the pinned Vega, Vega-Lite and
# the site's charts.js, which registers its CSV reader.
PAGE = ('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'; '
        'script-src \'self\'"><script src="/vega.min.js"></script><script src="/vega-lite.min.js"></script>'
        '<script src="/vega-embed.min.js"></script><script src="/charts.js"></script><div id="c"></div>')
# Drawn as the site draws: vega-embed with the expression interpreter (no eval).
READ = """async ([spec, keys, base]) => {
  const options = {ast: true, defaultStyle: false, actions: false, tooltip: {disableDefaultStyle: true},
                   loader: {baseURL: base}};
  const {view} = await vegaEmbed("#c", spec, options);
  return view.data("table").map((r) => Object.fromEntries(keys.map((k) => [k, r[k] === undefined ? "MISSING" : r[k]])));
}"""


@pytest.mark.browser
def test_vega_reads_back_exactly_the_rows_from_the_csv_under_the_sites_policy(page):
    paths = Paths.make()
    vendor.vendor(paths)
    spec, text = datafile.refer(_spec(), "c1", CHART, COLUMNS)
    files = {"/": (PAGE, "text/html"), "/c1.csv": (text, "text/csv"),
             "/charts.js": ((PROJECT / "site/static/js/charts.js").read_text(), "text/javascript"),
             **{f"/{n}": ((paths.vendor / n).read_text(), "text/javascript")
                for n in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")}}

    def serve(route):
        body, kind = files[route.request.url.removeprefix(ORIGIN)]
        route.fulfill(body=body, content_type=kind)

    page.route(ORIGIN + "/**", serve)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.goto(ORIGIN + "/")
    keys = COLUMNS + ["order"]
    got = page.evaluate(READ, [spec, keys, ORIGIN + "/"])
    assert got == [{k: r[k] for k in keys} for r in ROWS]
    assert errors == []
