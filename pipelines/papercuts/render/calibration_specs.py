"""Vega-Lite spec builders for calibration charts: rows in, a spec dict out. No I/O.

As in specs.py, the inline data is named "table" and holds exactly the chart's CSV rows.
"""
from __future__ import annotations

from ..contract import FLAGS
from .colours import server_colours
from .specs import _base


def _pick(field: str) -> dict:
    return {"name": "pick", "select": {"type": "point", "fields": [field]}, "bind": "legend"}


def _faded() -> dict:
    return {"condition": {"param": "pick", "value": 1}, "value": 0.15}


def _spread(y: str, lo: str, hi: str, extra: dict) -> dict:
    """A min–max rule per point; rows without a spread draw nothing (invalid values are skipped)."""
    return {"mark": {"type": "rule", "strokeWidth": 1.5},
            "encoding": {**extra, y: {"field": lo, "type": "quantitative"}, f"{y}2": {"field": hi}}}


def ut_delay(title: str, rows: list[dict], whos: list[str], series: list[str], servers: list[str]) -> dict:
    """µs per ut_delay(X) call against X: a line per server (colour, the server's own across the
    site) and series (dash); one server's series differ by colour, dash and point shape, so a line
    drawn over another (8.0.28 under 8.0.40 on dell32) still shows."""
    spec = _base(title, rows, "Wall-clock time of one ut_delay(X) call against X.")
    by = "who" if len(whos) > 1 else "series"
    order = whos if by == "who" else series
    color = {"field": by, "type": "nominal", "sort": order, "title": "server" if by == "who" else "series"}
    if by == "who":
        color["scale"] = server_colours(whos, servers)
    x = {"field": "delay", "type": "quantitative", "title": "delay X (ut_delay argument)",
         "axis": {"values": sorted({r["delay"] for r in rows}), "format": "d"}}
    tooltip = [{"field": "who", "title": "server"}, {"field": "series"}, {"field": "delay", "title": "X"},
               {"field": "us_text", "title": "µs per call"}, {"field": "repetitions"},
               {"field": "min_us", "title": "min µs"}, {"field": "max_us", "title": "max µs"},
               {"field": "us_per_unit", "title": "fit: µs per unit", "format": ".3f"}]
    line = {"x": x, "y": {"field": "us_per_call", "type": "quantitative", "title": "µs per call"},
            "color": color, "opacity": _faded(), "tooltip": tooltip}
    if len(series) > 1:
        line["strokeDash"] = {"field": "series", "type": "nominal", "sort": series, "title": "series"}
    if by == "series" and len(series) > 1:
        line["shape"] = {"field": "series", "type": "nominal", "sort": series, "title": "series"}
    spec["width"], spec["height"] = 560, 300
    spec["layer"] = [{"params": [_pick(by)], "mark": {"type": "line", "point": True}, "encoding": line}]
    if any(r["min_us"] is not None for r in rows):
        spec["layer"].append(_spread("y", "min_us", "max_us", {"x": x, "color": color}))
    return spec


def _bars(title: str, rows: list[dict], description: str, x: dict, panels: list[str],
          whos: list[str], tooltip: list[dict], spread: tuple[str, str] | None) -> dict:
    """Horizontal bars per server, a bar per compile flag, one row of panels per function."""
    spec = _base(title, rows, description)
    spec["facet"] = {"row": {"field": "panel", "type": "nominal", "sort": panels, "title": None,
                             "header": {"labelAngle": 0, "labelAlign": "left", "labelLimit": 480,
                                        "labelFontWeight": 600}}}
    y = {"field": "who", "type": "nominal", "sort": whos, "title": None}
    color = {"field": "flags", "type": "nominal", "sort": list(FLAGS), "title": "compile flags"}
    layer = [{"params": [_pick("flags")], "mark": {"type": "bar"},
              "encoding": {"y": y, "yOffset": {"field": "flags", "type": "nominal", "sort": list(FLAGS)},
                           "x": x, "color": color, "opacity": _faded(), "tooltip": tooltip}}]
    if spread:
        layer.append({"mark": {"type": "rule", "color": "#222"},
                      "encoding": {"y": y, "yOffset": {"field": "flags", "type": "nominal", "sort": list(FLAGS)},
                                   "x": {"field": spread[0], "type": "quantitative"},
                                   "x2": {"field": spread[1]}}})
    spec["spec"] = {"width": 480, "height": {"step": 8}, "layer": layer}
    return spec


