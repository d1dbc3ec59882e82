"""Rows of unchanged campaigns, taken from the last build's database instead of converted again.

A build's database records what it was made of (the table build_inputs): a digest of Papercuts'
code with every input outside data/campaigns/, and the digest of each campaign folder
(validate/campaign_cache.folder_digest: its files, their places, the reading code). A campaign
whose folder has the same digest, in a database made of the same code and other inputs, has the
same rows in every table ingest fills; the next build takes them from the last database instead.
Derive makes the models whose rows are each one campaign's for the changed campaigns only and
takes the rest likewise (derive/models.py PER_CAMPAIGN), so every derived row and page is a
clean build's (tests/test_incremental.py).

Campaign rows are stored campaign by campaign, each campaign's rows in a clean build's order, but
the campaigns' blocks in any order: a clean build writes them in folder order, an incremental
build keeps the unchanged campaigns' blocks where they are and appends the changed ones. Nothing
the build reads depends on that order (every query orders its rows totally by their values, and
an aggregate adds one campaign's rows, in their order; tests/test_incremental.py builds a site
from campaigns stored in reverse), so a campaign dated before every other costs what a new one
dated last does (x100: copying the kept rows behind it took 2.0-2.1 s of a 6.2 s rebuild when
blocks were kept in folder order).

Two ways to take them (`start` chooses):
- seeded: the new database begins as a copy of the last one (a file copy: x100 0.03 s), made
  with every other table dropped (made again by this build) while the campaigns are read
  (`prepare`). Its tables of campaign rows (IN_PLACE) keep the kept campaigns' rows where they
  are; the rows of changed or removed campaigns are deleted. The changed campaigns' rows are
  made again and appended.
- copied: when most rows changed, or much of the last database is free space, the database begins
  empty and the kept campaigns' rows are copied from the last one, attached read-only
  (copy_rows), before the changed ones' (SEED_SHARE, MAX_FREE).
"""
from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from .. import fingerprint
from ..db import query, tables_of
from ..fingerprint import hash_tree
from ..paths import Paths

TABLE = "build_inputs"
CODE = Path(__file__).resolve().parents[1]  # the papercuts package: code, SQL
ALIAS = "previous"
# A build starts from a copy of the last database when the campaigns it keeps hold at least this
# share of that database's contributed rows (sql/queries/campaign_rows.sql), and at most MAX_FREE
# of the file is free: else deleting most rows costs more than copying the few kept, and the copy
# keeps the space deleted rows left (x40, 24 of 48 campaigns changed, 95 % of the rows: seeded
# 21-29 s and 85 MB, copied 17-20 s and 73 MB, a clean build 52 MB; 16 of its 20 large campaigns
# removed, every later copy stayed at 1.6x a clean build's size). Starting empty compacts the file.
SEED_SHARE = 0.5
MAX_FREE = 0.25
# The condition on the kept rows of a table of campaign rows (its `in_place` entry: start).
KEPT = "campaign IN (SELECT unnest($kept::VARCHAR[]))"


def common_digest(paths: Paths) -> str:
    """What every campaign's rows depend on besides its own folder."""
    h = hashlib.sha256(b"papercuts-build-inputs 1\0")
    h.update(fingerprint.toolchain())  # a database of another DuckDB's is not copied
    hash_tree(h, "code", CODE)
    hash_tree(h, "data", paths.data, skip="campaigns")
    return h.hexdigest()


@dataclass(frozen=True)
class Last:
    """What a build takes from the last build's database: the campaigns whose rows it keeps, and
    the tables that hold those rows already (a seeded database; none when they are copied)."""

    kept: frozenset[str] = frozenset()
    placed: frozenset[str] = frozenset()

    def take(self, con: duckdb.DuckDBPyConnection, table: str, source: str = ALIAS) -> None:
        """The kept campaigns' rows of `table`, copied from the last database unless in place."""
        if self.kept and table not in self.placed:
            copy_rows(con, table, sorted(self.kept), source)

    def clear(self, con: duckdb.DuckDBPyConnection, table: str) -> None:
        """Before a table's rows are all inserted again (its campaigns' rows not consecutive): a
        seeded one's kept rows go too."""
        if table in self.placed:
            con.execute(f"DELETE FROM {table}")


NOTHING = Last()  # a clean build's


