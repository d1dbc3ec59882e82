"""The explorer (/explore/): one page, and per server one compact data file the browser reads.

The page draws nothing at build time: site/static/js/explore.js fetches `<server>.json` (and
`<server>.costs.json` only when a cost metric is chosen) and recomputes rQPS from the absolute
QPS for whatever base and builds the reader picks. The files are columnar: each table is a set of
equal-length arrays whose strings are indices into the server's lists of campaigns, variants and
microbenchmarks, so a value is written once and the browser needs no per-row objects.
Each number is written as the shortest text that reads back to it (frontmatter.dumps), which a
browser parses to the same double: the rQPS it computes equals DuckDB's `qps / base_qps` bit for
bit.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..codes import codes_of, keys, sorted_by
from ..contract import OP_COSTS, dbms_name
from ..db import query
from ..derive.changepoints import SPAN
from ..ingest import blobs
from ..paths import campaign_url, server_url
from . import colours
from .charts import variant_colours
from .columns import arrow_of
from .frontmatter import page, write_json
from .selection import label, natural
from .served import served_name
from .site_rows import columns_of, rows_of
from .specs import GROUP_ORDER
from .units import Unit

FORMAT = 2  # 2: index columns of qps may be runs
MYCNF_MAX_BYTES = 65536  # larger files are linked, not inlined in the data file
HIGHER_IS_BETTER = {"ipc"}  # of the per-op costs: for every other one, more is worse


def explore_units(con: duckdb.DuckDBPyConnection, store: Path) -> list[Unit]:
    """A unit per server: its data files (`store`: the contributed files' bytes, ingest/blobs.py)."""
    return [Unit(f"explore {server}", _server_files, (server, store), server=server)
            for server, _ in con.execute(query("explore_servers")).fetchall()]


def render_explore(con: duckdb.DuckDBPyConnection, out_root: Path) -> int:
    """Write /explore/index.md, beside the data files the units wrote; return the number of pages (1)."""
    folder = out_root / "explore"
    folder.mkdir(parents=True, exist_ok=True)
    servers = []
    for server, campaigns in con.execute(query("explore_servers")).fetchall():
        costs = (folder / f"{server}.costs.json").is_file()
        servers.append({"id": server, "campaigns": campaigns, "data": f"{server}.json",
                        "costs": f"{server}.costs.json" if costs else ""})
    # The default view: the server with the most campaigns (ties: the first by id).
    default = max(servers, key=lambda s: s["campaigns"])["id"] if servers else ""
    meta = {"title": "Explore the results", "explorer": True, "servers": servers, "default_server": default,
            "metrics": [{"id": m, "label": f"{short}: {what} ({tool})", "lower_is_better": m not in HIGHER_IS_BETTER}
                        for m, (short, what, _, tool) in OP_COSTS.items()]}
    (folder / "index.md").write_text(page(meta, ""))
    return 1


def _server_files(con: duckdb.DuckDBPyConnection, root: Path, server: str, store: Path) -> int:
    """A server's data file, and its costs file when it has per-operation costs (no page)."""
    folder = root / "explore"
    folder.mkdir(parents=True, exist_ok=True)
    data, costs = server_data(con, server, store)
    write_json(folder / f"{server}.json", data)
    if costs["value"]:
        write_json(folder / f"{server}.costs.json", costs)
    return 0


def _costs(con: duckdb.DuckDBPyConnection, server: str) -> pa.Table:
    """A server's per-operation costs, as Arrow: turned into indices with no Python value per row
    (x100: 41,000 rows on 8 servers)."""
    costed, none = _costed(con)
    return arrow_of(con, query("explore_costs"), {"server": server}) if server in costed else none


@lru_cache(maxsize=1)  # per process and connection
def _costed(con: duckdb.DuckDBPyConnection) -> tuple[frozenset[str], pa.Table]:
    """(the servers with per-operation costs, explore_costs.sql's columns with no row): most servers
    have none (x100: 8 of 60), and are not asked (0.5-2 ms a query)."""
    servers = frozenset(s for (s,) in con.execute(query("explore_costed_servers")).fetchall())
    return servers, arrow_of(con, query("explore_costs"), {"server": None})


@lru_cache(maxsize=1)  # per process and connection: every microbenchmark's
def _catalog(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, str]]:
    return {n: (g, u) for n, g, u in con.execute(query("explore_microbenchmarks")).fetchall()}


def _index(values: list, order: dict) -> list[int]:
    return [order[v] for v in values]


