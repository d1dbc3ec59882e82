"""A built page in Chromium, driven as a reader drives it: charts.js draws a chart as it comes
within a screen of the viewport, so whoever needs every chart of a page (the browser tests, the
heaviest-page bench) scrolls to each in turn and waits until each is drawn or has failed."""
from __future__ import annotations


def settle(page, scope: str = ".vega-chart", timeout: float = 20_000) -> None:
    """Wait until every chart matching `scope` is drawn or has failed."""
    page.wait_for_function(f"() => [...document.querySelectorAll('{scope}')]"
                           ".every(el => el.dataset.rendered === 'true' || el.dataset.error)", timeout=timeout)


def draw_every_chart(page, timeout: float = 20_000) -> None:
    for chart in page.locator(".vega-chart").all():
        # Scrolled to at each frame until the observer has seen it (it sets data-drawing), not by
        # Playwright's scroll, which first waits for the chart to stand still: below charts that
        # are still taking their size it may not within the timeout on a loaded machine (a full
        # test run: the 1366 px phones test timed out on a dell32 calibration chart, which it drew
        # in 45-52 s three times out of three alone).
        page.wait_for_function("el => { el.scrollIntoView({block: 'center'}); return el.dataset.drawing === 'true'; }",
                               arg=chart.element_handle(), timeout=timeout)
    settle(page, timeout=timeout)
