"""Chart kinds for sampled profiles of raw campaigns:

  profile-top  self share of the top symbols, a bar per variant (profile_symbols)
  flame        icicle of one variant's folded stacks
  flame-diff   the variant's icicle coloured by the change from the base variant's profile
"""
from __future__ import annotations

from ..db import fetch_dicts, query
from ..problems import UserError
from . import flame, profile_specs, tables
from .registry import Drawn, chart_kind
from .selection import split_variant

FLAME_COLUMNS = ["id", "parent", "depth", "depth_end", "frame", "path", "x0", "x1", "total_share",
                 "self_share", "samples", "label"]
TABLE_ROWS = 25
VANISHED_ROWS = 10


def _stacks(con, d: dict, variant: str, where: str) -> list[tuple[tuple[str, ...], float]]:
    build, config = split_variant(variant, where)
    rows = fetch_dicts(con, query("profile_stacks"), {
        "campaign": d["campaign"], "build": build, "config": config,
        "microbenchmark": d["microbenchmark"], "threads": int(d["threads"])})
    if not rows:
        raise UserError(f"{where}: no folded stacks for {variant}, {d['microbenchmark']} at {d['threads']} "
                        f"threads in campaign {d['campaign']} (a missing or empty profile is a gap)")
    return [(tuple(r["frames"]), r["weight"]) for r in rows]


def _hottest(rows: list[dict]) -> dict:
    """The frames with the most self time, as a text table."""
    by_id = {r["id"]: r for r in rows}
    hot = sorted((r for r in rows if r["self_share"] > 0 and r["frame"] not in (flame.OTHER, flame.DEEPER)),
                 key=lambda r: (-r["self_share"], r["path"]))
    body = [[tables.cell(by_id[r["parent"]]["frame"]), tables.cell(r["frame"]),
             tables.cell(tables.fixed(100 * r["self_share"]) + "%"),
             tables.cell(tables.fixed(100 * r["total_share"]) + "%")] + (
                [tables.cell(tables.fixed(100 * r["base_share"]) + "%"), tables.cell(tables.signed(100 * r["delta"]))]
                if "delta" in r else [])
            for r in hot[:TABLE_ROWS]]
    cols = [("called from", False), ("frame (most self time first)", False), ("self", True), ("total", True)]
    if rows and "delta" in rows[0]:
        cols += [("base total", True), ("change (points)", True)]
    return tables.table(cols, body)


@chart_kind("flame", "campaign", "microbenchmark", "threads", "variant",
            doc="Icicle of folded stacks for one variant.")
def flame_chart(con, d: dict, where: str):
    rows = flame.icicle(_stacks(con, d, d["variant"], where), width_px=profile_specs.WIDTH_PX)
    return Drawn(rows, profile_specs.icicle(d["title"], rows), _hottest(rows), FLAME_COLUMNS)


@chart_kind("flame-diff", "campaign", "microbenchmark", "threads", "base", "variant",
            doc="Icicle coloured by the change of each frame's share from the base.")
def flame_diff(con, d: dict, where: str):
    base = _stacks(con, d, d["base"], where)
    target = _stacks(con, d, d["variant"], where)
    rows = flame.differential(base, target, width_px=profile_specs.WIDTH_PX)
    spec = profile_specs.differential(d["title"], rows, str(d["base"]), str(d["variant"]))
    table = _hottest(rows)
    # The icicle draws the target only: what the base sampled and the target never did is listed.
    for gone in flame.vanished(base, target, top=VANISHED_ROWS):
        caller = gone["path"].rsplit(";", 2)[-2] if ";" in gone["path"] else flame.ROOT
        table["rows"].append([tables.cell(caller), tables.cell(f"{gone['frame']} (only in the base)"),
                              tables.cell(""), tables.cell("0.00%"),
                              tables.cell(tables.fixed(100 * gone["base_share"]) + "%"),
                              tables.cell(tables.signed(-100 * gone["base_share"]))])
    return Drawn(rows, spec, table, [*FLAME_COLUMNS, "base_share", "delta"])


@chart_kind("profile-top", "campaign", "microbenchmark", "threads", "variants",
            doc="Symbols with the most self time, per variant.")
def profile_top(con, d: dict, where: str):
    variants = [str(v) for v in d["variants"]]
    raw = fetch_dicts(con, query("profile_top"), {"campaign": d["campaign"], "microbenchmark": d["microbenchmark"],
                                                   "threads": int(d["threads"])})
    raw = [r for r in raw if r["variant"] in variants]
    missing = [v for v in variants if v not in {r["variant"] for r in raw}]
    if missing:
        raise UserError(f"{where}: no profile for {', '.join(map(str, missing))} ({d['microbenchmark']}, "
                        f"{d['threads']} threads) in campaign {d['campaign']}")
    top = int(d.get("top") or 15)
    best: dict[str, float] = {}
    for r in raw:
        best[r["symbol"]] = max(best.get(r["symbol"], 0.0), r["self_share"])
    symbols = sorted(best, key=lambda s: (-best[s], s))[:top]
    shares = {(r["variant"], r["symbol"]): r for r in raw}
    rows = []
    for s in symbols:
        for v in variants:
            r = shares.get((v, s))
            rows.append({"symbol": s, "variant": v, "self_share": r["self_share"] if r else 0.0,
                         "total_share": r["total_share"] if r else 0.0,
                         "source": r["source"] if r else "not sampled"})
    body = [[tables.cell(s)] + [tables.cell(tables.fixed(100 * shares[(v, s)]["self_share"]) + "%"
                                            if (v, s) in shares else "0.00%") for v in variants]
            for s in symbols]
    table = tables.table([("symbol (self share)", False)] + [(v, True) for v in variants], body)
    spec = profile_specs.symbol_shares(d["title"], rows, variants, symbols)
    return Drawn(rows, spec, table, ["symbol", "variant", "self_share", "total_share", "source"])