def prng_cost(title: str, rows: list[dict], panels: list[str], whos: list[str]) -> dict:
    tooltip = [{"field": "who", "title": "server"}, {"field": "panel", "title": "function"},
               {"field": "flags"}, {"field": "ns_text", "title": "ns per call"},
               {"field": "repetitions"}, {"field": "min_ns", "title": "min ns"},
               {"field": "max_ns", "title": "max ns"}, {"field": "mean_draw", "title": "mean X drawn"}]
    x = {"field": "ns_per_call", "type": "quantitative", "title": "ns per call"}
    spread = ("min_ns", "max_ns") if any(r["min_ns"] is not None for r in rows) else None
    return _bars(title, rows, "Cost of one interval draw per server, compile flags and function.",
                 x, panels, whos, tooltip, spread)


def draw_cost(title: str, rows: list[dict], panels: list[str], whos: list[str]) -> dict:
    tooltip = [{"field": "who", "title": "server"}, {"field": "panel", "title": "function"},
               {"field": "flags"}, {"field": "ns_text", "title": "ns per draw"},
               {"field": "wait_us", "title": "expected wait µs", "format": ".2f"},
               {"field": "percent", "title": "draw / wait %", "format": ".2f"}]
    x = {"field": "percent", "type": "quantitative", "title": "draw cost as % of the wait it chooses"}
    return _bars(title, rows, "Cost of drawing X as a share of the expected ut_delay(X) wait.",
                 x, panels, whos, tooltip, None)


def spin_wait(title: str, rows: list[dict], whos: list[str], rules: list[str]) -> dict:
    """Expected wait per spin against innodb_spin_wait_delay, a line per server and rule."""
    spec = _base(title, rows, "Expected ut_delay wait per spin for each innodb_spin_wait_delay.")
    spec["width"], spec["height"] = 560, 300
    spec["params"] = [_pick("who")]
    spec["mark"] = {"type": "line", "point": True}
    spec["encoding"] = {
        "x": {"field": "n", "type": "quantitative", "title": "innodb_spin_wait_delay N",
              "axis": {"values": sorted({r["n"] for r in rows}), "format": "d"}},
        "y": {"field": "wait_us", "type": "quantitative", "title": "expected wait per spin (µs)"},
        "color": {"field": "who", "type": "nominal", "sort": whos, "title": "server"},
        "strokeDash": {"field": "rule", "type": "nominal", "sort": rules, "title": "X drawn from"},
        "opacity": _faded(),
        "tooltip": [{"field": "who", "title": "server"}, {"field": "n", "title": "N"},
                    {"field": "rule", "title": "X drawn from"},
                    {"field": "mean_units", "title": "mean X", "format": ".1f"},
                    {"field": "wait_us", "title": "expected wait µs", "format": ".2f"}],
    }
    return spec


def calibration_servers(title: str, rows: list[dict], whos: list[str]) -> dict:
    """µs per delay unit per server, with ± one standard error of the fitted slope."""
    spec = _base(title, rows, "Fitted µs per ut_delay unit on each server.")
    y = {"field": "who", "type": "nominal", "sort": whos, "title": None}
    tooltip = [{"field": "who", "title": "server"},
               {"field": "us_per_unit", "title": "µs per unit", "format": ".3f"},
               {"field": "us_per_unit_stderr", "title": "standard error", "format": ".4f"},
               {"field": "points", "title": "points fitted"}]
    spec["width"], spec["height"] = 480, {"step": 22}
    spec["layer"] = [
        {"mark": {"type": "bar", "color": "#4c78a8"},
         "encoding": {"y": y, "x": {"field": "us_per_unit", "type": "quantitative",
                                    "title": "µs per delay unit (least-squares slope)"},
                      "tooltip": tooltip}},
        {"mark": {"type": "rule", "color": "#222"},
         "encoding": {"y": y, "x": {"field": "low", "type": "quantitative"}, "x2": {"field": "high"}}},
        {"mark": {"type": "text", "align": "left", "dx": 4},
         "encoding": {"y": y, "x": {"field": "high", "type": "quantitative"},
                      "text": {"field": "us_per_unit", "type": "quantitative", "format": ".2f"}}},
    ]
    return spec


def timebase_runs(title: str, rows: list[dict], subjects: list[str]) -> dict:
    """Each run's tick count per subject, on the timebase's own scale."""
    spec = _base(title, rows, "Timebase ticks per ut_delay call, one point per run.")
    spec["width"], spec["height"] = 520, {"step": 26}
    spec["mark"] = {"type": "point", "filled": True, "size": 60}
    spec["encoding"] = {
        "y": {"field": "subject", "type": "nominal", "sort": subjects, "title": None},
        "x": {"field": "ticks", "type": "quantitative", "title": "timebase ticks per call",
              "scale": {"zero": True}},
        "color": {"field": "subject", "type": "nominal", "sort": subjects, "legend": None},
        "tooltip": [{"field": "subject"}, {"field": "run"}, {"field": "ticks_text", "title": "ticks"},
                    {"field": "us", "title": "µs per call", "format": ".3f"}],
    }
    return spec
