"""Every chart has an embed page that draws the same spec, and the HTML to embed it (issue 14)."""
from __future__ import annotations

import html
import re
import shutil

import duckdb

from papercuts.build import build
from papercuts.db import query
from papercuts.paths import PROJECT, Paths
from papercuts.render.embeds import embed_html, embed_meta, page_as_of
from papercuts.render.frontmatter import page, split


def figures(site):
    """(page URL, chart id, spec URL, figure markup) of every chart on every page but the embeds."""
    for index in sorted(site.public.rglob("index.html")):
        rel = index.parent.relative_to(site.public).as_posix()
        if rel == "embed" or rel.startswith("embed/"):
            continue
        url = "/" if rel == "." else f"/{rel}/"
        for cid, body in re.findall(r'<figure class="chart" id="chart-([^"]+)".*?>(.*?)</figure>',
                                    index.read_text(), re.S):
            spec = re.search(r'data-spec-url="([^"]+)"', body)[1]
            yield url, cid, spec, body


def test_every_chart_has_an_embed_page_drawing_the_same_spec_and_linking_back(site):
    seen = set()
    for url, cid, spec, body in figures(site):
        embed = f"/embed{url}{cid}/"
        assert f'class="embed-link" href="{embed}"' in body, (url, cid)
        snippet = html.unescape(re.search(r'<code class="snippet" data-snippet="iframe">(.*?)</code>', body, re.S)[1])
        assert snippet.startswith(f'<iframe src="{embed}" title="'), snippet
        page = (site.public / embed.strip("/") / "index.html").read_text()
        assert f'data-spec-url="{spec}"' in page and f'data-chart-id="{cid}"' in page
        assert f'class="back" href="{url}#chart-{cid}"' in page
        assert "<nav" not in page  # the chart alone: no site menu
        seen.add(embed)
    pages = {"/" + p.parent.relative_to(site.public).as_posix() + "/"
             for p in (site.public / "embed").rglob("index.html")
             if p.parent != site.public / "embed" and "@" not in p.parent.name}  # pinned ones: test_snapshots.py
    assert len(seen) > 200 and seen == pages  # one embed page per chart, no more


def test_each_charts_embed_snippets_lead_to_how_to_pin_it(site):
    """Pinning a chart to the data as of a post is told on /embed/ alone, which no page linked:
    an author copying a snippet beside a chart never learnt the chart could be pinned."""
    guide = (site.public / "embed" / "index.html").read_text()
    assert '<h2 id="pin-the-numbers-your-post-quotes">Pin the numbers your post quotes</h2>' in guide
    count = 0
    for url, cid, _, body in figures(site):
        details = re.search(r'<details class="embed-snippet">(.*?)</details>', body, re.S)[1]
        assert re.search(r'<p class="embed-pin">The live chart follows new results: '
                         r'<a href="/embed/#pin-the-numbers-your-post-quotes">pin it</a>', details), (url, cid)
        count += 1
    assert count > 200


def test_the_embed_page_tells_a_blog_author_how_with_an_example_that_exists(site):
    text = html.unescape(re.sub(r"<[^>]+>", "", (site.public / "embed" / "index.html").read_text()))
    example = "/embed/investigations/innodb-busy-wait-8030/dell32-rqps/"
    assert f'<iframe src="https://<this site>{example}"' in text
    assert (site.public / example.strip("/") / "index.html").is_file()
    png = "/investigations/innodb-busy-wait-8030/innodb-busy-wait-8030-dell32-rqps.png"
    assert f'src="https://<this site>{png}"' in text and (site.public / png.strip("/")).is_file()
    # another data folder's example is its own chart: tests/test_build_other_data.py


