"""Stage 2 for calibrations: insert the checked calibration rows after the other tables."""
from __future__ import annotations

import duckdb

from ..contract import CALIBRATION_KEYS, CALIBRATION_TABLES, PRINTED

# Schema files (sql/schema/) whose tables this module fills; ingest.py leaves them alone.
CALIBRATION_SCHEMAS = ("calibrations",) + tuple(t.name for t in CALIBRATION_TABLES)


def ingest_calibrations(rows: dict[str, list], con: duckdb.DuckDBPyConnection, insert) -> None:
    """`rows`: every table's, as stored (canonical.py); `insert(con, table, columns, rows)` is
    tables.py's column-wise insert."""
    metas = rows.get("calibrations", [])
    columns = ["id", *CALIBRATION_KEYS, "file"]
    insert(con, "calibrations", columns,
           [{**{k: m.get(k) for k in columns}, "file": m["_published"]} for m in metas])
    for t in CALIBRATION_TABLES:
        columns = ["calibration", *(c.name for c in t.columns), f"{PRINTED[t.name]}_text", "file", "line"]
        insert(con, t.name, columns,
               [{**r, "file": r["_published"], "line": r["_line"]} for r in rows.get(t.name, [])])
