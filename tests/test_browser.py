"""Every chart on every page, rendered in Chromium under the production CSP."""
from __future__ import annotations

import csv
import io
import re

import pytest
from playwright.sync_api import expect

from papercuts.reader import draw_every_chart

pytestmark = pytest.mark.browser

# Pages are discovered from the build: every page that holds a chart is drawn in Chromium.
# These must be among them (a page losing its charts is a failure, not a smaller test).
MUST_HAVE_CHARTS = {
    "/investigations/innodb-busy-wait-8030/", "/investigations/innodb-myrocks-over-time/",
    "/investigations/kernel-mutex-thread-concurrency/", "/investigations/ut-delay-compiler-barrier/",
    "/investigations/mariadb-spin-wait-delay-vm/", "/servers/dell32/", "/servers/percona-2014/",
    "/servers/papercuts-vm2/", "/calibration/",
}


def all_pages(site) -> list[str]:
    """Every page but the embed pages: one per chart, each drawing the spec file of a chart drawn
    here already (tests/test_browser_embeds.py draws them in frames)."""
    urls = []
    for p in site.public.rglob("index.html"):
        rel = p.parent.relative_to(site.public).as_posix()
        if rel.startswith("embed/"):
            continue
        urls.append("/" if rel == "." else f"/{rel}/")
    return sorted(urls)


