"""A printed page shows every chart: charts.js draws a chart only as the reader nears it, so a chart
further down is an empty box when the page is printed; it prints as its pre-rendered image
(layouts/_partials/chart.html img.chart-print, site.css @media print) instead."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAGE = "/investigations/innodb-busy-wait-8030/"
# Every chart charts.js has asked for is drawn (or failed): what is not drawn now waits for the reader.
SETTLED = ("() => document.querySelector('.vega-chart[data-rendered]') && [...document.querySelectorAll("
           "'.vega-chart[data-drawing]')].every(e => e.dataset.rendered || e.dataset.error)")

# Per figure: whether its chart is drawn, and what of it a reader sees (a box, drawn or not, and
# the print image), each as [displayed, width, height, image loaded].
FIGURES = """() => [...document.querySelectorAll("figure.chart")].map(f => {
  const seen = el => {
    if (!el) { return [false, 0, 0, false]; }
    const r = el.getBoundingClientRect(), shown = getComputedStyle(el).display !== "none";
    return [shown, r.width, r.height, el.tagName !== "IMG" || (el.complete && el.naturalWidth > 0)];
  };
  const box = f.querySelector(".vega-chart");
  return {id: box.dataset.chartId, drawn: box.dataset.rendered === "true", box: seen(box),
          svg: seen(box.querySelector("svg")), image: seen(f.querySelector("img.chart-print"))};
})"""


# As a reader scrolling down the print layout: each image shown comes into the viewport (lazy, it loads then).
SCROLL_TO_SHOWN_IMAGES = """async () => {
  for (const i of document.querySelectorAll("img.chart-print")) {
    if (getComputedStyle(i).display === "none") { continue; }
    i.scrollIntoView();
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
  }
}"""


def chart_images(urls: list[str]) -> list[str]:
    """The chart images among the fetched URLs (by name: not the favicon)."""
    return [u.rsplit("/", 1)[1] for u in urls if u.endswith(".svg") and PAGE in u]


def open_at_its_first_chart(page, url: str) -> None:
    """The page, read down to its first chart: that one and those near it drawn, the rest not."""
    page.goto(url)
    page.locator(".vega-chart").first.scroll_into_view_if_needed()
    page.wait_for_function(SETTLED)
    page.wait_for_load_state("networkidle")


def test_a_printed_page_shows_every_chart_drawn_or_as_its_image(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    open_at_its_first_chart(page, server + PAGE)

    # On screen the drawing is lazy as before: the charts further down are not drawn, and no
    # print image is shown or even fetched.
    screen = page.evaluate(FIGURES)
    assert len(screen) >= 5
    waiting = [f["id"] for f in screen if not f["drawn"]]
    assert waiting and len(waiting) < len(screen), screen  # the first drawn, those further down not yet
    assert not any(f["image"][0] for f in screen)
    assert not chart_images(fetched)

    # In print, each figure shows its drawn chart or, not drawn, its image and no empty box.
    # (Emulating print media fires no beforeprint and loads no lazy image: scroll each into view.)
    page.emulate_media(media="print")
    page.evaluate(SCROLL_TO_SHOWN_IMAGES)
    page.wait_for_function("() => [...document.querySelectorAll('img.chart-print')]"
                           ".filter(i => getComputedStyle(i).display !== 'none').every(i => i.complete)")
    printed = page.evaluate(FIGURES)
    for f in printed:
        if f["id"] in waiting:
            assert not f["drawn"], f  # still not drawn: hidden, out of charts.js' reach
            shown, width, height, loaded = f["image"]
            assert shown and width > 300 and height > 100 and loaded, f
            assert not f["box"][0], f  # not an empty box above it
        else:
            assert f["svg"][0] and f["svg"][1] > 300 and f["svg"][2] > 100, f
            assert not f["image"][0], f  # a drawn chart prints once

    # Chromium's own print path (the PDF) loads the images of the charts not drawn, lazy as they are.
    page.emulate_media(media="screen")
    fresh = context.new_page()
    fetched.clear()
    fresh.on("request", lambda r: fetched.append(r.url))
    open_at_its_first_chart(fresh, server + PAGE)
    undrawn = [f["id"] for f in fresh.evaluate(FIGURES) if not f["drawn"]]
    assert undrawn and not chart_images(fetched)
    assert fresh.pdf()[:5] == b"%PDF-"
    svgs = chart_images(fetched)
    assert all(any(name.endswith(f"-{cid}.svg") for name in svgs) for cid in undrawn), (undrawn, svgs)
    context.close()
