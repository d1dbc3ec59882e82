"""Readers can move between the pages and reach every source: menu, back links, file links."""
from __future__ import annotations

import re
import urllib.request


def html(site, url: str) -> str:
    return (site.public / url.strip("/") / "index.html").read_text()


def status(server: str, href: str) -> int:
    with urllib.request.urlopen(server + href) as r:
        return r.status


def site_pages(site) -> list:
    """Every page with the site's chrome: not the embed pages (the chart alone, for a frame)."""
    return [p for p in site.public.rglob("index.html") if not p.relative_to(site.public).as_posix().startswith("embed/")
            or p.parent == site.public / "embed"]


def test_every_page_has_the_campaigns_index_in_its_menu(site):
    pages = site_pages(site)
    assert len(pages) > 20
    for p in pages:
        header = p.read_text().split('<nav aria-label="Site">', 1)[1].split("</nav>", 1)[0]
        assert 'href="/campaigns/"' in header, p


def test_campaigns_and_investigations_link_both_ways(site):
    index = html(site, "/campaigns/")
    campaigns = sorted(p.parent.name for p in (site.public / "campaigns").glob("*/index.html"))
    assert len(campaigns) >= 6
    cited = set()
    for inv in (site.public / "investigations").glob("*/index.html"):
        cited |= set(re.findall(r'href="/campaigns/([^/"]+)/', inv.read_text()))
    assert len(cited) >= 6  # the six hand-transcribed campaigns each feed an investigation
    for cid in campaigns:
        assert f'href="/campaigns/{cid}/"' in index
        page = html(site, f"/campaigns/{cid}/")
        used_by = re.findall(r'href="(/investigations/[^"]+/)"', page.split("campaign-investigations", 1)[-1])
        assert bool(used_by) == (cid in cited), cid  # listed exactly when an investigation cites it
        for inv in used_by:  # and the investigation's Sources table links back to the campaign
            assert f'href="/campaigns/{cid}/' in html(site, inv), (cid, inv)


def test_every_data_file_in_a_sources_table_is_a_link_that_resolves(site, server):
    for page in (site.public / "investigations").glob("*/index.html"):
        table = page.read_text().split('<table class="datafiles source-files">', 1)
        if len(table) == 1:
            continue
        cells = re.findall(r"<tr>\s*<td>(.*?)</td>", table[1].split("</table>", 1)[0], re.S)
        assert cells, page
        for cell in cells:
            m = re.fullmatch(r'<a href="([^"]+)"><code>[^<]+</code></a>', cell.strip())
            assert m, (page, cell)
            assert status(server, m.group(1)) == 200, m.group(1)


def test_bugs_named_with_a_tracker_are_links(site):
    page = html(site, "/investigations/innodb-myrocks-over-time/")
    for n in ("1473", "1481", "1482", "1505", "1506"):
        assert f'href="https://github.com/facebook/mysql-5.6/issues/{n}"' in page
    assert 'href="https://bugs.mysql.com/bug.php?id=102037"' in page


def test_an_atom_feed_of_investigations_newest_first_and_a_sitemap(site):
    import xml.etree.ElementTree as ET

    ns = {"a": "http://www.w3.org/2005/Atom"}
    feed = ET.parse(site.public / "investigations" / "feed.xml").getroot()
    entries = feed.findall("a:entry", ns)
    pages = sorted(p.parent.name for p in (site.public / "investigations").glob("*/index.html"))
    assert sorted(e.find("a:id", ns).text.strip("/").split("/")[-1] for e in entries) == pages
    dates = [e.find("a:updated", ns).text for e in entries]
    assert dates == sorted(dates, reverse=True)
    sitemap = (site.public / "sitemap.xml").read_text()
    for name in pages:
        assert f"/investigations/{name}/</loc>" in sitemap
    home = html(site, "/")
    assert 'type="application/atom+xml"' in home and 'href="/investigations/feed.xml"' in home


def test_every_page_has_a_description_and_og_metadata(site):
    for p in site_pages(site):
        head = p.read_text().split("</head>", 1)[0]
        for tag in ('<meta name="description" content="', '<meta property="og:title" content="',
                    '<meta property="og:description" content="'):
            assert tag in head and tag + '"' not in head, (p, tag)


def test_long_pages_have_a_table_of_contents_whose_links_land_on_headings(site):
    for p in (site.public / "investigations").glob("*/index.html"):
        page = p.read_text()
        toc = page.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
        targets = re.findall(r'href="#([^"]+)"', toc)
        assert len(targets) >= 4, p
        for t in targets:
            assert re.search(rf'<h[23] id="{re.escape(t)}"', page), (p, t)


