"""Stage 3b: version ladders and their change points, from ladder_variants and ladder_values (sql/models/03_*, 04_*).

The SQL gives the values; the search for steps (derive/changepoints.py) is Python because it is a
recursion over each series. Results go back into DuckDB as five tables for render and export:
ladders, ladder_builds (position, drift), change_points, the lines the ladder charts draw
(ladder_lines), made from the same matrix of values as the search, and the builds measured at a
version whose other build the ladder keeps (ladder_left_out: one_per_version).
"""
from __future__ import annotations

import math
import threading
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..codes import ranks
from ..db import insert_arrow, insert_columns, on_threads, query
from ..ingest import previous
from ..runs import run_starts
from .changepoints import detect

MIN_BUILDS = 3  # builds a ladder keeps, one a version (one_per_version): two are a comparison

SCHEMA = """
CREATE TABLE ladders (
    ladder VARCHAR PRIMARY KEY, campaign VARCHAR NOT NULL, server VARCHAR NOT NULL, dbms VARCHAR NOT NULL,
    engine VARCHAR NOT NULL, family VARCHAR NOT NULL, threads INTEGER NOT NULL, builds INTEGER NOT NULL,
    series INTEGER NOT NULL, incomplete INTEGER NOT NULL, noise DOUBLE NOT NULL, repetitions INTEGER NOT NULL
);
CREATE TABLE ladder_builds (
    ladder VARCHAR NOT NULL, position INTEGER NOT NULL, build VARCHAR NOT NULL, config VARCHAR NOT NULL,
    version VARCHAR NOT NULL, drift DOUBLE NOT NULL
);
CREATE TABLE change_points (
    ladder VARCHAR NOT NULL, campaign VARCHAR NOT NULL, server VARCHAR NOT NULL, dbms VARCHAR NOT NULL,
    config VARCHAR NOT NULL, threads INTEGER NOT NULL, series VARCHAR NOT NULL, kind VARCHAR NOT NULL,
    microbenchmark VARCHAR, "range" INTEGER, "group" VARCHAR, position INTEGER NOT NULL,
    "before" VARCHAR NOT NULL, "after" VARCHAR NOT NULL, before_version VARCHAR NOT NULL,
    after_version VARCHAR NOT NULL, change DOUBLE NOT NULL, direction VARCHAR NOT NULL,
    z DOUBLE NOT NULL, pvalue DOUBLE NOT NULL,
    -- the span (changepoints.SPAN): the change lies between span_before and span_after, positions
    -- first - 1 and last; both are before and after when the place is sure
    "first" INTEGER NOT NULL, "last" INTEGER NOT NULL, span_before VARCHAR NOT NULL, span_after VARCHAR NOT NULL,
    span_before_version VARCHAR NOT NULL, span_after_version VARCHAR NOT NULL
);
CREATE TABLE ladder_lines (
    campaign VARCHAR NOT NULL, server VARCHAR NOT NULL, ladder VARCHAR NOT NULL, position INTEGER NOT NULL,
    variant VARCHAR NOT NULL, version VARCHAR NOT NULL, series VARCHAR NOT NULL, rqps DOUBLE NOT NULL,
    n BIGINT NOT NULL
);
CREATE TABLE ladder_left_out (
    ladder VARCHAR NOT NULL, campaign VARCHAR NOT NULL, build VARCHAR NOT NULL, config VARCHAR NOT NULL,
    version VARCHAR NOT NULL,
    -- 'version': another build of its version is the ladder's (kept_*); 'campaign': its campaign.toml
    -- names it comparison_only (kept_* empty)
    reason VARCHAR NOT NULL CHECK (reason IN ('version', 'campaign')), kept_build VARCHAR, kept_config VARCHAR
);
"""

KEY = ("campaign", "server", "dbms", "engine", "family", "threads")

