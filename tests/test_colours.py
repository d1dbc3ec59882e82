"""One colour language: a fixed log scale centred on 1.0, noise muted, readable text everywhere."""
from __future__ import annotations

import csv
import io
import json
import math
import re

import duckdb
import pytest

from papercuts.reader import draw_every_chart
from papercuts.render.colours import NOISE, ratio_class

# WCAG relative luminance and contrast, computed in the page from the colours actually drawn.
CONTRAST_JS = """
(pairs) => {
  const lum = (c) => {
    const m = c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
    const [r, g, b] = m.map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return pairs.map(([fg, bg]) => {
    const a = lum(fg), b = lum(bg);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}
"""


def test_ratio_classes_say_direction_strength_and_noise():
    assert ratio_class(0.99) == ratio_class(1.02) == "eq1"  # within noise: neither win nor loss
    assert ratio_class(1 - NOISE - 0.001).startswith("lt1")
    assert ratio_class(0.95) == "lt1 s1" and ratio_class(0.80) == "lt1 s2" and ratio_class(0.56) == "lt1 s3"
    assert ratio_class(1.2) == "gt1 s2" and ratio_class(3.0) == "gt1 s3"


@pytest.mark.browser
def test_heatmap_colours_are_fixed_muted_within_noise_and_readable(page, server, site):
    page.goto(server + "/servers/dell32/")
    draw_every_chart(page)
    heatmap = page.locator('.chart[data-kind="rqps-heatmap"][id*="2024-10-23-busy-wait-dell32"]').first
    rects = heatmap.locator("g.mark-rect.role-mark path")
    texts = heatmap.locator("g.mark-text.role-mark text")
    n = rects.count()
    assert n > 20 and texts.count() == n
    fills = [rects.nth(i).get_attribute("fill") for i in range(n)]
    values = [float(texts.nth(i).text_content()) for i in range(n)]
    colours = [texts.nth(i).get_attribute("fill") for i in range(n)]
    by_value = dict(zip(values, fills, strict=True))
    assert 0.56 in by_value and any(0.93 <= v <= 0.96 for v in values)
    near = next(f for v, f in by_value.items() if 0.93 <= v <= 0.96)
    assert near != by_value[0.56]  # 0.95 is not as red as 0.56
    # Muted exactly where the CSV's value lies within the chart's noise band: the stated one here,
    # as no ladder measures this campaign (its builds are of two versions: derive/ladders.py
    # one_per_version); on a campaign with ladders, the one they measured.
    _muted_within_its_band(page, server, site, heatmap, "2024-10-23-busy-wait-dell32", fills)
    postgres = page.locator('.chart[data-kind="rqps-heatmap"][id*="2025-10-06-dell32-postgres-12-to-18"]').first
    _muted_within_its_band(page, server, site, postgres, "2025-10-06-dell32-postgres-12-to-18",
                           [p.get_attribute("fill") for p in postgres.locator("g.mark-rect.role-mark path").all()])
    # every printed value readable on its cell
    rgb = page.evaluate("(cs) => cs.map(c => { const d = document.createElement('span'); d.style.color = c;"
                        " document.body.appendChild(d); const r = getComputedStyle(d).color; d.remove(); return r; })",
                        fills + colours)
    ratios = page.evaluate(CONTRAST_JS, [[rgb[n + i], rgb[i]] for i in range(n)])
    assert min(ratios) >= 4.5, min(ratios)


def _muted_within_its_band(page, server, site, heatmap, campaign: str, fills: list[str]) -> None:
    """The band is the one the campaign's ladders measured, 2·√2·σ (σ: their median per-point noise
    in log units), or the stated NOISE where none did. A chart of one thread count has one band:
    its spec says it, not each of its CSV's rows. The CSV is the comparison's, every thread
    count's: the chart's rows are those it filters on."""
    href = heatmap.locator("p.downloads a[download]:not([class])").get_attribute("href")
    spec = page.request.get(server + heatmap.locator(".vega-chart").get_attribute("data-spec-url")).json()
    (mine,) = [t["filter"] for t in spec["transform"] if "filter" in t]
    assert mine == {"field": "rqps_t24", "valid": True}
    rows = [{**r, "rqps": r["rqps_t24"]}
            for r in csv.DictReader(io.StringIO(page.request.get(server + href).text())) if r["rqps_t24"]]
    test = spec["layer"][0]["encoding"]["color"]["condition"]["test"]
    band = float(re.fullmatch(r"datum\['rqps_t24'\] > 0 && abs\(log\(datum\['rqps_t24'\]\)\) < log\(1 \+ (\S+)\)",
                              test)[1])
    sigma = duckdb.connect(str(site.db), read_only=True).execute(
        "SELECT median(noise) FROM ladders WHERE campaign = ? AND threads = 24", [campaign]).fetchone()[0]
    said = heatmap.locator("svg").text_content()
    if sigma is None:
        assert band == NOISE and "a stated threshold" in said
    else:
        assert band == math.expm1(2 * math.sqrt(2) * sigma) and "measured on this campaign's version ladders" in said
    assert "noise" not in rows[0] and "noise_method" not in rows[0]
    within = [abs(math.log(float(r["rqps"]))) < math.log1p(band) for r in rows]
    assert 0 < sum(within) < len(rows)
    assert fills.count("#e6e6e6") == sum(within)
    assert f"grey: {sum(within)} of {len(rows)} within noise" in said


