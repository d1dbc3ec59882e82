"""What a reader can read of a chart: a chart wider than a phone scrolls to its last column, on its
page and on its embed page; no legend or axis label is cut short (two variants differing at their
ends read alike); and the explorer shows no dead controls without JavaScript."""
from __future__ import annotations

import pytest

from papercuts.reader import draw_every_chart
from test_browser import csv_rows

pytestmark = pytest.mark.browser

LADDER = "ladder-2026-03-24-pn53-mysql-5-6-to-9-7-pn53-mysql-innodb-c8r32-1"
WIDE = [f"/ladders/pn53-mysql-1/#chart-{LADDER}", f"/embed/ladders/pn53-mysql-1/{LADDER}/"]
CUT = 'el => [...el.querySelectorAll("svg text")].map(t => t.textContent).filter(t => t.endsWith("…"))'


@pytest.mark.parametrize("url", WIDE)
def test_a_wide_chart_scrolls_to_its_last_build_on_a_phone(browser, server, url):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + url)
    chart = page.locator(f'.vega-chart[data-chart-id="{LADDER}"]')
    chart.scroll_into_view_if_needed()
    page.wait_for_function("el => el.dataset.rendered === 'true'", arg=chart.element_handle())
    # The box the reader sees is what scrolls (a wrapper inside it that scrolled left it at its own
    # width, no bar on it), and says it does.
    assert chart.evaluate("e => e.scrollWidth") > chart.evaluate("e => e.clientWidth")
    assert chart.get_attribute("data-wide") == "true"
    assert "scroll" in chart.evaluate("e => getComputedStyle(e, '::before').content")
    last = chart.locator("g.role-axis-label text", has_text="9.7.0")
    assert last.bounding_box()["x"] > 390  # off-screen until scrolled
    chart.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    box = last.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page itself does not
    context.close()


@pytest.mark.parametrize("width", [390, 720])
def test_no_legend_or_axis_label_is_cut_short(browser, server, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    cut = {}
    for url in ["/investigations/innodb-busy-wait-8030/", "/ladders/pn53-mysql-1/",
                "/embed/investigations/innodb-busy-wait-8030/dell32-rqps/"]:
        page.goto(server + url)
        draw_every_chart(page)
        for chart in page.locator(".vega-chart").all():
            texts = chart.evaluate(CUT)
            if texts:
                cut[(url, chart.get_attribute("data-chart-id"))] = texts
    context.close()
    assert cut == {}


# Pairs of numeric tick labels of one horizontal axis drawn less than 3 px apart: "1.0" and a last
# label flush with the axis end ("1.1") read "1.01.1" 1.6 px apart.
TOUCHING = """el => [...el.querySelectorAll("g.role-axis")].flatMap(axis => {
  const shown = [...axis.querySelectorAll("g.role-axis-label text")]
    .filter(t => /^[-+]?[0-9.,]+[%k]?$/.test(t.textContent) && t.getAttribute("opacity") !== "0"
                 && Number(getComputedStyle(t).opacity) > 0)
    .map(t => [t.textContent, t.getBoundingClientRect()]).filter(([, b]) => b.width > 0);
  const rows = shown.filter(([, b]) => Math.abs(b.top - shown[0][1].top) < 1).sort((a, b) => a[1].left - b[1].left);
  return rows.slice(1).filter(([, b], i) => b.left - rows[i][1].right < 3).map(([t], i) => rows[i][0] + "|" + t);
})"""


def test_numeric_ticks_never_touch_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + "/investigations/innodb-busy-wait-8030/")
    draw_every_chart(page)
    touching = {chart.get_attribute("data-chart-id"): texts for chart in page.locator(".vega-chart").all()
                if (texts := chart.evaluate(TOUCHING))}
    context.close()
    assert touching == {}

def test_the_explorer_legend_is_whole(browser, server):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(server + "/explore/")  # ax162-s: ma100244_rel_withdbg.z12a_c32r128 and its like
    page.wait_for_function("() => Number(document.getElementById('explore-chart').dataset.rendered || 0) >= 1",
                           timeout=20000)
    assert page.locator("#explore-chart svg g.role-legend-label text").count() > 0
    assert page.locator("#explore-chart").evaluate(CUT) == []
    context.close()


def test_the_explorer_without_javascript_shows_its_note_and_no_controls(browser, server):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/explore/")
    assert "needs JavaScript" in page.locator("main").inner_text()
    for dead in ["select", "#explore-csv", "#explore-table-box", "#config-diff"]:
        assert page.locator(dead).first.is_visible() is False, dead
    context.close()
    # With JavaScript the controls are there to use.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(server + "/explore/")
    page.wait_for_function("() => Number(document.getElementById('explore-chart').dataset.rendered || 0) >= 1",
                           timeout=20000)
    assert page.locator('select[name="server"]').is_visible()
    assert page.locator("#explore-csv").is_visible()
    context.close()


