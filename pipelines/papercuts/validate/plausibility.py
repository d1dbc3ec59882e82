"""Warnings, not errors: a file that does not fit its peers, or numbers that are implausible.

A contributor may be right (a new microbenchmark, a 10× win), so these never fail the build;
they ask for a second look in the pull request.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import numpy as np

from ..codes import distinct_codes, keys
from ..problems import Problems
from .campaign_cache import load_saved, store
from .load import Dataset
from .rowblock import Block, Rows, campaign_rows, entries, row_at

FAR = 10.0  # an order of magnitude, as CONTRIBUTING promises
# A result check_qps_magnitude warns of, as the table flagged_results holds it (sql/schema/23_*).
FLAGGED = ("campaign", "server", "build", "config", "microbenchmark", "range", "threads", "qps", "median", "others",
           "file", "line")
RATIO_RANGE = (0.1, 10.0)


def _at(row: dict, column: str) -> tuple[str, int, int]:
    return row["_file"], row["_line"], row["_cols"].get(column, 1)


def _warn(problems: Problems, row: dict, column: str, message: str, hint: str) -> None:
    problems.warning(*_at(row, column), message, hint)


def check_ratios(ds: Dataset, problems: Problems) -> None:
    lo, hi = RATIO_RANGE
    for row in ds.rows["relative"]:
        if not lo <= row["rqps"] <= hi:
            _warn(problems, row, "rqps", f"rqps {row['rqps']:g} is more than 10× away from the base",
                  "check that it is a ratio, not a QPS or a percentage")


def check_qps_magnitude(ds: Dataset, problems: Problems) -> None:
    """A QPS 10× away from the median of the other builds' QPS for the same campaign, server, DBMS,
    test and threads is worth a second look (a misplaced decimal point, QPS for TPS, rows for Krows).
    Within one campaign and DBMS: campaigns, or Postgres and MySQL, may differ 40× by design.

    So each campaign is checked alone, and a campaign whose folder (with Papercuts' code: its
    digest, campaign_cache.folder_digest) and builds' DBMS are those of the last build's check is
    not checked again: its warnings come back from the build folder. At x100 checking every
    campaign's 10^6 rows took 0.37-0.5 s, restoring them 0.02 s."""
    dbms = {b["id"]: b["dbms"] for b in ds.rows["builds"]}
    last = load_saved(ds.checked) if ds.checked is not None else None
    last = last if isinstance(last, dict) else {}  # none, or not a memo this code wrote
    kept: dict[str, tuple] = {}
    for campaign, rows in campaign_rows(ds.rows["results"]).items():
        builds = set()
        for part in rows.parts():
            builds |= part.distinct("build") if isinstance(part, Block) else {r["build"] for r in part}
        key = (ds.digests.get(campaign), sorted((b, dbms.get(b)) for b in builds))
        found = last.get(campaign)
        if key[0] is None or not (isinstance(found, tuple) and len(found) == 2 and found[0] == key):
            found = (key, list(_far_from_median(rows, dbms)))
        if key[0] is not None:  # a campaign read without the cache has no digest to key it by
            kept[campaign] = found
        for args, flagged in found[1]:
            problems.warning(*args)
            ds.flagged.append(flagged)
    if ds.checked is not None and kept != last:
        store(ds.checked, kept)


def _far_from_median(rows: Rows, dbms: dict) -> Iterator[tuple[tuple, tuple]]:
    """Each row of one campaign 10× from its peers' median: its warning (file, line, column,
    message, hint) and its flagged_results row (FLAGGED), which the site shows beside the changes
    the value makes.

    Sorting the rows by group and QPS once makes this O(n log n): each row's leave-one-out median is
    read off the sorted values, for every row at once (numpy), instead of being recomputed per row."""
    groups: dict[tuple, int] = {}  # a group's number: the order of its first row
    group: list[np.ndarray] = []
    qps: list[np.ndarray] = []
    for part in rows.parts():
        if isinstance(part, Block):  # numbered through its columns' codes: a tuple per key, not per row
            builds, names = part.codes("build")
            at, found = keys([part.codes("server"), distinct_codes(builds, [dbms.get(b) for b in names]),
                              part.codes("microbenchmark"), part.codes("range"), part.codes("threads")])
            group.append(np.asarray([groups.setdefault(k, len(groups)) for k in found], dtype=np.int64)[at])
            qps.append(part.numbers("qps"))
        else:
            found = ((r["server"], dbms.get(r["build"]), r["microbenchmark"], r["range"], r["threads"]) for r in part)
            group.append(np.asarray([groups.setdefault(k, len(groups)) for k in found], dtype=np.int64))
            qps.append(np.asarray([r["qps"] for r in part], dtype=np.float64))
    if not sum(map(len, qps)):
        return
    # Rows by group, then by QPS (a stable sort: equal QPS in file order), then each row's median
    # of its group without it, read off the sorted values.
    every_group, every_qps = np.concatenate(group), np.concatenate(qps)
    order = np.lexsort((every_qps, every_group))
    g, v = every_group[order], every_qps[order]
    size = np.bincount(g)
    first = (np.cumsum(size) - size)[g]
    others = size[g] - 1
    pos = np.arange(len(v)) - first
    half = others // 2

    def at(t):  # the t-th of the others: the sorted values with this row left out
        return v[np.clip(first + t + (t >= pos), 0, len(v) - 1)]

    median = np.where(others % 2 == 1, at(half), (at(half - 1) + at(half)) / 2)
    far = (others >= 1) & ((v > FAR * median) | (v < median / FAR))
    for p in np.flatnonzero(far):
        row = rows[int(order[p])]  # rare: a warned row is made from its index
        value, med, n = float(v[p]), float(median[p]), int(others[p])
        yield ((*_at(row, "qps"),
                f"qps {value:g} is {value / med:.3g}× the median {med:g} of the {n} other "
                f"result{'s' if n != 1 else ''} for this campaign, server, DBMS, microbenchmark and thread count",
                "check the decimal point and the unit: queries vs transactions, rows vs Krows"),
               (*(row[c] for c in FLAGGED[:7]), value, med, n, row["_published"], row["_line"]))


def _shape_rows(part, shape: dict) -> None:
    for (server, campaign, name, rng, threads), where, i in entries(
            part, ("server", "campaign", "microbenchmark", "range", "threads")):
        s = shape.get((server, campaign))
        if s is None:
            s = shape[(server, campaign)] = {"tests": set(), "threads": set(), "row": (where, i)}
        s["tests"].add((name, rng))
        s["threads"].add(threads)


def check_fit(ds: Dataset, problems: Problems) -> None:
    """The newest campaign on a server should measure what the previous one measured."""
    dates = {c["id"]: c.get("date", "") for c in ds.campaigns}
    shape: dict[tuple[str, str], dict] = {}
    for part in ds.rows["results"].parts():
        if isinstance(part, Block) and len(servers := part.distinct("server")) == 1:  # its columns' distinct values
            s = shape.setdefault((servers.pop(), part.campaign),
                                 {"tests": set(), "threads": set(), "row": (part, 0)})
            s["tests"] |= set(keys([part.codes("microbenchmark"), part.codes("range")])[1])
            s["threads"] |= part.distinct("threads")
        else:
            _shape_rows(part, shape)
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
