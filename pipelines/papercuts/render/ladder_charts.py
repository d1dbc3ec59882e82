"""The ladder chart: group medians and the shared drift along a version ladder, changes marked."""
from __future__ import annotations

from ..db import fetch_dicts, query
from ..problems import UserError
from . import tables
from .registry import Drawn, chart_kind
from .selection import per_unit

COLUMNS = ["series", "position", "build", "variant", "version", "rqps", "n", "change", "ring"]


@chart_kind("ladder", "ladder",
            doc="Median rQPS of each group and the shared drift along a version ladder, change points marked.")
def ladder(con, d, where):
    found = con.execute(query("ladder_server"), {"ladder": d["ladder"]}).fetchone()
    if not found:
        raise UserError(f"{where}: no ladder '{d['ladder']}'")
    rows = [dict(r) for r in _server_lines(con, found[0]).get(d["ladder"], ())]
    steps = {(c["series"], c["position"]): c["change"] for c in server_changes(con, found[0]).get(d["ladder"], ())
             if c["kind"] != "series"}
    for r in rows:
        r["change"] = steps.get((r["series"], r["position"]))
        r["ring"] = int(r["change"] is not None)
    variants = [r["variant"] for r in sorted(rows, key=lambda r: r["position"]) if r["series"] == "drift: all"]
    # The axis reads as versions: a ladder has one build a version (derive/ladders.py one_per_version).
    versions = [r["version"] for r in sorted(rows, key=lambda r: r["position"]) if r["series"] == "drift: all"]
    shown = dict(zip(variants, versions, strict=True))
    at: dict[tuple, dict] = {}  # (series, variant) -> its row: a table cell is a lookup, not a scan
    for r in rows:
        r["build"] = shown[r["variant"]]
        at.setdefault((r["series"], r["variant"]), r)
    series = sorted({r["series"] for r in rows})
    table = tables.table([("build", False), *((s, True) for s in series)],
                         [[tables.cell(v), *(tables.cell(_cell(at.get((s, v)))) for s in series)] for v in variants])
    return Drawn(rows, ladder_spec(d["title"], rows, [shown[v] for v in variants]), table, COLUMNS)


def _by_ladder(rows: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(r.pop("ladder"), []).append(r)
    return out


@per_unit(4)  # a server's ladder pages: every ladder's lines from one query (derive made them: ladder_lines)
def _server_lines(con, server: str) -> dict[str, list[dict]]:
    return _by_ladder(fetch_dicts(con, query("ladder_lines"), {"server": server}))


@per_unit(4)  # the steps marked on a server's ladder charts, and the changes listed under them
def server_changes(con, server: str) -> dict[str, list[dict]]:
    """ladder -> its change points, largest first, with the known regression each is, if any."""
    return _by_ladder(fetch_dicts(con, query("ladder_changes"), {"server": server}))


def _cell(r: dict | None) -> str:
    if r is None:
        return ""
    mark = f" (step {r['change']:+.0%})" if r["change"] is not None else ""
    return f"{r['rqps']:.2f}{mark}"


def ladder_spec(title: str, rows: list[dict], variants: list[str]) -> dict:
    from .specs import _base, one_rule

    spec = _base(title, rows, "Median rQPS per group and the shared drift along the builds, "
                              "relative to the first build; large rings start a change.")
    spec["width"] = {"step": 56}
    spec["height"] = 260
    x = {"field": "build", "type": "ordinal", "sort": variants, "title": None,
         "axis": {"labelAngle": -40}}
    y = {"field": "rqps", "type": "quantitative", "title": "relative to the first build (log)",
         "scale": {"type": "log", "nice": False}, "axis": {"format": "~g"}}
    colour = {"field": "series", "type": "nominal", "title": "series", "scale": {"scheme": "tableau10"}}
    tooltip = [{"field": "series"}, {"field": "variant", "title": "build.config"}, {"field": "version"},
               {"field": "rqps", "title": "rQPS", "format": ".3f"}, {"field": "n", "title": "microbenchmarks"},
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
