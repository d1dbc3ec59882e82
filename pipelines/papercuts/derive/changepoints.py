"""Change points along version ladders: where, between two builds, a series stepped.

A ladder is the builds of one campaign, server, DBMS and engine, config family and thread count,
ordered by version; its series are the microbenchmarks' log QPS along it (repetitions averaged).
Detection, for series of any length (the common real case is 4-12 builds, one run each):

1. Drift shared by every series of the ladder (a slower machine, a kernel upgrade, or a change in
   every code path) is the per-build effect of a median polish of log QPS (series level + build
   effect), which the few series with steps of their own do not move. It is removed before the
   per-series search and searched on its own, as are the point / range / write group medians:
   a version-wide step such as 5.7 -> 8.0 is found there, not 30 times over. The few series
   with steps of their own still pull the medians a little, so once the search below has found
   their steps, the drift is estimated again with those steps taken out, and the search repeated.
2. The noise of one point is estimated once per ladder from what is left, robustly: the median
   absolute successive difference of every series (a step moves one difference, not the median),
   or, where repetitions exist, their pooled spread, whichever is larger.
3. Binary segmentation: the split that maximises the two-sample z of the segment means is kept
   when its p-value, Bonferroni-corrected for the splits tried, is below ALPHA; each side is then
   searched again. With n builds this is O(n log n) per series.

Every change names the builds it sits between, its relative size (mean after / mean before - 1
on the series as measured, drift included), its direction and its p-value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist, median

ALPHA = 0.002  # per split tested, Bonferroni-corrected: false alarms stay near 1 per 100 series
MIN_SEGMENT = 1
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Change:
    series: str  # microbenchmark (with its range), or "median: point" / "drift: all"
    index: int  # the change lies between builds[index - 1] and builds[index]
    change: float  # relative: exp(mean after - mean before) - 1
    z: float
    pvalue: float


def _best_split(values: list[float], lo: int, hi: int, sigma: float) -> tuple[int, float] | None:
    """The split k in (lo, hi) with the largest |z| of mean(values[k:hi]) - mean(values[lo:k])."""
    n = hi - lo
    if n < 2 * MIN_SEGMENT or sigma <= 0:
        return None
    total = sum(values[lo:hi])
    left = 0.0
    best = None
    top = -1.0  # |z| of best: compared without rebuilding it (the loop runs per split per series)
    sqrt = math.sqrt
    for k in range(lo + MIN_SEGMENT, hi - MIN_SEGMENT + 1):
        left += values[k - 1]
        nl, nr = k - lo, hi - k
        if nr < MIN_SEGMENT:
            break
        diff = (total - left) / nr - left / nl
        z = diff / (sigma * sqrt(1 / nl + 1 / nr))
        if best is None or abs(z) > top:
            best, top = (k, z), abs(z)
    return best


def segment(values: list[float], sigma: float, alpha: float = ALPHA) -> list[tuple[int, float, float]]:
    """Change indexes of one series of log values with per-point noise sigma: (index, z, p)."""
    found: list[tuple[int, float, float]] = []
    stack = [(0, len(values))]
    while stack:
        lo, hi = stack.pop()
        best = _best_split(values, lo, hi, sigma)
        if best is None:
            continue
        k, z = best
        tried = hi - lo - 1
        p = min(1.0, 2 * (1 - _NORMAL.cdf(abs(z))) * tried)
        if p < alpha:
            found.append((k, z, p))
            stack += [(lo, k), (k, hi)]
    return sorted(found)


def _median(xs: list[float]) -> float:
    """statistics.median, bit for bit, without its generality: the median polish takes one per
    build and per series, several rounds over, for every ladder."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def noise(series: dict[str, list[float]], spread: float | None = None) -> float:
    """Per-point noise of a ladder's (drift-removed) log series: the median absolute successive
    difference / (0.6745 * sqrt 2), which a few steps barely move; at least the repetitions' spread."""
    diffs = [abs(b - a) for xs in series.values() for a, b in zip(xs, xs[1:], strict=False)]
    sigma = median(diffs) / (0.6745 * math.sqrt(2)) if diffs else 0.0
    return max(sigma, spread or 0.0)


