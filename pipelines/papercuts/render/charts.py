"""A chart definition (from front matter or a generated page) → rows, spec, table and CSV, drawn by
its kind from the registry (registry.py says how to add one)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote_plus

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
    tables,
)
from .embeds import named_as_of
from .registry import KINDS, Drawn, Kind

# A chart's table as its page prints it (tables.html), read by Hugo and never published. Not .html:
# Hugo would take that for a page of its own.
TABLE_SUFFIX = "table.frag"

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
    rows: int  # the CSV's
    explore: str = ""
    source: dict | None = None  # the chart's campaign's source, which its embed page cites
    data: str = ""  # the CSV's name without .csv, when not the chart's id (a file charts share)
    as_of: str = ""  # the date of its data, when it names what it draws (data_as_of); else its page's

    def front_matter(self) -> dict:
        return {"id": self.id, "kind": self.kind, "title": self.title, "caption": self.caption,
                "spec": f"{self.id}.vl.json", "table": f"{self.id}.{TABLE_SUFFIX}",
                "csv": f"{self.data or self.id}.csv", "rows": self.rows, "explore": self.explore,
                **({"table_cut": cut} if (cut := tables.cut(self.table)) else {}),
                **({"source": self.source} if self.source else {}), **({"as_of": self.as_of} if self.as_of else {})}


def make_charts(con: duckdb.DuckDBPyConnection, defs: list[dict], where: str) -> list[Chart]:
    """The charts of a page, in order; those whose definitions name one `shares` file read it
    together (datafile.share: a comparison's heatmaps, a thread count each)."""
    groups: dict[str, list[dict]] = {}
    for d in defs:
        if d.get("shares"):
            groups.setdefault(d["shares"], []).append(d)
    made = {id(d): make_chart(con, d, where) for d in defs if not d.get("shares")}
    for name, group in groups.items():
        made |= zip(map(id, group), _shared(con, name, group, where), strict=True)
    return [made[id(d)] for d in defs]


def _shared(con, name: str, defs: list[dict], where: str) -> list[Chart]:
    drawn = [_draw(con, d, where) for d in defs]
    kinds = {kind for kind, _, _ in drawn}
    if len(kinds) != 1 or not (kind := kinds.pop()).shares:
        raise ValueError(f"{where}: charts sharing {name!r} must be of one kind that can share a file")
    key, varying = kind.shares
    specs, csv, rows = datafile.share(name, [(f"t{d['threads']}", spec, dr.rows) for d, (_, dr, spec)
                                             in zip(defs, drawn, strict=True)], key, varying)
    return [Chart(d["id"], kind.name, d["title"], d.get("caption", ""), spec, dr.table, csv, rows,
                  explore_url(dr.explore), _campaign_source(con, d.get("campaign")), name, data_as_of(con, d))
            for d, (_, dr, _), spec in zip(defs, drawn, specs, strict=True)]


def _draw(con, d: dict, where: str) -> tuple[Kind, Drawn, dict]:
    kind = KINDS.get(d.get("kind"))
    if kind is None:
        raise UserError(f"{where}: chart kind '{d.get('kind')}' is unknown; use one of {', '.join(sorted(KINDS))}")
    for key in ("id", "title", *kind.requires):
        if not d.get(key):
            raise UserError(f"{where}: chart '{d.get('id', '?')}' needs '{key}'")
    drawn = kind.draw(con, d, f"{where}: chart '{d['id']}'")
    return kind, drawn, colours.with_variant_colours(drawn.spec, variant_colours(con))


def make_chart(con: duckdb.DuckDBPyConnection, d: dict, where: str) -> Chart:
    kind, drawn, spec = _draw(con, d, where)
    spec, csv = datafile.refer(spec, d["id"], drawn.rows, drawn.columns)
    return Chart(d["id"], kind.name, d["title"], d.get("caption", ""), spec, drawn.table,
                 csv, len(drawn.rows), explore_url(drawn.explore), _campaign_source(con, d.get("campaign")),
                 as_of=data_as_of(con, d))


def data_as_of(con, d: dict) -> str:
    """The newest date of what a chart definition names, or "" when it names none (its page's then):
    a ladder page's chart of a 2025-12-17 campaign said "Data as of 2026-04-03", its server's
    newest, on its embed page and its images."""
    return named_as_of(con, [d])


@lru_cache(maxsize=1)  # once per build's connection: every chart of the site uses the same colours
def variant_colours(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    return colours.variant_colours(list(variant_groups(con).items()))


@lru_cache(maxsize=1)  # once per connection: a 10^6-row DISTINCT at x100, for the colours and the units' keys
def variant_groups(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """campaign -> the variants that can share its charts, campaigns oldest first (variant_groups.sql)."""
    groups: dict[str, list[str]] = {}
    for campaign, variant in con.execute(query("variant_groups")).fetchall():
        groups.setdefault(campaign, []).append(variant)
    return groups


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
    return "/explore/?" + "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in pairs)


@lru_cache(maxsize=16384)
def _quoted(text: str) -> str:
    """urlencode's quoting of one name or value (quote_plus, ',' kept). The regressions page
    links 7,550 changes to the explorer, whose values repeat (a server, a campaign, a build):
    quoting each again was 0.3 s of every build at x100."""
    return quote_plus(text, safe=",")
