"""A chart's data, written once: the CSV a reader downloads is the file its spec reads (`data.url`,
beside the spec in the page bundle), its embed shows and its images are drawn from. The spec
carries no rows, so a page bundle holds each number once, not once as JSON and again as CSV.

Reading the CSV back gives the rows exactly: the spec's `format.parse` makes each column that
holds only numbers (or nothing) a number column, where an empty cell is null, as it was; floats are
written as their repr, which JavaScript parses to the same double; text the formula guard prefixed
with a quote (tables.py) loses that quote again in a calculate transform of the spec.
"""
from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..codes import codes_of, keys, places
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
        if data.table is not None:  # a table's column is one type: its values' kinds, for most types
            column = data.table.column(c)
            if column.null_count == len(column) or pa.types.is_integer(column.type) \
                    or pa.types.is_floating(column.type):
                numbers.append(c)
                continue
            if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
                continue
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
    _drawn_from(spec, rows, f"chart {chart_id!r}")
    cols = columns(rows, named)
    data = rows if isinstance(rows, Columns) else Columns.of_rows(rows, cols)
    numbers, quoted = _numbers(data, cols), tables.guarded_columns(data, cols)
    return _reading(spec, f"{chart_id}.csv", numbers, quoted), tables.to_csv(data, cols, quoted)


def _drawn_from(spec: dict, rows, what: str) -> None:
    values = (spec.get("data") or {}).get("values")
    if values is not rows and values != rows:
        raise ValueError(f"{what}: its spec was not drawn from its rows")


def _reading(spec: dict, url: str, numbers: list[str], quoted: list[str], first: tuple[dict, ...] = ()) -> dict:
    """The spec reading its rows from the CSV at `url`: its number columns parsed, the guard's
    quote dropped from the `quoted` text columns, after any `first` transforms."""
    spec = {**spec, "data": {"name": DATASET, "url": url,
                             "format": {"type": "csv", "parse": {c: "number" for c in numbers}}}}
    transforms = [*first, *(unguard(c) for c in quoted)]
    if transforms:
        spec["transform"] = transforms + spec.get("transform", [])
    return spec


def inline(spec: dict, csv_text: str) -> dict:
    """The spec with its CSV given inline (the same parse), for a renderer that fetches nothing."""
    return {**spec, "data": {**{k: v for k, v in spec["data"].items() if k != "url"}, "values": csv_text}}


def share(name: str, charts: list[tuple[str, dict, Columns]], key: tuple[str, ...],
          varying: tuple[str, ...]) -> tuple[list[dict], str, int]:
    """Charts of one selection at several settings (a comparison's heatmaps, a thread count each)
    reading one data file, `<name>.csv`: a row per `key`, each chart's `varying` columns named
    with its suffix (`rqps_t4`), any other column written once when every chart gives the row the
    same value (else suffixed too). Each chart draws its own rows: those whose first varying
    column it filled, which it never leaves null (a filter on validity, not an expression), its
    fields renamed. Returns (the charts' specs, the CSV's text, its rows).

    charts: (suffix, spec drawn from its rows, those rows), every chart's rows with the same columns."""
    wide, renamed = _wide(name, charts, key, varying)
    cols = wide.names
    numbers, quoted = _numbers(wide, cols), tables.guarded_columns(wide, cols)
    specs = []
    for (_, spec, rows), fields in zip(charts, renamed, strict=True):
        _drawn_from(spec, rows, f"data file {name!r}")
        spec = _renamed({k: v for k, v in spec.items() if k != "data"}, fields)
        specs.append(_reading(spec, f"{name}.csv", numbers, quoted,
                              ({"filter": {"field": fields[varying[0]], "valid": True}},)))
    return specs, tables.to_csv(wide, cols, quoted), len(wide)


