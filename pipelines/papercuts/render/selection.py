"""Choosing rows for a chart: variants, comparisons against a base, labels and orders.

Shared by every chart family (comparison, cost, profile, repetition charts); holds no chart kind.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..codes import sorted_by
from ..db import query
from ..problems import UserError
from ..runs import run_starts
from . import colours
from .columns import Columns, arrow_of
from .site_rows import rows_of, table_of
from .specs import GROUP_ORDER

_PER_UNIT: list = []  # the caches forget() clears after each unit


def per_unit(maxsize: int):
    """lru_cache(maxsize), cleared after each page unit (forget): for rows that the charts of one
    unit share, and that no later unit needs."""
    def wrap(f):
        cached = lru_cache(maxsize=maxsize)(f)
        _PER_UNIT.append(cached)
        return cached
    return wrap

# The order of a comparison's rows (rqps_selection) and of a campaign's throughput (throughput):
# sorted here, not by DuckDB (codes.sorted_by).
RQPS_ORDER = ["group", "microbenchmark", "range", "threads", "version_rank", "build", "config", "origin"]
THROUGHPUT_ORDER = ["build_rank", "config", "microbenchmark", "range", "threads"]
RQPS_COLUMNS = ["microbenchmark", "group", "variant", "rqps", "qps", "base_qps", "unit", "origin", "noise",
                "noise_method", "order"]


def label(name: str, rng: int | None) -> str:
    """The seeds' microbenchmark label: name plus its range parameter."""
    return f"{name}_range={rng}" if rng is not None else name


def split_variant(text: str, where: str) -> tuple[str, str]:
    build, dot, config = str(text).partition(".")
    if not dot or not build or not config:
        raise UserError(f"{where}: '{text}' is not a variant; write it as build.config")
    return build, config


def comparison(d: dict, where: str) -> dict:
    base_build, base_config = split_variant(d["base"], where)
    threads = None if d["threads"] == "all" else int(d["threads"])
    return {"campaign": d["campaign"], "server": d["server"], "threads": threads,
            "base_build": base_build, "base_config": base_config}


@per_unit(16)  # the server page deciding whether to draw throughput lines, and the lines
def throughput_rows(con, campaign: str, server: str) -> pa.Table:
    """Measured QPS of a campaign on a server, repetitions averaged, by version: as Arrow, since a
    server page draws the newest of its variants only (x100: 20,000 rows, 16 of 100 variants)."""
    return sorted_by(arrow_of(con, query("throughput"), {"campaign": campaign, "server": server}), THROUGHPUT_ORDER)


def in_order(column: pa.ChunkedArray) -> list:
    """A column's distinct values, in the order the rows first give them."""
    return pc.unique(column).to_pylist()


@per_unit(16)  # the cost charts of a comparison, and the server page deciding whether to draw one
def comparison_costs(con, campaign: str, server: str, base_build: str, base_config: str) -> tuple[dict, ...]:
    """Per-operation costs of a comparison at every thread count, each beside the base's: its rows
    of its campaign's slice of the whole site's (read once per process)."""
    if (campaign, server) not in _costed(con):
        return ()
    rows = table_of(con, "op_costs_selection", "campaign", campaign)
    mine = pc.and_(pc.and_(pc.equal(rows["server"], server), pc.equal(rows["base_build"], base_build)),
                   pc.equal(rows["base_config"], base_config))
    return tuple(rows.filter(mine).drop_columns(["campaign", "server", "base_build", "base_config"]).to_pylist())


@lru_cache(maxsize=1)  # per process and connection: a few hundred names
def units(con) -> dict[str, str]:
    """Each microbenchmark's throughput unit (queries/s, krows/s, ...; microbenchmarks.csv)."""
    return dict(con.execute(query("microbenchmark_units")).fetchall())


@lru_cache(maxsize=1)  # per process and connection
def _costed(con) -> frozenset[tuple[str, str]]:
    """(campaign, server) of every comparison with costs: most have none, and asking each took a
    query of 6-7 ms, twice a comparison (its campaign's and its server's page: x100, 1.0 s of CPU)."""
    return frozenset(con.execute(query("costed_pairs")).fetchall())


