"""Chart kinds: a chart definition (from front matter or a server page) → rows, spec, table, CSV.

Each kind queries DuckDB with named parameters (never string-built SQL) and hands plain rows to a
spec builder in specs.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import duckdb

from ..db import fetch_dicts, query
from ..problems import UserError
from . import calibration_charts, specs, tables
from .specs import GROUP_ORDER


@dataclass
class Chart:
    id: str
    kind: str
    title: str
    caption: str
    spec: dict
    table: dict
    csv: str
    rows: int

    def front_matter(self) -> dict:
        return {"id": self.id, "kind": self.kind, "title": self.title, "caption": self.caption,
                "spec": f"{self.id}.vl.json", "table": f"{self.id}.table.json",
                "csv": f"{self.id}.csv", "rows": self.rows}


REQUIRED = {
    "rqps-bars": ("campaign", "server", "threads", "base", "variants"),
    "rqps-summary": ("campaign", "server", "threads", "base", "variants"),
    "rqps-heatmap": ("campaign", "server", "threads", "base"),
    "published-summary": ("campaign", "server"),
    "throughput-lines": ("campaign", "server", "variants"),
    "throughput-vs-setting": ("campaign", "server", "threads", "setting"),
    "observations": ("campaign", "measure"),
}


def label(name: str, rng: int | None) -> str:
    """The seeds' microbenchmark label: name plus its range parameter."""
    return f"{name}_range={rng}" if rng is not None else name


def _split_variant(text: str, where: str) -> tuple[str, str]:
    build, dot, config = str(text).partition(".")
    if not dot or not build or not config:
        raise UserError(f"{where}: '{text}' is not a variant; write it as build.config")
    return build, config


def _comparison(d: dict, where: str) -> dict:
    base_build, base_config = _split_variant(d["base"], where)
    threads = None if d["threads"] == "all" else int(d["threads"])
    return {"campaign": d["campaign"], "server": d["server"], "threads": threads,
            "base_build": base_build, "base_config": base_config}


def _rqps_rows(con, d: dict, where: str) -> tuple[list[dict], list[str]]:
    rows = fetch_dicts(con, query("rqps_selection"), _comparison(d, where))
    variants = d.get("variants") or _ordered_variants(rows)
    missing = [v for v in variants if v not in {r["variant"] for r in rows}]
    if missing:
        raise UserError(f"{where}: no rQPS rows for {', '.join(missing)} in campaign "
                        f"{d['campaign']} (check the campaign, server, threads and base)")
    every_threads = d["threads"] == "all"
    out = []
    for r in rows:
        if r["variant"] in variants:
            name = label(r["microbenchmark"], r["range"])
            out.append({
                # With every thread count in one chart, each row is a microbenchmark at N threads.
                "microbenchmark": f"{name} @ {r['threads']} threads" if every_threads else name,
                "group": r["group"], "variant": r["variant"], "rqps": r["rqps"], "qps": r["qps"],
                "base_qps": r["base_qps"], "origin": r["origin"],
                "sort": (GROUP_ORDER.index(r["group"]), name, r["threads"]),
            })
    # Order within a group alphabetically by label (as the seeds' tables do), then by threads.
    rank = {key: i for i, key in enumerate(sorted({r["sort"] for r in out}))}
    for r in out:
        r["order"] = rank[r.pop("sort")]
    out.sort(key=lambda r: (r["order"], variants.index(r["variant"])))
    return out, list(variants)


