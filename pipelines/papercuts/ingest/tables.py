"""Stage 2: load the checked dataset into a fresh DuckDB file (explicit schemas, constraints)."""
from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from itertools import groupby
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

from ..contract import ALL_TABLES
from ..db import arrow_schema, insert_arrow, insert_columns, sql_files, table_name, tables_of
from ..problems import UserError
from ..validate.load import Dataset
from ..validate.plausibility import FLAGGED
from ..validate.raw import RAW_TABLES
from ..validate.rowblock import Block, Rows, parts
from . import blobs, previous
from .calibrations import CALIBRATION_SCHEMAS, ingest_calibrations
from .canonical import canonical, canonicalize

# The contract's tables of campaign rows, which a build may keep in a copy of the last database
# (previous.start; their references are checked once loaded: sql/checks/campaign_rows_references.sql).
# The raw outputs' tables are copied: kept in place, the rows a changed raw campaign left deleted
# in them grew the copy past a quarter more than a clean build's (test_incremental).
IN_PLACE = {t.name: previous.KEPT for t in ALL_TABLES if t.per_campaign}


CAMPAIGN_COLUMNS = ("id", "title", "source", "contributor", "date", "sysbench", "tables",
                    "rows_per_table", "duration_read_s", "duration_write_s", "base_build",
                    "base_config", "notes", "server", "raw_layout", "readme", "comparison_only", "file")


# A contributed row keeps where it was read under these keys; its table stores them as file, line.
PLACE = {"file": "_published", "line": "_line"}


def _guarded(insert):
    """An insert whose refusal by DuckDB (a CHECK constraint, a value its column cannot hold) is one
    line naming the table and the constraint: validate should have reported the value at its file
    and line first, so the row is a gap in it to report, not a traceback to read."""
    @functools.wraps(insert)
    def guarded(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows) -> None:
        try:
            insert(con, table, columns, rows)
        except (duckdb.ConstraintException, duckdb.ConversionException) as e:
            what = " ".join(str(e).split())
            raise UserError(f"the database refused a row of table {table}: {what} -- a value `papercuts check` "
                            "let through: please report this validator gap, with the data file that holds "
                            "the value") from None
    return guarded


@_guarded
def _insert(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows: list[dict]) -> None:
    if rows:
        insert_columns(con, table, columns, [[r.get(c) for r in rows] for c in columns])


# Rows held as dicts inserted at a time: their columns are held twice, as lists and as Arrow
# arrays, so a bounded number of them (when the x100 results were all lists, 250,000 at a time
# took the build's peak to about 1.0 GB, 100,000 to 0.8 GB; blocks, held as Arrow, need no chunks).
CHUNK = 100_000


@_guarded
def _insert_placed(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows) -> None:
    """As _insert, with file and line taken from where each row was read (no copy of a row); rows
    may hold blocks (validate/rowblock.py), whose Arrow columns are inserted as they are (their
    text as dictionaries), consecutive blocks in one insert: it holds no copy of their rows, and
    DuckDB writes an insert smaller than a row group through its log (x100, 10^6 results: a block
    at a time 2.8 s; 100,000 rows at a time 1.5 s; all at once 0.6-0.7 s)."""
    pending: list[pa.Table] = []
    schema = None

    def flush() -> None:
        if pending:
            insert_arrow(con, table, columns, pa.concat_tables(pending))
            pending.clear()

    for part in parts(rows):
        if isinstance(part, Block):
            schema = schema or _dictionaries(arrow_schema(con, table, columns))
            block = _block_table(part, columns, schema)
            if block is None:  # a column Arrow cannot give as the table's type: as Python values
                flush()
                insert_columns(con, table, columns, [_block_column(part, c) for c in columns])
            else:
                pending.append(block)
            continue
        flush()
        for start in range(0, len(part), CHUNK):
            chunk = part[start:start + CHUNK]
            insert_columns(con, table, columns, [[r.get(PLACE.get(c, c)) for r in chunk] for c in columns])
    flush()