def _wide(name: str, charts: list[tuple[str, dict, Columns]], key: tuple[str, ...],
          varying: tuple[str, ...]) -> tuple[Columns, list[dict[str, str]]]:
    """(the charts' rows side by side, each chart's column -> its name there). Their rows are
    numbered by key in numpy (codes.py), not as a tuple per row: x100, a comparison's five
    heatmaps give 20,000 rows, and the dict of key tuples and the loops per value were 1.3 s of
    the render stage's CPU."""
    names = charts[0][2].names
    if any(rows.names != names for _, _, rows in charts) or not set(key) | set(varying) <= set(names):
        raise ValueError(f"data file {name!r}: its charts' rows have different columns")
    if any(rows.has_none(varying[0]) for _, _, rows in charts):
        raise ValueError(f"data file {name!r}: a chart leaves {varying[0]!r} empty, which marks its rows")
    bounds = np.cumsum([0, *(len(rows) for _, _, rows in charts)]).tolist()
    joined = _joined_table(charts, key)
    if joined is not None:
        try:
            return _wide_table(name, charts, key, varying, joined, bounds)
        except pa.ArrowNotImplementedError:  # a type Arrow cannot compare: the lists' way
            pass
    joined = {c: [v for _, _, rows in charts for v in rows[c]] for c in names}  # chart after chart
    # Each row's place: its key's, in the order the charts first give the keys.
    place, found = keys([_codes(joined[c]) for c in key])
    at = _places(name, key, place, bounds)
    data, renamed = _side_by_side(
        names, charts, varying, lambda c: _objects(joined[c]), lambda _, values: _once(len(found), place, values),
        lambda n, values: _spread(len(found), at[n], values[bounds[n]:bounds[n + 1]]))
    return Columns(data), renamed


def _side_by_side(names: list[str], charts: list, varying: tuple[str, ...], values_of, once, spread) -> tuple[
        dict, list[dict[str, str]]]:
    """The wide file's columns: each column written once when `once(name, values)` gives it (no chart
    differs), else a column per chart, `spread(n, values)`: chart n's values at its rows' places.
    Returns (column name -> values, each chart's column -> its name there)."""
    data: dict = {}
    renamed: list[dict[str, str]] = [{} for _ in charts]
    for c in names:
        values = values_of(c)
        shared = None if c in varying else once(c, values)
        if shared is not None:
            data[c] = shared
            for r in renamed:
                r[c] = c
            continue
        for n, (suffix, _, _) in enumerate(charts):
            renamed[n][c] = f"{c}_{suffix}"
            data[renamed[n][c]] = spread(n, values)
    return data, renamed


def _places(name: str, key: tuple[str, ...], place: np.ndarray, bounds: list[int]) -> list[np.ndarray]:
    """Each chart's rows' places (its slice of `place`), no two of one chart at one key."""
    at = [place[a:b] for a, b in itertools.pairwise(bounds)]
    if any(where.size and np.bincount(where).max() > 1 for where in at):  # counted, not sorted
        raise ValueError(f"data file {name!r}: a chart has two rows of one {'/'.join(key)}: one would hide the other")
    return at


def _joined_table(charts: list[tuple[str, dict, Columns]], key: tuple[str, ...]) -> pa.Table | None:
    """The charts' tables one after the other, when every chart's rows are a table of one schema
    whose key columns hold text or whole numbers (keys Arrow tells apart as Python does); else None."""
    tables = [rows.table for _, _, rows in charts]
    if any(t is None or t.schema != tables[0].schema for t in tables):
        return None
    types = [tables[0].schema.field(c).type for c in key]
    if not all(pa.types.is_string(t) or pa.types.is_integer(t) for t in types):
        return None
    if any(pa.types.is_nested(f.type) or pa.types.is_dictionary(f.type) for f in tables[0].schema):
        return None  # compared value by value, as Python compares lists, structs and dictionaries' values
    return pa.concat_tables(tables).combine_chunks()


