"""Contributed strings are data: hostile names show up as text everywhere and never run."""
from __future__ import annotations

import csv
import html
import io
import re
import threading

import pytest

from papercuts.build import build
from papercuts.paths import PROJECT, VERBATIM, Paths
from papercuts.publish.serve import make_server
from papercuts.reader import draw_every_chart
from papercuts.render.frontmatter import split

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
    '"}]}',
    "datum.qps || alert(3)",
    "{{< chart id=\"x\" />}}",
    'back\\"slash"); (1',  # Vega-Lite escapes " but not \\ where it copies titles into expressions
]
UNIT = 'queries\\"/s'  # a unit lands in axis titles
CPU = "<script>alert(4)</script> CPU"
TITLE = "<b onmouseover=alert(5)>campaign</b> {{< chart id=\"y\" />}}"
PROTO_SERVER = "constructor"  # every JavaScript object has one: a lookup keyed by server id found it
# Shown in a heading on the server page ("Published summaries: <title>").
SUMMARY_TITLE = "{{< youtube dQw4w9WgXcQ >}} ## fake heading [click](https://evil.example/)"


def csv_line(*values) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(values)
    return buf.getvalue()


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    import shutil

    from papercuts.paths import PROJECT

    root = tmp_path_factory.mktemp("hostile")
    data = root / "data"
    shutil.copytree(PROJECT / "data", data)
    with open(data / "servers.csv", "a") as f:
        f.write(csv_line("evil", "", CPU, 1, 8, "off", 16, "", "", "[x](javascript:alert(6))",
                         "smalldatum-2024-10-23-innodb-busy-wait"))
    with open(data / "microbenchmarks.csv", "a") as f:
        for name in HOSTILE:
            f.write(csv_line(name, "point", "", UNIT, name, "mytools-sysbench"))
    camp = data / "campaigns" / "2026-11-22-hostile"
    camp.mkdir()
    # TOML literal string (single quotes): the title holds double quotes.
    (camp / "campaign.toml").write_text(
        f"title = '{TITLE}'\nsource = \"smalldatum-2024-10-23-innodb-busy-wait\"\n"
        'contributor = "tests"\ndate = 2026-11-22\nsysbench = "1.1.0"\nnotes = "synthetic test data"\n')
    summarized = data / "campaigns" / "2025-01-08-innodb-myrocks-c32r128" / "campaign.toml"
    lines = summarized.read_text().splitlines(keepends=True)
    summarized.write_text("".join(f"title = '{SUMMARY_TITLE}'\n" if line.startswith("title =") else line
                                  for line in lines))
    rows = "server,build,config,microbenchmark,threads,qps\n"
    for i, name in enumerate(HOSTILE):
        rows += csv_line("evil", "my8028_rel_o2nofp", "z11a_c32r128", name, 1, 1000 + i)
        rows += csv_line("evil", "my8040_rel_o2nofp", "z11a_c32r128", name, 1, 900 + i)
        rows += csv_line("evil", "my8040_rel_o2nofp", "z11a_c32r128", name, 2, 1700 + i)  # a throughput line
    (camp / "results.csv").write_text(rows)
    # A server whose id is a member every JavaScript object inherits (a valid id: ID_PATTERN)
    with open(data / "servers.csv", "a") as f:
        f.write(csv_line(PROTO_SERVER, "", "Test CPU", 1, 8, "off", 16, "", "", "",
                         "smalldatum-2024-10-23-innodb-busy-wait"))
    proto = data / "campaigns" / "2026-11-23-proto"
    proto.mkdir()
    (proto / "campaign.toml").write_text(
        'title = "a server named constructor"\nsource = "smalldatum-2024-10-23-innodb-busy-wait"\n'
        'contributor = "tests"\ndate = 2026-11-23\nsysbench = "1.1.0"\n')
    (proto / "results.csv").write_text(
        "server,build,config,microbenchmark,threads,qps\n"
        + "".join(csv_line(PROTO_SERVER, build, "z11a_c32r128", "point-query", 1, qps)
                  for build, qps in (("my8028_rel_o2nofp", 1000), ("my8040_rel_o2nofp", 900))))
    paths = Paths.make(data=data, build=root / "build", out=root / "public")
    build(paths)
    httpd = make_server(paths.public)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield paths, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_generated_markdown_holds_no_contributed_text(hostile_site):
    paths, _ = hostile_site
    page = (paths.generated / "servers" / "evil" / "index.md").read_text()
    assert page.startswith("{")  # JSON front matter: contributed text is data there
    body = split(page, "evil")[1]
    for text in HOSTILE + [CPU, "javascript:"]:
        assert text not in body


