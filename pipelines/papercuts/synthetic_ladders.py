"""SYNTHETIC version ladders with known steps, for the detection benchmark (`make bench`).

Never written under data/ and never published: labelled series in memory. Each ladder has 30
microbenchmarks (10 per group) over N builds: a slow drift shared by all of them, 2 % noise per
run (log-normal), R runs per build averaged, and in one series of five one step of a given size at
a random build (the others are flat, for false alarms).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

GROUPS = ("point", "range", "write")
STEPPED = 5  # one series in five has a step of its own; the rest are flat (false alarms)


@dataclass(frozen=True)
class Ladder:
    series: dict[str, list[float]]  # name -> QPS per build (mean of the runs)
    groups: dict[str, str]
    steps: dict[str, int]  # series with an injected step -> the build index it starts at
    spread: float | None  # the per-point noise the runs show (None for one run)


def ladder(rng: random.Random, builds: int, step: float, runs: int, noise: float = 0.02,
           drift: float = 0.002, per_ladder: int = 30) -> Ladder:
    shared = [drift * b + 0.01 * math.sin(b / 3) for b in range(builds)]  # slow, not a step
    series, groups, steps, variances = {}, {}, {}, []
    for i in range(per_ladder):
        name = f"synthetic-{i}"
        groups[name] = GROUPS[i % 3]
        at = rng.randrange(1, builds) if i % STEPPED == 0 else None
        base = rng.uniform(math.log(1e3), math.log(1e5))
        values = []
        for b in range(builds):
            level = base + shared[b] + (math.log1p(step) if at is not None and b >= at else 0.0)
            samples = [level + rng.gauss(0, noise) for _ in range(runs)]
            mean = sum(samples) / runs
            if runs > 1:
                variances.append(sum((s - mean) ** 2 for s in samples) / (runs - 1) / runs)
            values.append(math.exp(mean))
        series[name] = values
        if at is not None:
            steps[name] = at
    spread = math.sqrt(sum(variances) / len(variances)) if variances else None
    return Ladder(series, groups, steps, spread)
