"""Calibration chart kinds: a chart definition naming `calibrations` (folder names, in the order
to show them) → rows, spec, table and CSV columns, as the kinds in charts.py.
"""
from __future__ import annotations

from ..db import fetch_dicts, query
from ..problems import UserError
from . import calibration_specs as specs
from . import tables
from .registry import Drawn, chart_kind
from .tables import cell, fmt

RULES = {"excluded": "[0, N)", "included": "[0, N]"}
RULE_LABELS = {"excluded": "[0, N): MySQL ≤ 8.0.28", "included": "[0, N]: MySQL ≥ 8.0.30"}
FLAGS = specs.FLAGS


def _selected(con, d: dict, where: str) -> tuple[list[str], dict[str, str]]:
    """The calibration ids asked for, and the label of each: its server, or its id when the
    selection holds two calibrations of one server."""
    ids = d["calibrations"]
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise UserError(f"{where}: 'calibrations' must be a list of calibration folder names")
    known = {r["id"]: r["server"] for r in fetch_dicts(con, query("calibration_ids"))}
    missing = [i for i in ids if i not in known]
    if missing:
        raise UserError(f"{where}: unknown calibration {', '.join(map(str, missing))} (see data/calibrations/)")
    servers = [known[i] for i in ids]
    return ids, {i: known[i] if servers.count(known[i]) == 1 else i for i in ids}


def _fetch(con, name: str, ids: list[str], where: str, what: str) -> list[dict]:
    rows = fetch_dicts(con, query(name), {"calibrations": ids})
    if not rows:
        raise UserError(f"{where}: no {what} in calibrations {', '.join(ids)}")
    return sorted(rows, key=lambda r: ids.index(r["calibration"]))


def _unique(values) -> list:
    return list(dict.fromkeys(values))


def function_label(r: dict) -> str:
    """'ut_rnd_interval 8.0.28 · X in [0, N)', 'lcg (as ut_rnd_interval) · X in [0, N]'."""
    label = r["function"]
    if r["innodb_function"] and r["innodb_function"] != label:
        label += f" (as {r['innodb_function']})"
    if r["version"]:
        label += f" {r['version']}"
    if r["upper_bound"]:
        label += f" · X in {RULES[r['upper_bound']]}"
    return label


def _without_empty_columns(table: dict) -> dict:
    """Drop the columns no row has a value for (constants a source did not state)."""
    keep = [i for i in range(len(table["columns"])) if any(r[i]["text"] for r in table["rows"])]
    return {"columns": [table["columns"][i] for i in keep],
            "rows": [[r[i] for i in keep] for r in table["rows"]]}


def _plus_minus(value: float | None, error: float | None, decimals: int = 3) -> str:
    if value is None:
        return ""
    return fmt(value, decimals) + (f" ± {fmt(error, decimals)}" if error is not None else "")


UT_DELAY_COLUMNS = ["who", "calibration", "series", "version", "flags", "delay", "multiplier",
                    "us_per_call", "us_text", "calls", "repetitions", "stddev_us", "min_us", "max_us",
                    "us_per_unit", "us_per_unit_stderr"]


@chart_kind("ut-delay", "calibrations",
            doc="µs per ut_delay(X) call against X, per calibration and compiler flags, with the fit.")
def ut_delay(con, d, where):
    ids, who = _selected(con, d, where)
    raw = _fetch(con, "calibration_ut_delay", ids, where, "ut_delay.csv rows")
    rows = [{**{k: r.get(k) for k in UT_DELAY_COLUMNS}, "who": who[r["calibration"]],
             "us_text": r["us_per_call_text"]} for r in raw]
    lines = _unique((r["who"], r["series"]) for r in rows)
    delays = sorted({r["delay"] for r in rows})
    grid = {(r["who"], r["series"], r["delay"]): r["us_text"] for r in rows}
    fit = {(r["who"], r["series"]): (r["us_per_unit"], r["us_per_unit_stderr"]) for r in rows}
    body = [[cell(w), cell(s)] + [cell(grid.get((w, s, x), "")) for x in delays] + [cell(_plus_minus(*fit[(w, s)]))]
            for w, s in lines]
    table = tables.table([("server", False), ("series", False)] + [(f"X = {x}", True) for x in delays]
                         + [("µs per unit (fit ± se)", True)], body)
    every_server = [r["id"] for r in fetch_dicts(con, query("servers"))]
    spec = specs.ut_delay(d["title"], rows, _unique(r["who"] for r in rows), _unique(r["series"] for r in rows),
                          every_server)
    return Drawn(rows, spec, table, UT_DELAY_COLUMNS)