def _relative(values: list[float], index: int, changes: list[int]) -> float:
    """exp(mean of the segment after - mean of the segment before) - 1, segments bounded by the
    neighbouring changes."""
    bounds = [0, *sorted(changes), len(values)]
    i = bounds.index(index)
    before, after = values[bounds[i - 1]:index], values[index:bounds[i + 1]]
    return math.exp(_mean(after) - _mean(before)) - 1


def _median_polish(logs: dict[str, list[float]], n: int, rounds: int = 6,
                   level: dict[str, float] | None = None) -> tuple[list[float], dict]:
    """Tukey's median polish of log QPS = level per series + drift per build: medians, so the
    few series with a step of their own do not move the drift (a mean, or a running sum of
    per-step medians, would carry their steps or its own errors into every series). Given the
    levels of an earlier polish, it starts from them (fewer rounds do)."""
    drift = [0.0] * n
    level = level or {name: _median(xs) for name, xs in logs.items()}
    names = list(logs)
    builds = list(zip(*logs.values(), strict=True))  # per build, every series' value
    for _ in range(rounds):
        levels = [level[name] for name in names]
        drift = [_median([x - v for x, v in zip(xs, levels, strict=True)]) for xs in builds]
        level = {name: _median([x - d for x, d in zip(xs, drift, strict=True)]) for name, xs in logs.items()}
    shift = drift[0]
    return [d - shift for d in drift], {name: v + shift for name, v in level.items()}


def _minus_steps(xs: list[float], residual: list[float], changes: list[int]) -> list[float]:
    """xs without the steps found in it: each segment's mean residual taken out."""
    bounds = [0, *sorted(changes), len(xs)]
    out = list(xs)
    for a, b in zip(bounds, bounds[1:], strict=False):
        m = _mean(residual[a:b])
        out[a:b] = [x - m for x in xs[a:b]]
    return out


def detect(series: dict[str, list[float]], groups: dict[str, str], spread: float | None = None,
           alpha: float = ALPHA) -> tuple[list[Change], float, list[float]]:
    """Changes in one ladder: series name -> QPS per build (same builds, in ladder order, all > 0);
    groups: series name -> point/range/write. Returns the changes, the per-point noise (log units)
    and the shared drift per build (log units, first build 0)."""
    logs = {name: [math.log(v) for v in values] for name, values in series.items()}
    n = len(next(iter(logs.values()))) if logs else 0
    if n < 2:
        return [], 0.0, [0.0] * n
    drift, level = _median_polish(logs, n)
    for refined in (False, True):
        centred = {name: [x - level[name] for x in xs] for name, xs in logs.items()}
        residual = {name: [x - d for x, d in zip(xs, drift, strict=True)] for name, xs in centred.items()}
        sigma = noise(residual, spread)
        found = {name: segment(xs, sigma, alpha) for name, xs in residual.items()}
        if refined or not any(found.values()):
            break
        # A series' own steps still pull the medians a little, so the drift carries a trace of each
        # and hides part of it: estimate the drift again with the steps found taken out, once.
        stepped = {name: _minus_steps(logs[name], residual[name], [k for k, _, _ in f])
                   for name, f in found.items() if f}
        drift, _ = _median_polish({name: stepped.get(name, xs) for name, xs in logs.items()}, n, 2,
                                  {name: level[name] - _mean(stepped[name]) + _mean(logs[name]) if name in stepped
                                   else level[name] for name in logs})
        level = {name: _median([x - d for x, d in zip(xs, drift, strict=True)]) for name, xs in logs.items()}
    changes: list[Change] = []
    for name, f in found.items():
        indexes = [k for k, _, _ in f]
        changes += [Change(name, k, _relative(logs[name], k, indexes), z, p) for k, z, p in f]
    # Version-wide steps: the drift itself and each group's median (both keep the shared part).
    count = max(len(centred), 1)
    shared = {"drift: all": (drift, sigma * 1.2533 / math.sqrt(count))}
    for group in sorted(set(groups.values())):
        members = [centred[s] for s in centred if groups.get(s) == group]
        if len(members) >= 3:
            med = [_median([xs[b] for xs in members]) for b in range(n)]
            shared[f"median: {group}"] = (med, sigma * 1.2533 / math.sqrt(len(members)) * math.sqrt(2))
    for name, (xs, s) in shared.items():
        found = segment(xs, s, alpha)
        indexes = [k for k, _, _ in found]
        changes += [Change(name, k, _relative(xs, k, indexes), z, p) for k, z, p in found]
    return changes, sigma, drift
