"""Choosing rows for a chart: variants, comparisons against a base, labels and orders.

Shared by every chart family (comparison, cost, profile, repetition charts); holds no chart kind.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..db import fetch_dicts, query
from ..problems import UserError
from . import colours
from .columns import Columns
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

RQPS_COLUMNS = ["microbenchmark", "group", "variant", "rqps", "qps", "base_qps", "origin", "noise", "noise_method",
                "order"]


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


@per_unit(16)  # the charts of one comparison (every thread count, bars, heatmap, costs) share it
def _comparison_rows(con, campaign: str, server: str, base_build: str, base_config: str) -> Columns:
    return Columns.of_query(con, query("rqps_selection"), {"campaign": campaign, "server": server,
                                                           "base_build": base_build, "base_config": base_config})


@per_unit(16)  # the server page deciding whether to draw throughput lines, and the lines
def throughput_rows(con, campaign: str, server: str) -> Columns:
    """Measured QPS of a campaign on a server, repetitions averaged, by version."""
    return Columns.of_query(con, query("throughput"), {"campaign": campaign, "server": server})


@per_unit(16)  # the cost charts of a comparison, and the server page deciding whether to draw one
def comparison_costs(con, campaign: str, server: str, base_build: str, base_config: str) -> tuple[dict, ...]:
    """Per-operation costs of a comparison at every thread count, each beside the base's."""
    return tuple(fetch_dicts(con, query("op_costs_selection"), {"campaign": campaign, "server": server,
                                                                "base_build": base_build, "base_config": base_config}))


def cost_variants(con, campaign: str, server: str, threads: int, base_build: str, base_config: str) -> list[str]:
    """The variants of a comparison with per-operation costs beside their rQPS, by version."""
    found = {(r["version_rank"], r["build"], r["config"], r["variant"])
             for r in comparison_costs(con, campaign, server, base_build, base_config)
             if r["threads"] == threads and r["relative"] is not None}
    return [v for *_, v in sorted(found)]


def rqps_rows(con, d: dict, where: str) -> tuple[Columns, list[str]]:
    """The rows of a comparison chart (RQPS_COLUMNS), as columns: each microbenchmark's, ordered
    by group, label and thread count (`order`), then by variant as given (or by version)."""
    c = comparison(d, where)
    every = _comparison_rows(con, c["campaign"], c["server"], c["base_build"], c["base_config"])
    at = (range(len(every)) if c["threads"] is None
          else [i for i, t in enumerate(every["threads"]) if t == c["threads"]])
    variant = every["variant"]
    variants = d.get("variants") or _by_version(every, at)
    found = {variant[i] for i in at}
    missing = [v for v in variants if v not in found]
    if missing:
        raise UserError(f"{where}: no rQPS rows for {', '.join(missing)} in campaign "
                        f"{d['campaign']} (check the campaign, server, threads and base)")
    place = {v: i for i, v in enumerate(variants)}
    at = [i for i in at if variant[i] in place]
    tests, ranges, groups, threads = every["microbenchmark"], every["range"], every["group"], every["threads"]
    names = {key: label(*key) for key in {(tests[i], ranges[i]) for i in at}}
    name = [names[tests[i], ranges[i]] for i in at]
    # Order within a group alphabetically by label (as the seeds' tables do), then by threads.
    sort = [(GROUP_ORDER.index(groups[i]), n, threads[i]) for i, n in zip(at, name, strict=True)]
    if c["threads"] is None:
        rank = {key: k for k, key in enumerate(sorted(set(sort)))}
        order = [rank[key] for key in sort]
    else:  # ranked among every thread count's: the comparison's charts share one data file (datafile.share)
        rank = _microbenchmark_order(con, c["campaign"], c["server"], c["base_build"], c["base_config"])
        order = [rank[key[:2]] for key in sort]
    shown = sorted(range(len(at)), key=lambda j: (order[j], place[variant[at[j]]]))
    rows = [at[j] for j in shown]
    sigma = noise_by_threads(con, d["campaign"], d["server"])
    band = {t: colours.noise_band(sigma.get(t)) for t in {threads[i] for i in rows}}
    method = {t: "measured" if sigma.get(t) else "stated" for t in band}
    if d["threads"] == "all":  # with every thread count in one chart, a row is a microbenchmark at N threads
        tested = [f"{name[j]} @ {threads_label(threads[at[j]])}" for j in shown]
    else:
        tested = [name[j] for j in shown]
    return Columns({
        "microbenchmark": tested, "group": [groups[i] for i in rows], "variant": [variant[i] for i in rows],
        **{k: [every[k][i] for i in rows] for k in ("rqps", "qps", "base_qps", "origin")},
        "noise": [band[threads[i]] for i in rows],
        "noise_method": [method[threads[i]] for i in rows],
        "order": [order[j] for j in shown],
    }), list(variants)


@per_unit(16)  # the heatmaps of a comparison, a thread count each
def _microbenchmark_order(con, campaign: str, server: str, base_build: str,
                          base_config: str) -> dict[tuple[int, str], int]:
    """(group's place, label) -> its rank among all of a comparison's microbenchmarks."""
    every = _comparison_rows(con, campaign, server, base_build, base_config)
    found = {(GROUP_ORDER.index(g), label(t, r))
             for g, t, r in set(zip(every["group"], every["microbenchmark"], every["range"], strict=True))}
    return {key: k for k, key in enumerate(sorted(found))}


def _by_version(every: Columns, at) -> list[str]:
    """The variants of these rows by version (never by string), then build and config in natural order."""
    seen: dict[str, tuple] = {}
    variant, rank, build, config = (every[k] for k in ("variant", "version_rank", "build", "config"))
    for i in at:
        if variant[i] not in seen:
            seen[variant[i]] = (rank[i], natural(build[i]), natural(config[i]))
    return sorted(seen, key=lambda v: seen[v])


def noise_by_threads(con, campaign: str, server: str) -> dict[int, float]:
    """threads -> the per-point noise σ (log units) its ladders measured (none: no ladder)."""
    return {t: sigma for c, t, sigma in _ladder_noise(con, server) if c == campaign}


@per_unit(4)
def _ladder_noise(con, server: str) -> tuple[tuple, ...]:
    return tuple(con.execute(query("ladder_noise"), {"server": server}).fetchall())


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


def natural(text: str) -> list:
    """'itc8' before 'itc16': digit runs compare as numbers."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text) if p]


def explore_query(con, d: dict, variants: list[str], view: str = "bars", metric: str = "") -> dict:
    """The explorer's URL query for a comparison chart's own selection ("all" threads: every one)."""
    threads = ([t for (t,) in con.execute(query("campaign_threads"), {"campaign": d["campaign"],
                                                                       "server": d["server"]}).fetchall()]
               if d["threads"] == "all" else [int(d["threads"])])
    return {"server": d["server"], "campaign": d["campaign"], "threads": threads, "base": d["base"],
            "v": list(variants), "view": view, **({"metric": metric} if metric else {})}
