"""Chart kind op-costs: rQPS beside the per-operation costs that explain it, for one comparison.

Costs come from the op_costs model (results' vmstat/iostat columns and perf stat counters per
query), each relative to the same cost of the base variant; rQPS from the rqps model.
"""
from __future__ import annotations

from ..contract import OP_COSTS
from ..problems import UserError
from . import cost_specs, tables
from .registry import Drawn, chart_kind
from .selection import comparison, comparison_costs, explore_query, label, rqps_rows, threads_label

COLUMNS = ["measure", "metric", "microbenchmark", "group", "variant", "relative", "value",
           "base_value", "unit", "repetitions", "order"]


def _measure(metric: str) -> str:
    short, _, _, tool = OP_COSTS[metric]
    return f"{short} ({tool})"


@chart_kind("op-costs", "campaign", "server", "threads", "base", "variants",
            doc="rQPS beside per-operation costs (CPU, context switches, I/O) relative to the base.")
def op_costs(con, d: dict, where: str):
    variants = list(d["variants"])
    rqps, _ = rqps_rows(con, d, where)
    # read column by column, not as a dict per row (Columns.__iter__): the same values
    names, ranks = rqps["microbenchmark"], rqps["order"]
    order = dict(zip(names, ranks, strict=True))
    every_threads = d["threads"] == "all"
    # value and base_value are throughputs: in the microbenchmark's unit (krows/s for scan), not 'ratio'
    rows = [{"measure": "rQPS", "metric": "rqps", "microbenchmark": m, "group": g, "variant": v, "relative": r,
             "value": q, "base_value": b, "unit": u, "repetitions": None, "order": o}
            for m, g, v, r, q, b, u, o in zip(names, rqps["group"], rqps["variant"], rqps["rqps"], rqps["qps"],
                                              rqps["base_qps"], rqps["unit"], ranks, strict=True)]
    wanted = list(d.get("metrics") or OP_COSTS)
    unknown = [m for m in wanted if m not in OP_COSTS]
    if unknown:
        raise UserError(f"{where}: unknown metric {', '.join(unknown)}; use some of {', '.join(OP_COSTS)}")
    c = comparison(d, where)
    # sets, and each metric's measure named once: a comparison's every cost row is read by each of
    # its cost charts (x100: 20,000 rows, five charts); rqps_rows found every variant hashable
    drawn, measure = set(variants), {m: _measure(m) for m in wanted}
    for r in comparison_costs(con, c["campaign"], c["server"], c["base_build"], c["base_config"]):
        if c["threads"] is not None and r["threads"] != c["threads"]:
            continue
        if r["variant"] not in drawn or r["metric"] not in measure or r["relative"] is None:
            continue
        name = label(r["microbenchmark"], r["range"])
        name = f"{name} @ {threads_label(r['threads'])}" if every_threads else name
        if name in order:
            rows.append({"measure": measure[r["metric"]], "metric": r["metric"], "microbenchmark": name,
                         "group": r["group"], "variant": r["variant"], "relative": r["relative"],
                         "value": r["value"], "base_value": r["base_value"], "unit": OP_COSTS[r["metric"]][2],
                         "repetitions": r["repetitions"], "order": order[name]})
    present = {r["metric"] for r in rows}
    if present == {"rqps"}:
        raise UserError(f"{where}: no per-operation costs for this comparison in campaign {d['campaign']}")
    measures = ["rQPS"] + [_measure(m) for m in wanted if m in present]
    metric_order = ["rqps"] + wanted
    place = {v: i for i, v in enumerate(variants)}
    rows.sort(key=lambda r: (metric_order.index(r["metric"]), r["order"], place[r["variant"]]))
    spec = cost_specs.costs_beside_rqps(d["title"], rows, variants, measures)
    first_cost = next(m for m in wanted if m in present)
    return Drawn(rows, spec, _table(rows, variants, measures), COLUMNS,
                 explore_query(con, d, variants, metric=first_cost))


def _table(rows: list[dict], variants: list[str], measures: list[str]) -> dict:
    """Microbenchmark and variant down, one column per measure: relative (absolute value)."""
    cells: dict[tuple, dict] = {}
    place = {v: i for i, v in enumerate(variants)}
    for r in rows:
        cells.setdefault((r["order"], r["microbenchmark"], place[r["variant"]], r["variant"]), {})[
            r["measure"]] = r
    body = []
    # A row past those a page shows (tables.SHOWN_ROWS) is counted (tables.cut), never printed: one
    # unfilled row for each, as pivot_ratios leaves the columns it hides (x100: a cost chart of 640
    # rows formatted every cost, 0.1 CPU s of the campaign pages).
    unfilled = [tables.cell("")] * (2 + len(measures))
    for n, key in enumerate(sorted(cells)):
        if n >= tables.SHOWN_ROWS:
            body.append(unfilled)
            continue
        line = [tables.cell(key[1]), tables.cell(key[3])]
        for m in measures:
            r = cells[key].get(m)
            if r is None:
                line.append(tables.cell(""))
                continue
            shown = tables.fixed(r["relative"]) + (
                "" if r["metric"] == "rqps" else f" ({tables.significant(r['value'])})")
            cls = tables.ratio_class(r["relative"]) if r["metric"] == "rqps" else ""
            line.append(tables.cell(shown, cls))
        body.append(line)
    # a cost's cells are its ratio and its value: the heading says the value's unit
    unit = {r["measure"]: r["unit"] for r in rows if r["metric"] != "rqps"}
    headings = [f"{m}: relative (value in {unit[m]})" if m in unit else m for m in measures]
    return tables.table([("microbenchmark", False), ("variant", False)] + [(h, True) for h in headings], body)