@pytest.mark.browser
def test_table_cells_are_readable_and_say_direction(page, server):
    page.goto(server + "/investigations/innodb-busy-wait-8030/")
    cells = page.locator("td.lt1, td.gt1, td.eq1")
    assert cells.count() > 50
    pairs = cells.evaluate_all("els => els.map(e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor])")
    assert min(page.evaluate(CONTRAST_JS, pairs)) >= 4.5
    kinds = set(cells.evaluate_all("els => els.map(e => e.className)"))
    assert {"num lt1 s3", "num lt1 s1"} <= kinds  # 0.56 and 0.95 look different


def test_a_server_has_one_colour_on_every_page(site):
    """Every chart that colours by server gives each server the same colour, on every page."""
    seen: dict[str, set[str]] = {}
    for path in site.generated.rglob("*.vl.json"):
        spec = json.loads(path.read_text())
        for layer in spec.get("layer", []):
            color = layer.get("encoding", {}).get("color", {})
            if color.get("title") == "server" and "scale" in color:
                for name, colour in zip(color["scale"]["domain"], color["scale"]["range"], strict=True):
                    seen.setdefault(name, set()).add(colour)
    assert len(seen) >= 2  # the calibration pages compare servers
    assert all(len(c) == 1 for c in seen.values()), seen
    assert len({next(iter(c)) for c in seen.values()}) == len(seen)  # and two servers never share one


def _variant_scales(node):
    """Every colour-by-variant channel's scale in a spec (layers, facets and nested specs)."""
    if isinstance(node, dict):
        color = (node.get("encoding") or {}).get("color")
        if isinstance(color, dict) and color.get("field") == "variant":
            yield color.get("scale") or {}
        for v in node.values():
            yield from _variant_scales(v)
    elif isinstance(node, list):
        for v in node:
            yield from _variant_scales(v)


def test_a_build_has_one_colour_on_every_page_and_none_repeats_within_a_chart(site):
    """A variant (build.config) keeps its colour from page to page (issue 15.1), and a chart never
    gives two variants the same colour unless their campaign has more variants than the palette
    (10) has colours."""
    from papercuts.db import query

    con = duckdb.connect(str(site.db), read_only=True)
    crowded = {v for v, n in con.execute(
        "SELECT variant, max(n) FROM (SELECT variant, count(*) OVER (PARTITION BY campaign) AS n FROM ("
        + query("variant_groups").rstrip().rstrip(";") + ")) GROUP BY variant").fetchall() if n > 10}
    seen: dict[str, set[str]] = {}
    charts = repeats = 0
    for path in site.generated.rglob("*.vl.json"):
        for scale in _variant_scales(json.loads(path.read_text())):
            charts += 1
            assert "domain" in scale and "range" in scale, path  # no chart left to the default scheme
            pairs = list(zip(scale["domain"], scale["range"], strict=True))
            if len({c for _, c in pairs}) < len(pairs):
                repeats += 1
                assert len(pairs) > 10 or {n for n, _ in pairs} & crowded, (path, pairs)
            for name, colour in pairs:
                seen.setdefault(name, set()).add(colour)
    assert charts >= 20 and len(seen) >= 30 and repeats < charts / 2
    assert all(len(c) == 1 for c in seen.values()), {n: c for n, c in seen.items() if len(c) > 1}


def test_the_noise_note_counts_the_values_within_their_own_band_and_none_without_one():
    """colours.noise_note: a value is muted when |ln v| < ln(1 + its band); a row with no band
    (the stated threshold elsewhere) or no value is never counted."""
    from papercuts.render.colours import noise_note
    from papercuts.render.columns import Columns

    rows = Columns({"rqps": [1.01, 0.97, 1.2, None, 1.0, 0.0], "noise": [0.02, 0.02, 0.3, 0.02, None, 0.5],
                    "noise_method": ["measured"] * 6})
    assert noise_note(rows) == ("grey: 2 of 6 within noise (±2.0% to ±50.0%, "
                                "measured on this campaign's version ladders)")
