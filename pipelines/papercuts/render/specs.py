"""Vega-Lite spec builders: rows in, a spec dict out. No I/O.

Every spec names its inline data "table" so charts.js and the browser tests can count the rows
the chart was drawn from; charts.py then moves those rows into the chart's CSV, which the spec
reads (datafile.py).
"""
from __future__ import annotations

from . import colours

SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
GROUP_ORDER = ["point", "range", "write", "other"]
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"
# Labels are never cut short: variants differ at their ends ("…_norndfast.z11a_nops_spin5_c32r128"),
# so a label cut to a width showed several series or rows under one name. The legend sits below the
# plot, one label a line, and a chart wider than its box scrolls (site.css). Numeric ticks that
# would overlap or touch are thinned (greedy, a few pixels apart: "1.0" and "1.1" drawn edge to edge
# read "1.01.1" on a phone), not drawn over each other; names (band axes) are never dropped.
CONFIG = {
    "font": FONT,
    "axis": {"labelLimit": 0, "titleFontWeight": 600},
    "axisQuantitative": {"labelOverlap": "greedy", "labelSeparation": 4},
    "legend": {"labelLimit": 0, "orient": "bottom", "columns": 1},
    "view": {"stroke": None},
}
# A legend click shows one series; shift-click adds more; double-click clears.
LEGEND_PICK = {"name": "pick", "select": {"type": "point", "fields": ["variant"]}, "bind": "legend"}


def throughput_title(unit: str) -> str:
    """The y axis of a throughput chart; a unit that already says 'throughput' is not repeated."""
    return unit if unit.lower().startswith("throughput") else f"throughput ({unit})"


def throughput_axis(units: set[str]) -> str:
    """The throughput axis of rows in these units: several cannot share one name (each row's is in
    its tooltip). An axis title is text to Vega, never an expression."""
    return throughput_title(next(iter(units)) if len(units) == 1 else "unit per microbenchmark")


def _base(title: str, rows: list[dict], description: str) -> dict:
    return {
        "$schema": SCHEMA,
        "title": {"text": title, "anchor": "start"},
        "description": description,
        "data": {"name": "table", "values": rows},
        "config": CONFIG,
    }


def _picked(field: str = "variant") -> dict:
    return {"condition": {"param": "pick", "value": 1}, "value": 0.15}


def one_rule(channel: str, panels: str | None = None) -> dict:
    """The dashed 1.0 rule, drawn once per panel (`panels`: the facet field). A rule layer of the
    chart's rows drew one per row: a cost chart of 1,491 rows drew 1,491 overlapping 4,887-px
    dashed lines, 3.2 of the 3.3 s its PNG took."""
    return {"transform": [{"aggregate": [{"op": "count", "as": "rows"}], "groupby": [panels] if panels else []}],
            "mark": {"type": "rule", "color": "#222", "strokeDash": [4, 3]}, "encoding": {channel: {"datum": 1}}}


def ratio_bar_layers(variants: list[str], tooltip: list[dict], x: dict, band: float | str | None = None,
                     panels: str | None = None) -> list[dict]:
    """Bars of a ratio per microbenchmark (a bar per variant) drawn from 1.0, and the 1.0 rule.
    With a noise band (colours.band_of), a bar within it is filled faint (fillOpacity: muted), and
    a legend click still fades the other variants (opacity)."""
    fill_opacity = ({"condition": {"test": colours.within_noise_test(x["field"], band), "value": 0.25},
                     "value": 1} if band is not None else {"value": 1})
    return [
        {
            "params": [LEGEND_PICK],
            "mark": {"type": "bar"},
            "encoding": {
                "y": {"field": "microbenchmark", "type": "nominal", "title": None, "sort": {"field": "order"}},
                "yOffset": {"field": "variant", "type": "nominal", "sort": variants},
                "x": x,
                "x2": {"datum": 1},
                "color": {"field": "variant", "type": "nominal", "sort": variants,
                          "title": "variant", "scale": {"scheme": "tableau10"}},
                "opacity": _picked(),
                "fillOpacity": fill_opacity,
                "tooltip": tooltip,
            },
        },
        one_rule("x", panels),
    ]


def drawn_rows(rows, band: float | str | None):
    """The columns an rQPS chart's CSV holds: without the noise band and how it was found when
    one band is every row's (the spec and its subtitle say it once; 28 of a row's 126 bytes at x100)."""
    return rows.without("noise", "noise_method") if isinstance(band, float) else rows


# A comparison's absolute throughput: its unit is each row's (scan counts krows/s, not queries),
# a field and never a title, which Vega-Lite copies into expressions (render/profile_specs.py).
THROUGHPUT_TOOLTIP = [{"field": "qps", "title": "throughput", "format": ",.2f"},
                      {"field": "base_qps", "title": "base throughput", "format": ",.2f"},
                      {"field": "unit", "title": "unit"}]