def _dictionaries(schema: pa.Schema) -> pa.Schema:
    """The table's Arrow types, a text as a dictionary (as a block holds it: DuckDB reads it as
    text, each distinct value once)."""
    text = pa.dictionary(pa.int32(), pa.string())
    return pa.schema([pa.field(f.name, text) if pa.types.is_string(f.type) else f for f in schema])


def _block_table(block: Block, columns: list[str], schema: pa.Schema) -> pa.Table | None:
    """A block's rows with their file and line, each column cast to the table's Arrow type (a
    whole number checked to fit), or None when one cannot be."""
    try:
        arrays = [_block_array(block, c).cast(schema.field(c).type) for c in columns]
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
        return None
    return pa.Table.from_arrays(arrays, schema=schema)


def _block_array(block: Block, column: str) -> pa.Array:
    if column in ("file", "campaign"):  # one value: a dictionary of it, not each row's text encoded
        return _same(block.published if column == "file" else block.campaign, block.n)
    if column == "line":
        return pa.array(np.arange(2, block.n + 2, dtype=np.int64))
    return block.arrow(column)


def _same(text: str, n: int) -> pa.DictionaryArray:
    """`text` on n rows, as the table's text columns are inserted (_dictionaries): x100, a block's
    table took 0.68 ms so and 1.11 ms with the text repeated and then encoded (0.65 ms of it for
    the file and the campaign), 52 blocks on the load's longest path."""
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, dtype=np.int32)), pa.array([text], pa.string()))


def _block_column(block: Block, column: str) -> list:
    if column == "file":
        return [block.published] * block.n
    if column == "line":
        return list(range(2, block.n + 2))
    return block.column(column)


def _runs(rows) -> list[tuple[str, list]]:
    """(campaign, its rows) in order, a block standing for its rows."""
    runs: list[tuple[str, list]] = []
    for part in parts(rows):
        items = [(part.campaign, part)] if isinstance(part, Block) else [
            (campaign, list(rs)) for campaign, rs in groupby(part, key=lambda r: r["campaign"])]
        for campaign, item in items:
            if runs and runs[-1][0] == campaign:
                runs[-1][1].append(item)
            else:
                runs.append((campaign, [item]))
    return runs


def _by_campaign(con: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows,
                 insert, last: previous.Last) -> None:
    """A per-campaign table's rows: the kept campaigns' from the last build's database (in place,
    or copied: previous.py), then the others' inserted from their checked rows, campaign by
    campaign as they were read."""
    runs = _runs(rows) if last.kept else []
    if not runs or len({campaign for campaign, _ in runs}) < len(runs):  # a campaign's rows apart
        last.clear(con, table)
        insert(con, table, columns, rows)
        return
    last.take(con, table)
    changed = Rows()
    for campaign, items in runs:
        if campaign not in last.kept:
            for item in items:
                changed.extend(item)
    insert(con, table, columns, changed)


def _ingest_raw(rows: dict[str, list], con: duckdb.DuckDBPyConnection, last: previous.Last) -> None:
    """Rows parsed from raw outputs (load_raw.py) hold every column of their table under its name
    (file columns are already published paths), so the schema files say what is inserted."""
    for name in RAW_TABLES:
        columns = [c[0] for c in con.execute(f"SELECT * FROM {name} LIMIT 0").description]
        _by_campaign(con, name, columns, rows.get(name, []), _insert,
                     last if "campaign" in columns else previous.NOTHING)


def check_loaded(con: duckdb.DuckDBPyConnection) -> None:
    """Constraints checked over whole tables once they are loaded (sql/checks/: each query returns
    the rows that break one). Validate reports such rows to the contributor first, so a row here
    is Papercuts' bug: a RuntimeError, not a contributor's error."""
    for path in sql_files("checks"):
        bad = con.execute(path.read_text()).fetchall()
        if bad:
            raise RuntimeError(f"sql/checks/{path.name}: {bad}")


