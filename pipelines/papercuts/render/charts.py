"""A chart definition (from front matter or a generated page) → rows, spec, table and CSV, drawn by
its kind from the registry (registry.py says how to add one)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

import duckdb

from ..db import fetch_dicts, query
from ..problems import UserError
from . import (
    calibration_charts,
    colours,
    comparison_charts,
    cost_charts,
    datafile,
    ladder_charts,
    profile_charts,
    repetition_charts,
)
from .registry import KINDS

# The modules whose @chart_kind functions fill the registry when imported.
KIND_MODULES = (comparison_charts, calibration_charts, cost_charts, profile_charts, repetition_charts,
                ladder_charts)


@dataclass
class Chart:
    id: str
    kind: str
    title: str
    caption: str
    spec: dict
    table: dict
    csv: str
    rows: int
    explore: str = ""
    source: dict | None = None  # the chart's campaign's source, which its embed page cites

    def front_matter(self) -> dict:
        return {"id": self.id, "kind": self.kind, "title": self.title, "caption": self.caption,
                "spec": f"{self.id}.vl.json", "table": f"{self.id}.table.json",
                "csv": f"{self.id}.csv", "rows": self.rows, "explore": self.explore,
                **({"source": self.source} if self.source else {})}


def make_chart(con: duckdb.DuckDBPyConnection, d: dict, where: str) -> Chart:
    kind = KINDS.get(d.get("kind"))
    if kind is None:
        raise UserError(f"{where}: chart kind '{d.get('kind')}' is unknown; use one of {', '.join(sorted(KINDS))}")
    for key in ("id", "title", *kind.requires):
        if not d.get(key):
            raise UserError(f"{where}: chart '{d.get('id', '?')}' needs '{key}'")
    drawn = kind.draw(con, d, f"{where}: chart '{d['id']}'")
    spec = colours.with_variant_colours(drawn.spec, variant_colours(con))
    spec, csv = datafile.refer(spec, d["id"], drawn.rows, drawn.columns)
    return Chart(d["id"], kind.name, d["title"], d.get("caption", ""), spec, drawn.table,
                 csv, len(drawn.rows), explore_url(drawn.explore), _campaign_source(con, d.get("campaign")))


@lru_cache(maxsize=1)  # once per build's connection: every chart of the site uses the same colours
def variant_colours(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    groups: dict[str, list[str]] = {}
    for campaign, variant in con.execute(query("variant_groups")).fetchall():
        groups.setdefault(campaign, []).append(variant)
    return colours.variant_colours(list(groups.items()))


def _campaign_source(con, campaign) -> dict | None:
    """The source of the campaign a chart draws (a chart of one campaign cites it, wherever the
    chart is shown: a server page's own source is the hardware's)."""
    return campaign_sources(con).get(str(campaign)) if campaign else None


@lru_cache(maxsize=1)  # once per build's connection, not once per chart
def campaign_sources(con: duckdb.DuckDBPyConnection) -> dict[str, dict]:
    return {r.pop("campaign"): {k: (v or "") for k, v in r.items()}
            for r in fetch_dicts(con, query("campaign_source"))}


def explore_url(params: dict | None) -> str:
    """/explore/ opened on a chart's own selection: lists joined by ',' (ids never hold one)."""
    if not params:
        return ""
    pairs = [(k, ",".join(map(str, v)) if isinstance(v, list) else str(v)) for k, v in params.items()]
    return "/explore/?" + urlencode(pairs, safe=",")
