"""Throughput against threads draws a line per variant through one microbenchmark's points, picked
from a menu, and its table gives every microbenchmark's QPS at every thread count: a line through
35 microbenchmarks' points joined unrelated numbers, and the table showed one of them per row."""
from __future__ import annotations

import csv
import io
import re

import pytest

from test_browser import open_page

CAMPAIGN = "2025-10-02-ax162-s-scaleup-1-to-48"
CHART = f"threads-{CAMPAIGN}"


def _csv(site) -> list[dict]:
    return list(csv.DictReader(io.StringIO((site.public / "servers" / "ax162-s" / f"{CHART}.csv").read_text())))


def test_the_table_gives_each_microbenchmarks_qps_at_each_thread_count(site):
    rows = _csv(site)
    assert len({r["microbenchmark"] for r in rows}) > 30
    html = (site.public / "servers" / "ax162-s" / "index.html").read_text()
    figure = html.split(f'id="chart-{CHART}"', 1)[1].split("</figure>", 1)[0]
    header = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', figure)
    assert header[:3] == ["microbenchmark", "unit", "threads"]
    variants = header[3:]
    table = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", figure, re.S)[1:]:
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", tr)
        for v, text in zip(variants, cells[3:], strict=True):
            table[(cells[0], cells[2], v)] = (text, cells[1])
    assert table == {(r["microbenchmark"], r["threads"], r["variant"]): (f"{float(r['qps']):.2f}", r["unit"])
                     for r in rows}


def test_a_variant_given_as_a_number_is_the_contributors_error_not_a_crash():
    """YAML reads `variants: [8.0]` as a number: no variant is named so, which the page's author is
    told (file and chart), as for any other variant with no results."""
    from datadir import database
    from papercuts.paths import PROJECT
    from papercuts.problems import UserError
    from papercuts.render.charts import make_chart

    con = database(PROJECT / "data")
    d = {"id": "t", "title": "t", "kind": "throughput-lines", "campaign": CAMPAIGN, "server": "ax162-s",
         "variants": [8.0]}
    with pytest.raises(UserError, match="no results for 8.0 in campaign"):
        make_chart(con, d, "content/investigations/x.md")


@pytest.mark.browser
def test_the_menu_picks_the_microbenchmark_whose_lines_are_drawn(page, server, site):
    rows = _csv(site)
    assert open_page(page, server + "/servers/ax162-s/") == []
    chart = page.locator(f'.vega-chart[data-chart-id="{CHART}"]')
    assert chart.get_attribute("data-rendered") == "true"
    menu = chart.locator("select")  # the param pick_microbenchmark
    options = menu.locator("option").all_text_contents()
    assert options == sorted({r["microbenchmark"] for r in rows})
    points = chart.locator("g.mark-symbol.role-mark path")

    def drawn() -> list[tuple[float, float]]:
        return sorted(page.evaluate("""id => [...document.querySelectorAll(
            `.vega-chart[data-chart-id="${id}"] g.mark-symbol.role-mark path`)].map(p => {
                const b = p.getBoundingClientRect(); return [Math.round(b.x), Math.round(b.y)]; })""", CHART))

    def expected(microbenchmark: str) -> int:
        return sum(r["microbenchmark"] == microbenchmark for r in rows)

    assert points.count() == expected(options[0])  # a point per variant and thread count: one microbenchmark
    first = drawn()
    menu.select_option(options[-1])
    page.wait_for_function("([id, n]) => document.querySelectorAll("
                           "`.vega-chart[data-chart-id=\"${id}\"] g.mark-symbol.role-mark path`).length === n",
                           arg=[CHART, expected(options[-1])])
    assert drawn() != first  # another microbenchmark's QPS
