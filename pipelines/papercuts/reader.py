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
        chart.scroll_into_view_if_needed(timeout=timeout)
        # The observer sees it on the next frame; wait for that before scrolling past it.
        page.wait_for_function("el => el.dataset.drawing === 'true'", arg=chart.element_handle(), timeout=timeout)
    settle(page, timeout=timeout)
