"""Comparison chart kinds: rQPS against a base, summaries, throughput, printed observations."""
from __future__ import annotations

from functools import lru_cache

import pyarrow as pa
import pyarrow.compute as pc

from ..db import fetch_dicts, query
from ..problems import UserError
from . import specs, tables
from .columns import Columns
from .registry import Drawn, chart_kind
from .selection import RQPS_COLUMNS, comparison, explore_query, label, rqps_rows, throughput_rows, units
from .specs import GROUP_ORDER


@chart_kind("rqps-bars", "campaign", "server", "threads", "base", "variants",
            doc="rQPS per microbenchmark as bars grouped point/range/write, one bar per variant, with the 1.0 line.")
def rqps_bars(con, d, where) -> Drawn:
    rows, variants = rqps_rows(con, d, where)
    return _drawn(specs.rqps_bars(d["title"], rows, variants), tables.pivot_ratios(rows, variants),
                  explore_query(con, d, variants))


@chart_kind("rqps-heatmap", "campaign", "server", "threads", "base",
            doc="rQPS as a heatmap, microbenchmark × variant.",
            # origin in the key: a campaign may give a variant's rQPS both measured and published
            shares=(("microbenchmark", "variant", "origin"), ("rqps", "qps", "base_qps")))
def rqps_heatmap(con, d, where):
    rows, variants = rqps_rows(con, d, where)
    return _drawn(specs.rqps_heatmap(d["title"], rows, variants), tables.pivot_ratios(rows, variants),
                  explore_query(con, d, variants, view="heatmap"))


def _drawn(spec: dict, table: dict, explore: dict) -> Drawn:
    """An rQPS chart: its CSV holds the columns its spec was drawn from (specs.drawn_rows)."""
    rows = spec["data"]["values"]
    return Drawn(rows, spec, table, [c for c in RQPS_COLUMNS if c in rows], explore)


@chart_kind("rqps-summary", "campaign", "server", "threads", "base", "variants",
            doc="min/max/avg/median rQPS per group and variant, derived from the measured rQPS.")
def rqps_summary(con, d, where):
    _, variants = rqps_rows(con, d, where)
    raw = fetch_dicts(con, query("summary_selection"), comparison(d, where))
    rows = [{"series": r["variant"], "group": r["group"], "min": r["min"], "max": r["max"],
             "avg": r["avg"], "median": r["median"], "n": r["n"], "origin": f"derived from {r['origin']} rQPS"}
            for r in raw if r["variant"] in variants]
    rows.sort(key=lambda r: (variants.index(r["series"]), GROUP_ORDER.index(r["group"])))
    return Drawn(rows, specs.summary_ranges(d["title"], rows, variants), _summary_table(rows),
                 ["series", "group", "min", "max", "avg", "median", "n", "origin"], explore_query(con, d, variants))



def _summary_table(rows: list[dict]) -> dict:
    body = [[tables.cell(r["series"]), tables.cell(r["group"])] +
            [tables.cell(tables.fmt(r[s]), tables.ratio_class(r[s])) for s in ("min", "max", "avg", "median")] +
            ([tables.cell(str(r["n"]))] if "n" in r else [])
            for r in rows]
    cols = [("series", False), ("group", False), ("min", True), ("max", True), ("avg", True), ("median", True)]
    if rows and "n" in rows[0]:
        cols.append(("n", True))
    return tables.table(cols, body)


@chart_kind("published-summary", "campaign", "server",
            doc="rQPS summaries per group as the source printed them.")
def published_summary(con, d, where):
    raw = fetch_dicts(con, query("published_summary"), {"campaign": d["campaign"], "server": d["server"]})
    if not raw:
        raise UserError(f"{where}: no published summaries for {d['server']} in campaign {d['campaign']}")
    rows = []
    for r in raw:
        series = (f"{r['engine']} {r['version']} vs {r['base_version']}, "
                  f"{r['threads']} thread{'s' if r['threads'] != 1 else ''}")
        rows.append({"series": series, "group": r["group"], "min": r["min"], "max": r["max"],
                     "avg": r["avg"], "median": r["median"], "build": r["build"], "config": r["config"],
                     "base_build": r["base_build"], "base_config": r["base_config"], "threads": r["threads"],
                     "origin": "published"})
    series = list(dict.fromkeys(r["series"] for r in rows))
    return Drawn(rows, specs.summary_ranges(d["title"], rows, series), _summary_table(rows),
                 ["series", "group", "min", "max", "avg", "median", "build", "config", "base_build",
                  "base_config", "threads", "origin"])


def _throughput(con, d, where) -> pa.Table:
    rows = throughput_rows(con, d["campaign"], d["server"])
    if not rows.num_rows:
        raise UserError(f"{where}: no results for {d['server']} in campaign {d['campaign']}")
    return rows


@chart_kind("throughput-lines", "campaign", "server", "variants",
            doc="Throughput against the thread count, one line per variant, one microbenchmark at a time (a menu).")