def ingest(ds: Dataset, con: duckdb.DuckDBPyConnection, store: Path | None,
           last: previous.Last = previous.NOTHING, common: str = "") -> None:
    """Load the checked dataset, and the contributed files' bytes into the folder `store` (none: a
    database to query, not to publish from; ingest/blobs.py). With `common`
    (previous.common_digest) and every campaign's folder digest, the database records what it is
    made of; the rows of campaigns unchanged since the last build (`last`: previous.start) are
    taken from its database (derive takes their rows of the per-campaign models and their ladders
    too; previous.detach after it). The build runs the same steps apart: blobs.put and load while
    validate's checks run, finish after them (build._Database)."""
    # The files' bytes are written on a thread while the rows are inserted: both wait on something
    # other than Python (the disk, DuckDB); at x100 they took 0.7-0.8 s and 0.9-1.3 s one after the
    # other, 1.16-1.42 s together. Joined before ingest returns or raises: render forks only with no
    # thread. A failed write is raised once the rows are in.
    with ThreadPoolExecutor(1, thread_name_prefix="blobs") as writer:
        written = writer.submit(blobs.put, store, blobs.files(ds.rows)) if store is not None else None
        load(ds, con, last)
        if written is not None:
            written.result()  # its error, if any
    finish(ds, con, common)


def load(ds: Dataset, con: duckdb.DuckDBPyConnection, last: previous.Last = previous.NOTHING) -> None:
    """Every table but flagged_results (validate's checks fill ds.flagged), its rows as stored
    (canonical) with ds left as it is: this may run while the checks read ds."""
    metas, rows = canonical(ds)
    _ingest_rows(metas, rows, con, last)


def finish(ds: Dataset, con: duckdb.DuckDBPyConnection, common: str = "") -> None:
    """Once the checks are done and load is: their flagged results, the metas' servers as stored,
    the loaded tables checked and, with `common`, what the database is made of."""
    canonicalize(ds)
    _insert(con, "flagged_results", list(FLAGGED), [dict(zip(FLAGGED, f, strict=True)) for f in ds.flagged])
    check_loaded(con)
    if common and len(ds.digests) == len(ds.campaigns):
        previous.record(con, common, ds.digests)


def create(con: duckdb.DuckDBPyConnection) -> None:
    """The contract's tables the database lacks: every one in a new database, those a copy of the
    last one dropped (ingest/previous.py), none once made (build._Database: as the campaigns are
    read)."""
    there = tables_of(con)
    for path in sql_files("schema"):
        if table_name(path) not in there:
            con.execute(path.read_text())


def _ingest_rows(metas: list[dict], rows: dict[str, list], con: duckdb.DuckDBPyConnection,
                 last: previous.Last) -> None:
    create(con)
    order = [table_name(p) for p in sql_files("schema")]
    for name in order:
        if name in CALIBRATION_SCHEMAS:
            continue  # filled by ingest_calibrations below
        if name in RAW_TABLES:
            continue  # filled by _ingest_raw below
        if name == "flagged_results":
            continue  # filled by finish
        if name == "campaigns":
            _insert(con, "campaigns", list(CAMPAIGN_COLUMNS),
                    [{**{k: m.get(k) for k in CAMPAIGN_COLUMNS}, "file": m["_published"]} for m in metas])
            continue
        table = next(t for t in ALL_TABLES if t.name == name)
        columns = [c.name for c in table.columns]
        if name == "builds":
            columns.append("version_key")
        if name == "observations":
            columns.append("value_text")
        if table.per_campaign:
            columns = ["campaign", *columns, "file", "line"]
        if table.per_campaign:
            _by_campaign(con, name, columns, rows[name], _insert_placed, last)
        else:
            _insert_placed(con, name, columns, rows[name])
    ingest_calibrations(rows, con, _insert)
    _ingest_raw(rows, con, last)