def test_the_embed_pages_example_is_a_chart_named_by_path_and_id_alone(tmp_path):
    """The /embed/ page is markdown written by the pipeline: its example is the first chart whose
    page path, id and image name are path characters; with no chart, the address's pattern."""
    from papercuts.render.jinja import render_template
    from papercuts.render.site import embed_example

    paths = Paths.make(build=tmp_path / "build", out=tmp_path / "public")
    assert embed_example(paths, tmp_path)["example"] is None
    empty = render_template("embed.md.j2", **embed_example(paths, tmp_path))
    assert 'src="https://<this site>/embed/<page path>/<chart id>/"' in empty and "None" not in empty
    hostile = {"id": "x{{< youtube y >}}", "title": "t", "png": ""}
    shown_from = {"id": "heatmap-1", "title": "{{< youtube z >}}", "from": "/campaigns/c1/", "png": "c1-heatmap-1.png"}
    for folder, charts in (("servers/a", [hostile]), ("servers/b", [hostile, shown_from])):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "index.md").write_text(page({"title": "p", "charts": charts}, ""))
    example = embed_example(paths, tmp_path)
    assert (example["example"], example["example_png"]) == ("/embed/servers/b/heatmap-1/",
                                                            "/campaigns/c1/c1-heatmap-1.png")
    text = render_template("embed.md.j2", **example)
    assert "youtube" not in text and "{{" not in text
    assert '<iframe src="https://<this site>/embed/servers/b/heatmap-1/"' in text  # baseURL "/"


def test_the_embed_pages_example_has_the_sites_address_when_the_build_knows_it(tmp_path, monkeypatch):
    """In production (HUGO_BASEURL, netlify.toml) the snippets beside the charts are absolute: so
    is /embed/'s example, which said https://<this site> whatever the build knew."""
    from papercuts.render import embeds
    from papercuts.render.jinja import render_template
    from papercuts.render.site import embed_example

    (tmp_path / "servers" / "b").mkdir(parents=True)
    (tmp_path / "servers" / "b" / "index.md").write_text(
        page({"title": "p", "charts": [{"id": "heatmap-1", "title": "t", "png": "b-heatmap-1.png"}]}, ""))
    paths = Paths.make(build=tmp_path / "build", out=tmp_path / "public")
    for base, shown in (("https://example.org/papercuts/", "https://example.org/papercuts"),
                        ("http://127.0.0.1:1313/", "http://127.0.0.1:1313"),
                        ('https://example.org/"><b>x</b>/', "https://<this site>")):  # not an address: not shown
        monkeypatch.setenv("HUGO_BASEURL", base)
        embeds._settings.cache_clear()
        try:
            text = render_template("embed.md.j2", **embed_example(paths, tmp_path))
        finally:
            embeds._settings.cache_clear()
        assert f'<iframe src="{shown}/embed/servers/b/heatmap-1/"' in text, base
        assert f'src="{shown}/servers/b/b-heatmap-1.png"' in text and "<b>" not in text


def test_an_embedded_chart_cites_its_campaigns_source_not_its_pages(site):
    """A server page's own source describes the hardware; a chart of a campaign shown there cites
    the campaign's source (here the mytools archive it was imported from)."""
    folder = site.public / "embed" / "servers" / "pn53"
    (embed,) = [p for p in folder.iterdir() if p.name.startswith("heatmap-2025-08-21-pn53-mysql-5-6-to-9-4-")]
    source = html.unescape(re.search(r'class="embed-source">(.*?)</p>', (embed / "index.html").read_text(), re.S)[1])
    assert "bench/arc/aug25.sb.mem.in.1u.50m.600s.900s.pn53" in source
    assert "busy-wait" not in source  # the source the pn53 server row names


def test_a_ladder_charts_embed_cites_its_campaigns_source(site):
    """A ladder chart is one campaign's: its embed cited no source at all (helper-55's review), where the
    heatmap of the same campaign cites the mytools archive it was imported from."""
    folder = site.public / "embed" / "ladders" / "pn53-mysql-1"
    (embed,) = [p for p in folder.iterdir() if p.name.startswith("ladder-2025-11-28-pn53-mysql-5-6-to-9-5-")]
    found = re.search(r'class="embed-source">(.*?)</p>', (embed / "index.html").read_text(), re.S)
    assert found and "nov25.sb.mysql" in html.unescape(found[1]), found


