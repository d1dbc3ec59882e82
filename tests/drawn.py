"""Charts are drawn as a reader nears them (charts.js): a test that needs every chart of a page
scrolls to each in turn, as a reader would, and waits until each is drawn or has failed."""
from __future__ import annotations

EVERY_CHART_DONE = ("() => [...document.querySelectorAll('.vega-chart')]"
                    ".every(el => el.dataset.rendered === 'true' || el.dataset.error)")


def draw_every_chart(page, timeout: float = 20000) -> None:
    for chart in page.locator(".vega-chart").all():
        chart.scroll_into_view_if_needed(timeout=timeout)
        # The observer sees it on the next frame; wait for that before scrolling past it.
        page.wait_for_function("el => el.dataset.drawing === 'true'", arg=chart.element_handle(), timeout=timeout)
    page.wait_for_function(EVERY_CHART_DONE, timeout=timeout)