def rqps_rows(con, d: dict, where: str) -> tuple[Columns, list[str]]:
    """The rows of a comparison chart (RQPS_COLUMNS), as columns: each microbenchmark's, ordered
    by group, label and thread count (`order`), then by variant as given (or by version)."""
    c = comparison(d, where)
    every = _comparison(con, c["campaign"], c["server"], c["base_build"], c["base_config"])
    at = (np.arange(every.n) if c["threads"] is None else np.flatnonzero(every.threads == c["threads"]))
    variants = d.get("variants") or _by_version(every, at)
    found = {every.variants[k] for k in np.unique(every.variant_code[at]).tolist()}
    missing = [v for v in variants if v not in found]
    if missing:
        raise UserError(f"{where}: no rQPS rows for {', '.join(map(str, missing))} in campaign "
                        f"{d['campaign']} (check the campaign, server, threads and base)")
    place_of = np.full(len(every.variants), -1)  # a variant's place among those drawn (-1: not drawn)
    for i, v in enumerate(variants):  # every one is in every.code: found checked it
        place_of[every.code[v]] = i
    place = place_of[every.variant_code[at]]
    at, place = at[place >= 0], place[place >= 0]
    if c["threads"] is None:  # ranked by group, label and threads among the rows drawn
        sort = [(GROUP_ORDER.index(g), n, t) for g, n, t in zip(every.group[at].tolist(), every.name[at].tolist(),
                                                                 every.threads[at].tolist(), strict=True)]
        rank = {key: k for k, key in enumerate(sorted(set(sort)))}
        order = np.array([rank[key] for key in sort], dtype=np.int64)
    else:  # ranked among every thread count's: the comparison's charts share one data file (datafile.share)
        order = every.microbenchmark_rank[at]
    shown = np.lexsort((place, order))  # stable: by order, then by the variant's place
    rows = at[shown]
    counts, each = np.unique(every.threads[rows], return_inverse=True)  # each row's thread count's place
    sigma = noise_by_threads(con, d["campaign"], d["server"])
    band = [colours.noise_band(sigma.get(t)) for t in counts.tolist()]
    method = ["measured" if sigma.get(t) else "stated" for t in counts.tolist()]
    name = every.name[rows].tolist()
    run = pa.array(every.run[rows])  # each row's run of one microbenchmark: its label, group and unit
    if d["threads"] == "all":  # with every thread count in one chart, a row is a microbenchmark at N threads
        name = [f"{n} @ {threads_label(t)}" for n, t in zip(name, every.threads[rows].tolist(), strict=True)]
    # A table (render/columns.py): the chart's data file is written from it; the lists its spec
    # and its text table read are made of it when read. Columns taken in Arrow, not made of a
    # Python value per row (x100: 4,000 rows a chart, six charts a comparison).
    taken = every.table.select(["variant", "rqps", "qps", "base_qps", "origin"]).take(pa.array(rows, pa.int64()))
    return Columns.of_arrow(pa.table({
        "microbenchmark": pa.array(name, pa.string()) if d["threads"] == "all" else every.labels.take(run),
        "group": every.groups.take(run),
        **{k: taken.column(k) for k in taken.column_names},
        # the unit of qps and base_qps: scan counts krows/s, not queries (contributed text: a value only)
        "unit": every.units.take(run),
        "noise": pa.array(np.array(band, dtype=np.float64)[each]),
        "noise_method": pa.array(method, pa.string()).take(pa.array(each)),
        "order": pa.array(order[shown], pa.int64()),
    }), {"microbenchmark": name}), list(variants)


class _Rows:
    """A comparison's rows (rqps_selection) as numpy arrays, with what every chart of it reads:
    each row's label, its variant as a number and its microbenchmark's rank. A comparison's five
    heatmaps each picked their thread count's rows and sorted them in Python, row by row (x100:
    a tenth of a second a campaign). Read from Arrow: a label and a rank per run of rows of one
    microbenchmark (the query's order), not per row (x100: 20,000 rows a comparison, 200 runs)."""

    def __init__(self, table: pa.Table, units: dict[str, str]) -> None:
        self.table, self.n = table, table.num_rows
        self.threads = table.column("threads").to_numpy().astype(np.int64)
        variant = pc.dictionary_encode(table.column("variant").combine_chunks())  # numbered as first met
        self.variants: list[str] = variant.dictionary.to_pylist()  # in the rows' order
        self.code = {v: k for k, v in enumerate(self.variants)}
        self.variant_code = variant.indices.to_numpy().astype(np.int64)
        starts = np.flatnonzero(run_starts(table, ("group", "microbenchmark", "range")))
        sizes = np.diff(np.append(starts, self.n))
        group, name, rng = (table.column(k).take(pa.array(starts, pa.int64())).to_pylist()
                            for k in ("group", "microbenchmark", "range"))
        labels = [label(n, r) for n, r in zip(name, rng, strict=True)]
        keys = [(GROUP_ORDER.index(g), n) for g, n in zip(group, labels, strict=True)]
        rank = {key: k for k, key in enumerate(sorted(set(keys)))}
        unit = [units[n] for n in name]
        self.name = np.repeat(np.array(labels, dtype=object), sizes)
        self.group = np.repeat(np.array(group, dtype=object), sizes)
        self.run = np.repeat(np.arange(len(starts)), sizes)  # each row's run
        # each run's label, group and unit, as Arrow arrays to take a chart's rows from
        self.labels, self.groups, self.units = (pa.array(v, pa.string()) for v in (labels, group, unit))
        self.microbenchmark_rank = np.repeat(np.array([rank[key] for key in keys], dtype=np.int64), sizes)


