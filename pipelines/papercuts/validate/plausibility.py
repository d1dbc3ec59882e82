"""Warnings, not errors: a file that does not fit its peers, or numbers that are implausible.

A contributor may be right (a new microbenchmark, a 10× win), so these never fail the build;
they ask for a second look in the pull request.
"""
from __future__ import annotations

from collections import defaultdict

from ..problems import Problems
from .load import Dataset
from .rowblock import entries, row_at

FAR = 10.0  # an order of magnitude, as CONTRIBUTING promises
RATIO_RANGE = (0.1, 10.0)


def _warn(problems: Problems, row: dict, column: str, message: str, hint: str) -> None:
    problems.warning(row["_file"], row["_line"], row["_cols"].get(column, 1), message, hint)


def check_ratios(ds: Dataset, problems: Problems) -> None:
    lo, hi = RATIO_RANGE
    for row in ds.rows["relative"]:
        if not lo <= row["rqps"] <= hi:
            _warn(problems, row, "rqps", f"rqps {row['rqps']:g} is more than 10× away from the base",
                  "check that it is a ratio, not a QPS or a percentage")


def _median_without(values: list[float], i: int) -> float:
    """Median of sorted `values` with the element at index i left out, in O(1)."""
    m = len(values) - 1
    def at(j: int) -> float:
        return values[j] if j < i else values[j + 1]
    return at(m // 2) if m % 2 else (at(m // 2 - 1) + at(m // 2)) / 2


def check_qps_magnitude(ds: Dataset, problems: Problems) -> None:
    """A QPS 10× away from the median of the other builds' QPS for the same campaign, server, DBMS,
    test and threads is worth a second look (a misplaced decimal point, QPS for TPS, rows for Krows).
    Within one campaign and DBMS: campaigns, or Postgres and MySQL, may differ 40× by design.

    Sorting each group once makes this O(n log n): the leave-one-out median is read off the
    sorted list instead of being recomputed per row."""
    dbms = {b["id"]: b["dbms"] for b in ds.rows["builds"]}
    peers = defaultdict(list)
    for (campaign, server, build, name, rng, threads, qps), part, i in entries(
            ds.rows["results"], ("campaign", "server", "build", "microbenchmark", "range", "threads", "qps")):
        peers[(campaign, server, dbms.get(build), name, rng, threads)].append((qps, part, i))
    for group in peers.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda g: g[0])
        values = [qps for qps, _, _ in group]
        for i, (qps, part, j) in enumerate(group):
            median = _median_without(values, i)
            if qps > FAR * median or qps < median / FAR:
                n = len(values) - 1
                _warn(problems, row_at(part, j), "qps",
                      f"qps {qps:g} is {qps / median:.3g}× the median {median:g} of the {n} other "
                      f"result{'s' if n != 1 else ''} for this campaign, server, DBMS, microbenchmark and thread count",
                      "check the decimal point and the unit: queries vs transactions, rows vs Krows")


def check_fit(ds: Dataset, problems: Problems) -> None:
    """The newest campaign on a server should measure what the previous one measured."""
    dates = {c["id"]: c.get("date", "") for c in ds.campaigns}
    shape: dict[tuple[str, str], dict] = {}
    for (server, campaign, name, rng, threads), part, i in entries(
            ds.rows["results"], ("server", "campaign", "microbenchmark", "range", "threads")):
        s = shape.get((server, campaign))
        if s is None:
            s = shape[(server, campaign)] = {"tests": set(), "threads": set(), "row": (part, i)}
        s["tests"].add((name, rng))
        s["threads"].add(threads)
    by_server = defaultdict(list)
    for (server, campaign), s in shape.items():
        by_server[server].append((dates.get(campaign, ""), campaign, s))
    for server, items in by_server.items():
        items.sort(key=lambda i: (i[0], i[1]))
        if len(items) < 2 or items[-1][0] == items[-2][0]:
            continue  # nothing older to compare with, or no single newest campaign
        (_, campaign, new), (_, previous, old) = items[-1], items[-2]
        missing = sorted(t[0] for t in old["tests"] - new["tests"])
        if missing:
            _warn(problems, row_at(*new["row"]), "microbenchmark",
                  f"campaign {campaign} lacks {len(missing)} microbenchmark(s) that {previous} measured "
                  f"on {server}: {', '.join(missing[:5])}", "add them, or say why in campaign.toml notes")
        if new["threads"] != old["threads"]:
            _warn(problems, row_at(*new["row"]), "threads",
                  f"campaign {campaign} uses thread counts {sorted(new['threads'])} where {previous} "
                  f"used {sorted(old['threads'])} on {server}", "say why in campaign.toml notes")


def check_plausibility(ds: Dataset, problems: Problems) -> None:
    check_ratios(ds, problems)
    check_qps_magnitude(ds, problems)
    check_fit(ds, problems)