# The variants of the ladders searched (of the campaigns not kept), in ladder order (their rowid:
# sql/models/03_*), and their values (04_*), numbers alone, by variant, then microbenchmark and
# range, to the last tie (TIES, by Inputs.read): a cell's values and the noise's sum come in one
# order on any number of threads. A microbenchmark is its place among the names (MICROBENCHMARKS, from 1).
VARIANTS = """
SELECT rowid AS variant, campaign, server, dbms, engine, family, threads, build, config, version
FROM ladder_variants
WHERE NOT list_contains($kept::VARCHAR[], campaign)
ORDER BY rowid
"""
VALUES = """
SELECT variant, microbenchmark, "range", value, repetitions, log_var
FROM ladder_values
WHERE NOT list_contains($kept::VARCHAR[], campaign)
ORDER BY variant, microbenchmark, "range"
"""
# A cell's values (published ratios against two bases give a build two values of one microbenchmark)
# in this order too, sorted by Inputs.read: DuckDB sorting 10^6 values (x100, none a cell's second)
# by these as well took 0.05-0.08 s more.
TIES = ("value", "repetitions", "log_var")
MICROBENCHMARKS = 'SELECT name, "group" FROM microbenchmarks ORDER BY name'
TABLES = ("ladders", "ladder_builds", "change_points", "ladder_lines", "ladder_left_out")  # made by _search
# Their kept rows, in an order that allows it (a ladder's builds by the ladders kept): previous.start.
IN_PLACE = {"ladders": previous.KEPT, "ladder_builds": "ladder IN (SELECT ladder FROM ladders)",
            "change_points": previous.KEPT, "ladder_lines": previous.KEPT, "ladder_left_out": previous.KEPT}


def ladder_id(campaign: str, server: str, dbms: str, engine: str, family: str, threads: int) -> str:
    return f"{campaign}.{server}.{dbms}.{engine}.{family}.{threads}"


def series_name(test: str, rng: int | None) -> str:
    return f"{test} range {rng}" if rng is not None else test


def _series_keys(values: pa.Table) -> np.ndarray:
    """A number per value that sorts as (microbenchmark, range) do, range's nulls last: a ladder's
    series are numbered in this order (np.unique of a ladder's keys). Its microbenchmark is one
    already (VALUES). Ranges are ranked as distinct values, each row's found by hashing: ranking
    10^6 rows (x100), np.unique's sort took 0.04-0.07 s, this 0.005 s."""
    distinct = pc.unique(values.column("range"))
    ranges = ranks(distinct)[pc.index_in(values.column("range"), value_set=distinct).to_numpy()]
    return values.column("microbenchmark").to_numpy().astype(np.int64) * (int(ranges.max(initial=0)) + 1) + ranges