def test_no_generated_page_body_holds_contributed_text(hostile_site):
    paths, _ = hostile_site
    pages = [p for p in paths.generated.rglob("*.md") if VERBATIM not in p.relative_to(paths.generated).parts]
    bodies = {p: split(p.read_text(), str(p))[1] for p in pages}
    assert len(bodies) > 20
    for path, body in bodies.items():
        for text in (SUMMARY_TITLE, "youtube", "evil.example", TITLE, CPU):
            assert text not in body, (path, text)


def test_a_title_in_a_heading_stays_text(hostile_site):
    paths, _ = hostile_site
    html = (paths.public / "servers" / "dell32" / "index.html").read_text()
    shown = "{{&lt; youtube dQw4w9WgXcQ &gt;}} ## fake heading [click](https://evil.example/)"
    assert f"Published summaries: {shown}" in html
    assert "<iframe" not in html and 'href="https://evil.example/"' not in html
    assert ">fake heading<" not in html


def test_csv_keeps_names_as_text(hostile_site):
    paths, _ = hostile_site
    # the server page shows the heatmap that its campaign's page writes
    (csv_file,) = (paths.public / "campaigns" / "2026-11-22-hostile").glob("rqps-*.csv")  # its comparison's
    names = {row["microbenchmark"] for row in csv.DictReader(io.StringIO(csv_file.read_text()))}
    assert names == set(HOSTILE)


def watch(page) -> tuple[list[str], list[str]]:
    """The dialogs a page opens (dismissed) and its script errors, filled as they happen."""
    dialogs: list[str] = []
    errors: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    return dialogs, errors


@pytest.mark.browser
def test_hostile_names_render_as_text_and_nothing_runs(hostile_site, page):
    _, server = hostile_site
    dialogs, errors = watch(page)
    page.goto(server + "/servers/evil/")
    draw_every_chart(page)
    for each in page.locator(".vega-chart").all():  # heatmaps and the throughput lines with UNIT
        assert each.get_attribute("data-error") is None and each.get_attribute("data-rendered") == "true"
    assert page.locator('figure[data-kind="throughput-lines"] .vega-chart').count() == 1
    chart = page.locator(".vega-chart").first
    assert chart.get_attribute("data-rendered") == "true"
    assert chart.get_attribute("data-rows") == str(len(HOSTILE))
    # in the chart's axis labels, as SVG text
    labels = chart.locator("g.role-axis-label text").all_text_contents()
    for name in HOSTILE:
        assert any(name.startswith(label.rstrip("…")) for label in labels), name
    # in the table and the hardware list, as text
    table_text = page.locator("figure table").first.inner_text()
    for name in HOSTILE:
        assert name in table_text
    assert CPU in page.locator("main").inner_text()
    assert TITLE in page.locator("figure figcaption").first.inner_text()
    # and in the tooltip
    chart.locator("g.mark-text text").first.hover()
    page.locator("#vg-tooltip-element").wait_for(state="visible")
    assert any(n in page.locator("#vg-tooltip-element").inner_text() for n in HOSTILE)
    # nothing ran, nothing was injected
    assert dialogs == [] and errors == []
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("main script:not([type='application/json'])").count() == 0
    assert page.locator("a[href^='javascript:']").count() == 0


