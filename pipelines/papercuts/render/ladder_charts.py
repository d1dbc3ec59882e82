"""The ladder chart: group medians and the shared drift along a version ladder, changes marked."""
from __future__ import annotations

import math

import pyarrow as pa

from ..problems import UserError
from . import tables
from .columns import Columns
from .registry import Drawn, chart_kind
from .selection import per_unit
from .site_rows import rows_of, table_of
from .tables import fixed, percent

COLUMNS = ["series", "position", "build", "variant", "version", "rqps", "n", "change", "ring"]


@chart_kind("ladder", "ladder",
            doc="Median rQPS of each group and the shared drift along a version ladder, change points marked.")
def ladder(con, d, where):
    found = rows_of(con, "ladder_owners", "ladder", d["ladder"])
    if not found:
        raise UserError(f"{where}: no ladder '{d['ladder']}'")
    server = found[0]["server"]
    lines = table_of(con, "ladder_lines", "ladder", d["ladder"])  # by series, then position
    # Columns, not a dict per row: a server's ladders draw about 2,000 rows (x100), whose dicts,
    # and their CSV made from them again, were most of a ladder page's time.
    series, position, variant, version, rqps = (lines.column(k).to_pylist()
                                                for k in ("series", "position", "variant", "version", "rqps"))
    steps = {(c["series"], c["position"]): c["change"] for c in server_changes(con, server).get(d["ladder"], ())
             if c["kind"] != "series"}
    change = [steps.get(k) for k in zip(series, position, strict=True)] if steps else [None] * len(series)
    drift = sorted((i for i, s in enumerate(series) if s == "drift: all"), key=position.__getitem__)
    variants = [variant[i] for i in drift]
    # The axis reads as versions: a ladder has one build a version (derive/ladders.py one_per_version).
    shown = dict(zip(variants, (version[i] for i in drift), strict=True))
    build = [shown[v] for v in variant]
    text = list(map(fixed, rqps))  # each row's cell, its step marked
    for i, c in enumerate(change):
        if c is not None:
            text[i] += f" (step {percent(c)})"
    at: dict[tuple, str] = {}  # (series, variant) -> its row's cell: a table cell is a lookup, not a scan
    for key, t in zip(zip(series, variant, strict=True), text, strict=True):
        at.setdefault(key, t)
    names = sorted(set(series))
    table = tables.table([("build", False), *((s, True) for s in names)],
                         [[tables.cell(v), *(tables.cell(at.get((s, v), "")) for s in names)] for v in variants])
    data = lines.select(["series", "position"]).append_column("build", pa.array(build, pa.string()))
    for k in ("variant", "version", "rqps", "n"):
        data = data.append_column(k, lines.column(k))
    data = data.append_column("change", pa.array(change, pa.float64())).append_column(
        "ring", pa.array([int(c is not None) for c in change], pa.int64()))
    rows = Columns.of_arrow(data, {"rqps": rqps, "change": change})
    return Drawn(rows, ladder_spec(d["title"], rows, [shown[v] for v in variants]), table, COLUMNS)


def _by_ladder(rows: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(r.pop("ladder"), []).append(r)
    return out


@per_unit(4)  # the steps marked on a server's ladder charts, and the changes listed under them
def server_changes(con, server: str) -> dict[str, list[dict]]:
    """ladder -> its change points, largest first, with the known regression each is, if any: from
    the whole site's, read once per process (render/site_rows.py), not a query per server."""
    return _by_ladder(rows_of(con, "ladder_changes", "server", server))


def log_axis_values(values: list[float | None]) -> list[float]:
    """Tick values for a log axis of ratios around 1.0, from the one at or below the lowest value
    (or 1.0, the rule) to the one at or above the highest; the axis's domain is the first to the
    last, so both ends of the data are labelled. Given explicitly, as Vega labels only some ticks it
    picks itself on a log scale (d3's log tickFormat leaves the others blank): over 0.69 .. 1.0 it
    labelled 0.96, 0.98 and 1 and left the 13 ticks below, where the data was, blank. Within a
    factor of 3, the largest step of 1, 2 or 5 times a power of ten that gives 5 ticks or more;
    wider, 1, 1.5, 2, 3, 5 and 7 times each power of ten."""
    shown = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    lo, hi = min([*shown, 1.0]), max([*shown, 1.0])
    if hi == lo:
        return [1.0]
    if hi / lo > 3:
        ladder = [round(m * 10.0 ** e, 12) for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
                  for m in (1, 1.5, 2, 3, 5, 7)]
        first = max(i for i, t in enumerate(ladder) if t <= lo)
        last = min(i for i, t in enumerate(ladder) if t >= hi)
        return ladder[first:last + 1]
    top = math.ceil(math.log10(hi - lo))
    for step in (m * 10.0 ** e for e in range(top, top - 4, -1) for m in (5, 2, 1)):
        ticks = [round(k * step, 12) for k in range(math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9) + 1)]
        if len(ticks) >= 5:
            break
    return ticks


def ladder_spec(title: str, rows: Columns, variants: list[str]) -> dict:
    from .specs import _base, one_rule

    spec = _base(title, rows, "Median rQPS per group and the shared drift along the builds, "
                              "relative to the first build; large rings start a change.")
    spec["width"] = {"step": 56}
    spec["height"] = 260
    x = {"field": "build", "type": "ordinal", "sort": variants, "title": None,
         "axis": {"labelAngle": -40}}
    ticks = log_axis_values(rows["rqps"])
    y = {"field": "rqps", "type": "quantitative", "title": "relative to the first build (log)",
         "scale": {"type": "log", "nice": False, **({"domain": [ticks[0], ticks[-1]]} if len(ticks) > 1 else {})},
         "axis": {"format": "~g", "values": ticks}}
    colour = {"field": "series", "type": "nominal", "title": "series", "scale": {"scheme": "tableau10"}}
    tooltip = [{"field": "series"}, {"field": "variant", "title": "build.config"}, {"field": "version"},
               {"field": "rqps", "title": "rQPS", "format": ".2f"}, {"field": "n", "title": "microbenchmarks"},
               {"field": "change", "title": "change from the previous segment", "format": "+.1%"}]
    # One symbol per build and line, a large ring where a change starts: sized by a field, as a
    # filter or a condition would need a predicate or an expression in the spec.
    ring = {"field": "ring", "type": "quantitative", "legend": None}
    spec["layer"] = [
        {"mark": {"type": "line"}, "encoding": {"x": x, "y": y, "color": colour}},
        {"mark": {"type": "point", "filled": False},
         "encoding": {"x": x, "y": y, "color": colour, "tooltip": tooltip,
                      "size": {**ring, "scale": {"domain": [0, 1], "range": [20, 260]}},
                      "strokeWidth": {**ring, "scale": {"domain": [0, 1], "range": [1.5, 2.5]}}}},
        one_rule("y"),
    ]
    return spec