def record(con: duckdb.DuckDBPyConnection, common: str, digests: dict[str, str]) -> None:
    con.execute(f"CREATE TABLE {TABLE} (campaign VARCHAR PRIMARY KEY, digest VARCHAR NOT NULL)")
    rows = [("", common), *sorted(digests.items())]  # one statement: executemany took 0.07 s for 82 rows
    con.execute(f"INSERT INTO {TABLE} SELECT unnest($1), unnest($2)", [[c for c, _ in rows], [d for _, d in rows]])


@dataclass
class Seed:
    """The last build's database as a build finds it before its campaigns are read (prepare): what
    it records (`saved`: each campaign's digest, "" the common one; `rows`: each campaign's
    contributed rows) and, when it may seed the new one, a copy of it at the new one's path,
    connected (`con`), every table but those that may keep rows in place (`placed`) dropped."""

    saved: dict[str, str] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    con: duckdb.DuckDBPyConnection | None = None
    placed: list[str] = field(default_factory=list)
    fresh: bool = False  # `con` is the new database begun empty, no copy (empty)

    @property
    def copy(self) -> bool:
        """Whether `con` is a copy of the last database, which may seed the new one."""
        return self.con is not None and not self.fresh

    def discard(self, db: Path) -> None:
        """The copy closed and removed (the new database begins empty)."""
        if self.con is not None:
            self.con.close()
            self.con = None
            for leftover in (db, Path(f"{db}.wal")):
                leftover.unlink(missing_ok=True)


def prepare(db: Path, last: Path | None, common: str, in_place: dict[str, str]) -> Seed:
    """What `start` needs of the last database `last` that no campaign's digest decides, made while
    the campaigns are read (build._Database.prepare: x100, one campaign added, the new database's
    thread took 0.33-0.40 s once they were read, 0.19-0.20 s so): its record, and the copy it seeds, when it was made
    of the same code and other inputs (`common`), closed (no log to copy beside it) and at most
    MAX_FREE free space. Whether its kept campaigns hold SEED_SHARE of its rows is start's to say."""
    if not common or last is None or not last.is_file():
        return Seed()
    try:
        con = duckdb.connect(str(last), read_only=True)
    except duckdb.Error:  # not a DuckDB file (a crash, a hand edit): nothing to take
        return Seed()
    try:
        saved = dict(con.execute(f"SELECT campaign, digest FROM {TABLE}").fetchall())
        rows = dict(con.execute(query("campaign_rows")).fetchall())
        free, total = con.execute("SELECT free_blocks, total_blocks FROM pragma_database_size() "
                                  "WHERE database_name = current_database()").fetchone()
    except duckdb.Error:  # a database from before the record, or another tool's
        return Seed()
    finally:
        con.close()
    if saved.get("") != common:
        return Seed()
    seed = Seed(saved, rows)
    if free <= MAX_FREE * total and not Path(f"{last}.wal").exists():
        shutil.copyfile(last, db)
        seed.con = duckdb.connect(str(db))
        try:
            seed.placed = _drop(seed.con, in_place)
            # The dropped tables' blocks are free once checkpointed: the tables made again reuse
            # them (else each copy grew: x10, 34 MB clean, 62-64 MB seeded; 36-38 MB so)
            seed.con.execute("CHECKPOINT")
        except BaseException:
            seed.discard(db)
            raise
    return seed


def empty(seed: Seed, db: Path, make: Callable[[duckdb.DuckDBPyConnection], None]) -> Seed:
    """`seed` if it holds a copy that may seed the new database; else the new database begun
    empty (`make` makes its tables), what the last one records kept: a clean build, or one that
    copies the kept campaigns' rows into an empty database, need not wait for it."""
    if seed.copy:
        return seed
    con = duckdb.connect(str(db))
    try:
        make(con)
    except BaseException:
        con.close()
        raise
    return Seed(seed.saved, seed.rows, con, fresh=True)