@pytest.mark.browser
def test_the_explorer_keeps_hostile_names_and_parameters_as_text(hostile_site, page):
    _, server = hostile_site
    dialogs, errors = watch(page)
    evil = "%3Cimg%20src%3Dx%20onerror%3Dalert(7)%3E"
    page.goto(server + f"/explore/?server=evil&view=table&dbms={evil}&base={evil}&v={evil}")
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered")
    table = page.locator("#explore-table").inner_text()
    for name in HOSTILE:
        assert name in table
    assert "<img src=x onerror=alert(7)>" in page.locator("#explore-notes").inner_text()  # quoted, as text
    assert TITLE in page.locator("select[name=campaign]").inner_text()
    page.locator("select[name=view]").select_option("heatmap")
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered === '2'")
    labels = page.locator("#explore-chart g.role-axis-label text").all_text_contents()
    assert any(HOSTILE[0].startswith(label.rstrip("…")) for label in labels)
    assert dialogs == [] and errors == []
    assert page.locator("img[src='x']").count() == 0


@pytest.mark.browser
def test_the_explorer_draws_a_server_whose_id_an_object_inherits(hostile_site, page):
    """The explorer kept each server's data in a plain object keyed by the server's id, a contributor's:
    for a server 'constructor' (or 'toString', 'valueOf': valid ids) it found Object there and threw
    'loadServer(...).then is not a function'; nothing was drawn, and picked from the list after another
    server, that server's chart stayed under the new name. Were it the server of most campaigns (the
    default), /explore/ would show nothing to anyone."""
    _, server = hostile_site
    dialogs, errors = watch(page)
    page.goto(server + f"/explore/?server={PROTO_SERVER}")
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered", timeout=20000)
    assert page.locator("#explore-chart").get_attribute("data-rows") == "1"
    page.goto(server + "/explore/?server=evil")
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered", timeout=20000)
    page.locator("select[name=server]").select_option(PROTO_SERVER)
    page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered === '2'", timeout=20000)
    assert f"on {PROTO_SERVER}," in page.locator("#explore-caption").inner_text()
    assert dialogs == [] and errors == []


def test_a_chart_whose_table_is_not_a_table_file_render_wrote_is_refused(tmp_path):
    """layouts/_partials/chart.html prints a chart's table file as HTML (render/tables.py html
    escaped it). A hand-written page naming another file as a chart's table (here the CSV of a
    campaign's chart, contributed text) must fail the build, never print that file as markup."""
    import shutil

    from papercuts.problems import UserError

    content = tmp_path / "content"
    shutil.copytree(PROJECT / "content", content)
    campaign = "/campaigns/2024-10-23-busy-wait-dell32/"
    data_file = "rqps-2024-10-23-busy-wait-dell32-my8028-rel-o2nofp-z11a-c32r128.csv"
    home = content / "_index.md"
    meta, body = home.read_text().split("---\n", 2)[1:]
    home.write_text(
        f"---\n{meta}charts:\n  - id: x\n    title: x\n    from: {campaign}\n"
        f"    spec: heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128.vl.json\n"
        f"    table: {data_file}\n    csv: {data_file}\n    rows: 1\n---\n{body}\n{{{{< chart id=\"x\" />}}}}\n")
    paths = Paths.make(data=PROJECT / "data", content=content, build=tmp_path / "build", out=tmp_path / "public")
    with pytest.raises(UserError) as e:
        build(paths)
    said = "\n".join(p.render() for p in e.value.problems) if e.value.problems else str(e.value)
    assert f'chart "x": its table "{data_file}" is not a table file render wrote' in said, said
    assert not paths.public.exists()


