"""Chart kind repetitions: every repetition's throughput, so a reader sees the noise behind a mean.

A difference between variants smaller than the spread between repetitions of one variant is
not a result; this chart shows both on one axis.
"""
from __future__ import annotations

from ..db import fetch_dicts, query
from ..problems import UserError
from . import tables
from .registry import Drawn, chart_kind
from .selection import label
from .specs import LEGEND_PICK, _base, _picked, throughput_axis

COLUMNS = ["microbenchmark", "threads", "variant", "repetition", "qps", "unit", "spread", "file", "line"]


@chart_kind("repetitions", "campaign", "server", "variants",
            doc="Every run's throughput beside the mean, so noise is visible.")
def repetitions(con, d: dict, where: str):
    variants = list(d["variants"])
    raw = [r for r in fetch_dicts(con, query("repetitions"), {"campaign": d["campaign"], "server": d["server"]})
           if r["variant"] in variants]
    if not raw:
        raise UserError(f"{where}: no results for {', '.join(variants)} in campaign {d['campaign']}")
    groups: dict[tuple, list[float]] = {}
    for r in raw:
        groups.setdefault((r["microbenchmark"], r["range"], r["threads"], r["variant"]), []).append(r["qps"])
    rows = []
    for r in raw:
        qps = groups[(r["microbenchmark"], r["range"], r["threads"], r["variant"])]
        rows.append({"microbenchmark": label(r["microbenchmark"], r["range"]), "threads": r["threads"],
                     "variant": r["variant"], "repetition": r["repetition"], "qps": r["qps"], "unit": r["unit"],
                     "spread": round(max(qps) / min(qps), 6), "file": r["file"], "line": r["line"]})
    place = {v: i for i, v in enumerate(variants)}
    rows.sort(key=lambda r: (r["microbenchmark"], r["threads"], place[r["variant"]], r["repetition"] or 0))
    body = [[tables.cell(r["microbenchmark"]), tables.cell(str(r["threads"])), tables.cell(r["variant"]),
             tables.cell(str(r["repetition"] or "")), tables.cell(tables.fmt(r["qps"])), tables.cell(r["unit"]),
             tables.cell(tables.fmt(r["spread"]))] for r in rows]
    table = tables.table([("microbenchmark", False), ("threads", True), ("variant", False),
                          ("repetition", True), ("throughput", True), ("unit", False),
                          ("max / min of the variant", True)], body)
    return Drawn(rows, _spec(d["title"], rows, variants), table, COLUMNS)


def _spec(title: str, rows: list[dict], variants: list[str]) -> dict:
    spec = _base(title, rows, "The throughput of every repetition, a dot each; a row per thread count.")
    spec["facet"] = {"row": {"field": "threads", "type": "ordinal", "title": "client threads",
                             "header": {"labelAngle": 0, "labelFontWeight": 600}}}
    spec["spec"] = {
        "width": 560,
        "height": {"step": 26},
        "params": [LEGEND_PICK],
        "mark": {"type": "point", "filled": True, "size": 60},
        "encoding": {
            "y": {"field": "microbenchmark", "type": "nominal", "title": None},
            "yOffset": {"field": "variant", "type": "nominal", "sort": variants},
            "x": {"field": "qps", "type": "quantitative", "title": "throughput",
                  "axis": {"title": throughput_axis({r["unit"] for r in rows})}, "scale": {"zero": False}},
            "color": {"field": "variant", "type": "nominal", "sort": variants, "title": "variant",
                      "scale": {"scheme": "tableau10"}},
            "opacity": _picked(),
            "tooltip": [{"field": "microbenchmark"}, {"field": "threads"}, {"field": "variant"},
                        {"field": "repetition"}, {"field": "qps", "title": "throughput", "format": ",.2f"},
                        {"field": "unit"},
                        {"field": "spread", "title": "max / min of the variant", "format": ".2f"},
                        {"field": "file", "title": "raw file"}],
        },
    }
    return spec