def start(db: Path, last: Path | None, seed: Seed, digests: dict[str, str], order: list[str],
          in_place: dict[str, str]) -> tuple[duckdb.DuckDBPyConnection, Last]:
    """The new database `db`, connected, and what it takes from the last build's `last`, as
    `seed` found it (prepare, then empty: nothing when it was made of other code or inputs, or
    is unreadable); the last database is attached (ALIAS) whenever a campaign is kept, seeded or
    not (tables with a FOREIGN KEY are copied from it either way).

    `order`: the campaigns, each with a digest in `digests`; `in_place`: the tables whose rows are
    each one campaign's, each with the condition its kept rows meet (SQL over $kept, the kept
    campaigns), in an order the conditions allow (one may read a table in place before it)."""
    kept, seeded = _choose(seed, digests) if len(digests) == len(order) else (set(), False)
    if not seeded and not seed.fresh:
        seed.discard(db)
        seed = Seed(con=duckdb.connect(str(db)))
    try:
        if seeded:
            _prune(seed.con, kept, {t: in_place[t] for t in seed.placed}, set(seed.saved) - {"", *kept})
        if kept:
            seed.con.execute(f"ATTACH '{_literal(last)}' AS {ALIAS} (READ_ONLY)")
    except BaseException:
        seed.con.close()
        raise
    return seed.con, Last(frozenset(kept), frozenset(seed.placed))


def _choose(seed: Seed, digests: dict[str, str]) -> tuple[set[str], bool]:
    """The campaigns whose rows the last database (`seed`: prepare) holds as this build would write
    them, and whether the build starts from its copy: when there is one and they hold at least
    SEED_SHARE of its rows."""
    kept = {c for c, d in digests.items() if seed.saved.get(c) == d}
    weight = {c: seed.rows.get(c, 0) for c in seed.saved if c}  # every campaign it holds: removed ones too
    whole = sum(weight.values())
    share = sum(weight[c] for c in kept) / whole if whole else len(kept) / max(1, len(weight))
    return kept, bool(kept) and share >= SEED_SHARE and seed.copy


def _drop(con: duckdb.DuckDBPyConnection, in_place: dict[str, str]) -> list[str]:
    """In a copy of the last database: every table goes but those of `in_place` that name no other
    (made again by this build), a table before those it names. A table with a FOREIGN KEY is
    never in place: it cannot outlive the tables it names (DuckDB neither drops a table another
    names nor drops a constraint). Returns the tables that stay."""
    tables = tables_of(con)
    names: dict[str, set[str]] = {t: set() for t in tables}
    for table, named in con.execute("SELECT table_name, referenced_table FROM duckdb_constraints() "
                                    "WHERE constraint_type = 'FOREIGN KEY' AND database_name = current_database() "
                                    "AND schema_name = 'main'").fetchall():
        names[table].add(named)
    placed = [t for t in in_place if t in tables and not names[t]]
    gone = tables - set(placed)
    while gone:
        free = sorted(t for t in gone if not any(t in names[other] for other in gone if other != t))
        if not free:
            raise RuntimeError(f"tables that name each other: {sorted(gone)}")
        for table in free:
            con.execute(f"DROP TABLE {table}")
        gone -= set(free)
    return placed


def _prune(con: duckdb.DuckDBPyConnection, kept: set[str], in_place: dict[str, str], gone: set[str]) -> None:
    """In a copy of the last database whose other tables are dropped (_drop): the rows of the
    `kept` campaigns of the tables in place stay, in their order; the rows of its campaigns that
    are `gone` (changed or removed) go. None when campaigns were only added (x100: the deletes
    and their checkpoint took 0.08 s of a rebuild's longest path, deleting nothing)."""
    if not gone:
        return
    for table, where in in_place.items():
        con.execute(f"DELETE FROM {table} WHERE NOT ({where})", {"kept": sorted(kept)} if "$kept" in where else {})
    con.execute("CHECKPOINT")  # as after the drops


def _literal(path: Path) -> str:
    return str(path).replace("'", "''")


def copy_rows(con: duckdb.DuckDBPyConnection, table: str, campaigns: list[str], source: str = ALIAS) -> None:
    """The rows of these campaigns from the table of that name in `source` (the last build's
    database, or a scratch schema), in their order there (rowid): read
    on several threads, a large table's row groups could come in another order (x100: a campaign's
    results in the middle of the table came first)."""
    con.execute(f"INSERT INTO {table} SELECT * FROM {source}.{table} WHERE campaign IN (SELECT unnest($1)) "
                "ORDER BY rowid", [campaigns])


def detach(con: duckdb.DuckDBPyConnection) -> None:
    if ALIAS in {name for (name,) in con.execute("SELECT database_name FROM duckdb_databases()").fetchall()}:
        con.execute(f"DETACH {ALIAS}")