def measured_only(tooltip: list[dict], rows) -> list[dict]:
    """Published ratios have no throughput behind them: their charts do not offer 'throughput
    null' (rows: render/columns.Columns)."""
    if any(v is not None for v in rows["qps"]):
        return tooltip
    return [t for t in tooltip if t["field"] not in ("qps", "base_qps", "unit")]


def rqps_bars(title: str, rows: list[dict], variants: list[str]) -> dict:
    """Horizontal rQPS bars per microbenchmark, one row of panels per group, a rule at 1.0."""
    tooltip = measured_only([
        {"field": "microbenchmark", "title": "microbenchmark"},
        {"field": "variant", "title": "variant"},
        {"field": "rqps", "title": "rQPS", "format": ".2f"},
        *THROUGHPUT_TOOLTIP,
        {"field": "origin", "title": "origin"},
    ], rows)
    band = colours.band_of(rows)
    spec = _base(title, drawn_rows(rows, band), "Relative QPS per microbenchmark; below 1.0 is a regression.")
    spec["title"]["subtitle"] = colours.noise_note(rows).replace("grey:", "faint bars:", 1)
    spec["facet"] = {"row": {"field": "group", "type": "nominal", "sort": GROUP_ORDER,
                             "title": None, "header": {"labelAngle": 0, "labelAlign": "left",
                                                       "labelFontWeight": 600}}}
    spec["resolve"] = {"scale": {"y": "independent"}}
    spec["spec"] = {
        "width": 560,
        "height": {"step": 7},
        # Bars grow from the 1.0 line: left is a regression, right an improvement.
        "layer": ratio_bar_layers(variants, tooltip, {
            "field": "rqps", "type": "quantitative", "title": "rQPS (QPS / base QPS)",
            "scale": {"zero": False, "nice": True}}, band, "group"),
    }
    return spec


def rqps_heatmap(title: str, rows: list[dict], variants: list[str]) -> dict:
    """Microbenchmark × variant, diverging colour centred on 1.0, values printed in the cells."""
    band = colours.band_of(rows)
    spec = _base(title, drawn_rows(rows, band), "rQPS heatmap; red below 1.0, blue above, grey within noise.")
    spec["title"]["subtitle"] = [colours.LEGEND_NOTE + ";", colours.noise_note(rows)]
    spec["width"] = {"step": 64}
    spec["height"] = {"step": 18}
    enc_x = {"field": "variant", "type": "nominal", "sort": variants, "title": None,
             "axis": {"labelAngle": -40, "orient": "top"}}
    enc_y = {"field": "microbenchmark", "type": "nominal", "sort": {"field": "order"}, "title": None}
    # Every field titled: a chart sharing its data file reads them under other names (rqps_t4).
    tooltip = measured_only([{"field": "microbenchmark", "title": "microbenchmark"},
                             {"field": "group", "title": "group"}, {"field": "variant", "title": "variant"},
                             {"field": "rqps", "title": "rQPS", "format": ".2f"}, *THROUGHPUT_TOOLTIP,
                             {"field": "origin", "title": "origin"}], rows)
    color = colours.ratio_color("rqps", "rQPS", band)
    # The printed value sits on top of the cell, so it carries the same tooltip.
    spec["layer"] = [
        {"mark": {"type": "rect"}, "encoding": {"x": enc_x, "y": enc_y, "color": color, "tooltip": tooltip}},
        {"mark": {"type": "text", "fontSize": 10},
         "encoding": {"x": enc_x, "y": enc_y, "tooltip": tooltip, "color": colours.ratio_text_color("rqps"),
                      "text": {"field": "rqps", "type": "quantitative", "format": ".2f"}}},
    ]
    return spec


def summary_ranges(title: str, rows: list[dict], series: list[str]) -> dict:
    """Per group: a min–max rule, the median as a tick and the average as a dot, per series."""
    spec = _base(title, rows, "Summary of rQPS per group: range min to max, median tick, average dot.")
    spec["title"]["subtitle"] = "line: min to max · black tick: median · grey dot: average · dashed: 1.0"
    y = {"field": "group", "type": "nominal", "sort": GROUP_ORDER, "title": None}
    spec["facet"] = {"row": {"field": "series", "type": "nominal", "sort": series, "title": None,
                             "header": {"labelAngle": 0, "labelAlign": "left", "labelLimit": 480,
                                        "labelFontWeight": 600}}}
    tooltip = [{"field": "series"}, {"field": "group"}] + [
        {"field": f, "format": ".2f"} for f in ("min", "max", "avg", "median")]
    spec["spec"] = {
        "width": 520, "height": {"step": 18},
        "layer": [
            {"mark": {"type": "rule", "strokeWidth": 2},
             "encoding": {"y": y, "x": {"field": "min", "type": "quantitative", "title": "rQPS"},
                          "x2": {"field": "max"}, "tooltip": tooltip}},
            # Neutral marks: red and blue mean below and above 1.0 everywhere else on the site.
            {"mark": {"type": "tick", "thickness": 3, "color": "#111111"},
             "encoding": {"y": y, "x": {"field": "median", "type": "quantitative"}, "tooltip": tooltip}},
            {"mark": {"type": "point", "filled": True, "color": "#767676"},
             "encoding": {"y": y, "x": {"field": "avg", "type": "quantitative"}, "tooltip": tooltip}},
            one_rule("x", "series"),
        ],
    }
    return spec