def _codes(values: pa.ChunkedArray, order: dict) -> np.ndarray:
    """Each value's place in `order`, looked up once per distinct value (never null here)."""
    at, distinct = codes_of(values)
    return _places(distinct, order)[at]


def _places(distinct: list, order: dict) -> np.ndarray:
    return np.array([order[v] for v in distinct], dtype=np.int64)


def _test_codes(table: pa.Table, t_at: dict, found: tuple[np.ndarray, list[tuple]] | None = None) -> np.ndarray:
    """Each row's test (microbenchmark and range) as its place in `t_at` (`found`: _tests(table))."""
    at, tests = found or _tests(table)
    return _places(tests, t_at)[at]


def _tests(table: pa.Table) -> tuple[np.ndarray, list[tuple]]:
    """(each row's test as its place in the list, the distinct (microbenchmark, range) pairs; a
    null range is a value of its own), numbered through the columns' codes (codes.py)."""
    return keys([codes_of(table.column("microbenchmark")), codes_of(table.column("range"))])


def runs(values: list | np.ndarray) -> list | dict:
    """A column as {"runs": [value, count, ...]} when that is shorter: the QPS rows come sorted by
    campaign, threads and test, whose columns are a few long runs (explore.js expands them). At
    x100 these columns were half of each server's file. `values`: integers (a list, or an array
    counted in numpy: 20,000 rows a column, five columns a server)."""
    a = np.asarray(values, dtype=np.int64)
    if a.size == 0:
        return []
    starts = np.flatnonzero(np.concatenate(([True], a[1:] != a[:-1])))
    if 2 * len(starts) >= a.size:
        return a.tolist()
    counts = np.diff(np.append(starts, a.size))
    flat = np.empty(2 * len(starts), dtype=np.int64)
    flat[0::2], flat[1::2] = a[starts], counts
    return {"runs": flat.tolist()}


