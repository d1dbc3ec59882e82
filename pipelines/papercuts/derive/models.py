"""Stage 3: derived tables (rQPS, summaries), one SQL model per file, then the version ladders."""
from __future__ import annotations

from pathlib import Path

import duckdb

from ..db import on_threads, sql_files, table_name
from ..ingest import previous
from . import ladders
from .ladders import build_ladders

# Models made on every core: their rows are ordered in full (ORDER BY to the last tie) and they
# add no floats (measured_qps adds a variant's repetitions as an ordered list), so no thread's
# timing can change a value or a row's place. The others run on one
# thread: a parallel aggregate adds a group's floats in the order its threads finish, so avg() and
# regr_*() could differ in the last bit from one build to the next (the shipped data's
# rqps_summary did, and its summary charts' CSVs with it).
ALL_CORES = ("measured_qps", "ladder_variants", "rqps", "file_rows", "server_variants", "variant_groups")
# The model after which the ladders are searched (and stored: ladders.Search), beside the models
# after it: the ladders' values (03_*, 04_*), so that rqps, the largest, is made beside the search.
# Searched after rqps, the search and its inserts were the longest path once the models after rqps
# took less than it (x100: 0.75 s and 0.2 s of a thread against 0.45 s of models); beside rqps
# the x100 build's peak is 0.70 GB, not 0.61 GB (the values held while rqps is made), and 0.73-0.75
# GB, not 0.63-0.69, with the values read on the search's thread, beside the models too. Those made
# on one thread that do not read rqps come first (05_* to 13_*), beside the search's one thread,
# and rqps (14_*, on every core) after them: once the search ends, what is left has both cores.
SEARCH_AFTER = "ladder_values"

# Models whose every row belongs to one campaign and is made from that campaign's rows of SOURCES
# or of the PER_CAMPAIGN models before it (with tables every campaign shares), stored campaign by
# campaign (ORDER BY campaign, ...). An incremental build makes them for the changed campaigns only,
# appended after the other campaigns' rows, which it keeps from the last build's database: at x100
# with one campaign added, measured_qps, ladder_values and rqps were 2.1 s of the 2.9 s the models
# took, comparisons 0.23 s (0.03 s so), and campaign_bases, rqps_summary and op_costs, which read
# every result or rQPS for a few rows each, 0.13-0.20 s, 0.2-0.38 s and 0.12-0.13 s of a 0.8 s derive.
PER_CAMPAIGN = ("campaign_bases", "measured_qps", "ladder_variants", "rqps", "rqps_summary", "op_costs", "comparisons",
                "file_rows", "server_variants", "variant_groups", "comparison_costs", "cost_variants")
SOURCES = ("results", "relative", "summaries", "observations", "counters")
# The tables of campaign rows a build may keep in a copy of the last database (previous.start).
IN_PLACE = {**{name: previous.KEPT for name in PER_CAMPAIGN}, **ladders.IN_PLACE}
FRESH = "fresh"  # the scratch schema the changed campaigns' rows are made in


def derive(con: duckdb.DuckDBPyConnection, last: previous.Last = previous.NOTHING) -> list[str]:
    """Every derived table; the rows of `last.kept` campaigns (unchanged since the last build:
    previous.start) in PER_CAMPAIGN models and the ladders are taken from its database."""
    kept = last.kept
    with on_threads(con, 1) as cores:
        campaigns = [c for (c,) in con.execute("SELECT id FROM campaigns ORDER BY id").fetchall()]
        if kept:
            _fresh_sources(con, [c for c in campaigns if c not in kept])
        done = []
        search = None
        try:
            for path in sql_files("models"):
                name = table_name(path)
                with on_threads(con, cores if name in ALL_CORES else 1):
                    if kept and name in PER_CAMPAIGN:
                        _per_campaign(con, path, last, cores)
                    else:
                        con.execute(path.read_text())
                done.append(path.stem)
                if name == SEARCH_AFTER:  # the ladders are searched while the later models are made
                    search = ladders.Search(con, None, last)  # its values read beside the models too
            if kept:
                con.execute(f"DROP SCHEMA {FRESH} CASCADE")
        except BaseException:
            if search is not None:  # no thread left behind: a process forks workers only with none
                search.join()
            raise
        build_ladders(con, cores, last, search)
        done.append("ladders")
        return done


def _fresh_sources(con: duckdb.DuckDBPyConnection, changed: list[str]) -> None:
    """The changed campaigns' rows of SOURCES in their order, in the scratch schema: a model's rows
    of a campaign made from them come in a clean build's order."""
    con.execute(f"CREATE SCHEMA {FRESH}")
    for table in SOURCES:
        con.execute(f"CREATE TABLE {FRESH}.{table} AS SELECT * FROM main.{table} "
                    "WHERE campaign IN (SELECT unnest($1)) ORDER BY rowid", [changed])


def _per_campaign(con: duckdb.DuckDBPyConnection, path: Path, last: previous.Last, cores: int) -> None:
    """A PER_CAMPAIGN model made over the changed campaigns' rows (the scratch schema first on the
    search path), appended after the kept campaigns' rows (in place, or copied from the last
    build's table: copies add no floats, so on every core)."""
    name = table_name(path)
    con.execute(f"SET search_path = '{FRESH},main'")  # its CREATE TABLE too: the table is made there
    try:
        con.execute(path.read_text())
    finally:
        con.execute("RESET search_path")
    with on_threads(con, cores):
        if name not in last.placed:
            con.execute(f"CREATE TABLE main.{name} AS SELECT * FROM {FRESH}.{name} LIMIT 0")
            last.take(con, name)
        con.execute(f"INSERT INTO main.{name} SELECT * FROM {FRESH}.{name} ORDER BY rowid")