# Every tick label shown on a chart's log axis (not one hidden as overlapping): Vega labels only
# some of the ticks it picks itself on a log scale (d3's log tickFormat returns "" for the others).
LOG_AXIS_LABELS = """el => [...el.querySelectorAll("g.role-axis")]
  .filter(a => [...a.querySelectorAll("g.role-axis-title text")].some(t => t.textContent.includes("(log)")))
  .map(a => [...a.querySelectorAll("g.role-axis-label text")]
    .filter(t => t.getAttribute("opacity") !== "0" && Number(getComputedStyle(t).opacity) > 0)
    .map(t => t.textContent))"""


def test_every_ladder_charts_log_axis_labels_its_ticks_down_to_the_lowest_point(browser, server, site):
    """ax162-s's MySQL ladder at 8 threads falls from 1.00 to 0.69, and its axis labelled 0.96, 0.98
    and 1 and left the 13 ticks below them blank: no value of 8.0.43 onwards could be read off it.
    On every ladder page each tick is labelled, five or more of them, from one at or below the
    lowest point to one at or above the highest (the rows of the chart's own CSV, and 1.0)."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    ladders = sorted(p.parent.name for p in (site.public / "ladders").glob("*/index.html"))
    assert "ax162-s-mysql-8" in ladders and len(ladders) > 20
    unreadable = {}
    for name in ladders:
        page.goto(f"{server}/ladders/{name}/")
        draw_every_chart(page)
        for chart in page.locator(".vega-chart").all():
            axes = chart.evaluate(LOG_AXIS_LABELS)
            assert len(axes) == 1, (name, axes)
            labels = axes[0]
            values = [float(r["rqps"]) for r in csv_rows(server, page, chart) if r["rqps"]] + [1.0]
            ticks = sorted(float(t) for t in labels if t)
            lo, hi = min(values), max(values)
            reaches = bool(ticks) and ticks[0] <= lo and ticks[-1] >= hi and (len(ticks) >= 5 or lo == hi)
            if "" in labels or not reaches:
                unreadable[name] = (labels, lo, hi)
    context.close()
    assert unreadable == {}


def test_the_explorers_numeric_ticks_never_touch_on_a_phone(browser, server):
    """The explorer's first view on a phone: its bars' log axis of rQPS drew 0.4 beside 0.5 and 0.7
    beside 0.9, under 3 px apart, read '0.40.5' and '0.70.9'. No two of its numeric labels touch,
    and the axis still labels 1's neighbourhood (a label each side of the 1.0 rule)."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + "/explore/")
    page.wait_for_function("() => Number(document.getElementById('explore-chart').dataset.rendered || 0) >= 1",
                           timeout=20000)
    chart = page.locator("#explore-chart")
    touching = chart.evaluate(TOUCHING)
    shown = chart.evaluate("""el => [...el.querySelectorAll("g.role-axis-label text")]
        .filter(t => t.getAttribute("opacity") !== "0" && /^[0-9.]+$/.test(t.textContent))
        .map(t => Number(t.textContent))""")
    context.close()
    assert touching == []
    assert any(v < 1 for v in shown) and any(v >= 1 for v in shown), shown


def test_the_explorers_chart_says_it_scrolls_on_a_phone_and_its_legend_is_reached(browser, server):
    """The explorer's first view on a phone drew its bars 562 px wide in a 350 px box that scrolls,
    with the legend (which colour is which of 10 versions) wholly past the right edge and nothing
    saying so. The box says it scrolls, as the site's wide charts do, and scrolled to its end it
    shows the legend; on a desktop screen it fits and says nothing."""
    wait = "() => Number(document.getElementById('explore-chart').dataset.rendered || 0) >= 1"
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + "/explore/")
    page.wait_for_function(wait, timeout=20000)
    chart = page.locator("#explore-chart")
    assert chart.evaluate("e => e.scrollWidth") > chart.evaluate("e => e.clientWidth")
    assert chart.get_attribute("data-wide") == "true"
    assert "scroll" in chart.evaluate("e => getComputedStyle(e, '::before').content")
    legend = chart.locator("g.role-legend").first
    assert legend.bounding_box()["x"] >= 390  # past the edge until scrolled
    chart.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    box = legend.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= 390, box
    context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(server + "/explore/")
    page.wait_for_function(wait, timeout=20000)
    assert page.locator("#explore-chart").get_attribute("data-wide") is None
    context.close()
