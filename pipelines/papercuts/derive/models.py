"""Stage 3: derived tables (rQPS, summaries), one SQL model per file, then the version ladders."""
from __future__ import annotations

import duckdb

from ..db import sql_files
from .ladders import build_ladders


def derive(con: duckdb.DuckDBPyConnection) -> list[str]:
    done = []
    for path in sql_files("models"):
        con.execute(path.read_text())
        done.append(path.stem)
    build_ladders(con)
    done.append("ladders")
    return done
