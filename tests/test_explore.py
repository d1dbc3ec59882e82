"""The explorer (/explore/): rQPS recomputed in Chromium for any base equals DuckDB's, the URL keeps
the view, bad parameters fall back with a note, and the data files are what the database holds."""
from __future__ import annotations

import csv
import gzip
import io
import json
import re
from itertools import pairwise
from urllib.parse import parse_qs, urlparse

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from papercuts.reader import draw_every_chart
from papercuts.render.explore import _codes, _test_codes, runs

PN53 = "2025-08-21-pn53-mysql-5-6-to-9-4"
BASE = "my8043_rel_o2nofp.z12a_c8r32"  # not the campaign's base (5.6.51): the reader's choice
VARIANTS = ["my8406_rel_o2nofp.z12a_c8r32", "my9400_rel_o2nofp.z12a_c8r32"]
PUBLISHED = "2025-10-08-ax162-s-mariadb-1-to-48-threads"  # qps.rel only: ratios as printed


def db(site):
    return duckdb.connect(str(site.db), read_only=True)


def open_explorer(page, url: str, rendered: int = 1) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    response = page.goto(url)
    assert "unsafe-eval" not in response.headers["content-security-policy"]
    wait_drawn(page, rendered)
    return problems


def wait_drawn(page, count: int) -> None:
    page.wait_for_function(
        "n => { const e = document.getElementById('explore-chart');"
        " return Number(e.dataset.rendered || 0) >= n || e.dataset.error }", arg=count, timeout=20000)
    assert page.locator("#explore-chart").get_attribute("data-error") is None


def shown_csv(page) -> list[dict]:
    """The CSV the page offers for what it shows, downloaded as a reader would."""
    with page.expect_download() as info:
        page.locator("#explore-csv").click()
    with open(info.value.path()) as f:
        return list(csv.DictReader(f))


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def expanded(column: list | dict) -> list:
    """A column of the explorer's file, its runs (value, count, ...) expanded as explore.js does."""
    if isinstance(column, list):
        return column
    r = column["runs"]
    return [v for v, n in zip(r[::2], r[1::2], strict=True) for _ in range(n)]


def test_runs_are_written_only_where_shorter():
    column = [3, 3, 3, 3, 7, 7, 1]
    assert runs(column) == {"runs": [3, 4, 7, 2, 1, 1]} and expanded(runs(column)) == column
    assert runs([1, 2, 1, 2]) == [1, 2, 1, 2] and runs([]) == []
    # an array, as the QPS columns are given: the same runs, as Python ints (json writes them)
    assert runs(np.array(column)) == {"runs": [3, 4, 7, 2, 1, 1]} and runs(np.array([5, 5, 5])) == {"runs": [5, 3]}
    assert runs(np.array([1, 2, 1, 2])) == [1, 2, 1, 2] and runs(np.array([], dtype=np.int64)) == []
    assert all(type(v) is int for v in runs(np.array(column))["runs"] + runs(np.array([1, 2])))


def test_codes_are_each_values_place_whatever_the_chunks():
    """_codes: a value's place in the given order, looked up once per distinct value, over a column
    DuckDB hands over in several chunks (each with its own dictionary, were it encoded alone)."""
    column = pa.chunked_array([["b", "a", "b"], ["c", "a"]])
    assert _codes(column, {"c": 0, "a": 1, "b": 2}).tolist() == [2, 1, 2, 0, 1]
    assert _codes(pa.chunked_array([], type=pa.string()), {}).tolist() == []


def test_test_codes_are_each_rows_place_among_the_tests():
    """A row's test is its (microbenchmark, range) pair's place; a range of null is a pair of its own."""
    rows = pa.table({"microbenchmark": ["scan", "point-query", "scan", "scan", "point-query"],
                     "range": [100, None, None, 100, None]})
    t_at = {("point-query", None): 0, ("scan", None): 1, ("scan", 100): 2}
    assert _test_codes(rows, t_at).tolist() == [2, 0, 1, 2, 0]