def server_data(con: duckdb.DuckDBPyConnection, server: str, store: Path) -> tuple[dict, dict]:
    """The explorer's data for one server, and its per-op costs (a second, optional file)."""
    p = {"server": server}
    campaigns = columns_of(con, "explore_campaigns", "server", server)
    variants = columns_of(con, "explore_variants", "server", server)
    # turned into indices with no Python value per row
    qps = sorted_by(arrow_of(con, query("explore_qps"), p), ["campaign", "threads", "microbenchmark", "range",
                                                             "build", "config"])
    published = columns_of(con, "explore_published", "server", server)
    costs = _costs(con, server)
    changes = columns_of(con, "explore_changes", "server", server)
    noise_rows = rows_of(con, "ladder_noise", "server", server)
    noise = {k: [r[k] for r in noise_rows] for k in ("campaign", "threads", "sigma")}
    catalog = _catalog(con)

    c_at = {c: i for i, c in enumerate(campaigns["id"])}
    v_at = {v: i for i, v in enumerate(variants["variant"])}
    colour_of = variant_colours(con)  # the variant's colour on every other page
    qps_tests, cost_tests = _tests(qps), _tests(costs)
    named = set(qps_tests[1]) | set(cost_tests[1]) | {
        (n, r) for n, r in zip(published["microbenchmark"], published["range"], strict=True)}
    tests = sorted(named, key=lambda t: (GROUP_ORDER.index(catalog[t[0]][0]), natural(label(*t))))
    t_at = {t: i for i, t in enumerate(tests)}

    def tests_of(cols: dict) -> list[int]:
        return [t_at[(n, r)] for n, r in zip(cols["microbenchmark"], cols["range"], strict=True)]

    data = {
        "format": FORMAT, "server": server, "url": server_url(server),
        "colour": {"domain": list(colours.DOMAIN), "noise": colours.NOISE, "muted": colours.MUTED,
                   "white_text_below": colours.WHITE_TEXT_BELOW, "white_text_above": colours.WHITE_TEXT_ABOVE,
                   "noise_spreads": colours.NOISE_SPREADS,
                   # the variants' palette: a spare colour for a variant whose own another shown has
                   "palette": colours.SERVER_PALETTE},
        # Measured per-point noise σ per campaign and thread count (absent: the stated noise).
        "noise": {"campaign": _index(noise["campaign"], c_at), "threads": noise["threads"], "sigma": noise["sigma"]},
        "campaigns": [{"id": c, "title": t, "date": str(d), "url": campaign_url(c), "measured": m,
                       "bases": [v_at[b] for b in (bases or [])]}
                      for c, t, d, m, bases in zip(campaigns["id"], campaigns["title"], campaigns["date"],
                                                   campaigns["measured"], campaigns["bases"], strict=True)],
        "variants": [{"id": v, "build": b, "config": c, "dbms": dbms_name(d), "engine": e, "version": ver,
                      "compiler": comp or "", "flags": fl or "", "git_hash": gh or "",
                      "build_notes": bn or "", "settings": s or "", "config_notes": cn or "",
                      "colour": colour_of.get(v, "")}
                     for v, b, c, d, e, ver, comp, fl, gh, bn, s, cn in zip(*variants.values(), strict=True)],
        "tests": [{"name": n, "range": r, "label": label(n, r), "group": catalog[n][0], "unit": catalog[n][1]}
                  for n, r in tests],
        "qps": {"campaign": runs(_codes(qps.column("campaign"), c_at)),
                "variant": runs(_codes(qps.column("variant"), v_at)), "test": runs(_test_codes(qps, t_at, qps_tests)),
                "threads": runs(qps.column("threads").to_numpy()), "qps": qps.column("qps").to_pylist(),
                "repetitions": runs(qps.column("repetitions").to_numpy())},
        "published": {"campaign": _index(published["campaign"], c_at), "base": _index(published["base"], v_at),
                      "variant": _index(published["variant"], v_at), "test": tests_of(published),
                      "threads": published["threads"], "rqps": published["rqps"]},
        "changes": {"campaign": _index(changes["campaign"], c_at), "threads": changes["threads"],
                    "kind": changes["kind"], "series": changes["series"],
                    "test": [t_at.get((n, r)) if n else None
                             for n, r in zip(changes["microbenchmark"], changes["range"], strict=True)],
                    "group": changes["group"], "before": _index(changes["before"], v_at),
                    "after": _index(changes["after"], v_at), "change": changes["change"],
                    "pvalue": changes["pvalue"], "span_before": _index(changes["span_before"], v_at),
                    "span_after": _index(changes["span_after"], v_at), "span_level": SPAN},
        "mycnf": _mycnf(con, server, variants, v_at, c_at, store),
    }
    metrics = sorted(pc.unique(costs.column("metric")).to_pylist(), key=list(OP_COSTS).index)
    m_at = {m: i for i, m in enumerate(metrics)}
    cost_data = {"format": FORMAT, "server": server, "metrics": metrics,
                 "units": [OP_COSTS[m][2] for m in metrics],  # each metric's, for its values' headers
                 "campaign": _codes(costs.column("campaign"), c_at).tolist(),
                 "variant": _codes(costs.column("variant"), v_at).tolist(),
                 "test": _test_codes(costs, t_at, cost_tests).tolist(), "threads": costs.column("threads").to_pylist(),
                 "metric": _codes(costs.column("metric"), m_at).tolist(),
                 # inf is published as such by mytools (o/s of 0); JSON has no infinity
                 "value": [v if math.isfinite(v) else "inf" for v in costs.column("value").to_pylist()]}
    return data, cost_data


def _mycnf(con, server: str, data_variants: dict, v_at: dict, c_at: dict, store: Path) -> list[dict]:
    """The my.cnf file of each variant where its campaign ships one: a file whose name holds the
    config id, and the build's version when several do (mytools names them my.cnf.c<config>_<version>).
    A variant with no such file, or with several left, gets none: never a guess."""
    files: dict[str, list[tuple[str, int, str]]] = {}
    mycnf = columns_of(con, "explore_mycnf", "server", server)
    for campaign, name, size, sha256 in zip(*mycnf.values(), strict=True):
        files.setdefault(campaign, []).append((name, size, sha256))
    used = zip(*columns_of(con, "explore_campaign_variants", "server", server).values(), strict=True)
    version = dict(zip(data_variants["variant"], data_variants["version"], strict=True))
    config = dict(zip(data_variants["variant"], data_variants["config"], strict=True))
    out = []
    for campaign, variant in used:
        named = [f for f in files.get(campaign, []) if config[variant] in f[0].rsplit("/", 1)[-1]]
        if len(named) > 1:
            pattern = re.compile(rf"(^|[^0-9.]){re.escape(version[variant])}($|[^0-9])")
            named = [f for f in named if pattern.search(f[0].rsplit("/", 1)[-1])]
        if len(named) != 1:
            continue
        name, size, sha256 = named[0]
        text = None
        if size <= MYCNF_MAX_BYTES:
            text = blobs.get(store, sha256, size).decode("utf-8", "replace")
        out.append({"campaign": c_at[campaign], "variant": v_at[variant], "name": name,
                    "url": campaign_url(campaign) + quote(served_name(name, size)), "text": text})
    return out