def open_page(page, url):
    """Load a page, wait until every chart is rendered or failed, return console problems."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    response = page.goto(url)
    assert "unsafe-eval" not in response.headers["content-security-policy"]
    assert "script-src 'self'" in response.headers["content-security-policy"]
    draw_every_chart(page)
    page.wait_for_load_state("networkidle")  # the favicon and late requests are checked too
    return problems


def csv_rows(server, page, chart) -> list[dict]:
    href = chart.locator("xpath=ancestor::figure").locator("p.downloads a[download]").first.get_attribute("href")
    text = page.request.get(server + href).text()
    return list(csv.DictReader(io.StringIO(text)))


def menu_rows(spec: dict, rows: list[dict]) -> list[dict]:
    """The rows a chart draws first: all, or those its menus pick (a field filter on a bound param,
    as throughput against threads has: specs.throughput_lines), of its own column of a shared file."""
    picked = {p["name"]: p["value"] for p in spec.get("params", []) if isinstance(p.get("bind"), dict)}
    for t in spec.get("transform", []):
        f = t["filter"]
        if f.get("valid"):  # a chart's own rows of a file charts share: its column filled
            rows = [r for r in rows if r[f["field"]] != ""]
        else:
            rows = [r for r in rows if r[f["field"]] == picked[f["equal"]["expr"]]]
    return rows


def pages_with_charts(site) -> list[str]:
    return [u for u in all_pages(site)
            if 'class="vega-chart"' in (site.public / u.strip("/") / "index.html").read_text()]


def test_every_chart_on_every_page_renders_its_csv_rows_without_errors(context, server, site):
    urls = pages_with_charts(site)
    assert MUST_HAVE_CHARTS <= set(urls)
    for url in urls:
        page = context.new_page()
        problems = open_page(page, server + url)
        charts = page.locator(".vega-chart").all()
        assert charts, url
        for chart in charts:
            cid = chart.get_attribute("data-chart-id")
            assert chart.get_attribute("data-error") is None, (url, cid)
            rows = menu_rows(page.request.get(server + chart.get_attribute("data-spec-url")).json(),
                             csv_rows(server, page, chart))
            assert int(chart.get_attribute("data-rows")) == len(rows) > 0, (url, cid)
            assert chart.locator("svg").count() == 1, (url, cid)
        assert problems == [], url
        page.close()


def test_pages_without_charts_load_cleanly(context, server, site):
    urls = sorted(set(all_pages(site)) - set(pages_with_charts(site)))
    assert "/" in urls and "/contract/" in urls and "/investigations/myrocks-2x-less-slow/" in urls
    for url in urls:
        page = context.new_page()
        assert open_page(page, server + url) == [], url
        assert page.locator("main h1, h1").count() >= 1, url
        page.close()


def test_rqps_bars_draw_one_bar_per_row_and_the_regression_is_visible(page, server):
    open_page(page, server + "/investigations/innodb-busy-wait-8030/")
    chart = page.locator('.vega-chart[data-chart-id="dell32-rqps"]')
    bars = chart.locator("g.mark-rect path")
    assert bars.count() == 119
    # The table under it shows seed 000's update-index row as published.
    row = page.locator("#chart-dell32-rqps table tr", has_text="update-index_range=100")
    cells = [c.strip(" ▲▼") for c in row.locator("td").all_inner_texts()[2:]]
    assert cells == ["0.56", "0.56", "0.67", "0.70", "0.71", "0.70", "0.69"]


def test_legend_click_isolates_a_series(page, server):
    open_page(page, server + "/investigations/innodb-busy-wait-8030/")
    chart = page.locator('.vega-chart[data-chart-id="dell32-rqps"]')
    faded = ("() => document.querySelectorAll("
             "'[data-chart-id=\"dell32-rqps\"] g.mark-rect path[opacity=\"0.15\"]').length")
    assert page.evaluate(faded) == 0
    chart.locator("g.role-legend-symbol path").first.click()
    page.wait_for_function(f"() => ({faded})() > 0")
    assert page.evaluate(faded) == 119 - 17  # every other variant fades, one bar per microbenchmark stays


def test_tooltip_shows_absolute_values(page, server):
    open_page(page, server + "/servers/percona-2014/")
    chart = page.locator('.vega-chart[data-chart-id^="heatmap-2014-04-16-itc-at-256"]')
    chart.locator("g.mark-text text").first.hover()  # the printed value sits on the cell
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible")
    text = tooltip.inner_text()
    assert "137,999.96" in text and "68,369.02" in text  # itc4 QPS and the itc0 base QPS


def test_log_scale_thread_axis(page, server):
    open_page(page, server + "/investigations/kernel-mutex-thread-concurrency/")
    labels = page.locator('.vega-chart[data-chart-id="itc-vs-threads"] g.role-axis-label text').all_text_contents()
    assert "1,024" in labels and "1" in labels


def _marks(page, chart_id: str, mark: str) -> int:
    return page.locator(f'.vega-chart[data-chart-id="{chart_id}"] g.mark-{mark}.role-mark > path').count()


def _row(page, chart_id: str, *first_cells: str) -> list[str]:
    """The cells after first_cells of the table row under a chart that starts with them."""
    for row in page.locator(f"#chart-{chart_id} table tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        if cells[:len(first_cells)] == list(first_cells):
            return cells[len(first_cells):]
    raise AssertionError(f"no row {first_cells} under chart {chart_id}")


def test_calibration_charts_draw_every_row_and_show_the_seed_numbers(page, server):
    open_page(page, server + "/investigations/innodb-busy-wait-8030/")
    # seed 000: 5 servers × (6 delays in 8.0.28 + 7 in 8.0.40), a point each
    assert _marks(page, "ut-delay", "symbol") == 65
    assert _row(page, "ut-delay", "dell32", "MySQL 8.0.40")[:7] == ["0.00", "1.23", "2.46", "3.69", "4.91", "6.14",
                                                                     "7.40"]
    # 5 servers × 3 functions × 3 flags, a bar each; the fast column once, as one measurement
    assert _marks(page, "prng-cost", "rect") == 45
    assert _row(page, "prng-cost", "ut::random_from_interval_fast 8.0.40 · X in [0, N]", "dell32") == ["26", "27",
                                                                                                       "27"]
    # innodb_spin_wait_delay 1..10 × 2 rules × 5 servers; at N = 6 the mean goes 2.5 → 3.0, ×1.2
    assert _marks(page, "spin-wait", "symbol") == 100
    assert _row(page, "spin-wait", "6")[:3] == ["2.5", "3.0", "1.20"]
    assert _marks(page, "draw-cost", "rect") == 45
    assert _row(page, "calibration-servers", "socket2")[-1] == "26"  # the CYCLE timer overhead


def test_ut_delay_tooltip_and_legend(page, server):
    open_page(page, server + "/investigations/innodb-busy-wait-8030/")
    chart = page.locator('.vega-chart[data-chart-id="ut-delay"]')
    faded = ("() => document.querySelectorAll("
             "'[data-chart-id=\"ut-delay\"] g.mark-symbol.role-mark path[opacity=\"0.15\"]').length")
    assert page.evaluate(faded) == 0
    chart.locator("g.role-legend-symbol path").first.click()  # beelink
    page.wait_for_function(f"() => ({faded})() > 0")
    assert page.evaluate(faded) == 65 - 13
    page.mouse.move(0, 0)
    chart.locator("g.mark-symbol.role-mark path").nth(12).hover()  # beelink, 8.0.40, X = 6
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible")
    assert "9.91" in tooltip.inner_text()


def test_calibration_page_compares_servers_and_references_seed_004(page, server):
    open_page(page, server + "/calibration/")
    assert _marks(page, "servers", "rect") == 5
    assert _marks(page, "timebase", "symbol") == 22  # 1 + 1 + 10 + 10 runs, from the campaign's file
    assert _row(page, "timebase", "ut_delay_optim")[:2] == ["1", "225.0"]
    assert page.locator("section.calibration-entry").count() == 6
    entry = page.locator('[id="2024-10-23-dell32-busy-wait"]')
    href = entry.locator("a[download]", has_text="ut_delay.csv").get_attribute("href")
    assert page.request.get(server + href).text().startswith("series,version,delay,us_per_call,calls\n")


def test_costs_per_operation_are_drawn_beside_rqps(page, server):
    open_page(page, server + "/investigations/mariadb-spin-wait-delay-vm/")
    # 8 measures (rQPS, 5 from vmstat/iostat, 2 from perf stat) × 4 microbenchmarks × 2 variants
    assert _marks(page, "costs-t1", "rect") == 64
    headers = page.locator("#chart-costs-t1 table thead th").all_inner_texts()
    assert [h.strip() for h in headers][2:] == [
        "rQPS", "cpu/o (vmstat): relative (value in (us+sy)% / (ops/s))",
        "cs/o (vmstat): relative (value in switches)", "r/o (iostat): relative (value in reads)",
        "rKB/o (iostat): relative (value in KB)", "wKB/o (iostat): relative (value in KB)",
        "cpu ms/q (perf stat): relative (value in ms)", "cs/q (perf stat): relative (value in switches)"]
    cells = _row(page, "costs-t1", "point-query", "ma101119_deb12.spin0")
    assert cells[0].strip(" ▲▼") == "1.32"  # 19675.50 + 8720.44 over 13077.21 + 8396.01, halves
    assert _marks(page, "repetitions", "symbol") == 48  # 4 tests × 2 thread counts × 3 settings × 2 runs
    assert _row(page, "repetitions", "point-query", "1", "ma101119_deb12.spin0", "1") == [
        "19675.50", "queries/s", "2.26"]
    chart = page.locator('.vega-chart[data-chart-id="costs-t2"]')
    chart.locator("g.mark-rect.role-mark path").last.hover()  # cs/q, the last panel
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible")
    assert "cs/q (perf stat)" in tooltip.inner_text() and "switches" in tooltip.inner_text()


def test_profiles_draw_an_icicle_its_differential_and_the_top_symbols(page, server):
    open_page(page, server + "/investigations/mariadb-spin-wait-delay-vm/")
    for cid in ("flame-spin4", "flame-diff"):  # a rectangle per frame node of the CSV
        chart = page.locator(f'.vega-chart[data-chart-id="{cid}"]')
        assert _marks(page, cid, "rect") == int(chart.get_attribute("data-rows")) > 100
    assert _row(page, "profile-top", "finish_task_switch.isra.0") == ["18.35%", "18.59%"]
    assert _marks(page, "profile-top", "rect") == 30  # 15 symbols × 2 variants
    chart = page.locator('.vega-chart[data-chart-id="flame-diff"]')
    chart.locator("g.mark-rect.role-mark path").first.hover()  # the root, "all"
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible")
    text = tooltip.inner_text()
    assert "all" in text and "total in base" in text and "100.00%" in text
    # the profiles are named in the subtitle, never in a channel title (see profile_specs)
    subtitle = chart.locator("g.role-title-subtitle").text_content()
    assert "target: ma101119_deb12.spin24" in subtitle and "base: ma101119_deb12.spin4" in subtitle


def test_seed_004_profile_and_psdoit_charts_draw_every_printed_number(page, server):
    open_page(page, server + "/investigations/ut-delay-compiler-barrier/")
    assert _marks(page, "psdoit-timings", "symbol") == 5  # 1, 10, 100, 200 and 400 clients
    assert _row(page, "psdoit-timings", "psdoit on MariaDB 10.0.17", "100") == ["7.150", "s"]
    assert _marks(page, "profile-shares", "rect") == 2
    assert _row(page, "profile-shares", "ut_delay(unsigned long)") == ["37.42", "%"]
    assert _row(page, "profile-shares", "_raw_spin_lock (kernel)") == ["27.96", "%"]
    assert _marks(page, "profile-callers", "rect") == 9
    assert _row(page, "profile-callers", "… __lll_lock_wait ← pthread_mutex_lock") == ["83.30", "%"]
    # The tooltip shows the share as printed, trailing zero kept (74.70, not 74.7).
    chart = page.locator('.vega-chart[data-chart-id="profile-callers"]')
    chart.locator("g.mark-rect.role-mark path").nth(1).hover()
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible")
    assert "74.70" in tooltip.inner_text()


def test_a_large_table_shows_its_cells_when_the_reader_scrolls_to_it(page, server):
    """A large table is laid out only near the viewport (content-visibility): scrolled to, it
    shows its header and numbers as any table does, and it is in the page's text all along."""
    open_page(page, server + "/campaigns/2024-02-16-beelink-mysql-5-6-to-8-0/")  # the server page links it
    wrap = page.locator("#chart-costs-2024-02-16-beelink-mysql-5-6-to-8-0-1-my5621-rel-z10a-bee .table-wrap")
    assert wrap.get_attribute("class") == "table-wrap large"
    assert "microbenchmark" in wrap.text_content()
    wrap.scroll_into_view_if_needed()
    # laid out on the next frame after it nears the viewport: wait for it as a reader's eye would
    expect(wrap.locator("thead th").first).to_have_text("microbenchmark", use_inner_text=True)
    headers = wrap.locator("thead th").all_inner_texts()
    assert headers[:3] == ["microbenchmark", "variant", "rQPS"]
    first = [c.strip(" ▲▼") for c in wrap.locator("tbody tr").first.locator("td").all_inner_texts()]
    assert len(first) == len(headers) and re.fullmatch(r"\d+\.\d\d", first[2]), first


