"""Rows of unchanged campaigns, copied from the last build's database instead of converted again.

A build's database records what it was made of (the table build_inputs): a digest of Papercuts'
code with every input outside data/campaigns/, and the digest of each campaign folder
(validate/campaign_cache.folder_digest: its files, their places, the reading code). A campaign
whose folder has the same digest, in a database made of the same code and other inputs, has the
same rows in every table ingest fills; the next build copies them in DuckDB (10^6 rows at x100: 6 s
from Python, well under a second copied). Rows keep the clean build's order (campaigns in folder
order), and derive makes the models whose rows are each one campaign's for the changed campaigns
only and copies the rest likewise (derive/models.py PER_CAMPAIGN), so every derived table and page
is a clean build's (tests/test_incremental.py).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

from ..fingerprint import hash_tree
from ..paths import Paths

TABLE = "build_inputs"
CODE = Path(__file__).resolve().parents[1]  # the papercuts package: code, SQL
ALIAS = "previous"


def common_digest(paths: Paths) -> str:
    """What every campaign's rows depend on besides its own folder."""
    h = hashlib.sha256(b"papercuts-build-inputs 1\0")
    hash_tree(h, "code", CODE)
    hash_tree(h, "data", paths.data, skip="campaigns")
    return h.hexdigest()


def record(con: duckdb.DuckDBPyConnection, common: str, digests: dict[str, str]) -> None:
    con.execute(f"CREATE TABLE {TABLE} (campaign VARCHAR PRIMARY KEY, digest VARCHAR NOT NULL)")
    con.executemany(f"INSERT INTO {TABLE} VALUES (?, ?)", [("", common), *sorted(digests.items())])


def attach(con: duckdb.DuckDBPyConnection, db: Path, common: str, digests: dict[str, str]) -> set[str]:
    """Attach the last build's database (read-only) and return the campaigns whose rows it holds
    as this build would write them; none if it was made of other code or inputs, or is unreadable."""
    if not db.is_file():
        return set()
    try:
        con.execute(f"ATTACH '{str(db).replace(chr(39), chr(39) * 2)}' AS {ALIAS} (READ_ONLY)")
    except duckdb.Error:  # not a DuckDB file (a crash, a hand edit): nothing to copy
        return set()
    try:
        saved = dict(con.execute(f"SELECT campaign, digest FROM {ALIAS}.{TABLE}").fetchall())
    except duckdb.Error:  # a database from before the record, or another tool's
        saved = {}
    if saved.get("") != common:
        con.execute(f"DETACH {ALIAS}")
        return set()
    return {c for c, d in digests.items() if saved.get(c) == d}


def copy_rows(con: duckdb.DuckDBPyConnection, table: str, campaigns: list[str], source: str = ALIAS) -> None:
    """The rows of these campaigns (consecutive in folder order) from the table of that name in
    `source` (the last build's database, or a scratch schema), in their order there (rowid): read
    on several threads, a large table's row groups could come in another order (x100: a campaign's
    results in the middle of the table came first)."""
    con.execute(f"INSERT INTO {table} SELECT * FROM {source}.{table} WHERE campaign IN (SELECT unnest($1)) "
                "ORDER BY rowid", [campaigns])


def detach(con: duckdb.DuckDBPyConnection) -> None:
    if ALIAS in {name for (name,) in con.execute("SELECT database_name FROM duckdb_databases()").fetchall()}:
        con.execute(f"DETACH {ALIAS}")
