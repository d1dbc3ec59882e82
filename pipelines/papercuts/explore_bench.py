"""The explorer in Chromium, for `make bench`: time to interactive after navigation, time to
redraw after a change of base, and the size of the data file a browser fetches (gzip).

Measured on the largest server of the shipped data and on a SYNTHETIC server ×10 its size.
Interactive: from navigation (cold cache) to the first chart drawn, timed from Python. Redraw:
from the change event to the chart drawn again, timed in the page (data-ms).
Goals (issue 13): interactive ≤ 1.5 s, redraw ≤ 150 ms, data ≤ 300 KB gzip at ×10.
"""
from __future__ import annotations

import gzip
import json
import os
import statistics
import threading
import time
from pathlib import Path

from .publish.serve import make_server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")  # as the browser tests choose it
LOADS, CHANGES = 5, 8


def explorer_bench(sites: dict[str, tuple[Path, str]]) -> None:
    """sites: label -> (public folder, server id)."""
    from playwright.sync_api import sync_playwright

    print("explorer in Chromium (median of "
          f"{LOADS} loads and {CHANGES} base changes; goals: 1.5 s, 150 ms, 300 KB)")
    print(f"{'data':<26}{'rows':>8}{'gzip KB':>9}{'interactive s':>15}{'redraw ms':>11}{'rows drawn':>12}")
    with sync_playwright() as p:
        browser = launch(p)
        for label, (public, server) in sites.items():
            data = public / "explore" / f"{server}.json"
            rows = len(json.loads(data.read_text())["qps"]["qps"])  # values: never runs
            size = len(gzip.compress(data.read_bytes()))
            loads, redraws, drawn = _measure(browser, public, server)
            print(f"{label:<26}{rows:>8}{size / 1024:>9.0f}{statistics.median(loads):>15.2f}"
                  f"{statistics.median(redraws) * 1000:>11.0f}{drawn:>12}")
        browser.close()


def launch(playwright):
    """The benches' headless Chromium (the one the browser tests use)."""
    return playwright.chromium.launch(executable_path=None if CHROMIUM == "playwright" else CHROMIUM,
                                      args=["--headless", "--no-sandbox", "--disable-gpu"])


def _measure(browser, public: Path, server: str) -> tuple[list[float], list[float], int]:
    httpd = make_server(public)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/explore/?server={server}"
    loads, redraws = [], []
    try:
        for _ in range(LOADS):
            context = browser.new_context()  # a cold cache each time: the data file is fetched
            page = context.new_page()
            start = time.perf_counter()
            page.goto(url)
            page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered === '1'")
            loads.append(time.perf_counter() - start)
            context.close()
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("() => document.getElementById('explore-chart').dataset.rendered === '1'")
        bases = page.locator("select[name=base] option").evaluate_all("os => os.map(o => o.value)")
        for i in range(CHANGES):
            page.locator("select[name=base]").select_option(bases[(i + 1) % len(bases)])
            page.wait_for_function("n => document.getElementById('explore-chart').dataset.rendered === n",
                                   arg=str(i + 2))
            # Timed in the page, from the change to the drawn chart (the browser's paint after it
            # is not included; Playwright's own round trip is not either).
            redraws.append(float(page.locator("#explore-chart").get_attribute("data-ms")) / 1000)
        drawn = int(page.locator("#explore-chart").get_attribute("data-rows"))
        page.close()
    finally:
        httpd.shutdown()
    return loads, redraws, drawn