def test_every_server_has_a_compact_data_file_with_every_measured_value(site):
    con = db(site)
    public = site.public / "explore"
    servers = [s for (s,) in con.execute("SELECT DISTINCT server FROM measured_qps").fetchall()]
    for server in servers:
        data = json.loads((public / f"{server}.json").read_text())
        q = {k: expanded(v) for k, v in data["qps"].items()}
        assert len({len(v) for v in q.values()}) == 1
        got = sorted((data["campaigns"][c]["id"], data["variants"][v]["id"], data["tests"][t]["label"], th, x)
                     for c, v, t, th, x in zip(q["campaign"], q["variant"], q["test"], q["threads"], q["qps"],
                                               strict=True))
        want = sorted(con.execute(
            "SELECT campaign, build || '.' || config, CASE WHEN \"range\" IS NULL THEN microbenchmark "
            "ELSE microbenchmark || '_range=' || \"range\" END, threads, qps FROM measured_qps WHERE server = ?",
            [server]).fetchall())
        assert got == want, server
    # The largest server's file, gzipped as a host serves it, stays far under the 300 KB goal.
    biggest = max(servers, key=lambda s: (public / f"{s}.json").stat().st_size)
    assert len(gzip.compress((public / f"{biggest}.json").read_bytes())) < 300_000


@pytest.mark.browser
def test_a_chosen_base_gives_the_rqps_duckdb_computes(page, server, site):
    url = (f"{server}/explore/?server=pn53&campaign={PN53}&threads=1&base={BASE}&v={','.join(VARIANTS)}"
           "&groups=write")
    assert open_explorer(page, url) == []
    assert page.locator("#explore-notes .fallback").count() == 0
    rows = shown_csv(page)
    got = {(r["microbenchmark"], r["variant"]): float(r["rqps"]) for r in rows}
    assert {r["base_variant"] for r in rows} == {BASE}
    want = dict(((label, v), rqps) for label, v, rqps in db(site).execute(
        """SELECT CASE WHEN q."range" IS NULL THEN q.microbenchmark
                       ELSE q.microbenchmark || '_range=' || q."range" END,
                  q.build || '.' || q.config, q.qps / b.qps
           FROM measured_qps q JOIN measured_qps b
             ON b.campaign = q.campaign AND b.server = q.server AND b.threads = q.threads
            AND b.microbenchmark = q.microbenchmark AND b."range" IS NOT DISTINCT FROM q."range"
           JOIN microbenchmarks m ON m.name = q.microbenchmark
           WHERE q.campaign = ? AND q.server = 'pn53' AND q.threads = 1 AND m."group" = 'write'
             AND b.build || '.' || b.config = ? AND q.build || '.' || q.config IN (?, ?)""",
        [PN53, BASE, *VARIANTS]).fetchall())
    assert len(want) > 10
    assert got == want  # exact: the same doubles divided
    assert page.locator("#explore-chart").get_attribute("data-rows") == str(len(want))


@pytest.mark.browser
def test_changing_the_base_updates_the_url_and_the_chart_and_back_restores_it(page, server):
    open_explorer(page, f"{server}/explore/?server=pn53&campaign={PN53}&threads=1&groups=point")
    first = query(page)
    assert first["base"] == "my5651_rel_o2nofp.z12a_c8r32"  # the campaign's own base by default
    before = {(r["microbenchmark"], r["variant"]): r["rqps"] for r in shown_csv(page)}
    page.locator("select[name=base]").select_option(BASE)
    wait_drawn(page, 2)
    assert query(page)["base"] == BASE
    after = {(r["microbenchmark"], r["variant"]): r["rqps"] for r in shown_csv(page)}
    assert before and after and before.keys() != after.keys()
    assert all(v != BASE for _, v in after)  # the base is not compared with itself
    # The chart drew the new rows: its bars carry the new base's ratios in their tooltips' data.
    assert page.locator("#explore-chart").get_attribute("data-rows") == str(len(after))
    page.go_back()
    wait_drawn(page, 3)
    assert query(page)["base"] == first["base"]
    assert page.locator("select[name=base]").input_value() == first["base"]


@pytest.mark.browser
def test_stale_parameters_fall_back_to_a_stated_default_and_never_a_blank_page(page, server):
    open_explorer(page, f"{server}/explore/?server=nope&campaign=gone&base=x.y&threads=999&view=pie&metric=zz")
    notes = page.locator("#explore-notes").inner_text()
    for word in ("Server 'nope'", "View 'pie'", "Metric 'zz'"):
        assert word in notes
    assert int(page.locator("#explore-chart").get_attribute("data-rows")) > 0
    assert page.locator("#explore-chart svg").count() == 1
    # The address bar now names what is shown.
    assert query(page)["server"] == page.locator("select[name=server]").input_value()


