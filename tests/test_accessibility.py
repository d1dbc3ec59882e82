"""The site as a reader who uses the keyboard, a screen reader, zoom or a dark theme meets it, in Chromium."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from papercuts.reader import draw_every_chart

pytestmark = pytest.mark.browser

CAMPAIGN = "/campaigns/2024-10-23-busy-wait-dell32/"  # a heatmap, and ratio cells of all three kinds

# Every text whose colour reads at less than 4.5:1 on the background under it (3:1 for large text),
# as "<selector> <colour> on <background> = <ratio>: <text>". The background is the nearest
# ancestor's opaque background colour, with any translucent ones above it blended in.
LOW_CONTRAST = r"""() => {
  const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const blend = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const background = el => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let under = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop() : [255, 255, 255, 1];
    while (layers.length) { under = blend(layers.pop(), under); } return under; };
  const out = [];
  const check = (el, pseudo, text) => { const s = getComputedStyle(el, pseudo);
    if (s.display === "none" || s.visibility === "hidden") return;
    const bg = background(el), fg = blend(parse(s.color), bg);
    const a = lum(fg), b = lum(bg), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(s.fontSize), large = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) {
      const where = `${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""}${pseudo || ""}`;
      out.push(`${where} ${s.color} on rgb(${bg.slice(0, 3).map(Math.round)}) = ${ratio.toFixed(2)}: ${text}`);
    } };
  const seen = new Set(), walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) { const el = n.parentElement;
    if (n.textContent.trim() && el && !seen.has(el) && el.getClientRects().length
        && !el.closest("svg, noscript, script")) {
      seen.add(el); check(el, null, n.textContent.trim().slice(0, 40)); } }
  document.querySelectorAll("td.lt1, td.gt1, td.eq1").forEach(el => check(el, "::after", "its arrow"));
  return out; }"""


def low_contrast(page, server, url) -> list[str]:
    page.goto(server + url)
    draw_every_chart(page)
    return page.evaluate(LOW_CONTRAST)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_keeps_4_5_to_1_contrast_in_both_themes(browser, server, scheme):
    page = browser.new_page(color_scheme=scheme)
    for url in ("/", CAMPAIGN, "/ladders/pn53-mysql-1/", "/embed/"):
        assert low_contrast(page, server, url) == [], url
    page.close()


def test_the_tooltip_reads_in_the_dark_theme(browser, server):
    page = browser.new_page(color_scheme="dark")
    page.goto(server + CAMPAIGN)
    page.locator(".vega-chart[data-rendered]").first.wait_for()
    page.locator(".vega-chart svg text[role=graphics-symbol]").first.hover()
    page.locator("#vg-tooltip-element.visible").wait_for()
    bad = [line for line in page.evaluate(LOW_CONTRAST) if "vg-tooltip" in line or "key" in line or "value" in line]
    assert bad == []
    page.close()


@pytest.mark.parametrize("url, chart", [(CAMPAIGN, ".vega-chart[data-rendered]"),
                                        ("/explore/?server=dell32&view=heatmap", "#explore-chart")])
@pytest.mark.parametrize("kind, opening", [("SVG", b"<svg"), ("PNG", b"\x89PNG")])
def test_a_chart_saved_from_the_keyboard_is_its_image(browser, server, url, chart, kind, opening):
    """vega-embed's "Save as" links get their image on mousedown, which Enter does not send."""
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    page.goto(server + url)
    page.locator(f"{chart} svg").first.wait_for()
    page.locator(chart).first.get_by_role("link", name=f"Save as {kind}").focus()
    page.wait_for_timeout(300)  # a reader's pause between reaching the link and pressing Enter
    with page.expect_download() as saved:
        page.keyboard.press("Enter")
    with open(saved.value.path(), "rb") as f:
        assert f.read(len(opening)) == opening, saved.value.suggested_filename
    context.close()


