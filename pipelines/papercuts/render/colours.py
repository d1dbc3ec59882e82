"""One colour language for ratios (rQPS, costs relative to a base), the same on every page.

- Diverging red (below 1.0) / blue (above), ColorBrewer RdBu (colour-blind safe), on a fixed log
  domain 0.5 .. 2.0 centred on 1.0: 0.95 and 0.56 differ, and a colour means the same ratio on
  every chart. Values beyond the domain are clamped to its ends and the legend says so.
- Within noise (|ratio - 1| < NOISE) a value is muted: grey, neither a win nor a loss. Until the
  ladders give a measured noise per server, NOISE is a stated threshold.
- Cell text is white on the dark ends of the scale and black elsewhere, so text contrast stays
  at 4.5:1 or more (checked in Chromium by tests/test_colours.py).
"""
from __future__ import annotations

import math

DOMAIN = (0.5, 2.0)
NOISE = 0.03  # stated threshold: changes under 3 % are shown as within noise
MUTED = "#e6e6e6"
SCHEME = "redblue"
# The ratios past which the RdBu background is dark enough for white text (contrast >= 4.5).
WHITE_TEXT_BELOW, WHITE_TEXT_ABOVE = 0.64, 1.67
LEGEND_NOTE = (f"Colour: rQPS on a log scale from {DOMAIN[0]} (red) to {DOMAIN[1]} (blue), clamped beyond; "
               f"grey within ±{NOISE:.0%} of 1.0 (noise).")


def within_noise_test(field: str) -> str:
    # Our own expression on a numeric field (never contributed text): Vega's interpreter, no eval.
    return f"abs(datum['{field}'] - 1) < {NOISE}"


def ratio_color(field: str, title: str) -> dict:
    """A Vega-Lite color channel for a ratio field, with the muted condition for noise."""
    return {"condition": {"test": within_noise_test(field), "value": MUTED},
            "field": field, "type": "quantitative", "title": title,
            "scale": {"type": "log", "scheme": SCHEME, "domain": list(DOMAIN), "domainMid": 1, "clamp": True},
            "legend": {"values": [0.5, 0.71, 1, 1.41, 2], "format": ".2~f"}}


def ratio_text_color(field: str) -> dict:
    return {"condition": {"test": f"datum['{field}'] < {WHITE_TEXT_BELOW} || datum['{field}'] > {WHITE_TEXT_ABOVE}",
                          "value": "#ffffff"}, "value": "#111111"}


def ratio_class(value: float | None) -> str:
    """The table-cell class for a ratio: direction (lt1/gt1), strength (s1..s3) or within noise."""
    if value is None:
        return ""
    if abs(value - 1) < NOISE:
        return "eq1"
    strength = abs(math.log2(value))
    level = "s1" if strength < 0.15 else "s2" if strength < 0.5 else "s3"
    return f"{'lt1' if value < 1 else 'gt1'} {level}"