@pytest.mark.browser
def test_a_cost_asked_of_a_server_without_costs_is_named_in_the_note(page, server, site):
    """The note named the metric selected before the view changed: "No rQPS (QPS / base QPS) on
    percona-2014; showing rQPS." for ?metric=cpu_per_op (helper-56's review)."""
    costed = {s for (s,) in db(site).execute("SELECT DISTINCT server FROM op_costs").fetchall()}
    bare = sorted({s for (s,) in db(site).execute("SELECT DISTINCT server FROM rqps").fetchall()} - costed)[0]
    open_explorer(page, f"{server}/explore/?server={bare}&metric=cpu_per_op")
    label = page.locator("select[name=metric] option[value=cpu_per_op]").inner_text()
    assert label.startswith("cpu/o")
    assert f"No {label} on {bare}; showing rQPS." in page.locator("#explore-notes").inner_text()
    assert page.locator("select[name=metric]").input_value() == "rqps" and query(page).get("metric", "rqps") == "rqps"


@pytest.mark.browser
def test_published_ratios_are_explorable_against_their_own_base_only(page, server, site):
    open_explorer(page, f"{server}/explore/?server=ax162-s&campaign={PUBLISHED}&metric=qps&threads=1")
    assert "published ratios only" in page.locator("#explore-notes").inner_text()
    rows = shown_csv(page)
    base = query(page)["base"]
    want = dict(((f"{m}_range={r}" if r is not None else m, v), x) for m, r, v, x in db(site).execute(
        "SELECT microbenchmark, \"range\", build || '.' || config, rqps FROM relative "
        "WHERE campaign = ? AND threads = 1 AND base_build || '.' || base_config = ?", [PUBLISHED, base]).fetchall())
    assert want and {(r["microbenchmark"], r["variant"]): float(r["rqps"]) for r in rows} == want
    options = page.locator("select[name=base] option").all_inner_texts()
    assert len(options) == 1  # only the base the archive printed its ratios against


@pytest.mark.browser
def test_views_costs_and_the_config_diff(page, server):
    base = "my5651_rel_o2nofp.z12a_c8r32"
    other = "my8043_rel_o2nofp.z12a_c8r32"
    open_explorer(page, f"{server}/explore/?server=pn53&campaign={PN53}&view=heatmap&a={base}&b={other}")
    assert page.locator("#explore-chart g.mark-rect.role-mark path").count() == int(
        page.locator("#explore-chart").get_attribute("data-rows"))
    # my.cnf files of both variants, diffed line by line, from the campaign's own raw files
    diff = page.locator(".mycnf-diff").inner_text()
    assert "+ innodb_dedicated_server=ON" in diff and "- innodb_file_format=Barracuda" in diff
    differs = page.locator("#diff-table tr.differs td:first-child").all_inner_texts()
    same = page.locator("#diff-table tr.same td:first-child").all_inner_texts()
    assert "version" in differs and "build" in differs and "config" in same
    page.locator("select[name=view]").select_option("ladder")
    wait_drawn(page, 2)
    assert page.locator("#explore-chart g.mark-symbol.role-mark path").count() > 0  # change points marked
    page.locator("select[name=metric]").select_option("cpu_per_op")
    wait_drawn(page, 3)
    rows = shown_csv(page)
    assert rows and {r["metric"] for r in rows} == {"cpu_per_op"}
    assert all(abs(float(r["ratio"]) - float(r["value"]) / float(r["base_value"])) < 1e-12 for r in rows
               if r["ratio"])


@pytest.mark.browser
def test_explore_this_opens_each_comparison_chart_with_its_own_rows(page, server, site):
    seen = 0
    for html in sorted(site.public.rglob("index.html")):
        text = html.read_text()
        if 'class="explore-link"' not in text:
            continue
        url = "/" + html.parent.relative_to(site.public).as_posix() + "/"
        page.goto(server + url)
        links = page.locator('figure[data-kind="rqps-bars"] a.explore-link, '
                             'figure[data-kind="rqps-heatmap"] a.explore-link')
        for i in range(min(links.count(), 2)):
            link = links.nth(i)
            figure = link.locator("xpath=ancestor::figure")
            csv_href = figure.locator("p.downloads a[download]:not([class])").get_attribute("href")
            spec = page.request.get(server + figure.locator(".vega-chart").get_attribute("data-spec-url")).json()
            # a heatmap of one thread count reads its own column of its comparison's file
            field = next((t["filter"]["field"] for t in spec.get("transform", []) if "valid" in t.get("filter", {})),
                         "rqps")
            chart_rows = [{**r, "rqps": r[field]} for r in
                          csv.DictReader(io.StringIO(page.request.get(server + csv_href).text())) if r[field]]
            href = link.get_attribute("href")
            explorer = page.context.new_page()
            open_explorer(explorer, server + href)
            assert explorer.locator("#explore-notes .fallback").count() == 0, (url, href)
            got = {(r["microbenchmark"], r["variant"]): float(r["rqps"]) for r in shown_csv(explorer)}
            want = {(r["microbenchmark"], r["variant"]): float(r["rqps"]) for r in chart_rows}
            assert got == want, (url, href)
            explorer.close()
            seen += 1
        if seen >= 6:
            break
    assert seen >= 6


