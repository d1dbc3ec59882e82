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
from .problems import Problem, UserError

TABLES = tuple(sorted(p.stem for p in (SQL / "exports").glob("*.sql")))


def export(paths: Paths, table: str, out: str) -> tuple[Path, int]:
    """Write one table; returns where and how many rows."""
    from .build import validate

    if table not in TABLES:
        raise UserError(f"unknown table '{table}'; export one of: {', '.join(TABLES)}")
    partitioned = out.endswith("/")
    target = Path(out).resolve()  # './' is the folder it names, not '.'
    if not partitioned and target.suffix not in (".csv", ".parquet"):
        raise UserError(f"--out {out}: name a .csv or .parquet file, or a folder ending in / for Parquet "
                        "partitioned by server and DBMS")
    _check_target(paths, out, target, partitioned)
    ds, problems = validate(paths)
    if problems.errors:
        raise UserError(f"{len(problems.errors)} error(s) in {paths.rel(paths.data)}", problems.sorted())
    con = duckdb.connect()
    ingest(ds, con, None)
    derive(con)
    sql = (SQL / "exports" / f"{table}.sql").read_text().strip().rstrip(";")
    rows = con.execute(f"SELECT count(*) FROM ({sql})").fetchone()[0]
    if partitioned:
        options = "FORMAT parquet, PARTITION_BY (server, dbms)"
    elif target.suffix == ".parquet":
        options = "FORMAT parquet"
    else:
        options = "FORMAT csv, HEADER true"
    # Written beside the target and moved in whole, so a failed export leaves no half file.
    staging = target.with_name(f".{target.name}.partial")
    try:
        _remove(staging)
        target.parent.mkdir(parents=True, exist_ok=True)
        con.execute(f"COPY ({sql}) TO '{_quoted(staging)}' ({options})")
        if target.is_dir():
            shutil.rmtree(target)
        staging.replace(target)
    except (OSError, duckdb.IOException) as e:
        _remove(staging)
        raise UserError(f"--out {out}: cannot write there ({str(e).splitlines()[0]})") from None
    finally:
        con.close()
    return target, rows


def _check_target(paths: Paths, out: str, target: Path, partitioned: bool) -> None:
    if clash := _clash(paths, target, partitioned):
        raise UserError(f"--out {out} {clash}", [Problem(
            out, 1, 1, "error", f"exporting there would replace it: --out {clash}",
            "export to a new or empty folder of its own, or to a .csv or .parquet file outside the data")])


def _clash(paths: Paths, target: Path, partitioned: bool) -> str | None:
    """Why an export may not replace `target`, or None: an export replaces only what an export
    writes, never the data, the project or a folder holding anything else (it removed a whole data
    folder given as --out, and a notes file beside a partitioned export)."""
    if target.is_relative_to(paths.data):
        return "is the data folder or inside it"
    if paths.data.is_relative_to(target):
        return "contains the data folder"
    if paths.project.is_relative_to(target):
        return "contains the project"
    if target.is_dir() and not partitioned:
        return "is a folder (a file is named: end the name with / for a partitioned folder)"
    if target.is_dir():
        foreign = next((p.relative_to(target) for p in target.rglob("*") if not _exported(p, target)), None)
        return f"holds files an export did not write, such as {foreign.as_posix()}" if foreign else None
    return "is a file, not a folder" if partitioned and target.exists() else None


def _exported(path: Path, root: Path) -> bool:
    """Part of what a partitioned export writes: server=<id>/dbms=<name>/<file>.parquet."""
    parts = path.relative_to(root).parts
    names = ("server=", "dbms=")
    return (all(part.startswith(name) for part, name in zip(parts[:2], names, strict=False))
            and (len(parts) < 3 or (len(parts) == 3 and path.suffix == ".parquet" and path.is_file())))


def _remove(path: Path) -> None:
    try:
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    except OSError:
        pass  # not there, or nowhere it could be (a file where its folder would be)


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
