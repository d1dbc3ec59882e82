"""Readable on a phone: no page wider than the screen, and charts fit it."""
from __future__ import annotations

import pytest

from papercuts.reader import draw_every_chart

pytestmark = pytest.mark.browser


def pages(site) -> list[str]:
    out = []
    for p in site.public.rglob("index.html"):
        rel = p.parent.relative_to(site.public).as_posix()
        if rel.startswith("embed/"):  # one per chart: test_browser_embeds.py frames them at phone width
            continue
        out.append("/" if rel == "." else f"/{rel}/")
    return sorted(out)


@pytest.mark.parametrize("width", [390, 1366])
def test_no_page_is_wider_than_the_screen(browser, server, site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    wide = []
    for url in pages(site):
        page.goto(server + url)
        draw_every_chart(page)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            wide.append((url, scroll))
    context.close()
    assert wide == []


def test_a_bar_chart_fits_a_phone_with_its_one_line(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + "/investigations/innodb-busy-wait-8030/")
    chart = page.locator('.vega-chart[data-chart-id="dell32-rqps"]')
    chart.scroll_into_view_if_needed()  # drawn as the reader nears it
    page.wait_for_function("() => document.querySelector('.vega-chart[data-chart-id=\"dell32-rqps\"]')"
                           ".dataset.rendered === 'true'")
    # Every panel's plot area (its x axis, 1.0 line and bars) is on screen; only long legend
    # labels may need the chart box's own scroll.
    axes = chart.locator("g.role-axis-domain")
    assert axes.count() >= 3
    for i in range(axes.count()):
        box = axes.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    context.close()


def test_wide_tables_keep_their_first_column_in_view(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + "/investigations/innodb-busy-wait-8030/")
    cell = page.locator("#chart-dell32-rqps table.data-table td").first
    assert cell.evaluate("e => getComputedStyle(e).position") == "sticky"
    wrap = page.locator("#chart-dell32-rqps .table-wrap")
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")  # it does scroll, and says so
    context.close()


def test_each_filter_of_the_regressions_index_keeps_its_name_beside_its_menu_on_a_phone(browser, server):
    """At 390 px the filters wrapped between a name and its menu: 'group [all] server' ended a line
    and the server's menu began the next, beside 'threads', so a menu read as the next name's. Each
    name is on the line of its own menu, just left of it, and filtering by it still works."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(server + "/regressions/")
    labels = page.locator("form.filters label")
    assert labels.count() == 5
    apart = page.evaluate("""() => [...document.querySelectorAll('form.filters label')].map(label => {
        const range = document.createRange();
        range.selectNodeContents(label.firstChild);  // the name: the label's text before its menu
        const name = range.getBoundingClientRect(), menu = label.querySelector('select').getBoundingClientRect();
        return [label.firstChild.textContent.trim(), Math.abs((name.top + name.bottom) - (menu.top + menu.bottom)) / 2,
                menu.left - name.right];
    })""")
    assert [n for n, _, _ in apart] == ["dbms", "group", "server", "threads", "direction"]
    assert all(dy < 8 and 0 <= dx < 20 for _, dy, dx in apart), apart
    page.select_option('select[data-filter="server"]', "pn53")
    shown = page.locator("table.changes tbody tr:not([hidden])")
    assert shown.count() > 0 and all("pn53" in t for t in shown.all_inner_texts()[:20])
    context.close()
