"""Links to ladder pages, for the server and campaign pages that feed them."""
from __future__ import annotations

import duckdb

from ..contract import dbms_name
from ..db import fetch_dicts, query
from ..paths import ladder_url


def ladder_title(server: str, dbms: str, threads: int) -> str:
    return f"{server}: {dbms_name(dbms)} at {threads} thread{'s' if threads != 1 else ''}"


def ladder_links(con: duckdb.DuckDBPyConnection, server: str | None = None,
                 campaign: str | None = None) -> list[dict]:
    return [{"title": ladder_title(r["server"], r["dbms"], r["threads"]),
             "url": ladder_url(r["server"], r["dbms"], r["threads"])}
            for r in fetch_dicts(con, query("ladder_links"), {"server": server, "campaign": campaign})]
