"""Ladder pages and the regressions index, built from the shipped data and read in Chromium."""
from __future__ import annotations

import json
import re

import duckdb
import pytest

import ladder_inputs
from papercuts.contract import dbms_name
from papercuts.export import export
from papercuts.paths import Paths
from papercuts.render import ladder_pages
from test_browser import open_page

pytestmark = pytest.mark.browser
LADDER = "/ladders/pn53-mysql-1/"


def test_a_ladder_chart_draws_every_build_of_every_line_and_marks_the_changes(page, server, site):
    con = duckdb.connect(str(site.db), read_only=True)
    ladder = "2025-11-28-pn53-mysql-5-6-to-9-5.pn53.mysql.innodb.c8r32.1"
    builds = con.execute("SELECT count(*) FROM ladder_builds WHERE ladder = ?", [ladder]).fetchone()[0]
    marked = con.execute("SELECT count(*) FROM change_points WHERE ladder = ? AND kind <> 'series'",
                         [ladder]).fetchone()[0]
    variants = con.execute("SELECT count(DISTINCT (build, config)) FROM results WHERE campaign = "
                           "'2025-11-28-pn53-mysql-5-6-to-9-5'").fetchone()[0]
    # every build of the campaign but the second of 8.4.6 (a rebuild): one build a version
    assert builds == variants - 1 >= 8 and marked >= 2
    assert con.execute("SELECT build, kept_build FROM ladder_left_out WHERE ladder = ?", [ladder]).fetchall() == [
        ("my8406v2_rel_o2nofp", "my8406_rel_o2nofp")]
    assert open_page(page, server + LADDER) == []
    chart_id = "ladder-2025-11-28-pn53-mysql-5-6-to-9-5-pn53-mysql-innodb-c8r32-1"
    chart = page.locator(f'.vega-chart[data-chart-id="{chart_id}"]')
    assert chart.get_attribute("data-rendered") == "true"
    assert int(chart.get_attribute("data-rows")) == builds * 4  # drift + three group medians
    # one symbol per build on each of the 4 lines; a large ring where a median or the drift changes
    assert chart.locator("g.mark-symbol.role-mark path").count() == builds * 4
    sizes = page.evaluate("""id => {
        const view = document.querySelector(`.vega-chart[data-chart-id="${id}"]`);
        return [...view.querySelectorAll("g.mark-symbol.role-mark path")].map(p => p.getBBox().width);
    }""", chart_id)
    assert sum(1 for w in sizes if w > 12) == marked


def test_no_ladder_has_two_builds_of_one_version_and_its_page_names_those_left_out(site):
    """Builds or configs of one version were compared, not a version ladder's steps (derive/ladders.py
    one_per_version): 18.0's io_method configs were a ladder's last three builds, and the busy-wait
    campaign's four builds of 8.0.40 made a ladder of 8.0.28 and 8.0.40 alone."""
    con = duckdb.connect(str(site.db), read_only=True)
    assert con.execute("SELECT count(*) FROM (SELECT ladder, version FROM ladder_builds GROUP BY ALL "
                       "HAVING count(*) > 1)").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM change_points WHERE before_version = after_version").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM ladders WHERE campaign = '2024-10-23-busy-wait-dell32'").fetchone()[0] == 0
    page = re.sub(r"\s+", " ", (site.public / "ladders" / "dell32-postgres-24" / "index.html").read_text())
    for config in ("x10c_c32r128", "x10d_c32r128"):
        assert (f"<code>pg180_o2nofp.{config}</code> at 18.0, where the ladder has "
                "<code>pg180_o2nofp.x10b_c32r128</code>") in page


def test_the_regressions_index_lists_every_change_and_filters_by_dbms(page, server, site):
    con = duckdb.connect(str(site.db), read_only=True)
    total = con.execute("SELECT count(*) FROM change_points WHERE kind IN ('series', 'median')").fetchone()[0]
    postgres = con.execute("SELECT count(*) FROM change_points WHERE kind IN ('series', 'median') "
                           "AND dbms = 'postgres'").fetchone()[0]
    assert open_page(page, server + "/regressions/") == []
    rows = page.locator("table.changes tbody tr")
    assert rows.count() == total > postgres > 0
    page.select_option('select[data-filter="dbms"]', "Postgres")
    assert page.locator("table.changes tbody tr:not([hidden])").count() == postgres
    assert page.locator("output.shown").text_content() == f"{postgres} of {total} changes"
    first = page.locator("table.changes tbody tr:not([hidden]) a").first
    first.click()
    assert page.url.startswith(server + "/ladders/") and "-postgres-" in page.url


