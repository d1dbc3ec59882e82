"""Ladder pages and the regressions index, built from the shipped data and read in Chromium."""
from __future__ import annotations

import duckdb
import pytest

from papercuts.export import export
from papercuts.paths import Paths
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
    assert builds == variants >= 8 and marked >= 2  # every build of the campaign (8.4.6 twice: a rerun)
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


def test_server_and_campaign_pages_link_their_ladders(site):
    page = (site.public / "servers" / "pn53" / "index.html").read_text()
    assert f'href="{LADDER}"' in page
    campaign = (site.public / "campaigns" / "2025-11-28-pn53-mysql-5-6-to-9-5" / "index.html").read_text()
    assert f'href="{LADDER}"' in campaign


def test_change_points_export_has_the_promised_columns(tmp_path):
    path, rows = export(Paths.make(), "change_points", str(tmp_path / "cp.csv"))
    header = path.read_text().splitlines()[0].split(",")
    assert {"server", "config_family", "threads", "microbenchmark", "range", "before", "after", "change",
            "direction", "pvalue"} <= set(header)
    assert rows > 100


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


def test_known_regressions_label_their_changes_and_leave_the_feed(site):
    """data/known/bug-116463.toml (seed 000) and bug-102037.toml (seed 002) against the ladders."""
    con = duckdb.connect(str(site.db), read_only=True)
    labelled = con.execute("SELECT ck.known, p.series, p.before_version, p.after_version, p.server "
                           "FROM change_known ck JOIN change_points p USING (ladder, series, position) "
                           "ORDER BY 1, 2").fetchall()
    assert ("bug-116463", "update-index range 100", "8.0.28", "8.0.40", "dell32") in labelled
    assert ("bug-102037", "random-points range 1000", "8.0.20", "8.0.28", "beelink") in labelled
    # never across a jump of releases: 5.7 -> 8.0.43 cannot say the step arrived in 8.0.28
    assert all(before.split(".")[:2] == after.split(".")[:2] for _, _, before, after, _ in labelled)
    html = (site.public / "regressions" / "index.html").read_text()
    row = next(r for r in html.split("<tr ")[1:] if 'data-server="dell32"' in r and ">update-index range 100<" in r
               and "8.0.28 → 8.0.40" in r)
    assert 'href="/investigations/innodb-busy-wait-8030/"' in row and "bug 116463) (open)" in row
    feed = (site.public / "regressions" / "feed.xml").read_text()
    assert "update-index range 100 -44" not in feed  # known, so not announced as new


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
