"""`papercuts export TABLE --out FILE`: derived tables for other engines, from the same checked data.

CSV or Parquet by the file's extension; an --out ending in `/` is a folder of Hive-partitioned
Parquet (`server=<id>/dbms=<dbms>/*.parquet`) that DuckDB, Spark or Trino read from object
storage. The SQL of each table is in sql/exports/.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from .db import SQL
from .derive.models import derive
from .ingest.tables import ingest
from .paths import Paths
from .problems import UserError

TABLES = tuple(sorted(p.stem for p in (SQL / "exports").glob("*.sql")))


def export(paths: Paths, table: str, out: str) -> tuple[Path, int]:
    """Write one table; returns where and how many rows."""
    from .build import validate

    if table not in TABLES:
        raise UserError(f"unknown table '{table}'; export one of: {', '.join(TABLES)}")
    partitioned = out.endswith("/")
    target = Path(out)
    if not partitioned and target.suffix not in (".csv", ".parquet"):
        raise UserError(f"--out {out}: name a .csv or .parquet file, or a folder ending in / for Parquet "
                        "partitioned by server and DBMS")
    ds, problems = validate(paths)
    if problems.errors:
        raise UserError(f"{len(problems.errors)} error(s) in {paths.rel(paths.data)}", problems.sorted())
    con = duckdb.connect()
    ingest(ds, con, None)
    derive(con)
    sql = (SQL / "exports" / f"{table}.sql").read_text().strip().rstrip(";")
    rows = con.execute(f"SELECT count(*) FROM ({sql})").fetchone()[0]
    # Written beside the target and moved in whole, so a failed export leaves no half file.
    staging = target.with_name(f".{target.name or 'export'}.partial")
    shutil.rmtree(staging, ignore_errors=True) if staging.is_dir() else staging.unlink(missing_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    if partitioned:
        options = "FORMAT parquet, PARTITION_BY (server, dbms)"
    elif target.suffix == ".parquet":
        options = "FORMAT parquet"
    else:
        options = "FORMAT csv, HEADER true"
    con.execute(f"COPY ({sql}) TO '{_quoted(staging)}' ({options})")
    con.close()
    if target.is_dir():
        shutil.rmtree(target)
    staging.replace(target)
    return target, rows


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