def _numbered(keys: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's series, numbered as its key ranks among the ladder's, and each series' first row:
    np.unique's inverse and index, without its sort, as the keys are numbers below `width` (x100,
    under cProfile: np.unique's 593 calls took 0.23 s of the search's 1.7 s)."""
    present = np.zeros(width, dtype=bool)
    present[keys] = True
    spos = (np.cumsum(present) - 1)[keys]
    first = np.full(int(present.sum()), len(keys))
    np.minimum.at(first, spos, np.arange(len(keys)))
    return spos, first


def one_per_version(variants: list[tuple[str, str, str]]) -> list[int]:
    """Which of a ladder's variants (build, config, version; in ladder order, a version's together)
    it keeps: one per version. A campaign that measured several builds or configs of one version
    (8.0.40 at -O3, -O2 and two patched builds; 18.0 with io_method sync, worker and io_uring) did
    not measure versions there, and in a row those builds made steps 'from 8.0.40 to 8.0.40' and
    a noise of their differences. Kept is the variant most like the ladder's other versions': the
    most of them with its build's flavour (its id without the version token: my8040_rel_o2nofp ->
    rel_o2nofp), then with its config, then the first (by build id, then config)."""
    flavours = [(_flavour(b), c) for b, c, _ in variants]
    kept = []
    for _, group in groupby(range(len(variants)), key=lambda i: variants[i][2]):
        group = list(group)
        if len(group) > 1:
            others = [flavours[j] for j in range(len(variants)) if variants[j][2] != variants[group[0]][2]]
            group.sort(key=lambda i: (-sum(f[0] == flavours[i][0] for f in others),
                                      -sum(f[1] == flavours[i][1] for f in others), i))
        kept.append(group[0])
    return kept


def _flavour(build: str) -> str:
    """A build id without its version token, the first of its '_'-separated parts (mytools' names:
    my8040_rel_o2nofp, pg180_o2nofp, ma110408_rel_withdbg)."""
    return build.partition("_")[2]


def _kept(of_row: np.ndarray, variant_starts: np.ndarray, s: int, e: int, variants: list[tuple[str, str, str]],
          comparison_only: frozenset[str]):
    """The ladder of value rows s:e (`of_row`: each row's variant, a place in `variants`): its
    variants (build, config, version) as measured and as kept (those its campaign does not name
    `comparison_only`, by build or build.config; then one_per_version), the rows of those kept and
    each one's position among them; None where fewer than MIN_BUILDS are kept."""
    firsts = s + np.flatnonzero(variant_starts[s:e])
    if len(firsts) < MIN_BUILDS:
        return None
    measured = [variants[i] for i in of_row[firsts].tolist()]
    candidates = [i for i, (b, c, _) in enumerate(measured) if not _named(comparison_only, b, c)]
    kept = [candidates[j] for j in one_per_version([measured[i] for i in candidates])]
    if len(kept) < MIN_BUILDS:
        return None
    at = np.full(len(measured), -1)
    at[kept] = np.arange(len(kept))
    vpos = at[np.cumsum(variant_starts[s:e]) - 1]
    return measured, [measured[i] for i in kept], s + np.flatnonzero(vpos >= 0), vpos[vpos >= 0]


def _named(comparison_only: frozenset[str], build: str, config: str) -> bool:
    return build in comparison_only or f"{build}.{config}" in comparison_only


def _left_out(lid: str, campaign: str, measured: list[tuple], variants: list[tuple],
              comparison_only: frozenset[str]) -> list[tuple]:
    """ladder_left_out's rows: each variant measured but not kept, as its campaign names it
    comparison_only, or with the one kept at its version."""
    kept = {v: (b, c) for b, c, v in variants}
    return [(lid, campaign, b, c, v, "campaign", None, None) if _named(comparison_only, b, c)
            else (lid, campaign, b, c, v, "version", *kept[v])
            for b, c, v in measured if (b, c) != kept.get(v)]


def _ties_sorted(values: pa.Table) -> pa.Table:
    """VALUES' rows with each cell's (by variant, microbenchmark and range: together already) in
    TIES order too, ascending, nulls last, as DuckDB orders them."""
    starts = run_starts(values, ("variant", "microbenchmark", "range"))  # each cell's first row
    if starts.all():  # no cell of two rows
        return values
    keys = [np.cumsum(starts)]  # each row's cell, numbered in order
    for name in TIES:
        column = values.column(name)
        keys += [column.is_null().to_numpy(zero_copy_only=False), pc.fill_null(column, 0).to_numpy()]
    return values.take(np.lexsort(keys[::-1]))  # the last key first


def _pick(table: pa.Table, name: str, rows) -> list:
    return table.column(name).take(pa.array(rows, type=pa.int64())).to_pylist()


@dataclass
class Inputs:
    """What the search reads: the ladders' variants and values (VARIANTS, VALUES), the
    microbenchmarks' names and groups in the order they are numbered, and the builds (or
    build.config variants) each campaign keeps off its ladders (campaign.toml comparison_only)."""

    variants: pa.Table
    values: pa.Table
    microbenchmarks: list[tuple[str, str]]
    comparison_only: dict[str, frozenset[str]]

    @classmethod
    def read(cls, con: duckdb.DuckDBPyConnection, kept) -> Inputs:
        params = {"kept": sorted(kept)}
        return cls(con.sql(VARIANTS, params=params).to_arrow_table().combine_chunks(),
                   _ties_sorted(con.sql(VALUES, params=params).to_arrow_table().combine_chunks()),
                   con.execute(MICROBENCHMARKS).fetchall(),
                   {c: frozenset(names) for c, names in con.execute(query("comparison_only")).fetchall()})


class Search(threading.Thread):
    """The search of the ladders of every campaign not kept, and the storing of its rows, on a
    thread of its own: derive makes its other models meanwhile (a DuckDB query gives up the GIL
    while it runs; the search is Python and numpy, on the values alone, so its rows are the same
    whatever runs beside it): x100, derive 0.6-1.3 s shorter (derive/models.py SEARCH_AFTER). It
    reads the values and stores its rows through a connection of its own (a cursor), while the
    models are still made where they take longer than the search."""

    def __init__(self, con: duckdb.DuckDBPyConnection, cores: int | None,
                 last: previous.Last = previous.NOTHING) -> None:
        """`cores`: the values read now, on that many threads; None: read on the search's thread,
        on as many as the models made meanwhile run on (set for them: the setting is the database's,
        not a connection's), so that derive goes on to them at once (x100: the read took 0.14 s
        of derive's 1.7 s on two cores before them, and 0.23 CPU s beside them). VALUES and TIES
        order the values to the last tie: the same on any number of threads."""
        super().__init__(name="ladder search", daemon=True)  # daemon: a failed build does not wait for it
        self.values: Inputs | None = None
        if cores is not None:
            with on_threads(con, cores):
                self.values = Inputs.read(con, last.kept)
        self.last = last
        self.con = con.cursor()
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            if self.values is None:
                self.values = Inputs.read(self.con, self.last.kept)
            rows = _search(self.values)
            self.values = None  # not held while the rows are stored
            _store(self.con, self.last, rows)
        except BaseException as e:  # noqa: BLE001 - raised again in the thread that waits
            self.error = e
        finally:
            self.values = None  # not held until the models beside it end
            self.con.close()

    def result(self) -> None:
        """Once its thread has ended (joined: no thread is left behind, and the render stage forks
        its workers only with none): the ladders stored, or the error that stopped it."""
        self.join()
        if self.error is not None:
            raise self.error


def build_ladders(con: duckdb.DuckDBPyConnection, cores: int | None = None,
                  last: previous.Last = previous.NOTHING, search: Search | None = None) -> int:
    """Fill ladders, ladder_builds, change_points and ladder_lines; returns how many ladders there are.

    A ladder is a function of its campaign's rows and the inputs every campaign shares, so the
    ladders of kept campaigns (unchanged since the last build, made by the same code of the same
    shared inputs: ingest/previous.py) are taken from the last build's database and only the
    others are searched, their rows appended. Every table holds a clean build's rows, campaign by
    campaign, each in the order its values are read. `search`: one started already (Search), else
    one starts now."""
    (search or Search(con, cores, last)).result()
    return con.execute("SELECT count(*) FROM ladders").fetchone()[0]


def _store(con: duckdb.DuckDBPyConnection, last: previous.Last, searched: tuple[dict, ...]) -> None:
    """The search's rows (_search) in TABLES, after the kept campaigns' (in place, or copied from
    the last build's tables), and the change points' known regressions and flagged results."""
    if not set(TABLES) <= last.placed:  # not a seeded database's: made, the kept rows copied in
        con.execute(SCHEMA)
        if last.kept:
            _copy(con, sorted(last.kept))
    changed = [c for (c,) in con.execute("SELECT DISTINCT campaign FROM ladder_variants ORDER BY campaign").fetchall()
               if c not in last.kept]
    for table, rows in zip(TABLES, searched, strict=True):
        if table == "ladder_lines":  # a table a campaign (_lines_table)
            if tables := [rows[c] for c in changed if c in rows]:
                insert_arrow(con, table, list(tables[0].column_names), pa.concat_tables(tables))
        else:
            _insert(con, table, [r for c in changed for r in rows.get(c, [])])
    con.execute(query("known_matches"))
    con.execute(query("flagged_matches"))


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[tuple]) -> None:
    if rows:
        columns = [d[0] for d in con.execute(f"SELECT * FROM {table} LIMIT 0").description]
        insert_columns(con, table, columns, [list(c) for c in zip(*rows, strict=True)])


