"""Vega-Lite specs for sampled profiles: icicles (flame graphs), their differential view, and
symbol shares. Rows in, a spec out; no I/O. Frame names are data only: they appear in fields,
never in an expression, a title or a signal, so a hostile name stays text.

Contributed strings (variant labels, symbols) go only into data values and the chart's title and
subtitle. Vega-Lite 6.5 copies every encoding channel's `title` into Vega expressions (tooltip and
aria description) escaping `"` but not `\\`, so a title holding `\\"` ends the string literal there;
and it turns `sort` and `scale.domain` arrays into an expression that U+2028 breaks. Hence channel
titles here are our constants, and order comes from the rows (`sort: null`: first appearance)."""
from __future__ import annotations

from .specs import LEGEND_PICK, _base, _picked

ROW_PX = 17
WIDTH_PX = 900  # flame.icicle(width_px=...) truncates labels for this width


def _icicle(title: str, rows: list[dict], description: str, color: dict, tooltip: list[dict]) -> dict:
    spec = _base(title, rows, description)
    depth = max((r["depth_end"] for r in rows), default=1)
    spec["width"] = WIDTH_PX
    spec["height"] = depth * ROW_PX
    x = {"field": "x0", "type": "quantitative", "title": "share of samples",
         "scale": {"domain": [0, 1], "nice": False, "zero": True},
         "axis": {"format": "%", "orient": "top", "grid": False}}
    y = {"field": "depth", "type": "quantitative", "title": None, "axis": None,
         "scale": {"domain": [0, depth], "reverse": True, "nice": False, "zero": True}}
    spec["layer"] = [
        {"mark": {"type": "rect", "stroke": "#fff", "strokeWidth": 0.5},
         "encoding": {"x": x, "x2": {"field": "x1"}, "y": y, "y2": {"field": "depth_end"},
                      "color": color, "tooltip": tooltip}},
        {"mark": {"type": "text", "align": "left", "baseline": "middle", "dx": 3, "dy": ROW_PX / 2,
                  "fontSize": 10, "color": "#111"},
         "encoding": {"x": {"field": "x0", "type": "quantitative"}, "y": {"field": "depth", "type": "quantitative"},
                      "text": {"field": "label"}, "tooltip": tooltip}},
    ]
    return spec


def icicle(title: str, rows: list[dict]) -> dict:
    """Root on top, callees below; width is the share of samples under the frame."""
    tooltip = [{"field": "frame", "title": "frame"},
               {"field": "total_share", "title": "total (with callees)", "format": ".2%"},
               {"field": "self_share", "title": "self", "format": ".2%"},
               {"field": "samples", "title": "weight", "format": ",.0f"},
               {"field": "depth", "title": "depth"}]
    color = {"field": "self_share", "type": "quantitative", "title": "self share",
             "scale": {"scheme": "oranges", "domainMin": 0}, "legend": {"format": "%"}}
    return _icicle(title, rows, "Icicle of folded stacks: a rectangle per frame, as wide as its share of samples.",
                   color, tooltip)


def differential(title: str, rows: list[dict], base_label: str, target_label: str) -> dict:
    """The target's icicle coloured by the change of each frame's total share from the base:
    red grew, blue shrank. The labels name the profiles in the subtitle only (see the module note)."""
    tooltip = [{"field": "frame", "title": "frame"},
               {"field": "total_share", "title": "total in target", "format": ".2%"},
               {"field": "base_share", "title": "total in base", "format": ".2%"},
               {"field": "delta", "title": "change (share points)", "format": "+.2%"},
               {"field": "self_share", "title": "self in target", "format": ".2%"}]
    span = max([abs(r["delta"]) for r in rows] + [0.001])
    color = {"field": "delta", "type": "quantitative", "title": "change (share points)",
             "scale": {"scheme": "redblue", "reverse": True, "domain": [-span, span], "domainMid": 0},
             "legend": {"format": "+%"}}
    spec = _icicle(title, rows, "Differential icicle: the target profile, coloured by the change from the base.",
                   color, tooltip)
    spec["title"]["subtitle"] = [f"target: {target_label}", f"base: {base_label}",
                                 "red: a larger share of samples in the target, blue: a smaller one"]
    return spec


def symbol_shares(title: str, rows: list[dict], variants: list[str], symbols: list[str]) -> dict:
    """Self share of the top symbols, a bar per variant. The rows are drawn in the order of `symbols`,
    then `variants` (rows of other symbols or variants go last); with every (symbol, variant) row
    present, as profile-top gives them, the bands and colours follow those two lists exactly."""
    rank_s = {s: i for i, s in enumerate(symbols)}
    rank_v = {v: i for i, v in enumerate(variants)}
    rows = sorted(rows, key=lambda r: (rank_s.get(r["symbol"], len(rank_s)), rank_v.get(r["variant"], len(rank_v))))
    spec = _base(title, rows, "Share of samples per symbol (self), per variant.")
    spec["width"] = 520
    spec["height"] = {"step": 9}
    spec["params"] = [LEGEND_PICK]
    spec["mark"] = {"type": "bar"}
    spec["encoding"] = {
        "y": {"field": "symbol", "type": "nominal", "sort": None, "title": None},
        "yOffset": {"field": "variant", "type": "nominal", "sort": None},
        "x": {"field": "self_share", "type": "quantitative", "title": "self share of samples",
              "axis": {"format": "%"}},
        "color": {"field": "variant", "type": "nominal", "sort": None, "title": "variant",
                  "scale": {"scheme": "tableau10"}},
        "opacity": _picked(),
        "tooltip": [{"field": "symbol"}, {"field": "variant"},
                    {"field": "self_share", "title": "self", "format": ".2%"},
                    {"field": "total_share", "title": "total (with callees)", "format": ".2%"},
                    {"field": "source", "title": "from"}],
    }
    return spec