def _wide_table(name: str, charts: list[tuple[str, dict, Columns]], key: tuple[str, ...], varying: tuple[str, ...],
                joined: pa.Table, bounds: list[int]) -> tuple[Columns, list[dict[str, str]]]:
    """_wide of charts whose rows are tables, in Arrow: the same columns, each value taken from
    the row that gives it (x100, a comparison's five heatmaps: 20,000 rows of ten columns, which
    as Python values took a third of a campaign page's time)."""
    # the keys' places and first rows, with no tuple made of a key (only how many there are is read)
    place, first = places([codes_of(joined.column(c)) for c in key])
    found = len(first)
    at = _places(name, key, place, bounds)
    rows = [np.full(found, -1, dtype=np.int64) for _ in charts]  # each chart's row at each place, or -1
    for n, where in enumerate(at):
        rows[n][where] = np.arange(bounds[n], bounds[n + 1])
    # _firsts of every row, the rows of a column without nulls (most columns): read off the places
    every = (np.arange(found), first, np.delete(np.arange(len(place)), first))
    data, renamed = _side_by_side(
        joined.column_names, charts, varying, joined.column,
        # a key column's values are its place's by construction: taken, never compared
        lambda c, values: _once_arrow(found, place, values, every if values.null_count == 0 else None,
                                      compare=c not in key),
        lambda n, values: _taken(values, rows[n]))
    return Columns.of_arrow(pa.table(data)), renamed


def _taken(values: pa.ChunkedArray, rows: np.ndarray) -> pa.ChunkedArray:
    """values[rows], null where a row is -1."""
    return values.take(pa.array(rows, mask=rows < 0))


def _firsts(place: np.ndarray, given: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the places of these rows, each one's first row, the later rows)."""
    places, first = np.unique(place[given], return_index=True)
    return places, given[first], np.delete(given, first)


def _once_arrow(size: int, place: np.ndarray, values: pa.ChunkedArray,
                firsts: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                compare: bool = True) -> pa.ChunkedArray | None:
    """_once of a table's column: each place's first value given, when no later one differs.
    firsts: _firsts of the rows that give a value, when the caller has them (every row's, shared by
    the columns without nulls: x100, a sort of a comparison's 20,000 rows a column). compare=False:
    every value is its place's first by construction (a key column, of text or whole numbers)."""
    places, first, later = firsts or _firsts(place, np.flatnonzero(values.is_valid().to_numpy(zero_copy_only=False)))
    rows = np.full(size, -1, dtype=np.int64)
    rows[places] = first
    # later rows compared with the first value of their row (NaN: never equal)
    if compare and later.size and pc.any(pc.not_equal(values.take(later), values.take(rows[place[later]]))).as_py():
        return None
    return _taken(values, rows)


def _codes(values: list) -> tuple[np.ndarray, list]:
    """codes.codes_of a list: through Arrow when it holds text alone or numbers alone, which Arrow
    tells apart as Python does (1 and 1.0 one key), else value by value in a dict (bytes and text,
    dates and times, two NaNs: Arrow would take them for one key)."""
    kinds = set(map(type, values)) - {type(None)}
    if (kinds <= {str} or kinds <= {int, float}) and not (float in kinds and any(v != v for v in values)):
        try:
            return codes_of(pa.array(values))
        except (pa.ArrowException, OverflowError, UnicodeError):  # a huge int, a lone surrogate
            pass
    places: dict = {}
    codes = np.fromiter((places.setdefault(v, len(places)) for v in values), dtype=np.int64, count=len(values))
    return codes, list(places)


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _spread(size: int, where: np.ndarray, values: np.ndarray) -> list:
    out = np.full(size, None, dtype=object)
    out[where] = values
    return out.tolist()


def _once(size: int, place: np.ndarray, values: np.ndarray) -> list | None:
    """A column with each row's value, when no two charts give a row different ones (else None)."""
    given = np.flatnonzero(np.not_equal(values, None))
    places, first = np.unique(place[given], return_index=True)
    out = np.full(size, None, dtype=object)
    out[places] = values[given[first]]
    later = np.delete(given, first)  # compared with the first value of their row, as they come
    if np.not_equal(values[later], out[place[later]]).any():
        return None
    return out.tolist()


_DATUM = re.compile(r"datum\['([^']+)'\]")


def _renamed(node, fields: dict[str, str]):
    """A spec reading `fields`' new names: every `field` and every datum['…'] of our own tests
    (colours.py writes them so; contributed text is never an expression)."""
    if isinstance(node, dict):
        return {k: (fields.get(v, v) if k == "field" and isinstance(v, str)
                    else _DATUM.sub(lambda m: f"datum['{fields.get(m[1], m[1])}']", v) if k == "test"
                    else _renamed(v, fields)) for k, v in node.items()}
    return [_renamed(v, fields) for v in node] if isinstance(node, list) else node