def test_an_embed_page_shows_contributed_titles_as_text(hostile_site):
    """Embed pages are HTML Papercuts writes itself (render/embeds.py), not Hugo: every value is
    escaped there."""
    paths, _ = hostile_site
    pages = sorted((paths.public / "embed" / "servers" / "evil").rglob("index.html"))
    texts = [page.read_text() for page in pages]
    assert len(texts) == 2  # the campaign's heatmap and its throughput lines
    assert "<title>rQPS, 1 thread: &lt;b onmouseover=alert(5)&gt;campaign&lt;/b&gt; {{&lt; chart" in texts[0]
    for text in texts:
        assert "<b onmouseover" not in text and "<script>alert" not in text and "javascript:" not in text
        assert text.count("<script") == 5  # the Vega bundles, exports.js and charts.js, nothing else


def test_a_snippet_a_blog_author_pastes_holds_no_template_syntax(hostile_site):
    """A blog's own templates run what a pasted snippet holds: Hugo's shortcodes ({{< >}}, {{% %}})
    and Jekyll's Liquid ({{ }}, {% %}). A contributed title's braces are character references in
    it, which the reader's browser shows as braces."""
    paths, _ = hostile_site
    page = (paths.public / "servers" / "evil" / "index.html").read_text()
    snippets = [html.unescape(s) for s in re.findall(r'<code class="snippet" data-snippet="[a-z]+">(.*?)</code>', page,
                                                     re.S)]
    titled = [s for s in snippets if "campaign&lt;/b&gt;" in s]
    assert titled and all("&#123;&#123;&lt; chart id=&#34;y&#34; /&gt;&#125;&#125;" in s for s in titled), titled
    for s in snippets:
        assert not re.search(r"\{[{%<]|[}%>]\}", s.split("<script>")[0]), s
        title = html.unescape(re.search(r'(?:title|alt)="([^"]*)"', s)[1])
        assert "{{< chart" in title or "campaign" not in title  # the reader sees the title as written


def test_the_regressions_tables_rows_keep_contributed_text_as_text():
    """The rows Papercuts writes for the regressions page (Hugo includes them as they are): every
    contributed value is text, in the cell or attribute it was put in, and a known regression links
    only to a web page or the site's own."""
    import html.parser

    from papercuts.render.ladder_pages import changes_html

    class Cells(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.text, self.attrs = [], [], []

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            self.attrs += attrs

        def handle_data(self, data):
            self.text.append(data)

    base = {"id": "change-1", "change": "-5.0%", "direction": "regression", "url": "/ladders/evil-mysql-1/",
            "between": "8.0.28 → 8.0.40", "span": "", "dbms": "MySQL", "threads": 1, "date": "2026-11-22",
            "campaign": "2026-11-22-hostile", "pvalue": "0.001", "known": "", "known_url": "", "evidence": [],
            "flagged": ""}
    for name in [*HOSTILE, CPU, TITLE]:
        row = {**base, "series": name, "server": name, "group": name, "known": name, "flagged": name,
               "known_url": "https://bugs.example/1?a=1&b=2", "evidence": [{"text": name, "url": "/explore/?x=1"}]}
        cells = Cells()
        cells.feed(changes_html([row]))
        assert cells.tags == ["tr", "td", "span", "td", "a", "td", "span", "td", "td", "td", "td", "code", "td", "td",
                              "a", "td", "a"]
        assert cells.text.count(name) == 5  # series, server, known, evidence and the flagged note (a file's path)
        assert ("data-server", name) in cells.attrs and ("data-group", name) in cells.attrs
        assert ("href", "https://bugs.example/1?a=1&b=2") in cells.attrs
    for link in ("javascript:alert(7)", "//evil.example/", "data:text/html,<script>alert(8)</script>"):
        cells = Cells()
        cells.feed(changes_html([{**base, "series": "s", "server": "s", "group": "g", "known": "k",
                                  "known_url": link}]))
        assert ("href", link) not in cells.attrs and "k" in cells.text  # the label, no link