def test_charts_whose_ids_hugo_reads_in_a_file_name_have_their_embed_pages_and_so_do_the_others(tmp_path):
    """Embed pages are leaf files, `<chart id>.md` (render/embeds.py embed_file), but for ids Hugo
    would read in a file's name: `Index.md` would make its page's embed folder a bundle and hide
    its siblings, `summary.en.md` would be page `summary` in language `en`. They keep a folder."""
    content = tmp_path / "content"
    shutil.copytree(PROJECT / "content", content)
    page = content / "investigations" / "innodb-busy-wait-8030.md"
    text = page.read_text()
    for old, new in (("dell32-rqps", "Index"), ("dell32-summary", "summary.en"), ("ut-delay", "summary")):
        text = text.replace(f"id: {old}\n", f"id: {new}\n").replace(f'{{{{< chart id="{old}" />}}}}',
                                                                   f'{{{{< chart id="{new}" />}}}}')
    page.write_text(text)
    paths = Paths.make(data=PROJECT / "data", content=content, build=tmp_path / "build", out=tmp_path / "public")
    build(paths)
    # Hugo writes every path in lower case (its default): Index's page is at …/index/, and the
    # chart's "Embed page" link says so.
    shown = {cid: body for url, cid, _, body in figures(paths) if url == "/investigations/innodb-busy-wait-8030/"}
    for cid in ("Index", "summary.en", "summary", "spin-wait"):
        link = re.search(r'class="embed-link" href="([^"]+)"', shown[cid])[1]
        drawn = (paths.public / link.strip("/") / "index.html").read_text()
        assert f'data-chart-id="{cid}"' in drawn
        assert f'class="back" href="/investigations/innodb-busy-wait-8030/#chart-{cid}"' in drawn


def test_an_embed_page_escapes_every_value_and_links_only_http_sources():
    chart = {"id": "c1", "title": '"><img src=x onerror=alert(1)>', "caption": "<script>alert(2)</script>",
             "rows": 1, "spec": "a.vl.json", "csv": "a.csv", "svg": "a.svg", "png": ""}
    for url, linked in (("javascript:alert(3)", False), ("https://example.org/post?a=1&b=2", True),
                        ("HTTPS://example.org/post?a=1&b=2", True),
                        ("https://[v6].example.org/post", True)):  # validation takes it; urlsplit raises
        meta = embed_meta("/servers/x/", {"title": "x", "source": {"title": "<i>src</i>", "url": url}}, chart)
        page = embed_html(meta, "2026-01-01")
        assert "<img src=x" not in page and "<script>alert" not in page and "<i>" not in page
        assert 'alt="&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"' in page  # in an attribute, still text
        assert ("javascript:" in page) is False
        assert (f'<a href="{url.replace("&", "&amp;")}"' in page) is linked
        assert "Source: &lt;i&gt;src&lt;/i&gt;" in page


def test_a_chart_of_one_campaign_or_calibration_is_dated_by_it_not_by_its_page(site):
    """A ladder page's chart draws one campaign, a server page's calibration chart one calibration
    and its heatmaps (shown from their campaigns' pages) one campaign each: their embed pages and
    images said the date of the page's newest data (the pn53 ladder chart of the 2025-12-17 gtid
    campaign: "Data as of 2026-04-03", its server's newest). Each now says its own campaign's or
    calibration's date, read here from the database."""
    con = duckdb.connect(str(site.db), read_only=True)
    try:
        dated = {c: str(d) for c, d in con.execute("SELECT id, date FROM campaigns UNION ALL "
                                                   "SELECT id, date FROM calibrations").fetchall()}
        servers = [i for (i,) in con.execute("SELECT id FROM servers").fetchall()]
        checked, before_its_page = 0, set()
        for section, prefix in (("ladders", "ladder-"), ("servers", "calibration-"), ("servers", "heatmap-")):
            for embed in sorted((site.public / "embed" / section).glob(f"*/{prefix}*/index.html")):
                if "@" in embed.parent.name:
                    continue  # a pin
                # the chart id is <prefix><campaign or calibration id>-<what>: the longest id it starts with
                named = max((i for i in dated if embed.parent.name.startswith(prefix + i.lower() + "-")), key=len)
                text = embed.read_text()
                said = re.search(r"Data as of (\d{4}-\d{2}-\d{2})", text)[1]
                assert said == dated[named], (embed, named)
                svg = re.search(r'<noscript><img class="chart-image" src="([^"]+)"', text)[1]
                assert f"Data as of {said}" in (site.public / svg.lstrip("/")).read_text(), svg
                slug = embed.parent.parent.name
                # a ladder page (<server>-<dbms>-<threads>) is dated as its server's pages are
                server = max((i for i in servers if slug == i.lower() or slug.startswith(i.lower() + "-")), key=len)
                page = page_as_of(con, server=server)
                if said < page:
                    before_its_page.add(f"{section}/{slug}")
                checked += 1
    finally:
        con.close()
    assert checked > 20 and {"ladders/pn53-mysql-1", "servers/dell32"} <= before_its_page, (checked, before_its_page)


