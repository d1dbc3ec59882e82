"""The known regressions listed on /regressions/ (render/known_list.py), from the shipped data: each
says where the site shows it, as labelled change points or, where no ladder can, as comparisons."""
from __future__ import annotations

import re
import shutil
import tomllib
from html.parser import HTMLParser

import duckdb

from papercuts.paths import PROJECT
from papercuts.render.known_list import known_list

BUSY_WAIT = "2024-10-23-busy-wait-dell32"


class _Known(HTMLParser):
    """Each known regression's <li>: its id, text, links and comparison tables' rows of cells."""

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[str, dict] = {}
        self.at: dict | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and (a.get("id") or "").startswith("known-"):
            self.at = self.items[a["id"][len("known-"):]] = {"text": "", "links": [], "rows": []}
        elif self.at is not None and tag == "a":
            self.at["links"].append(a["href"])
        elif self.at is not None and tag == "tr":
            self.at["rows"].append([])
        elif self.at is not None and tag == "td":
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.at["rows"][-1].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "li":
            self.at = None

    def handle_data(self, data):
        if self.at is not None:
            self.at["text"] += data
        if self.cell is not None:
            self.cell.append(data)


def _listed(site) -> dict[str, dict]:
    parser = _Known()
    parser.feed((site.public / "regressions" / "index.html").read_text())
    return parser.items


def test_every_known_regression_is_listed_with_where_the_site_shows_it(site):
    """bug-116463 labels no change (its campaign, of two versions, is a comparison: d781bec), and was on
    no page; it is listed with the campaign's published rQPS of update-index at each 8.0.40 build."""
    listed = _listed(site)
    assert sorted(listed) == sorted(p.stem for p in (PROJECT / "data" / "known").glob("*.toml"))
    con = duckdb.connect(str(site.db), read_only=True)
    for known, item in listed.items():
        text = re.sub(r"\s+", " ", item["text"])
        title = tomllib.loads((PROJECT / "data" / "known" / f"{known}.toml").read_text())["title"]
        assert title in text
        changes = con.execute("SELECT count(*) FROM change_known WHERE known = ?", [known]).fetchone()[0]
        if changes:
            assert f"Labels {changes} change" in text
            ladders = [u for u in item["links"] if u.startswith("/ladders/")]
            assert ladders and all((site.public / u.strip("/") / "index.html").is_file() for u in ladders)
        else:
            assert "Labels" not in text
    busy = listed["bug-116463"]
    assert f"/campaigns/{BUSY_WAIT}/" in busy["links"]
    expected = con.execute(
        "SELECT b.version || ' (' || r.build || '.' || r.config || ')', printf('%.2f', r.rqps) FROM rqps r "
        "JOIN builds b ON b.id = r.build WHERE r.campaign = ? AND r.server = 'dell32' AND r.threads = 24 "
        "AND r.microbenchmark = 'update-index' ORDER BY ALL", [BUSY_WAIT]).fetchall()
    rows = [tuple(r) for r in busy["rows"] if r]
    assert len(expected) == 7 and sorted(rows) == expected
    assert "rQPS of update-index range 100 against 8.0.28 (my8028_rel_o2nofp.z11a_c32r128), as published" in \
        re.sub(r"\s+", " ", busy["text"])


def test_a_comparison_is_listed_only_where_no_ladder_shows_the_step(site, tmp_path):
    """The gtid campaigns compare 8.4, 9.4 and 9.5 builds with an 8.0.44 base, and each is a ladder: a
    known regression arriving in 8.0.45 is the ladders' to label, not listed as those comparisons."""
    db = tmp_path / "copy.duckdb"
    shutil.copy(site.db, db)
    con = duckdb.connect(str(db))
    assert con.execute("SELECT count(*) FROM ladders WHERE campaign LIKE '%-mysql-gtid'").fetchone()[0] >= 3
    con.execute("INSERT INTO known SELECT * REPLACE ('bug-98' AS id, '8.0.45' AS introduced, [8, 0, 45] AS "
                "introduced_key, NULL AS microbenchmarks, NULL AS servers) FROM known WHERE id = 'bug-116463'")
    entries = {k["id"]: k for k in known_list(con, ())}
    assert entries["bug-98"]["compared"] == []
    for k in entries.values():
        for c in k["compared"]:
            assert con.execute("SELECT count(*) FROM ladders WHERE campaign = ? AND server = ? AND threads = ?",
                               [c["campaign"], c["server"], c["threads"]]).fetchone()[0] == 0
    assert entries["bug-116463"]["compared"]


def test_a_known_regression_no_result_spans_says_so_and_links_its_bug_without_its_investigation(site, tmp_path):
    db = tmp_path / "copy.duckdb"
    shutil.copy(site.db, db)
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO known SELECT * REPLACE ('bug-99' AS id, '9.9.1' AS introduced, [9, 9, 1] AS "
                "introduced_key) FROM known WHERE id = 'bug-116463'")
    entries = {k["id"]: k for k in known_list(con, ())}
    assert entries["bug-99"]["changes"] == 0 and entries["bug-99"]["compared"] == []
    # no investigation built: the first bug
    assert entries["bug-116463"]["url"] == "https://bugs.mysql.com/bug.php?id=116463"
    assert entries["bug-116463"]["hits"] == "update-index; on dell32"
    assert "No result on this site spans" not in re.sub(r"\s+", " ", _listed(site)["bug-116463"]["text"])


def test_a_campaign_page_names_the_known_regressions_it_shows(site):
    """The campaigns whose ladders a known regression labels, or whose comparisons span it where no ladder
    can, name it and link its entry on /regressions/; no other campaign page does."""
    con = duckdb.connect(str(site.db), read_only=True)
    expected = {c: set() for (c,) in con.execute("SELECT id FROM campaigns").fetchall()}
    for campaign, known in con.execute("SELECT DISTINCT l.campaign, ck.known FROM change_known ck "
                                       "JOIN ladders l USING (ladder)").fetchall():
        expected[campaign].add(known)
    for k in known_list(con, ()):
        for c in k["compared"]:
            expected[c["campaign"]].add(k["id"])
    assert expected[BUSY_WAIT] == {"bug-116463"} and sum(map(bool, expected.values())) >= 2
    listed = _listed(site)
    for campaign, known in expected.items():
        html = (site.public / "campaigns" / campaign / "index.html").read_text()
        section = html[html.find('class="campaign-known"'):]
        section = section[:section.find("</section>")] if 'class="campaign-known"' in html else ""
        assert set(re.findall(r'href="/regressions/#known-([^"]+)"', section)) == known
        assert all(k in listed for k in known)