PRNG_COLUMNS = ["who", "calibration", "panel", "function", "innodb_function", "version", "flags",
                "upper_bound", "n", "ns_per_call", "ns_text", "calls", "repetitions", "stddev_ns",
                "min_ns", "max_ns", "mean_draw"]


@chart_kind("prng-cost", "calibrations",
            doc="ns per draw of X for each random-number variant and interval rule.")
def prng_cost(con, d, where):
    ids, who = _selected(con, d, where)
    raw = _fetch(con, "calibration_prng", ids, where, "prng.csv rows")
    rows = [{**{k: r.get(k) for k in PRNG_COLUMNS}, "who": who[r["calibration"]],
             "panel": function_label(r), "ns_text": r["ns_per_call_text"]} for r in raw]
    panels, whos = _unique(r["panel"] for r in rows), _unique(r["who"] for r in rows)
    rows.sort(key=lambda r: (panels.index(r["panel"]), whos.index(r["who"]), FLAGS.index(r["flags"])))
    grid = {(r["panel"], r["who"], r["flags"]): r["ns_text"] for r in rows}
    pairs = _unique((r["panel"], r["who"]) for r in rows)
    body = [[cell(p), cell(w)] + [cell(grid.get((p, w, f), "")) for f in FLAGS] for p, w in pairs]
    table = tables.table([("function", False), ("server", False)] + [(f"{f} ns", True) for f in FLAGS], body)
    return Drawn(rows, specs.prng_cost(d["title"], rows, panels, whos), table, PRNG_COLUMNS)


SPIN_COLUMNS = ["who", "calibration", "n", "rule", "upper_bound", "mean_units", "wait_us"]


@chart_kind("spin-wait", "calibrations",
            doc="Expected wait per spin round against innodb_spin_wait_delay, per server.")
def spin_wait(con, d, where):
    ids, who = _selected(con, d, where)
    raw = _fetch(con, "calibration_spin_wait", ids, where, "ut_delay.csv rows to fit")
    rows = [{"who": who[r["calibration"]], "calibration": r["calibration"], "n": r["n"],
             "rule": RULE_LABELS[b], "upper_bound": b, "mean_units": r[f"mean_units_{b}"],
             "wait_us": r[f"wait_us_{b}"]} for r in raw for b in RULES]
    whos = _unique(r["who"] for r in rows)
    per_n = {r["n"]: r for r in raw}
    wait = {(r["who"], r["n"], r["upper_bound"]): r["wait_us"] for r in rows}
    body = [[cell(str(n)), cell(fmt(per_n[n]["mean_units_excluded"], 1)),
             cell(fmt(per_n[n]["mean_units_included"], 1)), cell(fmt(per_n[n]["ratio"]))]
            + [cell(fmt(wait[(w, n, b)])) for w in whos for b in RULES] for n in sorted(per_n)]
    columns = [("N", True), ("mean X in [0, N)", True), ("mean X in [0, N]", True), ("ratio", True)]
    columns += [(f"{w} µs, {RULES[b]}", True) for w in whos for b in RULES]
    spec = specs.spin_wait(d["title"], rows, whos, list(RULE_LABELS.values()))
    return Drawn(rows, spec, tables.table(columns, body), SPIN_COLUMNS)


DRAW_COLUMNS = ["who", "calibration", "panel", "function", "flags", "ns_per_call", "ns_text",
                "spin_wait_delay", "upper_bound", "wait_us", "percent"]


@chart_kind("draw-cost", "calibrations",
            doc="Cost of drawing X relative to the wait it buys, per server.")
def draw_cost(con, d, where):
    ids, who = _selected(con, d, where)
    raw = _fetch(con, "calibration_draw_cost", ids, where,
                 "draw costs (they need ut_delay.csv, prng.csv and innodb_spin_wait_delay in constants.csv)")
    rows = [{**{k: r.get(k) for k in DRAW_COLUMNS}, "who": who[r["calibration"]], "panel": function_label(r),
             "ns_text": r["ns_per_call_text"], "percent": 100 * r["draw_over_wait"]} for r in raw]
    panels, whos = _unique(r["panel"] for r in rows), _unique(r["who"] for r in rows)
    rows.sort(key=lambda r: (panels.index(r["panel"]), whos.index(r["who"]), FLAGS.index(r["flags"])))
    grid = {(r["panel"], r["who"], r["flags"]): r for r in rows}
    pairs = _unique((r["panel"], r["who"]) for r in rows)
    body = []
    for p, w in pairs:
        first = next(r for r in rows if (r["panel"], r["who"]) == (p, w))
        body.append([cell(p), cell(w), cell(fmt(first["spin_wait_delay"], 0)), cell(fmt(first["wait_us"]))]
                    + [cell(fmt(grid[(p, w, f)]["percent"]) if (p, w, f) in grid else "") for f in FLAGS])
    table = tables.table([("function", False), ("server", False), ("N", True), ("expected wait µs", True)]
                         + [(f"{f} %", True) for f in FLAGS], body)
    return Drawn(rows, specs.draw_cost(d["title"], rows, panels, whos), table, DRAW_COLUMNS)


