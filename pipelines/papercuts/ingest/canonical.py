"""Stage 2a: the checked dataset in the form DuckDB stores. Validation only reports; the two
rewrites the tables need happen here: a server named by an alias becomes its id, and every build
version gets the sort key that orders versions as versions (8.0.9 < 8.0.28), never as strings."""
from __future__ import annotations

from ..validate.load import Dataset
from ..validate.rowblock import Block, parts
from ..versions import parse_version

SERVER_ROWS = ("results", "relative", "summaries", "counters", "profiles")


def canonicalize(ds: Dataset) -> None:
    alias_of = ds.alias_of
    for name in SERVER_ROWS:
        for part in parts(ds.rows.get(name, [])):
            if isinstance(part, Block):  # a plain file's rows, as columns
                if "server" in part.columns and alias_of.keys() & part.distinct("server"):
                    part.replace("server", [alias_of.get(s, s) for s in part.column("server")])
                continue
            for row in part:
                if row.get("server") in alias_of:
                    row["server"] = alias_of[row["server"]]
    for meta in ds.campaigns + ds.rows.get("calibrations", []):
        if meta.get("server") in alias_of:
            meta["server"] = alias_of[meta["server"]]
    for row in ds.rows["builds"]:
        row["version_key"] = list(parse_version(row["version"]))
