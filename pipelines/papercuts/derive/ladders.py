"""Stage 3b: version ladders and their change points, from ladder_values (sql/models/14_*).

The SQL gives the values; the search for steps (derive/changepoints.py) is Python because it is a
recursion over each series. Results go back into DuckDB as three tables for render and export:
ladders, ladder_builds (position, drift) and change_points.
"""
from __future__ import annotations

import math
from collections import defaultdict

import duckdb

from ..db import insert_columns, query
from .changepoints import detect

MIN_BUILDS = 3  # two builds are a comparison, not a ladder

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
    z DOUBLE NOT NULL, pvalue DOUBLE NOT NULL
);
"""

VALUES = """
SELECT campaign, server, dbms, engine, family, threads, build, config, version,
       microbenchmark, "range", "group", value, repetitions, log_var
FROM ladder_values
ORDER BY campaign, server, dbms, engine, family, threads, version_key, build, config, microbenchmark, "range"
"""


def ladder_id(campaign: str, server: str, dbms: str, engine: str, family: str, threads: int) -> str:
    return f"{campaign}.{server}.{dbms}.{engine}.{family}.{threads}"


def series_name(test: str, rng: int | None) -> str:
    return f"{test} range {rng}" if rng is not None else test


def build_ladders(con: duckdb.DuckDBPyConnection) -> int:
    """Fill ladders, ladder_builds and change_points; returns how many ladders there are."""
    con.execute(SCHEMA)
    grouped: dict[tuple, list[tuple]] = defaultdict(list)
    for row in con.execute(VALUES).fetchall():
        grouped[row[:6]].append(row[6:])
    ladders, positions, changes = [], [], []
    for key, rows in grouped.items():
        variants = list(dict.fromkeys((b, c, v) for b, c, v, *_ in rows))
        if len(variants) < MIN_BUILDS:
            continue
        lid = ladder_id(*key)
        index = {(b, c): i for i, (b, c, _) in enumerate(variants)}
        values: dict[tuple, dict[int, float]] = defaultdict(dict)
        groups, variances, reps = {}, [], 1
        for b, c, _, test, rng, group, value, repetitions, log_var in rows:
            values[(test, rng)][index[(b, c)]] = value
            groups[series_name(test, rng)] = group
            reps = max(reps, repetitions)
            if log_var is not None:
                variances.append(log_var / repetitions)  # the variance of a mean of repetitions
        complete = {series_name(*k): [v[i] for i in range(len(variants))] for k, v in values.items()
                    if len(v) == len(variants) and all(x > 0 for x in v.values())}
        if not complete:
            continue
        spread = math.sqrt(sum(variances) / len(variances)) if variances else None
        found, sigma, drift = detect(complete, groups, spread)
        ladders.append((lid, *key, len(variants), len(complete), len(values) - len(complete), sigma, reps))
        positions += [(lid, i, b, c, v, drift[i]) for i, (b, c, v) in enumerate(variants)]
        campaign, server, dbms, _, family, threads = key
        tests = {series_name(*k): k for k in values}
        for ch in found:
            test, rng = tests.get(ch.series, (None, None))
            kind = "series" if test else ch.series.split(":")[0]
            (b0, c0, v0), (b1, c1, v1) = variants[ch.index - 1], variants[ch.index]
            changes.append((lid, campaign, server, dbms, family, threads, ch.series, kind, test, rng,
                            groups.get(ch.series) or (ch.series.split(": ")[1] if kind == "median" else None),
                            ch.index, f"{b0}.{c0}", f"{b1}.{c1}", v0, v1, ch.change,
                            "regression" if ch.change < 0 else "improvement", ch.z, ch.pvalue))
    for table, rows in (("ladders", ladders), ("ladder_builds", positions), ("change_points", changes)):
        if rows:
            columns = [d[0] for d in con.execute(f"SELECT * FROM {table} LIMIT 0").description]
            insert_columns(con, table, columns, [list(c) for c in zip(*rows, strict=True)])
    con.execute(query("known_matches"))
    return len(ladders)
