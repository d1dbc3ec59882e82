"""One number, one reading: a value the site shows in several places (a page's no-JS table, its
chart's CSV and tooltip, the explorer, the known-regressions list, the feed, `papercuts export`)
reads the same in each, and each is the database's value rounded by the site's one rule
(render/tables.py `fixed`: the double's exact value, a tie away from zero, as JavaScript's toFixed
and toPrecision and Vega's d3-format round it). Expected values are computed from the database
or data/, never copied from the output."""
from __future__ import annotations

import re
from html import unescape

import duckdb
import pytest

from papercuts.render.tables import fixed, significant

BEELINK = "2024-02-16-beelink-mysql-5-6-to-8-0"

# Exact binary ties at 2 decimals (odd multiples of 1/8), at 3 significant digits (12.25, 12350),
# decimal-looking ties that are not ties in binary (2.675, 1.005, 0.955, 0.001365: a vmstat cpu/o
# as data/ prints it), negatives and values that carry into a new digit (999.5, 0.995).
VALUES = [0.125, 0.375, 0.625, 0.875, 1.125, -0.125, -0.625, 0.5, 2.675, 1.005, 0.955, 0.995,
          0.001365, 0.006495, 8.305, 12.25, 12350.0, 123500.0, 999.5, 0.00505, 1.2, 0.56, 0.7]


def db(site):
    return duckdb.connect(str(site.db), read_only=True)


def cells(html: str) -> list[list[str]]:
    """The rows of the first data table in `html`, each cell's text."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def label(microbenchmark: str, rng) -> str:
    return microbenchmark if rng is None else f"{microbenchmark}_range={rng}"


def figure(html: str, chart_id: str) -> str:
    start = html.index(f'id="chart-{chart_id}"')
    return html[start:html.index("</figure>", start)]


def explorer(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered")
    assert page.locator("#explore-chart").get_attribute("data-error") is None


def explorer_table(page) -> list[dict]:
    head = page.locator("#explore-table thead th").all_inner_texts()
    return [dict(zip(head, row.locator("td").all_inner_texts(), strict=True))
            for row in page.locator("#explore-table tbody tr").all()]


@pytest.mark.browser
def test_the_sites_rounding_is_javascripts_and_vegas(page, server):
    """Python's format sends an exact tie to the even digit (0.125 -> 0.12) where toFixed and a
    chart's d3-format go away from zero (0.13): the pages' tables and the charts read differently."""
    page.goto(server + "/explore/")
    page.wait_for_function("() => window.vega && vega.defaultLocale")
    js = page.evaluate("""xs => xs.map(x => {
        const f = vega.defaultLocale().format;
        return [x.toFixed(2), f('.2f')(x), x.toFixed(0), f(',.3r')(x)]; })""", VALUES)
    for x, (to_fixed, d3_fixed, to_fixed_0, d3_significant) in zip(VALUES, js, strict=True):
        assert fixed(x) == to_fixed == d3_fixed.replace("\u2212", "-"), x
        assert fixed(x, 0) == to_fixed_0, x
        if x > 0:
            assert significant(x) == d3_significant, x


@pytest.mark.browser
def test_a_cost_reads_the_same_on_its_campaign_page_and_in_the_explorer(page, server, site):
    """cpu/o of the beelink ladder: the campaign page's cost table (relative (value)) and the
    explorer's cost table, opened by the chart's 'Explore this', print the same ratio and value,
    each the database's rounded by the one rule. The explorer's toLocaleString printed 0.001365 (as
    data/ has it) 0.00137 where the page printed 0.00136; its ratios had 3 decimals, the page 2."""
    html = (site.public / "campaigns" / BEELINK / "index.html").read_text()
    chart = next(c for c in re.findall(r'id="chart-(costs-[^"]+)"', html) if c.endswith("-1-my5621-rel-z10a-bee"))
    fig = figure(html, chart)
    head = [unescape(h) for h in re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', fig)]
    cpu = next(i for i, h in enumerate(head) if h.startswith("cpu/o"))
    shown = {(r[0], r[1]): r[cpu] for r in cells(fig) if r[cpu]}
    assert len(shown) > 50
    want = {(label(m, rng), v): (rel, value) for m, rng, v, rel, value in db(site).execute(
        "SELECT microbenchmark, \"range\", build || '.' || config, relative, value FROM op_costs "
        "WHERE campaign = ? AND server = 'beelink' AND threads = 1 AND metric = 'cpu_per_op' "
        "AND base_build || '.' || base_config = 'my5621_rel.z10a_bee'", [BEELINK]).fetchall()}
    href = unescape(re.search(r'class="explore-link"[^>]*href="([^"]+)"', fig).group(1))
    assert "metric=cpu_per_op" in href
    explorer(page, server + href.replace("view=bars", "view=table"))
    rows = {(r["microbenchmark"], r["variant"]): r for r in explorer_table(page) if r["variant"] != r["base variant"]}
    unit = next(h for h in next(iter(rows.values())) if h.startswith("value ("))
    every = {(label(m, rng), v): (value, base_value) for m, rng, v, value, base_value in db(site).execute(
        "SELECT microbenchmark, \"range\", build || '.' || config, value, base_value FROM op_costs "
        "WHERE campaign = ? AND server = 'beelink' AND threads = 1 AND metric = 'cpu_per_op' "
        "AND base_build || '.' || base_config = 'my5621_rel.z10a_bee'", [BEELINK]).fetchall()}
    base_unit = "base " + unit
    # every row the explorer prints (up to 400), not only the page's first 100: range-covered-pk's
    # 0.001365 is among them
    assert len(rows) > len(shown) and any(v == 0.001365 for pair in every.values() for v in pair)
    for key, r in rows.items():
        assert (r[unit], r[base_unit]) == tuple(significant(v) for v in every[key]), key
    for key, text in shown.items():
        rel, value = want[key]
        assert text == f"{fixed(rel)} ({significant(value)})", key
        assert (rows[key]["/ base"], rows[key][unit]) == (fixed(rel), significant(value)), key
