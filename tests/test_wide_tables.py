"""A wide table is bounded on its page: its label columns and its last SHOWN_COLUMNS value columns,
with the CSV linked for the rest (render/tables.py shown, layouts/_partials/data-table.html)."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

from papercuts.build import build
from papercuts.paths import Paths
from papercuts.render import tables
from papercuts.scale_bench import write_scale

CAMPAIGN = "2026-01-01-synthetic-000"


@pytest.fixture(scope="module")
def wide(tmp_path_factory) -> Paths:
    """The shipped data and one SYNTHETIC server of 50 builds: its heatmaps have 49 variant columns."""
    root = tmp_path_factory.mktemp("wide")
    data, _ = write_scale(root / "data", 1)
    paths = Paths.make(data=data, out=root / "public")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PAPERCUTS_IMAGES", "0")  # its tables are the point, not its chart images
        build(paths)
    return paths


def test_a_wide_table_keeps_its_labels_and_its_last_columns():
    cols = [("group", False), ("microbenchmark", False)] + [(f"v{i}", True) for i in range(40)]
    rows = [[tables.cell("point"), tables.cell("m")] + [tables.cell(str(i)) for i in range(40)]]
    wide, narrow = tables.table(cols, rows), tables.table(cols[:18], [r[:18] for r in rows])
    got = tables.shown(wide)
    assert [c["label"] for c in got["columns"]] == ["group", "microbenchmark"] + [f"v{i}" for i in range(24, 40)]
    assert [c["text"] for c in got["rows"][0]][2:] == [str(i) for i in range(24, 40)]
    assert tables.cut(wide)["columns"] == {"shown": 16, "of": 40}
    assert len(tables.shown(narrow)["columns"]) == 18 and tables.cut(narrow) is None


def test_pivot_ratios_puts_rows_in_order_and_fills_only_the_shown_variants_cells():
    """tables.pivot_ratios: a row per (group, microbenchmark) in the rows' `order` (ties as given),
    one kept for a microbenchmark only a hidden variant measured, cells only for the last 16."""
    from papercuts.render.columns import Columns

    variants = [f"b{i}.c" for i in range(18)]  # b0.c and b1.c are hidden
    rows = Columns({"order": [1, 0, 2, 1, 0], "group": ["point", "point", "write", "point", "point"],
                    "microbenchmark": ["m2", "m1", "w1", "m2", "m1"],
                    "variant": ["b17.c", "b0.c", "b1.c", "b5.c", "b17.c"], "rqps": [0.5, 9.0, 9.0, 1.25, 2.0],
                    "noise": [0.03] * 5})
    got = tables.pivot_ratios(rows, variants)
    assert [[c["text"] for c in r[:2]] for r in got["rows"]] == [["point", "m1"], ["point", "m2"], ["write", "w1"]]
    texts = [[c["text"] for c in r[4:]] for r in got["rows"]]  # the shown columns, b2.c .. b17.c
    assert texts[0][-1] == tables.fmt(2.0) and {t for t in texts[0][:-1]} == {tables.fmt(None)}
    assert texts[1][3] == tables.fmt(1.25) and texts[1][-1] == tables.fmt(0.5)
    assert {t for t in texts[2]} == {tables.fmt(None)}  # w1: only hidden b1.c measured it


def test_a_value_table_fills_only_the_cells_its_page_shows():
    """tables.value_table: cells given for the last 16 of 20 variants and the first rows alone (a
    throughput table: x100's 100 variants by 200 rows); the page shows exactly those, under their
    variants, and its note counts every row and column."""
    variants = [f"v{i}" for i in range(20)]
    names = [[f"m{r}", "qps", str(r)] for r in range(tables.SHOWN_ROWS + 50)]
    columns = [[tables.cell(f"{v}@{r}") for r in range(tables.SHOWN_ROWS)] for v in variants[4:]]
    t = tables.value_table([("microbenchmark", False), ("unit", False), ("threads", True)], variants, names, columns)
    assert len(t["rows"]) == tables.SHOWN_ROWS + 50 and all(len(r) == 23 for r in t["rows"])
    got = tables.shown(t)
    assert [c["label"] for c in got["columns"]] == ["microbenchmark", "unit", "threads", *variants[4:]]
    assert [[c["text"] for c in row] for row in got["rows"]] == [
        [f"m{r}", "qps", str(r), *(f"{v}@{r}" for v in variants[4:])] for r in range(tables.SHOWN_ROWS)]
    assert tables.cut(t) == {"rows": tables.SHOWN_ROWS, "total": tables.SHOWN_ROWS + 50,
                             "columns": {"shown": 16, "of": 20}}
    with pytest.raises(ValueError):  # more rows of cells than rows
        tables.value_table([("m", False)], variants, names[:3], columns)


def test_a_heatmap_of_49_variants_shows_the_newest_16_and_links_its_csv(wide):
    html = (wide.public / "campaigns" / CAMPAIGN / "index.html").read_text()
    figures = re.findall(r'<figure class="chart" id="chart-(heatmap-[^"]+)".*?</figure>', html, re.S)
    assert len(figures) == 5  # one heatmap per thread count
    for chart in figures:
        figure = html.split(f'id="chart-{chart}"', 1)[1].split("</figure>", 1)[0]
        spec = json.loads((wide.public / "campaigns" / CAMPAIGN / f"{chart}.vl.json").read_text())
        url = spec["data"]["url"]  # the comparison's CSV, every thread count
        data = list(csv.DictReader(io.StringIO((wide.public / "campaigns" / CAMPAIGN / url).read_text())))
        ladder = spec["layer"][0]["encoding"]["x"]["sort"]  # the variants, oldest to newest
        assert len(ladder) == 49 and {r["variant"] for r in data} == set(ladder)  # the CSV has them all
        header = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', figure)
        assert header == ["group", "microbenchmark"] + ladder[-16:]
        assert all(row.count("<td") == 18 for row in re.findall(r"<tr>(.*?)</tr>", figure, re.S)[1:])
        cut = re.search(r'<p class="table-cut">(.*?)</p>', figure, re.S)[1]
        assert cut.startswith("The last 16 of 49 value columns; ")
        assert f'href="/campaigns/{CAMPAIGN}/{url}" download' in cut


def test_throughput_against_threads_draws_the_newest_16_of_50_variants(wide):
    """A line per variant: a hundred are read by no one; the chart, its CSV and its table keep the
    newest SHOWN_COLUMNS, and its caption says how many it left out."""
    server = wide.public / "servers" / "syns000"
    html = (server / "index.html").read_text()
    figure = html.split(f'id="chart-threads-{CAMPAIGN}"', 1)[1].split("</figure>", 1)[0]
    every = [f"synb{b:03d}.z11a_c32r128" for b in range(50)]  # write_scale's builds, oldest first
    data = list(csv.DictReader(io.StringIO((server / f"threads-{CAMPAIGN}.csv").read_text())))
    assert list(dict.fromkeys(r["variant"] for r in data)) == every[-16:]
    assert len(data) == 16 * 40 * 5  # every microbenchmark at every thread count
    header = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', figure)
    assert header == ["microbenchmark", "unit", "threads"] + every[-16:]
    assert "It draws the newest 16 of the campaign&#39;s 50 variants" in figure


def test_a_table_prints_every_label_and_cell_as_text_escaped_as_hugo_escapes_it():
    """tables.html writes the table Hugo used to print from JSON: each label and cell escaped as
    Go's html/template escapes text (" ' & + < > and NUL), so hostile text stays text and the page
    is byte for byte what it was (layouts/_partials/data-table.html prints the HTML as is)."""
    from html.parser import HTMLParser

    hostile = ["<img src=x onerror=alert(1)>", "</td></tr></table><script>alert(2)</script>",
               "a \"quoted\" 'one' & +1", "nul\0here", "plain"]
    cell = tables.cell
    t = tables.shown(tables.table([(h, False) for h in hostile[:2]] + [(hostile[2], True)],
                                  [[cell(hostile[3]), cell(hostile[4]), cell(hostile[0], "lt1 s2")],
                                   [cell(hostile[1]), cell(""), cell(hostile[2])]]))
    out = tables.html(t)
    assert '&lt;img src=x onerror=alert(1)&gt;' in out and "&#34;quoted&#34; &#39;one&#39; &amp; &#43;1" in out
    assert "nul\ufffdhere" in out and "\0" not in out

    class Cells(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.tags, self.cells, self.text = [], [], None

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, attrs))
            if tag in ("th", "td"):
                self.text = ""

        def handle_endtag(self, tag):
            if tag in ("th", "td"):
                self.cells.append(self.text)

        def handle_data(self, data):
            if self.text is not None:
                self.text += data

    p = Cells()
    p.feed(out)
    assert {tag for tag, _ in p.tags} == {"div", "table", "thead", "tbody", "tr", "th", "td"}  # no other markup
    assert p.cells == [*hostile[:3], hostile[3].replace("\0", "\ufffd"), hostile[4], hostile[0], hostile[1], "",
                       hostile[2]]
    assert [a for tag, a in p.tags if tag == "td"][2] == [("class", "num lt1 s2")]


def test_the_escaper_gives_each_value_as_its_own_text():
    """Each distinct text escaped once, never another equal value's text (1, 1.0 and True are equal
    keys in Python), and never markup."""
    esc = tables.escaper()
    assert [esc(True), esc(1), esc(1.0), esc(0.0), esc(-0.0), esc(0)] == ["True", "1", "1.0", "0.0", "-0.0", "0"]
    assert esc('<a href="x">+1</a>') == "&lt;a href=&#34;x&#34;&gt;&#43;1&lt;/a&gt;"