def natural(text: str) -> list:
    """'itc8' before 'itc16': digit runs compare as numbers."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text) if p]


def _ordered_variants(rows: list[dict]) -> list[str]:
    """Variants by version (never by string), then build and config in natural order."""
    seen: dict[str, tuple] = {}
    for r in rows:
        seen.setdefault(r["variant"], (r["version_key"], natural(r["build"]), natural(r["config"])))
    return sorted(seen, key=lambda v: seen[v])


RQPS_COLUMNS = ["microbenchmark", "group", "variant", "rqps", "qps", "base_qps", "origin", "order"]


def rqps_bars(con, d, where) -> tuple[list[dict], dict, dict, list[str]]:
    rows, variants = _rqps_rows(con, d, where)
    return rows, specs.rqps_bars(d["title"], rows, variants), tables.pivot_ratios(rows, variants), RQPS_COLUMNS


def rqps_heatmap(con, d, where):
    rows, variants = _rqps_rows(con, d, where)
    return rows, specs.rqps_heatmap(d["title"], rows, variants), tables.pivot_ratios(rows, variants), RQPS_COLUMNS


def rqps_summary(con, d, where):
    _, variants = _rqps_rows(con, d, where)
    raw = fetch_dicts(con, query("summary_selection"), _comparison(d, where))
    rows = [{"series": r["variant"], "group": r["group"], "min": r["min"], "max": r["max"],
             "avg": r["avg"], "median": r["median"], "n": r["n"], "origin": f"derived from {r['origin']} rQPS"}
            for r in raw if r["variant"] in variants]
    rows.sort(key=lambda r: (variants.index(r["series"]), GROUP_ORDER.index(r["group"])))
    return rows, specs.summary_ranges(d["title"], rows, variants), _summary_table(rows), \
        ["series", "group", "min", "max", "avg", "median", "n", "origin"]


def _summary_table(rows: list[dict]) -> dict:
    body = [[tables.cell(r["series"]), tables.cell(r["group"])] +
            [tables.cell(tables.fmt(r[s]), tables.ratio_class(r[s])) for s in ("min", "max", "avg", "median")] +
            ([tables.cell(str(r["n"]))] if "n" in r else [])
            for r in rows]
    cols = [("series", False), ("group", False), ("min", True), ("max", True), ("avg", True), ("median", True)]
    if rows and "n" in rows[0]:
        cols.append(("n", True))
    return tables.table(cols, body)


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
    return rows, specs.summary_ranges(d["title"], rows, series), _summary_table(rows), \
        ["series", "group", "min", "max", "avg", "median", "build", "config", "base_build",
         "base_config", "threads", "origin"]


def _throughput(con, d, where) -> list[dict]:
    rows = fetch_dicts(con, query("throughput"), {"campaign": d["campaign"], "server": d["server"]})
    if not rows:
        raise UserError(f"{where}: no results for {d['server']} in campaign {d['campaign']}")
    return rows


def throughput_lines(con, d, where):
    variants = list(d["variants"])
    raw = [r for r in _throughput(con, d, where) if r["variant"] in variants]
    missing = [v for v in variants if v not in {r["variant"] for r in raw}]
    if missing:
        raise UserError(f"{where}: no results for {', '.join(missing)} in campaign {d['campaign']}")
    rows = [{"variant": r["variant"], "microbenchmark": label(r["microbenchmark"], r["range"]),
             "threads": r["threads"], "qps": r["qps"]} for r in raw]
    rows.sort(key=lambda r: (variants.index(r["variant"]), r["microbenchmark"], r["threads"]))
    threads = sorted({r["threads"] for r in rows})
    grid = {(r["variant"], r["threads"]): r["qps"] for r in rows}
    body = [[tables.cell(str(t))] + [tables.cell(tables.fmt(grid.get((v, t)))) for v in variants]
            for t in threads]
    table = tables.table([("threads", True)] + [(v, True) for v in variants], body)
    return rows, specs.throughput_lines(d["title"], rows, variants, raw[0]["unit"]), table, \
        ["variant", "microbenchmark", "threads", "qps"]


def _setting_value(settings: str | None, name: str) -> str | None:
    for part in (settings or "").split(";"):
        key, _, value = part.partition("=")
        if key == name:
            return value
    return None


def throughput_vs_setting(con, d, where):
    setting, threads = d["setting"], int(d["threads"])
    rows = []
    for r in _throughput(con, d, where):
        value = _setting_value(r["settings"], setting)
        if r["threads"] == threads and value is not None:
            rows.append({"config": r["config"], "setting_value": value, "threads": r["threads"],
                         "qps": r["qps"], "microbenchmark": label(r["microbenchmark"], r["range"]),
                         "build": r["build"]})
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
    body = [[tables.cell(r["setting_value"]), tables.cell(r["config"]), tables.cell(tables.fmt(r["qps"]))]
            for r in rows]
    table = tables.table([(setting, True), ("config", False), ("throughput", True)], body)
    unit = _throughput(con, d, where)[0]["unit"]
    return rows, specs.throughput_by_setting(d["title"], rows, setting, unit), table, \
        ["setting_value", "config", "build", "microbenchmark", "threads", "qps", "setting_order"]


def observations(con, d, where):
    raw = fetch_dicts(con, query("observations_selection"), {"campaign": d["campaign"], "measure": d["measure"]})
    if not raw:
        raise UserError(f"{where}: no observations '{d['measure']}' in campaign {d['campaign']}")
    subjects = list(dict.fromkeys(r["subject"] for r in raw))
    units = sorted({r["unit"] for r in raw})
    rows = [{"subject": r["subject"], "x": r["x"], "value": r["value"], "value_text": r["value_text"],
             "unit": r["unit"], "note": r["note"]} for r in raw]
    x_label = raw[0]["x_label"]
    body = [[tables.cell(r["subject"]), tables.cell(tables.fmt(r["x"], 0) if r["x"] is not None else ""),
             tables.cell(r["value_text"]), tables.cell(r["unit"])] for r in rows]
    table = tables.table([("subject", False), (x_label or "x", True), ("value", True), ("unit", False)], body)
    spec = specs.observations(d["title"], rows, subjects, x_label, " / ".join(units), bool(d.get("log_y")))
    return rows, spec, table, ["subject", "x", "value", "value_text", "unit", "note"]


KINDS = {
    "rqps-bars": rqps_bars, "rqps-heatmap": rqps_heatmap, "rqps-summary": rqps_summary,
    "published-summary": published_summary, "throughput-lines": throughput_lines,
    "throughput-vs-setting": throughput_vs_setting, "observations": observations,
}
KINDS.update(calibration_charts.KINDS)  # ut-delay, prng-cost, spin-wait, draw-cost, ...
REQUIRED.update(calibration_charts.REQUIRED)
# Kinds in their own modules that build on the comparison helpers above, so imported after them.
from . import cost_charts, profile_charts, repetition_charts  # noqa: E402

for _module in (cost_charts, profile_charts, repetition_charts):
    KINDS.update(_module.KINDS)
    REQUIRED.update(_module.REQUIRED)


def make_chart(con: duckdb.DuckDBPyConnection, d: dict, where: str) -> Chart:
    kind = d.get("kind")
    if kind not in KINDS:
        raise UserError(f"{where}: chart kind '{kind}' is unknown; use one of {', '.join(sorted(KINDS))}")
    for key in ("id", "title", *REQUIRED[kind]):
        if not d.get(key):
            raise UserError(f"{where}: chart '{d.get('id', '?')}' needs '{key}'")
    rows, spec, table, columns = KINDS[kind](con, d, f"{where}: chart '{d['id']}'")
    return Chart(d["id"], kind, d["title"], d.get("caption", ""), spec, table,
                 tables.to_csv(rows, columns), len(rows))