@pytest.mark.browser
def test_explore_this_on_a_cost_chart_opens_the_same_cost_ratios(page, server):
    page.goto(server + "/investigations/mariadb-spin-wait-delay-vm/")
    link = page.locator('figure[data-kind="op-costs"] a.explore-link').first
    href = link.get_attribute("href")
    assert "metric=cpu_per_op" in href
    figure = link.locator("xpath=ancestor::figure")
    csv_href = figure.locator("p.downloads a[download]:not([class])").get_attribute("href")
    chart = [r for r in csv.DictReader(io.StringIO(page.request.get(server + csv_href).text()))
             if r["metric"] == "cpu_per_op"]
    open_explorer(page, server + href)
    assert page.locator("#explore-notes .fallback").count() == 0
    got = {(r["microbenchmark"], r["variant"]): float(r["ratio"]) for r in shown_csv(page)
           if r["variant"] != r["base_variant"]}
    assert chart and got == {(r["microbenchmark"], r["variant"]): float(r["relative"]) for r in chart}


@pytest.mark.browser
def test_the_explorer_mutes_the_same_cells_as_the_site(page, server):
    page.goto(server + "/servers/dell32/")
    draw_every_chart(page)
    figure = page.locator('figure[data-kind="rqps-heatmap"][id*="2025-10-06-dell32-postgres-12-to-18"]').first
    said = re.search(r"grey: \d+ of \d+ within noise \([^)]*\)", figure.locator("svg").text_content()).group(0)
    assert "measured" in said
    open_explorer(page, server + figure.locator("a.explore-link").get_attribute("href"))
    assert said in page.locator("#explore-caption").inner_text()
    muted = page.locator("#explore-chart g.mark-rect.role-mark path[fill='#e6e6e6']").count()
    assert f"grey: {muted} of" in said


@pytest.mark.browser
def test_a_variant_has_the_same_colour_in_the_explorer_as_on_the_site(page, server, site):
    """The bars the explorer draws for a variant are filled with the colour every chart of the site
    gives that variant (issue 15.1)."""
    from test_colours import _variant_scales

    site_colour: dict[str, str] = {}
    for path in site.generated.rglob("*.vl.json"):
        for scale in _variant_scales(json.loads(path.read_text())):
            site_colour.update(zip(scale["domain"], scale["range"], strict=True))
    url = (f"{server}/explore/?server=pn53&campaign={PN53}&threads=1&base={BASE}&v={','.join(VARIANTS)}"
           "&groups=write")
    assert open_explorer(page, url) == []
    fills: dict[str, set[str]] = {}
    for label, fill in page.eval_on_selector_all(
            "#explore-chart .mark-rect path[aria-label]",
            "els => els.map(e => [e.getAttribute('aria-label'), e.getAttribute('fill')])"):
        variant = re.search(r"variant: ([^;]+)", label).group(1)
        fills.setdefault(variant, set()).add(fill.lower())
    assert set(fills) == set(VARIANTS)
    for v in VARIANTS:
        assert fills[v] == {site_colour[v].lower()}, (v, fills[v], site_colour[v])
    assert fills[VARIANTS[0]] != fills[VARIANTS[1]]


