"""Choosing rows for a chart: variants, comparisons against a base, labels and orders.

Shared by every chart family (comparison, cost, profile, repetition charts); holds no chart kind.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..db import fetch_dicts, query
from ..problems import UserError
from . import colours
from .specs import GROUP_ORDER

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


@lru_cache(maxsize=16)  # the charts of one comparison (every thread count, bars, heatmap, costs) share it
def _comparison_rows(con, campaign: str, server: str, base_build: str, base_config: str) -> tuple[dict, ...]:
    return tuple(fetch_dicts(con, query("rqps_selection"), {"campaign": campaign, "server": server,
                                                            "base_build": base_build, "base_config": base_config}))


@lru_cache(maxsize=16)  # the server page deciding whether to draw throughput lines, and the lines
def throughput_rows(con, campaign: str, server: str) -> tuple[dict, ...]:
    """Measured QPS of a campaign on a server, repetitions averaged, by version."""
    return tuple(fetch_dicts(con, query("throughput"), {"campaign": campaign, "server": server}))


@lru_cache(maxsize=16)  # the cost charts of a comparison, and the server page deciding whether to draw one
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


def rqps_rows(con, d: dict, where: str) -> tuple[list[dict], list[str]]:
    c = comparison(d, where)
    rows = [r for r in _comparison_rows(con, c["campaign"], c["server"], c["base_build"], c["base_config"])
            if c["threads"] is None or r["threads"] == c["threads"]]
    variants = d.get("variants") or ordered_variants(rows)
    found = {r["variant"] for r in rows}
    missing = [v for v in variants if v not in found]
    if missing:
        raise UserError(f"{where}: no rQPS rows for {', '.join(missing)} in campaign "
                        f"{d['campaign']} (check the campaign, server, threads and base)")
    every_threads = d["threads"] == "all"
    sigma = noise_by_threads(con, d["campaign"], d["server"])
    out = []
    place = {v: i for i, v in enumerate(variants)}
    for r in rows:
        if r["variant"] in place:
            name = label(r["microbenchmark"], r["range"])
            measured = sigma.get(r["threads"])
            out.append({
                # With every thread count in one chart, each row is a microbenchmark at N threads.
                "microbenchmark": f"{name} @ {threads_label(r['threads'])}" if every_threads else name,
                "group": r["group"], "variant": r["variant"], "rqps": r["rqps"], "qps": r["qps"],
                "base_qps": r["base_qps"], "origin": r["origin"],
                "noise": colours.noise_band(measured), "noise_method": "measured" if measured else "stated",
                "sort": (GROUP_ORDER.index(r["group"]), name, r["threads"]),
            })
    # Order within a group alphabetically by label (as the seeds' tables do), then by threads.
    rank = {key: i for i, key in enumerate(sorted({r["sort"] for r in out}))}
    for r in out:
        r["order"] = rank[r.pop("sort")]
    out.sort(key=lambda r: (r["order"], place[r["variant"]]))
    return out, list(variants)


def noise_by_threads(con, campaign: str, server: str) -> dict[int, float]:
    """threads -> the per-point noise σ (log units) its ladders measured (none: no ladder)."""
    return {t: sigma for c, t, sigma in _ladder_noise(con, server) if c == campaign}


@lru_cache(maxsize=4)
def _ladder_noise(con, server: str) -> tuple[tuple, ...]:
    return tuple(con.execute(query("ladder_noise"), {"server": server}).fetchall())


def forget() -> None:
    """Drop the rows the charts of one unit shared: a worker makes many units, and the next needs
    none of them (kept, up to 16 servers' rows per cache took the x100 render stage's peak from
    1.04-1.18 GB to 1.62-1.69 GB)."""
    for cached in (_comparison_rows, throughput_rows, comparison_costs, _ladder_noise):
        cached.cache_clear()


def threads_label(n: int) -> str:
    return f"{n} thread{'' if n == 1 else 's'}"


def slug(*parts) -> str:
    """A chart or anchor id from any parts: lower-case letters and digits joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", "-".join(str(p) for p in parts).lower()).strip("-")


def natural(text: str) -> list:
    """'itc8' before 'itc16': digit runs compare as numbers."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text) if p]


def ordered_variants(rows: list[dict]) -> list[str]:
    """Variants by version (never by string), then build and config in natural order."""
    seen: dict[str, tuple] = {}
    for r in rows:
        if r["variant"] not in seen:
            seen[r["variant"]] = (r["version_rank"], natural(r["build"]), natural(r["config"]))
    return sorted(seen, key=lambda v: seen[v])


def explore_query(con, d: dict, variants: list[str], view: str = "bars", metric: str = "") -> dict:
    """The explorer's URL query for a comparison chart's own selection ("all" threads: every one)."""
    threads = ([t for (t,) in con.execute(query("campaign_threads"), {"campaign": d["campaign"],
                                                                       "server": d["server"]}).fetchall()]
               if d["threads"] == "all" else [int(d["threads"])])
    return {"server": d["server"], "campaign": d["campaign"], "threads": threads, "base": d["base"],
            "v": list(variants), "view": view, **({"metric": metric} if metric else {})}
