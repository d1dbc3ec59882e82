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
   searched again. With n builds this is O(n log n) per series; the open segments of every series
   of a ladder are scored together (numpy), so a ladder costs a few passes over its matrix.

Every change names the builds it sits between, its relative size (mean after / mean before - 1
on the series as measured, drift included, over the builds up to the neighbouring changes of the
series, of the drift and of its group's median: bounded by its own changes alone, the segment
before an 8.0 -> 8.4 step held 5.6 and 5.7, faster by a version-wide step, and made it -12 %
where the two builds differ by 3.5 %), its direction and its p-value; and its span, the
builds it lies between with probability SPAN. A small step in noise is often placed a build or
two off (on 100 builds of 3 runs, about half the 2 % steps found are), and a reader looking for
the version that brought it needs to know that; the span is the smallest set of splits of its
segment holding SPAN of the split's likelihood (a flat prior on the split and on the step's size),
widened to a run of consecutive builds. On the drift and the group medians it is wider than that
(their noise is stated generously, and the drift is smooth, not flat): a safe side to err on.
"""
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

ALPHA = 0.002  # per split tested, Bonferroni-corrected: false alarms stay near 1 per 100 series
SPAN = 0.9  # the probability a change's span holds it (make bench measures how often it does)
MIN_SEGMENT = 1
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Change:
    series: str  # microbenchmark (with its range), or "median: point" / "drift: all"
    index: int  # the change lies between builds[index - 1] and builds[index]
    change: float  # relative: exp(mean after - mean before) - 1, between the neighbouring changes
    z: float
    pvalue: float
    first: int  # the span: the change lies between builds[first - 1] and builds[last] (SPAN)
    last: int


def _split_z(prefix: np.ndarray, rows: np.ndarray, lo: np.ndarray, hi: np.ndarray,
             sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each segment values[rows[i]][lo[i]:hi[i]], at every split k: the z of the mean after k
    minus the mean before it, its standard error in units of the noise, and whether k lies inside
    the segment with MIN_SEGMENT points on each side; every segment at once, from the rows'
    prefix sums."""
    n = prefix.shape[1] - 1
    ks = np.arange(1, n)
    nl, nr = ks - lo[:, None], hi[:, None] - ks
    valid = (nl >= MIN_SEGMENT) & (nr >= MIN_SEGMENT)
    nl, nr = np.maximum(nl, 1), np.maximum(nr, 1)  # outside the segment: any number, masked below
    sums = prefix[rows]
    at = np.arange(len(rows))
    base = sums[at, lo]
    left = sums[:, 1:n] - base[:, None]
    total = sums[at, hi] - base
    se = np.sqrt(1 / nl + 1 / nr)
    return ((total[:, None] - left) / nr - left / nl) / (sigma[rows, None] * se), se, valid