def test_the_pairs_a_servers_pages_show_are_those_of_every_table_naming_both(site):
    """campaign_server_pairs.sql reads the results, ratios, summaries and observations through
    derive's file_rows: the pairs are those every contributed table naming a campaign and a server
    holds, read there, and each campaign's own server; sorted, each once."""
    con = duckdb.connect(str(site.db), read_only=True)
    try:
        every = set(con.execute(
            "SELECT campaign, server FROM results UNION SELECT campaign, server FROM relative "
            "UNION SELECT campaign, server FROM summaries UNION SELECT campaign, server FROM counters "
            "UNION SELECT campaign, server FROM profiles "
            "UNION SELECT campaign, server FROM observations WHERE server IS NOT NULL "
            "UNION SELECT id, server FROM campaigns WHERE server IS NOT NULL").fetchall())
        measured = set(con.execute("SELECT campaign, server FROM results").fetchall())
        assert con.execute(query("campaign_server_pairs")).fetchall() == sorted(every)
        assert len(every - measured) >= 3  # the shipped data has pairs of published ratios and more
    finally:
        con.close()


def test_a_pages_data_date_is_the_newest_of_what_it_draws(site):
    """as_of.sql, every page's date in one query, against the pairs a server's pages show
    (campaign_server_pairs) and the calibrations, read apart: a campaign's page has its own date,
    a server's the newest of its campaigns' and calibrations', any other page the site's."""
    con = duckdb.connect(str(site.db), read_only=True)
    try:
        date = {c: str(d) for c, d in con.execute("SELECT id, date FROM campaigns").fetchall()}
        newest: dict[str, str] = {}
        for campaign, server in con.execute(query("campaign_server_pairs")).fetchall():
            newest[server] = max(newest.get(server, ""), date[campaign])
        calibrated = con.execute("SELECT server, date FROM calibrations").fetchall()
        for server, day in calibrated:
            newest[server] = max(newest.get(server, ""), str(day))
        site_wide = max([*date.values(), *(str(d) for _, d in calibrated)])
        servers = [s for (s,) in con.execute("SELECT id FROM servers").fetchall()]
        assert all(page_as_of(con, campaign=c) == d for c, d in date.items())
        assert {s: page_as_of(con, server=s) for s in servers} == {s: newest.get(s, "") for s in servers}
        assert page_as_of(con) == site_wide
        # the shipped data tells them apart: a server whose newest data is older than the site's
        assert any(newest.get(s, site_wide) < site_wide for s in servers)
    finally:
        con.close()


