"""Vega-Lite specs for throughput beside its per-operation costs. Rows in, a spec out; no I/O."""
from __future__ import annotations

from .specs import _base, ratio_bar_layers


def costs_beside_rqps(title: str, rows: list[dict], variants: list[str], measures: list[str]) -> dict:
    """One column of bars per measure (rQPS first, then each cost relative to the base), the
    microbenchmarks down, a rule at 1.0. For costs, right of 1.0 is more work per operation."""
    tooltip = [
        {"field": "measure", "title": "measure"},
        {"field": "microbenchmark", "title": "microbenchmark"},
        {"field": "variant", "title": "variant"},
        {"field": "relative", "title": "relative to base", "format": ".2f"},  # as the table: 2 decimals
        # 3 significant digits, as the table's: ',.4~g' wrote 123456 cycles '1.235e+5'
        {"field": "value", "title": "value", "format": ",.3r"},
        {"field": "base_value", "title": "base value", "format": ",.3r"},
        {"field": "unit", "title": "unit"},
        {"field": "repetitions", "title": "repetitions"},
    ]
    spec = _base(title, rows, "rQPS and per-operation costs relative to the base variant.")
    spec["facet"] = {"field": "measure", "type": "nominal", "sort": measures, "title": None,
                     "header": {"labelFontWeight": 600, "labelLimit": 200}}
    spec["columns"] = 4
    spec["resolve"] = {"scale": {"x": "independent"}}
    spec["spec"] = {
        "width": 170,
        "height": {"step": 9},
        # Ratios on a log axis: 0.5 and 2 are the same distance from 1.
        "layer": ratio_bar_layers(variants, tooltip, {
            "field": "relative", "type": "quantitative", "title": "relative to base (log)",
            "scale": {"type": "log", "nice": False}, "axis": {"tickCount": 4, "format": "~g"}}, panels="measure"),
    }
    return spec