def test_the_regressions_index_links_every_change_as_csv_in_its_order(site):
    """changes.csv beside the index: every change (the page shows the largest SHOWN_CHANGES), largest
    first, each with its ladder's page; the table's rows are its first rows."""
    import csv
    import math

    con = duckdb.connect(str(site.db), read_only=True)
    total = con.execute("SELECT count(*) FROM change_points WHERE kind IN ('series', 'median')").fetchone()[0]
    html = (site.public / "regressions" / "index.html").read_text()
    assert 'Every change as <a href="/regressions/changes.csv" download>CSV</a>' in html
    records = list(csv.DictReader((site.public / "regressions" / "changes.csv").open()))
    assert len(records) == total > 1000
    sizes = [abs(math.log1p(float(r["change"]))) for r in records]
    assert sizes == sorted(sizes, reverse=True)
    assert all((site.public / r["ladder"].strip("/") / "index.html").is_file() for r in records)
    shown = re.findall(r'<tr id="[^"]+" class="(\w+)"[^>]*><td class="num">[^<]*(?:<span class="flagged">flagged'
                       r'</span>)?</td><td><a href="([^"]+)">', html)
    assert shown == [(r["direction"], r["ladder"]) for r in records]


@pytest.mark.parametrize("limit", [100])
def test_a_regressions_index_of_more_changes_than_it_shows_says_so_and_links_them_all(tmp_path, monkeypatch, limit,
                                                                                      page):
    """SHOWN_CHANGES, made small: the page shows the largest, says how many of how many, and links
    the CSV of them all; its filters offer the values of the rows it shows, and count among them."""
    import csv
    import threading

    from papercuts.build import build
    from papercuts.publish.serve import make_server
    from papercuts.render import ladder_pages

    monkeypatch.setattr(ladder_pages, "SHOWN_CHANGES", limit)
    monkeypatch.setenv("PAPERCUTS_IMAGES", "0")
    paths = Paths.make(build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    html = (paths.public / "regressions" / "index.html").read_text()
    records = list(csv.DictReader((paths.public / "regressions" / "changes.csv").open()))
    assert html.count('<tr id="change-') == limit < len(records)
    assert f"The {limit} largest of {len(records):,} changes are" in " ".join(html.split())
    assert '<a href="/regressions/changes.csv" download>changes.csv</a>' in html
    offered = set(re.findall(r'<select data-filter="server">(.*?)</select>', html, re.S)[0].split("<option"))
    servers = {r["server"] for r in records[:limit]}
    assert {o.split(">")[1].split("<")[0] for o in offered if 'value="' in o} - {"all"} == servers
    httpd = make_server(paths.public)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        assert open_page(page, f"http://127.0.0.1:{httpd.server_address[1]}/regressions/") == []
        assert page.locator("output.shown").text_content() == f"{limit} of the {limit} largest changes"
        server = records[0]["server"]
        page.select_option('select[data-filter="server"]', server)
        mine = sum(1 for r in records[:limit] if r["server"] == server)
        assert page.locator("output.shown").text_content() == f"{mine} of the {limit} largest changes"
    finally:
        httpd.shutdown()


def test_server_and_campaign_pages_link_their_ladders(site):
    page = (site.public / "servers" / "pn53" / "index.html").read_text()
    assert f'href="{LADDER}"' in page
    campaign = (site.public / "campaigns" / "2025-11-28-pn53-mysql-5-6-to-9-5" / "index.html").read_text()
    assert f'href="{LADDER}"' in campaign


def test_change_points_export_has_the_promised_columns(tmp_path):
    path, rows = export(Paths.make(), "change_points", str(tmp_path / "cp.csv"))
    header = path.read_text().splitlines()[0].split(",")
    assert {"server", "config_family", "threads", "microbenchmark", "range", "before", "after", "change",
            "direction", "pvalue", "span_before", "span_after"} <= set(header)
    assert rows > 100
    import csv

    # every change has a span; some are wider than their pair
    records = list(csv.DictReader(path.open()))
    assert all(r["span_before"] and r["span_after"] for r in records)
    assert any((r["span_before"], r["span_after"]) != (r["before"], r["after"]) for r in records)


def test_the_regressions_feed_lists_the_newest_changes_with_stable_ids_that_resolve(site):
    import xml.etree.ElementTree as ET

    ns = {"a": "http://www.w3.org/2005/Atom"}
    entries = ET.parse(site.public / "regressions" / "feed.xml").getroot().findall("a:entry", ns)
    html = (site.public / "regressions" / "index.html").read_text()
    ids = [e.find("a:id", ns).text for e in entries]
    assert 0 < len(ids) <= 200 and len(set(ids)) == len(ids)
    for i in ids:
        assert f'id="{i.split("#", 1)[1]}"' in html  # each entry points at its row of the index
    dates = [e.find("a:updated", ns).text for e in entries]
    assert dates == sorted(dates, reverse=True)  # newest campaigns first
    con = duckdb.connect(str(site.db), read_only=True)
    newest = con.execute("SELECT max(c.date) FROM change_points p JOIN campaigns c ON c.id = p.campaign "
                         "WHERE p.kind IN ('series', 'median')").fetchone()[0]
    assert dates[0] == f"{newest}T00:00:00Z"


def test_known_regressions_label_their_changes_and_leave_the_feed(site, tmp_path, monkeypatch):
    """data/known/bug-102037.toml (seed 002) against the ladders. (bug-116463, seed 000, labelled
    the busy-wait campaign's 8.0.28 -> 8.0.40 -O3: its builds of 8.0.40 made a ladder until a
    ladder had one build per version; that campaign is a comparison of builds now.)"""
    con = duckdb.connect(str(site.db), read_only=True)
    labelled = con.execute("SELECT ck.known, p.series, p.before_version, p.after_version, p.server "
                           "FROM change_known ck JOIN change_points p USING (ladder, series, position) "
                           "ORDER BY 1, 2").fetchall()
    assert ("bug-102037", "random-points range 1000", "8.0.20", "8.0.28", "beelink") in labelled
    # never across a jump of releases: 5.7 -> 8.0.43 cannot say the step arrived in 8.0.28
    assert all(before.split(".")[:2] == after.split(".")[:2] for _, _, before, after, _ in labelled)
    html = (site.public / "regressions" / "index.html").read_text()
    row = next(r for r in html.split("<tr ")[1:] if 'data-server="beelink"' in r
               and ">random-points range 1000<" in r and "8.0.20 → 8.0.28" in r)
    assert 'href="/investigations/innodb-myrocks-over-time/"' in row and "bug 102037) (explained)" in row
    # The feed announces what is new: with room for every change, every one but the known ones.
    monkeypatch.setattr(ladder_pages, "FEED_ENTRIES", 10**6)
    ladder_pages.render_regressions(con, tmp_path)
    meta = json.loads((tmp_path / "regressions" / "index.md").read_text().split("\n", 1)[0])
    assert len(meta["feed"]) == meta["total"] - len(labelled) > 1000
    assert not any(i["known"] for i in meta["feed"])


def test_each_change_links_its_evidence_the_explorer_shows_the_two_builds(page, server, site):
    con = duckdb.connect(str(site.db), read_only=True)
    page.goto(server + "/regressions/")
    rows = page.locator("table.changes tbody tr")
    with_costs = rows.filter(has=page.locator("td.evidence a", has_text="costs"))
    assert rows.count() == con.execute("SELECT count(*) FROM change_points WHERE kind IN ('series', 'median')"
                                       ).fetchone()[0]
    assert rows.locator("td.evidence a", has_text="compare").count() == rows.count()
    assert with_costs.count() > 0
    row = rows.filter(has=page.locator("td", has_text="update-index range 100")).first
    href = row.locator("td.evidence a", has_text="compare").get_attribute("href")
    page.goto(server + href)
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered")
    assert page.locator("#explore-notes .fallback").count() == 0
    with page.expect_download() as info:
        page.locator("#explore-csv").click()
    import csv as _csv
    with open(info.value.path()) as f:
        (shown,) = list(_csv.DictReader(f))  # exactly one microbenchmark, one build against the other
    assert shown["microbenchmark"] == "update-index_range=100"
    q, b = (con.execute("SELECT qps FROM measured_qps WHERE campaign = ? AND threads = ? AND microbenchmark = "
                        "'update-index' AND build || '.' || config = ?", [shown["campaign"], int(shown["threads"]), v]
                        ).fetchone()[0] for v in (shown["variant"], shown["base_variant"]))
    assert float(shown["rqps"]) == q / b


def test_a_known_regression_matches_a_change_whose_span_holds_its_version_within_one_release():
    """known_matches.sql on a planted database: a change placed at 8.0.21 -> 8.0.22 whose span runs
    from 8.0.19 to 8.0.24 is the known regression introduced in 8.0.20; a span reaching back across
    a release jump (5.7.44 to 8.0.22) cannot say the step arrived in 8.0.20, and one that ends
    before it is not it. A known regression of the pair itself (8.0.22) is preferred to one only
    the span holds, whatever their ids."""
    from papercuts.db import query

    con = duckdb.connect()
    con.execute("CREATE TABLE builds (id VARCHAR, version_key INTEGER[])")
    con.execute("INSERT INTO builds VALUES ('b5744', [5, 7, 44]), ('b8019', [8, 0, 19]), ('b8021', [8, 0, 21]), "
                "('b8022', [8, 0, 22]), ('b8024', [8, 0, 24])")
    con.execute("CREATE TABLE known (id VARCHAR, dbms VARCHAR, introduced_key INTEGER[], servers VARCHAR[], "
                "microbenchmarks VARCHAR[], groups VARCHAR[])")
    con.execute("INSERT INTO known VALUES ('bug-1', 'mysql', [8, 0, 20], NULL, ['random-points'], NULL)")
    con.execute("CREATE TABLE change_points (ladder VARCHAR, series VARCHAR, position INTEGER, dbms VARCHAR, "
                "server VARCHAR, kind VARCHAR, microbenchmark VARCHAR, \"group\" VARCHAR, \"before\" VARCHAR, "
                "\"after\" VARCHAR, span_before VARCHAR, span_after VARCHAR)")
    for ladder, span_before, span_after in (("in span", "b8019", "b8024"), ("across a release", "b5744", "b8024"),
                                            ("pair only", "b8021", "b8022")):
        con.execute("INSERT INTO change_points VALUES (?, 'random-points', 2, 'mysql', 'pn53', 'series', "
                    "'random-points', 'point', 'b8021.c', 'b8022.c', ? || '.c', ? || '.c')",
                    [ladder, span_before, span_after])
    con.execute(query("known_matches"))
    assert con.execute("SELECT ladder, known FROM change_known").fetchall() == [("in span", "bug-1")]
    con.execute("DROP TABLE change_known")
    con.execute("INSERT INTO known VALUES ('bug-2', 'mysql', [8, 0, 22], NULL, ['random-points'], NULL)")
    con.execute(query("known_matches"))
    assert sorted(con.execute("SELECT ladder, known FROM change_known").fetchall()) == [
        ("across a release", "bug-2"), ("in span", "bug-2"), ("pair only", "bug-2")]


def test_a_change_whose_place_is_not_sure_shows_its_span_in_the_index_and_on_its_ladder(site):
    import hashlib

    con = duckdb.connect(str(site.db), read_only=True)
    # the span's ends by version, or by build.config where they share one (a ladder of configs)
    rows = con.execute("SELECT ladder, series, \"before\", \"after\", before_version, after_version, "
                       "if(span_before_version = span_after_version, span_before, span_before_version), "
                       "if(span_before_version = span_after_version, span_after, span_after_version), "
                       "\"first\" < \"last\", server, dbms, threads "
                       "FROM change_points WHERE kind IN ('series', 'median')").fetchall()
    wide = [r for r in rows if r[8]]
    assert 0 < len(wide) < len(rows)  # the shipped ladders have both
    html = (site.public / "regressions" / "index.html").read_text()
    cells = {r.split('"', 1)[0]: r for r in html.split('<tr id="')[1:]}
    for ladder, series, before, after, bv, av, sbv, sav, is_wide, *_ in rows:
        row = cells["change-" + hashlib.sha256(f"{ladder}|{series}|{before}|{after}".encode()).hexdigest()[:16]]
        assert f"{bv} → {av}" in row
        assert (f'<span class="span">90% within {sbv} → {sav}</span>' in row) == is_wide
        assert ('class="span"' in row) == is_wide
    ladder, series, *_, sbv, sav, _, server, dbms, threads = wide[0]
    page = (site.public / "ladders" / f"{server}-{dbms}-{threads}" / "index.html").read_text()
    assert f'<span class="span">90% within {sbv} → {sav}</span>' in page


def test_a_ladders_lines_are_each_groups_median_rqps_and_the_drift(site):
    """ladder_lines (derive/ladders.py): per build of a ladder, the median over each group's
    microbenchmarks of value / the first build's value, and exp(drift); every ladder has them."""
    import math
    import statistics

    con = duckdb.connect(str(site.db), read_only=True)
    ladder = "2025-11-28-pn53-mysql-5-6-to-9-5.pn53.mysql.innodb.c8r32.1"
    values = con.execute(f"""
        SELECT lb.position, lv."group", lv.microbenchmark, lv."range", lv.value
        FROM {ladder_inputs.WIDE} lv JOIN ladders l USING (campaign, server, dbms, engine, family, threads)
        JOIN ladder_builds lb ON lb.ladder = l.ladder AND lb.build = lv.build AND lb.config = lv.config
        WHERE l.ladder = ?""", [ladder]).fetchall()
    first = {(m, r): v for p, _, m, r, v in values if p == 0}
    by: dict[tuple, list[float]] = {}
    for p, g, m, r, v in values:
        if (m, r) in first:
            by.setdefault((p, f"median: {g}"), []).append(v / first[(m, r)])
    lines = {(p, s): (rqps, n) for p, s, rqps, n in con.execute(
        "SELECT position, series, rqps, n FROM ladder_lines WHERE ladder = ?", [ladder]).fetchall()}
    medians = {k: v for k, v in lines.items() if k[1] != "drift: all"}
    assert len(medians) > 20 and medians == {k: (statistics.median(v), len(v)) for k, v in by.items()}
    drift = con.execute("SELECT position, drift FROM ladder_builds WHERE ladder = ?", [ladder]).fetchall()
    assert {p: lines[(p, "drift: all")][0] for p, _ in drift} == {p: math.exp(d) for p, d in drift}
    assert con.execute("SELECT count(*) FROM ladder_lines WHERE series = 'drift: all'").fetchone() == \
        con.execute("SELECT count(*) FROM ladder_builds").fetchone()
    assert con.execute("SELECT count(DISTINCT ladder) FROM ladder_lines WHERE series LIKE 'median: %'").fetchone() == \
        con.execute("SELECT count(*) FROM ladders").fetchone()


def test_a_change_measured_on_a_value_check_warns_of_is_flagged_where_it_is_shown(site):
    """A QPS 10x from the other builds' median (validate/plausibility.py: 574 where they have
    135,218) made the largest change on the site, +22,203 %, shown first and unmarked. The values
    check warns of are flagged_results, and each change measured on one says so: in the index, its
    CSV and on its ladder page."""
    from papercuts.build import validate

    _, problems = validate(Paths.make())
    warned = {(p.path, p.line) for p in problems.items if p.severity == "warning" and "× the median" in p.message}
    con = duckdb.connect(str(site.db), read_only=True)
    flagged = con.execute("SELECT file, line, build, qps FROM flagged_results").fetchall()
    assert {(f, line) for f, line, *_ in flagged} == warned and len(warned) >= 2
    pairs = con.execute("""SELECT p.series, p."before", p."after" FROM change_flagged cf
                           JOIN change_points p USING (ladder, series, position) ORDER BY ALL""").fetchall()
    builds = {build for _, _, build, _ in flagged}
    assert pairs and all(b.split(".", 1)[0] in builds or a.split(".", 1)[0] in builds for _, b, a in pairs)
    html = (site.public / "regressions" / "index.html").read_text()
    rows = html.split("<tr ")[1:]
    marked = [r for r in rows if '<span class="flagged">flagged</span>' in r]
    assert len(marked) == len(pairs)
    top = rows[0]  # the largest change: 10.5.29 -> 10.6.24, from the flagged 574
    assert "22203.5% <span" in top and "qps.abs.ma.io.csv:27)" in top
    assert "check the data: QPS 574 of ma100529_rel_withdbg.z12a_c32r128 is 0.00424×" in top
    csv = (site.public / "regressions" / "changes.csv").read_text().splitlines()
    assert sum("check the data: QPS" in line for line in csv) == len(pairs)
    page = (site.public / "ladders" / "ax162-s-mariadb-40" / "index.html").read_text()
    assert page.count('<span class="flagged">flagged</span>') == len(pairs) + 1  # and the method's paragraph


def test_a_ladder_of_no_noise_says_it_was_not_searched_not_that_no_change_was_found(site):
    """ax162-s's MySQL ladder at 8 threads has one microbenchmark: it is the shared drift, nothing is
    left after it to measure a noise on (0), and a series of no noise is not searched
    (derive/changepoints.segment_all). Its page said 'noise per point ≈ 0.0%', 'Steps smaller than
    about 0% are unlikely to be found here' and 'No change point found in this ladder', under a
    line falling from 1.00 to 0.69. Every ladder of no noise says it was not searched; every other
    says what it can see and, when it found nothing, that it found nothing."""
    con = duckdb.connect(str(site.db), read_only=True)
    ladders = con.execute("""SELECT l.ladder, l.server, l.dbms, l.threads, l.noise, l.series,
                                    (SELECT count(*) FROM change_points p WHERE p.ladder = l.ladder) AS changes
                             FROM ladders l ORDER BY l.ladder""").fetchall()
    quiet = [lad for lad, *_, noise, _, _ in ladders if noise == 0]
    assert "2025-11-28-ax162-s-mysql-5-6-to-9-5.ax162-s.mysql.innodb.c32r128.8" in quiet
    for ladder, server, dbms, threads, noise, series, changes in ladders:
        html = (site.public / "ladders" / f"{server}-{dbms}-{threads}" / "index.html").read_text()
        section = re.search(rf'<section class="ladder" id="{ladder_pages._chart_id(ladder)}">(.*?)</section>',
                            html, re.S).group(1)
        text = " ".join(re.sub(r"<[^>]+>", " ", section).split())
        if noise == 0:
            assert changes == 0
            assert "no step can be tested" in text and "Not searched for change points" in text
            assert "noise per point" not in text and "No change point found" not in text
            if series == 1:
                assert "its one microbenchmark is the shared drift itself" in text and ", 1 microbenchmark " in text
        else:
            assert "not searched" not in text.lower() and "noise per point ≈ 0.0%" not in text
            assert ("No change point found in this ladder." in text) == (changes == 0)


def test_the_ladders_index_and_the_threads_filter_put_thread_counts_in_numeric_order(site):
    """/ladders/ listed ax162-s's MariaDB ladders at 1, 12, 16, 2, 20, 24, 32, 4, 40, 48 and 8
    threads (their titles as text), and the regressions index offered threads 1, 10, 12, 16, 2, 20,
    ...: a reader looking for 8 threads found it last. Both are in numeric order now: the index by
    server, DBMS, then threads (every ladder page once), the filter by value."""
    con = duckdb.connect(str(site.db), read_only=True)
    pages = con.execute("SELECT DISTINCT server, dbms, threads FROM ladders").fetchall()
    html = (site.public / "ladders" / "index.html").read_text()
    listed = re.findall(r'<li><a href="/ladders/([^"/]+)/">', html)
    expected = [f"{s}-{d}-{t}" for s, d, t in sorted(pages, key=lambda p: (p[0], dbms_name(p[1]), p[2]))]
    assert listed == expected and "ax162-s-mariadb-12" in listed
    assert listed.index("ax162-s-mariadb-2") < listed.index("ax162-s-mariadb-8") < listed.index("ax162-s-mariadb-12")
    index = (site.public / "regressions" / "index.html").read_text()
    menu = re.search(r'<select data-filter="threads">(.*?)</select>', index, re.S).group(1)
    offered = [int(v) for v in re.findall(r'<option value="(\d+)">', menu)]
    assert offered == sorted(offered) and len(offered) >= 10


def test_a_ladder_charts_title_says_its_thread_count(site):
    """A campaign of several thread counts names them all in its title ('... on ax162-s, 8, 40 threads'): a
    ladder chart titled by it alone said 40 threads on the 8-thread page, and so did its embed and image."""
    con = duckdb.connect(str(site.db), read_only=True)
    ladders = con.execute("SELECT l.ladder, l.server, l.dbms, l.threads, l.family, c.title FROM ladders l "
                          "JOIN campaigns c ON c.id = l.campaign").fetchall()
    assert any(re.search(r"\d, \d+ threads", title) for *_, title in ladders)  # the case exists
    for ladder, server, dbms, threads, family, title in ladders:
        html = (site.public / "ladders" / f"{server}-{dbms}-{threads}" / "index.html").read_text()
        want = f"{title} ({family}, {threads} thread{'' if threads == 1 else 's'})"
        assert f"<figcaption><strong>{want}" in html.replace("&#39;", "'").replace("&amp;", "&"), (ladder, want)


def test_on_a_phone_a_ladder_pages_first_chart_is_reached_within_a_screen_and_a_half(page, server):
    """The method (how change points are found, which builds a ladder keeps) was 24 lines of text at
    390 px above the first chart; it is folded in a <details> under a short lead, and unfolds."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + LADDER)
    first = page.locator("section.ladder").first.locator("figure.chart").bounding_box()
    assert first["y"] < 1.5 * 844, first
    method = page.locator("details.method")
    assert not method.get_attribute("open") and not method.locator("p").is_visible()
    method.locator("summary").click()
    assert "Bonferroni-corrected" in method.locator("p").inner_text()
