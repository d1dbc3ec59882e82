"""Embed pages framed by a page of another origin (a second local server, on another port) in
Chromium, under the production headers (issue 14)."""
from __future__ import annotations

import functools
import http.server
import re
import threading

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
