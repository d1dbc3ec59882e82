"""The heaviest page of a built site, for `papercuts bench --scale N`: what a browser fetches to
show it (gzip) and when its charts are drawn, in headless Chromium.

The heaviest page is the one whose HTML, scripts, style sheet, and every chart's spec and CSV weigh
most (the images of a chart are only fetched without JavaScript). charts.js draws a chart as it
comes within a screen of the viewport, so the page is measured twice: on arrival (what the browser
fetched, counted from its responses, and when the charts within reach were drawn) and scrolled
through to its last chart. Sizes are gzip level 6, as a static host serves them. Goals (issue 16,
at x100): <= 350 KB gzip with the Vega bundle, charts drawn <= 1.5 s after navigation.
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
from .reader import draw_every_chart, settle

LOADS = 3
_SPEC = re.compile(r'data-spec-url="([^"]+)"')
_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*rel="stylesheet"[^>]*\shref)="([^"]+)"')


@cache
def _gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 6))


def fetched(public: Path, html: Path) -> list[Path]:
    """The files a browser with JavaScript fetches to show the page."""
    text = html.read_text()
    files = _page_files(public, html)
    for url in _SPEC.findall(text):
        spec = public / url.lstrip("/")
        files.append(spec)
        data = json.loads(spec.read_text()).get("data", {}).get("url")
        if data:
            files.append(spec.parent / data)
    return [f for f in dict.fromkeys(files) if f.is_file()]  # a CSV charts share: fetched once


def heaviest(public: Path, charts: bool = True) -> tuple[str, int, int]:
    """(the page's URL, gzip bytes fetched, charts) of the page that fetches the most; without
    `charts`, counting its HTML, scripts and style sheet only: what any page fetches on arrival, a
    page without charts (the regressions index) included."""
    best = ("", 0, 0)
    for html in sorted(public.rglob("index.html")):
        if html.relative_to(public).as_posix().startswith("embed/"):
            continue  # one chart each; its page is heavier
        files = fetched(public, html) if charts else _page_files(public, html)
        size = sum(_gzip_size(f) for f in files)
        if size > best[1]:
            folder = html.parent.relative_to(public).as_posix()
            best = ("/" if folder == "." else f"/{folder}/", size, len(_SPEC.findall(html.read_text())))
    return best


def _page_files(public: Path, html: Path) -> list[Path]:
    """A page's HTML, scripts and style sheet: what it fetches before any chart's data."""
    files = [html, *(public / u.lstrip("/") for u in _ASSET.findall(html.read_text()))]
    return [f for f in files if f.is_file()]


def _drawn(page) -> list[float]:
    """Seconds from navigation at which each chart drawn so far was drawn (charts.js stamps it)."""
    stamps = page.eval_on_selector_all(".vega-chart[data-ms]", "els => els.map(el => +el.dataset.ms)")
    return [ms / 1000 for ms in stamps]


def _visit(page, public: Path, origin: str, url: str) -> dict:
    files: set[Path] = set()  # what the browser fetched, as files of the site
    page.on("response", lambda r: files.add(public / r.url[len(origin):].split("?")[0].lstrip("/"))
            if r.url.startswith(origin) else None)

    def size() -> int:
        return sum(_gzip_size(f / "index.html" if f.is_dir() else f) for f in files
                   if f.is_file() or (f / "index.html").is_file())

    page.goto(origin + url)
    page.wait_for_load_state("networkidle")  # the charts within reach have asked for their files
    settle(page, ".vega-chart[data-drawing]", timeout=120_000)
    first = _drawn(page)
    run = {"bytes": size(), "charts": len(first), "seconds": max(first, default=0.0)}
    draw_every_chart(page, timeout=120_000)
    page.wait_for_load_state("networkidle")
    every = _drawn(page)
    return run | {"all_bytes": size(), "all_charts": len(every),
                  "failed": page.locator(".vega-chart[data-error]").count()}


def load(public: Path, url: str) -> dict:
    """Medians over cold loads in Chromium (1366 x 900) of what the page costs on arrival (charts.js
    draws the charts within a screen of the viewport): gzip bytes fetched, charts drawn, seconds to
    the last of them; then scrolled through, chart by chart, as a reader would: bytes and charts."""
    from playwright.sync_api import sync_playwright

    httpd = make_server(public)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    runs: list[dict] = []
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for _ in range(LOADS):
                context = browser.new_context(viewport={"width": 1366, "height": 900})
                run = _visit(context.new_page(), public, origin, url)
                runs.append(run)
                context.close()
            browser.close()
    finally:
        httpd.shutdown()
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def page_bench(public: Path) -> str:
    """Four lines for the bench's report."""
    url, _, charts = heaviest(public)
    largest, size, _ = heaviest(public, charts=False)
    m = load(public, url)
    drawn = (f"those drawn {m['seconds']:.2f} s after navigation" if m["charts"] else
             "none to draw until the reader scrolls")
    failed = f"; {m['failed']:.0f} failed" if m["failed"] else ""
    return (f"heaviest page {url} ({charts} charts), median of {LOADS} cold loads in Chromium at 1366 x 900:\n"
            f"  on arrival: {m['bytes'] / 1024:.0f} KB gzip fetched (HTML, scripts with the Vega bundle, the specs "
            f"and CSVs of the {m['charts']:.0f} charts within a screen), {drawn} (goals at x100: 350 KB, 1.5 s)\n"
            f"  scrolled through: {m['all_bytes'] / 1024:.0f} KB gzip, {m['all_charts']:.0f} charts drawn{failed}\n"
            f"largest page before any chart's data: {largest} ({size / 1024:.0f} KB gzip: its HTML, scripts and "
            "style sheet)")