@pytest.mark.browser
def test_the_ladder_view_names_a_changes_span_where_its_place_is_not_sure(page, server, site):
    """Hovering a change point of the ladder view: its two builds, and for a change whose span is
    wider, the builds it lies between with probability 0.9, as change_points holds them."""
    campaign = "2025-11-28-pn53-mysql-5-6-to-9-5"
    want = {}
    for test, rng, bv, av, sbv, sav, wide in db(site).execute(
            "SELECT microbenchmark, \"range\", before_version, after_version, span_before_version, "
            "span_after_version, \"first\" < \"last\" FROM change_points "
            "WHERE campaign = ? AND threads = 1 AND kind = 'series'", [campaign]).fetchall():
        name = f"{test}_range={rng}" if rng is not None else test
        want[name, f"{bv} → {av}"] = f"{bv} → {av}" + (f" (90% within {sbv} → {sav})" if wide else "")
    open_explorer(page, f"{server}/explore/?server=pn53&campaign={campaign}&threads=1&view=ladder")
    marks = page.locator('#explore-chart g.mark-symbol.role-mark path[stroke="#111"]')
    seen = set()
    for i in range(marks.count()):
        marks.nth(i).hover(force=True)
        page.wait_for_timeout(50)
        cells = dict(line.split("\t", 1) for line in page.locator("#vg-tooltip-element").inner_text().splitlines()
                     if "\t" in line)
        seen.add((cells["series"], cells["between"]))
    assert len(seen) >= 10
    for series, between in seen:
        pair = between.split(" (", 1)[0]
        assert want[series, pair] == between
    assert any("within" in between for _, between in seen)


@pytest.mark.browser
def test_the_bars_view_gives_every_microbenchmark_and_variant_a_place_of_its_own(page, server):
    """Bars by group: in each group's panel a microbenchmark has its band and a variant its place in
    it, so no two bars are drawn over each other (an offset scale resolved per panel once put every
    microbenchmark of a panel in one band: the bars of one variant overlapped, their labels too)."""
    open_explorer(page, f"{server}/explore/?server=pn53&campaign={PN53}&threads=1&groups=point,range")
    rows = shown_csv(page)
    tops = page.evaluate("""() => Array.from(document.querySelectorAll('#explore-chart g.mark-rect path'))
        .map(p => { const r = p.getBoundingClientRect(); return [Math.round(r.top * 10) / 10, r.height]; })""")
    assert len(tops) == len(rows) > 40
    assert min(height for _, height in tops) >= 2  # each bar can be seen
    assert len({top for top, _ in tops}) == len(tops)  # a place each
    tops.sort()
    assert all(b[0] >= a[0] + a[1] - 0.5 for a, b in pairwise(tops))  # none over another


def test_the_explorer_gives_each_variant_it_shows_a_colour_of_its_own(page, server, site):
    """The explorer's first view (ax162-s, 2026-04-03 against MariaDB 10.2.30) shows 10 MariaDB
    versions of a campaign of 23 variants, more than the palette's 10 colours: their site-wide
    colours gave 10.2.44 and 11.8.6 one green, 10.3.39 and 12.3.1 one purple, and their bars and
    legend entries could not be told apart. Each variant shown has a colour of its own, in its bars
    and its legend; one whose site-wide colour no other shown has keeps it (issue 15.1)."""
    data = json.loads((site.public / "explore" / "ax162-s.json").read_text())
    site_colour = {v["id"]: v["colour"].lower() for v in data["variants"]}
    assert open_explorer(page, f"{server}/explore/") == []
    legend = page.evaluate("""() => {
        const legend = document.querySelector('#explore-chart svg g.role-legend');
        const labels = [...legend.querySelectorAll('g.role-legend-label text')].map(t => t.textContent);
        const fills = [...legend.querySelectorAll('g.role-legend-symbol path')].map(p => p.getAttribute('fill'));
        return labels.map((label, i) => [label, fills[i].toLowerCase()]);
    }""")
    shown = [v for v, _ in legend]
    assert len(shown) == 10 and all(v.startswith("ma") for v in shown)
    assert len({site_colour[v] for v in shown}) < len(shown)  # the case: their own colours repeat
    assert len({c for _, c in legend}) == len(shown)
    fills: dict[str, set[str]] = {}
    for label, fill in page.eval_on_selector_all(
            "#explore-chart .mark-rect path[aria-label]",
            "els => els.map(e => [e.getAttribute('aria-label'), e.getAttribute('fill')])"):
        fills.setdefault(re.search(r"variant: ([^;]+)", label).group(1), set()).add(fill.lower())
    assert {v: fills[v] for v in shown} == {v: {c} for v, c in legend}
    alone = [v for v in shown if [site_colour[w] for w in shown].count(site_colour[v]) == 1]
    assert alone and all(dict(legend)[v] == site_colour[v] for v in alone)