def test_an_investigations_embeds_are_dated_by_the_data_their_charts_draw_not_the_sites_newest(site):
    """An investigation's charts (and the calibration page's) name what they draw: their embeds'
    "Data as of" is the newest date of those campaigns and calibrations. Every one said the site's
    newest (2026-11-22, a campaign of 2026 on the 2014 kernel_mutex charts), moving with each
    campaign that lands."""
    con = duckdb.connect(str(site.db), read_only=True)
    try:
        calibrated = {c: str(d) for c, d in con.execute("SELECT id, date FROM calibrations").fetchall()}
        dated = {**{c: str(d) for c, d in con.execute("SELECT id, date FROM campaigns").fetchall()}, **calibrated}
        # a ladder chart draws one campaign's builds: that campaign's date, whatever its server's
        ladders = con.execute("SELECT ladder, campaign FROM ladders ORDER BY ladder").fetchall()
        assert all(page_as_of(con, charts=[{"ladder": lad}]) == dated[c] for lad, c in ladders)
        assert page_as_of(con, charts=[]) == page_as_of(con) == max(dated.values())  # nothing named
    finally:
        con.close()
    site_wide = max(dated.values())

    def shown(page: str) -> dict[str, str]:
        folder = site.public / "embed" / page
        return {p.parent.name: re.search(r"Data as of (\d{4}-\d{2}-\d{2})", p.read_text())[1]
                for p in folder.glob("*/index.html") if "@" not in p.parent.name}

    def names(d: dict) -> list[str]:
        return ([str(d["campaign"])] if d.get("campaign") else []) + [str(c) for c in d.get("calibrations") or []]

    older = set()
    for md in sorted((PROJECT / "content" / "investigations").glob("*.md")):
        meta, _ = split(md.read_text(), md.name)
        if not meta["charts"]:  # a post without charts (myrocks-2x-less-slow): no embed
            continue
        # a chart's own date when it names its data, else the newest its page's charts name
        page = max(dated[n] for d in meta["charts"] for n in names(d))
        expected = {str(d["id"]).lower(): max((dated[n] for n in names(d)), default=page) for d in meta["charts"]}
        dates = shown(f"investigations/{md.stem}")
        assert dates == expected, (md.stem, dates, expected)
        if page < site_wide:
            older.add(md.stem)
    assert shown("investigations/kernel-mutex-thread-concurrency") == {"itc-at-256": "2014-04-16",
                                                                       "itc-vs-threads": "2014-04-16"}
    assert {"innodb-busy-wait-8030", "ut-delay-compiler-barrier"} <= older
    calibrations = max(calibrated.values())
    # the calibration page: each chart dated by the calibrations it names (the timebase chart by the
    # 2015 calibration alone, the others by the 2024 ones)
    on_page = shown("calibration")
    assert max(on_page.values()) == calibrations < site_wide and set(on_page.values()) <= set(calibrated.values())
    assert on_page["timebase"] == min(calibrated.values()) < calibrations


def test_embed_pages_show_the_hugo_site_the_build_publishes_not_always_the_projects(tmp_path, monkeypatch):
    """A build of a project of its own (Paths.project: its site/hugo.toml) titles its embed pages
    as Hugo titles its pages; render/embeds.site_settings read the checkout's site before."""
    from papercuts.render.embeds import for_site, site_settings

    project = tmp_path / "project"
    for part in ("site", "layouts"):
        shutil.copytree(PROJECT / part, project / part)
    (project / "data").mkdir()
    shutil.copyfile(PROJECT / "data" / "README.md", project / "data" / "README.md")
    toml = project / "site" / "hugo.toml"
    toml.write_text(toml.read_text().replace('title = "Papercuts"', 'title = "Elsewhere Benchmarks"', 1))
    paths = Paths(data=PROJECT / "data", public=tmp_path / "public", build=tmp_path / "build", project=project,
                  content_root=PROJECT / "content")
    monkeypatch.setenv("PAPERCUTS_IMAGES", "0")
    build(paths)
    embeds = [p.read_text() for p in (paths.public / "embed").rglob("index.html")]
    charts = [e for e in embeds if "data-chart-id=" in e]  # the charts' embed pages, not Hugo's /embed/
    assert charts and all(re.search(r"<title>[^<]* · Elsewhere Benchmarks</title>", e) for e in charts)
    assert "Elsewhere Benchmarks" in (paths.public / "index.html").read_text()
    with for_site(project / "site"):
        assert site_settings()["title"] == "Elsewhere Benchmarks"
    assert site_settings()["title"] == "Papercuts"  # the block's site only
