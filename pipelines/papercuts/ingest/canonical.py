"""Stage 2a: the checked dataset in the form DuckDB stores. Validation only reports; the two
rewrites the tables need happen here: a server named by an alias becomes its id, and every build
version gets the sort key that orders versions as versions (8.0.9 < 8.0.28), never as strings.

`canonical` leaves the dataset as validate read it: the build inserts the rows on a thread while
validate's checks still read them (build._Database), so a row or block it rewrites is a copy."""
from __future__ import annotations

import pyarrow as pa

from ..validate.load import Dataset
from ..validate.rowblock import Block, Rows, as_list, parts
from ..versions import parse_version

SERVER_ROWS = ("results", "relative", "summaries", "counters", "profiles")


def canonical(ds: Dataset) -> tuple[list[dict], dict[str, list]]:
    """(the campaigns' metas, every table's rows) as stored: what is unchanged is ds's own."""
    alias_of = ds.alias_of
    rows = dict(ds.rows)
    for name in SERVER_ROWS:
        if name in rows:
            rows[name] = _servers(rows[name], alias_of)
    if "calibrations" in rows:
        rows["calibrations"] = [_meta(m, alias_of) for m in rows["calibrations"]]
    rows["builds"] = [{**row, "version_key": list(parse_version(row["version"]))} for row in rows["builds"]]
    return [_meta(m, alias_of) for m in ds.campaigns], rows


def canonicalize(ds: Dataset) -> None:
    """The metas' servers as stored, in ds itself: once its checks are done (what reads ds after
    ingest sees the ids, as the database does)."""
    alias_of = ds.alias_of
    for meta in ds.campaigns + ds.rows.get("calibrations", []):
        if meta.get("server") in alias_of:
            meta["server"] = alias_of[meta["server"]]


def _meta(meta: dict, alias_of: dict[str, str]) -> dict:
    return {**meta, "server": alias_of[meta["server"]]} if meta.get("server") in alias_of else meta


def _servers(rows, alias_of: dict[str, str]):
    """A table's rows with each alias in column server replaced by its id."""
    if not alias_of:
        return rows
    out = []
    for part in parts(rows):
        if isinstance(part, Block):  # a plain file's rows, as columns
            if "server" in part.columns and alias_of.keys() & part.distinct("server"):
                part = part.with_column("server", pa.array([alias_of.get(s, s) for s in
                                                            as_list(part.columns["server"])]))
            out.append(part)
        else:
            out.append([{**row, "server": alias_of[row["server"]]} if row.get("server") in alias_of else row
                        for row in part])
    if not isinstance(rows, Rows):
        return out[0]
    held = Rows()
    for part in out:
        held.extend(part)
    return held