def _drawn_near(page) -> int:
    """How many charts were drawn near the viewport, once none is drawing and no other has begun:
    a chart drawn shorter than the height it held moves those below it up, into the zone where
    drawing begins."""
    count = -1
    for _ in range(20):
        expect(page.locator(".vega-chart[data-drawing]:not([data-rendered])")).to_have_count(0)
        now = page.locator(".vega-chart[data-drawing]").count()
        if now == count:
            return count
        count = now
        page.wait_for_timeout(250)
    raise AssertionError(f"charts kept beginning to draw without a scroll ({count})")


def test_a_chart_is_fetched_and_drawn_as_the_reader_nears_it_and_every_chart_for_print(page, server):
    """A page of 40 charts fetches the specs and CSVs of those within a screen of the viewport, not
    all 40 before the first screen is ready; the others are drawn as the reader scrolls to them,
    and every one before printing."""
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if r.url.endswith((".vl.json", ".csv")) else None)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(server + "/servers/ax162-s/")
    charts = page.locator(".vega-chart")
    assert charts.count() == 40
    page.wait_for_load_state("networkidle")
    tops = charts.evaluate_all("els => els.map(el => el.getBoundingClientRect().top)")
    assert tops[0] > 2 * 900  # hardware, ladders and campaigns first: no chart within a screen
    assert fetched == [] and page.locator(".vega-chart[data-drawing]").count() == 0
    charts.first.scroll_into_view_if_needed()
    expect(charts.first).to_have_attribute("data-rendered", "true")
    # Every chart begun near the viewport drawn (its spec and CSV fetched) before counting: the load
    # state "networkidle" was reached at the first load, so waiting for it again did not wait, and
    # CI once counted a chart whose CSV was not yet asked for (5 requests for 3 charts).
    near = _drawn_near(page)
    assert 1 <= near <= 8, near
    assert len(fetched) == 2 * near  # a spec and its CSV per chart drawn, nothing for the rest
    last = charts.last
    assert last.get_attribute("data-drawing") is None and last.locator("svg").count() == 0
    last.scroll_into_view_if_needed()
    expect(last).to_have_attribute("data-rendered", "true")
    assert last.locator("svg").count() == 1 and len(fetched) > 2 * near
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    expect(page.locator(".vega-chart[data-rendered='true']")).to_have_count(40)