SERVER_COLUMNS = ["who", "calibration", "us_per_unit", "us_per_unit_stderr", "low", "high", "points", "r2",
                  "spin_wait_delay", "mean_units_excluded", "mean_units_included", "ratio",
                  "wait_us_excluded", "wait_us_included", "ns_old_text", "ns_crc_text", "ns_fast_text",
                  "fast_over_old", "cycle_timer_overhead_text", "pause_tsc_cycles_text", "tsc_ghz_text"]


@chart_kind("calibration-servers", "calibrations",
            doc="One µs-per-unit figure per server, side by side.")
def calibration_servers(con, d, where):
    ids, who = _selected(con, d, where)
    raw = _fetch(con, "calibration_servers", ids, where, "ut_delay.csv rows to fit")
    rows = []
    for r in raw:
        se = r["us_per_unit_stderr"] or 0.0
        rows.append({**{k: r.get(k) for k in SERVER_COLUMNS}, "who": who[r["calibration"]],
                     "low": r["us_per_unit"] - se, "high": r["us_per_unit"] + se})
    body = [[cell(r["who"]), cell(_plus_minus(r["us_per_unit"], r["us_per_unit_stderr"])),
             cell(fmt(r["spin_wait_delay"], 0)), cell(fmt(r["mean_units_excluded"], 1)),
             cell(fmt(r["mean_units_included"], 1)), cell(fmt(r["ratio"])),
             cell(fmt(r["wait_us_excluded"])), cell(fmt(r["wait_us_included"])),
             cell(r["ns_old_text"] or ""), cell(r["ns_crc_text"] or ""), cell(r["ns_fast_text"] or ""),
             cell(fmt(r["fast_over_old"], 1)), cell(r["cycle_timer_overhead_text"] or ""),
             cell(r["pause_tsc_cycles_text"] or ""), cell(r["tsc_ghz_text"] or "")] for r in rows]
    table = tables.table([
        ("server", False), ("µs per delay unit (± se)", True), ("N", True), ("mean X in [0, N)", True),
        ("mean X in [0, N]", True), ("ratio", True), ("wait µs, [0, N)", True), ("wait µs, [0, N]", True),
        ("ns ut_rnd_interval", True), ("ns random_from_interval", True),
        ("ns random_from_interval_fast", True), ("fast / ut_rnd_interval", True),
        ("CYCLE timer overhead (cycles)", True), ("PAUSE (TSC cycles)", True), ("TSC GHz", True)], body)
    spec = specs.calibration_servers(d["title"], rows, [r["who"] for r in rows])
    return Drawn(rows, spec, _without_empty_columns(table), SERVER_COLUMNS)


TIMEBASE_COLUMNS = ["who", "calibration", "subject", "run", "ticks", "ticks_text", "timebase_mhz", "us"]


@chart_kind("timebase-runs", "calibrations",
            doc="Repeated timebase readings per subject: mean, min, max, spread.")
def timebase_runs(con, d, where):
    ids, who = _selected(con, d, where)
    raw = _fetch(con, "calibration_timebase", ids, where, "tick counts (calibration.toml campaign and measure)")
    rows = [{**{k: r.get(k) for k in TIMEBASE_COLUMNS}, "who": who[r["calibration"]],
             "us": r["ticks"] / r["timebase_mhz"] if r["timebase_mhz"] else None} for r in raw]
    subjects = _unique(r["subject"] for r in raw)
    summary = {r["subject"]: r for r in raw}
    body = [[cell(s), cell(str(summary[s]["runs"])), cell(fmt(summary[s]["mean_ticks"], 1)),
             cell(fmt(summary[s]["min_ticks"], 0)), cell(fmt(summary[s]["max_ticks"], 0)),
             cell(fmt(summary[s]["stddev_ticks"], 1)), cell(fmt(summary[s]["mean_us"], 3))] for s in subjects]
    table = tables.table([("subject", False), ("runs", True), ("mean ticks", True), ("min", True),
                          ("max", True), ("stddev", True), ("mean µs per call", True)], body)
    return Drawn(rows, specs.timebase_runs(d["title"], rows, subjects), table, TIMEBASE_COLUMNS)