def throughput_lines(con, d, where):
    variants = list(d["variants"])
    every = _throughput(con, d, where)  # a server page draws the newest 16 variants of them all
    given = pa.array([v for v in variants if isinstance(v, str)], pa.string())  # 8.0 in YAML: no variant
    picked = every.filter(pc.is_in(every.column("variant"), value_set=given))
    variant, tests, ranges, threads, qps = (picked.column(k).to_pylist()
                                            for k in ("variant", "microbenchmark", "range", "threads", "qps"))
    found = set(variant)
    missing = [v for v in variants if v not in found]
    if missing:
        raise UserError(f"{where}: no results for {', '.join(map(str, missing))} in campaign {d['campaign']}")
    unit_of = units(con)  # each row's: a server's menu holds scan (krows/s) beside queries/s
    rows = [{"variant": v, "microbenchmark": label(t, r), "threads": n, "qps": q, "unit": unit_of[t]}
            for v, t, r, n, q in zip(variant, tests, ranges, threads, qps, strict=True)]
    place = {v: i for i, v in enumerate(variants)}
    rows.sort(key=lambda r: (place[r["variant"]], r["microbenchmark"], r["threads"]))
    microbenchmarks = sorted({r["microbenchmark"] for r in rows})
    unit = {r["microbenchmark"]: r["unit"] for r in rows}
    threads = sorted({r["threads"] for r in rows})
    grid = {(r["microbenchmark"], r["threads"], r["variant"]): r["qps"] for r in rows}
    present = {(m, t) for m, t, _ in grid}
    names = [(m, t) for m in microbenchmarks for t in threads if (m, t) in present]
    # The cells a page shows alone (x100: a campaign's 100 variants by 200 rows for its 16 by 100)
    shown = names[:tables.SHOWN_ROWS]
    columns = [[tables.cell(text) for text in tables.fmt_each([grid.get((m, t, v)) for m, t in shown])]
               for v in variants[tables.unshown(len(variants)):]]
    table = tables.value_table([("microbenchmark", False), ("unit", False), ("threads", True)], variants,
                               [[m, unit[m], str(t)] for m, t in names], columns)
    return Drawn(rows, specs.throughput_lines(d["title"], rows, variants, microbenchmarks), table,
                 ["variant", "microbenchmark", "threads", "qps", "unit"])


@lru_cache(maxsize=4)  # per build's connection: a few hundred ids
def _lookup(con, name: str) -> dict:
    """A two-column query (sql/queries/<name>.sql) as a dict: key -> value."""
    return dict(con.execute(query(name)).fetchall())


def _setting_value(settings: str | None, name: str) -> str | None:
    for part in (settings or "").split(";"):
        key, _, value = part.partition("=")
        if key == name:
            return value
    return None


@chart_kind("throughput-vs-setting", "campaign", "server", "threads", "setting",
            doc="Throughput against the value of one config setting at one thread count.")
def throughput_vs_setting(con, d, where):
    setting, threads = d["setting"], int(d["threads"])
    rows = []
    settings, unit_of = _lookup(con, "config_settings"), units(con)
    for r in Columns.of_arrow(_throughput(con, d, where)):
        value = _setting_value(settings[r["config"]], setting)
        if r["threads"] == threads and value is not None:
            rows.append({"config": r["config"], "setting_value": value, "threads": r["threads"],
                         "qps": r["qps"], "unit": unit_of[r["microbenchmark"]],
                         "microbenchmark": label(r["microbenchmark"], r["range"]), "build": r["build"]})
    if not rows:
        raise UserError(f"{where}: no results at {threads} threads with configs setting {setting}")

    def numeric(v: str):
        try:
            return (0, float(v), v)
        except ValueError:
            return (1, 0.0, v)
    rows.sort(key=lambda r: numeric(r["setting_value"]))
    for i, r in enumerate(rows):
        r["setting_order"] = i
    body = [[tables.cell(r["setting_value"]), tables.cell(r["config"]), tables.cell(tables.fmt(r["qps"])),
             tables.cell(r["unit"])] for r in rows]
    table = tables.table([(setting, True), ("config", False), ("throughput", True), ("unit", False)], body)
    return Drawn(rows, specs.throughput_by_setting(d["title"], rows, setting), table,
                 ["setting_value", "config", "build", "microbenchmark", "threads", "qps", "unit", "setting_order"])


@chart_kind("observations", "campaign", "measure",
            doc="Values a source printed (observations.csv), per subject, against x.")
def observations(con, d, where):
    raw = fetch_dicts(con, query("observations_selection"), {"campaign": d["campaign"], "measure": d["measure"]})
    if not raw:
        raise UserError(f"{where}: no observations '{d['measure']}' in campaign {d['campaign']}")
    subjects = list(dict.fromkeys(r["subject"] for r in raw))
    units = sorted({r["unit"] for r in raw})
    rows = [{"subject": r["subject"], "x": r["x"], "value": r["value"], "value_text": r["value_text"],
             "unit": r["unit"], "note": r["note"]} for r in raw]
    x_label = raw[0]["x_label"]
    has_x = any(r["x"] is not None for r in rows)  # no empty "x" column when nothing has an x
    body = [[tables.cell(r["subject"])]
            + ([tables.cell(tables.fmt(r["x"], 0) if r["x"] is not None else "")] if has_x else [])
            + [tables.cell(r["value_text"]), tables.cell(r["unit"])] for r in rows]
    table = tables.table([("subject", False)] + ([(x_label or "x", True)] if has_x else [])
                         + [("value", True), ("unit", False)], body)
    spec = specs.observations(d["title"], rows, subjects, x_label, " / ".join(units), bool(d.get("log_y")))
    return Drawn(rows, spec, table, ["subject", "x", "value", "value_text", "unit", "note"])