def test_a_campaign_page_shows_its_comparison_against_its_base(site):
    page = html(site, "/campaigns/2024-10-23-busy-wait-dell32/")
    assert 'data-kind="rqps-heatmap"' in page and "relative to my8028_rel_o2nofp.z11a_c32r128" in page


def test_every_post_the_site_cites_is_a_link_to_its_public_address(site):
    """Blog posts are public: each cited one is a link (issue 15.5), on every page that cites it."""
    import csv
    import html as htmllib

    from papercuts.paths import PROJECT

    with open(PROJECT / "data" / "sources.csv", newline="", encoding="utf-8") as f:
        posts = [r for r in csv.DictReader(f) if "blog" in r["publication"].lower()]
    assert len(posts) >= 4
    cited = 0
    for row in posts:
        assert row["url"].startswith("https://"), row["id"]
        title = htmllib.escape(row["title"], quote=False)
        for page in site.public.rglob("index.html"):
            text = page.read_text()
            if f"<cite>{title}</cite>" in text:
                cited += 1
                assert f'<a href="{row["url"]}"><cite>{title}</cite></a>' in text, (row["id"], page)
    assert cited >= 4


def test_the_home_page_links_the_contributors_guide_published_on_the_site(site):
    """CONTRIBUTING.md is reachable from home without a repository URL, and its link into data/
    lands on the contract page that publishes that file."""
    from papercuts.paths import PROJECT

    assert 'href="/contributing/"' in html(site, "/")
    guide = html(site, "/contributing/")
    for heading in re.findall(r"^## (.+)$", (PROJECT / "CONTRIBUTING.md").read_text(), re.M):
        assert heading.split("`")[0].strip() in guide, heading
    assert 'href="/contract/"' in guide and "data/README.md)" not in guide


_LOCAL = re.compile(r'(?:href|src|data-spec-url)="(/[^/"][^"]*)"')


def unresolved(public) -> tuple[int, list]:
    """Each root-relative address a page of the site names (links, images, scripts, the charts'
    spec files; embed pages too) that is not a file of the site, nor a folder with its
    index.html; and how many were checked."""
    from urllib.parse import unquote, urlsplit

    missing, checked = [], 0
    for page in public.rglob("*.html"):
        for address in set(_LOCAL.findall(page.read_text())):
            path = unquote(urlsplit(address.replace("&amp;", "&")).path)
            target = public / path.lstrip("/")
            checked += 1
            if not (target.is_file() or (target / "index.html").is_file()):
                missing.append((page.relative_to(public).as_posix(), address))
    return checked, missing


def test_every_local_address_of_every_page_is_a_file_of_the_site(site):
    """A chart's files are published by Papercuts after Hugo (publish/own_files.py place_chart_files)."""
    checked, missing = unresolved(site.public)
    assert checked > 1000 and missing == [], missing[:10]


def test_a_server_id_with_capitals_has_its_pages_where_its_links_point(data_copy, tmp_path):
    """Ids may hold capitals (contract.ID_PATTERN): the links name /servers/Dell99/, where Hugo
    publishes the page as written (site/hugo.toml disablePathToLower), not in lower case."""
    import csv

    from papercuts.build import build
    from papercuts.paths import PROJECT, Paths

    servers = data_copy / "servers.csv"
    rows = list(csv.reader(servers.open()))
    dell32 = next(r for r in rows if r[0] == "dell32")
    rows.append(["Dell99", "", *dell32[2:]])  # no aliases: dell32's are dell32's
    with servers.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    old, new = data_copy / "campaigns" / "2024-10-23-busy-wait-dell32", data_copy / "campaigns" / "2026-11-25-caps"
    new.mkdir()
    (new / "campaign.toml").write_text((old / "campaign.toml").read_text().replace("date = 2024-10-23",
                                                                                   "date = 2026-11-25"))
    header, *lines = (old / "relative.csv").read_text().splitlines()
    moved = [f"Dell99,{rest},{float(value) * 1.01:.2f}" for rest, value in
             (line.split(",", 1)[1].rsplit(",", 1) for line in lines)]
    (new / "relative.csv").write_text("\n".join([header, *moved]) + "\n")
    # with the project's pages, which data_copy's known regressions and calibrations link to
    paths = Paths.make(data=data_copy, build=tmp_path / "build", out=tmp_path / "public", content=PROJECT / "content")
    build(paths)
    assert (paths.public / "servers" / "Dell99" / "index.html").is_file()
    checked, missing = unresolved(paths.public)
    assert checked > 1000 and missing == [], missing[:10]