def _copy(con: duckdb.DuckDBPyConnection, campaigns: list[str]) -> None:
    """These campaigns' ladders from the last build's tables, in their order there (rowid)."""
    ladders = f"SELECT ladder FROM {previous.ALIAS}.ladders WHERE campaign IN (SELECT unnest($1))"
    for table in TABLES:
        where = "campaign IN (SELECT unnest($1))" if table != "ladder_builds" else f"ladder IN ({ladders})"
        con.execute(f"INSERT INTO {table} SELECT * FROM {previous.ALIAS}.{table} WHERE {where} ORDER BY rowid",
                    [campaigns])


def _places(t: pa.Table, vt: pa.Table) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each value's variant as its place in the variants `vt` (ascending: the values come by
    variant), whether it begins its variant's values, each ladder's first variant (and the end),
    and each ladder's first value row (and the end)."""
    of_row = np.searchsorted(vt.column("variant").to_numpy(), t.column("variant").to_numpy())
    variant_starts = np.ones(len(of_row), dtype=bool)
    variant_starts[1:] = of_row[1:] != of_row[:-1]
    ladder_starts = np.append(np.flatnonzero(run_starts(vt, KEY)), vt.num_rows)
    return of_row, variant_starts, ladder_starts, np.searchsorted(of_row, ladder_starts)