def throughput_lines(title: str, rows: list[dict], variants: list[str], microbenchmarks: list[str]) -> dict:
    """Throughput against client threads on a log2 axis, a line per variant, for one
    microbenchmark at a time: a line through several microbenchmarks' points joins unrelated QPS.
    With more than one, a menu picks it (the first is drawn, and is what an image shows)."""
    spec = _base(title, rows, "Throughput against the number of client threads, one microbenchmark at a time.")
    spec["width"] = 560
    spec["height"] = 300
    spec["params"] = [LEGEND_PICK]
    if len(microbenchmarks) > 1:
        # A variable, not a selection: Vega-Lite writes a selection's first value into an expression
        # string; a variable's value stays a JSON value, and the filter's one expression is its name.
        spec["params"].append({"name": "pick_microbenchmark", "value": microbenchmarks[0],
                               "bind": {"input": "select", "options": microbenchmarks, "name": "microbenchmark "}})
        spec["transform"] = [{"filter": {"field": "microbenchmark", "equal": {"expr": "pick_microbenchmark"}}}]
    spec["mark"] = {"type": "line", "point": True}
    spec["encoding"] = {
        "x": {"field": "threads", "type": "quantitative", "title": "client threads (log scale)",
              "scale": {"type": "log", "base": 2}, "axis": {"values": sorted({r["threads"] for r in rows})}},
        "y": {"field": "qps", "type": "quantitative", "title": "throughput",
              "axis": {"title": throughput_axis({r["unit"] for r in rows})}},
        "color": {"field": "variant", "type": "nominal", "sort": variants, "title": "variant"},
        "opacity": _picked(),
        "tooltip": [{"field": "microbenchmark"}, {"field": "variant"}, {"field": "threads"},
                    {"field": "qps", "title": "throughput", "format": ",.2f"}, {"field": "unit", "title": "unit"}],
    }
    return spec


def throughput_by_setting(title: str, rows: list[dict], setting: str) -> dict:
    """Throughput for each value of one setting at a fixed thread count."""
    spec = _base(title, rows, f"Throughput for each value of {setting}.")
    spec["width"] = {"step": 48}
    spec["height"] = 260
    order = [r["setting_value"] for r in sorted(rows, key=lambda r: r["setting_order"])]
    spec["mark"] = {"type": "bar"}
    spec["encoding"] = {
        "x": {"field": "setting_value", "type": "ordinal", "sort": order, "title": "setting",
              "axis": {"title": setting, "labelAngle": 0}},
        "y": {"field": "qps", "type": "quantitative", "title": "throughput",
              "axis": {"title": throughput_axis({r["unit"] for r in rows})}},
        "tooltip": [{"field": "config"}, {"field": "setting_value", "title": "setting value"},
                    {"field": "threads"}, {"field": "qps", "title": "throughput", "format": ",.2f"},
                    {"field": "unit", "title": "unit"}],
    }
    return spec


def observations(title: str, rows: list[dict], subjects: list[str], x_label: str | None,
                 unit: str, log_y: bool) -> dict:
    """Published measurements: value against x per subject, or one bar per subject without x."""
    spec = _base(title, rows, "Published measurements as printed by the source.")
    y_scale = {"type": "log"} if log_y else {"zero": False}
    tooltip = [{"field": "subject"}, {"field": "x", "title": "x"},
               {"field": "value_text", "title": "value"}, {"field": "unit", "title": "unit"}]
    if all(r["x"] is None for r in rows):
        spec["width"] = 480
        spec["height"] = {"step": 22}
        spec["mark"] = {"type": "bar"}
        spec["encoding"] = {"y": {"field": "subject", "type": "nominal", "sort": subjects, "title": None},
                            "x": {"field": "value", "type": "quantitative", "title": "value",
                                  "axis": {"title": unit}},
                            "tooltip": tooltip}
        return spec
    spec["width"] = 560
    spec["height"] = 300
    spec["params"] = [{"name": "pick", "select": {"type": "point", "fields": ["subject"]},
                       "bind": "legend"}]
    spec["mark"] = {"type": "line", "point": True}
    spec["encoding"] = {
        "x": {"field": "x", "type": "quantitative", "title": "x", "axis": {"title": x_label or "x"}},
        "y": {"field": "value", "type": "quantitative", "title": "value", "scale": y_scale, "axis": {"title": unit}},
        "color": {"field": "subject", "type": "nominal", "sort": subjects, "title": None},
        "opacity": _picked(),
        "tooltip": tooltip,
    }
    return spec
