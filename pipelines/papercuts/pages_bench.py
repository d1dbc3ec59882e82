"""The heaviest page of a built site, for `papercuts bench --scale N`: what a browser fetches to
show it (gzip), and the time from navigation to every chart drawn in headless Chromium.

"What it fetches" is the page's HTML, its scripts and style sheet, and for each chart the spec
(data-spec-url) and the CSV that spec reads: the images of a chart are only fetched without
JavaScript. Sizes are gzip level 6, as a static host serves them. Goals (issue 16, at x100):
<= 350 KB gzip with the Vega bundle, charts drawn <= 1.5 s after navigation.
"""
from __future__ import annotations

import gzip
import json
import re
import statistics
import threading
from functools import cache
from pathlib import Path

from .explore_bench import launch
from .publish.serve import make_server

LOADS = 3
_SPEC = re.compile(r'data-spec-url="([^"]+)"')
_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*rel="stylesheet"[^>]*\shref)="([^"]+)"')


@cache
def _gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 6))


def fetched(public: Path, html: Path) -> list[Path]:
    """The files a browser with JavaScript fetches to show the page."""
    text = html.read_text()
    files = [html, *(public / u.lstrip("/") for u in _ASSET.findall(text))]
    for url in _SPEC.findall(text):
        spec = public / url.lstrip("/")
        files.append(spec)
        data = json.loads(spec.read_text()).get("data", {}).get("url")
        if data:
            files.append(spec.parent / data)
    return [f for f in files if f.is_file()]


def heaviest(public: Path) -> tuple[str, int, int]:
    """(the page's URL, gzip bytes fetched, charts) of the page that fetches the most."""
    best = ("", 0, 0)
    for html in sorted(public.rglob("index.html")):
        if "/embed/" in html.as_posix():
            continue  # one chart each; its page is heavier
        size = sum(_gzip_size(f) for f in fetched(public, html))
        if size > best[1]:
            folder = html.parent.relative_to(public).as_posix()
            best = ("/" if folder == "." else f"/{folder}/", size, len(_SPEC.findall(html.read_text())))
    return best


def draw_seconds(public: Path, url: str) -> tuple[float, float, int]:
    """Median seconds from navigation (a cold cache) to the first chart drawn and to every chart
    drawn (charts.js stamps each with performance.now()), and how many charts failed."""
    from playwright.sync_api import sync_playwright

    httpd = make_server(public)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    first, every, failed = [], [], 0
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for _ in range(LOADS):
                context = browser.new_context(viewport={"width": 1366, "height": 900})
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{httpd.server_address[1]}{url}")
                page.wait_for_function("() => [...document.querySelectorAll('.vega-chart')]"
                                       ".every(el => el.dataset.rendered === 'true' || el.dataset.error)",
                                       timeout=120_000)
                drawn = page.eval_on_selector_all(".vega-chart[data-ms]", "els => els.map(el => +el.dataset.ms)")
                failed = page.locator(".vega-chart[data-error]").count()
                if drawn:
                    first.append(min(drawn) / 1000)
                    every.append(max(drawn) / 1000)
                context.close()
            browser.close()
    finally:
        httpd.shutdown()
    if not first:
        return float("nan"), float("nan"), failed
    return statistics.median(first), statistics.median(every), failed


def page_bench(public: Path) -> str:
    """Two lines for the bench's report."""
    url, size, charts = heaviest(public)
    first, every, failed = draw_seconds(public, url)
    return (f"heaviest page {url}: {size / 1024:.0f} KB gzip fetched (HTML, scripts with the Vega bundle, "
            f"specs, CSVs; goal at x100: 350 KB)\n  {charts} charts: the first drawn {first:.2f} s, all "
            f"{every:.2f} s after navigation (median of {LOADS} cold loads in Chromium"
            f"{f'; {failed} failed' if failed else ''}; goal at x100: 1.5 s)")