REVIEWED = ["/", "/investigations/innodb-busy-wait-8030/", "/servers/dell32/", CAMPAIGN, "/ladders/pn53-mysql-1/",
            "/regressions/", "/explore/", "/embed/"]


def test_at_200_percent_zoom_no_page_scrolls_sideways(browser, server):
    """320 CSS px (a 640 px window at 200 %): the text reflows; only tables and charts scroll, in their boxes."""
    page = browser.new_page(viewport={"width": 320, "height": 640})
    wide = {}
    for url in REVIEWED:
        page.goto(server + url)
        page.wait_for_load_state("networkidle")
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if width[0] > width[1]:
            wide[url] = width
    assert wide == {}
    page.close()


STRUCTURE = r"""() => {
  const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map(h => Number(h.tagName[1]));
  const named = c => c.getAttribute("aria-label") || c.getAttribute("aria-labelledby")
    || [...(c.labels || [])].some(l => l.textContent.trim()) || (c.tagName === "BUTTON" && c.textContent.trim());
  return {
    lang: document.documentElement.lang,
    h1: levels.filter(l => l === 1).length,
    skipped: levels.filter((l, i) => i > 0 && l > levels[i - 1] + 1).length,
    main: document.querySelectorAll("main#main").length,
    nav: document.querySelectorAll("nav[aria-label]").length > 0,
    noAlt: [...document.querySelectorAll("img:not([alt])")].map(i => i.src),
    unnamed: [...document.querySelectorAll("input, select, textarea, button")].filter(c => !named(c))
      .map(c => c.outerHTML.slice(0, 80)),
    vague: [...document.querySelectorAll("a[href]")].map(a => a.textContent.trim().toLowerCase())
      .filter(t => !t || ["here", "click here", "more", "link", "this"].includes(t)),
  }; }"""


def test_every_reviewed_page_has_its_language_one_h1_landmarks_and_named_controls(page, server):
    """What the review of 2026-11-28 found right, kept so: a guard, not a fix."""
    for url in REVIEWED:
        page.goto(server + url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(STRUCTURE) == {"lang": "en", "h1": 1, "skipped": 0, "main": 1, "nav": True,
                                            "noAlt": [], "unnamed": [], "vague": []}, url


def test_a_charts_data_table_is_named_after_its_chart(page, server):
    """A screen reader's list of a page's tables says which chart each is the data of."""
    for url in ("/servers/dell32/", CAMPAIGN):
        page.goto(server + url)
        figures = page.locator("figure.chart:has(table.data-table)")
        assert figures.count() > 0, url
        for figure in figures.all():
            title = figure.locator("figcaption strong").inner_text()
            expect(figure.locator("table.data-table")).to_have_accessible_name(f"Data of the chart: {title}")


def test_an_embed_page_is_one_landmark_headed_by_its_chart_and_its_new_tab_links_say_so(page, server):
    """A screen reader that enters a blog post's frame lands in the chart's landmark, hears its title
    as the frame's heading, and is told that a link leaves the post for a new tab (the CSV downloads)."""
    page.goto(f"{server}/embed{CAMPAIGN}heatmap-2024-10-23-busy-wait-dell32-24-my8028-rel-o2nofp-z11a-c32r128/")
    assert page.evaluate(STRUCTURE) | {"nav": None} == {"lang": "en", "h1": 1, "skipped": 0, "main": 1, "nav": None,
                                                          "noAlt": [], "unnamed": [], "vague": []}
    title = page.locator("figcaption strong").inner_text()
    expect(page.get_by_role("main").get_by_role("heading", level=1)).to_have_text(title)
    new_tab = page.locator("a[target=_blank]:not([download])")
    assert new_tab.count() >= 2  # the source and the chart's page
    for link in new_tab.all():
        expect(link).to_have_accessible_name(re.compile(r"\S \(opens in a new tab\)$"))
    expect(page.locator(".embed-source .visually-hidden").first).to_have_css("width", "1px")
