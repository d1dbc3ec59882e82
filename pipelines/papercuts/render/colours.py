"""One colour language for ratios (rQPS, costs relative to a base), the same on every page.

- Diverging red (below 1.0) / blue (above), ColorBrewer RdBu (colour-blind safe), on a fixed log
  domain 0.5 .. 2.0 centred on 1.0: 0.95 and 0.56 differ, and a colour means the same ratio on
  every chart. Values beyond the domain are clamped to its ends and the legend says so.
- Within noise a value is muted: grey, neither a win nor a loss. The noise of an rQPS is measured
  per campaign, server and thread count from its version ladders (derive/ladders.py: the median
  absolute successive difference of every series after the shared drift, or the repetitions'
  spread): a ratio of two builds is within noise when |ln rQPS| < 2·√2·σ (two standard errors of
  the difference of two points). Where no ladder measured it (fewer than 3 versions), and for
  ratios other than rQPS, NOISE is the stated threshold.
- Cell text is white on the dark ends of the scale and black elsewhere, so text contrast stays
  at 4.5:1 or more (checked in Chromium by tests/test_colours.py).
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np

DOMAIN = (0.5, 2.0)
NOISE = 0.03  # stated threshold: changes under 3 % are shown as within noise
MUTED = "#e6e6e6"
SCHEME = "redblue"
# The ratios past which the RdBu background is dark enough for white text (contrast >= 4.5).
WHITE_TEXT_BELOW, WHITE_TEXT_ABOVE = 0.64, 1.67
LEGEND_NOTE = f"Colour: rQPS on a log scale from {DOMAIN[0]} (red) to {DOMAIN[1]} (blue), clamped beyond"


def noise_note(rows, field: str = "rqps") -> str:
    """What the grey cells are: the band(s), how they were found, and how many values they hide
    (rows: render/columns.Columns of an rQPS chart)."""
    noise = rows["noise"] if "noise" in rows else [None] * len(rows)
    bands = sorted(set(noise) - {None})
    how = set(rows["noise_method"] if "noise_method" in rows else []) - {None}
    if not bands:
        return f"grey: within ±{NOISE:.0%} of 1.0 (a stated threshold)"
    # within_noise of every row with a band, counted in numpy (x100: 4,000 rows a heatmap)
    value, band = np.asarray(rows[field], dtype=np.float64), np.asarray(noise, dtype=np.float64)  # None: NaN
    with np.errstate(invalid="ignore", divide="ignore"):
        muted = int(np.count_nonzero((value > 0) & (np.abs(np.log(value)) < np.log1p(band))))
    span = f"±{bands[0]:.1%}" if len(bands) == 1 else f"±{bands[0]:.1%} to ±{bands[-1]:.1%}"
    method = ("measured on this campaign's version ladders" if how == {"measured"}
              else "a stated threshold" if how == {"stated"} else "measured where a ladder exists, else stated")
    return f"grey: {muted} of {len(rows)} within noise ({span}, {method})"


NOISE_SPREADS = 2 * math.sqrt(2)  # the band: two standard errors of a difference of two points


def noise_band(sigma: float | None) -> float:
    """The ± relative band within which an rQPS is noise, from a ladder's per-point noise σ
    (log units), or the stated NOISE when there is none."""
    return math.expm1(NOISE_SPREADS * sigma) if sigma else NOISE


def within_noise(value: float | None, band: float = NOISE) -> bool:
    return value is not None and value > 0 and abs(math.log(value)) < math.log1p(band)


def band_of(rows) -> float | str | None:
    """The noise band of a chart's rows (render/columns.Columns): one number when every row has
    the same (a chart of one thread count: written once, in the spec), else the field `noise`
    that each row carries, or None when they carry none (the stated NOISE)."""
    if "noise" not in rows:
        return None
    bands = set(rows["noise"])
    return bands.pop() if len(bands) == 1 and None not in bands else "noise"


def within_noise_test(field: str, band: float | str | None = None) -> str:
    # Our own expression on numeric fields and numbers (never contributed text): Vega's
    # interpreter, no eval. The band is a number (repr: the browser reads the same double), each
    # row's own (a field name), or the stated NOISE.
    limit = f"datum['{band}']" if isinstance(band, str) else repr(float(band if band is not None else NOISE))
    return f"datum['{field}'] > 0 && abs(log(datum['{field}'])) < log(1 + {limit})"


def ratio_color(field: str, title: str, band: float | str | None = None) -> dict:
    """A Vega-Lite color channel for a ratio field, with the muted condition for noise."""
    return {"condition": {"test": within_noise_test(field, band), "value": MUTED},
            "field": field, "type": "quantitative", "title": title,
            "scale": {"type": "log", "scheme": SCHEME, "domain": list(DOMAIN), "domainMid": 1, "clamp": True},
            "legend": {"values": [0.5, 0.71, 1, 1.41, 2], "format": ".2~f"}}


def ratio_text_color(field: str) -> dict:
    return {"condition": {"test": f"datum['{field}'] < {WHITE_TEXT_BELOW} || datum['{field}'] > {WHITE_TEXT_ABOVE}",
                          "value": "#ffffff"}, "value": "#111111"}


# Every class ratio_class returns (site.css colours each); a table cell may carry only these.
RATIO_CLASSES = frozenset({"", "eq1", *(f"{d} s{k}" for d in ("lt1", "gt1") for k in (1, 2, 3))})


# |log2| of a ratio below which it is a weak (s1), then a medium (s2) change; s3 above.
STRENGTHS = (0.15, 0.5)


def ratio_class(value: float | None, band: float = NOISE) -> str:
    """The table-cell class for a ratio: direction (lt1/gt1), strength (s1..s3) or within noise."""
    if value is None or value <= 0:
        return ""
    if within_noise(value, band):
        return "eq1"
    strength = abs(math.log2(value))
    level = "s1" if strength < STRENGTHS[0] else "s2" if strength < STRENGTHS[1] else "s3"
    return f"{'lt1' if value < 1 else 'gt1'} {level}"


# One colour per server, the same on every page: its place among every server id (sorted), in a
# categorical palette (Tableau 10). A chart of two servers does not recolour them by its own order.
SERVER_PALETTE = ["#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6",
                  "#9d755d", "#bab0ac"]


def server_colours(names: list[str], every_server: list[str]) -> dict:
    """A Vega-Lite scale for a colour by server: each shown name keeps its site-wide colour (a name
    that is not a server id, such as a calibration folder, takes the next free colour)."""
    order = sorted(every_server)
    picked = [SERVER_PALETTE[order.index(n) % len(SERVER_PALETTE)] if n in order else None for n in names]
    spare = iter(c for c in SERVER_PALETTE * 2 if c not in picked)
    return {"domain": list(names), "range": [c or next(spare) for c in picked]}


# One colour per variant (build.config), the same on every page. Variants that share a campaign
# (and so may share a chart) get different colours where the palette allows: a greedy colouring of
# "appear in the same campaign", campaigns oldest first, so adding a newer campaign does not
# recolour older ones. The palette is the server palette (Tableau 10). A campaign of at most 10
# variants never repeats a colour (tests/test_colours.py checks the shipped data); one of more
# must repeat some, and repeats are spread evenly there.
def variant_colours(groups: list[tuple[str, list[str]]]) -> dict[str, str]:
    """{variant: colour} from (campaign, variants in order) pairs, in campaign order."""
    small: dict[str, set[str]] = {}  # neighbours in campaigns the palette can keep apart
    large: dict[str, set[str]] = {}  # in larger ones, where repeats are spread as thin as they go
    for _, variants in groups:
        into = small if len(variants) <= len(SERVER_PALETTE) else large
        together = set(variants)
        for v in variants:
            small.setdefault(v, set())
            large.setdefault(v, set())
            # v among its own neighbours: uncoloured when its colour is chosen, so never counted
            # (x100: 6 ms, where a set without it made for each variant took 13 ms)
            into[v] |= together
    colour: dict[str, int] = {}
    for v in small:  # first-seen order: campaigns oldest first
        must = Counter(colour[n] for n in small[v] if n in colour)
        may = Counter(colour[n] for n in large[v] if n in colour)
        colour[v] = min(range(len(SERVER_PALETTE)), key=lambda k: (must[k], may[k], k))
    return {v: SERVER_PALETTE[k] for v, k in colour.items()}


def with_variant_colours(spec: dict, registry: dict[str, str]) -> dict:
    """The spec with every colour-by-variant channel given the site-wide colours of its variants
    (its sort order, or the order of its rows); a variant the registry does not know, such as a
    profile's label, takes a colour no other variant of the chart has."""
    rows = (spec.get("data") or {}).get("values") or []

    def walk(node):
        if isinstance(node, dict):
            enc = node.get("encoding") or {}
            color = enc.get("color")
            if isinstance(color, dict) and color.get("field") == "variant":
                names = color.get("sort") if isinstance(color.get("sort"), list) else \
                    list(dict.fromkeys(r["variant"] for r in rows if "variant" in r))
                picked = [registry.get(n) for n in names]
                spare = iter(c for c in SERVER_PALETTE * 3 if c not in picked)
                color["scale"] = {"domain": list(names), "range": [c or next(spare) for c in picked]}
            for k, v in node.items():
                if k not in ("data", "datasets"):  # rows: nothing to colour, and most of the spec
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(spec)
    return spec
