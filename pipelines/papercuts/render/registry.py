"""The one registry of chart kinds.

A chart kind turns a chart definition (a mapping from an investigation's front matter, or one the
pipeline writes for a server or calibration page) into rows, a Vega-Lite spec, a text table and
the columns of its CSV. Adding a kind is:

1. a query in `sql/queries/<name>.sql` (named parameters, never string-built SQL);
2. a spec builder taking rows and returning a dict (contributed text only as data, titles and
   subtitles: never in a channel title, an expression or a `sort` array of free text);
3. a function decorated here, in the module of its family:

       @chart_kind("my-kind", "campaign", "server", doc="What it draws, in one line.")
       def my_kind(con, d, where) -> Drawn:
           rows = fetch_dicts(con, query("my_kind"), {...})
           return Drawn(rows, specs.my_kind(d["title"], rows), tables.table(...), COLUMNS)

   and the module listed in `charts.KIND_MODULES` if it is a new one.

The required keys are checked by `papercuts check` (validate/frontmatter.py) for investigation
pages, and the list of kinds is published on the contract page for investigation authors.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Drawn:
    """What a chart kind hands on: the rows it draws, the spec, the text table, the CSV columns."""

    rows: list[dict]
    spec: dict
    table: dict
    columns: list[str]
    explore: dict | None = None  # the explorer's query for the same selection (comparison charts)


@dataclass(frozen=True)
class Kind:
    name: str
    requires: tuple[str, ...]  # front-matter keys besides id and title
    doc: str
    draw: Callable[..., Drawn]
    # (key, varying) columns when charts of this kind at several settings may read one data file
    # (a chart definition's `shares`: datafile.share)
    shares: tuple[tuple[str, ...], tuple[str, ...]] | None = None


KINDS: dict[str, Kind] = {}


def chart_kind(name: str, *requires: str, doc: str, shares: tuple[tuple[str, ...], tuple[str, ...]] | None = None):
    def register(draw: Callable[..., Drawn]) -> Callable[..., Drawn]:
        if name in KINDS:
            raise ValueError(f"chart kind {name!r} registered twice")
        KINDS[name] = Kind(name, tuple(requires), doc, draw, shares)
        return draw
    return register
