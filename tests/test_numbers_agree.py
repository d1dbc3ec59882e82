"""One number, one reading: a value the site shows in several places (a page's no-JS table, its
chart's CSV and tooltip, the explorer, the known-regressions list, the feed, `papercuts export`)
reads the same in each, and each is the database's value rounded by the site's one rule
(render/tables.py `fixed`: the double's exact value, a tie away from zero, as JavaScript's toFixed
and toPrecision and Vega's d3-format round it). Expected values are computed from the database
or data/, never copied from the output."""
from __future__ import annotations

import csv
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


COSTED = [(BEELINK, "beelink", "my5621_rel.z10a_bee", "cpu_per_op", "cpu/o"),
          ("2026-03-24-pn53-mysql-5-6-to-9-7", "pn53", "my5651_rel_o2nofp.z12a_c8r32", "cpu_per_op", "cpu/o"),
          ("2026-03-24-pn53-mysql-5-6-to-9-7", "pn53", "my5651_rel_o2nofp.z12a_c8r32", "cs_per_op", "cs/o")]


@pytest.mark.browser
@pytest.mark.parametrize("campaign, server_id, base, metric, heading", COSTED)
def test_a_cost_reads_the_same_on_its_campaign_page_and_in_the_explorer(page, server, site, campaign, server_id,
                                                                        base, metric, heading):
    """cpu/o and cs/o at 1 thread: the campaign page's cost table (relative (value)) and the
    explorer's cost table, opened by the chart's 'Explore this', print the same ratio and value,
    each the database's rounded by the one rule. The explorer's toLocaleString printed 0.001365 (as
    data/ has it, beelink) 0.00137 where the page printed 0.00136; its ratios had 3 decimals, the
    page 2."""
    html = (site.public / "campaigns" / campaign / "index.html").read_text()
    chart = next(c for c in re.findall(r'id="chart-(costs-[^"]+)"', html)
                 if c.endswith("-1-" + base.replace(".", "-").replace("_", "-")))
    fig = figure(html, chart)
    head = [unescape(h) for h in re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', fig)]
    column = next(i for i, h in enumerate(head) if h.startswith(heading + " "))
    shown = {(r[0], r[1]): r[column] for r in cells(fig) if r[column]}
    assert len(shown) > 50
    every = {(label(m, rng), v): (rel, value, base_value) for m, rng, v, rel, value, base_value in db(site).execute(
        "SELECT microbenchmark, \"range\", build || '.' || config, relative, value, base_value FROM op_costs "
        "WHERE campaign = ? AND server = ? AND threads = 1 AND metric = ? "
        "AND base_build || '.' || base_config = ?", [campaign, server_id, metric, base]).fetchall()}
    href = unescape(re.search(r'class="explore-link"[^>]*href="([^"]+)"', fig).group(1))
    explorer(page, server + href.replace("view=bars", "view=table").replace("metric=cpu_per_op", f"metric={metric}"))
    assert page.locator("select[name=metric]").input_value() == metric
    rows = {(r["microbenchmark"], r["variant"]): r for r in explorer_table(page) if r["variant"] != r["base variant"]}
    unit = next(h for h in next(iter(rows.values())) if h.startswith("value ("))
    # every row the explorer prints (up to 400), not only the page's first 100
    assert len(rows) > len(shown)
    for key, r in rows.items():
        rel, value, base_value = every[key]
        want = (fixed(rel), significant(value), significant(base_value))
        assert (r["/ base"], r[unit], r["base " + unit]) == want, key
    for key, text in shown.items():
        rel, value, _ = every[key]
        assert text == f"{fixed(rel)} ({significant(value)})", key
        assert (rows[key]["/ base"], rows[key][unit]) == (fixed(rel), significant(value)), key
    if campaign == BEELINK:  # the value that read 0.00137 in the explorer
        assert any(0.001365 in v[1:] for v in every.values())


BUSY = "2024-10-23-busy-wait-dell32"
BUSY_BASE = "my8028_rel_o2nofp.z11a_c32r128"
INVESTIGATION = "innodb-busy-wait-8030"


def busy_rqps(site, microbenchmark: str | None = "update-index") -> dict[tuple[str, str], float]:
    """(label, variant) -> rQPS of the busy-wait comparison at 24 threads, from the database."""
    where = "AND microbenchmark = ?" if microbenchmark else "AND ? IS NULL"
    return {(label(m, rng), v): x for m, rng, v, x in db(site).execute(
        "SELECT microbenchmark, \"range\", build || '.' || config, rqps FROM rqps WHERE campaign = ? "
        f"AND server = 'dell32' AND threads = 24 AND base_build || '.' || base_config = ? {where}",
        [BUSY, BUSY_BASE, microbenchmark]).fetchall()}


def table_by_variant(fig: str) -> dict[tuple[str, str], str]:
    """A no-JS rQPS table (group, microbenchmark, a column per variant) as (label, variant) -> text."""
    head = [unescape(h) for h in re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', fig)]
    return {(row[1], v): row[i] for row in cells(fig) for i, v in enumerate(head) if i >= 2 and row[i]}


def test_update_index_of_the_busy_wait_campaign_reads_the_same_everywhere(site, tmp_path):
    """update-index rQPS of MySQL 8.0.40 against 8.0.28 on dell32 at 24 threads, followed through
    the site: data/'s relative.csv, the rqps table, the campaign heatmap's CSV and no-JS table, the
    server page and the embed page (the same spec and CSV), the investigation's table and CSV, the
    known-regressions list on /regressions/ and `papercuts export rqps`."""
    from papercuts.export import export
    from papercuts.paths import PROJECT, Paths

    want = busy_rqps(site)
    assert len(want) == 7
    # data/ as contributed, to the last digit
    with open(PROJECT / "data" / "campaigns" / BUSY / "relative.csv", newline="") as f:
        data = {(label(r["microbenchmark"], int(r["range"]) if r["range"] else None), f"{r['build']}.{r['config']}"):
                float(r["rqps"]) for r in csv.DictReader(f) if r["microbenchmark"] == "update-index"}
    assert data == want
    public = site.public
    html = (public / "campaigns" / BUSY / "index.html").read_text()
    chart = next(c for c in re.findall(r'id="chart-(heatmap-[^"]+)"', html) if "-24-" in c)
    fig = figure(html, chart)
    csv_href = re.search(r'<a href="([^"]+\.csv)" download>', fig).group(1)
    spec_href = re.search(r'data-spec-url="([^"]+)"', fig).group(1)
    rows = list(csv.DictReader((public / csv_href.lstrip("/")).open()))
    assert {(r["microbenchmark"], r["variant"]): float(r["rqps_t24"]) for r in rows
            if r["microbenchmark"].startswith("update-index_")} == want
    shown = table_by_variant(fig)
    assert {k: shown[k] for k in want} == {k: fixed(v) for k, v in want.items()}
    # the server page and the embed page draw the campaign's own spec and CSV
    for page in [public / "servers" / "dell32" / "index.html",
                 *(public / "embed").rglob(f"{chart}/index.html")]:
        text = page.read_text()
        assert f'data-spec-url="{spec_href}"' in text and f'href="{csv_href}"' in text, page
    # the investigation's table and CSV
    inv = (public / "investigations" / INVESTIGATION / "index.html").read_text()
    fig = figure(inv, "dell32-rqps")
    shown = table_by_variant(fig)
    assert {k: shown[k] for k in want} == {k: fixed(v) for k, v in want.items()}
    inv_csv = re.search(r'<a href="([^"]+\.csv)" download>', fig).group(1)
    inv_rows = list(csv.DictReader((public / inv_csv.lstrip("/")).open()))
    field = next(f for f in inv_rows[0] if f == "rqps" or f.startswith("rqps_t24"))
    assert {(r["microbenchmark"], r["variant"]): float(r[field]) for r in inv_rows
            if r["microbenchmark"].startswith("update-index_")} == want
    # the known-regressions list (bug-116463)
    reg = (public / "regressions" / "index.html").read_text()
    known = reg.split('id="known-bug-116463"', 1)[1].split("</li>", 1)[0]
    listed = {re.search(r"\(([^)]+)\)", r[0]).group(1): r[1] for r in cells(known)}
    assert listed == {v: fixed(x) for (_, v), x in want.items()}
    # papercuts export rqps, at full precision
    path, _ = export(Paths.make(), "rqps", str(tmp_path / "rqps.csv"))
    exported = {(label(r["microbenchmark"], int(r["range"]) if r["range"] else None), r["variant"]): float(r["rqps"])
                for r in csv.DictReader(path.open()) if r["campaign"] == BUSY and r["threads"] == "24"
                and r["base_variant"] == BUSY_BASE and r["microbenchmark"] == "update-index"}
    assert exported == want


@pytest.mark.browser
def test_the_explorer_reads_the_busy_wait_campaign_as_its_page_does(page, server, site):
    """The campaign heatmap's 'Explore this', as a table: every rQPS the explorer prints (and its
    CSV) is the database's, and reads as the page's no-JS table reads it (update-index: 0.56 ...).
    The explorer printed 0.560."""
    want = busy_rqps(site, None)
    html = (site.public / "campaigns" / BUSY / "index.html").read_text()
    fig = figure(html, next(c for c in re.findall(r'id="chart-(heatmap-[^"]+)"', html) if "-24-" in c))
    shown = table_by_variant(fig)
    href = unescape(re.search(r'class="explore-link"[^>]*href="([^"]+)"', fig).group(1))
    explorer(page, server + href.replace("view=heatmap", "view=table"))
    rows = explorer_table(page)
    assert {(r["microbenchmark"], r["variant"]) for r in rows} == set(want) == set(shown)
    for r in rows:
        key = (r["microbenchmark"], r["variant"])
        assert r["rqps"] == fixed(want[key]) == shown[key], key
    with page.expect_download() as info:
        page.locator("#explore-csv").click()
    with open(info.value.path()) as f:
        assert {(r["microbenchmark"], r["variant"]): float(r["rqps"]) for r in csv.DictReader(f)} == want


def test_the_busy_wait_investigations_numbers_are_its_data(site):
    """Every rQPS the investigation writes in its verdict, tl;dr, captions and text, computed from
    the rqps table: stock 8.0.40 (-O2, -O3) at 0.56 on update-index, the busy-wait builds 0.67 to
    0.71, the other microbenchmarks 0.72 to 1.06, scan 0.72 at -O3 and 0.80 to 0.87 otherwise, the
    rest 0.92 to 1.06, and update-index the write group's minimum."""
    from papercuts.paths import PROJECT

    rqps = busy_rqps(site, None)
    stock = {"my8040_rel.z11a_c32r128", "my8040_rel_o2nofp.z11a_c32r128"}

    def span(keep) -> tuple[str, str]:
        values = [x for k, x in rqps.items() if keep(*k)]
        return fixed(min(values)), fixed(max(values))

    index = "update-index_range=100"
    stock_lo, stock_hi = span(lambda m, v: m == index and v in stock)
    assert stock_lo == stock_hi
    fixes = "{} to {}".format(*span(lambda m, v: m == index and v not in stock))
    others = "between {} and {}".format(*span(lambda m, v: m != index))
    scan_o3 = fixed(rqps[("scan_range=100", "my8040_rel.z11a_c32r128")])
    scan_rest = "{} to {}".format(*span(lambda m, v: m == "scan_range=100" and v != "my8040_rel.z11a_c32r128"))
    rest = "between {} and {}".format(*span(lambda m, v: m not in (index, "scan_range=100")))
    text = (PROJECT / "content" / "investigations" / f"{INVESTIGATION}.md").read_text()
    claims = [f"drops to {stock_lo} of 8.0.28", f"gets {stock_lo} of the update-index QPS",
              f"the other microbenchmarks stay {others}.", f"({fixes} instead of {stock_lo})",
              f"update-index: {stock_lo} for stock 8.0.40 builds, {fixes} for the builds",
              f"update-index is at {stock_lo}.", f"lands between {fixes.replace(' to ', ' and ')}",
              f"Most other tests sit {rest}", f"at {scan_o3} for the -O3 build and {scan_rest} for the others"]
    assert [c for c in claims if c not in text] == []
    page = unescape((site.public / "investigations" / INVESTIGATION / "index.html").read_text())
    assert [c for c in claims if c not in page] == []
    # "The write minimum is update-index": in every variant's summary row
    lows = db(site).execute(
        "SELECT build || '.' || config, arg_min(microbenchmark, rqps) FROM rqps WHERE campaign = ? "
        "AND threads = 24 AND \"group\" = 'write' GROUP BY ALL", [BUSY]).fetchall()
    assert len(lows) == 7 and {m for _, m in lows} == {"update-index"} and "The write minimum is update-index" in text


def summarised(rows) -> dict[tuple, tuple]:
    """(campaign, server, threads, base, variant, group, origin) -> (min, max, mean, median, n) of
    rQPS rows, recomputed in Python."""
    import statistics
    from collections import defaultdict

    groups: dict[tuple, list[float]] = defaultdict(list)
    for *key, x in rows:
        groups[tuple(key)].append(x)
    return {k: (min(v), max(v), statistics.fmean(v), statistics.median(v), len(v)) for k, v in groups.items()}


def close(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x == pytest.approx(y, rel=1e-12, abs=1e-12) for x, y in zip(a, b, strict=True))


def test_every_group_summary_is_its_rqps_rows_summarised(site, tmp_path):
    """A summary chart's CSV and no-JS table (min, max, avg, median per group) and `papercuts export
    summaries` against min, max, mean and median recomputed in Python from the rQPS rows they
    summarise; each table cell is the recomputed value under the one rounding rule."""
    from urllib.parse import parse_qs, urlparse

    from papercuts.export import export
    from papercuts.paths import Paths

    want = summarised(db(site).execute(
        "SELECT campaign, server, threads, base_build || '.' || base_config, build || '.' || config, \"group\", "
        "origin, rqps FROM rqps").fetchall())
    figures = [(html, m.group(1)) for html in site.public.rglob("index.html") if "/embed/" not in str(html)
               for m in re.finditer(r'id="chart-([^"]+)" data-kind="rqps-summary"', html.read_text())]
    assert figures
    for html, chart in figures:
        fig = figure(html.read_text(), chart)
        q = {k: v[0] for k, v in parse_qs(urlparse(unescape(re.search(
            r'class="explore-link"[^>]*href="([^"]+)"', fig).group(1))).query).items()}
        key = (q["campaign"], q["server"], int(q["threads"]), q["base"])
        rows = list(csv.DictReader((site.public / re.search(r'<a href="([^"]+\.csv)" download>', fig)
                                    .group(1).lstrip("/")).open()))
        table = {(r[0], r[1]): r[2:6] for r in cells(fig)}
        assert len(rows) == len(table) > 0, chart
        for r in rows:
            origin = r["origin"].removeprefix("derived from ").removesuffix(" rQPS")
            got = want[(*key, r["series"], r["group"], origin)]
            assert close(tuple(float(r[c]) for c in ("min", "max", "avg", "median", "n")), got), (chart, r)
            assert table[(r["series"], r["group"])] == [fixed(x) for x in got[:4]], (chart, r)
    path, _ = export(Paths.make(), "summaries", str(tmp_path / "summaries.csv"))
    exported = {(r["campaign"], r["server"], int(r["threads"]), r["base_variant"], r["variant"], r["group"],
                 r["origin"]): tuple(float(r[c]) for c in ("min", "max", "avg", "median", "n"))
                for r in csv.DictReader(path.open())}
    assert exported.keys() == want.keys()
    assert [k for k in want if not close(exported[k], want[k])] == []


def change_points(site) -> list[dict]:
    con = db(site)
    points = [dict(zip([d[0] for d in con.description], r, strict=True)) for r in con.execute(
        "SELECT ladder, campaign, server, dbms, threads, kind, series, position, \"before\", \"after\", "
        "before_version, after_version, change FROM change_points").fetchall()]
    assert len(points) > 1000
    return points


def test_a_change_point_reads_the_same_in_its_ladders_tables_and_csv(site):
    """Each change point's size and the builds it sits between, from the change_points table: the
    ladder page's table of changes, the step its chart's table marks (and its CSV), the /regressions/
    row, changes.csv, the Atom feed and `papercuts export change_points` (floats equal where a file
    holds them, the one rule's percent where a page prints them). The ladder table's step read -11%
    where the changes table under it, the chart's tooltip and /regressions/ read -11.5%."""
    from collections import Counter

    from papercuts.paths import ladder_url
    from papercuts.render.tables import percent

    points = change_points(site)
    public = site.public
    # each ladder page's tables of changes: every change of its ladders, with its builds and size
    on_page: dict[str, Counter] = {}
    for p in points:
        on_page.setdefault(ladder_url(p["server"], p["dbms"], p["threads"]), Counter())[
            (p["series"], f"{p['before_version']} → {p['after_version']}", p["before"], p["after"],
             percent(p["change"]))] += 1
    by_step = {(p["ladder"], p["series"], p["after"]): p["change"] for p in points}
    ladders = {"ladder-" + p["ladder"].replace(".", "-"): p["ladder"] for p in points}  # its chart's id
    seen_steps = 0
    for url, want in on_page.items():
        html = (public / url.strip("/") / "index.html").read_text()
        got = Counter()
        for table in html.split('<table class="data-table changes">')[1:]:
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("</table>", 1)[0].split("<tbody>", 1)[1], re.S):
                tds = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
                between = unescape(re.sub(r"<span.*", "", tds[1], flags=re.S)).strip()
                before, after = re.findall(r"<code>([^<]+)</code>", tds[1])[:2]
                size = unescape(re.sub(r"<span.*", "", tds[2], flags=re.S)).strip()  # "flagged" beside it
                got[(unescape(tds[0]), between, before, after, size)] += 1
        assert got == want, url
        # the ladder chart's table marks each step by its size; its CSV holds it
        for fig_id in re.findall(r'id="chart-(ladder-[^"]+)" data-kind="ladder"', html):
            fig = figure(html, fig_id)
            lines = list(csv.DictReader((public / re.search(r'<a href="([^"]+\.csv)" download>', fig)
                                         .group(1).lstrip("/")).open()))
            ladder = ladders.get(fig_id)  # none: a ladder without a change
            marks = {(row[0], series): re.search(r"\(step ([^)]+)\)", text).group(1)
                     for row in cells(fig) for series, text in zip(
                         [unescape(h) for h in re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', fig)][1:], row[1:],
                         strict=True) if "step" in text}
            stepped = [r for r in lines if r["change"]]
            assert len(marks) == len(stepped) and (ladder or not stepped), fig_id
            seen_steps += len(stepped)
            for r in stepped:
                assert float(r["change"]) == by_step[(ladder, r["series"], r["variant"])], (fig_id, r)
                assert marks[(r["variant"], r["series"])] == percent(float(r["change"])), (fig_id, r)
    assert seen_steps > 100


def test_a_change_point_reads_the_same_on_the_regressions_index_its_csv_the_feed_and_the_export(site, tmp_path):
    """Each series or median change point's size and builds, from the change_points table: the
    /regressions/ row, changes.csv, the Atom feed's title and summary and `papercuts export
    change_points` (the one rule's percent where a page prints it, the double where a file holds it)."""
    import hashlib
    import xml.etree.ElementTree as ET
    from collections import Counter

    from papercuts.export import export
    from papercuts.paths import Paths, ladder_url
    from papercuts.render.tables import percent

    points = change_points(site)
    public = site.public
    # /regressions/, changes.csv and the feed: the series and median changes
    def anchor(p: dict) -> str:  # the row's id (render/ladder_pages.py)
        key = "|".join(p[k] for k in ("ladder", "series", "before", "after"))
        return "change-" + hashlib.sha256(key.encode()).hexdigest()[:16]

    listed = {anchor(p): p for p in points if p["kind"] in ("series", "median")}
    html = (public / "regressions" / "index.html").read_text()
    rows = dict(re.findall(r'<tr id="(change-[0-9a-f]+)"[^>]*><td class="num">([^<]*)', html))
    assert len(rows) > 100
    assert {i: unescape(t).strip() for i, t in rows.items()} == {i: percent(listed[i]["change"]) for i in rows}
    records = list(csv.DictReader((public / "regressions" / "changes.csv").open()))
    assert Counter((r["ladder"], r["series"], r["before"], r["after"], float(r["change"])) for r in records) == Counter(
        (ladder_url(p["server"], p["dbms"], p["threads"]), p["series"], p["before"], p["after"], p["change"])
        for p in listed.values())
    ns = {"a": "http://www.w3.org/2005/Atom"}
    entries = ET.parse(public / "regressions" / "feed.xml").getroot().findall("a:entry", ns)
    assert entries
    for e in entries:
        p = listed[e.find("a:id", ns).text.split("#", 1)[1]]
        title = e.find("a:title", ns).text
        assert title.startswith(f"{p['series']} {percent(p['change'])} from {p['before_version']} → "
                                f"{p['after_version']}"), title
        assert re.search(re.escape(f"of {percent(p['change'])} in {p['series']} between {p['before']} and "
                                   f"{p['after']}") + "[ ,]", e.find("a:summary", ns).text), title
    # papercuts export change_points, at full precision
    path, _ = export(Paths.make(), "change_points", str(tmp_path / "cp.csv"))
    assert Counter((r["campaign"], r["series"], r["before"], r["after"], float(r["change"]))
                   for r in csv.DictReader(path.open())) == Counter(
        (p["campaign"], p["series"], p["before"], p["after"], p["change"]) for p in points)


def test_every_published_ratio_reads_on_the_site_as_the_archive_prints_it(site):
    """A mytools archive's qps.rel ratios against the rQPS the site shows for the same variant,
    base, microbenchmark and thread count. Where the site's QPS are the archive's qps.abs values
    (its rQPS is the reproduction's derived ratio, to the last bit), it reads as printed at 2
    decimals, every one. Where they are the runs' own sysbench outputs (2025-11-28: more digits than
    the integer QPS mytools divided) the site may read one hundredth away, never more: 3 of 462
    (pn53 random-points range 1000, my9500 against 5.6.51: 0.84 printed, 0.85 on the site)."""
    rows = db(site).execute("""
        SELECT r.campaign, r.file, r.line, r."column", r.published, r.derived, q.rqps
        FROM reproductions r JOIN rqps q ON q.campaign = r.campaign AND q.threads = r.threads
         AND q.microbenchmark = r.microbenchmark AND q."range" IS NOT DISTINCT FROM r."range"
         AND q.origin = 'measured'
         AND (r.variant = 'x.' || q.build || '.' || q.config
              OR r.variant LIKE 'x.' || q.build || '.' || q.config || '.%')
         AND (r.base = 'x.' || q.base_build || '.' || q.base_config
              OR r.base LIKE 'x.' || q.base_build || '.' || q.base_config || '.%')
        WHERE r.status = 'equal'""").fetchall()
    assert len(rows) > 5000
    from_abs = [r for r in rows if r[6] == r[5]]
    from_runs = [r for r in rows if r[6] != r[5]]
    assert len(from_abs) > 5000 and from_runs
    assert [r[:4] for r in from_abs if fixed(r[6]) != fixed(r[4])] == []
    assert [r[:4] for r in from_runs if abs(float(fixed(r[6])) - r[4]) > 0.0100001] == []
    # the campaign page's score is the reproductions table's
    for campaign, equal, total in db(site).execute(
            "SELECT campaign, count(*) FILTER (status = 'equal'), count(*) FROM reproductions GROUP BY ALL").fetchall():
        html = (site.public / "campaigns" / campaign / "index.html").read_text()
        assert f'<strong class="score">{equal} of {total}</strong> published rQPS values' in html, campaign


def test_a_published_summary_reads_as_its_data_file_and_its_investigation_quotes_it(site):
    """data/'s summaries.csv (2025-01-08, the post's table): each published-summary chart's CSV
    (equal doubles) and no-JS table (the one rule) on the server page and the investigation, and the
    medians the investigation's verdict and tl;dr quote."""
    from papercuts.paths import PROJECT

    campaign = "2025-01-08-innodb-myrocks-c32r128"
    with open(PROJECT / "data" / "campaigns" / campaign / "summaries.csv", newline="") as f:
        data = {(r["build"], r["config"], int(r["threads"]), r["group"]): tuple(float(r[c]) for c in
                                                                               ("min", "max", "avg", "median"))
                for r in csv.DictReader(f)}
    seen = 0
    for html in site.public.rglob("index.html"):
        text = html.read_text()
        if "/embed/" in str(html):
            continue
        for chart in re.findall(r'id="chart-([^"]+)" data-kind="published-summary"', text):
            fig = figure(text, chart)
            rows = list(csv.DictReader((site.public / re.search(r'<a href="([^"]+\.csv)" download>', fig)
                                        .group(1).lstrip("/")).open()))
            table = {(r[0], r[1]): r[2:6] for r in cells(fig)}
            assert len(rows) == len(table) == len(data), chart
            for r in rows:
                want = data[(r["build"], r["config"], int(r["threads"]), r["group"])]
                assert tuple(float(r[c]) for c in ("min", "max", "avg", "median")) == want, (chart, r)
                assert table[(r["series"], r["group"])] == [fixed(x) for x in want], (chart, r)
            seen += 1
    assert seen >= 2
    md = (PROJECT / "content" / "investigations" / "innodb-myrocks-over-time.md").read_text()

    def medians(build_prefix: str, threads: int) -> str:
        return ", ".join(fixed(v[3]) for (b, _, t, g), v in sorted(data.items(), key=lambda i: i[0][3])
                         if b.startswith(build_prefix) and t == threads)

    innodb_1, innodb_24 = medians("my8032", 1).split(", "), medians("my8032", 24).split(", ")
    claims = [f"median rQPS {innodb_1[0]} for point, {innodb_1[1]} for range, {innodb_1[2]} for writes",
              f"median rQPS {innodb_24[0]} for point and {innodb_24[2]} for writes, but {innodb_24[1]} for range",
              f"point and write medians rise to {innodb_24[0]} and {innodb_24[2]} but range stays at {innodb_24[1]}",
              f"(medians {medians('fbmy8032', 1)})", f"at 24 threads ({medians('fbmy8032', 24)})"]
    assert [c for c in claims if c not in md] == []


@pytest.mark.browser
def test_the_explorers_throughputs_read_as_the_charts_tooltips(page, server, site):
    """The beelink heatmap's 'Explore this' as a table: every throughput and base throughput is the
    database's QPS as the heatmap's tooltip prints it (d3 ',.2f', its THROUGHPUT_TOOLTIP), which the
    pages' tables print to the same 2 decimals. The explorer printed up to 4 decimals: a scan's
    3.875 krows/s read 3.875 there and 3.88 in the chart."""
    html = (site.public / "campaigns" / BEELINK / "index.html").read_text()
    fig = figure(html, next(c for c in re.findall(r'id="chart-(heatmap-[^"]+)"', html)))
    href = unescape(re.search(r'class="explore-link"[^>]*href="([^"]+)"', fig).group(1))
    # the scan rows (krows/s to 3 decimals) are past the table's first 400 rows: searched for
    explorer(page, server + href.replace("view=heatmap", "view=table") + "&q=scan")
    q = dict(p.split("=", 1) for p in href.split("?", 1)[1].split("&"))
    qps = {(label(m, rng), v): x for m, rng, v, x in db(site).execute(
        "SELECT microbenchmark, \"range\", build || '.' || config, qps FROM measured_qps "
        "WHERE campaign = ? AND server = 'beelink' AND threads = ?", [BEELINK, int(q["threads"])]).fetchall()}
    rows = explorer_table(page)
    assert len(rows) >= 13
    pairs = [(r["throughput"], qps[(r["microbenchmark"], r["variant"])]) for r in rows] + [
        (r["base throughput"], qps[(r["microbenchmark"], r["base variant"])]) for r in rows]
    assert any(round(x, 2) != x for _, x in pairs)  # some have more than 2 decimals (3.875)
    tooltip = page.evaluate("xs => xs.map(vega.defaultLocale().format(',.2f'))", [x for _, x in pairs])
    assert [t for (t, _), want in zip(pairs, tooltip, strict=True) if t != want] == []
    assert all(fixed(x, 2, grouped=True) == t for (t, x) in pairs)


def test_every_charts_ratio_is_printed_as_the_tables_print_it(site):
    """Each Vega-Lite spec the site serves prints an rQPS, a cost's ratio to its base or a summary
    of rQPS (tooltip or text) at 2 decimals, as every table beside it and the explorer do. The
    ladder chart's tooltip read rQPS 0.875 (.3f) where its table read 0.88, and a cost chart's
    'relative to base' 1.015 where its table and the explorer read 1.01."""
    import json

    ratios = {"rqps", "relative", "min", "max", "avg", "median"}
    found: list[tuple[str, str, str]] = []

    def walk(node, where: str) -> None:
        if isinstance(node, dict):
            field = node.get("field")
            if isinstance(field, str) and "format" in node and (field in ratios or field.startswith("rqps_t")):
                found.append((where, field, node["format"]))
            for v in node.values():
                walk(v, where)
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for spec in site.public.rglob("*.vl.json"):
        walk(json.loads(spec.read_text()), spec.relative_to(site.public).as_posix())
    kinds = {w.split("/")[-1].split("-")[0] for w, _, _ in found}
    assert {"ladder", "costs", "heatmap", "summary"} <= kinds, kinds
    assert [f for f in found if f[2] != ".2f"] == []


def test_the_busy_wait_investigations_calibration_numbers_are_its_data(site):
    """The busy-wait investigation's calibration numbers, computed from the calibration tables: the
    fitted µs per unit of each server, the N=6 expected wait before and after 8.0.30 on dell32 and
    beelink, how many times ut_rnd_interval the fast PRNG takes at -O2, and the draw's share of the
    wait (ut::random_from_interval_fast's range, and the largest share of any function)."""
    from papercuts.paths import PROJECT

    con = db(site)
    cal = {s: dict(zip(("us", "before", "after", "times"), r, strict=True)) for s, *r in con.execute(
        "SELECT server, us_per_unit, wait_us_excluded, wait_us_included, fast_over_old FROM calibration_summary "
        "WHERE calibration LIKE '2024-10-23-%'").fetchall()}
    assert len(cal) == 5
    fast_lo, fast_hi, top = con.execute(
        "SELECT min(draw_over_wait) FILTER (function = 'ut::random_from_interval_fast'), "
        "max(draw_over_wait) FILTER (function = 'ut::random_from_interval_fast'), max(draw_over_wait) "
        "FROM draw_cost WHERE calibration LIKE '2024-10-23-%'").fetchone()
    amd = sorted(cal[s]["times"] for s in ("pn53", "ax162-s", "dell32"))
    text = (PROJECT / "content" / "investigations" / f"{INVESTIGATION}.md").read_text()
    claims = [f"{fixed(cal['pn53']['us'])} µs per unit on pn53, {fixed(cal['ax162-s']['us'])} on ax162-s and "
              f"{fixed(cal['dell32']['us'])} on dell32", f"{fixed(cal['beelink']['us'])} on beelink and "
              f"{fixed(cal['socket2']['us'])} on socket2",
              f"from {fixed(cal['dell32']['before'])} to {fixed(cal['dell32']['after'])} µs on dell32 and from "
              f"{fixed(cal['beelink']['before'])} to {fixed(cal['beelink']['after'])} µs on beelink",
              f"takes {fixed(amd[0], 1)} to {fixed(amd[-1], 1)} times as long as ut_rnd_interval on pn53, ax162-s and "
              f"dell32, {fixed(cal['beelink']['times'], 1)} times on beelink and {fixed(cal['socket2']['times'], 1)} "
              "times on socket2",
              f"costs {fixed(100 * fast_lo)}% to {fixed(100 * fast_hi)}% of the expected wait",
              f"The largest share in the tables is {fixed(100 * top)}%"]
    flat = re.sub(r"\s+", " ", text)
    assert [c for c in claims if c not in flat] == []


@pytest.mark.browser
def test_the_explorers_tooltips_read_an_rqps_as_the_sites_charts_do(page, server, site):
    """The explorer's own charts print an rQPS in their tooltips to 2 decimals, as the campaign's
    heatmap tooltip (.2f), its table and the explorer's table do: its bars, heatmap and ladder
    tooltips printed '.3f' (update-index 0.560 beside the heatmap's 0.56)."""
    want = busy_rqps(site, None)
    html = (site.public / "campaigns" / BUSY / "index.html").read_text()
    fig = figure(html, next(c for c in re.findall(r'id="chart-(heatmap-[^"]+)"', html) if "-24-" in c))
    explorer(page, server + unescape(re.search(r'class="explore-link"[^>]*href="([^"]+)"', fig).group(1)))
    marks = page.locator("#explore-chart g.mark-rect.role-mark path")
    assert marks.count() == len(want)
    # the tooltip, over the value printed on a cell (it carries the cell's tooltip)
    texts = page.locator("#explore-chart g.mark-text.role-mark text")
    tooltip = page.locator("#vg-tooltip-element")
    for i in range(0, len(want), 17):
        texts.nth(i).hover()
        tooltip.wait_for(state="visible")
        shown = tooltip.inner_text()
        said = dict(re.findall(r"^([^\t\n:]+):?\t([^\n]*)$", shown, re.M))
        assert said.get("rQPS") == fixed(want[(said["microbenchmark"], said["variant"])]), shown
        page.mouse.move(0, 0)
