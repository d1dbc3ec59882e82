"""Embed pages framed by a page of another origin (a second local server, on another port) in
Chromium, under the production headers (issue 14)."""
from __future__ import annotations

import functools
import html
import http.server
import re
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

EMBED = "/embed/investigations/innodb-busy-wait-8030/dell32-rqps/"
# Embeds of several kinds of page and chart: (url, whether its width follows the frame's; a
# heatmap keeps its cell size and scrolls inside its box instead).
SAMPLE = [(EMBED, True), ("/embed/calibration/ut-delay/", True),
          ("/embed/servers/dell32/heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128/", False)]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:
        pass


@pytest.fixture(scope="module")
def blog(tmp_path_factory):
    """Another origin: a plain static server (no headers of ours) for the blog's pages."""
    root = tmp_path_factory.mktemp("blog")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def post(blog, name: str, src: str, width: int = 700) -> str:
    root, origin = blog
    (root / name).write_text(f'<!doctype html><title>a blog post</title><link rel="icon" href="data:,"><p>My post.</p>'
                             f'<iframe id="e" src="{src}" width="{width}" height="600"></iframe>\n')
    return f"{origin}/{name}"


def framed(page, url: str):
    page.goto(url)
    page.wait_for_load_state("load")
    [frame] = [f for f in page.frames if f != page.main_frame]
    return frame


def test_an_embed_renders_in_a_frame_of_another_origin_with_nothing_from_elsewhere(page, server, blog, site):
    requests, problems = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    assert server.split(":")[-1] != blog[1].split(":")[-1]  # two origins
    frame = framed(page, post(blog, "post.html", server + EMBED))
    frame.wait_for_function("() => document.querySelector('.vega-chart').dataset.rendered === 'true'",
                            timeout=20000)
    chart = frame.locator(".vega-chart")
    assert chart.get_attribute("data-rows") == "119"
    assert chart.locator("g.mark-rect path").count() == 119  # one bar per row, as on its page
    assert frame.locator("figcaption strong").inner_text().startswith("dell32, 24 threads: rQPS")
    back = frame.locator("a.back")
    assert back.get_attribute("href") == "/investigations/innodb-busy-wait-8030/#chart-dell32-rqps"
    assert back.get_attribute("target") == "_blank"
    assert re.search(r"Data as of \d{4}-\d{2}-\d{2}", frame.locator(".embed-source").inner_text())
    assert frame.evaluate("document.cookie") == ""
    page.wait_for_load_state("networkidle")
    assert problems == []
    # Every request went to the blog or to this site: no third party.
    assert {r.split("/")[2] for r in requests} == {blog[1].split("/")[2], server.split("/")[2]}


def test_an_embeds_csv_downloads_from_the_frame_under_its_own_name(page, server, blog, site):
    """The CSV behind a framed chart, as a reader of the post clicks it: the chart's rows, under the
    file's name (a pinned embed's copy, chart.csv, is named after its chart and date:
    tests/test_snapshots.py)."""
    frame = framed(page, post(blog, "csv.html", server + EMBED))
    link = frame.locator(".embed-source a", has_text="CSV (119 rows)")
    with page.expect_download() as download:
        link.click()
    got = download.value
    assert got.suggested_filename == "dell32-rqps.csv"
    expected = (site.public / "investigations" / "innodb-busy-wait-8030" / "dell32-rqps.csv").read_bytes()
    assert Path(got.path()).read_bytes() == expected and expected.count(b"\n") == 120  # header and 119 rows


def test_the_rest_of_the_site_refuses_to_be_framed_by_another_origin(page, server, blog):
    for n, url in enumerate(("/investigations/innodb-busy-wait-8030/", "/", "/embed/")):
        # a post of its own per URL: a file rewritten within the same second is answered 304
        frame = framed(page, post(blog, f"refused-{n}.html", server + url))
        page.wait_for_timeout(0)
        blocked = frame.url.startswith("chrome-error:")
        assert blocked == (url != "/embed/"), (url, frame.url)
        if blocked:  # nothing of the page reached the frame
            assert frame.evaluate("document.querySelector('main') === null")


@pytest.mark.parametrize(("url", "shrinks"), SAMPLE)
def test_an_embed_fits_the_width_of_its_frame(page, server, blog, url, shrinks):
    widths = {}
    for width in (360, 1000):
        frame = framed(page, post(blog, f"w{width}.html", server + url, width))
        frame.wait_for_function("() => document.querySelector('.vega-chart').dataset.rendered === 'true'",
                                timeout=20000)
        assert frame.evaluate("document.documentElement.scrollWidth") <= frame.evaluate("window.innerWidth"), url
        # The title and subtitle are whole, wrapped within the frame, not cut (charts.js fitTitle).
        lines = frame.evaluate("""() => Array.from(document.querySelectorAll(
            '.vega-chart .role-title-text text, .vega-chart .role-title-subtitle text'), t => (
            {text: t.textContent, right: t.getBoundingClientRect().right}))""")
        assert lines and all("…" not in line["text"] for line in lines), (url, width, lines)
        assert max(line["right"] for line in lines) <= frame.evaluate("window.innerWidth"), (url, width, lines)
        widths[width] = frame.evaluate("document.querySelector('.vega-chart svg').getBoundingClientRect().width")
    assert (widths[360] < widths[1000]) == shrinks, (url, widths)