def _search(inputs: Inputs) -> tuple[dict, ...]:
    """The ladders, their builds, their change points, their lines and the builds they leave out of
    these values (Search), as rows per campaign (ladder_lines: an Arrow table), one dict per table (TABLES).

    The values come as Arrow columns of numbers, a ladder is a slice of them and its values a
    matrix (series x builds): no Python object per value (10^6 values at x100 took 5 s as tuples)."""
    t, vt = inputs.values, inputs.variants
    value = t.column("value").to_numpy().astype(float)
    reps_all = t.column("repetitions").to_numpy()
    series_keys = _series_keys(t)
    width = int(series_keys.max(initial=0)) + 1
    has_var = pc.is_valid(t.column("log_var")).to_numpy(zero_copy_only=False)
    log_var = pc.fill_null(t.column("log_var"), 0.0).to_numpy()
    of_row, variant_starts, ladder_starts, bounds = _places(t, vt)
    every, keys = (list(zip(*(vt.column(k).to_pylist() for k in columns), strict=True))
                   for columns in (("build", "config", "version"), KEY))
    ladders, positions, changes, lines = defaultdict(list), defaultdict(list), defaultdict(list), defaultdict(list)
    others = defaultdict(list)
    for first, s, e in zip(ladder_starts[:-1].tolist(), bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        key = keys[first]
        named = inputs.comparison_only.get(key[0], frozenset())
        if (ladder := _kept(of_row, variant_starts, s, e, every, named)) is None:
            continue
        measured, variants, rows, vpos = ladder
        spos, first_of = _numbered(series_keys[rows], width)  # the ladder's series, and each one's first row
        matrix = np.full((int(spos.max()) + 1, len(variants)), np.nan)
        matrix[spos, vpos] = value[rows]
        present = ~np.isnan(matrix)
        whole = present.all(axis=1) & (np.nan_to_num(matrix) > 0).all(axis=1)
        tests, groups = {}, {}
        numbers = (t.column("microbenchmark").to_numpy()[rows[first_of]] - 1).tolist()
        for test, rng, group in zip([inputs.microbenchmarks[i][0] for i in numbers], _pick(t, "range", rows[first_of]),
                                    [inputs.microbenchmarks[i][1] for i in numbers], strict=True):
            tests[series_name(test, rng)] = (test, rng)
            groups[series_name(test, rng)] = group
        names = list(tests)
        complete = {names[k]: matrix[k].tolist() for k in np.flatnonzero(whole)}
        if not complete:
            continue
        lid = ladder_id(*key)
        reps = max(1, int(reps_all[rows].max()))
        mask = has_var[rows]
        # The variance of a mean of repetitions; summed in row order, as a Python sum, so the
        # noise (and every p-value after it) is the same to the last bit from build to build.
        variances = (log_var[rows][mask] / reps_all[rows][mask]).tolist()
        spread = math.sqrt(sum(variances) / len(variances)) if variances else None
        found, sigma, drift = detect(complete, {n: groups[n] for n in complete}, spread)
        campaign, server, dbms, _, family, threads = key
        ladders[campaign].append((lid, *key, len(variants), len(complete), len(names) - len(complete), sigma, reps))
        positions[campaign] += [(lid, i, b, c, v, drift[i]) for i, (b, c, v) in enumerate(variants)]
        others[campaign] += _left_out(lid, campaign, measured, variants, named)
        group_of = [groups[n] for n in names]
        ratios = (_ratios(matrix, group_of) if present.sum() == len(rows) else  # one value a cell
                  _ratios_of_rows(spos, vpos, value[rows], group_of))
        lines[campaign].append((lid, server, _lines(variants, ratios, drift, len(complete))))
        for ch in found:
            test, rng = tests.get(ch.series, (None, None))
            kind = "series" if test else ch.series.split(":")[0]
            (b0, c0, v0), (b1, c1, v1) = variants[ch.index - 1], variants[ch.index]
            (s0, sc0, sv0), (s1, sc1, sv1) = variants[ch.first - 1], variants[ch.last]
            changes[campaign].append((lid, campaign, server, dbms, family, threads, ch.series, kind, test, rng,
                            groups.get(ch.series) or (ch.series.split(": ")[1] if kind == "median" else None),
                            ch.index, f"{b0}.{c0}", f"{b1}.{c1}", v0, v1, ch.change,
                            "regression" if ch.change < 0 else "improvement", ch.z, ch.pvalue,
                            ch.first, ch.last, f"{s0}.{sc0}", f"{s1}.{sc1}", sv0, sv1))
    return ladders, positions, changes, {c: _lines_table(c, of) for c, of in lines.items()}, others


def _lines_table(campaign: str, lines: list[tuple[str, str, dict]]) -> pa.Table:
    """A campaign's ladder_lines, as the charts read them: by ladder, series, position; from each
    ladder's id, server and lines (_lines), as columns: x100, its 10^5 rows as tuples took 0.1 s more
    to insert, after the search, and as strings, not numbers into each ladder's names, 0.04 s more."""
    lines = sorted(lines, key=lambda line: line[0])  # stable: a ladder's rows are in order already
    one = [np.zeros(len(of["position"]), dtype=np.int64) for _, _, of in lines]  # a ladder's rows: its one name
    columns = {"campaign": _text([(at, [campaign]) for at in one]),
               "server": _text([(at, [server]) for at, (_, server, _) in zip(one, lines, strict=True)]),
               "ladder": _text([(at, [lid]) for at, (lid, _, _) in zip(one, lines, strict=True)])}
    for name in LINE_COLUMNS:
        parts = [of[name] for _, _, of in lines]
        columns[name] = _text(parts) if isinstance(parts[0], tuple) else np.concatenate(parts)
    return pa.table(columns)


def _text(parts: list[tuple[np.ndarray, list[str]]]) -> pa.DictionaryArray:
    """A text column given in parts, each as its rows' places in its names: dictionary-encoded."""
    starts = np.cumsum([0] + [len(names) for _, names in parts[:-1]])
    return pa.DictionaryArray.from_arrays(
        pa.array(np.concatenate([at + start for (at, _), start in zip(parts, starts, strict=True)]), pa.int32()),
        pa.array([name for _, names in parts for name in names], pa.string()))


LINE_COLUMNS = ("position", "variant", "version", "series", "rqps", "n")  # ladder_lines' after its ladder


def _lines(variants: list[tuple], ratios: dict[str, tuple[np.ndarray, np.ndarray]], drift: list[float],
           complete: int) -> dict[str, np.ndarray]:
    """A ladder's lines (ladder_lines' LINE_COLUMNS, text as its rows' places in its names: _text), by
    series, then position:
    at each build, the median of each group's rQPS against the first build (`ratios`: group ->
    its ratios, series x builds, and how many of each build's are measured, the others NaN), as
    DuckDB's median, and how many it is of; and the drift shared by every series, exp(drift), over
    the complete series."""
    count = len(variants)
    shown, series, rqps, ns = [np.arange(count)], ["drift: all"], [[_exp(d) for d in drift]], [np.full(count, complete)]
    for name, (at, n) in sorted((f"median: {g}", r) for g, r in ratios.items()):
        # NaN last, as DuckDB sorts it: a ratio that is NaN (inf / inf) among the n measured, then
        # the cells not measured
        at = np.sort(at, axis=0)
        builds = np.arange(at.shape[1])
        lo, hi = at[np.maximum(n - 1, 0) // 2, builds], at[n // 2, builds]
        median = np.where(n % 2 == 1, lo, _midpoint(lo, hi))
        measured = np.flatnonzero(n)
        shown.append(measured), series.append(name), rqps.append(median[measured]), ns.append(n[measured])
    position = np.concatenate(shown)
    return {"position": position, "variant": (position, [f"{b}.{c}" for b, c, _ in variants]),
            "version": (position, [v for _, _, v in variants]),
            "series": (np.repeat(np.arange(len(series)), [len(p) for p in shown]), series),
            "rqps": np.concatenate(rqps), "n": np.concatenate(ns)}


def _midpoint(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """DuckDB 2.0's median of an even count, from the middle two: lo * 0.5 + hi * 0.5 as one fused
    multiply-add, fma(lo, 0.5, hi * 0.5), which (lo + hi) / 2 is not where lo + hi overflows, nor
    lo * 0.5 + hi * 0.5 where lo * 0.5 loses a bit (lo below 2^-1021): there, made exactly."""
    mid = lo * 0.5 + hi * 0.5
    for i in np.flatnonzero((lo != 0) & (np.abs(lo) < 2.0 ** -1021) & np.isfinite(hi)).tolist():
        mid[i] = float(Fraction(float(lo[i])) / 2 + Fraction(float(hi[i] * 0.5)))
    return mid


def _exp(x: float) -> float:
    """exp as DuckDB's (the C library's, as math.exp), inf where it overflows, not an error."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _ratios(matrix: np.ndarray, group_of: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """group -> its series' values / their value at the first build (series x builds), NaN where
    either is missing, and how many are measured at each build: a matrix of one value a cell,
    NaN where a value is missing (a value is never NaN)."""
    measured = ~np.isnan(matrix) & ~np.isnan(matrix[:, :1])
    with np.errstate(all="ignore"):  # inf / inf is NaN, as in DuckDB
        ratio = matrix / matrix[:, :1]
    out = {}
    for g in dict.fromkeys(group_of):
        rows = [k for k, h in enumerate(group_of) if h == g]
        out[g] = (ratio[rows], measured[rows].sum(axis=0))
    return out


def _ratios_of_rows(spos: np.ndarray, vpos: np.ndarray, value: np.ndarray,
                    group_of: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """As _ratios, for a ladder with more than one value in a cell (published ratios against two
    bases give a build two values of one microbenchmark): every value against every value of its
    series at the first build, as a join of the rows would, in as many rows as a build needs."""
    firsts: dict[int, list[float]] = defaultdict(list)
    for k, p, v in zip(spos.tolist(), vpos.tolist(), value.tolist(), strict=True):
        if p == 0:
            firsts[k].append(v)
    width = int(vpos.max()) + 1
    found: dict[str, list[list[float]]] = {g: [[] for _ in range(width)] for g in dict.fromkeys(group_of)}
    with np.errstate(all="ignore"):
        for k, p, v in zip(spos.tolist(), vpos.tolist(), value.tolist(), strict=True):
            found[group_of[k]][p] += (np.float64(v) / np.array(firsts[k], dtype=float)).tolist()
    out = {}
    for g, builds in found.items():
        at = np.full((max(1, *map(len, builds)), width), np.nan)
        for p, r in enumerate(builds):
            at[:len(r), p] = r
        out[g] = (at, np.array([len(r) for r in builds]))
    return out