@per_unit(16)  # the charts of one comparison (every thread count, bars, heatmap, costs) share it
def _comparison(con, campaign: str, server: str, base_build: str, base_config: str) -> _Rows:
    return _Rows(sorted_by(rqps_table(con, campaign, server, base_build, base_config), RQPS_ORDER), units(con))


def rqps_table(con, campaign: str, server: str, base_build: str, base_config: str) -> pa.Table:
    """A comparison's rows (rqps_selection, in no set order), each with its variant (build.config)
    and its build's version_rank, as the query joined and wrote them: a row of a build that has no
    rank is left out, as the join left it. Added in Arrow, a value per build, not per row."""
    table = arrow_of(con, query("rqps_selection"), {
        "campaign": campaign, "server": server, "base_build": base_build, "base_config": base_config})
    build = pc.dictionary_encode(table.column("build").combine_chunks())
    rank_of = _version_ranks(con)
    rank = pa.array([rank_of.get(b) for b in build.dictionary.to_pylist()], pa.int64()).take(build.indices)
    table = table.append_column("variant", pc.binary_join_element_wise(table.column("build"), table.column("config"),
                                                                       ".")).append_column("version_rank", rank)
    return table if rank.null_count == 0 else table.filter(rank.is_valid())


@lru_cache(maxsize=1)  # per process and connection: a few hundred builds
def _version_ranks(con) -> dict[str, int]:
    return dict(con.execute(query("build_version_ranks")).fetchall())


def _by_version(every: _Rows, at: np.ndarray) -> list[str]:
    """The variants of these rows by version (never by string), then build and config in natural
    order (as first met in the rows: a tie keeps that order)."""
    codes, first = np.unique(every.variant_code[at], return_index=True)
    by_row = np.argsort(first, kind="stable")  # as first met
    rows = pa.array(at[first[by_row]], pa.int64())  # each variant's first row, read in one take a column
    rank, build, config = (every.table.column(k).take(rows).to_pylist() for k in ("version_rank", "build", "config"))
    seen = {every.variants[code]: (r, natural(b), natural(c))
            for code, r, b, c in zip(codes[by_row].tolist(), rank, build, config, strict=True)}
    return sorted(seen, key=lambda v: seen[v])


def noise_by_threads(con, campaign: str, server: str) -> dict[int, float]:
    """threads -> the per-point noise σ (log units) its ladders measured (none: no ladder)."""
    return {r["threads"]: r["sigma"] for r in rows_of(con, "ladder_noise", "server", server)
            if r["campaign"] == campaign}


def forget() -> None:
    """Drop the rows the charts of one unit shared: a worker makes many units, and the next needs
    none of them (kept, up to 16 servers' rows per cache took the x100 render stage's peak from
    1.04-1.18 GB to 1.62-1.69 GB)."""
    for cached in _PER_UNIT:
        cached.cache_clear()


def threads_label(n: int) -> str:
    return f"{n} thread{'' if n == 1 else 's'}"


def slug(*parts) -> str:
    """A chart or anchor id from any parts: lower-case letters and digits joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", "-".join(str(p) for p in parts).lower()).strip("-")


@lru_cache(maxsize=65536)  # a comparison's builds and configs, sorted again by each of its charts
def natural(text: str) -> tuple:
    """'itc8' before 'itc16': digit runs compare as numbers."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text) if p)


def explore_query(con, d: dict, variants: list[str], view: str = "bars", metric: str = "") -> dict:
    """The explorer's URL query for a comparison chart's own selection ("all" threads: every one)."""
    threads = ([t for (t,) in con.execute(query("campaign_threads"), {"campaign": d["campaign"],
                                                                       "server": d["server"]}).fetchall()]
               if d["threads"] == "all" else [int(d["threads"])])
    return {"server": d["server"], "campaign": d["campaign"], "threads": threads, "base": d["base"],
            "v": list(variants), "view": view, **({"metric": metric} if metric else {})}