def _best_splits(prefix: np.ndarray, rows: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                 sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each segment (of at least 2 * MIN_SEGMENT points), the split k with the largest |z|, and
    that z. Ties go to the first k."""
    z, _, valid = _split_z(prefix, rows, lo, hi, sigma)
    best = np.where(valid, np.abs(z), -1.0).argmax(axis=1)
    return best + 1, z[np.arange(len(rows)), best]


def segment_all(values: np.ndarray, sigma: np.ndarray, alpha: float = ALPHA) -> list[list[tuple[int, float, float]]]:
    """Binary segmentation of every row of values (series x builds, log units) with per-point noise
    sigma[row]: per row, its change indexes (index, z, p), in order. A split is kept when its
    p-value, Bonferroni-corrected for the splits tried, is below alpha; each side is then searched
    again. The segments still open are searched together, one pass over the matrix per round."""
    count, n = values.shape
    found: list[list[tuple[int, float, float]]] = [[] for _ in range(count)]
    if n < 2 * MIN_SEGMENT:
        return found
    prefix = np.zeros((count, n + 1))
    np.cumsum(values, axis=1, out=prefix[:, 1:])
    rows = np.flatnonzero(sigma > 0)
    lo, hi = np.zeros(len(rows), dtype=np.int64), np.full(len(rows), n, dtype=np.int64)
    while len(rows):
        ks, zs = _best_splits(prefix, rows, lo, hi, sigma)
        kept = []
        for i, (row, k, z, a, b) in enumerate(zip(rows.tolist(), ks.tolist(), zs.tolist(), lo.tolist(), hi.tolist(),
                                                  strict=True)):
            p = min(1.0, 2 * (1 - _NORMAL.cdf(abs(z))) * (b - a - 1))
            if p < alpha:
                found[row].append((k, z, p))
                kept.append(i)
        kept = np.array(kept, dtype=np.int64)
        rows = np.concatenate([rows[kept], rows[kept]])
        lo, hi = np.concatenate([lo[kept], ks[kept]]), np.concatenate([ks[kept], hi[kept]])
        wide = hi - lo >= 2 * MIN_SEGMENT
        rows, lo, hi = rows[wide], lo[wide], hi[wide]
    return [sorted(f) for f in found]


def segment(values: list[float], sigma: float, alpha: float = ALPHA) -> list[tuple[int, float, float]]:
    """Change indexes of one series of log values with per-point noise sigma: (index, z, p)."""
    return segment_all(np.array([values], dtype=float), np.array([sigma]), alpha)[0]


def noise(residual: np.ndarray, spread: float | None = None) -> float:
    """Per-point noise of a ladder's (drift-removed) log series (series x builds): the median absolute
    successive difference / (0.6745 * sqrt 2), which a few steps barely move; at least the
    repetitions' spread."""
    diffs = np.abs(np.diff(residual, axis=1))
    sigma = float(_median(diffs.reshape(-1), 0)) / (0.6745 * math.sqrt(2)) if diffs.size else 0.0
    return max(sigma, spread or 0.0)


def spans(values: np.ndarray, sigma: np.ndarray, rows: np.ndarray, lo: np.ndarray, hi: np.ndarray,
          index: np.ndarray, level: float = SPAN) -> tuple[np.ndarray, np.ndarray]:
    """For each change i, found at split index[i] of values[rows[i]][lo[i]:hi[i]] (per-point noise
    sigma[rows[i]]), the splits it lies in with probability `level`: each split j weighted by its
    likelihood with the step's size integrated out under a flat prior, se_j exp(z_j^2 / 2), the
    most likely taken until they hold `level`, and the run of splits from the first of them (or
    the index) to the last, as (first, last). Every change at once, as segment_all scores splits."""
    n = values.shape[1]
    prefix = np.zeros((values.shape[0], n + 1))
    np.cumsum(values, axis=1, out=prefix[:, 1:])
    z, se, valid = _split_z(prefix, rows, lo, hi, sigma)
    weight = np.where(valid, z * z / 2 + np.log(se), -np.inf)
    p = np.exp(weight - weight.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    order = np.argsort(-p, axis=1, kind="stable")
    need = (np.cumsum(np.take_along_axis(p, order, axis=1), axis=1) < level).sum(axis=1) + 1
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.broadcast_to(np.arange(n - 1), order.shape), axis=1)
    taken = (rank < need[:, None]) & valid
    ks = np.arange(1, n)
    first = np.where(taken, ks, n).min(axis=1)
    last = np.where(taken, ks, 0).max(axis=1)
    return np.minimum(first, index), np.maximum(last, index)


def _changes(names: list[str], logs: np.ndarray, values: np.ndarray, sigma: np.ndarray,
             found: list[list[tuple[int, float, float]]], neighbours: list[list[int]] | None = None) -> list[Change]:
    """The changes of these series (rows): sizes on their logs as measured, between their own
    changes and each row's `neighbours` (its ladder's drift's and group median's changes), spans
    on the values searched, all spans at once."""
    rows, lo, hi, at = [], [], [], []
    for row, f in enumerate(found):
        bounds = [0, *(k for k, _, _ in f), values.shape[1]]
        for i, (k, _, _) in enumerate(f):
            rows.append(row), lo.append(bounds[i]), hi.append(bounds[i + 2]), at.append(k)
    if not rows:
        return []
    first, last = spans(values, sigma, *(np.array(x, dtype=np.int64) for x in (rows, lo, hi, at)))
    out, i = [], 0
    for row, (name, xs, f) in enumerate(zip(names, logs, found, strict=True)):
        bounds = {k for k, _, _ in f} | set(neighbours[row] if neighbours else ())
        for k, z, p in f:
            out.append(Change(name, k, _relative(xs, k, bounds), z, p, int(first[i]), int(last[i])))
            i += 1
    return out


def _relative(values: np.ndarray, index: int, changes: set[int] | list[int]) -> float:
    """exp(mean of the segment after - mean of the segment before) - 1, segments bounded by the
    neighbouring changes."""
    bounds = [0, *sorted(changes), len(values)]
    i = bounds.index(index)
    before, after = values[bounds[i - 1]:index], values[index:bounds[i + 1]]
    return math.exp(float(_mean(after) - _mean(before))) - 1


def _mean(xs: np.ndarray) -> np.float64:
    """xs.mean() to the last bit (the same sum, divided by the count) without its checks (x100,
    under cProfile: 27,000 calls of .mean() took 0.15 s)."""
    return np.add.reduce(xs) / xs.size


def _median(xs: np.ndarray, axis: int) -> np.ndarray:
    """np.median(xs, axis) to the last bit (the middle value, or the middle two's (a + b) / 2; NaN
    where there is one), from a sort: numpy's sort of floats is vectorised, and on a ladder's matrix
    (x100: 40 x 100) twice as fast as np.median's partition (which was a third of the search)."""
    ordered = np.sort(xs, axis=axis)
    n = ordered.shape[axis]
    mid = ordered.take(n // 2, axis=axis)
    if n % 2 == 0:
        mid = (ordered.take(n // 2 - 1, axis=axis) + mid) / 2
    return np.where(np.isnan(ordered.take(-1, axis=axis)), np.nan, mid)  # NaN sorts last


def median_polish(logs: np.ndarray, rounds: int = 6,
                  level: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Tukey's median polish of log QPS (series x builds) = level per series + drift per build:
    medians, so the few series with a step of their own do not move the drift (a mean, or a running
    sum of per-step medians, would carry their steps or its own errors into every series). Given the
    levels of an earlier polish, it starts from them (fewer rounds do)."""
    drift = np.zeros(logs.shape[1])
    level = _median(logs, 1) if level is None else level
    for _ in range(rounds):
        drift = _median(logs - level[:, None], 0)
        level = _median(logs - drift, 1)
    shift = drift[0]
    return drift - shift, level + shift


def _minus_steps(xs: np.ndarray, residual: np.ndarray, changes: list[int]) -> np.ndarray:
    """xs without the steps found in it: each segment's mean residual taken out."""
    bounds = [0, *sorted(changes), len(xs)]
    out = xs.copy()
    for a, b in zip(bounds, bounds[1:], strict=False):
        out[a:b] -= _mean(residual[a:b])
    return out


def detect(series: dict[str, list[float]], groups: dict[str, str], spread: float | None = None,
           alpha: float = ALPHA) -> tuple[list[Change], float, list[float]]:
    """Changes in one ladder: series name -> QPS per build (same builds, in ladder order, all > 0);
    groups: series name -> point/range/write. Returns the changes, the per-point noise (log units)
    and the shared drift per build (log units, first build 0)."""
    names = list(series)
    n = len(series[names[0]]) if names else 0
    if n < 2:
        return [], 0.0, [0.0] * n
    logs = np.log(np.array([series[name] for name in names], dtype=float))
    drift, level = median_polish(logs)
    for refined in (False, True):
        centred = logs - level[:, None]
        residual = centred - drift
        sigma = noise(residual, spread)
        found = segment_all(residual, np.full(len(names), sigma), alpha)
        stepped = [i for i, f in enumerate(found) if f]
        if refined or not stepped:
            break
        # A series' own steps still pull the medians a little, so the drift carries a trace of each
        # and hides part of it: estimate the drift again with the steps found taken out, once.
        without = logs.copy()
        for i in stepped:
            without[i] = _minus_steps(logs[i], residual[i], [k for k, _, _ in found[i]])
        start = level.copy()
        start[stepped] += logs[stepped].mean(axis=1) - without[stepped].mean(axis=1)
        drift, _ = median_polish(without, 2, start)
        level = _median(logs - drift, 1)
    # Version-wide steps: the drift itself and each group's median (both keep the shared part).
    shared, noises = ["drift: all"], [sigma * 1.2533 / math.sqrt(len(names))]
    lines = [drift]
    for group in sorted(set(groups.values())):
        members = [i for i, name in enumerate(names) if groups.get(name) == group]
        if len(members) >= 3:
            shared.append(f"median: {group}")
            lines.append(_median(centred[members], 0))
            noises.append(sigma * 1.2533 / math.sqrt(len(members)) * math.sqrt(2))
    lines, noises = np.array(lines), np.array(noises)
    found_shared = segment_all(lines, noises, alpha)
    at = {name: [k for k, _, _ in f] for name, f in zip(shared, found_shared, strict=True)}
    bounds = [at["drift: all"] + at.get(f"median: {groups.get(name)}", []) for name in names]
    # The series' changes, then the shared lines': in one _changes, its rows' spans all at once.
    changes = _changes(names + shared, np.vstack([logs, lines]), np.vstack([residual, lines]),
                       np.concatenate([np.full(len(names), sigma), noises]), found + found_shared,
                       bounds + [[]] * len(shared))
    return changes, sigma, drift.tolist()
