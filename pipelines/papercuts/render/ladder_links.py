"""Links to ladder pages, for the server and campaign pages that feed them."""
from __future__ import annotations

import duckdb

from ..contract import dbms_name
from ..paths import ladder_url
from .site_rows import rows_of


def ladder_title(server: str, dbms: str, threads: int) -> str:
    return f"{server}: {dbms_name(dbms)} at {threads} thread{'s' if threads != 1 else ''}"


def ladder_links(con: duckdb.DuckDBPyConnection, server: str | None = None,
                 campaign: str | None = None) -> list[dict]:
    """The ladder pages of one server, or those one campaign appears on, in page order."""
    rows = (rows_of(con, "ladder_links", "campaign", campaign) if campaign is not None
            else rows_of(con, "ladder_links", "server", server, keep=True))
    pages = dict.fromkeys((r["server"], r["dbms"], r["threads"]) for r in rows)  # a page once, in order
    return [{"title": ladder_title(*p), "url": ladder_url(*p)} for p in pages]