def snippet(site, server: str, page_url: str, chart_id: str) -> str:
    """The HTML a blog author copies from a chart's page, its address completed with the site's
    origin as charts.js does on that page."""
    body = (site.public / page_url.strip("/") / "index.html").read_text()
    figure = re.search(rf'<figure class="chart" id="chart-{re.escape(chart_id)}".*?</figure>', body, re.S)[0]
    code = html.unescape(re.search(r'<code class="snippet" data-snippet="iframe">(.*?)</code>', figure, re.S)[1])
    return code.replace('src="/', f'src="{server}/')


CHARTS = [("/investigations/innodb-busy-wait-8030/", "dell32-rqps"),  # 119 bars, then a heatmap
          ("/servers/dell32/", "heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128")]


@pytest.mark.parametrize("width", [360, 1000])
def test_each_snippets_frame_takes_its_own_charts_height(page, server, blog, site, width):
    """A post framing two charts of other heights: each frame starts 520 px high, its embed page
    tells its height (charts.js) and the snippet's script sets that frame's alone, so each chart
    shows whole at a phone's width and a desktop's. Another frame of the post saying a height
    changes nothing."""
    root, origin = blog
    (root / "other.html").write_text('<!doctype html><link rel="icon" href="data:,"><script>'
                                     'setInterval(() => parent.postMessage({papercutsHeight: 40}, "*"), 50)</script>')
    name = f"fit-{width}.html"
    (root / name).write_text(f'<!doctype html><title>a blog post</title><link rel="icon" href="data:,">'
                             f'<div style="width:{width}px"><p>My post.</p>'
                             + "<p>And:</p>".join(snippet(site, server, *c) for c in CHARTS) +
                             f'<iframe id="other" src="{origin}/other.html" height="300" style="border:0">'
                             '</iframe></div>')
    page.goto(f"{origin}/{name}")
    page.wait_for_load_state("load")
    frames = [f for f in page.frames if f.url.startswith(server)]
    assert len(frames) == len(CHARTS)
    boxes = page.locator("iframe[data-papercuts]")
    for k, frame in enumerate(frames):  # a chart is drawn as it comes into view (charts.js)
        boxes.nth(k).scroll_into_view_if_needed()
        frame.wait_for_function("() => document.querySelector('.vega-chart').dataset.rendered === 'true'",
                                timeout=20000)
    page.wait_for_timeout(300)  # the other frame has said its height several times by now
    heights = []
    for k, frame in enumerate(frames):
        own = frame.evaluate("document.documentElement.getBoundingClientRect().height")
        page.wait_for_function("([k, h]) => Math.abs(document.querySelectorAll('iframe[data-papercuts]')[k]"
                               ".getBoundingClientRect().height - h) <= 1", arg=[k, own], timeout=5000)
        heights.append(boxes.nth(k).bounding_box()["height"])
        # the whole chart within its frame: nothing to scroll to
        assert frame.evaluate("document.documentElement.scrollHeight") <= frame.evaluate("window.innerHeight") + 1
    assert 520 not in heights and heights[0] != heights[1], heights  # each its own
    assert page.locator("#other").bounding_box()["height"] == 300


def test_a_host_script_that_starts_late_still_sizes_the_frame(page, server, blog, site):
    """A blog that defers its scripts runs the snippet's after the embed page has told its height
    to no one: the script asks, and the embed page tells it again."""
    root, origin = blog
    code = snippet(site, server, *CHARTS[0])
    frame_html, script = code.split("\n<script>")
    (root / "late.html").write_text('<!doctype html><title>a blog post</title><link rel="icon" href="data:,">'
                                    f'<div style="width:700px">{frame_html}</div>')
    page.goto(f"{origin}/late.html")
    page.wait_for_load_state("load")
    for _ in range(50):  # a lazy frame may start loading after the post's load event
        frames = [f for f in page.frames if f.url.startswith(server)]
        if frames:
            break
        page.wait_for_timeout(100)
    [frame] = frames
    frame.wait_for_function("() => document.querySelector('.vega-chart').dataset.rendered === 'true'",
                            timeout=20000)
    page.wait_for_timeout(300)
    box = page.locator("iframe[data-papercuts]")
    assert box.bounding_box()["height"] == 520  # no one listened
    page.add_script_tag(content=script.removesuffix("</script>"))
    own = frame.evaluate("document.documentElement.getBoundingClientRect().height")
    page.wait_for_function("h => Math.abs(document.querySelector('iframe[data-papercuts]')"
                           ".getBoundingClientRect().height - h) <= 1", arg=own, timeout=5000)
    assert own > 520
