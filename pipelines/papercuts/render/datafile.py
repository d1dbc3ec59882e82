"""A chart's data, written once: the CSV a reader downloads is the file its spec reads (`data.url`,
beside the spec in the page bundle), its embed shows and its images are drawn from. The spec
carries no rows, so a page bundle holds each number once, not once as JSON and again as CSV.

Reading the CSV back gives the rows exactly: the spec's `format.parse` makes each column that
holds only numbers (or nothing) a number column, where an empty cell is null, as it was; floats are
written as their repr, which JavaScript parses to the same double; text the formula guard prefixed
with a quote (tables.py) loses that quote again in a calculate transform of the spec.
"""
from __future__ import annotations

import json

from . import tables
from .columns import Columns

DATASET = "table"  # the name charts.js and the browser tests count rows of


def columns(rows: list[dict] | Columns, named: list[str]) -> list[str]:
    """The CSV's columns: the chart's own, then any other field its rows carry (the spec may draw
    it, so the file must hold it)."""
    if isinstance(rows, Columns):
        return [*named, *(n for n in rows.names if n not in named)]
    extra = dict.fromkeys(k for r in rows for k in r if k not in named)
    return [*named, *extra]


def _numbers(data: Columns, cols: list[str]) -> list[str]:
    """The columns whose values are all numbers or null. Booleans are refused: a CSV would say
    True, which no reader gives back as a boolean."""
    numbers = []
    for c in cols:
        kinds = set(map(type, data[c])) - {type(None)}
        if bool in kinds:
            raise ValueError(f"column {c!r} holds booleans, which a CSV cannot give back exactly")
        if kinds <= {int, float}:
            numbers.append(c)
    return numbers


def unguard(field: str) -> dict:
    """A calculate transform dropping the guard's quote (every text that starts with one got it)."""
    f = json.dumps(field)  # our column names; contributed text is never part of an expression
    return {"calculate": f"substring(datum[{f}], 0, 1) === \"'\" ? substring(datum[{f}], 1) : datum[{f}]",
            "as": field}


def refer(spec: dict, chart_id: str, rows: list[dict] | Columns, named: list[str]) -> tuple[dict, str]:
    """(the spec reading its rows from `<chart_id>.csv`, that CSV's text). The spec must have been
    drawn from exactly these rows."""
    values = (spec.get("data") or {}).get("values")
    if values is not rows and values != rows:
        raise ValueError(f"chart {chart_id!r}: its spec was not drawn from its rows")
    cols = columns(rows, named)
    data = rows if isinstance(rows, Columns) else Columns.of_rows(rows, cols)
    numbers, quoted = _numbers(data, cols), tables.guarded_columns(data, cols)
    spec = {**spec, "data": {"name": DATASET, "url": f"{chart_id}.csv",
                             "format": {"type": "csv", "parse": {c: "number" for c in numbers}}}}
    fix = [unguard(c) for c in quoted]
    if fix:
        spec["transform"] = fix + spec.get("transform", [])
    return spec, tables.to_csv(data, cols, quoted)


def inline(spec: dict, csv_text: str) -> dict:
    """The spec with its CSV given inline (the same parse), for a renderer that fetches nothing."""
    return {**spec, "data": {**{k: v for k, v in spec["data"].items() if k != "url"}, "values": csv_text}}
