"""Vega-Lite specs for sampled profiles: icicles (flame graphs), their differential view, and
symbol shares. Rows in, a spec out; no I/O. Frame names are data only: they appear in fields,
never in an expression, a title or a signal, so a hostile name stays text."""
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
    red grew, blue shrank."""
    tooltip = [{"field": "frame", "title": "frame"},
               {"field": "total_share", "title": target_label, "format": ".2%"},
               {"field": "base_share", "title": base_label, "format": ".2%"},
               {"field": "delta", "title": "change (share points)", "format": "+.2%"},
               {"field": "self_share", "title": "self", "format": ".2%"}]
    span = max([abs(r["delta"]) for r in rows] + [0.001])
    color = {"field": "delta", "type": "quantitative", "title": "change in share",
             "scale": {"scheme": "redblue", "reverse": True, "domain": [-span, span], "domainMid": 0},
             "legend": {"format": "+%"}}
    return _icicle(title, rows, "Differential icicle: the target profile, coloured by the change from the base.",
                   color, tooltip)


def symbol_shares(title: str, rows: list[dict], variants: list[str], symbols: list[str]) -> dict:
    """Self share of the top symbols, a bar per variant."""
    spec = _base(title, rows, "Share of samples per symbol (self), per variant.")
    spec["width"] = 520
    spec["height"] = {"step": 9}
    spec["params"] = [LEGEND_PICK]
    spec["mark"] = {"type": "bar"}
    spec["encoding"] = {
        "y": {"field": "symbol", "type": "nominal", "sort": symbols, "title": None},
        "yOffset": {"field": "variant", "type": "nominal", "sort": variants},
        "x": {"field": "self_share", "type": "quantitative", "title": "self share of samples",
              "axis": {"format": "%"}},
        "color": {"field": "variant", "type": "nominal", "sort": variants, "title": "variant",
                  "scale": {"scheme": "tableau10"}},
        "opacity": _picked(),
        "tooltip": [{"field": "symbol"}, {"field": "variant"},
                    {"field": "self_share", "title": "self", "format": ".2%"},
                    {"field": "total_share", "title": "total (with callees)", "format": ".2%"},
                    {"field": "source", "title": "from"}],
    }
    return spec
